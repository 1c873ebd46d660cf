"""Symbols the documents define in words, and lists written in words (issue 23, third round).
Each sentence is quoted from its ops-nn document; each expected shape is the document's own
sample call (or the operator's example program), computed by hand in the comment beside it."""

from __future__ import annotations

import numpy as np

from specgen.codegen.runtime import _shapes
from specgen.model import Param
from specgen.parse.classify.shape_symbols import symbol_definitions, worded_reading
from specgen.parse.classify.shapes import _respelled
from tests.param_kinds import INT, OUT, TENSOR


def test_a_symbol_in_snake_case_is_the_integer_parameter_spelled_so():
    # aclnnLstmBackward.md (ops-nn rnn/single_layer_lstm_grad): dhPrevOut's shape column
    # `[D * num_layers, batch_size, hidden_size]`, dh's `[numLayers * D, batch_size, hidden_size]`
    layers = Param(name="numLayers", **INT)
    assert _respelled({"num_layers", "batch_size"}, [layers]) == {"num_layers": "numLayers"}
    assert _respelled({"num_layer"}, [layers]) == {}  # another name, not another spelling
    assert _respelled({"num_layers"}, [Param(name="numLayers", **TENSOR)]) == {}  # a tensor is no size
    # two parameters spelled so: neither
    assert _respelled({"num_layers"}, [layers, Param(name="num_layers_", **INT)]) == {}
    # the sample: numLayers 1, bidirectional false, dh {1, 1, 8}: dhPrevOut {1 * 1, 1, 8}
    rule = {
        "kind": "explicit",
        "dims": ["(2 if bidirectional else 1) * numLayers", "batch_size", "hidden_size"],
        "symbols": [
            {"symbol": "batch_size", "param": "dh", "axis": 1},
            {"symbol": "hidden_size", "param": "dh", "axis": 2},
        ],
    }
    values = {"numLayers": 1, "bidirectional": False}
    assert _shapes.output_shape(rule, {"dh": (1, 1, 8)}, values) == (1, 1, 8)
    assert _shapes.output_shape(rule, {"dh": (4, 1, 8)}, {"numLayers": 2, "bidirectional": True}) == (4, 1, 8)


def test_a_symbol_a_statement_defines_by_that_is_takes_the_expression():
    # aclnnEmbeddingDenseGrad.md (ops-nn experimental/index/embedding_dense_grad), 约束说明
    note = "`y` 的 shape 为 `{numWeights, dimSize}`，其中 `dimSize` 等于 `grad` 的最后一维大小（即 `grad.shape[-1]`）。"
    params = [Param(name="grad", **TENSOR), Param(name="numWeights", **INT), Param(name="y", **OUT)]
    assert symbol_definitions([note], params) == {"dimSize": "grad.shape[-1]"}
    # words in parentheses, or an expression of no tensor's shape: no definition
    assert symbol_definitions(["其中 `dimSize` 等于 `grad` 的最后一维大小（即 尾轴）。"], params) == {}
    assert symbol_definitions(["其中 `dimSize` 为词表大小（即 numWeights）。"], params) == {}
    # a parameter's own name is never redefined
    assert symbol_definitions(["其中 `numWeights` 等于 `grad` 的最后一维大小（即 `grad.shape[-1]`）。"], params) == {}
    # the example program: grad {4, 3}, numWeights 10: y {10, 3}
    rule = {"kind": "explicit", "dims": ["numWeights", "grad.shape[-1]"]}
    assert _shapes.output_shape(rule, {"grad": (4, 3)}, {"numWeights": 10}) == (10, 3)


def _swiglu_params() -> list[Param]:
    return [
        Param(name="x", **TENSOR),
        Param(name="yGrad", **TENSOR),
        Param(name="y1Out", **OUT),
    ]


