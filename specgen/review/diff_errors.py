"""Relations between parameters (shape, dtype, castable edges) and error rules: compared by
what they check, a rule that checks more or accepts less being breaking."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from specgen.model import Check, ErrorRule, Function
from specgen.review.changes import ChangeId, Collector, Side, normalise

TYPED_DTYPES = ("tensor", "tensor_list", "scalar", "scalar_list")


def within(inner: tuple, outer: tuple) -> bool:
    low_ok = outer[0] is None or (inner[0] is not None and inner[0] >= outer[0])
    high_ok = outer[1] is None or (inner[1] is not None and inner[1] <= outer[1])
    return low_ok and high_ok


_SHAPE_KINDS = {"same_shape": "same", "broadcast": "broadcast", "broadcast_result": "broadcast"}
# A "same as" constraint kind -> the ids of a rule (added, removed).
_SAME_KINDS = {
    "same_dtype": (ChangeId.SAME_DTYPE_RULE_ADDED, ChangeId.SAME_DTYPE_RULE_REMOVED),
    "same_format": (ChangeId.SAME_FORMAT_RULE_ADDED, ChangeId.SAME_FORMAT_RULE_REMOVED),
}


# A relation kind -> the parameter kinds that have what it relates: a shape or a format is a
# tensor's (an aclIntArray named `shape` holds dimensions, it has no shape to be the same as).
_TENSORS = ("tensor", "tensor_list")
BEARERS = {
    "same_shape": _TENSORS,
    "broadcast": _TENSORS,
    "broadcast_result": _TENSORS,
    "same_format": _TENSORS,
    "same_dtype": TYPED_DTYPES,
    "castable": TYPED_DTYPES,
}


def _edges(fn: Function, kinds: dict[str, str], rename: dict[str, str]) -> dict[frozenset[str], str]:
    """Relations as undirected edges between parameters, with their (folded) kind: stated in
    a parameter's cells, or by an unconditional error row (`self和out的shape不一致`) — the
    same relation wherever it is written — between parameters that have what it relates."""
    edges: dict[frozenset[str], str] = {}
    kind_of = {p.name: p.kind for p in fn.params}
    stated: list[tuple[str, str, tuple[str, ...]]] = [
        (p.name, c.kind, c.params) for p in fn.params for c in p.constraints
    ]
    checks = [c for e in fn.errors if not e.conditional for c in e.checks if c.params]
    stated += [(c.params[0], c.kind, c.params[1:]) for c in checks]
    for name, kind, peers in stated:
        if kind not in kinds:
            continue
        for peer in peers:
            if peer != name and kind_of.get(name) in BEARERS[kind] and kind_of.get(peer) in BEARERS[kind]:
                edge = frozenset((rename.get(name, name), rename.get(peer, peer)))
                edges.setdefault(edge, kinds[kind])
    return edges


def compare_relations(out: Collector, old: Side, new: Side, renames: dict[str, str]) -> None:
    shape_a, shape_b = _edges(old.fn, _SHAPE_KINDS, renames), _edges(new.fn, _SHAPE_KINDS, {})
    for edge in sorted(shape_a.keys() | shape_b.keys(), key=sorted):
        a, b = shape_a.get(edge), shape_b.get(edge)
        if a == b:
            continue
        if a and b:
            id = ChangeId.SHAPE_RULE_RELAXED if b == "broadcast" else ChangeId.SHAPE_RULE_TIGHTENED
        else:
            id = ChangeId.SHAPE_RULE_ADDED if b else ChangeId.SHAPE_RULE_REMOVED
        out.add(id, old, new, before={"params": sorted(edge), "rule": a}, after={"params": sorted(edge), "rule": b})
    _compare_castable(out, old, new, renames)
    for kind, (added, removed) in _SAME_KINDS.items():
        # "Same as" is transitive: compare which parameters end up bound together.
        bound_a = _closure(_edges(old.fn, {kind: kind}, renames))
        bound_b = _closure(_edges(new.fn, {kind: kind}, {}))
        for group in _components(bound_b - bound_a):
            out.add(added, old, new, before=None, after=group)
        for group in _components(bound_a - bound_b):
            out.add(removed, old, new, before=group, after=None)


def _compare_castable(out: Collector, old: Side, new: Side, renames: dict[str, str]) -> None:
    """Promotion and castability between parameters, as edges. A pair bound by the same dtype
    on either side is left to the same-dtype rules (same dtype is castable: that change is a
    same-dtype rule added or removed)."""
    same_a = _closure(_edges(old.fn, {"same_dtype": "same_dtype"}, renames))
    same_b = _closure(_edges(new.fn, {"same_dtype": "same_dtype"}, {}))
    stated_a = set(_edges(old.fn, {"castable": "castable"}, renames))
    stated_b = set(_edges(new.fn, {"castable": "castable"}, {}))
    for group in _components(stated_b - stated_a - same_a - same_b):
        out.add(ChangeId.CASTABLE_RULE_ADDED, old, new, before=None, after=group)
    for group in _components(stated_a - stated_b - same_b - same_a):
        out.add(ChangeId.CASTABLE_RULE_REMOVED, old, new, before=group, after=None)


def _closure(edges: Iterable[frozenset[str]]) -> set[frozenset[str]]:
    """Every pair of parameters in one group of the equivalence the edges generate."""
    return {frozenset((x, y)) for group in _components(edges) for x in group for y in group if x < y}


def _components(edges: Iterable[frozenset[str]]) -> list[list[str]]:
    """Connected groups of parameters, so that one rule over three tensors is one change."""
    groups: list[set[str]] = []
    for edge in edges:
        touching = [g for g in groups if g & edge]
        merged = set(edge).union(*touching)
        groups = [g for g in groups if not g & edge] + [merged]
    return sorted(sorted(g) for g in groups)


# ---------------------------------------------------------------- error rules


def compare_errors(out: Collector, old: Side, new: Side, renames: dict[str, str]) -> None:
    before = list(old.fn.errors)
    after = list(new.fn.errors)

    def key(rule: ErrorRule, rename: dict[str, str]) -> str:
        text = rule.condition
        for old_name, new_name in rename.items():
            text = re.sub(rf"\b{re.escape(old_name)}\b", new_name, text)
        return normalise(text).replace("的", "")  # `selfRef的shape` or `selfRef shape`: one condition

    # 1. identical conditions (after normalisation and renames): no change
    remaining_b = {id(r): r for r in after}
    unmatched_a = []
    for rule in before:
        match = next((r for r in remaining_b.values() if key(r, {}) == key(rule, renames)), None)
        if match is None:
            unmatched_a.append(rule)
        else:
            del remaining_b[id(match)]
    # a row written twice on one side is the same rule, not a new or a lost one
    keys_a, keys_b = {(r.code, key(r, renames)) for r in before}, {(r.code, key(r, {})) for r in after}
    unmatched_a = [r for r in unmatched_a if (r.code, key(r, renames)) not in keys_b]
    unmatched_b = [r for r in remaining_b.values() if (r.code, key(r, {})) not in keys_a]
    # 2. the same typed meaning, or a close text: a reworded or changed rule
    for rule in list(unmatched_a):
        match = max(unmatched_b, key=lambda r: _similarity(rule, r, renames), default=None)
        if match is not None and _similarity(rule, match, renames) >= 0.6:
            unmatched_a.remove(rule)
            unmatched_b.remove(match)
            out.add(
                _error_direction(old, new, rule, match, renames),
                old,
                new,
                before=_rule_json(rule),
                after=_rule_json(match),
                old_line=rule.line,
                new_line=match.line,
            )
    for rule in unmatched_a:
        out.add(ChangeId.ERROR_RULE_REMOVED, old, new, before=_rule_json(rule), old_line=rule.line)
    for rule in unmatched_b:
        out.add(ChangeId.ERROR_RULE_ADDED, old, new, after=_rule_json(rule), new_line=rule.line)


def _similarity(a: ErrorRule, b: ErrorRule, renames: dict[str, str]) -> float:
    if a.code != b.code:
        return 0.0
    same_meaning = (
        {c.kind for c in a.checks} == {c.kind for c in b.checks}
        and a.checks
        and {renames.get(p, p) for p in a.params} == set(b.params)
    )
    ratio = difflib.SequenceMatcher(None, normalise(a.condition), normalise(b.condition)).ratio()
    return 1.0 if same_meaning else ratio


# Kinds of one family, by strictness: the same parameters checked by a stricter kind reject more.
_STRICTNESS = {
    "broadcast": ("shape", 1),
    "broadcast_result": ("shape", 2),
    "same_shape": ("shape", 3),
    "castable": ("dtype", 1),
    "same_dtype": ("dtype", 2),
}
_SETS = ("dtypes", "formats", "enum")  # checks whose values are the accepted members
_BOUNDS = ("range", "rank")  # checks whose min/max bound the accepted values


# Checks that only point at the parameter tables ("数据类型不在支持的范围内"): the limits are the
# parameters' own facts, compared there, so such a check adds no rejection of its own.
_POINTERS = (*_SETS, *_BOUNDS, "constraints", "internal", "product")


# Kinds that state a relation among their parameters; every other kind holds of each alone.
_RELATIONS = {
    "same_shape",
    "broadcast",
    "broadcast_result",
    "broadcast_to",
    "same_rank",
    "rank_at_least",
    "array_shape",
    "same_dtype",
    "castable",
    "same_format",
    "axis",
}


def _checks(rule: ErrorRule, fn: Function, renames: dict[str, str]) -> set[tuple]:
    """The rule's own checks, one per parameter unless a relation, on the names of `fn` (a
    name the prototype lacks, say the snake_case spelling of a prose, is left out)."""
    known = {p.name for p in fn.params} | {p.name.replace("_", "").lower() for p in fn.params}
    out = set()
    for c in rule.checks:
        if c.kind in _POINTERS and not c.values and c.min is None and c.max is None:
            continue
        named = [p for p in c.params if p in known or p.replace("_", "").lower() in known]
        params = [renames.get(p, p) for p in named or c.params]
        groups = [params] if c.kind in _RELATIONS else [[p] for p in params] or [[]]
        out |= {_check_key(c, group) for group in groups}
    return out


def _check_key(check: Check, params: list[str]) -> tuple:
    names = tuple(sorted({p.replace("_", "").lower() for p in params}))  # grad_xyz1 is gradXyz1
    return (check.kind, names, tuple(sorted(map(str, check.values))), check.min, check.max)


def _compare_checks(a: tuple, b: tuple) -> int:
    """+1 when check `b` rejects more than `a` on the same parameters, -1 when less, 0 when they
    are not of one family (told apart by the caller)."""
    (kind_a, _, values_a, min_a, max_a), (kind_b, _, values_b, min_b, max_b) = a, b
    if kind_a in _STRICTNESS and kind_b in _STRICTNESS and _STRICTNESS[kind_a][0] == _STRICTNESS[kind_b][0]:
        return 1 if _STRICTNESS[kind_b][1] > _STRICTNESS[kind_a][1] else -1
    if kind_a != kind_b:
        return 0
    if kind_a in _SETS and values_a and values_b:
        return 1 if not set(values_a) <= set(values_b) else -1
    if kind_a in _BOUNDS:
        return 1 if not within((min_a, max_a), (min_b, max_b)) else -1
    return 0


def _error_direction(old_side: Side, new_side: Side, a: ErrorRule, b: ErrorRule, renames: dict[str, str]) -> ChangeId:
    """Tightened when a call accepted by `a` may be rejected by `b`: a new check, a stricter one,
    or the rule made unconditional; loosened for the reverse; reworded only when both rules have
    the same checks and condition (the text alone differs)."""
    old, new = _checks(a, old_side.fn, renames), _checks(b, new_side.fn, {})
    # A parameter the other side's text already names (the parser keeps prototype names only,
    # and a prose may spell one `grad_xyz1`) is the same check, not a new one.
    old |= {c for c in new - old if c[0] not in _RELATIONS and _named_in(c, a.condition)}
    new |= {c for c in old - new if c[0] not in _RELATIONS and _named_in(c, b.condition)}
    tighter, looser = a.conditional and not b.conditional, b.conditional and not a.conditional
    if old != new:
        gone = old - new
        for check in new - old:
            peers = [g for g in gone if g[1] == check[1] and _compare_checks(g, check)]
            if not peers:
                tighter = True
                continue
            for peer in peers:
                gone.discard(peer)
                tighter |= _compare_checks(peer, check) > 0
                looser |= _compare_checks(peer, check) < 0
        looser |= bool(gone)
    was, now = _alternatives(a.condition), _alternatives(b.condition)
    if len(now) > len(was) and _kept(was, now):  # `A` became `A，或B`: one more way to be rejected
        tighter = True
    elif len(now) < len(was) and _kept(now, was) and not tighter:
        looser = True
    if tighter:
        return ChangeId.ERROR_RULE_TIGHTENED
    return ChangeId.ERROR_RULE_LOOSENED if looser else ChangeId.ERROR_RULE_REWORDED


def _named_in(check: tuple, condition: str) -> bool:
    return bool(check[1]) and all(name in normalise(condition).replace("_", "") for name in check[1])


def _kept(fewer: set[str], more: set[str]) -> bool:
    """Every alternative of `fewer` is still among `more`, maybe reworded."""
    return all(any(difflib.SequenceMatcher(None, x, y).ratio() >= 0.6 for y in more) for x in fewer)


def _alternatives(condition: str) -> set[str]:
    """The alternatives of an untyped condition (`A，或B`): one more is one more rejection."""
    return {normalise(part) for part in re.split(r"[，,；;]?\s*或者?|[；;]", condition) if normalise(part)}


def _rule_json(rule: ErrorRule) -> dict[str, Any]:
    return {"code": rule.code, "name": rule.name, "condition": rule.condition}
