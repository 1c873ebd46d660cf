"""The doc-site dialect's MoE and attention documents (corpus/docs/legacy; issue 23): rules
their own words state, checked against the documents' own sample calls."""

from __future__ import annotations

from pathlib import Path

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse import parse_paths
from specgen.parse.classify.shape_alternatives import scenarios


def _legacy_function(corpus: Path, stem: str):
    [doc] = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
    return next(f for f in doc.functions if f.name == f"aclnn{stem}")


def _sample_shapes(fn) -> tuple[dict, dict]:
    values = call_values(fn, fn.sample_call)
    assert values is not None
    return {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}, values


def test_a_min_of_a_symbol_and_an_attribute_sizes_the_rows(corpus):
    # MoeInitRoutingQuant.md line 48, expandedXOut: `要求是一个2D的Tensor，shape
    # \(min\(NUM\_ROWS, activeNum\) \* k, H\)`; expertIdx (line 44) is `\(NUM\_ROWS, K\)`: the
    # `k` is its K. The sample: x {3, 4}, expertIdx {3, 2}, activeNum 3: expandedXOutShape {6, 4}
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    out = next(p for p in fn.params if p.name == "expandedXOut")
    assert out.shape_rule is not None and out.shape_rule.kind == "explicit"
    assert out.shape_rule.dims == ("min(NUM_ROWS, activeNum) * K", "H")
    shapes, values = _sample_shapes(fn)
    rule = plain_rule(out.shape_rule)
    assert _shapes.output_shape(rule, shapes, values) == (6, 4)
    # fewer active rows than NUM_ROWS: activeNum 2 keeps 2 * K rows
    assert _shapes.output_shape(rule, shapes, {**values, "activeNum": 2}) == (4, 4)


def test_an_output_an_error_row_holds_equal_to_another_takes_its_shape(corpus):
    # MoeInitRoutingQuant.md line 65 (561002): `5. expandedRowIdxOut和expandedExpertIdxOut的shape
    # 不相等，且不等于(num_rows * k, )`; expandedExpertIdxOut's own row (line 50) gives no shape.
    # The sample allocates both in idxOutShape {6} (expertIdx {3, 2})
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    out = next(p for p in fn.params if p.name == "expandedExpertIdxOut")
    assert out.shape_rule is not None
    assert (out.shape_rule.kind, out.shape_rule.params) == ("same", ("expandedRowIdxOut",))
    shapes, values = _sample_shapes(fn)
    assert _shapes.output_shape(plain_rule(out.shape_rule), shapes, values) == (6,)


def test_cases_keyed_on_an_attribute_compared_with_a_size(corpus):
    # MoeFinalizeRoutingV2Grad.md line 80, gradExpandedXOut: `当dropPadMode是0时，要求是一个2D的
    # Tensor，当activeNum大于0且小于R * K时，shape为(activeNum, H)，否则shape为(R * K, H)；当
    # dropPadMode是1时，要求是一个3D的Tensor，shape为(expertNum, expertCapacity, H)`, with gradY
    # `(R, H)` and scalesOptional `(R, K)`. The sample: gradY {2, 2}, scales {2, 2}, dropPadMode 0,
    # activeNum 0: gradExpandedXShape {4, 2}
    fn = _legacy_function(corpus, "MoeFinalizeRoutingV2Grad")
    out = next(p for p in fn.params if p.name == "gradExpandedXOut")
    assert out.shape_rule is not None and out.shape_rule.kind == "one_of"
    assert [(a.dims, a.when) for a in out.shape_rule.alternatives] == [
        (
            ("activeNum", "H"),
            ("dropPadMode", "value", "0", "true", "activeNum", "compare", "> 0", "true")
            + ("activeNum", "compare", "< R * K", "true"),
        ),
        (("R * K", "H"), ("dropPadMode", "value", "0", "true", "activeNum", "compare", "> 0", "false")),
        (("R * K", "H"), ("dropPadMode", "value", "0", "true", "activeNum", "compare", "< R * K", "false")),
        (("expertNum", "expertCapacity", "H"), ("dropPadMode", "value", "1", "true")),
    ]
    shapes, values = _sample_shapes(fn)
    rule = plain_rule(out.shape_rule)
    assert _shapes.output_shapes(rule, shapes, values) == ((4, 2),)
    assert _shapes.allocation_shape(rule, shapes, values) == (4, 2)
    # activeNum 3 < R * K = 4: 3 rows; 9 is not less: R * K rows
    assert _shapes.output_shapes(rule, shapes, {**values, "activeNum": 3}) == ((3, 2),)
    assert _shapes.output_shapes(rule, shapes, {**values, "activeNum": 9}) == ((4, 2),)
    dropped = {**values, "dropPadMode": 1, "expertNum": 3, "expertCapacity": 2}
    assert _shapes.output_shapes(rule, shapes, dropped) == ((3, 2, 2),)
    # K unknown (no scalesOptional nor expertIdxOptional): the comparison is not settled, no
    # case is met, and the validator lets any shape pass
    unscaled = {**shapes, "scalesOptional": None, "expertIdxOptional": None}
    assert _shapes.output_shapes(rule, unscaled, {**values, "activeNum": 3}) == ()
    assert _shapes.shape_allowed(rule, unscaled, {**values, "activeNum": 3}, (7, 2)) is None
    assert _shapes.shape_allowed(rule, shapes, {**values, "activeNum": 3}, (4, 2)) == ((3, 2),)


