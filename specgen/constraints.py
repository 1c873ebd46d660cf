"""Chinese constraint prose and table cells to typed constraints and checks.

A small ruler of named rules: each rule reads one clause and returns the constraints it
recognises. A clause no rule recognises is kept verbatim as kind "text". Error-rule
conditions go through a parallel set of rules that return `Check`s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from specgen import vocab
from specgen.model import Check, Constraint

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DTYPE_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_AND = re.compile(r"(?<!\s)\s+且(?=\S)")  # (?<!\s): one scan per whitespace run
_CONDITION_HEAD = re.compile(r"^(?:当|若|如果|假如|在.{0,20}?(?:时|场景下|情况下))")
_NUM = r"-?\d+(?:\.\d+)?"
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule needs to know about the clause's surroundings."""

    subject: str | None  # the parameter the clause is about (None for error conditions)
    params: tuple[str, ...]  # every parameter name of the function
    line: int

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
    r"可选|(?<!不)支持(?:传入?)?(?:空指针|nullptr)|可(?:以)?(?:传入?)(?:空指针|nullptr)"
    r"|^(?:如果|若|当)(?:传入|传)?(?:空指针|nullptr)"
    r"|不需要时为空指针|可为空|(?:需要|需|只能)传入?(?:空指针|nullptr)|预留参数|保留参数|传入空指针时"
)


def rule_optional(clause: str, ctx: Context) -> list[Constraint]:
    return [_c("optional", clause, ctx)] if _OPTIONAL.search(clause) else []


_BROADCAST_RESULT = re.compile(r"broadcast(?:之|以)?(?:后|结果)|广播(?:之)?(?:后|结果)")
_BROADCAST = re.compile(r"broadcast|广播")


def rule_broadcast(clause: str, ctx: Context) -> list[Constraint]:
    if not _BROADCAST.search(clause) or "不支持" in clause:
        return []
    peers = ctx.named(clause)
    if not peers:
        return []
    kind = "broadcast_result" if _BROADCAST_RESULT.search(clause) else "broadcast"
    return [_c(kind, clause, ctx, params=peers)]


_SAME = r"(?:保持|完全)?(?:一致|相同|相等)"
_SAME_SHAPE = re.compile(r"shape.{0,30}?" + _SAME + r"|(?:与|和).{0,30}?shape" + _SAME)
_SAME_DTYPE = re.compile(
    r"(?:数据类型|dtype).{0,40}?" + _SAME + r"|^(?:与|和)\s*\S+?(?:保持)?(?:一致|相同)$|^同\s*\S+$"
)
_SAME_FORMAT = re.compile(r"(?:数据格式|format).{0,40}?" + _SAME)
_PARTIAL_SHAPE = re.compile(r"长度|维度?一致|size|轴|H维|某")


_LIST_SAME_DTYPE = re.compile(
    r"(?:所有|每个)\s*(?:Tensor|tensor|元素)的数据类型(?:需要|需|要|必须)?(?:保持)?(?:一致|相同)"
)


def rule_same(clause: str, ctx: Context) -> list[Constraint]:
    if _LIST_SAME_DTYPE.search(clause):  # within a tensor list: no peer parameter
        return [_c("same_dtype", clause, ctx)]
    peers = ctx.named(clause)
    if not peers or "不" in clause.replace("不为空", ""):
        return []
    out = []
    if _SAME_DTYPE.search(clause):
        out.append(_c("same_dtype", clause, ctx, params=peers))
    if _SAME_SHAPE.search(clause) and not _PARTIAL_SHAPE.search(clause) and not _BROADCAST.search(clause):
        out.append(_c("same_shape", clause, ctx, params=peers))
    if _SAME_FORMAT.search(clause):
        out.append(_c("same_format", clause, ctx, params=peers))
    return out


_CASTABLE = re.compile(r"推导|可转换|互转换|转换为|转换成|(?<!broad)cast", re.I)


def rule_castable(clause: str, ctx: Context) -> list[Constraint]:
    if not _CASTABLE.search(clause) or "不支持" in clause:
        return []
    peers = ctx.named(clause)
    dtypes, _ = dtype_list(clause)
    if not peers and not dtypes:
        return []
    return [_c("castable", clause, ctx, params=peers, values=tuple(dtypes))]


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


