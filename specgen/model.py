"""The operator model: frozen, located, dialect-free.

Every element carries the 1-based line of the document it came from; the document's path
is on `OperatorDoc.source`. Both document dialects produce the same model where they say
the same thing: only the original-text fields (`text`, `description`, ...) differ.

Parameter facts such as dtypes and formats are stored once, as typed constraints; the
convenient views (`Param.dtypes`, `Param.formats`, ...) are computed from them.
"""

from __future__ import annotations

import json
import math
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, computed_field, model_validator

from specgen.diagnostics import Code, Severity, registered

Direction = Literal["in", "out", "inout"]
ParamKind = Literal[
    "tensor",
    "tensor_list",
    "scalar",
    "scalar_list",
    "int_array",
    "float_array",
    "bool_array",
    "string",
    "int",
    "float",
    "bool",
    "dtype",
    "workspace_size",
    "executor",
    "workspace",
    "stream",
    "other",
]
# The execute function's parameters by kind, in the convention's order (workspace, size,
# executor, stream).
EXECUTE_KINDS = ("workspace", "workspace_size", "executor", "stream")
ConstraintKind = Literal[
    "dtypes",  # values: supported dtypes (on `product` when set)
    "formats",  # values: supported formats (on `product` when set)
    "rank",  # min/max: number of dimensions
    "same_shape",  # params: shape equal to each of these
    "broadcast",  # params: shape broadcastable with these
    "broadcast_result",  # params: shape equals the broadcast of these
    "broadcast_to",  # params: (target,): shape broadcasts to the target's one way (`mask可以broadcast成gradOutput`)
    "same_dtype",  # params: dtype equal to these
    "castable",  # params: dtype can be cast or promoted to/with these
    "same_format",  # params: format equal to these
    "enum",  # values: the allowed values
    "range",  # min/max (inclusive flags): values outside are rejected
    "clamp",  # min/max: values outside are normalised to the bound, not rejected
    "length",  # values: an array's or a string's allowed lengths, or min/max: their range
    "multiple",  # values: (n,) a multiple of n, or params: (p,) a multiple of parameter p, or
    # params: (a, b): a a multiple of b (`需要满足numHeads整除numKeyValueHeads`)
    # params: (tensor,) its last dimension, or (tensor, dim) the one the dim value names; values:
    # (n,) the number that dimension is a multiple of (`最后一维必须为偶数`)
    "dim_multiple",
    "min_rank",  # min: the least number of dimensions (`不小于2维`), beside any rank range stated
    # params: (a, b): each tensor of a holds at least as many elements as b's at its place
    # (`shape size大于等于入参x的shape size`)
    "numel_at_least",
    # params: (tensor, peer); values: 'mine:theirs' pairs of equal dimensions, each an index (-1 the
    # last), `numel` (the tensor's element count), `value` (the peer's value), or `~n`, an Arabic
    # ordinal not yet known to count from 0 or 1 (`target的第1维与self的第1维相等`)
    "dim_equal",
    "ratio",  # params: (a, b): a / b at most max (`numHeads与numKeyValueHeads的比值不能大于64`)
    "axis",  # params: the tensor whose dimensions this value indexes ([-rank, rank-1]); values: allowed besides
    "optional",  # may be a null pointer
    "null",  # must be a null pointer (on `product` when set): `目前仅支持nullptr`, `暂不支持该传参`
    # params: (other,): must not be null when `other` is not (`当scalesOptional非空指针时，其也不能是空指针`)
    "not_null_when",
    "non_contiguous",  # supported: non-contiguous tensors accepted or not
    "empty_tensor",  # supported: empty tensors accepted or not
    "text",  # a statement no rule recognises; kept verbatim
]
CheckKind = Literal[
    "not_null",
    "not_all_null",  # params: pointers that must not all be null (`p与k同为空指针`)
    "not_null_when",  # params: (pointer, bool array), values: (index,): not null when that element is true;
    # params: (pointer, other), no values: not null when the other pointer is not null, or
    # when the other is a bool and true (`当inputG为true时，sumDy或sumDyXmu是空指针`)
    "null",  # params: pointers the document says must be null (`目前仅支持nullptr`)
    # params: tensor lists whose elements the row says are null (`weight的元素存在空指针`,
    # `x的元素为空指针，且y的元素不为空指针`): about the elements, not the list pointers
    "element_null",
    "dtypes",
    "formats",
    "rank",
    "same_shape",
    "broadcast",
    "broadcast_result",
    "broadcast_to",  # params: (sources..., target): each source broadcasts to the target's shape
    "same_rank",  # params: tensors of one number of dimensions (`gradOutput和self维度不一致`)
    "rank_at_least",  # params: (tensor, array): the tensor's rank is at least the array's length
    # (`input的维度小于normalizedShape的维度`)
    "length",  # params: (array,): its length is one of values, or within min/max (`outputMask的长度不为3`)
    "array_shape",  # params: (tensor, array): the tensor's shape is the array's value
    # (`weightOptional非空且shape与normalizedShape不相等`)
    "same_dtype",  # tensor lists compared position by position (x[i] with out[i])
    "list_dtype",  # params: tensor lists, the tensors of each of one dtype (`x中的Tensor的数据类型不一致`)
    "castable",
    "same_format",
    "enum",
    "range",
    "multiple",  # params: a value (or values) that must be a multiple of values[0] (`offset % 4 == 0`)
    "ratio",  # params: (a, b): a / b at most max; never checked while b is 0 or not given
    "dim_multiple",  # params: (tensor,) its last dimension, or (tensor, dim) the one dim names;
    # values[0]: the size must be a multiple of it (`x的最后一维不能被2整除`)
    "axis",  # params: (value, tensor): the value indexes a dimension of the tensor
    "numel",  # params: tensors each of values[0] elements (`scalar元素个数不为1`)
    "last_dim",  # params: (tensor,) its last dimension of size values[0] (`spatialShape的最后一轴不是2`)
    "empty_tensor",
    "non_contiguous",
    "shape",  # a shape rule the document states in prose only
    "output_shape",  # params: an output and what its shape rule reads; the shape it must have
    # (also an input held to its own list, `Param.stated_shape`: validator rules `stated_shape_<name>`)
    "output_dtype",  # params: an output and the input whose dtype it takes
    "value",  # a value rule the document states in prose only
    "product",  # the product (platform) is not supported
    "constraints",  # the parameter constraints as a whole ("不满足参数说明中的约束")
    "internal",  # a failure inside the library, not an argument rule
]
# Numbers a document states must fit the C types of the API (int64, double): a value beyond
# them is damage, and generated code could not spell it.
LIMIT = 2**63


