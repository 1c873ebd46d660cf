"""The sample program's call of each function: the document's own call, argument for argument,
when its sample's arguments were all read; else one derived from the documented rules
(documented dtypes, a shape meeting the shape rules, valid values)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import get_args

from specgen import vocab
from specgen.codegen.cases import plain_rule
from specgen.codegen.errors import LowerError
from specgen.codegen.names import sample_variables
from specgen.codegen.runtime._shapes import output_dtype, output_shape
from specgen.codegen.typemap import ACL_ENUM, DTYPE_HOST, PREFERRED_DTYPES, RAW_BITS, VALUE_DTYPES, VALUE_RANGE
from specgen.codegen.views import SampleArg, SampleKind, SamplePlan
from specgen.model import CallArg, Check, Constraint, Function, OperatorDoc, Param

_SHAPE_DECL = re.compile(r"std::vector<int64_t>\s+(\w+?)Shape\s*=\s*\{\s*(\d{1,6}(?:\s*,\s*\d{1,6})*)\s*\}")
MAX_SAMPLE_ELEMENTS = 4096  # tensors up to this size get spelled-out data, larger ones zeros
MAX_SAMPLE_BYTES = 256 * 2**20  # a document's call with larger tensors is not reproduced
SAMPLE_FORMATS = ("ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_Z", "HWCN", "NDHWC", "FRACTAL_NZ", "NCDHW", "NC", "NCL")
# Array kinds: the C++ element type and the dtype their literals are checked against.
_ARRAY_TYPES = {"int_array": ("int64_t", "INT64"), "bool_array": ("bool", "BOOL"), "float_array": ("float", "FLOAT")}
_SAMPLE_KINDS: dict[str, SampleKind] = {k: k for k in get_args(SampleKind)}
# The one element of a derived array.
_ARRAY_DEFAULTS: dict[str, object] = {"int_array": 1, "bool_array": True, "float_array": 1.0}


def sample_plan(doc: OperatorDoc, fn: Function) -> SamplePlan:
    """The document's own call when its sample's arguments were all read, else a derived one."""
    params = [p for p in fn.params if p.kind not in ("workspace_size", "executor") and not p.out_value]
    variables = sample_variables([p.name for p in params])
    args, note = _args_from_call(fn, params)
    if args is None:
        args = _derived_args(doc, fn, params)
    args = [dataclasses.replace(a, var=variables[a.name]) for a in args]
    printers = {a.printer for a in args} | {i.printer for a in args for i in a.items}
    return SamplePlan(
        args=tuple(args),
        needs_complex="complex" in printers,
        needs_half=bool(printers & {"half", "bfloat"}),
        from_document=note == "",
        line=fn.sample_call.line if fn.sample_call and note == "" else 0,
        note=note,
    )


def sample_dtype(param: Param, chosen: dict[str, str]) -> str:
    """The dtype a sample builds a tensor with: one the document allows, FLOAT if it can."""
    allowed = param.dtypes_on(None)
    for peer in relation_peers(param, "same_dtype"):
        if peer in chosen and (not allowed or chosen[peer] in allowed):
            return chosen[peer]
    for dtype in PREFERRED_DTYPES:
        if dtype in allowed:
            return dtype
    return allowed[0] if allowed else "FLOAT"  # an exotic dtype: its data are raw bytes


def relation_peers(param: Param, kind: str) -> list[str]:
    """The parameters a relation of `kind` (same_dtype, same_shape, broadcast...) ties `param` to."""
    return [p for c in param.of_kind(kind) for p in c.params]  # type: ignore[arg-type]


# ---------------------------------------------------------------- the document's own call


class _Unusable(Exception):
    """The document's call cannot be reproduced by the sample (the reason is the message)."""


def _args_from_call(fn: Function, params: list[Param]) -> tuple[list[SampleArg] | None, str]:
    """The sample's arguments as the document's sample makes them, or None and why not."""
    call = fn.sample_call
    if call is None:
        return None, "the document's sample does not call this function"
    if len(call.args) != len(fn.params):
        return None, f"the document's call has {len(call.args)} arguments, the prototype {len(fn.params)}"
    if not call.resolved:
        unread = next(a for a in call.args if not a.resolved)
        return None, f"argument {unread.text!r} of the document's call was not read: {unread.unresolved or 'unknown'}"
    by_name = dict(zip((p.name for p in fn.params), call.args, strict=True))
    seq = count()
    try:
        return [_from_call(p, by_name[p.name], seq) for p in params], ""
    except _Unusable as exc:
        return None, str(exc)


