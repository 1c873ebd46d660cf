"""A document as lines, markdown-it block tokens and headed sections, all by line number.

Only block rules run: the readers work on the source text of each block (inline Markdown
is flattened by `specgen.text`), which keeps every fact on its original line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from specgen import text as textmod
from specgen.diagnostics import Code
from specgen.model import Diagnostic

_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_CONFLICT = re.compile(r"^(?:<{7}|>{7})(?: .*)?$", re.M)
TABLE_TAG = re.compile(r"<table\b|</table\s*>", re.I)


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    # Inline Markdown is flattened by text.plain() where needed. `normalize` only rewrites
    # CR and NUL, which `text.decode` has already removed; `text_join` only joins the inline
    # children no reader looks at.
    md.disable(["inline", "text_join", "normalize"])
    return md


@dataclass(frozen=True, slots=True)
class Section:
    level: int
    title: str  # plain text
    line: int  # 1-based line of the heading
    start: int  # 0-based index of the first line after the heading
    end: int  # 0-based index one past the last line (next heading of same or higher level)


@dataclass(frozen=True, slots=True)
class Fence:
    info: str
    content: str
    line: int  # 1-based line of the first content line
    start: int  # 0-based line index of the opening fence
    end: int  # 0-based index one past the closing fence
    closed: bool


@dataclass
class Document:
    path: str
    text: str
    lines: list[str]
    front_matter: dict[str, str]
    sections: list[Section]
    fences: list[Fence]
    tokens: list[Token] = field(repr=False)
    warnings: list[Diagnostic] = field(default_factory=list)  # about the text itself (encoding, fences)
    _token_indexes: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def section_at(self, index: int) -> Section | None:
        """The innermost section holding 0-based line `index`."""
        best = None
        for s in self.sections:
            if s.start - 1 <= index < s.end and (best is None or s.level > best.level):
                best = s
        return best

    def enclosing(self, index: int) -> list[Section]:
        """Every section holding 0-based line `index`, outermost first."""
        return sorted((s for s in self.sections if s.start - 1 <= index < s.end), key=lambda s: s.level)

    def token_indexes(self, token_type: str) -> list[int]:
        """Indexes in `tokens` of every token of a type: found once, not once per region read."""
        if token_type not in self._token_indexes:
            self._token_indexes[token_type] = [i for i, tok in enumerate(self.tokens) if tok.type == token_type]
        return self._token_indexes[token_type]

    def span(self, start: int, end: int) -> str:
        return "\n".join(self.lines[start:end])

    @cached_property
    def table_tags(self) -> dict[int, tuple[int, int]]:
        """0-based line -> how many `<table` it opens and `</table>` it closes, for the lines
        with either, in line order: one scan of the document, where a search on each line of
        each region read cost a tenth of the table reader."""
        text = "\n".join(self.lines)
        tags: dict[int, tuple[int, int]] = {}
        line, at = 0, 0
        for match in TABLE_TAG.finditer(text):
            line += text.count("\n", at, match.start())
            at = match.start()
            opens, closes = tags.get(line, (0, 0))
            tags[line] = (opens, closes + 1) if match.group()[1] == "/" else (opens + 1, closes)
        return tags

    def in_fence(self, index: int) -> Fence | None:
        return next((f for f in self.fences if f.start <= index < f.end), None)


# Real lines are at most a few thousand characters; a longer one is damage, and reading it
# whole would cost time for nothing (every clause of it is classified).
MAX_LINE = 65536


def load(path: str, data: bytes) -> Document:
    text, encoding_warning = textmod.decode(data)
    front, text = _split_front_matter(text)
    lines = text.split("\n")
    long_lines = [i for i, line in enumerate(lines) if len(line) > MAX_LINE] if len(text) > MAX_LINE else []
    for i in long_lines:
        lines[i] = lines[i][:MAX_LINE]
    if long_lines:
        text = "\n".join(lines)
    tokens = markdown().parse(text)
    doc = Document(
        path=path,
        text=text,
        lines=lines,
        front_matter=front,
        sections=_sections(tokens, len(lines)),
        fences=_fences(tokens, lines),
        tokens=tokens,
    )
    if encoding_warning:
        doc.warnings.append(Diagnostic.at(1, Code.ENCODING, encoding_warning))
    for i in long_lines:
        message = f"line longer than {MAX_LINE} characters; only its start is read"
        doc.warnings.append(Diagnostic.at(i + 1, Code.LONG_LINE, message))
    for fence in doc.fences:
        if not fence.closed:
            message = "code fence is never closed; it runs to the end of the file"
            doc.warnings.append(Diagnostic.at(fence.line - 1, Code.UNCLOSED_FENCE, message))
    for match in _CONFLICT.finditer(text) if _may_have_conflicts(text) else ():
        line = text.count("\n", 0, match.start()) + 1
        doc.warnings.append(Diagnostic.at(line, Code.CONFLICT_MARKER, f"merge-conflict marker {match.group(0)[:7]!r}"))
    return doc


def _may_have_conflicts(text: str) -> bool:
    """A cheap test before the line-anchored scan: most documents have no marker at all."""
    return "<<<<<<<" in text or ">>>>>>>" in text


def _split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """YAML front matter as flat `key: value` pairs; blanked out to keep line numbers."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    front = {}
    for line in match.group(1).split("\n"):
        key, sep, value = line.partition(":")
        if sep and key.strip() and not key.startswith(" "):
            front[key.strip()] = value.strip().strip("\"'")
    return front, "\n" * match.group(0).count("\n") + text[match.end() :]


def _sections(tokens: list[Token], n_lines: int) -> list[Section]:
    heads = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map:
            title = textmod.plain(tokens[i + 1].content) if i + 1 < len(tokens) else ""
            heads.append((int(tok.tag[1]), title, tok.map[0], tok.map[1]))
    sections = []
    for i, (level, title, first, after) in enumerate(heads):
        end = next((h[2] for h in heads[i + 1 :] if h[0] <= level), n_lines)
        sections.append(Section(level=level, title=title, line=first + 1, start=after, end=end))
    return sections


def _fences(tokens: list[Token], lines: list[str]) -> list[Fence]:
    fences = []
    for tok in tokens:
        if tok.type != "fence" or not tok.map:
            continue
        start, end = tok.map
        closing = lines[end - 1].strip() if end - 1 > start else ""
        closed = closing.startswith(tok.markup) and closing.strip(tok.markup[0]) == ""
        fences.append(
            Fence(info=tok.info.strip(), content=tok.content, line=start + 2, start=start, end=end, closed=closed)
        )
    return fences
