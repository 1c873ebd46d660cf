"""Output shape and dtype rules: the phrases each reader must read, and the evaluator."""

from __future__ import annotations

import pytest

from specgen.codegen.runtime import _shapes
from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_phrases import SHAPE_PHRASES
from specgen.parse.classify.text import Statement

EXAMPLES = [(phrase, example) for phrase in SHAPE_PHRASES for example in phrase.examples]


@pytest.mark.parametrize(("phrase", "example"), EXAMPLES, ids=[f"{p.name}:{e.text[:30]}" for p, e in EXAMPLES])
def test_each_phrase_reads_its_examples(phrase, example):
    assert phrase.trigger.search(example.text)
    assert phrase.read(example.text, example.context()) == example.reading


def test_explicit_rules_evaluate_symbols_shapes_and_splices():
    rule = {"kind": "explicit", "dims": ["self.shape[0]", "vec2.shape[0]"]}
    assert _shapes.output_shape(rule, {"self": (3,), "vec2": (4,)}, {}) == (3, 4)
    rule = {
        "kind": "explicit",
        "dims": ["B", "ceil(N / 64)", "2"],
        "symbols": [{"symbol": "B", "param": "x", "axis": 0}],
    }
    assert _shapes.output_shape(rule, {"x": (5, 7)}, {"N": 130}) == (5, 3, 2)
    assert _shapes.output_shape(
        {"kind": "explicit", "dims": ["*x.shape[:-1]", "x.shape[-1] / 2"]}, {"x": (2, 3, 8)}, {}
    ) == (2, 3, 4)


def test_an_element_count_and_the_larger_of_sizes_evaluate():
    # aclnnUnique2's valueOut `shape仅支持1维度，元素个数与self相同`: self (2, 4) gives (8,)
    assert _shapes.output_shape({"kind": "explicit", "dims": ["prod(self.shape)"]}, {"self": (2, 4)}, {}) == (8,)
    larger = {"kind": "explicit", "dims": ["max(scale.shape[0], offset.shape[0])"]}
    assert _shapes.output_shape(larger, {"scale": (1,), "offset": (6,)}, {}) == (6,)
    assert _shapes.output_shape(larger, {"scale": (1,), "offset": None}, {}) is None  # offset null: unsettled
    # an integer array's largest value (aclnnCtcLoss's `max(targetLengths)`)
    largest = {"kind": "explicit", "dims": ["2 * max(targetLengths) + 1"]}
    assert _shapes.output_shape(largest, {}, {"targetLengths": [3, 7, 2]}) == (15,)
    assert _shapes.output_shape(largest, {}, {"targetLengths": []}) is None


def test_a_product_transposes_each_operand_its_parameter_says():
    # aclnnQuantMatmulV5 (ops-nn): its call passes x1 (5, 64), x2 (8, 64), transposeX2 true, out (5, 8)
    rule = {"kind": "matmul", "params": ["x1", "x2", "transposeX1", "transposeX2"]}
    shapes = {"x1": (5, 64), "x2": (8, 64)}
    assert _shapes.output_shape(rule, shapes, {"transposeX1": False, "transposeX2": True}) == (5, 8)
    assert _shapes.output_shape(rule, shapes, {"transposeX1": False, "transposeX2": False}) is None  # 64 != 8
    # aclnnGemm: transA/transB are int64_t, nonzero transposes; "" names no parameter
    rule = {"kind": "matmul", "params": ["A", "B", "transA", ""]}
    assert _shapes.output_shape(rule, {"A": (3, 2), "B": (3, 4)}, {"transA": 1}) == (2, 4)
    assert _shapes.output_shape(rule, {"A": (3, 2), "B": (3, 4)}, {}) is None  # the flag not given


def test_a_product_of_packed_int4_operands_holds_only_where_none_is_int32():
    # aclnnQuantMatmulV3 (ops-nn): x1, x2 allow INT8、INT32、INT4, and `数据类型为INT32时，每个INT32
    # 数据存放8个INT4数据，…在transposeX2为false时shape形如（k，n // 8）`
    import numpy as np

    from specgen.model import ShapeRule
    from specgen.parse.classify.shape_matmul import unpacked as _unpacked

    operands = [_tensor(n, "in", ["INT8", "INT32", "INT4"]) for n in ("x1", "x2")]
    rule = ShapeRule(kind="matmul", params=("x1", "x2", "transposeX1", "transposeX2"), line=1)
    plain = _unpacked(rule, operands).model_dump(mode="json", exclude={"text", "line", "reason"})
    shapes = {"x1": (4, 64), "x2": (64, 2)}  # INT32 x2 holding (64, 16) INT4 values: out (4, 16)
    flags = {"transposeX1": False, "transposeX2": False}
    packed = {"x1": np.zeros((4, 64), np.int32), "x2": np.zeros((64, 2), np.int32), **flags}
    assert _shapes.output_shape(plain, shapes, packed) is None  # not the tensors' product: unchecked
    plain_int8 = {**packed, "x1": np.zeros((4, 64), np.int8), "x2": np.zeros((64, 2), np.int8)}
    assert _shapes.output_shape(plain, shapes, plain_int8) == (4, 2)
    # operands that are never INT32 keep the plain product
    assert _unpacked(rule, [_tensor(n, "in", ["INT8", "INT4"]) for n in ("x1", "x2")]).when == ()


def test_unsettled_rules_give_none():
    assert (
        _shapes.output_shape({"kind": "explicit", "dims": ["x.shape[-1] / 2"]}, {"x": (3,)}, {}) is None
    )  # a remainder
    assert _shapes.output_shape({"kind": "same", "params": ["x"]}, {"x": None}, {}) is None  # a null input
    assert _shapes.output_shape({"kind": "broadcast", "params": ["a", "b"]}, {"a": (2,), "b": (3,)}, {}) is None
    assert _shapes.output_shape({"kind": "not_derivable", "reason": "r"}, {}, {}) is None


def test_a_dtype_given_by_an_acl_data_type_argument():
    from specgen.codegen.runtime._tensor import DataType

    # aclnnQuantize (ops-nn): "dtype: 指定输出的数据类型"
    rule = {"kind": "given", "params": ["dtype"]}
    assert _shapes.output_dtype(rule, {}, {"dtype": DataType.INT32}) == "INT32"
    assert _shapes.output_dtype(rule, {}, {"dtype": "int8"}) == "INT8"
    assert _shapes.output_dtype(rule, {}, {}) is None  # validators: not settled, not checked
    assert _shapes.dtype_allowed(rule, {}, "FLOAT") is None


def test_dtype_rules():
    assert _shapes.output_dtype({"kind": "one_of", "values": ["INT64", "INT32"]}, {}) == "INT64"
    assert _shapes.dtype_allowed({"kind": "one_of", "values": ["INT64", "INT32"]}, {}, "INT32")
    assert _shapes.dtype_allowed({"kind": "same", "params": ["self"]}, {"self": "FLOAT"}, "FLOAT16") is False
    assert _shapes.dtype_allowed({"kind": "same", "params": ["self"]}, {"self": None}, "FLOAT16") is None


# The derived rules are held to the documents' own calls and the example programs, with every
# disagreement read by hand, in tests/test_output_truth.py.


