"""The documented functions' calls in a sample program, argument by argument.

A document's sample (its 调用示例 C++ program) holds the one call of each function its
authors wrote and ran. `find_calls` takes, for each documented function, the first call of
`<name>GetWorkspaceSize(...)` in the code and follows the sample's variables back to how each
argument is made: tensors with their shape, dtype, format (and strides when the sample gives
its own), tensor lists, scalars and arrays with their values, plain values, strings, null
pointers. What cannot be read for certain is named in `CallArg.unresolved`, never guessed.

This is a tokenizer and a small statement reader, not a C++ parser. It knows the forms samples
use: declarations, assignments, element writes and push_back, `&out` parameters of helpers
the sample defines (whose definitions it reads), the aclCreate* functions, brace lists and
integer arithmetic of known constants. A value set in a branch or loop that does not enclose
its use is given up ("set conditionally"). Every step is bounded: damaged or hostile code
ends quickly in fewer or unresolved results, never in an exception.
"""

from __future__ import annotations

import bisect
import math
import re
import struct
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

import specgen
from specgen import vocab
from specgen.model import LIMIT, CallArg, SampleCall

__all__ = ["find_calls"]

GWS = "GetWorkspaceSize"
MAX_CODE = 400_000  # characters: real samples are under 40 KB; more is not a sample
BUDGET = 200_000  # expression tokens and events looked at per sample: real samples take under 5000
MAX_DEPTH = 40  # nested evaluations (variables defined from variables, helpers, ...)
MAX_LIST = 10_000  # elements of a list built from a count

Slice = tuple[int, int]  # tokens [start, end) of the program

# ---------------------------------------------------------------- tokens


@dataclass
class _Tokens:
    """Tokens by column, token i being kinds[i], texts[i], ...: a sample has a thousand or
    more, and an object each would cost more to make and to garbage-collect than the rest of
    the reading. An operator's or a keyword's text tells its kind: `texts[i] == "("` is enough."""

    kinds: list[str] = field(default_factory=list)  # id, num, str, chr, op
    texts: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # offsets in the code (macro bodies: in their directive)

    def add(self, kind: str, text: str, line: int, start: int) -> None:
        self.kinds.append(kind)
        self.texts.append(text)
        self.lines.append(line)
        self.starts.append(start)

    def extend(self, other: _Tokens) -> None:
        self.kinds += other.kinds
        self.texts += other.texts
        self.lines += other.lines
        self.starts += other.starts


# Each match is a token and the blanks before it (blanks matched on their own would double
# the matches); comments and preprocessor lines are matched to be dropped. `findall` gives
# (blanks, token) pairs, the fastest way through the code: a token's offset follows from the
# lengths, and its kind from its first character.
_TOKEN = re.compile(
    r"([ \t\r\f\v\n]*+)("
    r"//[^\n]*|/\*.*?(?:\*/|\Z)"  # a comment
    r"|\#(?:[^\n\\]|\\.)*"  # a preprocessor line
    r"|[A-Za-z_]\w*"  # a name
    r"|\.?\d(?:[eEpP][+-]|[\w.'])*"  # a number
    r'|"(?:[^"\\\n]|\\.)*"'  # a string
    r"|'(?:[^'\\\n]|\\.)*'"  # a character
    r"|::|->|\+\+|--|<<=|>>=|<<|>>|&&|\|\||[-+*/%&|^!=<>]=|.)",  # an operator
    re.S | re.A,
)
_KIND_OF_FIRST = (
    {c: "id" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"}
    | {c: "num" for c in "0123456789"}
    | {c: "?" for c in "./#\"'"}  # see `_odd_kind`
)  # other first characters: an operator
_DEFINE = re.compile(r"\#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])(.*)", re.S | re.A)


def _lex(code: str, first_line: int, directives: bool = True) -> tuple[_Tokens, list[tuple[str, _Tokens]]]:
    """Tokens without comments and preprocessor lines; object-like #defines aside."""
    toks = _Tokens()
    kinds, texts, lines, starts = toks.kinds, toks.texts, toks.lines, toks.starts
    macros: list[tuple[str, _Tokens]] = []
    line, end = first_line, 0
    for blanks, text in _TOKEN.findall(code.rstrip()):  # rstrip: trailing blanks would be rescanned
        start = end + len(blanks)
        end = start + len(text)
        if "\n" in blanks:
            line += blanks.count("\n")
        kind = _KIND_OF_FIRST.get(text[0], "op")
        newlines = 0
        if kind == "?":
            kind = _odd_kind(text)
            newlines = text.count("\n")  # comments, continued lines, strings with an escaped line end
            if kind == "com" or kind == "pp":
                if kind == "pp" and directives and (d := _DEFINE.match(text)):
                    body = d.group(2).replace("\\\n", " \n")
                    macros.append((d.group(1), _lex(body, line, directives=False)[0]))
                line += newlines
                continue
        kinds.append(kind)
        texts.append(text)
        lines.append(line)
        starts.append(start)
        line += newlines
    return toks, macros


def _odd_kind(text: str) -> str:
    """The kind of a token whose first character does not tell it alone: `.5` is a number
    and `.` an operator, `//` a comment and `/=` an operator, a quote left open an operator."""
    first = text[0]
    if first == "#":
        return "pp"
    if len(text) == 1:
        return "op"
    if first == ".":
        return "num"
    if first == "/":
        return "com" if text[1] in "/*" else "op"
    return "str" if first == '"' else "chr"


_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_BRACKETS_AND_AMPERSAND = {*_OPENERS, *_CLOSERS, "&"}


def _brackets(texts: list[str], a: int, b: int, match: list[int], enclosing: dict[int, int]) -> None:
    """Pair brackets of tokens [a, b) (braces win over parentheses left open) and note for
    each `&` its innermost open bracket."""
    stack: list[int] = []
    for i in [k for k in range(a, b) if texts[k] in _BRACKETS_AND_AMPERSAND]:  # the few tokens to look at
        text = texts[i]
        if text == "&":
            enclosing[i] = stack[-1] if stack else -1
        elif text in _OPENERS:
            stack.append(i)
        else:
            want = _CLOSERS[text]
            while stack and want != texts[stack[-1]] and (want == "{" or texts[stack[-1]] == "["):
                stack.pop()
            if stack and texts[stack[-1]] == want:
                o = stack.pop()
                match[o], match[i] = i, o


# ---------------------------------------------------------------- program structure


@dataclass
class _Param:
    name: str
    type: Slice  # token slice
    default: Slice | None = None


@dataclass
class _Decl:
    name: str
    type: Slice
    dims: list[Slice]  # array bounds
    init: tuple[str, int, int] | None  # ("expr", a, b) | ("brace", open, close) | ("ctor", a, b)


@dataclass
class _Event:
    """Something a statement does to a variable."""

    kind: str  # decl assign elem deref append modify pass return
    name: str
    stmt: int
    line: int
    expr: Slice | None = None  # the value written
    out: tuple[int, int] | None = None  # (paren, arg index): written through &name by a call
    index: Slice | None = None  # elem: the index
    decl: _Decl | None = None


@dataclass
class _Stmt:
    start: int
    end: int
    path: tuple[int, ...]  # the branches and loops it is in


@dataclass
class _Func:
    name: str
    params: list[_Param]
    stmts: list[_Stmt] = field(default_factory=list)
    # filled as the evaluator asks (see _Program.events): most statements are never asked about
    events: dict[str, list[_Event]] = field(default_factory=dict)  # name -> what statements do to it
    positions: dict[str, list[int]] = field(default_factory=dict)  # name -> the statements of its events
    read: dict[int, list[_Event]] = field(default_factory=dict)  # statement -> all its events
    holding: dict[str, list[int]] = field(default_factory=dict)  # word -> the statements holding it


@dataclass
class _Block:
    kind: str  # ns func ctrl plain
    id: int
    braced: bool
    func: _Func | None = None


@dataclass
class _Branch:
    """A block statements can be in: an `if` taken when the condition (statement `stmt` of
    `func`) holds, an `else` taken when that of its `partner` does not, or a loop or other
    block (`kind` "loop") whose statements may run any number of times."""

    kind: str  # if else loop
    func: _Func | None = None
    stmt: int = -1
    partner: int = 0


_CONTROL = {"if", "while", "for", "switch", "catch"}
_KEYWORDS = {
    "return", "delete", "throw", "goto", "case", "default", "new", "using", "typedef", "namespace",
    "template", "sizeof", "if", "else", "for", "while", "do", "switch", "break", "continue",
    "operator", "public", "private", "protected", "friend", "static_assert", "try", "catch",
}  # fmt: skip
_QUALIFIERS = {
    "const", "static", "constexpr", "volatile", "inline", "thread_local", "register", "extern",
    "mutable", "typename", "struct", "class", "enum", "union",
}  # fmt: skip
_SIGNS = {"unsigned", "signed", "long", "short"}
_QUALIFIERS_OR_SIGNS = _QUALIFIERS | _SIGNS
_TAIL = {"const", "noexcept", "override", "final"}
_ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}
_MUTATORS = {"resize", "clear", "assign", "insert", "erase", "pop_back", "swap", "fill", "emplace", "push_front"}
_READERS = {"sizeof", "printf", "LOG_PRINT", "CHECK_RET", "std", "memcpy_s", "decltype"}
_RETURN = "<return>"
_USE_OPERATORS = {"&", "++", "--"}  # the operators `_uses` looks at
_USE_FOLLOWERS = {"(", ".", "<"}  # what follows the names it looks at
_MACRO = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # a function-like macro: its arguments may be assigned


