"""Semantic diff of two versions of operator documents, on their models.

Functions are matched by name wherever their documents live; parameters by name, then by
position and type (a rename); relations between parameters as edges of the function. Text is
compared after normalisation (width, spaces, trailing punctuation), so formatting, reordered
rows and a change of dialect produce no change. Each change has an id of `ChangeId`.

This module compares documents, functions and parameters; the statements the parser cannot
type are compared in `diff_statements`, relations and error rules in `diff_errors`, and each
change is put in words by `diff_summary`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from specgen.model import Function, OperatorDoc, Param
from specgen.review.changes import BREAKING, CATALOGUE, SEVERITY_ORDER, Change, ChangeId, Collector, Side, normalise
from specgen.review.diff_errors import TYPED_DTYPES, compare_errors, compare_relations, within
from specgen.review.diff_statements import (
    FLAG_WORDS,
    Statement,
    compare_remarks,
    compare_statements,
    constraint_statement,
    flag_remark,
    haystack,
    note_statements,
    remark_statements,
    typed_statements,
    untyped_statements,
)
from specgen.review.diff_summary import summary

# the diff's public names, wherever they are defined
__all__ = ["BREAKING", "CATALOGUE", "SEVERITY_ORDER", "Change", "ChangeId", "diff", "normalise", "summary"]


def diff(old_docs: Sequence[OperatorDoc], new_docs: Sequence[OperatorDoc]) -> list[Change]:
    """The changes from `old_docs` to `new_docs`, in a stable order."""
    out = Collector()
    old_fns, new_fns = _functions(old_docs), _functions(new_docs)
    for name in sorted(old_fns.keys() | new_fns.keys()):
        old, new = old_fns.get(name), new_fns.get(name)
        if old is None:
            out.add(ChangeId.FUNCTION_ADDED, None, new, after=name)
        elif new is None:
            out.add(ChangeId.FUNCTION_REMOVED, old, None, before=name)
        else:
            _compare_function(out, old, new)
    for old_doc, new_doc in _document_pairs(old_docs, new_docs):
        _compare_document(out, old_doc, new_doc)
    return out.changes


def _functions(docs: Iterable[OperatorDoc]) -> dict[str, Side]:
    found: dict[str, Side] = {}
    for doc in sorted(docs, key=lambda d: d.source):
        for fn in doc.functions:
            found.setdefault(fn.name, Side(doc, fn))
        for fn in doc.single_phase:  # a single-phase API is part of the contract too
            found.setdefault(fn.name, Side(doc, fn, single_phase=True))
    return found


def _document_pairs(old_docs: Sequence[OperatorDoc], new_docs: Sequence[OperatorDoc]):
    """Documents of the two versions that share a function (the same operator's document)."""
    new_by_fn = {fn.name: doc for doc in new_docs for fn in (*doc.functions, *doc.single_phase)}
    seen = set()
    for old in sorted(old_docs, key=lambda d: d.source):
        for fn in (*old.functions, *old.single_phase):
            new = new_by_fn.get(fn.name)
            if new is not None and (old.source, new.source) not in seen:
                seen.add((old.source, new.source))
                yield old, new


# ---------------------------------------------------------------- documents


def _compare_document(out: Collector, old: OperatorDoc, new: OperatorDoc) -> None:
    side_old = Side(old, (*old.functions, *old.single_phase)[0])
    side_new = Side(new, (*new.functions, *new.single_phase)[0])
    if not old.functions or not new.functions:  # a page of single-phase APIs: its prototypes only
        return
    for attr, change in (("summary", ChangeId.SUMMARY_CHANGED), ("formula", ChangeId.FORMULA_CHANGED)):
        a, b = getattr(old, attr), getattr(new, attr)
        if a and b and normalise(a.text) != normalise(b.text):
            out.add(change, side_old, side_new, before=a.text, after=b.text, old_line=a.line, new_line=b.line)
    _compare_products(out, side_old, side_new)
    compare_statements(out, side_old, side_new, None, note_statements(old), note_statements(new))


def _compare_products(out: Collector, old: Side, new: Side) -> None:
    """Products as the sorted list supported on each side; one change per direction."""
    before = {p.id: p for p in old.doc.products}
    after = {p.id: p for p in new.doc.products}
    was = sorted(p for p, v in before.items() if v.supported)
    now = sorted(p for p, v in after.items() if v.supported)
    if not before and after:
        out.add(
            ChangeId.PRODUCTS_DOCUMENTED, old, new, before=[], after=now, values=now, new_line=_first_line(after, now)
        )
        return
    if added := [p for p in now if p not in was]:
        out.add(
            ChangeId.PRODUCT_SUPPORT_ADDED,
            old,
            new,
            before=was,
            after=now,
            values=added,
            old_line=_first_line(before, added),
            new_line=_first_line(after, added),
        )
    if removed := [p for p in was if p not in now]:
        out.add(
            ChangeId.PRODUCT_SUPPORT_REMOVED,
            old,
            new,
            before=was,
            after=now,
            values=removed,
            old_line=_first_line(before, removed),
            new_line=_first_line(after, removed),
        )


def _first_line(products: dict, ids: Sequence[str]) -> int | None:
    lines = [products[p].line for p in ids if p in products]
    return min(lines) if lines else None


# ---------------------------------------------------------------- functions and parameters


def _compare_function(out: Collector, old: Side, new: Side) -> None:
    if old.single_phase or new.single_phase:  # its parameters and their C types only
        _compare_types(out, old, new)
        return
    pairs, renames = _match_params(out, old, new)
    for a, b in pairs:
        _compare_param(out, old, new, a, b)
    _compare_execute(out, old, new)
    compare_relations(out, old, new, renames)
    compare_errors(out, old, new, renames)
    compare_remarks(out, old, new, renames)


def _compare_execute(out: Collector, old: Side, new: Side) -> None:
    """The second phase's parameters (`aclnnXxx(workspace, workspaceSize, executor, stream)`),
    compared as the first phase's are: C callers pass them too."""
    if old.fn.execute_params and new.fn.execute_params:
        _compare_types(out, old, new, execute=True)


def _compare_types(out: Collector, old: Side, new: Side, *, execute: bool = False) -> None:
    """Parameters added, removed, renamed, reordered, and their C types (what a C caller writes)."""
    for a, b in _match_params(out, old, new, execute=execute)[0]:
        if change := _type_change(a.c_type, b.c_type):
            out.add(change, old, new, param=b.name, before=a.c_type, after=b.c_type, old_line=a.line, new_line=b.line)


def _match_params(
    out: Collector, old: Side, new: Side, *, execute: bool = False
) -> tuple[list[tuple[Param, Param]], dict[str, str]]:
    """Matched (old, new) parameters, and the renames (old name -> new name) found; of the
    second phase when `execute` (no Python caller names those)."""
    a_params, b_params = (list(s.fn.execute_params if execute else s.fn.params) for s in (old, new))
    b_names = {p.name for p in b_params}
    a_names = {p.name for p in a_params}
    renames: dict[str, str] = {}
    for i, a in enumerate(a_params):
        if a.name in b_names or i >= len(b_params):
            continue
        b = b_params[i]
        if b.name not in a_names and _base_type(a.c_type) == _base_type(b.c_type):
            renames[a.name] = b.name
            python = _python_argument(a) and not execute
            ids = [ChangeId.PARAM_RENAMED] + ([ChangeId.PYTHON_KEYWORD_RENAMED] if python else [])
            for id in ids:
                out.add(id, old, new, param=b.name, before=a.name, after=b.name, old_line=a.line, new_line=b.line)
    matched_new = set(renames.values()) | (a_names & b_names)
    for a in a_params:
        if a.name not in b_names and a.name not in renames:
            out.add(ChangeId.PARAM_REMOVED, old, new, param=a.name, before=_declared(a), old_line=a.line)
    for b in b_params:
        if b.name not in matched_new:
            out.add(ChangeId.PARAM_ADDED, old, new, param=b.name, after=_declared(b), new_line=b.line)
    order_a = [renames.get(p.name, p.name) for p in a_params if renames.get(p.name, p.name) in matched_new]
    order_b = [p.name for p in b_params if p.name in matched_new]
    if order_a != order_b:
        out.add(ChangeId.PARAM_REORDERED, old, new, before=order_a, after=order_b)
    by_new = {p.name: p for p in b_params}
    pairs = [(a, by_new[renames.get(a.name, a.name)]) for a in a_params if renames.get(a.name, a.name) in by_new]
    return pairs, renames


def _declared(p: Param) -> dict[str, str]:
    return {"name": p.name, "type": p.c_type}


# The first phase's tail: the wrapper fills these in, so no Python caller names them.
_PHASE_PARAMS = {"workspaceSize", "executor"}


def _python_argument(p: Param) -> bool:
    return p.name not in _PHASE_PARAMS and "aclOpExecutor" not in p.c_type


def _base_type(c_type: str) -> str:
    return " ".join(w for w in c_type.replace("*", " * ").split() if w != "const")


def _type_change(a: str, b: str) -> ChangeId | None:
    """The catalogue id of a C type change, or None when the types are the same."""
    if a == b:
        return None
    if _base_type(a) != _base_type(b):
        return ChangeId.PARAM_TYPE_CHANGED
    if "*" not in a:
        return ChangeId.PARAM_QUALIFIER_CHANGED  # `const int64_t` vs `int64_t`: callers cannot tell
    return ChangeId.PARAM_CONST_ADDED if b.startswith("const ") else ChangeId.PARAM_CONST_REMOVED


def _compare_param(out: Collector, old: Side, new: Side, a: Param, b: Param) -> None:
    def add(id: ChangeId, before: Any, after: Any, values: Sequence | None = None) -> None:
        out.add(id, old, new, param=b.name, before=before, after=after, values=values, old_line=a.line, new_line=b.line)

    if change := _type_change(a.c_type, b.c_type):
        add(change, a.c_type, b.c_type)
    if a.direction != b.direction:
        add(ChangeId.PARAM_DIRECTION_CHANGED, a.direction, b.direction)
    if a.optional != b.optional:
        add(ChangeId.PARAM_NOW_OPTIONAL if b.optional else ChangeId.PARAM_NOW_REQUIRED, a.optional, b.optional)
    if a.kind in TYPED_DTYPES or b.kind in TYPED_DTYPES:
        _compare_dtypes(out, old, new, a, b)
    if a.kind in ("tensor", "tensor_list") and b.kind in ("tensor", "tensor_list"):
        _compare_sets(add, a.formats, b.formats, "formats")
        _compare_rank(add, a, b)
    _compare_values(add, a, b)
    for fact in FLAG_WORDS:
        _compare_flag(out, old, new, a, b, fact)
    if a.description and b.description and normalise(a.description) != normalise(b.description):
        add(ChangeId.DESCRIPTION_CHANGED, a.description, b.description)
    # a parameter's cell sentences and the remarks naming it are compared together (a cell's
    # statement moved under a product heading and reworded is one edit)
    before = untyped_statements(a, old.fn) + remark_statements(old.fn).get(a.name, [])
    after = untyped_statements(b, new.fn) + remark_statements(new.fn).get(b.name, [])
    compare_statements(out, old, new, b.name, before, after, (typed_statements(a), typed_statements(b)))


def _dtype_source(param: Param, fn: Function) -> Param:
    """The parameter whose dtype list applies: a dtype cell may say `与self一致` instead."""
    if param.dtypes:
        return param
    for peer in (n for c in param.of_kind("same_dtype") for n in c.params):
        source = fn.param(peer)
        if source is not None and source.dtypes:
            return source
    return param


def _compare_dtypes(out: Collector, old: Side, new: Side, a: Param, b: Param) -> None:
    """The dtypes of each product supported on both sides (a product on one side only is a
    product-support change, not a change of its every dtype): a change the same on all of them
    is reported once, for every product; otherwise for the products it holds on."""
    name, line_a, line_b = b.name, a.line, b.line
    a, b = _dtype_source(a, old.fn), _dtype_source(b, new.fn)
    if a.kind not in TYPED_DTYPES or b.kind not in TYPED_DTYPES:  # a C value type has no dtype list
        a, b = (a if a.kind in TYPED_DTYPES else _no_dtypes(a)), (b if b.kind in TYPED_DTYPES else _no_dtypes(b))
    products = _common_products(old.doc, new.doc) if a.dtypes and b.dtypes else [None]
    for id, grown in ((ChangeId.DTYPE_ADDED, True), (ChangeId.DTYPE_REMOVED, False)):
        groups: dict[tuple[str, ...], list[str | None]] = {}
        for product in products:
            listed_a, listed_b = a.dtypes_on(product), b.dtypes_on(product)
            more, fewer = (listed_b, listed_a) if grown else (listed_a, listed_b)
            if changed := tuple(d for d in more if d not in fewer):
                groups.setdefault(changed, []).append(product)
        everywhere = len(groups) == 1 and len(next(iter(groups.values()))) == len(products)
        for dtypes, where in groups.items():
            scope: list[str | None] = [None] if everywhere else where
            out.add(
                id,
                old,
                new,
                param=name,
                before=_dtypes_json(a, scope),
                after=_dtypes_json(b, scope),
                values=list(dtypes),
                old_line=line_a,
                new_line=line_b,
            )


def _common_products(old: OperatorDoc, new: OperatorDoc) -> list[str | None]:
    """The products supported on both sides, or [None] (every product) when either side
    documents none."""
    was = {p.id for p in old.products if p.supported}
    now = {p.id for p in new.products if p.supported}
    common: list[str | None] = [*sorted(was & now)]
    return common or [None]


def _dtypes_json(param: Param, scope: list[str | None]) -> dict[str, Any]:
    """`{"product", "dtypes", "products"}`: `product` the one product the change holds on (null:
    every product, or several), `products` those it holds on (empty: every product); the
    dtypes are those of the first. One shape whatever the scope."""
    single = scope[0] if len(scope) == 1 else None
    return {"product": single, "dtypes": param.dtypes_on(scope[0]), "products": [p for p in scope if p]}


def _no_dtypes(param: Param) -> Param:
    return param.model_copy(update={"constraints": tuple(c for c in param.constraints if c.kind != "dtypes")})


# A fact of a parameter -> the ids of (more, fewer) accepted: a set of values, or a flag.
_GROWN_SHRUNK = {
    "formats": (ChangeId.FORMAT_ADDED, ChangeId.FORMAT_REMOVED),
    "non_contiguous": (ChangeId.NON_CONTIGUOUS_ADDED, ChangeId.NON_CONTIGUOUS_REMOVED),
    "empty_tensor": (ChangeId.EMPTY_TENSOR_ADDED, ChangeId.EMPTY_TENSOR_REMOVED),
}


def _compare_sets(add, before: Sequence[str], after: Sequence[str], fact: str) -> None:
    if not before and after:
        add(ChangeId.CONSTRAINT_DOCUMENTED, None, {"fact": fact, "value": list(after)})
        return
    if not after:
        return
    grown, shrunk = _GROWN_SHRUNK[fact]
    if added := [x for x in after if x not in before]:
        add(grown, list(before), list(after), values=added)
    if removed := [x for x in before if x not in after]:
        add(shrunk, list(before), list(after), values=removed)


def _rank_json(rank) -> dict[str, int | None]:
    return {"min": rank.min, "max": rank.max}


def _compare_rank(add, a: Param, b: Param) -> None:
    ra, rb = a.rank, b.rank
    if ra == rb or rb is None:
        return
    if ra is None:
        add(ChangeId.CONSTRAINT_DOCUMENTED, None, {"fact": "rank", "value": _rank_json(rb)})
        return
    hi_a = ra.max if ra.max is not None else 1 << 30
    hi_b = rb.max if rb.max is not None else 1 << 30
    narrowed = rb.min > ra.min or hi_b < hi_a
    add(ChangeId.RANK_NARROWED if narrowed else ChangeId.RANK_WIDENED, _rank_json(ra), _rank_json(rb))


def _compare_values(add, a: Param, b: Param) -> None:
    enum_a = {v for c in a.of_kind("enum") for v in c.values}
    enum_b = {v for c in b.of_kind("enum") for v in c.values}
    if enum_a and enum_b:
        listed_a, listed_b = sorted(enum_a, key=str), sorted(enum_b, key=str)
        if added := sorted(enum_b - enum_a, key=str):
            add(ChangeId.ENUM_VALUES_ADDED, listed_a, listed_b, values=added)
        if removed := sorted(enum_a - enum_b, key=str):
            add(ChangeId.ENUM_VALUES_REMOVED, listed_a, listed_b, values=removed)
    range_a, range_b = _range(a), _range(b)
    if range_a and range_b and range_a != range_b:
        inside = within(range_a, range_b)
        add(
            ChangeId.VALUE_RANGE_WIDENED if inside else ChangeId.VALUE_RANGE_NARROWED,
            dict(zip(("min", "max"), range_a, strict=True)),
            dict(zip(("min", "max"), range_b, strict=True)),
        )


def _range(p: Param) -> tuple | None:
    ranges = p.of_kind("range")
    return (ranges[0].min, ranges[0].max) if ranges else None


def _flag_on(side: Side, param: Param, fact: str, product: str | None) -> bool | None:
    """The flag on `product`: a per-product remark's, else the parameter's own."""
    for r in side.fn.remarks:
        if (said := flag_remark(r.text, param.name, fact)) and product in said[0]:
            return said[1]
    return getattr(param, fact)


def _remark_products(side: Side, param: str, fact: str) -> set[str]:
    return {p for r in side.fn.remarks if (said := flag_remark(r.text, param, fact)) for p in said[0]}


def _compare_flag(out: Collector, old: Side, new: Side, a: Param, b: Param, fact: str) -> None:
    """Non-contiguous or empty-tensor support on each product supported on both sides: a
    change the same on all of them is reported once, for every product. A limit stated before
    (`不支持空Tensor`) and not at all now, nor moved elsewhere, is lifted: no call fails for it."""
    products = _common_products(old.doc, new.doc)
    if products == [None]:  # no product list: the products the remarks name, if any
        named = sorted(_remark_products(old, a.name, fact) | _remark_products(new, b.name, fact))
        products = [*named] or [None]
    groups: dict[tuple, list[str | None]] = {}
    for product in products:
        was, now = _flag_on(old, a, fact, product), _flag_on(new, b, fact, product)
        if was == now or (now is None and was is not False):
            continue
        if now is None and _stated_limit(a, fact).found_in(haystack(new.doc, b.name)):
            continue  # moved, not lifted
        groups.setdefault((was, now), []).append(product)
    everywhere = len(groups) == 1 and len(next(iter(groups.values()))) == len(products)
    grown, shrunk = _GROWN_SHRUNK[fact]
    for (was, now), where in groups.items():
        scope = [] if everywhere else [p for p in where if p]
        if was is None:
            id, before = ChangeId.CONSTRAINT_DOCUMENTED, None
            after: Any = {"fact": fact, "value": now, "products": scope}
        else:
            id, before, after = (grown if now is not False else shrunk), _flag_json(was, scope), _flag_json(now, scope)
        out.add(id, old, new, param=b.name, before=before, after=after, old_line=a.line, new_line=b.line)


def _flag_json(supported: bool | None, products: list) -> dict[str, Any]:
    """`supported` null: no longer stated either way."""
    return {"supported": supported, "products": products}


def _stated_limit(param: Param, fact: str) -> Statement:
    stated = [c for c in param.constraints if c.kind == fact and c.supported is False]
    return constraint_statement(stated[-1]) if stated else Statement("", param.line)
