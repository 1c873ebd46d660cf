"""Validator rules and test cases of a function (`views.FunctionCases`, read by the templates).

Every documented error rule becomes a validator rule, checked on the host or listed as not
checked with the reason. Parameter constraints no error rule covers (a documented dtype
set, an enum, an axis) are checked too, with status 161002 and the constraint's own text.

The first truth is the document's own sample call: it is the valid test case whenever the
sample plan reproduces it, and a rule that would reject it is not enforced (the rule, not
the authors' call, is taken to be misread). Each error case is a valid call with one
argument changed (others following it where another rule would join in), kept only when it
breaks the rule it was made for and no other.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from specgen.codegen.notes_dtypes import stated_dtypes, widened
from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._shapes import output_dtype, output_shape
from specgen.codegen.runtime._tensor import ACL_DTYPES, TensorDesc, contiguous_strides
from specgen.codegen.runtime._validate import Rule
from specgen.codegen.statements import (
    STATED_SHAPE,
    STATED_SHAPE_KINDS,
    Statement,
    account,
    formula_rules,
    notes_relations,
    notes_rules,
    remark_rules,
    stated_params,
    stated_values,
    superseded,
)
from specgen.codegen.typemap import dtype_numpy, value_dtype
from specgen.codegen.value_rows import restated_row
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
    Check,
    CheckKind,
    Constraint,
    DtypeRule,
    ErrorRule,
    Function,
    Param,
    SampleCall,
    ShapeRule,
    TextBlock,
)
from specgen.text import value_condition

NULLPTR, INVALID = 161001, 161002
# ACLNN_ERR_INNER_TILING_ERROR: the foreach functions' checks of list elements and element counts
# (`x中的Tensor维度超过8维`, `x或out中的Tensor的数据类型不一致`, `scalar元素个数不为1`) are made
# on the arguments as the first phase runs: checked, after the 161xxx rows; so are the rows of
# the same kinds as the 161002 rows that read the arguments alone (legacy MoeGatingTopKSoftmaxV2:
# `k的值大于1024`, `softmaxOut的数据类型不在支持的范围内`; aclnnTopKTopPSampleV2: `logits与q维度
# 不一致`; aclnnRepeatInterleaveGrad: `repeats为空tensor时`)
TILING = 561002
TILING_CHECKS = (
    "list_dtype",
    "rank",
    "numel",
    "last_dim",
    "dtypes",
    "formats",
    "range",
    "same_shape",
    "same_rank",
    "empty_tensor",
)
NOT_ON_HOST = {
    "castable": "dtype promotion rules are the library's own; not checked on the host",
    "internal": "a failure inside the library, not an argument rule",
    "constraints": "stands for the documented constraints, not one check: each has a rule of its own",
    "product": "the document lists no unsupported product to check against",
    "shape": "a shape rule stated in prose only; not checked on the host",
    "value": "a value rule stated in prose only; not checked on the host",
    "unclassified": "the condition is not recognised; not checked on the host",
    "optional": "every pointer it could name is optional",
    "element_null": "a rule on a tensor list's null elements: the validator checks the list pointers, not each element",
}
POINTER_ROLES = ("tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array", "float_array", "string")
TENSOR_KINDS = ("tensor", "tensor_list")
ARRAY_KINDS = ("int_array", "float_array", "bool_array")
VALUE_KINDS = ("int", "float", "bool", "int_array", "float_array", "bool_array", "scalar", "scalar_list")
TENSOR_RULES = ("dtypes", "formats", "rank", "empty_tensor", "non_contiguous", "list_dtype")
SINGLE_TENSOR_RULES = ("last_dim",)  # the size of one tensor, not of a list's elements
RELATIONS = ("same_shape", "same_rank", "same_dtype", "same_format", "broadcast", "broadcast_result", "broadcast_to")
# dtypes tried, in order, when a case needs one a parameter does not allow
_OTHER_DTYPES = ("DOUBLE", "INT64", "INT32", "FLOAT", "FLOAT16", "INT8", "UINT8", "BOOL", "INT16")
# dtypes a dtype rule's case tries last: few documents allow them, and most lists leave one out
_RARE_DTYPES = ("UINT16", "UINT32", "UINT64", "BFLOAT16", "COMPLEX64", "COMPLEX128", "FLOAT8_E5M2")
# Arrays larger than this are described (TensorDesc) in test cases rather than built.
MAX_CASE_ELEMENTS = 1 << 16


def cases_for(
    function: Function,
    wrapper: tuple[WrapperArg, ...],
    sample: SamplePlan,
    unsupported_products: tuple[str, ...] = (),
    notes: TextBlock | None = None,
    summary: TextBlock | None = None,
) -> FunctionCases:
    """The validator rules of a function and its test cases, starting from the sample's call."""
    params = [a.code.param for a in wrapper]
    said = stated_dtypes(notes.text, [p.name for p in params]) if notes is not None else {}
    param_specs = tuple(widened(_param_spec(a), said.get(a.code.param.name, ())) for a in wrapper)
    rules = [_string_set_held(r, params, notes) for r in _rules(function, params, unsupported_products)]
    rules += notes_relations(notes, params)
    valid = Case(id="valid", args=_valid_args(wrapper, sample))
    values = host_values(valid.args)
    checker = _Checker(param_specs, function.name)
    rules = [_numbered(r, checker, valid.args, sample) if _unnumbered(r) else r for r in rules]
    unmet: tuple[str, ...] = ()
    if sample.from_document:
        rules = _spare_broken(rules, checker, values, sample.line)
        rules = _spare_misnamed_lists(rules, values, sample.line)
        added = _uncovered_outputs(params, rules)
        rules += _spare_broken(added, checker, values, sample.line)
    else:
        broken = _violations(validator_spec(param_specs, rules, function.name), valid.args)
        if function.sample_call is not None and (stated := _read_facts(function, values)):
            rules = _spare_read_facts(rules, checker, values, stated, function.sample_call.line)
        if broken:
            unmet = tuple(f"{rule_id}: {problem}" for rule_id, problem in broken.items())
            valid = replace(valid, skip="no call was found that meets every rule: " + "; ".join(unmet))
    # the rules as enforced, spared ones aside
    spec = validator_spec(param_specs, rules, function.name, unsupported_products)
    cases = [case for rule in rules for case in _rule_cases(params, spec, valid, rule)]
    unchecked, statements = account(params, rules)  # constraints no rule covers: named, not tested
    noted, read = notes_rules(notes, params, rules)  # 约束说明 statements: an output rule's, or named
    remarked, remarks = remark_rules(function.remarks, statements)  # per-product remarks not typed whole
    products, formulas = formula_rules(summary, params)  # 功能说明's list-element matrix products
    return FunctionCases(
        params=param_specs,
        rules=(*(_counted(r, statements, noted) for r in rules), *unchecked, *noted, *remarked, *products),
        statements=(*statements, *read, *remarks, *formulas),
        valid=valid,
        cases=tuple(cases),
        unsupported_products=unsupported_products,
        unmet=unmet,
    )


def _unnumbered(rule: Rule) -> bool:
    return rule.kind == "dim_equal" and any("~" in str(v) for v in rule.values)


def _numbered(rule: Rule, checker: _Checker, args: Args, sample: SamplePlan) -> Rule:
    """A dimension equality written with Arabic ordinals, counted from 1 or from 0 as the
    document's own call tells: the one reading whose dimensions that call has and meets (its
    tensors' shapes decide); else not checked, with the reason."""
    readings = [replace(rule, values=tuple(_counted_from(v, base) for v in rule.values)) for base in (1, 0)]
    absent = [n for n in rule.params if n not in args or _tensor_shape(args[n]) is None]
    if sample.from_document and not absent:
        values = host_values(args)
        kept = [r for r in readings if _within_ranks(r, args) and not checker.problem(r, values)]
        if len(kept) == 1:
            return kept[0]
        said = "meets both readings" if kept else "meets neither reading"
        why = f"the document's own call (line {sample.line}) {said}"
    elif sample.from_document:
        why = f"the document's own call (line {sample.line}) passes no tensor as {', '.join(absent)}"
    else:
        why = "the document's own call is not read whole"
    return replace(
        rule, host=False,
        reason=f"its dimensions are numbered in Arabic digits, from 1 or from 0, and {why}; not checked on the host",
    )  # fmt: skip


def _counted_from(pair: object, base: int) -> str:
    return ":".join(str(int(side[1:]) - base) if side.startswith("~") else side for side in str(pair).split(":"))


def _within_ranks(rule: Rule, args: Args) -> bool:
    """Whether the call's tensors have every dimension the rule's pairs name."""
    shapes = [_tensor_shape(args[n]) if n in args else None for n in rule.params]
    for pair in rule.values:
        for side, shape in zip(str(pair).split(":"), shapes, strict=True):
            if side not in ("numel", "value") and (shape is None or not -len(shape) <= int(side) < len(shape)):
                return False
    return True


def _counted(rule: Rule, statements: tuple[Statement, ...], noted: list[Rule]) -> Rule:
    """A row that stands for the documented constraints (`x、out的shape与参数说明中不一致`,
    `不满足接口约束说明章节`), with a reason that says how many of them are checked."""
    if rule.kind != "constraints" or rule.host:
        return rule
    named = [s for s in statements if (not rule.params or s.param in rule.params) and not s.honoured]
    whose = ", ".join(rule.params) or "the parameters"
    said = (
        f"{sum(s.enforced for s in named)} of the {len(named)} constraints of {whose} are checked by rules of their own"
    )
    if noted and ("约束" in rule.condition or not rule.params):
        said += f"; the {len(noted)} statements of 约束说明 are not checked"
    return replace(
        rule, reason=f"stands for the documented constraints, not one check: {said}; the others are listed here"
    )


def function_cases(fn: FunctionCode, unsupported_products: tuple[str, ...] = ()) -> FunctionCases:
    """The cases of a lowered function: `fn.cases`, made when it was lowered (with no
    unsupported product), or made again for the products given."""
    if not unsupported_products:
        return fn.cases
    return cases_for(fn.function, fn.wrapper, fn.sample, unsupported_products, fn.notes, fn.summary)


