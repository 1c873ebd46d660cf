"""Tables of a document region, HTML or pipe, as header + located rows of cell fragments.

HTML tables are cut from the source between the `<table` and `</table>` lines (markdown-it
splits a table at a blank line and glues the following bullet to it) and read with an
HTML5 parser, which keeps cells that sit outside any `<tr>`. Cells stay raw fragments;
`text.lines()` flattens them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import islice
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from specgen.parse.document import Document
from specgen.text import plain

_TR = re.compile(r"<tr\b", re.I)


class Cell(NamedTuple):  # a tuple: tables have tens of thousands of cells, made cheaply
    html: str
    origin: int  # id of the source cell: a rowspan/colspan repeats the same origin
    spanned: bool  # True when this grid slot is covered by a cell of an earlier row


@dataclass
class Table:
    header: list[str]  # plain header texts
    rows: list[list[Cell]]  # grid rows, spans expanded
    lines: list[int]  # 1-based line of each row
    raw_rows: list[list[str]] = field(default_factory=list)  # rows as written, no expansion
    line: int = 0  # line of the table start
    end: int = 0  # 0-based index one past its last line


def tables_in(doc: Document, start: int, end: int) -> list[Table]:
    """HTML and pipe tables that start in lines [start, end), in document order."""
    found = _html_tables(doc, start, end) + _pipe_tables(doc, start, end)
    return sorted(found, key=lambda t: t.line)


def _html_tables(doc: Document, start: int, end: int) -> list[Table]:
    tables = []
    read_to = start  # lines before it are read (the tables found so far)
    tags = doc.table_tags
    for i in [k for k, (opens, _) in tags.items() if opens and start <= k < end]:  # in line order
        if i >= read_to and not doc.in_fence(i):
            last, balanced = _table_end(tags, i, len(doc.lines))
            tables.append(_read_html(doc, i, last, balanced))
            read_to = last + 1
    return tables


def _table_end(tags: dict[int, tuple[int, int]], first: int, count: int) -> tuple[int, bool]:
    """0-based index of the line closing the table opened on `first` (nesting counted), of
    a document of `count` lines whose table tags are `tags` (`Document.table_tags`), and
    whether the nesting closes. A `<table>` opened again inside and never closed would run
    the table to the end of the document, swallowing the tables after it: such a table ends
    at its first `</table>` instead."""
    depth = 0
    first_close = None
    for i, (opens, closes) in tags.items():  # the depth changes on these lines only
        if i < first:
            continue
        depth += opens - closes
        if depth <= 0:
            return i, True
        if closes and first_close is None:
            first_close = i
    return (first_close, False) if first_close is not None else (count - 1, True)


def _read_html(doc: Document, first: int, last: int, balanced: bool = True) -> Table:
    source = "\n".join(doc.lines[first : last + 1])
    parser = LexborHTMLParser(source)
    trs = _own_rows(parser) if balanced else parser.css("tr")
    cells = [[c for c in tr.iter() if c.tag in ("td", "th")] for tr in trs]
    raw_rows = [[_without_tables(c.html or "") if not balanced else c.html or "" for c in row] for row in cells]
    tr_starts = [m.start() for m in _TR.finditer(source)]
    if len(tr_starts) == len(trs):
        tr_lines = _row_lines(source, tr_starts, raw_rows, first)
    else:  # implied rows (cells outside <tr>): place by content
        tr_lines = _lines_by_content(source, raw_rows, first)
    # No rowspan or colspan anywhere (a cell's outer HTML would name it): most tables.
    if all(html and "span" not in html for row in raw_rows for html in row):
        grid = _plain_grid(raw_rows)
    else:
        grid = _grid(raw_rows, [[_spans(c) for c in row] for row in cells])
    header: list[str] = []
    if grid and _is_header(trs[0], cells[0]):
        header = [_header_text(c.html) for c in grid[0]]
        grid, tr_lines, raw_rows = grid[1:], tr_lines[1:], raw_rows[1:]
    keep = [i for i, row in enumerate(grid) if any(not c.spanned and _has_text(c.html) for c in row)]
    return Table(
        header=header,
        rows=[grid[i] for i in keep],
        lines=[tr_lines[i] for i in keep],
        raw_rows=[raw_rows[i] for i in keep],
        line=first + 1,
        end=last + 1,
    )


def _own_rows(parser: LexborHTMLParser) -> list:
    """The rows of the first table, not those of a table nested in one of its cells (whose
    text stays part of that cell)."""
    root = parser.css_first("table")
    if root is None:
        return []
    return [tr for tr in root.css("tr") if _table_of(tr) == root.mem_id]


def _table_of(node) -> int | None:
    parent = node.parent
    while parent is not None and parent.tag != "table":
        parent = parent.parent
    return parent.mem_id if parent is not None else None


_NESTED_TABLE = re.compile(r"<table\b.*</table>", re.I | re.S)


def _without_tables(fragment: str) -> str:
    """A cell of an unclosed nested table: the rows the parser put inside it are rows of
    their own, not the cell's text."""
    return _NESTED_TABLE.sub("", fragment)


def _is_header(tr, cells: list) -> bool:
    if cells and all(c.tag == "th" for c in cells):
        return True
    parent = tr.parent
    return parent is not None and parent.tag in ("thead", "thread")


