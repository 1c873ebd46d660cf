"""A parameter's allowed values: an enumeration, a range, a clamp, a set on some products only."""

from __future__ import annotations

import re

from specgen import vocab
from specgen.model import Constraint
from specgen.parse.classify.statements import situational, value_rule_allowed
from specgen.parse.classify.text import Context, about_subject, constraint

# ---------------------------------------------------------------- enumerations


_INTEGER = r"-?\d++(?!\.\d)"  # `1.75` is no list of 1 and 75
_VALUES = r"(?P<vals>(?:INT|true|false)(?:\s*(?:、|,|和|或者|或|及)\s*(?:INT|true|false))*)".replace("INT", _INTEGER)
_ENUM_NAMED = re.compile(r"(?<![\d.])(?P<v>-?\d++)\s*+(?:时为|[（(]\s*)['\"]?(?P<label>[A-Za-z_]+)")
_ENUM_LIST = re.compile(
    r"(?:取值(?:为|是)?|(?:仅|只)支持(?:取值为?)?|支持取值|支持配置(?:值)?为?|可选(?:取)?值\s*[:：]?)\s*"
    r"(?P<vals>INT(?:\s*(?:[、,，|]|和|或者|或)\s*INT)+)".replace("INT", _INTEGER)
)


# `0：KEEP_DTYPE`, `(0)：…`, `0（KEEP_DTYPE）：保持输入数据类型进行计算` (aclnnConvTbc cubeMathType)
_ENUM_ITEM_LINE = re.compile(r"^[（(]?(?P<v>-?\d+)(?:[)）]|\s*[（(][A-Z][A-Z0-9_]*[)）])?\s*[:：]\s*\S")
# The first item of such a list, in the clause that announces it: `则groupType取值-1：不分组`
# (legacy GroupedMatmulV3.md), the items after it (`0：m轴分组`) being clauses of their own.
_ENUM_FIRST_ITEM = re.compile(r"取值(?:为|是)?\s*(?P<v>-?\d+)\s*[:：]\s*\S")
_ENUM_SET = re.compile(
    r"(?:范围|取值|支持)(?:为|是)?\s*[:：]?\s*\{(?P<vals>\s*-?\d+(?:\s*[,，]\s*-?\d+)*\s*)\}"
    # `dstType的取值范围是:[2, 34,35, 36, 40, 41]`: three or more integers in brackets list values
    # (two, `[0, 255]`, are an interval's bounds)
    r"|取值范围(?:为|是)?\s*[:：]?\s*\[(?P<listed>\s*-?\d+(?:\s*[,，]\s*-?\d+){2,}\s*)\]"
)
# `仅支持0和1`, `仅支持默认值0和2147483647`, `当前只支持传0`, `仅支持false`: the whole list.
_ENUM_ONLY = re.compile(
    r"(?:仅|只)(?:支持|能|可)(?:取|传入?|输入|设置为?|配置为?|等于)?(?:默认值|值为?|取值为?)?\s*"
    r"(?:不转置|非转置)?\s*" + _VALUES
)
# What may follow such a list: a label (`0（FP32）`, `1('tanh')`), an end, or a count.
# `只支持32/64两种` (SwinTransformerLnQkvQuant seqLength): a slashed list closed by its count
_ENUM_SLASHED = re.compile(
    r"(?:仅|只)支持\s*(?P<vals>INT(?:\s*/\s*INT)+)\s*(?:两种|三种|四种|\d种)".replace("INT", _INTEGER)
)
# `当前仅支持0表示cumsum模式，1表示count模式` (aclnnSwiGluQuantV2 groupListType, line 195): the values
# an only-supported list gives with their meanings (a list of meanings alone is no set)
_ENUM_MEANINGS = re.compile(
    r"(?:仅|只)支持\s*(?P<vals>INT表示[^，,、；;。]{1,16}(?:[，,、]\s*INT表示[^，,、；;。]{1,16})+)".replace(
        "INT", _INTEGER
    )
)
_MEANT = re.compile(r"(-?\d+)表示")
_ENUM_ONLY_END = re.compile(r"\s*(?:$|[（()）]|两种|三种|四种|\d种|的(?:场景|情况)|[，,。；;])")
_SIZED = re.compile(r"长度|个数|(?<![A-Za-z])(?i:size)(?![A-Za-z])|元素数|维度数|len\(|数量")


def _scalar(token: str) -> int | bool:
    return token == "true" if token in ("true", "false") else int(token)


def _list_values(text: str) -> tuple[int | bool, ...]:
    return tuple(dict.fromkeys(_scalar(v) for v in re.findall(r"-?\d+|true|false", text)))