def _representable(value: Any) -> Any:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and (not math.isfinite(value) or abs(value) > LIMIT):
        raise ValueError(f"{value!r:.40} is beyond the range of int64 and double values")
    return value


Number = Annotated[float, AfterValidator(_representable)]
MAX_RANK = 64  # far above any real tensor (CANN's limit is 8); more is damage, not a rule
Scalar = Annotated[bool | int | float | str, AfterValidator(_representable)]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def dump(self) -> dict[str, Any]:
        """The JSON-ready form that `specgen parse --format json` prints."""
        return self.model_dump(mode="json")


def _sparse(default: Any) -> Any:
    """A field left out of the JSON while it holds its default: constraints are many and
    mostly sparse, and the spec files reviewers read should show only what was said."""
    return Field(default=default, exclude_if=lambda v: v == default)


# A located message about a document (or a file specgen reads or writes), at any level. (A
# comment, not a docstring: the docstring would reach the JSON Schema.)
class Diagnostic(Frozen):
    line: int
    severity: Severity
    code: Annotated[str, AfterValidator(registered)]  # a `Code` (its string in JSON)
    message: str

    @classmethod
    def at(cls, line: int, code: Code, message: str, severity: Severity | None = None) -> Diagnostic:
        """A diagnostic of `code`, at the code's default severity unless told otherwise."""
        return cls(line=line, severity=severity or code.severity, code=code, message=message)


def _rank_in_reason(model: Any) -> Any:
    if model.kind == "rank" and any(v is not None and not 0 <= v <= MAX_RANK for v in (model.min, model.max)):
        raise ValueError(f"a rank outside 0..{MAX_RANK}")
    return model


