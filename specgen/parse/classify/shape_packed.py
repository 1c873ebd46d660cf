"""An output's same-shape rule that a line contradicts for one of its dtypes: in that dtype
eight 4-bit values pack into one element, so its last dimension is its peer's / 8
(aclnnRmsNormQuant, its row `shape需要与输入x一致` and its constraints section
`当y的数据类型为INT32时，y的最后一维必须是x最后一维的1/8`; aclnnAddRmsNormDynamicQuantV2's error row
`y1Out或y2Out的数据类型为DT_INT32时，y1Out或y2Out的尾轴不为x1尾轴的1/8`, or x1's row
`当输出y1Out或y2Out的数据类型为INT32时，x1的尾轴必须是输出y1Out或y2Out尾轴的8倍`).

The rule (or each alternative of it that is the peer's shape) then holds where the output has
another dtype (`when`: (output, "dtype", dtype, "false")), as `shapes._for_other_dtypes` reads
a row that says so itself; in the packed dtype only the last dimension is stated, so the shape
is left unchecked there and a wrapper allocates only for the other dtypes. Likewise where the
peer's own row says its elements pack eight INT4 values in one dtype (its shape then is not the
output's unpacked one): the rule holds where the peer has another dtype.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.text import Statement
from specgen.vocab import dtype

_NAME = r"`?[A-Za-z_][A-Za-z0-9_]*`?"
_NAMES = rf"{_NAME}(?:\s*(?:或|、|和)\s*{_NAME})*"
_LAST = r"\s*的?\s*(?:shape的?)?\s*(?:最后一维|尾轴)(?:大小)?\s*"
_IS = r"(?:必须|需要|需)?\s*不?\s*(?:是|为|等于)\s*(?:输入|入参|输出)?\s*"
# `当y的数据类型为INT32时，` (the lead; `who` names the output, or nothing in its own row)
_LEAD = (
    rf"(?:当|若|如果)?\s*(?:输出|输入|入参)?\s*(?P<who>{_NAMES})?\s*的?(?:数据)?类型为\s*(?:DT_)?"
    r"(?P<dtype>[A-Za-z][A-Za-z0-9_]*)\s*(?:类型)?时\s*[，,]\s*"
)
_PACKED = re.compile(
    _LEAD + "(?:"
    # `y的最后一维必须是x最后一维的1/8`, `y1Out或y2Out的尾轴不为x1尾轴的1/8`
    rf"(?:(?P<subject>{_NAMES})\s*的)?{_LAST}{_IS}(?P<x>{_NAME}){_LAST}的\s*1\s*/\s*8"
    # `x1的尾轴必须是输出y1Out或y2Out尾轴的8倍`
    rf"|(?P<x8>{_NAME}){_LAST}{_IS}(?P<subject8>{_NAMES}){_LAST}的\s*8\s*倍"
    ")"
)


def _names(text: str | None) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text or ""))


def packed_dtype(p: Param, own: Sequence[Statement], others: Sequence[Statement]) -> tuple[str, str] | None:
    """(the dtype, the peer) of the first line saying `p`'s last dimension is the peer's / 8
    in one dtype `p` allows: a line of its own row, or another that names `p`."""
    for s in [*own, *others]:
        for m in _PACKED.finditer(s.text):
            d = dtype(m.group("dtype"))
            named = _names(m.group("who")) | _names(m.group("subject")) | _names(m.group("subject8"))
            if d is None or d not in p.dtypes or (p.name not in named and (named or s not in own)):
                continue  # another tensor's packed dtype, or a line elsewhere naming no tensor
            return d, (m.group("x") or m.group("x8")).strip("`")
    return None


# `当数据类型是INT32时，每个数据被作为8个INT4数据使用` (the experimental aclnnAscendAntiQuant's x, its y
# `shape与输入x一致`), `数据类型为INT32时，每个INT32数据存放8个INT4数据`: a tensor's own row packing it
_PACKS = re.compile(
    r"(?:数据)?类型\s*(?:是|为)\s*(?P<dtype>[A-Za-z][A-Za-z0-9_]*)\s*(?:类型)?时\s*[，,]\s*每个\s*(?:[A-Za-z0-9_]+)?\s*"
    r"数据\s*(?:被作为|被视为|存放|存储|表示|包含)\s*8\s*个\s*INT4"
)


def peer_packed(peer: str, rows: dict[str, list[Statement]]) -> str | None:
    """The dtype the peer's own row says packs eight INT4 values into each element."""
    for s in rows.get(peer, []):
        if (m := _PACKS.search(s.text)) and (d := dtype(m.group("dtype"))):
            return d
    return None


def but_packed(
    p: Param,
    rule: ShapeRule,
    said: tuple[Sequence[Statement], Sequence[Statement]],
    rows: dict[str, list[Statement]] | None = None,
) -> ShapeRule:
    """`rule`, its peer's shape (or each alternative that is) held only where `p` is not of the
    dtype a line packs (see the module's docstring), nor the peer of the dtype its own row
    (of `rows`, each parameter's) says packs INT4 values; unchanged where no line does."""
    if rule.kind not in ("same", "one_of"):
        return rule
    found = packed_dtype(p, *said)

    def held(r: ShapeRule) -> ShapeRule:
        if r.kind != "same" or len(r.params) != 1 or len(r.when) % 4:
            return r
        peer = r.params[0]
        exempt: tuple[str, ...] = ()
        if found and found[1] == peer and not _on_own_dtype(r, p.name):
            exempt = (p.name, "dtype", found[0], "false")
        if (packing := peer_packed(peer, rows or {})) and not _on_own_dtype(r, peer):
            exempt = (*exempt, peer, "dtype", packing, "false")
        return r.model_copy(update={"when": (*r.when, *exempt)}) if exempt else r

    if rule.kind == "same":
        return held(rule)
    return rule.model_copy(update={"alternatives": tuple(held(a) for a in rule.alternatives)})


def _on_own_dtype(rule: ShapeRule, name: str) -> bool:
    """The rule holds under a condition on `name`'s dtype already (`其他类型时，shape与x一致`)."""
    when = rule.when
    return any(when[i : i + 2] == (name, "dtype") for i in range(0, len(when) - 3, 4))