_SUBJECT_IS = re.compile(r"\s*(?:为|=|取)\s*(?P<v>-?\d+)\s*时")  # after the subject's name
# `sparseModeOptional为5时，**不支持**`: the item leaves the value out of the set
NOT_SUPPORTED_ITEM = re.compile(r"\s*[，,：:]?\s*(?:\*\*)?(?:当前|目前)?暂?不支持(?:\*\*)?\s*[。.]?$")


def rule_enum_item(clause: str, ctx: Context) -> list[Constraint]:
    """One item of a list of documented values: `0：KEEP_DTYPE`, `sparseMode为0时，...` (the
    value exists, whatever the situation the item describes)."""
    item = _ENUM_ITEM_LINE.match(clause) or _first_item(clause, ctx)
    if item is None and ctx.subject and clause.startswith(ctx.subject):
        item = _SUBJECT_IS.match(clause, len(ctx.subject))
    # `5：不支持` (the line's match holds the rest's first character) or `为5时，不支持`
    if item is None or NOT_SUPPORTED_ITEM.match(clause, item.end() - (item.re is not _SUBJECT_IS)):
        return []
    return [constraint("enum", clause, ctx, values=(int(item.group("v")),))]


def _first_item(clause: str, ctx: Context) -> re.Match[str] | None:
    """The list's first item where the clause announcing the list holds it, on the subject's values."""
    item = _ENUM_FIRST_ITEM.search(clause)
    return item if item is not None and about_subject(clause[: item.start()], ctx) else None


def rule_enum(clause: str, ctx: Context) -> list[Constraint]:
    """Allowed values: an enumeration, a `{2, 34}` set, `仅支持0和1`, or one item (`0：KEEP_DTYPE`,
    `sparseMode为0时，...`) of a list of documented values."""
    if typed := rule_enum_item(clause, ctx):
        return typed
    clause = _CURRENT_VERSION.sub("", clause)
    if not value_rule_allowed(clause) or _after_situation(clause, ctx):
        return []
    if typed := _one_value(clause, ctx):
        return typed
    if m := _ENUM_SET.search(clause):
        return _enum_on(clause, m.start(), _list_values(m.group("vals") or m.group("listed")), ctx)
    if m := _ENUM_SLASHED.search(clause):
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    if m := _ENUM_MEANINGS.search(clause):
        return _enum_on(clause, m.start(), tuple(int(v) for v in _MEANT.findall(m.group("vals"))), ctx)
    labelled = _ENUM_NAMED.findall(clause)
    # `仅支持0(none),1(mean),2(sum)三个值` (aclnnBinaryCrossEntropyBackward reduction): each labelled
    if (m := _ENUM_ONLY.search(clause)) and _ENUM_ONLY_END.match(clause, m.end()) and len(labelled) < 2:
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    if len(labelled) >= 2 or ("枚举" in clause and labelled):
        values = tuple(dict.fromkeys(int(v) for v, _ in labelled))
        return _enum_on(clause, _ENUM_NAMED.search(clause).start(), values, ctx)  # type: ignore[union-attr]
    if m := _ENUM_LIST.search(clause):
        return _enum_on(clause, m.start(), _list_values(m.group("vals")), ctx)
    return []


# `当前版本仅支持false` (aclnnQuantMatmulReduceSumWeightNz): the version the document describes,
# no note on another version
_CURRENT_VERSION = re.compile(r"^(?:当前|目前)版本(?=仅|只)")
# The one value a clause requires, said whole: `activateLeft必须为true`, `需要传入0`,
# `目前暂不支持，传入false即可` (aclnnQuantConvolution transposed), `值=1`, `仅支持取值0.0`,
# `支持 0/1/2：0-none，1-mean，2-sum`
_MUST_BE = re.compile(r"^(?:[A-Za-z_]\w*)?\s*(?:必须|需要?)(?:为|是|等于)\s*(?P<vals>true|false)\s*[。.]?$")
_PASS_ONLY = re.compile(
    r"^(?:需要?|必须)传入?\s*(?P<vals>-?\d+|true|false)\s*[。.]?$|^传入\s*(?P<just>true|false)\s*即可\s*[。.]?$"
    r"|^值\s*=\s*(?P<equals>-?\d+)\s*[。.]?$"
)
_FLOAT_ONLY = re.compile(r"^(?:仅|只)支持(?:取值)?\s*(?P<v>-?\d+\.\d+)\s*[。.]?$")
_SLASHED_KEYS = re.compile(r"^支持\s*(?P<vals>INT(?:\s*/\s*INT)+)\s*[：:]".replace("INT", _INTEGER))
_CLAUSE_BREAK = re.compile(r"[，,；;。]")


