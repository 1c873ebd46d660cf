"""Phrase by phrase: what `classify` and `condition_checks` read from real document text.

Every row is a phrasing quoted from a document (the corpus path is in the comment; a few are
quoted from the lead's review of documents outside the corpus, marked "review") with the
reading it must give, decided by reading the text, not by running the code. A validator built
from a wrong reading rejects calls the document allows, so where the text does not state a
value rule, a size rule or a relation, the row expects none ("untyped").
"""

from __future__ import annotations

import pytest

from specgen.model import Check, Constraint
from specgen.parse.classify import (
    CONDITION_RULES,
    CONDITIONAL_RULES,
    PARAM_RULES,
    PROSE_RULES,
    Context,
    PhraseRule,
    classify,
    clauses,
    condition_checks,
    condition_clauses,
    names_in,
    normalize_spacing,
)

UNTYPED: list[tuple] = []  # no typed constraint at all (the statement stays "text")


def typed(c: Constraint) -> tuple:
    """A constraint as a short comparable tuple."""
    if c.kind == "enum":
        return ("enum", c.values) + ((c.product,) if c.product else ())
    if c.kind == "range":
        bounds = (c.min, c.max, c.min_inclusive, c.max_inclusive)
        return ("range", *bounds) + ((c.product,) if c.product else ())
    if c.kind == "rank":
        return ("rank", c.min, c.max)
    if c.kind in ("dtypes", "formats"):
        return (c.kind, c.values) + ((c.product,) if c.product else ())
    if c.kind in ("optional", "empty_tensor", "non_contiguous", "clamp"):
        return (c.kind,)
    return (c.kind, c.params)  # relations and axis


def read(statement: str, subject: str, params: tuple[str, ...]) -> list[tuple]:
    found, _ = classify(statement, Context(subject=subject, params=params, line=1))
    return [typed(c) for c in found if c.kind != "text"]


