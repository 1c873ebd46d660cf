"""Validator rules and test cases of a function (`views.FunctionCases`, read by the templates).

Every documented error rule becomes a validator rule, checked on the host or listed as not
checked with the reason. Parameter constraints no error rule covers (a documented dtype
set, an enum, an axis) are checked too, with status 161002 and the constraint's own text.

The first truth is the document's own sample call: it is the valid test case whenever the
sample plan reproduces it, and a rule that would reject it is not enforced (the rule, not
the authors' call, is taken to be misread). Each error case is a valid call with one
argument changed, kept only when the validator rejects it by the rule it was made for.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import ACL_DTYPES, TensorDesc
from specgen.codegen.runtime._validate import Rule
from specgen.codegen.typemap import dtype_numpy, value_dtype
from specgen.codegen.views import (
    ArrayTensor,
    Case,
    CaseArg,
    DescTensor,
    FunctionCases,
    FunctionCode,
    NullArg,
    SampleArg,
    SamplePlan,
    TensorArg,
    TensorListArg,
    ValueArg,
    WrapperArg,
)
from specgen.model import (
    CallArg,
    CheckKind,
    Constraint,
    DtypeRule,
    ErrorRule,
    Function,
    Number,
    Param,
    SampleCall,
    ShapeRule,
)
from specgen.text import value_condition

NULLPTR, INVALID = 161001, 161002
NOT_ON_HOST = {
    "castable": "dtype promotion rules are the library's own; not checked on the host",
    "internal": "a failure inside the library, not an argument rule",
    "constraints": "stands for the parameter constraints, which are checked one by one",
    "product": "the document lists no unsupported product to check against",
    "shape": "a shape rule stated in prose only; not checked on the host",
    "value": "a value rule stated in prose only; not checked on the host",
    "unclassified": "the condition is not recognised; not checked on the host",
}
POINTER_ROLES = ("tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array", "float_array", "string")
TENSOR_KINDS = ("tensor", "tensor_list")
VALUE_KINDS = ("int", "float", "bool", "int_array", "float_array", "bool_array", "scalar", "scalar_list")
TENSOR_RULES = ("dtypes", "formats", "rank", "empty_tensor", "non_contiguous")
RELATIONS = ("same_shape", "same_dtype", "same_format", "broadcast", "broadcast_result")
# dtypes tried, in order, when a case needs one a parameter does not allow
_OTHER_DTYPES = ("DOUBLE", "INT64", "INT32", "FLOAT", "FLOAT16", "INT8", "UINT8", "BOOL", "INT16")
# Arrays larger than this are described (TensorDesc) in test cases rather than built.
MAX_CASE_ELEMENTS = 1 << 16


# A documented rule as the generated validator holds it (the validator's own type).


def cases_for(
    function: Function,
    wrapper: tuple[WrapperArg, ...],
    sample: SamplePlan,
    unsupported_products: tuple[str, ...] = (),
) -> FunctionCases:
    """The validator rules of a function and its test cases, starting from the sample's call."""
    params = [a.code.param for a in wrapper]
    param_specs = tuple(_param_spec(a) for a in wrapper)
    rules = _rules(function, params, unsupported_products)
    valid = Case(id="valid", args=_valid_args(wrapper, sample))
    broken = _violations(validator_spec(param_specs, rules, function.name), valid.args)
    unmet: tuple[str, ...] = ()
    if sample.from_document:
        rules = [_spare(r, broken[r.id], sample.line) if r.id in broken else r for r in rules]
    elif broken:
        unmet = tuple(f"{rule_id}: {problem}" for rule_id, problem in broken.items())
        valid = replace(valid, skip="no call was found that meets every rule: " + "; ".join(unmet))
    spec = validator_spec(param_specs, rules, function.name)  # the rules as enforced, spared ones aside
    cases = [case for rule in rules for case in _rule_cases(params, spec, valid, rule)]
    return FunctionCases(
        params=param_specs,
        rules=tuple(rules),
        valid=valid,
        cases=tuple(cases),
        unsupported_products=unsupported_products,
        unmet=unmet,
    )


def function_cases(fn: FunctionCode, unsupported_products: tuple[str, ...] = ()) -> FunctionCases:
    """The cases of a lowered function: `fn.cases`, made when it was lowered (with no
    unsupported product), or made again for the products given."""
    if not unsupported_products:
        return fn.cases
    return cases_for(fn.function, fn.wrapper, fn.sample, unsupported_products)