class _Program:
    """The sample's tokens, statements (by function) and what each statement does."""

    def __init__(self, code: str, first_line: int) -> None:
        self.code = code
        toks, macros = _lex(code, first_line)
        self.n = len(toks.texts)
        self.macros: dict[str, Slice] = {}
        spans = [(0, self.n)]
        for name, body in macros:
            a = len(toks.texts)
            toks.extend(body)
            self.macros[name] = (a, len(toks.texts))
            spans.append((a, len(toks.texts)))
            toks.add("op", ";", 0, 0)
        self.kinds, self.texts, self.lines = toks.kinds, toks.texts, toks.lines
        self.starts = toks.starts
        self.size = len(self.texts)
        self.match = [-1] * self.size
        self.enclosing: dict[int, int] = {}  # & -> its innermost open bracket
        for a, b in spans:
            _brackets(self.texts, a, b, self.match, self.enclosing)
        self._split: dict[tuple[int, bool], list[tuple[int, int]]] = {}
        self._starts: dict[int, dict[int, int]] = {}
        self.globals = _Func("", [])
        self.funcs: dict[str, list[_Func]] = {}
        self.stmt_starts: list[int] = []
        self.stmt_refs: list[tuple[_Func, int]] = []
        self.branches: dict[int, _Branch] = {}
        _Reader(self).run()
        self.calls_to: dict[str, list[tuple[_Func, int, int]]] = {}  # filled as statements are read
        self.names = self._names()
        # The statement running to the end of the program may read on into the macro bodies
        # after it (`f` then a body `(x)` is a call): its events may name tokens beyond it.
        self.last = self.statement_of(self.n - 1) if self.size > self.n else None

    # -- token helpers

    def text(self, i: int) -> str:
        return self.texts[i] if 0 <= i < self.size else ""

    def is_op(self, i: int, text: str) -> bool:
        """Whether token i is the operator `text` (punctuation: no other kind of token has it)."""
        return 0 <= i < self.size and self.texts[i] == text

    def is_id(self, i: int) -> bool:
        return 0 <= i < self.size and self.kinds[i] == "id"

    def skip(self, i: int) -> int:
        """The index after the bracketed group opening at i, else i + 1."""
        close = self.match[i]
        return close + 1 if close > i else i + 1  # only an opener is matched to a later token

    def names_in(self, a: int, b: int) -> list[str]:
        """The names among tokens [a, b)."""
        return [text for text, kind in zip(self.texts[a:b], self.kinds[a:b], strict=True) if kind == "id"]

    def source(self, a: int, b: int) -> str:
        if a >= b or b > self.n:
            return ""
        return " ".join(self.code[self.starts[a] : self.starts[b - 1] + len(self.texts[b - 1])].split())

    def args(self, open_: int, angles: bool = False) -> list[Slice]:
        """The comma-separated slices inside the bracket opening at `open_`."""
        key = (open_, angles)
        if key not in self._split:
            self._split[key] = self._args(open_, angles)
        return self._split[key]

    def arg_at(self, open_: int, start: int) -> int | None:
        """The position of the argument starting at token `start` in the call at `open_`."""
        if open_ not in self._starts:
            self._starts[open_] = {a: k for k, (a, _) in enumerate(self.args(open_))}
        return self._starts[open_].get(start)

    def _args(self, open_: int, angles: bool) -> list[Slice]:
        close = self.match[open_]
        if close <= open_:
            return []
        out: list[Slice] = []
        a = j = open_ + 1
        depth = 0
        texts, match = self.texts, self.match
        while j < close:
            text = texts[j]
            if text == "," and depth <= 0:
                out.append((a, j))
                a = j + 1
            elif angles and text in ("<", ">", ">>"):
                depth += {"<": 1, ">": -1, ">>": -2}[text]
            j = match[j] + 1 if match[j] > j else j + 1  # over a bracketed group
        if a < close or out:
            out.append((a, close))
        return out

    def angle_end(self, i: int, e: int, limit: int = 1_000_000) -> int | None:
        """The index after the template argument list opening at i, if it closes before e
        (and within `limit` tokens)."""
        depth = 0
        j, end = i, min(e, i + limit)
        while j < end:
            if self.kinds[j] == "op":
                text = self.texts[j]
                if text in (";", "{", "}", "&&", "||", "="):
                    return None
                depth += {"<": 1, ">": -1, ">>": -2}.get(text, 0)
                if depth <= 0:
                    return j + 1
            j = self.skip(j)
        return None

    def top_level(self, a: int, b: int, texts: set[str]) -> int | None:
        """The first operator of `texts` in tokens [a, b) outside brackets."""
        j, match = a, self.match
        while j < b:
            if self.texts[j] in texts:
                return j
            j = match[j] + 1 if match[j] > j else j + 1  # over a bracketed group
        return None

    def callee(self, paren: int) -> str:
        """The name of the function called at `paren`: f(...) or f<T>(...)."""
        if self.is_id(paren - 1):
            return self.texts[paren - 1]
        depth = 0
        for j in range(paren - 1, max(paren - 40, 0), -1):  # back over <T>
            depth += {">": 1, ">>": 2, "<": -1}.get(self.texts[j], 0)
            if depth <= 0:
                return self.texts[j - 1] if self.is_op(j, "<") and self.is_id(j - 1) else ""
        return ""

    def helper(self, name: str, n_args: int) -> _Func | None:
        """The function the sample defines under `name` taking n_args arguments."""
        found = self.funcs.get(name, [])
        fits = [f for f in found if sum(not p.default for p in f.params) <= n_args <= len(f.params)]
        return fits[0] if len(fits) == 1 else None

    def statement_of(self, i: int) -> tuple[_Func, int] | None:
        k = bisect.bisect_right(self.stmt_starts, i) - 1
        if k < 0:
            return None
        func, si = self.stmt_refs[k]
        return (func, si) if i < func.stmts[si].end else None

    # -- declarations

    def declaration(self, s: int, e: int) -> list[_Decl] | None:
        """The declarators of `T a = x, *b{...}, c[2], d(1);`, or None if not a declaration."""
        i, signed = s, False
        while i < e and self.is_id(i) and self.texts[i] in _QUALIFIERS_OR_SIGNS:
            signed |= self.texts[i] in _SIGNS
            i += 1
        implicit_int = signed and self.is_id(i) and self.text(i + 1) in ("=", ";", ",", "[", "{", "(", "")
        if not implicit_int:
            if not self.is_id(i) or self.texts[i] in _KEYWORDS:
                return None
            after_type = self._type_name(i, e)
            if after_type is None:
                return None
            i = after_type
        type_end = i
        decls: list[_Decl] = []
        while i < e:
            while i < e and (self.text(i) in ("*", "&", "&&") or self.text(i) in ("const", "volatile")):
                i += 1
            type_end = max(type_end, i) if not decls else type_end
            if not self.is_id(i) or self.texts[i] in _KEYWORDS:
                return None
            name, i = self.texts[i], i + 1
            dims = []
            while i < e and self.is_op(i, "[") and self.match[i] > i:
                dims.append((i + 1, self.match[i]))
                i = self.match[i] + 1
            init: tuple[str, int, int] | None = None
            if i < e and self.is_op(i, "="):
                end = self.top_level(i + 1, e, {","})
                end = e if end is None else end
                init, i = ("expr", i + 1, end), end
            elif i < e and self.is_op(i, "{") and self.match[i] > i:
                init, i = ("brace", i, self.match[i]), self.match[i] + 1
            elif i < e and self.is_op(i, "(") and self.match[i] > i:
                init, i = ("ctor", i + 1, self.match[i]), self.match[i] + 1
            decls.append(_Decl(name, (s, type_end), dims, init))
            if i < e and not self.is_op(i, ","):
                return None
            i += 1
        return decls or None

    def _type_name(self, i: int, e: int) -> int | None:
        """The index after a type name (a::b<c>::d) starting at i."""
        while i < e and self.is_id(i):
            i += 1
            if self.is_op(i, "<"):
                end = self.angle_end(i, e)
                if end is None:
                    return None
                i = end
            if not self.is_op(i, "::"):
                return i
            i += 1
        return None

    # -- what statements do

    def _names(self) -> dict[str, list[int]]:
        """Each name -> its tokens, in order (macro bodies included: a `for (` at the end of
        the program reads on into them)."""
        kinds, texts = self.kinds, self.texts
        names: defaultdict[str, list[int]] = defaultdict(list)
        for i in [i for i in range(self.size) if kinds[i] == "id"]:
            names[texts[i]].append(i)
        return names

    def events(self, func: _Func, name: str) -> list[_Event]:
        """What the statements of func do to variable `name` (or "x.y", or _RETURN), in order.

        An event on a name is made by a statement holding the name (x for "x.y", `return`
        for _RETURN), so only those statements are read, once each, when first asked about."""
        found = func.events.get(name)
        if found is None:
            holding = self._statements_with(func, _word_of(name))
            found = [e for si in holding for e in self._read(func, si) if e.name == name]
            func.events[name] = found
            func.positions[name] = [e.stmt for e in found]
        return found

    def events_before(self, func: _Func, name: str, pos: int) -> Iterator[_Event]:
        """The events of `events(func, name)` before statement pos, last first: a lookup
        mostly stops at the nearest definition, and earlier statements need not be read."""
        if name in func.events:
            yield from reversed(func.events[name][: bisect.bisect_left(func.positions[name], pos)])
            return
        holding = self._statements_with(func, _word_of(name))
        for si in reversed(holding[: bisect.bisect_left(holding, pos)]):
            for e in reversed(self._read(func, si)):
                if e.name == name:
                    yield e

    def _statements_with(self, func: _Func, word: str) -> list[int]:
        """The statements of func holding token `word`, in order (and the program's last
        statement, which may read on into the macro bodies: see `last`)."""
        if word in func.holding:
            return func.holding[word]
        out: list[int] = []
        for i in self.names.get(word, []):
            where = self.statement_of(i)
            if where is not None and where[0] is func and (not out or out[-1] != where[1]):
                out.append(where[1])
        if self.last is not None and self.last[0] is func and (not out or out[-1] != self.last[1]):
            out.append(self.last[1])
        func.holding[word] = out
        return out

    def call_sites(self, name: str) -> list[tuple[_Func, int, int]]:
        """The calls of the sample's function `name`: (function, statement, paren), in order."""
        for i in self.names.get(name, []):
            where = self.statement_of(i)
            if where is not None and (where[0] is self.globals or where[0].name):  # not a struct's member
                self._read(*where)
        return sorted(self.calls_to.get(name, []), key=lambda site: site[2])

    def _read(self, func: _Func, si: int) -> list[_Event]:
        """The events of statement si of func (read once)."""
        if si not in func.read:
            func.read[si] = self._events(func, si, func.stmts[si])
        return func.read[si]

    def _events(self, func: _Func, si: int, st: _Stmt) -> list[_Event]:
        s, e = st.start, st.end
        out: list[_Event] = []
        decls = self.declaration(s, e) if self.text(s) != "return" else None
        if decls is not None:
            out += [_Event("decl", d.name, si, self.lines[s], decl=d) for d in decls]
        elif self.text(s) == "return":
            out.append(_Event("return", _RETURN, si, self.lines[s], expr=(s + 1, e)))
        else:
            out += self._assignment(si, s, e)
        return out + self._uses(func, si, s, e)

    def _assignment(self, si: int, s: int, e: int) -> list[_Event]:
        q = self.top_level(s, e, _ASSIGN)
        if q is None or not self.is_id(s) and not self.is_op(s, "*"):
            return []
        op, line, value = self.texts[q], self.lines[s], (q + 1, e)
        if self.is_id(s) and q == s + 1:
            kind = "assign" if op == "=" else "modify"
            return [_Event(kind, self.texts[s], si, line, expr=value)]
        if self.is_op(s, "*") and self.is_id(s + 1) and q == s + 2:
            return [_Event("deref" if op == "=" else "modify", self.texts[s + 1], si, line, expr=value)]
        if not self.is_id(s):
            return []
        name = self.texts[s]
        if op == "=" and self.is_op(s + 1, "[") and self.match[s + 1] == q - 1:
            return [_Event("elem", name, si, line, expr=value, index=(s + 2, q - 1))]
        changed = [_Event("modify", name, si, line)]
        if op == "=" and self.is_op(s + 1, ".") and self.is_id(s + 2) and q == s + 3:  # a struct member
            changed.append(_Event("assign", f"{name}.{self.texts[s + 2]}", si, line, expr=value))
        return changed

    def _uses(self, func: _Func, si: int, s: int, e: int) -> list[_Event]:
        """Writes through &name, method calls that change a container, ++/--, and variables
        handed to the sample's own functions."""
        out: list[_Event] = []
        for j in self._use_sites(s, e):
            kind, text, line = self.kinds[j], self.texts[j], self.lines[j]
            if text == "&" and self.text(j - 1) in ("(", ","):
                out += self._address_use(si, j)
            elif text in ("++", "--"):
                for k in (j - 1, j + 1):
                    if s <= k < e and self.is_id(k) and not self.is_op(k - 1, "."):
                        out.append(_Event("modify", self.texts[k], si, line))
            elif kind == "id" and self.is_op(j + 1, ".") and self.is_id(j + 2) and self.is_op(j + 3, "("):
                method = self.texts[j + 2]
                if method in ("push_back", "emplace_back") and self.match[j + 3] > j + 3:
                    out.append(_Event("append", text, si, line, expr=(j + 4, self.match[j + 3])))
                elif method == "reset" and self.match[j + 3] > j + 3:  # a smart pointer takes a new object
                    out.append(_Event("assign", text, si, line, expr=(j + 4, self.match[j + 3])))
                elif method in _MUTATORS:
                    out.append(_Event("modify", text, si, line))
            elif text in ("strcpy", "strcpy_s") and self.is_op(j + 1, "("):
                args = self.args(j + 1)
                if len(args) >= 2 and args[0][1] == args[0][0] + 1 and self.is_id(args[0][0]):
                    out.append(_Event("assign", self.texts[args[0][0]], si, line, expr=args[-1]))
            elif kind == "id" and text not in _READERS and not self.library_creator(text):
                paren = self.angle_end(j + 1, e, 16) if text in self.funcs and self.is_op(j + 1, "<") else j + 1
                if paren is not None and self.is_op(paren, "("):  # f(...), f<T>(...)
                    out += self._call_uses(func, si, j, paren)
        return out

    def _use_sites(self, s: int, e: int) -> list[int]:
        """The tokens of [s, e) where `_uses` may find something: &, ++, -- and names followed
        by `(`, `.` or `<` (calls, method calls, f<T>(...))."""
        kinds, texts = self.kinds, self.texts
        following = texts[s + 1 : e + 1] + [""]  # the token after each ("" after the last of all)
        return [
            j
            for j, after in zip(range(s, e), following, strict=False)
            if texts[j] in _USE_OPERATORS or after in _USE_FOLLOWERS and kinds[j] == "id"
        ]

    def _call_uses(self, func: _Func, si: int, j: int, paren: int) -> list[_Event]:
        """`f(..., buffer + i, ...)`: f fills the buffer; calls of the sample's own functions:
        the variables they are given."""
        name, line = self.texts[j], self.lines[j]
        out = []
        for a, b in self.args(paren):
            if b > a + 1 and self.is_id(a) and self.text(a + 1) in ("+", "-"):
                out.append(_Event("modify", self.texts[a], si, line))
        if _MACRO.match(name) and name not in self.funcs:  # CREATE_TENSOR(x, ...) may assign x
            out += [
                _Event("modify", self.texts[a], si, line) for a, b in self.args(paren) if b == a + 1 and self.is_id(a)
            ]
        if name in self.funcs and self.text(j - 1) not in (".", "->"):
            self.calls_to.setdefault(name, []).append((func, si, paren))
            for k, (a, b) in enumerate(self.args(paren)):
                if b == a + 1 and self.is_id(a):
                    out.append(_Event("pass", self.texts[a], si, line, out=(paren, k)))
        return out

    def library_creator(self, name: str) -> bool:
        """aclCreateTensor & co. return their object; a sample's own `aclCreateTensorP(..., &x)`
        is a helper like any other."""
        return name.startswith("aclCreate") and name not in self.funcs

    def _address_use(self, si: int, j: int) -> list[_Event]:
        paren = self.enclosing[j]
        callee = self.callee(paren) if paren > 0 and self.is_op(paren, "(") else ""
        start, closing = j + 1, None
        if self.is_op(start, "(") and self.match[start] > start:  # &(lse[0])
            start, closing = start + 1, self.match[start]
        if not callee or not self.is_id(start):
            return []
        if callee in _READERS or self.library_creator(callee):
            return []
        name, after, line = self.texts[start], start + 1, self.lines[paren]
        if self.is_op(after, ".") and self.is_id(after + 1):  # &resource.tensor
            name, after = f"{name}.{self.texts[after + 1]}", after + 2
        if self.is_op(after, "[") and self.match[after] > after:
            index, after = (after + 1, self.match[after]), self.match[after] + 1
        else:
            index = None
        if closing is not None:
            if after != closing:
                return []
            after = closing + 1
        if self.text(after) not in (",", ")"):
            return []
        k = self.arg_at(paren, j)
        if k is None:
            return []
        return [_Event("elem" if index else "assign", name, si, line, out=(paren, k), index=index)]


