"""Output sizes from the documents' formulas, by family: convolution (per axis, plain or
transposed), deformable convolution (symbols the formula defines), pooling (a floor and a
ceil formula). Each formula is quoted from its ops-nn document; each expected shape is the
document's own sample call, computed by hand in the comment beside it."""

from __future__ import annotations

from specgen.codegen.runtime import _shapes
from specgen.model import Constraint, Param
from specgen.parse.classify.shape_formulas import defined_by_formula, formula_definitions, formula_rule
from tests.param_kinds import BOOL, FLOAT, INT, INT_ARRAY, TENSOR

# aclnnConvolution.md (ops-nn conv/convolution_forward), 计算公式: the output's layout, then
# the sizes for `transposed = False`, then for `transposed = True`
_CONVOLUTION = r"""\text{output}(N_i, C_{\text{out}_j}, D_{\text{out}}, H_{\text{out}}, W_{\text{out}}) = \sum_{k = 0}^{C_{\text{in}} - 1} \text{weight}(C_{\text{out}_j}, k) \star \text{input}(N_i, k) + \text{bias}(C_{\text{out}_j})

D_{\text{out}}=[(D + 2 \times padding[0] - dilation[0] \times (K_d - 1) - 1 ) / stride[0]] + 1 \\
H_{\text{out}}=[(H + 2 \times padding[1] - dilation[1] \times (K_h - 1) - 1 ) / stride[1]] + 1 \\
W_{\text{out}}=[(W + 2 \times padding[2] - dilation[2] \times (K_w - 1) - 1 ) / stride[2]] + 1

D_{\text{out}}=(D - 1) \times \text{stride}[0] - 2 \times \text{padding}[0] + \text{dilation}[0]
\times (K_d - 1) + \text {outputPadding}[0] + 1 \\
H_{\text{out}}=(H - 1) \times \text{stride}[1] - 2 \times \text{padding}[1] + \text{dilation}[1]
\times (K_h - 1) + \text {outputPadding}[1] + 1 \\
W_{\text{out}}=(W - 1) \times \text{stride}[2] - 2 \times \text{padding}[2] + \text{dilation}[2]
\times (K_w - 1) + \text {outputPadding}[2] + 1"""


def _convolution_params(output_row: str = "通道数等于weight第一维，其他维度≥0。") -> list[Param]:
    return [
        Param(name="input", description="公式中的input，表示卷积输入。", **TENSOR),
        Param(name="weight", description="公式中的weight，表示卷积权重。", **TENSOR),
        Param(name="bias", description="公式中的bias，表示卷积偏置。", **TENSOR),
        *(Param(name=n, **INT_ARRAY) for n in ("stride", "padding", "dilation")),
        Param(name="transposed", description="是否为转置卷积。", **BOOL),
        Param(name="outputPadding", description="转置卷积情况下，对输出所有边的填充。", **INT_ARRAY),
        Param(name="groups", c_type="int64_t", kind="int", direction="in", line=1),
        Param(
            name="output",
            c_type="aclTensor*",
            kind="tensor",
            direction="out",
            description="公式中的out，表示卷积输出。",
            text=output_row,
            line=1,
        ),
    ]


def test_a_convolution_output_follows_the_per_axis_formula_for_the_inputs_rank_while_not_transposed():
    params = _convolution_params()
    rule = formula_rule(params[-1], params, _CONVOLUTION, 1)
    assert rule is not None and rule.kind == "explicit" and rule.when == ("transposed", "bool", "false", "true")
    plain = rule.model_dump(mode="json")
    # aclnnConvolution.md's sample (2D): input {2, 2, 2, 2}, weight {1, 2, 1, 1}, strides, dilations
    # {1, 1}, pads {0, 0}, result {2, 1, 2, 2}: H_out = [(2 + 0 - 1 * 0 - 1) / 1] + 1 = 2
    values = {"stride": [1, 1], "padding": [0, 0], "dilation": [1, 1], "transposed": False, "groups": 1}
    shapes = {"input": (2, 2, 2, 2), "weight": (1, 2, 1, 1)}
    assert _shapes.output_shape(plain, shapes, values) == (2, 1, 2, 2)
    # aclnnQuantConvolution.md's sample (3D, the same formula): input {2, 2, 32, 32, 32}, weight
    # {2, 2, 3, 3, 3}, pads {1, 1, 1}: D_out = [(32 + 2 - 1 * 2 - 1) / 1] + 1 = 32
    values3 = {"stride": [1, 1, 1], "padding": [1, 1, 1], "dilation": [1, 1, 1], "transposed": False}
    shapes3 = {"input": (2, 2, 32, 32, 32), "weight": (2, 2, 3, 3, 3)}
    assert _shapes.output_shape(plain, shapes3, values3) == (2, 2, 32, 32, 32)
    # a stride of 2 floors: [(5 + 0 - 2 - 1) / 2] + 1 = 2
    strided = {**values, "stride": [2, 2]}
    assert _shapes.output_shape(plain, {"input": (1, 2, 5, 5), "weight": (3, 2, 3, 3)}, strided) == (1, 3, 2, 2)
    # conv2d's padding may hold 4 values ("conv2d为2或4"), which the formula does not index: unsettled
    assert _shapes.output_shape(plain, shapes, {**values, "padding": [0, 0, 0, 0]}) is None
    # the transposed formula is not read: no check then (the rule holds while transposed is false)
    assert _shapes.output_shape(plain, shapes, {**values, "transposed": True}) is None