def _uncovered_outputs(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """The output rules that an error rule the sample broke (so spared) covered: the output is
    then held to its own rule (aclnnApplyTopKTopP: `logits、p、k或out的shape不匹配` is spared,
    its out's `shape需要与logits一致` holds), unless the sample breaks that too."""
    known = {r.id for r in rules}
    documented = [r for r in rules if r.id.startswith("rule")]  # as _rules gives them
    held = {r.params[0] for r in documented if r.kind == "output_shape" and r.host}  # a row checks it
    found = _output_rules(params, documented)
    return [r for r in found if r.id not in known and not (r.kind == "output_shape" and r.params[0] in held)]


# rules that check each argument they name on its own: the sample breaking one argument's
# spares that argument only
PER_ARGUMENT_KINDS = (
    "not_null", "null", "dtypes", "formats", "rank", "empty_tensor", "non_contiguous",
    "list_dtype", "numel", "last_dim", "enum", "range",
)  # fmt: skip


@dataclass(frozen=True)
class _Checker:
    """Whether the arguments break one rule, among the rules of a function."""

    param_specs: tuple[dict, ...]
    function: str

    def problem(self, rule: Rule, values: dict[str, object]) -> str:
        spec = validator_spec(self.param_specs, [rule], self.function)
        return next((problem for r, problem in validator.violations(spec, values) if r is rule), "")


def _spare_broken(rules: list[Rule], checker: _Checker, values: dict[str, object], line: int) -> list[Rule]:
    """The rules with what the document's own (fully read) call breaks spared: of a rule that
    checks each argument on its own, only the arguments that break it (aclnnGeluBackward's
    sample passes gradOutput as INT32: gradOutput's dtype is spared, self's still checked)."""
    kept: list[Rule] = []
    for rule in rules:
        problem = checker.problem(rule, values) if rule.host else ""
        if not problem:
            kept.append(rule)
            continue
        breaking = _breaking_arguments(rule, lambda r: checker.problem(r, values))
        kept += _split_spared(rule, breaking, problem, line, checker, values)
    return kept


def _breaking_arguments(rule: Rule, problem_of: Callable[[Rule], str]) -> tuple[str, ...]:
    """The arguments that break a rule on their own; all it names when it does not check them one by one."""
    if rule.kind not in PER_ARGUMENT_KINDS or len(rule.params) < 2:
        return rule.params
    alone = tuple(p for p in rule.params if problem_of(replace(rule, params=(p,))))
    return alone or rule.params


def _split_spared(
    rule: Rule,
    breaking: tuple[str, ...],
    problem: str,
    line: int,
    checker: _Checker,
    values: dict[str, object],
) -> list[Rule]:
    """The rule held on the arguments the sample does not break, and spared on those it does."""
    rest = tuple(p for p in rule.params if p not in breaking)
    if not rest or checker.problem(replace(rule, params=rest), values):
        return [_spare(rule, problem, line)]
    spared = replace(rule, params=breaking, id=f"{rule.id}_{'_'.join(breaking)}")
    alone = checker.problem(replace(rule, params=breaking), values) or problem
    return [replace(rule, params=rest), _spare(spared, alone, line)]


def _spare_read_facts(
    rules: list[Rule], checker: _Checker, derived: dict[str, object], read: dict[str, object], line: int
) -> list[Rule]:
    """The rules with what the document's partly read call breaks spared, argument by argument:
    a fact read of an argument (aclnnDualLevelQuantMatmulWeightNz's x2 passed as INT8, its storage
    shape unread) that breaks a rule checking each argument on its own, where the call derived
    for the test meets it."""
    facts = {**derived, **read}
    kept: list[Rule] = []
    for rule in rules:
        if not rule.host or rule.kind not in PER_ARGUMENT_KINDS:
            kept.append(rule)
            continue
        alone = {p: replace(rule, params=(p,)) for p in rule.params if p in read}
        breaking = tuple(p for p, r in alone.items() if checker.problem(r, facts) and not checker.problem(r, derived))
        if not breaking:
            kept.append(rule)
            continue
        problem = checker.problem(alone[breaking[0]], facts)
        kept += _split_spared(rule, breaking, problem, line, checker, derived)
    return kept


def _read_facts(fn: Function, derived: dict[str, object]) -> dict[str, object]:
    """The arguments of the document's call that were read in part or whole, as the validator
    receives them, with what was not read taken from the derived call; empty when the call does
    not match the prototype."""
    call = fn.sample_call
    if call is None or len(call.args) != len(fn.params):
        return {}
    read = {}
    for p, arg in zip(fn.params, call.args, strict=True):
        if p.name in derived and (value := _read_fact(p, arg, derived[p.name])) is not _UNREAD:
            read[p.name] = value
    return read


_UNREAD = object()


def _read_fact(p: Param, arg: CallArg, derived: object) -> object:
    """An argument with the facts the sample states of it, the derived call's for the rest."""
    if arg.kind == "null":
        return None
    if arg.kind == "tensor" and isinstance(derived, TensorDesc):
        if arg.shape is None and arg.dtype is None and arg.format is None:
            return _UNREAD
        shape_read = arg.shape is not None
        return TensorDesc(
            arg.shape if shape_read else derived.shape,  # type: ignore[arg-type]
            arg.dtype or derived.dtype,
            arg.strides if shape_read else derived.strides,
            arg.format or derived.format,
        )
    if arg.kind == "tensor" and arg.shape is not None and arg.dtype is not None:
        return TensorDesc(arg.shape, arg.dtype, arg.strides, arg.format or "ND")
    if arg.kind == "tensor" or arg.kind == "tensor_list":
        return _UNREAD
    if arg.elements is not None:
        return tuple(arg.elements)
    return _integer_dtype(p.kind, arg.value) if arg.value is not None else _UNREAD


def _spare_misnamed_lists(rules: list[Rule], values: dict[str, object], line: int) -> list[Rule]:
    """The inputs' own lists (`stated_shape_*`) when the document's own sample breaks one of
    them, or gives a symbol they share two sizes: the lists' letters are taken as misread, all
    of them (aclnnConvTbcBackward: self `(N,Cout,Hout)`, input `(N,Cin,Hin)`, weight `(Cout,Cin,K)`,
    bias `(Cout)`, where the sample passes the TBC layout, self (5,1,2), weight (1,2,2), bias (2,))."""
    lists = [r for r in rules if r.id.startswith(STATED_SHAPE) and r.kind == "output_shape"]
    broken = [r.params[0] for r in lists if not r.host]
    clashes = _clashing_symbols([r for r in lists if r.host], values)
    if not broken and not clashes:
        return rules
    if broken:
        why = f"the document's own sample call (line {line}) breaks the list of {', '.join(broken)}"
    else:
        why = f"the document's own sample call (line {line}) gives {'; '.join(clashes)}"
    reason = f"{why}: the inputs' lists share its letters, so they are taken as misread, not enforced"
    return [replace(r, host=False, reason=reason) if r in lists and r.host else r for r in rules]


def _clashing_symbols(lists: list[Rule], values: dict[str, object]) -> list[str]:
    """The symbols the lists size by other inputs that the call gives two sizes (`Cout 1 and 2`)."""
    sizes: dict[str, set[int]] = {}
    for r in lists:
        bindings: Sequence[dict] = (r.derive or {}).get("symbols", ())  # type: ignore[assignment]
        for binding in bindings:
            shape = getattr(values.get(binding["param"]), "shape", None)
            if binding["param"] != r.params[0] and shape is not None and -len(shape) <= binding["axis"] < len(shape):
                sizes.setdefault(binding["symbol"], set()).add(shape[binding["axis"]])
    return [f"{s} {' and '.join(map(str, sorted(v)))}" for s, v in sizes.items() if len(v) > 1]


def _spare(rule: Rule, problem: str, line: int) -> Rule:
    reason = f"the document's own sample call (line {line}) breaks it ({problem}): taken as misread, not enforced"
    return replace(rule, host=False, reason=reason)


# ---------------------------------------------------------------- rules


def _general(p: Param, kind: str) -> list[Constraint]:
    """Constraints of `kind`; a value set or range stated for one product only is not known
    to hold without it (dtype sets keep their products: the validator takes `product=`)."""
    constraints = p.of_kind(kind)  # type: ignore[arg-type]
    if kind in ("dtypes", "formats"):
        return constraints
    # a string's values listed with their meanings, beyond those it supports now, are no part of its set
    return [c for c in constraints if c.product is None and not superseded(p, c)]


def _param_spec(arg: WrapperArg) -> dict:
    p = arg.code.param
    general = [c.values for c in p.of_kind("dtypes") if c.product is None]
    # the union of the statements' sets, each value once (a default `"BSH"` is also listed)
    enum = tuple({(type(v), v): v for c in _general(p, "enum") for v in c.values}.values())
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
        "ranks": p.rank.values if p.rank else (),
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
    later: list[Rule] = []  # the parts of error rows held apart (see `_outputs_apart`)
    for error in function.errors:
        checks: list[tuple[CheckKind | Literal["unclassified"], tuple[str, ...], Check | None]] = [
            (c.kind, c.params, c) for c in error.checks
        ] or [("unclassified", error.params, None)]
        for kind, names, check in checks:
            known = tuple(n for n in names if n in by_name)
            if kind == "not_null":  # an optional pointer may be null whatever a general rule says
                # and a C value (aclnnNLLLossBackward's `int64_t reduction`) has no null
                known = tuple(n for n in known if not by_name[n].optional and "*" in by_name[n].c_type)
            rule_id = f"rule{len(rules) + 1}_{kind}"
            if apart := _outputs_apart(kind, error, known, by_name):  # the inputs' relation holds always
                known = tuple(n for n in known if n not in apart.params)
                later.append(
                    replace(apart, id=f"{rule_id}_outputs", reason=f"{apart.reason}; {rule_id} checks the rest")
                )
            reason = _not_on_host(kind, error, known, by_name, bool(unsupported_products))
            rules.append(
                Rule(
                    code=error.code,
                    kind=kind,
                    params=known,
                    condition=error.condition,
                    id=rule_id,
                    max=int(check.max) if check and check.max is not None and kind != "range" else None,
                    host=not reason,
                    reason=reason,
                    values=tuple(check.values) if check else (),
                    bounds=_bounds(check) if check and kind in ("range", "length") else None,
                )
            )
    rules = [_one_way(restated_row(r, by_name), params) for r in _one_product_status(rules)] + later
    implied = _implied_rules(params, rules) + _held_rules(params) + _null_rules(params) + _required_with_rules(params)
    implied += _stated_shape_rules(params, rules) + _list_shape_rules(params, rules)
    implied += _refused_empty_rules(params, rules)
    outputs = _output_rules(params, rules)
    rules = _held_by_outputs(rules, params, outputs)
    held = {r.params[0] for r in rules if r.kind == "output_shape"}  # the row checks the output's rule
    outputs = [r for r in outputs if r.kind != "output_shape" or r.params[0] not in held]
    stated = _output_format_rules(params, rules) + _input_shape_rules(params, rules)
    return _held_by_inputs(rules, stated, params) + implied + _product_rules(params) + outputs + stated


def _one_way(rule: Rule, params: list[Param]) -> Rule:
    """An error row's broadcast of two tensors (`gradOutput与mask不满足broadcast关系`) checked one
    way where a parameter's text says which way (`mask可以broadcast成gradOutput`, legacy
    ScaledMaskedSoftmaxBackward line 40): the source's shape must broadcast to the target's."""
    if rule.kind != "broadcast" or len(rule.params) != 2:
        return rule
    for p in params:
        for c in p.of_kind("broadcast_to"):
            if {p.name, *c.params} == set(rule.params) and c.product is None and not c.when:
                return replace(rule, kind="broadcast_to", params=(p.name, *c.params))
    return rule


def _output_format_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """An output's format the table ties to an input (aclnnHardswishBackward's out: `与 `gradOutput`
    一致` in the format column), where no checked error row relates them already: held as the
    output's dtype and shape relations are."""
    tensors = {p.name for p in params if p.kind in TENSOR_KINDS}
    held = {n for r in rules if r.kind == "same_format" and r.host for n in r.params}
    found = []
    for p in params:
        said = [c for c in p.of_kind("same_format") if c.product is None and not c.when]
        peers = tuple(dict.fromkeys(n for c in said for n in c.params if n in tensors and n != p.name))
        if p.direction == "out" and p.kind in TENSOR_KINDS and peers and p.name not in held:
            found.append(
                Rule(INVALID, "same_format", (p.name, *peers), said[0].text, id=f"implied_same_format_{p.name}")
            )
    return found


def _input_shape_rules(params: list[Param], rows: list[Rule]) -> list[Rule]:
    """Each input's own dimension list (`Param.stated_shape`: `维度只支持1维且为[H]`), held as an
    output's rule is, with its symbols sized by the other inputs, under the status of the rows on
    its shape (`own_shape_code`); where no call settles it, listed as not checked with the reason."""
    names = {p.name for p in params}
    rules = []
    for p in params:
        shape = p.stated_shape
        if shape is None:
            continue
        rule_id = f"{STATED_SHAPE}{p.name}"
        if p.kind != "tensor":  # aclnnLstmBackward's i, g, f, o: each element's shape
            reason = "a tensor list's elements are said to have this shape; their shapes are not checked"
            rules.append(Rule(INVALID, "shape", (p.name,), shape.text, host=False, reason=reason, id=rule_id))
        elif shape.derived and _reads(shape, names):
            reads = dict.fromkeys((p.name, *shape.params, *(s.param for s in shape.symbols)))
            code = own_shape_code(p.name, rows)
            rules.append(Rule(code, "output_shape", tuple(reads), shape.text, id=rule_id, derive=plain_rule(shape)))
        else:
            reason = shape.reason or "its symbols are sized by a parameter the function does not take"
            rules.append(Rule(INVALID, "shape", (p.name,), shape.text, host=False, reason=reason, id=rule_id))
    return rules


def _held_by_inputs(rows: list[Rule], stated: list[Rule], params: list[Param]) -> list[Rule]:
    """A same-shape row relating an input to the tensors its own list reads, checked as that list
    (legacy MoeGatingTopKSoftmaxV2: `x与finishedOptional的shape不匹配`, where finishedOptional's
    `shape为x_shape[:-1]`: x's shape without its last dimension, not x's), with the row's status."""
    by_name = {p.name: p for p in params}
    lists = [r for r in stated if r.id.startswith(STATED_SHAPE) and r.kind == "output_shape" and r.host]
    reads = {r.id: _names_read(by_name[r.params[0]].stated_shape) | {r.params[0]} for r in lists}
    found = []
    for row in rows:
        same = [s for s in lists if reads[s.id] == set(row.params)] if row.kind == "same_shape" else []
        if same and row.id.startswith("rule"):
            row = replace(row, kind="output_shape", params=same[0].params, derive=same[0].derive, host=True, reason="")
        found.append(row)
    return found


def _one_product_status(rules: list[Rule]) -> list[Rule]:
    """The first checked product row gives the status of an unsupported product; a later one
    (aclnnConvolution: `161002 | 当前处理器不支持卷积`, then `361001 | 平台不支持`) is not checked."""
    first = next((r for r in rules if r.kind == "product" and r.host), None)
    return [
        replace(r, host=False, reason=f"{first.id} gives the status of an unsupported product")
        if first and r.kind == "product" and r.host and r is not first
        else r
        for r in rules
    ]


def _outputs_apart(kind: str, error: ErrorRule, params: tuple[str, ...], by_name: dict[str, Param]) -> Rule | None:
    """The outputs of a same-shape row whose own rows make their shape depend on a value
    (`input、gradOut、gradInput（非空时）的shape不一致`, gradInput written as outputMask says),
    as a rule not checked, when two tensors are left for the row to relate (the inputs)."""
    if kind != "same_shape" or error.conditional or error.code not in (NULLPTR, INVALID):
        return None
    apart = tuple(n for n in params if _shape_set_by_value((n,), by_name))
    left = [n for n in params if n not in apart and by_name[n].kind in TENSOR_KINDS]
    if not apart or len(left) < 2:
        return None
    value = _shape_set_by_value(apart, by_name)
    reason = f"the shape of {', '.join(apart)} depends on {value} (its own row says when), so it holds only then"
    return Rule(error.code, kind, apart, error.condition, host=False, reason=reason)


def _bounds(check: Check) -> tuple[float | None, float | None, bool, bool] | None:
    """The bounds an error row states for a range rule; None when it points at the parameter's."""
    if check.min is None and check.max is None:
        return None
    return (check.min, check.max, check.min_inclusive, check.max_inclusive)


def _not_on_host(
    kind: str, error: ErrorRule, params: tuple[str, ...], by_name: dict[str, Param], has_products: bool
) -> str:
    """Why a rule is not checked on the host; empty when it is."""
    if kind == "product":
        return "" if has_products else NOT_ON_HOST["product"]
    if kind not in validator.CHECKED_KINDS:
        return NOT_ON_HOST.get(kind, NOT_ON_HOST["unclassified"])
    if error.code not in (NULLPTR, INVALID) and not (error.code == TILING and kind in TILING_CHECKS):
        return f"status {error.code} comes from inside the library (runtime or tiling), after the argument checks"
    if error.code == TILING and kind in RELATIONS and not any(by_name[n].direction == "in" for n in params):
        # MoeInitRoutingQuant: `expandedRowIdxOut和expandedExpertIdxOut的shape不相等，且不等于(num_rows * k, )`
        return "a relation between outputs alone; checked as the outputs' shape rule where one is read from this row"
    if kind == "not_null":
        if error.code != NULLPTR:
            return "a null rule under status 161002 concerns list elements or conditions, not the arguments"
        made = [n for n in error.params if n not in by_name]  # workspaceSize, executor, out-values
        if params or made:
            return "" if params else f"the wrapper passes {', '.join(made)} itself"
        return _optional_reason(error, by_name)
    if kind == "not_null_when":
        return "" if error.code == NULLPTR and len(params) == 2 else "a null rule under another status than 161001"
    if kind == "not_all_null":
        return "" if error.code == NULLPTR and len(params) > 1 else "a null rule under another status than 161001"
    if error.conditional:
        return "a conditional rule (当…时, 若…); its condition is not checked on the host"
    if kind in ("broadcast_result", "same_shape") and (value := _shape_set_by_value(params, by_name)):
        return f"the output's shape depends on {value} (its own row says when), so the relation holds only then"
    if not error.params and not (params and kind in ("dtypes", "formats")):
        # `输入和输出的数据类型和格式不在支持的范围内`: a collective subject the row's check reads as its tensors
        return "the condition names no parameter, so which arguments it constrains is not stated"
    return _inapplicable(kind, params, by_name)


def _optional_reason(error: ErrorRule, by_name: dict[str, Param]) -> str:
    """Why a null-pointer rule naming optional pointers only is not checked: a condition
    (`当outputMask[0]为true，传入的gradInput是空指针时`) says when one is required."""
    if not error.conditional:
        return NOT_ON_HOST["optional"]
    pointers = ", ".join(n for n in error.params if n in by_name and by_name[n].optional) or "the pointer"
    return f"{pointers} may be null in general; the condition saying when it is required is not checked on the host"


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
    if kind in SINGLE_TENSOR_RULES and any(by_name[n].kind != "tensor" for n in params):
        return f"a {kind} rule applies to single tensors; {', '.join(params)} includes another kind"
    if kind == "numel" and any(by_name[n].kind not in TENSOR_KINDS for n in params):
        return f"a numel rule applies to tensors (each of a list); {', '.join(params)} includes another kind"
    if kind in RELATIONS and len(tensors) < 2:
        return f"a {kind} relation needs two tensors; the condition names {', '.join(params) or 'none'}"
    valued = (*VALUE_KINDS, "string") if kind == "enum" else VALUE_KINDS  # a layout's name is one of a set
    if kind in ("enum", "range") and not any(by_name[n].kind in valued for n in params):
        return f"a {kind} rule applies to values; {', '.join(params)} holds none"
    if kind == "array_shape" and not (
        len(params) == 2 and by_name[params[0]].kind == "tensor" and by_name[params[1]].kind == "int_array"
    ):
        return "an array_shape rule needs a tensor and the integer array whose value is its shape"
    if kind == "rank_at_least" and not (
        len(params) == 2 and by_name[params[0]].kind == "tensor" and by_name[params[1]].kind in ARRAY_KINDS
    ):
        return "a rank_at_least rule needs a tensor and the array whose length it compares with"
    if kind == "length" and not (len(params) == 1 and by_name[params[0]].kind in (*ARRAY_KINDS, "string")):
        return f"a length rule applies to an array or a string; {', '.join(params) or 'no parameter'} is not one"
    if kind == "ratio" and not (len(params) == 2 and all(by_name[n].kind == "int" for n in params)):
        return f"a ratio rule needs two integers; {', '.join(params) or 'no parameter'} are not"
    if kind == "axis" and not (len(params) == 2 and by_name[params[1]].kind in TENSOR_KINDS):
        return "an axis rule needs the value and the tensor whose dimensions it indexes"
    if kind in ("output_shape", "output_dtype") and not (params and by_name[params[0]].kind == "tensor"):
        return f"an {kind} rule applies to an output tensor; {', '.join(params) or 'no parameter'} is not one"
    return ""


def _implied_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """Parameter constraints that no checked error rule covers, checked under the status of
    the error row that names that check of the parameter though it is not checked itself
    (aclnnDequantBias: `561002 | 输入activateScaleOptional、biasOptional的数据类型不在支持的范围内`),
    else 161002."""
    # an error row's own bounds or set (`lambda小于0`) leave the table's to be checked too, unless
    # they are the table's own (MoeGatingTopKSoftmaxV2: `561002 | k的值大于1024`, k `且k不大于1024`)
    by_name = {p.name: p for p in params}
    own: dict[tuple[str, str], Rule] = {}
    for r in rules:
        for n in r.params:
            if _restates(r, by_name.get(n)):
                own.setdefault((r.kind, n), r)
    covered = {(r.kind, n) for r in rules if r.host and not (r.bounds or r.values) for n in r.params}
    covered |= {key for key, r in own.items() if r.host}
    stated: dict[tuple[str, str], int] = {key: r.code for key, r in own.items()}
    for r in rules:
        if not (r.bounds or r.values):
            stated.update({(r.kind, n): r.code for n in r.params if (r.kind, n) not in stated})
    implied = []
    for p in params:
        for kind in ("dtypes", "formats", "rank", "enum", "range", "axis", "length", "multiple", "ratio"):
            constraints = _general(p, kind)
            if not constraints or (kind, p.name) in covered or not _checkable(p, kind):
                continue
            if kind == "rank" and _shape_set_by_value((p.name,), by_name):  # "否则out为scalar": 0-d then
                continue
            # a set's rule quotes its widest statement, not a default naming one value
            # (IncreFlashAttentionV4's inputLayout: `当前支持BSH、BNSD、BSND`, not `可传入默认值"BSH"`)
            first = max(constraints, key=lambda c: len(c.values)) if kind == "enum" else constraints[0]
            names = _implied_names(p, kind, first)
            if _inapplicable(kind, names, by_name):
                continue
            rule_id = f"implied_{kind}_{p.name}"
            code = stated.get((kind, p.name)) or (own_shape_code(p.name, rules) if kind == "rank" else INVALID)
            implied.append(Rule(code, kind, names, first.text, id=rule_id, **_stated_values(kind, constraints)))
    return implied


def _restates(row: Rule, p: Param | None) -> bool:
    """Whether an error row's own bound or set is the one the parameter list states for `p`
    (a range's four bounds, an enum's values): the row then speaks of the parameter's rule."""
    if p is None or not (row.bounds or row.values) or row.kind not in ("range", "enum"):
        return False
    said = _general(p, row.kind)
    if not said:
        return False
    if row.kind == "range":
        c = said[0]
        return row.bounds == (c.min, c.max, c.min_inclusive, c.max_inclusive)
    return {v for c in said for v in c.values} == set(row.values)


def _stated_shape_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """The shape statements of the parameter table read as rules of their own kind, each its own
    rule (aclnnSwigluGroup x: `最后一维必须为偶数`; aclnnForeachAbs out: `shape size大于等于入参x的
    shape size`), unless an error row checks it already."""
    held = {(r.kind, r.params, r.values) for r in rules if r.kind in STATED_SHAPE_KINDS and r.host}
    by_name = {p.name: p for p in params}
    found: dict[tuple, Rule] = {}
    for p in params:
        for c in (c for kind in STATED_SHAPE_KINDS for c in _general(p, kind)):
            names, values = stated_params(p, c), stated_values(c)
            key = (c.kind, names, values)
            if c.kind == "dim_equal" and not _comparable(names, values, by_name):
                continue
            if key not in held and key not in found:
                rule_id = f"stated_{c.kind}_{'_'.join(names)}_{len(found) + 1}"
                code = _shape_row_code(c.kind, names, rules)
                found[key] = Rule(code, c.kind, names, c.text, id=rule_id, values=values)
    return list(found.values())


def _list_shape_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """A tensor list's tensors of the shape of other lists' at the same place (aclnnForeachAddcdivScalarList
    x1, line 94: `shape与入参`x2`、`x3`的shape一致`; x2, line 104: `数据类型、数据格式和shape与入参`x1`一致`),
    one rule for the lists a statement names, unless a checked rule relates them already; under the
    status of the error row naming those lists' shapes (`561002 | x1、x2、x3、out的shape不满足约束`),
    else 161002."""
    lists = {p.name for p in params if p.kind == "tensor_list"}
    held = [set(r.params) for r in rules if r.kind == "same_shape" and r.host]
    found = []
    for p in (p for p in params if p.name in lists):
        for c in _general(p, "same_shape"):
            names = tuple(dict.fromkeys((p.name, *c.params)))
            if c.when or len(names) < 2 or not set(names) <= lists or any(set(names) <= h for h in held):
                continue
            held.append(set(names))
            rule_id = f"stated_same_shape_{'_'.join(names)}"
            found.append(Rule(_shape_row_code("same_shape", names, rules), "same_shape", names, c.text, id=rule_id))
    return found


def _comparable(names: tuple[str, ...], values: tuple[object, ...], by_name: dict[str, Param]) -> bool:
    """Whether the validator can compare a dimension equality's pair: one tensor, and a peer that is
    one tensor, or an integer where a dimension is compared with its value."""
    own, peer = by_name[names[0]], by_name[names[1]]
    with_value = any(str(v).endswith(":value") for v in values)
    return own.kind == "tensor" and peer.kind == ("int" if with_value else "tensor")


# the words by which an error row speaks of what a stated shape rule checks
_ROW_WORDS = {
    "dim_equal": re.compile("shape|维"),
    "dim_multiple": re.compile("偶数|整除|倍数"),
    "numel_at_least": re.compile("shape"),
    "same_shape": re.compile("shape"),
    "min_rank": re.compile(r"\d\s*维|维度|维数"),
}


def _shape_row_code(kind: str, names: tuple[str, ...], rules: list[Rule]) -> int:
    """The status of the error row naming the parameters and what the rule checks (aclnnForeachAbs:
    `561002 | x与out的shape不满足约束`; aclnnSwigluGroup: `561002 | x为0维（标量），或x的最后一维不是
    偶数`), else 161002."""
    words = _ROW_WORDS[kind]
    rows = (r for r in rules if r.id.startswith("rule") and set(names) <= set(r.params) and words.search(r.condition))
    row = next(rows, None)
    return row.code if row is not None else INVALID


# the kinds of error row that speak of a tensor's shape
SHAPE_ROW_KINDS = ("rank", "same_shape", "same_rank", "shape", "output_shape", "dim_equal", "broadcast", "broadcast_to")


def _shape_named(name: str) -> re.Pattern[str]:
    """`name`, then other names only, then its whole shape (`x与finishedOptional的shape`, `logits与q
    尺寸`, `（x1、x2、yOut、xOut）的shape`); not a dimension another statement compares
    (`weightOptional的元素个数与x除最后一维外的维度乘积`, `与logits的前n-1维`), nor one dimension
    of it (aclnnAdvanceStep: `blockTables的shape的第一维长度与numSeqs不一致`)."""
    return re.compile(
        rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])[A-Za-z0-9_、,，和与及\s（）()]*?的?(?:shape|维|尺寸)"
        r"(?!的?(?:第|最后|尾|前|后))"
    )


