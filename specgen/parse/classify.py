"""Chinese constraint prose and table cells to typed constraints and checks.

A small ruler of named rules: each rule reads one clause and returns the constraints it
recognises. A clause no rule recognises is kept verbatim as kind "text". Error-rule
conditions go through a parallel set of rules that return `Check`s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from specgen import vocab
from specgen.model import MAX_RANK, Check, Constraint

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DTYPE_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_AND = re.compile(r"(?<!\s)\s+且(?=\S)")  # (?<!\s): one scan per whitespace run
_CONDITION_HEAD = re.compile(r"^(?:当(?!前)|若|如果|假如|在.{0,20}?(?:时|场景下|情况下))")
_NUM = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule needs to know about the clause's surroundings."""

    subject: str | None  # the parameter the clause is about (None for error conditions)
    params: tuple[str, ...]  # every parameter name of the function
    line: int
    statement: str = ""  # the whole statement the clause is part of (`N为self的维度` may follow)

    def named(self, text: str) -> tuple[str, ...]:
        """Parameters named in `text`, in order of appearance, without the subject."""
        return tuple(p for p in names_in(text, self.params) if p != self.subject)


def names_in(text: str, params: Iterable[str], typos: dict[str, str] | None = None) -> list[str]:
    """Parameters named in `text`, in order. A word one edit away from exactly one parameter
    name (`gradIOutput`) counts as that parameter; `typos` collects such readings."""
    names = set(params)
    seen: dict[str, None] = {}
    for word in _IDENT.findall(text):
        if word in names:
            seen.setdefault(word, None)
        elif len(word) >= 6 and typos is not None:
            close = [n for n in names if _one_edit(word, n)]
            if len(close) == 1:
                typos[word] = close[0]
                seen.setdefault(close[0], None)
    return list(seen)


def _one_edit(a: str, b: str) -> bool:
    """True when a and b differ by exactly one inserted, deleted or replaced character."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1 :]


Rule = Callable[[str, Context], list[Constraint]]


def _c(kind: str, text: str, ctx: Context, **fields: object) -> Constraint:
    return Constraint(kind=kind, text=text, line=ctx.line, **fields)  # type: ignore[arg-type]


def read(rule: Callable[..., list], *args: object) -> list:
    """`rule(*args)`, or nothing when the numbers it read fit no C type (beyond int64 or
    double, or too many digits to convert): such a statement stays untyped text."""
    try:
        return rule(*args)
    except (ValueError, OverflowError):  # pydantic's ValidationError is a ValueError
        return []


# ---------------------------------------------------------------- value parsers


def dtype_list(text: str) -> tuple[list[str], list[str]]:
    """(canonical dtypes, unknown upper-case tokens) in a dtype list such as `FLOAT、FLOAT16`."""
    found: list[str] = []
    unknown: list[str] = []
    for token in _DTYPE_TOKEN.findall(text):
        name = vocab.dtype(token)
        if name and name not in found:
            found.append(name)
        elif name is None and token.isupper() and len(token) > 2:
            unknown.append(token)
    return found, unknown


def format_list(text: str) -> list[str]:
    out: list[str] = []
    for token in _DTYPE_TOKEN.findall(text):
        name = vocab.data_format(token)
        if name and name not in out:
            out.append(name)
    return out


def _int(token: str) -> int:
    return _CN_DIGITS[token] if token in _CN_DIGITS else int(token)


# ---------------------------------------------------------------- what a clause says

# A clause that holds only in some situation: `Q_S大于等于2时…`, `若…`, `否则…`, `其余情况…`.
# (`同时`, `实时`, `时间` are no condition; `当前` is "currently".)
_WHEN = re.compile(
    r"(?<![同实及临暂计])时(?![间刻序钟长])|若|如果|假如|否则|其[余他](?:情况|场景)|以外的场景|场景下|情况下|模式下"
    r"|^则|^当(?!前)"
)
# A clause continuing the one before (`per_tensor模式下shape支持[G, ]，且数据类型…一致`).
_CONTINUATION = re.compile(r"^(?:且|并且|而且|则|此时|同时)")
# Numbers that are no rule on the value: formulas (`groupSizeN << 16`, LaTeX), version and
# driver notes, advice and examples.
_NO_VALUE_RULE = re.compile(r"<<|>>|\$|\\\(|版本|驱动|CANN|建议|推荐|通常|一般|例如|比如|示例|如下")
# Words of a size, a length, a count or a dimension: a bound next to them is not on the value.
_SIZE_OF = re.compile(r"维|(?i:shape)|个数|长度|数量|(?<![A-Za-z])(?i:size)(?![A-Za-z])|元素数|len\(|\.dim|轴")
# Identifiers that name no quantity (`shape大于…` is about the subject's shape, not about `shape`).
_GENERIC = frozenset(
    "shape Shape dtype size Tensor tensor TensorList aclTensor aclTensorList aclIntArray aclScalar "
    "aclFloatArray aclBoolArray int float bool double true false True False ND NZ Host Device host device "
    "per token channel".split()
)
_PRODUCT_HEAD = re.compile(r"^(?P<names>[^：:，,。；;]{0,120}?产品)\s*(?:[：:]|(?=仅|只|支持|不支持|数据类型))")
_PRODUCT_SPLIT = re.compile(r"、|/(?!\s*500)|和")


def _owner(before: str) -> str | None:
    """The quantity a bound is stated on: the last identifier before it that names one
    (`S<=1024` bounds S; `n为64的整数倍且大于等于128` bounds n), or None."""
    for word in reversed(_IDENT.findall(before)):
        if word not in _GENERIC and not vocab.dtype(word) and not vocab.data_format(word):
            return word
    return None


def _about_subject(before: str, ctx: Context) -> bool:
    """True when what precedes a bound leaves it on the subject's own value."""
    owner = _owner(before)
    if owner is None or ctx.subject is None:
        return owner is None
    stems = {ctx.subject, ctx.subject.removesuffix("Optional"), ctx.subject.removesuffix("Ref")}
    return owner in stems


def _when(clause: str) -> bool:
    """A clause holding only in some situation (`当…时`, `…时该参数无效`, `若…`, `否则`)."""
    return bool(_CONDITION_HEAD.match(clause) or is_conditional(clause) or _WHEN.search(clause))


def _value_rule_allowed(clause: str) -> bool:
    """Whether the numbers of a clause can be a rule on the value at all."""
    return not (_when(clause) or _NO_VALUE_RULE.search(clause))


def _products_of(clause: str) -> tuple[str, ...] | None:
    """The products a clause is restricted to (`Atlas 推理系列产品只支持1`): their ids, () when
    the clause names none, None when it names one that is not known."""
    head = _PRODUCT_HEAD.match(clause)
    if head is None:
        return ()
    ids = [vocab.product_id(name) for name in _PRODUCT_SPLIT.split(head.group("names")) if name.strip()]
    if not ids or None in ids:
        return None
    return tuple(dict.fromkeys(i for i in ids if i))


# ---------------------------------------------------------------- parameter rules