class Constraint(Frozen):
    """One statement about a parameter, typed where a rule recognises it."""

    kind: ConstraintKind
    text: str  # the original statement
    line: int
    params: tuple[str, ...] = _sparse(())
    values: tuple[Scalar, ...] = _sparse(())
    min: Number | None = _sparse(None)
    max: Number | None = _sparse(None)
    min_inclusive: bool = _sparse(True)
    max_inclusive: bool = _sparse(True)
    supported: bool | None = _sparse(None)
    product: str | None = _sparse(None)  # product id when it holds on one product only
    # four-part conditions it holds under, as ShapeRule.when's: roundMode's `当yDtype为FLOAT8_E4M3FN/
    # FLOAT8_E5M2时，仅支持{"rint"}` is ("yOut", "dtype", "FLOAT8_E4M3FN/FLOAT8_E5M2", "true")
    when: tuple[str, ...] = _sparse(())

    _rank = model_validator(mode="after")(_rank_in_reason)


class Check(Frozen):
    """A typed test that an error rule's condition stands for."""

    kind: CheckKind
    params: tuple[str, ...] = _sparse(())
    values: tuple[Scalar, ...] = _sparse(())
    min: Number | None = _sparse(None)
    max: Number | None = _sparse(None)
    min_inclusive: bool = _sparse(True)  # range: min itself is allowed
    max_inclusive: bool = _sparse(True)

    _rank = model_validator(mode="after")(_rank_in_reason)


class ErrorRule(Frozen):
    code: int
    name: str
    condition: str  # original text
    params: tuple[str, ...] = ()  # parameters the condition names
    checks: tuple[Check, ...] = ()
    conditional: bool = _sparse(False)  # holds only in some situation (当…时, 若…): not enforced
    line: int


def _rank_set(ranks: list[Constraint], low: int, high: int | None) -> tuple[int, ...]:
    """The ranks allowed, where every statement lists ranks (`1、3`, `4维`) and together they
    leave a gap between `low` and `high`; () where any is a range or they leave none."""
    listed: set[int] = set()
    for c in ranks:
        if c.values:
            listed |= {int(v) for v in c.values}
        elif c.min is not None and c.min == c.max:
            listed.add(int(c.min))
        else:
            return ()
    return tuple(sorted(listed)) if high is not None and len(listed) < high - low + 1 else ()


class RankRange(Frozen):
    min: int
    max: int | None = None
    # the ranks allowed when they are a set with gaps (`1、3`: 1 or 3, not 2); empty: min..max
    values: tuple[int, ...] = ()


ShapeRuleKind = Literal[
    "same",  # params: the shape of the one tensor named
    "broadcast",  # params: the broadcast of the tensors named
    "explicit",  # dims: one expression per dimension (`{self.shape[0], vec2.shape[0]}`, `[B,N,S,8]`);
    # params, of an output list: the input lists it holds one tensor per element of (`shape size为1`)
    "matmul",  # params: (a, b[, a's transposer, b's ("" none)]): the shape of a @ b (the formula)
    "reduce",  # params: (tensor, axes, keepdim): the tensor reduced over the axes a value gives
    "einsum",  # params: (tensor list, equation string): the Einstein summation's output term
    # (`abcd,abced->abce`), each letter sized as in the input terms; other forms unchecked
    "reduction",  # params: (reduction, tensors...): their broadcast when reduction is 0/"none", else dims
    "in_place",  # an in-out tensor with no other rule: the library writes it in its own shape
    "at_least",  # params: the one tensor whose element count the output's must reach ("shape size大于等于"):
    # wrappers allocate in its shape; validators hold the output to no one shape
    "one_of",  # alternatives: the shapes the document gives, each under its own condition or none
    # (`(N)或者()`, `当activateDim对应的x的尾轴时…；当…不是x的尾轴时…`): the output may take
    # the shape of any alternative whose condition the call meets; wrappers allocate only when
    # those agree. params: every tensor the alternatives read
    "not_derivable",  # reason: why no rule can be read (data-dependent, unstated, alternatives)
]
DtypeRuleKind = Literal[
    "same",  # params: the dtype of the tensor named
    "fixed",  # values: the one dtype the document allows
    "one_of",  # values: any of these, whatever the inputs (index outputs: INT32, INT64), the first allocated
    "promote",  # params: the promoted dtype of these ("数据类型推导"): the output may be any dtype it
    # casts to, so wrappers allocate in it and validators do not enforce it
    "same_set",  # params: no rule stated, but the output allows exactly that input's dtypes:
    # wrappers allocate in the input's dtype; validators do not enforce it. values: the output
    # allows fewer (the one input's that allows more): allocated so only when they hold it
    "given",  # params: the aclDataType parameter whose value the output's dtype is ("指定输出的数据类型"),
    # or the bool that chooses it: values, the dtype when true, then when false
    "cases",  # alternatives: the dtypes the document gives case by case ("当quantScaleOptional存在时，
    # 数据类型为INT8", a dtype-combination table's rows), each a fixed, same or one_of rule with its
    # `when`; the output takes the one dtype every case the call meets gives, else the caller's
    # choice (several dtypes, or a case the call cannot settle). params: every tensor they read
    "not_derivable",  # reason
]