# (statement, subject, the function's parameters, expected typed constraints)
CONSTRAINTS = [
    # ---- a dtype list that goes on past its clause's comma
    # ops-nn/experimental/activation/elu_v2 (its example program passes FLOAT)
    ("数据类型支持fp16，fp32，bf16", "self", ("self",), [("dtypes", ("FLOAT16", "FLOAT", "BFLOAT16"))]),
    # legacy/MoeTokenUnpermute.md:54: `支持的数据类型` before a lowercase list (kept as text:
    # sortedIndices FLOAT was accepted)
    ("支持的数据类型int32", "sortedIndices", ("sortedIndices",), [("dtypes", ("INT32",))]),
    # legacy/FlashAttentionUnpaddingScoreGradV2.md:94: a remark on one dtype does not end the
    # list (BOOL only was read; the sample's UINT8 broke it and every dtype check was dropped)
    (
        "数据类型支持BOOL(8bit的BOOL)、UINT8",
        "attenMaskOptional",
        ("attenMaskOptional",),
        [("dtypes", ("BOOL", "UINT8"))],
    ),
    # legacy/FlashAttentionScoreV2.md:69: a remark after the last dtype, prose after it
    (
        "数据类型支持UINT8（标识8个1bit BOOL），数据格式支持ND",
        "dropMaskOptional",
        ("dropMaskOptional",),
        [("dtypes", ("UINT8",)), ("formats", ("ND",))],
    ),
    # ---- value sets: the whole list, with 和/或/、 read as a set
    # legacy/FlashAttentionUnpaddingScoreGradV2.md:141-142: an item of the documented values is one
    # of them, unless it says the value is not supported (5 was read as allowed)
    ("sparseModeOptional为4时，代表band场景", "sparseModeOptional", ("sparseModeOptional",), [("enum", (4,))]),
    ("sparseModeOptional为5时，**不支持**。", "sparseModeOptional", ("sparseModeOptional",), []),
    ("5：不支持", "sparseModeOptional", ("sparseModeOptional",), []),
    # legacy/MoeGatingTopKSoftmaxV2.md
    ("renorm的值只支持0和1。", "renorm", ("x", "renorm"), [("enum", (0, 1))]),
    # legacy/PromptFlashAttentionV2.md (nextTokens=2147483647 was rejected: only 0 was read)
    ("仅支持默认值0和2147483647。", "nextTokens", ("query", "nextTokens"), [("enum", (0, 2147483647))]),
    # ops-nn/quant/grouped_dynamic_mx_quant_with_dual_axis/docs/aclnnGroupedDynamicMxQuantWithDualAxis.md
    ("仅支持取值35和36。", "dstDtype", ("x", "dstDtype"), [("enum", (35, 36))]),
    # ops-nn/quant/swi_glu_quant/docs/aclnnSwiGluQuantV2.md
    ("当前仅支持输入2和29，默认值是2。", "dstType", ("x", "dstType"), [("enum", (2, 29))]),
    # ops-nn/quant/dynamic_block_quant/docs/aclnnDynamicBlockQuantV2.md
    ("参数colBlockSize仅支持取值1或128。", "colBlockSize", ("x", "colBlockSize"), [("enum", (1, 128))]),
    # legacy/FusedInferAttentionScoreV2.md (innerPrecise)
    (
        "表示伪量化是高精度还是高性能计算模式（仅支持传入0或1）",
        "innerPrecise",
        ("x", "innerPrecise"),
        [("enum", (0, 1))],
    ),
    # ops-nn/quant/dynamic_mx_quant/docs/aclnnDynamicMxQuant.md (scaleAlg)
    ("支持取值0和1，取值为0代表场景1，为1代表场景2。", "scaleAlg", ("x", "scaleAlg"), [("enum", (0, 1))]),
    # ops-nn/matmul/fused_linear_cross_entropy_loss_grad/docs/aclnnFusedLinearCrossEntropyLossGrad.md
    ("目前仅支持取值为0。", "labelSmoothing", ("x", "labelSmoothing"), [("enum", (0,))]),
    # legacy/SwinTransformerLnQkvQuant.md:35: `两种` counts the slashed values (not a fraction)
    ("只支持32/64两种", "seqLength", ("x", "seqLength"), [("enum", (32, 64))]),
    # legacy/FlashAttentionVarLenScore.md:86
    (
        "支持配置值为0、1、2、3、4、6、7、8",
        "sparseModeOptional",
        ("x", "sparseModeOptional"),
        [("enum", (0, 1, 2, 3, 4, 6, 7, 8))],
    ),
    # ops-nn/index/expand_into_jagged_permute/... style: a `{...}` set (ops-nn/quant/dynamic_mx_quant_v2 dstType)
    ("输入范围为{35, 36, 40, 41}。", "dstType", ("x", "dstType"), [("enum", (35, 36, 40, 41))]),
    # ---- no value set: a multiple, a length, a fraction, a usual value, an either-or with prose
    # ops-nn/quant/dynamic_mx_quant/docs/aclnnDynamicMxQuantV3.md
    ("仅支持32的倍数", "blocksize", ("x", "blocksize"), UNTYPED),
    # ops-nn/pooling/max_pool3d_grad_with_argmax/docs/aclnnMaxPool2dWithIndicesBackward.md (a length, not values)
    ("长度仅支持0、1、2。", "stride", ("self", "stride"), UNTYPED),
    # ops-nn/pooling/avg_pool3_d/docs/aclnnAvgPool2d.md style: lengths 1 or 2, labelled
    ("长度为1(kH=kW)或2(kH, kW)。", "kernelSize", ("self", "kernelSize"), UNTYPED),
    # a slash with no count of values may be a fraction
    ("仅支持1/2", "ratio", ("x", "ratio"), UNTYPED),
    # ops-nn/experimental/loss/hinge_loss_grad/docs/aclnnHingeLossGrad.md
    ("通常取值为 1 或 -1", "target", ("self", "target"), UNTYPED),
    # ops-nn/quant/swiglu_mx_quant (axis): -1 or the positive index of the last dimension
    ("目前只支持-1或最后一维的正索引", "axis", ("x", "axis"), UNTYPED),
    # a conditional set (legacy/FusedInferAttentionScoreV2.md, keyAntiquantMode)
    ("Q_S大于等于2时仅支持传入值为0、1", "keyAntiquantMode", ("query", "keyAntiquantMode"), UNTYPED),
    # ---- one item of a documented list: the value exists
    # ops-nn/matmul/... cubeMathType
    ("0：KEEP_DTYPE，保持输入的数据类型进行计算。", "cubeMathType", ("self", "cubeMathType"), [("enum", (0,))]),
    # legacy/PromptFlashAttentionV3.md (sparseMode items)
    ("sparseMode为2时，代表leftUpCausal模式的mask。", "sparseMode", ("query", "sparseMode"), [("enum", (2,))]),
    # ---- ranges only from constraint phrasing
    # ops-nn/quant/dequant_swiglu_quant/docs/aclnnDequantSwigluQuantV2.md (clampLimit)
    ("clampLimit必须大于0", "clampLimit", ("x", "clampLimit"), [("range", 0.0, None, False, True)]),
    # ops-nn/conv/... groups
    ("groups取值范围为[1,65535]", "groups", ("input", "groups"), [("range", 1.0, 65535.0, True, True)]),
    # ops-nn/quant/... clipRatio
    ("输入数据范围为(0, 1]", "clipRatio", ("x", "clipRatio"), [("range", 0.0, 1.0, False, True)]),
    # ops-nn/optim/advance_step/docs/aclnnAdvanceStep.md (numSeqs): a positive integer is at least 1
    ("取值范围是小于200000000的正整数", "numSeqs", ("x", "numSeqs"), [("range", 1.0, 2e8, True, False)]),
    # a bound with no positive integer keeps its one side
    ("取值范围是小于200000000的整数", "numSeqs", ("x", "numSeqs"), [("range", None, 2e8, True, False)]),
    # ops-nn/index/top_k_top_p_sample/docs/aclnnTopKTopPSample.md (topKGuess)
    ("必须为正整数", "topKGuess", ("logits", "topKGuess"), [("range", 1.0, None, True, True)]),
    # review (a description, not a rule): "diagonal > 0表示主对角线之上"
    ("diagonal > 0表示主对角线之上", "diagonal", ("self", "diagonal"), UNTYPED),
    # a description with a condition (legacy/MoeInitRoutingV2 style, activeNum)
    ("大于0时表示Active场景", "activeNum", ("x", "activeNum"), UNTYPED),
    # review: a formula inside the text (aclnnQuantMatmul... groupSize)
    (
        "groupSize输入由3个方向的groupSizeM，groupSizeN，groupSizeK三个值拼接组成，每个值占16位，"
        "计算公式为：groupSize = groupSizeK | groupSizeN << 16 | groupSizeM << 32。",
        "groupSize",
        ("x1", "groupSize"),
        UNTYPED,
    ),
    # LaTeX
    ("$\\alpha > 0$时为LeakyReLU", "alpha", ("self", "alpha"), UNTYPED),
    # legacy/FusedInferAttentionScoreV2.md: the condition is on Q_S, not on antiquantMode
    ("Q_S大于等于2时该参数无效", "antiquantMode", ("query", "antiquantMode"), UNTYPED),
    # legacy/SwinAttentionScoreQuant.md: a bound on S, another quantity
    ("S<=1024", "query", ("query", "key"), UNTYPED),
    # ops-nn/matmul/fused_linear_online_max_sum/docs/aclnnFusedLinearOnlineMaxSum.md: a size
    ("input.size(1)需要小于等于65534", "input", ("input", "weight"), UNTYPED),
    # ops-nn/conv/convolution_forward/docs/aclnnQuantConvolutionWeightNz.md: elements named otherwise
    ("dilationH和dilationW应在 [1,255] 范围内", "dilation", ("input", "dilation"), UNTYPED),
    # ops-nn/activation/swiglu_group_quant_grad/docs/aclnnSwigluGroupQuantGrad.md: a union
    ("取值范围为-1.0或>0.0", "clampLimit", ("x", "clampLimit"), UNTYPED),
    # review (dropout): "为0或者大于等于1" rejected 0; a union no range holds
    ("需要为0或者大于等于1", "scale", ("gradOutput", "scale"), UNTYPED),
    # ops-nn/quant/... dstTypeMax
    ("支持取值0.0或者[6.0, 12.0]范围内（表示Amax为传入值）", "dstTypeMax", ("x", "dstTypeMax"), UNTYPED),
    # legacy/SwinTransformerLnQkvQuant.md: advice (and 1e-4 is no 1)
    ("建议小于等于1e-4", "epsilon", ("x", "epsilon"), UNTYPED),
    # review: version and driver notes
    ("驱动版本需≥25.0.RC1", "mode", ("x", "mode"), UNTYPED),
    ("CANN 8.0及以上版本支持取值1和2", "mode", ("x", "mode"), UNTYPED),
    # ops-nn/matmul/fused_linear_online_max_sum... style conditional: when enabled only
    ("启用截断时必须传入大于0的值", "clampLimit", ("x", "clampLimit"), UNTYPED),
    # a range on some products only (ops-nn/pooling/avg_pool3_d_grad/docs/aclnnAvgPool2dBackward.md)
    (
        "Atlas 推理系列产品、Atlas 训练系列产品：支持范围为[-255,255]",
        "divisorOverride",
        ("self", "divisorOverride"),
        [("range", -255.0, 255.0, True, True, "310p"), ("range", -255.0, 255.0, True, True, "910")],
    ),
    # a value set on one product only (ops-nn/activation/ge_glu_grad_v2/docs/aclnnGeGluBackward.md)
    ("Atlas 推理系列产品只支持1('tanh')", "approximate", ("self", "approximate"), [("enum", (1,), "310p")]),
    # ---- dimension indices: axis, never rank or range
    # ops-nn/index/gather_v2/docs/aclnnGatherV2.md
    ("取值范围在[-self.dim(), self.dim()-1]内。", "dim", ("self", "dim", "out"), [("axis", ("self",))]),
    # ops-nn/index/scatter_elements_v2/docs/aclnnScatter&aclnnInplaceScatter.md
    ("范围为[-selfRef的维度数量, selfRef的维度数量-1]。", "dim", ("selfRef", "dim"), [("axis", ("selfRef",))]),
    # ops-nn/activation/glu/docs/aclnnGlu.md
    ("取值范围[-self.dim，self.dim-1]。", "dim", ("self", "dim", "out"), [("axis", ("self",))]),
    # ops-nn/quant/dynamic_mx_quant/docs/aclnnDynamicMxQuantV3.md: the symbol is defined after
    ("取值范围为[-D, D-1]，D为x的shape的维数。", "axis", ("x", "axis", "y"), [("axis", ("x",))]),
    # ops-nn/index/repeat_interleave_grad/docs/aclnnRepeatInterleaveGrad.md
    ("axis的取值范围为[-n, n),其中n为yGrad的维度。", "axis", ("yGrad", "axis"), [("axis", ("yGrad",))]),
    # review: "axis的取值需在[-N, N)内, N为x的维度"
    ("axis的取值需在[-N, N)内, N为x的维度", "axis", ("x", "axis"), [("axis", ("x",))]),
    # ops-nn/experimental/activation/log_softmax_v2/docs/aclnnLogSoftmaxV2.md
    ("取值范围为 [-rank, rank-1]，其中 rank 是输入Tensor self 的维度。", "dim", ("self", "dim"), [("axis", ("self",))]),
    # ops-nn/activation/log_softmax_grad/docs/aclnnLogSoftmaxBackward.md: [-N, N] allows N too: no rule
    ("取值范围[-dim_num, dim_num]（dim_num为gradOutput的shape维度）。", "dim", ("gradOutput", "dim"), UNTYPED),
    # ops-nn/index/unique_consecutive/docs/aclnnUniqueConsecutive.md: 1000 is valid as well, kept
    # as the axis constraint's values (tests/test_product_remarks.py checks the validator takes it)
    ("取值范围为[-self.dim(), self.dim())，传入1000表示不指定维度", "dim", ("self", "dim"), [("axis", ("self",))]),
    # ops-nn/experimental/index/index_fill/...: conditional on the rank
    ("当self为1-8维时，dim的取值范围在[-self.dim(), self.dim())", "dim", ("self", "dim"), UNTYPED),
    # issue 25: "the largest rank supported is 8" is rank at most 8, not exactly 8
    ("最大维度支持8维。", "x", ("x", "out"), [("rank", 0.0, 8.0)]),
    ("维度支持8维。", "x", ("x", "out"), [("rank", 8.0, 8.0)]),
    # ---- ranks: every alternative, or nothing
    # legacy/MoeGatingTopKSoftmaxV2.md
    ("要求是一个2D/3D的Tensor", "x", ("x", "k"), [("rank", 2.0, 3.0)]),
    # legacy/PromptFlashAttention... relativePosBias style
    ("shape为3维(N, S1, S2)、4维(1, N, S1, S2)或5维(1, 1, N, S1, S2)", "pse", ("query", "pse"), [("rank", 3.0, 5.0)]),
    # ops-nn/experimental/loss/nll_loss_grad/docs/aclnnNLLLossBackward.md: 1-D or 0-D
    ("shape支持一维（且元素个数为1）或()", "gradOutput", ("gradOutput", "self"), UNTYPED),
    # ops-nn/norm/ada_layer_norm_v2/docs/aclnnAdaLayerNormV2.md: B is part of the shape
    ("其中B支持0到6个维度", "x", ("x", "scale"), UNTYPED),
    # ops-nn/quant/swiglu_mx_quant/docs/aclnnSwigluMxQuant.md: about x, not this parameter
    ("输入x的shape必须为2维", "groupIndexOptional", ("x", "groupIndexOptional"), UNTYPED),
    # ---- optional parameters
    # ops-nn/norm/... (smoothScale1Optional): two clauses, each says so
    (
        "可选参数，支持传入空指针。",
        "smoothScale1Optional",
        ("x", "smoothScale1Optional"),
        [("optional",), ("optional",)],
    ),
    # ops-nn/norm/layer_norm_grad_v3/docs/aclnnLayerNormBackward.md (and no relation: 或为FLOAT类型)
    (
        "weightOptional非空时，数据类型与输入input一致或为FLOAT类型",
        "weightOptional",
        ("input", "weightOptional"),
        [("optional",)],
    ),
    # review (ops-math aclnnSearchSorted): "传入sorter时，…"
    (
        "传入sorter时，公式中的sortedSequencej按sorter指定顺序取值。",
        "sorter",
        ("sortedSequence", "self", "sorter"),
        [("optional",)],
    ),
    # ops-nn/matmul/batch_matmul_quant/docs/aclnnBatchMatmulQuant.md
    ("输入可以为空。", "bias", ("x1", "bias"), [("optional",)]),
    # ops-nn/optim/... constraints section: "amsgrad为false时，maxExpAvgSqsRef可为空"
    ("amsgrad为false时，maxExpAvgSqsRef可为空", "maxExpAvgSqsRef", ("amsgrad", "maxExpAvgSqsRef"), [("optional",)]),
    # a workspace (doc table): "workspaceSize 为 0 时可传空指针"
    ("workspaceSize 为 0 时可传空指针", "workspace", ("workspace", "workspaceSize"), [("optional",)]),
    # legacy/... "当不需要时传入空指针。" (review: "不需要时传nullptr")
    ("当不需要时传入空指针。", "antiquantOffsetOptional", ("x", "antiquantOffsetOptional"), [("optional",)]),
    ("不需要时传nullptr", "bias", ("x", "bias"), [("optional",)]),
    # ops-nn/loss/binary_cross_entropy/docs/aclnnBinaryCrossEntropy.md
    ("weight可以是nullptr，等价于所有权重值都是1", "weight", ("self", "weight"), [("optional",)]),
    # ops-nn/conv/convolution_forward/docs/aclnnQuantConvolutionWeightNz.md
    ("目前暂不支持，传入空指针nullptr即可。", "offset", ("input", "offset"), [("optional",)]),
    ("rint、round或nullptr。", "roundMode", ("input", "roundMode"), [("optional",)]),
    # legacy/FusedInferAttentionScoreV2.md
    ("用户不特意指定时可传入默认值nullptr", "softmaxLse", ("query", "softmaxLse"), [("optional",)]),
    # ops-nn/optim/fused_adamw/docs/aclnnFusedAdamw.md
    (
        "此参数在amsgrad参数为true时必选，在amsgrad参数为false时可选。",
        "maxExpAvgSqsRef",
        ("amsgrad", "maxExpAvgSqsRef"),
        [("optional",)],
    ),
    # English (hicann docs/en): the direction cell "Optional input"
    ("Optional input", "biasOptional", ("x1", "biasOptional"), [("optional",)]),
    # not optional: required, or another parameter's null pointer
    ("不可为空。", "ksize", ("x", "ksize"), UNTYPED),
    ("不支持空指针。", "lambd", ("self", "lambd"), UNTYPED),
    # legacy/MoeFinalizeRoutingV2Grad.md (expandedRowIdx)
    ("当scalesOptional传入空指针的时候，K必须为1", "expandedRowIdx", ("scalesOptional", "expandedRowIdx"), UNTYPED),
    # ops-nn/norm/batch_norm_grad_v3/docs/aclnnFastBatchNormBackward.md: selectable values (the set
    # `目前支持可选值：0、1。默认值：0。`), not a null pointer
    ("目前支持可选值：0、1", "version", ("x", "version"), [("enum", (0, 1))]),
    # ---- relations: the peers of the clause, never alternatives or parts of a shape
    ("shape与入参x2的shape一致", "x1", ("x1", "x2", "out"), [("same_shape", ("x2",))]),
    # ops-nn/... yOriginOptional: only gradY is compared
    (
        "必须与weightOptional同时提供且与gradY的shape一致",
        "yOriginOptional",
        ("gradY", "weightOptional", "yOriginOptional"),
        [("same_shape", ("gradY",))],
    ),
    # ops-nn/norm/add_layer_norm/docs/aclnnAddLayerNorm.md: alternatives
    ("shape可以和gamma/beta或x1/x2一致。", "biasOptional", ("x1", "x2", "gamma", "beta", "biasOptional"), UNTYPED),
    # ops-nn/index/top_k_top_p_sample/docs/aclnnTopKTopPSample.md: part of the shape
    ("shape需要与logits前n-1维保持一致。", "topK", ("logits", "topK"), UNTYPED),
    # ops-nn/index/scatter/docs/aclnnInplaceScatterUpdate.md: the number of dimensions, not the shape
    ("shape的维度数需要与data shape的维度数相同", "updates", ("data", "updates"), UNTYPED),
    # ops-nn/matmul/mat_mul_v3/docs/aclnnAddmmWeightNz.md: mat1@mat2 is computed
    ("需要与mat1@mat2满足broadcast关系", "self", ("self", "mat1", "mat2"), UNTYPED),
    # ops-nn/matmul/batch_mat_mul_v3/docs/aclnnAddbmm&aclnnInplaceAddbmm.md: the batch dimension only
    (
        "shape仅支持三维且第一个维度batch需要与batch1的batch维度满足broadcast关系",
        "batch2",
        ("batch1", "batch2"),
        [("rank", 3.0, 3.0)],
    ),
    # MoeFinalizeRoutingV2Grad.md (doc-site dialect, corpus/docs/legacy): `同` without 一致; its
    # sample: gradY and gradExpandedXOut both ACL_FLOAT
    ("数据类型同gradY", "gradExpandedXOut", ("gradY", "gradExpandedXOut"), [("same_dtype", ("gradY",))]),
    # legacy/MoeFinalizeRoutingV2Grad.md:75: the set after the relation is the tensor's dtypes (it was text)
    (
        "数据类型同gradY，支持FLOAT16、BFLOAT16、FLOAT32",
        "biasOptional",
        ("gradY", "biasOptional"),
        [("same_dtype", ("gradY",)), ("dtypes", ("FLOAT16", "BFLOAT16", "FLOAT"))],
    ),
    # ...but not a permission that follows it
    (
        "数据类型同gradY，支持非连续输入",
        "biasOptional",
        ("gradY", "biasOptional"),
        [("same_dtype", ("gradY",)), ("non_contiguous",)],
    ),
    # ops-nn/experimental/activation/elu_v2/docs/aclnnEluV2.md: the input named as such
    ("数据类型同输入self", "out", ("self", "out"), [("same_dtype", ("self",))]),
    # the same dtype as a value, or at one time: no peer
    ("数据类型同为FLOAT16或同为BFLOAT16", "x2", ("x1", "x2"), UNTYPED),
    # ops-nn/matmul/... dtype of a promotion result: castable, not same_dtype
    (
        "数据类型需要与self与mat2推导之后的数据类型保持一致",
        "out",
        ("self", "mat2", "out"),
        [("castable", ("self", "mat2"))],
    ),
    # ops-nn/quant/swi_glu_quant/docs/aclnnSwiGluQuant.md: in per_tensor mode only
    (
        "per_tensor模式下shape支持[G, ]，且数据类型和shape需要与smoothScalesOptional保持一致。",
        "offsetsOptional",
        ("x", "smoothScalesOptional", "offsetsOptional"),
        UNTYPED,
    ),
    # a relation read as broadcast when the text says both (ops-nn/.../aclnnSiluBackward style)
    (
        "gradOutput、self与gradInput的shape一致且满足broadcast关系",
        "self",
        ("gradOutput", "self", "gradInput"),
        [("broadcast", ("gradOutput", "gradInput"))],
    ),
    # the result of a broadcast of names listed with commas: every name, not the last only
    # (ops-nn/loss/soft_margin_loss_grad: was read as "the same shape as target")
    (
        "shape为gradOutput，self，target的broadcast结果",
        "out",
        ("gradOutput", "self", "target", "out"),
        [("broadcast_result", ("gradOutput", "self", "target"))],
    ),
    # ops-nn/loss/smooth_l1_loss_grad_v2: `gradout` is the parameter gradOut
    (
        "shape为gradout，self，target的broadcast结果",
        "gradInput",
        ("gradOut", "self", "target", "gradInput"),
        [("broadcast_result", ("self", "target", "gradOut"))],
    ),
    # ops-nn/experimental/activation/sigmoid_grad: the snake_case names of the formula are the
    # parameters gradOutput and gradInput (the same-shape tie to both was lost or partial)
    (
        "shape需要与grad_output，grad_input一致",
        "output",
        ("gradOutput", "output", "gradInput"),
        [("same_shape", ("gradOutput", "gradInput"))],
    ),
    # a snake_case word two parameters spell (case aside) names neither: only `self` is read
    ("shape需要与grad_out，self一致", "x", ("gradOut", "GradOut", "self", "x"), [("same_shape", ("self",))]),
    # a listed name that is no parameter: the broadcast cannot be computed, so no rule
    ("shape为grad，self，target的broadcast结果", "out", ("gradOutput", "gradInput", "self", "target", "out"), []),
    # names listed with commas are one clause (ops-nn/matmul/addmv: was split into five)
    (
        "数据类型需要是self, mat, vec, alpha, beta推导后的数据类型",
        "out",
        ("self", "mat", "vec", "alpha", "beta", "out"),
        [("castable", ("self", "mat", "vec", "alpha", "beta"))],
    ),
]


