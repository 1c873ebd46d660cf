"""Relations of two integer arguments read from the legacy attention documents (issue 37a):
their rules are enforced under 161002, and each generated error case breaks its rule alone."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.parse import parse_file


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("PromptFlashAttentionV2.md", {"multiple", "ratio"}),
        ("FusedInferAttentionScoreV2.md", {"multiple", "ratio"}),
        ("IncreFlashAttention.md", {"ratio"}),
    ],
)
def test_relations_of_two_heads_counts_are_enforced_and_broken_alone(corpus, name, kinds):
    path = corpus / "docs" / "legacy" / name
    doc = parse_file(path)
    fn = next(f for f in operator_code(doc, doc.source).functions if f.function.name.endswith(name[:-3]))
    relations = [r for r in fn.cases.rules if r.params == ("numHeads", "numKeyValueHeads")]
    assert {r.kind for r in relations} == kinds
    assert all(r.host and r.code == 161002 for r in relations)
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.function.name)
    for rule in relations:
        (case,) = [c for c in fn.cases.cases if c.rule == rule.id]
        assert not case.skip
        broken = validator.violations(spec, host_values(case.args))
        assert [r.id for r, _ in broken] == [rule.id]