def _from_call(param: Param, arg: CallArg, seq: count) -> SampleArg:
    comment = f"{param.direction}, {param.c_type}; as in the document's sample, line {arg.line}"
    if arg.kind == "null":
        return SampleArg(param.name, "null", comment=comment)
    if arg.kind not in _CALL_KINDS.get(param.kind, ()):
        raise _Unusable(f"{param.name} is a {param.c_type} but the document's sample passes a {arg.kind}")
    return _FROM_CALL[arg.kind](param, arg, seq, comment)


# The call argument kinds each parameter kind accepts.
_CALL_KINDS = {
    "tensor": ("tensor",),
    "tensor_list": ("tensor_list",),
    "scalar": ("scalar",),
    "scalar_list": ("scalar_list",),
    "int_array": ("int_array",),
    "bool_array": ("bool_array",),
    "float_array": ("float_array",),
    "string": ("string",),
    "int": ("value",),
    "float": ("value",),
    "bool": ("value",),
    "dtype": ("value",),
}


def _tensor_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    # the document's shape, dtype and format; the data are the sample's own, inside any documented range
    fmt = arg.format or "ND"
    return _tensor_arg(param, arg.shape or (), arg.dtype or "", fmt, next(seq), comment, _element_range(param))


def _tensor_list_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    bounds = _element_range(param)
    items = tuple(
        _tensor_arg(param, i.shape or (), i.dtype or "", i.format or "ND", next(seq), "", bounds) for i in arg.items
    )
    if not items:
        raise _Unusable(f"{param.name}: the document's sample passes an empty tensor list")
    return SampleArg(param.name, "tensor_list", comment=comment, items=items, prints=items[0].prints)


def _scalar_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    return _scalar_arg(param, arg, comment)


def _array_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    return _array_arg(param, arg.kind, tuple(arg.elements or ()), comment)


def _string_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    return SampleArg(param.name, "string", values=(str(arg.value),), comment=comment, value=str(arg.value))


def _value_from_call(param: Param, arg: CallArg, seq: count, comment: str) -> SampleArg:
    return _value_arg(param, arg.value, comment)


_FROM_CALL: dict[str, Callable[[Param, CallArg, count, str], SampleArg]] = {
    "tensor": _tensor_from_call,
    "tensor_list": _tensor_list_from_call,
    "scalar": _scalar_from_call,
    "scalar_list": _scalar_from_call,
    "int_array": _array_from_call,
    "bool_array": _array_from_call,
    "float_array": _array_from_call,
    "string": _string_from_call,
    "value": _value_from_call,
}


# ---------------------------------------------------------------- arguments, by kind


def _tensor_arg(
    param: Param, shape: tuple[int, ...], dtype: str, fmt: str, k: int, comment: str, bounds: Constraint | None = None
) -> SampleArg:
    """A tensor of the sample: its host data spelled out when small (inside `bounds`, a
    documented range of its elements, when given), zeros when large."""
    if fmt not in SAMPLE_FORMATS:
        raise _Unusable(f"{param.name}: the sample cannot name format {fmt}")
    if dtype not in DTYPE_HOST and dtype not in RAW_BITS:
        raise _Unusable(f"{param.name}: the sample cannot hold dtype {dtype or 'unknown'}")
    if any(d < 0 for d in shape) or len(shape) > 8:
        raise _Unusable(f"{param.name}: shape {shape} is not one a sample can allocate")
    n = _element_count(shape)
    if dtype in DTYPE_HOST:
        cpp, acl, _, printer = DTYPE_HOST[dtype]
        data_count = n
    else:  # raw bytes, enough for n elements
        cpp, acl, printer = "uint8_t", f"ACL_{dtype}", "integer"
        data_count = (n * RAW_BITS[dtype] + 7) // 8
    if data_count * 8 > MAX_SAMPLE_BYTES:
        raise _Unusable(f"{param.name}: shape {shape} is too large for a sample")
    spelled = n <= MAX_SAMPLE_ELEMENTS and dtype in DTYPE_HOST
    return SampleArg(
        param.name,
        "tensor",
        cpp_type=cpp,
        acl_dtype=acl,
        acl_format=f"ACL_FORMAT_{fmt}",
        format=fmt,
        shape=shape,
        values=tuple(_literal(dtype, k * 3 + i, bounds) for i in range(n)) if spelled else (),
        data_count=data_count,
        printer=printer,
        prints=param.direction in ("out", "inout"),
        comment=comment,
        dtype=dtype,
    )


