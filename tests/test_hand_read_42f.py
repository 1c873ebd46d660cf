"""Findings of the hand-read audit 42 (/tmp/hr42, fixes 2 and 4) that helper 42f fixed, each on
the document's own sentence and its sample call. Corpus documents are skipped when the corpus
is absent."""

from __future__ import annotations

from specgen.codegen.cases import host_values
from specgen.codegen.runtime._tensor import TensorDesc, contiguous_strides
from tests.validator_calls import first_violation, function_code, ops_nn


def _legacy_function(corpus, name: str):
    return function_code(corpus / "docs" / "legacy" / f"{name}.md")


# ---------------------------------------------------------------- a list's first item (a)


def test_grouped_matmul_v3_accepts_the_no_grouping_value(corpus):
    """GroupedMatmulV3.md:99 `则groupType取值-1：不分组，0：m轴分组，1：n轴分组，2：k轴分组。`: -1 is the
    documented no-grouping mode (:158, the 多多多 scenario); the sample (l.337) passes groupType 0."""
    fn = _legacy_function(corpus, "GroupedMatmulV3")
    assert first_violation(fn) is None  # the document's own call
    for value in (-1, 0, 1, 2):
        assert first_violation(fn, groupType=value) is None, value
    assert first_violation(fn, groupType=3) == ("implied_enum_groupType", 161002)
    assert first_violation(fn, groupType=-2) == ("implied_enum_groupType", 161002)


# ---------------------------------------------------------------- a value row's own status (c)


def test_moe_init_routing_v2_value_rows_give_their_status(corpus):
    """MoeInitRoutingV2.md:104 `561002 … 2. activeNum、expertNum、expertCapacity的值小于0` and :105
    `3. dropPadMode、expertTokensCountOrCumsumFlag、expertTokensBeforeCapacityFlag不在取值范围内` restate
    the parameter list's `值范围大于等于0` (:76, :78) and `取值为0和1` (:79): the rows check them, with
    their status, and are not listed as not checked. The sample (l.225-228: activeNum 0,
    expertCapacity 2, expertNum 3, dropPadMode 1) passes."""
    fn = _legacy_function(corpus, "MoeInitRoutingV2")
    assert first_violation(fn) is None
    for name in ("activeNum", "expertNum", "expertCapacity"):
        assert first_violation(fn, **{name: -1}) == ("rule6_value", 561002), name
    assert first_violation(fn, dropPadMode=2) == ("rule7_value", 561002)
    assert first_violation(fn, expertTokensCountOrCumsumFlag=3) == ("rule7_value", 561002)
    unchecked = {r.id for r in fn.cases.rules if not r.host}
    assert not unchecked & {"rule6_value", "rule7_value"}


# ---------------------------------------------------------------- enforced, so not listed as unchecked (d)

QUANTIZED_BATCH_NORM = "norm/quantized_batch_norm/docs/aclnnQuantizedBatchNorm.md"


def _desc(fn, name: str, shape: tuple[int, ...]) -> TensorDesc:
    given = host_values(fn.cases.valid.args)[name]
    return TensorDesc(shape, given.dtype, contiguous_strides(shape), given.format)


def test_quantized_batch_norm_refuses_the_empty_tensors_its_table_refuses(corpus):
    """aclnnQuantizedBatchNorm.md:110 input `不支持空Tensor。` (and mean, var, weight, bias, output);
    the error table's one 161002 row, :266 `数据类型不在支持的范围之内，或者参数不满足上述约束。`, gives
    every constraint of the parameter table its status. The sample (l.426-431: input (1,2,1,4),
    mean (2), output (1,2,1,4)) passes; an empty input is refused, and no `不支持空Tensor` is listed
    as lacking a status."""
    fn = ops_nn(corpus, QUANTIZED_BATCH_NORM)
    assert first_violation(fn) is None
    empty = {"input": _desc(fn, "input", (0, 2, 1, 4)), "output": _desc(fn, "output", (0, 2, 1, 4))}
    assert first_violation(fn, **empty) == ("implied_empty_tensor_input", 161002)
    assert first_violation(fn, output=empty["output"]) == ("implied_empty_tensor_output", 161002)
    assert not [r.id for r in fn.cases.rules if r.kind == "empty_tensor" and not r.host]


