"""An input's own dimension list (`维度只支持1维且为[H]`, `输入维度[1,S]`), checked against the
symbols the other inputs' lists bind, or listed as not checked with the reason (issue 23, the
hand-read audit 40c's first fix). Each test stands on the document's lines and its own sample."""

from __future__ import annotations

import numpy as np

from specgen.codegen.cases import host_values
from tests.validator_calls import function_code, rejected

LEGACY = ("docs", "legacy")
DEQUANT_BIAS = ("docs", "ops-nn", "quant", "dequant_bias", "docs", "aclnnDequantBias.md")


def _rule(fn, rule_id: str):
    return next(r for r in fn.cases.rules if r.id == rule_id)


def test_a_one_dimensional_input_is_held_to_the_size_x_gives_its_symbol(corpus):
    """SwinTransformerLnQkvQuant line 26: x `只支持维度为[B,S,H]`; line 27: gamma `维度只支持1维且为[H]`;
    line 30: bias `维度只支持1维且维度为[3 * H]`. The sample (x (1,49,32), gamma (32,), bias (96,))
    passes; gamma (16,) and bias (32,) do not (the audit found both passing)."""
    fn = function_code(corpus.joinpath(*LEGACY, "SwinTransformerLnQkvQuant.md"))
    assert fn.sample.from_document and rejected(fn) == []
    half = np.zeros((16,), np.float16)
    assert "stated_shape_gamma" in rejected(fn, gamma=half)
    assert "stated_shape_bias" in rejected(fn, bias=np.zeros((32,), np.int32))
    assert "stated_shape_dequantScale" in rejected(fn, dequantScale=np.zeros((32,), np.uint64))
    # x's list gives it three dimensions (the document states no other rank for x)
    assert "stated_shape_x" in rejected(fn, x=np.zeros((49, 32), np.float16))
    # the statement is said enforced by that rule, not listed as one no rule reads (recheck 41r)
    (said,) = [s for s in fn.cases.statements if s.param == "x" and s.text == "只支持维度为[B,S,H]"]
    assert (said.rule, said.enforced) == ("stated_shape_x", True)
    # a bound beside the list is not the list's: `其中B为batch size且只支持[1,32]` stays named
    (bound,) = [s for s in fn.cases.statements if s.param == "x" and "只支持[1,32]" in s.text]
    assert bound.rule != "stated_shape_x" and not bound.enforced


def test_a_list_of_a_tensor_a_bool_transposes_holds_while_it_is_not(corpus):
    """SwinTransformerLnQkvQuant line 29: weight `维度为[H, 3 * H]`, line 41 the bool weightTranspose;
    its sample (line 141 on) passes weight (96, 32) with weightTranspose true. The list holds while
    weight is not transposed: the sample's weight passes; untransposed, (96, 32) does not."""
    fn = function_code(corpus.joinpath(*LEGACY, "SwinTransformerLnQkvQuant.md"))
    weight = _rule(fn, "stated_shape_weight")
    assert weight.host and weight.derive is not None and "weightTranspose" in weight.derive["when"]
    assert host_values(fn.cases.valid.args)["weight"].shape == (96, 32)
    assert rejected(fn, weight=np.zeros((32, 96), np.int8)) == []
    assert "stated_shape_weight" in rejected(fn, weightTranspose=False)
    assert rejected(fn, weightTranspose=False, weight=np.zeros((32, 96), np.int8)) == []


def test_a_matmul_operand_its_example_passes_transposed_is_not_held_to_its_list(corpus):
    """aclnnWeightQuantBatchMatmulV2 line 118/128: x `shape支持(m, k)`, weight `(k, n)`, both rows
    `仅转置场景支持`; the example test_aclnn_convert_weight_to_int4_pack.cpp passes x (16, 72) with a
    transposed weight: neither list is checked, and each says why."""
    path = corpus / "docs" / "ops-nn" / "matmul" / "weight_quant_batch_matmul_v2" / "docs"
    fn = function_code(path / "aclnnWeightQuantBatchMatmulV2.md")
    for name in ("x", "weight"):
        rule = _rule(fn, f"stated_shape_{name}")
        assert not rule.host and "transposed" in rule.reason


def test_scales_of_one_row_are_held_to_s_and_h_of_query(corpus):
    """SwinAttentionScoreQuant line 30: query `输入维度[N,C,S,H]`; line 33: scaleQuant `输入维度[1,S]`;
    line 35: scaleDequant2 `输入维度[1,H]`; line 39: paddingMask1Optional `四维的tensor，维度[1,C,S,S]
    …C维度支持任意值`. Sample: query (1288,3,49,32), scales (1,49)/(1,32), mask (1,3,49,49)."""
    fn = function_code(corpus.joinpath(*LEGACY, "SwinAttentionScoreQuant.md"))
    assert fn.sample.from_document and rejected(fn) == []
    assert "stated_shape_scaleQuant" in rejected(fn, scaleQuant=np.zeros((2, 49), np.float16))
    assert "stated_shape_scaleQuant" in rejected(fn, scaleQuant=np.zeros((1, 50), np.float16))
    assert "stated_shape_scaleDequant2" in rejected(fn, scaleDequant2=np.zeros((1, 64), np.uint64))
    assert "stated_shape_paddingMask1Optional" in rejected(fn, paddingMask1Optional=np.zeros((49, 49), np.float16))
    # C is free (`C维度支持任意值`): any size passes
    assert rejected(fn, paddingMask1Optional=np.zeros((1, 5, 49, 49), np.float16)) == []


