"""Element counts an output shares with an input, stated per product outside the parameter
table: the size of a foreach output tensor list.

Most foreach documents say it in the output's row (`shape size大于等于入参x的shape size`, read
by shape_phrases as `at_least`). aclnnForeachSqrt and aclnnForeachLerpScalar say it only in
the per-product remarks after the table, differently by product:

    910b、A3：入参x的shape size小于等于出参out的shape size。
    950：入参x的shape size与出参out的shape size一致。
    910b、A3：参数out的shape size大于等于入参x1的shape size。
    950：参数x1、x2、out的shape size保持一致。

Each statement holds on its products only. Where every supported product has one relating the
output to the same input (as many elements or more, or as many), that input's shape satisfies
them all: the output is `at_least` that input (allocated in its shape; validators hold it to
no one shape, the statements giving element counts only). A product with no statement leaves
the output unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from specgen.model import Param, ShapeRule


@dataclass(frozen=True)
class ProductStatement:
    """One statement of a per-product remark, with the ids of the products it holds on."""

    products: tuple[str, ...]
    text: str
    line: int


_NAME = r"(?:入参|出参|参数|输入|输出)?\s*`?(?P<{}>[A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*shape\s*size"
# `A的shape size小于等于B的shape size`, `…大于等于…`, `A的shape size与B的shape size一致`
_PAIR = re.compile(
    _NAME.format("a")
    + r"\s*(?P<rel>小于等于|小于或等于|不大于|大于等于|大于或等于|不小于|与|和|等于)\s*"
    + _NAME.format("b")
    + r"\s*(?P<tail>(?:保持)?(?:一致|相同|相等))?"
)
# `参数x1、x2、out的shape size保持一致`
_LISTED = re.compile(
    r"(?:入参|出参|参数)?\s*(?P<names>`?[A-Za-z_]\w*`?(?:\s*[、和,，]\s*`?[A-Za-z_]\w*`?)+)\s*的\s*shape\s*size"
    r"\s*(?:需要|必须)?\s*(?:保持)?(?:一致|相同|相等)"
)
_EQUAL_WORDS = ("与", "和", "等于")


def sized_peers(statement: str, output: str) -> tuple[str, ...]:
    """The tensors whose shape gives `output` a valid element count by `statement`: as many
    elements as it (equal), or no more than the output has; () when the statement relates the
    output's size to nothing (or says it has fewer elements than a tensor)."""
    if m := _PAIR.search(statement):
        a, b, rel = m.group("a"), m.group("b"), m.group("rel")
        if rel in _EQUAL_WORDS and not (m.group("tail") or rel == "等于"):
            return ()  # `与…` with no word of equality after it
        if rel in _EQUAL_WORDS:
            pairs = {a: b, b: a}
        elif rel in ("小于等于", "小于或等于", "不大于"):
            pairs = {b: a}  # b has at least a's elements
        else:
            pairs = {a: b}
        return (pairs[output],) if output in pairs and pairs[output] != output else ()
    if m := _LISTED.search(statement):
        names = [n.strip("` ") for n in re.split(r"[、和,，]", m.group("names"))]
        return tuple(n for n in names if n != output) if output in names else ()
    return ()


def size_rule(
    p: Param, params: Sequence[Param], remarks: Sequence[ProductStatement], supported: Sequence[str]
) -> ShapeRule | None:
    """`p` as many elements as an input or more, where every supported product's remarks
    (`supported`: the products the document lists as supported; when it lists none, the
    products the statements name) relate it so to the same input tensor list; None else."""
    lists = [q.name for q in params if q.kind == p.kind == "tensor_list" and q.direction == "in"]
    for peer in lists:
        statements = [r for r in remarks if peer in sized_peers(r.text, p.name)]
        named = {pid for r in statements for pid in r.products}
        if statements and set(supported or named) <= named:
            first = statements[0]
            return ShapeRule(kind="at_least", params=(peer,), text=first.text, line=first.line)
    return None
