"""The source text behind a linted document: exact lines for findings, fences as a reader sees
them, and the document's own `specgen-lint` comments.

The model locates a table row at its first cell and a parameter without a row at its
function's prototype; a finding about one name or phrase is moved to the line that holds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from specgen.diagnostics import Location
from specgen.parse import SourceError, read_source
from specgen.parse.document import Document, load
from specgen.review.findings import Finding
from specgen.review.rules import Rule

if TYPE_CHECKING:
    from specgen.model import OperatorDoc

# How far past the model's line a name is looked for: a table row, a prototype.
ROW_SPAN, PROTOTYPE_SPAN = 16, 60

_DIRECTIVE = re.compile(r"<!--\s*specgen-lint:\s*(disable|disable-file)\s*=\s*([\w\-, ]+?)\s*-->")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})(.*)$")


def clean_comments(code: str) -> str:
    """C comments blanked out, keeping every offset (and so every line) where it was."""
    return re.sub(r"/\*.*?(?:\*/|\Z)|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)


@dataclass
class Source:
    path: str
    document: Document | None
    file_rules: set[str] = field(default_factory=set)
    spans: list[tuple[int, int, set[str]]] = field(default_factory=list)  # (first, last) 1-based

    @classmethod
    def of(cls, path: str) -> Source:
        try:
            document = load(path, read_source(path))  # bounded, as every document is read
        except (SourceError, OSError, ValueError):
            document = None
        src = cls(path, document)
        src._read_directives()
        return src

    @property
    def lines(self) -> list[str]:
        return self.document.lines if self.document else []

    # ------------------------------------------------------------ exact lines

    def name_line(self, start: int, name: str, span: int = ROW_SPAN) -> int:
        """The first line from `start` that holds `name` as a word; `start` if none does."""
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        return self._first(start, span, word.search)

    def text_line(self, start: int, text: str) -> int:
        """The line from `start` that holds the beginning of a (plain-text) statement."""
        probe = text.strip()[:10]
        return self._first(start, ROW_SPAN, lambda line: probe in line) if probe else start

    def prototype_line(self, start: int, name: str) -> int:
        """The line of a prototype starting on `start` that declares parameter `name`."""
        word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}\s*(?:[,)]|$)")
        for i in range(max(start, 1), min(start + PROTOTYPE_SPAN, len(self.lines) + 1)):
            line = self.lines[i - 1]
            if word.search(line):
                return i
            if ")" in line and i > start:
                break
        return start

    def _first(self, start: int, span: int, test) -> int:
        for i in range(max(start, 1), min(start + span, len(self.lines) + 1)):
            if test(self.lines[i - 1]):
                return i
        return start

    # ------------------------------------------------------------ fences

    def fence_findings(self, doc: OperatorDoc) -> list[Finding]:
        out: list[Finding] = []
        if self.document is None:
            return out
        for fence in self.document.fences:
            opener = fence.start + 1
            if not fence.closed and not self._closed_in_quote(fence.start):
                message = "code fence is never closed; it runs to the end of the file"
                out.append(Finding(Rule.DOC_UNCLOSED_FENCE, Location(doc.source, opener), message))
            elif fence.closed and (stray := self._stray_fence(fence.start, fence.end)):
                message = (
                    f"`{self.lines[stray - 1].strip()}` sits inside the code block opened on line {opener}, "
                    f"which is not closed before it (text after a marker keeps it from closing); "
                    f"the block runs on to line {fence.end}"
                )
                out.append(Finding(Rule.DOC_UNCLOSED_FENCE, Location(doc.source, stray), message))
        return out

    def _closed_in_quote(self, start: int) -> bool:
        """A fence inside a blockquote (`> ```cpp` ... `> ````) is closed by its quoted marker."""
        opener = self.lines[start]
        if not _QUOTE.match(opener):
            return False
        marker = _FENCE_LINE.match(_QUOTE.sub("", opener))
        if marker is None:
            return False
        for line in self.lines[start + 1 :]:
            if not _QUOTE.match(line):
                return True  # the quote ends, and the fence with it
            inner = _FENCE_LINE.match(_QUOTE.sub("", line))
            if inner and inner.group(1)[0] == marker.group(1)[0] and not inner.group(2).strip():
                return True
        return False

    def _stray_fence(self, start: int, end: int) -> int | None:
        """A ```` ```l ```` line inside a block: meant to close it, it is read as code."""
        for i in range(start + 1, end - 1):
            m = _FENCE_LINE.match(self.lines[i])
            if m and m.group(2).strip() and " " not in m.group(2).strip():
                return i + 1
        return None

    # ------------------------------------------------------------ suppression

    def _read_directives(self) -> None:
        for i, line in enumerate(self.lines):
            for kind, rules in _DIRECTIVE.findall(line):
                names = {r.strip() for r in rules.split(",") if r.strip()}
                if kind == "disable-file":
                    self.file_rules |= names
                else:
                    first = self._next_content(i + 1)
                    if first is not None:
                        self.spans.append((first + 1, self._element_end(first) + 1, names))

    def disables(self, rule: str, line: int) -> bool:
        if rule in self.file_rules or "all" in self.file_rules:
            return True
        return any(first <= line <= last and (rule in names or "all" in names) for first, last, names in self.spans)

    def _next_content(self, index: int) -> int | None:
        return next((i for i in range(index, len(self.lines)) if self.lines[i].strip()), None)

    def _element_end(self, first: int) -> int:
        """0-based last line of the element starting on `first`: a fence, an HTML element
        (a `<tr>`, a `<table>`), or a paragraph or list item up to the next blank line."""
        text = self.lines[first].strip()
        if _FENCE_LINE.match(text) and self.document is not None:
            fence = self.document.in_fence(first)
            return fence.end - 1 if fence else first
        if m := re.match(r"<(\w+)", text):
            return self._tag_end(first, m.group(1))
        i = first
        while i + 1 < len(self.lines) and self.lines[i + 1].strip() and not self.lines[i + 1].lstrip().startswith("#"):
            i += 1
        return i

    def _tag_end(self, first: int, tag: str) -> int:
        opens, closes = re.compile(rf"<{tag}\b", re.I), re.compile(rf"</{tag}\s*>", re.I)
        depth = 0
        for i in range(first, len(self.lines)):
            depth += len(opens.findall(self.lines[i])) - len(closes.findall(self.lines[i]))
            if depth <= 0:
                return i
        return first
