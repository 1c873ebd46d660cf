"""Outputs computed from the two halves of an input split along an axis (the GLU family),
which have the input's shape with that axis halved. Read only where the description names
both halves, of one input along one integer parameter's axis, and the output's formula
combines those two halves and nothing else (aclnnSwiGlu):

    out<sub>i</sub> = SwiGlu(x<sub>i</sub>)=Swish(A<sub>i</sub>)*B<sub>i</sub>
    其中，A<sub>i</sub>表示x<sub>i</sub>按指定dim维度一分为二的前半部分张量，B<sub>i</sub>表示x<sub>i</sub>按指定dim维度一分为二的后半部分张量。
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_gradients import Said
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
# a subscript only numbers the elements: `x<sub>i</sub>`, `x_i`, `x_{i}`
_SUBSCRIPT = re.compile(r"<sub>\s*[A-Za-z0-9]\s*</sub>|_\{?[ij]\}?(?![A-Za-z0-9])")
_HALF = re.compile(
    rf"(?P<sym>{_NAME})\s*表示(?:输入)?\s*(?P<name>{_NAME})\s*(?:按|根据)(?:指定的?)?\s*(?P<axis>{_NAME})\s*"
    r"(?:维度|轴)?一分为二(?:后)?的(?P<part>前|后)半?部分"
)
_CALL = re.compile(rf"(?P<fn>{_NAME})\s*\(")


def halves_rule(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> ShapeRule | None:
    """`p`'s shape when its formula combines the two halves the description names; None otherwise."""
    lines = [(_SUBSCRIPT.sub("", s.text), s) for s in summary]
    halves: dict[str, tuple[str, str, str]] = {}
    for text, _ in lines:
        for m in _HALF.finditer(text):
            halves[m.group("sym")] = (m.group("name"), m.group("axis"), m.group("part"))
    kinds = {q.name: q.kind for q in params}
    split = {(name, axis) for name, axis, _ in halves.values()}
    if len(split) != 1 or {part for *_, part in halves.values()} != {"前", "后"}:
        return None
    [(name, axis)] = split
    if kinds.get(name) != "tensor" or kinds.get(axis) != "int":
        return None
    for text, s in lines:
        if (combined := _combined(text, p.name)) is not None and combined == set(halves):
            at = f"{axis} % rank({name})"
            dims = (f"*{name}.shape[:{at}]", f"{name}.shape[{at}] / 2", f"*{name}.shape[{at} + 1:]")
            return ShapeRule(kind="explicit", dims=dims, text=s.text, line=s.line)
    return None


def _combined(text: str, name: str) -> set[str] | None:
    """The operands of `name = …`'s last right-hand side, without the functions applied to
    them (`out = SwiGlu(x)=Swish(A)*B`: {A, B}); None when the line defines something else."""
    sides = [side.strip() for side in text.split("=")]
    if len(sides) < 2 or sides[0] != name:
        return None
    return set(re.findall(_NAME, _CALL.sub("", sides[-1])))
