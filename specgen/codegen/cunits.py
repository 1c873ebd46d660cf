"""clang-format on the few statements that need it, not on whole files.

The templates print C and C++ already in clang-format's layout wherever a line fits in the
column limit (a test proves clang-format leaves every generated file unchanged). What they
cannot foresee is how clang-format breaks a line that does not fit: a long prototype, call
or comment. Such a line (a run of comment lines, for comments: clang-format reflows them
together) is laid out by clang-format alone, out of its file: wrapped at its indent in a
function or namespace of its own, all of them in one file, one clang-format process for the
lot. A line's layout depends only on its own tokens and its indent, so the result is what
clang-format gives on the whole file, at a fraction of the cost.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from specgen.codegen.braced import COLUMN_LIMIT

_INDENT = 2  # clang-format's indent width in templates/clang-format.yaml


def width(line: str) -> int:
    """Columns a line takes, any non-ASCII character counted as two: at least what clang-format
    counts (a line wrongly judged long is laid out and comes back as it was)."""
    return len(line) if line.isascii() else len(line) + sum(not ch.isascii() for ch in line)


@dataclass(frozen=True)
class Unit:
    """Lines [start, end) of a file that clang-format lays out on their own."""

    start: int
    end: int
    indent: int
    opens_block: bool  # its last line ends with "{": the wrapper closes it

    def wrapped(self, lines: list[str], key: int) -> str:
        """The unit in a wrapper of its own, ended by a marker statement."""
        body = lines[self.start : self.end]
        close = [" " * self.indent + "}"] if self.opens_block else []
        end = f"{' ' * self.indent}int specgen_unit_end_{key};"
        if self.indent == 0:
            namespace = f"specgen_unit_{key}"
            return "\n".join([f"namespace {namespace} {{", *body, *close, end, f"}}  // namespace {namespace}"])
        depth = self.indent // _INDENT
        opening = [f"void specgen_unit_{key}() {{"] + [" " * (_INDENT * d) + "{" for d in range(1, depth)]
        closing = [" " * (_INDENT * d) + "}" for d in range(depth - 1, 0, -1)] + ["}"]
        return "\n".join([*opening, *body, *close, end, *closing])


def long_units(text: str) -> list[Unit]:
    """The lines of `text` wider than the column limit, each a unit; comment lines with the
    comment run (or block comment) they belong to."""
    lines = text.split("\n")
    units: list[Unit] = []
    i = 0
    while i < len(lines):
        end = _comment_end(lines, i)
        if end > i:
            if any(width(line) > COLUMN_LIMIT for line in lines[i:end]):
                units.append(Unit(i, end, _indent(lines[i]), False))
            i = end
            continue
        if width(lines[i]) > COLUMN_LIMIT:
            units.append(Unit(i, i + 1, _indent(lines[i]), lines[i].rstrip().endswith("{")))
        i += 1
    return units


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _comment_end(lines: list[str], i: int) -> int:
    """The end of the comment starting at line i (a run of // lines at one indent, or a block
    comment), or i if line i starts none."""
    stripped = lines[i].lstrip(" ")
    if stripped.startswith("//"):
        j = i + 1
        while j < len(lines) and lines[j].lstrip(" ").startswith("//") and _indent(lines[j]) == _indent(lines[i]):
            j += 1
        return j
    if stripped.startswith("/*"):
        j = i
        while j < len(lines) and "*/" not in lines[j]:
            j += 1
        return min(j + 1, len(lines))
    return i


def format_units(files: Mapping[str, str], clang_format: Callable[[str], str], jobs: int = 1) -> dict[str, str]:
    """The files with their long units laid out by `clang_format` (a function formatting one
    source text), in `jobs` calls side by side."""
    found = {path: long_units(text) for path, text in files.items()}
    split = {path: text.split("\n") for path, text in files.items() if found[path]}
    wrapped: list[str] = []
    keys: list[tuple[str, Unit]] = []
    for path, units in found.items():
        for unit in units:
            wrapped.append(unit.wrapped(split[path], len(keys)))
            keys.append((path, unit))
    if not wrapped:
        return dict(files)
    size = -(-len(wrapped) // max(1, jobs))
    chunks = ["\n\n".join(wrapped[i : i + size]) + "\n" for i in range(0, len(wrapped), size)]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        formatted = "\n".join(pool.map(clang_format, chunks))
    laid_out = _unwrap(formatted, [unit for _, unit in keys])
    out = dict(files)
    k = 0
    for path, lines in split.items():
        pieces, at = [], 0
        for unit in found[path]:
            pieces += lines[at : unit.start] + laid_out[k]
            at, k = unit.end, k + 1
        out[path] = "\n".join(pieces + lines[at:])
    return out


_WRAPPER = re.compile(r"^(?:void specgen_unit_(\d+)\(\) \{|namespace specgen_unit_(\d+) \{)$")


def _unwrap(formatted: str, units: list[Unit]) -> list[list[str]]:
    """Each unit's lines from clang-format's output, without their wrappers."""
    lines = formatted.split("\n")
    bodies: list[list[str]] = []
    for i, line in enumerate(lines):
        m = _WRAPPER.match(line)
        if not m:
            continue
        key = int(m.group(1) or m.group(2))
        if key != len(bodies):
            raise RuntimeError("clang-format reordered the statements it was given")
        end = lines.index(f"{' ' * units[key].indent}int specgen_unit_end_{key};", i)
        start = i + 1 + (units[key].indent // _INDENT - 1 if m.group(1) else 0)  # after the nesting braces
        bodies.append(lines[start : end - 1 if units[key].opens_block else end])
    if len(bodies) != len(units):
        raise RuntimeError("clang-format lost a statement it was given")
    return bodies