def rule_rank(clause: str, ctx: Context) -> list[Constraint]:
    if m := _RANK_RANGE.search(clause):
        return [_c("rank", clause, ctx, min=int(m.group("lo")), max=int(m.group("hi")))]
    if m := _RANK_MAX.search(clause):
        return [_c("rank", clause, ctx, min=0, max=int(m.group("n") or m.group("m")))]
    if (m := _RANK_EXACT.search(clause)) and "其中" not in clause:
        n = _int(m.group("n") or m.group("d"))
        return [_c("rank", clause, ctx, min=n, max=n)]
    return []


_ENUM_NAMED = re.compile(r"(?<!\d)(?P<v>-?\d++)\s*+(?:时为|[（(]\s*)['\"]?(?P<label>[A-Za-z_]+)")
_ENUM_LIST = re.compile(
    r"(?:取值(?:为|是)?|(?:仅|只)支持(?:取值为?)?|支持取值)\s*"
    r"(?P<vals>-?\d+(?:\s*(?:[、,，/|]|和|或)\s*-?\d+)+)"
)


_ENUM_ITEM_LINE = re.compile(r"^[（(]?(?P<v>-?\d+)[)）]?\s*[:：]\s*\S")
_ENUM_SET = re.compile(r"(?:范围|取值|支持)(?:为|是)?\s*\{(?P<vals>\s*-?\d+(?:\s*[,，]\s*-?\d+)*\s*)\}")
_ENUM_ONLY = re.compile(
    r"(?:当前|目前)?(?:仅|只)(?:支持|能)(?:取|传入?)?(?:默认值|值)?\s*(?P<v>-?\d+|true|false)(?![\d.]|\s*(?:维|D|个|轴|字节|倍|位|次|[A-Za-z]))"
)


def _scalar(token: str) -> int | bool:
    return {"true": True, "false": False}.get(token) if token in ("true", "false") else int(token)


def rule_enum(clause: str, ctx: Context) -> list[Constraint]:
    """Allowed values: an enumeration, a `{2, 34}` set, `仅支持1`, or one item (`0：KEEP_DTYPE`,
    `sparseMode为0时，...`) of a list of documented values."""
    if m := _ENUM_SET.search(clause):
        return [_c("enum", clause, ctx, values=tuple(int(v) for v in re.findall(r"-?\d+", m.group("vals"))))]
    if m := _ENUM_ONLY.search(clause):
        return [_c("enum", clause, ctx, values=(_scalar(m.group("v")),))]
    item = _ENUM_ITEM_LINE.match(clause)
    if item is None and ctx.subject:
        item = re.match(re.escape(ctx.subject) + r"\s*(?:为|=|取)\s*(?P<v>-?\d+)\s*时", clause)
    if item:
        return [_c("enum", clause, ctx, values=(int(item.group("v")),))]
    labelled = _ENUM_NAMED.findall(clause)
    if len(labelled) >= 2 or ("枚举" in clause and labelled):
        values = tuple(dict.fromkeys(int(v) for v, _ in labelled))
        return [_c("enum", clause, ctx, values=values)]
    if m := _ENUM_LIST.search(clause):
        values = tuple(dict.fromkeys(int(v) for v in re.findall(r"-?\d+", m.group("vals"))))
        return [_c("enum", clause, ctx, values=values)]
    return []


_CLAMP = re.compile(
    r"当\s*\S{1,20}?\s*(?P<op>小于|大于|<|>)\s*(?P<bound>" + _NUM + r")\s*时\s*[，,]?\s*"
    r"(?:按|取|视为|当作)\s*(?P<to>" + _NUM + r")"
)
_INTERVAL = re.compile(r"(?P<lo_b>[\[(（])\s*(?P<lo>" + _NUM + r")\s*[,，]\s*(?P<hi>" + _NUM + r")\s*(?P<hi_b>[\])）])")
_BOUND = re.compile(r"(?P<op>大于等于|小于等于|不小于|不大于|大于|小于|≥|≤|>=|<=|>|<)\s*(?P<n>" + _NUM + r")(?!\s*维)")
_POSITIVE = re.compile(r"正整数|正数|大于0")
_NON_NEGATIVE = re.compile(r"非负")


