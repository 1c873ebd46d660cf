"""The one plain-English line a reviewer reads for each change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from specgen.review.changes import Change, ChangeId


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