def _word_of(name: str) -> str:
    """The token every statement with an event on `name` holds: x for "x.y", `return` for _RETURN."""
    return "return" if name == _RETURN else name.split(".", 1)[0]


class _Reader:
    """Splits the tokens into statements, by function, each with the branches it is in."""

    def __init__(self, prog: _Program) -> None:
        self.p = prog
        self.stack: list[_Block] = []
        self.ids = 0
        self.closed_if = 0  # the `if` block an `else` read next belongs to

    def run(self) -> None:
        i = 0
        while i < self.p.n:
            i = self.step(i)

    def func(self) -> _Func | None:
        for block in reversed(self.stack):
            if block.kind == "func":
                return block.func
        return None

    def push(self, kind: str, braced: bool, func: _Func | None = None) -> None:
        self.ids += 1
        self.stack.append(_Block(kind, self.ids, braced, func))

    def record(self, func: _Func, a: int, b: int) -> None:
        if a >= b:
            return
        path = tuple([blk.id for blk in self.stack if blk.kind == "ctrl"])
        func.stmts.append(_Stmt(a, b, path))
        self.p.stmt_starts.append(a)
        self.p.stmt_refs.append((func, len(func.stmts) - 1))

    def end_statement(self, following: int) -> None:
        """A statement ended: so do the unbraced bodies around it, up to an `if` that the
        token at `following` continues with `else`."""
        self.closed_if = 0
        while self.stack and self.stack[-1].kind == "ctrl" and not self.stack[-1].braced:
            if self.pop_if(following):
                return

    def pop_if(self, following: int) -> bool:
        block = self.stack.pop()
        branch = self.p.branches.get(block.id)
        if branch is not None and branch.kind == "if" and self.p.text(following) == "else":
            self.closed_if = block.id
            return True
        return False

    def close(self, following: int) -> None:
        while self.stack and self.stack[-1].kind == "ctrl" and not self.stack[-1].braced:
            self.stack.pop()
        if self.stack and not self.pop_if(following):
            self.end_statement(following)

    def step(self, i: int) -> int:
        if self.p.texts[i] == "}":
            self.close(i + 1)
            return i + 1
        func = self.func()
        return self.body(i, func) if func is not None else self.top(i)

    def body(self, i: int, func: _Func) -> int:
        p = self.p
        text = p.texts[i]
        if text == ";":
            self.end_statement(i + 1)
            return i + 1
        if text == "{":
            self.push("plain", True)
            return i + 1
        if text in _CONTROL and p.is_op(i + 1, "(") and p.match[i + 1] > i + 1:
            a, close = i + 2, p.match[i + 1]
            while (semi := p.top_level(a, close, {";"})) is not None:  # for (init; condition; step)
                self.record(func, a, semi)
                a = semi + 1
            self.record(func, a, close)
            branch = _Branch("if", func, len(func.stmts) - 1) if text == "if" and a < close else _Branch("loop")
            return self.open_control(close + 1, branch)
        if text in ("else", "do"):
            branch = _Branch("else", partner=self.closed_if) if text == "else" and self.closed_if else _Branch("loop")
            return self.open_control(i + 1, branch)
        if text == "try":
            return i + 1
        if text in ("case", "default"):
            j = p.top_level(i, p.n, {":", ";", "{", "}"})
            return (j + 1 if p.is_op(j, ":") else j) if j is not None else p.n
        end = self.statement_end(i)
        self.record(func, i, end)
        if p.is_op(end, ";"):
            self.end_statement(end + 1)
            return end + 1
        return end

    def open_control(self, j: int, branch: _Branch) -> int:
        braced = self.p.is_op(j, "{")
        self.push("ctrl", braced)
        self.p.branches[self.ids] = branch
        return j + 1 if braced else j

    def statement_end(self, i: int) -> int:
        """The `;` (or `}`) ending the statement that starts at i."""
        texts, match, n = self.p.texts, self.p.match, self.p.n
        j = i
        while j < n:
            text = texts[j]
            if text == ";" or text == "}" and j > i:
                return j
            j = match[j] + 1 if match[j] > j else j + 1  # over a bracketed group
        return n

    def top(self, i: int) -> int:
        p = self.p
        if p.is_op(i, ";"):
            return i + 1
        if p.text(i) == "template" and p.is_op(i + 1, "<"):
            return p.angle_end(i + 1, p.n) or i + 2
        scope = next((b.func for b in reversed(self.stack) if b.kind == "ns" and b.func), p.globals)
        j, assigned = i, False  # assigned: an `=` so far, as in `int x[] = {...}`
        while j < p.n:
            text = p.texts[j]
            if text in (";", "}"):
                self.record(scope, i, j)
                return j + 1 if text == ";" else max(j, i + 1)
            assigned |= text == "="
            if text == "{" and not assigned:
                if (f := self.function_header(i, j)) is not None:
                    self.push("func", True, f)
                    return j + 1
                if p.text(i) in ("namespace", "struct", "class", "union", "extern"):
                    # a type's members are not variables of the program
                    self.push("ns", True, scope if p.text(i) in ("namespace", "extern") else _Func("", []))
                    return j + 1
            j = p.skip(j)
        self.record(scope, i, p.n)
        return p.n

    def function_header(self, i: int, j: int) -> _Func | None:
        p = self.p
        k = j - 1
        while k > i and p.is_id(k) and p.texts[k] in _TAIL:
            k -= 1
        if not p.is_op(k, ")") or not i < p.match[k] < k:
            return None
        paren = p.match[k]
        if not p.is_id(paren - 1) or paren - 1 < i or p.texts[paren - 1] in _KEYWORDS | _CONTROL:
            return None
        f = _Func(p.texts[paren - 1], self.params(paren))
        p.funcs.setdefault(f.name, []).append(f)
        return f

    def params(self, paren: int) -> list[_Param]:
        p = self.p
        out = []
        for a, b in p.args(paren, angles=True):
            end = p.top_level(a, b, {"="})
            default = None if end is None else (end + 1, b)
            b = b if end is None else end
            while b > a and p.is_op(b - 1, "]") and p.match[b - 1] >= a:
                b = p.match[b - 1]
            if b == a + 1 and p.text(a) == "void" or b <= a:
                continue
            named = p.is_id(b - 1) and b - 1 > a and p.text(b - 2) not in ("::",)
            out.append(_Param(p.texts[b - 1] if named else "", (a, b - 1 if named else b), default))
        return out


