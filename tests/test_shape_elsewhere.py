"""Output shapes given outside the output's own statements, quoted from ops-nn documents: the
formula's product where the row says its operands broadcast, and the error table that names an
output only beside another one (each reading checked against the document's own sample)."""

from __future__ import annotations

from specgen.codegen.runtime import _shapes
from specgen.model import Constraint, ErrorRule, Param, ShapeRule
from specgen.parse.classify.shape_elsewhere import (
    co_named_rule,
    compared_cases_rule,
    dimensions_alike,
    product_note_only,
    product_of_operands,
    unread_statement,
)
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import BOOL, OUT, TENSOR


def _weight_quant_batch_matmul() -> list[Param]:
    # aclnnWeightQuantBatchMatmul.md (ops-nn matmul/weight_quant_batch_matmul), rows abridged
    return [
        Param(name="x1", description="公式中的输入self。", **TENSOR),
        Param(name="x2", description="经处理能得到公式中的输入mat2。", **TENSOR),
        Param(name="deqScale", description="对x2反量化得到公式中的输入mat2。", **TENSOR),
        Param(name="bias", description="公式中的输入bias。", **TENSOR),
        Param(name="transposeX1", description="用于描述x1是否转置。", **BOOL),
        Param(name="transposeX2", description="用于描述x2是否转置。", **BOOL),
        Param(name="out", description="公式中的result。", **OUT),
    ]


def test_operands_said_to_broadcast_are_multiplied_where_the_formula_multiplies_them():
    # out: `shape需要是x1与x2 broadcast之后的shape`; the formula `result = self@mat2+bias`
    params = _weight_quant_batch_matmul()
    rule = product_of_operands(("x1", "x2"), params, "result = self@mat2+bias", 31)
    assert rule is not None and rule.kind == "matmul"
    assert rule.params == ("x1", "x2", "transposeX1", "transposeX2") and rule.line == 31
    # its sample: x1Shape {128, 4}, x2Shape {4, 4}, transposes false, outShape {128, 4}
    shapes = {"x1": (128, 4), "x2": (4, 4)}
    values = {"transposeX1": False, "transposeX2": False}
    assert _shapes.output_shape(rule.model_dump(mode="json"), shapes, values) == (128, 4)
    # a row of one operand (x1 (1, 4)) is no longer held to a broadcast of both
    assert _shapes.output_shape(rule.model_dump(mode="json"), {**shapes, "x1": (1, 4)}, values) == (1, 4)


def test_a_broadcast_is_kept_where_the_formula_multiplies_something_else():
    params = _weight_quant_batch_matmul()
    # the product of other tensors, a formula with no product, a symbol no operand names
    assert product_of_operands(("x1", "x2"), params, "result = self@deqScale", 31) is None
    assert product_of_operands(("x1", "x2"), params, "result = self + mat2", 31) is None
    assert product_of_operands(("x1", "x2"), params, "result = a@mat2", 31) is None
    assert product_of_operands(("x1", "x2", "bias"), params, "result = self@mat2+bias", 31) is None


def _nan_median_dim() -> list[Param]:
    return [
        Param(name="self", **TENSOR),
        Param(name="dim", c_type="int64_t", kind="int", direction="in", line=1),
        Param(name="keepDim", **BOOL),
        Param(name="valuesOut", **OUT),
        Param(name="indicesOut", **OUT),
    ]


def _errors(*conditions: str) -> list[ErrorRule]:
    return [
        ErrorRule(code=161002, name="ACLNN_ERR_PARAM_INVALID", condition=c, line=236 + i)
        for i, c in enumerate(conditions)
    ]


_REDUCED = ShapeRule(kind="reduce", params=("self", "dim", "keepDim"), line=156)


def test_an_output_the_error_table_names_only_beside_another_has_its_shape():
    # aclnnNanMedianDim.md (ops-nn index/gather_v2): indicesOut's row says nothing of its shape
    errors = _errors(
        "self、valuesOut或indicesOut的数据类型不在支持的范围之内。",
        "self、valuesOut或indicesOut的维度超过8。",
        "keepDim为true时，valuesOut或indicesOut的维度与self的维度不一致。",
        "keepDim为true时，valuesOut或indicesOut的shape在dim上的size不为1。",
        "keepDim为false时，valuesOut或indicesOut的shape与self除dim外的shape不一致。",
    )
    params = _nan_median_dim()
    rule = co_named_rule(params[-1], params, errors, {"valuesOut": _REDUCED})
    assert rule is not None and rule.kind == "same" and rule.params == ("valuesOut",) and rule.line == 239
    # its sample: self {4, 2}, dim 0, keepDim false; valuesOut and indicesOut {2}
    values = {"dim": 0, "keepDim": False}
    assert _shapes.output_shape(_REDUCED.model_dump(mode="json"), {"self": (4, 2)}, values) == (2,)


