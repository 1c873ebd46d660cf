"""An output computed by the Einstein summation convention, whose shape is the equation's
output term. Read only where the description states the convention with its arrow form, one
string parameter's row calls itself the convention's equation, one tensor-list input's row
gives its elements as the formula's terms, and the output is the only tensor output
(aclnnEinsum):

    接口功能：使用爱因斯坦求和约定执行张量计算，形式为“term1, term2 -> output-term”，…
    equation: 表示爱因斯坦求和约定的简写公式。
    tensors: 包含两个tensor，tensors[0]表示公式中的term1，tensors[1]表示公式中的term2。

The runtime sizes each letter of the output term by the input terms and leaves other forms of
the equation (an ellipsis, broadcast letters) unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_gradients import Said

_CONVENTION = "爱因斯坦求和"
# the description's arrow form: `形式为“term1, term2 -> output-term”`
_ARROW_FORM = re.compile(r"爱因斯坦求和约定[^。]*?(?:形式为|形如)\s*[“\"`]?[^”\"`]*?->\s*[^”\"`]+[”\"`]?")
# a tensor list's row: `tensors[0]表示公式中的term1`
_TERM = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[0\]\s*(?:表示|对应)\s*(?:公式中的)?\s*term\s*1")


def einsum_rule(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> ShapeRule | None:
    """`p`'s shape when the description states the Einstein summation convention and the
    parameters' rows give its equation and terms; None otherwise."""
    stated = next((s for s in summary if _ARROW_FORM.search(s.text)), None)
    outputs = [q for q in params if q.direction == "out" and q.kind in ("tensor", "tensor_list")]
    if stated is None or outputs != [p] or p.kind != "tensor":
        return None
    equations = [q for q in params if q.kind == "string" and _CONVENTION in q.description + q.text]
    lists = [
        q
        for q in params
        if q.kind == "tensor_list"
        and q.direction == "in"
        and any(m.group("name") == q.name for m in _TERM.finditer(q.description + q.text))
    ]
    if len(equations) != 1 or len(lists) != 1:
        return None
    return ShapeRule(kind="einsum", params=(lists[0].name, equations[0].name), text=stated.text, line=stated.line)
