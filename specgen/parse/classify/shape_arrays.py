"""A tensor whose shape is an integer array's value, in the documents' words.

aclnnLayerNormBackward: normalizedShape's row says `值为[R1,...,Rj]`, binding the list of symbols
to the array's elements; gradWeightOut's row says `shape与gradBiasOut的shape相等，为[R1,...,Rj]`,
the same list: its shape is the array's value (`*normalizedShape`). A row that says its shape
equals the array itself (`shape与normalizedShape相等`) says so too. Read only where one array's
documented value is the list (a list several arrays give, or none, settles nothing), and where
the list is the tensor's own (`为[…]`, `shape为[…]`), not the array's row quoting it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.text import Statement

# `值为[R1,...,Rj]`: an array's documented value, a list of symbols
_VALUE_IS = re.compile(r"值为\s*(?P<list>\[[^\[\]]*[A-Za-z][^\[\]]*\])")
# `为[R1,...,Rj]`, `shape为[R1,...,Rj]`: a tensor's own list
_SHAPE_IS = re.compile(r"(?<!值)为\s*(?P<list>\[[^\[\]]*\])")
_SPACES = re.compile(r"[\s`]")


def _normal(listed: str) -> str:
    return _SPACES.sub("", listed).replace("，", ",").replace("…", "...")


def _valued_arrays(params: Sequence[Param]) -> dict[str, list[str]]:
    """Each list of symbols an integer array's row gives as its value, with the arrays giving it."""
    found: dict[str, list[str]] = {}
    for q in params:
        if q.kind != "int_array":
            continue
        for m in _VALUE_IS.finditer(q.text):
            found.setdefault(_normal(m.group("list")), []).append(q.name)
    return found


def _equal_to_array(text: str, arrays: Sequence[str]) -> str:
    """The array a statement says the shape equals (`shape与normalizedShape相等`), else ""."""
    for name in arrays:
        if re.search(rf"shape\s*(?:与|和)\s*{re.escape(name)}(?![A-Za-z0-9_])\s*(?:相等|一致|相同)", text):
            return name
    return ""


def shape_of_array(name: str, params: Sequence[Param], said: Sequence[Statement]) -> tuple[str, Statement] | None:
    """The integer array whose value the shape of tensor `name` is, with the statement saying so;
    None when no statement of the tensor says so, or more than one array could be meant."""
    valued = _valued_arrays(params)
    arrays = [q.name for q in params if q.kind == "int_array"]
    for s in said:
        if array := _equal_to_array(s.text, arrays):
            return array, s
        for m in _SHAPE_IS.finditer(s.text):
            owners = valued.get(_normal(m.group("list")), [])
            if len(owners) == 1 and owners[0] != name:
                return owners[0], s
    return None


def array_shape_rule(p: Param, params: Sequence[Param], said: Sequence[Statement]) -> ShapeRule | None:
    """An output whose shape is an integer array's value (aclnnLayerNormBackward gradWeightOut:
    `为[R1,...,Rj]`, normalizedShape `值为[R1,...,Rj]`): `[*normalizedShape]`."""
    found = shape_of_array(p.name, params, said)
    if found is None:
        return None
    array, s = found
    return ShapeRule(kind="explicit", dims=(f"*{array}",), text=s.text, line=s.line)