def _spare(rule: Rule, problem: str, line: int) -> Rule:
    reason = f"the document's own sample call (line {line}) breaks it ({problem}): taken as misread, not enforced"
    return replace(rule, host=False, reason=reason)


# ---------------------------------------------------------------- rules


def _general(p: Param, kind: str) -> list[Constraint]:
    """Constraints of `kind`; a value set or range stated for one product only is not known
    to hold without it (dtype sets keep their products: the validator takes `product=`)."""
    constraints = p.of_kind(kind)  # type: ignore[arg-type]
    return constraints if kind in ("dtypes", "formats") else [c for c in constraints if c.product is None]


def _param_spec(arg: WrapperArg) -> dict:
    p = arg.code.param
    general = [c.values for c in p.of_kind("dtypes") if c.product is None]
    enum = tuple(v for c in _general(p, "enum") for v in c.values)
    ranges = _general(p, "range")
    spec = {
        "name": p.name,
        "role": arg.role,
        "direction": arg.direction,
        "optional": p.optional,
        "dtypes": tuple(p.dtypes),
        "general_dtypes": tuple(v for g in general for v in g) if general else None,
        "product_dtypes": {k: tuple(v) for k, v in p.product_dtypes.items()},
        "formats": tuple(p.formats),
        "rank": (p.rank.min, p.rank.max) if p.rank else None,
        "enum": enum,
        "range": (ranges[0].min, ranges[0].max, ranges[0].min_inclusive, ranges[0].max_inclusive) if ranges else None,
        "empty": p.empty_tensor,
        "non_contiguous": p.non_contiguous,
        "value_dtype": value_dtype(p.c_type) if arg.role == "value" else None,
        "like": arg.scalar_like or None,
        "format": arg.format if arg.format != "ND" else None,
    }
    return {k: v for k, v in spec.items() if v not in (None, (), {}, False) or k in ("name", "role", "direction")}


def _rules(function: Function, params: list[Param], unsupported_products: tuple[str, ...]) -> list[Rule]:
    by_name = {p.name: p for p in params}
    rules: list[Rule] = []
    for error in function.errors:
        checks: list[tuple[CheckKind | Literal["unclassified"], tuple[str, ...], Number | None]] = [
            (c.kind, c.params, c.max) for c in error.checks
        ] or [("unclassified", error.params, None)]
        for kind, names, limit in checks:
            known = tuple(n for n in names if n in by_name)
            if kind == "not_null":  # an optional pointer may be null whatever a general rule says
                known = tuple(n for n in known if not by_name[n].optional)
            reason = _not_on_host(kind, error, known, by_name, bool(unsupported_products))
            rules.append(
                Rule(
                    code=error.code,
                    kind=kind,
                    params=known,
                    condition=error.condition,
                    id=f"rule{len(rules) + 1}_{kind}",
                    max=int(limit) if limit is not None else None,
                    host=not reason,
                    reason=reason,
                )
            )
    return rules + _implied_rules(params, rules) + _output_rules(params, rules)


def _not_on_host(
    kind: str, error: ErrorRule, params: tuple[str, ...], by_name: dict[str, Param], has_products: bool
) -> str:
    """Why a rule is not checked on the host; empty when it is."""
    if kind == "product":
        return "" if has_products else NOT_ON_HOST["product"]
    if kind not in validator.CHECKED_KINDS:
        return NOT_ON_HOST.get(kind, NOT_ON_HOST["unclassified"])
    if error.code not in (NULLPTR, INVALID):
        return f"status {error.code} comes from inside the library (runtime or tiling), after the argument checks"
    if kind == "not_null":
        if error.code != NULLPTR:
            return "a null rule under status 161002 concerns list elements or conditions, not the arguments"
        return "" if params else "every pointer it could name is optional"
    if error.conditional:
        return "a conditional rule (当…时, 若…); its condition is not checked on the host"
    if kind in ("broadcast_result", "same_shape") and (value := _shape_set_by_value(params, by_name)):
        return f"the output's shape depends on {value} (its own row says when), so the relation holds only then"
    if not error.params:
        return "the condition names no parameter, so which arguments it constrains is not stated"
    return _inapplicable(kind, params, by_name)


def _shape_set_by_value(params: tuple[str, ...], by_name: dict[str, Param]) -> str:
    """The value parameter an output's own row makes its shape depend on (`text.value_condition`):
    an unconditional error row about that output's shape then holds in one case only."""
    values = [q.name for q in by_name.values() if q.kind not in TENSOR_KINDS]
    outputs = (by_name[n] for n in params if by_name[n].direction == "out")
    return next((v for p in outputs if (v := value_condition([p.description, p.text], values))), "")


