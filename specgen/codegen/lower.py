"""From the model to what templates print: names, C/ctypes/NumPy types, sample data.

Every identifier that reaches generated code is checked here; templates only print the
values prepared below (strings go through the escaping filters of `specgen.codegen.render`).
"""

from __future__ import annotations

import dataclasses
import keyword
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import count
from typing import TYPE_CHECKING

from specgen import vocab
from specgen.model import CallArg, Function, OperatorDoc, Param

if TYPE_CHECKING:
    from specgen.codegen.cases import FunctionCases

_C_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
_HEADER = re.compile(r"^aclnnop/(?:level2/)?aclnn_([a-z0-9_]+)\.h$")
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SHAPE_DECL = re.compile(r"std::vector<int64_t>\s+(\w+?)Shape\s*=\s*\{\s*(\d{1,6}(?:\s*,\s*\d{1,6})*)\s*\}")
C_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
    co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
    extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
    nullptr operator or or_eq private protected public register reinterpret_cast requires return
    short signed sizeof static static_assert static_cast struct switch template this thread_local
    throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
    xor xor_eq main""".split()
)
# Names the generated Python wrapper itself uses; a parameter may not shadow them.
RESERVED = frozenset({"rt", "np", "ctypes", "runtime", "workspace", "stream", "product", "status", "check", "shape"})
# Names the generated sample program uses besides its parameters' variables (and `acl*`).
SAMPLE_RESERVED = frozenset(
    """runtime workspaceSize executor workspace itemShape itemData Runtime DeviceMemory DeviceTensor DeviceTensorList
    Scalar ScalarList IntArray BoolArray FloatArray Check ElementCount ContiguousStrides HalfToFloat
    FloatToHalf BfloatToFloat FloatToBfloat PrintHalf PrintBfloat PrintReal PrintInteger PrintComplex
    std main""".split()
)
# A sample variable `x` comes with `xShape`, `xData`, `xValue` and `xValues`.
_SAMPLE_SUFFIXES = ("", "Shape", "Data", "Value", "Values")
MAX_SAMPLE_ELEMENTS = 4096  # tensors up to this size get spelled-out data, larger ones zeros
MAX_SAMPLE_BYTES = 256 * 2**20  # a document's call with larger tensors is not reproduced
MAX_NAME = 100  # an operator's snake name becomes file names; real ones are under 50 characters


class LowerError(ValueError):
    """The model cannot become code (an invalid identifier, an unsupported type)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


# ---------------------------------------------------------------- names


def snake_case(name: str) -> str:
    """`aclnnSoftMarginLossBackward` -> `soft_margin_loss_backward`, `gradOutput` -> `grad_output`."""
    core = name[5:] if name.startswith("aclnn") else name
    return _WORD_BREAK.sub("_", core).lower()


def c_identifier(name: str, line: int, what: str) -> str:
    """`name` if generated C, C++ and Python code may use it as an identifier."""
    if not _C_IDENT.match(name):
        raise LowerError(
            line, f"{what} {name!r} is not an identifier: expected letters, digits and '_', not starting with a digit"
        )
    if name in C_KEYWORDS:
        raise LowerError(line, f"{what} {name!r} is a C/C++ keyword: expected a name a C++ header can declare")
    return name


def python_name(c_name: str, taken: set[str]) -> str:
    """A snake_case Python parameter name, not a keyword or a name the wrapper uses."""
    name = snake_case(c_name)
    if keyword.iskeyword(name) or name in RESERVED or not name.isidentifier():
        name += "_"
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def operator_snake(doc: OperatorDoc) -> str:
    """The header stem: from the sample's `#include "aclnnop/aclnn_<snake>.h"` when it has one
    that matches the operator, else derived from the first function's name."""
    derived = [snake_case(f.name.replace("Inplace", "")) for f in doc.functions]
    includes = [m.group(1) for s in doc.samples for inc in s.includes if (m := _HEADER.match(inc))]
    for stem in includes:
        if stem in derived:
            return stem
    if len(set(includes)) == 1 and doc.functions:
        return includes[0]
    return derived[0] if derived else snake_case(doc.name)


# ---------------------------------------------------------------- types

