"""Accepted diff changes: a TOML file of `[[accept]]` entries a team reviewed and agreed to.

An entry names a change by `id` and `function` (required), and may narrow it by `param`,
`values`, `before` and `after`; every key it gives must equal the change's (JSON shapes as
`specgen diff --format json` prints them). `reason` is for people. `specgen diff --format accept`
prints the entries of the changes it found, ready to paste. An accepted change is still shown,
marked as accepted, and never trips `--fail-on`.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from specgen.files import ReadError, read_bounded
from specgen.review.diff import CATALOGUE, Change
from specgen.text import escape_unsafe, printable

MATCHED_KEYS = ("id", "function", "param", "values", "before", "after")
KEYS = {*MATCHED_KEYS, "reason"}


class AcceptError(Exception):
    """A file of accepted changes cannot be read or holds a malformed entry."""


MAX_ACCEPT = 16 * 2**20  # far above any file of accepted changes


def load(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    """The entries of files of accepted changes, each read as documents are (bounded: a link
    to /dev/zero or a FIFO is refused unread)."""
    entries = []
    for path in paths:
        try:
            data = tomllib.loads(read_bounded(path, MAX_ACCEPT).decode("utf-8"))
        except (ReadError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise AcceptError(printable(f"{path}: {exc}")) from exc
        unknown = sorted(set(data) - {"accept"})
        if unknown or not isinstance(data.get("accept", []), list):
            raise AcceptError(f"{path}: expected only [[accept]] entries, found {', '.join(unknown) or 'accept'}")
        for i, entry in enumerate(data.get("accept", []), 1):
            entries.append(_checked(entry, f"{path}: entry {i}"))
    return entries


def _checked(entry: Any, where: str) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise AcceptError(f"{where}: not a table")
    if unknown := sorted(set(entry) - KEYS):
        raise AcceptError(f"{where}: unknown key {', '.join(unknown)}")
    if entry.get("id") not in CATALOGUE:
        raise AcceptError(f"{where}: id must be a change id of the catalogue, not {entry.get('id')!r}")
    if not isinstance(entry.get("function"), str):
        raise AcceptError(f"{where}: function is required")
    return entry


def mark(changes: Sequence[Change], entries: Sequence[dict[str, Any]]) -> list[Change]:
    """The changes, those an entry matches marked as accepted."""
    return [replace(c, accepted=True) if any(matches(c, e) for e in entries) else c for c in changes]


def matches(change: Change, entry: dict[str, Any]) -> bool:
    facts = change.as_json()
    return all(_plain(facts[key]) == _plain(entry[key]) for key in MATCHED_KEYS if key in entry)


def _plain(value: Any) -> Any:
    """A JSON value as TOML can hold it: no nulls (dropped from tables), lists for tuples."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ---------------------------------------------------------------- printing entries


def entries_toml(changes: Sequence[Change]) -> str:
    """`[[accept]]` entries for `changes`: the exact change (set changes by their values)."""
    blocks = []
    for change in changes:
        facts = change.as_json()
        lines = ["[[accept]]"]
        keys = ["id", "function", "param"] + (["values"] if change.values is not None else ["before", "after"])
        for key in keys:
            value = _plain(facts[key])
            if value is not None:
                lines.append(f"{key} = {_toml(value)}")
        lines.append(f"reason = {_toml('')}  # {_comment(change)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def _comment(change: Change) -> str:
    from specgen.review.diff import summary

    return printable(" ".join(summary(change).split())[:160])


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def _string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's; every other unsafe character (DEL and
    C1, bidi and format characters) as TOML's `\\uXXXX` / `\\UXXXXXXXX`, which read back to it."""
    return escape_unsafe(json.dumps(value, ensure_ascii=False), _toml_escape)


def _toml_escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)