def _inapplicable(kind: str, params: tuple[str, ...], by_name: dict[str, Param]) -> str:
    """Why a rule of `kind` cannot apply to `params`; empty when it can."""
    tensors = [n for n in params if by_name[n].kind in TENSOR_KINDS]
    if kind in TENSOR_RULES and not tensors:
        return f"a {kind} rule applies to tensors; {', '.join(params) or 'no parameter'} is not one"
    if kind in RELATIONS and len(tensors) < 2:
        return f"a {kind} relation needs two tensors; the condition names {', '.join(params) or 'none'}"
    if kind in ("enum", "range") and not any(by_name[n].kind in VALUE_KINDS for n in params):
        return f"a {kind} rule applies to values; {', '.join(params)} holds none"
    if kind == "axis" and not (len(params) == 2 and by_name[params[1]].kind in TENSOR_KINDS):
        return "an axis rule needs the value and the tensor whose dimensions it indexes"
    if kind in ("output_shape", "output_dtype") and not (params and by_name[params[0]].kind == "tensor"):
        return f"an {kind} rule applies to an output tensor; {', '.join(params) or 'no parameter'} is not one"
    return ""


def _implied_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """Parameter constraints that no checked error rule covers, checked under 161002."""
    covered = {(r.kind, n) for r in rules if r.host for n in r.params}
    by_name = {p.name: p for p in params}
    implied = []
    for p in params:
        for kind in ("dtypes", "formats", "rank", "enum", "range", "axis"):
            constraints = _general(p, kind)
            if not constraints or (kind, p.name) in covered or not _checkable(p, kind):
                continue
            if kind == "rank" and _shape_set_by_value((p.name,), by_name):  # "否则out为scalar": 0-d then
                continue
            names = (p.name, *constraints[0].params) if kind == "axis" else (p.name,)
            rule_id = f"implied_{kind}_{p.name}"
            implied.append(Rule(INVALID, kind, names, constraints[0].text, id=rule_id))
    return implied


_COVERS = {"output_shape": ("same_shape", "broadcast_result"), "output_dtype": ("same_dtype",)}


def _output_rules(params: list[Param], documented: list[Rule]) -> list[Rule]:
    """An output's shape and dtype, where the document's rule derives them from the inputs and
    no checked error rule relates the output already."""
    names = {p.name for p in params}
    covered = {
        (kind, n) for kind, kinds in _COVERS.items() for r in documented if r.host and r.kind in kinds for n in r.params
    }
    by_name = {p.name: p for p in params}
    rules = []
    for p in params:
        if p.kind != "tensor" or p.direction != "out":
            continue
        shape = p.shape_rule if ("output_shape", p.name) not in covered else None
        # a reduce or reduction reading states its own cases (keepDim, reduction), a rule with
        # `when` the bool its output is written under; others do not
        situated = shape is not None and (shape.kind in ("reduce", "reduction") or shape.when)
        if shape is not None and not situated and _shape_set_by_value((p.name,), by_name):
            shape = None  # its row says the shape holds in one case only (allocation may still use it)
        dtype = p.dtype_rule if ("output_dtype", p.name) not in covered else None
        if shape is not None and shape.derived and shape.kind not in ("in_place", "at_least") and _reads(shape, names):
            reads = (*shape.params, *(s.param for s in shape.symbols))
            rule_id = f"implied_output_shape_{p.name}"
            text = shape.text or f"the shape of {p.name}"
            rules.append(
                Rule(
                    INVALID, "output_shape", (p.name, *dict.fromkeys(reads)), text, id=rule_id, derive=plain_rule(shape)
                )
            )
        if dtype is not None and dtype.kind == "same" and set(dtype.params) <= names and p.name not in dtype.params:
            rule_id = f"implied_output_dtype_{p.name}"
            rules.append(
                Rule(INVALID, "output_dtype", (p.name, *dtype.params), dtype.text, id=rule_id, derive=plain_rule(dtype))
            )
    return rules


def _reads(shape: ShapeRule, names: set[str]) -> bool:
    """Every parameter the rule reads is one the wrapper passes."""
    return set(shape.params) <= names and all(s.param in names for s in shape.symbols)


def plain_rule(rule: ShapeRule | DtypeRule) -> dict:
    """The rule as generated code holds it (what it reads, not where it was read)."""
    return rule.model_dump(mode="json", exclude={"text", "line", "reason"})