def test_a_convolution_output_is_not_read_without_its_channel_count_or_with_two_formulas_no_bool_names():
    params = _convolution_params(output_row="其他维度≥0。")
    rule = formula_rule(params[-1], params, _CONVOLUTION, 1)
    assert rule is not None and not rule.derived and "output channels are not stated" in rule.reason
    # aclnnQuantConvolutionWeightNz.md: `通道数等于weight原shape第一维`
    params = _convolution_params(output_row="其shape满足卷积的推导规则。通道数等于weight原shape第一维，其他维度≥0。")
    rule = formula_rule(params[-1], params, _CONVOLUTION, 1)
    assert rule is not None and rule.dims[1] == "weight.shape[0]"
    unnamed = [p.model_copy(update={"description": "预留参数。"}) if p.kind == "bool" else p for p in params]
    rule = formula_rule(unnamed[-1], unnamed, _CONVOLUTION, 1)
    assert rule is not None and "two ways" in rule.reason


# aclnnDeformableConv2d.md (ops-nn conv/deformable_conv2d), 计算公式 (its first blocks)
_DEFORMABLE = r"""outH = (inH + padding[0] + padding[1] - ((K_H - 1) * dilation[2] + 1)) // stride[2] + 1

outW = (inW + padding[2] + padding[3] - ((K_W - 1) * dilation[3] + 1)) // stride[3] + 1

x = -padding[2] + ow*stride[3] + kw*dilation[3], kw的取值为(0, K\_W-1)

(x,y) = (x + offsetX, y + offsetY)"""


def test_symbols_a_formula_defines_take_their_expression_in_an_outputs_list():
    names = ["x", "weight", "offset", "biasOptional", "kernelSize", "stride", "padding", "dilation", "out"]
    assert set(formula_definitions(_DEFORMABLE, names)) == {"outH", "outW"}  # not x: no expression
    # out: `shape为[N, outC, outH, outW]`; deformOutOptional: `shape为[N, inC, outH * K_H, outW * K_W]`
    out = defined_by_formula(("N", "outC", "outH", "outW"), _DEFORMABLE, names)
    deform = defined_by_formula(("N", "inC", "outH * K_H", "outW * K_W"), _DEFORMABLE, names)
    assert out[2] == "(inH + padding[0] + padding[1] - ((K_H - 1) * dilation[2] + 1)) // stride[2] + 1"
    assert defined_by_formula(("N", "C"), _DEFORMABLE, names) == ("N", "C")
    # the sample: x {1, 6, 2, 4}, weight {4, 3, 5, 5}, padding {2, 2, 2, 2}, stride, dilation
    # {1, 1, 1, 1}: outH = (2 + 4 - 5) // 1 + 1 = 2, outW = (4 + 4 - 5) // 1 + 1 = 4; out
    # {1, 4, 2, 4}, deformOut {1, 6, 10, 20}
    symbols = [("N", "x", 0), ("inC", "x", 1), ("inH", "x", 2), ("inW", "x", 3), ("outC", "weight", 0)]
    symbols += [("K_H", "weight", 2), ("K_W", "weight", 3)]
    bound = [{"symbol": s, "param": p, "axis": a} for s, p, a in symbols]
    shapes = {"x": (1, 6, 2, 4), "weight": (4, 3, 5, 5)}
    values = {"padding": [2, 2, 2, 2], "stride": [1, 1, 1, 1], "dilation": [1, 1, 1, 1]}
    for dims, expected in ((out, (1, 4, 2, 4)), (deform, (1, 6, 10, 20))):
        rule = {"kind": "explicit", "dims": list(dims), "symbols": bound}
        assert _shapes.output_shape(rule, shapes, values) == expected


# aclnnMaxPool3dWithArgmax.md (ops-nn pooling/max_pool3d_with_argmax_v2): "out tensor的shape推导公式
# （默认ceilMode=false，即向下取整）" and "（默认ceilMode=true，即向上取整）"
_FLOOR = (
    r"[N, C, D_{out}, H_{out}, W_{out}]=[N,C,\lfloor{\frac{D_{in}+2 \times {padding[0] - dilation[0] \times"
    r"(kernelSize[0] - 1) - 1}}{stride[0]}}\rfloor + 1,\\"
    "\n"
    r"\lfloor{\frac{H_{in}+2 \times {padding[1] - dilation[1] \times(kernelSize[1] - 1) - 1}}{stride[1]}}\rfloor + 1, \\"
    "\n"
    r"\lfloor{\frac{W_{in}+2 \times {padding[2] - dilation[2] \times(kernelSize[2] - 1) - 1}}{stride[2]}}\rfloor + 1]"
)
_CEIL = _FLOOR.replace(r"\lfloor", r"\lceil").replace(r"\rfloor", r"\rceil")