def test_allocate_follows_the_rules_and_says_why_it_cannot():
    import numpy as np

    x = np.zeros((2, 3), dtype=np.float32)
    indices = _shapes.allocate(
        "indices", {"kind": "same", "params": ["self"]}, {"kind": "one_of", "values": ["INT32", "INT64"]}, {"self": x}
    )
    assert indices.shape == (2, 3) and indices.dtype == np.int32  # cummin-like: not self's dtype
    flags = _shapes.allocate(
        "out",
        {"kind": "broadcast", "params": ["self", "other"]},
        {"kind": "fixed", "values": ["BOOL"]},
        {"self": x, "other": np.zeros((3,), dtype=np.float32)},
    )
    assert flags.shape == (2, 3) and flags.dtype == np.bool_  # a comparison's output
    with pytest.raises(TypeError, match="pass out: its shape"):
        _shapes.allocate(
            "out", {"kind": "same", "params": ["self"]}, {"kind": "fixed", "values": ["BOOL"]}, {"self": None}
        )


def test_a_shape_the_row_makes_depend_on_a_value_is_said():
    from specgen.text import value_condition

    # aclnnSoftMarginLoss's out row (ops-nn), and a row with no condition
    row = "若reduction取值为'none'，则shape需要与self和target进行broadcast后的shape一致，否则out为scalar。"
    assert value_condition([row], ["reduction", "x"]) == "reduction"
    assert value_condition(["shape需要与self和target进行broadcast后的shape一致"], ["reduction"]) == ""
    assert value_condition(["若x为空Tensor，out为空Tensor"], ["x"]) == ""  # two-letter names are words' parts


def test_tensor_lists_are_allocated_element_by_element():
    import numpy as np

    # aclnnForeachAbs (ops-nn): "shape size大于等于入参x的shape size", dtype as x
    at_least = {"kind": "at_least", "params": ["x"]}
    same = {"kind": "same", "params": ["x"]}
    x = [np.zeros((2, 3), dtype=np.float16), np.zeros((4,), dtype=np.float16)]
    out = _shapes.allocate("out", at_least, same, {"x": x, "scalar": 2.0}, each=True)
    assert [(a.shape, a.dtype) for a in out] == [((2, 3), np.float16), ((4,), np.float16)]
    with pytest.raises(TypeError, match="pass out: its length"):
        _shapes.allocate("out", at_least, same, {"x": None}, each=True)


def test_a_lower_bound_on_the_element_count_holds_an_output_to_no_one_shape():
    rule = {"kind": "at_least", "params": ["x"]}
    assert _shapes.output_shape(rule, {"x": (2, 3)}, {}) is None  # a larger output is valid: not checked
    assert _shapes.allocation_shape(rule, {"x": (2, 3)}, {}) == (2, 3)


def test_a_symbol_is_read_from_the_first_input_the_call_gives_and_never_two_ways():
    # aclnnCrossEntropyLossGrad (ops-nn): out (N,C); gradLoss (N,) binds N first, but is 0-d
    # for reduction mean/sum, so N comes from logProb (N, C)
    rule = {
        "kind": "explicit",
        "dims": ["N", "C"],
        "symbols": [
            {"symbol": "C", "param": "logProb", "axis": 1},
            {"symbol": "N", "param": "gradLoss", "axis": 0},
            {"symbol": "N", "param": "logProb", "axis": 0},
        ],
    }
    assert _shapes.output_shape(rule, {"gradLoss": (), "logProb": (2, 3)}, {}) == (2, 3)
    assert _shapes.output_shape(rule, {"gradLoss": (2,), "logProb": (2, 3)}, {}) == (2, 3)
    # aclnnConvTbcBackward: a sample whose weight is (K, Cin, Cout) reads Cout two ways: unsettled
    assert _shapes.output_shape(rule, {"gradLoss": (4,), "logProb": (2, 3)}, {}) is None


def test_a_symbol_the_statement_defines_by_a_formula_is_replaced_by_it():
    from specgen.parse.classify.shapes import defined_in_place

    # aclnnTurboQuantCompressLatent (ops-nn): C's rounding idiom is not read inside ceil()
    text = "shape为[numTokens, slotSize]，其中slotSize = ceil((headDim / 2 + 2) / 64) * 64。"
    assert defined_in_place(("numTokens", "slotSize"), text, ["latent"]) == (
        "numTokens",
        "ceil((headDim / 2 + 2) / 64) * 64",
    )
    # aclnnSituMxQuant
    text = "shape为x.shape[:-1]+[ceil(H/64), 2]，其中H=x.shape[-1]/2。"
    dims = defined_in_place(("*x.shape[:-1]", "ceil(H / 64)", "2"), text, ["x"])
    assert _shapes.output_shape({"kind": "explicit", "dims": dims}, {"x": (4, 128)}, {}) == (4, 1, 2)


def test_an_allocated_output_takes_the_format_of_the_input_it_follows_when_allowed():
    import numpy as np

    from specgen.codegen.runtime._tensor import Tensor

    same, dtype = {"kind": "same", "params": ["self"]}, {"kind": "same", "params": ["self"]}
    x = np.zeros((1, 2, 3, 4), dtype=np.float32)
    # aclnnAdaptiveAvgPool2d (ops-nn): self NCHW, out ND or NCHW, "self和out数据类型或者数据格式不一致" is an error
    out = _shapes.allocate("out", same, dtype, {"self": Tensor(x, "NCHW")}, follows=("self", "ND", ("ND", "NCHW")))
    assert isinstance(out, Tensor) and out.format == "NCHW" and out.array.shape == (1, 2, 3, 4)
    # a plain array: the format it is sent in by default
    out = _shapes.allocate("out", same, dtype, {"self": x}, follows=("self", "NCHW", ("ND", "NCHW")))
    assert isinstance(out, Tensor) and out.format == "NCHW"
    # ND admits the plain layouts, as the validators read it: self NHWC, out NHWC (its error
    # table wants self's format)
    out = _shapes.allocate("out", same, dtype, {"self": Tensor(x, "NHWC")}, follows=("self", "ND", ("ND", "NCHW")))
    assert isinstance(out, Tensor) and out.format == "NHWC"
    # a format the output does not allow (no ND among its formats; a private layout), or ND:
    # a plain array
    for fmt, formats in (("NHWC", ("NCHW", "NCL")), ("NC1HWC0", ("ND", "NCHW")), ("NC1HWC0", ()), ("ND", ("ND",))):
        given = {"self": Tensor(x, fmt)}
        assert isinstance(_shapes.allocate("out", same, dtype, given, follows=("self", "ND", formats)), np.ndarray)
    # aclnnRmsNormGrad (ops-nn): dxOut "shape与入参dy的shape保持一致", rows ND; its call passes
    # dy and dxOut NCDHW. Rows that name no format: the plain layout given
    for formats in (("ND",), ()):
        out = _shapes.allocate("dxOut", same, dtype, {"self": Tensor(x, "NCDHW")}, follows=("self", "ND", formats))
        assert isinstance(out, Tensor) and out.format == "NCDHW"
    # a tensor list (aclnnForeachSqrt's out, `数据格式与入参x的数据格式一致`): item by item
    at_least, like = {"kind": "at_least", "params": ["x"]}, {"kind": "same", "params": ["x"]}
    given = {"x": [Tensor(x, "NCHW"), x[0]]}
    items = _shapes.allocate("out", at_least, like, given, each=True, follows=("x", "ND", ("ND",)))
    assert [(type(i).__name__, getattr(i, "format", "")) for i in items] == [("Tensor", "NCHW"), ("ndarray", "")]
    # another rank (a statistic of the input): a plain array
    reduced = {"kind": "explicit", "dims": ["*self.shape[:2]"]}
    follows = ("self", "ND", ("ND", "NCHW"))
    assert isinstance(_shapes.allocate("m", reduced, dtype, {"self": Tensor(x, "NCHW")}, follows=follows), np.ndarray)