def rule_clamp(clause: str, ctx: Context) -> list[Constraint]:
    """`当λ小于0时，按0计算`: a value outside the bound is normalised, not rejected."""
    if m := _CLAMP.search(clause):
        bound = float(m.group("bound"))
        low = m.group("op") in ("小于", "<")
        return [_c("clamp", clause, ctx, min=bound if low else None, max=None if low else bound)]
    return []


def rule_range(clause: str, ctx: Context) -> list[Constraint]:
    if _CLAMP.search(clause):
        return []
    if ("取值范围" in clause or "范围" in clause) and (m := _INTERVAL.search(clause)):
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
    if "维" in clause or "shape" in clause or "个数" in clause or "长度" in clause or ctx.named(clause):
        return []  # a bound on a size, or relating several parameters: not a value range
    if m := _BOUND.search(clause):
        op, n = m.group("op"), float(m.group("n"))
        if re.search(r"(?:不能|不可|不得|不应|不允许)\s*$", clause[: m.start()]):
            op = {"大于": "小于等于", "小于": "大于等于", "大于等于": "小于", "小于等于": "大于"}.get(op, op)
        if op in ("大于等于", "不小于", "≥", ">="):
            return [_c("range", clause, ctx, min=n)]
        if op in ("大于", ">"):
            return [_c("range", clause, ctx, min=n, min_inclusive=False)]
        if op in ("小于等于", "不大于", "≤", "<="):
            return [_c("range", clause, ctx, max=n)]
        return [_c("range", clause, ctx, max=n, max_inclusive=False)]
    if _NON_NEGATIVE.search(clause):
        return [_c("range", clause, ctx, min=0)]
    return []


# (rule, trigger): a rule only reads clauses its trigger finds, which keeps classifying cheap.
PARAM_RULES: list[tuple[Rule, re.Pattern[str]]] = [
    (rule_dtypes, re.compile(r"数据类型|dtype|[A-Z][A-Z0-9_]{2}")),
    (rule_formats, re.compile(r"格式|format")),
    (rule_non_contiguous, re.compile("连续")),
    (rule_empty, re.compile("空")),
    (rule_optional, re.compile(r"可选|空指针|nullptr|可为空|预留|保留")),
    (rule_broadcast, re.compile(r"broadcast|广播")),
    (rule_same, re.compile(r"一致|相同|相等|同")),
    (rule_castable, re.compile(r"推导|转换|cast", re.I)),
    (rule_rank, re.compile(r"维|\dD|dim")),
    (rule_enum, re.compile(r"\d|true|false")),
    (rule_clamp, re.compile("当")),
    (rule_range, re.compile(r"\d|非负|正")),
]
CONDITIONAL_RULES = [(rule, trigger) for rule, trigger in PARAM_RULES if rule in (rule_clamp, rule_optional)]

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
    r"(?:^|[，,；;])\s*(?:当|若|如果|在)[^，,；;]*?(?:时|的情况下|场景下)|^(?:当|若|如果)"
    r"|(?<![不存])在[^，,；;]{0,20}?(?:的情况下|场景下)|[<>=]\s*-?\d+\s*时"
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
    for clause in clauses(statement):
        # A conditional clause (当…时, 如果…) holds only sometimes: only a clamp reads it.
        rules = CONDITIONAL_RULES if _CONDITION_HEAD.match(clause) or is_conditional(clause) else PARAM_RULES
        key = _CJK_SPACE.sub("", clause)  # "空 Tensor" reads as "空Tensor"; the text stays as written
        typed = [
            c.model_copy(update={"text": clause})
            for rule, trigger in rules
            if trigger.search(key)
            for c in read(rule, key, ctx)
        ]
        if typed:
            found.extend(typed)
        elif descriptive_ok and (_DESCRIPTIVE.search(clause) or not found):
            description.append(clause)
        else:
            found.append(_c("text", clause, ctx))
    return found, description


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

