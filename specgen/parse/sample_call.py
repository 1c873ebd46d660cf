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

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

import specgen
from specgen.model import CallArg, SampleCall
from specgen.parse.sample.evaluator import _Evaluator, _Frame
from specgen.parse.sample.program import _Program
from specgen.parse.sample.values import _ARRAYS, _Val

__all__ = ["find_calls"]

GWS = "GetWorkspaceSize"
MAX_CODE = 400_000  # characters: real samples are under 40 KB; more is not a sample


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