def own_shape_code(name: str, rules: list[Rule]) -> int:
    """The status of the error rows naming `name`'s shape (legacy MoeGatingTopKSoftmaxV2:
    `561002 | x与finishedOptional的shape不匹配`, the only row on finishedOptional's shape, whose
    `1D/2D` and `shape为x_shape[:-1]` it then gives), when they agree on one; else 161002."""
    named = _shape_named(name)
    codes = {
        r.code
        for r in rules
        if r.id.startswith("rule") and r.kind in SHAPE_ROW_KINDS and name in r.params and named.search(r.condition)
    }
    return codes.pop() if len(codes) == 1 else INVALID


# a row giving its status to every constraint of the parameter list: `数据类型不在支持的范围之内，或者参数
# 不满足上述约束` (aclnnQuantizedBatchNorm), `输入和输出参数不满足参数说明中的约束`, `参数不满足参数说明中的要求`
_WHOLE_LIST_ROW = re.compile(r"参数不满足(?:上述|参数说明中的)(?:约束|要求)")


def _refused_empty_rules(params: list[Param], rules: list[Rule]) -> list[Rule]:
    """`不支持空Tensor` in the parameter list, checked under the status of a row that gives one to
    every constraint of that list, where no error row of its own covers the empty tensor."""
    row = next((r for r in rules if r.host and r.code == INVALID and _WHOLE_LIST_ROW.search(r.condition)), None)
    if row is None:
        return []
    covered = {n for r in rules if r.kind == "empty_tensor" and r.host for n in r.params}
    found = []
    for p in params:
        said = [c for c in p.of_kind("empty_tensor") if c.supported is False and c.product is None and not c.when]
        if said and p.kind in TENSOR_KINDS and p.empty_tensor is False and p.name not in covered:
            found.append(Rule(row.code, "empty_tensor", (p.name,), said[0].text, id=f"implied_empty_tensor_{p.name}"))
    return found


