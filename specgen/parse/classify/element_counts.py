"""A tensor's element count against another's: `shape size大于等于入参x的shape size` (aclnnForeach*
out; the documents' samples compute a shape size as the product of the dimensions, GetShapeSize)."""

from __future__ import annotations

import re

from specgen.model import Constraint
from specgen.parse.classify.shape_multiples import led_by_situation
from specgen.parse.classify.text import Context, constraint

_AT_LEAST = ("大于等于", "不小于")
_COUNT_AGAINST = re.compile(
    r"^shape\s*size\s*(?P<op>大于等于|不小于|小于等于|不大于)\s*(?:入参|出参|输入|输出)?\s*"
    r"(?P<peer>[A-Za-z_][A-Za-z0-9_]*)\s*的\s*shape\s*size$"
)


def rule_numel_at_least(clause: str, ctx: Context) -> list[Constraint]:
    """`params`: (the tensor with at least as many elements, the other), each of a list against
    the one at its place; none where a situation leads the clause in its sentence."""
    m = _COUNT_AGAINST.match(clause.replace("`", "").strip().rstrip("。；;"))
    if m is None or ctx.subject is None or m.group("peer") not in ctx.params or m.group("peer") == ctx.subject:
        return []
    if led_by_situation(clause, ctx.statement):
        return []
    pair = (ctx.subject, m.group("peer"))
    names = pair if m.group("op") in _AT_LEAST else pair[::-1]
    return [constraint("numel_at_least", clause, ctx, params=names)]
