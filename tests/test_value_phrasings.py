"""Value phrasings of scalars, attributes, bools and arrays that no rule read (issue 23, 42b),
each on the document's own sentence: read into the enum and range checks where they hold
whatever the situation, kept with their condition where the sentence gives one. Corpus
documents are skipped when the corpus is absent."""

from __future__ import annotations

import pytest

from specgen.parse.classify.statements import clauses
from tests.validator_calls import first_violation, function_code, ops_nn, rejected

DEFORMABLE_CONV2D = "conv/deformable_conv2d/docs/aclnnDeformableConv2d.md"
CROSS_ENTROPY_LOSS = "loss/cross_entropy_loss/docs/aclnnCrossEntropyLoss.md"
ADD_RMS_NORM = "norm/add_rms_norm/docs/aclnnAddRmsNorm.md"
GAUSSIAN_NLL_LOSS = "experimental/loss/gaussian_nll_loss/docs/aclnnGaussianNllLoss.md"
SWIGLU_MX_QUANT = "quant/swiglu_mx_quant/docs/aclnnSwigluMxQuant.md"
REDUCE_SUM_NZ = "matmul/quant_matmul_reduce_sum/docs/aclnnQuantMatmulReduceSumWeightNz.md"
CONV_DEPTHWISE = "conv/convolution_forward/docs/aclnnConvDepthwise2d.md"
TRANSPOSE_BMM = "matmul/transpose_batch_mat_mul/docs/aclnnTransposeBatchMatMul.md"


def _statement(fn, param: str, text: str):
    return next(s for s in fn.cases.statements if s.param == param and s.text == text)


def _rule(fn, statement):
    return next(r for r in fn.cases.rules if r.id == statement.rule)


# ---------------------------------------------------------------- bounds said in words


@pytest.mark.parametrize(
    ("relative", "param", "text", "refused", "allowed"),
    [
        # aclnnDeformableConv2d.md:223 `inC和outC需都可被groups数整除，groups数大于零。`
        (DEFORMABLE_CONV2D, "groups", "groups数大于零", 0, None),
        # aclnnDeformableConv2d.md:193 stride: `size为4，各元素均大于零，…N维和C维必须设置为1。`
        (DEFORMABLE_CONV2D, "stride", "各元素均大于零", [1, 1, 0, 1], [1, 1, 2, 2]),
        # aclnnCrossEntropyLoss.md:168 labelSmoothing: `数值在[0.0, 1.0]之间。`
        (CROSS_ENTROPY_LOSS, "labelSmoothing", "数值在[0.0, 1.0]之间", 1.5, 1.0),
        # aclnnAddRmsNorm.md:124 `epsilon的值需要大于等于零。`
        (ADD_RMS_NORM, "epsilon", "epsilon的值需要大于等于零", -1e-6, 0.0),
        # aclnnGaussianNllLoss.md:72 eps `必须为有限正数` (its error row l.93: `eps 不是有限正数`)
        (GAUSSIAN_NLL_LOSS, "eps", "必须为有限正数", 0.0, 1e-6),
    ],
)
def test_a_bound_in_words_is_enforced(corpus, relative, param, text, refused, allowed):
    fn = ops_nn(corpus, relative)
    statement = _statement(fn, param, text)
    assert statement.enforced, _rule(fn, statement).reason
    assert statement.rule in rejected(fn, **{param: refused})
    if allowed is not None:
        assert statement.rule not in rejected(fn, **{param: allowed})


# ---------------------------------------------------------------- sets said whole


@pytest.mark.parametrize(
    ("relative", "param", "text", "refused", "allowed"),
    [
        # aclnnSwigluMxQuant.md:264 `dstType的取值范围是:[35, 36, 40, 41]`: values, not an interval
        (SWIGLU_MX_QUANT, "dstType", "dstType的取值范围是:[35, 36, 40, 41]", 37, 40),
        # aclnnQuantMatmulReduceSumWeightNz.md:240 keepDims `当前版本仅支持false。`
        (REDUCE_SUM_NZ, "keepDims", "当前版本仅支持false", True, False),
        # aclnnQuantMatmulReduceSumWeightNz.md:220 groupSize `需要传入0。`
        (REDUCE_SUM_NZ, "groupSize", "需要传入0", 32, 0),
    ],
)
def test_a_value_set_said_whole_is_enforced(corpus, relative, param, text, refused, allowed):
    fn = ops_nn(corpus, relative)
    statement = _statement(fn, param, text)
    assert statement.enforced, _rule(fn, statement).reason
    assert statement.rule in rejected(fn, **{param: refused})
    assert statement.rule not in rejected(fn, **{param: allowed})