class SymbolDim(Frozen):
    """Where a symbol of an explicit shape is read: `B` is dimension `axis` of `param`."""

    symbol: str
    param: str
    axis: int


# An output's shape as a function of the inputs and attributes, read from the document. Dims
# are expressions over integers, symbols (`symbols` says where each is read), the shapes of
# parameters (`self.shape[0]`, `x.shape[-1]`) and integer attributes, with + - * / // and
# ceil(); codegen/runtime/_shapes.py evaluates them.
class ShapeRule(Frozen):
    kind: ShapeRuleKind
    params: tuple[str, ...] = _sparse(())
    dims: tuple[str, ...] = _sparse(())
    symbols: tuple[SymbolDim, ...] = _sparse(())
    reason: str = _sparse("")  # not_derivable: why
    # The rule holds only when a bool parameter (or one element of a bool array) has a value:
    # (name, index or "", "true"/"false"); `若outputMask[0]为True，则需要输出` is
    # ("outputMask", "0", "true"). Checks hold then; allocation uses the rule either way.
    # Or a tensor's dtype: (name, "dtype", dtype, "true"/"false"): `类型为INT32时…；其他类型时，
    # shape与x一致` is ("y", "dtype", "INT32", "false"); or an attribute's value: `quantMode是
    # pertoken时，shape为…` is ("quantMode", "value", "pertoken", "true"); or an input's rank
    # (`当logProbs为3维时`: ("logProbs", "rank", "3", "true")) or presence (`当groupIndexOptional
    # 存在时`: ("groupIndexOptional", "given", "", "true"); "false": null); or a bool the formula
    # holds for (a plain convolution's: ("transposed", "bool", "false", "true")), or an axis that is
    # a tensor's last (`当activateDim对应的x的尾轴时`: ("activateDim", "last", "x", "true")), or an
    # integer compared with a bound (`activeNum小于R * K`: ("activeNum", "compare", "< R * K", "true"),
    # the bound a dimension expression of the rule's symbols); any
    # four-part condition "false" where it fails (`reduction的值不为0`). Allocation holds
    # to these four-part conditions; several of them in a row (4k parts) must all hold
    # (`当reduction为0且self的shape为2维时`).
    when: tuple[str, ...] = _sparse(())
    alternatives: tuple[ShapeRule, ...] = _sparse(())  # one_of: the shapes given, each with its `when`
    text: str = ""  # the statement the rule is read from, verbatim
    line: int

    @property
    def derived(self) -> bool:
        return self.kind != "not_derivable"


class DtypeRule(Frozen):
    kind: DtypeRuleKind
    params: tuple[str, ...] = _sparse(())
    values: tuple[str, ...] = _sparse(())
    reason: str = _sparse("")
    # an alternative of `cases`: the four-part conditions it holds under, as ShapeRule.when's
    # (`(quantScaleOptional, "given", "", "true")`; a table cell `UINT64/INT64` or `null/INT32`
    # is ("scale", "dtype", "UINT64/INT64", "true"), "null" naming an absent optional)
    when: tuple[str, ...] = _sparse(())
    alternatives: tuple[DtypeRule, ...] = _sparse(())  # cases: each with its `when`
    text: str = ""
    line: int

    @property
    def derived(self) -> bool:
        return self.kind != "not_derivable"


# A non-const pointer to one plain C value (canonical spelling: "uint64_t*").
_OUT_VALUE = re.compile(r"^(?:u?int(?:8|16|32|64)_t|size_t|int|float|double|bool)\*$")
_COMPUTED_PARAM_FIELDS = ("dtypes", "product_dtypes", "formats", "rank", "non_contiguous", "empty_tensor")