def _tensor(name, direction, dtypes, *relations, text=""):
    from specgen.model import Constraint, Param

    constraints = [Constraint(kind="dtypes", text="、".join(dtypes), line=1, values=tuple(dtypes))]
    constraints += [Constraint(kind="same_dtype", text=r, line=1, params=(peer,)) for peer, r in relations]
    c_type = "aclTensor*" if direction == "out" else "const aclTensor*"
    return Param(
        name=name, c_type=c_type, kind="tensor", direction=direction, constraints=tuple(constraints), text=text, line=1
    )


def test_dtype_rules_read_from_the_parameters():
    from specgen.model import Param
    from specgen.parse.classify.shapes import dtype_rule

    # aclnnQuantize (ops-nn): the aclDataType parameter gives the one output's dtype
    x = _tensor("x", "in", ["FLOAT", "FLOAT16"])
    out = _tensor("out", "out", ["INT8", "UINT8", "INT32"])
    dtype = Param(name="dtype", c_type="aclDataType", kind="dtype", direction="in", text="指定输出的数据类型。", line=1)
    rule = dtype_rule(out, [x, dtype, out], [])
    assert (rule.kind, rule.params) == ("given", ("dtype",))
    # aclnnLinalgVectorNorm: "需要与out的dtype一致" names the output
    dtype = dtype.model_copy(update={"text": "指定self计算时的数据类型。需要与out的dtype一致。"})
    assert dtype_rule(out, [x, dtype, out], []).kind == "given"
    # an index output is never given a float tensor's dtype (aclnnCummin, ops-math: INT32/INT64 indices)
    self = _tensor("self", "in", ["FLOAT", "INT32", "INT64"])
    indices = _tensor("indices", "out", ["INT64", "INT32"], ("self", "indices的数据类型与self一致"))
    rule = dtype_rule(indices, [self, indices], [])
    assert (rule.kind, rule.values) == ("one_of", ("INT64", "INT32"))
    # but takes an index input's (its dtypes within the output's)
    index = _tensor("index", "in", ["INT64", "INT32"])
    indices = _tensor("indices", "out", ["INT64", "INT32"], ("index", "与index一致"))
    assert dtype_rule(indices, [index, indices], []).params == ("index",)


def test_the_input_unnamed_is_the_first_of_inputs_the_document_ties_to_one_shape():
    from specgen.parse.classify.shape_phrases import ShapeContext, read_same

    # aclnnSiluMul (ops-nn): "输出shape与输入shape一致", with x "shape需与y一致"
    ctx = ShapeContext(("x", "y", "out"), ("x", "y"), "out", "", ("x", "y", "out"), one_shape=True)
    assert read_same("输出shape与输入shape一致", ctx) == ("same", ("x",), ())
    ctx = ShapeContext(("x", "y", "out"), ("x", "y"), "out", "", ("x", "y", "out"))
    assert read_same("输出shape与输入shape一致", ctx) is None  # two inputs that may differ


def test_a_shape_said_for_one_value_only_is_not_read():
    from specgen.parse.classify.shape_phrases import ShapeContext
    from specgen.parse.classify.shapes import Statement, explicit_dims

    # aclnnGaussianNllLoss (ops-nn experimental): the output has one element for sum/mean
    said = [Statement("none 时 shape 与 input 一致；sum/mean 时含一个元素。", 1)]
    ctx = ShapeContext(("input", "target", "var", "reduction", "out"), ("input", "target", "var"), "out")
    assert explicit_dims(said, ctx) == "a shape is given only under a condition"


def test_a_shape_columns_bare_relation_names_the_shape_unless_the_column_counts_dimensions():
    from specgen.parse.classify.shape_phrases import ShapeContext
    from specgen.parse.classify.shapes import Statement, explicit_dims

    ctx = ShapeContext(("self", "gamma", "out"), ("self", "gamma"), "out")
    # aclnnGroupNormSilu (ops-nn): out's 维度(shape) cell `与self一致`, self's cell empty
    said = [Statement("数据类型与self保持一致。", 1), Statement("与self一致", 1, cell=True)]
    assert explicit_dims(said, ctx, {"out": ["与self一致"]})[0] == ("same", ("self",), ())
    assert explicit_dims(said[:1], ctx) == ""  # the dtype sentence alone says nothing of the shape
    assert explicit_dims([Statement("与self一致", 1)], ctx) == ""  # the same words outside the column
    # aclnnHardswishBackward (ops-nn experimental): `与 \`gradOutput\` 一致` in its shape column
    ctx = ShapeContext(("gradOutput", "self", "out"), ("gradOutput", "self"), "out")
    said = [Statement("与 `gradOutput` 一致", 1, cell=True)]
    assert explicit_dims(said, ctx, {})[0] == ("same", ("gradOutput",), ())
    # aclnnUniqueConsecutive (ops-nn): the column gives self `≤8`, a rank, so valueOut's
    # `与self保持一致` (and inverseOut's `与valueOut保持一致`) count dimensions: its call passes
    # valueOut (8,) for self (4, 2)
    ctx = ShapeContext(("self", "valueOut", "inverseOut"), ("self",), "inverseOut")
    cells = {"self": ["≤8"], "valueOut": ["与self保持一致"], "inverseOut": ["与valueOut保持一致"]}
    assert explicit_dims([Statement("与valueOut保持一致", 1, cell=True)], ctx, cells) == ""
    # aclnnIndexSelect (ops-nn): self `不大于8`
    assert explicit_dims([Statement("与self一致", 1, cell=True)], ctx, {"self": ["不大于8"]}) == ""


def _flag(name: str, kind: str) -> Param:
    c_type = "const aclBoolArray*" if kind == "bool_array" else "bool"
    return Param(name=name, c_type=c_type, kind=kind, direction="in", line=1)


def test_an_output_written_under_a_bool_holds_its_rule_under_that_bool():
    from specgen.parse.classify.shapes import written_when

    gradOut, inp = _tensor("gradOut", "in", ["FLOAT"]), _tensor("input", "in", ["FLOAT"])
    mask, flag = _flag("outputMask", "bool_array"), _flag("inputG", "bool")
    # aclnnBatchNormBackward.md (ops-nn norm/batch_norm_grad_v3): gradInput's row
    row = (
        "可选输出，若outputMask[0]为True，则需要输出，否则不输出。\n数据类型、shape、数据格式均需要与gradOut保持一致。"
    )
    grad = _tensor("gradInput", "out", ["FLOAT"]).model_copy(update={"text": row})
    assert written_when(grad, [gradOut, inp, mask, grad]) == ("outputMask", "0", "true")
    # aclnnBatchNormReduceBackward.md (ops-nn norm/sync_batch_norm_backward_reduce): sumDy's row
    row = "可选输出，如果inputG为True则输出，shape的size需要与input的channel轴的长度相等。"
    sum_dy = _tensor("sumDy", "out", ["FLOAT"]).model_copy(update={"text": row})
    assert written_when(sum_dy, [gradOut, inp, flag, sum_dy]) == ("inputG", "", "true")
    # aclnnRmsNormQuantV3.md (ops-nn norm/rms_norm_quant_v3): rstd's row
    row = "当outputRstd为True时，shape与入参x的shape前几维保持一致…\n当outputRstd为False时，该参数的最终输出无效。"
    rstd = _tensor("rstd", "out", ["FLOAT"]).model_copy(update={"text": row})
    assert written_when(rstd, [inp, _flag("outputRstd", "bool"), rstd]) == ("outputRstd", "", "true")
    # a condition on a value that is no bool, or on an array without its element, is not one
    assert written_when(grad, [gradOut, inp, _flag("outputMask", "bool"), grad]) == ()
    assert written_when(sum_dy, [gradOut, inp, _flag("inputG", "bool_array"), sum_dy]) == ()
    row = "当reduction为True时，shape与input一致"
    out = _tensor("out", "out", ["FLOAT"]).model_copy(update={"text": row})
    assert (
        written_when(out, [inp, Param(name="reduction", c_type="int64_t", kind="int", direction="in", line=1), out])
        == ()
    )