def _checkable(p: Param, kind: str) -> bool:
    if kind in ("dtypes", "formats", "rank"):
        return p.kind in TENSOR_KINDS
    if kind == "axis":
        return p.kind in ("int", "int_array") and len(p.of_kind("axis")[0].params) == 1
    return p.kind in ("int", "float")


def validator_spec(param_specs: tuple[dict, ...], rules: list[Rule], function: str) -> validator.Spec:
    """The rules as the generated validator holds them."""
    return validator.Spec(
        function=function + "GetWorkspaceSize",
        params=tuple(validator.ParamSpec(**p) for p in param_specs),
        rules=tuple(rules),
    )


def _violations(spec: validator.Spec, args: dict[str, CaseArg]) -> dict[str, str]:
    """The rules (by id) the arguments break, with the problem, in the validator's order."""
    return {rule.id: problem for rule, problem in validator.violations(spec, host_values(args))}


def host_values(args: dict[str, CaseArg]) -> dict[str, object]:
    """Case arguments as the validator receives them, described rather than built."""
    return {name: arg.host_value() for name, arg in args.items()}


def call_values(fn: Function, call: SampleCall) -> dict[str, object] | None:
    """A sample's call of `fn` as the validator receives it (by C name), or None when some
    argument was not read or the call does not match the prototype."""
    if not call.resolved or len(call.args) != len(fn.params):
        return None
    return {
        p.name: _integer_dtype(p.kind, _call_value(arg))
        for p, arg in zip(fn.params, call.args, strict=True)
        if p.kind not in ("workspace_size", "executor")
    }


def _integer_dtype(kind: str, value: object) -> object:
    """A dtype a sample names (ACL_INT8) for an integer parameter: its aclDataType value, as a
    Python caller passes it (aclnn_ops.DataType.INT8)."""
    return ACL_DTYPES[value] if kind == "int" and isinstance(value, str) and value in ACL_DTYPES else value


def _call_value(arg: CallArg) -> object:
    if arg.kind == "tensor":
        return TensorDesc(arg.shape or (), arg.dtype or "", arg.strides, arg.format or "ND")
    if arg.kind == "tensor_list":
        return [_call_value(item) for item in arg.items]
    if arg.elements is not None:
        return tuple(arg.elements)
    return arg.value


# ---------------------------------------------------------------- cases

Args = dict[str, CaseArg]  # a case's arguments by C name
NULL = NullArg()


def _valid_args(wrapper: tuple[WrapperArg, ...], sample: SamplePlan) -> Args:
    plan = {a.name: a for a in sample.args}
    return {a.code.name: _case_value(a, _case_arg(plan.get(a.code.name))) for a in wrapper}


def _case_value(arg: WrapperArg, case: CaseArg) -> CaseArg:
    return ValueArg(_integer_dtype(arg.code.param.kind, case.value)) if isinstance(case, ValueArg) else case


def _case_arg(sample: SampleArg | None) -> CaseArg:
    """A sample argument as a test case passes it."""
    if sample is None or sample.kind == "null":
        return NULL
    if sample.kind == "tensor":
        return _case_tensor(sample.shape, sample.dtype, sample.format)
    if sample.kind == "tensor_list":
        return TensorListArg(tuple(_case_tensor(item.shape, item.dtype, item.format) for item in sample.items))
    if sample.kind in ("int_array", "bool_array", "float_array", "scalar_list"):
        return ValueArg(tuple(sample.elements))
    return ValueArg(sample.value)


def _case_tensor(shape: tuple[int, ...], dtype: str, fmt: str) -> TensorArg:
    """A NumPy array where one can stand for the tensor (ND, a NumPy dtype, not too large),
    else a description."""
    size = 1
    for d in shape:
        size *= d
    if fmt == "ND" and dtype_numpy(dtype) is not None and size <= MAX_CASE_ELEMENTS:
        return ArrayTensor(shape, dtype)
    return DescTensor(shape, dtype, None, fmt)


