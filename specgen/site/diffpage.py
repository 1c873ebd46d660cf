"""`specgen diff --format html` and the review page of `specgen report --git`: the changes
of a range, breaking ones first, grouped by operator and function, old and new side by side."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from pathlib import PurePosixPath
from typing import Any

from specgen.diagnostics import Location
from specgen.review.diff import SEVERITY_ORDER, Change, summary
from specgen.site.render import render
from specgen.site.views import ChangeGroup, ChangeRow, DiffPage, Source

ACCEPTED = "accepted"


def diff_page(changes: Sequence[Change], title: str, url: str | None = None) -> DiffPage:
    """The changes grouped: by severity (breaking first), operator, function; accepted ones
    stay in their group, marked, and are counted apart."""
    ordered = sorted(changes, key=_order)
    groups = [
        ChangeGroup(severity, operator, function, tuple(_row(c, url) for c in members))
        for (_, severity, operator, function), members in groupby(ordered, key=_group_key)
    ]
    live = [c for c in changes if not c.accepted]
    counts = [
        (s, sum(c.severity == s for c in live))
        for s in sorted(SEVERITY_ORDER, key=SEVERITY_ORDER.__getitem__, reverse=True)
    ]
    counts.append((ACCEPTED, len(changes) - len(live)))
    return DiffPage(title, tuple(counts), tuple(groups))


def diff_html(changes: Sequence[Change], title: str) -> str:
    """The review page on its own (no catalogue to link back to)."""
    return render("diff.html.jinja", page=diff_page(changes, title), root=None)


def operator_of(change: Change) -> str:
    """The operator a change is about: its document's name (new side, else old)."""
    where = change.new or change.old
    return PurePosixPath(where.path).stem if where else ""


def _group_key(change: Change) -> tuple[int, str, str, str]:
    return (-SEVERITY_ORDER[change.severity], change.severity, operator_of(change), change.function or "")


def _order(change: Change) -> tuple:
    return (*_group_key(change), change.param or "", change.id.value)


def _row(change: Change, url: str | None) -> ChangeRow:
    return ChangeRow(
        id=change.id.value,
        severity=change.severity,
        summary=summary(change),
        before=side_text(change.before),
        after=side_text(change.after),
        old=_source(change.old, url),
        new=_source(change.new, url),
        accepted=change.accepted,
    )


def side_text(value: Any) -> str:
    """One side of a change as a reviewer reads it (the JSON shapes of `diff.Change`)."""
    if value is None:
        return ""
    if isinstance(value, dict):
        if {"code", "name", "condition"} <= value.keys():
            return f"{value['code']} {value['name']}\n{value['condition']}"
        return "\n".join(f"{key}: {side_text(v)}" for key, v in value.items() if v is not None)
    if isinstance(value, list | tuple):
        return ", ".join(side_text(v) for v in value)
    return str(value)


def _source(where: Location | None, url: str | None) -> Source | None:
    """A change's document line: through `url` (a template with {path} and {line}), else a
    link to the path as the diff names it (relative to where the diff ran)."""
    return Source.of(where.path, where.line, url, where.path) if where is not None else None
