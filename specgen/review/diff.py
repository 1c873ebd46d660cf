"""Semantic diff of two versions of operator documents, on their models.

Functions are matched by name wherever their documents live; parameters by name, then by
position and type (a rename); relations between parameters as edges of the function. Text is
compared after normalisation (width, spaces, trailing punctuation), so formatting, reordered
rows and a change of dialect produce no change. Each change has an id of `ChangeId`.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from specgen import vocab
from specgen.diagnostics import Catalogued, Location
from specgen.model import Check, Constraint, ErrorRule, Function, OperatorDoc, Param
from specgen.text import plain

BREAKING, NON_BREAKING, INFO = "breaking", "non-breaking", "info"
SEVERITY_ORDER = {INFO: 0, NON_BREAKING: 1, BREAKING: 2}


class ChangeId(Catalogued):
    """Every change id, its severity and what it means. A caller valid before that can fail
    after: breaking. The value is the id as printed and as files of accepted changes name it."""

    FUNCTION_ADDED = "function-added", NON_BREAKING, "a function is documented that was not"
    FUNCTION_REMOVED = "function-removed", BREAKING, "a documented function is gone"
    PARAM_ADDED = "param-added", BREAKING, "a parameter was added to the prototype"
    PARAM_REMOVED = "param-removed", BREAKING, "a parameter was removed from the prototype"
    PARAM_RENAMED = "param-renamed", NON_BREAKING, "same position and type, new name (C callers are unaffected)"
    PYTHON_KEYWORD_RENAMED = (
        "python-keyword-renamed",
        BREAKING,
        "a renamed parameter: Python callers passing it by keyword (the wrapper, aclnn_ops.validate) break",
    )
    PARAM_REORDERED = "param-reordered", BREAKING, "the parameters are in another order"
    PARAM_TYPE_CHANGED = "param-type-changed", BREAKING, "the C type of a parameter changed"
    PARAM_CONST_ADDED = "param-const-added", NON_BREAKING, "a pointer parameter became pointer-to-const"
    PARAM_CONST_REMOVED = "param-const-removed", BREAKING, "a pointer-to-const parameter lost its const"
    PARAM_QUALIFIER_CHANGED = (
        "param-qualifier-changed",
        INFO,
        "a top-level const on a by-value parameter changed (no effect on callers)",
    )
    PARAM_DIRECTION_CHANGED = "param-direction-changed", BREAKING, "input/output direction changed"
    PARAM_NOW_REQUIRED = "param-now-required", BREAKING, "an optional parameter became required"
    PARAM_NOW_OPTIONAL = "param-now-optional", NON_BREAKING, "a required parameter became optional"
    DTYPE_ADDED = "dtype-added", NON_BREAKING, "a dtype is supported (on every product, or on one)"
    DTYPE_REMOVED = "dtype-removed", BREAKING, "a dtype is no longer supported (on every product, or on one)"
    FORMAT_ADDED = "format-added", NON_BREAKING, "a data format is supported"
    FORMAT_REMOVED = "format-removed", BREAKING, "a data format is no longer supported"
    RANK_WIDENED = "rank-widened", NON_BREAKING, "more ranks are accepted"
    RANK_NARROWED = "rank-narrowed", BREAKING, "fewer ranks are accepted"
    SHAPE_RULE_RELAXED = "shape-rule-relaxed", NON_BREAKING, "same shape became broadcastable"
    SHAPE_RULE_TIGHTENED = "shape-rule-tightened", BREAKING, "broadcastable became same shape"
    SHAPE_RULE_ADDED = "shape-rule-added", BREAKING, "a shape relation between parameters was added"
    SHAPE_RULE_REMOVED = "shape-rule-removed", NON_BREAKING, "a shape relation between parameters was removed"
    SAME_DTYPE_RULE_ADDED = "same-dtype-rule-added", BREAKING, "parameters must now have the same dtype"
    SAME_DTYPE_RULE_REMOVED = "same-dtype-rule-removed", NON_BREAKING, "parameters no longer need the same dtype"
    CASTABLE_RULE_ADDED = (
        "castable-rule-added",
        BREAKING,
        "parameters' dtypes must now be castable or promotable together (数据类型推导规则, 可转换)",
    )
    CASTABLE_RULE_REMOVED = (
        "castable-rule-removed",
        NON_BREAKING,
        "parameters' dtypes no longer need to be castable or promotable together",
    )
    SAME_FORMAT_RULE_ADDED = "same-format-rule-added", BREAKING, "parameters must now have the same format"
    SAME_FORMAT_RULE_REMOVED = "same-format-rule-removed", NON_BREAKING, "parameters no longer need the same format"
    ENUM_VALUES_ADDED = "enum-values-added", NON_BREAKING, "a parameter accepts more values"
    ENUM_VALUES_REMOVED = "enum-values-removed", BREAKING, "a parameter accepts fewer values"
    VALUE_RANGE_WIDENED = "value-range-widened", NON_BREAKING, "a value range grew"
    VALUE_RANGE_NARROWED = "value-range-narrowed", BREAKING, "a value range shrank or moved"
    NON_CONTIGUOUS_REMOVED = (
        "non-contiguous-removed",
        BREAKING,
        "non-contiguous tensors are no longer supported (on every product, or on those given)",
    )
    NON_CONTIGUOUS_ADDED = (
        "non-contiguous-added",
        NON_BREAKING,
        "non-contiguous tensors are supported, or a stated 不支持 is gone (no call fails for it)",
    )
    EMPTY_TENSOR_REMOVED = (
        "empty-tensor-removed",
        BREAKING,
        "empty tensors are no longer supported (on every product, or on those given)",
    )
    EMPTY_TENSOR_ADDED = (
        "empty-tensor-added",
        NON_BREAKING,
        "empty tensors are supported, or a stated 不支持空Tensor is gone (no call fails for it)",
    )
    ERROR_RULE_ADDED = "error-rule-added", BREAKING, "a new documented error condition (a call may now be rejected)"
    ERROR_RULE_REMOVED = "error-rule-removed", NON_BREAKING, "a documented error condition is gone"
    ERROR_RULE_TIGHTENED = (
        "error-rule-tightened",
        BREAKING,
        "an error condition rejects more: a new alternative, a narrower set or range, same shape for "
        "broadcast, or made unconditional (a call valid before may now fail)",
    )
    ERROR_RULE_LOOSENED = (
        "error-rule-loosened",
        NON_BREAKING,
        "an error condition rejects less: an alternative dropped, a wider set or range, or made conditional",
    )
    ERROR_RULE_REWORDED = (
        "error-rule-reworded",
        INFO,
        "an error condition's text changed while its typed checks are the same (no call changes fate)",
    )
    PRODUCT_SUPPORT_ADDED = "product-support-added", NON_BREAKING, "a product is supported"
    PRODUCT_SUPPORT_REMOVED = "product-support-removed", BREAKING, "a product is no longer supported"
    PRODUCTS_DOCUMENTED = "products-documented", INFO, "product support is documented for the first time"
    CONSTRAINT_DOCUMENTED = "constraint-documented", INFO, "a fact absent before is now documented (format, rank, ...)"
    CONSTRAINT_TEXT_CHANGED = (
        "constraint-text-changed",
        INFO,
        "a statement the parser cannot type was edited (both texts given, to be read: it may tighten)",
    )
    CONSTRAINT_LIST_WIDENED = (
        "constraint-list-widened",
        NON_BREAKING,
        "a statement listing what is supported (支持shape为(n)、(1,n)) lists more alternatives and drops none",
    )
    CONSTRAINT_LIST_NARROWED = (
        "constraint-list-narrowed",
        BREAKING,
        "a statement listing what is supported lists fewer alternatives and adds none (a call valid before may fail)",
    )
    CONSTRAINT_TEXT_ADDED = (
        "constraint-text-added",
        INFO,
        "a statement the parser cannot type was added (to be read: it may restrict calls)",
    )
    CONSTRAINT_TEXT_REMOVED = (
        "constraint-text-removed",
        INFO,
        "a statement the parser cannot type is gone (to be read: it may loosen)",
    )
    DESCRIPTION_CHANGED = "description-changed", INFO, "a parameter's description changed"
    SUMMARY_CHANGED = "summary-changed", INFO, "the operator's summary changed"
    FORMULA_CHANGED = "formula-changed", INFO, "the formula changed"


# id -> (severity, what it means), in catalogue order: for SARIF and files of accepted changes.
CATALOGUE: dict[str, tuple[str, str]] = {id: (id.severity, id.meaning) for id in ChangeId}


@dataclass(frozen=True)
class Change:
    """One change. `before` and `after` are the fact on each side, of one JSON shape per id
    (`null` on the side that lacks it); `values` are the members added or removed when the
    fact is a set (dtypes, formats, enum values, products)."""

    id: ChangeId
    function: str | None
    param: str | None
    before: Any
    after: Any
    old: Location | None
    new: Location | None
    values: tuple | None = None
    accepted: bool = False  # listed in a file of accepted changes: shown, never fails

    @property
    def severity(self) -> str:
        return self.id.severity

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id.value,
            "severity": self.severity,
            "function": self.function,
            "param": self.param,
            "before": self.before,
            "after": self.after,
            "values": list(self.values) if self.values is not None else None,
            "accepted": self.accepted,
            "source": {"old": _printed(self.old), "new": _printed(self.new)},
        }


def _printed(where: Location | None) -> str | None:
    return str(where) if where is not None else None


@dataclass
class _Side:
    doc: OperatorDoc
    fn: Function
    single_phase: bool = False  # compared by its prototype only (its prose is not typed)

    def at(self, line: int | None) -> Location:
        return Location(self.doc.source, line if line is not None else self.fn.line)


@dataclass
class _Collector:
    changes: list[Change] = field(default_factory=list)

    def add(
        self,
        id: ChangeId,
        old: _Side | None,
        new: _Side | None,
        *,
        param: str | None = None,
        before: Any = None,
        after: Any = None,
        old_line: int | None = None,
        new_line: int | None = None,
        values: Sequence | None = None,
    ) -> None:
        function = side.fn.name if (side := new or old) else None
        where_old, where_new = old.at(old_line) if old else None, new.at(new_line) if new else None
        listed = tuple(values) if values is not None else None
        self.changes.append(Change(id, function, param, before, after, where_old, where_new, listed))


def diff(old_docs: Sequence[OperatorDoc], new_docs: Sequence[OperatorDoc]) -> list[Change]:
    """The changes from `old_docs` to `new_docs`, in a stable order."""
    out = _Collector()
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


def _functions(docs: Iterable[OperatorDoc]) -> dict[str, _Side]:
    found: dict[str, _Side] = {}
    for doc in sorted(docs, key=lambda d: d.source):
        for fn in doc.functions:
            found.setdefault(fn.name, _Side(doc, fn))
        for fn in doc.single_phase:  # a single-phase API is part of the contract too
            found.setdefault(fn.name, _Side(doc, fn, single_phase=True))
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


# ---------------------------------------------------------------- text


_STRAIGHT_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def normalise(text: str) -> str:
    """Text as compared: full-width folded, curly quotes straight (`“rint”` is `"rint"`), spaces
    and trailing punctuation dropped, lower case."""
    folded = unicodedata.normalize("NFKC", text).translate(_STRAIGHT_QUOTES)
    return re.sub(r"\s+", "", folded).strip("。.;；,，:：").lower()


# ---------------------------------------------------------------- documents


def _compare_document(out: _Collector, old: OperatorDoc, new: OperatorDoc) -> None:
    side_old = _Side(old, (*old.functions, *old.single_phase)[0])
    side_new = _Side(new, (*new.functions, *new.single_phase)[0])
    if not old.functions or not new.functions:  # a page of single-phase APIs: its prototypes only
        return
    for attr, change in (("summary", ChangeId.SUMMARY_CHANGED), ("formula", ChangeId.FORMULA_CHANGED)):
        a, b = getattr(old, attr), getattr(new, attr)
        if a and b and normalise(a.text) != normalise(b.text):
            out.add(change, side_old, side_new, before=a.text, after=b.text, old_line=a.line, new_line=b.line)
    _compare_products(out, side_old, side_new)
    _compare_statements(out, side_old, side_new, None, _note_statements(old), _note_statements(new))


def _compare_products(out: _Collector, old: _Side, new: _Side) -> None:
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


def _compare_function(out: _Collector, old: _Side, new: _Side) -> None:
    if old.single_phase or new.single_phase:  # its parameters and their C types only
        _compare_types(out, old, new)
        return
    pairs, renames = _match_params(out, old, new)
    for a, b in pairs:
        _compare_param(out, old, new, a, b)
    _compare_execute(out, old, new)
    _compare_relations(out, old, new, renames)
    _compare_errors(out, old, new, renames)
    _compare_remarks(out, old, new, renames)


def _compare_execute(out: _Collector, old: _Side, new: _Side) -> None:
    """The second phase's parameters (`aclnnXxx(workspace, workspaceSize, executor, stream)`),
    compared as the first phase's are: C callers pass them too."""
    if old.fn.execute_params and new.fn.execute_params:
        _compare_types(out, old, new, execute=True)


