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
from collections.abc import Callable, Sequence
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


@dataclass(frozen=True)
class Lifted:
    """A unit taken out of its file (`lift`): its lines, and the line of the lifted text that
    holds its place."""

    line: int
    indent: int
    opens_block: bool
    lines: tuple[str, ...]

    def wrapped(self, key: int) -> str:
        """The unit in a wrapper of its own, ended by a marker statement."""
        close = [" " * self.indent + "}"] if self.opens_block else []
        end = f"{' ' * self.indent}int specgen_unit_end_{key};"
        if self.indent == 0:
            namespace = f"specgen_unit_{key}"
            return "\n".join([f"namespace {namespace} {{", *self.lines, *close, end, f"}}  // namespace {namespace}"])
        depth = self.indent // _INDENT
        opening = [f"void specgen_unit_{key}() {{"] + [" " * (_INDENT * d) + "{" for d in range(1, depth)]
        closing = [" " * (_INDENT * d) + "}" for d in range(depth - 1, 0, -1)] + ["}"]
        return "\n".join([*opening, *self.lines, *close, end, *closing])


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


def lift(text: str) -> tuple[str, tuple[Lifted, ...]]:
    """`text` with each long unit replaced by one empty line, and the units taken out. The
    place is kept by line number, not by a marker a document could forge."""
    units = long_units(text)
    if not units:
        return text, ()
    lines = text.split("\n")
    kept: list[str] = []
    lifted = []
    at = 0
    for unit in units:
        kept += lines[at : unit.start]
        lifted.append(Lifted(len(kept), unit.indent, unit.opens_block, tuple(lines[unit.start : unit.end])))
        kept.append("")
        at = unit.end
    return "\n".join(kept + lines[at:]), tuple(lifted)


def lay_out(units: Sequence[Lifted], clang_format: Callable[[str], str], jobs: int = 1) -> list[list[str]]:
    """Each unit's lines as clang-format lays them out, by `clang_format` (a function
    formatting one source text) in up to `jobs` calls side by side."""
    if not units:
        return []
    wrapped = [unit.wrapped(key) for key, unit in enumerate(units)]
    size = -(-len(wrapped) // max(1, jobs))
    chunks = ["\n\n".join(wrapped[i : i + size]) + "\n" for i in range(0, len(wrapped), size)]
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        formatted = "\n".join(pool.map(clang_format, chunks))
    return _unwrap(formatted, units)


def splice(text: str, units: Sequence[Lifted], laid_out: Sequence[list[str]]) -> str:
    """The lifted `text` with its units back in their places, laid out."""
    lines = text.split("\n")
    for unit, replacement in sorted(zip(units, laid_out, strict=True), key=lambda pair: -pair[0].line):
        lines[unit.line : unit.line + 1] = replacement
    return "\n".join(lines)


_WRAPPER = re.compile(r"^(?:void specgen_unit_(\d+)\(\) \{|namespace specgen_unit_(\d+) \{)$")


def _unwrap(formatted: str, units: Sequence[Lifted]) -> list[list[str]]:
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