def test_a_floor_and_a_ceil_formula_read_the_floor_while_the_rounding_bool_is_false():
    params = [
        Param(name="self", description="待计算张量。", **TENSOR),
        *(Param(name=n, **INT_ARRAY) for n in ("kernelSize", "stride", "padding", "dilation")),
        Param(name="ceilMode", description="计算输出形状时取整的方法。", **BOOL),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", text="shape由上述公式推导出。", line=1),
        Param(name="indices", c_type="aclTensor*", kind="tensor", direction="out", text="shape和out保持一致。", line=1),
    ]
    rule = formula_rule(params[-2], params, _FLOOR + "\n\n" + _CEIL, 1)
    assert rule is not None and rule.kind == "explicit" and rule.when == ("ceilMode", "bool", "false", "true")
    assert "ceil" not in " ".join(rule.dims)
    # the sample: self {1, 1, 2, 2, 2}, kernelSize, stride {2, 2, 2}, padding {0, 0, 0}, dilation
    # {1, 1, 1}, ceilMode false, out {1, 1, 1, 1, 1}: D_out = floor((2 + 0 - 1 * 1 - 1) / 2) + 1 = 1
    values = {"kernelSize": [2, 2, 2], "stride": [2, 2, 2], "padding": [0, 0, 0], "dilation": [1, 1, 1]}
    plain = rule.model_dump(mode="json")
    assert _shapes.output_shape(plain, {"self": (1, 1, 2, 2, 2)}, {**values, "ceilMode": False}) == (1, 1, 1, 1, 1)
    assert _shapes.output_shape(plain, {"self": (1, 1, 2, 2, 2)}, {**values, "ceilMode": True}) is None


def test_a_per_axis_splice_needs_one_element_per_axis_of_each_array_it_indexes():
    rule = {"kind": "explicit", "dims": ["x.shape[0]", "*[x.shape[i + 1] // s[i] for i in range(rank(x) - 1)]"]}
    assert _shapes.output_shape(rule, {"x": (2, 8, 6)}, {"s": [2, 3]}) == (2, 4, 2)
    assert _shapes.output_shape(rule, {"x": (2, 8, 6)}, {"s": [2]}) is None
    assert _shapes.output_shape(rule, {"x": (2, 8)}, {"s": [2]}) == (2, 4)


# aclnnBidirectionLSTM.md (ops-nn rnn/bidirection_lstm): the rows of x, initH and yOut, outputHOut
_LSTM_ROWS = {
    "x": "shape支持三维（time_step, batch_size, input_size）。其中，`time_step`表示时间维度；`batch_size`表示每个时刻需要处理的batch数量；`input_size`表示输入的特征数量。",
    "initH": "shape支持三维（num_layers, batch_size, hidden_size）或者当bidirection为True时（2 * num_layers, batch_size, hidden_size）。其中，`num_layers`对应参数`numLayers`，表示LSTM层数；`hidden_size`表示隐藏状态的特征数量。",
    "yOut": "shape支持三维（time_step, batch_size, hidden_size）或者当bidirection为True时（time_step, batch_size, 2 * hidden_size）。",
    "outputHOut": "shape支持三维（num_layers, batch_size, hidden_size）或者当bidirection为True时（2 * num_layers, batch_size, hidden_size）。",
}


def _lstm_params() -> list[Param]:
    out = {"c_type": "aclTensor*", "kind": "tensor", "direction": "out", "line": 1}
    return [
        Param(name="x", **TENSOR),
        Param(name="initH", **TENSOR),
        Param(name="numLayers", c_type="int64_t", kind="int", direction="in", line=1),
        Param(name="bidirection", **BOOL),
        Param(name="yOut", **out),
        Param(name="outputHOut", **out),
    ]


def test_a_list_that_changes_with_a_bool_reads_as_one_list_choosing_by_it():
    from specgen.parse.classify.shape_symbols import bool_alternative, defined_by_statements, list_bindings

    params = _lstm_params()
    found = bool_alternative([_LSTM_ROWS["yOut"]], params)
    assert found == (
        ("explicit", (), ("time_step", "batch_size", "2 * hidden_size if bidirection else hidden_size")),
        0,
    )
    uneven = ["shape支持三维（time_step, batch_size）或者当bidirection为True时（time_step, batch_size, 2）。"]
    assert bool_alternative(uneven, params) is None  # lists of two lengths
    # `num_layers`对应参数`numLayers` (initH's row) defines the symbol outputHOut's list names
    ((_, _, dims), _) = bool_alternative([_LSTM_ROWS["outputHOut"]], params) or ((None, None, ()), 0)
    dims = defined_by_statements(dims, _LSTM_ROWS.values(), params)
    assert dims == ("2 * numLayers if bidirection else numLayers", "batch_size", "hidden_size")
    # x binds all three of its symbols, initH only those its two forms hold at one axis
    bound = list_bindings(params, {name: [text] for name, text in _LSTM_ROWS.items()})
    assert {(d.symbol, d.param, d.axis) for ds in bound.values() for d in ds} == {
        ("time_step", "x", 0),
        ("batch_size", "x", 1),
        ("input_size", "x", 2),
        ("batch_size", "initH", 1),
        ("hidden_size", "initH", 2),
    }
    # the sample: x {2, 32, 32}, initH {2, 32, 32}, numLayers 1, bidirection true; yOut
    # {time_step, batch_size, 2 * hidden_size} = {2, 32, 64}, outputHOut {2 * 1, 32, 32}
    symbols = [d.model_dump() for ds in bound.values() for d in ds]
    shapes = {"x": (2, 32, 32), "initH": (2, 32, 32)}
    values = {"numLayers": 1, "bidirection": True}
    y = {"kind": "explicit", "dims": list(found[0][2]) if found else [], "symbols": symbols}
    h = {"kind": "explicit", "dims": list(dims), "symbols": symbols}
    assert _shapes.output_shape(y, shapes, values) == (2, 32, 64)
    assert _shapes.output_shape(h, shapes, values) == (2, 32, 32)
    assert _shapes.output_shape(h, {"x": (2, 32, 32), "initH": (1, 32, 32)}, {**values, "bidirection": False}) == (
        1,
        32,
        32,
    )
    assert _shapes.output_shape(h, shapes, {"numLayers": 1}) is None  # the bool not given