# ---------------------------------------------------------------- values


@dataclass
class _Val:
    """What an expression evaluates to, as far as it is known."""

    kind: str  # unknown num str enum null list tensor tensor_list scalar scalar_list int_array ... address
    line: int | None = None
    value: Any = None  # num, str: the value; enum: the canonical name
    enum: str = ""  # enum: "dtype" or "format"
    ctype: str | None = None  # num: the C type it was declared with
    items: list[_Val] | None = None  # list, tensor_list, scalar_list
    elements: tuple[Any, ...] | None = None  # int/float/bool arrays
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    format: str | None = None
    strides: tuple[int, ...] | None = None
    why: str = ""  # unknown: why; others: what part is unknown
    hint: str | None = None  # unknown: the declared kind (tensor, ...)
    src: str = ""  # list items: the element as written


def _but(v: _Val, **changes: Any) -> _Val:
    """A copy of v with some fields changed: `dataclasses.replace` without its per-field
    introspection, which made most of the evaluator's copying time."""
    copy = object.__new__(_Val)
    copy.__dict__.update(v.__dict__, **changes)
    return copy


def _unknown(why: str, line: int | None = None) -> _Val:
    return _Val("unknown", line=line, why=why)


def _num(value: Any, ctype: str | None = None) -> _Val:
    if isinstance(value, float) and not math.isfinite(value) or isinstance(value, int) and abs(value) > LIMIT:
        return _unknown("a number beyond the C types")
    return _Val("num", value=value, ctype=ctype)


_HEX = re.compile(r"0x[0-9a-f]+[ul]*")
_BIN = re.compile(r"0b[01]+[ul]*")
_OCT = re.compile(r"0[0-7]+[ul]*")
_DEC = re.compile(r"\d+[ul]*")
_FLOAT = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?[fl]?")


def _number(text: str) -> _Val:
    """A C numeric literal (1, -, 0x1F, 10L, 1.5f, 1e-3)."""
    t = text.replace("'", "").lower()
    try:
        if _HEX.fullmatch(t):
            return _num(int(t.rstrip("ul"), 16))
        if _BIN.fullmatch(t):
            return _num(int(t[2:].rstrip("ul"), 2))
        if _OCT.fullmatch(t):
            return _num(int(t.rstrip("ul"), 8))
        if _DEC.fullmatch(t):
            return _num(int(t.rstrip("ul")), "int" if t.isdigit() else None)
        if _FLOAT.fullmatch(t):
            ctype = "float" if t.endswith("f") else None if t.endswith("l") else "double"
            return _num(float(t.rstrip("fl")), ctype)
    except (ValueError, OverflowError):
        pass
    return _unknown(f"the number {text[:20]!r} is not read")


_INT_CTYPES = {
    "int", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "size_t", "long", "short", "unsigned", "signed", "char",
}  # fmt: skip
_FLOAT_CTYPES = {"float", "double"}
_NUM_CTYPES = _INT_CTYPES | _FLOAT_CTYPES | {"bool"}
_SCALAR_DTYPES = {  # C type of a scalar's value -> the dtypes that read it as written
    "float": {"FLOAT"},
    "double": {"DOUBLE"},
    "int64_t": {"INT64"},
    "long": {"INT64"},
    "int32_t": {"INT32"},
    "int": {"INT32"},
    "int16_t": {"INT16"},
    "int8_t": {"INT8"},
    "uint8_t": {"UINT8"},
    "uint16_t": {"UINT16"},
    "uint32_t": {"UINT32"},
    "uint64_t": {"UINT64"},
    "bool": {"BOOL"},
}
_ARRAYS = {"aclCreateIntArray": "int_array", "aclCreateFloatArray": "float_array", "aclCreateBoolArray": "bool_array"}
_TEMPLATES = {
    "static_cast", "const_cast", "reinterpret_cast", "dynamic_cast", "vector", "array", "unique_ptr",
    "shared_ptr", "make_unique", "make_shared", "numeric_limits", "initializer_list",
}  # fmt: skip
_LEVELS = [  # binary operators, loosest first
    {"||"},
    {"&&"},
    {"|"},
    {"^"},
    {"&"},
    {"==", "!="},
    {"<", ">", "<=", ">="},
    {"<<", ">>"},
    {"+", "-"},
    {"*", "/", "%"},
]
_BINARY = set().union(*_LEVELS)
_SPLITTERS = _BINARY | _ASSIGN | {"?", ","}  # the operators an expression is split at


def _coerce(v: _Val, ctype: str | None) -> _Val:
    """A number (or the numbers of a list) converted to the C type it is stored in."""
    if ctype is None:
        return v
    if v.kind == "list" and v.items is not None:
        if v.src.startswith("{") and len(v.items) == 1 and v.items[0].kind == "num":  # {{2}}: braces around 2
            return _coerce(_but(v.items[0], src=v.src), ctype)
        return _but(v, items=[_coerce(x, ctype) for x in v.items])
    if v.kind != "num" or isinstance(v.value, str):
        return v
    value = v.value
    if ctype in _FLOAT_CTYPES:
        value = float(value)
    elif ctype == "bool":
        value = bool(value)
    elif ctype in _INT_CTYPES or ctype.endswith("_t"):
        value = int(value)
    return _but(_num(value, ctype), line=v.line)


@dataclass
class _Frame:
    """Where an expression is evaluated: a function, before its statement `pos`."""

    func: _Func
    pos: int
    path: tuple[int, ...]
    bindings: dict[str, tuple[int, int, _Frame]] | None = None  # a helper's parameters
    inner: bool = False  # inside a helper building a value: lines are the caller's

    def at(self, stmt: int) -> _Frame:
        path = self.func.stmts[stmt].path if 0 <= stmt < len(self.func.stmts) else ()
        return _Frame(self.func, stmt, path, self.bindings, self.inner)


