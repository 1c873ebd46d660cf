"""A tensor dimension the parameter table ties to another tensor's (`target的第1维与self的第1维相等`,
`shape与totalSum的第二维一致`), checked on the documents' own calls: each call is accepted, and
the same call with that one dimension changed is refused. Arabic ordinals count from 1 in some
documents and from 0 in others; the document's own call settles which, or the statement is named."""

from __future__ import annotations

from specgen.codegen.cases import host_values
from specgen.codegen.runtime._tensor import TensorDesc
from tests.validator_calls import first_violation, ops_nn, rejected


def _grown(fn, name: str, axis: int):
    """The valid call's tensor `name` with dimension `axis` one larger."""
    given = host_values(fn.cases.valid.args)[name]
    shape = list(given.shape)
    shape[axis] += 1
    return TensorDesc(tuple(shape), given.dtype)


def _rule(fn, param: str, text: str):
    [statement] = [s for s in fn.cases.statements if s.param == param and s.text == text]
    return statement, {r.id: r for r in fn.cases.rules}[statement.rule]


def test_an_element_count_tied_to_a_dimension(corpus):
    """aclnnSyncBatchNormGatherStats mean, l.121: `shape与totalSum的第二维一致` (totalSum is [N, C]):
    a mean of C+1 elements is refused; the document's call passes."""
    fn = ops_nn(corpus, "norm/sync_batch_norm_gather_stats/docs/aclnnSyncBatchNormGatherStats.md")
    statement, rule = _rule(fn, "mean", "shape与totalSum的第二维一致")
    assert statement.enforced and rule.values == ("numel:1",)
    assert rejected(fn) == []
    assert first_violation(fn, mean=_grown(fn, "mean", 0)) == (rule.id, 161002)


def test_arabic_ordinals_counted_as_the_documents_call_shows(corpus):
    """aclnnGroupNormSwish gamma, l.120: `元素数量需与输入x的第1维度相同` means C, x's dimension 1
    counted from 0; aclnnGroupNormSilu gamma, l.116: `元素数量需与输入self的第2维大小保持相同`
    means C counted from 1. Either way a gamma of N elements is refused, one of C accepted."""
    swish = ops_nn(corpus, "norm/group_norm_swish/docs/aclnnGroupNormSwish.md"), "x", "元素数量需与输入x的第1维度相同"
    silu = (
        ops_nn(corpus, "norm/group_norm_silu/docs/aclnnGroupNormSilu.md"),
        "self",
        "元素数量需与输入self的第2维大小保持相同",
    )
    for fn, tensor, text in (swish, silu):
        _, rule = _rule(fn, "gamma", text)
        assert rule.host and rule.values == ("numel:1",)
        shape, gamma = host_values(fn.cases.valid.args)[tensor].shape, host_values(fn.cases.valid.args)["gamma"]
        assert shape[0] != shape[1] and gamma.shape == (shape[1],)  # the call tells the readings apart
        assert rejected(fn) == []
        assert rule.id in rejected(fn, gamma=TensorDesc((shape[0],), gamma.dtype))


def test_pairs_of_dimensions_are_checked_each(corpus):
    """aclnnNLLLoss2d target, l.113: `target的第1维与self的第1维相等、target的第2维与self的第3维
    相等、target的第3维与self的第4维相等` (target [N, H, W], self [N, C, H, W])."""
    fn = ops_nn(corpus, "loss/nll_loss/docs/aclnnNLLLoss2d.md")
    [rule] = [r for r in fn.cases.rules if r.kind == "dim_equal" and r.params == ("target", "self")]
    assert rule.host and rule.values == ("0:0", "1:2", "2:3")
    for axis in (0, 1, 2):
        assert rule.id in rejected(fn, target=_grown(fn, "target", axis))


def test_a_dimension_among_alternative_shapes_is_not_a_rule(corpus):
    """aclnnAddRmsNormDynamicQuant y1Out, l.210: `shape需要与输入x1/x2一致，或者是二维并且…，第二维等于
    x1的最后一维`: the second dimension belongs to the two-dimensional form only."""
    fn = ops_nn(corpus, "norm/add_rms_norm_dynamic_quant/docs/aclnnAddRmsNormDynamicQuant.md")
    assert not [r for r in fn.cases.rules if r.kind == "dim_equal" and r.params[0] == "y1Out"]


def test_ordinals_the_call_cannot_settle_are_named(corpus):
    """aclnnFusedLinearCrossEntropyLossGrad softmaxOptional, l.249: `第二维长度与输入weight的第1维长度
    相同`: weight's `第1维` may count from 0 or 1, and the document's call meets both readings."""
    fn = ops_nn(corpus, "matmul/fused_linear_cross_entropy_loss_grad/docs/aclnnFusedLinearCrossEntropyLossGrad.md")
    statement, rule = _rule(fn, "softmaxOptional", "第二维长度与输入weight的第1维长度相同")
    assert not statement.enforced and "numbered in Arabic digits, from 1 or from 0" in rule.reason


def test_a_statement_the_documents_call_breaks_is_spared(corpus):
    """aclnnConvTbc bias, `一维且与weight第一维相等`: its sample passes a bias of weight's last
    dimension (the output channels of a [K, Cin, Cout] weight), so the rule is taken as misread."""
    fn = ops_nn(corpus, "conv/convolution_forward/docs/aclnnConvTbc.md")
    statement, rule = _rule(fn, "bias", "一维且与weight第一维相等")
    assert not statement.enforced and "sample call" in rule.reason
    assert rejected(fn) == []