def test_alternative_lists_the_call_does_not_settle_are_named_with_the_reason(corpus):
    """IncreFlashAttentionV4 line 73: pseShift `输入shape为(1,N,1,S)或(B,N,1,S)`: not checked, and
    said so (the audit found the statement silently dropped)."""
    fn = function_code(corpus.joinpath(*LEGACY, "IncreFlashAttentionV4.md"))
    rule = _rule(fn, "stated_shape_pseShift")
    assert not rule.host and "(1,N,1,S)或(B,N,1,S)" in rule.reason


def test_an_ops_nn_scale_is_held_to_the_axis_its_row_names_and_the_derived_call_meets_it(corpus):
    """aclnnDequantBias line 97: x `shape为[M，N]`; line 107: weightScale `shape为[N]，长度与x的N维长度
    一致`. The sample program (line 349-352) has x {40, 256} and weight {256}; the call derived
    for the tests meets the rule, and a weightScale of x's M size is rejected."""
    fn = function_code(corpus.joinpath(*DEQUANT_BIAS))
    assert fn.cases.valid.skip == "" and rejected(fn) == []
    x = host_values(fn.cases.valid.args)["x"]
    assert host_values(fn.cases.valid.args)["weightScale"].shape == (x.shape[1],)
    wrong = np.zeros((x.shape[1] + 1,), np.float32)
    assert "stated_shape_weightScale" in rejected(fn, weightScale=wrong)


OPS_NN = ("docs", "ops-nn")


def test_lists_whose_letters_the_sample_contradicts_are_spared_together(corpus):
    """aclnnConvTbcBackward lines 116-159: self `shape为(N,Cout,Hout)`, input `(N,Cin,Hin)`, weight
    `(Cout,Cin,K)`, bias `(Cout)`; its sample (line 588-591) passes the TBC layout: self (5,1,2),
    input (5,1,2), weight (1,2,2), bias (2,). The sample breaks input's and bias's lists, so none
    of the four is enforced (weight's alone would reject the sample's like with Cout = 2)."""
    fn = function_code(corpus.joinpath(*OPS_NN, "conv", "convolution_backward", "docs", "aclnnConvTbcBackward.md"))
    for name in ("self", "input", "weight", "bias"):
        rule = _rule(fn, f"stated_shape_{name}")
        assert not rule.host and "sample call (line 666)" in rule.reason
    # a TBC call where self's batch equals Cout: the doc's letters would reject it; nothing does
    grown = {
        "self": np.zeros((5, 2, 2), np.float32),
        "input": np.zeros((5, 2, 3), np.float32),
        "weight": np.zeros((1, 3, 2), np.float32),
        "bias": np.zeros((2,), np.float32),
    }
    assert not [r for r in rejected(fn, **grown) if r.startswith("stated_shape")]


def test_a_channel_axis_of_a_tensor_that_allows_channel_last_formats_is_not_checked(corpus):
    """aclnnBatchNorm line 96: input `4维（对应的格式为NCHW、NHWC）`; line 126: runningMean `shape长度与入参
    `input`中channel轴的长度相等`: the channel is axis 1 or the last by format, so the list is named
    with that reason, not held to input.shape[1]."""
    fn = function_code(corpus.joinpath(*OPS_NN, "norm", "batch_norm_v3", "docs", "aclnnBatchNorm.md"))
    rule = _rule(fn, "stated_shape_runningMean")
    assert not rule.host and "NHWC" in rule.reason


def test_a_list_beside_a_rank_given_case_by_case_is_not_checked(corpus):
    """aclnnCrossEntropyLossGrad line 178: gradLoss `(N,)` in the shape column, beside `当reductionOptional
    为none时，要求为一个维度为1D的Tensor。当reductionOptional为mean/sum时，要求为一个维度为0D的Tensor。`
    (its sample passes a 0-d gradLoss with reduction mean)."""
    fn = function_code(
        corpus.joinpath(*OPS_NN, "loss", "cross_entropy_loss_grad", "docs", "aclnnCrossEntropyLossGrad.md")
    )
    for name in ("gradLoss", "gradZlossOptional"):
        rule = _rule(fn, f"stated_shape_{name}")
        assert not rule.host and "case by case" in rule.reason


def test_a_scale_is_sized_by_the_end_of_a_list_with_a_free_prefix(corpus):
    """aclnnAdaLayerNorm line 99: x `shape为[B…, S, H]`; line 139: biasOptional `shape为[H]，H与`x`中H维
    一致`: biasOptional is held to x's last dimension."""
    fn = function_code(corpus.joinpath(*OPS_NN, "norm", "ada_layer_norm", "docs", "aclnnAdaLayerNorm.md"))
    x = host_values(fn.cases.valid.args)["x"]
    assert rejected(fn) == []
    wrong = np.zeros((x.shape[-1] + 1,), np.float32)
    assert "stated_shape_biasOptional" in rejected(fn, biasOptional=wrong, weightOptional=None)


def test_a_tensor_lists_element_shape_is_named_not_checked(corpus):
    """aclnnLstmBackward line 378: g, an aclTensorList whose elements the row gives as
    `(time_step, batch_size, hidden_size)`: listed as not checked, with that reason."""
    fn = function_code(corpus.joinpath(*OPS_NN, "rnn", "single_layer_lstm_grad", "docs", "aclnnLstmBackward.md"))
    rule = _rule(fn, "stated_shape_g")
    assert not rule.host and "tensor list" in rule.reason
