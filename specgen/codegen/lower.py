"""From the model to the views templates print: each function lowered whole, in one step.

`operator_code` checks every name the generated code will use (`names`), spells the types
(`typemap`), plans the sample call (`sample_plan`), makes the validator rules and test cases
(`cases`) and builds the frozen views (`views`). Templates only print these values (strings
go through the escaping filters of `specgen.codegen.render`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace

from specgen.codegen.cases import cases_for, plain_rule
from specgen.codegen.errors import LowerError
from specgen.codegen.names import c_identifier, checked_operator_snake, python_name, sample_variables
from specgen.codegen.runtime._shapes import PRODUCTS
from specgen.codegen.runtime._validate import ND_FAMILY, Role, Rule
from specgen.codegen.sample_plan import relation_peers, sample_plan
from specgen.codegen.typemap import ctypes_type
from specgen.codegen.views import (
    Allocation,
    FunctionCode,
    OperatorCode,
    OutValue,
    ParamCode,
    WrapperArg,
)
from specgen.model import EXECUTE_KINDS, DtypeRule, Function, OperatorDoc, Param, ShapeRule, generated_single_phase

# The wrapper role of each parameter kind (workspace_size and executor are not passed).
_ROLES: dict[str, Role] = {
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
# The name of an output tensor (`out`, `yOut`, `output`): one the document lists as an input
# but the prototype declares writable (`aclTensor* out`) is an output all the same.
_OUTPUT_NAME = re.compile(r"^(?:out|output)$|[a-z0-9](?:Out|Output)$")


def operator_code(doc: OperatorDoc, source: str) -> OperatorCode:
    """Check every name the generated code will use and lower each function: the two-phase
    ones, then the single-phase ones whose parameters generated code can pass."""
    snake = checked_operator_snake(doc)
    functions = tuple(_function_code(doc, fn, source) for fn in doc.functions)
    functions += tuple(_function_code(doc, fn, source, single=True) for fn in generated_single_phase(doc))
    return OperatorCode(snake=snake, docs=(doc,), sources=(source,), functions=functions)


def _function_code(doc: OperatorDoc, fn: Function, source: str, single: bool = False) -> FunctionCode:
    if single:
        c_identifier(fn.name, fn.line, "function name")
    else:
        _check_prototypes(fn)
    # in this order, so that a function with several faults is reported by the same one
    params = _param_code(fn.params)
    execute_params = _param_code(fn.execute_params)
    sample = sample_plan(doc, fn)
    wrapper = _wrapper(params)
    cases = cases_for(fn, wrapper, sample, unsupported_products(doc), notes=doc.notes, summary=doc.summary)
    return FunctionCode(
        function=fn,
        source=source,
        params=params,
        execute_params=execute_params,
        sample=sample,
        wrapper=_asked_for(_unallocated_when_spared(wrapper, cases.rules), cases.rules),
        cases=cases,
        notes=doc.notes,
        summary=doc.summary,
        single_phase=single,
        out_values=_out_values(fn, params),
    )


def unsupported_products(doc: OperatorDoc) -> tuple[str, ...]:
    """The products the document's 产品支持情况 marks 不支持 (`<term>Atlas 训练系列产品</term>：不支持`),
    in the order the runtime's PRODUCTS lists them: a validator given one of them refuses the call."""
    marked = {p.id for p in doc.products if not p.supported} - {p.id for p in doc.products if p.supported}
    return tuple(p for p in PRODUCTS if p in marked)


def _unallocated_when_spared(wrapper: tuple[WrapperArg, ...], rules: tuple[Rule, ...]) -> tuple[WrapperArg, ...]:
    """An output whose shape rule the document's own call breaks is not allocated by that rule
    (aclnnTopKTopPSample: the table gives logitsTopKPSelect logits' first n-1 dimensions, the
    sample and the formula logits' whole shape): the caller passes it."""
    spared = {r.id: r.reason for r in rules if r.kind == "output_shape" and not r.host}
    out = []
    for arg in wrapper:
        reason = spared.get(f"implied_output_shape_{arg.code.param.name}")
        if reason and arg.allocation is not None and arg.allocation.shape:
            arg = replace(arg, allocation=Allocation(refusal=f"its shape rule is in doubt: {reason}"))
        out.append(arg)
    return tuple(out)