class Param(Frozen):
    name: str
    c_type: str  # canonical: "const aclTensor*", "uint64_t*", "aclOpExecutor**"
    kind: ParamKind
    direction: Direction
    optional: bool = False
    description: str = ""
    text: str = ""  # all constraint text the document gives for the parameter, verbatim
    constraints: tuple[Constraint, ...] = ()
    documented: bool = True  # False when only the prototype names it
    line: int
    # outputs and in-out tensors: how the library shapes and types what it writes
    shape_rule: ShapeRule | None = _sparse(None)
    dtype_rule: DtypeRule | None = _sparse(None)
    # inputs: the dimension list the parameter's own statement gives (`维度只支持1维且为[H]`),
    # its symbols sized by the other inputs; not_derivable, with the reason, when no call settles it
    stated_shape: ShapeRule | None = _sparse(None)

    @model_validator(mode="before")
    @classmethod
    def _drop_computed(cls, data: Any) -> Any:
        # The computed views below are dumped with the model; accept them back on load.
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k not in _COMPUTED_PARAM_FIELDS}
        return data

    def of_kind(self, kind: ConstraintKind) -> list[Constraint]:
        return [c for c in self.constraints if c.kind == kind]

    @property
    def out_value(self) -> bool:
        """A plain C value the function writes through a pointer (`uint64_t* weightTensorSize`
        of a single-phase API): the generated wrappers return it."""
        return self.kind == "other" and _OUT_VALUE.match(self.c_type) is not None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def dtypes(self) -> list[str]:
        """Every dtype the document allows on some product, in document order."""
        return _union(c.values for c in self.of_kind("dtypes"))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def product_dtypes(self) -> dict[str, list[str]]:
        """Products whose dtype set the document restricts, with that set."""
        out: dict[str, list[str]] = {}
        for c in self.of_kind("dtypes"):
            if c.product is not None:
                out[c.product] = _union([out.get(c.product, []), c.values])
        return out

    @computed_field  # type: ignore[prop-decorator]
    @property
    def formats(self) -> list[str]:
        return _union(c.values for c in self.of_kind("formats"))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rank(self) -> RankRange | None:
        ranks = self.of_kind("rank")
        if not ranks:
            return None
        # Several statements are alternatives (`2维（NC），…，6-8维（ND）`, or per product): the
        # union, so that no stated rank is rejected.
        lows = [int(c.min) if c.min is not None else 0 for c in ranks]
        highs = [int(c.max) if c.max is not None else None for c in ranks]
        high = None if None in highs else max(h for h in highs if h is not None)
        return RankRange(min=min(lows), max=high, values=_rank_set(ranks, min(lows), high))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def non_contiguous(self) -> bool | None:
        return _last_flag(self.of_kind("non_contiguous"))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def empty_tensor(self) -> bool | None:
        return _last_flag(self.of_kind("empty_tensor"))

    def dtypes_on(self, product: str | None) -> list[str]:
        """The dtypes allowed on `product`; every documented one when it is None.

        A product-specific set replaces the general one on that product; a dtype the
        document lists only under some products is not in the general set.
        """
        if product is None:
            return self.dtypes
        if product in self.product_dtypes:
            return self.product_dtypes[product]
        general = [c.values for c in self.of_kind("dtypes") if c.product is None]
        return _union(general) if general else self.dtypes


def _union(lists: Any) -> list[Any]:
    seen: dict[Any, None] = {}
    for values in lists:
        for v in values:
            seen.setdefault(v, None)
    return list(seen)


def _last_flag(constraints: list[Constraint]) -> bool | None:
    return constraints[-1].supported if constraints else None


CallArgKind = Literal[
    "tensor",
    "tensor_list",
    "scalar",
    "scalar_list",
    "int_array",
    "float_array",
    "bool_array",
    "value",  # a plain C value: int, float, bool, an aclDataType enumerator (value holds its name)
    "string",
    "null",  # nullptr / NULL
    "address",  # &workspaceSize, &executor: the two trailing out-parameters
    "unresolved",  # the sample builds it in a way not read (see `unresolved`)
]


