"""How much of the documents' constraint prose and error conditions maps to typed facts.

`specgen parse --stats`: constraint statements by kind, error-rule conditions with at least
one typed check, and the most frequent phrasings left unclassified (numbers and identifiers
folded, so that "x的维度大于8" and "y的维度大于4" count as one phrasing).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from specgen.model import OperatorDoc, SampleCall

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass
class Coverage:
    documents: int = 0
    functions: int = 0
    constraints: Counter[str] = field(default_factory=Counter)
    unclassified: Counter[str] = field(default_factory=Counter)
    conditions: int = 0
    checked: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    unchecked: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    sample_calls: int = 0  # functions the document's own sample calls
    resolved_calls: int = 0  # ... with every argument read
    unresolved: Counter[str] = field(default_factory=Counter)  # why an argument was not read
    output_shapes: Counter[str] = field(default_factory=Counter)  # outputs and in-out tensors by shape rule kind
    output_dtypes: Counter[str] = field(default_factory=Counter)  # ... by dtype rule kind

    @property
    def statements(self) -> int:
        return sum(self.constraints.values())

    @property
    def classified(self) -> int:
        return self.statements - self.constraints["text"]


def phrasing(text: str) -> str:
    """A text with identifiers and numbers folded, for counting similar phrasings."""
    return _NUMBER.sub("N", _IDENT.sub("X", text))[:60]


def coverage(docs: Iterable[OperatorDoc]) -> Coverage:
    cov = Coverage()
    for doc in docs:
        cov.documents += 1
        for fn in doc.functions:
            cov.functions += 1
            _count_call(cov, fn.sample_call)
            for param in fn.params:
                if param.shape_rule is not None and param.dtype_rule is not None:
                    cov.output_shapes[param.shape_rule.kind] += 1
                    cov.output_dtypes[param.dtype_rule.kind] += 1
                for c in param.constraints:
                    cov.constraints[c.kind] += 1
                    if c.kind == "text":
                        _count(cov, cov.unclassified, c.text)
            for rule in fn.errors:
                cov.conditions += 1
                if rule.checks:
                    cov.checked += 1
                    cov.checks.update({c.kind for c in rule.checks})
                else:
                    _count(cov, cov.unchecked, rule.condition)
    return cov


def _count_call(cov: Coverage, call: SampleCall | None) -> None:
    if call is None:
        return
    cov.sample_calls += 1
    cov.resolved_calls += call.resolved
    reasons = {a.unresolved or "not read" for a in call.args if not a.resolved}
    cov.unresolved.update(phrasing(r) for r in reasons)
    for reason in sorted(reasons):  # a set: sorted, so that the example shown does not vary by run
        cov.examples.setdefault(phrasing(reason), reason)


def _count(cov: Coverage, counter: Counter[str], text: str) -> None:
    key = phrasing(text)
    counter[key] += 1
    cov.examples.setdefault(key, text)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def report(cov: Coverage, top: int = 15) -> str:
    lines = [
        f"{cov.documents} documents, {cov.functions} functions",
        "",
        f"the document's own sample calls {cov.sample_calls} functions; every argument read for "
        f"{cov.resolved_calls} ({_percent(cov.resolved_calls, cov.functions)} of all functions)",
        *(f"    {n:5}  {cov.examples[k]}" for k, n in cov.unresolved.most_common(top // 3)),
        "",
        f"constraint statements: {cov.statements}, typed {cov.classified} ({_percent(cov.classified, cov.statements)})",
        "  by kind: " + ", ".join(f"{k} {n}" for k, n in cov.constraints.most_common() if k != "text"),
        f'  unclassified (kind "text"): {cov.constraints["text"]}; most frequent phrasings:',
        *(f"    {n:5}  {cov.examples[k]}" for k, n in cov.unclassified.most_common(top)),
        "",
        _outputs(cov),
        f"error-rule conditions: {cov.conditions}, with a typed check {cov.checked} "
        f"({_percent(cov.checked, cov.conditions)})",
        "  checks by kind: " + ", ".join(f"{k} {n}" for k, n in cov.checks.most_common()),
        f"  without a check: {cov.conditions - cov.checked}; most frequent:",
        *(f"    {n:5}  {cov.examples[k]}" for k, n in cov.unchecked.most_common(top)),
    ]
    return "\n".join(lines) + "\n"


def _outputs(cov: Coverage) -> str:
    total = sum(cov.output_shapes.values())
    shapes = total - cov.output_shapes["not_derivable"]
    dtypes = total - cov.output_dtypes["not_derivable"]
    kinds = ", ".join(f"{k} {n}" for k, n in cov.output_shapes.most_common())
    # `cases` counts as derived, though the cases may leave the dtype to the caller for a call
    dtype_kinds = ", ".join(f"{k} {n}" for k, n in cov.output_dtypes.most_common())
    return (
        f"outputs and in-out tensors: {total}; shape derived {shapes} ({_percent(shapes, total)}), dtype derived "
        f"{dtypes} ({_percent(dtypes, total)})\n  shape rules by kind: {kinds}\n  dtype rules by kind: {dtype_kinds}"
    )


def as_json(cov: Coverage, top: int = 50) -> dict[str, object]:
    return {
        "outputs": {"shape_rules": dict(cov.output_shapes), "dtype_rules": dict(cov.output_dtypes)},
        "documents": cov.documents,
        "functions": cov.functions,
        "sample_calls": {
            "total": cov.sample_calls,
            "resolved": cov.resolved_calls,
            "unresolved": [{"count": n, "example": cov.examples[k]} for k, n in cov.unresolved.most_common(top)],
        },
        "constraints": {
            "total": cov.statements,
            "typed": cov.classified,
            "by_kind": dict(cov.constraints),
            "unclassified": [{"count": n, "example": cov.examples[k]} for k, n in cov.unclassified.most_common(top)],
        },
        "conditions": {
            "total": cov.conditions,
            "checked": cov.checked,
            "by_check": dict(cov.checks),
            "unchecked": [{"count": n, "example": cov.examples[k]} for k, n in cov.unchecked.most_common(top)],
        },
    }
