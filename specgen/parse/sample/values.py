"""What an expression evaluates to, and the arithmetic, conversions and library calls on it."""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from specgen import vocab
from specgen.model import LIMIT
from specgen.parse.sample.program import _ASSIGN


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


def _coerce(v: _Val, ctype: str | None, lists: int | None = None) -> _Val:
    """A number (or the numbers of a list) converted to the C type it is stored in; `lists`:
    how many levels of lists the type has (`vector<vector<int64_t>>`: 2), when known."""
    if ctype is None:
        return v
    if v.kind == "list" and v.items is not None:
        braced = v.src.startswith("{") and len(v.items) == 1 and v.items[0].kind == "num"
        if braced and not lists:  # {{2}}: braces around 2, where a number is stored
            return _coerce(_but(v.items[0], src=v.src), ctype)
        inner = None if lists is None else lists - 1
        return _but(v, items=[_coerce(x, ctype, inner) for x in v.items])
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
