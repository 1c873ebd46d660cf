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
_AND = re.compile(r"\s+且(?=\S)")
_CONDITION_HEAD = re.compile(r"^(?:当|若|如果|如|在)")
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
_ONLY_ON = re.compile(r"(?P<dtype>[A-Za-z0-9_]+)\s*[（(]\s*仅\s*(?P<product>[^）)]+?)\s*支持\s*[）)]")


def rule_dtypes(clause: str, ctx: Context) -> list[Constraint]:
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
    r"|不需要时为空指针|可为空"
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
_SAME_DTYPE = re.compile(r"(?:数据类型|dtype).{0,40}?" + _SAME + r"|^(?:与|和|同)\s*\S+?(?:保持)?(?:一致|相同)?$")
_SAME_FORMAT = re.compile(r"(?:数据格式|format).{0,40}?" + _SAME)
_PARTIAL_SHAPE = re.compile(r"长度|维度?一致|size|轴|H维|某")


def rule_same(clause: str, ctx: Context) -> list[Constraint]:
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


_CASTABLE = re.compile(r"推导|可转换|互转换|转换为|转换成")


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


_ENUM_NAMED = re.compile(r"(?:取|为)?\s*(?P<v>-?\d+)\s*(?:时为|[（(]\s*)['\"]?(?P<label>[A-Za-z_]+)")
_ENUM_LIST = re.compile(
    r"(?:取值(?:为|是)?|(?:仅|只)支持(?:取值为?)?|支持取值)\s*"
    r"(?P<vals>-?\d+(?:\s*(?:[、,，/|]|和|或)\s*-?\d+)+)"
)


def rule_enum(clause: str, ctx: Context) -> list[Constraint]:
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


def rule_range(clause: str, ctx: Context) -> list[Constraint]:
    if m := _CLAMP.search(clause):
        bound = float(m.group("bound"))
        low = m.group("op") in ("小于", "<")
        return [_c("clamp", clause, ctx, min=bound if low else None, max=None if low else bound)]
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
    if "维" in clause or "shape" in clause or "个数" in clause or "长度" in clause:
        return []
    if m := _BOUND.search(clause):
        op, n = m.group("op"), float(m.group("n"))
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


PARAM_RULES: list[tuple[str, Rule]] = [
    ("dtypes", rule_dtypes),
    ("formats", rule_formats),
    ("non_contiguous", rule_non_contiguous),
    ("empty_tensor", rule_empty),
    ("optional", rule_optional),
    ("broadcast", rule_broadcast),
    ("same", rule_same),
    ("castable", rule_castable),
    ("rank", rule_rank),
    ("enum", rule_enum),
    ("range", rule_range),
]

# Clauses that describe rather than constrain (kept in the description, not counted).
_DESCRIPTIVE = re.compile(
    r"^(?:Device侧|Host侧|公式中|表示|返回|输入|输出|计算|对应|作为|指定|在Device侧"
    r"|op执行器|反向传播|正向|用于|即)|侧的acl|公式中的"
)


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


def clauses(text: str) -> list[str]:
    """A statement split into clauses; a leading condition (当…时) stays with its consequence."""
    parts = [p.strip() for p in _split_top_level(text) if p and p.strip()]
    out: list[str] = []
    for part in parts:
        if out and _CONDITION_HEAD.match(out[-1]) and out[-1].endswith("时"):
            out[-1] = out[-1] + "，" + part
        else:
            out.append(part)
    return out


_ENUM_ITEM = re.compile(r"取\s*(?P<v>-?\d+)\s*时(?:为|表示)?\s*['\"‘“]?(?P<label>[A-Za-z_]*)")
_SENTENCE_END = re.compile(r"[。；;]")


def _enum_span(statement: str) -> tuple[int, int, tuple[int, ...]] | None:
    """The stretch of a statement enumerating values (`取0时为'none'，…取2时为'sum'`)."""
    items = list(_ENUM_ITEM.finditer(statement))
    if len(items) < 2:
        return None
    head = statement.rfind("。", 0, items[0].start()) + 1
    tail_end = _SENTENCE_END.search(statement, items[-1].end())
    end = tail_end.end() if tail_end else len(statement)
    return head, end, tuple(dict.fromkeys(int(m.group("v")) for m in items))