def test_a_symbol_a_bool_defines_takes_its_two_values():
    from specgen.parse.classify.shape_symbols import symbol_definitions

    # aclnnLstmBackward.md (ops-nn rnn/single_layer_lstm_grad), the params row
    row = "bidirectional为True时`D = 2`，否则`D = 1`，hasBiases为True时`B = 2`，否则`B = 1`。列表长度为D * B * num_layers。"
    params = [Param(name="bidirectional", **BOOL), Param(name="hasBias", **BOOL)]
    # hasBiases is no parameter (the bool is hasBias): B is not defined
    assert symbol_definitions([row], params) == {"D": "(2 if bidirectional else 1)"}
    # aclnnLSTM.md (ops-nn rnn/dynamic_rnn): `num_layers：对应参数numLayers`
    ints = [Param(name="numLayers", c_type="int64_t", kind="int", direction="in", line=1)]
    assert symbol_definitions(["num_layers：对应参数numLayers，表示LSTM层数；"], ints) == {"num_layers": "numLayers"}
    assert symbol_definitions(["num_layers：对应参数numLayers", "num_layers：对应参数numLayer"], ints) == {
        "num_layers": "numLayers"
    }


def test_a_two_dimensional_output_by_its_first_and_last_axes():
    from specgen.parse.classify.shape_symbols import worded_reading

    # aclnnEmbeddingDenseBackward.md (ops-nn index/embedding_dense_grad), out's bullet
    row = "梯度求和的结果输出，Device侧的aclTensor，维度为2维，首轴大小为numWeights，尾轴大小与grad尾轴相同，数据类型与grad类型相同。"
    params = [
        Param(name="grad", **TENSOR),
        Param(name="numWeights", c_type="uint64_t", kind="int", direction="in", line=1),
        Param(name="out", c_type="const aclTensor*", kind="tensor", direction="out", line=1),
    ]
    found = worded_reading(params[-1], [row], params)
    assert found == (("explicit", (), ("numWeights", "grad.shape[-1]")), 0)
    # the sample: gradOutput {2, 3}, numWeights 4, out {4, 3}
    rule = {"kind": "explicit", "dims": list(found[0][2]) if found else []}
    assert _shapes.output_shape(rule, {"grad": (2, 3)}, {"numWeights": 4}) == (4, 3)
    # the rank unsaid (and not the row's): not read
    assert worded_reading(params[-1], ["首轴大小为numWeights，尾轴大小与grad尾轴相同"], params) is None


def test_two_cases_of_a_bool_in_two_statements_read_as_one_list():
    from specgen.parse.classify.shape_symbols import worded_reading

    # aclnnDeformableConv2dBackward.md (ops-nn conv/convolution_backward), gradOffset's row
    said = [
        "表示偏移量的梯度。",
        "当modulated为True时，shape为[N, 3 * deformableGroups * K_H * K_W, outH, outW]；",
        "当modulated为False时，shape为[N, 2 * deformableGroups * K_H * K_W, outH, outW]。",
    ]
    params = [
        Param(name="gradOutput", **TENSOR),
        Param(name="deformableGroups", c_type="int64_t", kind="int", direction="in", line=1),
        Param(name="modulated", **BOOL),
        Param(name="gradOffset", c_type="aclTensor*", kind="tensor", direction="out", line=1),
    ]
    found = worded_reading(params[-1], said, params)
    flagged = "3 * deformableGroups * K_H * K_W if modulated else 2 * deformableGroups * K_H * K_W"
    assert found == (("explicit", (), ("N", flagged, "outH", "outW")), 1)
    # the sample: deformableGroups 1, weight {4, 3, 5, 5} (K_H, K_W), gradOutput {1, 4, 2, 4}
    # (N, outH, outW), modulated true: gradOffset {1, 3 * 1 * 5 * 5, 2, 4} = {1, 75, 2, 4}
    symbols = [("N", "gradOutput", 0), ("outH", "gradOutput", 2), ("outW", "gradOutput", 3)]
    symbols += [("K_H", "weight", 2), ("K_W", "weight", 3)]
    rule = {
        "kind": "explicit",
        "dims": ["N", flagged, "outH", "outW"],
        "symbols": [{"symbol": s, "param": p, "axis": a} for s, p, a in symbols],
    }
    shapes = {"gradOutput": (1, 4, 2, 4), "weight": (4, 3, 5, 5)}
    assert _shapes.output_shape(rule, shapes, {"deformableGroups": 1, "modulated": True}) == (1, 75, 2, 4)
    assert _shapes.output_shape(rule, shapes, {"deformableGroups": 1, "modulated": False}) == (1, 50, 2, 4)
    # one case only: not read
    assert worded_reading(params[-1], said[:2], params) is None


