"""An output's shape stated as equations in the constraints section (约束说明), one a bullet:

    - rank(mxscaleOut) = rank(x) + 1。
    - axis_change = axis if axis >= 0 else axis + rank(x)。
    - mxscaleOut.shape[axis_change] = (ceil(x.shape[axis] / blocksize) + 2 - 1) / 2。
    - mxscaleOut.shape[-1] = 2。
    - 其他维度与输入x一致。

(aclnnDynamicMxQuant, ops-nn). The output's axes line up with the input's, the axis a `+ 1`
adds coming last; read only when the document says the other dimensions are the input's, the
added axis has its size, and at most one of the input's axes is replaced (its size an
expression the evaluator reads). Anything else is no reading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from specgen.parse.classify.shape_phrases import Reading, dim_expression
from specgen.parse.classify.statements import is_conditional

_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_RANK = re.compile(rf"^rank\((?P<out>{_ID})\)\s*=\s*rank\((?P<x>{_ID})\)\s*(?:\+\s*(?P<k>\d))?$")
_AXIS = re.compile(rf"^(?P<out>{_ID})\.shape\[(?P<axis>-?\d+|{_ID})\]\s*=\s*(?P<expr>.+)$")
# `axis_change = axis if axis >= 0 else axis + rank(x)`: the axis counted from the front
_ALIAS = re.compile(
    rf"^(?P<name>{_ID})\s*=\s*(?P<a>{_ID})\s+if\s+(?P=a)\s*>=\s*0\s+else\s+(?P=a)\s*\+\s*rank\((?P<x>{_ID})\)$"
)
_ROUNDING = re.compile(r"\b(?:Ceil|Floor)(?=\()")  # `Ceil(x.shape[-1] / 32)` (aclnnMxToBlockMxQuant)
_REST = re.compile(rf"^其[他它余]维度(?:与|和)(?:输入|入参)?\s*(?P<x>{_ID})\s*(?:保持)?一致$")


@dataclass(frozen=True, slots=True)
class Equations:
    """What the section's bullets say of one output."""

    rank: tuple[str, int] | None = None  # (input, the axes added)
    axes: tuple[tuple[str, str], ...] = ()  # (axis, size expression), in the document's order
    rest: str = ""  # the input whose size the other dimensions keep


def _clauses(lines: Sequence[str]) -> list[str]:
    """The clauses of the lines that hold without a condition: not `当groupIndexOptional存在时，
    mxscale2Out.shape[0] = …`, nor the bullets a conditional line (`当…时：`) heads."""
    out, under = [], None  # under: the indentation of the conditional head being skipped
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if under is not None and indent > under:
            continue
        under = None
        if is_conditional(line.strip(" -*\t")) or re.search(r"时[：:]\s*$", line):
            under = indent
            continue
        out += [c.strip().rstrip("。.").strip() for c in re.split(r"[，；;]", line.strip(" -*\t"))]
    return out


def _named(name: str, subject: str) -> bool:
    """`scale1` names scale1Out (aclnnDynamicBlockMxQuant writes the formula's names)."""
    return name in (subject, subject.removesuffix("Out"), subject.removesuffix("Optional"))


def equations(lines: Sequence[str], subject: str) -> tuple[Equations, dict[str, str]]:
    """The output's equations and the section's axis aliases (name -> `axis % rank(x)`)."""
    rank, axes, rest, aliases = None, [], "", {}
    for clause in _clauses(lines):
        if (m := _RANK.match(clause)) and _named(m.group("out"), subject):
            rank = (m.group("x"), int(m.group("k") or 0))
        elif (m := _AXIS.match(clause)) and _named(m.group("out"), subject):
            axes.append((m.group("axis"), _ROUNDING.sub(lambda r: r.group().lower(), m.group("expr").strip())))
        elif m := _ALIAS.match(clause):
            aliases[m.group("name")] = f"{m.group('a')} % rank({m.group('x')})"
        elif m := _REST.match(clause):
            rest = m.group("x")
    return Equations(rank, tuple(axes), rest), aliases


def equations_reading(
    lines: Sequence[str], subject: str, inputs: Sequence[str], names: Sequence[str]
) -> Reading | None:
    """The reading the section's equations give `subject`, or None (see the module's docstring)."""
    said, aliases = equations(lines, subject)
    x, added = said.rank if said.rank else (said.rest, 0)
    if not said.axes or said.rest != x or x not in inputs or added not in (0, 1):
        return None
    sizes = dict(said.axes)
    if len(sizes) != len(said.axes):
        return None  # an axis given twice
    tail: list[str] = []
    if added:
        last = sizes.pop("-1", None)
        if last is None:
            return None
        tail = [last]
    for axis, size in list(sizes.items()):  # `scale2.shape[-2] = x.shape[-1]`: the axis it lines up with
        if re.fullmatch(r"-?\d+", axis) and size.replace(" ", "") == f"{x}.shape[{_x_axis(int(axis), added)}]":
            del sizes[axis]
    if len(sizes) > 1:
        return None
    replaced = _replaced(x, *sizes.popitem(), added, aliases) if sizes else [f"*{x}.shape"]
    if replaced is None:
        return None
    dims = [*replaced, *tail]
    parsed = [d if d.startswith("*") else dim_expression(_aliased(d, aliases), names) for d in dims]
    return ("explicit", (), tuple(parsed)) if all(parsed) else None  # type: ignore[arg-type]


def _aliased(expr: str, aliases: dict[str, str]) -> str:
    for name, axis in aliases.items():
        expr = re.sub(rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])", axis, expr)
    return expr


def _replaced(x: str, axis: str, size: str, added: int, aliases: dict[str, str]) -> list[str] | None:
    """x's shape with one axis (the output's, counted as the output counts it) replaced by
    `size`; None when the axis is a name the section does not define."""
    if axis in aliases:
        at = aliases[axis]
        return [f"*{x}.shape[:{at}]", size, f"*{x}.shape[{at} + 1:]"]
    if not re.fullmatch(r"-?\d+", axis):
        return None
    i = _x_axis(int(axis), added)
    after = [] if i == -1 else [f"*{x}.shape[{i + 1}:]"]
    return [f"*{x}.shape[:{i}]", size, *after]


def _x_axis(axis: int, added: int) -> int:
    """The input's axis an output axis lines up with (the added axes are the output's last)."""
    return axis + added if axis < 0 else axis