def classify(statement: str, ctx: Context, *, descriptive_ok: bool = False) -> tuple[list[Constraint], list[str]]:
    """Typed constraints of one statement, and the clauses it leaves as description.

    With `descriptive_ok`, clauses that read as description are returned as such instead of
    as unclassified "text" constraints.
    """
    if span := _enum_span(statement):
        head, end, values = span
        before = classify(statement[:head], ctx, descriptive_ok=descriptive_ok)
        after = classify(statement[end:], ctx)
        enum = _c("enum", statement[head:end].strip(), ctx, values=values)
        return before[0] + [enum] + after[0], before[1]
    found: list[Constraint] = []
    description: list[str] = []
    for clause in clauses(statement):
        typed = [c for _, rule in PARAM_RULES for c in rule(clause, ctx)]
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
    cell = re.sub(r"<sup>.*?</sup>", "", cell).strip().rstrip("。")
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
_DTYPE_BAD = re.compile(
    r"(?:数据类型|dtype).{0,24}?(?:不在|不支持|非法|不满足|不属于|不为|不是|不符合)"
    r"|不是支持的数据类型"
)
_DTYPE_MISMATCH = re.compile(r"(?:数据类型|dtype|类型).{0,16}?(?:不一致|不相同|不同|不相等|不匹配|不一样)")
_FORMAT_BAD = re.compile(r"(?:数据格式|格式|format).{0,12}?(?:不在|不支持|不是|不为|不满足|不正确)")
_FORMAT_MISMATCH = re.compile(r"(?:数据格式|格式|format).{0,12}?不一致")
_RANK_BAD = re.compile(
    r"(?:维度|维数|rank|dim|shape长度|shape维度)"
    r".{0,12}?(?:大于|超过|超出|小于|不等于|不为|不是|不在|不一致)"
    r"|(?:大于|超过)\s*\d+\s*维|非\s*\d\s*维"
)
_SHAPE_MISMATCH = re.compile(r"(?:shape|size|尺寸|大小).{0,25}?(?:不一致|不相同|不同|不相等|不匹配|不等于|不一样)")
_SHAPE_BAD = re.compile(r"shape.{0,20}?(?:不在|不支持|非法|超过|错误|不对|不满足|不符合|不正确)")
_VALUE_BAD = re.compile(
    r"取值|值.{0,10}?(?:大于|小于|超出|不在|不满足|不为|不是|非法)|范围"
    r"|(?:小于|大于|不大于|不小于|等于|超过)\s*-?\d|[<>]=?\s*-?\d"
)
_EMPTY_BAD = re.compile(r"空Tensor|空tensor|空张量|元素个数为0|shape中存在0")
_CONTIGUOUS_BAD = re.compile(r"非连续|连续性")
_RANK_LIMIT = re.compile(r"(?:大于|超过|超出)\s*(\d+)")


def condition_checks(
    condition: str, named: tuple[str, ...], pointer_params: tuple[str, ...], tensor_params: tuple[str, ...]
) -> list[Check]:
    """The typed checks an error condition stands for.

    `named` are the parameters the condition mentions; a condition that names none applies
    to every pointer (null checks) or tensor parameter (the rest), as documents mean it.
    """
    subjects = named or tensor_params
    checks: list[Check] = []
    if _NULL.search(condition):
        checks.append(Check(kind="not_null", params=named or pointer_params))
    if _EMPTY_BAD.search(condition) and not _NULL.search(condition):
        checks.append(Check(kind="empty_tensor", params=subjects))
    if _BROADCAST.search(condition):
        kind = "broadcast_result" if _BROADCAST_RESULT.search(condition) or "一致" in condition else "broadcast"
        checks.append(Check(kind=kind, params=subjects))
    elif _SHAPE_MISMATCH.search(condition):
        checks.append(Check(kind="same_shape", params=subjects))
    if _CASTABLE.search(condition):
        checks.append(Check(kind="castable", params=subjects))
    elif _DTYPE_MISMATCH.search(condition):
        checks.append(Check(kind="same_dtype", params=subjects))
    elif _DTYPE_BAD.search(condition):
        checks.append(Check(kind="dtypes", params=subjects))
    if _FORMAT_MISMATCH.search(condition):
        checks.append(Check(kind="same_format", params=subjects))
    elif _FORMAT_BAD.search(condition) or ("格式" in condition and "数据类型" in condition):
        checks.append(Check(kind="formats", params=subjects))
    if _RANK_BAD.search(condition):
        limit = _RANK_LIMIT.search(condition)
        checks.append(Check(kind="rank", params=subjects, max=int(limit.group(1)) if limit else None))
    elif _SHAPE_BAD.search(condition) and not checks:
        checks.append(Check(kind="shape", params=subjects))
    if _CONTIGUOUS_BAD.search(condition):
        checks.append(Check(kind="non_contiguous", params=subjects))
    if not checks and _VALUE_BAD.search(condition):
        checks.append(Check(kind="value", params=named))
    return checks
