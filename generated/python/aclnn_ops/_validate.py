"""Host-side validators: the documented argument rules of each operator, checked before the library.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
Each operator module holds its rules as data (`Spec`); `check` applies them in the
library's order (null pointers first) and raises `AclnnError` with the status the library
would return, the rule's id, the documented condition, and an explanation.

A validator never rejects a call the document gives as valid: rules that would reject the
document's own sample call, that hold only in some situation, or that cannot be checked on
the host are kept with `host=False` and the reason, and listed in the validator's docstring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from ._shapes import (
    PRODUCT_KEY,
    conditions_hold,
    dtype_allowed,
    output_dtype,
    product_id,
    shape_allowed,
)
from ._tensor import (
    ACL_DTYPES,
    ND_FAMILY,
    PRIVATE_FORMATS,
    AclnnError,
    DataType,
    Scalar,
    TensorDesc,
    describe,
    dtype_name,
    format_allowed,
    number_problem,
    scalar_dtype,
)

# How a wrapper takes each parameter, and which way data flow through it.
Role = Literal[
    "tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array",
    "float_array", "string", "value", "dtype",
]  # fmt: skip
Direction = Literal["in", "out", "inout"]
TENSOR_ROLES = ("tensor", "tensor_list")
VALUE_ROLES = ("value", "dtype")  # passed by value in C: never null
OUTPUTS = ("out", "inout")


@dataclass(frozen=True)
class ParamSpec:
    """What the document allows for one parameter."""

    name: str
    role: Role
    direction: Direction
    optional: bool = False
    dtypes: tuple[str, ...] = ()  # every documented dtype
    general_dtypes: tuple[str, ...] | None = (
        None  # the set on products without their own
    )
    product_dtypes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    formats: tuple[str, ...] = ()
    rank: tuple[int, int | None] | None = None
    ranks: tuple[
        int, ...
    ] = ()  # the ranks allowed where they are a set with gaps (`1、3`)
    enum: tuple[object, ...] = ()
    range: tuple[float | None, float | None, bool, bool] | None = (
        None  # min, max, inclusive flags
    )
    empty: bool | None = None
    non_contiguous: bool | None = None
    value_dtype: str = ""  # a plain C value: its C type's dtype (INT64, BOOL...)
    like: str = ""  # a scalar: the tensor whose dtype the document says it takes
    format: str = ""  # a tensor: the format a plain array is sent in (the one documented), else ND

    def dtypes_on(self, product: str | None) -> tuple[str, ...]:
        if product is None:
            return self.dtypes
        if product in self.product_dtypes:
            return self.product_dtypes[product]
        return self.general_dtypes if self.general_dtypes is not None else self.dtypes


@dataclass(frozen=True)
class Rule:
    """One documented error rule, as a typed check."""

    code: int
    kind: str  # specgen.model.CheckKind; those not in _CHECKS are kept with host=False
    params: tuple[str, ...]
    condition: str
    max: int | None = None
    host: bool = True  # False: the rule is not checked on the host (see `reason`)
    reason: str = ""
    id: str = ""  # stable within the function: the id its generated test case carries
    derive: Mapping[str, object] | None = (
        None  # output_shape/output_dtype: the model's rule
    )
    # multiple, dim_multiple: the number a size or value divides by; enum: the values the
    # error row itself allows (else the parameter's); axis: values allowed besides the range
    values: tuple[object, ...] = ()
    # range: the bounds the error row itself states (else the parameter's)
    bounds: tuple[float | None, float | None, bool, bool] | None = None
    # the products a per-product remark holds the rule on: checked only when `product=` names
    # one of them (with no product, which product runs is unknown)
    products: tuple[str, ...] = ()
    # the four-part conditions it holds under (`ShapeRule.when`'s: `当yDtype为FLOAT8_E4M3FN时，仅支持
    # {"rint"}`); checked only where the call settles that they hold
    when: tuple[str, ...] = ()


@dataclass(frozen=True)
class Spec:
    function: str
    params: tuple[ParamSpec, ...]
    rules: tuple[Rule, ...]
    unsupported_products: tuple[
        str, ...
    ] = ()  # products the document says it does not run on

    def param(self, name: str) -> ParamSpec:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, ParamSpec]:
        return {p.name: p for p in self.params}


class _Context:
    def __init__(
        self, spec: Spec, args: Mapping[str, object], product: str | None
    ) -> None:
        self.spec = spec
        self.args = args
        self.product = product
        self.descs: dict[str, list[TensorDesc]] = {}
        for p in spec.params:
            value = args.get(p.name)
            if p.role in TENSOR_ROLES and value is not None:
                items = list(value) if p.role == "tensor_list" else [value]  # type: ignore[call-overload]
                descs = (describe(v, p.format or "ND") for v in items)
                self.descs[p.name] = [d for d in descs if d is not None]

    def tensors(self, names: Sequence[str]) -> list[tuple[str, TensorDesc]]:
        return [(n, d) for n in names for d in self.descs.get(n, [])]

    def is_output(self, name: str) -> bool:
        return self.spec.param(name).direction in OUTPUTS


def violations(
    spec: Spec, args: Mapping[str, object], product: str | None = None
) -> list[tuple[Rule, str]]:
    """Every checked rule the arguments break, in the order `check` applies them, with the problem."""
    return list(_broken(spec, args, product))


def first_violation(
    spec: Spec, args: Mapping[str, object], product: str | None = None
) -> tuple[Rule, str] | None:
    """The rule `check` raises for, with the problem; None when the arguments break none."""
    return next(_broken(spec, args, product), None)


def _broken(
    spec: Spec, args: Mapping[str, object], product: str | None
) -> Iterator[tuple[Rule, str]]:
    ctx = _Context(spec, args, product_id(product))
    # null pointers first; a status from the tiling (561002) after the argument checks
    for rule in sorted(
        spec.rules,
        key=lambda r: (r.kind not in ("not_null", "not_null_when"), r.code >= 500000),
    ):
        if rule.products and ctx.product not in rule.products:
            continue
        if rule.when and conditions_hold(rule.when, _on_product(ctx)) is not True:
            continue
        if rule.host and (problem := _CHECKS[rule.kind](ctx, rule)):
            yield rule, problem


def check(spec: Spec, args: Mapping[str, object], product: str | None = None) -> None:
    """Raise AclnnError for the first documented rule the arguments break; TypeError first
    for an argument of the wrong type, ValueError for an unknown product or one the document
    says the function does not run on (when no error row gives that a status)."""
    check_types(spec, args)
    check_product(spec, product)
    broken = first_violation(spec, args, product)
    if broken:
        rule, problem = broken
        raise AclnnError(
            rule.code, spec.function, problem, rule.condition, rule.id or None
        )


def check_product(spec: Spec, product: str | None) -> None:
    """For a product the document's support list marks 不支持: AclnnError with the status of
    the error row that says so (平台不支持), else ValueError. None (any product) passes."""
    pid = product_id(product)
    if pid is None or pid not in spec.unsupported_products:
        return
    rule = next((r for r in spec.rules if r.kind == "product" and r.host), None)
    problem = f"the document does not list product {pid} as supported"
    if rule is None:
        raise ValueError(f"{spec.function}: {problem}")
    raise AclnnError(rule.code, spec.function, problem, rule.condition, rule.id or None)


# ---------------------------------------------------------------- argument types


def check_types(spec: Spec, args: Mapping[str, object]) -> None:
    """TypeError for an argument of the wrong Python type for its C parameter (None, a null
    pointer, is a rule's business): before any rule, as the C compiler would refuse it."""
    ctx = _Context(spec, args, None)
    for p in spec.params:
        value = args.get(p.name)
        if value is None and p.role in VALUE_ROLES:
            raise TypeError(
                f"{spec.function}: {p.name}: a C value, not a pointer: None cannot stand for it"
            )
        if value is None:
            continue
        try:
            problem = _TYPE_CHECKS[p.role](ctx, p, value)
        except TypeError as exc:
            problem = str(exc)
        if problem:
            raise TypeError(f"{spec.function}: {p.name}: {problem}")


def _items(value: object, what: str) -> list[object]:
    sequence = isinstance(value, Sequence | set | frozenset) or hasattr(
        value, "__array__"
    )
    if isinstance(value, str | bytes | Mapping) or not sequence:
        raise TypeError(f"{value!r} is not a sequence of {what}")
    return list(value)  # type: ignore[call-overload]


def _scalar_type(ctx: _Context, p: ParamSpec, value: object) -> str:
    values = _items(value, "scalars") if p.role == "scalar_list" else [value]
    like = ctx.descs.get(p.like, [None])[0] if p.like else None
    dtype = scalar_dtype(value, p.dtypes, like.dtype if like else None)
    return next(filter(None, (number_problem(v, dtype) for v in values)), "")


def _tensor_type(ctx: _Context, p: ParamSpec, value: object) -> str:
    items = _items(value, "tensors") if p.role == "tensor_list" else [value]
    bad = next((v for v in items if isinstance(v, str | bytes | Scalar)), None)
    return f"{bad!r} is not a tensor" if bad is not None else ""


def _array_type(dtype: str) -> Callable[[_Context, ParamSpec, object], str]:
    def check(ctx: _Context, p: ParamSpec, value: object) -> str:
        items = _items(value, f"{dtype} values")
        problems = (number_problem(v, dtype, strict=True) for v in items)
        return next(filter(None, problems), "")

    return check


def _value_type(ctx: _Context, p: ParamSpec, value: object) -> str:
    return number_problem(value, p.value_dtype, strict=True) if p.value_dtype else ""


def _string_type(ctx: _Context, p: ParamSpec, value: object) -> str:
    return "" if isinstance(value, str) else f"{value!r} is not a str"


def _dtype_type(ctx: _Context, p: ParamSpec, value: object) -> str:
    if isinstance(value, bool | int | float) and not isinstance(value, DataType):
        return f"{value!r} is not a dtype (pass DataType.X or its name)"
    dtype_name(value)  # TypeError for what is no aclnn dtype
    return ""


_TYPE_CHECKS: dict[str, Callable[[_Context, ParamSpec, object], str]] = {
    "tensor": _tensor_type,
    "tensor_list": _tensor_type,
    "scalar": _scalar_type,
    "scalar_list": _scalar_type,
    "int_array": _array_type("INT64"),
    "float_array": _array_type("FLOAT"),
    "bool_array": _array_type("BOOL"),
    "string": _string_type,
    "value": _value_type,
    "dtype": _dtype_type,
}


# ---------------------------------------------------------------- rules


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _not_null(ctx: _Context, rule: Rule) -> str:
    for name in rule.params:
        if ctx.args.get(name) is None and not ctx.spec.param(name).optional:
            return f"{name} is None (a null pointer) but is required"
    return ""


def _not_all_null(ctx: _Context, rule: Rule) -> str:
    """`p与k同为空指针`: one of the pointers at least is given."""
    if all(ctx.args.get(name) is None for name in rule.params):
        return f"{' and '.join(rule.params)} are all None (null pointers); one of them at least is required"
    return ""


def _not_null_when(ctx: _Context, rule: Rule) -> str:
    """`当outputMask[0]为true，传入的gradInput是空指针时`: the pointer is required when the bool
    array's element is true (an array too short to hold it asks for nothing here); with no
    element, when the other pointer is given (`当scalesOptional非空指针时，其也不能是空指针`), or
    when a bool is true (`当inputG为true时，sumDy或sumDyXmu是空指针`)."""
    pointer, flags = rule.params
    if not rule.values:
        other = ctx.args.get(flags)
        if ctx.spec.param(flags).value_dtype == "BOOL":
            asked = bool(other) and ctx.args.get(pointer) is None
            return (
                f"{pointer} is None (a null pointer) but {flags} is true"
                if asked
                else ""
            )
        if other is not None and ctx.args.get(pointer) is None:
            return f"{pointer} is None (a null pointer) but {flags} is given"
        return ""
    index = int(rule.values[0])  # type: ignore[call-overload]
    given = ctx.args.get(flags)
    if not isinstance(given, Sequence) or index >= len(given) or not given[index]:
        return ""
    if ctx.args.get(pointer) is None:
        return f"{pointer} is None (a null pointer) but {flags}[{index}] is true"
    return ""


def _null(ctx: _Context, rule: Rule) -> str:
    """`目前仅支持nullptr`: the pointer must be null (on the rule's products, when it has any)."""
    for name in rule.params:
        if ctx.args.get(name) is not None:
            return f"{name} is given but the document says it must be a null pointer (nullptr)"
    return ""


def _dtypes(ctx: _Context, rule: Rule) -> str:
    for name, desc in ctx.tensors(rule.params):
        allowed = ctx.spec.param(name).dtypes_on(ctx.product)
        if allowed and desc.dtype not in allowed:
            on = f" on product {ctx.product}" if ctx.product else ""
            return f"{name} has dtype {desc.dtype}; the document allows {', '.join(allowed)}{on}"
    return ""


def _private_only(formats: Sequence[str]) -> bool:
    return bool(formats) and all(f in PRIVATE_FORMATS for f in formats)


def _formats(ctx: _Context, rule: Rule) -> str:
    for name, desc in ctx.tensors(rule.params):
        allowed = ctx.spec.param(name).formats
        if _private_only(allowed) and desc.format == "ND":
            continue
        if "ND" in allowed and desc.format in ND_FAMILY:
            continue  # NCHW, NCL... are plain ND data to an operator documented for ND
        if allowed and desc.format not in allowed:
            return f"{name} has format {desc.format}; the document allows {', '.join(allowed)}"
    return ""


def _rank(ctx: _Context, rule: Rule) -> str:
    for name, desc in ctx.tensors(rule.params):
        if (
            _private_only(ctx.spec.param(name).formats)
            or desc.format in PRIVATE_FORMATS
        ):
            continue  # a documented rank of a private layout counts its storage dimensions
        low, high = ctx.spec.param(name).rank or (0, None)
        if rule.max is not None:
            high = rule.max if high is None else min(high, rule.max)
        listed = ctx.spec.param(name).ranks
        if (
            desc.ndim < low
            or (high is not None and desc.ndim > high)
            or (listed and desc.ndim not in listed)
        ):
            bound = f"{low} to {high}" if high is not None else f"at least {low}"
            bound = " or ".join(map(str, listed)) if listed else bound
            return f"{name} has {desc.ndim} dimensions {_shape(desc.shape)}; the document allows {bound}"
    return ""


def _min_rank(ctx: _Context, rule: Rule) -> str:
    """At least `values[0]` dimensions (`不小于2维`); a private layout's storage dimensions are
    not its rank."""
    low = int(rule.values[0])  # type: ignore[call-overload]
    for name, desc in ctx.tensors(rule.params):
        if (
            _private_only(ctx.spec.param(name).formats)
            or desc.format in PRIVATE_FORMATS
        ):
            continue
        if desc.ndim < low:
            return f"{name} has {desc.ndim} dimensions {_shape(desc.shape)}; the document requires at least {low}"
    return ""


def _same_rank(ctx: _Context, rule: Rule) -> str:
    """`gradOutput和self维度不一致`: one number of dimensions (a private layout's storage
    dimensions are not its rank: unchecked there)."""
    tensors = ctx.tensors(rule.params)
    if any(desc.format in PRIVATE_FORMATS for _, desc in tensors):
        return ""
    for name, desc in tensors[1:]:
        if desc.ndim != tensors[0][1].ndim:
            return f"{name} has {desc.ndim} dimensions but {tensors[0][0]} has {tensors[0][1].ndim}"
    return ""


def _same_shape(ctx: _Context, rule: Rule) -> str:
    """One shape for the tensors named; tensor lists position by position (`shape与入参x2、x3的
    shape一致`: x1[i], x2[i] and x3[i]), a single tensor named beside them with each position."""
    groups = (_one_shape(group) for group in _by_position(ctx, rule.params))
    return next(filter(None, groups), "")


def _one_shape(tensors: list[tuple[str, TensorDesc]]) -> str:
    for name, desc in tensors[1:]:
        if desc.shape != tensors[0][1].shape:
            return f"{name} has shape {_shape(desc.shape)} but {tensors[0][0]} has {_shape(tensors[0][1].shape)}"
    return ""


def _by_position(
    ctx: _Context, names: Sequence[str]
) -> Iterator[list[tuple[str, TensorDesc]]]:
    """The groups of tensors a relation compares: every tensor named at once when no list is
    named; else, for each place of the shortest list, the lists' tensors there (`x1[i]`) with the
    single tensors named beside them. Tensors past the shortest list, and a list not given
    (an optional one left null), are not compared."""
    lists = [
        n for n in names if ctx.spec.param(n).role == "tensor_list" and n in ctx.descs
    ]
    if not lists:
        yield ctx.tensors(names)
        return
    singles = [(n, d) for n in names if n not in lists for d in ctx.descs.get(n, [])]
    for i in range(min(len(ctx.descs.get(n, [])) for n in lists)):
        at = [(f"{n}[{i}]", ctx.descs[n][i]) for n in names if n in lists]
        yield [*at[:1], *singles, *at[1:]]


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's broadcasting of shapes; ValueError when they do not broadcast."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*((1,) * (rank - len(s)) + tuple(s) for s in shapes), strict=True):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise ValueError(f"shapes {shapes} do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _broadcast(ctx: _Context, rule: Rule) -> str:
    tensors = ctx.tensors(rule.params)
    try:
        broadcast_shapes(*(d.shape for _, d in tensors))
    except ValueError:
        shapes = ", ".join(f"{n} {_shape(d.shape)}" for n, d in tensors)
        return f"shapes do not broadcast: {shapes}"
    return ""


def _broadcast_to(ctx: _Context, rule: Rule) -> str:
    """Each source broadcasts to the target's shape (the last named): one way only."""
    *sources, target = rule.params
    goal = ctx.descs.get(target, [])
    if len(goal) != 1:
        return ""
    for name, desc in ctx.tensors(sources):
        try:
            fits = broadcast_shapes(desc.shape, goal[0].shape) == goal[0].shape
        except ValueError:
            fits = False
        if not fits:
            return f"{name} {_shape(desc.shape)} does not broadcast to {target} {_shape(goal[0].shape)}"
    return ""


def _broadcast_result(ctx: _Context, rule: Rule) -> str:
    """Outputs (in-out tensors such as selfRef included) have the broadcast shape of the inputs."""
    tensors = ctx.tensors(rule.params)
    outputs = [(n, d) for n, d in tensors if ctx.is_output(n)]
    inputs = [
        (n, d)
        for n, d in tensors
        if not ctx.is_output(n) or ctx.spec.param(n).direction == "inout"
    ]
    if not outputs or not inputs:
        return _broadcast(ctx, rule)
    try:
        expected = broadcast_shapes(*(d.shape for _, d in inputs))
    except ValueError:
        return _broadcast(ctx, rule)
    for name, desc in outputs:
        if desc.shape != expected:
            sources = ", ".join(n for n, _ in inputs)
            return f"{name} has shape {_shape(desc.shape)}; the broadcast of {sources} is {_shape(expected)}"
    return ""


def _same_dtype(ctx: _Context, rule: Rule) -> str:
    """One dtype for the tensors named; tensor lists position by position (`x和out的数据类型
    不一致`: x[i] and out[i]), a single tensor named beside them with each position."""
    groups = (_one_dtype(group) for group in _by_position(ctx, rule.params))
    return next(filter(None, groups), "")


def _one_dtype(tensors: list[tuple[str, TensorDesc]]) -> str:
    for name, desc in tensors[1:]:
        if desc.dtype != tensors[0][1].dtype:
            return f"{name} has dtype {desc.dtype} but {tensors[0][0]} has {tensors[0][1].dtype}"
    return ""


def _list_dtype(ctx: _Context, rule: Rule) -> str:
    """The tensors of each list named of one dtype (`x或out中的Tensor的数据类型不一致`)."""
    for name in rule.params:
        items = [(f"{name}[{i}]", d) for i, d in enumerate(ctx.descs.get(name, []))]
        if problem := _one_dtype(items):
            return problem
    return ""


def _same_format(ctx: _Context, rule: Rule) -> str:
    tensors = ctx.tensors(rule.params)
    for name, desc in tensors[1:]:
        if not _formats_agree(desc.format, tensors[0][1].format):
            return f"{name} has format {desc.format} but {tensors[0][0]} has {tensors[0][1].format}"
    return ""


def _formats_agree(a: str, b: str) -> bool:
    """Equal formats, or ND beside a plain layout (an ND output of an NCHW input: the same
    data to the operator, as a formats row listing ND admits it); NCHW beside NHWC disagree."""
    return format_allowed(a, (b,)) or format_allowed(b, (a,))


def _numbers(value: object) -> list[float] | None:
    """A plain value or a sequence of them as floats; None when it is not numeric."""
    items = (
        list(value)
        if isinstance(value, Sequence | set) and not isinstance(value, str)
        else [value]
    )
    items = [v.value if isinstance(v, Scalar) else v for v in items]
    try:
        return [float(v) for v in items]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


ARRAY_ROLES = ("int_array", "float_array", "bool_array", "scalar_list")


def _enum(ctx: _Context, rule: Rule) -> str:
    for name in rule.params:
        allowed = rule.values or ctx.spec.param(name).enum
        value = ctx.args.get(name)
        if ctx.spec.param(name).role in ARRAY_ROLES and value is not None:
            # `dilation的数值不等于1`: each element of an array is one of the values
            bad = [v for v in _numbers(value) or () if allowed and v not in allowed]
            if bad:
                return f"{name} is {value!r}; the document allows {', '.join(map(repr, allowed))} for each element"
            continue
        if isinstance(value, Scalar):
            value = value.value
        if isinstance(value, DataType):
            value = value.name
        if (
            isinstance(value, str)
            and value in ACL_DTYPES
            and ctx.spec.param(name).role != "string"
        ):
            value = ACL_DTYPES[value]  # documents list aclDataType values by number
        if allowed and value is not None and value not in allowed:
            return f"{name} is {value!r}; the document allows {', '.join(map(repr, allowed))}"
    return ""


def _range(ctx: _Context, rule: Rule) -> str:
    for name in rule.params:
        bounds = rule.bounds or ctx.spec.param(name).range
        values = _numbers(ctx.args.get(name))
        if bounds is None or not values:
            continue
        low, high, low_in, high_in = bounds
        below = low is not None and any(v < low if low_in else v <= low for v in values)
        above = high is not None and any(
            v > high if high_in else v >= high for v in values
        )
        # NaN meets no bound (`clampLimit不满足≥0（包括NaN）`): it is inside no interval
        bounded = low is not None or high is not None
        if below or above or (bounded and any(math.isnan(v) for v in values)):
            interval = (
                ("[" if low_in else "(") + f"{low}, {high}" + ("]" if high_in else ")")
            )
            return f"{name} is {ctx.args.get(name)!r}, outside {interval}"
    return ""


def _axis(ctx: _Context, rule: Rule) -> str:
    """A dim/axis value (or each of a list of them) indexes a dimension of the tensor."""
    value_name, tensor_name = rule.params[0], rule.params[1]
    values = _numbers(ctx.args.get(value_name))
    tensors = ctx.descs.get(tensor_name, [])
    if not values or not tensors:
        return ""
    rank = max(tensors[0].ndim, 1)  # a 0-d tensor takes dim 0 or -1
    for v in values:
        # a value the document gives a meaning of its own (`传入1000表示…`)
        if v in rule.values:
            continue
        if not (math.isfinite(v) and -rank <= v <= rank - 1):
            return (
                f"{value_name} is {ctx.args.get(value_name)!r}; {tensor_name} has {tensors[0].ndim} "
                f"dimensions, so it must lie in [{-rank}, {rank - 1}]"
            )
    return ""


def _empty(ctx: _Context, rule: Rule) -> str:
    for name, desc in ctx.tensors(rule.params):
        if desc.size == 0 and ctx.spec.param(name).empty is not True:
            return f"{name} is an empty tensor {_shape(desc.shape)}"
    return ""


def _non_contiguous(ctx: _Context, rule: Rule) -> str:
    for name, desc in ctx.tensors(rule.params):
        if not desc.contiguous and ctx.spec.param(name).non_contiguous is not True:
            return f"{name} is not contiguous (strides {desc.strides})"
    return ""


def _single(ctx: _Context, name: str) -> TensorDesc | None:
    descs = ctx.descs.get(name, [])
    return (
        descs[0] if len(descs) == 1 and ctx.spec.param(name).role == "tensor" else None
    )


def _of_tensors(ctx: _Context, fact: str) -> dict[str, Any]:
    """Each parameter's shape or dtype (`fact`) where it is one tensor, else None: what an
    output's rule reads."""
    return {
        p.name: getattr(d, fact) if (d := _single(ctx, p.name)) else None
        for p in ctx.spec.params
    }


def _on_product(ctx: _Context) -> Mapping[str, object]:
    """The arguments the rules read, with the product given (a case said for some products)."""
    return {**ctx.args, PRODUCT_KEY: ctx.product} if ctx.product else ctx.args


def _output_shape(ctx: _Context, rule: Rule) -> str:
    """An output (or an input held to its own list) has the shape the document's rule gives
    it (when the arguments settle it)."""
    out = _single(ctx, rule.params[0])
    if out is None or rule.derive is None:
        return ""
    shapes = _of_tensors(ctx, "shape")
    allowed = shape_allowed(rule.derive, shapes, _on_product(ctx), out.shape)
    if allowed is None:
        return _unbroadcastable(rule, shapes)
    expected = " or ".join(_shape(s) for s in allowed)
    return f"{rule.params[0]} has shape {_shape(out.shape)}; the document's rule gives {expected}"


def _unbroadcastable(rule: Rule, shapes: Mapping[str, Any]) -> str:
    """An output the rule gives the broadcast shape of inputs that do not broadcast
    (`shape需要与self和gradOutput进行broadcast之后的shape相等`): no shape meets it."""
    derive = rule.derive or {}
    names = derive.get("params")
    if (
        derive.get("kind") != "broadcast"
        or derive.get("when")
        or not isinstance(names, list | tuple)
    ):
        return ""
    known: list[tuple[int, ...]] = [
        s for n in names if (s := shapes.get(n)) is not None
    ]
    if len(known) < 2 or len(known) != len(names):
        return ""
    try:
        broadcast_shapes(*known)
    except ValueError:
        given = ", ".join(f"{n} {_shape(s)}" for n, s in zip(names, known, strict=True))
        return f"{rule.params[0]}'s shape is the broadcast of {given}, which do not broadcast"
    return ""


def _output_dtype(ctx: _Context, rule: Rule) -> str:
    """An output has the dtype of the input the document names, or its case's (on the
    product given, where a case is said for some products)."""
    out = _single(ctx, rule.params[0])
    if out is None or rule.derive is None:
        return ""
    args = _on_product(ctx)
    if (
        dtype_allowed(rule.derive, _of_tensors(ctx, "dtype"), out.dtype, args)
        is not False
    ):
        return ""
    peers = ", ".join(rule.params[1:])
    expected = output_dtype(rule.derive, _of_tensors(ctx, "dtype"), args)
    given = f" ({expected} for these arguments)" if expected else ""
    if rule.derive.get("kind") == "cases":
        return f"{rule.params[0]} has dtype {out.dtype}; the document's cases give {expected} for these {peers}"
    return f"{rule.params[0]} has dtype {out.dtype}; the document gives it the dtype of {peers}{given}"


def _multiple(ctx: _Context, rule: Rule) -> str:
    """A value (each of a list) a multiple of the number (`offset % 4 == 0`), or of the value of
    the second parameter named (`C必须可以被group整除`)."""
    if rule.values:
        factor, names = int(rule.values[0]), rule.params  # type: ignore[call-overload]
    else:
        divisor = _numbers(ctx.args.get(rule.params[1]))
        if (
            not divisor
            or len(divisor) != 1
            or not divisor[0].is_integer()
            or divisor[0] == 0
        ):
            return ""  # no divisor to check against (its own rules say what it must be)
        factor, names = int(divisor[0]), rule.params[:1]
    for name in names:
        values = _numbers(ctx.args.get(name))
        if values and any(not v.is_integer() or int(v) % factor for v in values):
            return f"{name} is {ctx.args.get(name)!r}, not a multiple of {factor}"
    return ""


def _ratio(ctx: _Context, rule: Rule) -> str:
    """The first value over the second at most the bound (`numHeads与numKeyValueHeads的比值不能
    大于64`); never checked while the second is 0 or not given (`默认值0，表示…相等`)."""
    numerator = _numbers(ctx.args.get(rule.params[0]))
    denominator = _numbers(ctx.args.get(rule.params[1]))
    if (
        not rule.bounds
        or not numerator
        or not denominator
        or len(numerator) != 1
        or len(denominator) != 1
    ):
        return ""
    if denominator[0] == 0:
        return ""
    high, inclusive = rule.bounds[1], rule.bounds[3]
    ratio = numerator[0] / denominator[0]
    if high is not None and (ratio > high if inclusive else ratio >= high):
        limit = "at most" if inclusive else "below"
        return f"{rule.params[0]} / {rule.params[1]} is {ratio:g}, not {limit} {high:g}"
    return ""


def _length(ctx: _Context, rule: Rule) -> str:
    """An array's or a string's length is one the document allows (`长度为1或2`, `[1,127]`)."""
    name = rule.params[0]
    value = ctx.args.get(name)
    if value is None or not isinstance(value, Sequence | str):
        return ""
    n = len(value)
    if rule.values and n not in rule.values:
        return f"{name} has length {n}; the document allows {', '.join(map(str, rule.values))}"
    if rule.bounds:
        low, high = rule.bounds[0], rule.bounds[1]
        if (low is not None and n < low) or (high is not None and n > high):
            span = (
                f"at most {high:g}"
                if low is None
                else f"at least {low:g}"
                if high is None
                else f"{low:g} to {high:g}"
            )
            return f"{name} has length {n}; the document allows {span}"
    return ""


def _rank_at_least(ctx: _Context, rule: Rule) -> str:
    """A tensor has at least as many dimensions as an array has elements
    (`input的维度小于normalizedShape的维度`); a value that is no array is not compared."""
    desc, value = _single(ctx, rule.params[0]), ctx.args.get(rule.params[1])
    if desc is None or not isinstance(value, Sequence) or isinstance(value, str):
        return ""
    if desc.ndim < len(value):
        return (
            f"{rule.params[0]} has {desc.ndim} dimensions, fewer than the {len(value)} "
            f"elements of {rule.params[1]}"
        )
    return ""


def _array_shape(ctx: _Context, rule: Rule) -> str:
    """A tensor's shape is an array's value (`weightOptional非空且shape与normalizedShape不相等`); a
    null tensor, or a value that is no array, is not compared."""
    desc, value = _single(ctx, rule.params[0]), ctx.args.get(rule.params[1])
    if desc is None or not isinstance(value, Sequence) or isinstance(value, str):
        return ""
    if tuple(desc.shape) != tuple(value):
        return f"{rule.params[0]} has shape {_shape(desc.shape)}; {rule.params[1]} is {list(value)}"
    return ""


def _dim_multiple(ctx: _Context, rule: Rule) -> str:
    """A tensor's last dimension, or the one a dim value names, a multiple of the number."""
    factor = int(rule.values[0])  # type: ignore[call-overload]
    name, dim = rule.params[0], rule.params[1:]
    desc = _single(ctx, name)
    if desc is None or not desc.shape:
        return ""
    index: float = -1
    if dim:
        found = _numbers(ctx.args.get(dim[0]))
        if not found or len(found) != 1 or not -desc.ndim <= found[0] < desc.ndim:
            return ""  # the axis rule's business
        index = found[0]
    size = desc.shape[int(index)]
    if size % factor:
        where = f"dimension {dim[0]}={int(index)}" if dim else "last dimension"
        return f"{name} has shape {_shape(desc.shape)}; its {where} ({size}) is not a multiple of {factor}"
    return ""


def _dim_equal(ctx: _Context, rule: Rule) -> str:
    """A tensor's dimensions equal to a peer's, pair by pair (`target的第1维与self的第1维相等`):
    `i:j` its dimension i and the peer's j (-1 the last), `numel:j` its element count, `i:value`
    the peer's value. A dimension past a tensor's rank is the rank rules' business."""
    own, peer = rule.params
    desc = _single(ctx, own)
    if desc is None:
        return ""
    for pair in rule.values:
        mine, theirs = str(pair).split(":")
        expected = _peer_size(ctx, peer, theirs)
        if (
            expected is None
            or mine != "numel"
            and not -desc.ndim <= int(mine) < desc.ndim
        ):
            continue
        size, what = (
            (desc.size, "element count")
            if mine == "numel"
            else (desc.shape[int(mine)], f"dimension {mine}")
        )
        if size != expected[0]:
            return f"{own} has shape {_shape(desc.shape)}; its {what} ({size}) is not {expected[1]} ({expected[0]})"
    return ""


def _peer_size(ctx: _Context, peer: str, theirs: str) -> tuple[int, str] | None:
    """The size a dimension pair compares with, and how to name it; None when it is not known."""
    if theirs == "value":
        found = _numbers(ctx.args.get(peer))
        return (
            (int(found[0]), peer)
            if found and len(found) == 1 and found[0] == int(found[0])
            else None
        )
    desc = _single(ctx, peer)
    if desc is None or not -desc.ndim <= int(theirs) < desc.ndim:
        return None
    return desc.shape[int(theirs)], f"dimension {theirs} of {peer} {_shape(desc.shape)}"


def _numel_at_least(ctx: _Context, rule: Rule) -> str:
    """Each tensor of the first parameter holds at least as many elements as the second's at its
    place (`shape size大于等于入参x的shape size`); tensors past the shorter list are not compared."""
    more, fewer = rule.params[0], rule.params[1]
    for index, (a, b) in enumerate(
        zip(ctx.descs.get(more, []), ctx.descs.get(fewer, []), strict=False)
    ):
        if a.size < b.size:
            return (
                f"{more} (tensor {index}) has shape {_shape(a.shape)}, {a.size} elements, fewer than "
                f"the {b.size} of {fewer} {_shape(b.shape)}"
            )
    return ""


def _numel(ctx: _Context, rule: Rule) -> str:
    """Each tensor of the number of elements stated (an empty one has none), each tensor of a
    list too (aclnnForeachNorm `out的shape size不为1`: every out[i] holds one element)."""
    count = int(rule.values[0])  # type: ignore[call-overload]
    for name in rule.params:
        listed = ctx.spec.param(name).role == "tensor_list"
        for index, desc in enumerate(ctx.descs.get(name, [])):
            if desc.size != count:
                which = f"{name}[{index}]" if listed else name
                return f"{which} has shape {_shape(desc.shape)}, {desc.size} elements; the document requires {count}"
    return ""


def _last_dim(ctx: _Context, rule: Rule) -> str:
    """A tensor's last dimension of the size stated (a 0-d tensor has none)."""
    size = int(rule.values[0])  # type: ignore[call-overload]
    desc = _single(ctx, rule.params[0])
    if desc is not None and (not desc.shape or desc.shape[-1] != size):
        return f"{rule.params[0]} has shape {_shape(desc.shape)}; the document requires a last dimension of {size}"
    return ""


def _product(ctx: _Context, rule: Rule) -> str:
    if ctx.product in ctx.spec.unsupported_products:
        return f"the document does not list product {ctx.product} as supported"
    return ""


_CHECKS: dict[str, Callable[[_Context, Rule], str]] = {
    "product": _product,
    "not_null": _not_null,
    "not_all_null": _not_all_null,
    "not_null_when": _not_null_when,
    "null": _null,
    "dtypes": _dtypes,
    "formats": _formats,
    "rank": _rank,
    "same_rank": _same_rank,
    "min_rank": _min_rank,
    "rank_at_least": _rank_at_least,
    "array_shape": _array_shape,
    "same_shape": _same_shape,
    "broadcast": _broadcast,
    "broadcast_result": _broadcast_result,
    "broadcast_to": _broadcast_to,
    "same_dtype": _same_dtype,
    "list_dtype": _list_dtype,
    "same_format": _same_format,
    "enum": _enum,
    "range": _range,
    "axis": _axis,
    "multiple": _multiple,
    "ratio": _ratio,
    "length": _length,
    "dim_multiple": _dim_multiple,
    "dim_equal": _dim_equal,
    "numel": _numel,
    "numel_at_least": _numel_at_least,
    "last_dim": _last_dim,
    "empty_tensor": _empty,
    "non_contiguous": _non_contiguous,
    "output_shape": _output_shape,
    "output_dtype": _output_dtype,
}
CHECKED_KINDS = frozenset(_CHECKS)