def test_a_rule_under_a_bool_is_checked_only_when_it_is_true_and_allocated_either_way():
    import numpy as np

    rule = {"kind": "same", "params": ["gradOut"], "when": ["outputMask", "0", "true"]}
    shapes = {"gradOut": (2, 3)}
    assert _shapes.output_shape(rule, shapes, {"outputMask": [True, False, True]}) == (2, 3)
    assert _shapes.output_shape(rule, shapes, {"outputMask": [False, True, True]}) is None
    assert _shapes.output_shape(rule, shapes, {"outputMask": None}) is None
    assert _shapes.output_shape(rule, shapes, {"outputMask": []}) is None
    flagged = {"kind": "same", "params": ["gradOut"], "when": ["inputG", "", "true"]}
    assert _shapes.output_shape(flagged, shapes, {"inputG": True}) == (2, 3)
    assert _shapes.output_shape(flagged, shapes, {"inputG": False}) is None
    grad = np.zeros((2, 3), dtype=np.float32)
    args = {"gradOut": grad, "outputMask": [False, False, False]}
    assert _shapes.allocate("gradInput", rule, {"kind": "same", "params": ["gradOut"]}, args).shape == (2, 3)


def test_a_latex_size_formula_reads_as_the_evaluators_expression():
    from specgen.parse.classify.shape_formulas import latex_expression

    # aclnnAvgPool3d.md (ops-nn pooling/avg_pool3_d): the +1 inside the floor
    latex = r"\lfloor \frac{D_{in}+2*padding[0]-kernelSize[0]}{stride[0]}+1 \rfloor"
    assert latex_expression(latex) == "floor((D_in + 2 * padding[0] - kernelSize[0]) / stride[0] + 1)"
    # aclnnMaxPool2dWithIndices.md (ops-nn pooling/max_pool3d_with_argmax_v2): braces only group
    # for the typesetter, `2 \times {padding[0] - …}` is not 2 * (padding[0] - …)
    latex = r"\lfloor{\frac{H_{in}+2 \times {padding[0] - dilation[0] \times(kernelSize[0] - 1) - 1}}{stride[0]}}\rfloor + 1"
    expected = "floor((H_in + 2 * padding[0] - dilation[0] * (kernelSize[0] - 1) - 1) / stride[0]) + 1"
    assert latex_expression(latex) == expected
    assert latex_expression(r"\sum_{k=0}^{kD-1} x") is None  # not a size


def _pool_params(*, kernel: str = "kernelSize", ceil_row: str = "计算输出形状时取整的方法。") -> list[Param]:
    tensor = {"c_type": "const aclTensor*", "kind": "tensor", "direction": "in", "line": 1}
    array = {"c_type": "const aclIntArray*", "kind": "int_array", "direction": "in", "line": 1}
    return [
        Param(name="self", description="待计算张量。", **tensor),
        *(Param(name=n, **array) for n in (kernel, "stride", "padding", "dilation")),
        Param(name="ceilMode", c_type="bool", kind="bool", direction="in", description=ceil_row, line=1),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", text="shape由上述公式推导出。", line=1),
        Param(name="indices", c_type="aclTensor*", kind="tensor", direction="out", text="shape与out一致。", line=1),
    ]


# aclnnMaxPool2dWithIndices.md (ops-nn pooling/max_pool3d_with_argmax_v2), its 计算公式
_MAX_POOL_2D = (
    r"[N, C, H_{out}, W_{out}]=[N,C,\lfloor{\frac{H_{in}+2 \times {padding[0] - dilation[0] \times(kernelSize[0] - 1)"
    r" - 1}}{stride[0]}}\rfloor + 1,\lfloor{\frac{W_{in}+2 \times {padding[1] - dilation[1] \times(kernelSize[1] - 1)"
    r" - 1}}{stride[1]}}\rfloor + 1]"
)


def test_a_pooling_output_follows_the_documents_size_formula_while_the_bool_it_names_is_false():
    from specgen.parse.classify.shape_formulas import formula_rule

    params = _pool_params()
    rule = formula_rule(params[-2], params, _MAX_POOL_2D, 1)
    assert rule is not None and rule.kind == "explicit" and rule.when == ("ceilMode", "bool", "false", "true")
    assert formula_rule(params[-1], params, _MAX_POOL_2D, 1) is None  # indices: "shape与out一致"
    # the repository's example test_aclnn_max_pool2d_with_indices.cpp: self {1, 1, 4, 3},
    # kernel, stride {2, 2}, padding {0, 0}, dilation {1, 1}, ceilMode false, out {1, 1, 2, 1}
    plain = rule.model_dump(mode="json")
    values = {"kernelSize": [2, 2], "stride": [2, 2], "padding": [0, 0], "dilation": [1, 1], "ceilMode": False}
    assert _shapes.output_shape(plain, {"self": (1, 1, 4, 3)}, values) == (1, 1, 2, 1)
    assert _shapes.output_shape(plain, {"self": (1, 4, 3)}, values) == (1, 2, 1)  # no batch axis
    assert _shapes.output_shape(plain, {"self": (1, 1, 4, 3)}, {**values, "ceilMode": True}) is None
    assert _shapes.output_shape(plain, {"self": (1, 1, 4, 3)}, {**values, "stride": [0, 0]}) is None
    # nor allocated then: the ceil formula gives (1, 1, 2, 2), which the floor one does not
    assert _shapes.allocation_shape(plain, {"self": (1, 1, 4, 3)}, {**values, "ceilMode": True}) is None


def test_a_size_formula_with_a_name_no_parameter_gives_or_two_roundings_is_not_read():
    from specgen.parse.classify.shape_formulas import formula_rule

    # aclnnAvgPool2d.md (ops-nn pooling/avg_pool3_d): kH is no parameter (kernelSize is)
    latex = r"H_{out}=\lfloor \frac{H_{in}+2*paddings[0]-kH}{strides[0]}+1 \rfloor"
    params = _pool_params()
    rule = formula_rule(params[-2], params, latex, 1)
    assert rule is not None and not rule.derived and "H_out" in rule.reason
    # aclnnMaxPool3dWithArgmax.md gives a floor and a ceil formula: with no bool whose row says
    # it chooses the rounding, which holds when is not read
    ceil = _MAX_POOL_2D.replace(r"\lfloor", r"\lceil").replace(r"\rfloor", r"\rceil")
    unsaid = _pool_params(ceil_row="是否开启ceil模式。")
    rule = formula_rule(unsaid[-2], unsaid, _MAX_POOL_2D + "\n\n" + ceil, 1)
    assert rule is not None and "two ways" in rule.reason


def test_an_output_whose_shape_rule_the_documents_own_call_breaks_is_not_allocated(corpus):
    from specgen.codegen.lower import operator_code
    from specgen.parse import parse_paths

    # aclnnTopKTopPSample.md (ops-nn index/top_k_top_p_sample): both outputs' rows say
    # "shape需要与`logits`前n-1维一致"; the sample passes logitsSelectIdx (48,) but
    # logitsTopKPSelect logits' (48, 131072)
    [path] = (corpus / "docs" / "ops-nn").glob("**/top_k_top_p_sample/docs/aclnnTopKTopPSample.md")
    [doc] = parse_paths([path])
    [fn] = operator_code(doc, str(path)).functions
    allocation = {a.code.param.name: a.allocation for a in fn.wrapper if a.output}
    assert allocation["logitsSelectIdx"].shape["dims"] == ["*logits.shape[:-1]"]
    assert "the document's own sample call" in allocation["logitsTopKPSelect"].refusal


