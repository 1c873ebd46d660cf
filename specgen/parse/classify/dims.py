"""Dimensions: how many a tensor has (rank), and a value that indexes one of them (axis)."""

from __future__ import annotations

import re
from functools import lru_cache

from specgen.model import Constraint
from specgen.parse.classify.shape_multiples import led_by_situation
from specgen.parse.classify.statements import situational
from specgen.parse.classify.text import IDENT, Context, about_subject, constraint

# ---------------------------------------------------------------- rank

_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _int(token: str) -> int:
    """A rank as documents write it: `2` or `二`."""
    return _CN_DIGITS[token] if token in _CN_DIGITS else int(token)


_RANK_RANGE = re.compile(r"(?P<lo>\d)\s*(?:-|~|到|至)\s*(?P<hi>\d)\s*(?:维|个维度)")
_RANK_EXACT = re.compile(
    r"(?:shape|维度|维数|dim)(?:要求)?(?:仅|只)?(?:支持|为|是|必须为)?\s*"
    r"(?P<n>[0-9一二三四五六七八])\s*维|(?P<d>\d)D(?:的)?(?:Tensor|tensor|shape)"
)
_RANK_MAX = re.compile(
    r"(?:维度|维数|shape维度|dim)(?:需要|要求)?"
    r"(?:不超过|不大于|小于等于|最大(?:为|支持)?)\s*(?P<n>\d+)"
    r"|(?:不超过|不大于|小于等于|最多)\s*(?P<m>\d+)\s*维"
    r"|最大(?:维度|维数)(?:支持|为|是)?\s*(?P<k>\d+)\s*维"  # `最大维度支持8维`: at most 8, not exactly
    r"|不支持\s*(?P<j>\d+)\s*维以上"  # `数据维度不支持8维以上`: the column's `0-8`
)
_RANK_MENTION = re.compile(r"(?<![\d.])(?P<n>[0-9一二三四五六七八])\s*(?:维|D(?![A-Za-z]))")
_ALTERNATIVES = re.compile(r"或者?|/(?=\s*\d\s*D)|、(?=\s*[0-9一二三四五六七八]\s*维)")


def rule_rank(clause: str, ctx: Context) -> list[Constraint]:
    """`支持1-8维`, `维度不超过8维`, `shape为4维`, `2D/3D`: the subject's number of dimensions."""
    if situational(clause) or AXIS_INTERVAL.search(clause):
        return []
    if _ALTERNATIVES.search(clause):
        # `要求是一个2D/3D的Tensor`, `shape为3维(N, S1, S2)、4维(...)或5维(...)`: every
        # alternative must state a rank, and the rule is their span; `一维或()` is no rule.
        parts = _ALTERNATIVES.split(clause)
        mentions = list(_RANK_MENTION.finditer(clause))
        ranks = [_int(m.group("n")) for m in mentions]
        if len(ranks) < 2 or not all(_RANK_MENTION.search(p) for p in parts):
            return []
        if not about_subject(clause[: mentions[0].start()], ctx):
            return []
        values = tuple(sorted(set(ranks)))
        return [
            constraint("rank", clause, ctx, min=min(ranks), max=max(ranks), values=values if len(values) > 1 else ())
        ]
    for pattern in (_RANK_RANGE, _RANK_MAX, _RANK_EXACT):
        if (m := pattern.search(clause)) is None:
            continue
        before = clause[: m.start()]
        if ctx.named(before) or not about_subject(before, ctx) or re.search(r"\.shape|\.dim|元素个数", before):
            return []  # `输入x的shape必须为2维`, `其中B支持0到6个维度`: about something else
        if pattern is _RANK_RANGE:
            return [constraint("rank", clause, ctx, min=int(m.group("lo")), max=int(m.group("hi")))]
        if pattern is _RANK_MAX:
            return [constraint("rank", clause, ctx, min=0, max=int(m[m.lastgroup or "n"]))]
        if "其中" in clause:
            return []
        n = _int(m.group("n") or m.group("d"))
        return [constraint("rank", clause, ctx, min=n, max=n)]
    return []


# `不小于2维`, `大于1维`, `Tensor的维度必须大于0`, `且x的维数必须大于1维`: a least rank, alone in its
# clause (`维度必须大于0且shape必须…` says more than the rank)
_RANK_LEAST = re.compile(
    r"^(?:且|并且)?\s*(?:(?P<owner>[A-Za-z_][A-Za-z0-9_]*|Tensor|tensor)\s*的\s*)?(?:shape\s*的?)?\s*(?:维度|维数)?\s*"
    r"(?:必须|需要|需)?\s*(?P<op>不小于|大于等于|至少|大于)\s*(?P<n>[0-9一二三四五六七八])\s*(?P<unit>维|个维度)?$"
)