@pytest.mark.parametrize(("statement", "subject", "params", "expected"), CONSTRAINTS)
def test_constraint_reading(statement, subject, params, expected):
    assert read(statement, subject, params) == expected


def checks(condition: str, names: tuple[str, ...], tensors: tuple[str, ...]) -> list[tuple]:
    """The checks of an error condition of a function with parameters `names`, of which
    `tensors` are tensors (every pointer is required)."""
    named = tuple(names_in(condition, names))
    found = condition_checks(condition, named, names, tensors)
    return [_check(c) for c in found]


def _check(c: Check) -> tuple:
    return (c.kind, c.params) + ((c.max,) if c.max is not None else ())


T = ("input", "inputGrad", "grid", "gridGrad")
# (condition, parameters, tensors, expected checks)
CONDITIONS = [
    # ---- pairs, never one group
    # review (grid sampler backward)
    (
        "input与inputGrad的shape不一致，或grid与gridGrad的shape不一致",
        T,
        T,
        [("same_shape", ("input", "inputGrad")), ("same_shape", ("grid", "gridGrad"))],
    ),
    # ops-nn/pooling/adaptive_max_pool3d_grad/docs/aclnnAdaptiveMaxPool3dBackward.md
    (
        "gradOutput与indices的shape不一致，self和gradInput的shape不一致",
        ("gradOutput", "self", "indices", "gradInput"),
        ("gradOutput", "self", "indices", "gradInput"),
        [("same_shape", ("gradOutput", "indices")), ("same_shape", ("self", "gradInput"))],
    ),
    # review (ops-math aclnnSearchSorted)
    (
        "out的shape与self的shape不相同，sorter的shape与sortedSequence的shape不相同",
        ("sortedSequence", "self", "sorter", "out"),
        ("sortedSequence", "self", "sorter", "out"),
        [("same_shape", ("out", "self")), ("same_shape", ("sorter", "sortedSequence"))],
    ),
    # one group: lists joined by 、 and 或, each of one dtype within (ops-nn/foreach/...)
    (
        "x1、x2或out中的Tensor的数据类型不一致",
        ("x1", "x2", "out"),
        ("x1", "x2", "out"),
        [("list_dtype", ("x1", "x2", "out"))],
    ),
    # within one tensor list (ops-nn/foreach/foreach_log_inplace/docs/aclnnForeachLogInplace.md)
    ("x中的Tensor的数据类型不一致", ("x",), ("x",), [("list_dtype", ("x",))]),
    # ---- a relation short of two parameters: prose only
    # ops-nn/loss/binary_cross_entropy/docs/aclnnBinaryCrossEntropy.md
    ("out shape与实际不匹配", ("self", "target", "out"), ("self", "target", "out"), [("shape", ("out",))]),
    # ops-nn/activation/swiglu_group_quant/docs/aclnnSwigluGroupQuant.md: names none
    ("多个输入tensor之间的shape信息不匹配", ("x", "y"), ("x", "y"), [("shape", ("x", "y"))]),
    # ops-nn/matmul/batch_mat_mul_v3/docs/aclnnAddbmm&aclnnInplaceAddbmm.md: part of the shapes
    (
        "batch1和batch2的第一维度不相等或不能做broadcast操作",
        ("batch1", "batch2"),
        ("batch1", "batch2"),
        [("shape", ("batch1", "batch2"))],
    ),
    # ops-nn/activation/silu_grad/docs/aclnnSiluBackward.md: broadcast wins over same shape
    (
        "gradOutput、self或gradInput的shape不同或不满足broadcast关系",
        ("gradOutput", "self", "gradInput"),
        ("gradOutput", "self", "gradInput"),
        [("broadcast", ("gradOutput", "self", "gradInput"))],
    ),
    # ops-nn/optim/apply_adam_w/docs/aclnnApplyAdamW.md: amsgrad is no tensor to compare
    (
        "当amsgrad为true时，maxGradNormOptional和varRef的数据类型或shape不一致时",
        ("varRef", "amsgrad", "maxGradNormOptional"),
        ("varRef", "maxGradNormOptional"),
        [("same_shape", ("maxGradNormOptional", "varRef")), ("same_dtype", ("maxGradNormOptional", "varRef"))],
    ),
    # ---- dimension indices: axis (value, tensor)
    # ops-nn/activation/softmax_v2/docs/aclnnSoftmax.md
    ("dim值不在self维度范围内", ("self", "dim", "out"), ("self", "out"), [("axis", ("dim", "self"))]),
    # review: "dim超出self的维度范围"
    ("dim超出self的维度范围", ("self", "dim", "out"), ("self", "out"), [("axis", ("dim", "self"))]),
    # ops-nn/index/scatter_elements_v2/...
    (
        "dim的值不在[-self的维度数量， self的维度数量-1]之间",
        ("self", "dim", "index", "out"),
        ("self", "index", "out"),
        [("axis", ("dim", "self"))],
    ),
    # ops-nn/experimental/quant/quantize/docs/aclnnQuantize.md
    (
        "输入axis指定的轴超出输入x的维度数",
        ("x", "scales", "axis", "y"),
        ("x", "scales", "y"),
        [("axis", ("axis", "x"))],
    ),
    # ops-nn/norm/lp_norm_v2/docs/aclnnLinalgVectorNorm.md
    ("dims超过[-N, N-1] (N表示self的维度)", ("self", "dims", "out"), ("self", "out"), [("axis", ("dims", "self"))]),
    # ops-nn/experimental/index/index_fill/...: both an index and a rank limit
    (
        "dim的绝对值超出self的dim最大值或超出8维",
        ("self", "dim", "out"),
        ("self", "out"),
        [("axis", ("dim", "self")), ("rank", ("self",), 8)],
    ),
    # ops-nn/activation/swi_glu/docs/aclnnSwiGlu.md: no tensor named: prose
    ("dim不在取值范围内", ("x", "dim", "out"), ("x", "out"), [("value", ("dim",))]),
    # ops-nn/activation/clipped_swiglu/docs/aclnnClippedSwigluV2.md:311: clamp_mode is clampMode
    (
        "dim或clamp_mode不在指定的取值范围内",
        ("x", "dim", "clampMode", "out"),
        ("x", "out"),
        [("value", ("dim", "clampMode"))],
    ),
    # ---- ranks and nulls read with their negations
    # ops-nn/quant/grouped_dynamic_mx_quant_with_dual_axis/...: "不大于0" is no rank limit of 0; the
    # clauses on x.shape[1] no rule reads stay named as a prose shape rule
    (
        "x不是2维ND Tensor，或x.shape[1]不大于0或不能被64整除",
        ("x", "groupIndex"),
        ("x", "groupIndex"),
        [("rank", ("x",)), ("shape", ("x",))],
    ),
    # ops-nn/loss/lp_loss/docs/aclnnL1Loss.md: rank 0 is a real limit
    ("当reduction的值不为0时，out的维度大于0", ("self", "reduction", "out"), ("self", "out"), [("rank", ("out",), 0)]),
    # ops-nn/norm/sync_batch_norm_backward_elemt/...: a condition, not a null check
    (
        "当weight非空指针时，weight的shape与input的channel轴不一致",
        ("input", "weight"),
        ("input", "weight"),
        [("shape", ("weight", "input"))],
    ),
    # ops-nn/index/apply_top_k_top_p_with_sorted/docs/aclnnApplyTopKTopP.md: p and k not both null
    (
        "传入的logits、out是空指针或p与k同为空指针",
        ("logits", "p", "k", "out"),
        ("logits", "p", "k", "out"),
        [("not_null", ("logits", "out")), ("not_all_null", ("p", "k"))],
    ),
    # ops-nn/quant/swiglu_group_grad/docs/aclnnSwigluGroupGrad.md: the bound it must meet, as written
    ("clampLimit不满足≥0（包括NaN）", ("gradY", "x", "clampLimit"), ("gradY", "x"), [("range", ("clampLimit",))]),
    # a limit no tensor can have is no rank limit (and no crash): "维度大于99"
    ("x的维度大于99", ("x", "out"), ("x", "out"), [("rank", ("x",))]),
    # ops-nn/conv/deformable_conv2d/docs/aclnnDeformableConv2d.md
    (
        "deformOutOptional不为空指针时，数据类型或数据格式不在支持的范围之内",
        ("input", "deformOutOptional"),
        ("input", "deformOutOptional"),
        [("dtypes", ("deformOutOptional",)), ("formats", ("deformOutOptional",))],
    ),
    # ops-nn/experimental/activation/swish_v2/docs/aclnnSwish.md: two statements, their own params
    (
        "self 或 out 的维度大于 8，或 betaOptional 无法转换为 FLOAT",
        ("self", "betaOptional", "out"),
        ("self", "out"),
        [("rank", ("self", "out"), 8), ("castable", ("betaOptional",))],
    ),
    # shape inference is no dtype promotion (ops-nn/pooling/...)
    ("通过公式推导出的out的shape的某个轴为0", ("self", "out"), ("self", "out"), [("shape", ("out",))]),
    # outputs null-checked only when computed (ops-nn conv/convolution_backward; its examples pass nullptr)
    (
        "传入的gradOutput、input、weight、outputMask、求解gradInput、求解gradWeight时是空指针",
        ("gradOutput", "input", "weight", "outputMask", "gradInput", "gradWeight"),
        ("gradOutput", "input", "weight", "gradInput", "gradWeight"),
        [("not_null", ("gradOutput", "input", "weight", "outputMask"))],
    ),
    # a count, not a shape: masked_select's 1-D out (ops-math conversion/masked_select_v3)
    (
        "out的元素个数不等于self和mask广播后的shapesize时",
        ("self", "mask", "out"),
        ("self", "mask", "out"),
        [("shape", ("out", "self", "mask"))],
    ),
    # ops-nn/matmul/batch_mat_mul_v3/docs/aclnnEinsum.md: a list's elements and the output agree
    (
        "tensors[0] 、tensors[1]、output三者数据类型需保持一致",
        ("tensors", "equation", "output"),
        ("tensors", "output"),
        [("same_dtype", ("tensors", "output"))],
    ),
    # the same words of their shapes relate no dtypes (nor, unread, anything)
    (
        "tensors[0] 、tensors[1]、output三者shape需保持一致",
        ("tensors", "equation", "output"),
        ("tensors", "output"),
        [],
    ),
]


