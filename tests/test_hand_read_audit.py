"""Findings of a hand-read audit of generated validators, each on the document's own text:
a C value a row calls 可选 is still passed (no null for it), and a check the parameter table
states takes the status of the error row that names it."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.runtime import _validate as validator
from specgen.model import Param
from specgen.parse import build
from specgen.parse.classify.shapes import Statement as ShapeStatement
from tests.validator_calls import ops_nn


def test_an_optional_c_value_is_passed_never_none(corpus):
    """aclnnQuantMatmulActivationQuantWeightNz: `int64_t groupSize` whose row says 可选输入
    (`不支持groupSize的场景，传入0`): a plain int the caller passes, not `int | None` (ctypes
    cannot pass None for an int64_t); the optional pointer x1ScaleOptional stays None-able."""
    fn = ops_nn(corpus, "matmul/quant_matmul_activation_quant/docs/aclnnQuantMatmulActivationQuantWeightNz.md")
    by_name = {a.name: a for a in fn.wrapper}
    assert by_name["groupSize"].code.param.optional
    assert not by_name["groupSize"].keyword and by_name["groupSize"].annotation == "int"
    assert by_name["x1ScaleOptional"].keyword and by_name["x1ScaleOptional"].annotation.endswith("| None")
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    args = host_values(fn.cases.valid.args)
    validator.check_types(spec, args)
    with pytest.raises(TypeError, match="groupSize: a C value"):
        validator.check_types(spec, {**args, "groupSize": None})
    validator.check_types(spec, {**args, "x1ScaleOptional": None})  # a null pointer: a rule's business


def test_a_not_null_row_naming_a_c_value_checks_only_the_pointers(corpus):
    """aclnnNLLLossBackward's null-pointer row names `int64_t reduction` among the tensors: a
    value has no null, so the rule checks the pointers it names and no case nulls reduction."""
    fn = ops_nn(corpus, "loss/nll_loss_grad/docs/aclnnNLLLossBackward.md")
    rule = next(r for r in fn.cases.rules if r.kind == "not_null")
    assert "reduction" not in rule.params and "self" in rule.params
    assert "rule1_not_null_reduction" not in {c.id for c in fn.cases.cases}


def test_a_table_check_takes_the_status_of_the_row_naming_it(corpus):
    """aclnnDequantBias: `561002 | 输入activateScaleOptional、biasOptional的数据类型不在支持的范围内`:
    the row itself checks the table's dtype sets of those two, under 561002, not 161002 (audit 43:
    a 561002 row of a kind the host checks is checked); x's format (no row names it) stays 161002."""
    fn = ops_nn(corpus, "quant/dequant_bias/docs/aclnnDequantBias.md")
    rules = {r.id: r for r in fn.cases.rules}
    row = next(r for r in rules.values() if r.kind == "dtypes" and "biasOptional" in r.params)
    assert row.host and row.code == 561002 and set(row.params) == {"activateScaleOptional", "biasOptional"}
    assert "implied_dtypes_biasOptional" not in rules  # the row holds it
    assert rules["implied_formats_x"].code == 161002
    assert rules["rule2_dtypes"].code == 161002


def test_a_description_bullet_stating_a_parameters_range_is_its_axis_rule(corpus):
    """aclnnScatterAdd line 43, among the description's requirements of the computation:
    `- dim取值范围为[-self.dim(), self.dim() - 1]。` (dim's own row says only 计算公式中的输入dim):
    dim is checked as an axis of self, cited at that line; a dim inside passes."""
    fn = ops_nn(corpus, "index/scatter_add/docs/aclnnScatterAdd.md")
    dim = next(p for p in fn.function.params if p.name == "dim")
    (axis,) = [c for c in dim.constraints if c.kind == "axis"]
    assert axis.line == 43 and axis.params == ("self",)
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    args = host_values(fn.cases.valid.args)
    rank = len(args["self"].shape)
    for inside in (rank - 1, -rank):
        assert not [r.id for r, _ in validator.violations(spec, {**args, "dim": inside})]
    for outside in (rank, -rank - 1):
        assert [r.id for r, _ in validator.violations(spec, {**args, "dim": outside})] == ["implied_axis_dim"]


def test_a_description_bullet_leaves_a_range_the_row_states():
    """Counter-case: a parameter whose own row states its axis keeps that one; a bullet naming
    no parameter (`- 结果取值范围为[0, 1]`) gives none."""
    params = [
        Param(name="dim", c_type="int64_t", kind="int", direction="in", line=1),
        Param(name="self", c_type="const aclTensor*", kind="tensor", direction="in", line=2),
    ]
    said = [
        ShapeStatement("- 结果取值范围为[0, 1]。", 3),
        ShapeStatement("- dim取值范围为[-self.dim(), self.dim() - 1]。", 4),
    ]
    read = build._with_summary_values(params, said)
    assert [c.line for c in read[0].constraints if c.kind == "axis"] == [4] and not read[1].constraints
    held = [read[0], params[1]]
    assert build._with_summary_values(held, [ShapeStatement("- dim取值范围为[0, 1]。", 9)])[0] == read[0]