def test_outputs_listed_with_every_parameter_or_once_are_not_tied():
    params = _nan_median_dim()
    derived = {"valuesOut": _REDUCED}
    # aclnnGroupedDynamicMxQuant.md: every tensor listed, not two outputs as alternatives
    listed = _errors("self、valuesOut、indicesOut的shape不满足约束。", "valuesOut、indicesOut的维度超过8。")
    assert co_named_rule(params[-1], params, listed, derived) is None
    # one row only, or the other output's shape not derived
    once = _errors("keepDim为true时，valuesOut或indicesOut的shape在dim上的size不为1。")
    assert co_named_rule(params[-1], params, once, derived) is None
    twice = _errors("valuesOut或indicesOut的维度超过8。", "valuesOut或indicesOut的shape不匹配。")
    assert co_named_rule(params[-1], params, twice, {}) is None
    assert co_named_rule(params[-1], params, twice, derived) is not None


def _deep_norm(gamma_row: str) -> list[Param]:
    # aclnnDeepNorm.md (ops-nn norm/deep_norm), usage cells abridged
    return [
        Param(name="x", text="shape维度和输入`x`的维度相同。", **TENSOR),
        Param(name="gamma", text=gamma_row, **TENSOR),
        Param(name="yOut", **OUT),
    ]


def test_an_output_whose_dimensions_are_an_inputs_has_its_shape_where_the_document_means_sizes():
    params = _deep_norm("shape维度和输入`x`后几维的维度相同，后几维表示需要norm的维度。")
    said = [Statement("shape维度和输入`x`的维度相同。", 176)]
    rule = dimensions_alike(params[-1], said, params)
    assert rule is not None and rule.kind == "same" and rule.params == ("x",) and rule.line == 176
    # its sample: x {3, 1, 4}, gamma {4} (x's last dimension: sizes), yOut {3, 1, 4}
    assert _shapes.output_shape(rule.model_dump(mode="json"), {"x": (3, 1, 4)}, {}) == (3, 1, 4)


def test_dimensions_alike_are_not_read_where_the_document_may_mean_a_rank():
    # no other row says `维度` of sizes: the words could give the rank only
    params = _deep_norm("shape为[H]。")
    said = [Statement("shape维度和输入`x`的维度相同。", 176)]
    assert dimensions_alike(params[-1], said, params) is None
    # aclnnRepeatInterleaveTensor: `shape维度与repeats一致，元素个数等于repeats的值之和` (a rank)
    sizes = _deep_norm("shape维度和输入`x`后几维的维度相同。")
    assert dimensions_alike(sizes[-1], [Statement("shape维度与x一致，元素个数等于x的值之和", 9)], sizes) is None
    # the trailing dimensions only (gamma's own row)
    assert dimensions_alike(sizes[-1], [Statement("shape维度和输入`x`后几维的维度相同。", 9)], sizes) is None


def test_a_shape_spoken_of_elsewhere_in_a_form_no_reader_takes_is_named_with_its_line():
    out = Param(name="out", **OUT)
    # aclnnRepeatInterleaveGrad.md 约束说明: a size only (`[32]、[2, 16]、[2, 4, 4]` all meet it)
    notes = [
        Statement("- 确定性计算：默认确定性实现。", 240),
        Statement("- out的shape大小满足yGrad的axis轴ReduceSum后的shape大小。", 244),
    ]
    reason = unread_statement(out, notes, [])
    assert reason.startswith("the constraints section states only its element count") and "line 244" in reason
    shaped = [Statement("- out的shape满足yGrad的axis轴ReduceSum后的shape。", 244)]  # a shape, in words unread
    assert unread_statement(out, shaped, []).startswith("the constraints section speaks of its shape")
    # aclnnTransposeQuantBatchMatMul.md 功能说明: a worked example under some perms
    summary = [Statement("假设x1的shape是(M, B, K)，x2的shape是(B, K, N)，…，计算输出out的shape是(M, B, N)。", 31)]
    assert "the description" in unread_statement(out, [], summary) and "line 31" in unread_statement(out, [], summary)
    # another tensor's shape, or the output named without its shape: nothing to point at
    assert unread_statement(out, [Statement("- x的shape为(M, N)，scaleOut的shape必须是(M)。", 9)], []) == ""
    assert unread_statement(out, [Statement("- out的数据类型与x一致。", 9)], []) == ""