@pytest.mark.parametrize(("condition", "names", "tensors", "expected"), CONDITIONS)
def test_condition_reading(condition, names, tensors, expected):
    assert checks(condition, names, tensors) == expected


# (condition, the function's required inputs, its required outputs, the null check read)
NULL_SIDES = [
    # ops-nn quant/dynamic_quant aclnnDynamicQuantV3: x, then every output (offsetOut, optional, is none)
    ("传入的x或输出参数是空指针", ("x", "smoothScalesOptional"), ("yOut", "scaleOut"), ("x", "yOut", "scaleOut")),
    # ops-nn experimental/optim aclnnApplyAdamD: both sides, then two named
    (
        "传入的计算输入/输出参数、workspaceSize 或 executor 是空指针",
        ("var", "grad"),
        ("varOut",),
        ("workspaceSize", "executor", "var", "grad", "varOut"),
    ),
    # outputs that name their own (aclnnHeaviside `输出参数out`, aclnnFlatQuant `必选输出（out、quantScale）`)
    (
        "传入的输入参数（input，values）或输出参数out是空指针",
        ("input", "values"),
        ("out", "extraOut"),
        ("input", "values", "out"),
    ),
    ("必选输入（x）、必选输出（out）是空指针", ("x",), ("out", "extraOut"), ("x", "out")),
]


