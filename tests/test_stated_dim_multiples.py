"""A dimension the parameter table makes a multiple of a number is checked: the last one
(`最后一维必须为偶数`) or the one a dim value names (`shape必须在入参dim对应的维度上为偶数`); such a
clause led by a situation in its sentence (`如果dstType为3，shape的最后一维需要能被8整除`) stays named."""

from __future__ import annotations

from pathlib import Path

from specgen.codegen.lower import operator_code
from specgen.parse import parse_paths


def _function(corpus: Path, stem: str):
    [path] = [p for p in (corpus / "docs" / "ops-nn").rglob(f"{stem}.md") if "experimental" not in p.parts]
    [doc] = parse_paths([path])
    return operator_code(doc, doc.source).functions[0]


def _statement(fn, param: str, text: str):
    [s] = [s for s in fn.cases.statements if s.param == param and s.text == text]
    return s, {r.id: r for r in fn.cases.rules}[s.rule]


def test_a_last_dimension_stated_even_is_checked(corpus):
    """aclnnSwigluGroup x, l.108: `不支持空指针，不支持空Tensor。维度必须大于0，最后一维必须为偶数。`"""
    fn = _function(corpus, "aclnnSwigluGroup")
    statement, rule = _statement(fn, "x", "最后一维必须为偶数")
    assert statement.enforced and (rule.kind, rule.params, rule.values) == ("dim_multiple", ("x",), (2,))
    valid_x = dict(fn.cases.valid.args)["x"]
    assert valid_x.shape[-1] % 2 == 0  # the document's own call keeps the rule
    [case] = [c for c in fn.cases.cases if c.rule == rule.id]
    assert not case.skip and dict(case.args)["x"].shape[-1] % 2 == 1


def test_a_dimension_a_dim_value_names_is_checked_on_that_dimension(corpus):
    """aclnnSituGlu x, l.137: `shape必须在入参dim对应的维度上为偶数。`; aclnnGeGlu dim, l.97:
    `dim对应的self的轴必须是偶数` (said of the dim value)."""
    _, rule = _statement(_function(corpus, "aclnnSituGlu"), "x", "shape必须在入参dim对应的维度上为偶数")
    assert rule.host and (rule.kind, rule.params, rule.values) == ("dim_multiple", ("x", "dim"), (2,))
    statement, rule = _statement(_function(corpus, "aclnnGeGlu"), "dim", "dim对应的self的轴必须是偶数")
    assert statement.enforced and rule.params == ("self", "dim")


def test_a_multiple_a_situation_leads_in_its_sentence_stays_named(corpus):
    """aclnnAscendQuant x, l.94: `如果dstType为3，shape的最后一维需要能被8整除；如果dstType为29，
    shape的最后一维需要能被2整除。`: the clause alone reads as a rule, its sentence does not."""
    fn = _function(corpus, "aclnnAscendQuant")
    for text in ("shape的最后一维需要能被8整除", "shape的最后一维需要能被2整除"):
        statements = [s for s in fn.cases.statements if s.param == "x" and s.text == text]
        assert statements and not any(s.enforced for s in statements)
    assert not [r for r in fn.cases.rules if r.kind == "dim_multiple" and r.host]