def _one_value(clause: str, ctx: Context) -> list[Constraint]:
    """A value or set a clause states whole (see `_MUST_BE`)."""
    if m := _MUST_BE.match(clause) or _PASS_ONLY.match(clause) or _SLASHED_KEYS.match(clause):
        said = next(g for g in m.groups() if g is not None)
        return _enum_on(clause, 0, _list_values(said), ctx)
    if m := _FLOAT_ONLY.match(clause):
        return [constraint("enum", clause, ctx, values=(float(m.group("v")),))]
    return []


def _after_situation(clause: str, ctx: Context) -> bool:
    """The clause follows a condition alone in the same statement, which the clause splitter
    keeps apart where it asks only that a pointer be given (`当scale不为空时，batchSplitFactor只能
    等于1`): a value rule then holds in that situation only."""
    at = ctx.statement.find(clause)
    if at <= 0:
        return False
    before = [c.strip() for c in _CLAUSE_BREAK.split(ctx.statement[:at]) if c.strip()]
    return bool(before) and before[-1].endswith(("时", "时候")) and situational(before[-1])


def _enum_on(clause: str, at: int, values: tuple[int | bool, ...], ctx: Context) -> list[Constraint]:
    """The enum, unless what precedes makes the numbers something else than the subject's
    values (`长度为1或2`, `Q_S仅支持1`)."""
    before = clause[:at]
    if not values or _SIZED.search(before) or not about_subject(before, ctx):
        return []
    return [constraint("enum", clause, ctx, values=values)]


_ENUM_ITEM = re.compile(r"取\s*(?P<v>-?\d+)\s*时(?:为|表示)?\s*['\"‘“]?(?P<label>[A-Za-z_]*)")
_SENTENCE_END = re.compile(r"[。；;]")


def enum_span(statement: str, ctx: Context) -> list[tuple[int, int, Constraint]]:
    """The stretch of a statement enumerating values (`取0时为'none'，…取2时为'sum'`), with
    its enum constraint; none when there is no such stretch."""
    items = list(_ENUM_ITEM.finditer(statement))
    if len(items) < 2:
        return []
    head = statement.rfind("。", 0, items[0].start()) + 1
    tail_end = _SENTENCE_END.search(statement, items[-1].end())
    end = tail_end.end() if tail_end else len(statement)
    values = tuple(dict.fromkeys(int(m.group("v")) for m in items))
    return [(head, end, constraint("enum", statement[head:end].strip(), ctx, values=values))]


# ---------------------------------------------------------------- products

_PRODUCT_HEAD = re.compile(r"^(?P<names>[^：:，,。；;]{0,120}?产品)\s*(?:[：:]|(?=仅|只|支持|不支持|数据类型))")
_PRODUCT_SPLIT = re.compile(r"、|/(?!\s*500)|和")


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


# ---------------------------------------------------------------- ranges

_NUM = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
# Words of a size, a length, a count or a dimension: a bound next to them is not on the value.
_SIZE_OF = re.compile(r"维|(?i:shape)|个数|长度|数量|(?<![A-Za-z])(?i:size)(?![A-Za-z])|元素数|len\(|\.dim|轴")

_CLAMP = re.compile(
    r"当\s*\S{1,20}?\s*(?P<op>小于|大于|<|>)\s*(?P<bound>" + _NUM + r")\s*时\s*[，,]?\s*"
    r"(?:按|取|视为|当作)\s*(?P<to>" + _NUM + r")"
)
_INTERVAL = re.compile(r"(?P<lo_b>[\[(（])\s*(?P<lo>" + _NUM + r")\s*[,，]\s*(?P<hi>" + _NUM + r")\s*(?P<hi_b>[\])）])")
# `groups数大于零`, `epsilon的值需要大于等于零`: 零 is 0
_BOUND = re.compile(
    r"(?P<op>大于等于|小于等于|不小于|不大于|大于|小于|≥|≤|>=|<=|>|<)\s*(?P<n>" + _NUM + r"|零)(?!\s*维)"
)
_NON_NEGATIVE = re.compile(r"非负")
# A positive integer is at least 1: after a bound (`小于200000000的正整数`), or alone (`必须为正整数`)
_POSITIVE_INTEGER = re.compile(r"\s*的?\s*正整数")
_ONLY_POSITIVE_INTEGERS = re.compile(r"(?:为|是)\s*正整数\s*[。.]?$")
# `必须为有限正数` (aclnnGaussianNllLoss eps): above 0 (NaN meets no bound, infinity the open one does)
_ONLY_POSITIVE = re.compile(r"(?:为|是)\s*(?:有限)?正数\s*[。.]?$")
# `数值在[0.0, 1.0]之间` (aclnnCrossEntropyLoss labelSmoothing): an interval said without 范围
_BETWEEN = re.compile(r"^(?:数值|取值|值)?\s*在\s*$")
# Words that make a bound a requirement (`取值范围`, `必须`, `需要…大于`, `值应>0`).
_REQUIRE = re.compile(r"取值|范围|仅|只|支持|必须|需|要求|应|不能|不可|不得|不允许|值|须|限制|保证")
# `groups数大于零` (the number groups), `各元素均大于零` (each element of an array)
_FILLER = re.compile(r"[\s且并而的为是（(]|取值|数值|参数|该|^数$|^(?:各|每个|所有)元素(?:值)?[均都]?")
# After a bound: a condition or a description follows (`大于0时表示Active场景`, `diagonal > 0表示…`).
_BOUND_THEN = re.compile(r"\s*(?:时|表示|代表|的(?:场景|情况))")