# dtype -> (C++ host type, aclDataType enumerator, NumPy dtype name, how the sample prints it)
DTYPE_HOST: dict[str, tuple[str, str, str, str]] = {
    "FLOAT": ("float", "ACL_FLOAT", "float32", "real"),
    "FLOAT16": ("uint16_t", "ACL_FLOAT16", "float16", "half"),
    "BFLOAT16": ("uint16_t", "ACL_BF16", "bfloat16", "bfloat"),
    "DOUBLE": ("double", "ACL_DOUBLE", "float64", "real"),
    "INT8": ("int8_t", "ACL_INT8", "int8", "integer"),
    "INT16": ("int16_t", "ACL_INT16", "int16", "integer"),
    "INT32": ("int32_t", "ACL_INT32", "int32", "integer"),
    "INT64": ("int64_t", "ACL_INT64", "int64", "integer"),
    "UINT8": ("uint8_t", "ACL_UINT8", "uint8", "integer"),
    "UINT16": ("uint16_t", "ACL_UINT16", "uint16", "integer"),
    "UINT32": ("uint32_t", "ACL_UINT32", "uint32", "integer"),
    "UINT64": ("uint64_t", "ACL_UINT64", "uint64", "integer"),
    "BOOL": ("uint8_t", "ACL_BOOL", "bool", "integer"),
    "COMPLEX64": ("std::complex<float>", "ACL_COMPLEX64", "complex64", "complex"),
    "COMPLEX128": ("std::complex<double>", "ACL_COMPLEX128", "complex128", "complex"),
}
# Bits per element of the dtypes a sample holds as raw bytes (no C++ host type).
_RAW_BITS = {
    "INT4": 4,
    "UINT1": 1,
    "COMPLEX32": 32,
    "HIFLOAT8": 8,
    "FLOAT8_E5M2": 8,
    "FLOAT8_E4M3FN": 8,
    "FLOAT8_E8M0": 8,
    "FLOAT6_E3M2": 8,
    "FLOAT6_E2M3": 8,
    "FLOAT4_E2M1": 4,
    "FLOAT4_E1M2": 4,
}
_ACL_ENUM = {dtype: acl for dtype, (_, acl, _, _) in DTYPE_HOST.items()}
# Sample dtype preference: the simplest host type the parameter allows.
_PREFERRED = (
    "FLOAT",
    "FLOAT16",
    "INT32",
    "INT64",
    "DOUBLE",
    "BFLOAT16",
    "INT8",
    "UINT8",
    "BOOL",
    "INT16",
    "UINT16",
    "UINT32",
    "UINT64",
    "COMPLEX64",
    "COMPLEX128",
)
SAMPLE_FORMATS = ("ND", "NCHW", "NHWC", "NC1HWC0", "FRACTAL_Z", "HWCN", "NDHWC", "FRACTAL_NZ", "NCDHW", "NC", "NCL")

_CTYPES_VALUE = {
    "bool": "ctypes.c_bool",
    "int": "ctypes.c_int",
    "int8_t": "ctypes.c_int8",
    "int16_t": "ctypes.c_int16",
    "int32_t": "ctypes.c_int32",
    "int64_t": "ctypes.c_int64",
    "uint8_t": "ctypes.c_uint8",
    "uint16_t": "ctypes.c_uint16",
    "uint32_t": "ctypes.c_uint32",
    "uint64_t": "ctypes.c_uint64",
    "size_t": "ctypes.c_size_t",
    "float": "ctypes.c_float",
    "double": "ctypes.c_double",
    "aclDataType": "ctypes.c_int",
}


def ctypes_type(param: Param) -> str:
    """The ctypes argtype of a C parameter type."""
    stars = param.c_type.count("*")
    base = param.c_type.replace("const", "").replace("*", "").strip()
    if param.kind == "workspace_size" and stars:
        return "ctypes.POINTER(ctypes.c_uint64)"
    if param.kind == "executor" and stars == 2:
        return "ctypes.POINTER(ctypes.c_void_p)"
    if param.kind == "string":
        return "ctypes.c_char_p"
    if stars:
        return "ctypes.c_void_p"
    if param.kind == "stream":
        return "ctypes.c_void_p"
    if base in _CTYPES_VALUE:
        return _CTYPES_VALUE[base]
    raise LowerError(param.line, f"parameter {param.name}: no ctypes mapping for C type {param.c_type!r}")


def sample_dtype(param: Param, chosen: dict[str, str]) -> str:
    """The dtype a sample builds a tensor with: one the document allows, FLOAT if it can."""
    allowed = param.dtypes_on(None)
    for peer in _relation_peers(param, "same_dtype"):
        if peer in chosen and (not allowed or chosen[peer] in allowed):
            return chosen[peer]
    for dtype in _PREFERRED:
        if dtype in allowed:
            return dtype
    return allowed[0] if allowed else "FLOAT"  # an exotic dtype: its data are raw bytes


def _relation_peers(param: Param, kind: str) -> list[str]:
    return [p for c in param.of_kind(kind) for p in c.params]  # type: ignore[arg-type]


