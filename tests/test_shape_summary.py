"""What the function description says of output shapes, quoted from ops-nn documents: shape
statements, prose and code blocks alike (inputs' lists bind names, an output's list or a bool's
choice of two is its shape when every statement of it agrees); outputs it calls the gradient
of an input, which have that input's shape (never read from the names alone)."""

from __future__ import annotations

from specgen.codegen.runtime import _shapes
from specgen.model import Param
from specgen.parse.classify.shape_gradients import gradient_rule
from specgen.parse.classify.shape_halves import halves_rule
from specgen.parse.classify.shape_summary import summary_rule
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import INT, OUT, TENSOR

_ASSUMED = (
    "假设输入weight的shape为(numWeight, embeddingDim)，indices的shape为(bagIndices)，offsets的shape为(bagOffsets)。"
)
# the sum-mode block of the A3/910b products, then the mean-mode block of 950
_SUM = [
    "output的shape为includeLastOffset ? (bagOffsets - 1, embeddingDim) : (bagOffsets, embeddingDim)",
    "offset2bag的shape为(bagIndices,)",
    "bagSize的shape为includeLastOffset ? (bagOffsets - 1) : (bagOffsets,)",
    "maxIndices的shape为includeLastOffset ? (bagOffsets - 1) : (bagOffsets,)",
]
_MEAN_950 = [
    "output的shape为includeLastOffset? (bagOffsets - 1, embeddingDim) : (bagOffsets, embeddingDim)",
    "offset2bag的shape为(bagIndices,)",
    "bagSize的shape为bagOffsets",
    "maxIndices的shape为(0,)",
]
_SUMMARY = [Statement(_ASSUMED, 30), *(Statement(t, 37 + i) for i, t in enumerate(_SUM))]
_SUMMARY += [Statement(t, 72 + i) for i, t in enumerate(_MEAN_950)]


def _params() -> list[Param]:
    return [
        Param(name="weight", **TENSOR),
        Param(name="indices", **TENSOR),
        Param(name="offsets", **TENSOR),
        Param(name="mode", c_type="int64_t", kind="int", direction="in", line=1),
        Param(name="includeLastOffset", c_type="bool", kind="bool", direction="in", line=1),
        *(Param(name=n, **OUT) for n in ("output", "offset2bag", "bagSize", "maxIndices")),
    ]


def test_an_output_the_description_states_alike_everywhere_takes_its_inputs_axes():
    params = _params()
    by_name = {p.name: p for p in params}
    output = summary_rule(by_name["output"], params, _SUMMARY)
    assert output is not None and output.kind == "explicit" and output.line == 37
    assert output.dims == ("offsets.shape[0] - 1 if includeLastOffset else offsets.shape[0]", "weight.shape[1]")
    # the sample: weight {3, 3}, indices {6}, offsets {4}, includeLastOffset false; output {4, 3},
    # offset2bag {6}
    shapes = {"weight": (3, 3), "indices": (6,), "offsets": (4,)}
    values = {"mode": 0, "includeLastOffset": False}
    assert _shapes.output_shape(output.model_dump(mode="json"), shapes, values) == (4, 3)
    last = {**values, "includeLastOffset": True}
    assert _shapes.output_shape(output.model_dump(mode="json"), shapes, last) == (3, 3)
    offset2bag = summary_rule(by_name["offset2bag"], params, _SUMMARY)
    assert offset2bag is not None and offset2bag.dims == ("indices.shape[0]",)
    assert _shapes.output_shape(offset2bag.model_dump(mode="json"), shapes, values) == (6,)