def _named_notes(corpus: Path, stem: str) -> dict[str, str]:
    [doc] = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
    [fn] = operator_code(doc, doc.source).functions
    return {r.condition: r.reason for r in fn.cases.rules if r.kind == "notes" and not r.host}


def test_a_paragraph_of_the_constraints_section_is_named_not_dropped(corpus):
    # MoeTokenUnpermute.md line 91, the whole 约束说明: `topK_num <= 512`, a line of its own
    named = _named_notes(corpus, "MoeTokenUnpermute")
    assert "topK_num <= 512" in named and "line 91" in named["topK_num <= 512"]
    # IncreFlashAttentionV2.md lines 162-164: a bullet heading ending in `：`, then the paragraph
    # that states the rule; the reading stopped at line 161 (`仅支持query的S轴等于1。`)
    named = _named_notes(corpus, "IncreFlashAttentionV2")
    int8 = (
        "query、key、value输入为FLOAT16，输出为INT8的场景：入参quantScale2必填，quantOffset2可选，"
        "不能传入dequantScale1、quantScale1、dequantScale2（即为nullptr）参数。"
    )
    assert int8 in named and "line 164" in named[int8]
    assert "仅支持query的S轴等于1。" in named
    assert not any(text.startswith("int8量化相关入参数量") for text in named)  # a heading, no rule


def test_an_outputs_contiguity_is_no_reading_of_its_shape_rule(corpus):
    # MoeInitRoutingQuant.md line 49, expandedRowIdxOut: `要求是一个1D的Tensor，Shape为
    # \(NUM\_ROWS\*K, \)，…，不支持[非连续的Tensor]`. Its shape rule is read from the whole row, but
    # the validator reads no strides for it: the statement is named as not checked (the error
    # table, lines 59-65, gives no status for a non-contiguous tensor), not counted as enforced.
    # MoeFinalizeRoutingV2Grad.md line 80, gradExpandedXOut: `…不支持非连续输出。` alike
    for stem, output in (
        ("MoeInitRoutingQuant", "expandedRowIdxOut"),
        ("MoeFinalizeRoutingV2Grad", "gradExpandedXOut"),
    ):
        [doc] = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
        [fn] = operator_code(doc, doc.source).functions
        [said] = [s for s in fn.cases.statements if s.param == output and s.kind == "non_contiguous"]
        assert not said.enforced
        rule = next(r for r in fn.cases.rules if r.id == said.rule)
        assert not rule.host and "no status for a non-contiguous tensor" in rule.reason


def test_a_2d_shape_is_a_rank_and_a_row_an_output_rule_is_read_from_checks_it(corpus):
    # MoeInitRoutingQuant.md line 44, expertIdx: `要求是一个2D的shape \(NUM\_ROWS, K\)`; the
    # sample's idxShape is {3, 2}
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    expert_idx = next(p for p in fn.params if p.name == "expertIdx")
    assert expert_idx.rank is not None and (expert_idx.rank.min, expert_idx.rank.max) == (2, 2)
    # line 65, `561002(ACLNN_ERR_INNER_TILING_ERROR): … 5. expandedRowIdxOut和expandedExpertIdxOut的
    # shape不相等，且不等于(num_rows * k, )`: expandedExpertIdxOut's rule is read from that row, so the
    # row checks it, with the row's status (not an implied rule under 161002)
    [doc] = parse_paths([corpus / "docs" / "legacy" / "MoeInitRoutingQuant.md"])
    [code] = operator_code(doc, doc.source).functions
    rules = [r for r in code.cases.rules if "expandedExpertIdxOut" in r.params and r.kind == "output_shape"]
    assert [(r.code, r.host, r.condition) for r in rules] == [
        (561002, True, "expandedRowIdxOut和expandedExpertIdxOut的shape不相等，且不等于(num_rows * k, )")
    ]


