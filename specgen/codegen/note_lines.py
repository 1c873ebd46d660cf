"""The statements of the constraints section (约束说明), line by line: one walker over its bullets
(at any depth), paragraphs and table rows (Markdown and HTML), so that no structure of the
section is skipped. A bullet's or paragraph's continuation lines join it; a table row is one
statement read with its header cells; a lead-in ending in a colon (`当前支持的场景：`) is the
context of the items under it, not a statement of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*+]|\d+[.、])\s+(?P<text>.*\S)")
_TAG = re.compile(r"<[^<>]*>")
MARKUP = re.compile(r"<[^<>]*>|\*\*|`")  # HTML tags, bold, code spans
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CELL = re.compile(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", re.S)
_BREAK = re.compile(r"<br\s*/?>|</li>", re.I)
# Lines that are no statements: a heading, an image, `无` (the section states nothing)
_NOT_SAID = re.compile(r"^\s*(?:#|!\[|无[。.]?\s*$)")
# A lead-in: its items (or the table below it) are the statements, it is their context
_LEAD_IN = re.compile(r"^[^，。；;：:]{0,120}[：:]$")  # (products' names run long)


@dataclass(frozen=True)
class NoteLine:
    """One statement of the section: its first and last line offsets, its text without markup,
    its kind (`bullet`, `paragraph`, `row`), a bullet's indent, whether it lies in a block marked
    for some products (`<!-- npu=`), and its context (the lead-in or header cells it holds under)."""

    offset: int
    end: int
    text: str
    kind: str
    indent: int = 0
    marked: bool = False
    context: str = ""


def plain(text: str) -> str:
    return MARKUP.sub("", _BREAK.sub("；", text)).replace("\\", "").strip(" ；")


def note_lines(text: str) -> list[NoteLine]:
    """Every statement of the section, in order; lead-ins, headings and markup are left out."""
    return _Walker(text.splitlines()).walk()


class _Walker:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.found: list[NoteLine] = []
        self.open = False  # the last statement takes continuation lines
        self.marked = False
        self.leads: list[tuple[int, str]] = []  # (indent, lead-in) of the items being read
        self.header: list[str] = []  # the Markdown table's header cells

    def walk(self) -> list[NoteLine]:
        offset = 0
        while offset < len(self.lines):
            offset = self._line(offset)
        return [n for n in self.found if n.text and not _LEAD_IN.match(n.text)]

    def _line(self, offset: int) -> int:
        line = self.lines[offset]
        stripped = line.strip()
        if stripped.startswith("```"):
            return self._fence(offset)
        if "<table" in line:
            return self._html_table(offset)
        if "<summary" in line or "</details>" in line:
            # a collapsible block's heading (`<summary><term>Atlas A2 …</term></summary>`): the context
            # of what the block holds, down to its end
            self.leads = [(-1, plain(line))] if "<summary" in line else []
            self.open = False
        elif "<!-- npu=" in line or "<!-- end" in line:
            self.marked = "<!-- npu=" in line
        elif stripped.startswith("|"):
            self._table_row(offset)
        elif (m := _BULLET.match(line)) is not None:
            self._bullet(offset, len(m.group("indent")), m.group("text"))
        elif not stripped or _NOT_SAID.match(line) or not plain(line):
            self.open = False
        else:
            self._text(offset, stripped.lstrip("> "))
        return offset + 1

    def _fence(self, offset: int) -> int:
        self.open = False
        end = next((i for i in range(offset + 1, len(self.lines)) if self.lines[i].strip().startswith("```")), None)
        return len(self.lines) if end is None else end + 1

    def _context(self, indent: int) -> str:
        while self.leads and self.leads[-1][0] >= indent:
            self.leads.pop()
        return self.leads[-1][1] if self.leads else ""

    def _bullet(self, offset: int, indent: int, text: str) -> None:
        said = plain(text)
        context = self._context(indent)
        if _LEAD_IN.match(said):
            self.leads.append((indent, said))
        self.found.append(NoteLine(offset, offset, said, "bullet", indent, self.marked, context))
        self.open = True

    def _text(self, offset: int, text: str) -> None:
        said = plain(text)
        last = self.found[-1] if self.found else None
        if self.open and last is not None and last.kind != "row":
            joined = last.text + said
            if _LEAD_IN.match(last.text) and self.leads and self.leads[-1][1] == last.text:
                self.leads[-1] = (self.leads[-1][0], joined)
            self.found[-1] = NoteLine(last.offset, offset, joined, last.kind, last.indent, last.marked, last.context)
            return
        indent = len(self.lines[offset]) - len(self.lines[offset].lstrip())
        self.found.append(NoteLine(offset, offset, said, "paragraph", indent, self.marked, self._context(indent)))
        self.open = True

    def _table_row(self, offset: int) -> None:
        self.open = False
        line = self.lines[offset]
        if _SEPARATOR.match(line):
            return
        cells = [plain(c) for c in line.strip().strip("|").split("|")]
        following = self.lines[offset + 1] if offset + 1 < len(self.lines) else ""
        if _SEPARATOR.match(following):
            self.header = cells
            return
        self._row(offset, offset, cells)

    def _row(self, offset: int, end: int, cells: list[str]) -> None:
        header = self.header if len(self.header) == len(cells) else []
        said = "；".join(f"{h}：{c}" if h else c for h, c in zip(header or [""] * len(cells), cells, strict=True))
        condition = f"{header[0]}：{cells[0]}" if header and cells[0] else ""
        lead = self.leads[-1][1] if self.leads else ""
        context = "；".join(part for part in (lead.rstrip("：:"), condition) if part)
        self.found.append(NoteLine(offset, end, said, "row", 0, self.marked, context))

    def _html_table(self, offset: int) -> int:
        """An HTML table: its header row's cells, then each row (`<tr>` to `</tr>`) one statement."""
        self.open = False
        close = next((i for i in range(offset, len(self.lines)) if "</table>" in self.lines[i]), len(self.lines) - 1)
        self.header = []
        start = None
        for i in range(offset, close + 1):
            if "<tr" in self.lines[i]:
                start = i
            if "</tr>" in self.lines[i] and start is not None:
                self._html_row(start, i)
                start = None
        self.header = []
        return close + 1

    def _html_row(self, start: int, end: int) -> None:
        row = "\n".join(self.lines[start : end + 1])
        cells = [" ".join(plain(part) for part in c.splitlines() if plain(part)) for c in _CELL.findall(row)]
        if not self.header and "<td" not in row:
            self.header = cells
            return
        self._row(start, end, cells)