def _int(name, text):
    from specgen.model import Param

    return Param(name=name, c_type="int64_t", kind="int", direction="in", text=text, line=1)


def test_an_integer_whose_values_are_dtype_codes_gives_the_outputs_dtype():
    from specgen.parse.classify.shapes import dtype_rule

    x = _tensor("x", "in", ["FLOAT16", "BFLOAT16"])
    fp = ["FLOAT4_E2M1", "FLOAT4_E1M2", "FLOAT8_E4M3FN", "FLOAT8_E5M2"]
    # aclnnDynamicMxQuant (ops-nn): the integer's row names the output and maps each code
    y = _tensor("yOut", "out", fp)
    dst = _int(
        "dstType",
        "表示指定数据转换后yOut的类型，对应公式中的DType。\n输入范围为{35, 36, 40, 41}，分别对应输出yOut的数据类型为"
        "{35:FLOAT8_E5M2, 36:FLOAT8_E4M3FN, 40:FLOAT4_E2M1, 41:FLOAT4_E1M2}。",
    )
    assert (dtype_rule(y, [x, dst, y], []).kind, dtype_rule(y, [x, dst, y], []).params) == ("given", ("dstType",))
    # aclnnDynamicMxQuantWithDualAxis: one integer for two outputs
    y1 = _tensor("y1Out", "out", fp)
    dual = _int(
        "dstType",
        "表示指定数据转换后y1Out和y2Out的类型。\n输入范围为{35, 36, 40, 41}，分别对应输出y1Out和y2Out的数据类型为{35: FLOAT8_E5M2}。",
    )
    assert dtype_rule(y1, [x, dual, y1], []).kind == "given"
    # aclnnTransposeQuantBatchMatMul: codes without names, all the output's dtypes
    out = _tensor("out", "out", ["BFLOAT16", "FLOAT16", "HIFLOAT8"])
    kind = _int("dtype", "用于指定输出矩阵的数据类型，支持的值为：1、27、34。\n取值为1, 表示输出矩阵类型为FLOAT16。")
    assert dtype_rule(out, [x, kind, out], []).kind == "given"
    # aclnnGroupedDynamicMxQuantWithDualAxis: the output's row names the integer
    y = _tensor(
        "y1Out",
        "out",
        ["FLOAT8_E4M3FN", "FLOAT8_E5M2"],
        text="数据类型由调用者预分配Tensor时指定，且需要与dstDtype一致。",
    )
    dst = _int(
        "dstDtype", "y1Out和y2Out的目标输出数据类型。\n仅支持取值35和36，其中35表示FLOAT8_E5M2，36表示FLOAT8_E4M3FN。"
    )
    assert dtype_rule(y, [x, dst, y], []).params == ("dstDtype",)


def test_an_integer_names_the_output_by_its_formula_name_or_spells_its_codes_out():
    from specgen.parse.classify.shapes import dtype_rule

    x = _tensor("x", "in", ["FLOAT16"])
    # aclnnSituMxQuant: the row calls the output y, its formula name (`量化后的输出，公式中的y`)
    y = _tensor("yOut", "out", ["FLOAT8_E4M3FN", "FLOAT8_E5M2"]).model_copy(
        update={"description": "量化后的输出，公式中的y。"}
    )
    dst = _int(
        "dstType", "输出y的数据类型。\n输入范围为{35, 36}，分别对应{35: FLOAT8_E5M2, 36: FLOAT8_E4M3FN}。默认36。"
    )
    assert dtype_rule(y, [x, dst, y], []).params == ("dstType",)
    # aclnnDynamicQuantV2: the output without its Out, and pairs spelled dtype first
    y = _tensor("yOut", "out", ["INT4", "INT8", "INT32", "HIFLOAT8"])
    dst = _int(
        "dstType",
        "输出y的类型对应的枚举值。\n如果输出y类型为INT8，则为2；y类型为INT4时，则为29；y类型为INT32时，则为3。",
    )
    assert dtype_rule(y, [x, dst, y], []).params == ("dstType",)
    wrong = dst.model_copy(update={"text": dst.text.replace("则为3", "则为9")})  # 9 is INT64
    assert dtype_rule(y, [x, wrong, y], []).kind == "not_derivable"
    # aclnnSwiGluQuantV2: `N表示yOut为int8量化输出`
    y = _tensor("yOut", "out", ["INT8", "INT4"])
    dst = _int(
        "dstType", "用户必须传参，2表示yOut为int8量化输出、29表示yOut为int4量化输出。当前仅支持输入2和29，默认值是2。"
    )
    assert dtype_rule(y, [x, dst, y], []).params == ("dstType",)
    wrong = dst.model_copy(update={"text": dst.text.replace("29表示yOut为int4", "29表示yOut为int8")})
    assert dtype_rule(y, [x, wrong, y], []).kind == "not_derivable"


def test_an_elementwise_output_allowing_fewer_dtypes_is_allocated_in_its_inputs_where_it_can():
    from specgen.model import ShapeRule
    from specgen.parse.classify.shapes import dtype_rule

    # aclnnErfinv (ops-nn): self FLOAT、FLOAT16、BFLOAT16、BOOL、INT8…INT64, out FLOAT、FLOAT16、BFLOAT16
    # and `shape需要与self一致`; nothing relates the dtypes
    x = _tensor("self", "in", ["FLOAT", "FLOAT16", "BFLOAT16", "BOOL", "INT8", "INT32", "INT64"])
    out = _tensor("out", "out", ["FLOAT", "FLOAT16", "BFLOAT16"])
    same = ShapeRule(kind="same", params=("self",), line=1)
    rule = dtype_rule(out, [x, out], [], [], same)
    assert (rule.kind, rule.params, rule.values) == ("same_set", ("self",), ("FLOAT", "FLOAT16", "BFLOAT16"))
    plain = rule.model_dump(mode="json", exclude={"text", "line", "reason"})
    assert _shapes.output_dtype(plain, {"self": "FLOAT16"}) == "FLOAT16"
    assert _shapes.output_dtype(plain, {"self": "INT32"}) is None  # not guessed: the caller passes out
    # not elementwise (no shape tie), or an index output's INT32/INT64: not read
    assert dtype_rule(out, [x, out], []).kind == "not_derivable"
    index = _tensor("countsOut", "out", ["INT32", "INT64"])
    assert dtype_rule(index, [x, index], [], [], same).kind == "not_derivable"


def test_a_bool_that_chooses_the_outputs_dtype():
    from specgen.model import Param
    from specgen.parse.classify.shapes import Statement, dtype_rule

    x = _tensor("self", "in", ["FLOAT", "INT32"])
    out = _tensor("out", "out", ["INT32", "INT64"], text="数据类型由outInt32决定。")
    flag = Param(name="outInt32", c_type="bool", kind="bool", direction="in", line=1)
    # aclnnBucketize's 约束说明
    note = Statement("- outInt32为True时，out的数据类型必须为INT32；outInt32为False时，out的数据类型必须为INT64。", 237)
    rule = dtype_rule(out, [x, flag, out], [], [note])
    assert (rule.kind, rule.params, rule.values) == ("given", ("outInt32",), ("INT32", "INT64"))
    plain = {"kind": rule.kind, "params": list(rule.params), "values": list(rule.values)}
    assert _shapes.output_dtype(plain, {}, {"outInt32": True}) == "INT32"
    assert _shapes.output_dtype(plain, {}, {"outInt32": False}) == "INT64"
    # one case only: the other dtype is not said
    half = Statement("- outInt32为True时，out的数据类型必须为INT32。", 237)
    assert dtype_rule(out, [x, flag, out], [], [half]).kind == "not_derivable"


