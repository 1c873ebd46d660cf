"""A broadcast the parameter text says is one way (`mask可以broadcast成gradOutput`): read as
`broadcast_to`, it makes the error row's symmetric broadcast (`gradOutput与mask不满足broadcast关系`)
one way too (audit 43, W6). The document's own call stays accepted."""

from __future__ import annotations

from specgen.codegen.cases import host_values
from specgen.codegen.runtime._tensor import TensorDesc
from tests.validator_calls import first_violation, function_code, rejected


def test_a_one_way_broadcast_makes_the_row_one_way(corpus):
    """Legacy ScaledMaskedSoftmaxBackward, l.40 (mask): `且mask可以broadcast成gradOutput`; row
    l.61, 161002: `gradOutput与mask不满足broadcast关系`. A mask larger than gradOutput along a
    dimension gradOutput has as 1 broadcasts with it, but not to it: refused with 161002; a mask
    of 1 there, which broadcasts to gradOutput, is accepted."""
    fn = function_code(corpus / "docs" / "legacy" / "ScaledMaskedSoftmaxBackward.md")
    [rule] = [r for r in fn.cases.rules if r.kind in ("broadcast", "broadcast_to")]
    assert (rule.kind, rule.params, rule.code, rule.host) == ("broadcast_to", ("mask", "gradOutput"), 161002, True)
    assert rejected(fn) == []
    args = host_values(fn.cases.valid.args)
    grad, mask = args["gradOutput"], args["mask"]
    n, c, h, w = grad.shape
    small = TensorDesc((1, c, h, w), grad.dtype)
    same = {"gradOutput": small, "y": small, "out": small}
    assert first_violation(fn, **same, mask=TensorDesc((1, c, h, w), mask.dtype)) is None
    assert first_violation(fn, **same, mask=TensorDesc((2, c, h, w), mask.dtype)) == (rule.id, 161002)