# Real tables span a few rows and columns; larger declared spans are clipped to these.
MAX_ROWSPAN, MAX_COLSPAN = 10_000, 64


def _spans(cell) -> tuple[int, int]:
    def number(attr: str) -> int:
        value = (cell.attributes.get(attr) or "1").strip()
        if not (value.isascii() and value.isdigit()):
            return 1
        return min(int(value[:6]), MAX_COLSPAN if attr == "colspan" else MAX_ROWSPAN)

    return number("rowspan"), max(1, number("colspan"))


def _grid(rows: list[list[str]], spans: list[list[tuple[int, int]]]) -> list[list[Cell]]:
    """Expand rowspan/colspan. rowspan=0 runs to the end; spans past the end are clipped."""
    pending: dict[int, tuple[Cell, int]] = {}  # column -> (cell, rows still covered)
    grid = []
    origin = 0
    for r, row in enumerate(rows):
        out: list[Cell] = []
        queue = list(zip(row, spans[r], strict=True))
        col = 0
        while queue or any(c >= col for c in pending):
            if col in pending:
                cell, left = pending.pop(col)
                out.append(Cell(cell.html, cell.origin, spanned=True))
                if left > 1:
                    pending[col] = (cell, left - 1)
                col += 1
                continue
            if not queue:
                col += 1
                continue
            html, (rowspan, colspan) = queue.pop(0)
            origin += 1
            cell = Cell(html, origin, spanned=False)
            for k in range(colspan):
                out.append(cell if k == 0 else Cell(html, origin, spanned=True))
                if rowspan != 1:
                    pending[col + k] = (cell, (rowspan - 1) if rowspan > 1 else len(rows))
            col += colspan
        grid.append(out)
    return grid


def _plain_grid(rows: list[list[str]]) -> list[list[Cell]]:
    """The grid of a table without spans (as `_grid` makes it, faster): each cell its own
    origin, numbered on from row to row."""
    grid = []
    origin = 0
    for row in rows:
        grid.append([Cell(html, origin + k, False) for k, html in enumerate(row, 1)])
        origin += len(row)
    return grid


def _row_lines(source: str, tr_starts: list[int], rows: list[list[str]], first: int) -> list[int]:
    """The 1-based line of each row (row k opens with the `<tr` at `tr_starts[k]`). Lines are
    counted on from row to row: the text of a big table is not counted again for each row."""
    lines = []
    line, counted = first + 1, 0
    for k, (tr_start, row) in enumerate(zip(tr_starts, rows, strict=True)):
        next_tr = tr_starts[k + 1] if k + 1 < len(tr_starts) else None
        offset = _first_text(source, tr_start, next_tr, row)
        line += source.count("\n", counted, offset)
        counted = offset
        lines.append(line)
    return lines


def _first_text(source: str, tr_start: int, next_tr: int | None, row: list[str]) -> int:
    """Offset of the row's first cell text at or after `<tr` (and before the next `<tr` at
    `next_tr`, if any): a finding about the row then points at the name or value, not at a
    bare `<tr>` line."""
    text = next((t for c in row if (t := plain(c).strip())), "")
    probe = text[:12]
    found = source.find(probe, tr_start) if probe else -1
    if found < 0 or (next_tr is not None and found > next_tr):
        return tr_start
    return found


def _lines_by_content(source: str, rows: list[list[str]], first: int) -> list[int]:
    lines, pos = [], 0
    for row in rows:
        probe = next((c for c in row if c.strip()), "")
        found = source.find(probe, pos) if probe else -1
        if found >= 0:
            pos = found + len(probe)
        lines.append(first + 1 + source.count("\n", 0, pos if found < 0 else found))
    return lines


_TAGS = re.compile(r"<[^<>]*>")


def _has_text(fragment: str) -> bool:
    return bool(_TAGS.sub("", fragment).strip())


_SPACES = re.compile(r"\s+")


def _header_text(fragment: str) -> str:
    return _SPACES.sub("", plain(fragment))


def _pipe_tables(doc: Document, start: int, end: int) -> list[Table]:
    tables = []
    tokens = doc.tokens
    for i in doc.token_indexes("table_open"):
        tok = tokens[i]
        if not tok.map or not start <= tok.map[0] < end:
            continue
        header: list[str] = []
        rows: list[list[Cell]] = []
        lines: list[int] = []
        row: list[Cell] = []
        origin = 0
        for inner in islice(tokens, i + 1, None):
            if inner.type == "table_close":
                break
            if inner.type == "tr_open":
                row = []
                lines.append(inner.map[0] + 1 if inner.map else tok.map[0] + 1)
            elif inner.type == "inline":
                origin += 1
                row.append(Cell(inner.content.replace("\\|", "|"), origin, spanned=False))
            elif inner.type == "tr_close":
                if not header:
                    header = [_header_text(c.html) for c in row]
                    lines.pop()
                else:
                    rows.append(row)
        tables.append(
            Table(
                header=header,
                rows=rows,
                lines=lines,
                raw_rows=[[c.html for c in r] for r in rows],
                line=tok.map[0] + 1,
                end=tok.map[1],
            )
        )
    return tables
