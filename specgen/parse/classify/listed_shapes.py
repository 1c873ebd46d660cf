"""Shapes a statement lists as alternatives (`shape可支持(2, N, 1, D)，(2, N, D)，(2, H)`,
`常用shape为[T, H]或[B, S, H]`): a rank range from the shortest to the longest.

A table's dimension column gives one count; prose that lists shapes of several ranks says more,
so the statement becomes a `rank` constraint, and the parameter's rank (the union of its rank
statements, `Param.rank`) admits every listed shape.
"""

from __future__ import annotations

import re

from specgen.model import MAX_RANK, Constraint

_TUPLE = re.compile(r"[(\[（]([^()\[\]（）]{0,80})[)\]）]")
_DIM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_*/+\-. ]*")
# What a statement that only lists shapes holds besides them.
_FILLER = re.compile(r"shape|常用|可|支持|仅|表示|需要?|为|是|形如|或者|或|和|、|，|,|=|\d\s*维|维度?|[:：;；。\s]")
_SITUATION = re.compile(r"当|时|若|如果|常用|例如|比如")  # a situation, or examples: not the whole set


def _rank(inner: str) -> int | None:
    parts = [p.strip() for p in re.split(r"[,，]", inner)]
    dims = [p for p in parts if p]
    return len(dims) if dims and all(_DIM.fullmatch(d) for d in dims) else None


def listed_ranks(text: str) -> tuple[int, int] | None:
    """The shortest and longest rank of the shapes a statement lists as alternatives; None
    unless it lists two ranks or more and says nothing else (no situation, no examples, no
    other words)."""
    if _SITUATION.search(text):
        return None
    ranks = [_rank(m.group(1)) for m in _TUPLE.finditer(text)]
    if len(ranks) < 2 or None in ranks:
        return None
    if _FILLER.sub("", _TUPLE.sub("", text)):
        return None
    known = [r for r in ranks if r is not None]
    low, high = min(known), max(known)
    return (low, high) if low < high <= MAX_RANK else None


def shape_lists(constraints: list[Constraint]) -> list[Constraint]:
    """A tensor's constraints with each statement that lists shapes of several ranks as `rank`."""
    out = []
    for c in constraints:
        ranks = listed_ranks(c.text) if c.kind == "text" else None
        out.append(c.model_copy(update={"kind": "rank", "min": ranks[0], "max": ranks[1]}) if ranks else c)
    return out