def test_a_list_of_multiples_written_without_the_sign_reads_as_products():
    params = _swiglu_params()
    # aclnnSwigluBackwardMxQuantWithDualAxis.md (ops-nn quant/swiglu_backward_mx_quant_with_dual_axis): y1Out
    assert worded_reading(params[-1], ["shape为[M, 2N]。"], params) == (("explicit", (), ("M", "2 * N")), 0)
    # a condition before it, two such lists, or none with a product: not read here
    assert worded_reading(params[-1], ["当x为2维时，shape为[M, 2N]。"], params) is None
    assert worded_reading(params[-1], ["shape为[M, 2N]。", "shape为[2M, N]。"], params) is None
    assert worded_reading(params[-1], ["shape为[M, N]。"], params) is None
    # a name's digits are no product; one inside an expression is
    assert worded_reading(params[-1], ["shape为[M1, 2N/32]。"], params) == (("explicit", (), ("M1", "2 * N / 32")), 0)
    assert worded_reading(params[-1], ["shape为[M, 2N]或[B, M, 2N]。"], params) is None  # alternatives
    # the sample: yGrad {256, 512} binds M and N (`shape为[M, N]`): y1Out {256, 2 * 512}
    rule = {
        "kind": "explicit",
        "dims": ["M", "2 * N"],
        "symbols": [{"symbol": "M", "param": "yGrad", "axis": 0}, {"symbol": "N", "param": "yGrad", "axis": 1}],
    }
    assert _shapes.output_shape(rule, {"yGrad": (256, 512)}, {}) == (256, 1024)


def _repeat_params(size_description: str = "dim维度再进行重复后的最终大小。") -> list[Param]:
    return [
        Param(name="self", **TENSOR),
        Param(name="repeats", **TENSOR),
        Param(name="dim", **INT),
        Param(name="outputSize", description=size_description, **INT),
        Param(name="out", **OUT),
    ]


def test_the_size_along_dim_is_the_integer_parameter_described_as_that_size():
    # aclnnRepeatInterleaveWithDim.md (ops-nn index/repeat_interleave): out's row and outputSize's description
    row = [
        "数据类型需要与self一致。",
        "如果repeats中有多个值，out的shape在dim维度下的size等于repeats中所有元素的和。",
        "如果repeats只有一个元素时，out的shape在dim维度下的size等于repeats * self的dim维度下的size。",
    ]
    params = _repeat_params()
    found = worded_reading(params[-1], row, params)
    dims = ("*self.shape[:dim % rank(self)]", "outputSize", "*self.shape[dim % rank(self) + 1:]")
    assert found == (("explicit", (), dims), 2)
    # no parameter described as the final size, or the row names another output: not read
    assert worded_reading(params[-1], row, _repeat_params("重复的次数。")) is None
    assert worded_reading(params[-1], [r.replace("out的", "y的") for r in row], params) is None
    # the sample: self {2, 3}, repeats {1, 2}, dim 0, outputSize 3: out {3, 3}
    rule = {"kind": "explicit", "dims": list(dims)}
    assert _shapes.output_shape(rule, {"self": (2, 3)}, {"dim": 0, "outputSize": 3}) == (3, 3)
    assert _shapes.output_shape(rule, {"self": (2, 3)}, {"dim": -1, "outputSize": 5}) == (2, 5)


def test_a_tensor_list_laid_out_as_an_input_list_with_its_element_shapes_takes_them():
    # aclnnLstmBackward.md (ops-nn rnn/single_layer_lstm_grad): params' and dparamsOut's rows
    params_row = (
        "LSTM每层的权重和偏置张量列表，对应公式中的w与b。\n列表长度为D * B * num_layers。\n"
        "weight_ih：[4*hidden_size, cur_input_size] weight_hh：[4*hidden_size, hidden_size] bias_ih：[4*hidden_size] "
        "bias_hh：[4*hidden_size]"
    )
    out_row = [
        "列表长度为D * B * num_layers。",
        "排布与输入params一致。",
        "dweight_ih：[4*hidden_size, cur_input_size] dweight_hh：[4*hidden_size, hidden_size] dbias：[4*hidden_size]",
    ]
    lists = {"c_type": "const aclTensorList*", "kind": "tensor_list", "line": 1}

    def given(out_text: str, in_text: str = params_row, kind: str = "tensor_list") -> list[Param]:
        return [
            Param(name="params", direction="in", text=in_text, **{**lists, "kind": kind}),
            Param(name="dparamsOut", direction="out", text=out_text, **lists),
        ]

    params = given("\n".join(out_row))
    assert worded_reading(params[-1], out_row, params) == (("same", ("params",), ()), 1)
    # the arrangement alone, element shapes that differ, or an input that is no list: not read
    alone = given("\n".join(out_row[:2]))
    assert worded_reading(alone[-1], out_row[:2], alone) is None
    other = given("\n".join(out_row).replace("4*hidden_size, hidden_size", "3*hidden_size, hidden_size"))
    assert worded_reading(other[-1], out_row, other) is None
    tensor = given("\n".join(out_row), kind="tensor")
    assert worded_reading(tensor[-1], out_row, tensor) is None
    # the sample: params {32, 8}, {32, 8}, {32}, {32}: dparamsOut allocated element by element alike
    weights = [np.zeros(s, dtype=np.float32) for s in ((32, 8), (32, 8), (32,), (32,))]
    args = {"params": weights, "input": np.zeros((1, 1, 8), dtype=np.float32), "dparamsOut": None}
    same_as_input = {"kind": "same", "params": ["input"]}
    out = _shapes.allocate("dparamsOut", {"kind": "same", "params": ["params"]}, same_as_input, args, each=True)
    assert [a.shape for a in out] == [(32, 8), (32, 8), (32,), (32,)]