def _element_range(param: Param) -> Constraint | None:
    """The documented range of a tensor's elements ("元素需大于等于0"), if any."""
    return next(iter(param.of_kind("range")), None)


def _element_count(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _scalar_arg(param: Param, arg: CallArg, comment: str) -> SampleArg:
    """An aclScalar (or a scalar list) of the argument's dtype and value(s)."""
    dtype = arg.dtype or ""
    if dtype not in DTYPE_HOST or DTYPE_HOST[dtype].printer == "complex":
        raise _Unusable(f"{param.name}: the sample cannot make a scalar of dtype {dtype or 'unknown'}")
    cpp, acl, _, printer = DTYPE_HOST[dtype]
    elements = tuple(arg.elements or ()) if arg.kind == "scalar_list" else (arg.value,)
    literals = []
    for v in elements:
        if not isinstance(v, int | float) or not _fits(v, dtype):
            raise _Unusable(f"{param.name}: value {v!r} does not fit a {dtype} scalar")
        literal = _c_literal(v, dtype)
        if printer in ("half", "bfloat"):
            literal = f"{'FloatToHalf' if printer == 'half' else 'FloatToBfloat'}({float(v)}f)"
        literals.append(literal)
    return SampleArg(
        param.name,
        "scalar_list" if arg.kind == "scalar_list" else "scalar",
        cpp_type=cpp,
        acl_dtype=acl,
        printer=printer,
        values=tuple(literals),
        comment=comment,
        dtype=dtype,
        value=arg.value,
        elements=elements if arg.kind == "scalar_list" else (),
    )


def _array_arg(param: Param, kind: str, elements: tuple, comment: str) -> SampleArg:
    """An int, bool or float array of these elements."""
    cpp, dtype = _ARRAY_TYPES[kind]
    literals = tuple(_array_literal(v, dtype) for v in elements)
    return SampleArg(param.name, _SAMPLE_KINDS[kind], cpp_type=cpp, values=literals, comment=comment, elements=elements)


def _value_arg(param: Param, value: object, comment: str) -> SampleArg:
    """A plain C value: a number, a bool, or an aclDataType."""
    base = _value_type(param)
    if param.kind == "dtype" or (param.kind == "int" and isinstance(value, str)):  # ACL_INT8 as a number
        if not isinstance(value, str) or value not in vocab.DTYPES:
            raise _Unusable(f"{param.name}: {value!r} is not an aclDataType")
        literal = ACL_ENUM.get(value, f"ACL_{value}")
        return SampleArg(param.name, "value", cpp_type=base, values=(literal,), comment=comment, value=value)
    if param.kind == "bool":
        if not isinstance(value, bool | int):
            raise _Unusable(f"{param.name}: {value!r} is not a bool")
        literal = "true" if value else "false"
        return SampleArg(param.name, "value", cpp_type=base, values=(literal,), comment=comment, value=bool(value))
    dtype = _value_dtype(param)
    if isinstance(value, bool) or not isinstance(value, int | float) or not _fits(value, dtype):
        raise _Unusable(f"{param.name}: {value!r} is not a value of C type {base}")
    if dtype.startswith(("INT", "UINT")) and value != int(value):
        raise _Unusable(f"{param.name}: {value!r} is not an integer")
    return SampleArg(
        param.name, "value", cpp_type=base, values=(_c_literal(value, dtype),), comment=comment, value=value
    )


def _value_type(param: Param) -> str:
    """The C type of a plain value, without `const`."""
    return param.c_type.replace("const", "").strip()


def _value_dtype(param: Param) -> str:
    """The dtype whose range a plain numeric value must fit."""
    return VALUE_DTYPES.get(_value_type(param), "INT64" if param.kind == "int" else "DOUBLE")


def _fits(value: float, dtype: str) -> bool:
    low, high = VALUE_RANGE.get(dtype, (-(2**63), 2**63 - 1))
    return low <= value <= high


def _array_literal(value: object, dtype: str) -> str:
    if dtype == "BOOL":
        return "true" if value else "false"
    if not isinstance(value, int | float) or isinstance(value, bool) and dtype != "BOOL" or not _fits(value, dtype):
        raise _Unusable(f"array element {value!r} is not a {dtype} value")
    return _c_literal(value, dtype)


def _c_literal(value: float, dtype: str) -> str:
    if dtype.startswith(("INT", "UINT")) or dtype == "BOOL":
        n = int(value)
        return f"{n}{'ULL' if dtype.startswith('U') else 'LL'}" if abs(n) > 2**31 - 1 else str(n)
    return f"{float(value)}f" if dtype == "FLOAT" else f"{float(value)}"


def _literal(dtype: str, i: int, bounds: Constraint | None = None) -> str:
    """Deterministic sample data: small values exact in every floating type, inside `bounds`
    (a documented range of the tensor's elements) when given."""
    if dtype in ("FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16", "COMPLEX64", "COMPLEX128"):
        value = _inside(((i * 7) % 13 - 6) * 0.25, bounds, 0.25)
        return f"{value}f" if dtype == "FLOAT" else f"{value}"
    if dtype == "BOOL":
        return str(i % 2)
    if dtype.startswith("UINT") or dtype not in DTYPE_HOST:  # raw bytes of an exotic dtype
        return str(i % 7)
    return str(int(_inside((i * 5) % 9 - 4, bounds, 1)))


def _inside(value: float, bounds: Constraint | None, step: float) -> float:
    """`value` moved inside the documented range: folded above the lower bound, then held
    below the upper one (a step inside an exclusive bound)."""
    if bounds is None:
        return value
    low, high = bounds.min, bounds.max
    if low is not None and (value < low or (value == low and not bounds.min_inclusive)):
        value = low + abs(value - low) if value != low else low + step
        value = value if value != low or bounds.min_inclusive else low + step
    if high is not None and (value > high or (value == high and not bounds.max_inclusive)):
        value = high - (0 if bounds.max_inclusive else step)
        if low is not None and (value < low or (value == low and not bounds.min_inclusive)):
            value = (low + high) / 2  # a narrow range: its middle
    return value


# ---------------------------------------------------------------- the derived call


@dataclass
class _Derivation:
    """What the arguments derived so far fix for the next ones."""

    doc_shapes: dict[str, tuple[int, ...]]  # shapes the document's own sample declares
    dtypes: dict[str, str] = field(default_factory=dict)  # chosen so far, by parameter
    shapes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    seq: count = field(default_factory=count)  # numbers the tensors, so that their data differ
    # the sets and bounds unconditional error rows give one value parameter (`threshold不等于0`)
    bounds: dict[str, list[Check]] = field(default_factory=dict)


def _derived_args(doc: OperatorDoc, fn: Function, params: list[Param]) -> list[SampleArg]:
    doc_shapes = _doc_sample_shapes(doc)
    for name, members in same_shape_groups(fn).items():  # one documented shape serves its whole group
        found = next((doc_shapes[m] for m in members if m in doc_shapes), None)
        if found and name not in doc_shapes:
            doc_shapes[name] = found
    derivation = _Derivation(doc_shapes, bounds=_error_row_bounds(fn))
    args = [_derived_arg(param, derivation) for param in params]
    axes = _axis_params(fn)
    args = [_first_axis(a) if a.name in axes else a for a in args]
    return _outputs_by_rule(params, _inputs_by_rule(params, args))


def _inputs_by_rule(params: list[Param], args: list[SampleArg]) -> list[SampleArg]:
    """Input tensors reshaped to the list their own statement gives (`shape为[N]，长度与x的N维长度
    一致`), sized by the other derived inputs: twice, so that a tensor sized by one reshaped
    after it follows too."""
    by_name = {p.name: p for p in params}
    for _ in range(2):
        for i, arg in enumerate(args):
            rule = by_name[arg.name].stated_shape
            if arg.kind != "tensor" or rule is None or not rule.derived:
                continue
            shapes = {a.name: a.shape if a.kind == "tensor" else None for a in args}
            values = {a.name: _plain_value(a) for a in args}
            shape = output_shape(plain_rule(rule), shapes, values)
            if shape is not None and shape != arg.shape:
                args[i] = _retyped(by_name[arg.name], arg, shape, arg.dtype, i)
    return args


def _error_row_bounds(fn: Function) -> dict[str, list[Check]]:
    out: dict[str, list[Check]] = {}
    for rule in fn.errors:
        for check in () if rule.conditional else rule.checks:
            if check.kind in ("enum", "range") and len(check.params) == 1:
                out.setdefault(check.params[0], []).append(check)
            for name in check.params if check.kind in ("numel", "last_dim") else ():
                out.setdefault(name, []).append(check)  # `scalar元素个数不为1`: the tensor's size
    return out


def _sized(shape: tuple[int, ...], param: Param, rows: Sequence[Check]) -> tuple[int, ...]:
    """The shape with the element count or last dimension unconditional error rows state
    (`scalar元素个数不为1`: (1,); `spatialShape的最后一轴不是2`: (…, 2)), within its rank."""
    for check in rows:
        size = int(str(check.values[0]))
        if check.kind == "last_dim" and shape:
            shape = (*shape[:-1], size)
        elif check.kind == "numel":
            low = param.rank.min if param.rank else 0
            shape = (*(1,) * (max(low, 1) - 1), size)
    return shape


def _outputs_by_rule(params: list[Param], args: list[SampleArg]) -> list[SampleArg]:
    """Output tensors shaped and typed as their rules give on the derived inputs (the rule, not
    a peer's shape, says what the library writes), where the rules settle it."""
    shapes = {a.name: a.shape if a.kind == "tensor" else None for a in args}
    dtypes = {a.name: a.dtype if a.kind == "tensor" else None for a in args}
    values = {a.name: _plain_value(a) for a in args}
    by_name = {p.name: p for p in params}
    out: list[SampleArg] = []
    for arg in args:
        p = by_name[arg.name]
        if arg.kind == "tensor" and p.direction == "out":
            shape = output_shape(plain_rule(p.shape_rule), shapes, values) if p.shape_rule else None
            dtype = output_dtype(plain_rule(p.dtype_rule), dtypes, values) if p.dtype_rule else None
            dtype = dtype if dtype and (dtype in p.dtypes_on(None) or not p.dtypes_on(None)) else None
            if (shape is not None and shape != arg.shape) or (dtype is not None and dtype != arg.dtype):
                arg = _retyped(p, arg, shape or arg.shape, dtype or arg.dtype, len(out))
        out.append(arg)
    return out


def _plain_value(arg: SampleArg) -> object:
    """A derived argument's value as a rule reads it: a number, a string, or an array's elements."""
    if arg.kind in ("int_array", "bool_array", "float_array", "scalar_list"):
        return tuple(arg.elements)
    return arg.value if arg.kind in ("value", "scalar", "string") else None


def _retyped(param: Param, arg: SampleArg, shape: tuple[int, ...], dtype: str, k: int) -> SampleArg:
    """The output tensor rebuilt in another shape or dtype (`k` numbers its data)."""
    try:
        return _tensor_arg(param, shape, dtype, arg.format or "ND", k, arg.comment)
    except _Unusable:
        return arg


def _derived_arg(param: Param, derivation: _Derivation) -> SampleArg:
    """A derived argument: documented dtypes, a shape meeting the documented rules, valid values."""
    comment = f"{param.direction}, {param.c_type}" + (f", {', '.join(param.dtypes)}" if param.dtypes else "")
    if param.optional and param.direction == "in" and "*" in param.c_type:
        return SampleArg(param.name, "null", comment=comment + " (optional, passed as nullptr)")
    derive = _DERIVE.get(param.kind)
    if derive is not None:
        return derive(param, comment, derivation)
    if param.optional:
        return SampleArg(param.name, "null", comment=comment + " (passed as nullptr)")
    raise LowerError(param.line, f"parameter {param.name}: the sample cannot build a {param.c_type!r}")


def _derived_tensors(param: Param, comment: str, derivation: _Derivation) -> SampleArg:
    """A tensor, or a list of two alike."""
    dtype = sample_dtype(param, derivation.dtypes)
    derivation.dtypes[param.name] = dtype
    shape = _sized(
        _sample_shape(param, derivation.shapes, derivation.doc_shapes), param, derivation.bounds.get(param.name, ())
    )
    derivation.shapes[param.name] = shape
    fmt = _sample_format(param)
    how_many = 1 if param.kind == "tensor" else 2
    try:
        bounds = _element_range(param)
        tensors = [
            _tensor_arg(param, shape, dtype, fmt, next(derivation.seq), comment, bounds) for _ in range(how_many)
        ]
    except _Unusable as exc:
        raise LowerError(param.line, str(exc)) from exc
    if param.kind == "tensor":
        return tensors[0]
    return SampleArg(param.name, "tensor_list", comment=comment, items=tuple(tensors), prints=tensors[0].prints)


def _derived_scalar(param: Param, comment: str, derivation: _Derivation) -> SampleArg:
    """A scalar (or a list of two) of a host dtype the document allows, FLOAT else."""
    dtype = sample_dtype(param, derivation.dtypes)
    if dtype not in DTYPE_HOST or DTYPE_HOST[dtype].printer == "complex":
        dtype = "FLOAT"
    value = _valid_value(param, dtype, derivation.bounds.get(param.name, ()))
    listed = param.kind == "scalar_list"
    elements = (value, value) if listed else None
    call = CallArg(
        kind="scalar_list" if listed else "scalar",
        text="",
        line=param.line,
        dtype=dtype,
        value=value,
        elements=elements,
    )
    return _scalar_arg(param, call, comment)


def _derived_array(param: Param, comment: str, derivation: _Derivation) -> SampleArg:
    return _array_arg(param, param.kind, (_ARRAY_DEFAULTS[param.kind],), comment)


def _derived_string(param: Param, comment: str, derivation: _Derivation) -> SampleArg:
    """The first documented value of the string, else an empty one."""
    enum = [v for c in param.of_kind("enum") for v in c.values if isinstance(v, str)]
    text = enum[0] if enum else ""
    return SampleArg(param.name, "string", values=(text,), comment=comment, value=text)


def _derived_value(param: Param, comment: str, derivation: _Derivation) -> SampleArg:
    value: int | float | str
    if param.kind == "bool":
        # the one value a bool may take (aclnnDualLevelQuantMatmulWeightNz transposeX2: `仅支持转置`), else false
        allowed = [v for c in param.of_kind("enum") if c.product is None for v in c.values if isinstance(v, bool)]
        value = allowed[0] if len(set(allowed)) == 1 else False
        literal = "true" if value else "false"
    elif param.kind == "dtype":
        value, literal = "FLOAT", "ACL_FLOAT"
    else:
        dtype = _value_dtype(param)
        value = _valid_value(param, dtype, derivation.bounds.get(param.name, ()))
        literal = _c_literal(value, dtype)
    return SampleArg(param.name, "value", cpp_type=_value_type(param), values=(literal,), comment=comment, value=value)


_DERIVE: dict[str, Callable[[Param, str, _Derivation], SampleArg]] = {
    "tensor": _derived_tensors,
    "tensor_list": _derived_tensors,
    "scalar": _derived_scalar,
    "scalar_list": _derived_scalar,
    "int_array": _derived_array,
    "bool_array": _derived_array,
    "float_array": _derived_array,
    "string": _derived_string,
    "int": _derived_value,
    "float": _derived_value,
    "bool": _derived_value,
    "dtype": _derived_value,
}


def _axis_params(fn: Function) -> set[str]:
    """Values that index a dimension of a tensor (dim, axis): 0 is valid for any rank."""
    stated = {p.name for p in fn.params if p.of_kind("axis")}
    checked = {c.params[0] for e in fn.errors for c in e.checks if c.kind == "axis" and c.params}
    return stated | checked


def _first_axis(arg: SampleArg) -> SampleArg:
    if arg.kind == "value" and arg.cpp_type in VALUE_DTYPES:
        return dataclasses.replace(arg, values=("0",), value=0)
    if arg.kind == "int_array":
        return dataclasses.replace(arg, values=("0",), elements=(0,))
    return arg


def _valid_value(param: Param, dtype: str, rows: Sequence[Check] = ()) -> int | float:
    """A valid value for a scalar or plain argument: an allowed enum value, or one inside the
    documented range (the parameter's own or its error rows'), else a small default."""
    enums: list[Constraint | Check] = [*param.of_kind("enum"), *(c for c in rows if c.kind == "enum")]
    enum = [v for c in enums for v in c.values if isinstance(v, int | float)]
    integral = dtype.startswith(("INT", "UINT")) or dtype == "BOOL"
    if enum:
        value: float = enum[0]
    else:
        value = 1 if integral else 0.5
        ranges: list[Constraint | Check] = [*param.of_kind("range"), *param.of_kind("clamp")]
        for c in ranges + [c for c in rows if c.kind == "range"]:
            if c.min is not None and value < c.min:
                value = c.min + (0 if c.min_inclusive else 1)
            if c.max is not None and value > c.max:
                value = c.max - (0 if c.max_inclusive else 1)
    value = int(value) if integral else float(value)
    if not _fits(value, dtype):  # the document's bounds fit no value of the C type
        return 1 if integral else 0.5
    return value


# ---------------------------------------------------------------- shapes and formats


def same_shape_groups(fn: Function) -> dict[str, tuple[str, ...]]:
    """Parameters whose shapes must be equal, by a constraint or by an unconditional error
    rule that names them: each parameter with all members of its group."""
    parent = {p.name: p.name for p in fn.params}

    def find(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    def join(names: Iterable[str]) -> None:
        names = [n for n in names if n in parent]
        for other in names[1:]:
            parent[find(other)] = find(names[0])

    for p in fn.params:
        for c in p.of_kind("same_shape"):
            join((p.name, *c.params))
    for error in fn.errors:
        if error.params and not error.conditional:
            for check in error.checks:
                if check.kind == "same_shape":
                    join(check.params)
    groups: dict[str, list[str]] = {}
    for name in parent:
        groups.setdefault(find(name), []).append(name)
    return {name: tuple(groups[find(name)]) for name in parent}


def _sample_shape(
    param: Param, shapes: dict[str, tuple[int, ...]], doc_shapes: dict[str, tuple[int, ...]]
) -> tuple[int, ...]:
    """A small shape satisfying the documented rank range and shape relations: a related
    parameter's, else the document's own sample's, else a made-up one of a valid rank."""
    rank = param.rank
    low = rank.min if rank else 0
    high = rank.max if rank and rank.max is not None else 8
    candidates: list[tuple[int, ...] | None] = []
    for kind in ("same_shape", "broadcast_result", "broadcast"):
        peers = [shapes[p] for p in relation_peers(param, kind) if p in shapes]
        if peers:
            candidates.append(_broadcast(peers) if kind == "broadcast_result" else peers[0])
    candidates.append(doc_shapes.get(param.name) or doc_shapes.get(param.name.removesuffix("Optional")))
    listed = rank.values if rank else ()
    for shape in candidates:
        if shape is not None and low <= len(shape) <= high and (not listed or len(shape) in listed):
            return shape
    wanted = min(max(2, low), high) if low <= high else low
    if listed and wanted not in listed:  # `1、3`: the least listed rank from 2 up, else the greatest
        wanted = min((r for r in listed if r >= 2), default=max(listed))
    return tuple((2, 3, 2, 2, 2, 2, 2, 2, 2)[:wanted])


def _broadcast(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + s for s in shapes]
    return tuple(max(dims) for dims in zip(*padded, strict=True))


def _doc_sample_shapes(doc: OperatorDoc) -> dict[str, tuple[int, ...]]:
    """`std::vector<int64_t> selfShape = {2, 2};` in the document's own sample, if small."""
    out: dict[str, tuple[int, ...]] = {}
    for sample in doc.samples:
        for name, dims in _SHAPE_DECL.findall(sample.code):
            shape = tuple(int(d) for d in dims.split(","))
            if 0 < _element_count(shape) <= MAX_SAMPLE_ELEMENTS and len(shape) <= 8:
                out.setdefault(name, shape)
    return out


def _sample_format(param: Param) -> str:
    """ND when the document allows it, else its first format the sample can name."""
    formats = param.formats
    if not formats or "ND" in formats:
        return "ND"
    return next((f for f in formats if f in SAMPLE_FORMATS), "ND")