# ---------------------------------------------------------------- the sample program


@dataclass(frozen=True)
class SampleArg:
    """One argument of the sample's GetWorkspaceSize call and how the sample makes it."""

    name: str  # C parameter name
    kind: str  # tensor, tensor_list, scalar, scalar_list, int_array, bool_array, float_array, string, value, null
    cpp_type: str = ""  # host element type (tensors, arrays, scalars, values)
    acl_dtype: str = ""  # ACL_FLOAT, ...
    acl_format: str = "ACL_FORMAT_ND"
    shape: tuple[int, ...] = ()
    values: tuple[str, ...] = ()  # C++ literals of the host data; empty: `data_count` zeros
    data_count: int = 0  # host elements of a tensor's data
    printer: str = "real"  # how values print: real, half, bfloat, integer, complex
    prints: bool = False  # copied back and printed after the call (outputs)
    comment: str = ""  # what the document says it is (escaped by the template)
    items: tuple[SampleArg, ...] = ()  # the tensors of a tensor list
    dtype: str = ""  # the aclnn dtype name (tensors, scalars)
    format: str = "ND"  # the aclnn format name (tensors)
    value: object = None  # the Python value of a scalar, plain value or string
    elements: tuple = ()  # the Python values of an array or scalar list
    var: str = ""  # the sample's variable: the parameter name unless that collides (see sample_variables)

    @property
    def data(self) -> tuple[str, ...]:
        """C++ initialisers of the host data, converted for half-precision types."""
        convert = {"half": "FloatToHalf", "bfloat": "FloatToBfloat"}.get(self.printer)
        return tuple(f"{convert}({v}f)" for v in self.values) if convert else self.values

    @property
    def print_function(self) -> str:
        return _PRINTERS[self.printer]

    @property
    def array_creator(self) -> tuple[str, str]:
        """(aclCreateXxxArray, holder type) of an array argument."""
        return _ARRAY_CREATORS[self.kind]


_PRINTERS = {
    "real": "PrintReal",
    "half": "PrintHalf",
    "bfloat": "PrintBfloat",
    "integer": "PrintInteger",
    "complex": "PrintComplex",
}
_ARRAY_CREATORS = {
    "int_array": ("aclCreateIntArray", "IntArray"),
    "bool_array": ("aclCreateBoolArray", "BoolArray"),
    "float_array": ("aclCreateFloatArray", "FloatArray"),
}


@dataclass(frozen=True)
class SamplePlan:
    args: tuple[SampleArg, ...]
    needs_complex: bool = False
    needs_half: bool = False
    from_document: bool = False  # the call of the document's own sample, argument for argument
    line: int = 0  # that call's line in the document
    note: str = ""  # why the document's call could not be used, when it could not


def sample_plan(doc: OperatorDoc, fn: Function) -> SamplePlan:
    """The document's own call when its sample's arguments were all read, else a derived one."""
    params = [p for p in fn.params if p.kind not in ("workspace_size", "executor")]
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


def _derived_args(doc: OperatorDoc, fn: Function, params: list[Param]) -> list[SampleArg]:
    doc_shapes = _doc_sample_shapes(doc)
    groups = same_shape_groups(fn)
    for name, members in groups.items():  # one documented shape serves its whole group
        found = next((doc_shapes[m] for m in members if m in doc_shapes), None)
        if found and name not in doc_shapes:
            doc_shapes[name] = found
    chosen_dtypes: dict[str, str] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    values = count()
    args = [_sample_arg(param, chosen_dtypes, shapes, doc_shapes, values) for param in params]
    return [_first_axis(a) if a.name in _axis_params(fn) else a for a in args]


def _axis_params(fn: Function) -> set[str]:
    """Values that index a dimension of a tensor (dim, axis): 0 is valid for any rank."""
    stated = {p.name for p in fn.params if p.of_kind("axis")}
    checked = {c.params[0] for e in fn.errors for c in e.checks if c.kind == "axis" and c.params}
    return stated | checked