class CallArg(Frozen):
    """One argument of a documented function's call in a sample, as the sample builds it.

    Only what the sample states is filled in; what cannot be read is named in `unresolved`
    and never guessed. Tensor contents are not recorded: only their description.
    """

    kind: CallArgKind
    text: str  # the argument as written in the call
    line: int  # where the argument is built (its declaration), else the call's line
    shape: tuple[int, ...] | None = _sparse(None)
    dtype: str | None = _sparse(None)  # canonical dtype name (FLOAT, BFLOAT16, ...)
    format: str | None = _sparse(None)  # canonical format name (ND, NCHW, ...)
    strides: tuple[int, ...] | None = _sparse(None)  # only when the sample gives its own
    value: Scalar | None = _sparse(None)  # scalars, plain values, strings
    elements: tuple[Scalar, ...] | None = _sparse(None)  # int/float/bool arrays, scalar lists
    items: tuple[CallArg, ...] = _sparse(())  # the tensors of a tensor list
    unresolved: str = _sparse("")  # why (part of) the argument could not be read; "" when read

    @property
    def resolved(self) -> bool:
        return self.kind != "unresolved" and not self.unresolved and all(i.resolved for i in self.items)


class SampleCall(Frozen):
    """A call of `<function>GetWorkspaceSize` (of a single-phase API: of the function itself)
    in the document's own sample: valid arguments written by the operator's authors, by
    position (the trailing &workspaceSize, &executor included)."""

    line: int
    args: tuple[CallArg, ...]

    @property
    def resolved(self) -> bool:
        return all(a.resolved for a in self.args)


class Function(Frozen):
    """A documented two-phase API: `<name>GetWorkspaceSize` plus `<name>`; in
    `OperatorDoc.single_phase`, a single-phase API `<name>` (no execute parameters)."""

    name: str
    line: int  # line of the GetWorkspaceSize prototype
    params: tuple[Param, ...]  # GetWorkspaceSize parameters, in prototype order
    execute_params: tuple[Param, ...] = ()
    execute_line: int | None = None
    errors: tuple[ErrorRule, ...] = ()
    # The per-product remarks of the parameter section (`<term>产品</term>：…` outside the
    # tables), one statement each as `<product ids>：<the statement as written>`; the typed
    # ones also reach the parameters' constraints.
    remarks: tuple[TextBlock, ...] = _sparse(())
    sample_call: SampleCall | None = None  # the document's own call, when its sample has one

    @property
    def workspace_name(self) -> str:
        return self.name + "GetWorkspaceSize"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


class Product(Frozen):
    id: str  # "910b", "A3", ... (the ids of the documents' npu="..." comments)
    name: str  # as written
    supported: bool
    line: int


class TextBlock(Frozen):
    text: str
    line: int


class Sample(Frozen):
    code: str
    language: str
    line: int  # line of the first code line
    includes: tuple[str, ...] = ()


class OperatorDoc(Frozen):
    source: str
    name: str
    summary: TextBlock | None = None
    formula: TextBlock | None = None
    products: tuple[Product, ...] = ()
    functions: tuple[Function, ...] = ()
    # Single-phase APIs (`aclnnStatus aclnnCalculateMatmulWeightSizeV2(...)`, no executor):
    # `params` is their prototype's, `line` theirs, `errors` and `sample_call` their own;
    # generated as one call where every parameter can be passed (see single_phase_gap).
    single_phase: tuple[Function, ...] = _sparse(())
    notes: TextBlock | None = None  # the constraints section (约束说明), verbatim
    samples: tuple[Sample, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def function(self, name: str) -> Function | None:
        return next((f for f in self.functions if f.name == name), None)

    def to_json(self) -> str:
        return json.dumps(self.dump(), ensure_ascii=False, indent=2)


# The parameter kinds passed as pointers to acl objects (or a string), and all the kinds
# generated code passes (the pointers it makes, the plain values it converts).
POINTER_KINDS = ("tensor", "tensor_list", "scalar", "scalar_list", "int_array", "float_array", "bool_array", "string")
PASSED_KINDS = (*POINTER_KINDS, "int", "float", "bool", "dtype")


def single_phase_gap(fn: Function) -> str:
    """Why a single-phase API cannot be generated ("" when it can): a parameter that is neither
    an argument generated code makes nor a plain value it returns (`uint64_t* size`)."""
    for p in fn.params:
        if p.kind not in PASSED_KINDS and not p.out_value:
            return f"the generated code cannot pass its parameter {p.name}, a {p.c_type}"
    return ""


def generated_single_phase(doc: OperatorDoc) -> tuple[Function, ...]:
    """The document's single-phase APIs that are generated (the others are said as such)."""
    return tuple(fn for fn in doc.single_phase if not single_phase_gap(fn))


def json_schema() -> dict[str, Any]:
    return OperatorDoc.model_json_schema(mode="serialization")
