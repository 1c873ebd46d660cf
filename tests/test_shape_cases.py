"""Output shapes the documents give case by case (an input's rank, an optional input given or
null), from worked examples, and the reasons given where the data decide the size (issue 23)."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Param
from specgen.parse import parse_paths
from specgen.parse.classify.shape_phrases import ShapeContext
from specgen.parse.classify.shapes import (
    Statement,
    _data_dependent,
    _first_case,
    _input_lists,
    _leading_by_examples,
    _leading_only,
    _one_axis_only,
)


def _out(name: str, description: str = "") -> Param:
    return Param(name=name, c_type="aclTensor*", kind="tensor", direction="out", description=description, line=1)


def test_a_case_led_by_an_optional_input_given_holds_when_it_is_given():
    # aclnnSwigluMxQuantWithDualAxis (ops-nn), mxscale2Out's row
    said = [
        Statement("当groupIndexOptional存在时，shape为[floor(M/64)+G, N, 2]", 1),
        Statement("当groupIndexOptional不存在时，shape为[ceil(M/64), N, 2]", 2),
    ]
    names = ("x", "groupIndexOptional", "mxscale2Out")
    ctx = ShapeContext(names, ("x", "groupIndexOptional"), "mxscale2Out", tensors=names)
    reading, statement, when = _first_case(said, ctx, ())
    assert (reading[2], statement.line, when) == (
        ("floor(M / 64) + G", "N", "2"),
        1,
        ("groupIndexOptional", "given", "", "true"),
    )
    # only the second case: held to the input being null
    assert _first_case(said[1:], ctx, ())[2] == ("groupIndexOptional", "given", "", "false")
    # a name that is no optional input leads no case
    plain = ShapeContext(names, ("x",), "mxscale2Out", tensors=names)
    assert _first_case(said, plain, ()) is None


def test_a_case_led_by_an_input_rank_holds_for_that_rank():
    # aclnnCtcLoss (ops-nn), negLogLikelihoodOut's row: the other case after 否则 is left out
    said = [
        Statement(
            "数据类型必须和logProbs一致。当logProbs为3维时，negLogLikelihoodOut的shape为(N)的Tensor，否则negLogLikelihoodOut为0维Tensor。",
            7,
        )
    ]
    names = ("logProbs", "targets", "negLogLikelihoodOut")
    ctx = ShapeContext(names, ("logProbs", "targets"), "negLogLikelihoodOut", tensors=names)
    reading, _, when = _first_case(said, ctx, ())
    assert reading == ("explicit", (), ("N",))
    assert when == ("logProbs", "rank", "3", "true")


def test_the_runtime_holds_a_rule_to_an_input_rank_or_presence():
    rule = {"kind": "same", "params": ["x"], "when": ["g", "given", "", "true"]}
    x = TensorDesc((4, 2), "FLOAT16")
    assert _shapes.output_shape(rule, {"x": (4, 2), "g": (1,)}, {"x": x, "g": TensorDesc((1,), "INT32")}) == (4, 2)
    assert _shapes.output_shape(rule, {"x": (4, 2), "g": None}, {"x": x, "g": None}) is None  # null
    assert _shapes.output_shape(rule, {"x": (4, 2)}, {"x": x}) is None  # the call does not settle it
    null = {**rule, "when": ["g", "given", "", "false"]}
    assert _shapes.output_shape(null, {"x": (4, 2), "g": None}, {"x": x, "g": None}) == (4, 2)
    ranked = {"kind": "explicit", "dims": ["x.shape[1]"], "when": ["x", "rank", "3", "true"]}
    assert _shapes.output_shape(ranked, {"x": (12, 4, 5)}, {"x": TensorDesc((12, 4, 5), "FLOAT")}) == (4,)
    assert _shapes.output_shape(ranked, {"x": (12, 5)}, {"x": TensorDesc((12, 5), "FLOAT")}) is None
    # a wrapper allocates only in the case the rule holds for
    array = np.zeros((12, 4, 5), dtype=np.float32)
    fixed = {"kind": "fixed", "values": ["FLOAT"]}
    assert _shapes.allocate("y", ranked, fixed, {"x": array, "y": None}).shape == (4,)
    # the refusal names the case the call is not in (it once said only "rule unsettled")
    with pytest.raises(TypeError, match=r"pass y: .*\(its rule holds only when x has rank 3\)"):
        _shapes.allocate("y", ranked, fixed, {"x": np.zeros((12, 5), dtype=np.float32), "y": None})
    # aclnnWeightQuantBatchMatmulNz's y: a matmul unless weight is INT32 or FLOAT (packed 4-bit)
    packed = {
        "kind": "matmul",
        "params": ["x", "w"],
        "when": ["w", "dtype", "INT32", "false", "w", "dtype", "FLOAT", "false"],
    }
    operands = {"x": np.zeros((2, 3), dtype=np.float16), "w": np.zeros((3, 4), dtype=np.float32), "y": None}
    with pytest.raises(TypeError, match=r"\(its rule holds only when w's dtype is not FLOAT\)"):
        _shapes.allocate("y", packed, fixed, operands)
    assert _shapes.allocate("y", packed, fixed, {**operands, "w": np.zeros((3, 4), dtype=np.float16)}).shape == (2, 4)


# aclnnFusedAddRmsNorm (ops-nn), rstdOut's row
_FUSED = (
    "shape与`x1`前几维保持一致，前几维表示不需要norm的维度。rstdOut shape与x1 shape，gamma shape关系举例：若x1 "
    "shape:(2，3，4，8)，gamma shape:(8)，rstdOut shape(2，3，4，1)；若x1 shape:(2，3，4，8)，gamma shape:(4，8)，"
    "rstdOut shape(2，3，1，1)。"
)


def test_leading_dimensions_with_worked_examples_keep_the_rank():
    rule = _leading_by_examples(_out("rstdOut"), [Statement(_FUSED, 140)], ("x1", "x2", "gamma"))
    assert rule is not None and rule.dims == ("*x1.shape[:rank(x1) - rank(gamma)]", "*ones(rank(gamma))")
    # its own call: x1 (2, 16), gamma (16,) -> rstdOut (2, 1)
    shapes = {"x1": (2, 16), "gamma": (16,)}
    assert _shapes.output_shape(rule.model_dump(), shapes, {}) == (2, 1)


def test_leading_dimensions_are_not_read_without_examples_that_agree():
    inputs = ("x1", "x2", "gamma")
    # an example that drops the normalised dimensions instead: no reading
    dropped = _FUSED.replace("rstdOut shape(2，3，4，1)", "rstdOut shape(2，3，4)")
    assert _leading_by_examples(_out("rstdOut"), [Statement(dropped, 1)], inputs) is None
    # aclnnGemmaRmsNorm (ops-nn): the leading dimensions only, no example, the rank unsaid
    gemma = "shape与入参`x`的shape前几维保持一致，前几维指`x`的维度减去`gamma`的维度，表示不需要norm的维度。"
    assert _leading_by_examples(_out("rstdOut"), [Statement(gemma, 1)], ("x", "gamma")) is None
    assert "only the output's leading dimensions" in _leading_only([Statement(gemma, 1)])  # the reason given


def test_a_size_along_one_axis_only_is_the_reason_given():
    # aclnnSwigluMxQuant (ops-nn), mxscaleOut's row; its call writes (2, 1, 2) for x (2, 64): a
    # rank and a trailing 2 the row does not state
    row = "shape在axis轴上为x对应轴的值除以blocksize=32向上取整，并对其进行偶数pad，pad填充值为0。"
    reason = _one_axis_only([Statement(row, 314)])
    assert reason.startswith("the document gives only its size along axis (line 314") and "not its rank" in reason
    # aclnnRmsNormDynamicMxQuant's row names the axis in words
    tail = "shape在尾轴上为x对应值除以blocksize=32向上取整，并对其进行偶数pad，pad填充值为0。"
    assert "along 尾轴" in _one_axis_only([Statement(tail, 1)])
    # the error table's `shape在非dim轴上的大小不同时` compares two tensors: no size of the output
    assert _one_axis_only([Statement("selfRef和source的shape在非dim轴上的大小不同时。", 1)]) == ""


def test_swiglu_mx_quant_mxscale_out_says_why_it_is_not_derivable(corpus):
    path = corpus / "docs" / "ops-nn" / "quant" / "swiglu_mx_quant" / "docs" / "aclnnSwigluMxQuant.md"
    (doc,) = parse_paths([path])
    rule = doc.functions[0].param("mxscaleOut").shape_rule
    assert rule is not None and not rule.derived
    assert rule.reason.startswith("the document gives only its size along axis")


def test_outputs_whose_size_the_data_decide_say_so():
    inputs = ("self", "repeats")
    # aclnnUnique (ops-nn), valueOut
    unique = _out("valueOut", "第一个输出张量，输入张量中的唯一元素。")
    assert _data_dependent(unique, [], inputs).startswith("data-dependent: it holds the input's distinct")
    # aclnnUniqueDim (ops-nn), valueOut
    assert _data_dependent(_out("valueOut", "示例中的valueOut，表示去重结果。"), [], inputs)
    # aclnnRepeatInterleaveTensor (ops-nn), out
    said = [Statement("shape维度与repeats一致，元素个数等于repeats的值之和。", 104)]
    assert (
        _data_dependent(_out("out"), said, inputs) == "data-dependent: its element count is the sum of repeats's values"
    )
    # aclnnUnique2 (ops-nn): the element count is self's, which is no data dependence
    unique2 = _out("valueOut", "第一个输出张量，保存输入张量中的唯一元素，shape仅支持1维度，元素个数与self相同。")
    assert _data_dependent(unique2, [], inputs) == ""
    # aclnnUnique's inverseOut: positions, not distinct elements
    assert _data_dependent(_out("inverseOut", "返回self中各元素在valueOut中出现的位置下标。"), [], inputs) == ""


def test_an_input_list_beside_another_shape_binds_no_symbol():
    # aclnnCtcLoss (ops-nn), targets: N is no axis of the concatenated form
    targets = Param(name="targets", c_type="const aclTensor*", kind="tensor", direction="in", line=1)
    x = Param(name="x", c_type="const aclTensor*", kind="tensor", direction="in", line=2)
    statements = {
        "targets": [
            Statement(
                "当shape为(N,S)，S为不小于targetLengths中的最大值的值；或者shape为(SUM(targetLengths))，"
                "假设targets是未填充的而且在1维内级联的。",
                121,
            )
        ],
        "x": [Statement("shape为[M, 2N]，最后一维必须为偶数。", 158)],  # aclnnSwigluMxQuantWithDualAxis
    }
    assert dict(_input_lists([targets, x], statements)) == {"x": ("M", "2N")}


def test_a_list_of_what_each_dimension_means_is_a_shape():
    from specgen.parse.classify.shape_phrases import read_list

    # aclnnQuantMatmulDequant (ops-nn), out's row
    said = "shape支持2维，各个维度表示：（m，n）。其中m与x的m一致，n与weight的n一致。"
    names = ("x", "weight", "weightScale", "out")
    assert read_list(said, ShapeContext(names, names[:3], "out", said, names)) == ("explicit", (), ("m", "n"))


def test_a_case_led_by_a_dtype_holds_for_that_dtype():
    # aclnnFlatQuant (ops-nn), out's row: the INT32 case first, the others unchecked
    said = [
        Statement("数据类型为INT32时，shape的最后一维是入参x最后一维的1/8，其余维度和x一致。", 1),
        Statement("数据类型为INT4时，shape与入参x一致。", 2),
        Statement("数据类型为FLOAT4_E2M1时，shape为[M,N1*N2]。", 3),
    ]
    names = ("x", "kroneckerP1", "kroneckerP2", "out")
    ctx = ShapeContext(names, names[:3], "out", tensors=names)
    reading, statement, when = _first_case(said, ctx, ())
    assert (reading, statement.line) == (("explicit", (), ("*x.shape[:-1]", "x.shape[-1] / 8")), 1)
    assert when == ("out", "dtype", "INT32", "true")
    assert _first_case(said[1:], ctx, ())[2] == ("out", "dtype", "INT4", "true")
    # its call: x (16, 16, 16), out INT32 (16, 16, 2)
    rule = {"kind": "explicit", "dims": list(reading[2]), "when": list(when)}
    x = TensorDesc((16, 16, 16), "FLOAT16")
    values = {"x": x, "out": TensorDesc((16, 16, 2), "INT32")}
    assert _shapes.output_shape(rule, {"x": (16, 16, 16)}, values) == (16, 16, 2)
    values_int4 = {"x": x, "out": TensorDesc((16, 16, 16), "INT4")}
    assert _shapes.output_shape(rule, {"x": (16, 16, 16)}, values_int4) is None


def test_a_clause_a_condition_leads_is_no_unconditional_reading():
    from specgen.parse.classify.shapes import explicit_dims

    # aclnnGroupQuant (ops-nn), y's row: the INT32 shape holds for INT32 only
    said = [Statement("类型为INT32时，shape的最后一维是x最后一维的1/8，其余维度和x一致。", 1)]
    names = ("x", "scale", "y")
    assert explicit_dims(said, ShapeContext(names, ("x", "scale"), "y", said[0].text, names)) == (
        "a shape is given only under a condition"
    )


def test_every_axis_tied_to_an_input_axis_in_any_order():
    from specgen.parse.classify.shape_phrases import read_axes

    # aclnnFusedLinearCrossEntropyLossGrad (ops-nn), weightGradOut: a 1-d input named without an axis
    said = "shape第1维长度与输入weight的第1维长度相同，第2维长度与输入grad长度相同。"
    names = ("grad", "input", "weight", "weightGradOut")
    ctx = ShapeContext(names, names[:3], "weightGradOut", said, names, rank=(2, 2))
    assert read_axes(said, ctx) == ("explicit", (), ("weight.shape[0]", "grad.shape[0]"))
    # a rank the row does not fix, or one axis left unsaid: no reading
    assert read_axes(said, ShapeContext(names, names[:3], "weightGradOut", said, names, rank=(2, 3))) is None
    assert read_axes(said, ShapeContext(names, names[:3], "weightGradOut", said, names, rank=(3, 3))) is None


def test_alternative_lists_then_the_tensor_named_are_no_condition():
    from specgen.parse.classify.shapes import explicit_dims

    # aclnnSwigluGroupGrad (ops-nn), gradXOut's row
    said = [Statement("shape=[T, 2H]或[B, S, 2H]，与x一致。", 1)]
    names = ("gradY", "x", "gradXOut")
    reading, _ = explicit_dims(said, ShapeContext(names, ("gradY", "x"), "gradXOut", said[0].text, names))
    assert reading == ("same", ("x",), ())


def test_a_rank_case_reads_its_symbols_from_the_input_list_of_that_rank():
    from specgen.parse.classify.shapes import _of_rank

    # aclnnCtcLoss (ops-nn): logProbs' shape column, and negLogLikelihoodOut's case `当logProbs为3维时，…(N)`
    statements = {"logProbs": [Statement("(T,N,C)或(T,C)<br>T为输入长度，N为批处理大小，C为类别数", 114, cell=True)]}
    names = ("logProbs", "targets", "negLogLikelihoodOut")
    reading = ("explicit", (), ("N",))
    assert _of_rank(reading, ("logProbs", "rank", "3", "true"), statements, names) == (
        "explicit",
        (),
        ("logProbs.shape[1]",),
    )
    # no list of that rank, or a case of another kind: the reading as it was
    assert _of_rank(reading, ("logProbs", "rank", "4", "true"), statements, names) == reading
    assert _of_rank(reading, ("logProbs", "given", "", "true"), statements, names) == reading
