"""Statements split into clauses, and whether a clause holds only in some situation.

Parameter prose splits at clause punctuation outside brackets; an error condition splits where
each side states something of its own (a list of names before `或` is no statement).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from specgen.parse.classify.text import IDENT, TEXT_CACHE

# ---------------------------------------------------------------- parameter statements

_AND = re.compile(r"(?<!\s)\s+且(?=\S)")  # (?<!\s): one scan per whitespace run
_OPEN, _CLOSE = "([（【{", ")]）】}"


# Three or more names listed with commas (`数据类型需要是self, mat, vec, alpha, beta推导后的
# 数据类型`): one clause, not a clause a name.
_NAME_LIST_RUN = re.compile(r"(?<![A-Za-z0-9_])[a-z_][A-Za-z0-9_]*(?:\s*[,，]\s*[a-z_][A-Za-z0-9_]*){2,}")

# Two names or more a relation's 与 lists with a comma (`shape需要与grad_output，grad_input一致`,
# aclnnSigmoidBackward): the peers of one relation, not two clauses.
_PEER_LIST = re.compile(
    r"(?<=与)\s*[A-Za-z_][A-Za-z0-9_]*(?:\s*[,，]\s*[A-Za-z_][A-Za-z0-9_]*)+(?=\s*(?:保持)?(?:一致|相同))"
)

# a quoted value is one value, commas and all (an einsum equation: `"a,b->ab"`)
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”')
# The values an only-supported list gives, each with a short label, one clause: `当前仅支持"dynamic"
# 动态量化，"static"静态量化` (aclnnSwiGluQuantV2 quantModeOptional, line 185), `当前仅支持0表示cumsum
# 模式，1表示count模式` (its groupListType, line 195), `当前仅支持取值为0, 1` (aclnnSwigluMxQuant)
_VALUE = r'(?:"[^"\n]*"|“[^”\n]*”|-?\d+(?![\d.]))'
_ONLY_LIST = re.compile(
    rf"(?:仅|只)支持(?:取值为?|输入|传入)?\s*{_VALUE}(?:[^，,。；;\"“\d值]{{0,12}}?[，,]\s*{_VALUE}(?![维个]))+"
)


def _split_top_level(text: str) -> list[str]:
    """Split at clause punctuation outside brackets (`[-1, 8)` is one value) and name lists."""
    listed = {i for m in _NAME_LIST_RUN.finditer(text) for i in range(*m.span())}
    listed |= {i for m in _PEER_LIST.finditer(text) for i in range(*m.span())}
    listed |= {i for m in _QUOTED.finditer(text) for i in range(*m.span())}  # `"abcd,abced->abce"`
    listed |= {i for m in _ONLY_LIST.finditer(text) for i in range(*m.span())}
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0 and ch in "，,；;。" and i not in listed:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [q for p in parts for q in _AND.split(p)]


def clauses(text: str) -> list[str]:
    """A statement split into clauses; a leading condition (当…时) stays with its consequence."""
    return list(_clauses(text))


@lru_cache(maxsize=TEXT_CACHE)
def _clauses(text: str) -> tuple[str, ...]:
    parts = [p.strip() for p in _split_top_level(text) if p and p.strip()]
    out: list[str] = []
    for part in parts:
        if out and _leads(out[-1]):
            out[-1] = out[-1] + "，" + part
        else:
            out.append(part)
    return tuple(out)


# A head that asks only that an optional tensor be given (`不为空指针时`, `当weightOptional存在
# 时`): what follows holds whenever it is checked, as a null tensor's checks are skipped.
_GIVEN_HEAD = re.compile(
    r"^(?:且|并且)?\s*(?:当|若|如果)?\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*)?(?:可选输入参数)?\s*"
    r"(?:不为空指针|不为空|非空指针|非空|存在|传入非空指针|传入)\s*时$"
)


# A condition with no 时 (`如果swigluMode为1，activateLeft必须为true`, aclnnDequantSwigluQuantV2): a
# short head `如果`/`若` opens, with a value or dtype after 为/是 and no requirement of its own.
_BARE_IF = re.compile(r"^(?:如果|若|假如)[^，,；;。]{1,40}?(?:为|是|=)\s*[^，,；;。]{1,20}$")
_OWN_REQUIREMENT = re.compile(r"必须|需|则|不支持|仅支持|只支持")


def _leads(clause: str) -> bool:
    """A clause that is a condition only (`当x为1时`, `reduction为0时`, `如果psetype为2或3的时候`,
    `如果swigluMode为1`): it leads the next."""
    if len(clause) > 60 or _GIVEN_HEAD.match(clause):
        return False
    if _BARE_IF.match(clause) and not _OWN_REQUIREMENT.search(clause):
        return True
    return clause.endswith(("时", "时候")) and not clause.endswith("同时")


# ---------------------------------------------------------------- situations

CONDITION_HEAD = re.compile(r"^(?:当(?!前)|若|如果|假如|在.{0,20}?(?:时|场景下|情况下))")
_CONDITIONAL_TEXT = re.compile(
    r"(?:^|[，,；;])\s*(?:当|若|如果|在)[^，,；;]*?(?:时|的情况下|场景下)|^(?:当(?!前)|若|如果)"
    r"|(?<![不存])在[^，,；;]{0,20}?(?:的情况下|场景下)|[<>=]\s*-?\d+\s*时"
    # `out的数据类型为INT4时，x的shape与out的shape不一致`, `perToken场景下，…`: a situation first
    r"|^[^，,；;]{1,60}?(?:时|场景下|情况下)[，,]|^[^，,；;]{1,30}?(?:场景|情况|模式)下"
)


@lru_cache(maxsize=TEXT_CACHE)
def is_conditional(text: str) -> bool:
    """A rule that holds only in some situation (当…时, 如果…, 在…场景下)."""
    return bool(_CONDITIONAL_TEXT.search(text))


# A clause that holds only in some situation: `Q_S大于等于2时…`, `若…`, `否则…`, `其余情况…`.
# (`同时`, `实时`, `时间` are no condition; `当前` is "currently".)
_WHEN = re.compile(
    r"(?<![同实及临暂计])时(?![间刻序钟长])|若|如果|假如|否则|其[余他](?:情况|场景)|以外的场景|场景下|情况下|模式下"
    r"|^则|^当(?!前)"
)
# A clause continuing the one before (`per_tensor模式下shape支持[G, ]，且数据类型…一致`).
CONTINUATION = re.compile(r"^(?:且|并且|而且|则|此时|同时)")
# Numbers that are no rule on the value: formulas (`groupSizeN << 16`, LaTeX), version and
# driver notes, advice and examples.
_NO_VALUE_RULE = re.compile(r"<<|>>|\$|\\\(|版本|驱动|CANN|建议|推荐|通常|一般|例如|比如|示例|如下")


@lru_cache(maxsize=TEXT_CACHE)
def situational(clause: str) -> bool:
    """A clause holding only in some situation (`当…时`, `…时该参数无效`, `若…`, `否则`)."""
    return bool(CONDITION_HEAD.match(clause) or is_conditional(clause) or _WHEN.search(clause))


@lru_cache(maxsize=TEXT_CACHE)
def value_rule_allowed(clause: str) -> bool:
    """Whether the numbers of a clause can be a rule on the value at all."""
    return not (situational(clause) or _NO_VALUE_RULE.search(clause))


# ---------------------------------------------------------------- error conditions

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
        words = [m for m in IDENT.finditer(text) if m.group() in names]
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
