"""Error rows that restate a parameter's own set or range of values.

`dropPadMode、expertTokensCountOrCumsumFlag、expertTokensBeforeCapacityFlag不在取值范围内` and
`activeNum、expertNum、expertCapacity的值小于0` (legacy MoeInitRoutingV2, 561002) name no value
of their own: they refuse what the parameter list's set (`取值为0和1`) or bound (`值范围大于等于0`)
refuses. Such a row is checked as that set or bound, under the row's status, instead of the
parameter list's reading under 161002 and the row listed as not checked.
"""

from __future__ import annotations

import re
from dataclasses import replace

from specgen.codegen.runtime._validate import Rule
from specgen.model import Param
from specgen.text import names_taken_out

_SCALAR = r"(?:-?\d+|true|false)"
# what the row says of the named values (the whole condition after the names)
_OUT_OF_SET = re.compile(r"不在(?:有效|合法|支持)?的?(?:取值|支持)?范围(?:内|之内)?")
_BELOW_ZERO = re.compile(r"(?:的值|的取值|值)?小于0")
_NOT_ONE_OF = re.compile(rf"(?:的值|的取值|值)?不是\s*(?P<vals>{_SCALAR}(?:\s*(?:或|、|,|，|和)\s*{_SCALAR})*)")
# what may stand between the names: separators, `传入的…参数`
_NAMES_GLUE = re.compile(r"(?:传入的|参数|入参|属性|、|,|，|和|及|与|\s)+")
_AT_LEAST_ZERO = (0, None, True)
# the parameters a set or a bound applies to (as cases._checkable has them)
_VALUED = {
    "enum": ("int", "float", "string", "scalar", "bool"),
    "range": ("int", "float", "scalar", "int_array", "float_array"),
}


def restated_row(row: Rule, by_name: dict[str, Param]) -> Rule:
    """The unchecked value row checked as its parameters' own set or bound where its whole
    condition is `<names>` and one of `不在取值范围内`, `的值小于0`, `的值不是0或1`; else the row."""
    if row.kind != "value" or row.host or not row.params or not set(row.params) <= by_name.keys():
        return row
    condition = row.condition.strip().rstrip("。.；;")
    for pattern, read in ((_OUT_OF_SET, _own_set), (_BELOW_ZERO, _below_zero), (_NOT_ONE_OF, _one_of)):
        said = pattern.search(condition)
        if said and said.end() == len(condition) and _only_names(condition[: said.start()], row.params):
            found = read([by_name[n] for n in row.params], said)
            return replace(row, host=True, reason="", **found) if found else row
    return row


def _only_names(head: str, names: tuple[str, ...]) -> bool:
    """The part before the predicate holds the row's names and nothing else."""
    _, rest = names_taken_out(head, names)
    return _NAMES_GLUE.fullmatch(rest) is not None or rest == ""


def _own_set(params: list[Param], _said: re.Match[str]) -> dict | None:
    """`不在取值范围内`: each parameter's own set (or bound); a bool has no value outside its two."""
    kinds = {_own_kind(p) for p in params if p.kind != "bool"}
    if len(kinds) != 1 or None in kinds:
        return None
    if len(params) > 1 and any(p.kind == "string" for p in params):
        return None  # a string's set is checked alone, where it is the whole set said (cases._string_set_held)
    names = tuple(p.name for p in params if p.kind != "bool")
    return {"kind": kinds.pop(), "params": names}


def _own_kind(p: Param) -> str | None:
    """The kind of the parameter's own statement of its values, one holding on every product."""
    for kind in ("enum", "range"):
        if p.kind in _VALUED[kind] and any(c.product is None and not c.when for c in p.of_kind(kind)):
            return kind
    return None


def _below_zero(params: list[Param], _said: re.Match[str]) -> dict | None:
    """`的值小于0`: the parameters' own bound where each is `>= 0` itself, else the row's own."""
    if any(p.kind not in _VALUED["range"] for p in params):
        return None
    own = all(_own_bound(p) == _AT_LEAST_ZERO for p in params)
    return {"kind": "range", "bounds": None if own else (0, None, True, False)}


def _own_bound(p: Param) -> tuple[object, object, bool] | None:
    ranges = [c for c in p.of_kind("range") if c.product is None and not c.when]
    return (ranges[0].min, ranges[0].max, ranges[0].min_inclusive) if ranges else None


def _one_of(params: list[Param], said: re.Match[str]) -> dict | None:
    """`的值不是0或1`: the row's own set, which the parameters' own (the same) then need not repeat."""
    values = tuple(
        dict.fromkeys(v == "true" if v in ("true", "false") else int(v) for v in re.findall(_SCALAR, said["vals"]))
    )
    if any(p.kind not in ("int", "bool", "scalar") for p in params):
        return None
    own = all(
        {v for c in p.of_kind("enum") if c.product is None and not c.when for v in c.values} == set(values)
        for p in params
    )
    return {"kind": "enum", "values": () if own else values}