def test_an_integer_is_no_dtype_code_when_its_values_or_names_disagree():
    from specgen.parse.classify.shapes import dtype_rule

    x = _tensor("x", "in", ["FLOAT16"])
    y = _tensor("yOut", "out", ["FLOAT8_E4M3FN", "FLOAT8_E5M2"])
    # a value that is not the code of a dtype the output allows (0 is FLOAT)
    dst = _int("dstType", "指定输出yOut的数据类型。支持取值0、35。")
    assert dtype_rule(y, [x, dst, y], []).kind == "not_derivable"
    # a pair that names another dtype than the code's
    dst = _int("dstType", "指定输出yOut的数据类型。输入范围为{35, 36}，分别对应{35:FLOAT8_E4M3FN, 36:FLOAT8_E5M2}。")
    assert dtype_rule(y, [x, dst, y], []).kind == "not_derivable"
    # the output's row names an integer whose values are no codes of its dtypes (0-3: FLOAT..INT32)
    named = y.model_copy(update={"text": "数据类型与quantMode对应。"})
    mode = _int("quantMode", "量化模式。支持取值0、1、2、3。")
    assert dtype_rule(named, [x, mode, named], []).kind == "not_derivable"
    # only under a condition (aclnnSwigluGroupQuant: quantMode为0或1时，数据类型需与dstType一致)
    y = y.model_copy(
        update={"text": "quantMode为0或1时，数据类型需与dstType一致；quantMode为2或3时，数据类型默认为HIFLOAT8。"}
    )
    dst = _int("dstType", "目标量化类型。支持取值35、36，分别表示FLOAT8_E5M2、FLOAT8_E4M3FN。")
    assert dtype_rule(y, [x, dst, y], []).kind == "not_derivable"


def test_an_integer_dtype_code_sets_and_checks_the_outputs_dtype():
    rule = {"kind": "given", "params": ["dstType"]}
    assert _shapes.output_dtype(rule, {}, {"dstType": 36}) == "FLOAT8_E4M3FN"
    assert _shapes.output_dtype(rule, {}, {"dstType": 99}) is None  # no dtype: not settled
    assert _shapes.output_dtype(rule, {}, {"dstType": True}) == "FLOAT16"  # C's true is 1 (aclnnDequantBias' sample)
    assert _shapes.dtype_allowed(rule, {}, "FLOAT8_E5M2", {"dstType": 36}) is False
    assert _shapes.dtype_allowed(rule, {}, "FLOAT8_E4M3FN", {"dstType": 36}) is True


def test_a_symbol_the_output_defines_by_an_inputs_dimension_counts_as_the_statement_does():
    from specgen.model import SymbolDim
    from specgen.parse.classify.shapes import Statement, _defined

    params = [_tensor("self", "in", ["FLOAT"]), _tensor("x", "in", ["FLOAT"])]
    # aclnnGroupNormSilu (ops-nn): 第1维 is the first (its call: self (2, 3, 4), meanOut (2, 1))
    said = [Statement("shape中N是self第1维的大小", 1)]
    assert _defined(said, params) == {"N": SymbolDim(symbol="N", param="self", axis=0)}
    # a statement that counts from 第0维 says so
    said = [Statement("shape为[N]，其中N表示x第0维度的大小", 1)]
    assert _defined(said, params) == {"N": SymbolDim(symbol="N", param="x", axis=0)}
    assert _defined([Statement("N是out第1维的大小", 1)], params) == {}  # no input's


def test_a_list_of_bare_symbols_gives_way_to_a_reading_that_gives_sizes():
    from specgen.parse.classify.shape_phrases import ShapeContext
    from specgen.parse.classify.shapes import Statement, explicit_dims

    # aclnnQuantMatmulV4 (ops-nn): out's row `（batch，m，n）`, the formula `out = x1@x2 * scale + offset`
    names = ("x1", "x2", "scale", "transposeX1", "transposeX2", "out")
    ctx = ShapeContext(names, ("x1", "x2", "scale"), "out", tensors=("x1", "x2", "scale", "out"))
    said = [Statement("（batch，m，n）", 1), Statement("out = x1@x2 * scale + offset", 2)]
    assert explicit_dims(said, ctx)[0] == ("matmul", ("x1", "x2", "transposeX1", "transposeX2"), ())
    # two lists: still two shapes
    said = [Statement("shape为[M, N]", 1), Statement("shape为[B, M, N]", 2)]
    assert explicit_dims(said, ctx).startswith("the document gives several shapes")


def test_a_shape_said_for_every_dtype_but_one_holds_for_the_others():
    import numpy as np

    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse.classify.shapes import Statement, _for_other_dtypes

    y = _tensor("y", "out", ["INT8", "INT32", "INT4"])
    # aclnnAscendQuant (ops-nn): INT32 packs eight INT4 values
    said = [
        Statement(
            "类型为INT32时，shape的最后一维是`x`最后一维的1/8，其余维度和`x`一致；其他类型时，shape与`x`一致。", 1
        )
    ]
    rule = _for_other_dtypes(y, said, ("x", "scale"))
    assert (rule.kind, rule.params, rule.when) == ("same", ("x",), ("y", "dtype", "INT32", "false"))
    # aclnnDynamicQuant: the two halves in two sentences; aclnnAscendAntiQuant: the input's dtype decides
    said = [Statement("类型为INT32时，shape的最后一维是x最后一维的1/8，其余维度和x一致。其他类型时，shape与x一致。", 1)]
    assert _for_other_dtypes(y, said, ("x",)).when == ("y", "dtype", "INT32", "false")
    said = [Statement("当输入x为INT32类型时，shape尾轴的大小为输入x的尾轴大小的8倍，其余情况shape与输入x一致。", 1)]
    assert _for_other_dtypes(y, said, ("x",)).when == ("x", "dtype", "INT32", "false")
    assert _for_other_dtypes(y, [Statement("shape与x一致。", 1)], ("x",)) is None
    # checked for the other dtypes only; allocated only in them
    plain = {"kind": "same", "params": ["x"], "when": ["y", "dtype", "INT32", "false"]}
    x = TensorDesc((4, 16), "FLOAT")
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "y": TensorDesc((4, 16), "INT8")}) == (4, 16)
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "y": TensorDesc((4, 2), "INT32")}) is None
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x}) is None  # the call does not settle it
    array = np.zeros((4, 16), dtype=np.float32)
    int8 = {"kind": "fixed", "values": ["INT8"]}
    assert _shapes.allocate("y", plain, int8, {"x": array, "y": None}).shape == (4, 16)
    with pytest.raises(TypeError, match="pass y: its shape"):
        _shapes.allocate("y", plain, {"kind": "fixed", "values": ["INT32"]}, {"x": array, "y": None})