@pytest.mark.parametrize(("condition", "inputs", "outputs", "expected"), NULL_SIDES)
def test_a_null_condition_naming_a_side_as_a_whole_checks_every_required_one_of_it(
    condition, inputs, outputs, expected
):
    names = (*inputs, *outputs, "workspaceSize", "executor")
    named = tuple(names_in(condition, names))
    found = condition_checks(condition, named, (*inputs, *outputs), (*inputs, *outputs), (inputs, outputs))
    assert [_check(c) for c in found] == [("not_null", expected)]


# ---- every rule of the tables reads the phrases it carries (quoted from documents)

# CONDITIONAL_RULES shares two records with PARAM_RULES: each rule once.
PHRASE_RULES = list({id(rule): rule for rule in (*PARAM_RULES, *CONDITIONAL_RULES)}.values())
RULES = [*PHRASE_RULES, *CONDITION_RULES, *PROSE_RULES]
RULE_EXAMPLES = [
    pytest.param(rule, example, id=f"{rule.name}-{k}") for rule in RULES for k, example in enumerate(rule.examples)
]


def rule_reading(rule, example) -> tuple[str, list]:
    """The text a rule's trigger searches, and what the rule reads from its example."""
    if isinstance(rule, PhraseRule):
        clause = normalize_spacing(example.text)  # as `classify` hands clauses to the rules
        return clause, rule.read(clause, example.context())
    statement = example.statement()
    return statement.text, rule.read(statement, ()) or []