_DTYPES = re.compile(
    r"(?:数据类型|dtype)(?:仅|只)?(?:支持|需为|为|要求为|必须为)[:：]?\s*"
    r"(?P<list>[A-Za-z0-9_、,，/和 ]+)|支持的数据类型[:：]?\s*(?P<list2>[A-Z0-9_、, ]+)"
)
_ONLY_ON = re.compile(r"(?<![A-Za-z0-9_])(?P<dtype>[A-Za-z0-9_]+)\s*[（(]\s*仅\s*(?P<product>[^）)]+?)\s*支持\s*[）)]")


_ONLY_DTYPES = re.compile(r"^[A-Z][A-Z0-9_]*(?:\s*[、,，/和]\s*[A-Z][A-Z0-9_]*)*$")


def rule_dtypes(clause: str, ctx: Context) -> list[Constraint]:
    if _ONLY_DTYPES.match(clause):  # a bare list, e.g. a sub-bullet `FLOAT16、FLOAT`
        dtypes, unknown = dtype_list(clause)
        return [_c("dtypes", clause, ctx, values=tuple(dtypes))] if dtypes and not unknown else []
    match = _DTYPES.search(clause)
    if not match or "不支持" in clause[: match.start() + 3]:
        return []
    listed = match.group("list") or match.group("list2") or ""
    tail = clause[match.start() :]
    dtypes, _ = dtype_list(listed + " " + " ".join(m.group("dtype") for m in _ONLY_ON.finditer(tail)))
    if not dtypes:
        return []
    only_on = {vocab.dtype(m.group("dtype")): m.group("product") for m in _ONLY_ON.finditer(tail)}
    general = tuple(d for d in dtypes if d not in only_on)
    out = [_c("dtypes", clause, ctx, values=general)]
    for product_text in dict.fromkeys(only_on.values()):
        pid = vocab.product_id(product_text)
        if pid:
            out.append(_c("dtypes", clause, ctx, values=tuple(dtypes), product=pid))
    return out


_FORMATS = re.compile(r"(?:数据格式|format)(?:仅|只)?(?:支持|要求为|为)\s*(?P<list>[A-Za-z0-9_、,，/ ]+)")


def rule_formats(clause: str, ctx: Context) -> list[Constraint]:
    match = _FORMATS.search(clause)
    formats = format_list(match.group("list")) if match else []
    return [_c("formats", clause, ctx, values=tuple(formats))] if formats else []


_NON_CONTIGUOUS = re.compile(r"(?P<neg>不)?支持非连续")


def rule_non_contiguous(clause: str, ctx: Context) -> list[Constraint]:
    match = _NON_CONTIGUOUS.search(clause)
    if not match:
        return []
    return [_c("non_contiguous", clause, ctx, supported=not match.group("neg"))]


_EMPTY = re.compile(r"(?P<neg>不)?支持(?:传入)?空(?:Tensor|tensor|TensorList|张量)")


def rule_empty(clause: str, ctx: Context) -> list[Constraint]:
    match = _EMPTY.search(clause)
    return [_c("empty_tensor", clause, ctx, supported=not match.group("neg"))] if match else []


_OPTIONAL = re.compile(
    (
        r"可选(?!取值|值|的取值|范围|维度|模式|择|参数值)|(?i:\boptional\b)"
        r"|(?<![不非])支持(?:传入?)?NULL|(?<![不非])可(?:以)?(?:传入?|是|为|设为|设置为)?\s*NULL"
        r"|(?<![不非])可(?:以)?(?:为|传)空(?!Tensor|tensor|张量|TensorList)|^(?:如果|若|当)(?:传入|传)?NULL"
        r"|不需要时(?:为|传入?|可传入?)?\s*NULL|不使用.{0,12}?时(?:可)?(?:传入?|为)\s*NULL"
        r"|(?:需要|需|只能)传入?NULL|预留参数|保留参数|传入?\s*NULL(?:\s*nullptr)?\s*(?:即可|时)"
        r"|若非空|若不为空|(?<!不)非空(?:指针)?时|不为空(?:指针)?时|或(?:者)?\s*NULL"
        r"|默认值?(?:为)?\s*NULL|为\s*NULL\s*(?:时|的情况)"
    ).replace("NULL", r"(?:空指针|nullptr|NULL|None)")
)
_OTHERS = re.compile(r"对应参数|其他参数|相关参数|其余参数")
_NULL_VERB = re.compile(r"\s*(?:传入的?|传|输入|为|是|不为|不是|非|不)?\s*")  # `当biasOptional非空指针时`


def rule_optional(clause: str, ctx: Context) -> list[Constraint]:
    """May be a null pointer: `可选`, `可为空`, `若非空`, `不需要时传nullptr`, `传入sorter时`...
    A clause saying so of another parameter (`当scalesOptional传入空指针时`) is not about this one."""
    match = _OPTIONAL.search(clause)
    if match is None and ctx.subject:
        match = re.search(r"传入\s*" + re.escape(ctx.subject) + r"\s*(?:时|的情况)", clause)
    if match is None:
        return []
    before = clause[: match.start()]
    others = [m for m in _IDENT.finditer(before) if m.group() in ctx.params and m.group() != ctx.subject]
    if match.group().startswith("可选"):
        return [_c("optional", clause, ctx)]  # `在amsgrad参数为false时可选`: about the subject
    if (others and _NULL_VERB.fullmatch(before[others[-1].end() :])) or _OTHERS.search(before):
        return []
    return [_c("optional", clause, ctx)]


# ---------------------------------------------------------------- relations

_BROADCAST_RESULT = re.compile(r"(?i)broadcast(?:之|以)?(?:后|结果)|广播(?:之)?(?:后|结果)")
_BROADCAST = re.compile(r"(?i)broadcast|广播")
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
    found = _peers(clause, _BROADCAST, ctx)
    if found is None or "不支持" in clause:
        return []
    part, peers = found
    if not peers and part != clause:  # `gradOutput、self与gradInput的shape一致且满足broadcast关系`
        part, peers = clause, ctx.named(clause)
    if not peers or re.search(r"@|或|维|轴|第|分别", part):
        return []
    # `与self和gradOutput进行broadcast之后的shape相等`: the result of the peers' broadcast; but
    # `Broadcast后shape与self的shape相等` broadcasts the subject itself (to self).
    result = _BROADCAST_RESULT.search(part)
    if result and ctx.named(part[: result.start()]):
        return [_c("broadcast_result", clause, ctx, params=peers)]
    return [_c("broadcast", clause, ctx, params=peers)]


_SAME = r"(?:保持|完全)?(?:一致|相同|相等)"
_SAME_SHAPE = re.compile(r"shape.{0,30}?" + _SAME + r"|(?:与|和).{0,30}?shape" + _SAME)
_SAME_DTYPE = re.compile(
    r"(?:数据类型|dtype).{0,40}?" + _SAME + r"|^(?:与|和)\s*\S+?(?:保持)?(?:一致|相同)$|^同\s*\S+$"
)
_SAME_FORMAT = re.compile(r"(?:数据格式|format).{0,40}?" + _SAME)


_LIST_SAME_DTYPE = re.compile(
    r"(?:所有|每个)\s*(?:Tensor|tensor|元素)的数据类型(?:需要|需|要|必须)?(?:保持)?(?:一致|相同)"
)