def rule_min_rank(clause: str, ctx: Context) -> list[Constraint]:
    """The least number of dimensions of the subject (`min`); `大于0` counts dimensions only where
    the clause says 维度 or 维数 (`第一维必须大于0` is a size)."""
    m = _RANK_LEAST.match(clause.replace("`", "").strip().rstrip("。；;"))
    if m is None or situational(clause) or led_by_situation(clause, ctx.statement or clause):
        return []
    owner = m.group("owner")
    if owner not in (None, "Tensor", "tensor", ctx.subject):
        return []
    if not m.group("unit") and not re.search(r"维度|维数", clause):
        return []
    n = _int(m.group("n"))
    return [constraint("min_rank", clause, ctx, min=n + 1 if m.group("op") == "大于" else n)]


# ---------------------------------------------------------------- axis

# `[-self.dim(), self.dim()-1]`, `[-selfRef的维度数量, selfRef的维度数量-1]`, `[-N, N-1]`,
# `[-len(x.shape), len(x.shape))`: the range of a dimension index.
_RANK_EXPR = (
    r"(?:len\(\s*[A-Za-z_][A-Za-z0-9_]*\.shape\s*\)|[A-Za-z_][A-Za-z0-9_]*(?:\.(?:dim|dimNum|ndim|rank)(?:\(\))?)?"
    r"(?:的(?:shape的?)?(?:维度数量|维度数|维数|维度))?)"
)
AXIS_INTERVAL = re.compile(
    r"(?P<lo_b>[\[(（])\s*-\s*(?P<lo>" + _RANK_EXPR + r")\s*[,，]\s*(?P<hi>" + _RANK_EXPR + r")"
    r"\s*(?:(?P<minus>-\s*1)\s*)?(?P<hi_b>[\])）])"
)
_RANK_OF = re.compile(
    r"^(?:len\(\s*(?P<a>[A-Za-z_][A-Za-z0-9_]*)\.shape\s*\)|(?P<b>[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:dim|dimNum|ndim|rank)(?:\(\))?"
    r"|的(?:shape的?)?(?:维度数量|维度数|维数|维度)))$"
)
# A value with its own meaning beside the range (`传入1000表示不指定维度`): allowed too.
_AXIS_SENTINEL = re.compile(r"(?:传入|取|为)\s*(?P<value>-?\d+)\s*(?:时)?(?:表示|代表)")
# A parameter that is sometimes ignored: the dimension range is not the whole rule.
_AXIS_IGNORED = re.compile(r"忽略|不使用|无效|不生效")


def _rank_tensor(expr: str, ctx: Context) -> str | None:
    """The tensor whose rank `expr` is: `self.dim()`, `x的维度数`, or a symbol the statement
    defines (`N为self的维度`, `其中 rank 是输入Tensor self 的维度`)."""
    if m := _RANK_OF.match(expr):
        name = m.group("a") or m.group("b")
        return name if name in ctx.params else None
    if not IDENT.fullmatch(expr):
        return None
    tensor = _defined_rank(expr, ctx.statement)
    return tensor if tensor in ctx.params else None


@lru_cache(maxsize=256)
def _defined_rank(symbol: str, statement: str) -> str | None:
    """The tensor a statement defines `symbol` as the rank of (once per statement and symbol:
    a long statement with many intervals is not searched once per clause)."""
    definition = re.search(
        r"(?<![A-Za-z0-9_])" + re.escape(symbol) + r"\s*(?:为|是|指|表示|代表|=)\s*(?:输入|入参)?\s*"
        r"(?:Tensor|tensor|aclTensor)?\s*(?P<t>[A-Za-z_][A-Za-z0-9_]*)\s*的?\s*(?:shape)?\s*的?\s*(?:维度|维数|rank)",
        statement,
    )
    return definition.group("t") if definition else None


@lru_cache(maxsize=256)
def _axis_sentinels(statement: str) -> tuple[int, ...] | None:
    """The values a statement gives a meaning of their own beside a dimension range
    (aclnnUniqueConsecutive dim: `取值范围为[-self.dim(), self.dim())，传入1000表示不指定维度`),
    allowed besides it; None when it says the value is sometimes ignored."""
    if _AXIS_IGNORED.search(statement):
        return None
    return tuple(dict.fromkeys(int(m.group("value")) for m in _AXIS_SENTINEL.finditer(statement)))


def axis_interval(text: str, ctx: Context) -> str | None:
    """The tensor whose dimensions `text`'s index interval covers, when the interval is within
    [-rank, rank-1] (`[-N, N]` allows more: no reading)."""
    m = AXIS_INTERVAL.search(text)
    if m is None:
        return None
    lo, hi = m.group("lo"), m.group("hi")
    if lo != hi or (m.group("hi_b") == "]" and not m.group("minus")):
        return None
    return _rank_tensor(lo, ctx)


def rule_axis(clause: str, ctx: Context) -> list[Constraint]:
    """`取值范围为[-self.dim(), self.dim()-1]`: the value indexes a dimension of that tensor (or
    is one of the values the statement gives a meaning of their own: `values`)."""
    sentinels = _axis_sentinels(ctx.statement or clause)
    if situational(clause) or "或" in clause or sentinels is None:
        return []
    scope = ctx.within(ctx.statement or clause)
    tensor = axis_interval(clause, scope)
    if not tensor or tensor == ctx.subject:
        return []
    return [constraint("axis", clause, ctx, params=(tensor,), values=sentinels)]