def _implied_names(p: Param, kind: str, first: Constraint) -> tuple[str, ...]:
    """The parameters a rule implied by `p`'s constraint reads: two values a relation names
    (`需要满足numHeads整除numKeyValueHeads` on numKeyValueHeads), else `p` and what it is against."""
    if kind == "ratio" or (kind == "multiple" and len(first.params) == 2):
        return first.params
    return (p.name, *first.params) if kind in ("axis", "multiple") else (p.name,)


# A layout named in passing (`TND的输入格式除外`, `inputLayout为TND时`): a value the parameter may take
_LAYOUT_NAMED = re.compile(
    r"(?<![A-Za-z0-9_])(?P<before>[A-Z][A-Z0-9_]{2,})(?=的?(?:输入)?(?:格式|排布|场景))"
    r"|(?:[Ll]ayout|排布|格式)\s*(?:为|是|取|设置为|==?)\s*[\"“']?(?P<after>[A-Z][A-Z0-9_]{2,})"
)
_TENSOR_FORMATS = {"ND", "NZ", "NCHW", "NHWC", "NCDHW", "NDHWC", "HWCN", "NCL", "FRACTAL_NZ", "FRACTAL_Z", "NC1HWC0"}


def _string_set_held(rule: Rule, params: list[Param], notes: TextBlock | None) -> Rule:
    """A string parameter's set of values (`inputLayout`: `支持TND`, `当前支持BSH、BNSD、BSND`)
    checked only when it is the whole set the document gives: a value said elsewhere for it (on
    one product, or a layout the text names) leaves it unchecked, as narrowing a valid call out."""
    p = next((q for q in params if rule.params == (q.name,)), None)
    if p is None or p.kind != "string" or rule.kind != "enum" or rule.values or not rule.host:
        return rule
    allowed = {v for c in _general(p, "enum") for v in c.values}
    beyond = next(
        ((c, v) for c in p.of_kind("enum") if not superseded(p, c) for v in c.values if v not in allowed), None
    )
    if beyond is not None:
        said, value = beyond
        where = f" on product {said.product}" if said.product else ""
        reason = f"line {said.line} allows {value!r}{where} (`{said.text}`), beyond the set the rule holds"
        return replace(rule, host=False, reason=reason + "; not checked, so as not to narrow it")
    named = _layouts_named(params, notes) - allowed - _TENSOR_FORMATS - set(ACL_DTYPES)
    if named and all(isinstance(v, str) and v.isupper() for v in allowed):
        reason = f"the document names the layout {', '.join(sorted(named))} elsewhere, outside the set of {p.name}"
        return replace(rule, host=False, reason=reason + "; not checked, so as not to narrow it")
    return rule