def rule_same(clause: str, ctx: Context) -> list[Constraint]:
    if _LIST_SAME_DTYPE.search(clause):  # within a tensor list: no peer parameter
        return [_c("same_dtype", clause, ctx)]
    if "不" in clause.replace("不为空", "") or _when(clause):
        return []
    out = []
    for kind, pattern in (("same_dtype", _SAME_DTYPE), ("same_shape", _SAME_SHAPE), ("same_format", _SAME_FORMAT)):
        found = _peers(clause, pattern, ctx)
        if found is None or not found[1]:
            continue
        part, peers = found
        if "或" in part or "@" in part or "推导" in part:
            continue  # `与输入input一致或为FLOAT类型`, `与self与mat2推导之后的数据类型一致`
        if kind == "same_shape" and (_NOT_WHOLE.search(part) or _BROADCAST.search(clause)):
            continue  # `shape需要与logits前n-1维保持一致`: part of the shape
        if kind == "same_dtype" and "shape" in part and not re.search("数据类型|dtype", part):
            continue  # `且与gradY的shape一致`
        out.append(_c(kind, clause, ctx, params=peers))
    return out


_CASTABLE = re.compile(r"推导|可转换|互转换|转换为|转换成|(?<!broad)cast", re.I)
_DTYPE_WORD = re.compile(r"数据类型|dtype|类型|[A-Z]{3,}\d*")


def rule_castable(clause: str, ctx: Context) -> list[Constraint]:
    if not _CASTABLE.search(clause) or "不支持" in clause:
        return []
    if "shape" in clause and not _DTYPE_WORD.search(clause):  # `推导的输出out的shape`: shape inference
        return []
    peers = ctx.named(clause)
    dtypes, _ = dtype_list(clause)
    if not peers and not dtypes:
        return []
    return [_c("castable", clause, ctx, params=peers, values=tuple(dtypes))]


# ---------------------------------------------------------------- rank

_RANK_RANGE = re.compile(r"(?P<lo>\d)\s*(?:-|~|到|至)\s*(?P<hi>\d)\s*(?:维|个维度)")
_RANK_EXACT = re.compile(
    r"(?:shape|维度|维数|dim)(?:要求)?(?:仅|只)?(?:支持|为|是|必须为)?\s*"
    r"(?P<n>[0-9一二三四五六七八])\s*维|(?P<d>\d)D(?:的)?(?:Tensor|tensor)"
)
_RANK_MAX = re.compile(
    r"(?:维度|维数|shape维度|dim)(?:需要|要求)?"
    r"(?:不超过|不大于|小于等于|最大(?:为|支持)?)\s*(?P<n>\d+)"
    r"|(?:不超过|不大于|小于等于|最多)\s*(?P<m>\d+)\s*维"
)
_RANK_MENTION = re.compile(r"(?<![\d.])(?P<n>[0-9一二三四五六七八])\s*(?:维|D(?![A-Za-z]))")
_ALTERNATIVES = re.compile(r"或者?|/(?=\s*\d\s*D)|、(?=\s*[0-9一二三四五六七八]\s*维)")


def rule_rank(clause: str, ctx: Context) -> list[Constraint]:
    if _when(clause) or _AXIS_INTERVAL.search(clause):
        return []
    if _ALTERNATIVES.search(clause):
        # `要求是一个2D/3D的Tensor`, `shape为3维(N, S1, S2)、4维(...)或5维(...)`: every
        # alternative must state a rank, and the rule is their span; `一维或()` is no rule.
        parts = _ALTERNATIVES.split(clause)
        mentions = list(_RANK_MENTION.finditer(clause))
        ranks = [_int(m.group("n")) for m in mentions]
        if len(ranks) < 2 or not all(_RANK_MENTION.search(p) for p in parts):
            return []
        if not _about_subject(clause[: mentions[0].start()], ctx):
            return []
        values = tuple(sorted(set(ranks)))
        return [_c("rank", clause, ctx, min=min(ranks), max=max(ranks), values=values if len(values) > 1 else ())]
    for pattern in (_RANK_RANGE, _RANK_MAX, _RANK_EXACT):
        if (m := pattern.search(clause)) is None:
            continue
        before = clause[: m.start()]
        if ctx.named(before) or not _about_subject(before, ctx) or re.search(r"\.shape|\.dim|元素个数", before):
            return []  # `输入x的shape必须为2维`, `其中B支持0到6个维度`: about something else
        if pattern is _RANK_RANGE:
            return [_c("rank", clause, ctx, min=int(m.group("lo")), max=int(m.group("hi")))]
        if pattern is _RANK_MAX:
            return [_c("rank", clause, ctx, min=0, max=int(m.group("n") or m.group("m")))]
        if "其中" in clause:
            return []
        n = _int(m.group("n") or m.group("d"))
        return [_c("rank", clause, ctx, min=n, max=n)]
    return []


# ---------------------------------------------------------------- axis

# `[-self.dim(), self.dim()-1]`, `[-selfRef的维度数量, selfRef的维度数量-1]`, `[-N, N-1]`,
# `[-len(x.shape), len(x.shape))`: the range of a dimension index.
_RANK_EXPR = (
    r"(?:len\(\s*[A-Za-z_][A-Za-z0-9_]*\.shape\s*\)|[A-Za-z_][A-Za-z0-9_]*(?:\.(?:dim|dimNum|ndim|rank)(?:\(\))?)?"
    r"(?:的(?:shape的?)?(?:维度数量|维度数|维数|维度))?)"
)
_AXIS_INTERVAL = re.compile(
    r"(?P<lo_b>[\[(（])\s*-\s*(?P<lo>" + _RANK_EXPR + r")\s*[,，]\s*(?P<hi>" + _RANK_EXPR + r")"
    r"\s*(?:(?P<minus>-\s*1)\s*)?(?P<hi_b>[\])）])"
)
_RANK_OF = re.compile(
    r"^(?:len\(\s*(?P<a>[A-Za-z_][A-Za-z0-9_]*)\.shape\s*\)|(?P<b>[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:dim|dimNum|ndim|rank)(?:\(\))?"
    r"|的(?:shape的?)?(?:维度数量|维度数|维数|维度)))$"
)
# A value with its own meaning (`传入1000表示不指定维度`) or a parameter that is sometimes
# ignored: the dimension range is not the whole rule.
_AXIS_EXCEPTION = re.compile(r"(?:传入|取|为)\s*-?\d+\s*(?:时)?(?:表示|代表)|忽略|不使用|无效|不生效")


def _rank_tensor(expr: str, ctx: Context) -> str | None:
    """The tensor whose rank `expr` is: `self.dim()`, `x的维度数`, or a symbol the statement
    defines (`N为self的维度`, `其中 rank 是输入Tensor self 的维度`)."""
    if m := _RANK_OF.match(expr):
        name = m.group("a") or m.group("b")
        return name if name in ctx.params else None
    if not _IDENT.fullmatch(expr):
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
def _axis_excepted(statement: str) -> bool:
    return bool(_AXIS_EXCEPTION.search(statement))


def axis_interval(text: str, ctx: Context) -> str | None:
    """The tensor whose dimensions `text`'s index interval covers, when the interval is within
    [-rank, rank-1] (`[-N, N]` allows more: no reading)."""
    m = _AXIS_INTERVAL.search(text)
    if m is None:
        return None
    lo, hi = m.group("lo"), m.group("hi")
    if lo != hi or (m.group("hi_b") == "]" and not m.group("minus")):
        return None
    return _rank_tensor(lo, ctx)