def test_an_array_that_is_the_outputs_spatial_size_follows_the_inputs_leading_dimensions():
    from specgen.parse.classify.shape_symbols import spatial_rule

    # aclnnMaxUnpool2d.md (ops-nn index/scatter_elements): outputSize's row
    size_row = "size大小为2,两个元素乘积值需大于等于self在H和W维度上的size乘积值。"
    params = [
        Param(name="self", **TENSOR),
        Param(name="indices", **TENSOR),
        Param(name="outputSize", description="表示输出结果在H和W维度上的空间大小。", text=size_row, **INT_ARRAY),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", description="公式中的out。", line=1),
    ]
    rule = spatial_rule(params[-1], params)
    assert rule is not None and rule.dims == ("*self.shape[:-2]", "*outputSize")
    # the sample: self {1, 1, 2, 2}, outputSize {4, 4}, out {1, 1, 4, 4}; a 3-d self (C, H, W)
    plain = rule.model_dump(mode="json")
    assert _shapes.output_shape(plain, {"self": (1, 1, 2, 2)}, {"outputSize": [4, 4]}) == (1, 1, 4, 4)
    assert _shapes.output_shape(plain, {"self": (3, 2, 2)}, {"outputSize": [4, 4]}) == (3, 4, 4)
    # aclnnMaxUnpool3d.md: `表示输出结果在D、H和W维度上的空间大小` keeps all but three
    three = [
        q.model_copy(update={"description": "表示输出结果在D、H和W维度上的空间大小。"}) if q.name == "outputSize" else q
        for q in params
    ]
    assert (rule := spatial_rule(three[-1], three)) is not None and rule.dims[0] == "*self.shape[:-3]"
    # the array's row names no input of the two: not read; nor for one of two outputs
    unnamed = [q.model_copy(update={"text": ""}) if q.name == "outputSize" else q for q in params]
    assert spatial_rule(unnamed[-1], unnamed) is None
    two = [*params, params[-1].model_copy(update={"name": "indicesOut"})]
    assert spatial_rule(two[-2], two) is None


def test_outputs_tied_to_each_other_share_the_spatial_size():
    from specgen.parse.classify.shape_symbols import spatial_rule

    # aclnnAdaptiveMaxPool3d.md (ops-nn pooling/adaptive_max_pool3d): outputSize's row, and
    # outputOut `shape与indicesOut一致`, indicesOut `shape与outputOut一致`
    size_row = "输出窗口大小。\n表示输出结果在Dout，Hout，Wout维度上的空间大小。"
    out = {"c_type": "aclTensor*", "kind": "tensor", "direction": "out", "line": 1}
    params = [
        Param(name="self", description="待计算张量。", **TENSOR),
        Param(name="outputSize", description="输出窗口大小。", text=size_row, **INT_ARRAY),
        Param(name="outputOut", **out),
        Param(name="indicesOut", **out),
    ]
    assert spatial_rule(params[2], params) is None  # one of two outputs, tied to nothing
    rule = spatial_rule(params[2], params, tied_to=("indicesOut",))
    assert rule is not None and rule.dims == ("*self.shape[:-3]", "*outputSize")
    assert spatial_rule(params[2], params, tied_to=("self",)) is None  # tied to an input: that rule holds
    # the sample: self {1, 1, 1, 4, 4}, outputSize {1, 2, 2}, out and indices {1, 1, 1, 2, 2}
    plain = rule.model_dump(mode="json")
    assert _shapes.output_shape(plain, {"self": (1, 1, 1, 4, 4)}, {"outputSize": [1, 2, 2]}) == (1, 1, 1, 2, 2)


def test_an_unread_formula_says_which_names_no_parameter_gives():
    from specgen.parse.classify.shape_formulas import latex_expression

    # aclnnMaxPool.md (ops-nn pooling/max_pool_v3): escaped underscores and braced subscripts
    latex = (
        r"\lfloor{\frac{H_{in}+  padding\_size_{Htop} + padding\_size_{Hbottom} - {dilation\_size \times(k_h - 1)"
        r" - 1}}{s_h}}\rfloor + 1"
    )
    expected = "floor((H_in + padding_size_Htop + padding_size_Hbottom - dilation_size * (k_h - 1) - 1) / s_h) + 1"
    assert latex_expression(latex) == expected
    # aclnnAvgPool2d.md (ops-nn pooling/avg_pool3_d): kH is no parameter (kernelSize is)
    params = [
        Param(name="self", **TENSOR),
        *(Param(name=n, **INT_ARRAY) for n in ("kernelSize", "strides", "paddings")),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", line=1),
    ]
    latex = r"H_{out}=\lfloor \frac{H_{in}+2*paddings[0]-kH}{strides[0]}+1 \rfloor"
    rule = formula_rule(params[-1], params, latex, 1)
    assert rule is not None and rule.reason == "a size formula: H_out names kH, which no parameter gives"


