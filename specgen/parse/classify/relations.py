"""How a parameter relates to others: broadcast, the same shape, dtype or format, a dtype
promotion (castable).
"""

from __future__ import annotations

import re

from specgen.model import Constraint
from specgen.parse.classify.statements import situational
from specgen.parse.classify.text import Context, constraint, dtype_list

BROADCAST_RESULT = re.compile(r"(?i)broadcast(?:之|以)?(?:后|结果)|广播(?:之)?(?:后|结果)")
BROADCAST = re.compile(r"(?i)broadcast|广播")
_PART = re.compile(r"且|并且|而且")  # `必须与weightOptional同时提供且与gradY的shape一致`: two statements
# A relation to a computed or partial shape, or one of several alternatives: no relation rule.
_NOT_WHOLE = re.compile(r"@|推导|计算|或|分别|其余|其他|除|前\s*n|后几|某|第|中的|维|长度|size|轴|个数|数量")


def _peers(clause: str, pattern: re.Pattern[str], ctx: Context) -> tuple[str, tuple[str, ...]] | None:
    """The part of a clause (split at 且) that states `pattern`, and the parameters it names."""
    for part in _PART.split(clause):
        if pattern.search(part):
            return part, ctx.named(part)
    return None


def rule_broadcast(clause: str, ctx: Context) -> list[Constraint]:
    """`需要与out满足broadcast关系`: broadcastable with the peers named, or their broadcast's result."""
    found = _peers(clause, BROADCAST, ctx)
    if found is None or "不支持" in clause:
        return []
    part, peers = found
    if not peers and part != clause:  # `gradOutput、self与gradInput的shape一致且满足broadcast关系`
        part, peers = clause, ctx.named(clause)
    if not peers or re.search(r"@|或|维|轴|第|分别", part):
        return []
    # `与self和gradOutput进行broadcast之后的shape相等`: the result of the peers' broadcast; but
    # `Broadcast后shape与self的shape相等` broadcasts the subject itself (to self).
    result = BROADCAST_RESULT.search(part)
    if result and ctx.named(part[: result.start()]):
        named = _listed(part[: result.end()], ctx)
        if named is None:
            return []  # a tensor of the broadcast is unknown: its result cannot be computed
        return [constraint("broadcast_result", clause, ctx, params=tuple(dict.fromkeys((*peers, *named))))]
    if (to := _BROADCAST_TO.search(part)) and to.group("target") in peers and not ctx.named(part[: to.start()]):
        return [constraint("broadcast_to", clause, ctx, params=(to.group("target"),))]
    return [constraint("broadcast", clause, ctx, params=peers)]


# `mask可以broadcast成gradOutput` (legacy ScaledMaskedSoftmaxBackward, line 40), `能广播到x`: the
# subject's shape broadcasts to the target's, not the other way
_BROADCAST_TO = re.compile(
    r"(?i)(?:可以|能够|能|可)\s*(?:broadcast|广播)\s*(?:成|到|至)\s*`?(?P<target>[A-Za-z_][A-Za-z0-9_]*)"
)


# `shape为gradOutput，self，target做broadcast后的结果`: the names listed before the result.
_NAME_LIST = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\s*[,，、和]\s*[A-Za-z_][A-Za-z0-9_]*)+(?=\s*(?:的|做|进行)?\s*(?:broadcast|广播))"
)


def _listed(text: str, ctx: Context) -> tuple[str, ...] | None:
    """The parameters a name list before a broadcast names; a name that is no parameter is read
    as the one parameter it abbreviates (`gradout`: gradOutput), else None (unknown)."""
    m = _NAME_LIST.search(text)
    if m is None:
        return ()
    out = []
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m.group()):
        full = [n for n in ctx.params if n.lower().startswith(word.lower())]
        if word not in ctx.params and len(full) != 1:
            return None
        out.append(word if word in ctx.params else full[0])
    return tuple(n for n in out if n != ctx.subject)


_SAME = r"(?:保持|完全)?(?:一致|相同|相等)"
_SAME_SHAPE = re.compile(r"shape.{0,30}?" + _SAME + r"|(?:与|和).{0,30}?shape" + _SAME)
# `数据类型同gradY` (MoeFinalizeRoutingV2Grad, doc-site dialect): not `数据类型同为FLOAT16`, `同时为`
_SAME_DTYPE = re.compile(
    r"(?:数据类型|dtype).{0,40}?" + _SAME + r"|^(?:与|和)\s*\S+?(?:保持)?(?:一致|相同)$|^同\s*\S+$"
    r"|(?:数据类型|dtype)\s*(?:需要|必须|要求)?\s*同\s*(?:输入|入参)?\s*`?[A-Za-z_]"
)
_SAME_FORMAT = re.compile(r"(?:数据格式|format).{0,40}?" + _SAME)


_LIST_SAME_DTYPE = re.compile(
    r"(?:所有|每个)\s*(?:Tensor|tensor|元素)的数据类型(?:需要|需|要|必须)?(?:保持)?(?:一致|相同)"
)


def rule_same(clause: str, ctx: Context) -> list[Constraint]:
    """`数据类型与x一致`, `shape与x2的shape一致`: the same dtype, shape or format as the peers named."""
    if _LIST_SAME_DTYPE.search(clause):  # within a tensor list: no peer parameter
        return [constraint("same_dtype", clause, ctx)]
    if "不" in clause.replace("不为空", "") or situational(clause):
        return []
    out = []
    for kind, pattern in (("same_dtype", _SAME_DTYPE), ("same_shape", _SAME_SHAPE), ("same_format", _SAME_FORMAT)):
        found = _peers(clause, pattern, ctx)
        if found is None or not found[1]:
            continue
        part, peers = found
        if "或" in part or "@" in part or "推导" in part:
            continue  # `与输入input一致或为FLOAT类型`, `与self与mat2推导之后的数据类型一致`
        if kind == "same_shape" and (_NOT_WHOLE.search(part) or BROADCAST.search(clause)):
            continue  # `shape需要与logits前n-1维保持一致`: part of the shape
        if kind == "same_dtype" and "shape" in part and not re.search("数据类型|dtype", part):
            continue  # `且与gradY的shape一致`
        out.append(constraint(kind, clause, ctx, params=peers))
    return out


CASTABLE = re.compile(r"推导|可转换|互转换|转换为|转换成|(?<!broad)cast", re.I)
DTYPE_WORD = re.compile(r"数据类型|dtype|类型|[A-Z]{3,}\d*")


def rule_castable(clause: str, ctx: Context) -> list[Constraint]:
    """`与self满足数据类型推导规则`, `可转换为FLOAT`: a dtype promotion with the peers or dtypes named."""
    if not CASTABLE.search(clause) or "不支持" in clause:
        return []
    if "shape" in clause and not DTYPE_WORD.search(clause):  # `推导的输出out的shape`: shape inference
        return []
    peers = ctx.named(clause)
    dtypes, _ = dtype_list(clause)
    if not peers and not dtypes:
        return []
    return [constraint("castable", clause, ctx, params=peers, values=tuple(dtypes))]