def rule_axis(clause: str, ctx: Context) -> list[Constraint]:
    """`取值范围为[-self.dim(), self.dim()-1]`: the value indexes a dimension of that tensor."""
    if _when(clause) or "或" in clause or _axis_excepted(ctx.statement or clause):
        return []
    scope = replace(ctx, statement=ctx.statement or clause)
    tensor = axis_interval(clause, scope)
    return [_c("axis", clause, ctx, params=(tensor,))] if tensor and tensor != ctx.subject else []


# ---------------------------------------------------------------- values

_INTEGER = r"-?\d++(?!\.\d)"  # `1.75` is no list of 1 and 75
_VALUES = r"(?P<vals>(?:INT|true|false)(?:\s*(?:、|,|和|或者|或|及)\s*(?:INT|true|false))*)".replace("INT", _INTEGER)
_ENUM_NAMED = re.compile(r"(?<![\d.])(?P<v>-?\d++)\s*+(?:时为|[（(]\s*)['\"]?(?P<label>[A-Za-z_]+)")
_ENUM_LIST = re.compile(
    r"(?:取值(?:为|是)?|(?:仅|只)支持(?:取值为?)?|支持取值)\s*"
    r"(?P<vals>INT(?:\s*(?:[、,，|]|和|或者|或)\s*INT)+)".replace("INT", _INTEGER)
)


_ENUM_ITEM_LINE = re.compile(r"^[（(]?(?P<v>-?\d+)[)）]?\s*[:：]\s*\S")
_ENUM_SET = re.compile(r"(?:范围|取值|支持)(?:为|是)?\s*\{(?P<vals>\s*-?\d+(?:\s*[,，]\s*-?\d+)*\s*)\}")
# `仅支持0和1`, `仅支持默认值0和2147483647`, `当前只支持传0`, `仅支持false`: the whole list.
_ENUM_ONLY = re.compile(
    r"(?:仅|只)(?:支持|能|可)(?:取|传入?|输入|设置为?|配置为?)?(?:默认值|值为?|取值为?)?\s*" + _VALUES
)
# What may follow such a list: a label (`0（FP32）`, `1('tanh')`), an end, or a count.
_ENUM_ONLY_END = re.compile(r"\s*(?:$|[（()）]|两种|三种|四种|\d种|的(?:场景|情况)|[，,。；;])")
_SIZED = re.compile(r"长度|个数|(?<![A-Za-z])(?i:size)(?![A-Za-z])|元素数|维度数|len\(|数量")


def _scalar(token: str) -> int | bool:
    return token == "true" if token in ("true", "false") else int(token)


def _list_values(text: str) -> tuple[int | bool, ...]:
    return tuple(dict.fromkeys(_scalar(v) for v in re.findall(r"-?\d+|true|false", text)))


def rule_enum_item(clause: str, ctx: Context) -> list[Constraint]:
    """One item of a list of documented values: `0：KEEP_DTYPE`, `sparseMode为0时，...` (the
    value exists, whatever the situation the item describes)."""
    item = _ENUM_ITEM_LINE.match(clause)
    if item is None and ctx.subject:
        item = re.match(re.escape(ctx.subject) + r"\s*(?:为|=|取)\s*(?P<v>-?\d+)\s*时", clause)
    return [_c("enum", clause, ctx, values=(int(item.group("v")),))] if item else []


def rule_enum(clause: str, ctx: Context) -> list[Constraint]:
    """Allowed values: an enumeration, a `{2, 34}` set, `仅支持0和1`, or one item (`0：KEEP_DTYPE`,
    `sparseMode为0时，...`) of a list of documented values."""
    if typed := rule_enum_item(clause, ctx):
        return typed
    if not _value_rule_allowed(clause):
        return []
    if m := _ENUM_SET.search(clause):
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    if (m := _ENUM_ONLY.search(clause)) and _ENUM_ONLY_END.match(clause, m.end()):
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    labelled = _ENUM_NAMED.findall(clause)
    if len(labelled) >= 2 or ("枚举" in clause and labelled):
        values = tuple(dict.fromkeys(int(v) for v, _ in labelled))
        return _enum_on(clause, _ENUM_NAMED.search(clause).start(), values, ctx)  # type: ignore[union-attr]
    if m := _ENUM_LIST.search(clause):
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    return []


def _enum_on(clause: str, at: int, values: tuple[int | bool, ...], ctx: Context) -> list[Constraint]:
    """The enum, unless what precedes makes the numbers something else than the subject's
    values (`长度为1或2`, `Q_S仅支持1`)."""
    before = clause[:at]
    if not values or _SIZED.search(before) or not _about_subject(before, ctx):
        return []
    return [_c("enum", clause, ctx, values=values)]


_CLAMP = re.compile(
    r"当\s*\S{1,20}?\s*(?P<op>小于|大于|<|>)\s*(?P<bound>" + _NUM + r")\s*时\s*[，,]?\s*"
    r"(?:按|取|视为|当作)\s*(?P<to>" + _NUM + r")"
)
_INTERVAL = re.compile(r"(?P<lo_b>[\[(（])\s*(?P<lo>" + _NUM + r")\s*[,，]\s*(?P<hi>" + _NUM + r")\s*(?P<hi_b>[\])）])")
_BOUND = re.compile(r"(?P<op>大于等于|小于等于|不小于|不大于|大于|小于|≥|≤|>=|<=|>|<)\s*(?P<n>" + _NUM + r")(?!\s*维)")
_NON_NEGATIVE = re.compile(r"非负")
# Words that make a bound a requirement (`取值范围`, `必须`, `需要…大于`, `值应>0`).
_REQUIRE = re.compile(r"取值|范围|仅|只|支持|必须|需|要求|应|不能|不可|不得|不允许|值|须|限制|保证")
_FILLER = re.compile(r"[\s且并而的为是（(]|取值|数值|参数|该")
# After a bound: a condition or a description follows (`大于0时表示Active场景`, `diagonal > 0表示…`).
_BOUND_THEN = re.compile(r"\s*(?:时|表示|代表|的(?:场景|情况))")


def rule_clamp(clause: str, ctx: Context) -> list[Constraint]:
    """`当λ小于0时，按0计算`: a value outside the bound is normalised, not rejected."""
    if m := _CLAMP.search(clause):
        bound = float(m.group("bound"))
        low = m.group("op") in ("小于", "<")
        return [_c("clamp", clause, ctx, min=bound if low else None, max=None if low else bound)]
    return []


def _required(before: str, ctx: Context) -> bool:
    """A bound is stated as a requirement on the subject: a requirement word precedes it, or
    nothing but the subject's name does (`大于0`, `k不大于1024`)."""
    if not _about_subject(before, ctx):
        return False
    rest = before.replace(ctx.subject, "") if ctx.subject else before
    return bool(_REQUIRE.search(before) or not _FILLER.sub("", rest))