class _Evaluator:
    """Evaluates the sample's expressions to values, following its variables back."""

    def __init__(self, prog: _Program) -> None:
        self.p = prog
        self.budget = BUDGET
        self.depth = 0
        self.refused = 0  # steps refused for the budget or the depth
        self.deepest = 0  # the deepest step started in the reading under way
        # (name, frame) -> (value, budget spent, depth reached, frame kept so its id stays its own)
        self.known: dict[tuple[str, int], tuple[_Val, int, int, _Frame]] = {}

    # -- entry

    def eval(self, a: int, b: int, frame: _Frame) -> _Val:
        if b - a > 5000:
            return _unknown("an expression too long to read")
        return self._guarded(self._expr, 1 + max(b - a, 0), a, b, frame)

    def lookup(self, name: str, frame: _Frame) -> _Val:
        """The value of variable `name` just before statement frame.pos.

        A variable read again in the same frame (`shape.data()`, then `shape.size()`) takes
        the value of the first reading, whose budget is spent again: reading anew would find
        the same, as long as the first reading met no limit and would meet none now."""
        key = (name, id(frame))
        if key in self.known:
            value, spent, reach, _ = self.known[key]
            if self.budget > spent and self.depth + reach < MAX_DEPTH:
                self.budget -= spent
                self.deepest = max(self.deepest, self.depth + reach)
                return value
        budget, refused, deepest = self.budget, self.refused, self.deepest
        self.deepest = self.depth
        value = self._guarded(self._lookup, 1, name, frame)
        reach = self.deepest - self.depth
        self.deepest = max(deepest, self.deepest)
        if self.refused == refused:
            self.known[key] = (value, budget - self.budget, reach, frame)
        return value

    def _guarded(self, step: Any, cost: int, *args: Any) -> _Val:
        """One bounded evaluation step: the budget and depth keep any input quick."""
        if self.budget <= 0:
            self.refused += 1
            return _unknown("the sample is too complex to follow")
        if self.depth >= MAX_DEPTH:
            self.refused += 1
            return _unknown("values are nested too deeply to follow")
        self.deepest = max(self.deepest, self.depth)
        self.budget -= cost
        self.depth += 1
        try:
            return step(*args)
        finally:
            self.depth -= 1

    def _expr(self, a: int, b: int, frame: _Frame) -> _Val:
        p = self.p
        while a < b and p.is_op(a, "(") and p.match[a] == b - 1:
            a, b = a + 1, b - 1
        if a >= b:
            return _unknown("an empty expression")
        if b == a + 1 and p.kinds[a] == "num":  # a lone number: most list elements
            return _number(p.texts[a])
        if p.texts[a] == "sizeof" and (n := self._sizeof_count(a, b, frame)) is not None:
            return n
        ops = self._operators(a, b)
        if not ops:  # most expressions: a name, a number, a call
            return self._unary(a, b, frame)
        if (q := next((j for j, t in ops if t == "?"), None)) is not None:
            return self._ternary(a, q, b, frame)
        if any(t in _ASSIGN or t == "," for _, t in ops):
            return _unknown("an expression with side effects")
        for level in _LEVELS:
            at = [j for j, t in ops if t in level]
            if at:
                k = at[-1]
                return _binary(p.texts[k], self.eval(a, k, frame), self.eval(k + 1, b, frame))
        return self._unary(a, b, frame)

    def _operators(self, a: int, b: int) -> list[tuple[int, str]]:
        """Top-level operators of tokens [a, b) in binary position (and ?, assignments, commas)."""
        p = self.p
        out = []
        j = a
        texts, match = p.texts, p.match
        while j < b:
            text = texts[j]
            if text in _TEMPLATES and p.is_op(j + 1, "<"):
                j = p.angle_end(j + 1, b) or j + 1
                continue
            if text in _SPLITTERS and j > a and self._operand_end(j - 1):
                out.append((j, text))
            j = match[j] + 1 if match[j] > j else j + 1  # over a bracketed group
        return out

    def _operand_end(self, j: int) -> bool:
        """Whether token j can end an operand (so that an operator after it is binary)."""
        kind, text = self.p.kinds[j], self.p.texts[j]
        if kind == "id":
            return text not in _KEYWORDS
        return kind in ("num", "str", "chr") or text in (")", "]", "}")

    def _ternary(self, a: int, q: int, b: int, frame: _Frame) -> _Val:
        depth, j = 0, q + 1
        while j < b:
            t = self.p.texts[j]
            depth += {"?": 1, ":": -1}.get(t, 0) if self.p.kinds[j] == "op" else 0
            if depth < 0:
                break
            j = self.p.skip(j)
        if j >= b:
            return _unknown("a conditional expression not read")
        cond = self.eval(a, q, frame)
        truth = _truth(cond)
        if truth is None:
            return _unknown(f"chosen at run time ({cond.why or 'a condition not read'})")
        return self.eval(q + 1, j, frame) if truth else self.eval(j + 1, b, frame)

    def _sizeof_count(self, a: int, b: int, frame: _Frame) -> _Val | None:
        """`sizeof(x) / sizeof(x[0])` (or `*x`): the number of elements of x."""
        p = self.p
        if not (p.text(a) == "sizeof" and p.is_op(a + 1, "(") and p.is_op(p.match[a + 1] + 1, "/")):
            return None
        left = (a + 2, p.match[a + 1])
        r = p.match[a + 1] + 2
        if not (p.text(r) == "sizeof" and p.is_op(r + 1, "(") and p.match[r + 1] == b - 1):
            return None
        inner = p.texts[r + 2 : b - 1]
        name = p.texts[left[0] : left[1]]
        if inner not in (name + ["[", "0", "]"], ["*", *name]):
            return None
        v = self.eval(*left, frame)
        return _num(len(v.items)) if v.kind == "list" and v.items is not None else _unknown("a count not read")

    def _unary(self, a: int, b: int, frame: _Frame) -> _Val:
        p = self.p
        text = p.texts[a]
        if text in ("-", "+", "!", "~"):
            v = self.eval(a + 1, b, frame)
            return _negate(text, v)
        if text in ("&", "*"):
            return self.eval(a + 1, b, frame)  # the object itself: pointers are not told apart
        if text == "(" and a < p.match[a] < b - 1 and self._is_type(a + 1, p.match[a]):
            return _coerce(self.eval(p.match[a] + 1, b, frame), self._ctype(a + 1, p.match[a]))
        return self._postfix(a, b, frame)

    def _is_type(self, a: int, b: int) -> bool:
        """Whether tokens [a, b) are a type, as in a C cast `(const aclTensor*)x`."""
        texts = self.p.texts[a:b]
        if not texts or not all(self.p.kinds[k] == "id" or texts[k - a] in ("*", "&", "::") for k in range(a, b)):
            return False
        return "*" in texts or texts[-1] in _INT_CTYPES | _FLOAT_CTYPES | {"bool"} or texts[-1].endswith("_t")

    def _ctype(self, a: int, b: int) -> str | None:
        """The numeric C type among the type tokens [a, b), if any."""
        if any(self.p.texts[k] == "*" for k in range(a, b)):
            ids = self.p.names_in(a, b)
            if not any(i in ("vector", "array") for i in ids):
                return None
        return next((text for text in reversed(self.p.texts[a:b]) if text in _NUM_CTYPES), None)

    # -- primaries

    def _postfix(self, a: int, b: int, frame: _Frame) -> _Val:
        v, j = self._primary(a, b, frame)
        p = self.p
        while j < b and v.kind != "unknown":
            if (p.is_op(j, ".") or p.is_op(j, "->")) and p.is_id(j + 1):
                name = p.texts[j + 1]
                if p.is_op(j + 2, "(") and p.match[j + 2] > j + 2:
                    v, j = _method(v, name), p.match[j + 2] + 1
                else:
                    v, j = _unknown(f"a member of a struct ('{name}')"), j + 2
            elif p.is_op(j, "[") and p.match[j] > j:
                v, j = _index(v, self.eval(j + 1, p.match[j], frame)), p.match[j] + 1
            else:
                return _unknown(f"an expression not read ('{p.source(a, b)[:40]}')")
        return v

    def _primary(self, a: int, b: int, frame: _Frame) -> tuple[_Val, int]:
        p = self.p
        kind, text = p.kinds[a], p.texts[a]
        if kind == "num":
            return _number(text), a + 1
        if kind == "chr":
            body = _unquote(text)
            return (_num(ord(body), "char") if len(body) == 1 else _unknown("a character literal not read")), a + 1
        if kind == "str":
            j = a
            while j < b and p.kinds[j] == "str":
                j += 1
            return _Val("str", value="".join(_unquote(x) for x in p.texts[a:j])), j
        if text == "{" and p.match[a] > a:
            return self._brace(a, frame), p.match[a] + 1
        if text == "(" and p.match[a] > a:  # (x).data()
            return self.eval(a + 1, p.match[a], frame), p.match[a] + 1
        if kind != "id":
            return _unknown(f"an expression not read ('{text[:20]}')"), b
        if text in ("true", "false"):
            return _Val("num", value=text == "true", ctype="bool"), a + 1
        if text in ("nullptr", "NULL"):
            return _Val("null"), a + 1
        if text in ("static_cast", "const_cast", "reinterpret_cast") and p.is_op(a + 1, "<"):
            return self._cast(a, b, frame)
        parts, j = [text], a + 1
        while p.is_op(j, "::") and p.is_id(j + 1) and j + 1 < b:
            parts.append(p.texts[j + 1])
            j += 2
        name = parts[-1]
        if p.is_op(j, "<") and (name in _TEMPLATES or name in p.funcs):
            j = p.angle_end(j, b) or b
        after = p.text(j)
        if after == "(" and p.match[j] > j:
            return self._call(name, a, j, frame), p.match[j] + 1
        if after == "{" and p.match[j] > j:  # std::vector<int64_t>{1, 2}
            return self._brace(j, frame), p.match[j] + 1
        if (enum := _enumerator(name)) is not None:
            return enum, j
        if len(parts) > 1:
            return _unknown(f"'{'::'.join(parts)}' is not read"), j
        member = f"{name}.{p.text(j + 1)}" if after == "." and p.text(j + 2) != "(" else ""
        if member and p.events(frame.func, member):  # resources.x, set as such
            return self.lookup(member, frame), j + 2
        return self.lookup(name, frame), j

    def _cast(self, a: int, b: int, frame: _Frame) -> tuple[_Val, int]:
        p = self.p
        close = p.angle_end(a + 1, b)
        if close is None or not p.is_op(close, "(") or p.match[close] <= close:
            return _unknown("a cast not read"), b
        v = self.eval(close + 1, p.match[close], frame)
        if p.texts[a] == "static_cast":
            v = _coerce(v, self._ctype(a + 2, close - 1))
        return v, p.match[close] + 1

    def _brace(self, open_: int, frame: _Frame) -> _Val:
        args = self.p.args(open_)
        if args and args[-1][0] == args[-1][1]:  # {2, 3,}
            args = args[:-1]
        if len(args) > MAX_LIST:
            return _unknown("a list too long to read")
        return _Val("list", items=[_but(self.eval(x, y, frame), src=self.p.source(x, y)) for x, y in args])

    # -- calls

    def _call(self, name: str, start: int, paren: int, frame: _Frame) -> _Val:
        args = self.p.args(paren)
        if name == "aclCreateTensor":
            return self._tensor(args, frame)
        if name == "aclCreateScalar":
            return self._scalar(args, frame)
        if name in _ARRAYS:
            return self._array(_ARRAYS[name], args, frame)
        if name in ("aclCreateTensorList", "aclCreateScalarList"):
            return self._list(name, args, frame)
        if name in ("vector", "string", "unique_ptr", "shared_ptr"):
            return self._construct(name, args, frame)
        if (helper := self.p.helper(name, len(args))) is not None:
            return self._returned(helper, args, frame)
        if name in _MATH and name not in self.p.funcs and len(args) <= 2:
            return _math(name, [self.eval(a, b, frame) for a, b in args])
        return _unknown(f"returned by '{name}'")

    def _bind(self, helper: _Func, args: list[Slice], frame: _Frame) -> _Frame:
        """A frame for running `helper` on the call's arguments (or the defaults)."""
        top = _Frame(self.p.globals, len(self.p.globals.stmts), ())
        bindings = {}
        for k, prm in enumerate(helper.params):
            if k < len(args):
                bindings[prm.name] = (*args[k], frame)
            elif prm.default is not None:
                bindings[prm.name] = (*prm.default, top)
        return _Frame(helper, len(helper.stmts), (), bindings, inner=True)

    def _reach(self, path: tuple[int, ...], frame: _Frame) -> str:
        """Whether a statement in blocks `path` runs before frame.pos: yes, no or maybe. An
        `if` whose condition is known decides; loops and other conditions leave it open."""
        for block in path:
            if block in frame.path:
                continue
            branch = self.p.branches.get(block)
            test = branch if branch is None or branch.kind != "else" else self.p.branches.get(branch.partner)
            if branch is None or test is None or test.kind != "if" or test.func is not frame.func:
                return "maybe"
            start, end = test.func.stmts[test.stmt].start, test.func.stmts[test.stmt].end
            truth = _truth(self.eval(start, end, frame.at(test.stmt)))
            if truth is None:
                return "maybe"
            if truth != (branch.kind == "if"):
                return "no"
        return "yes"

    def _returned(self, helper: _Func, args: list[Slice], frame: _Frame) -> _Val:
        """The value `helper` returns: its first return sure to run; error returns (literals,
        nullptr) that may run are passed over."""
        hframe = self._bind(helper, args, frame)
        for e in self.p.events(helper, _RETURN):
            reach = self._reach(helper.stmts[e.stmt].path, hframe)
            if reach == "yes" and e.expr is not None:
                return self.eval(*e.expr, hframe.at(e.stmt))
            if reach == "maybe" and e.expr and not self._trivial(*e.expr):
                return _unknown(f"'{helper.name}' returns from several places")
        return _unknown(f"returned by '{helper.name}', whose result is not read")

    def _trivial(self, a: int, b: int) -> bool:
        """An error return: a literal, nullptr, a status variable."""
        return b - a == 1 and (self.p.kinds[a] == "num" or self.p.text(a) in ("nullptr", "NULL", "ret", "false"))

    def _construct(self, name: str, args: list[Slice], frame: _Frame) -> _Val:
        vals = [self.eval(a, b, frame) for a, b in args[:2]]
        if name in ("string", "unique_ptr", "shared_ptr"):
            return vals[0] if vals else _unknown(f"an empty {name}")
        if not vals:
            return _Val("list", items=[])
        if len(vals) == 1 and vals[0].kind == "list":
            return _but(vals[0])
        count = vals[0]
        if count.kind != "num" or not isinstance(count.value, int) or not 0 <= count.value <= MAX_LIST:
            return _unknown("a vector whose size is not read")
        fill = vals[1] if len(vals) > 1 else _num(0)
        return _Val("list", items=[fill] * count.value)

    def _tensor(self, args: list[Slice], frame: _Frame) -> _Val:
        if len(args) < 6:
            return _unknown("aclCreateTensor with too few arguments")
        why: list[str] = []
        shape = self._shape(args[0], args[1], frame, why)
        dtype = self._enum(args[2], "dtype", frame, why)
        fmt = self._enum(args[5], "format", frame, why)
        strides = self.eval(*args[3], frame)
        explicit = _ints(strides) if strides.kind == "list" else None
        return _Val("tensor", shape=shape, dtype=dtype, format=fmt, strides=explicit, why="; ".join(why))

    def _shape(self, dims: Slice, count: Slice, frame: _Frame, why: list[str]) -> tuple[int, ...] | None:
        v, n = self.eval(*dims, frame), self.eval(*count, frame)
        if v.kind == "null" and n.kind == "num" and n.value == 0:
            return ()
        if v.kind != "list":
            why.append(f"shape: {_reason(v, 'not a list of sizes')}")
            return None
        sizes = _ints(v)
        if sizes is None:
            bad = next((x for x in v.items or [] if x.kind == "unknown"), None)
            why.append(f"shape: {_reason(bad, 'sizes that are not integers')}")
            return None
        if n.kind != "num" or not isinstance(n.value, int) or isinstance(n.value, bool):
            why.append(f"shape: the number of dimensions is not read ({_reason(n, 'not an integer')})")
            return None
        if not 0 <= n.value <= len(sizes):
            why.append("shape: more dimensions than sizes given")
            return None
        return sizes[: n.value]

    def _enum(self, arg: Slice, kind: str, frame: _Frame, why: list[str]) -> str | None:
        v = self.eval(*arg, frame)
        if v.kind == "enum" and v.enum == kind:
            return str(v.value)
        if kind == "dtype" and v.kind == "num" and isinstance(v.value, int):
            name = next((k for k, code in vocab.DTYPES.items() if code == v.value), None)
            if name:
                return name
        why.append(f"{kind}: {_reason(v, 'not an enumerator')}")
        return None

    def _scalar(self, args: list[Slice], frame: _Frame) -> _Val:
        if len(args) != 2:
            return _unknown("aclCreateScalar with other than two arguments")
        why: list[str] = []
        v = self.eval(*args[0], frame)
        dtype = self._enum(args[1], "dtype", frame, why)
        value = None
        if v.kind == "num" and v.ctype in ("uint16_t", "int16_t") and dtype in ("FLOAT16", "BFLOAT16"):
            value = _half(int(v.value), dtype)  # the bits of a half-precision number
            if value is None:
                why.append(f"value: {dtype} bits that are not a finite number")
        elif v.kind == "num":
            value = v.value
            if dtype and v.ctype and dtype not in _SCALAR_DTYPES.get(v.ctype, {dtype}):
                why.append(f"value: stored as {v.ctype}, read as {dtype}")
                value = None
        else:
            why.append(f"value: {_reason(v, 'not a number')}")
        return _Val("scalar", value=value, dtype=dtype, why="; ".join(why))

    def _array(self, kind: str, args: list[Slice], frame: _Frame) -> _Val:
        if len(args) != 2:
            return _unknown(f"an array made with {len(args)} arguments")
        a, b = args[0]
        p = self.p
        if p.is_op(a, "&"):  # &v[0], &(v[0]): the list v
            x, y = (a + 2, b - 1) if p.is_op(a + 1, "(") and p.match[a + 1] == b - 1 else (a + 1, b)
            if y - x == 4 and p.is_id(x) and p.is_op(x + 1, "[") and p.text(x + 2) == "0":
                a, b = x, x + 1
        v, n = self.eval(a, b, frame), self.eval(*args[1], frame)
        if v.kind == "num" and p.is_op(a, "&"):  # &value, 1
            v = _Val("list", items=[v])
        items, why = _counted(v, n)
        if items is None:
            return _Val(kind, why=why)
        convert = {"int_array": _as_int, "float_array": _as_float, "bool_array": _as_bool}[kind]
        elements = [convert(x) for x in items]
        if any(x is None for x in elements):
            return _Val(kind, why="elements: not all numbers are read")
        return _Val(kind, elements=tuple(elements))

    def _list(self, name: str, args: list[Slice], frame: _Frame) -> _Val:
        kind = "tensor_list" if name == "aclCreateTensorList" else "scalar_list"
        if len(args) != 2:
            return _unknown(f"{name} with other than two arguments")
        items, why = _counted(self.eval(*args[0], frame), self.eval(*args[1], frame))
        if items is None:
            return _Val(kind, why=why)
        return _Val(kind, items=list(items))

    # -- variables

    def _lookup(self, name: str, frame: _Frame) -> _Val:
        func = frame.func
        pending: list[_Event] = []
        for e in self.p.events_before(func, name, frame.pos):
            self.budget -= 1
            if e.kind in ("return", "deref"):
                continue
            e_val: _Val | None = None
            if e.kind == "pass":
                e_val = self._passed(e, frame)
                if e_val is None:
                    continue
            reach = self._reach(func.stmts[e.stmt].path, frame)
            if reach == "no":
                continue
            if reach == "maybe":
                return self._hint(_unknown(f"'{name}' is set conditionally (line {e.line})"), name, func)
            if e.kind == "modify":
                return self._hint(_unknown(f"'{name}' is changed at run time (line {e.line})"), name, func)
            if e.kind in ("append", "elem"):
                pending.append(e)
                continue
            v = e_val if e_val is not None else self._defined(e, frame.at(e.stmt))  # set: a "pass" event
            v = self._apply(v, name, reversed(pending), frame)
            v = self._hint(v, name, func)
            return v if frame.inner else _but(v, line=e.line)
        return self._unbound(name, frame)

    def _unbound(self, name: str, frame: _Frame) -> _Val:
        func = frame.func
        if frame.bindings is not None and name in frame.bindings:
            a, b, caller = frame.bindings[name]
            return self.eval(a, b, caller)
        if any(prm.name == name for prm in func.params):
            return self._parameter(name, frame)
        if func is not self.p.globals:
            return self.lookup(name, _Frame(self.p.globals, len(self.p.globals.stmts), ()))
        if name in self.p.macros:
            return self.eval(*self.p.macros[name], frame)
        return _unknown(f"'{name}' is not defined in the sample")

    def _parameter(self, name: str, frame: _Frame) -> _Val:
        """A parameter of the function making the call, as its first call passes it: the
        first call site, when all are in one function and that one surely runs."""
        func = frame.func
        sites = self.p.call_sites(func.name)
        unknown = _unknown(f"'{name}' is a parameter of '{func.name}'")
        if frame.inner or not sites or len(self.p.funcs.get(func.name, [])) != 1:
            return unknown
        caller, si, paren = sites[0]
        if any(site[0] is not caller for site in sites):
            return _unknown(f"'{name}' is a parameter of '{func.name}', called from several functions")
        args = self.p.args(paren)
        k = next(i for i, prm in enumerate(func.params) if prm.name == name)
        site = _Frame(caller, si, caller.stmts[si].path)
        if k >= len(args) or self._reach(site.path, _Frame(caller, si, ())) != "yes":
            return _unknown(f"'{name}' is a parameter of '{func.name}', called conditionally or in a loop")
        v = self.eval(*args[k], site)
        return v if v.line else _but(v, line=self.p.lines[args[k][0]])  # built at the call site

    def _hint(self, v: _Val, name: str, func: _Func) -> _Val:
        if v.kind != "unknown" or v.hint:
            return v
        decl = next((e.decl for e in self.p.events(func, name) if e.decl), None)
        if decl is None:
            return v
        ids = self.p.names_in(*decl.type)
        kind = next((vocab.TYPE_KINDS[i] for i in ids if i in vocab.TYPE_KINDS), None)
        return _but(v, hint=kind) if kind else v

    def _defined(self, e: _Event, frame: _Frame) -> _Val:
        if e.out is not None:
            return self._written(e.out, frame)
        if e.kind == "assign" and e.expr is not None:
            return self.eval(*e.expr, frame)
        d = e.decl
        if d is None:
            return _unknown("an assignment not read")
        ctype = self._ctype(*d.type)
        if d.init is None:
            return self._uninitialised(d, frame, ctype)
        v = self._initial(d, frame)
        if ctype == "char" and d.dims and v.kind == "list":  # char s[] = {'B', 'S', 'H', 0}
            return _chars(v)
        return _coerce(v, ctype)

    def _initial(self, d: _Decl, frame: _Frame) -> _Val:
        assert d.init is not None
        how, a, b = d.init
        if how == "expr":
            v = self.eval(a, b, frame)
        elif how == "brace":
            v = self._brace(a, frame)
        else:
            ids = set(self.p.names_in(*d.type))
            kind = next((k for k in ("vector", "string", "unique_ptr", "shared_ptr") if k in ids), None)
            if kind is None:
                args = self.p.args(a - 1)
                v = self.eval(*args[0], frame) if len(args) == 1 else _unknown(f"'{d.name}' is constructed")
            else:
                v = self._construct(kind, self.p.args(a - 1), frame)
        return v

    def _uninitialised(self, d: _Decl, frame: _Frame, ctype: str | None) -> _Val:
        if not d.dims:
            return _unknown(f"'{d.name}' is declared without a value")
        n = self.eval(*d.dims[0], frame)
        if n.kind != "num" or not isinstance(n.value, int) or not 0 <= n.value <= MAX_LIST:
            return _unknown(f"the size of '{d.name}' is not read")
        return _Val("list", items=[_unknown(f"an element of '{d.name}' is not set")] * n.value)

    def _apply(self, v: _Val, name: str, pending: Iterable[_Event], frame: _Frame) -> _Val:
        """A list value after the element writes and push_backs that follow its definition."""
        events = list(pending)
        if not events:
            return v
        if v.kind != "list" or v.items is None:
            return _unknown(f"'{name}' is changed on line {events[0].line}")
        items = list(v.items)
        for e in events:
            ef = frame.at(e.stmt)
            if e.kind == "append" and e.expr is not None:
                items.append(_but(self.eval(*e.expr, ef), src=self.p.source(*e.expr)))
            elif e.index is not None:
                i = self.eval(*e.index, ef)
                if i.kind != "num" or type(i.value) is not int or not 0 <= i.value < len(items):
                    return _unknown(f"'{name}' is written at an index not read (line {e.line})")
                items[i.value] = self._written(e.out, ef) if e.out else self.eval(*(e.expr or (0, 0)), ef)
        return _but(v, items=items)

    def _written(self, out: tuple[int, int], frame: _Frame) -> _Val:
        """What the call at `out` = (paren, k) writes through its k-th argument `&x`."""
        return self._guarded(self._write, 1, out, frame)

    def _write(self, out: tuple[int, int], frame: _Frame) -> _Val:
        paren, k = out
        callee = self.p.callee(paren)
        args = self.p.args(paren)
        helper = self.p.helper(callee, len(args))
        if helper is None:
            return _unknown(f"set by '{callee}', which the sample does not define")
        if k >= len(helper.params) or not helper.params[k].name:
            return _unknown(f"set by '{callee}', whose parameters are not read")
        return self._pointee(helper.params[k].name, self._bind(helper, args, frame))

    def _pointee(self, name: str, frame: _Frame) -> _Val:
        """What helper `frame.func` leaves in `*name`."""
        func = frame.func
        for e in reversed(self.p.events(func, name)):
            self.budget -= 1
            if e.kind not in ("deref", "pass", "assign", "decl"):
                continue
            if e.kind in ("assign", "decl"):
                return _unknown(f"'{func.name}' changes the pointer '{name}'")
            if e.kind == "pass" and not self._pointer_param(e):
                continue
            reach = self._reach(func.stmts[e.stmt].path, frame)
            if reach == "no":
                continue
            if reach == "maybe":
                return _unknown(f"'{func.name}' sets '*{name}' conditionally (line {e.line})")
            if e.kind == "pass" and e.out is not None:
                return self._written(e.out, frame.at(e.stmt))
            return self.eval(*(e.expr or (0, 0)), frame.at(e.stmt))
        return _unknown(f"'{func.name}' does not set '*{name}'")

    def _pointer_param(self, e: _Event) -> bool:
        """Whether a bare variable passed at e goes to a `T**` parameter (an out-parameter)."""
        param = self._param_of(e)
        return param is not None and self.p.texts[param.type[0] : param.type[1]].count("*") >= 2

    def _param_of(self, e: _Event) -> _Param | None:
        if e.out is None:
            return None
        paren, k = e.out
        helper = self.p.helper(self.p.callee(paren), len(self.p.args(paren)))
        return helper.params[k] if helper and k < len(helper.params) else None

    def _passed(self, e: _Event, frame: _Frame) -> _Val | None:
        """A variable handed to one of the sample's functions: its value after the call when
        the function takes it by non-const reference, else None (unchanged)."""
        param = self._param_of(e)
        if param is None or not param.name or e.out is None:
            return None
        paren = e.out[0]
        texts = self.p.texts[param.type[0] : param.type[1]]
        if "const" in texts or "&" not in texts:
            filled = "*" in texts and "const" not in texts and self._ctype(*param.type) is not None  # int64_t* out
            return _unknown(f"'{e.name}' is filled by '{self.p.callee(paren)}'") if filled else None
        helper = self.p.helper(self.p.callee(paren), len(self.p.args(paren)))
        if helper is None:
            return None
        hframe = self._bind(helper, self.p.args(paren), frame.at(e.stmt))
        return self.lookup(param.name, hframe)