def rule_clamp(clause: str, ctx: Context) -> list[Constraint]:
    """`当λ小于0时，按0计算`: a value outside the bound is normalised, not rejected."""
    if m := _CLAMP.search(clause):
        bound = float(m.group("bound"))
        low = m.group("op") in ("小于", "<")
        return [constraint("clamp", clause, ctx, min=bound if low else None, max=None if low else bound)]
    return []


def _required(before: str, ctx: Context) -> bool:
    """A bound is stated as a requirement on the subject: a requirement word precedes it, or
    nothing but the subject's name does (`大于0`, `k不大于1024`)."""
    if not about_subject(before, ctx):
        return False
    rest = before.replace(ctx.subject, "") if ctx.subject else before
    return bool(_REQUIRE.search(before) or not _FILLER.sub("", rest))


def rule_range(clause: str, ctx: Context) -> list[Constraint]:
    """A value range, only where the clause requires one of the subject's value: not in a
    condition, a description, a formula, a version note, nor of a size or another quantity;
    not either-or (`为0或者大于等于1`, `-1.0或>0.0`: a union no range holds)."""
    if _CLAMP.search(clause) or not value_rule_allowed(clause) or "或" in clause:
        return []
    products = _products_of(clause)
    if products is None:
        return []
    if not products:
        return _range(clause, ctx)
    rest = clause[_PRODUCT_HEAD.match(clause).end() :]  # type: ignore[union-attr]
    return [c.model_copy(update={"product": pid, "text": clause}) for c in _range(rest, ctx) for pid in products]


def _range(clause: str, ctx: Context) -> list[Constraint]:
    m = _INTERVAL.search(clause)
    between = m is not None and "之间" in clause[m.end() :] and bool(_BETWEEN.match(clause[: m.start()]))
    if m is not None and ("范围" in clause or between):
        before = clause[: m.start()]
        if _SIZE_OF.search(before) or not about_subject(before, ctx):
            return []
        return [
            constraint(
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
        op, n = m.group("op"), 0.0 if m.group("n") == "零" else float(m.group("n"))
        if re.search(r"(?:不能|不可|不得|不应|不允许)\s*$", before):
            op = {"大于": "小于等于", "小于": "大于等于", "大于等于": "小于", "小于等于": "大于"}.get(op, op)
        if op in ("大于等于", "不小于", "≥", ">="):
            return [constraint("range", clause, ctx, min=n)]
        if op in ("大于", ">"):
            return [constraint("range", clause, ctx, min=n, min_inclusive=False)]
        # `取值范围是小于200000000的正整数` (aclnnAdvanceStep numSeqs): a positive integer, so at least 1
        low = 1.0 if _POSITIVE_INTEGER.match(clause, m.end()) else None
        if op in ("小于等于", "不大于", "≤", "<="):
            return [constraint("range", clause, ctx, min=low, max=n)]
        return [constraint("range", clause, ctx, min=low, max=n, max_inclusive=False)]
    if (m := _NON_NEGATIVE.search(clause)) and about_subject(clause[: m.start()], ctx):
        return [constraint("range", clause, ctx, min=0)]
    if (m := _ONLY_POSITIVE_INTEGERS.search(clause)) and _required(clause[: m.start()], ctx):
        return [constraint("range", clause, ctx, min=1)]  # `必须为正整数` (aclnnTopKTopPSample)
    if (m := _ONLY_POSITIVE.search(clause)) and _required(clause[: m.start()], ctx):
        return [constraint("range", clause, ctx, min=0, min_inclusive=False)]
    return []
