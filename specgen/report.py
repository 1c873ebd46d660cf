"""Findings as text, Markdown, JSON or GitHub workflow annotations (diff and lint)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

COLOURS = {"breaking": "31", "error": "31", "non-breaking": "33", "warning": "33", "info": "2"}


@dataclass(frozen=True)
class Item:
    """One reported change or finding."""

    id: str
    severity: str
    message: str
    location: str | None  # "path:line"


def text(items: Sequence[Item], colour: bool) -> str:
    lines = []
    for item in items:
        tag = f"{item.severity}: {item.id}"
        if colour:
            tag = f"\033[{COLOURS.get(item.severity, '0')}m{tag}\033[0m"
        where = f"{item.location}: " if item.location else ""
        lines.append(f"{where}{tag}: {item.message}")
    return "\n".join(lines) + ("\n" if lines else "")


def markdown(items: Sequence[Item], title: str) -> str:
    if not items:
        return f"### {title}\n\nNo changes.\n"
    rows = [f"### {title}", "", "| severity | change | what | where |", "|---|---|---|---|"]
    for item in items:
        rows.append(f"| {item.severity} | `{item.id}` | {_cell(item.message)} | {_cell(item.location or '')} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|").replace("<", "&lt;")


def github(items: Sequence[Item]) -> str:
    """`::error file=...,line=...::message` lines a GitHub workflow turns into annotations."""
    level = {"breaking": "error", "error": "error", "non-breaking": "warning", "warning": "warning"}
    lines = []
    for item in items:
        props = ""
        if item.location and ":" in item.location:
            path, _, line = item.location.rpartition(":")
            props = f" file={_escape_property(path)},line={line}"
        message = _escape_data(f"{item.id}: {item.message}")
        lines.append(f"::{level.get(item.severity, 'notice')}{props}::{message}")
    return "\n".join(lines) + ("\n" if lines else "")


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