@pytest.mark.parametrize(("rule", "example"), RULE_EXAMPLES)
def test_rule_reads_its_examples(rule, example):
    text, found = rule_reading(rule, example)
    assert rule.trigger.search(text), f"rule {rule.name!r}: its trigger misses {example.text!r}"
    assert found, f"rule {rule.name!r} reads nothing from {example.text!r}"
    assert all(c.kind != "text" for c in found)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_every_rule_has_an_example(rule):
    assert rule.examples, f"rule {rule.name!r} carries no phrase it must read"


def test_rule_names_are_unique():
    for table in (PHRASE_RULES, [*CONDITION_RULES, *PROSE_RULES]):
        names = [rule.name for rule in table]
        assert len(names) == len(set(names))


@pytest.mark.parametrize(("rule", "example"), RULE_EXAMPLES)
def test_examples_read_as_a_whole(rule, example):
    """An example is one clause (one statement of a condition) as the reader splits it, and the
    whole reader, not only its rule, reads it to something typed."""
    if isinstance(rule, PhraseRule):
        assert clauses(example.text) == [example.text]
        found, _ = classify(example.text, example.context())
        assert any(c.kind != "text" for c in found)
    else:
        statement = example.statement()
        assert condition_clauses(example.text, statement.named) == [example.text]
        sides = (statement.inputs, statement.outputs)  # `输入/输出…`: the sides said as a whole
        assert condition_checks(example.text, statement.named, statement.pointers, statement.tensors, sides)