def _first_axis(arg: SampleArg) -> SampleArg:
    if arg.kind == "value" and arg.cpp_type in _VALUE_DTYPE:
        return dataclasses.replace(arg, values=("0",), value=0)
    if arg.kind == "int_array":
        return dataclasses.replace(arg, values=("0",), elements=(0,))
    return arg


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
    expected = _CALL_KINDS.get(param.kind, ())
    if arg.kind not in expected:
        raise _Unusable(f"{param.name} is a {param.c_type} but the document's sample passes a {arg.kind}")
    if arg.kind == "tensor":
        return _tensor_arg(param, arg.shape or (), arg.dtype or "", arg.format or "ND", next(seq), comment)
    if arg.kind == "tensor_list":
        items = tuple(
            _tensor_arg(param, i.shape or (), i.dtype or "", i.format or "ND", next(seq), "") for i in arg.items
        )
        if not items:
            raise _Unusable(f"{param.name}: the document's sample passes an empty tensor list")
        return SampleArg(param.name, "tensor_list", comment=comment, items=items, prints=items[0].prints)
    if arg.kind in ("scalar", "scalar_list"):
        return _scalar_arg(param, arg, comment)
    if arg.kind in ("int_array", "bool_array", "float_array"):
        elements = tuple(arg.elements or ())
        cpp = {"int_array": "int64_t", "bool_array": "bool", "float_array": "float"}[arg.kind]
        literal = {"int_array": "INT64", "bool_array": "BOOL", "float_array": "FLOAT"}[arg.kind]
        literals = tuple(_array_literal(v, literal) for v in elements)
        return SampleArg(param.name, arg.kind, cpp_type=cpp, values=literals, comment=comment, elements=elements)
    if arg.kind == "string":
        return SampleArg(param.name, "string", values=(str(arg.value),), comment=comment, value=str(arg.value))
    return _value_arg(param, arg.value, comment)


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


def _tensor_arg(param: Param, shape: tuple[int, ...], dtype: str, fmt: str, k: int, comment: str) -> SampleArg:
    """A tensor of the sample: its host data spelled out when small, zeros when large."""
    if fmt not in SAMPLE_FORMATS:
        raise _Unusable(f"{param.name}: the sample cannot name format {fmt}")
    if dtype not in DTYPE_HOST and dtype not in _RAW_BITS:
        raise _Unusable(f"{param.name}: the sample cannot hold dtype {dtype or 'unknown'}")
    if any(d < 0 for d in shape) or len(shape) > 8:
        raise _Unusable(f"{param.name}: shape {shape} is not one a sample can allocate")
    n = 1
    for d in shape:
        n *= d
    if dtype in DTYPE_HOST:
        cpp, acl, _, printer = DTYPE_HOST[dtype]
        data_count = n
    else:  # raw bytes, enough for n elements
        cpp, acl, printer = "uint8_t", f"ACL_{dtype}", "integer"
        data_count = (n * _RAW_BITS[dtype] + 7) // 8
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
        values=tuple(_literal(dtype, k * 3 + i) for i in range(n)) if spelled else (),
        data_count=data_count,
        printer=printer,
        prints=param.direction in ("out", "inout"),
        comment=comment,
        dtype=dtype,
    )


def _scalar_arg(param: Param, arg: CallArg, comment: str) -> SampleArg:
    dtype = arg.dtype or ""
    if dtype not in DTYPE_HOST or DTYPE_HOST[dtype][3] == "complex":
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
        arg.kind,
        cpp_type=cpp,
        acl_dtype=acl,
        printer=printer,
        values=tuple(literals),
        comment=comment,
        dtype=dtype,
        value=arg.value,
        elements=elements if arg.kind == "scalar_list" else (),
    )


def _value_arg(param: Param, value: object, comment: str) -> SampleArg:
    base = param.c_type.replace("const", "").strip()
    if param.kind == "dtype" or (param.kind == "int" and isinstance(value, str)):  # ACL_INT8 as a number
        if not isinstance(value, str) or value not in vocab.DTYPES:
            raise _Unusable(f"{param.name}: {value!r} is not an aclDataType")
        return SampleArg(
            param.name,
            "value",
            cpp_type=base,
            values=(_ACL_ENUM.get(value, f"ACL_{value}"),),
            comment=comment,
            value=value,
        )
    if param.kind == "bool":
        if not isinstance(value, bool | int):
            raise _Unusable(f"{param.name}: {value!r} is not a bool")
        return SampleArg(
            param.name,
            "value",
            cpp_type=base,
            values=("true" if value else "false",),
            comment=comment,
            value=bool(value),
        )
    dtype = _VALUE_DTYPE.get(base, "INT64" if param.kind == "int" else "DOUBLE")
    if isinstance(value, bool) or not isinstance(value, int | float) or not _fits(value, dtype):
        raise _Unusable(f"{param.name}: {value!r} is not a value of C type {base}")
    if dtype.startswith(("INT", "UINT")) and value != int(value):
        raise _Unusable(f"{param.name}: {value!r} is not an integer")
    return SampleArg(
        param.name, "value", cpp_type=base, values=(_c_literal(value, dtype),), comment=comment, value=value
    )


def _fits(value: float, dtype: str) -> bool:
    low, high = _RANGE.get(dtype, (-(2**63), 2**63 - 1))
    return low <= value <= high