def test_cases_keyed_on_scenarios_the_attributes_rows_name(corpus):
    # MoeInitRoutingV2.md line 89, expandedXOut: `在Dropless/Active场景下要求是一个2D的Tensor，
    # Dropless场景shape为[numRows * k, h]，Active场景shape为[min(activeNum, numRows * k), h]，在
    # Drop/Pad场景下要求是一个3D的Tensor，shape为[expertNum, expertCapacity, h]`; the scenarios are
    # named by activeNum (line 76: `该属性在dropPadMode为0时生效…；0表示Dropless场景，大于0时表示
    # Active场景`) and dropPadMode (line 81: `1：表示Drop/Pad场景`)
    fn = _legacy_function(corpus, "MoeInitRoutingV2")
    out = next(p for p in fn.params if p.name == "expandedXOut")
    assert out.shape_rule is not None and out.shape_rule.kind == "one_of"
    assert [(a.dims, a.when) for a in out.shape_rule.alternatives] == [
        (("numRows * k", "h"), ("dropPadMode", "value", "0", "true", "activeNum", "value", "0", "true")),
        (
            ("min(activeNum, numRows * k)", "h"),
            ("dropPadMode", "value", "0", "true", "activeNum", "compare", "> 0", "true"),
        ),
        (("expertNum", "expertCapacity", "h"), ("dropPadMode", "value", "1", "true")),
    ]
    # the sample: x {3, 4}, expertIdx {3, 2}, dropPadMode 1, expertNum 3, expertCapacity 2:
    # expandedXOutShape {3, 2, 4}
    shapes, values = _sample_shapes(fn)
    rule = plain_rule(out.shape_rule)
    assert _shapes.allocation_shape(rule, shapes, values) == (3, 2, 4)
    dropless = {**values, "dropPadMode": 0}
    assert _shapes.output_shapes(rule, shapes, dropless) == ((6, 4),)
    assert _shapes.output_shapes(rule, shapes, {**dropless, "activeNum": 4}) == ((4, 4),)
    # a scenario only the negation names (`0：表示非Drop/Pad场景`) is no scenario
    assert "非Drop/Pad" not in scenarios({"dropPadMode": "0：表示非Drop/Pad场景。"})
    assert scenarios({"dropPadMode": "0：表示非Drop/Pad场景。"}) == {}


def test_a_list_outputs_element_formula_is_named_as_the_reason_it_is_not_derived(corpus):
    # GroupedMatmul.md line 12: `$y_i[m_i,n_i]=x_i[m_i,k_i] \times weight_i[k_i,n_i], i=1...g$` gives
    # each element of y its shape, per scenario (several tensors per list, or one split): no reader
    # takes it, and the wrapper's refusal must say so, not that the document states no rule
    fn = _legacy_function(corpus, "GroupedMatmul")
    y = next(p for p in fn.params if p.name == "y")
    assert y.shape_rule is not None and y.shape_rule.kind == "not_derivable"
    assert "(line 12: y_i[m_i,n_i]=x_i[m_i,k_i]" in y.shape_rule.reason


def test_scenario_statements_of_a_rule_reading_every_case_are_counted_under_it(corpus):
    # MoeInitRoutingV2.md line 89, expandedXOut: `在Dropless/Active场景下要求是一个2D的Tensor，Dropless场景
    # shape为[numRows * k, h]，Active场景shape为[min(activeNum, numRows * k), h]；在Drop/Pad场景下要求是一个
    # 3D的Tensor，shape为[expertNum, expertCapacity, h]`: every case is read (the cases' texts rewrite the
    # scenarios), so each statement is the shape rule's, not one "no rule reads" (recheck 42r: E/x)
    [doc] = parse_paths([corpus / "docs" / "legacy" / "MoeInitRoutingV2.md"])
    fn = operator_code(doc, doc.source).functions[0]
    said = [s for s in fn.cases.statements if s.param == "expandedXOut" and s.kind == "text"]
    assert len(said) == 5
    assert {(s.rule, s.enforced) for s in said} == {("implied_output_shape_expandedXOut", True)}