def test_an_output_the_description_states_two_ways_holds_where_they_agree_or_is_not_derivable():
    params = _params()
    by_name = {p.name: p for p in params}
    # bagSize: `includeLastOffset ? (bagOffsets - 1) : (bagOffsets,)` (A3) and `bagOffsets` (950)
    # agree while includeLastOffset is false: the rule holds then (the sample's {4} for offsets {4})
    bag_size = summary_rule(by_name["bagSize"], params, _SUMMARY)
    assert bag_size is not None and bag_size.dims == ("offsets.shape[0]",)
    assert bag_size.when == ("includeLastOffset", "bool", "false", "true")
    shapes = {"weight": (3, 3), "indices": (6,), "offsets": (4,)}
    plain = bag_size.model_dump(mode="json")
    assert _shapes.output_shape(plain, shapes, {"includeLastOffset": False}) == (4,)
    assert _shapes.output_shape(plain, shapes, {"includeLastOffset": True}) is None
    # maxIndices: `(bagOffsets,)` (sum, A3) and `(0,)` (mean, 950) even while it is false
    rule = summary_rule(by_name["maxIndices"], params, _SUMMARY)
    assert rule is not None and not rule.derived and "several shapes" in rule.reason


def test_an_output_list_naming_what_no_input_binds_is_not_read():
    params = _params()
    # without the inputs' statement, bagOffsets and embeddingDim are bound to nothing
    unbound = [Statement(t, 37 + i) for i, t in enumerate(_SUM)]
    assert summary_rule(params[5], params, unbound) is None
    # a choice by what is no bool is not read
    by_mode = [Statement(_ASSUMED, 30), Statement("output的shape为mode ? (bagOffsets, 1) : (bagOffsets, 2)", 31)]
    assert summary_rule(params[5], params, by_mode) is None


def _avg_pool_backward_params() -> list[Param]:
    """aclnnAvgPool2dBackward's rows: gradInput `输出的tensor，公式中的out。`, self `正向过程中的输入。`."""
    return [
        Param(name="gradOutput", description="表示输入梯度。", **TENSOR),
        Param(name="self", description="正向过程中的输入。", **TENSOR),
        Param(name="gradInput", description="输出的tensor，公式中的out。", **OUT),
    ]


def test_shapes_stated_in_words_of_the_formulas_symbols_read_like_lists():
    # aclnnMv.md (ops-nn matmul/mv), under its formula `out = input * vec`; the rows: self
    # `公式中的输入input。`, vec `公式中的vec,…`, out `公式中的输出out。`
    said = [Statement("其中$input$为n*m的二维张量，$vec$为长度为m的一维张量，$out$为长度为n的一维张量。", 33)]
    params = [
        Param(name="self", description="公式中的输入input。", **TENSOR),
        Param(name="vec", description="公式中的vec,数据类型与self保持一致。", **TENSOR),
        Param(name="out", description="公式中的输出out。", **OUT),
    ]
    rule = summary_rule(params[-1], params, said)
    assert rule is not None and rule.kind == "explicit" and rule.dims == ("self.shape[0]",) and rule.line == 33
    # the sample: self {2, 3}, vec {3}, out {2}
    assert _shapes.output_shape(rule.model_dump(mode="json"), {"self": (2, 3), "vec": (3,)}, {}) == (2,)
    # a rank in words that is not the list's length is no statement of its shape
    wrong = [Statement("其中$input$为n*m的三维张量，$out$为长度为n的一维张量。", 33)]
    assert summary_rule(params[-1], params, wrong) is None


# aclnnConvolutionBackward.md (ops-nn conv/convolution_backward), 计算公式's prose
_CONVOLUTION_BACKWARD = [
    Statement(
        "卷积反向传播需要计算对卷积正向的输入张量 $x$（对应函数原型中的input）、卷积核权重张量 $w$ "
        "（对应函数原型中的weight）和偏置 $b$ 的梯度。",
        42,
    ),
    Statement(r"- 对于 $x$ 的梯度 $\frac{\partial L}{\partial x}$（对应函数原型中的gradInput参数）：", 46),
    Statement(
        r"其中，$L$ 为损失函数，$\frac{\partial L}{\partial y}$ 为输出张量 $y$ 对 $L$ 的梯度（对应函数原型中的gradOutput参数）。",
        52,
    ),
    Statement(r"- 对于 $w$ 的梯度 $\frac{\partial L}{\partial w}$（对应函数原型中的gradWeight参数）：", 54),
    Statement(r"- 对于 $b$ 的梯度 $\frac{\partial L}{\partial b}$（对应函数原型中的gradBias参数）：", 60),
]