def rule_range(clause: str, ctx: Context) -> list[Constraint]:
    """A value range, only where the clause requires one of the subject's value: not in a
    condition, a description, a formula, a version note, nor of a size or another quantity;
    not either-or (`为0或者大于等于1`, `-1.0或>0.0`: a union no range holds)."""
    if _CLAMP.search(clause) or not _value_rule_allowed(clause) or "或" in clause:
        return []
    products = _products_of(clause)
    if products is None:
        return []
    if not products:
        return _range(clause, ctx)
    rest = clause[_PRODUCT_HEAD.match(clause).end() :]  # type: ignore[union-attr]
    return [c.model_copy(update={"product": pid, "text": clause}) for c in _range(rest, ctx) for pid in products]


def _range(clause: str, ctx: Context) -> list[Constraint]:
    if "范围" in clause and (m := _INTERVAL.search(clause)):
        before = clause[: m.start()]
        if _SIZE_OF.search(before) or not _about_subject(before, ctx):
            return []
        return [
            _c(
                "range",
                clause,
                ctx,
                min=float(m.group("lo")),
                max=float(m.group("hi")),
                min_inclusive=m.group("lo_b") == "[",
                max_inclusive=m.group("hi_b") == "]",
            )
        ]
    if _SIZE_OF.search(clause) or ctx.named(clause):
        return []  # a bound on a size, or relating several parameters: not a value range
    if m := _BOUND.search(clause):
        before = clause[: m.start()]
        if _BOUND_THEN.match(clause, m.end()) or not _required(before, ctx):
            return []
        op, n = m.group("op"), float(m.group("n"))
        if re.search(r"(?:不能|不可|不得|不应|不允许)\s*$", before):
            op = {"大于": "小于等于", "小于": "大于等于", "大于等于": "小于", "小于等于": "大于"}.get(op, op)
        if op in ("大于等于", "不小于", "≥", ">="):
            return [_c("range", clause, ctx, min=n)]
        if op in ("大于", ">"):
            return [_c("range", clause, ctx, min=n, min_inclusive=False)]
        if op in ("小于等于", "不大于", "≤", "<="):
            return [_c("range", clause, ctx, max=n)]
        return [_c("range", clause, ctx, max=n, max_inclusive=False)]
    if (m := _NON_NEGATIVE.search(clause)) and _about_subject(clause[: m.start()], ctx):
        return [_c("range", clause, ctx, min=0)]
    return []


def rule_value_product(clause: str, ctx: Context) -> list[Constraint]:
    """Allowed values on some products only (`Atlas 推理系列产品只支持1('tanh')`)."""
    products = _products_of(clause)
    if not products:
        return []
    rest = clause[_PRODUCT_HEAD.match(clause).end() :]  # type: ignore[union-attr]
    return [c.model_copy(update={"product": pid, "text": clause}) for c in rule_enum(rest, ctx) for pid in products]


def rule_enum_general(clause: str, ctx: Context) -> list[Constraint]:
    """Allowed values, on every product: a clause restricted to some products is read by
    `rule_value_product`."""
    return [] if _products_of(clause) != () else rule_enum(clause, ctx)


# (rule, trigger): a rule only reads clauses its trigger finds, which keeps classifying cheap.
PARAM_RULES: list[tuple[Rule, re.Pattern[str]]] = [
    (rule_dtypes, re.compile(r"数据类型|dtype|[A-Z][A-Z0-9_]{2}")),
    (rule_formats, re.compile(r"格式|format")),
    (rule_non_contiguous, re.compile("连续")),
    (rule_empty, re.compile("空")),
    (rule_optional, re.compile(r"可选|空|nullptr|NULL|None|预留|保留|传入|optional", re.I)),
    (rule_broadcast, re.compile(r"broadcast|广播", re.I)),
    (rule_same, re.compile(r"一致|相同|相等|同")),
    (rule_castable, re.compile(r"推导|转换|cast", re.I)),
    (rule_axis, re.compile(r"\[\s*-|[(（]\s*-")),
    (rule_rank, re.compile(r"维|\dD|dim")),
    (rule_enum_general, re.compile(r"\d|true|false")),
    (rule_value_product, re.compile("产品")),
    (rule_clamp, re.compile("当")),
    (rule_range, re.compile(r"\d|非负|正")),
]
# A conditional clause holds only sometimes: it may still say the parameter may be null, that a
# value is clamped, or name one documented value (`sparseMode为0时，...`).
CONDITIONAL_RULES = [PARAM_RULES[4], (rule_enum_item, re.compile(r"\d")), (rule_clamp, re.compile("当"))]

# Clauses that describe rather than constrain (kept in the description, not counted).
_DESCRIPTIVE = re.compile(
    r"^(?:Device侧|Host侧|公式中|表示|返回|输入|输出|计算|对应|作为|指定|在Device侧"
    r"|op执行器|反向传播|正向|用于|即)|侧的acl|公式中的"
)


_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[A-Za-z0-9_])|(?<=[A-Za-z0-9_])\s+(?=[\u4e00-\u9fff])")
_OPEN, _CLOSE = "([（【{", ")]）】}"