def _asked_for(wrapper: tuple[WrapperArg, ...], rules: tuple[Rule, ...]) -> tuple[WrapperArg, ...]:
    """An optional output a checked null rule asks for (`当inputG为true时，sumDy或sumDyXmu是空指针`,
    `当outputMask[0]为true，传入的gradInput是空指针时`): the wrapper makes it, or says to pass it,
    when the call asks for it, rather than send the null pointer that rule refuses."""
    py = {a.name: a.py_name for a in wrapper}
    asked: dict[str, list[str]] = {}
    for r in rules:
        if r.kind == "not_null_when" and r.host and not r.products and len(r.params) == 2:
            pointer, other = r.params
            asked.setdefault(pointer, []).append(
                _asking(py[other], r.values, next(a for a in wrapper if a.name == other))
            )
    return tuple(
        replace(a, asked_when=tuple(dict.fromkeys(asked[a.name])))
        if a.output and a.code.param.optional and a.name in asked and a.allocation is not None
        else a
        for a in wrapper
    )


def _asking(other: str, values: tuple[object, ...], arg: WrapperArg) -> str:
    """The Python test of the wrapper's argument `other` that asks for the pointer: a bool, a
    bool array's element (`values`: its index), or another pointer given."""
    if values:
        index = int(values[0])  # type: ignore[call-overload]
        return f"rt.element_is_true({other}, {index})"
    return f"bool({other})" if arg.role == "value" else f"{other} is not None"


def _check_prototypes(fn: Function) -> None:
    """The two-phase aclnn convention: GetWorkspaceSize(..., workspaceSize, executor), then an
    execute function of the workspace, its size, the executor and the stream: generated as
    documented, in its order and without any it omits (parse warns where it is not the
    convention's)."""
    c_identifier(fn.name, fn.line, "function name")
    kinds = [p.kind for p in fn.params]
    if kinds[-2:] != ["workspace_size", "executor"] or kinds.count("workspace_size") != 1:
        raise LowerError(
            fn.line,
            f"{fn.name}GetWorkspaceSize: expected its last two parameters to be "
            "uint64_t* workspaceSize, aclOpExecutor** executor",
        )
    seen: set[str] = set()
    for p in fn.execute_params:
        if p.kind not in EXECUTE_KINDS or p.kind in seen:
            raise LowerError(
                fn.execute_line or fn.line,
                f"{fn.name}: generated code has nothing to pass for the execute function's {p.c_type} {p.name}: "
                "it takes only the workspace, its size, the executor and the stream, each at most once "
                "(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)",
            )
        seen.add(p.kind)


def _out_values(fn: Function, params: tuple[ParamCode, ...]) -> tuple[OutValue, ...]:
    """The plain values a function writes through pointers, with their sample variables (after
    those of the arguments, as `sample_plan` names them)."""
    names = [p.name for p in fn.params if p.kind not in ("workspace_size", "executor") and not p.out_value]
    outs = [code for code in params if code.param.out_value]
    variables = sample_variables(names + [code.name for code in outs])
    return tuple(OutValue(code=code, var=variables[code.name]) for code in outs)


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


def _wrapper(params: tuple[ParamCode, ...]) -> tuple[WrapperArg, ...]:
    args = []
    for code in params:
        p = code.param
        if p.kind in ("workspace_size", "executor") or p.out_value:
            continue  # made by the call itself; an out-value is returned
        role = _ROLES.get(p.kind)
        if role is None:
            raise LowerError(p.line, f"parameter {p.name}: the Python wrapper cannot pass a {p.c_type!r}")
        output = _is_output(p)
        like = _scalar_peer(p, params) if role in ("scalar", "scalar_list") else None
        args.append(
            WrapperArg(
                code=code,
                role=role,
                keyword=output or (p.optional and _nullable(p)),
                output=output,
                allocation=_allocation(p, params) if output else None,
                scalar_like=like.name if like else "",
                scalar_like_py=like.py_name if like else "",
                format=_default_format(p),
            )
        )
    return tuple(args)


def _nullable(p: Param) -> bool:
    """A parameter None can stand for: a pointer (null). A C value such as `int64_t groupSize`
    has no null, whatever its row says (aclnnQuantMatmulActivationQuantWeightNz: 可选输入): the
    caller passes it (no default is guessed; the row names the value to pass)."""
    return "*" in p.c_type or "[" in p.c_type


def _is_output(p: Param) -> bool:
    if p.kind not in ("tensor", "tensor_list"):
        return False
    mislabelled = p.direction == "in" and not p.c_type.startswith("const") and _OUTPUT_NAME.search(p.name)
    return p.direction == "out" or bool(mislabelled)


def _scalar_peer(p: Param, params: tuple[ParamCode, ...]) -> ParamCode | None:
    """The tensor whose dtype the document says a scalar takes ("与self的数据类型一致")."""
    by_name = {c.name: c for c in params}
    peers = (by_name.get(n) for n in relation_peers(p, "same_dtype"))
    return next((c for c in peers if c and c.param.kind == "tensor"), None)