def _array_literal(value: object, dtype: str) -> str:
    if dtype == "BOOL":
        return "true" if value else "false"
    if not isinstance(value, int | float) or isinstance(value, bool) and dtype != "BOOL" or not _fits(value, dtype):
        raise _Unusable(f"array element {value!r} is not a {dtype} value")
    return _c_literal(value, dtype)


def sample_variables(names: list[str]) -> dict[str, str]:
    """Each parameter's variable in the sample: its own name, with `_` appended while it or one
    of its derived names (`xShape`, ...) would collide with another's or with the program's own."""
    taken: set[str] = set()
    out = {}
    for name in names:
        var = name
        while var in SAMPLE_RESERVED or var.startswith("acl") or any(var + s in taken for s in _SAMPLE_SUFFIXES):
            var += "_"
        taken.update(var + s for s in _SAMPLE_SUFFIXES)
        out[name] = var
    return out


def _sample_arg(
    param: Param,
    dtypes: dict[str, str],
    shapes: dict[str, tuple[int, ...]],
    doc_shapes: dict[str, tuple[int, ...]],
    seq: count,
) -> SampleArg:
    """A derived argument: documented dtypes, a shape meeting the documented rules, valid values."""
    kind = param.kind
    value: int | float | str  # the Python value of a scalar, array element or plain value
    comment = f"{param.direction}, {param.c_type}" + (f", {', '.join(param.dtypes)}" if param.dtypes else "")
    if param.optional and param.direction == "in" and "*" in param.c_type:
        return SampleArg(param.name, "null", comment=comment + " (optional, passed as nullptr)")
    if kind in ("tensor", "tensor_list"):
        dtype = sample_dtype(param, dtypes)
        dtypes[param.name] = dtype
        shape = _sample_shape(param, shapes, doc_shapes)
        shapes[param.name] = shape
        fmt = _sample_format(param)
        try:
            tensors = [_tensor_arg(param, shape, dtype, fmt, next(seq), comment) for _ in range(1 + (kind != "tensor"))]
        except _Unusable as exc:
            raise LowerError(param.line, str(exc)) from exc
        if kind == "tensor":
            return tensors[0]
        return SampleArg(param.name, kind, comment=comment, items=tuple(tensors), prints=tensors[0].prints)
    if kind in ("scalar", "scalar_list"):
        dtype = sample_dtype(param, dtypes)
        if dtype not in DTYPE_HOST or DTYPE_HOST[dtype][3] == "complex":
            dtype = "FLOAT"
        value = _valid_value(param, dtype)
        elements = (value, value) if kind == "scalar_list" else ()
        return _scalar_arg(
            param,
            CallArg(kind=kind, text="", line=param.line, dtype=dtype, value=value, elements=elements or None),
            comment,
        )
    if kind in ("int_array", "bool_array", "float_array"):
        cpp, value, literal = {
            "int_array": ("int64_t", 1, "1"),
            "bool_array": ("bool", True, "true"),
            "float_array": ("float", 1.0, "1.0f"),
        }[kind]
        return SampleArg(param.name, kind, cpp_type=cpp, values=(literal,), comment=comment, elements=(value,))
    if kind == "string":
        enum = [v for c in param.of_kind("enum") for v in c.values if isinstance(v, str)]
        return SampleArg(
            param.name, kind, values=(enum[0] if enum else "",), comment=comment, value=enum[0] if enum else ""
        )
    if kind in ("int", "float", "bool", "dtype"):
        base = param.c_type.replace("const", "").strip()
        if kind == "bool":
            value, literal = False, "false"
        elif kind == "dtype":
            value, literal = "FLOAT", "ACL_FLOAT"
        else:
            dtype = _VALUE_DTYPE.get(base, "INT64" if kind == "int" else "DOUBLE")
            value = _valid_value(param, dtype)
            literal = _c_literal(value, dtype)
        return SampleArg(param.name, "value", cpp_type=base, values=(literal,), comment=comment, value=value)
    if param.optional:
        return SampleArg(param.name, "null", comment=comment + " (passed as nullptr)")
    raise LowerError(param.line, f"parameter {param.name}: the sample cannot build a {param.c_type!r}")


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
        peers = [shapes[p] for p in _relation_peers(param, kind) if p in shapes]
        if peers:
            candidates.append(_broadcast(peers) if kind == "broadcast_result" else peers[0])
    candidates.append(doc_shapes.get(param.name) or doc_shapes.get(param.name.removesuffix("Optional")))
    for shape in candidates:
        if shape is not None and low <= len(shape) <= high:
            return shape
    wanted = min(max(2, low), high) if low <= high else low
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
            n = 1
            for d in shape:
                n *= d
            if 0 < n <= MAX_SAMPLE_ELEMENTS and len(shape) <= 8:
                out.setdefault(name, shape)
    return out