def _rule_cases(params: list[Param], spec: validator.Spec, valid: Case, rule: Rule) -> list[Case]:
    """The error cases of one rule: the valid call with one argument changed to break it."""
    base = rule.id

    def skipped(reason: str) -> list[Case]:
        return [Case(id=base, args=valid.args, code=rule.code, condition=rule.condition, rule=rule.id, skip=reason)]

    if not rule.host:
        return skipped(rule.reason)
    if valid.skip:
        return skipped("no valid call to start from")
    by_name = {p.name: p for p in params}
    made = _MUTATIONS[rule.kind](valid.args, rule, by_name)
    if not made:
        return skipped("no argument breaks this rule without breaking the call (e.g. optional parameters)")
    out = []
    for suffix, args in made:
        case_id = f"{base}_{suffix}" if len(made) > 1 else base
        first = validator.first_violation(spec, host_values(args))
        skip = ""
        if first is None:
            skip = "the changed argument still meets the rule"
        elif first[0].id != rule.id:
            skip = f"rule {first[0].id} rejects this call first ({first[1]})"
        case = Case(case_id, args, rule.code, rule.condition, rule.id, library=not _uses_desc(args), skip=skip)
        out.append(case)
    return out


def _uses_desc(args: Args) -> bool:
    return any(isinstance(a, DescTensor) for a in args.values())


def _replace(args: Args, name: str, value: CaseArg) -> Args:
    out = dict(args)
    out[name] = value
    return out


def _tensor(args: Args, name: str) -> TensorArg | None:
    value = args.get(name)
    return value if isinstance(value, ArrayTensor | DescTensor) else None


def _holds_value(args: Args, name: str) -> bool:
    return isinstance(args.get(name), ValueArg)


def _changed(
    tensor: TensorArg,
    *,
    shape: tuple[int, ...] | None = None,
    dtype: str | None = None,
    fmt: str | None = None,
    strides: tuple[int, ...] | None = None,
) -> TensorArg:
    """A tensor argument with some properties changed: a NumPy array while it can be one
    (ND, contiguous, a NumPy dtype), else a TensorDesc."""
    shape = tensor.shape if shape is None else shape
    dtype = tensor.dtype if dtype is None else dtype
    fmt = tensor.format if fmt is None else fmt
    strides = tensor.strides if strides is None else strides
    if strides is None:
        return _case_tensor(tuple(shape), dtype, fmt)
    return DescTensor(tuple(shape), dtype, strides, fmt)


Mutation = list[tuple[str, Args]]