def _default_format(p: Param) -> str:
    """The format a plain array is sent in: the one the document allows, when it allows one
    only and it is a plain layout (NCHW, NCL...); else ND (private layouts are sent as ND
    data of the logical shape, as the documents' samples do)."""
    formats = p.formats
    return formats[0] if len(formats) == 1 and formats[0] in ND_FAMILY else "ND"


def _allocation(p: Param, params: tuple[ParamCode, ...]) -> Allocation:
    """The model's rules for an output the wrapper allocates, or why it must be passed (with
    the keyword that names its dtype, when the caller chooses that)."""
    shape, dtype = p.shape_rule, p.dtype_rule
    if shape is None or not shape.derived or shape.kind == "in_place":
        return Allocation(refusal="the document gives no rule for its shape" + _because(shape))
    refusal, keyword = "", ""
    if dtype is None or not dtype.derived:
        refusal, keyword = "the document gives no rule for its dtype" + _because(dtype), _dtype_keyword(p, params)
        if not keyword:
            return Allocation(refusal=refusal)
        refusal += f"; or give its dtype as {keyword}"
    elif dtype.kind == "cases":  # several dtypes, or a case the call cannot settle: the caller's
        keyword = _dtype_keyword(p, params)
    types = plain_rule(dtype) if dtype is not None and dtype.derived else None
    allocation = Allocation(shape=plain_rule(shape), dtype=types, refusal=refusal, dtype_keyword=keyword)
    follows = _format_source(p, params)
    if follows is None or _one_layout(p.formats):
        return allocation
    fmt = _default_format(follows)
    return replace(allocation, follows=follows.name, follows_format=fmt, formats=tuple(p.formats))


def _one_layout(formats: list[str]) -> bool:
    """An output documented in one layout other than ND is sent in it whatever its input's
    (`_default_format`), so following that input's format could change nothing. One
    documented ND admits the plain layouts (NCHW, NCL...: `format_allowed`), as the validators
    read it: the output then takes the layout its caller gave the input it follows."""
    return len(formats) == 1 and formats[0] != "ND"


def _format_source(p: Param, params: tuple[ParamCode, ...]) -> Param | None:
    """The tensor whose format an allocated output takes: the one its rows say it shares a
    format with ("数据格式与入参x一致"), else the one whose shape it takes (`_followed`)."""
    tensors = {c.name: c.param for c in params if c.param.kind in ("tensor", "tensor_list") and c.param is not p}
    stated = (n for c in p.of_kind("same_format") for n in c.params)
    named = next((n for n in stated if n in tensors), "")
    alike = {n for n, q in tensors.items() if q.kind == p.kind}  # a list's items follow a list's
    return tensors.get(named or _followed(p.shape_rule, alike))


def _dtype_keyword(p: Param, params: tuple[ParamCode, ...]) -> str:
    """The keyword a wrapper takes an output's dtype by, when the document lists several and
    the caller chooses (`y_out_dtype`); "" when no dtype is listed or a parameter has the name."""
    own = next((c.py_name for c in params if c.name == p.name), "")
    keyword = f"{own}_dtype"
    return keyword if own and p.dtypes and all(c.py_name != keyword for c in params) else ""


_LEADING_SHAPE = re.compile(r"^\*?([A-Za-z_][A-Za-z0-9_]*)\.shape")


def _followed(shape: ShapeRule | None, tensors: Collection[str]) -> str:
    """The tensor whose shape the output takes, whole or as its leading part, or whose first
    dimension it starts with (a convolution's N, `[N, Cout, Hout, Wout]`), or else the first
    tensor one of whose dimensions it holds at the same axis (aclnnLstmBackward's dhPrevOut
    `[D * num_layers, batch_size, hidden_size]`, batch_size dh's axis 1): its format is the
    output's, when allowed and the ranks agree."""
    if shape is None:
        return ""
    if shape.kind in ("same", "broadcast", "at_least") and shape.params:
        return shape.params[0]
    if shape.kind != "explicit" or not shape.dims:
        return ""
    if leading := _LEADING_SHAPE.match(shape.dims[0]):
        return leading.group(1)
    first = next((s.param for s in shape.symbols if s.symbol == shape.dims[0]), "")
    if first:
        return first
    in_place = (s.param for s in shape.symbols if s.param in tensors and _dim_at(shape.dims, s.axis) == s.symbol)
    return next(in_place, "")


def _dim_at(dims: tuple[str, ...], axis: int) -> str:
    return dims[axis] if -len(dims) <= axis < len(dims) else ""


def _because(rule: ShapeRule | DtypeRule | None) -> str:
    return f" ({rule.reason})" if rule is not None and rule.reason else ""