# ---------------------------------------------------------------- value helpers


def _unquote(literal: str) -> str:
    body = literal[1:-1]
    if "\\" not in body:
        return body
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m.group(1), m.group(1)), body)


def _enumerator(name: str) -> _Val | None:
    if name.startswith("ACL_FORMAT_"):
        fmt = vocab.data_format(name[len("ACL_FORMAT_") :])
        return _Val("enum", value=fmt, enum="format") if fmt else None
    if name.startswith("ACL_"):
        dtype = vocab.dtype(name[len("ACL_") :])
        return _Val("enum", value=dtype, enum="dtype") if dtype else None
    return None


def _half(bits: int, dtype: str) -> float | None:
    raw = (bits & 0xFFFF).to_bytes(2, "little")
    value = struct.unpack("<e", raw)[0] if dtype == "FLOAT16" else struct.unpack("<f", b"\0\0" + raw)[0]
    return value if math.isfinite(value) else None


_MATH: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "pow": math.pow,
    "exp": math.exp,
    "log": math.log,
    "fabs": math.fabs,
    "abs": abs,
    "ceil": math.ceil,
    "floor": math.floor,
    "min": min,
    "max": max,
}


def _math(name: str, args: list[_Val]) -> _Val:
    """sqrt(2), std::max(a, b), ... of known numbers."""
    bad = next((v for v in args if v.kind != "num" or isinstance(v.value, str)), None)
    if bad is not None or not args:
        return _unknown(_reason(bad, f"'{name}' of a non-number"))
    try:
        return _num(_MATH[name](*(v.value for v in args)))
    except (ArithmeticError, ValueError, TypeError):
        return _unknown(f"'{name}' not computable")