def test_a_tables_view_shape_column_is_a_shape_spoken_of_elsewhere():
    packed = Param(name="weightInt4Pack", **OUT)
    # aclnnConvertWeightToINT4Pack.md 约束说明: the packed output's view shape, row by row of its own
    # dtype and format (`INT4` … `和输入weight保持一致，即(dim0, dim1)`; `INT32` … `(dim0, dim1/8)`)
    notes = [
        Statement("- 参数间数据类型、数据格式间关系如下：", 227),
        Statement("<th>weight shape</th>", 246),
        Statement("<th>weightInt4Pack view shape</th>", 247),
    ]
    reason = unread_statement(packed, notes, [])
    assert reason.startswith("the constraints section speaks of its shape") and "line 247" in reason
    # another tensor's column names nothing of the output
    assert unread_statement(packed, notes[:2], []) == ""


def test_a_shape_only_a_products_note_states_is_no_statement_of_the_function():
    # aclnnDequantSwigluQuant.md: the Ascend 950 notes say yOut `shape为[N...,H/2]`; the notes of
    # the Atlas A2 products, which it supports too, say nothing of it
    note = Constraint(kind="text", text="shape为[N...,H/2]", line=249, product="950")
    y_out = Param(name="yOut", constraints=(note,), **OUT)
    reason = product_note_only(y_out)
    assert "(950)" in reason and "line 249" in reason
    # the same words said of every product are no note
    said = Param(name="yOut", constraints=(note.model_copy(update={"product": None}),), **OUT)
    assert product_note_only(said) == ""


def _gather_nd() -> tuple[list[Param], list[Statement]]:
    # aclnnGatherNd.md (ops-nn index/gather_nd), 功能说明 lines 26-30, abridged
    params = [Param(name="self", **TENSOR), Param(name="indices", **TENSOR), Param(name="out", **OUT)]
    summary = [
        Statement(
            "- 接口功能：对于维度为**r≥1**的输入张量`self`，和维度**q≥1**的输入张量`indices`，将数据切片收集到"
            "维度为 **(q-1) + (r - indices_shape[-1])** 的输出张量out中。",
            26,
        ),
        Statement("- 如果indices_shape[-1] > r，不合法场景。", 28),
        Statement(
            "- 如果indices_shape[-1] = r，则输出张量out的维度为q-1，即out的shape为 [indices_shape[0:q-1]]，"
            "out中元素为self的索引对位置的元素。（见例1）",
            29,
        ),
        Statement(
            "- 如果indices_shape[-1] < r，则输出张量out的维度为(q-1) + (r - indices_shape[-1])，设c=indices_shape[-1]，"
            "即out的shape为 [indices_shape[0:q-1],self_shape[c:r]]，`out`由`self`的索引对位置的切片组成。（见例2、例3、例4）",
            30,
        ),
    ]
    return params, summary


def test_an_output_given_case_by_case_of_a_comparison_is_one_list_where_the_equal_case_drops_an_empty_slice():
    params, summary = _gather_nd()
    rule = compared_cases_rule(params[-1], params, summary)
    assert rule is not None and rule.kind == "explicit" and rule.line == 30
    assert rule.dims == ("*indices.shape[0:rank(indices) - 1]", "*self.shape[indices.shape[-1]:rank(self)]")
    # the document's four worked examples (self_shape, indices_shape, out_shape), the first
    # (indices_shape[-1] = r) and its sample call (self (2, 2), indices (2, 2), out (2))
    examples = [
        ((2, 2), (2, 2), (2,)),
        ((2, 2), (2, 1), (2, 2)),
        ((2, 2, 2), (2, 2), (2, 2)),
        ((2, 2, 2), (2, 1, 2), (2, 1, 2)),
    ]
    for self_shape, indices_shape, out_shape in examples:
        shapes = {"self": self_shape, "indices": indices_shape}
        assert _shapes.output_shape(rule.model_dump(mode="json"), shapes, {}) == out_shape


def test_cases_of_a_comparison_are_not_read_where_the_equal_case_is_no_empty_slice_of_the_other():
    params, summary = _gather_nd()
    out = params[-1]
    # one case only: the output's shape is given under a condition
    assert compared_cases_rule(out, params, summary[:3]) is None
    # an equal case whose list is not the other's without the slice between the compared sizes
    other = Statement("- 如果indices_shape[-1] = r，则即out的shape为 [indices_shape[0:q-1], 1]。", 29)
    assert compared_cases_rule(out, params, [*summary[:2], other, summary[3]]) is None
    # a rank the description does not name (q): the lists name what no parameter gives
    unnamed = Statement("- 接口功能：对于维度为**r≥1**的输入张量`self`。", 26)
    assert compared_cases_rule(out, params, [unnamed, *summary[1:]]) is None
