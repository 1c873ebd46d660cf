"""An output's shape given case by case in a list of the constraints section that a line
announces for it (aclnnTransQuantParamV2, whose rows say only `shape的约束请参见约束说明`):

    - 关于scale、offset、out的shape说明如下：
      - 当无offset时，out shape与scale shape一致。
        - 若out作为matmul类算子输入（…），shape支持1维(1,)、(n,)或2维(1, n)，其中n与…一致。
      - 当有offset时，仅作为matmul类算子输入（…）：
        - offset，scale，out的shape支持1维(1,)、(n,)或2维(1, n)，其中n与…一致。
        - 当输入scale的shape为1维，out的shape也为1维，且shape大小为scale与offset单维shape大小的最大值。
        - 当输入scale的shape为2维，out的shape与输入scale的shape维度和大小完全一致。

Each item of the list's first level that opens with a condition and speaks of the output's
shape is a case (the items under it remark on it: where the output is used next, not read);
an item that is only a condition (`当有offset时，…：`) leads each such item under it, read as one
sentence with them (an item of several sentences is not: the lead would not reach them). The cases
come back as statements for the reading of cases the output's own statements get (see
shape_alternatives), which reads all of them or none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param
from specgen.parse.classify.text import Statement

# `关于scale、offset、out的shape说明如下：`
_ANNOUNCED = re.compile(r"关于\s*(?P<names>[`A-Za-z0-9_、，,和\s]+?)\s*的\s*shape\s*(?:说明|约束|要求)?如下\s*[：:]")
# `当有offset时，仅作为matmul类算子输入（…）：`: a condition leading the items under it
_LEAD = re.compile(r"^(?P<cond>(?:当|若|如果)[^，,；;。：:]+?)\s*[，,][^；;。]*[：:]$")
_CASE = re.compile(r"^(?:当|若|如果)")
_BREAK = re.compile(r"[。；;]")
_MARKER = re.compile(r"^(?:[-*+]|\d+[.、)])\s*")


def listed_cases(p: Param, notes: Sequence[Statement]) -> list[Statement]:
    """The cases of `p`'s shape a list of the constraints section (`notes`) gives, each a
    statement (a leading condition joined to it); [] where no list is announced for `p`."""
    for i, s in enumerate(notes):
        m = _ANNOUNCED.search(s.text)
        if m is None or p.name not in re.split(r"[、，,和\s`]+", m.group("names")):
            continue
        items: list[Statement] = []
        for t in notes[i + 1 :]:
            if t.indent <= s.indent:
                break
            items.append(Statement(_MARKER.sub("", t.text), t.line, indent=t.indent))
        return _cases(items, p)
    return []


def _cases(items: Sequence[Statement], p: Param) -> list[Statement]:
    if not items:
        return []
    top = min(t.indent for t in items)
    out: list[Statement] = []
    for k, t in enumerate(items):
        if t.indent != top:
            continue
        if lead := _LEAD.match(t.text):
            under = _under(items[k + 1 :], top)
            said = [u.text.rstrip("。；;") for u in under if _CASE.match(u.text) and _speaks_of(u.text, p)]
            if said and not any(_BREAK.search(x) for x in said):  # one sentence: the lead leads each case
                out.append(Statement("，".join([lead.group("cond"), *said]) + "。", t.line))
        elif _CASE.match(t.text) and _speaks_of(t.text, p):
            out.append(t)
    return out


def _under(items: Sequence[Statement], top: int) -> list[Statement]:
    """The items under one item of the first level: up to the next item of that level."""
    out: list[Statement] = []
    for t in items:
        if t.indent <= top:
            break
        out.append(t)
    return out


def _speaks_of(text: str, p: Param) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(p.name)}`?\s*(?:的)?\s*(?:shape|形状)", text) is not None
