"""The values a string parameter takes (`支持{"rint", "round"}`, `仅支持“static”`, `支持 none、sum、mean`).

A string parameter's statements that quote or list values become `enum` constraints, each with
its own values, once one of them says the values are the supported ones: the validator
checks the union of them all, so a set stated for one situation (`当dstType为34时，支持{"round",
"hybrid"}`) widens the set rather than narrowing it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen import vocab
from specgen.model import Constraint

# `支持TND` (legacy/FlashAttentionUnpaddingScoreGradV2.md): one value, the clause's whole text
_ONE_VALUE = re.compile(r"^(?:当前|目前)?(?:仅|只)?支持\s*([A-Za-z_][A-Za-z0-9_]*)$")

# a quoted value: a word, or an einsum equation (`"abcd,abced->abce"`, `"a,b->ab"`)
_QUOTED = re.compile(r"[\"“”'‘’]([A-Za-z0-9_]{0,32}|[A-Za-z]+(?:,[A-Za-z]+)*->[A-Za-z]*)[\"“”'‘’]")
# `支持 none、sum、mean`, `支持取值round/ceil/trunc/floor`, `支持NHWC或NCHW`
_BARE_LIST = re.compile(
    r"(?:支持|取值)[^A-Za-z0-9_\"“'‘]{0,4}"
    r"([A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|,|，|/|\||或者|或|和)\s*[A-Za-z_][A-Za-z0-9_]*)+)"
)
_SEPARATOR = re.compile(r"\s*(?:、|,|，|/|\||或者|或|和)\s*")
# A statement that says which values are supported, not one that describes a value.
_SET_STATEMENT = re.compile(r"支持|取值|可配置为|必须是|只能|可选值")


# `当quantMode取"pertensor"或"perchannel"时，groupIndexOptional必须是nullptr`: the values quoted
# lead a rule on something else; the statement sets no values
_CONDITION_ONLY = re.compile(r"^(?:当|若|如果)(?P<cond>[^，,；;。]+?)时\s*[，,](?P<rule>.+)$")


def _values(text: str) -> tuple[str, ...]:
    m = _CONDITION_ONLY.match(text.strip())
    if m and _QUOTED.search(m.group("cond")) and not _QUOTED.search(m.group("rule")):
        return ()
    quoted = _QUOTED.findall(text)
    if quoted:
        return tuple(dict.fromkeys(quoted))
    bare = _BARE_LIST.search(text)
    if bare:
        return tuple(dict.fromkeys(_SEPARATOR.split(bare.group(1))))
    one = _ONE_VALUE.match(text.strip())
    return (one.group(1),) if one else ()


def stated_sets(description: list[str], line: int) -> tuple[list[Constraint], list[str]]:
    """The description clauses of a string parameter that state its values (`用于标识…的数据排布
    格式，当前支持BSH、BNSD、BSND`: the set rides in the bullet's first, descriptive sentence) as
    text constraints on `line`, and the description left."""
    stated = [c for c in description if _SET_STATEMENT.search(c) and _values(c)]
    kept = [c for c in description if c not in stated]
    return [Constraint(kind="text", text=c, line=line) for c in stated], kept


def string_sets(constraints: list[Constraint]) -> list[Constraint]:
    """The constraints of a string parameter with the statements that quote or list its values
    read as `enum`; unchanged when no statement says the values are the supported ones."""
    read = {i: v for i, c in enumerate(constraints) if c.kind == "text" and (v := _values(c.text))}
    if not any(_SET_STATEMENT.search(constraints[i].text) for i in read):
        return constraints
    return [
        c.model_copy(update={"kind": "enum", "values": read[i]}) if i in read else c for i, c in enumerate(constraints)
    ]


# `当yDtype为FLOAT8_E4M3FN/FLOAT8_E5M2时，仅支持{"rint"}`, `当yOut的数据类型为A或B时，…`: a set held
# while a tensor has one of some dtypes
_DTYPE_CONDITION = re.compile(
    r"^(?:当|若|如果)\s*(?P<subject>[A-Za-z_][A-Za-z0-9_]*?)\s*(?:Dtype|的?数据类型|的?dtype)\s*(?:为|是)\s*"
    r"(?P<dtypes>[A-Za-z0-9_]+(?:\s*(?:/|、|或|和)\s*[A-Za-z0-9_]+)*)\s*时"
)
_DTYPE_SEPARATOR = re.compile(r"\s*(?:/|、|或|和)\s*")
# the suffixes by which a statement's `y` names the parameter yOut
_NAME_SUFFIXES = ("", "Out", "Ref", "Optional")


def held_sets(constraints: list[Constraint], tensors: Sequence[str]) -> list[Constraint]:
    """The value sets held while a tensor has some dtypes (see `_DTYPE_CONDITION`), each with its
    condition as `when`; a condition naming no one tensor, or a dtype not known, leaves the set
    as it was (a part of the union the validator checks, never narrowed on a guess)."""
    return [c.model_copy(update={"when": when}) if c.kind == "enum" and (when := _held(c.text, tensors)) else c
            for c in constraints]  # fmt: skip


def _held(text: str, tensors: Sequence[str]) -> tuple[str, ...]:
    m = _DTYPE_CONDITION.match(text.strip())
    if m is None:
        return ()
    named = [m.group("subject") + suffix for suffix in _NAME_SUFFIXES if m.group("subject") + suffix in tensors]
    dtypes = [vocab.dtype(d) for d in _DTYPE_SEPARATOR.split(m.group("dtypes"))]
    if len(named) != 1 or not all(dtypes):
        return ()
    return (named[0], "dtype", "/".join(d for d in dtypes if d), "true")
