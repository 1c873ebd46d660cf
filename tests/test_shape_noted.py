"""An output's shape the constraints section ties to one input's in a bullet standing alone
(`参数query和attentionOut的shape需要完全一致。`): that input's shape."""

from __future__ import annotations

from specgen.model import Param
from specgen.parse.classify.shape_noted import noted_alike
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import OUT, TENSOR

# IncreFlashAttention.md (doc-site dialect, corpus/docs/legacy), 约束说明 lines 108-112; the
# sample: queryShape {batchSize, numHeads, 1, headDims}, outShape {batchSize, numHeads, 1, headDims}
_NOTES = [
    Statement("-   参数key、value 中对应tensor的shape需要完全一致。", 108),
    Statement("-   参数query和attentionOut的shape需要完全一致。", 109),
    Statement("-   query，key，value输入，功能使用限制如下：", 112),
]


def _params() -> list[Param]:
    return [
        Param(name="query", **TENSOR),
        Param(name="key", **{**TENSOR, "kind": "tensor_list", "c_type": "const aclTensorList*"}),
        Param(name="attentionOut", **OUT),
    ]


def test_a_bullet_naming_the_output_and_one_input_gives_that_inputs_shape():
    params = _params()
    rule = noted_alike(params[-1], params, _NOTES)
    assert rule is not None and rule.kind == "same" and rule.params == ("query",) and rule.line == 109
    # `self与out的shape必须一致，不涉及广播。` (aclnnHardShrink, ops-nn experimental)
    plain = [Param(name="self", **TENSOR), Param(name="out", **OUT)]
    said = [Statement("- self与out的shape必须一致，不涉及广播。", 80)]
    rule = noted_alike(plain[-1], plain, said)
    assert rule is not None and rule.params == ("self",)


def test_no_reading_under_a_condition_a_lead_in_or_with_several_inputs():
    params = _params()
    out = params[-1]
    conditional = [Statement("- 当inputLayout为BNSD时，参数query和attentionOut的shape需要完全一致。", 9)]
    assert noted_alike(out, params, conditional) is None
    led = [
        Statement("- Atlas 推理系列产品：", 10, indent=0),
        Statement("- 参数query和attentionOut的shape需要完全一致。", 11, indent=4),
    ]
    assert noted_alike(out, params, led) is None
    # the lead-in closes where a bullet as shallow as it follows
    assert noted_alike(out, params, [*led, Statement("- 参数query和attentionOut的shape需要完全一致。", 12)])
    two = [Param(name="gradOutput", **TENSOR), Param(name="output", **TENSOR), Param(name="out", **OUT)]
    # aclnnLogSoftmaxBackward (ops-nn experimental)
    said = [Statement("- 输入gradOutput、output与输出out的shape必须一致，不支持广播。", 20)]
    assert noted_alike(two[-1], two, said) is None
    # a part of the shape, or the other tensor not an input
    assert noted_alike(out, params, [Statement("- 参数query和attentionOut的N轴需要完全一致。", 13)]) is None
    assert noted_alike(out, params, [Statement("- 参数key和attentionOut的shape需要完全一致。", 14)]) is None