def _layouts_named(params: list[Param], notes: TextBlock | None) -> set[str]:
    texts = [c.text for q in params for c in q.constraints] + [q.description or "" for q in params]
    texts += [notes.text] if notes is not None else []
    return {m.group("before") or m.group("after") for text in texts for m in _LAYOUT_NAMED.finditer(text)}


def _held_rules(params: list[Param]) -> list[Rule]:
    """A value set held while a tensor has some dtypes (roundMode's `当yDtype为FLOAT8_E4M3FN/
    FLOAT8_E5M2时，仅支持{"rint"}`): checked where the call settles that it has them. The
    parameter's own set stays the union of all (`implied_enum_<param>`)."""
    tensors = {p.name for p in params if p.kind in TENSOR_KINDS}
    rules: list[Rule] = []
    for p in params:
        if not _checkable(p, "enum"):
            continue
        held = [c for c in _general(p, "enum") if c.when and c.when[0] in tensors]
        for n, c in enumerate(held, 1):
            rules.append(
                Rule(INVALID, "enum", (p.name,), c.text, id=f"held_enum_{p.name}_{n}", values=c.values, when=c.when)
            )
    return rules


def _null_rules(params: list[Param]) -> list[Rule]:
    """A pointer the document says must be null (`目前仅支持nullptr`, `暂不支持该传参`): checked
    on every product, or, said in a per-product remark (`Atlas 推理系列加速卡产品：仅支持nullptr`),
    when `product=` names one of its products."""
    rules = []
    for p in params:
        said = [c for c in p.constraints if c.kind == "null"]
        if not said or "*" not in p.c_type:
            continue
        products = () if any(c.product is None for c in said) else tuple(dict.fromkeys(str(c.product) for c in said))
        first = next((c for c in said if c.product is None), said[0])
        rules.append(Rule(INVALID, "null", (p.name,), first.text, id=f"implied_null_{p.name}", products=products))
    return rules


def _required_with_rules(params: list[Param]) -> list[Rule]:
    """A pointer required when another is given (`当scalesOptional非空指针时，其也不能是空指针`),
    or when a bool asks for it (`通过expertTokensBeforeCapacityFlag参数控制是否输出`), under 161001
    (a required pointer is null)."""
    pointers = {p.name for p in params if "*" in p.c_type}
    askers = pointers | {p.name for p in params if p.kind == "bool"}
    return [
        Rule(NULLPTR, "not_null_when", (p.name, c.params[0]), c.text, id=f"implied_not_null_when_{p.name}")
        for p in params
        if p.name in pointers
        for c in p.constraints
        if c.kind == "not_null_when" and c.product is None and c.params and c.params[0] in askers
    ]


# What a per-product remark may hold of a parameter besides its dtype set (`ParamSpec.product_dtypes`).
PRODUCT_KINDS = ("enum", "range", "same_dtype", "length")


def _product_rules(params: list[Param]) -> list[Rule]:
    """The values and dtype equalities a per-product remark states (`输入`dim`仅支持1000`,
    `参数gradWeight的数据类型与gradOut的保持一致`), checked when `product=` names one of its
    products: one rule per statement and parameter, with every product it is said for."""
    found: dict[tuple, list[str]] = {}
    for p in params:
        for c in p.constraints:
            if c.product is None or c.kind not in PRODUCT_KINDS or not _product_checkable(p, c.kind):
                continue
            values = _product_values(p, c)
            key = (p.name, c.kind, c.params, values, c.min, c.max, c.min_inclusive, c.max_inclusive, c.text)
            found.setdefault(key, []).append(c.product)
    rules: list[Rule] = []
    for (name, kind, peers, values, low, high, low_in, high_in, text), products in found.items():
        bounds = (low, high, low_in, high_in) if kind in ("range", "length") else None
        rule_id = f"product_{kind}_{name}"
        rule_id += f"_{len(rules) + 1}" if any(r.id == rule_id for r in rules) else ""
        rules.append(
            Rule(
                INVALID, kind, (name, *peers), text, id=rule_id, values=values, bounds=bounds, products=tuple(products)
            )
        )
    return rules


def _product_values(p: Param, c: Constraint) -> tuple:
    """A per-product value set: the union of the product's value statements, which are items of
    one list (PromptFlashAttentionV2 sparseMode under `<term>Atlas A2 …</term>：`, `sparseMode为0时，代表
    defaultMask模式` … `sparseMode为4时…`), not each a restriction of its own."""
    if c.kind != "enum":
        return c.values
    said = [e for e in p.of_kind("enum") if e.product == c.product and not e.when]
    return tuple(dict.fromkeys(v for e in said for v in e.values)) if not c.when else c.values


def _stated_values(kind: str, constraints: list[Constraint]) -> dict:
    """What a length or multiple rule holds itself: the lengths (any statement's), their
    range, or the number a value is a multiple of."""
    if kind == "length" and constraints[0].values:
        return {"values": tuple(dict.fromkeys(v for c in constraints for v in c.values))}
    if kind == "length":
        return {"bounds": (constraints[0].min, constraints[0].max, True, True)}
    if kind == "ratio":
        return {"bounds": (None, constraints[0].max, True, constraints[0].max_inclusive)}
    if kind in ("multiple", "axis"):  # axis: the values allowed besides the range (`传入1000表示…`)
        return {"values": constraints[0].values}
    return {}


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
        if p.kind != "tensor" or p.direction not in ("out", "inout"):
            continue
        shape = p.shape_rule if ("output_shape", p.name) not in covered else None
        # a reduce or reduction reading states its own cases (keepDim, reduction), a rule with
        # `when` the bool its output is written under; others do not
        situated = shape is not None and (shape.kind in ("reduce", "reduction", "one_of") or shape.when)
        value = _shape_set_by_value((p.name,), by_name) if shape is not None and not situated else ""
        if value and value not in _names_read(shape):
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
        # the dtype of an input, or the one an aclDataType or dtype-code argument names
        if (
            dtype is not None
            and dtype.kind in ("same", "given", "cases")
            and set(dtype.params) <= names
            and p.name not in dtype.params
        ):
            rule_id = f"implied_output_dtype_{p.name}"
            rules.append(
                Rule(INVALID, "output_dtype", (p.name, *dtype.params), dtype.text, id=rule_id, derive=plain_rule(dtype))
            )
    return rules


# `…与x不一致，或out在dim对应维度上…`: the alternatives of an error row
_ALTERNATIVES = re.compile(r"\s*[，,；;]?\s*(?:或者|或)\s*|[；;]")


def _held_by_outputs(rules: list[Rule], params: list[Param], outputs: list[Rule]) -> list[Rule]:
    """The rows, each unchecked prose shape row about one output against what its checked rule
    reads (aclnnSituGlu: `out的维度数与x不一致，或out在dim对应维度上的大小不等于x的一半`, out's rule
    `shape在入参dim对应的维度上为x的一半，其他维度与x一致`) checked as that rule: every call such a row
    rejects gives the output another shape than the rule. Each alternative must name the output,
    and the rule hold always (no case, no condition)."""
    by_name = {p.name: p for p in params}
    checked = {r.params[0]: r for r in outputs if r.kind == "output_shape" and r.host}
    found = []
    for r in rules:
        if not r.host and (read := _read_from(r, checked.values())):
            found.append(replace(r, kind="output_shape", params=read.params, derive=read.derive, host=True, reason=""))
            continue
        if held_when := _held_when_flag(r, checked, by_name):
            found.extend(held_when)
            continue
        written = [n for n in r.params if by_name[n].direction in ("out", "inout")]
        held = checked.get(written[0]) if len(written) == 1 else None
        shape = by_name[written[0]].shape_rule if held else None
        if (
            held is None
            or shape is None
            or r.kind != "shape"
            or r.reason != NOT_ON_HOST["shape"]
            or shape.when
            or shape.kind in ("one_of", "reduce", "reduction")
            or not set(r.params) <= _names_read(shape) | {held.params[0]}
            or not all(_names(part, held.params[0]) for part in _ALTERNATIVES.split(r.condition) if part)
        ):
            found.append(r)
            continue
        found.append(replace(r, kind="output_shape", params=held.params, derive=held.derive, host=True, reason=""))
    return found


# `当inputG为true时，sumDy或sumDyXmu的size与input的channel轴不一致` (aclnnBatchNormReduceBackward)
_WHEN_FLAG = re.compile(r"^当(?P<flag>[A-Za-z_][A-Za-z0-9_]*)为(?:true|True|TRUE)时[，,]")


def _held_when_flag(row: Rule, checked: dict[str, Rule], by_name: dict[str, Param]) -> list[Rule]:
    """A prose shape row on outputs written when a bool is true, each output's checked rule
    holding under that same bool and reading what else the row names: the row checks those
    rules, with its status, one rule per output (the first keeps the row's id)."""
    head = _WHEN_FLAG.match(row.condition)
    if row.host or row.kind != "shape" or row.reason != NOT_ON_HOST["shape"] or head is None:
        return []
    flag = head["flag"]
    written = [n for n in row.params if by_name[n].direction in ("out", "inout")]
    if flag not in by_name or by_name[flag].kind != "bool" or not written:
        return []
    rules = [checked.get(n) for n in written]
    when = [flag, "", "true"]
    if any(r is None or not r.derive or r.derive.get("when") != when for r in rules):
        return []
    reads = {flag, *written}.union(*(_names_read(by_name[n].shape_rule) for n in written))
    if not set(row.params) <= reads:
        return []
    return [
        replace(row, id=row.id if i == 0 else f"{row.id}_{r.params[0]}", kind="output_shape", params=r.params,
                derive=r.derive, host=True, reason="")
        for i, r in enumerate(rules) if r is not None
    ]  # fmt: skip


