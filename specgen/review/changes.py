"""The changes a semantic diff reports (`ChangeId`, `Change`), the two sides it compares and
the text normalisation every comparison uses."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from specgen.diagnostics import Catalogued, Location
from specgen.model import Function, OperatorDoc

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
class Side:
    doc: OperatorDoc
    fn: Function
    single_phase: bool = False  # compared by its prototype only (its prose is not typed)

    def at(self, line: int | None) -> Location:
        return Location(self.doc.source, line if line is not None else self.fn.line)


@dataclass
class Collector:
    changes: list[Change] = field(default_factory=list)

    def add(
        self,
        id: ChangeId,
        old: Side | None,
        new: Side | None,
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


_STRAIGHT_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def normalise(text: str) -> str:
    """Text as compared: full-width folded, curly quotes straight (`“rint”` is `"rint"`), spaces
    and trailing punctuation dropped, lower case."""
    folded = unicodedata.normalize("NFKC", text).translate(_STRAIGHT_QUOTES)
    return re.sub(r"\s+", "", folded).strip("。.;；,，:：").lower()