def _avg_pool2d_params(kernel_row: str) -> list[Param]:
    return [
        Param(name="self", **TENSOR),
        Param(name="kernelSize", description="表示池化窗口大小，公式中的k。", text=kernel_row, **INT_ARRAY),
        Param(
            name="strides", text="长度为0（sH=kH, sW=kW）或长度为1（sH=sW）或2（sH, sW），数值必须大于0。", **INT_ARRAY
        ),
        Param(name="paddings", **INT_ARRAY),
        Param(name="ceilMode", description="推导的输出out的shape是否向上取整。", **BOOL),
        Param(
            name="out",
            c_type="aclTensor*",
            kind="tensor",
            direction="out",
            description="输出的tensor，公式中的out。",
            line=1,
        ),
    ]


# aclnnAvgPool2d.md (ops-nn pooling/avg_pool3_d), 计算公式
_AVG_POOL2D = r"""H_{out}=\lfloor \frac{H_{in}+2*paddings[0]-kH}{strides[0]}+1 \rfloor

W_{out}=\lfloor \frac{W_{in}+2*paddings[1]-kW}{strides[1]}+1 \rfloor"""


def test_symbols_an_arrays_row_names_its_elements_by_take_those_elements():
    # aclnnAvgPool2d.md's kernelSize row: `长度为1(kH=kW)或2(kH, kW)，数值大于0。`
    params = _avg_pool2d_params("长度为1(kH=kW)或2(kH, kW)，数值大于0。")
    rule = formula_rule(params[-1], params, _AVG_POOL2D, 1)
    assert rule is not None and rule.kind == "explicit" and rule.when == ("ceilMode", "bool", "false", "true")
    plain = rule.model_dump(mode="json")
    # the sample: self {1, 16, 4, 4}, kernelDims {4, 4}, strideDims {1, 1}, paddingDims {0, 0},
    # ceilMode false, out {1, 16, 1, 1}: H_out = floor((4 + 2 * 0 - 4) / 1 + 1) = 1
    values = {"kernelSize": [4, 4], "strides": [1, 1], "paddings": [0, 0], "ceilMode": False}
    assert _shapes.output_shape(plain, {"self": (1, 16, 4, 4)}, values) == (1, 16, 1, 1)
    # one element for both (kH=kW): a 3 x 3 window over 5 x 5 gives 3 x 3
    one = {**values, "kernelSize": [3]}
    assert _shapes.output_shape(plain, {"self": (1, 16, 5, 5)}, one) == (1, 16, 3, 3)
    # a 2 x 3 window: H_out = floor((5 - 2) / 1 + 1) = 4, W_out = floor((5 - 3) / 1 + 1) = 3
    two = {**values, "kernelSize": [2, 3]}
    assert _shapes.output_shape(plain, {"self": (5, 5)}, two) == (4, 3)
    # strides of one element (sH=sW) are not the formula's strides[1]: unsettled, no check
    assert _shapes.output_shape(plain, {"self": (1, 16, 4, 4)}, {**values, "strides": [1]}) is None


def test_symbols_an_arrays_row_names_are_left_unread_when_they_are_ambiguous():
    from specgen.parse.classify.shape_formulas import element_symbols

    assert element_symbols(_avg_pool2d_params("长度为1(kH=kW)或2(kH, kW)，数值大于0。")) == {
        "kH": "kernelSize[0]",
        "kW": "kernelSize[len(kernelSize) - 1]",
        "sH": "strides[0]",  # strides: `长度为0（sH=kH, sW=kW）或长度为1（sH=sW）或2（sH, sW）`
        "sW": "strides[len(strides) - 1]",
    }
    # three names with one element for all would need min(): not read
    three = _avg_pool2d_params("长度为1(kD=kH=kW)或3(kD, kH, kW)。")
    assert not {"kD", "kH", "kW"} & set(element_symbols(three))
    # a count that is not the number of names is no list of elements
    assert "kH" not in element_symbols(_avg_pool2d_params("长度为3(kH, kW)。"))


def test_names_an_arrays_row_gives_only_as_a_whole_are_said_apart_from_those_no_row_gives():
    # aclnnMaxPool.md: pads `沿着空间轴方向开始和结束的位置填充，对应公式中的padding_size。`, dilations
    # `沿着核空间轴方向的膨胀值，对应公式中的dilation_size。`; kernelShape and strides name no symbol
    floor = (
        r"H_{out}=\lfloor{\frac{H_{in}+  padding\_size_{Htop} + padding\_size_{Hbottom} - {dilation\_size "
        r"\times(k_h - 1) - 1}}{s_h}}\rfloor + 1"
    )
    formula = floor + "\n\n" + floor.replace(r"\lfloor", r"\lceil").replace(r"\rfloor", r"\rceil")
    rows = {
        "kernelShape": "最大池化的窗口大小。",
        "strides": "窗口移动的步长。",
        "pads": "沿着空间轴方向开始和结束的位置填充，对应公式中的padding_size。",
        "dilations": "沿着核空间轴方向的膨胀值，对应公式中的dilation_size。",
    }
    params = [
        Param(name="self", **TENSOR),
        *(Param(name=n, description=d, **INT_ARRAY) for n, d in rows.items()),
        Param(name="ceilMode", description="计算输出形状的取整模式。", **INT),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", line=1),
    ]
    rule = formula_rule(params[-1], params, formula, 1)
    assert rule is not None and rule.reason == (
        "a size formula: the formulas name k_h, s_h, which no parameter gives; dilation_size, which the row of "
        "dilations names only as a whole (dilation_size); padding_size_Hbottom, padding_size_Htop, which the row "
        "of pads names only as a whole (padding_size)"
    )
    # a symbol two arrays' rows name is no one array's
    twice = [q.model_copy(update={"description": rows["pads"]}) if q.name == "strides" else q for q in params]
    reason = formula_rule(params[-1], twice, formula, 1).reason  # type: ignore[union-attr]
    assert "padding_size_Htop, s_h, which no parameter gives" in reason and "pads" not in reason