def test_a_condition_head_stays_with_what_it_conditions():
    # ops-nn/quant/ascend_quant (x): the rank holds in NZ only; read apart, 3-D was required of
    # every x and "NZ" taken for x's one format
    assert clauses("数据格式为NZ时，shape只支持3维。") == ["数据格式为NZ时，shape只支持3维"]
    found, _ = classify("数据格式为NZ时，shape只支持3维", Context(subject="x", params=("x", "y"), line=1))
    assert [c.kind for c in found if c.kind != "text"] == []
    # a head led by 当 was kept before; one without it (`…为0时`) is kept now too
    assert clauses("reduction为0时，out的shape与self一致，否则为[1]") == [
        "reduction为0时，out的shape与self一致",
        "否则为[1]",
    ]
    # a head that only asks the tensor be given does not condition: a null tensor is not checked
    # (ops-nn/.../aclnnClippedSwiglu groupIndexOptional)
    assert clauses("不为空指针时，维度要求为1维") == ["不为空指针时", "维度要求为1维"]
    assert (
        clauses("且当weightOptional存在时，biasOptional与weightOptional的数据类型相同")[0] == "且当weightOptional存在时"
    )
    assert clauses("x和y需要同时，shape一致")[0] == "x和y需要同时"  # 同时 ends no head


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        # legacy/MoeInitRoutingQuant.md:45 activeNum (its error row names `activateNum`, no parameter):
        # what the value is, then its bound; activeNum=-1 was accepted
        ("表示总的最大处理row数且大于等于0，expandedXOut只有这么多行是有效的。", [("range", 0.0, None, True, True)]),
        # a description and no number bounding the value
        ("表示总的最大处理row数且大于x的行数", []),
    ],
)
def test_a_bound_after_what_the_value_is_is_read_and_the_description_kept(statement, expected):
    found, description = classify(statement, Context(subject="activeNum", params=("activeNum", "x"), line=1),
                                  descriptive_ok=True)  # fmt: skip
    assert [typed(c) for c in found if c.kind == "range"] == expected
    assert description[0].startswith("表示总的最大处理row数且")