def _convolution_backward() -> list[Param]:
    return [
        Param(name="gradOutput", **TENSOR),
        Param(name="input", **TENSOR),
        Param(name="weight", **TENSOR),
        Param(name="biasSizes", c_type="const aclIntArray*", kind="int_array", direction="in", line=1),
        Param(name="gradInput", description="输入张量x对L的梯度。", **OUT),
        Param(name="gradWeight", description="卷积核权重张量w对L的梯度。", **OUT),
        Param(name="gradBias", description="偏置b对L的梯度。", **OUT),
    ]


def test_a_gradient_output_has_the_shape_of_the_input_the_description_ties_its_symbol_to():
    params = _convolution_backward()
    by_name = {p.name: p for p in params}
    grad_input = gradient_rule(by_name["gradInput"], params, _CONVOLUTION_BACKWARD)
    assert grad_input is not None and grad_input.kind == "same" and grad_input.params == ("input",)
    assert grad_input.line == 46
    grad_weight = gradient_rule(by_name["gradWeight"], params, _CONVOLUTION_BACKWARD)
    assert grad_weight is not None and grad_weight.params == ("weight",)
    # the sample agrees: inputShape {2, 2, 7, 7} is gradInput's, weightShape {2, 2, 1, 1} gradWeight's
    # $b$ is tied to no parameter: biasSizes' row silent, unread
    assert gradient_rule(by_name["gradBias"], params, _CONVOLUTION_BACKWARD) is None


def test_the_gradient_of_a_tensor_an_array_gives_the_shape_of_has_the_arrays_values():
    # aclnnConvolutionBackward.md: `偏置 $b$` (line 42) and biasSizes `卷积正向过程中偏差(bias)的shape。`,
    # one word for bias; the sample: biasSize {2} is both biasSizes' values and gradBias's shape
    params = _convolution_backward()
    params[3] = params[3].model_copy(update={"description": "卷积正向过程中偏差(bias)的shape。"})
    rule = gradient_rule(params[-1], params, _CONVOLUTION_BACKWARD)
    assert rule is not None and rule.kind == "explicit" and rule.dims == ("*biasSizes",) and rule.line == 60
    assert _shapes.output_shape(rule.model_dump(), {}, {"biasSizes": [2]}) == (2,)
    # the array of another tensor's shape, or two arrays of the bias's: unread
    other = [*params[:3], params[3].model_copy(update={"description": "卷积正向过程中权重的shape。"}), *params[4:]]
    assert gradient_rule(other[-1], other, _CONVOLUTION_BACKWARD) is None
    twice = [*params, params[3].model_copy(update={"name": "otherSizes"})]
    assert gradient_rule(params[-1], twice, _CONVOLUTION_BACKWARD) is None


def test_a_gradient_output_is_not_read_from_names_or_rows_that_tie_nothing():
    params = _convolution_backward()
    grad_input = params[4]
    # without the description's correspondence of $x$ to input, the row alone says nothing
    assert gradient_rule(grad_input, params, _CONVOLUTION_BACKWARD[1:]) is None
    # a symbol tied to two parameters is no answer
    twice = [*_CONVOLUTION_BACKWARD, Statement("输入 $x$（对应函数原型中的weight）", 70)]
    assert gradient_rule(grad_input, params, twice) is None
    # aclnnAvgPool2dBackward.md: gradInput `输出的tensor，公式中的out。`, though self is `正向过程中的输入。`
    pool = _avg_pool_backward_params()
    assert gradient_rule(pool[-1], pool, []) is None


