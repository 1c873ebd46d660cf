"""The `sample-output-rule` rule: the document's own call against its own output rules.

A document states how each output is shaped and typed (`Param.shape_rule`, `dtype_rule`) and
shows a call (`Function.sample_call`). When the call is fully read and the rule, evaluated on
the call's inputs, gives an output another shape or dtype than the call passes, the two
statements of the document contradict each other. Only what the rule settles is compared: a
rule the call's arguments leave open, or a dtype the library may choose ("promote",
"same_set"), is no finding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime._shapes import dtype_allowed, output_dtype, shape_allowed
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.diagnostics import Location
from specgen.model import Function, OperatorDoc, Param
from specgen.review.findings import Finding
from specgen.review.rules import Rule

# Dtype rules an output must meet; "promote" and "same_set" name what is allocated, not a rule.
_ENFORCED_DTYPE_KINDS = ("same", "fixed", "one_of")


@dataclass(frozen=True)
class Disagreement:
    """An output of a call whose shape or dtype is not the one its rule gives."""

    param: str
    what: str  # "shape" or "dtype"
    passed: str  # as the call passes it
    derived: str  # as the rule gives it
    rule_text: str
    rule_line: int


def disagreements(fn: Function, values: Mapping[str, object]) -> list[Disagreement]:
    """The outputs of a call (`values`: arguments by C name, as `call_values` reads them) whose
    shape or dtype differs from what their rule gives for the call's inputs."""
    shapes = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}
    dtypes = {n: v.dtype if isinstance(v, TensorDesc) else None for n, v in values.items()}
    out = []
    for p in fn.params:
        passed = values.get(p.name)
        if p.direction not in ("out", "inout") or not isinstance(passed, TensorDesc):
            continue
        out += _shape_disagreement(p, passed, shapes, values)
        out += _dtype_disagreement(p, passed, dtypes, values)
    return out


def _shape_disagreement(p: Param, passed: TensorDesc, shapes, values) -> list[Disagreement]:
    rule = p.shape_rule
    if rule is None or not rule.derived or rule.kind == "in_place":
        return []
    allowed = shape_allowed(plain_rule(rule), shapes, values, tuple(passed.shape))
    if allowed is None:
        return []
    derived = " or ".join(_shape(s) for s in allowed)
    return [Disagreement(p.name, "shape", _shape(passed.shape), derived, rule.text, rule.line)]


def _dtype_disagreement(p: Param, passed: TensorDesc, dtypes, values) -> list[Disagreement]:
    rule = p.dtype_rule
    if rule is not None and rule.kind in ("given", "cases"):  # an aclDataType argument's value, or by case
        derived = output_dtype(plain_rule(rule), dtypes, values)
        if derived is None or derived == passed.dtype:
            return []
        return [Disagreement(p.name, "dtype", passed.dtype, derived, rule.text, rule.line)]
    if rule is None or rule.kind not in _ENFORCED_DTYPE_KINDS:
        return []
    if dtype_allowed(plain_rule(rule), dtypes, passed.dtype) is not False:
        return []
    derived = output_dtype(plain_rule(rule), dtypes) if rule.kind == "same" else " or ".join(rule.values)
    return [Disagreement(p.name, "dtype", passed.dtype, str(derived), rule.text, rule.line)]


def _shape(shape: Iterable[int]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def sample_output_findings(doc: OperatorDoc) -> Iterable[Finding]:
    """A finding at the sample's call for each output its own rule shapes or types otherwise."""
    for fn in doc.functions:
        call = fn.sample_call
        values = call_values(fn, call) if call is not None else None
        if call is None or values is None:
            continue
        for d in disagreements(fn, values):
            yield Finding(
                Rule.SAMPLE_OUTPUT_RULE,
                Location(doc.source, call.line),
                f"the sample's call passes {d.param} with {d.what} {d.passed}; the document's rule for it "
                f"(line {d.rule_line}: {d.rule_text.strip()!r}) gives {d.derived} for the call's inputs",
                fn.name,
                d.param,
            )
