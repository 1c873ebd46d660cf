"""A tensor dimension equal to another tensor's, or to a value: `target的第1维与self的第1维相等`,
`最后一维需要和x的最后一维相同`, `shape与totalSum的第一维一致` (a one-dimensional tensor: its
element count), `shape第一维长度与numQueries一致` (a scalar's value).

Each pair is written `mine:theirs`: a 0-based index (`-1` the last), `numel` (the subject's
element count), `value` (the peer's value), or `~n` for an ordinal written in Arabic digits,
which the documents number from 1 (`GroupQuant`'s table: `第2维` of a 2-D x) and from 0
(`GroupNormSwish`: `元素数量需与输入x的第1维度相同`, its C) alike; the document's own call settles
which (`codegen.cases`), unless `第0维` in the same statement shows it counts from 0."""

from __future__ import annotations

import re

from specgen.model import Constraint
from specgen.parse.classify.shape_multiples import SENTENCE_END, led_by_situation, squeezed
from specgen.parse.classify.text import Context, constraint

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_CHINESE = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_ORDINAL = (
    r"(?:第\s*(?P<{0}>[0-9]|[一二三四五六七八])\s*(?:个)?\s*(?:维度?|轴)|(?P<{0}last>最后一维|最后一个维度|尾轴|末轴))"
)
_SIZE = r"(?:\s*(?:的|对应的)?\s*(?:大小|长度|size|数值|的维度))?"
_MUST = r"\s*(?:需要|必须|需|应|要)?\s*"
_PEER = rf"(?:与|和|跟|等于)\s*(?:输入|入参|参数)?\s*(?P<peer>{_NAME})\s*(?:的)?\s*(?:shape\s*(?:的|中)?\s*)?"
_SAME = r"\s*(?:保持)?\s*(?:一致|相等|相同|大小相等)?"
_LEAD = r"^(?:且|并且|要求)?\s*"
_OWN = rf"(?:(?P<own>(?!shape(?![A-Za-z0-9_])){_NAME})\s*的?\s*|其\s*)?"  # `shape第一维` names no parameter
_AXIS_PAIR = re.compile(
    _LEAD + _OWN + r"(?:shape\s*(?:的|中)?\s*)?" + _ORDINAL.format("mine")
    + _SIZE + _MUST + _PEER + f"(?:{_ORDINAL.format('theirs')}{_SIZE})?" + _SAME + "$"
)  # fmt: skip
# the subject's whole shape or element count: `shape与totalSum的第二维一致`, `元素数量需与输入self的
# 第2维大小保持相同`, `一维且数值与weight第一维相等`
_COUNT_PAIR = re.compile(
    _LEAD + rf"(?:(?P<own>{_NAME})\s*的?\s*)?(?:一维且\s*(?:数值)?|shape\s*(?:维度)?|元素数量|元素个数)" + _MUST
    + _PEER + _ORDINAL.format("theirs") + _SIZE + _SAME + "$"
)  # fmt: skip
# `target的第0维、第1维、第2维的shape分别与self的第0维、第2维、第3维的shape一致`
_RESPECTIVE = re.compile(
    _LEAD + rf"(?:(?P<own>{_NAME})\s*的\s*)?(?P<mine>第[0-9、第维]+维)(?:的shape)?\s*分别与\s*(?P<peer>{_NAME})\s*的\s*"
    r"(?P<theirs>第[0-9、第维]+维)(?:的shape)?\s*(?:一致|相等|相同)$"
)  # fmt: skip


def rule_dim_equal(clause: str, ctx: Context) -> list[Constraint]:
    """The subject's dimensions equal to one peer's, pair by pair, as `values` (see the module);
    none where a situation leads the clause, or a name is not a parameter."""
    text = clause.replace("`", "").strip().rstrip("。；;")
    found = _respective(text) or _pairs(text)
    if found is None:
        return []
    own, peer, pairs = found
    own = own or ctx.subject
    if own != ctx.subject or peer not in ctx.params or peer == own or led_by_situation(clause, ctx.statement):
        return []
    if _among_alternatives(clause, ctx.statement):
        return []
    from_zero = re.search(r"第\s*0\s*(?:个)?\s*维", ctx.statement or text) is not None
    values = tuple(f"{_index(a, from_zero)}:{_index(b, from_zero)}" for a, b in pairs)
    return [constraint("dim_equal", clause, ctx, params=(own, peer), values=values)]


def _pairs(text: str) -> tuple[str | None, str, list[tuple[str, str]]] | None:
    """One pair, or several of one subject and peer joined by `、` (`target的第1维与self的第1维相等、
    target的第2维与self的第3维相等`)."""
    read = [_pair(part) for part in text.split("、")]
    if not read or any(r is None for r in read):
        return None
    owns = {r[0] for r in read if r[0]}  # type: ignore[index]
    peers = {r[1] for r in read}  # type: ignore[index]
    if len(owns) > 1 or len(peers) > 1:
        return None
    return (owns.pop() if owns else None), peers.pop(), [r[2] for r in read]  # type: ignore[index]


def _pair(text: str) -> tuple[str | None, str, tuple[str, str]] | None:
    if m := _AXIS_PAIR.match(text):
        mine = m.group("mine") or "last"
        if m.group("theirs") or m.group("theirslast"):
            return m.group("own"), m.group("peer"), (mine, m.group("theirs") or "last")
        return m.group("own"), m.group("peer"), (mine, "value")  # `第一维长度与numQueries一致`
    if m := _COUNT_PAIR.match(text):
        return m.group("own"), m.group("peer"), ("numel", m.group("theirs") or "last")
    return None


def _respective(text: str) -> tuple[str | None, str, list[tuple[str, str]]] | None:
    m = _RESPECTIVE.match(text)
    if m is None:
        return None
    mine, theirs = re.findall(r"[0-9]+", m.group("mine")), re.findall(r"[0-9]+", m.group("theirs"))
    if not mine or len(mine) != len(theirs):
        return None
    return m.group("own"), m.group("peer"), list(zip(mine, theirs, strict=True))


_ALTERNATIVE = re.compile(r"[，,]\s*或")  # a clause that opens with 或 (not `与self一致或为FLOAT`)


def _among_alternatives(clause: str, statement: str) -> bool:
    """Whether the clause's sentence offers alternatives (aclnnAddRmsNormDynamicQuant y1Out:
    `shape需要与输入x1/x2一致，或者是二维并且…，第二维等于x1的最后一维`: the second dimension of
    the two-dimensional form only)."""
    plain, said = squeezed(statement), squeezed(clause)
    at = plain.find(said)
    if at < 0:
        return True
    start = max((m.end() for m in SENTENCE_END.finditer(plain, 0, at)), default=0)
    end = next((m.start() for m in SENTENCE_END.finditer(plain, at + len(said))), len(plain))
    return _ALTERNATIVE.search(plain[start:end]) is not None


def _index(ordinal: str, from_zero: bool) -> str:
    """A written ordinal as the module's notation."""
    if ordinal in ("numel", "value"):
        return ordinal
    if ordinal == "last":
        return "-1"
    if ordinal in _CHINESE:
        return str(_CHINESE[ordinal] - 1)
    return ordinal if from_zero else f"~{ordinal}"