def _chars(v: _Val) -> _Val:
    codes = [x.value for x in v.items or []]
    if not all(type(c) is int and 0 <= c < 0x110000 for c in codes):
        return _unknown("a character array not read")
    text = "".join(map(chr, codes))
    return _Val("str", value=text.split("\0")[0])


def _reason(v: _Val | None, default: str) -> str:
    return v.why if v is not None and v.kind == "unknown" and v.why else default


def _ints(v: _Val) -> tuple[int, ...] | None:
    if v.items is None or not all(x.kind == "num" and type(x.value) is int for x in v.items):
        return None
    return tuple(x.value for x in v.items)


def _as_int(v: _Val) -> int | None:
    return int(v.value) if v.kind == "num" and type(v.value) in (int, bool) else None


def _as_float(v: _Val) -> float | None:
    return float(v.value) if v.kind == "num" and not isinstance(v.value, str) else None


def _as_bool(v: _Val) -> bool | None:
    return bool(v.value) if v.kind == "num" and not isinstance(v.value, str) else None


def _counted(v: _Val, n: _Val) -> tuple[list[_Val] | None, str]:
    """The first n items of list v, or None and why."""
    if v.kind != "list" or v.items is None:
        return None, f"elements: {_reason(v, 'not a list')}"
    if n.kind != "num" or type(n.value) is not int:
        return None, f"count: {_reason(n, 'not an integer')}"
    if not 0 <= n.value <= len(v.items):
        return None, "count: more than the elements given"
    return v.items[: n.value], ""