def test_the_other_dtypes_case_of_its_own_item_holds_only_for_them(corpus):
    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse import parse_paths
    from specgen.parse.classify.shapes import Statement, _conditional, _for_other_dtypes

    # aclnnDynamicQuantV3 (ops-nn), yOut's cell: three items; the INT32 one says only the last
    # dimension, the third (no comma after 时) holds for the other dtypes, not for INT32
    y = _tensor("yOut", "out", ["INT4", "INT8", "INT32"])
    said = [
        Statement("数据类型为INT4时，最后一维的大小必须能被2整除", 1),
        Statement("数据类型为INT32时，最后一维是x最后一维的1/8", 1),
        Statement("其他数据类型时shape和x保持一致", 1),
    ]
    rule = _for_other_dtypes(y, said, ("x",))
    assert rule is not None and (rule.params, rule.when) == (("x",), ("yOut", "dtype", "INT32", "false"))
    assert _conditional("其他数据类型时shape和x保持一致")
    # an optional's own presence (`存在时shape为[outC]`, aclnnDeformableConv2d biasOptional) still binds
    assert not _conditional("存在时shape为[outC]")
    # with no case before it, the other dtypes' item reads nothing
    assert _for_other_dtypes(y, said[2:], ("x",)) is None
    [path] = (corpus / "docs" / "ops-nn").glob("**/dynamic_quant/docs/aclnnDynamicQuantV3.md")
    [doc] = parse_paths([path])
    out = next(p for p in doc.functions[0].params if p.name == "yOut")
    plain = out.shape_rule.model_dump(mode="json")
    x = TensorDesc((4, 16), "FLOAT16")
    # x (4, 16): INT32 yOut (4, 2) is not rejected (its shape is unchecked), INT8 must be (4, 16)
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "yOut": TensorDesc((4, 2), "INT32")}) is None
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "yOut": TensorDesc((4, 2), "INT8")}) == (4, 16)


@pytest.mark.parametrize("name", ["aclnnRmsNormQuant", "aclnnRmsNormQuantV3"])
def test_a_same_shape_row_holds_but_for_the_dtype_a_later_line_packs(corpus, name):
    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse import parse_paths

    # ops-nn, y's row `shape需要与输入x一致`, and the constraints section (on 950):
    # `当y的数据类型为INT32时，y的最后一维必须是x最后一维的1/8`
    [path] = (corpus / "docs" / "ops-nn").glob(f"**/docs/{name}.md")
    [doc] = parse_paths([path])
    y = next(p for p in doc.functions[0].params if p.name == "y")
    assert y.shape_rule.when == ("y", "dtype", "INT32", "false")
    plain = y.shape_rule.model_dump(mode="json")
    x = TensorDesc((4, 16), "FLOAT16")
    # x (4, 16): INT32 y (4, 2) is not rejected (unchecked but its last dimension), INT8 must be (4, 16)
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "y": TensorDesc((4, 2), "INT32")}) is None
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": x, "y": TensorDesc((4, 2), "INT8")}) == (4, 16)


def test_a_packed_line_of_another_tensor_or_naming_none_leaves_the_same_shape_whole():
    from specgen.parse.classify.shape_packed import but_packed

    y = _tensor("y", "out", ["INT8", "INT32"])
    same = ShapeRule(kind="same", params=("x",), text="shape需要与输入x一致", line=1)
    other = [Statement("当y2的数据类型为INT32时，y2的最后一维必须是x最后一维的1/8。", 9)]
    nameless = [Statement("数据类型为INT32时，最后一维是x最后一维的1/8。", 9)]
    exempt = ("y", "dtype", "INT32", "false")
    assert but_packed(y, same, ([], other)).when == ()
    assert but_packed(y, same, ([], nameless)).when == ()  # a line elsewhere naming no tensor
    assert but_packed(y, same, (nameless, [])).when == exempt  # y's own row
    assert but_packed(_tensor("y", "out", ["INT8"]), same, (nameless, [])).when == ()  # a dtype y cannot take
    # another peer's shape (y2Out `与y1Out保持一致`) is not the one the line packs against
    assert but_packed(y, same.model_copy(update={"params": ("z",)}), (nameless, [])).when == ()


@pytest.mark.parametrize(
    "line",
    [
        # aclnnAddRmsNormDynamicQuantV2 (ops-nn): its error row, and x1's row
        "y1Out或y2Out的数据类型为DT_INT32时，y1Out或y2Out的尾轴不为x1尾轴的1/8。",
        "当输出`y1Out`或`y2Out`的数据类型为INT32时，`x1`的尾轴必须是输出`y1Out`或`y2Out`尾轴的8倍。",
    ],
)
def test_a_packed_line_naming_outputs_as_a_group_exempts_each_alternative_of_the_peers_shape(line):
    from specgen.parse.classify.shape_packed import but_packed

    y1 = _tensor("y1Out", "out", ["INT8", "INT32"])
    valid = ShapeRule(kind="same", params=("x1",), when=("mask[0]", "bool", "true", "true"), line=1)
    invalid = ShapeRule(kind="explicit", dims=("1",), when=("mask[0]", "bool", "false", "true"), line=1)
    rule = ShapeRule(kind="one_of", params=("x1",), alternatives=(valid, invalid), line=1)
    got = but_packed(y1, rule, ([], [Statement(line, 9)]))
    assert got.alternatives[0].when == (*valid.when, "y1Out", "dtype", "INT32", "false")
    assert got.alternatives[1] == invalid


def test_a_peer_whose_own_row_packs_int4_is_not_held_to_the_outputs_shape_in_that_dtype(corpus):
    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse import parse_paths
    from specgen.parse.classify.shape_packed import peer_packed

    # the experimental aclnnAscendAntiQuant (ops-nn): x's row `当数据类型是INT32时，每个数据被作为8个
    # INT4数据使用`, y's row `shape与输入x一致`; the current one says y's last axis is x's × 8 there
    rows = {"x": [Statement("当数据类型是INT32时，每个数据被作为8个INT4数据使用", 3)]}
    assert peer_packed("x", rows) == "INT32"
    assert peer_packed("x", {"x": [Statement("数据类型为INT32时，每个INT32数据存放8个INT4数据", 3)]}) == "INT32"
    assert peer_packed("x", {"x": [Statement("当数据类型是INT4时，shape的尾轴为偶数", 3)]}) is None
    [path] = (corpus / "docs" / "ops-nn" / "experimental").glob("**/docs/aclnnAscendAntiQuant.md")
    [doc] = parse_paths([path])
    y = next(p for p in doc.functions[0].params if p.name == "y")
    plain = y.shape_rule.model_dump(mode="json")
    y_out = TensorDesc((4, 16), "FLOAT16")
    packed = {"x": TensorDesc((4, 2), "INT32"), "y": y_out}
    assert _shapes.output_shape(plain, {"x": (4, 2)}, packed) is None  # unchecked, not (4, 2)
    assert _shapes.output_shape(plain, {"x": (4, 16)}, {"x": TensorDesc((4, 16), "INT8"), "y": y_out}) == (4, 16)


def test_add_rms_norm_dynamic_quant_v2_accepts_a_packed_int32_y1_out(corpus):
    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse import parse_paths

    [path] = (corpus / "docs" / "ops-nn").glob("**/docs/aclnnAddRmsNormDynamicQuantV2.md")
    [doc] = parse_paths([path])
    y1 = next(p for p in doc.functions[0].params if p.name == "y1Out")
    plain = y1.shape_rule.model_dump(mode="json")
    x1 = TensorDesc((4, 16), "FLOAT16")
    facts = {"x1": x1, "outputMaskOptional": [True, True]}
    shapes = {"x1": (4, 16)}
    # x1 (4, 16), both outputs valid: INT32 y1Out (4, 2) is not rejected, INT8 must be (4, 16)
    assert _shapes.output_shape(plain, shapes, {**facts, "y1Out": TensorDesc((4, 2), "INT32")}) is None
    assert _shapes.output_shape(plain, shapes, {**facts, "y1Out": TensorDesc((4, 2), "INT8")}) == (4, 16)


