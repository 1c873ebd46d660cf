"""The statement structure of a sample program: functions, declarations, events, branches."""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from specgen.parse.sample.tokens import Slice, _brackets, _lex


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
    header: tuple[int, int, int] | None = None  # `for (init; condition; step)`: the three statements


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

    # -- counted loops

    def loop_counter(self, loop: _Branch) -> tuple[str, int, Slice | None] | None:
        """The counter of `for (init; condition; step)` and its step: (name, sign, amount),
        amount None for `i++` / `i--`, the slice of x for `i += x` / `i -= x`."""
        if loop.func is None or loop.header is None:
            return None
        init, _, step = (loop.func.stmts[k] for k in loop.header)
        decls = self.declaration(init.start, init.end)
        if decls is not None:
            name = decls[0].name if len(decls) == 1 else ""
        else:
            name = self.texts[init.start] if self.is_id(init.start) and self.is_op(init.start + 1, "=") else ""
        s, e = step.start, step.end
        texts = self.texts[s:e]
        if not name or not texts:
            return None
        if texts in ([name, "++"], ["++", name], [name, "--"], ["--", name]):
            return name, 1 if "++" in texts else -1, None
        if e - s > 2 and texts[0] == name and texts[1] in ("+=", "-="):
            return name, 1 if texts[1] == "+=" else -1, (s + 2, e)
        return None

    def loop_body(self, loop: _Branch, block: int) -> list[int]:
        """The statements of the `for` loop opening block `block`: those after its header
        that are in the block."""
        if loop.func is None or loop.header is None:
            return []
        stmts, si = loop.func.stmts, loop.header[2] + 1
        out = []
        while si < len(stmts) and block in stmts[si].path:
            out.append(si)
            si += 1
        return out

    def loop_carried(self, func: _Func, body: list[int]) -> str | None:
        """A variable an iteration of the loop `body` (its statements) may read as an earlier
        iteration left it: declared before the loop, changed in the body and read there,
        unless every change is a whole assignment made before every read
        (`strides[i] = shape[i + 1] * strides[i + 1]` is; `ret = f(); CHECK_RET(ret ...)` is not)."""
        events = [e for si in body for e in self._read(func, si)]
        declared = {e.name for e in events if e.kind == "decl"}
        changed = {e.name for e in events if e.kind not in ("decl", "pass", "return") and "." not in e.name}
        for name in sorted(changed - declared):
            writes = [e for e in events if e.name == name and e.kind not in ("pass", "return")]
            reads = [si for si in body if self._reads(func, si, name)]
            whole = all(e.kind == "assign" for e in writes)
            if reads and (not whole or reads[0] <= min(e.stmt for e in writes)):
                return name
        return None

    def _reads(self, func: _Func, si: int, name: str) -> bool:
        """Whether statement si reads variable `name`: holds it more often than it writes it."""
        st = func.stmts[si]
        held = sum(
            1 for i in self.names.get(name, []) if st.start <= i < st.end and self.text(i - 1) not in (".", "->")
        )
        written = sum(1 for e in self._read(func, si) if e.name == name and e.kind not in ("pass", "return"))
        return held > written

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
        for k, (a, b) in enumerate(self.args(paren)):
            if b > a + 1 and self.is_id(a) and self.text(a + 1) in ("+", "-"):
                out.append(self._offset_use(si, j, paren, k))
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

    def _offset_use(self, si: int, j: int, paren: int, k: int) -> _Event:
        """`f(..., buffer + i, ...)`: f fills element i when it is the sample's own function
        taking a pointer there (`tensors + i` for `aclTensor** tensor`); else the buffer is
        changed in a way not followed."""
        a, b = self.args(paren)[k]
        name, line = self.texts[a], self.lines[j]
        helper = self.helper(self.texts[j], len(self.args(paren))) if self.text(j - 1) not in (".", "->") else None
        param = helper.params[k] if helper is not None and k < len(helper.params) else None
        if self.text(a + 1) == "+" and param is not None and "*" in self.texts[param.type[0] : param.type[1]]:
            return _Event("elem", name, si, line, out=(paren, k), index=(a + 2, b))
        return _Event("modify", name, si, line)

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
            a, close, first = i + 2, p.match[i + 1], len(func.stmts)
            while (semi := p.top_level(a, close, {";"})) is not None:  # for (init; condition; step)
                self.record(func, a, semi)
                a = semi + 1
            self.record(func, a, close)
            branch = _Branch("if", func, len(func.stmts) - 1) if text == "if" and a < close else _Branch("loop")
            if text == "for" and len(func.stmts) - first == 3:  # none of the three left empty
                branch = _Branch("loop", func, header=(first, first + 1, first + 2))
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
