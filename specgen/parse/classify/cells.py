"""Table cells (the 数据类型, 数据格式, 维度(shape) and 非连续Tensor columns) to constraints."""

from __future__ import annotations

import re

from specgen.model import Constraint
from specgen.parse.classify.dims import rule_min_rank, rule_rank
from specgen.parse.classify.properties import dtype_sets
from specgen.parse.classify.text import Context, constraint, format_list

_SUP = re.compile(r"<sup>[^<]*</sup>")
_SAME_DTYPE = re.compile(r"一致|相同|同\s*\w")
_SAME_FORMAT = re.compile(r"一致|相同|同")


def dtype_cell(cell: str, ctx: Context) -> list[Constraint]:
    """The 数据类型 column: a dtype list, a same-as reference, or prose."""
    cell = _SUP.sub("", cell).strip().rstrip("。")
    if cell in ("", "-", "/", "—"):
        return []
    out: list[Constraint] = []
    if _SAME_DTYPE.search(cell) and ctx.named(cell):
        out.append(constraint("same_dtype", cell, ctx, params=ctx.named(cell)))
    for dtypes, pid in dtype_sets("数据类型支持" + cell):  # the cell is read as the rule reads prose
        out.append(constraint("dtypes", cell, ctx, values=dtypes, product=pid))
    return out


def format_cell(cell: str, ctx: Context) -> list[Constraint]:
    """The 数据格式 column: a format list, a same-as reference, or prose."""
    cell = cell.strip().rstrip("。")
    if cell in ("", "-", "/"):
        return []
    if _SAME_FORMAT.search(cell) and ctx.named(cell):
        return [constraint("same_format", cell, ctx, params=ctx.named(cell))]
    formats = format_list(cell)
    return [constraint("formats", cell, ctx, values=tuple(formats))] if formats else [constraint("text", cell, ctx)]


_SHAPE_RANGE = re.compile(r"^(?P<lo>\d+)\s*(?:[-~至到])\s*(?P<hi>\d+)(?:\s*维)?$")
_SHAPE_LIST = re.compile(r"^\d+(?:\s*(?:、|,|，|或)\s*\d+)*(?:\s*维)?$")


def shape_cell(cell: str, ctx: Context) -> list[Constraint]:
    """The 维度(shape) column: `1-8`, `2、3`, `4维`, `大于1维` (a least rank), or prose."""
    cell = cell.strip().strip("`").rstrip("。")
    if cell in ("", "-", "/", "—"):
        return []
    if m := _SHAPE_RANGE.match(cell):
        return [constraint("rank", cell, ctx, min=int(m.group("lo")), max=int(m.group("hi")))]
    if _SHAPE_LIST.match(cell):
        ranks = [int(n) for n in re.findall(r"\d+", cell)]
        values = tuple(ranks) if len(ranks) > 1 else ()
        return [constraint("rank", cell, ctx, min=min(ranks), max=max(ranks), values=values)]
    typed = rule_rank(cell, ctx) or rule_min_rank(cell, ctx)
    return typed or [constraint("text", cell, ctx)]


def non_contiguous_cell(cell: str, ctx: Context) -> list[Constraint]:
    """The 非连续Tensor column: √ or ×."""
    mark = cell.strip().rstrip("。")
    if mark in ("√", "✓", "✔", "支持"):
        return [constraint("non_contiguous", cell, ctx, supported=True)]
    if mark in ("×", "x", "X", "✗", "不支持"):
        return [constraint("non_contiguous", cell, ctx, supported=False)]
    if mark in ("", "-", "/", "—", "不涉及"):
        return []
    return [constraint("text", cell, ctx)]