def test_the_forward_passs_input_gradient_has_the_forward_inputs_shape():
    # aclnnAvgPool2dBackward.md (ops-nn pooling/avg_pool3_d_grad), line 28; the sample: selfShape
    # {1, 16, 4, 4}, gradInputShape {1, 16, 4, 4} (aclnnAvgPool3dBackward's output row says
    # `shape与入参self相同` of the same description and the same self row)
    said = [Statement("接口功能：二维平均池化的反向传播，计算二维平均池化正向传播的输入梯度。", 28)]
    pool = _avg_pool_backward_params()
    rule = gradient_rule(pool[-1], pool, said)
    assert rule is not None and rule.kind == "same" and rule.params == ("self",) and rule.line == 28
    # two outputs: which one is the gradient is not said
    two = [*pool, Param(name="other", **OUT)]
    assert gradient_rule(two[2], two, said) is None
    # two inputs that are the forward pass's, or none: which input is not said
    both = [Param(name="x", description="正向的输入数据。", **TENSOR), *pool]
    assert gradient_rule(both[-1], both, said) is None
    assert gradient_rule(pool[-1], [pool[0], pool[2]], said) is None
    # a description of the forward pass's output gradient says nothing of the input's
    output = [Statement("计算正向传播的输出梯度。", 28)]
    assert gradient_rule(pool[-1], pool, output) is None


def test_the_gradient_of_the_leaf_node_has_the_leafs_shape():
    # aclnnAdaptiveAvgPool2dBackward.md (ops-nn pooling/adaptive_avg_pool2d_grad): gradOutput
    # `当前节点的梯度。`, self `叶子节点。`, out `对应了输入叶子节点的梯度。`; the sample: selfShape
    # {1, 1, 4, 2}, outShape {1, 1, 4, 2}
    params = [
        Param(name="gradOutput", description="当前节点的梯度。", **TENSOR),
        Param(name="self", description="叶子节点。", **TENSOR),
        Param(name="out", description="对应了输入叶子节点的梯度。", **OUT),
    ]
    rule = gradient_rule(params[-1], params, [])
    assert rule is not None and rule.kind == "same" and rule.params == ("self",)
    # aclnnFusedLinearCrossEntropyLossGrad.md: inputGradOut `对应叶子节点input的梯度，公式中的grad_input。`
    # (the sample: inputShape {BT, H}, inputGradOutShape {BT, H})
    named = [
        Param(name="grad", **TENSOR),
        Param(name="input", **TENSOR),
        Param(name="inputGradOut", description="对应叶子节点input的梯度，公式中的grad_input。", **OUT),
    ]
    rule = gradient_rule(named[-1], named, [])
    assert rule is not None and rule.params == ("input",)
    # two inputs called the leaf node: which one is not said
    two = [Param(name="other", description="叶子节点。", **TENSOR), *params]
    assert gradient_rule(two[-1], two, []) is None


def test_the_gradient_of_the_input_a_word_names_has_that_inputs_shape():
    # aclnnSoftmaxCrossEntropyWithLogits.md (ops-nn activation/softmax_cross_entropy_with_logits):
    # the sample: featuresShape {16, 4}, labelsShape {16, 4}, backpropShape {16, 4}
    params = [
        Param(name="features", description="表示模型的输出logits，公式中x_i。", **TENSOR),
        Param(name="labels", description="表示输入的labels，公式中y_i。", **TENSOR),
        Param(name="loss", description="表示softmax和cross entropy的交叉熵损失，公式中loss。", **OUT),
        Param(name="backprop", description="表示输入logits的反向梯度，公式中backprop。", **OUT),
    ]
    rule = gradient_rule(params[-1], params, [])
    assert rule is not None and rule.kind == "same" and rule.params == ("features",)
    assert gradient_rule(params[2], params, []) is None  # the loss is no gradient
    # a word two inputs' rows use, or none does: which input is not said
    both = [*params[:1], Param(name="other", description="另一组logits。", **TENSOR), *params[1:]]
    assert gradient_rule(both[-1], both, []) is None
    assert gradient_rule(params[-1], params[1:], []) is None


