"""The check kinds issue 23 added to the validator: a one-way broadcast (`a不能广播至b`), a value's
multiple (`offset % 4 == 0`) and a dimension's multiple (`x的最后一维不能被2整除`), each read from
an error row, enforced, and given a test case that breaks it alone."""

from __future__ import annotations

import pytest

from specgen.codegen.runtime import _validate
from specgen.codegen.runtime._tensor import TensorDesc
from tests.test_cases import cases_of

ROW = "返回161002（ACLNN_ERR_PARAM_INVALID）："


def _spec(kind: str, params: tuple[str, ...], roles: dict[str, str], values: tuple = ()) -> _validate.Spec:
    rule = _validate.Rule(161002, kind, params, "documented", id="r", values=values)
    specs = tuple(_validate.ParamSpec(name=n, role=r, direction="in") for n, r in roles.items())  # type: ignore[arg-type]
    return _validate.Spec(function="aclnnXGetWorkspaceSize", params=specs, rules=(rule,))


def _broken(spec: _validate.Spec, **args: object) -> str:
    found = _validate.first_violation(spec, args)
    return found[1] if found else ""


def test_a_one_way_broadcast_rejects_the_other_way():
    spec = _spec("broadcast_to", ("src", "selfRef"), {"src": "tensor", "selfRef": "tensor"})
    assert _broken(spec, src=TensorDesc((3,), "FLOAT"), selfRef=TensorDesc((2, 3), "FLOAT")) == ""
    # (2, 3) and (3,) broadcast together, but src does not broadcast to selfRef's (3,)
    assert "does not broadcast to selfRef" in _broken(
        spec, src=TensorDesc((2, 3), "FLOAT"), selfRef=TensorDesc((3,), "FLOAT")
    )


@pytest.mark.parametrize(
    ("value", "bad"), [(8, False), (0, False), ((4, 12), False), (6, True), (4.5, True), ((4, 5), True)]
)
def test_a_value_multiple(value, bad):
    spec = _spec("multiple", ("offset",), {"offset": "value"}, values=(4,))
    assert bool(_broken(spec, offset=value)) is bad


def test_a_dimension_multiple_reads_the_last_or_the_named_dimension():
    last = _spec("dim_multiple", ("x",), {"x": "tensor"}, values=(2,))
    assert _broken(last, x=TensorDesc((3, 4), "FLOAT")) == ""
    assert "last dimension (5)" in _broken(last, x=TensorDesc((4, 5), "FLOAT"))
    named = _spec("dim_multiple", ("x", "dim"), {"x": "tensor", "dim": "value"}, values=(2,))
    assert "dimension dim=0 (3)" in _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=0)
    assert _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=-1) == ""
    assert _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=5) == ""  # out of range: the axis rule's business


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        ("gradOutput不能broadcast到output的shape。", "broadcast_to"),
        ("gradOutput的最后一维不能被2整除。", "dim_multiple"),
    ],
)
def test_each_kind_is_read_enforced_and_broken_alone(row, kind):
    cases = cases_of(ROW + row)
    (rule,) = [r for r in cases.rules if r.kind == kind]
    assert rule.host, rule.reason
    made = [c for c in cases.cases if c.rule == rule.id]
    assert made and all(not c.skip for c in made), made
