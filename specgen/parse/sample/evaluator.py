"""Evaluates a sample's expressions to values, following its variables back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from specgen import vocab
from specgen.parse.sample.program import _ASSIGN, _KEYWORDS, _RETURN, _Branch, _Decl, _Event, _Func, _Param, _Program
from specgen.parse.sample.tokens import Slice
from specgen.parse.sample.values import (
    _ARRAYS,
    _FLOAT_CTYPES,
    _INT_CTYPES,
    _LEVELS,
    _MATH,
    _NUM_CTYPES,
    _SCALAR_DTYPES,
    _SPLITTERS,
    _TEMPLATES,
    _as_bool,
    _as_float,
    _as_int,
    _binary,
    _but,
    _chars,
    _coerce,
    _counted,
    _enumerator,
    _half,
    _index,
    _ints,
    _math,
    _method,
    _negate,
    _num,
    _number,
    _reason,
    _truth,
    _unknown,
    _unquote,
    _Val,
)

BUDGET = 200_000  # expression tokens and events looked at per sample: real samples take under 5000
MAX_DEPTH = 40  # nested evaluations (variables defined from variables, helpers, ...)
MAX_LIST = 10_000  # elements of a list built from a count
MAX_UNROLL = 64  # iterations of a counted loop followed one by one (samples' lists have a few)


_Write = tuple[_Event, dict[str, _Val] | None]  # an element write or push_back, with its loop counter


@dataclass
class _Frame:
    """Where an expression is evaluated: a function, before its statement `pos`."""

    func: _Func
    pos: int
    path: tuple[int, ...]
    bindings: dict[str, tuple[int, int, _Frame]] | None = None  # a helper's parameters
    inner: bool = False  # inside a helper building a value: lines are the caller's
    counters: dict[str, _Val] | None = None  # inside an unrolled loop: its counter's value

    def at(self, stmt: int, counters: dict[str, _Val] | None = None) -> _Frame:
        path = self.func.stmts[stmt].path if 0 <= stmt < len(self.func.stmts) else ()
        return _Frame(self.func, stmt, path, self.bindings, self.inner, counters or self.counters)


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
        if frame.counters and name in frame.counters:  # in an unrolled loop
            return frame.counters[name]
        func = frame.func
        pending: list[_Write] = []
        unrolled: set[int] = set()  # loops whose writes are in pending
        for e in self.p.events_before(func, name, frame.pos):
            self.budget -= 1
            if e.kind in ("return", "deref") or unrolled.intersection(func.stmts[e.stmt].path):
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
                loop = self._unrolled(name, e, frame)
                if isinstance(loop, _Val):
                    return self._hint(loop, name, func)
                unrolled.add(loop[0])
                pending += reversed(loop[1])
                continue
            if e.kind == "modify":
                return self._hint(_unknown(f"'{name}' is changed at run time (line {e.line})"), name, func)
            if e.kind in ("append", "elem"):
                pending.append((e, None))
                continue
            v = e_val if e_val is not None else self._defined(e, frame.at(e.stmt))  # set: a "pass" event
            v = self._apply(v, name, reversed(pending), frame)
            v = self._hint(v, name, func)
            return v if frame.inner else _but(v, line=e.line)
        return self._unbound(name, frame)

    def _unrolled(self, name: str, e: _Event, frame: _Frame) -> tuple[int, list[_Write]] | _Val:
        """The writes to `name` in the counted loop around event e, iteration by iteration,
        for `for (int i = 0; i < size; i++) { ... tensors + i ... }` whose bounds are known
        here. Error returns in the body are passed over as in straight-line code."""
        func = frame.func
        path = func.stmts[e.stmt].path
        conditional = _unknown(f"'{name}' is set conditionally (line {e.line})")
        k = next((k for k, b in enumerate(path) if b not in frame.path and self._is_loop(b)), None)
        if k is None or self._reach(path[:k], frame) != "yes":
            return conditional
        loop = self.p.branches[path[k]]
        if loop.header is None or loop.func is not func:
            return conditional
        iterations = self._iterations(loop, path[k], frame)
        if isinstance(iterations, _Val):
            return _unknown(f"'{name}' is set in a loop (line {e.line}): {iterations.why}")
        counter, values = iterations
        body = [x for x in self.p.events(func, name) if path[k] in func.stmts[x.stmt].path]
        writes: list[_Write] = []
        for value in values:
            counters = {**(frame.counters or {}), counter: value}
            for x in body:
                inside = _Frame(func, x.stmt, path[: k + 1], frame.bindings, frame.inner, counters)
                taken = self._taken(name, x, inside)
                if isinstance(taken, _Val):
                    return taken
                if taken:
                    writes.append((x, counters))
        return path[k], writes

    def _is_loop(self, block: int) -> bool:
        branch = self.p.branches.get(block)
        return branch is not None and branch.kind == "loop"

    def _taken(self, name: str, e: _Event, inside: _Frame) -> bool | _Val:
        """Whether write e of an unrolled iteration runs (`inside` holds its counter), or
        why it cannot be followed: only element writes and push_backs are."""
        self.budget -= 1
        if e.kind in ("return", "deref") or e.kind == "pass" and self._passed(e, inside) is None:
            return False
        if e.kind not in ("elem", "append"):
            return _unknown(f"'{name}' is changed in a loop (line {e.line})")
        reach = self._reach(inside.func.stmts[e.stmt].path, inside)
        if reach == "maybe":
            return _unknown(f"'{name}' is set conditionally (line {e.line})")
        return reach == "yes"

    def _iterations(self, loop: _Branch, block: int, frame: _Frame) -> tuple[str, list[_Val]] | _Val:
        """The counter of a `for` loop of frame.func and its value in each iteration, the
        bound evaluated where the loop is (a literal, `shapes.size()`, a variable holding it)."""
        assert loop.header is not None
        counted = self.p.loop_counter(loop)
        if counted is None:
            return _unknown("a loop whose counter is not read")
        counter, sign, amount = counted
        stmts, body = frame.func.stmts, self.p.loop_body(loop, block)
        if any(self.p.text(stmts[si].start) in ("break", "continue", "goto") for si in body):
            return _unknown("a loop that may be left early")
        if any(self._changes(e, frame) for e in self.p.events(frame.func, counter) if e.stmt in body):
            return _unknown(f"the counter '{counter}' is changed in the loop")
        if (carried := self.p.loop_carried(frame.func, body)) is not None:
            return _unknown(f"'{carried}' is carried from one iteration to the next")
        _, cond, step = loop.header
        value = self.lookup(counter, frame.at(cond))
        values: list[_Val] = []
        while True:
            if value.kind != "num" or type(value.value) is not int:
                return _unknown(f"the counter '{counter}' is not read ({_reason(value, 'not an integer')})")
            counters = {**(frame.counters or {}), counter: value}
            go_on = self.eval(stmts[cond].start, stmts[cond].end, frame.at(cond, counters))
            truth = _truth(go_on)
            if truth is None:
                return _unknown(f"its bound is not read ({_reason(go_on, 'not a condition')})")
            if not truth:
                return counter, values
            if len(values) == MAX_UNROLL:
                return _unknown(f"more than {MAX_UNROLL} iterations are not followed")
            values.append(value)
            step_by = _num(1) if amount is None else self.eval(*amount, frame.at(step, counters))
            value = _but(_binary("+" if sign > 0 else "-", value, step_by), ctype=value.ctype)

    def _changes(self, e: _Event, frame: _Frame) -> bool:
        """Whether event e (in a loop's body) may change its variable."""
        if e.kind == "pass":
            return self._passed(e, frame.at(e.stmt)) is not None
        return e.kind != "return"

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
        return _coerce(v, ctype, self._list_levels(d))

    def _list_levels(self, d: _Decl) -> int:
        """How many levels of lists declaration d makes: `std::vector<std::vector<int64_t>> s`
        two, `int64_t a[2][3]` two, `int64_t n` none."""
        ids = self.p.names_in(*d.type)
        return len(d.dims) + sum(1 for i in ids if i in ("vector", "array", "initializer_list"))

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
        if not d.dims and self._vector_object(d):  # std::vector<T> v;: an empty vector
            return _Val("list", items=[])
        if not d.dims:
            return _unknown(f"'{d.name}' is declared without a value")
        n = self.eval(*d.dims[0], frame)
        if n.kind != "num" or not isinstance(n.value, int) or not 0 <= n.value <= MAX_LIST:
            return _unknown(f"the size of '{d.name}' is not read")
        return _Val("list", items=[_unknown(f"an element of '{d.name}' is not set")] * n.value)

    def _vector_object(self, d: _Decl) -> bool:
        """Whether d declares a std::vector itself (`std::vector<aclTensor*> v`, not `std::vector<T>* p`)."""
        texts = self.p.texts[d.type[0] : d.type[1]]
        return "vector" in texts and texts[-1] in (">", ">>")

    def _apply(self, v: _Val, name: str, pending: Iterable[_Write], frame: _Frame) -> _Val:
        """A list value after the element writes and push_backs that follow its definition."""
        writes = list(pending)
        if not writes:
            return v
        if v.kind != "list" or v.items is None:
            return _unknown(f"'{name}' is changed on line {writes[0][0].line}")
        items = list(v.items)
        for e, counters in writes:
            ef = frame.at(e.stmt, counters)
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