def test_the_gradient_of_the_input_a_clause_of_the_row_names_has_that_inputs_shape():
    # FlashAttentionScoreGradV2.md (doc-site dialect, corpus/docs/legacy), lines 117-123: dqOut
    # `公式中的dQ，表示query的梯度，计算输出`; the sample: qShape {256, 1, 128}, dqShape {256, 1, 128};
    # dpseOut `公式中的d(pse)，表示pse的梯度`: pse is the formula's symbol (pseShiftOptional
    # `公式中的输入pse`), no parameter
    params = [
        Param(name="query", description="公式中的输入Q", **TENSOR),
        Param(name="keyIn", description="公式中的输入K", **TENSOR),
        Param(name="pseShiftOptional", description="公式中的输入pse，可选参数，表示位置编码", **TENSOR),
        Param(name="dqOut", description="公式中的dQ，表示query的梯度，计算输出", **OUT),
        Param(name="dkOut", description="公式中的dK，表示keyIn的梯度，计算输出", **OUT),
        Param(name="dpseOut", description="公式中的d(pse)，表示pse的梯度，计算输出", **OUT),
    ]
    rule = gradient_rule(params[3], params, [])
    assert rule is not None and rule.kind == "same" and rule.params == ("query",) and rule.text == "表示query的梯度"
    rule = gradient_rule(params[4], params, [])
    assert rule is not None and rule.params == ("keyIn",)
    assert gradient_rule(params[5], params, []) is None
    # the gradient of a part, or of another output: no reading
    part = Param(name="dqOut", description="表示query的梯度之和", **OUT)
    assert gradient_rule(part, [*params[:3], part], []) is None
    of_output = Param(name="dkOut", description="表示dqOut的梯度", **OUT)
    assert gradient_rule(of_output, [*params[:4], of_output], []) is None


# aclnnSwiGlu's description, lines 33 and 35 (its rows say nothing of out's shape)
_SWIGLU = [
    Statement("out<sub>i</sub> = SwiGlu(x<sub>i</sub>)=Swish(A<sub>i</sub>)*B<sub>i</sub>", 33),
    Statement(
        "其中，A<sub>i</sub>表示x<sub>i</sub>按指定dim维度一分为二的前半部分张量，"
        "B<sub>i</sub>表示x<sub>i</sub>按指定dim维度一分为二的后半部分张量。",
        35,
    ),
]


def _swiglu() -> list[Param]:
    return [Param(name="x", **TENSOR), Param(name="dim", **INT), Param(name="out", **OUT)]


def test_an_output_combining_the_two_halves_of_an_input_split_along_dim_has_that_axis_halved():
    params = _swiglu()
    rule = halves_rule(params[2], params, _SWIGLU)
    assert rule is not None and rule.line == 33
    # the sample: x {2, 32}, dim -1; out {2, 16}
    assert _shapes.output_shape(rule.model_dump(mode="json"), {"x": (2, 32)}, {"dim": -1}) == (2, 16)
    assert _shapes.output_shape(rule.model_dump(mode="json"), {"x": (8, 6, 4)}, {"dim": 0}) == (4, 6, 4)


def test_halves_are_not_read_without_both_halves_of_one_split_or_from_other_operands():
    params = _swiglu()
    first_only = [
        _SWIGLU[0],
        Statement("其中，A<sub>i</sub>表示x<sub>i</sub>按指定dim维度一分为二的前半部分张量。", 35),
    ]
    assert halves_rule(params[2], params, first_only) is None
    # the formula also takes x whole: not a combination of the halves alone
    with_x = [Statement("out = Swish(A)*B + x", 33), _SWIGLU[1]]
    assert halves_rule(params[2], params, with_x) is None
    # the split is along something no integer parameter names
    other_axis = [_SWIGLU[0], Statement(_SWIGLU[1].text.replace("dim", "axis"), 35)]
    assert halves_rule(params[2], params, other_axis) is None