def test_quantized_batch_norm_channel_statement_is_not_listed_twice(corpus):
    """aclnnQuantizedBatchNorm.md:120 mean `shape长度与入参`input`中channel轴的长度相等。`: the rule
    stated_shape_mean reads it (mean (3) refused with the sample's input (1,2,1,4)), so it is not
    also listed as a statement no rule reads."""
    fn = ops_nn(corpus, QUANTIZED_BATCH_NORM)
    assert first_violation(fn, mean=_desc(fn, "mean", (3,))) == ("stated_shape_mean", 161002)
    said = [s for s in fn.cases.statements if "channel" in s.text]
    assert {s.param for s in said} == {"mean", "var", "weight", "bias"}
    assert all(s.enforced and s.rule == f"stated_shape_{s.param}" for s in said)
    assert not [r.id for r in fn.cases.rules if not r.host and "channel" in r.condition]


# ---------------------------------------------------------------- a dtype the constraints section adds (b)


def test_prompt_flash_attention_v2_accepts_a_bfloat16_quant_scale2(corpus):
    """PromptFlashAttentionV2.md:95 gives quantScale2 `数据类型支持FLOAT32`, but :199 says
    `入参 quantOffset2 和 quantScale2 支持 per-tensor/per-channel 两种格式和 FLOAT32/BFLOAT16 两种数据类型。
    …当输入为BFLOAT16时，同时支持 FLOAT32和BFLOAT16`: with BFLOAT16 query/key/value and an INT8 output
    (:197, `输入为FLOAT16或BFLOAT16，输出为INT8的场景：入参quantScale2需存在`), a BFLOAT16 quantScale2 is
    a documented call. The sample (l.323-382, FLOAT16 (1,2,1,16) query) is the starting point."""
    fn = _legacy_function(corpus, "PromptFlashAttentionV2")
    assert first_violation(fn) is None
    inputs = {name: _retyped(fn, name, "BFLOAT16") for name in ("query", "key", "value")}
    call = {**inputs, "attentionOut": _retyped(fn, "attentionOut", "INT8")}
    scale = TensorDesc((1,), "BFLOAT16", (1,), "ND")
    assert first_violation(fn, **call, quantScale2=scale) is None
    assert first_violation(fn, **call, quantScale2=scale, quantOffset2=scale) is None
    wrong = TensorDesc((1,), "INT32", (1,), "ND")
    assert first_violation(fn, **call, quantScale2=wrong) == ("implied_dtypes_quantScale2", 161002)


def _retyped(fn, name: str, dtype: str) -> TensorDesc:
    given = host_values(fn.cases.valid.args)[name]
    return TensorDesc(given.shape, dtype, given.strides, given.format)


BATCH_NORM_REDUCE_BACKWARD = "norm/sync_batch_norm_backward_reduce/docs/aclnnBatchNormReduceBackward.md"


def test_batch_norm_reduce_backward_flag_rows_are_checked_not_listed(corpus):
    """aclnnBatchNormReduceBackward.md:319 `当inputG为true时，sumDy或sumDyXmu的size与input的channel轴不一致。`
    (and :322 weightG/gradWeight, :325 biasG/gradBias): each output's rule (`如果inputG为True则输出，shape的
    size需要与input的channel轴的长度相等`) checks what the row refuses, under the same flag, so the rows
    are checked, not listed as prose. The sample (l.472-480: input (4,2), the four outputs (2)) passes."""
    fn = ops_nn(corpus, BATCH_NORM_REDUCE_BACKWARD)
    assert first_violation(fn) is None
    refusing = {"sumDy": "rule19_shape", "sumDyXmu": "rule19_shape_sumDyXmu"}
    refusing |= {"gradWeight": "rule20_shape", "gradBias": "rule21_shape"}
    for name, rule_id in refusing.items():
        assert first_violation(fn, **{name: _desc(fn, name, (3,))}) == (rule_id, 161002), name
    assert first_violation(fn, inputG=False, sumDy=_desc(fn, "sumDy", (3,))) is None  # not written then
    assert not [r.id for r in fn.cases.rules if not r.host and "channel轴不一致" in r.condition]