def _null(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    return [
        (n, _replace(args, n, NULL))
        for n in rule.params
        if not params[n].optional and not isinstance(args.get(n, NULL), NullArg)
    ]


def _bad_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        tensor = _tensor(args, name)
        allowed = params[name].dtypes
        other = next((d for d in _OTHER_DTYPES if d not in allowed), None)
        if tensor and allowed and other:
            return [(name, _replace(args, name, _changed(tensor, dtype=other)))]
    return []


def _bad_format(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        tensor = _tensor(args, name)
        allowed = params[name].formats
        # ND-family formats pass an ND rule, ND passes a private-layout one: pick what neither covers
        family = "ND" in allowed or any(f in validator.ND_FAMILY for f in allowed)
        candidates = ("NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z") if family else ("NCHW", "NHWC", "NCL")
        other = next((f for f in candidates if f not in allowed), None)
        if tensor and allowed and other:
            return [(name, _replace(args, name, _changed(tensor, fmt=other)))]
    return []


def _bad_rank(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """One dimension too many (or too few), given to every tensor the rule names that has
    the same shape, so that their shapes still agree with each other."""
    for name in rule.params:
        tensor = _tensor(args, name)
        rank = params[name].rank
        high = rule.max if rule.max is not None else (rank.max if rank else None)
        low = rank.min if rank else 0
        if tensor and (high is not None or low > 0):
            shape = (1,) * (high + 1) if high is not None else (2,) * (low - 1)
            out = dict(args)
            for peer in rule.params:
                if (peer_tensor := _tensor(args, peer)) and peer_tensor.shape == tensor.shape:
                    out[peer] = _changed(peer_tensor, shape=shape)
            return [(name, out)]
    return []


def _other_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that neither equals nor broadcasts with `shape`."""
    if not shape:
        return (3,)
    last = shape[-1]
    return shape[:-1] + (last + 1 if last != 1 else 3,)


def _bad_shape(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    tensors = [n for n in rule.params if _tensor(args, n)]
    if len(tensors) < 2:
        return []
    # Change the last one named: for a broadcast-result rule that is usually the output.
    outputs = [n for n in tensors if params[n].direction in ("out", "inout")]
    name = outputs[-1] if rule.kind == "broadcast_result" and outputs else tensors[-1]
    tensor, reference = _tensor(args, name), _tensor(args, next(n for n in tensors if n != name))
    assert tensor is not None and reference is not None
    if rule.kind == "broadcast_result" and outputs:
        # Still broadcastable with the inputs, but not their broadcast shape.
        current = tensor.shape
        shape = current[:-1] + (1,) if current and current[-1] != 1 else (2,) + current
    elif max(reference.shape or (1,)) > 1:
        shape = _other_shape(reference.shape)
    else:
        shape = (2,) * max(len(reference.shape), 1)
    if tensor.shape == shape:
        shape = shape + (2,)
    return [(name, _replace(args, name, _changed(tensor, shape=shape)))]


def _first_and_last(args: Args, rule: Rule) -> tuple[str, TensorArg, TensorArg] | None:
    """The last tensor a relation names (the one a case changes), it and the first, or None."""
    named = [(n, t) for n in rule.params if (t := _tensor(args, n)) is not None]
    if len(named) < 2:
        return None
    (name, last), (_, first) = named[-1], named[0]
    return name, last, first


def _bad_same_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    if (found := _first_and_last(args, rule)) is None:
        return []
    name, tensor, first = found
    # Prefer a dtype the parameter allows, so that only the "same dtype" rule is broken.
    choices = [d for d in params[name].dtypes if d != first.dtype] + [d for d in _OTHER_DTYPES if d != first.dtype]
    return [(name, _replace(args, name, _changed(tensor, dtype=choices[0])))]


def _bad_same_format(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    if (found := _first_and_last(args, rule)) is None:
        return []
    name, tensor, first = found
    other = next(f for f in (*params[name].formats, "NCHW", "ND") if f != first.format)
    return [(name, _replace(args, name, _changed(tensor, fmt=other)))]


def _bad_enum(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        allowed = [v for c in _general(params[name], "enum") for v in c.values if isinstance(v, int)]
        if allowed and _holds_value(args, name):
            return [(name, _replace(args, name, ValueArg(max(allowed) + 1)))]
    return []


def _bad_range(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        ranges = _general(params[name], "range")
        if not ranges or not _holds_value(args, name):
            continue
        c = ranges[0]
        integral = params[name].kind == "int"
        step = 1 if integral else 0.5
        if c.min is not None:
            value = c.min - (step if c.min_inclusive else 0)
        elif c.max is not None:
            value = c.max + (step if c.max_inclusive else 0)
        else:
            continue
        return [(name, _replace(args, name, ValueArg(int(value) if integral else float(value))))]
    return []


def _bad_axis(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    value_name, tensor_name = rule.params[0], rule.params[1]
    tensor = _tensor(args, tensor_name)
    if tensor is None or not _holds_value(args, value_name):
        return []
    beyond = max(len(tensor.shape), 1)
    value = (beyond,) if params[value_name].kind == "int_array" else beyond
    return [(value_name, _replace(args, value_name, ValueArg(value)))]


def _bad_empty(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        tensor = _tensor(args, name)
        if tensor and tensor.shape and params[name].empty_tensor is not True:
            return [(name, _replace(args, name, _changed(tensor, shape=(0,) + tuple(tensor.shape[1:]))))]
    return []


def _bad_contiguity(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        tensor = _tensor(args, name)
        if tensor and params[name].non_contiguous is not True and len(tensor.shape) >= 2 and min(tensor.shape) > 1:
            strides = (1,) + (tensor.shape[0],) * (len(tensor.shape) - 1)  # column-major: not contiguous
            return [(name, _replace(args, name, _changed(tensor, strides=strides)))]
    return []


def _bad_output_shape(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The output with its first dimension one larger (a 0-d output gains a dimension)."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None:
        return []
    shape = (tensor.shape[0] + 1, *tensor.shape[1:]) if tensor.shape else (2,)
    return [(name, _replace(args, name, _changed(tensor, shape=shape)))]


def _bad_output_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The output in another dtype it allows, else in one it does not."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None:
        return []
    choices = [d for d in (*params[name].dtypes, *_OTHER_DTYPES) if d != tensor.dtype]
    return [(name, _replace(args, name, _changed(tensor, dtype=choices[0])))]


_MUTATIONS = {
    "not_null": _null,
    "dtypes": _bad_dtype,
    "formats": _bad_format,
    "rank": _bad_rank,
    "same_shape": _bad_shape,
    "broadcast": _bad_shape,
    "broadcast_result": _bad_shape,
    "same_dtype": _bad_same_dtype,
    "same_format": _bad_same_format,
    "enum": _bad_enum,
    "range": _bad_range,
    "axis": _bad_axis,
    "empty_tensor": _bad_empty,
    "non_contiguous": _bad_contiguity,
    "output_shape": _bad_output_shape,
    "output_dtype": _bad_output_dtype,
}
