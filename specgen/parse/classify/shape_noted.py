"""An output's shape that the constraints section (约束说明) ties to an input's in one bullet
naming both, with no condition: `参数query和attentionOut的shape需要完全一致。`
(IncreFlashAttention, doc-site dialect), `self与out的shape必须一致，不涉及广播。`. The output has
that input's shape. Read only where the bullet names the output and exactly one input tensor
(`gradOutput、output与输出out的shape必须一致`: two inputs, which one the output follows is the
same, but the reader does not guess which the bullet means), states the whole shape (not a
part: `对应tensor的shape`, `除S外`), and stands outside any lead-in (`query，key，value输入，功能使用
限制如下：`, a product's name) or condition.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_gradients import Said
from specgen.parse.classify.statements import situational
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
_ROLE = r"(?:参数|输入|输出|入参|出参)?\s*"
# `参数query和attentionOut的shape需要完全一致`, `self与out的shape必须一致，不涉及广播`
_ALIKE = re.compile(
    rf"^{_ROLE}`?(?P<names>{_NAME}`?(?:\s*(?:和|与|、|,|，)\s*{_ROLE}`?{_NAME}`?)+)\s*的\s*shape\s*"
    r"(?:需要|必须|要求|应|应该)?\s*(?:保持)?\s*(?:完全)?\s*(?:一致|相同|相等)"
    r"\s*(?:[，,]\s*(?:不支持|不涉及)(?:广播|broadcast)\s*)?[。.；;]?$"
)
_LEAD_IN = re.compile(r"[：:]\s*$")


def noted_alike(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> ShapeRule | None:
    """The input whose shape a bullet of the constraints section says `p`'s is; None when no
    bullet standing alone names `p` with exactly one input tensor."""
    inputs = {q.name for q in params if q.kind == "tensor" and q.direction == "in"}
    for s in _standing_alone(notes):
        text = s.text.strip().lstrip("-*").strip()
        m = _ALIKE.match(text)
        if m is None or situational(text):
            continue
        names = re.findall(_NAME, re.sub(_ROLE, "", m.group("names")))
        peers = [n for n in names if n in inputs]
        if p.name in names and len(peers) == 1 and len(names) == 2:
            return ShapeRule(kind="same", params=(peers[0],), text=text, line=s.line)
    return None


def _standing_alone(notes: Sequence[Said]) -> list[Said]:
    """The bullets no lead-in heads: a line ending in `：` heads the lines indented under it."""
    out: list[Said] = []
    heads: list[int] = []  # the indentations of the lead-ins still open
    for s in notes:
        indent = getattr(s, "indent", 0)
        heads = [h for h in heads if h < indent]
        if not heads:
            out.append(s)
        if _LEAD_IN.search(s.text):
            heads.append(indent)
    return out