def _read_from(row: Rule, outputs: Iterable[Rule]) -> Rule | None:
    """The checked output rule read from the same-shape error row itself, relating the same
    tensors (MoeInitRoutingQuant's expandedExpertIdxOut, from `expandedRowIdxOut和
    expandedExpertIdxOut的shape不相等`): the row checks it, with its own status."""
    if row.kind != "same_shape":
        return None
    return next((o for o in outputs if o.condition == row.condition and set(o.params) == set(row.params)), None)


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def _names_read(shape: ShapeRule | None) -> set[str]:
    """The parameters a shape rule reads: a rule that reads the value its row's condition names
    states how the shape follows from it (`shape在axis轴上为x对应轴的值除以blocksize向上取整`)."""
    if shape is None:
        return set()
    dims = ast.parse("[" + ", ".join(shape.dims) + "]", mode="eval")  # `*x.shape[:-1]` splices
    return {
        *shape.params,
        *(s.param for s in shape.symbols),
        *(n.id for n in ast.walk(dims) if isinstance(n, ast.Name)),
    }


def _reads(shape: ShapeRule, names: set[str]) -> bool:
    """Every parameter the rule reads is one the wrapper passes."""
    return set(shape.params) <= names and all(s.param in names for s in shape.symbols)


def plain_rule(rule: ShapeRule | DtypeRule) -> dict:
    """The rule as generated code holds it (what it reads, not where it was read)."""
    located = dict.fromkeys(("text", "line", "reason"), True)
    return rule.model_dump(mode="json", exclude={**located, "alternatives": {"__all__": located}})


def _checkable(p: Param, kind: str) -> bool:
    if kind in ("dtypes", "formats", "rank"):
        return p.kind in TENSOR_KINDS
    if kind == "axis":
        return p.kind in ("int", "int_array") and len(p.of_kind("axis")[0].params) == 1
    if kind == "enum":  # layouts and modes are strings; an aclScalar holds a value too; `目前仅支持false`
        return p.kind in ("int", "float", "string", "scalar", "bool")
    if kind == "length":
        return p.kind in ("int_array", "float_array", "bool_array", "string")
    if kind in ("multiple", "ratio"):
        return p.kind == "int"
    return p.kind in ("int", "float", "scalar", "int_array", "float_array")  # a range bounds each element


def _product_checkable(p: Param, kind: str) -> bool:
    """Whether a per-product remark's rule of `kind` reads `p` (a bool's one value included)."""
    if kind == "same_dtype":
        return p.kind in TENSOR_KINDS
    if kind == "length" and p.kind == "tensor_list":  # `参数x支持包含的最大Tensor个数为256`
        return True
    return p.kind == "bool" if kind == "enum" and p.kind == "bool" else _checkable(p, kind)


def validator_spec(
    param_specs: tuple[dict, ...], rules: list[Rule], function: str, unsupported_products: tuple[str, ...] = ()
) -> validator.Spec:
    """The rules as the generated validator holds them."""
    return validator.Spec(
        function=function + "GetWorkspaceSize",
        params=tuple(validator.ParamSpec(**p) for p in param_specs),
        rules=tuple(rules),
        unsupported_products=unsupported_products,
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
    """The error cases of one rule: the valid call with one argument changed to break it, and
    others made to follow it where that keeps every other rule met (an output reshaped by its
    rule, a peer given the changed dtype): the case breaks that rule alone, or is skipped
    saying which rules each change tried breaks too."""
    base = rule.id

    def skipped(reason: str) -> list[Case]:
        return [Case(id=base, args=valid.args, code=rule.code, condition=rule.condition, rule=rule.id, skip=reason)]

    if not rule.host:
        return skipped(rule.reason)
    if valid.skip:
        return skipped("no valid call to start from")
    if rule.kind == "product":  # the valid call on a product the document says it does not run on
        unsupported = spec.unsupported_products[0]
        return [Case(base, valid.args, rule.code, rule.condition, rule.id, library=False, product=unsupported)]
    by_name = {p.name: p for p in params}
    start = _filled(valid.args, rule, by_name, spec) if _fills(rule, valid.args) else valid.args
    made = _MUTATIONS[rule.kind](start, rule, by_name)
    if not made:
        return skipped(_unbreakable(rule, start, by_name))
    # a per-product remark's rule: its case runs on the first of its products (which product a
    # library runs on is its own, so no library case)
    product = rule.products[0] if rule.products else None
    tried = [(suffix, *_alone(spec, args, rule, valid.args, product)) for suffix, args in made]
    if rule.kind not in _CASE_PER_PARAM:  # one case: the first change that breaks the rule alone
        breaking = (t for t in tried if _breaks(spec, t[1], rule, product))
        tried = [next((t for t in tried if not t[2]), next(breaking, tried[0]))]
    out = []
    for suffix, args, others in tried:
        case_id = f"{base}_{suffix}" if len(tried) > 1 else base
        skip = others if others.startswith("the changed") else others and f"no change tried breaks it alone: {others}"
        library = not _uses_desc(args) and product is None
        case = Case(case_id, args, rule.code, rule.condition, rule.id, library=library, skip=skip, product=product)
        out.append(case)
    return out


# Rules with a case for each parameter they name (each null pointer is its own error).
_CASE_PER_PARAM = ("not_null",)


_REPAIR_ROUNDS = 4


def _alone(spec: validator.Spec, args: Args, rule: Rule, valid: Args, product: str | None = None) -> tuple[Args, str]:
    """The changed call with the other rules it breaks mended where an argument it did not
    change can follow the changed one; and, when some rule still joins `rule`, what breaks."""
    changed = {n for n in args if args[n] != valid.get(n)}
    for _ in range(_REPAIR_ROUNDS):
        broken = validator.violations(spec, host_values(args), product)
        others = [(r, problem) for r, problem in broken if r.id != rule.id]
        if len(others) == len(broken) or not others:
            break
        mended = args
        for other, _problem in others:  # a mend that would make the rule hold again is not taken
            attempt = _mend(mended, other, changed, spec)
            if attempt != mended and _breaks(spec, attempt, rule, product):
                mended = attempt
        if mended == args:
            break
        args = mended
    if not _breaks(spec, args, rule, product):
        return args, "the changed argument still meets the rule"
    return args, "; ".join(f"{r.id} too ({problem})" for r, problem in also_broken(spec, args, rule, product))


def also_broken(spec: validator.Spec, args: Args, rule: Rule, product: str | None = None) -> list[tuple[Rule, str]]:
    """The rules other than `rule` the call breaks, less those checked after it that say more
    than it does: a broadcast-result rule over its tensors cannot hold while `rule`'s broadcast
    fails (`gradOutput和self的shape无法broadcast`, then `broadcast后的shape与gradInput不一致`),
    so the case still tests `rule`, which the validator reports first."""
    broken = validator.violations(spec, host_values(args), product)
    ids = [r.id for r, _ in broken]
    first = ids.index(rule.id) if rule.id in ids else len(ids)
    return [(r, problem) for i, (r, problem) in enumerate(broken) if i < first or (i > first and not _entails(r, rule))]


def _entails(stronger: Rule, rule: Rule) -> bool:
    return stronger.kind == "broadcast_result" and rule.kind == "broadcast" and set(rule.params) <= set(stronger.params)


def _breaks(spec: validator.Spec, args: Args, rule: Rule, product: str | None = None) -> bool:
    return any(r.id == rule.id for r, _ in validator.violations(spec, host_values(args), product))


_FOLLOWED = {"same_shape": "shape", "broadcast": "shape", "same_dtype": "dtype", "same_format": "fmt"}


def _mend(args: Args, rule: Rule, changed: set[str], spec: validator.Spec) -> Args:
    """`args` with the tensors of `rule` the case did not change made to meet it: an output
    shaped or typed by its rule, relation peers following a changed member."""
    values = host_values(args)
    if rule.kind in ("output_shape", "output_dtype") and rule.derive is not None:
        out = rule.params[0]
        if out in changed or not isinstance(values.get(out), TensorDesc):
            return args
        facts = {n: v if isinstance(v, TensorDesc) else None for n, v in values.items()}
        if rule.kind == "output_shape":
            shape = output_shape(rule.derive, {n: d.shape if d else None for n, d in facts.items()}, values)
            return _change(args, out, shape=shape) if shape is not None else args
        dtype = output_dtype(rule.derive, {n: d.dtype if d else None for n, d in facts.items()}, values)
        return _change(args, out, dtype=dtype) if dtype is not None else args
    members = [n for n in rule.params if _tensor(args, n)]
    leaders = [n for n in members if n in changed] or members[:1]
    if rule.kind == "broadcast_result":
        return _mend_broadcast_result(args, members, leaders[0], changed, spec)
    if rule.kind not in _FOLLOWED or not leaders:
        return args
    leader = _tensor(args, leaders[0])
    attr = _FOLLOWED[rule.kind]
    value = getattr(leader, "format" if attr == "fmt" else attr)
    for n in members:
        if n not in changed and n != leaders[0]:
            args = _change(args, n, **{attr: value})
    return args


def _mend_broadcast_result(
    args: Args, members: list[str], leader: str, changed: set[str], spec: validator.Spec
) -> Args:
    """Outputs not changed take the inputs' broadcast; else the inputs not changed take the leader's shape."""
    outputs = [n for n in members if spec.param(n).direction == "out"]
    inputs = [n for n in members if n not in outputs]
    shapes = [t.shape for n in inputs if (t := _tensor(args, n))]
    if outputs and not set(outputs) & changed and shapes:
        try:
            shape = validator.broadcast_shapes(*shapes)
        except ValueError:
            return args
        for n in outputs:
            args = _change(args, n, shape=shape)
        return args
    shape = _tensor(args, leader).shape  # type: ignore[union-attr]
    for n in members:
        if n not in changed and n != leader:
            args = _change(args, n, shape=shape)
    return args


def _fills(rule: Rule, args: Args) -> bool:
    """Whether a case for `rule` starts from the valid call with its null optionals given
    (`_filled`): not for a null check, nor for an output dtype given case by case that the valid
    call already settles (the nulls are conditions of its case: QuantMatmulV5's T-CG row holds
    only while x1Scale is null)."""
    if rule.kind == "not_null":
        return False
    if rule.kind != "output_dtype" or rule.derive is None or rule.derive.get("kind") != "cases":
        return True
    values = host_values(args)
    dtypes = {n: v.dtype if isinstance(v, TensorDesc) else None for n, v in values.items()}
    return output_dtype(rule.derive, dtypes, values) is None


def _filled(args: Args, rule: Rule, params: dict[str, Param], spec: validator.Spec) -> Args:
    """The valid call with the optional tensors `rule` names that it leaves null given a
    tensor (a dtype and format they allow, a peer's shape or one of a rank they allow), so
    that a rule about them can be broken."""
    for name in rule.params:
        p = params.get(name)
        if p is None or p.kind != "tensor" or not p.optional or not isinstance(args.get(name), NullArg):
            continue
        dtype = "FLOAT" if not p.dtypes or "FLOAT" in p.dtypes else p.dtypes[0]
        fmt = "ND" if not p.formats or "ND" in p.formats else p.formats[0]
        args = _replace(args, name, _case_tensor(_fill_shape(args, p, spec), dtype, fmt))
    return args


def _fill_shape(args: Args, p: Param, spec: validator.Spec) -> tuple[int, ...]:
    """The shape the output's rule gives, else a shape-related peer's shape, else small
    dimensions of the least rank allowed."""
    related = ("same_shape", "broadcast", "broadcast_result")
    for r in spec.rules:
        if r.host and r.kind == "output_shape" and r.params[0] == p.name and r.derive is not None:
            values = host_values(args)
            shapes = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}
            if (shape := output_shape(r.derive, shapes, values)) is not None:
                return shape
    for r in spec.rules:
        if r.host and r.kind in related and p.name in r.params:
            peer = next((t for n in r.params if n != p.name and (t := _tensor(args, n))), None)
            if peer is not None:
                return peer.shape
    low = max(p.rank.min, 1) if p.rank else 1
    return (2,) * low