@pytest.mark.parametrize(
    ("statement", "subject", "unchecked", "described"),
    [
        # ops-nn aclnnMaxPool3D.md:50 padsOptional: the requirement was folded into the description
        ("显式padding，必须包含6个", "padsOptional", ["必须包含6个"], ["显式padding"]),
        # aclnnEmbeddingDenseBackward.md:48 indices: a range of data the host cannot read
        ("grad输入对应的索引值，Device侧的aclTensor，取值范围为[0, numWeights)", "indices",
         ["取值范围为[0, numWeights)"], ["grad输入对应的索引值", "Device侧的aclTensor"]),
        # aclnnSoftmax.md:98 dim, aclnnGroupNormSwishGrad dbetaIsRequire, a workspace size: descriptions
        ("需要做Softmax的轴", "dim", [], ["需要做Softmax的轴"]),
        ("是否需要输出dbeta", "dbetaIsRequire", [], ["是否需要输出dbeta"]),
        ("返回需要在Device侧申请的workspace大小", "workspaceSize", [], ["返回需要在Device侧申请的workspace大小"]),
        # aclnnSituGlu linearBeta: a situation's bound describes what happens, it requires nothing
        ("小于等于0时up路径不进行变换", "linearBeta", [], ["小于等于0时up路径不进行变换"]),
    ],
)  # fmt: skip
def test_a_requirement_no_reader_types_is_a_statement_never_the_description(statement, subject, unchecked, described):
    found, description = classify(statement, Context(subject=subject, params=(subject,), line=1), descriptive_ok=True)
    assert [c.text for c in found if c.kind == "text"] == unchecked
    assert description == described