def test_shapes_said_per_value_of_an_attribute_give_the_first_case_under_its_condition():
    from specgen.codegen.runtime._tensor import TensorDesc
    from specgen.parse.classify.shape_phrases import ShapeContext
    from specgen.parse.classify.shapes import Statement, _first_case

    # aclnnDynamicQuantV3 (ops-nn), scaleOut's row
    said = [
        Statement("quantMode是pertoken时，shape为x的shape剔除最后一维。", 1),
        Statement("quantMode是pertensor时，shape为(1,)。", 2),
        Statement("quantMode是perchannel时，shape为x的shape剔除倒数第二维。", 3),
    ]
    ctx = ShapeContext(("x", "quantMode", "dstType", "scaleOut"), ("x",), "scaleOut", tensors=("x", "scaleOut"))
    reading, statement, when = _first_case(said, ctx, ("quantMode", "dstType"))
    assert (reading, statement.line, when) == (
        ("explicit", (), ("*x.shape[:-1]",)),
        1,
        ("quantMode", "value", "pertoken", "true"),
    )
    # a condition on its own line joins the statement after it
    split = [Statement("quantMode是pertoken时", 1), Statement("shape为x的shape剔除最后一维。", 1)]
    assert _first_case(split, ctx, ("quantMode",))[2] == ("quantMode", "value", "pertoken", "true")
    assert _first_case(said, ctx, ("dstType",)) is None  # not an attribute of the function's
    # the evaluator: checked in that case only
    rule = {"kind": "explicit", "dims": ["*x.shape[:-1]"], "when": list(when)}
    x = TensorDesc((4, 2), "FLOAT16")
    assert _shapes.output_shape(rule, {"x": (4, 2)}, {"x": x, "quantMode": "pertoken"}) == (4,)
    assert _shapes.output_shape(rule, {"x": (4, 2)}, {"x": x, "quantMode": "pertensor"}) is None


def test_a_symbol_an_input_lists_times_a_number_is_read_through_it():
    from specgen.parse.classify.shapes import Statement, rule_from_reading

    # aclnnSwigluMxQuantWithDualAxis (ops-nn): x `shape为[M, 2N]`, y1Out `shape为[M, N]`
    x, y1 = _tensor("x", "in", ["FLOAT16"]), _tensor("y1Out", "out", ["FLOAT8_E5M2"])
    statements = {"x": [Statement("shape为[M, 2N]，最后一维必须为偶数。", 1)], "y1Out": []}
    rule = rule_from_reading([x, y1], statements, ("explicit", (), ("M", "N")), Statement("shape为[M, N]", 2))
    assert rule.dims == ("x.shape[0]", "x.shape[1] / 2")
    # its call: x (256, 1024), y1Out (256, 512)
    assert _shapes.output_shape({"kind": "explicit", "dims": list(rule.dims)}, {"x": (256, 1024)}, {}) == (256, 512)
    statements = {"x": [Statement("shape为[M, 2N + 1]", 1)], "y1Out": []}  # no multiple: not read
    rule = rule_from_reading([x, y1], statements, ("explicit", (), ("M", "N")), Statement("shape为[M, N]", 2))
    assert rule.kind == "not_derivable"


def test_an_output_that_need_only_broadcast_with_an_input_says_so():
    from specgen.parse.classify.shapes import Statement, shape_rule

    # aclnnMishBackward (ops-nn): gradInput `shape需要与gradOutput满足broadcast关系`
    grad_output, grad_input = _tensor("gradOutput", "in", ["FLOAT"]), _tensor("gradInput", "out", ["FLOAT"])
    said = {"gradInput": [Statement("不支持空Tensor。", 1), Statement("shape需要与gradOutput满足broadcast关系。", 1)]}
    rule = shape_rule(grad_input, [grad_output, grad_input], [], said)
    assert rule.kind == "not_derivable" and "broadcasts with gradOutput" in rule.reason


def test_shapes_given_case_by_case_of_an_inputs_rank_read_as_one_rule():
    from specgen.parse.classify.shapes import Statement, _by_input_shape

    # aclnnDynamicBlockQuant (ops-nn), scaleOut's row
    said = [
        Statement("如果输入x的shape为[M, N]，输出scaleOut的shape维度为[ceil(M/rowBlockSize), ceil(N/colBlockSize)]", 1),
        Statement(
            "如果输入x的shape为[B, M, N]，输出scaleOut的shape维度为[B, ceil(M/rowBlockSize), ceil(N/colBlockSize)]", 2
        ),
    ]
    out = _tensor("scaleOut", "out", ["FLOAT"])
    names = ("x", "rowBlockSize", "colBlockSize", "scaleOut")
    rule = _by_input_shape(out, said, ("x",), names)
    plain = {"kind": "explicit", "dims": list(rule.dims)}
    # its call: x (4, 2), rowBlockSize 1, colBlockSize 128 -> scaleOut (4, 1)
    assert _shapes.output_shape(plain, {"x": (4, 2)}, {"rowBlockSize": 1, "colBlockSize": 128}) == (4, 1)
    assert _shapes.output_shape(plain, {"x": (3, 4, 256)}, {"rowBlockSize": 2, "colBlockSize": 128}) == (3, 2, 2)
    # cases that differ otherwise than by leading dimensions: not one rule
    said[1] = Statement("如果输入x的shape为[B, M, N]，输出scaleOut的shape维度为[ceil(M/rowBlockSize), B]", 2)
    assert _by_input_shape(out, said, ("x",), names) is None


def test_a_symbol_spelled_as_an_integer_parameter_in_other_case_is_that_parameter():
    from specgen.model import Param
    from specgen.parse.classify.shapes import _respelled

    # aclnnDynamicDualLevelMxQuant (ops-nn): level0ScaleOut's row divides by `level0Blocksize`,
    # its prototype names `int64_t level0BlockSize`
    block = Param(name="level0BlockSize", c_type="int64_t", kind="int", direction="in", line=1)
    assert _respelled({"level0Blocksize", "N"}, [block]) == {"level0Blocksize": "level0BlockSize"}
    twin = block.model_copy(update={"name": "level0blocksize"})
    assert _respelled({"level0Blocksize"}, [block, twin]) == {}  # two spelled so: neither


def test_an_output_listed_as_one_inputs_list_has_that_inputs_shape():
    from specgen.parse.classify.shapes import Statement, _read_lists, _twin

    # aclnnConvTbcBackward (ops-nn): gradInput `shape为(N,Cin,Hin)` as input's row says; its sample
    # passes input (5, 1, 2) and weight (1, 2, 2), so weight's `(Cout,Cin,K)` binds Cin two ways
    # (the table's layout contradicts the formula's (K, Cin, Cout)), yet gradInput is input's shape
    names = ("self", "input", "weight", "pad", "gradInput")
    lists = [("self", ("N", "Cout", "Hout")), ("input", ("N", "Cin", "Hin")), ("weight", ("Cout", "Cin", "K"))]
    assert _twin(("explicit", (), ("N", "Cin", "Hin")), names, lists) == "input"
    assert _twin(("explicit", (), ("Cout", "Cin", "K")), names, lists) == "weight"
    # another order, a size in the list, a parameter's name, or two inputs listed alike: no twin
    assert _twin(("explicit", (), ("Cin", "N", "Hin")), names, lists) is None
    assert _twin(("explicit", (), ("N", "Cin", "Hin + 2 * pad")), names, lists) is None
    assert _twin(("explicit", (), ("N", "Cin", "pad")), names, [("x", ("N", "Cin", "pad"))]) is None
    assert _twin(("explicit", (), ("N", "Cin", "Hin")), names, [*lists, ("self", ("N", "Cin", "Hin"))]) is None
    # the inputs' lists are those their rows give without a condition
    params = [_tensor("input", "in", ["FLOAT"]), _tensor("x", "in", ["FLOAT"])]
    statements = {
        "input": [Statement("shape为(N,Cin,Hin)。", 1)],
        "x": [Statement("当mode为1时，shape为(N,Cin,Hin)。", 2)],
    }
    assert _read_lists(params, statements) == [("input", ("N", "Cin", "Hin"))]