def test_a_list_an_output_supports_by_its_rank_reads_as_its_shape():
    from specgen.parse.classify.shape_symbols import _ranked_list

    params = [Param(name="numLayers", **INT), Param(name="hy", **OUT)]
    # aclnnLSTM.md (ops-nn rnn/dynamic_rnn): hy's row, which its table gives twice
    row = "shape支持三维（D * num_layers, batch_size, hidden_size）"
    assert _ranked_list([row, row], params) == (("explicit", (), ("D * num_layers", "batch_size", "hidden_size")), 0)
    # a rank the list does not have, a second list, a condition, or two different lists: not read
    assert _ranked_list(["shape支持二维（D * num_layers, batch_size, hidden_size）"], params) is None
    assert _ranked_list([row + "或者当bidirection为True时（2, batch_size, hidden_size）"], params) is None
    assert _ranked_list(["当train=True时，shape支持三维（time_step, batch_size, hidden_size）"], params) is None
    assert _ranked_list([row, "shape支持二维（batch_size, hidden_size）"], params) is None


def test_a_symbol_defined_by_a_name_that_is_no_parameter_says_so():
    from specgen.parse.classify.shape_symbols import misdefined

    bools = {"c_type": "bool", "kind": "bool", "direction": "in", "line": 1}
    params = [Param(name="bidirectional", **bools), Param(name="numLayers", **INT)]
    # aclnnGRUBackward.md (ops-nn rnn/gru_grad), params' row: the bool is `bidirectional`
    row = "bidirection为True时 D = 2，否则 D = 1，hasBiases为True时 B = 2，否则 B = 1。"
    assert symbol_definitions([row], params) == {}
    assert misdefined(["D"], [row], params) == "D is defined by bidirection, which is no bool parameter"
    # aclnnLSTM.md (ops-nn rnn/dynamic_rnn): the same with `=True`, and `对应参数` of no integer
    lstm = ["D：bidirection=True时D=2，否则D=1；", "num_layers：对应参数numLayer，表示LSTM层数；"]
    assert misdefined(["D", "num_layers"], lstm, params) == (
        "D is defined by bidirection, which is no bool parameter; "
        "num_layers is defined by numLayer, which is no integer parameter"
    )
    # defined by a parameter (`=True` read as `为True`), or not asked about: nothing to say
    assert symbol_definitions(["D：bidirectional=True时D=2，否则D=1；"], params) == {"D": "(2 if bidirectional else 1)"}
    assert misdefined(["D"], ["D：bidirectional=True时D=2，否则D=1；"], params) == ""
    assert misdefined(["H"], [row], params) == ""


def test_a_shape_given_by_a_tensor_no_parameter_is_named_after_says_so():
    from specgen.parse.classify.shapes import Statement, _by_input_shape

    # aclnnGroupedDynamicMxQuant.md (ops-nn quant/grouped_dynamic_mx_quant): mxscale's row names
    # `groupedIndex`; the input is `groupIndex` (its sample names its variable groupedIndex)
    said = [
        Statement("假设x的shape为 [m,n]，groupedIndex的shape为 [g]，则mxscale的shape为 [(m/(blocksize∗2)+g),n,2]。", 7)
    ]
    out = Param(name="mxscale", **OUT)
    rule = _by_input_shape(out, said, ("x", "groupIndex"), ("x", "groupIndex", "blocksize", "mxscale"))
    assert rule is not None and not rule.derived and rule.line == 7
    assert rule.reason == "its shape is given by groupedIndex's shape [g], and no input is named groupedIndex"
    # the input named as the row names it: read (m, n from x's trailing axes, g from its length)
    rule = _by_input_shape(out, said, ("x", "groupedIndex"), ("x", "groupedIndex", "blocksize", "mxscale"))
    assert rule is not None and rule.dims == (
        "*x.shape[:-2]",
        "x.shape[-2] / (blocksize * 2) + groupedIndex.shape[0]",
        "x.shape[-1]",
        "2",
    )
