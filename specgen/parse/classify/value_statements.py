"""Statements of a value parameter no other rule types: an array's or a string's allowed
lengths (`长度为1或2`, `数组长度恒为2`, `支持长度：[1,127]`), a value's multiple (`仅支持32的倍数`,
`C必须可以被group整除`, `需要满足numHeads整除numKeyValueHeads`) and the bound of the ratio of two
values (`numHeads与numKeyValueHeads的比值不能大于64`).

Only statements that hold whatever the situation are read: one naming a situation (当…时), a
length relative to another parameter (`数组长度需等于self维度-2`) or a symbol (`数组长度为N`) stays
text, named as not checked.
"""

from __future__ import annotations

import re

from specgen.model import Constraint, Param

_SITUATION = re.compile(r"当|时|若|如果|场景|模式|默认|建议")
_LENGTH_WORD = re.compile(r"长度")
# `长度为1(kH=kW)或2(kH, kW)`, `数组长度必须为1或3`, `长度仅支持0、1、2`, `数组长度恒为2`, `长度为2的INT32数组`
_LENGTHS = re.compile(
    r"长度\s*(?:必须|需要?|仅支持|只支持|恒|固定)?\s*(?:为|是|=|：|:)?\s*"
    r"(\d{1,2}(?:\s*[(（][^()（）]{0,40}[)）])?(?:\s*(?:、|,|，|或者|或)\s*(?:长度为?\s*)?\d{1,2}(?:\s*[(（][^()（）]{0,40}[)）])?)*)"
    r"(?!\s*[\d.\-+*/维]|\s*[A-Za-z])"
)
_LENGTH_RANGE = re.compile(r"长度\s*(?:为|：|:)?\s*[\[［]\s*(\d{1,4})\s*[,，]\s*(\d{1,4})\s*[\]］]")
_RELATIVE = re.compile(r"维|减|[A-Za-z]\s*$|等于|小于|大于|不超过")
_PARENS = re.compile(r"[(（][^()（）]*[)）]")
# `仅支持32的倍数`, `要求是32的倍数`
_MULTIPLE = re.compile(r"(?:是|为|支持)?\s*(\d{1,6})\s*的(?:整数)?倍数")
# `C必须可以被group整除`: a multiple of another value parameter
_DIVIDED_BY = re.compile(r"(?:可以|能|需|要)?\s*被\s*([A-Za-z_]\w*)\s*(?:数)?\s*整除")
# `需要满足numHeads整除numKeyValueHeads`: the documents write "A整除B" for "A divisible by B" (the
# same documents' 约束说明: `numHeads是numKeyValueHeads的倍数关系`); with a modal word, `group需可以
# 整除self的第一维度`, they mean the reverse, so only the bare form is read
_DIVIDES = re.compile(r"(?<![被A-Za-z0-9_])([A-Za-z_]\w*)\s*整除\s*([A-Za-z_]\w*)")
# `numHeads与numKeyValueHeads的比值不能大于64`: the first value over the second at most N
_RATIO = re.compile(
    r"([A-Za-z_]\w*)\s*(?:与|和)\s*([A-Za-z_]\w*)\s*的比值\s*"
    r"(不能大于|不可大于|不得大于|不大于|不能超过|不超过|小于等于|<=|≤|小于|<)\s*(\d{1,6})(?![\d.])"
)


def _length_constraint(c: Constraint) -> Constraint | None:
    if (m := _LENGTH_RANGE.search(c.text)) is not None:
        low, high = sorted((int(m.group(1)), int(m.group(2))))
        return c.model_copy(update={"kind": "length", "min": low, "max": high})
    m = _LENGTHS.search(c.text)
    if m is None or _RELATIVE.search(c.text[: m.start()] + c.text[m.end() :].split("，")[0]):
        return None
    numbers = tuple(dict.fromkeys(int(n) for n in re.findall(r"\d+", _PARENS.sub("", m.group(1)))))
    return c.model_copy(update={"kind": "length", "values": numbers}) if numbers else None


def _multiple_constraint(c: Constraint, names: tuple[str, ...], own: str) -> Constraint | None:
    if (m := _MULTIPLE.search(c.text)) is not None and int(m.group(1)) >= 2:
        return c.model_copy(update={"kind": "multiple", "values": (int(m.group(1)),)})
    if (read := _two_values(c, names)) is not None:
        return read
    m = _DIVIDED_BY.search(c.text)
    subject = c.text[: m.start()] if m else ""
    if m and m.group(1) in names and m.group(1) != own and (own in subject or not re.search(r"[A-Za-z]", subject)):
        return c.model_copy(update={"kind": "multiple", "params": (m.group(1),)})
    return None