def test_a_legacy_transpose_flag_takes_false_only(corpus):
    """SwinAttentionScoreQuant.md:41 `queryTranspose(bool，计算输入): …当前仅支持不转置false。`"""
    fn = function_code(corpus / "docs" / "legacy" / "SwinAttentionScoreQuant.md")
    assert _statement(fn, "queryTranspose", "当前仅支持不转置false").enforced
    assert first_violation(fn, queryTranspose=True) is not None
    assert first_violation(fn, queryTranspose=False) is None


# ---------------------------------------------------------------- conditions kept


def test_a_condition_stays_with_its_requirement():
    """`如果psetype为2或3的时候，数据类型需为FLOAT32` (legacy FlashAttentionVarLenScoreV2.md:47) and
    `如果swigluMode为1，activateLeft必须为true` (aclnnDequantSwigluQuantV2.md:282): the
    requirement holds under the condition only, so it is one clause with it."""
    assert clauses("如果psetype为2或3的时候，数据类型需为FLOAT32") == ["如果psetype为2或3的时候，数据类型需为FLOAT32"]
    assert clauses("如果swigluMode为1，activateLeft必须为true") == ["如果swigluMode为1，activateLeft必须为true"]


def test_a_value_after_a_given_pointer_condition_is_not_enforced(corpus):
    """aclnnTransposeBatchMatMul.md:215 `当scale不为空时，batchSplitFactor只能等于1。`: the value
    holds when scale is given only, so a call without scale may pass another."""
    fn = ops_nn(corpus, TRANSPOSE_BMM)
    assert not _statement(fn, "batchSplitFactor", "batchSplitFactor只能等于1").enforced


def test_the_legacy_pse_dtype_keeps_its_condition(corpus):
    """FlashAttentionVarLenScoreV2.md:47 realShiftOptional: `数据类型支持FLOAT16、BFLOAT16、FLOAT32，
    数据类型与query的数据类型一致…如果psetype为2或3的时候，数据类型需为FLOAT32`: FLOAT32 in
    some pse types only, so the statement is not read as a dtype set of its own."""
    fn = function_code(corpus / "docs" / "legacy" / "FlashAttentionVarLenScoreV2.md")
    said = [s for s in fn.cases.statements if s.param == "realShiftOptional" and "psetype" in s.text]
    assert [s.text for s in said] == ["如果psetype为2或3的时候，数据类型需为FLOAT32"]
    assert said[0].kind == "text"


# ---------------------------------------------------------------- named elements of an array


def test_a_bound_on_named_elements_is_named(corpus):
    """aclnnConvDepthwise2d.md:126 stride `strideH和strideW∈[1,63]`: a bound on the H and W
    elements, whose positions the check does not know; named, not listed as unread."""
    fn = ops_nn(corpus, CONV_DEPTHWISE)
    statement = _statement(fn, "stride", "strideH和strideW∈[1,63]")
    reason = _rule(fn, statement).reason
    assert not statement.enforced
    assert "strideH和strideW" in reason and "no rule reads" not in reason


# ---------------------------------------------------------------- a tensor's transposition, on its flag

DUAL_LEVEL_QUANT = "matmul/dual_level_quant_batch_matmul/docs/aclnnDualLevelQuantMatmulWeightNz.md"


def test_a_tensor_taken_transposed_or_not_fixes_its_flag(corpus):
    """aclnnDualLevelQuantMatmulWeightNz.md:103 x1 `仅支持非转置。`, l.118 x2 `仅支持转置。`, with
    l.203 transposeX1 `表示x1的输入shape是否转置。` and l.213 transposeX2 likewise; the sample
    (l.490-491) passes transposeX1 = false, transposeX2 = true. x1Level0Scale's `仅支持非转置`
    (l.133) has no flag of its own and stays unread."""
    fn = ops_nn(corpus, DUAL_LEVEL_QUANT)
    for tensor, flag, refused in (("x1", "transposeX1", True), ("x2", "transposeX2", False)):
        statement = next(s for s in fn.cases.statements if s.param == tensor and "转置" in s.text)
        assert statement.enforced and statement.rule == f"implied_enum_{flag}"
        assert statement.rule in rejected(fn, **{flag: refused})
    assert first_violation(fn) is None
    scale = next(s for s in fn.cases.statements if s.param == "x1Level0Scale" and "转置" in s.text)
    assert not scale.enforced