def _method(v: _Val, name: str) -> _Val:
    if name in ("data", "c_str", "get", "begin"):
        return v
    if name in ("size", "length") and v.kind in ("list", "str"):
        return _num(len(v.items if v.kind == "list" and v.items is not None else v.value or ""))
    return _unknown(f"returned by '.{name}()'")


def _index(v: _Val, i: _Val) -> _Val:
    if v.kind == "list" and v.items is not None and i.kind == "num" and type(i.value) is int:
        return v.items[i.value] if 0 <= i.value < len(v.items) else _unknown("an index out of range")
    return _unknown(_reason(v, "") or _reason(i, "an element not read"))


def _truth(v: _Val) -> bool | None:
    """The value as a condition: numbers and null pointers; None when not known."""
    if v.kind == "num" and not isinstance(v.value, str):
        return bool(v.value)
    return False if v.kind == "null" else None


def _negate(op: str, v: _Val) -> _Val:
    if op == "!" and _truth(v) is not None:
        return _num(not _truth(v))
    if v.kind != "num" or isinstance(v.value, str):
        return v if v.kind == "unknown" else _unknown(f"'{op}' of a non-number")
    if op == "~":
        return _num(~int(v.value)) if type(v.value) in (int, bool) else _unknown("'~' of a float")
    value = -v.value if op == "-" else +v.value
    return _num(int(value) if isinstance(value, bool) else value, v.ctype)


def _binary(op: str, x: _Val, y: _Val) -> _Val:
    for v in (x, y):
        if v.kind == "unknown":
            return v
    if op in ("==", "!=") and {x.kind, y.kind} <= {"enum", "str", "null"}:  # format == ACL_FORMAT_ND
        same = (x.kind, x.enum, x.value) == (y.kind, y.enum, y.value)
        return _num(same == (op == "=="))
    if x.kind != "num" or y.kind != "num" or isinstance(x.value, str) or isinstance(y.value, str):
        return _unknown(f"'{op}' of non-numbers")
    a, b = x.value, y.value
    both_int = type(a) in (int, bool) and type(b) in (int, bool)
    try:
        return _arith(op, a, b, both_int)
    except (ArithmeticError, ValueError):
        return _unknown(f"'{op}' not computable")


def _arith(op: str, a: Any, b: Any, both_int: bool) -> _Val:
    compare = {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}
    if op in compare:
        return _num(compare[op])
    if op in ("&&", "||"):
        return _num(bool(a) and bool(b) if op == "&&" else bool(a) or bool(b))
    if op in ("+", "-", "*"):
        return _num(a + b if op == "+" else a - b if op == "-" else a * b)
    if op == "/":
        if both_int:
            q = abs(int(a)) // abs(int(b))
            return _num(q if (a < 0) == (b < 0) else -q)
        return _num(a / b)
    if not both_int:
        return _unknown(f"'{op}' of a float")
    a, b = int(a), int(b)
    if op == "%":
        return _num(a - b * int(_arith("/", a, b, True).value))
    if op in ("<<", ">>"):
        if not 0 <= b < 64:
            return _unknown("a shift out of range")
        return _num(a << b if op == "<<" else a >> b)
    return _num(a & b if op == "&" else a | b if op == "|" else a ^ b)


# ---------------------------------------------------------------- calls to arguments

_ACCEPTS = {  # a GetWorkspaceSize parameter kind -> the argument kinds a valid call passes
    "tensor": {"tensor", "null"},
    "tensor_list": {"tensor_list", "null"},
    "scalar": {"scalar", "null"},
    "scalar_list": {"scalar_list", "null"},
    "int_array": {"int_array", "null"},
    "float_array": {"float_array", "null"},
    "bool_array": {"bool_array", "null"},
    "string": {"string", "null"},
    "int": {"value"},
    "float": {"value"},
    "bool": {"value"},
    "dtype": {"value"},
    "workspace_size": {"address"},
    "executor": {"address"},
}


def _call_arg(v: _Val, text: str, line: int, param_kind: str | None) -> CallArg:
    arg = _to_arg(v, text, line)
    accepted = _ACCEPTS.get(param_kind or "")
    if accepted is not None and arg.kind not in accepted | {"unresolved"}:
        what = "a plain value" if arg.kind == "value" else arg.kind.replace("_", " ")
        why = f"the sample passes {what} where the prototype has {param_kind.replace('_', ' ')}"  # type: ignore[union-attr]
        return CallArg(kind="unresolved", text=text, line=arg.line, unresolved=why)
    if any(item.kind != "tensor" for item in arg.items):  # a null in a list: more likely a write not read
        return arg.model_copy(update={"unresolved": "an item of the list is not a tensor the sample creates"})
    return arg


def _to_arg(v: _Val, text: str, line: int) -> CallArg:
    line = v.line or line
    fields: dict[str, Any] = {"text": text, "line": line}
    kind = v.kind
    if kind == "unknown":
        return _safe(kind=v.hint or "unresolved", unresolved=v.why or "not read", **fields)
    if kind in ("num", "enum", "str"):
        return _safe(kind="string" if kind == "str" else "value", value=v.value, **fields)
    if kind in ("null", "address"):
        return _safe(kind=kind, **fields)
    if kind == "tensor":
        return _safe(
            kind=kind, shape=v.shape, dtype=v.dtype, format=v.format, strides=v.strides, unresolved=v.why, **fields
        )
    if kind == "scalar":
        return _safe(kind=kind, value=v.value, dtype=v.dtype, unresolved=v.why, **fields)
    if kind == "tensor_list":
        items = tuple(_call_arg(x, x.src or text, line, "tensor") for x in v.items or [])
        return _safe(kind=kind, items=items, unresolved=v.why, **fields)
    if kind == "scalar_list":
        return _scalar_list(v, fields)
    if kind in _ARRAYS.values():
        return _safe(kind=kind, elements=v.elements, unresolved=v.why, **fields)
    return _safe(kind="unresolved", unresolved="a plain C array, not an acl object", **fields)


def _scalar_list(v: _Val, fields: dict[str, Any]) -> CallArg:
    if v.items is None:
        return _safe(kind="scalar_list", unresolved=v.why, **fields)
    if not all(x.kind == "scalar" and not x.why for x in v.items):
        bad = next((x for x in v.items if x.kind != "scalar" or x.why), None)
        why = (bad.why if bad else "") or "not all scalars"
        return _safe(kind="scalar_list", unresolved=f"elements: {why}", **fields)
    dtypes = {x.dtype for x in v.items}
    return _safe(
        kind="scalar_list",
        elements=tuple(x.value for x in v.items),
        dtype=dtypes.pop() if len(dtypes) == 1 else None,
        unresolved="" if len(dtypes) <= 1 else "dtype: the scalars differ",
        **fields,
    )


def _safe(**fields: Any) -> CallArg:
    try:
        return CallArg(**fields)
    except ValidationError:
        return CallArg(kind="unresolved", text=fields["text"], line=fields["line"], unresolved="a value out of range")


# ---------------------------------------------------------------- entry point


def find_calls(
    code: str, first_line: int, functions: Mapping[str, Sequence[str]], suffix: str = GWS
) -> dict[str, SampleCall]:
    """The first call of each function's GetWorkspaceSize phase in `code` (of `<name><suffix>`:
    a single-phase API's own name with suffix ""), argument by argument.

    `code` is a sample's text whose first line is document line `first_line`; `functions` maps
    each documented function name (`aclnnAdd`, without GetWorkspaceSize) to the model kinds of
    its GetWorkspaceSize parameters, in order, to check the arguments against. Functions the
    code does not call are left out. Never raises on any input.
    """
    if len(code) > MAX_CODE or not any(name + suffix in code for name in functions):  # a first look
        return {}
    try:
        prog = _Program(code, first_line)
        evaluator = _Evaluator(prog)  # one budget for the whole sample
        out = {}
        for name, kinds in functions.items():
            call = _first_call(prog, name + suffix)
            if call is not None:
                out[name] = _sample_call(evaluator, call, tuple(kinds))
        return out
    except Exception:  # noqa: BLE001 - a sample must not stop the document being read
        if specgen.debugging():
            raise
        return {}


def _first_call(prog: _Program, name: str) -> int | None:
    """The token index of the first call (not declaration) of `name` inside a function."""
    for i in prog.names.get(name, []):
        if i >= prog.n:  # in a macro body
            break
        if not prog.is_op(i + 1, "(") or prog.match[i + 1] < 0:
            continue
        where = prog.statement_of(i)
        if where is None or not where[0].name:  # outside any function: not a call
            continue
        if prog.is_id(i - 1) and prog.text(i - 1) != "return":
            continue  # `aclnnStatus aclnnXxxGetWorkspaceSize(...)`: a prototype
        if any(prog.declaration(a, b) for a, b in prog.args(i + 1)):
            continue
        return i
    return None


def _sample_call(ev: _Evaluator, i: int, kinds: tuple[str, ...]) -> SampleCall:
    prog = ev.p
    func, si = prog.statement_of(i) or (prog.globals, 0)
    frame = _Frame(func, si, func.stmts[si].path if func.stmts else ())
    line = prog.lines[i]
    args = []
    for k, (a, b) in enumerate(prog.args(i + 1)):
        kind = kinds[k] if k < len(kinds) else None
        text = prog.source(a, b)
        value = _Val("address") if prog.is_op(a, "&") else ev.eval(a, b, frame)
        args.append(_call_arg(value, text, line, kind))
    return SampleCall(line=line, args=tuple(args))
