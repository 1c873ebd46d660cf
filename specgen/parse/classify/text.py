"""The words of a clause: the parameters it names, dtype and format lists, and whether a
bound in it is on the subject's own value. Also what every rule shares: the `Context` it reads
with and how it makes a constraint."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from specgen import vocab
from specgen.model import Constraint

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Statement:
    """A located statement the shape and dtype readers take: its text and line."""

    text: str
    line: int
    cell: bool = False  # the parameter table's shape column (`与self一致` there speaks of the shape)
    indent: int = 0  # the constraints section's lines: how deep in a list (the line's leading spaces)


# Entries of each cache of a pure function of a clause (`functools.lru_cache`): clauses recur
# from parameter to parameter and from document to document (`支持空Tensor`); a corpus has a
# few thousand distinct ones.
TEXT_CACHE = 16384
DTYPE_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule needs to know about the clause's surroundings."""

    subject: str | None  # the parameter the clause is about (None for error conditions)
    params: tuple[str, ...]  # every parameter name of the function
    line: int
    statement: str = ""  # the whole statement the clause is part of (`N为self的维度` may follow)

    def within(self, statement: str) -> Context:
        """The context of a clause of `statement` (built directly: `dataclasses.replace` is slow)."""
        return Context(self.subject, self.params, self.line, statement)

    def named(self, text: str) -> tuple[str, ...]:
        """Parameters named in `text`, in order of appearance, without the subject."""
        return tuple(p for p in names_in(text, self.params) if p != self.subject)


# Words of the documents' prose (English words, C types) that sit one letter from a parameter
# name somewhere and mean themselves: "tensor" is no misspelt `tensors`, "height" no `weight`.
# Seen in the error tables and prose of the ops-nn documents.
PLAIN_WORDS = frozenset(
    """float double int bool true false shape shapes dtype dtypes format formats tensor tensors scalar
    scalars input inputs output outputs result results mode modes axis axes dim dims size sizes value
    values index indices none null nullptr sum mean max min update updates height width weight length
    kernel kernels transpose scaled scale limit limits gradient gradients repeat repeats other others
    buffer buffers number numbers stride strides offset offsets group groups""".split()
)


def names_in(text: str, params: Iterable[str], typos: dict[str, str] | None = None) -> list[str]:
    """Parameters named in `text`, in order. A word one edit away from exactly one parameter
    name (`gradIOutput`) counts as that parameter, unless it is a plain word ("tensor" for
    `tensors`) or a numbered sibling (`x1Scale` for `x2Scale`); `typos` collects such readings."""
    names = set(params)
    seen: dict[str, None] = {}
    for word in IDENT.findall(text):
        if word in names:
            seen.setdefault(word, None)
        elif (spelt := snake_spelling(word, names)) is not None:
            seen.setdefault(spelt, None)
        elif len(word) >= 6 and typos is not None and word.lower() not in PLAIN_WORDS:
            close = [n for n in names if _one_edit(word, n) and not differs_in_digits(word, n)]
            if len(close) == 1:
                typos[word] = close[0]
                seen.setdefault(close[0], None)
    return list(seen)


def snake_spelling(word: str, names: Iterable[str]) -> str | None:
    """The one parameter a snake_case word of the prose spells in camelCase: `grad_output` is
    `gradOutput` (case ignored, underscores removed; the formulas and descriptions write names
    so, "公式中的grad_output"); None when the word has no inner underscore or no single match."""
    if "_" not in word.strip("_"):
        return None
    key = word.replace("_", "").lower()
    found = [n for n in names if "_" not in n and n.lower() == key]
    return found[0] if len(found) == 1 else None


def differs_in_digits(a: str, b: str) -> bool:
    """`x1Scale` vs `x2Scale`: numbered siblings, not a typo of each other."""
    return re.sub(r"\d", "#", a) == re.sub(r"\d", "#", b)


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


def constraint(kind: str, text: str, ctx: Context, **fields: object) -> Constraint:
    """A constraint read from `text`, on the line the context is at."""
    return Constraint(kind=kind, text=text, line=ctx.line, **fields)  # type: ignore[arg-type]


def read(rule: Callable[..., list], *args: object) -> list:
    """`rule(*args)`, or nothing when the numbers it read fit no C type (beyond int64 or
    double, or too many digits to convert): such a statement stays untyped text."""
    try:
        return rule(*args)
    except (ValueError, OverflowError):  # pydantic's ValidationError is a ValueError
        return []


def dtype_list(text: str) -> tuple[list[str], list[str]]:
    """(canonical dtypes, unknown upper-case tokens) in a dtype list such as `FLOAT、FLOAT16`."""
    found: list[str] = []
    unknown: list[str] = []
    for token in DTYPE_TOKEN.findall(text):
        name = vocab.dtype(token)
        if name and name not in found:
            found.append(name)
        elif name is None and token.isupper() and len(token) > 2:
            unknown.append(token)
    return found, unknown


def format_list(text: str) -> list[str]:
    out: list[str] = []
    for token in DTYPE_TOKEN.findall(text):
        name = vocab.data_format(token)
        if name and name not in out:
            out.append(name)
    return out


# Identifiers that name no quantity (`shape大于…` is about the subject's shape, not about `shape`).
_GENERIC = frozenset(
    "shape Shape dtype size Tensor tensor TensorList aclTensor aclTensorList aclIntArray aclScalar "
    "aclFloatArray aclBoolArray int float bool double true false True False ND NZ Host Device host device "
    "per token channel".split()
)


def _owner(before: str) -> str | None:
    """The quantity a bound is stated on: the last identifier before it that names one
    (`S<=1024` bounds S; `n为64的整数倍且大于等于128` bounds n), or None."""
    for word in reversed(IDENT.findall(before)):
        if word not in _GENERIC and not vocab.dtype(word) and not vocab.data_format(word):
            return word
    return None


def about_subject(before: str, ctx: Context) -> bool:
    """True when what precedes a bound leaves it on the subject's own value."""
    owner = _owner(before)
    if owner is None or ctx.subject is None:
        return owner is None
    stems = {ctx.subject, ctx.subject.removesuffix("Optional"), ctx.subject.removesuffix("Ref")}
    return owner in stems