_NULL = re.compile(r"空指针|nullptr|为空(?!tensor|Tensor|张量)")
_EMPTY_BAD = re.compile(r"空Tensor|空tensor|空张量|元素个数为0|shape中存在0|任意维度为零")
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
    r"|(?:大于|超过)\s*\d+\s*维|(?:不是|不为|非)\s*\d\s*(?:[-~]\s*\d\s*)?(?:维|D)|维度高于\s*\d"
)
_SIZE_WORDS = re.compile(r"(?i)size|大小|元素|长度|除.{0,8}(?:外|以外)|轴")  # "维度上的size大于0" is not about the rank
_RANK_LIMIT = re.compile(r"(?:大于|超过|超出)\s*(\d{1,2})(?!\d)")
_SHAPE_MISMATCH = re.compile(r"(?i)(?:shape|size|尺寸|大小).{0,25}?(?:不一致|不相同|不同|不相等|不匹配|不等于|不一样)")
_SHAPE_PROSE = re.compile(
    r"(?i)shape.{0,20}?(?:不在|不支持|非法|超过|错误|不对|不满足|不符合|不正确|不为|不是)"
    r"|元素个数|元素数量|Tensor数量|个数|长度|维(?:度)?.{0,20}?(?:不相等|不一致|不等于|不同)|相乘条件|整除|通道数"
    r"|(?:size|轴).{0,10}?(?:为0|大于|小于)"
)
_VALUE_PROSE = re.compile(
    r"取值|值.{0,10}?(?:大于|小于|超出|不在|不满足|不为|不是|非法)|范围|越界|超过|超出|不属于|不是.{0,20}之一"
    r"|(?:小于|大于|不大于|不小于|等于|超过)\s*-?\d|[<>!]=?\s*-?\d|不是\s*(?:true|false)|不为\s*(?:true|false)"
    r"|自然数|正整数|输入不对|不支持传入|不支持的|当前支持的值|无效值|负数|倍数|偶数|奇数|之一|[<>!]=|\s[<>]\s"
)
_CONTIGUOUS_BAD = re.compile(r"非连续|连续性|不连续")
_PRODUCT = re.compile(r"产品|平台|处理器|芯片|SocVersion|SoC", re.I)
_INTERNAL = re.compile(r"内部|npu runtime|aclOpExecutor失败|tiling|Tiling|异常")
_DOCUMENTED = re.compile(r"参数说明|约束说明|不满足.{0,8}(?:约束|要求|条件|限制)|不符合.{0,6}(?:约束|要求)|上述")


def condition_checks(
    condition: str, named: tuple[str, ...], pointer_params: tuple[str, ...], tensor_params: tuple[str, ...]
) -> list[Check]:
    """The typed checks an error condition stands for.

    `named` are the parameters the condition mentions; a condition that names none applies
    to every pointer (null checks) or tensor parameter (the rest), as documents mean it.
    Within a family the most specific reading wins (broadcast over same shape, castable
    over same dtype over supported dtypes); prose-only kinds are the last resort.
    """
    subjects = named or tensor_params
    found: list[Check] = []
    if "@" in condition:  # about a computed result (batch1@batch2): prose only
        return [Check(kind="shape", params=subjects)]

    def add(kind: str, params: tuple[str, ...] = subjects, **extra: object) -> None:
        found.append(Check(kind=kind, params=params, **extra))  # type: ignore[arg-type]

    if _NULL.search(condition):
        add("not_null", named or pointer_params)
    elif _EMPTY_BAD.search(condition):
        add("empty_tensor")
    if _BROADCAST.search(condition):
        add("broadcast_result" if _BROADCAST_RESULT.search(condition) or "一致" in condition else "broadcast")
    elif _SHAPE_MISMATCH.search(condition) and not (
        _SHAPE_PROSE.search(condition)
        or _DOCUMENTED.search(condition)
        or _SIZE_WORDS.search(condition)
        or "拆分" in condition
    ):
        add("same_shape")
    for kind, pattern in (("castable", _CASTABLE), ("same_dtype", _DTYPE_MISMATCH), ("dtypes", _DTYPE_BAD)):
        if pattern.search(condition):
            add(kind)
            break
    if _FORMAT_MISMATCH.search(condition):
        add("same_format")
    elif _FORMAT_BAD.search(condition) or ("格式" in condition and "数据类型" in condition):
        add("formats")
    if _RANK_BAD.search(condition) and not _SIZE_WORDS.search(condition):
        limit = _RANK_LIMIT.search(condition)
        add("rank", max=int(limit.group(1)) if limit else None)
    if _CONTIGUOUS_BAD.search(condition):
        add("non_contiguous")
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
            add(kind, named if kind in ("value", "constraints") else subjects)
            break
    return found