def _compare_types(out: _Collector, old: _Side, new: _Side, *, execute: bool = False) -> None:
    """Parameters added, removed, renamed, reordered, and their C types (what a C caller writes)."""
    for a, b in _match_params(out, old, new, execute=execute)[0]:
        if change := _type_change(a.c_type, b.c_type):
            out.add(change, old, new, param=b.name, before=a.c_type, after=b.c_type, old_line=a.line, new_line=b.line)


def _match_params(
    out: _Collector, old: _Side, new: _Side, *, execute: bool = False
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


_TYPED_DTYPES = ("tensor", "tensor_list", "scalar", "scalar_list")


def _compare_param(out: _Collector, old: _Side, new: _Side, a: Param, b: Param) -> None:
    def add(id: ChangeId, before: Any, after: Any, values: Sequence | None = None) -> None:
        out.add(id, old, new, param=b.name, before=before, after=after, values=values, old_line=a.line, new_line=b.line)

    if change := _type_change(a.c_type, b.c_type):
        add(change, a.c_type, b.c_type)
    if a.direction != b.direction:
        add(ChangeId.PARAM_DIRECTION_CHANGED, a.direction, b.direction)
    if a.optional != b.optional:
        add(ChangeId.PARAM_NOW_OPTIONAL if b.optional else ChangeId.PARAM_NOW_REQUIRED, a.optional, b.optional)
    if a.kind in _TYPED_DTYPES or b.kind in _TYPED_DTYPES:
        _compare_dtypes(out, old, new, a, b)
    if a.kind in ("tensor", "tensor_list") and b.kind in ("tensor", "tensor_list"):
        _compare_sets(add, a.formats, b.formats, "formats")
        _compare_rank(add, a, b)
    _compare_values(add, a, b)
    for fact in _FLAG_WORDS:
        _compare_flag(out, old, new, a, b, fact)
    if a.description and b.description and normalise(a.description) != normalise(b.description):
        add(ChangeId.DESCRIPTION_CHANGED, a.description, b.description)
    # a parameter's cell sentences and the remarks naming it are compared together (a cell's
    # statement moved under a product heading and reworded is one edit)
    before = _untyped(a, old.fn) + _remarks(old.fn).get(a.name, [])
    after = _untyped(b, new.fn) + _remarks(new.fn).get(b.name, [])
    _compare_statements(out, old, new, b.name, before, after, (_typed(a), _typed(b)))


def _dtype_source(param: Param, fn: Function) -> Param:
    """The parameter whose dtype list applies: a dtype cell may say `与self一致` instead."""
    if param.dtypes:
        return param
    for peer in (n for c in param.of_kind("same_dtype") for n in c.params):
        source = fn.param(peer)
        if source is not None and source.dtypes:
            return source
    return param


def _compare_dtypes(out: _Collector, old: _Side, new: _Side, a: Param, b: Param) -> None:
    """The dtypes of each product supported on both sides (a product on one side only is a
    product-support change, not a change of its every dtype): a change the same on all of them
    is reported once, for every product; otherwise for the products it holds on."""
    name, line_a, line_b = b.name, a.line, b.line
    a, b = _dtype_source(a, old.fn), _dtype_source(b, new.fn)
    if a.kind not in _TYPED_DTYPES or b.kind not in _TYPED_DTYPES:  # a C value type has no dtype list
        a, b = (a if a.kind in _TYPED_DTYPES else _no_dtypes(a)), (b if b.kind in _TYPED_DTYPES else _no_dtypes(b))
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
        inside = _within(range_a, range_b)
        add(
            ChangeId.VALUE_RANGE_WIDENED if inside else ChangeId.VALUE_RANGE_NARROWED,
            dict(zip(("min", "max"), range_a, strict=True)),
            dict(zip(("min", "max"), range_b, strict=True)),
        )


def _range(p: Param) -> tuple | None:
    ranges = p.of_kind("range")
    return (ranges[0].min, ranges[0].max) if ranges else None


def _within(inner: tuple, outer: tuple) -> bool:
    low_ok = outer[0] is None or (inner[0] is not None and inner[0] >= outer[0])
    high_ok = outer[1] is None or (inner[1] is not None and inner[1] <= outer[1])
    return low_ok and high_ok


# A flag of a parameter -> how a per-product remark names it (`入参`x`，不支持空tensor。`).
_FLAG_WORDS = {"non_contiguous": "非连续tensor", "empty_tensor": "空tensor"}


def _flag_remark(text: str, param: str, fact: str) -> tuple[list[str], bool] | None:
    """(products, supported) of a remark that only says `param` (不)支持 the flag, or None."""
    products, body = _scoped(text)
    name = re.escape(normalise(param))
    m = re.fullmatch(rf"(?:入参|参数)?{name}(?:参数)?,?(不)?支持{_FLAG_WORDS[fact]}", body)
    return (products, m.group(1) is None) if m and products else None


def _flag_on(side: _Side, param: Param, fact: str, product: str | None) -> bool | None:
    """The flag on `product`: a per-product remark's, else the parameter's own."""
    for r in side.fn.remarks:
        if (said := _flag_remark(r.text, param.name, fact)) and product in said[0]:
            return said[1]
    return getattr(param, fact)


def _remark_products(side: _Side, param: str, fact: str) -> set[str]:
    return {p for r in side.fn.remarks if (said := _flag_remark(r.text, param, fact)) for p in said[0]}


def _compare_flag(out: _Collector, old: _Side, new: _Side, a: Param, b: Param, fact: str) -> None:
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
        if now is None and _stated_limit(a, fact).found_in(_haystack(new.doc, b.name)):
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


def _stated_limit(param: Param, fact: str) -> _Statement:
    stated = [c for c in param.constraints if c.kind == fact and c.supported is False]
    return _stated(stated[-1]) if stated else _Statement("", param.line)


# ---------------------------------------------------------------- statements the parser cannot type

_TERM = re.compile(r"<term>(.*?)</term>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.、)]|[（(]\d+[)）])\s+")


@dataclass(frozen=True)
class _Statement:
    text: str  # as written, for the reader
    line: int
    products: tuple[str, ...] = ()  # the products it holds on; () for every one
    cell: bool = False  # a sentence of the parameter's table cells

    @property
    def key(self) -> str:
        products, body = _scoped(self.text)
        products = products or list(self.products)
        return ",".join(products) + "|" + body if products else body

    @property
    def body(self) -> str:
        """The statement without the products it is for: found in the other version's text
        under a product heading, or in another column, it moved."""
        return _scoped(self.text)[1]

    def found_in(self, keys: set[str]) -> bool:
        """Every sentence of it is a sentence of the other version (`keys`): moved, not
        changed, be it under a product heading or with a lead naming the parameter."""
        sentences = _sentences(self.body)
        return bool(sentences) and all(_variants(k) & keys for k in sentences)


def _sentences(body: str) -> list[str]:
    return [k for k in re.split(r"[。;]", body) if k]


def _variants(key: str) -> set[str]:
    """A sentence, and the same without a lead naming the parameter (`x参数中，…`, `入参x，…`)."""
    head, comma, rest = key.partition(",")
    return {key, rest} if comma and rest and len(head) <= 40 and "参" in head else {key}


def _statement_key(text: str) -> str:
    """A statement as compared: tags, comments, bullets and emphasis dropped, `normalise`d."""
    return normalise(_BULLET.sub("", plain(_COMMENT.sub("", text))))


def _scoped(text: str) -> tuple[list[str], str]:
    """(product ids, the rest) of `<term>A2</term>、<term>A3</term>：…` or `A2/A3平台：…`."""
    written = _BULLET.sub("", plain(_COMMENT.sub("", text)))
    head, colon, rest = re.sub(r"[:：]", "：", written).partition("：")
    if not colon or len(head) > 120:
        return [], normalise(written)
    ids = [_product_ids(part) for part in re.split(r"[、，,和]", head) if part.strip()]
    if not ids or None in ids:
        return [], normalise(written)
    return sorted({i for group in ids for i in group or ()}), normalise(rest)


def _product_ids(name: str) -> list[str] | None:
    """`Atlas 200I/500 A2 推理产品` is one product, `A2/A3平台` two (each part a product of its
    own, though the whole reads as A3 alone); None if not products."""
    parts = [vocab.product_id(part) for part in name.split("/")]
    if None not in parts and len(set(parts)) > 1:
        return sorted({p for p in parts if p})
    pid = vocab.product_id(name)
    return [pid] if pid else None


_SENTENCE_END = re.compile(r"[。；;\n]")


def _untyped(param: Param, fn: Function) -> list[_Statement]:
    """The sentences of a parameter's cells that hold a clause the parser could not type, or
    a relation to a parameter that lacks what it relates (compared as edges nowhere), whole
    (the parser splits `（n），（1，n）` into clauses: a sentence is what was edited)."""
    fragments = [c for c in param.constraints if c.kind == "text" or _unrelated(c, param, fn)]
    found = []
    for sentence in _SENTENCE_END.split(param.text):
        inside = [c for c in fragments if c.text and c.text in sentence]
        if inside:
            products = {c.product for c in inside}
            only = products.pop() if len(products) == 1 else None
            found.append(_Statement(sentence.strip(), inside[0].line, (only,) if only else (), cell=True))
    return found


def _unrelated(c: Constraint, param: Param, fn: Function) -> bool:
    """A relation whose subject or a peer lacks what it relates (`形状与shape一致`, `shape`
    an aclIntArray): the parser took a word for a name."""
    if c.kind not in _BEARERS:
        return False
    kinds = [param.kind] + [peer.kind for n in c.params if (peer := fn.param(n)) is not None]
    return any(k not in _BEARERS[c.kind] for k in kinds)


def _typed(param: Param) -> list[_Statement]:
    kinds = ("text", "dtypes", "formats", "rank")  # those of their own column are compared as sets
    return [_stated(c) for c in param.constraints if c.kind not in kinds]


def _stated(c: Constraint) -> _Statement:
    return _Statement(c.text, c.line, (c.product,) if c.product else ())


def _note_statements(doc: OperatorDoc) -> list[_Statement]:
    """The lines of 约束说明 that no typed constraint was drawn from, one statement each."""
    if doc.notes is None:
        return []
    typed = {c.line for fn in doc.functions for p in fn.params for c in p.constraints if c.kind != "text"}
    found = []
    scope: tuple[int, tuple[str, ...]] | None = None  # (indent, products) of a product heading
    for offset, raw in enumerate(doc.notes.text.split("\n")):
        line, indent = doc.notes.line + offset, len(raw) - len(raw.lstrip())
        if raw.strip() and scope is not None and indent <= scope[0]:
            scope = None
        if raw.rstrip().endswith(("：", ":")):  # `- 确定性计算：` or `- <term>A2</term>：` heads the lines below
            products = tuple(_scoped(raw)[0])
            scope = (indent, products) if products else scope
        elif line not in typed and _statement_key(raw):
            products = scope[1] if scope is not None else ()
            found.append(_Statement(raw.strip(), line, products))
    return found


def _remarks(fn: Function) -> dict[str | None, list[_Statement]]:
    """The per-product remarks of the parameter section that no typed constraint came from, by
    the parameter they name (None: none, or several)."""
    typed = {c.line for p in fn.params for c in p.constraints if c.kind != "text"}
    out: dict[str | None, list[_Statement]] = {}
    for r in fn.remarks:
        if r.line in typed or any(_flag_remark(r.text, p.name, f) for p in fn.params for f in _FLAG_WORDS):
            continue  # typed by the parser, or a flag read per product (`_flag_on`)
        st = _Statement(r.text, r.line, tuple(_scoped(r.text)[0]))
        named = [p.name for p in fn.params if re.search(rf"(?<![\w]){re.escape(p.name)}(?![\w])", r.text, re.A)]
        out.setdefault(named[0] if len(named) == 1 else None, []).append(st)
    return out


def _compare_remarks(out: _Collector, old: _Side, new: _Side, renames: dict[str, str]) -> None:
    """Remarks naming no parameter matched on both sides (those are compared with its cells)."""
    before, after = _remarks(old.fn), _remarks(new.fn)
    before = {renames.get(k, k) if k else k: v for k, v in before.items()}
    matched = {renames.get(p.name, p.name) for p in old.fn.params} & {p.name for p in new.fn.params}
    for param in sorted((before.keys() | after.keys()) - matched, key=lambda k: k or ""):
        _compare_statements(out, old, new, param, before.get(param, []), after.get(param, []))


def _haystack(doc: OperatorDoc, param: str | None = None) -> set[str]:
    """The sentences of a document where one of `param`'s (or of the notes, when None) may
    have moved: the notes, the error table, the remarks, and the parameter's own cells (every
    parameter's for a note)."""
    parts = [doc.notes.text if doc.notes else ""]
    for fn in doc.functions:
        parts += [e.condition for e in fn.errors] + [r.text for r in fn.remarks]
        parts += [t for p in fn.params if param in (None, p.name) for t in (p.description, p.text)]
    lines = (line for part in parts for line in part.split("\n"))
    return {v for line in lines for k in _sentences(_scoped(line)[1]) for v in _variants(k)}


def _compare_statements(
    out: _Collector,
    old: _Side,
    new: _Side,
    param: str | None,
    before: list[_Statement],
    after: list[_Statement],
    typed: tuple[list[_Statement], list[_Statement]] = ([], []),
) -> None:
    """Untyped statements compared as normalised text: a statement whose text is still
    anywhere in the other version moved (no change); an edited one pairs with its nearest new
    text, typed or not (a parameter's statement with any of the same cell's); the rest were
    added or removed. Information, for a reviewer to read."""
    if not before and not after:
        return
    old_text, new_text = _haystack(old.doc, param), _haystack(new.doc, param)
    gained, dropped = _values_changed(old.doc, new.doc, param), _values_changed(new.doc, old.doc, param)
    removed = [st for st in before if st.body and not st.found_in(new_text) and not st.body.startswith(dropped)]
    added = [st for st in after if st.body and not st.found_in(old_text) and not st.body.startswith(gained)]
    typed_gone = [st for st in typed[0] if st.body and not st.found_in(new_text)]
    typed_new = [st for st in typed[1] if st.body and not st.found_in(old_text)]
    gone, came = (
        [(st, False) for st in removed] + [(st, True) for st in typed_gone],
        [(st, False) for st in added] + [(st, True) for st in typed_new],
    )
    for (x, _), (y, _) in _pairs(gone, came, loose=param is not None):
        if x in removed or y in added:
            _changed(out, old, new, param, x, y)
        removed, added = [st for st in removed if st is not x], [st for st in added if st is not y]
    for st in removed:
        out.add(ChangeId.CONSTRAINT_TEXT_REMOVED, old, new, param=param, before=_statement_json(st), old_line=st.line)
    for st in added:
        out.add(ChangeId.CONSTRAINT_TEXT_ADDED, old, new, param=param, after=_statement_json(st), new_line=st.line)
    for x, y in _moved_between_products(before, after):
        _changed(out, old, new, param, x, y)


def _values_changed(was: OperatorDoc, now: OperatorDoc, param: str | None) -> tuple[str, ...]:
    """How a statement about an enum value `was` lacks begins (`cubemathtype=4`, and `4:` in
    that parameter's own cells): it explains that value, part of its enum-values change."""
    heads: list[str] = []
    for fn in now.functions:
        before = next((f for f in was.functions if f.name == fn.name), None)
        for p in fn.params if before is not None else ():
            peer = before.param(p.name) if before is not None else None
            known = {str(v) for c in peer.of_kind("enum") for v in c.values} if peer is not None else set()
            if not known:
                continue
            for v in {str(v) for c in p.of_kind("enum") for v in c.values} - known:
                heads += [normalise(f"{p.name}={v}"), *([f"{normalise(v)}:"] if p.name == param else [])]
    return tuple(heads)


def _scope(st: _Statement) -> tuple[str, ...]:
    return tuple(sorted(st.products or _scoped(st.text)[0]))


def _moved_between_products(before: list[_Statement], after: list[_Statement]) -> list[tuple]:
    """The same words now said for other products (`<term>A2</term>：…` became `<term>950</term>：…`):
    the statement holds where it did not, and no longer where it did."""
    scopes_a, scopes_b = ({(st.body, _scope(st)) for st in sts} for sts in (before, after))
    pairs, used = [], set()
    for x in before:
        if not x.body or (x.body, _scope(x)) in scopes_b:
            continue
        y = next(
            (y for y in after if y.body == x.body and id(y) not in used and (y.body, _scope(y)) not in scopes_a), None
        )
        if y is not None:
            used.add(id(y))
            pairs.append((x, y))
    return pairs


def _pairs(gone: list, came: list, *, loose: bool) -> list[tuple]:
    """Edited statements: the closest (old, new) pairs first, each statement in one pair, at
    least one of them untyped. Two untyped sentences of one parameter's cells pair however far
    apart (its cell was edited); otherwise they must be alike."""
    scored = sorted(
        ((_alike(x, y), i, j) for i, (x, tx) in enumerate(gone) for j, (y, ty) in enumerate(came) if not (tx and ty)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    used_a, used_b, out = set(), set(), []
    for ratio, i, j in scored:
        one_cell = gone[i][0].cell and came[j][0].cell and not gone[i][1] and not came[j][1]
        if i in used_a or j in used_b or ratio < (0.0 if loose and one_cell else 0.6):
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((gone[i], came[j]))
    return out


def _changed(out: _Collector, old: _Side, new: _Side, param: str | None, a: _Statement, b: _Statement) -> None:
    out.add(
        _list_direction(a, b),
        old,
        new,
        param=param,
        before=_statement_json(a),
        after=_statement_json(b),
        old_line=a.line,
        new_line=b.line,
    )


_ALTERNATIVE = re.compile(r"或者|[、,或]")
# A statement's tokens: a separator of alternatives (`|` once normalised), a bracketed group
# (`(1,n)`), a run of Latin letters and digits (`int16`), or a run of anything else.
_TOKEN = re.compile(r"\||\([^()]*\)|\[[^\[\]]*\]|[a-z0-9_.\-]+|[^|(\[a-z0-9_.\-]+")
# Words that make a list conjunctive, reverse it or bound it (`self、mat1和mat2的数据类型必须一致`,
# `不支持A、B`, `当x为A、B时，仅支持C`: one more member rejects more): such lists are read by hand.
_NOT_A_PERMISSION = re.compile(r"不|无法|禁止|必须|需要|需|要求|一致|相同|相等|和|与|且|仅|只")


def _list_tokens(body: str) -> list[str] | None:
    """The tokens of a statement of what is supported (`self支持shape为(n)、(1,n)或(m,n)`,
    `当x1的数据类型为int32时,数据类型支持int32、int64`), its separators made one, or None."""
    if "支持" not in body or _NOT_A_PERMISSION.search(body):
        return None
    tokens = [_ALTERNATIVE.sub("|", t) if not t.startswith(("(", "[")) else t for t in _TOKEN.findall(body)]
    return [t for part in tokens for t in re.split(r"(\|)", part) if t]


def _list_direction(a: _Statement, b: _Statement) -> ChangeId:
    """A list of what is supported that gained whole members (and lost none) accepts more
    calls; one that lost whole members (and gained none) accepts fewer; any other edit is
    text to read."""
    was, now = _list_tokens(a.body), _list_tokens(b.body)
    if was is None or now is None or was == now:
        return ChangeId.CONSTRAINT_TEXT_CHANGED
    ops = [op for op in difflib.SequenceMatcher(None, was, now, autojunk=False).get_opcodes() if op[0] != "equal"]
    runs = [(tag, was[i1:i2] or now[j1:j2]) for tag, i1, i2, j1, j2 in ops]
    whole = all("|" in (run[0], run[-1]) and len(run) > 1 for _, run in runs)
    if whole and {tag for tag, _ in runs} == {"insert"}:
        return ChangeId.CONSTRAINT_LIST_WIDENED
    if whole and {tag for tag, _ in runs} == {"delete"}:
        return ChangeId.CONSTRAINT_LIST_NARROWED
    return ChangeId.CONSTRAINT_TEXT_CHANGED


def _alike(a: _Statement, b: _Statement) -> float:
    """How alike two statements read, a lead naming the parameter (`x参数中，`) set aside."""
    return max(_ratio(x, y) for x in _variants(a.body) for y in _variants(b.body))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _statement_json(st: _Statement) -> dict[str, Any]:
    return {"text": st.text, "products": list(st.products or _scoped(st.text)[0])}


# ---------------------------------------------------------------- relations between parameters

_SHAPE_KINDS = {"same_shape": "same", "broadcast": "broadcast", "broadcast_result": "broadcast"}
# A "same as" constraint kind -> the ids of a rule (added, removed).
_SAME_KINDS = {
    "same_dtype": (ChangeId.SAME_DTYPE_RULE_ADDED, ChangeId.SAME_DTYPE_RULE_REMOVED),
    "same_format": (ChangeId.SAME_FORMAT_RULE_ADDED, ChangeId.SAME_FORMAT_RULE_REMOVED),
}


# A relation kind -> the parameter kinds that have what it relates: a shape or a format is a
# tensor's (an aclIntArray named `shape` holds dimensions, it has no shape to be the same as).
_TENSORS = ("tensor", "tensor_list")
_BEARERS = {
    "same_shape": _TENSORS,
    "broadcast": _TENSORS,
    "broadcast_result": _TENSORS,
    "same_format": _TENSORS,
    "same_dtype": _TYPED_DTYPES,
    "castable": _TYPED_DTYPES,
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
            if peer != name and kind_of.get(name) in _BEARERS[kind] and kind_of.get(peer) in _BEARERS[kind]:
                edge = frozenset((rename.get(name, name), rename.get(peer, peer)))
                edges.setdefault(edge, kinds[kind])
    return edges


def _compare_relations(out: _Collector, old: _Side, new: _Side, renames: dict[str, str]) -> None:
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


def _compare_castable(out: _Collector, old: _Side, new: _Side, renames: dict[str, str]) -> None:
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


def _compare_errors(out: _Collector, old: _Side, new: _Side, renames: dict[str, str]) -> None:
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
        return 1 if not _within((min_a, max_a), (min_b, max_b)) else -1
    return 0


def _error_direction(old_side: _Side, new_side: _Side, a: ErrorRule, b: ErrorRule, renames: dict[str, str]) -> ChangeId:
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


def summary(change: Change) -> str:
    """One plain-English line a reviewer reads: on what, what changed, from what to what."""
    sentence = _SENTENCES[change.id](change)
    return f"{change.function}: {sentence}" if change.function else sentence


def _words(values: Any) -> str:
    items = [str(v) for v in (values or ())]
    if len(items) <= 2:
        return " and ".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


def _clip(text: str, limit: int = 100) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _on(change: Change) -> str:
    fact = change.after or change.before or {}
    products = fact.get("products") or ([fact["product"]] if fact.get("product") else [])
    return f" on {_words(products)}" if products else ""


def _rank(rank: dict) -> str:
    low, high = rank["min"], rank["max"]
    if high is None:
        return f"{low} or more"
    return str(low) if low == high else f"{low} to {high}"


def _range_text(bounds: dict) -> str:
    low = "-inf" if bounds["min"] is None else bounds["min"]
    high = "inf" if bounds["max"] is None else bounds["max"]
    return f"[{low}, {high}]"


def _error(rule: dict) -> str:
    return f"{rule['code']} ({rule['name']}) when {_clip(rule['condition'])}" if rule["name"] else str(rule["code"])


_DIRECTIONS = {"in": "an input", "out": "an output", "inout": "read and written"}
_SHAPE_RULES = {"same": "have the same shape", "broadcast": "broadcast together"}
_FACTS = {
    "formats": "data formats",
    "rank": "rank",
    "non_contiguous": "non-contiguous support",
    "empty_tensor": "empty-tensor support",
}


def _quoted(text: str, limit: int) -> str:
    return f"\u201c{_clip(text, limit)}\u201d"


def _statement_of(change: Change) -> str:
    """Whose statement: a parameter's (a table cell) or the notes' (约束说明)."""
    where = f"a statement of parameter {change.param}" if change.param else "a note"
    return f"{where} the parser cannot check"


def _list_sentence(change: Change, how: str) -> str:
    was, now = _quoted(change.before["text"], 60), _quoted(change.after["text"], 80)
    return f"{_statement_of(change)} lists {how} alternatives: {was} became {now}"


def _flag_grown(change: Change, what: str) -> str:
    if change.after["supported"] is None:
        return f"parameter {change.param} no longer says it rejects {what}{_on(change)} (the limit is gone)"
    return f"parameter {change.param} now accepts {what}{_on(change)}"


def _rescoped(change: Change) -> str:
    was, now = change.before["products"], change.after["products"]
    if was == now:
        return ""
    return f" (it was said for {_products_words(was)}, now for {_products_words(now)})"


def _products_words(products: list[str]) -> str:
    return _words(products) if products else "every product"


def _fact(change: Change) -> str:
    fact, v = change.after["fact"], change.after["value"]
    shown = _words(v) if isinstance(v, list) else _rank(v) if isinstance(v, dict) else ("yes" if v else "no")
    return f"{_FACTS.get(fact, fact)} of parameter {change.param} documented for the first time: {shown}{_on(change)}"


_SENTENCES: dict[ChangeId, Callable[[Change], str]] = {
    ChangeId.FUNCTION_ADDED: lambda c: "newly documented",
    ChangeId.FUNCTION_REMOVED: lambda c: "no longer documented",
    ChangeId.PARAM_ADDED: lambda c: f"parameter {c.after['name']} ({c.after['type']}) was added",
    ChangeId.PARAM_REMOVED: lambda c: f"parameter {c.before['name']} ({c.before['type']}) was removed",
    ChangeId.PARAM_RENAMED: lambda c: f"parameter {c.before} was renamed to {c.after}; C callers are unaffected",
    ChangeId.PYTHON_KEYWORD_RENAMED: lambda c: (
        f"Python callers passing {c.before} by keyword break: it is now {c.after}"
    ),
    ChangeId.PARAM_REORDERED: lambda c: f"parameters reordered from ({', '.join(c.before)}) to ({', '.join(c.after)})",
    ChangeId.PARAM_TYPE_CHANGED: lambda c: f"parameter {c.param} changed type from {c.before} to {c.after}",
    ChangeId.PARAM_CONST_ADDED: lambda c: f"parameter {c.param} became pointer-to-const ({c.before} to {c.after})",
    ChangeId.PARAM_CONST_REMOVED: lambda c: f"parameter {c.param} lost its const ({c.before} to {c.after})",
    ChangeId.PARAM_QUALIFIER_CHANGED: lambda c: (
        f"parameter {c.param} changed from {c.before} to {c.after}; a top-level const does not affect callers"
    ),
    ChangeId.PARAM_DIRECTION_CHANGED: lambda c: (
        f"parameter {c.param} changed from {_DIRECTIONS.get(c.before, c.before)} to {_DIRECTIONS.get(c.after, c.after)}"
    ),
    ChangeId.PARAM_NOW_REQUIRED: lambda c: f"parameter {c.param} is now required (it was optional)",
    ChangeId.PARAM_NOW_OPTIONAL: lambda c: f"parameter {c.param} is now optional (it was required)",
    ChangeId.DTYPE_ADDED: lambda c: f"parameter {c.param} now accepts {_words(c.values)}{_on(c)}",
    ChangeId.DTYPE_REMOVED: lambda c: f"parameter {c.param} no longer accepts {_words(c.values)}{_on(c)}",
    ChangeId.FORMAT_ADDED: lambda c: f"parameter {c.param} now accepts the format {_words(c.values)}",
    ChangeId.FORMAT_REMOVED: lambda c: f"parameter {c.param} no longer accepts the format {_words(c.values)}",
    ChangeId.RANK_WIDENED: lambda c: (
        f"parameter {c.param} accepts more ranks: {_rank(c.before)} became {_rank(c.after)}"
    ),
    ChangeId.RANK_NARROWED: lambda c: (
        f"parameter {c.param} accepts fewer ranks: {_rank(c.before)} became {_rank(c.after)}"
    ),
    ChangeId.SHAPE_RULE_RELAXED: lambda c: (
        f"{_words(c.after['params'])} may now broadcast together (they had to have the same shape)"
    ),
    ChangeId.SHAPE_RULE_TIGHTENED: lambda c: (
        f"{_words(c.after['params'])} must now have the same shape (they could broadcast)"
    ),
    ChangeId.SHAPE_RULE_ADDED: lambda c: f"{_words(c.after['params'])} must now {_SHAPE_RULES[c.after['rule']]}",
    ChangeId.SHAPE_RULE_REMOVED: lambda c: (
        f"{_words(c.before['params'])} no longer need to {_SHAPE_RULES[c.before['rule']]}"
    ),
    ChangeId.SAME_DTYPE_RULE_ADDED: lambda c: f"{_words(c.after)} must now have the same dtype",
    ChangeId.SAME_DTYPE_RULE_REMOVED: lambda c: f"{_words(c.before)} no longer need the same dtype",
    ChangeId.CASTABLE_RULE_ADDED: lambda c: f"{_words(c.after)} must now have castable or promotable dtypes",
    ChangeId.CASTABLE_RULE_REMOVED: lambda c: f"{_words(c.before)} no longer need castable or promotable dtypes",
    ChangeId.SAME_FORMAT_RULE_ADDED: lambda c: f"{_words(c.after)} must now have the same format",
    ChangeId.SAME_FORMAT_RULE_REMOVED: lambda c: f"{_words(c.before)} no longer need the same format",
    ChangeId.ENUM_VALUES_ADDED: lambda c: f"parameter {c.param} now accepts the values {_words(c.values)}",
    ChangeId.ENUM_VALUES_REMOVED: lambda c: f"parameter {c.param} no longer accepts the values {_words(c.values)}",
    ChangeId.VALUE_RANGE_WIDENED: lambda c: (
        f"the range of parameter {c.param} grew from {_range_text(c.before)} to {_range_text(c.after)}"
    ),
    ChangeId.VALUE_RANGE_NARROWED: lambda c: (
        f"the range of parameter {c.param} changed from {_range_text(c.before)} "
        f"to {_range_text(c.after)}, which excludes values accepted before"
    ),
    ChangeId.NON_CONTIGUOUS_REMOVED: lambda c: f"parameter {c.param} no longer accepts non-contiguous tensors{_on(c)}",
    ChangeId.NON_CONTIGUOUS_ADDED: lambda c: _flag_grown(c, "non-contiguous tensors"),
    ChangeId.EMPTY_TENSOR_REMOVED: lambda c: f"parameter {c.param} no longer accepts empty tensors{_on(c)}",
    ChangeId.EMPTY_TENSOR_ADDED: lambda c: _flag_grown(c, "empty tensors"),
    ChangeId.ERROR_RULE_ADDED: lambda c: f"new documented error: {_error(c.after)}",
    ChangeId.ERROR_RULE_REMOVED: lambda c: f"error no longer documented: {_error(c.before)}",
    ChangeId.ERROR_RULE_TIGHTENED: lambda c: (
        f"error {c.after['code']} now rejects more: {_clip(c.before['condition'], 60)} became "
        f"{_clip(c.after['condition'])}"
    ),
    ChangeId.ERROR_RULE_LOOSENED: lambda c: (
        f"error {c.after['code']} now rejects less: {_clip(c.before['condition'], 60)} became "
        f"{_clip(c.after['condition'])}"
    ),
    ChangeId.ERROR_RULE_REWORDED: lambda c: f"error {c.after['code']} reworded: now {_clip(c.after['condition'])}",
    ChangeId.PRODUCT_SUPPORT_ADDED: lambda c: f"now supported on {_words(c.values)}",
    ChangeId.PRODUCT_SUPPORT_REMOVED: lambda c: f"no longer supported on {_words(c.values)}",
    ChangeId.PRODUCTS_DOCUMENTED: lambda c: f"product support documented for the first time: {_words(c.values)}",
    ChangeId.CONSTRAINT_DOCUMENTED: _fact,
    ChangeId.CONSTRAINT_TEXT_CHANGED: lambda c: (
        f"{_statement_of(c)} changed from {_quoted(c.before['text'], 60)} to {_quoted(c.after['text'], 80)}"
        f"{_rescoped(c)}"
    ),
    ChangeId.CONSTRAINT_LIST_WIDENED: lambda c: _list_sentence(c, "more"),
    ChangeId.CONSTRAINT_LIST_NARROWED: lambda c: _list_sentence(c, "fewer"),
    ChangeId.CONSTRAINT_TEXT_ADDED: lambda c: f"{_statement_of(c)} added: {_quoted(c.after['text'], 90)}",
    ChangeId.CONSTRAINT_TEXT_REMOVED: lambda c: f"{_statement_of(c)} removed: {_quoted(c.before['text'], 90)}",
    ChangeId.DESCRIPTION_CHANGED: lambda c: (
        f"the description of parameter {c.param} changed: now \u201c{_clip(c.after, 80)}\u201d"
    ),
    ChangeId.SUMMARY_CHANGED: lambda c: f"the operator's summary changed: now \u201c{_clip(c.after, 80)}\u201d",
    ChangeId.FORMULA_CHANGED: lambda c: "the formula changed",
}
