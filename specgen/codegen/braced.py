"""Long braced initialiser lists laid out as clang-format lays them out, without clang-format.

A sample's tensor data are lines such as `  const std::vector<float> xData = {0.5f, ...};` with up
to thousands of literals; they are half of clang-format's time on the generated code. Their
layout follows from clang-format's column layout of braced lists alone (Google style,
Cpp11BracedListStyle; `CommaSeparatedList` in clang's FormatToken.cpp), so they are laid out
here (`lay_out_lists`) before clang-format sees a file: it then finds them in its own layout.
A test proves the result is what clang-format itself gives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COLUMN_LIMIT = 120  # templates/clang-format.yaml (a test keeps them equal)
CONTINUATION_INDENT = 4
MIN_ITEMS = 6  # clang-format lays out shorter lists by bin-packing, not in columns
MAX_SPREAD = 10  # a column whose items differ more in length than this is not used

# `<indent>[const ]T name = {a, b, ...};` or `T name[] = {...};`, whose items hold no brace,
# quote, comment or nested comma (literals and one-argument calls such as FloatToHalf(0.5)).
LIST_LINE = re.compile(
    r"^(?P<indent> *)(?P<head>(?:const )?[\w:<>]+ \w+(?:\[\])? = )\{(?P<items>[^{}\"'/;]*)\};$", re.M
)
_ITEM = re.compile(r"[^,()]+(?:\([^,()]*\))?")


@dataclass(frozen=True)
class _Columns:
    count: int
    sizes: tuple[int, ...]
    rows: int

    @property
    def width(self) -> int:
        return self.count - 1 + sum(self.sizes)


def lay_out_lists(text: str) -> str:
    """`text` with its long data lists laid out; the lists this does not model stay as they are."""
    if "= {" not in text:
        return text

    def laid_out(match: re.Match[str]) -> str:
        items = items_of(match.group("items"))
        if len(match.group(0)) <= COLUMN_LIMIT or not items:
            return match.group(0)
        lines = lay_out(len(match.group("indent")), match.group("head"), items)
        return match.group(0) if lines is None else "\n".join(lines)

    return LIST_LINE.sub(laid_out, text)


def items_of(text: str) -> list[str] | None:
    """The comma-separated items of a list body, or None if one is not a simple item."""
    items = [item.strip() for item in text.split(",")]
    return items if all(_ITEM.fullmatch(item) for item in items) else None


def lay_out(indent: int, head: str, items: list[str]) -> list[str] | None:
    """`head{items};` at `indent` as clang-format lays it out, or None for the lists this does
    not model (short ones, which clang-format bin-packs)."""
    line = " " * indent + head + "{" + ", ".join(items) + "};"
    if len(line) <= COLUMN_LIMIT:
        return [line]
    if len(items) < MIN_ITEMS:
        return None
    lengths = [len(item) + 1 for item in items[:-1]] + [len(items[-1])]  # with their commas
    formats = _formats(lengths, last_at_end=len(items[-1]) + 2)  # the last item carries "};"
    aligned_at = indent + len(head) + 1  # the items follow the brace
    broken_at = indent + CONTINUATION_INDENT  # the items start on the next line
    aligned, broken = _best(formats, COLUMN_LIMIT - aligned_at), _best(formats, COLUMN_LIMIT - broken_at)
    # clang-format's penalties: each line break in the list costs the same, breaking after the
    # brace one more; so the broken layout wins only with two rows fewer.
    if broken.rows < aligned.rows - 1 or aligned.width > COLUMN_LIMIT - aligned_at:
        rows = _rows(items, broken, broken_at)
        return [" " * indent + head + "{", *rows[:-1], rows[-1] + "};"]
    rows = _rows(items, aligned, aligned_at)
    first = " " * indent + head + "{" + rows[0].lstrip()
    return [first, *rows[1:-1], rows[-1] + "};"] if len(rows) > 1 else [first + "};"]


def _formats(lengths: list[int], last_at_end: int) -> list[_Columns]:
    """Every column layout clang-format considers, fewest columns first. Column c holds items
    c, c + count, ...; the last column's items end their rows (the last one with its "};")."""
    n, formats = len(lengths), []
    row_ends = lengths[:-1] + [last_at_end]
    shortest = min(lengths)
    for count in range(1, min(n, COLUMN_LIMIT // 3) + 1):  # more columns than items: no full row
        if count > 1 and count * (shortest + 1) - 1 > COLUMN_LIMIT:
            break  # too wide, and so is every layout with more columns
        columns = [lengths[c::count] for c in range(count - 1)] + [row_ends[count - 1 :: count]]
        sizes = tuple(max(column) for column in columns)
        layout = _Columns(count, sizes, -(-n // count))
        if any(sizes[c] - min(columns[c]) > MAX_SPREAD for c in range(count - 1)):
            continue
        if layout.width > COLUMN_LIMIT and count > 1:
            continue
        formats.append(layout)
    return formats


def _best(formats: list[_Columns], room: int) -> _Columns:
    """The layout clang-format picks for `room` columns: the fewest rows, then the fewest
    columns giving that many rows."""
    best: _Columns | None = None
    for layout in reversed(formats):
        if layout.width <= room or layout.count == 1:
            if best and layout.rows > best.rows:
                break
            best = layout
    assert best is not None  # one column always qualifies
    return best


def _rows(items: list[str], layout: _Columns, start: int) -> list[str]:
    cells = [item + "," for item in items[:-1]] + [items[-1]]
    rows = []
    for k in range(0, len(cells), layout.count):
        row = cells[k : k + layout.count]
        padded = [cell.ljust(layout.sizes[c]) for c, cell in enumerate(row[:-1])] + [row[-1]]
        rows.append(" " * start + " ".join(padded))
    return rows