def _unbreakable(rule: Rule, args: Args, params: dict[str, Param]) -> str:
    """Why no change breaks `rule`, from what its parameters hold in the valid call."""
    held = "; ".join(f"{n} {_holding(args.get(n), params[n])}" for n in rule.params if n in params)
    return f"no change of a {rule.kind} kind breaks it: {held or 'the rule names no parameter'}"


def _holding(arg: CaseArg | None, param: Param) -> str:
    """What a parameter holds, as far as the rules of a tensor can be broken on it."""
    if arg is None or isinstance(arg, NullArg):
        return "is null" + (" and optional (no case fills it)" if param.optional else "")
    if isinstance(arg, ValueArg):
        return f"is the value {arg.value!r}"
    rank = f"{param.rank.min}..{param.rank.max if param.rank.max is not None else ''}" if param.rank else "any"
    dtypes = ", ".join(param.dtypes) or "any"
    formats = ", ".join(param.formats) or "any"
    allowed = f"dtypes {dtypes}; formats {formats}; rank {rank}"
    allowed += "; empty tensors" if param.empty_tensor else ""
    allowed += "; non-contiguous tensors" if param.non_contiguous else ""
    return f"is a tensor of shape {_tensor_shape(arg)} (allowed: {allowed})"


def _tensor_shape(arg: CaseArg) -> tuple[int, ...] | None:
    first = _first_tensor(arg)
    return first.shape if first else None


def _uses_desc(args: Args) -> bool:
    return any(isinstance(a, DescTensor) for a in args.values())


def _replace(args: Args, name: str, value: CaseArg) -> Args:
    out = dict(args)
    out[name] = value
    return out


def _tensor(args: Args, name: str) -> TensorArg | None:
    """The tensor an argument holds: itself, or the first of a list (its items change together)."""
    return _first_tensor(args.get(name))


def _first_tensor(value: CaseArg | None) -> TensorArg | None:
    if isinstance(value, TensorListArg):
        return value.items[0] if value.items else None
    return value if isinstance(value, ArrayTensor | DescTensor) else None


def _change(args: Args, name: str, **changes) -> Args:
    """The arguments with one tensor (or every tensor of a list) changed (`_changed`)."""
    value = args[name]
    if isinstance(value, TensorListArg):
        return _replace(args, name, TensorListArg(tuple(_changed(item, **changes) for item in value.items)))
    assert isinstance(value, ArrayTensor | DescTensor)
    return _replace(args, name, _changed(value, **changes))


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