def _sample_format(param: Param) -> str:
    """ND when the document allows it, else its first format the sample can name."""
    formats = param.formats
    if not formats or "ND" in formats:
        return "ND"
    return next((f for f in formats if f in SAMPLE_FORMATS), "ND")


def _literal(dtype: str, i: int) -> str:
    """Deterministic sample data: small values exact in every floating type."""
    if dtype in ("FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16", "COMPLEX64", "COMPLEX128"):
        value = ((i * 7) % 13 - 6) * 0.25
        return f"{value}f" if dtype == "FLOAT" else f"{value}"
    if dtype == "BOOL":
        return str(i % 2)
    if dtype.startswith("UINT") or dtype not in DTYPE_HOST:  # raw bytes of an exotic dtype
        return str(i % 7)
    return str((i * 5) % 9 - 4)


def _valid_value(param: Param, dtype: str) -> int | float:
    """A valid value for a scalar or plain argument: an allowed enum value, or one inside the
    documented range, else a small default."""
    enum = [v for c in param.of_kind("enum") for v in c.values if isinstance(v, int | float)]
    integral = dtype.startswith(("INT", "UINT")) or dtype == "BOOL"
    if enum:
        value: float = enum[0]
    else:
        value = 1 if integral else 0.5
        for c in param.of_kind("range") + param.of_kind("clamp"):
            if c.min is not None and value < c.min:
                value = c.min + (0 if c.min_inclusive else 1)
            if c.max is not None and value > c.max:
                value = c.max - (0 if c.max_inclusive else 1)
    value = int(value) if integral else float(value)
    low, high = _RANGE.get(dtype, (-(2**63), 2**63 - 1))
    if not low <= value <= high:  # the document's bounds fit no value of the C type
        return 1 if integral else 0.5
    return value


# The C types of plain values, and the range of values each dtype holds.
_VALUE_DTYPE = {
    "int8_t": "INT8",
    "int16_t": "INT16",
    "int32_t": "INT32",
    "int": "INT32",
    "int64_t": "INT64",
    "uint8_t": "UINT8",
    "uint16_t": "UINT16",
    "uint32_t": "UINT32",
    "uint64_t": "UINT64",
    "size_t": "UINT64",
    "float": "FLOAT",
    "double": "DOUBLE",
}
_RANGE: dict[str, tuple[float, float]] = {
    **{f"INT{n}": (1 - 2 ** (n - 1), 2 ** (n - 1) - 1) for n in (8, 16, 32, 64)},  # -2**63 is no literal
    **{f"UINT{n}": (0, 2**n - 1) for n in (8, 16, 32, 64)},
    "BOOL": (0, 1),
    "FLOAT16": (-65504.0, 65504.0),
    "BFLOAT16": (-3.38e38, 3.38e38),
    "FLOAT": (-3.4e38, 3.4e38),
    "DOUBLE": (-1.7e308, 1.7e308),
}


def _c_literal(value: float, dtype: str) -> str:
    if dtype.startswith(("INT", "UINT")) or dtype == "BOOL":
        n = int(value)
        return f"{n}{'ULL' if dtype.startswith('U') else 'LL'}" if abs(n) > 2**31 - 1 else str(n)
    return f"{float(value)}f" if dtype == "FLOAT" else f"{float(value)}"


# ---------------------------------------------------------------- the operator as code


@dataclass(frozen=True)
class ParamCode:
    """A parameter as the header, the binding and the wrapper spell it."""

    param: Param
    py_name: str
    ctype: str  # ctypes argtype expression

    @property
    def name(self) -> str:
        return self.param.name


@dataclass(frozen=True)
class WrapperArg:
    """How the Python wrapper takes and passes one parameter."""

    code: ParamCode
    role: str  # tensor, tensor_list, scalar, scalar_list, int_array, bool_array, float_array, string, value, dtype
    keyword: bool  # keyword-only with a None default (optional inputs and outputs)
    output: bool  # allocated by the wrapper when not given, and returned
    scalar_dtype: str = ""  # the dtype an aclScalar is created with
    shape_rule: tuple[str, tuple[str, ...]] | None = None  # ("same"|"broadcast", peer py names)
    dtype_from: str = ""  # py name of the parameter whose dtype an output takes
    dtype_fixed: str = ""  # or the one dtype the document allows

    @property
    def py_name(self) -> str:
        return self.code.py_name

    @property
    def name(self) -> str:
        return self.code.name

    @property
    def annotation(self) -> str:
        """The Python type the validator takes (names of aclnn_ops._runtime as `rt`)."""
        base = _ANNOTATIONS[self.role]
        return f"{base} | None" if self.keyword else base

    @property
    def run_annotation(self) -> str:
        """The Python type the wrapper takes: tensors as arrays, not descriptions."""
        return self.annotation.replace("rt.ArrayLike", "rt.Array")