def test_formulas_that_give_a_size_two_ways_say_which_names_no_parameter_gives():
    # aclnnMaxPool.md (ops-nn pooling/max_pool_v3): a floor and a ceil formula, chosen by an
    # int64 ceilMode, over names no parameter gives (k_h, s_h, padding_size_Htop…)
    floor = (
        r"H_{out}=\lfloor{\frac{H_{in}+  padding\_size_{Htop} + padding\_size_{Hbottom} - {dilation\_size "
        r"\times(k_h - 1) - 1}}{s_h}}\rfloor + 1"
    )
    formula = floor + "\n\n" + floor.replace(r"\lfloor", r"\lceil").replace(r"\rfloor", r"\rceil")
    params = [
        Param(name="self", **TENSOR),
        *(Param(name=n, **INT_ARRAY) for n in ("kernelShape", "strides", "pads", "dilations")),
        Param(name="ceilMode", description="计算输出形状的取整模式。", **INT),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", line=1),
    ]
    rule = formula_rule(params[-1], params, formula, 1)
    names = "dilation_size, k_h, padding_size_Hbottom, padding_size_Htop, s_h"
    assert rule is not None and rule.reason == f"a size formula: the formulas name {names}, which no parameter gives"
    # every name given (p and k_h integers here): the two ways are what is left to say
    given = formula.replace(
        "padding\\_size_{Htop} + padding\\_size_{Hbottom} - {dilation\\_size \\times(k_h - 1) - 1}", "2 * p - k_h"
    ).replace("s_h", "k_h")
    ints = [*params[:-1], *(Param(name=n, **INT) for n in ("p", "k_h")), params[-1]]
    rule = formula_rule(params[-1], ints, given, 1)
    assert rule is not None and rule.reason == "a size formula: the formula gives an output size two ways"


# aclnnMaxPool2dWithMask.md (ops-nn pooling/max_pool3d_with_argmax_v2), 计算公式: out's and indices' equations
_MAX_POOL_MASK = r"""[N, C, H_{out}, W_{out}]=[N,C,\lfloor{\frac{H_{in}+2 \times {padding[0] - dilation[0] \times(kernelSize[0] - 1) - 1}}{stride[0]}}\rfloor + 1,\lfloor{\frac{W_{in}+2 \times {padding[1] - dilation[1] \times(kernelSize[1] - 1) - 1}}{stride[1]}}\rfloor + 1]

[N, C, H_{indices}, W_{indices}]=[N,C,k_h \times k_w,   (\lceil{\frac{H_{out} \times W_{out}}{16}}\rceil+1) \times 2 \times 16]"""


def _max_pool_mask_params(kernel_row: str) -> list[Param]:
    out = {"c_type": "aclTensor*", "kind": "tensor", "direction": "out", "line": 1}
    return [
        Param(name="self", **TENSOR),
        Param(name="kernelSize", description="最大池化的窗口大小。", text=kernel_row, **INT_ARRAY),
        *(Param(name=n, **INT_ARRAY) for n in ("stride", "padding", "dilation")),
        Param(name="ceilMode", description="计算输出形状时取整的方法。", **BOOL),
        Param(name="out", description="输出的tensor，池化后的结果。", text="shape由上述公式推导出。", **out),
        Param(name="indices", text="shape由上述公式推导出，为自定义mask值。", **out),
    ]


def test_a_second_output_with_its_own_equation_follows_it_after_the_inputs_leading_dimensions():
    # the document's kernelSize row names no k_h, k_w: the indices' equation is not read, and says why
    params = _max_pool_mask_params("长度为1或2，且数组元素必须都大于0。")
    rule = formula_rule(params[-1], params, _MAX_POOL_MASK, 1)
    assert rule is not None and rule.reason == "a size formula: H_indices names k_h, k_w, which no parameter gives"
    # a row that names them (as aclnnAvgPool2d's does, `长度为2(kH, kW)`): read, with out's sizes and case
    params = _max_pool_mask_params("长度为2(k_h, k_w)，且数组元素必须都大于0。")
    rule = formula_rule(params[-1], params, _MAX_POOL_MASK, 1)
    assert rule is not None and rule.derived and rule.when == ("ceilMode", "bool", "false", "true")
    assert rule.dims[:2] == ("*self.shape[:-2]", "kernelSize[0] * kernelSize[1]")
    # the sample: self {1, 1, 4, 3}, kernel {2, 2}, stride {2, 2}, padding {0, 0}, dilation {1, 1}:
    # out {1, 1, 2, 1}, so indices {1, 1, 2 * 2, (ceil(2 * 1 / 16) + 1) * 2 * 16} = {1, 1, 4, 64}
    values = {"kernelSize": [2, 2], "stride": [2, 2], "padding": [0, 0], "dilation": [1, 1], "ceilMode": False}
    plain = {"kind": "explicit", "dims": list(rule.dims), "when": list(rule.when)}
    assert _shapes.output_shape(plain, {"self": (1, 1, 4, 3)}, values) == (1, 1, 4, 64)
    # no equation of its own (or one whose sizes do not come last): none
    assert formula_rule(params[-1], params, _MAX_POOL_MASK.split("\n\n")[0], 1) is None
    swapped = _MAX_POOL_MASK.replace("[N, C, H_{indices}, W_{indices}]", "[H_{indices}, W_{indices}, N, C]")
    assert formula_rule(params[-1], params, swapped, 1) is None