def _all_null(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """Every pointer of a group that must not all be null, null."""
    nulled = {**args, **dict.fromkeys(rule.params, NULL)}
    return [(rule.params[0], nulled)] if rule.params and nulled != args else []


def _masked_null(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The pointer null with the array's element that asks for it set true, with the bool
    that asks for it true, or with the other pointer that asks for it given."""
    pointer, flags = rule.params
    if params[flags].kind == "bool":
        return [(pointer, _replace(_replace(args, flags, ValueArg(True)), pointer, NULL))]
    if not rule.values:
        other_given = not isinstance(args.get(flags, NULL), NullArg)
        return [(pointer, _replace(args, pointer, NULL))] if other_given else []
    index = int(rule.values[0])  # type: ignore[call-overload]
    given = args.get(flags)
    if not isinstance(given, ValueArg) or not isinstance(given.value, tuple) or index >= len(given.value):
        return []
    asked = ValueArg(tuple(True if i == index else v for i, v in enumerate(given.value)))
    return [(pointer, _replace(_replace(args, flags, asked), pointer, NULL))]


def _given(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """A pointer the document says must be null, given: a one-element tensor or array."""
    out = []
    for name in rule.params:
        p = params[name]
        if p.kind == "tensor":
            dtype = next(iter(p.dtypes), "FLOAT")
            out.append((name, _replace(args, name, _case_tensor((1,), dtype, next(iter(p.formats), "ND")))))
        elif p.kind in _ONE_ELEMENT:
            out.append((name, _replace(args, name, ValueArg(_ONE_ELEMENT[p.kind]))))
    return out


_ONE_ELEMENT: dict[str, tuple] = {"int_array": (1,), "float_array": (1.0,), "bool_array": (True,)}


def _bad_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """Each tensor the rule names in each of a few dtypes it does not allow."""
    out = []
    for name in rule.params:
        allowed = params[name].dtypes
        if _tensor(args, name) and allowed:
            others = [d for d in (*_OTHER_DTYPES, *_RARE_DTYPES) if d not in allowed][:3]
            out += [(name, _change(args, name, dtype=other)) for other in others]
    return out


def _bad_format(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    out = []
    for name in rule.params:
        allowed = params[name].formats
        # ND-family formats pass an ND rule, ND passes a private-layout one: pick what neither covers
        family = "ND" in allowed or any(f in validator.ND_FAMILY for f in allowed)
        candidates = ("NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z") if family else ("NCHW", "NHWC", "NCL")
        if _tensor(args, name) and allowed:
            out += [(name, _change(args, name, fmt=other)) for other in candidates if other not in allowed][:2]
    return out


def _bad_rank(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """One dimension too many (or too few), or a rank a listed set skips, given to every tensor the rule names that has
    the same shape, so that their shapes still agree with each other."""
    out = []
    for name in rule.params:
        tensor = _tensor(args, name)
        rank = params[name].rank
        high = rule.max if rule.max is not None else (rank.max if rank else None)
        low = rank.min if rank else 0
        shapes = ([(1,) * (high + 1)] if high is not None else []) + ([(2,) * (low - 1)] if low > 0 else [])
        gaps = [r for r in range(low, high + 1) if r not in rank.values] if rank and rank.values and high else []
        shapes += [(2,) * gaps[0]] if gaps else []  # `1、3`: the rank between them too
        for shape in shapes if tensor else []:
            changed = dict(args)
            for peer in rule.params:
                if (peer_tensor := _tensor(changed, peer)) and peer_tensor.shape == tensor.shape:  # type: ignore[union-attr]
                    changed = _change(changed, peer, shape=shape)
            out.append((name, changed))
    return out


def _other_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that neither equals nor broadcasts with `shape`."""
    if not shape:
        return (3,)
    last = shape[-1]
    return shape[:-1] + (last + 1 if last != 1 else 3,)


def _bad_shape(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """One tensor the relation names given a shape that breaks it: the last named first (for
    a broadcast-result rule, usually the output), then each other one."""
    tensors = [n for n in rule.params if _tensor(args, n)]
    if len(tensors) < 2:
        return []
    outputs = [n for n in tensors if params[n].direction in ("out", "inout")]
    first = outputs[-1] if rule.kind == "broadcast_result" and outputs else tensors[-1]
    order = [first, *(n for n in reversed(tensors) if n != first)]
    return [(name, _change(args, name, shape=_breaking_shape(args, rule, name, tensors, outputs))) for name in order]


def _breaking_shape(args: Args, rule: Rule, name: str, tensors: list[str], outputs: list[str]) -> tuple[int, ...]:
    tensor, reference = _tensor(args, name), _tensor(args, next(n for n in tensors if n != name))
    assert tensor is not None and reference is not None
    if rule.kind == "broadcast_result" and name in outputs:
        # Still broadcastable with the inputs, but not their broadcast shape.
        current = tensor.shape
        shape = current[:-1] + (1,) if current and current[-1] != 1 else (2,) + current
    elif max(reference.shape or (1,)) > 1:
        shape = _other_shape(reference.shape)
    else:
        shape = (2,) * max(len(reference.shape), 1)
    return shape + (2,) if tensor.shape == shape else shape


def _bad_broadcast_to(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The first source one dimension larger than the target: broadcastable both together,
    but not to the target's shape."""
    *sources, target = rule.params
    goal = _tensor(args, target)
    name = next((n for n in sources if _tensor(args, n)), None)
    if goal is None or name is None:
        return []
    tensor = _tensor(args, name)
    assert tensor is not None
    return [(name, _replace(args, name, _changed(tensor, shape=(2, *goal.shape))))]


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
    return [(name, _change(args, name, dtype=choices[0]))]


def _bad_list_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The last tensor of the first list of two or more in another dtype than the first."""
    for name in rule.params:
        value = args.get(name)
        if isinstance(value, TensorListArg) and len(value.items) >= 2:
            first = value.items[0]
            choices = [d for d in (*params[name].dtypes, *_OTHER_DTYPES) if d != first.dtype]
            items = (*value.items[:-1], _changed(value.items[-1], dtype=choices[0]))
            return [(name, _replace(args, name, TensorListArg(items)))]
    return []


def _bad_same_rank(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The last tensor named one dimension more than the first (one fewer at its greatest rank)."""
    if (found := _first_and_last(args, rule)) is None:
        return []
    name, _, first = found
    rank = params[name].rank
    more = rank is None or rank.max is None or len(first.shape) < rank.max
    shape = (*first.shape, 1) if more or not first.shape else first.shape[:-1]
    return [(name, _change(args, name, shape=shape))]


def _bad_same_format(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    if (found := _first_and_last(args, rule)) is None:
        return []
    name, tensor, first = found
    other = next(f for f in (*params[name].formats, "NCHW", "ND") if f != first.format)
    return [(name, _change(args, name, fmt=other))]


def _bad_enum(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        values = list(rule.values) or [v for c in _general(params[name], "enum") for v in c.values]
        if params[name].kind == "bool":  # `目前仅支持false`: the other value, when one is left out
            left_out = [v for v in (False, True) if v not in values and all(isinstance(x, bool) for x in values)]
            return (
                [(name, _replace(args, name, ValueArg(left_out[0])))] if left_out and _holds_value(args, name) else []
            )
        allowed = [v for v in values if isinstance(v, int)]
        if allowed and _holds_value(args, name):
            outside = max(allowed) + 1
            current = args[name].host_value()
            if isinstance(current, tuple):  # an array: each element is one of the values
                return [(name, _replace(args, name, ValueArg((outside,) * max(len(current), 1))))]
            return [(name, _replace(args, name, ValueArg(outside)))]
        union = [v for c in _general(params[name], "enum") for v in c.values]
        if rule.when and (other := [v for v in union if v not in values]) and _holds_value(args, name):
            return [(name, _replace(args, name, ValueArg(other[0])))]  # a value another case allows
        words = [v for v in values if isinstance(v, str)]
        if words and params[name].kind == "string" and _holds_value(args, name):  # a layout, a mode
            return [(name, _replace(args, name, ValueArg("_".join(words) + "_unsupported")))]
    return []


def _bad_range(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        ranges = _general(params[name], "range")
        if not (rule.bounds or ranges) or not _holds_value(args, name):
            continue
        low, high, low_in, high_in = rule.bounds or (
            ranges[0].min,
            ranges[0].max,
            ranges[0].min_inclusive,
            ranges[0].max_inclusive,
        )
        integral = params[name].kind in ("int", "int_array")
        step = 1 if integral else 0.5
        if low is not None:
            value = low - (step if low_in else 0)
        elif high is not None:
            value = high + (step if high_in else 0)
        else:
            continue
        outside = int(value) if integral else float(value)
        current = args[name].host_value()
        if isinstance(current, tuple):  # an array: a range bounds each element
            return [(name, _replace(args, name, ValueArg((outside,) * max(len(current), 1))))]
        return [(name, _replace(args, name, ValueArg(outside)))]
    return []


def _bad_axis(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    value_name, tensor_name = rule.params[0], rule.params[1]
    tensor = _tensor(args, tensor_name)
    if tensor is None or not _holds_value(args, value_name):
        return []
    beyond = max(len(tensor.shape), 1)
    value = (beyond,) if params[value_name].kind == "int_array" else beyond
    return [(value_name, _replace(args, value_name, ValueArg(value)))]


def _bad_multiple(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The value plus one: no longer a multiple (a multiple of 2 or more plus 1 never is)."""
    name = rule.params[0]
    value = args.get(name)
    if not isinstance(value, ValueArg) or isinstance(value.value, bool) or not isinstance(value.value, int):
        return []
    return [(name, _replace(args, name, ValueArg(value.value + 1)))]


def _bad_ratio(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The numerator the denominator times one more than the bound: still a multiple of it (a
    divisibility rule on the two stays met), the ratio over the bound. None while the
    denominator is 0 or not given (the document's "equal to the numerator")."""
    numerator, denominator = rule.params[0], rule.params[1]
    value = args.get(denominator)
    if not isinstance(value, ValueArg) or isinstance(value.value, bool) or not isinstance(value.value, int):
        return []
    high = rule.bounds[1] if rule.bounds else None
    if value.value <= 0 or high is None:
        return []
    times = int(high) + 1 if rule.bounds and rule.bounds[3] else max(int(high), 1)
    return [(numerator, _replace(args, numerator, ValueArg(value.value * times)))]


def _bad_length(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The array (or string) one longer than the longest length allowed; one shorter than the
    shortest where only a least length is stated (`normalizedShape维度小于1维`)."""
    name = rule.params[0]
    current = args[name].host_value() if _holds_value(args, name) else None
    if not isinstance(current, tuple | str):
        return []
    if not rule.values and rule.bounds and rule.bounds[1] is None and (rule.bounds[0] or 0) >= 1:
        return [(name, _replace(args, name, ValueArg(current[: int(rule.bounds[0] or 0) - 1])))]
    lengths = [int(str(v)) for v in rule.values] or [int(rule.bounds[1] or 0) if rule.bounds else 0]
    longest = max(lengths)
    if isinstance(current, str):
        return [(name, _replace(args, name, ValueArg("x" * (longest + 1))))]
    filler = current[0] if current else 1
    return [(name, _replace(args, name, ValueArg((filler,) * (longest + 1))))]


def _bad_rank_at_least(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The array one element longer than the tensor has dimensions."""
    tensor, name = _tensor(args, rule.params[0]), rule.params[1]
    current = args[name].host_value() if _holds_value(args, name) else None
    if tensor is None or not isinstance(current, tuple):
        return []
    filler = current[-1] if current else 1
    longer = (*current, *(filler,) * (len(tensor.shape) + 1 - len(current)))
    return [(name, _replace(args, name, ValueArg(longer)))]


def _bad_array_shape(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensor with its first dimension one larger than the array says."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None or not tensor.shape:
        return []
    return [(name, _change(args, name, shape=(tensor.shape[0] + 1, *tensor.shape[1:])))]


def _bad_dim_multiple(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensor with its last dimension (or the one the dim value names) plus one."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None or not tensor.shape:
        return []
    index = -1
    if len(rule.params) > 1:
        dim = args.get(rule.params[1])
        value = dim.host_value() if isinstance(dim, ValueArg) else None
        if not isinstance(value, int) or isinstance(value, bool) or not -len(tensor.shape) <= value < len(tensor.shape):
            return []
        index = value % len(tensor.shape)
    return _one_larger(args, name, tensor, index)


def _bad_dim_equal(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensor with its first compared dimension one larger (a one-dimensional tensor one
    element longer, where its element count is compared)."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    mine = str(rule.values[0]).split(":")[0] if rule.values else ""
    if tensor is None or not tensor.shape or mine == "numel" and len(tensor.shape) != 1:
        return []
    index = 0 if mine == "numel" else int(mine)
    return _one_larger(args, name, tensor, index) if -len(tensor.shape) <= index < len(tensor.shape) else []


def _one_larger(args: Args, name: str, tensor: TensorArg, index: int) -> Mutation:
    """The arguments with the tensor's dimension `index` one larger."""
    shape = list(tensor.shape)
    shape[index] += 1
    return [(name, _replace(args, name, _changed(tensor, shape=tuple(shape))))]


def _bad_numel_at_least(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensors of the first parameter with fewer elements than the second's: each dimension
    1 (or the first 0 where the other holds one element), at their rank."""
    more, fewer = _tensor(args, rule.params[0]), _tensor(args, rule.params[1])
    if more is None or fewer is None or math.prod(fewer.shape) < 1 or not (more.shape or math.prod(fewer.shape) > 1):
        return []
    shape = (1,) * len(more.shape) if math.prod(fewer.shape) > 1 else (0, *(1,) * (len(more.shape) - 1))
    return [(rule.params[0], _change(args, rule.params[0], shape=shape))]


def _bad_min_rank(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensor one dimension short of the least rank (its last dimensions kept)."""
    name, low = rule.params[0], int(str(rule.values[0]))
    tensor = _tensor(args, name)
    if tensor is None or low < 1:
        return []
    shape = tuple(tensor.shape[len(tensor.shape) - low + 1 :]) if low > 1 else ()
    return [(name, _change(args, name, shape=shape))]


def _bad_numel(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """A tensor (each of a list) with one element more than stated, as a 1-d tensor."""
    name = next((n for n in rule.params if _tensor(args, n)), "")
    return [(name, _change(args, name, shape=(int(str(rule.values[0])) + 1,)))] if name else []


def _bad_last_dim(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The tensor with its last dimension one larger than stated."""
    name = rule.params[0]
    tensor = args.get(name)
    if not isinstance(tensor, ArrayTensor | DescTensor) or not tensor.shape:
        return []
    return [(name, _change(args, name, shape=(*tensor.shape[:-1], int(str(rule.values[0])) + 1)))]


def _bad_empty(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        tensor = _tensor(args, name)
        if tensor and tensor.shape and params[name].empty_tensor is not True:
            return [(name, _change(args, name, shape=(0,) + tuple(tensor.shape[1:])))]
    return []


def _bad_contiguity(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """A tensor read with every stride doubled (every other element): not contiguous."""
    for name in rule.params:
        tensor = _tensor(args, name)
        if tensor and params[name].non_contiguous is not True and any(d > 1 for d in tensor.shape):
            strides = tuple(2 * s for s in contiguous_strides(tensor.shape))
            return [(name, _change(args, name, strides=strides))]
    return []


def _bad_output_shape(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The output with its first dimension one larger (a 0-d output gains a dimension), or
    with a leading dimension of 1."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None:
        return []
    shape = (tensor.shape[0] + 1, *tensor.shape[1:]) if tensor.shape else (2,)
    # then one more leading dimension of 1: still broadcasting with any peer, another shape all the same
    return [(name, _change(args, name, shape=shape)), (name, _change(args, name, shape=(1, *tensor.shape)))]


def _bad_output_dtype(args: Args, rule: Rule, params: dict[str, Param]) -> Mutation:
    """The output in another dtype it allows, else in one it does not."""
    name = rule.params[0]
    tensor = _tensor(args, name)
    if tensor is None:
        return []
    choices = [d for d in (*params[name].dtypes, *_OTHER_DTYPES) if d != tensor.dtype]
    return [(name, _change(args, name, dtype=choices[0]))]


_MUTATIONS = {
    "not_null": _null,
    "not_all_null": _all_null,
    "not_null_when": _masked_null,
    "null": _given,
    "dtypes": _bad_dtype,
    "formats": _bad_format,
    "rank": _bad_rank,
    "same_shape": _bad_shape,
    "broadcast": _bad_shape,
    "broadcast_result": _bad_shape,
    "broadcast_to": _bad_broadcast_to,
    "same_dtype": _bad_same_dtype,
    "list_dtype": _bad_list_dtype,
    "same_rank": _bad_same_rank,
    "rank_at_least": _bad_rank_at_least,
    "array_shape": _bad_array_shape,
    "same_format": _bad_same_format,
    "enum": _bad_enum,
    "range": _bad_range,
    "axis": _bad_axis,
    "multiple": _bad_multiple,
    "ratio": _bad_ratio,
    "length": _bad_length,
    "dim_multiple": _bad_dim_multiple,
    "dim_equal": _bad_dim_equal,
    "numel_at_least": _bad_numel_at_least,
    "min_rank": _bad_min_rank,
    "numel": _bad_numel,
    "last_dim": _bad_last_dim,
    "empty_tensor": _bad_empty,
    "non_contiguous": _bad_contiguity,
    "output_shape": _bad_output_shape,
    "output_dtype": _bad_output_dtype,
}