# Python types of the wrapper arguments by role; tensors may be TensorDesc for validators.
_ANNOTATIONS = {
    "tensor": "rt.ArrayLike",
    "tensor_list": "Sequence[rt.ArrayLike]",
    "scalar": "float",
    "scalar_list": "Sequence[float]",
    "int_array": "Sequence[int]",
    "bool_array": "Sequence[bool]",
    "float_array": "Sequence[float]",
    "string": "str",
    "value": "float",
    "dtype": "str",
}


@dataclass(frozen=True)
class FunctionCode:
    function: Function
    source: str  # the document it comes from
    params: tuple[ParamCode, ...]
    execute_params: tuple[ParamCode, ...]
    sample: SamplePlan
    wrapper: tuple[WrapperArg, ...]
    cases: FunctionCases | None = None  # validator rules and test cases (specgen.codegen.cases)

    @property
    def name(self) -> str:
        return self.function.name

    @property
    def dtype_group(self) -> dict[str, tuple[str, ...]]:
        """Input and output tensors with their documented dtypes (the tests vary them together)."""
        return {a.name: tuple(a.code.param.dtypes) for a in self.wrapper if a.role in ("tensor", "tensor_list")}

    @property
    def test_dtypes(self) -> tuple[str, ...]:
        """The dtypes the reference test runs with: those of the first tensor input."""
        first = next((a for a in self.wrapper if a.role == "tensor" and not a.output), None)
        return tuple(d for d in (first.code.param.dtypes if first else ()) if d in DTYPE_HOST) or ("FLOAT",)

    @property
    def snake(self) -> str:
        """The Python name of the wrapper (`validate_<snake>` is its validator): never a keyword."""
        name = snake_case(self.function.name)
        return name + "_" if keyword.iskeyword(name) or keyword.issoftkeyword(name) else name

    @property
    def run_name(self) -> str:
        """The sample's function running this one: `RunAdd` for aclnnAdd."""
        return "Run" + self.function.name.removeprefix("aclnn")

    @property
    def outputs(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if a.output or a.code.param.direction == "inout")

    @property
    def positional(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if not a.keyword)

    @property
    def keywords(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if a.keyword)

    @property
    def returns(self) -> str:
        """The wrapper's return annotation: its outputs."""
        # an allocated output is always there; an optional in-out one comes back as given
        outputs = [a.run_annotation.removesuffix(" | None") if a.output else a.run_annotation for a in self.outputs]
        if not outputs:
            return "None"
        return outputs[0] if len(outputs) == 1 else f"tuple[{', '.join(outputs)}]"


@dataclass(frozen=True)
class OperatorCode:
    snake: str
    docs: tuple[OperatorDoc, ...]
    sources: tuple[str, ...]  # document paths as generated files show them
    functions: tuple[FunctionCode, ...]

    @property
    def doc(self) -> OperatorDoc:
        return self.docs[0]

    @property
    def source(self) -> str:
        return ", ".join(self.sources)

    @property
    def header(self) -> str:
        return f"aclnnop/aclnn_{self.snake}.h"

    @property
    def guard(self) -> str:
        return f"ACLNN_{self.snake.upper()}_H_"

    @property
    def public_names(self) -> list[str]:
        """The binding module's `__all__`, sorted as isort does (constants, classes, functions)."""
        names = ["SPECS"] + [n for f in self.functions for n in (f.snake, "validate_" + f.snake)]
        if self.primary.snake != "validate":
            names.append("validate")
        return sorted(set(names), key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))

    @property
    def binding_imports(self) -> tuple[str, ...]:
        """The imports the binding module's annotations need."""
        spelled = " ".join(
            [a.annotation for f in self.functions for a in f.wrapper] + [f.returns for f in self.functions]
        )
        return ("from collections.abc import Sequence",) if "Sequence[" in spelled else ()

    @property
    def primary(self) -> FunctionCode:
        """The function named like the module, else the first one."""
        return next((f for f in self.functions if f.snake == self.snake), self.functions[0])


