"""Shape statements of the parameter table read as rules of their own: a dimension that is a
multiple of a number, the last one (`最后一维必须为偶数`) or the one a dim value names
(`shape必须在入参dim对应的维度上为偶数`), and a tensor's element count against another's (`shape size
大于等于入参x的shape size`); such a clause led by a situation in its sentence (`如果dstType为3，shape的
最后一维需要能被8整除`) stays named."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.codegen.statements import account
from specgen.model import Constraint, Param
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
    shape的最后一维需要能被2整除。`: the clause alone reads as a rule, its sentence does not (the
    statement keeps its situation, or is the clause cut from it)."""
    fn = _function(corpus, "aclnnAscendQuant")
    for text in ("shape的最后一维需要能被8整除", "shape的最后一维需要能被2整除"):
        statements = [s for s in fn.cases.statements if s.param == "x" and s.text.endswith(text)]
        assert statements and not any(s.enforced for s in statements)
    assert not [r for r in fn.cases.rules if r.kind == "dim_multiple" and r.host]


def test_an_output_list_holds_at_least_the_elements_of_the_input_list(corpus):
    """aclnnForeachAbs out, l.100: `…shape size大于等于入参`x`的shape size。`, under the status of the
    row `561002 | x与out的shape不满足约束` (l.164); the sample's GetShapeSize is the product of the
    dimensions."""
    fn = _function(corpus, "aclnnForeachAbs")
    statement, rule = _statement(fn, "out", "shape size大于等于入参x的shape size")
    assert statement.enforced and (rule.kind, rule.params, rule.code) == ("numel_at_least", ("out", "x"), 561002)
    [case] = [c for c in fn.cases.cases if c.rule == rule.id]
    assert not case.skip
    spec = _validate.Spec(
        function=fn.name,
        params=tuple(_validate.ParamSpec(name=n, role="tensor_list", direction="in") for n in ("x", "out")),
        rules=(rule,),
    )
    x = [TensorDesc((2, 3), "FLOAT"), TensorDesc((4,), "FLOAT")]
    assert (
        _validate.first_violation(spec, {"x": x, "out": [TensorDesc((6,), "FLOAT"), TensorDesc((2, 2), "FLOAT")]})
        is None
    )
    fewer = [TensorDesc((2, 3), "FLOAT"), TensorDesc((3,), "FLOAT")]  # the second holds 3 of x's 4
    assert "(tensor 1)" in _validate.first_violation(spec, {"x": x, "out": fewer})[1]


def test_a_least_rank_is_checked_and_a_size_bound_is_no_rank(corpus):
    """aclnnDynamicQuantV2 x, the 维度(shape) column of l.149: `大于1维`; aclnnSwiGluQuant x, l.108:
    `x的最后一维需要为2的倍数，且x的维数必须大于1维`. aclnnSyncBatchNormGatherStats totalSum,
    `第一维必须大于0`, bounds a size, not the rank."""
    fn = _function(corpus, "aclnnDynamicQuantV2")
    statement, rule = _statement(fn, "x", "大于1维")
    assert statement.enforced and (rule.kind, rule.params, rule.values) == ("min_rank", ("x",), (2,))
    spec = _validate.Spec(
        function=fn.name, params=(_validate.ParamSpec(name="x", role="tensor", direction="in"),), rules=(rule,)
    )
    assert _validate.first_violation(spec, {"x": TensorDesc((4, 8), "FLOAT16")}) is None
    assert "at least 2" in _validate.first_violation(spec, {"x": TensorDesc((8,), "FLOAT16")})[1]
    statement, rule = _statement(_function(corpus, "aclnnSwiGluQuant"), "x", "且x的维数必须大于1维")
    assert statement.enforced and (rule.kind, rule.values) == ("min_rank", (2,))
    gather = _function(corpus, "aclnnSyncBatchNormGatherStats")
    assert not [r for r in gather.cases.rules if r.kind == "min_rank"]


@pytest.mark.parametrize(
    ("text", "situated"),
    [
        ('当quantMode = "dynamic"时，shape支持2-8维度', True),  # aclnnAddLayerNormQuant x1, l.164
        ("数据类型为INT4时，最后一维的大小必须能被2整除", True),  # aclnnDynamicQuantV3 yOut, l.190
        ("当维度为4时，各维度依次表示N、D、H、W", False),  # aclnnMaxUnpool3d indices: what the dimensions mean
        ("当self为0维时，dim的取值范围在[-1, 1)", False),  # aclnnIndexFillTensor dim: a value's range
    ],
)
def test_a_shape_requirement_in_a_situation_is_named_as_such(text, situated):
    p = Param(name="x1", c_type="aclTensor *", kind="tensor", direction="in", line=1)
    p = p.model_copy(update={"constraints": (Constraint(kind="text", text=text, line=1),)})
    ([rule], _) = account([p], [])
    assert not rule.host
    assert ("shape requirement stated for one situation" in rule.reason) is situated
    assert rule.reason.startswith("no rule reads") is not situated
