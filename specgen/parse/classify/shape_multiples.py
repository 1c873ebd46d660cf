"""A tensor dimension that must be a multiple of a number: its last one (`最后一维必须为偶数`,
`shape的最后一维需要能被8整除`) or the one a dim value names (`shape必须在入参dim对应的维度上为偶数`)."""

from __future__ import annotations

import re

from specgen.model import Constraint
from specgen.parse.classify.text import Context, constraint

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_MUST = r"\s*(?:必须|需要|需|要求)?\s*(?:是|为)?\s*"
# `偶数`, `2的倍数`, `能被8整除`, `可以整除2` (the documents write it both ways round for 2)
_FACTOR = r"(?:(?P<n>\d+)\s*的倍数|(?P<even>偶数)|(?:能|可以|可)?被\s*(?P<by>\d+)\s*整除|(?:能|可以)整除\s*(?P<of>2))"
_LEAD = r"^(?:且|并且)?\s*(?:输入)?\s*"
_MULTIPLES = (
    # `x的最后一维需要为2的倍数`, `shape的最后一维需要能被8整除`, `最后一维必须为偶数`
    re.compile(
        _LEAD + rf"(?:(?P<tensor>{_NAME})\s*的\s*)?(?:shape\s*的?\s*)?(?:最后一维|尾轴)(?:的?(?:大小|长度|size))?"
        + _MUST + _FACTOR + "$"
    ),
    # `shape必须在入参dim对应的维度上为偶数`, `且shape必须在入参dim对应的维度上可以整除2`
    re.compile(
        _LEAD + rf"(?:(?P<tensor>{_NAME})\s*的\s*)?shape" + _MUST
        + rf"在\s*(?:入参|参数)?\s*(?P<dim>{_NAME})\s*(?:对应|指定)的?\s*(?:维度|轴)上" + _MUST + _FACTOR + "$"
    ),
    # `输入x对应activateDim的维度需要是2的倍数`
    re.compile(_LEAD + rf"(?P<tensor>{_NAME})\s*对应\s*(?P<dim>{_NAME})\s*的\s*(?:维度|轴)" + _MUST + _FACTOR + "$"),
    # `dim对应的self的轴必须是偶数` (said of the dim value)
    re.compile(_LEAD + rf"(?P<dim>{_NAME})\s*对应的\s*(?P<tensor>{_NAME})\s*的\s*(?:维度|轴)" + _MUST + _FACTOR + "$"),
)  # fmt: skip
# What leads a clause into a situation within its sentence (`如果dstType为3，shape的最后一维…`)
_SITUATION = re.compile(r"当(?!前)|若|如果|假如|时\s*[，,]|场景|模式下|情况下")
SENTENCE_END = re.compile(r"[。；;]|</?li>|<br\s*/?>")


def rule_dim_multiple(clause: str, ctx: Context) -> list[Constraint]:
    """The dimension and the number it is a multiple of, as `params` (tensor, and the dim value
    naming the dimension, if any) and `values` (the number); none where a situation leads the
    clause in its sentence, which the clause alone does not show."""
    for pattern in _MULTIPLES:
        m = pattern.match(clause.replace("`", "").strip().rstrip("。；;"))
        if m is None:
            continue
        tensor = m.group("tensor") or ctx.subject
        dim = m.groupdict().get("dim")
        names = (tensor, dim) if dim else (tensor,)
        if not all(n in ctx.params for n in names) or ctx.subject not in names:
            return []
        if led_by_situation(clause, ctx.statement):
            return []
        factor = int(m.group("n") or m.group("by") or m.group("of") or 2)
        return [constraint("dim_multiple", clause, ctx, params=names, values=(factor,))]
    return []


def led_by_situation(clause: str, statement: str) -> bool:
    """Whether the text before `clause` in its sentence of `statement` states a situation (or the
    clause is not found there, so that it cannot be told)."""
    plain, said = squeezed(statement), squeezed(clause)
    at = plain.find(said)
    if at < 0:
        return True
    before = SENTENCE_END.split(plain[:at])[-1]
    return bool(_SITUATION.search(before))


def squeezed(text: str) -> str:
    return re.sub(r"\s+|`", "", text)