def operator_code(doc: OperatorDoc, source: str) -> OperatorCode:
    """Check every name the generated code will use and prepare the per-function data."""
    snake = operator_snake(doc)
    if not _SNAKE.match(snake):
        raise LowerError(1, f"operator name {snake!r} (from the sample's include) is not a valid file name")
    if len(snake) > MAX_NAME:
        raise LowerError(
            1, f"operator name {snake[:40]}... has {len(snake)} characters: expected at most {MAX_NAME} in a file name"
        )
    functions = []
    for fn in doc.functions:
        c_identifier(fn.name, fn.line, "function name")
        kinds = [p.kind for p in fn.params]
        if kinds[-2:] != ["workspace_size", "executor"] or kinds.count("workspace_size") != 1:
            raise LowerError(
                fn.line,
                f"{fn.name}GetWorkspaceSize: expected its last two parameters to be "
                "uint64_t* workspaceSize, aclOpExecutor** executor",
            )
        if [p.kind for p in fn.execute_params] != list(_EXECUTE_KINDS):
            raise LowerError(
                fn.execute_line or fn.line,
                f"{fn.name}: expected the execute function {fn.name}(void* workspace, uint64_t "
                "workspaceSize, aclOpExecutor* executor, aclrtStream stream)",
            )
        params = _param_code(fn.params)
        functions.append(
            FunctionCode(
                function=fn,
                source=source,
                params=params,
                execute_params=_param_code(fn.execute_params),
                sample=sample_plan(doc, fn),
                wrapper=_wrapper(params),
            )
        )
    return OperatorCode(snake=snake, docs=(doc,), sources=(source,), functions=tuple(functions))


def _param_code(params: tuple[Param, ...]) -> tuple[ParamCode, ...]:
    taken: set[str] = set()
    out = []
    seen: set[str] = set()
    for p in params:
        c_identifier(p.name, p.line, "parameter name")
        if p.name in seen:
            raise LowerError(p.line, f"parameter name {p.name!r} appears twice in the prototype")
        seen.add(p.name)
        out.append(ParamCode(param=p, py_name=python_name(p.name, taken), ctype=ctypes_type(p)))
    return tuple(out)


_EXECUTE_KINDS = ("workspace", "workspace_size", "executor", "stream")
_ROLES = {
    "tensor": "tensor",
    "tensor_list": "tensor_list",
    "scalar": "scalar",
    "scalar_list": "scalar_list",
    "int_array": "int_array",
    "bool_array": "bool_array",
    "float_array": "float_array",
    "string": "string",
    "int": "value",
    "float": "value",
    "bool": "value",
    "dtype": "dtype",
}


def _wrapper(params: tuple[ParamCode, ...]) -> tuple[WrapperArg, ...]:
    py = {p.name: p.py_name for p in params}
    args = []
    for code in params:
        p = code.param
        if p.kind in ("workspace_size", "executor"):
            continue
        role = _ROLES.get(p.kind)
        if role is None:
            raise LowerError(p.line, f"parameter {p.name}: the Python wrapper cannot pass a {p.c_type!r}")
        output = p.direction == "out" and p.kind in ("tensor", "tensor_list")
        args.append(
            WrapperArg(
                code=code,
                role=role,
                keyword=output or p.optional,
                output=output,
                scalar_dtype=_scalar_dtype(p) if role in ("scalar", "scalar_list") else "",
                shape_rule=_shape_rule(p, py) if output else None,
                dtype_from=_dtype_peer(p, params) if output else "",
                dtype_fixed=p.dtypes[0] if output and len(p.dtypes) == 1 else "",
            )
        )
    return tuple(args)


def _scalar_dtype(p: Param) -> str:
    allowed = p.dtypes_on(None)
    return next((d for d in _PREFERRED if d in allowed), "FLOAT")


def _shape_rule(p: Param, py: dict[str, str]) -> tuple[str, tuple[str, ...]] | None:
    for kind, rule in (("same_shape", "same"), ("broadcast_result", "broadcast"), ("broadcast", "broadcast")):
        peers = tuple(py[n] for n in _relation_peers(p, kind) if n in py)
        if peers:
            return rule, peers
    return None


def _dtype_peer(p: Param, params: tuple[ParamCode, ...]) -> str:
    """The input whose dtype an output takes: a same-dtype peer, else the first tensor input."""
    by_name = {c.name: c for c in params}
    for name in _relation_peers(p, "same_dtype"):
        peer = by_name.get(name)
        if peer and peer.param.direction != "out":
            return peer.py_name
    first = next((c for c in params if c.param.kind == "tensor" and c.param.direction != "out"), None)
    return first.py_name if first else ""


def dtype_numpy(dtype: str) -> str | None:
    entry = DTYPE_HOST.get(dtype)
    return entry[2] if entry else None
