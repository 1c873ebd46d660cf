"""Findings and changes as text, Markdown, JSON, GitHub workflow annotations, SARIF 2.1.0
(GitHub code scanning) and JUnit XML (GitLab / GitCode CI test reports), for diff and lint."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from specgen import __version__
from specgen.diagnostics import Location
from specgen.review.rules import PROBLEM_CODES
from specgen.text import escape_unsafe, json_escape, markdown_cell, printable

COLOURS = {"breaking": "31", "error": "31", "non-breaking": "33", "warning": "33", "info": "2"}
# Every severity of diff and lint, as CI formats know them.
LEVELS = {"breaking": "error", "error": "error", "non-breaking": "warning", "warning": "warning", "info": "note"}


def problem_code(code: str) -> str:
    """The code a diagnostic is printed under: its lint rule's when lint reports it as one
    (one code per problem in every command, see `PROBLEM_CODES`)."""
    rule = PROBLEM_CODES.get(code)
    return rule.value if rule is not None else code


@dataclass(frozen=True)
class Item:
    """One reported change or finding."""

    id: str
    severity: str
    message: str
    location: Location | None
    status: str | None = None  # "suppressed" (lint) or "accepted" (diff): shown, never fails

    @property
    def path(self) -> str | None:
        return self.location.path if self.location else None

    @property
    def line(self) -> int:
        """The line for CI formats, which count from 1."""
        return self.location.line if self.location and self.location.line > 0 else 1

    @property
    def where(self) -> str:
        """The location as printed (`path:line`), or nothing."""
        return str(self.location) if self.location else ""


def terminal_safe(text: str) -> str:
    """Text quoting documents, safe to print: control characters (ESC, CSI, OSC: terminal
    escape sequences), bidi controls and invisible characters as `\\x1b`, `\\u202e`... A
    newline is kept (messages span lines), but no line starts with `::` (a GitHub workflow
    command); a carriage return is not. Names go through `printable`, newlines escaped."""
    return printable(text, multiline=True)


def text(items: Sequence[Item], colour: bool) -> str:
    lines = []
    for item in items:
        tag = terminal_safe(item.severity)
        if colour:
            tag = f"\033[{COLOURS.get(item.severity, '0')}m{tag}\033[0m"
        where = printable(f"{item.where}: ") if item.location else ""
        lines.append(f"{where}{tag}: {terminal_safe(item.message + _status(item))} [{printable(item.id)}]")
    return "\n".join(lines) + ("\n" if lines else "")


def _status(item: Item) -> str:
    return f" ({item.status})" if item.status else ""


def counts(items: Sequence[Item], severities: Sequence[str]) -> str:
    """`2 breaking, 1 non-breaking, 0 info` (most severe first), and how many are set aside."""
    live = [i for i in items if not i.status]
    parts = [f"{sum(i.severity == s for i in live)} {s}" for s in severities]
    for status in sorted({i.status for i in items if i.status}):
        parts.append(f"{sum(i.status == status for i in items)} {status}")
    return ", ".join(parts)


def markdown(items: Sequence[Item], title: str, severities: Sequence[str], nothing: str = "No changes.") -> str:
    """A table for a pull request, under a line of counts per severity."""
    if not items:
        return f"### {title}\n\n{nothing}\n"
    rows = [f"### {title}", "", f"**{counts(items, severities)}**", ""]
    rows += ["| severity | id | what | where |", "|---|---|---|---|"]
    for item in items:
        severity = f"{item.severity} ({item.status})" if item.status else item.severity
        rows.append(f"| {severity} | `{item.id}` | {_cell(item.message)} | {_cell(item.where)} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return markdown_cell(text)


def github(items: Sequence[Item]) -> str:
    """`::error file=...,line=...::message` lines a GitHub workflow turns into annotations."""
    level = {"breaking": "error", "error": "error", "non-breaking": "warning", "warning": "warning"}
    lines = []
    for item in items:
        props = ""
        if item.location:
            props = f" file={_escape_property(item.path or '')},line={item.line}"
        message = _escape_data(f"{item.id}: {item.message}{_status(item)}")
        kind = "notice" if item.status else level.get(item.severity, "notice")
        lines.append(f"::{kind}{props}::{message}")
    return "\n".join(lines) + ("\n" if lines else "")


def _escape_data(value: str) -> str:
    return terminal_safe(value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def dumps(data: object) -> str:
    """JSON, non-ASCII text as it is but bidi, invisible and control characters as `\\u` escapes."""
    return escape_unsafe(json.dumps(data, ensure_ascii=False, indent=2), json_escape) + "\n"


# ---------------------------------------------------------------- SARIF 2.1.0

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SUPPRESSION_KINDS = {"suppressed": "inSource", "accepted": "external"}


def sarif(items: Sequence[Item], rules: Mapping[str, tuple[str, str]], tool: str = "specgen") -> str:
    """One run of one tool: every rule of the catalogue (id -> (severity, description)), and a
    result per item; suppressed and accepted items carry a SARIF suppression."""
    ids = list(rules)
    driver = {
        "name": tool,
        "version": __version__,
        "rules": [
            {
                "id": rule,
                "shortDescription": {"text": description},
                "defaultConfiguration": {"level": LEVELS.get(severity, "note")},
                "properties": {"severity": severity},
            }
            for rule, (severity, description) in rules.items()
        ],
    }
    results = [_sarif_result(item, ids) for item in items]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}],
    }
    return dumps(log)


def _sarif_result(item: Item, ids: list[str]) -> dict:
    result: dict = {"ruleId": item.id, "level": LEVELS.get(item.severity, "note"), "message": {"text": item.message}}
    if item.id in ids:
        result["ruleIndex"] = ids.index(item.id)
    if item.path:
        location = {"uri": artifact_uri(item.path)}
        if not item.path.startswith("/"):
            location["uriBaseId"] = "%SRCROOT%"
        result["locations"] = [{"physicalLocation": {"artifactLocation": location, "region": {"startLine": item.line}}}]
    result["properties"] = {"severity": item.severity}
    if item.status:
        result["suppressions"] = [{"kind": _SUPPRESSION_KINDS.get(item.status, "external"), "status": "accepted"}]
    return result


def artifact_uri(path: str) -> str:
    """A path as a URI reference: '/'-separated, percent-encoded (non-ASCII, spaces, '%')."""
    posix = path.replace("\\", "/").removeprefix("./")
    encoded = quote(posix, safe="/&=+,;@!$'()*-._~")
    return "file://" + encoded if posix.startswith("/") else encoded


# ---------------------------------------------------------------- JUnit XML

_XML_UNSAFE = re.compile(r"[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def junit(suite: str, items: Sequence[Item], cases: Sequence[str], fails: Callable[[Item], bool]) -> str:
    """One test case per document (`cases`, plus any other path an item names); a case fails
    when one of its items `fails`, and lists the others in its output."""
    by_case: dict[str, list[Item]] = {case: [] for case in cases}
    for item in items:
        by_case.setdefault(item.path or "(no file)", []).append(item)
    failures = sum(any(fails(i) for i in found) for found in by_case.values())
    root = ET.Element("testsuites", name="specgen", tests=str(len(by_case)), failures=str(failures))
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(by_case)), failures=str(failures), errors="0")
    for case, found in sorted(by_case.items()):
        test = ET.SubElement(node, "testcase", classname=suite, name=_xml(case))
        failing = [i for i in found if fails(i)]
        if failing:
            failure = ET.SubElement(test, "failure", message=_xml(f"{len(failing)} at or above the failing severity"))
            failure.set("type", failing[0].id)
            failure.text = _xml(_lines(failing))
        rest = [i for i in found if not fails(i)]
        if rest:
            ET.SubElement(test, "system-out").text = _xml(_lines(rest))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _lines(items: Sequence[Item]) -> str:
    return "\n".join(f"{i.where}: {i.severity}: {i.id}: {i.message}{_status(i)}" for i in items)


def _xml(value: str) -> str:
    """Text XML 1.0 can hold, safe to show: control, bidi and invisible characters escaped."""
    return _XML_UNSAFE.sub("", terminal_safe(value))
