"""Pointers that may be null one at a time but not all together (aclnnApplyTopKTopP l.198:
`传入的logits、out是空指针或p与k同为空指针`): the document's call passes; either one null passes;
both null is refused under the row's 161001."""

from __future__ import annotations

from tests.validator_calls import first_violation, ops_nn, rejected


def test_two_pointers_may_not_both_be_null(corpus):
    fn = ops_nn(corpus, "index/apply_top_k_top_p_with_sorted/docs/aclnnApplyTopKTopP.md")
    [rule] = [r for r in fn.cases.rules if r.kind == "not_all_null"]
    assert rule.host and rule.params == ("p", "k") and rule.code == 161001
    assert rejected(fn) == []
    assert rule.id not in rejected(fn, p=None) and rule.id not in rejected(fn, k=None)
    assert first_violation(fn, p=None, k=None) == (rule.id, 161001)
    [case] = [c for c in fn.cases.cases if c.rule == rule.id]
    assert {n for n, a in dict(case.args).items() if a.__class__.__name__ == "NullArg"} >= {"p", "k"}