def test_a_formula_written_in_what_no_expression_reads_says_so():
    # aclnnMaxPoolV3.md (ops-nn experimental/pooling/max_pool_v3), 输出尺寸: C's conditional inside
    formula = r"""H_{out} = \left\lfloor \frac{H_{in} + padT + padB - kH + (ceil\_mode\; ?\; sH - 1 : 0)}{sH} \right\rfloor + 1

W_{out} = \left\lfloor \frac{W_{in} + padL + padR - kW + (ceil\_mode\; ?\; sW - 1 : 0)}{sW} \right\rfloor + 1"""
    params = [
        Param(name="x", **TENSOR),
        *(Param(name=n, **INT_ARRAY) for n in ("ksize", "strides", "pads")),
        Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", line=1),
    ]
    rule = formula_rule(params[-1], params, formula, 3)
    assert rule is not None and not rule.derived and rule.line == 3
    assert rule.reason == "a size formula: H_out, W_out are written in what the model does not read"
    # a formula that defines no size: none
    assert formula_rule(params[-1], params, r"y[n, c, h_o, w_o] = \max_{i=0}^{kH-1} x[n, c, h_o, w_o]", 3) is None


def _emu_split_params(rank: int = 2) -> list[Param]:
    # aclnnMatmulEmuSplitWeight.md (ops-nn matmul/matmul_emu_split_weight): the rows and their ranks
    ranked = Constraint(kind="rank", min=rank, max=rank, text=str(rank), line=1)
    same = Constraint(kind="same_shape", params=("wHigh",), text="shape必须与wHigh完全一致。", line=1)

    def matrix(name: str, description: str, *said: Constraint, direction: str = "in") -> Param:
        row = {"name": name, "description": description, "constraints": (ranked, *said)}
        return Param(**row, **{**TENSOR, "direction": direction})  # type: ignore[arg-type]

    return [
        matrix("x", "表示激活矩阵，对应公式中的$X$。"),
        matrix("wHigh", "表示高位权重，对应公式中的$W_{high}$。"),
        matrix("wLow", "表示低位残差权重，对应公式中的$W_{low}$。", same),
        Param(name="wLowScale", description="缩放因子，对应公式中的scale。", **FLOAT),
        matrix("y", "表示计算的输出矩阵，对应公式中的$Y$。", direction="out"),
    ]


_EMU_SPLIT = r"Y = X \times W_{high} + scale \times (X \times W_{low})"
_EMU_SUMMARY = ["接口功能：使用双路BF16 GEMM融合模拟FP32精度矩阵乘法。"]


def test_a_matrix_product_written_with_times_reads_as_a_matmul_where_the_description_says_so():
    from specgen.parse.classify.shape_formulas import product_rule

    params = _emu_split_params()
    rule = product_rule(params[-1], params, _EMU_SPLIT, _EMU_SUMMARY, 30)
    assert rule is not None and (rule.kind, rule.params, rule.line) == ("matmul", ("x", "wHigh"), 30)
    # the sample: x {128, 256}, wHigh and wLow {256, 128}: y {128, 128}
    plain = {"kind": "matmul", "params": ["x", "wHigh"]}
    assert _shapes.output_shape(plain, {"x": (128, 256), "wHigh": (256, 128)}, {}) == (128, 128)
    # no matrix product in the description, an `@` beside, 3-d operands, or wLow's shape untied: not read
    assert product_rule(params[-1], params, _EMU_SPLIT, ["接口功能：按元素相乘。"], 30) is None
    assert product_rule(params[-1], params, _EMU_SPLIT + "\n\nZ = X @ W_{high}", _EMU_SUMMARY, 30) is None
    cubes = _emu_split_params(rank=3)
    assert product_rule(cubes[-1], cubes, _EMU_SPLIT, _EMU_SUMMARY, 30) is None
    unranked = [q.model_copy(update={"constraints": q.constraints[1:]}) if q.name == "wLow" else q for q in params]
    assert product_rule(unranked[-1], unranked, _EMU_SPLIT, _EMU_SUMMARY, 30) is None
    untied = [q.model_copy(update={"constraints": q.constraints[:1]}) if q.name == "wLow" else q for q in params]
    assert product_rule(untied[-1], untied, _EMU_SPLIT, _EMU_SUMMARY, 30) is None