def _two_values(c: Constraint, names: tuple[str, ...]) -> Constraint | None:
    """A relation of two value parameters the statement names: (dividend, divisor) of a
    multiple, or (numerator, denominator) of a ratio with its upper bound."""
    if (m := _DIVIDES.search(c.text)) is not None and _distinct_names(m.group(1), m.group(2), names):
        return c.model_copy(update={"kind": "multiple", "params": (m.group(1), m.group(2))})
    if (m := _RATIO.search(c.text)) is not None and _distinct_names(m.group(1), m.group(2), names):
        inclusive = m.group(3) not in ("小于", "<")
        update = {
            "kind": "ratio",
            "params": (m.group(1), m.group(2)),
            "max": int(m.group(4)),
            "max_inclusive": inclusive,
        }
        return c.model_copy(update=update)
    return None


def _distinct_names(first: str, second: str, names: tuple[str, ...]) -> bool:
    return first != second and first in names and second in names


def value_statements(kind: str, name: str, constraints: list[Constraint], names: tuple[str, ...]) -> list[Constraint]:
    """The constraints of a value parameter with its length, multiple and ratio statements typed."""
    arrays = kind in ("int_array", "float_array", "bool_array", "string")
    out = []
    for c in constraints:
        read = None
        if c.kind == "text" and not _SITUATION.search(c.text):
            if arrays and _LENGTH_WORD.search(c.text):
                read = _length_constraint(c)
            elif kind == "int":
                read = _multiple_constraint(c, names, name)
        out.append(read or c)
    # A length statement left unread (`数组长度为weight维度减2`, `在2d场景下数组长度可以为4`) may allow
    # other lengths: the ones read are then no set to check against.
    if any(c.kind == "text" and _LENGTH_WORD.search(c.text) for c in out):
        return [
            c if c.kind != "length" else c.model_copy(update={"kind": "text", "values": (), "min": None, "max": None})
            for c in out
        ]
    return out


# A tensor's row saying it is taken transposed or not (aclnnDualLevelQuantMatmulWeightNz x1:
# `仅支持非转置。`, x2: `仅支持转置。`), where a bool parameter says whether that tensor is
# transposed (transposeX1: `表示x1的输入shape是否转置。`): the bool's one value.
TRANSPOSED_ONLY = re.compile(r"^(?:当前|目前)?(?:仅|只)支持(?P<not>非|不)?转置\s*[。.]?$")


def flag_of(tensor: str, params: list[Param]) -> Param | None:
    """The bool parameter that says whether `tensor` is transposed: by its description (`表示x1的
    输入shape是否转置`), else by its name (`transposeX1` for x1)."""
    said = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(tensor) + r"(?![A-Za-z0-9_])[^，,。；;]{0,12}是否转置")
    flags = [p for p in params if p.kind == "bool"]
    found = [p for p in flags if said.search(p.description or "")]
    found = found or [p for p in flags if p.name.lower() == "transpose" + tensor.lower()]
    return found[0] if len(found) == 1 else None


def transpose_flags(params: list[Param]) -> list[Param]:
    """Each bool transpose flag with the value its tensor's `仅支持(非)转置` statement gives it (an
    enum constraint quoting that statement); the tensor's statement becomes that enum, naming the
    flag in `params`."""
    added: dict[str, list[Constraint]] = {}
    retyped: dict[tuple[str, int], Constraint] = {}
    for p in params:
        for index, c in enumerate(p.constraints):
            m = TRANSPOSED_ONLY.match(c.text.strip())
            flag = flag_of(p.name, params) if m and p.kind == "tensor" and c.kind == "text" and not c.product else None
            if m is None or flag is None:
                continue
            values = (m.group("not") is None,)
            added.setdefault(flag.name, []).append(Constraint(kind="enum", text=c.text, line=c.line, values=values))
            retyped[p.name, index] = c.model_copy(update={"kind": "enum", "params": (flag.name,), "values": values})
    return [_with_flags(p, added.get(p.name, []), retyped) for p in params]


def _with_flags(p: Param, added: list[Constraint], retyped: dict[tuple[str, int], Constraint]) -> Param:
    if not added and not any(name == p.name for name, _ in retyped):
        return p
    constraints = tuple(retyped.get((p.name, i), c) for i, c in enumerate(p.constraints)) + tuple(added)
    return p.model_copy(update={"constraints": constraints})