def _split_top_level(text: str) -> list[str]:
    """Split at clause punctuation outside brackets (`[-1, 8)` is one value)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and ch in "，,；;。":
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [q for p in parts for q in _AND.split(p)]


_CONDITIONAL_TEXT = re.compile(
    r"(?:^|[，,；;])\s*(?:当|若|如果|在)[^，,；;]*?(?:时|的情况下|场景下)|^(?:当(?!前)|若|如果)"
    r"|(?<![不存])在[^，,；;]{0,20}?(?:的情况下|场景下)|[<>=]\s*-?\d+\s*时"
    # `out的数据类型为INT4时，x的shape与out的shape不一致`, `perToken场景下，…`: a situation first
    r"|^[^，,；;]{1,60}?(?:时|场景下|情况下)[，,]|^[^，,；;]{1,30}?(?:场景|情况|模式)下"
)


def is_conditional(text: str) -> bool:
    """A rule that holds only in some situation (当…时, 如果…, 在…场景下)."""
    return bool(_CONDITIONAL_TEXT.search(text))


def clauses(text: str) -> list[str]:
    """A statement split into clauses; a leading condition (当…时) stays with its consequence."""
    parts = [p.strip() for p in _split_top_level(text) if p and p.strip()]
    out: list[str] = []
    for part in parts:
        if out and out[-1].endswith("时") and (_CONDITION_HEAD.match(out[-1]) or is_conditional(out[-1])):
            out[-1] = out[-1] + "，" + part
        else:
            out.append(part)
    return out


_ENUM_ITEM = re.compile(r"取\s*(?P<v>-?\d+)\s*时(?:为|表示)?\s*['\"‘“]?(?P<label>[A-Za-z_]*)")
_SENTENCE_END = re.compile(r"[。；;]")


def _enum_span(statement: str, ctx: Context) -> list[tuple[int, int, Constraint]]:
    """The stretch of a statement enumerating values (`取0时为'none'，…取2时为'sum'`), with
    its enum constraint; none when there is no such stretch."""
    items = list(_ENUM_ITEM.finditer(statement))
    if len(items) < 2:
        return []
    head = statement.rfind("。", 0, items[0].start()) + 1
    tail_end = _SENTENCE_END.search(statement, items[-1].end())
    end = tail_end.end() if tail_end else len(statement)
    values = tuple(dict.fromkeys(int(m.group("v")) for m in items))
    return [(head, end, _c("enum", statement[head:end].strip(), ctx, values=values))]


def classify(statement: str, ctx: Context, *, descriptive_ok: bool = False) -> tuple[list[Constraint], list[str]]:
    """Typed constraints of one statement, and the clauses it leaves as description.

    With `descriptive_ok`, clauses that read as description are returned as such instead of
    as unclassified "text" constraints.
    """
    if span := read(_enum_span, statement, ctx):
        [(head, end, enum)] = span
        before = classify(statement[:head], ctx, descriptive_ok=descriptive_ok)
        after = classify(statement[end:], ctx)
        return before[0] + [enum] + after[0], before[1]
    found: list[Constraint] = []
    description: list[str] = []
    if not ctx.statement:
        ctx = replace(ctx, statement=statement)
    situation = False  # the clause before holds only in some situation (`per_tensor模式下…`)
    for clause in clauses(statement):
        # A conditional clause (当…时, 如果…) holds only sometimes: only a clamp, an optional
        # pointer or a documented value read it; so does one that continues it (`，且…`).
        continued = situation and bool(_CONTINUATION.match(clause))
        conditional = continued or bool(_CONDITION_HEAD.match(clause) or is_conditional(clause))
        rules = CONDITIONAL_RULES if conditional else PARAM_RULES
        situation = continued or _when(clause)
        key = _CJK_SPACE.sub("", clause)  # "空 Tensor" reads as "空Tensor"; the text stays as written
        typed = [
            c.model_copy(update={"text": clause})
            for rule, trigger in rules
            if trigger.search(key)
            for c in read(rule, key, ctx)
        ]
        if typed:
            found.extend(typed)
        elif found and found[-1].kind == "dtypes" and (more := _dtype_continuation(clause)):
            # `数据类型支持fp16，fp32，bf16`: the list goes on past the clause's comma
            last = found[-1]
            found[-1] = last.model_copy(update={"values": tuple(dict.fromkeys(last.values + more))})
        elif descriptive_ok and (_DESCRIPTIVE.search(clause) or not found):
            description.append(clause)
        else:
            found.append(_c("text", clause, ctx))
    return found, description


def _dtype_continuation(clause: str) -> tuple[str, ...]:
    """The dtypes of a clause that is nothing but dtype names (any case), else ()."""
    tokens = _DTYPE_TOKEN.findall(clause)
    if not tokens or _DTYPE_TOKEN.sub("", clause).strip(" 、,，/和及") != "":
        return ()
    names = [vocab.dtype(t) for t in tokens]
    return tuple(n for n in names if n) if all(names) else ()


# ---------------------------------------------------------------- table cells


def dtype_cell(cell: str, ctx: Context) -> list[Constraint]:
    """The 数据类型 column: a dtype list, a same-as reference, or prose."""
    cell = re.sub(r"<sup>[^<]*</sup>", "", cell).strip().rstrip("。")
    if cell in ("", "-", "/", "—"):
        return []
    out: list[Constraint] = []
    if ctx.named(cell) and re.search(r"一致|相同|同\s*\w", cell):
        out.append(_c("same_dtype", cell, ctx, params=ctx.named(cell)))
    typed = rule_dtypes("数据类型支持" + cell, ctx)
    if typed:
        out.extend(_c("dtypes", cell, ctx, values=c.values, product=c.product) for c in typed)
    return out


def format_cell(cell: str, ctx: Context) -> list[Constraint]:
    cell = cell.strip().rstrip("。")
    if cell in ("", "-", "/"):
        return []
    if ctx.named(cell) and re.search(r"一致|相同|同", cell):
        return [_c("same_format", cell, ctx, params=ctx.named(cell))]
    formats = format_list(cell)
    return [_c("formats", cell, ctx, values=tuple(formats))] if formats else [_c("text", cell, ctx)]


_SHAPE_RANGE = re.compile(r"^(?P<lo>\d+)\s*(?:[-~至到])\s*(?P<hi>\d+)(?:\s*维)?$")
_SHAPE_LIST = re.compile(r"^\d+(?:\s*(?:、|,|，|或)\s*\d+)*(?:\s*维)?$")


def shape_cell(cell: str, ctx: Context) -> list[Constraint]:
    cell = cell.strip().strip("`").rstrip("。")
    if cell in ("", "-", "/", "—"):
        return []
    if m := _SHAPE_RANGE.match(cell):
        return [_c("rank", cell, ctx, min=int(m.group("lo")), max=int(m.group("hi")))]
    if _SHAPE_LIST.match(cell):
        ranks = [int(n) for n in re.findall(r"\d+", cell)]
        values = tuple(ranks) if len(ranks) > 1 else ()
        return [_c("rank", cell, ctx, min=min(ranks), max=max(ranks), values=values)]
    typed = rule_rank(cell, ctx)
    return typed or [_c("text", cell, ctx)]


def non_contiguous_cell(cell: str, ctx: Context) -> list[Constraint]:
    mark = cell.strip().rstrip("。")
    if mark in ("√", "✓", "✔", "支持"):
        return [_c("non_contiguous", cell, ctx, supported=True)]
    if mark in ("×", "x", "X", "✗", "不支持"):
        return [_c("non_contiguous", cell, ctx, supported=False)]
    if mark in ("", "-", "/", "—", "不涉及"):
        return []
    return [_c("text", cell, ctx)]


# ---------------------------------------------------------------- error conditions

_NULL = re.compile(r"(?<!不为)(?<!不是)(?<!非)(?:空指针|nullptr)|(?<!不)(?<!非)为空(?!tensor|Tensor|张量)")
_EMPTY_BAD = re.compile(r"(?<!不为)(?<!不是)(?<!非)(?:空Tensor|空tensor|空张量)|元素个数为0|shape中存在0|任意维度为零")
_PRECONDITION = re.compile(r"(?:时|的时候|场景下|情况下)$")
_JOINT_NULL = re.compile(r"同(?:时)?为空|都为空|均为空")  # `p与k同为空指针`: not each on its own
_DTYPE_MISMATCH = re.compile(
    r"(?:数据类型|dtype|类型).{0,16}?(?:不一致|不相同|不同|不相等|不匹配|不一样)"
    r"|(?:数据类型|dtype).{0,10}?(?:需要|需|要|必须)?(?:与|和).{0,30}?(?:一致|相同)"
)
_DTYPE_BAD = re.compile(
    r"(?:数据类型|dtype).{0,24}?(?:不在|不支持|非法|不满足|不属于|不为|不是|不符合|不合法|不受支持)|不是支持的数据类型"
    r"|(?:type|类型)不匹配"
)
_FORMAT_MISMATCH = re.compile(r"(?i)(?:数据格式|格式|format).{0,12}?不一致")
_FORMAT_BAD = re.compile(r"(?i)(?:数据格式|格式|format).{0,12}?(?:不在|不支持|不是|不为|不满足|不正确)|私有格式")
_RANK_BAD = re.compile(
    r"(?:维度|维数|rank|dim|shape长度|shape维度)"
    r".{0,12}?(?:大于|超过|超出|小于|不等于|不为|不是|不在|不一致)"
    r"|(?:大于|超过|超出)\s*\d+\s*维|(?:不是|不为|非)\s*\d\s*(?:[-~]\s*\d\s*)?(?:维|D)|维度高于\s*\d"
)
# "维度上的size大于0" is not about the rank, nor is "dim的取值范围".
_SIZE_WORDS = re.compile(
    r"(?<![A-Za-z])(?i:size)(?![A-Za-z])|大小|元素|长度|除.{0,8}(?:外|以外)|轴|取值|维度的?值|某|第\S{0,3}维"
)
_RANK_LIMIT = re.compile(r"(?<!不)(?:大于|超过|超出)\s*(\d{1,2})(?![\d.])")
_SHAPE_MISMATCH = re.compile(r"(?i)(?:shape|size|尺寸|大小).{0,25}?(?:不一致|不相同|不同|不相等|不匹配|不等于|不一样)")
_SHAPE_PROSE = re.compile(
    r"(?i)shape.{0,20}?(?:不在|不支持|非法|超过|错误|不对|不满足|不符合|不正确|不为|不是)"
    r"|元素个数|元素数量|Tensor数量|个数|长度|维(?:度)?.{0,20}?(?:不相等|不一致|不等于|不同)|相乘条件|整除|通道数"
    r"|(?:size|轴).{0,10}?(?:为0|大于|小于)"
)
# A shape compared with a computed, required or partial one: no relation between parameters.
_SHAPE_COMPUTED = re.compile(r"推导|计算|实际|要求|指定|定义|语义|拆分|\[")
_VALUE_PROSE = re.compile(
    r"取值|值.{0,10}?(?:大于|小于|超出|不在|不满足|不为|不是|非法)|范围|越界|超过|超出|不属于|不是.{0,20}之一"
    r"|(?:小于|大于|不大于|不小于|等于|超过)\s*-?\d|[<>!]=?\s*-?\d|不是\s*(?:true|false)|不为\s*(?:true|false)"
    r"|自然数|正整数|输入不对|不支持传入|不支持的|当前支持的值|无效值|负数|倍数|偶数|奇数|之一|[<>!]=|\s[<>]\s"
)
_CONTIGUOUS_BAD = re.compile(r"非连续|连续性|不连续")
_PRODUCT = re.compile(r"产品|平台|处理器|芯片|SocVersion|SoC", re.I)
_INTERNAL = re.compile(r"内部|npu runtime|aclOpExecutor失败|tiling|Tiling|异常")
_DOCUMENTED = re.compile(r"参数说明|约束说明|不满足.{0,8}(?:约束|要求|条件|限制)|不符合.{0,6}(?:约束|要求)|上述")
# An index outside a tensor's dimensions: `dim值不在self维度范围内`, `axis指定的轴超出输入x的维度数`.
_AXIS_OUT = re.compile(
    r"(?:不在|超出了?|超过|越界)[^，,；;]{0,24}?(?:维度范围|维度数|的维度|维度|dim最大值|\.dim|rank)"
)
# Tensors related within one list argument (`x中的Tensor的数据类型不一致`).
_WITHIN_LIST = re.compile(r"中的?\s*(?:Tensor|tensor)|中各个|中每个|中所有|所有(?:Tensor|tensor)")
_RELATIONS = ("same_shape", "same_dtype", "same_format", "broadcast", "broadcast_result")
_SHAPE_RELATIONS = ("same_shape", "broadcast", "broadcast_result")
# What makes a clause of a condition a statement of its own (a list part `x1、x2` is not).
_PREDICATE = re.compile(
    r"不一致|不相同|不同|不相等|不匹配|不等于|不一样|不满足|无法|不能|不可|不支持|不在|不是|不为|不属于|不符合"
    r"|超过|超出|大于|小于|高于|越界|为空|空指针|nullptr|非法|错误|为0|存在0|非连续|不连续|整除|偶数"
)
_BRACKETED = re.compile(
    r"[（(][^（()）]*[）)]|参数|输入|输出|传入的?|以及|和|与|及|的|数据类型|数据格式|格式|维度|类型"
)
_NAME_LIST = re.compile(r"^[\sA-Za-z0-9_、/.*\[\]]*$")
_PRONOUN = re.compile(r"^\s*(?:其|两者|二者|它们)")
_CONTINUES = re.compile(r"^\s*(?:其|两者|二者|它们|且|并且|也|并|而|数据类型|数据格式|shape|dtype)")
# A relation of part of the shapes (`batch1和batch2的第一维度…不能做broadcast`).
_PART_OF_SHAPE = re.compile(r"第|轴|某|[前后]\S{0,3}维|最后一维|维度?上")


def condition_clauses(condition: str, names: Iterable[str] = ()) -> list[str]:
    """A condition split into its statements: at `，`, `；` and `或` outside brackets, where each
    side states something of its own (`input与inputGrad的shape不一致，或grid与gridGrad的shape
    不一致`: two statements; `x1、x2或out的数据类型不一致`, `self的维数小于1或超过8`: one). A
    statement after `或` names parameters of its own (`names`)."""
    names = tuple(names)
    pieces: list[tuple[str, str]] = []  # (the separator before, text)
    depth, start, sep, i = 0, 0, "", 0
    while i < len(condition):
        ch = condition[i]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and (ch in "，,；;" or ch == "或"):
            width = 2 if condition.startswith("或者", i) else 1
            if condition[start:i].strip():
                pieces.append((sep, condition[start:i]))
                sep = ""
            sep, i = sep[-3:] + condition[i : i + width], i + width  # `，或`: one separator (kept short)
            start = i
            continue
        i += 1
    pieces.append((sep, condition[start:]))
    # Statements as lists of parts (joined once: a long condition is not copied per piece), each
    # with whether it ends in a list of parameters that states nothing yet (`…且scale`).
    out: list[list[str]] = []
    out_open = False
    pending: list[str] = []
    pending_sep, pending_open = "", False
    for sep, text in pieces:
        words = [m for m in _IDENT.finditer(text) if m.group() in names]
        opens = bool(words) and not _PREDICATE.search(text, words[-1].end())
        stated = bool(_PREDICATE.search(text))
        target_open = pending_open if pending else out_open
        joined = "或" in sep and not _PRONOUN.match(text)  # `，或者两者shape不一致`: a statement
        if joined and (pending or out) and (not words or target_open):
            # `数据类型或数据格式不在支持的范围之内`, `小于1或超过8`, `且scale或shift不为空`: one statement
            if pending:
                pending += [sep, text]
                pending_open = opens if words else pending_open and not stated
                if stated:
                    out.append(pending)
                    out_open, pending = pending_open, []
            else:
                out[-1] += [sep, text]
                out_open = opens if words else out_open and not stated
            continue
        if stated:
            out.append([*pending, sep, text] if pending else [text])
            out_open, pending = opens, []
        elif pending:
            pending += [sep, text]
            pending_open = opens if words else pending_open
        elif out and not _NAME_LIST.match(_BRACKETED.sub("", text)):
            out[-1] += [sep, text]  # the tail of the statement before: `不能向self或者target做broadcast`
            out_open = opens if words else out_open
        else:
            pending, pending_sep, pending_open = [text], sep, opens  # names the next statement is about
    if pending and out:
        out[-1] += [pending_sep, *pending]
    elif pending:
        out.append(pending)
    statements = ("".join(parts).strip(" ，,；;") for parts in out)
    return [c for c in statements if c] or [condition]


_SITUATION = re.compile(r"(?:求解|计算|当|若|如果|需要)\s*$")


def _in_a_situation(condition: str, name: str) -> bool:
    """`…、求解gradInput时是空指针`: the parameter is null-checked only in some situation."""
    mentions = re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", condition, re.ASCII)
    return any(_SITUATION.search(condition[: m.start()]) for m in mentions)


_ELEMENT_COUNT = re.compile(r"元素个数|元素数量|shape ?size", re.I)  # a count, not a shape


def condition_checks(
    condition: str, named: tuple[str, ...], pointer_params: tuple[str, ...], tensor_params: tuple[str, ...]
) -> list[Check]:
    """The typed checks an error condition stands for.

    `named` are the parameters the condition mentions; a condition that names none applies
    to every pointer (null checks) or tensor parameter (dtypes, formats, rank...), as documents
    mean it, but relates none. A condition of several statements gives the checks of each, on
    that statement's parameters (`input与inputGrad的shape不一致，或grid与gridGrad的shape不一致`:
    two same_shape pairs). Within a family the most specific reading wins (broadcast over same
    shape, castable over same dtype over supported dtypes); prose-only kinds are the last resort.
    """
    subjects = named or tensor_params
    if "@" in condition:  # about a computed result (batch1@batch2): prose only
        return [Check(kind="shape", params=subjects)]
    found: list[Check] = []
    previous: tuple[str, ...] = ()
    statements = condition_clauses(condition, named)
    for k, clause in enumerate(statements):
        own = tuple(names_in(clause, named, {})) if named else ()
        if named and (not own or _CONTINUES.match(clause) or (_BROADCAST_RESULT.search(clause) and len(own) < 2)):
            own = tuple(dict.fromkeys(previous + own))  # `或者shape的维度大于8维`: the same parameters
        previous = own
        if k + 1 < len(statements) and _PRECONDITION.search(clause):
            continue  # `y1Out的数据类型不为DT_INT32时，…`: the situation, not the error
        found += [c for c in _clause_checks(clause, own, pointer_params, tensor_params) if c not in found]
    broadcast = [set(c.params) for c in found if c.kind in ("broadcast", "broadcast_result")]
    found = [c for c in found if c.kind != "same_shape" or not any(set(c.params) <= b for b in broadcast)]
    if found:
        return found
    for kind, pattern in (
        ("product", _PRODUCT),
        ("internal", _INTERNAL),
        ("constraints", _DOCUMENTED),
        ("shape", _SHAPE_PROSE),
        ("shape", _SHAPE_MISMATCH),
        ("value", _VALUE_PROSE),
    ):
        if pattern.search(condition):
            return [Check(kind=kind, params=named if kind in ("value", "constraints") else subjects)]  # type: ignore[arg-type]
    return []


def _clause_checks(
    clause: str, named: tuple[str, ...], pointer_params: tuple[str, ...], tensor_params: tuple[str, ...]
) -> list[Check]:
    """The typed checks of one statement of a condition, on the parameters it names."""
    subjects = named or tensor_params
    tensors = tuple(p for p in named if p in tensor_params) if named else tensor_params
    found: list[Check] = []

    def add(kind: str, params: tuple[str, ...] = subjects, **extra: object) -> None:
        found.append(Check(kind=kind, params=params, **extra))  # type: ignore[arg-type]

    def relate(kind: str) -> bool:
        """A relation needs two tensors of its own (or a list's tensors among themselves);
        a shape relation short of them is a prose-only shape rule."""
        related = tuple(p for p in named if p in tensor_params)
        if len(related) >= 2 or (len(related) == 1 and _WITHIN_LIST.search(clause)):
            add(kind, related)
            return True
        if kind in _SHAPE_RELATIONS:
            add("shape", subjects)
            return True
        return False

    if _NULL.search(clause) and not _JOINT_NULL.search(clause):
        if required := tuple(n for n in named or pointer_params if not _in_a_situation(clause, n)):
            add("not_null", required)
    elif _EMPTY_BAD.search(clause):
        add("empty_tensor")
    if _BROADCAST.search(clause):
        broadcast_kind = "broadcast_result" if _BROADCAST_RESULT.search(clause) or "一致" in clause else "broadcast"
        if _PART_OF_SHAPE.search(clause) or _ELEMENT_COUNT.search(clause):
            add("shape")  # `batch1和batch2的第一维度…不能做broadcast`, `元素个数不等于…广播后的shapesize`
        else:
            relate(broadcast_kind)
    elif _SHAPE_MISMATCH.search(clause):
        if _SHAPE_PROSE.search(clause) or _DOCUMENTED.search(clause) or _SIZE_WORDS.search(clause):
            pass  # a size or part of a shape: prose
        elif _SHAPE_COMPUTED.search(clause):
            add("shape")
        else:
            relate("same_shape")
    for kind, pattern in (("castable", _CASTABLE), ("same_dtype", _DTYPE_MISMATCH), ("dtypes", _DTYPE_BAD)):
        if not pattern.search(clause):
            continue
        if kind == "castable" and "shape" in clause and not _DTYPE_WORD.search(clause):
            continue  # `通过公式推导出的out的shape`: shape inference, not dtypes
        if kind != "same_dtype":
            add(kind)
        elif not relate(kind):
            continue  # `dtype 不支持、shape 不匹配`: no two tensors to relate; maybe a dtype set
        break
    if _FORMAT_MISMATCH.search(clause):
        relate("same_format")
    elif _FORMAT_BAD.search(clause) or ("格式" in clause and "数据类型" in clause):
        add("formats")
    axis = _axis_check(clause, named, tensor_params)
    if axis:
        found.append(axis)
    if _RANK_BAD.search(clause) and not _SIZE_WORDS.search(clause) and tensors:
        limit = _RANK_LIMIT.search(clause)
        high = int(limit.group(1)) if limit and int(limit.group(1)) <= MAX_RANK else None
        if not axis or high is not None:  # `dim的绝对值超出self的dim最大值或超出8维`: both
            add("rank", tensors, max=high)
    if _CONTIGUOUS_BAD.search(clause):
        add("non_contiguous")
    return found


def _axis_check(clause: str, named: tuple[str, ...], tensor_params: tuple[str, ...]) -> Check | None:
    """`dim值不在self维度范围内`, `dim的值不在[-self的维度数量, self的维度数量-1]之间`: the value
    parameter named before, the tensor whose dimensions it indexes."""
    values = [p for p in named if p not in tensor_params]
    if not values:
        return None
    ctx = Context(subject=None, params=tuple(tensor_params), line=0, statement=clause)
    interval = _AXIS_INTERVAL.search(clause)
    tensor = axis_interval(clause, ctx) if interval else None
    at = interval.start() if interval else 0
    if tensor is None and (m := _AXIS_OUT.search(clause)):
        tensors = [p for p in names_in(m.group(), tensor_params)]
        tensor, at = (tensors[0], m.start()) if tensors else (None, 0)
    if tensor is None:
        return None
    before = [p for p in names_in(clause[:at], named) if p in values]
    return Check(kind="axis", params=(before[-1], tensor)) if before else None
