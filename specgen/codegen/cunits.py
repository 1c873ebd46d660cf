"""clang-format on the few statements that need it, not on whole files.

The templates print C and C++ already in clang-format's layout wherever a line fits in the
column limit (a test proves clang-format leaves every generated file unchanged). What they
cannot foresee is how clang-format breaks a line that does not fit: a long prototype, call
or comment. Such a line (a run of comment lines, for comments: clang-format reflows them
together) is laid out by clang-format alone, out of its file: wrapped at its indent in a
function or namespace of its own, all of them in one file, one clang-format process for the
lot. A line's layout depends only on its own tokens and its indent, so the result is what
clang-format gives on the whole file, at a fraction of the cost.

The commonest long lines are not lifted but laid out here, so that on most documents
clang-format does not run at all: the prototypes of the headers and the
`if (!Check(call(...), "name")) {` and `if (!x.Create(...)) {` lines of the samples, when their
arguments are plain tokens, as clang-format lays them out (`lay_out_call`; a test proves the
result is clang-format's, on hand-written lines and on the whole corpus); and comments, whose
long lines are broken at blanks to fit (`rewrapped_comment`; clang-format then leaves them
alone, which the corpus test checks on every generated file).
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
    """`text` with each long unit replaced by one empty line, and the units taken out (those
    laid out here, comments and the calls `lay_out_call` models, stay in place, laid out).
    The place is kept by line number, not by a marker a document could forge."""
    units = long_units(text)
    if not units:
        return text, ()
    lines = text.split("\n")
    kept: list[str] = []
    lifted = []
    at = 0
    for unit in units:
        kept += lines[at : unit.start]
        laid_out = _laid_out(lines[unit.start : unit.end])
        if laid_out is not None:
            kept += laid_out
        else:
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


def _laid_out(unit: list[str]) -> list[str] | None:
    """A unit laid out here (a comment run or a call modelled here), or None."""
    if unit[0].lstrip(" ").startswith(("//", "/*")):
        return rewrapped_comment(unit)
    return lay_out_call(unit[0]) if len(unit) == 1 else None


_LINE_COMMENT = re.compile(r"( *// )(\S.*)| *//.*")  # `// text`, or another `//` line
_BLOCK_LINE = re.compile(r"( +\* )(\S.*)| +\*.*")  # ` * text`, or another line of the block
_ONE_LINE_BLOCK = re.compile(r"( *)/\* (\S.*\S) \*/")


def rewrapped_comment(unit: list[str]) -> list[str] | None:
    """A `//` run, a `/** ... */` block or a one-line `/* ... */` whose long lines are broken
    at spaces so that each fits: clang-format breaks only lines that do not fit, only at
    blanks, and never joins lines it did not break, so it leaves the result alone (a word
    wider than the limit stays whole, as it would). None for a comment of another shape
    (text after `/*` on a line of a block; tabs or double spaces in a long line), left to
    clang-format."""
    if m := _ONE_LINE_BLOCK.fullmatch(unit[0]) if len(unit) == 1 else None:
        if "  " in m.group(2) or "\t" in unit[0]:
            return None
        pad = m.group(1)
        lines = _filled(pad + "/* ", pad + " * ", m.group(2).split(" "))
        fits = width(lines[-1] + " */") <= COLUMN_LIMIT
        return lines[:-1] + [lines[-1] + " */"] if fits else [*lines, pad + " */"]
    block = unit[0].lstrip(" ").startswith("/*")
    if block and (unit[0].strip() not in ("/*", "/**") or unit[-1].strip() != "*/"):
        return None
    out = [unit[0]] if block else []
    for line in unit[1:-1] if block else unit:
        m = (_BLOCK_LINE if block else _LINE_COMMENT).fullmatch(line)
        if m is None:
            return None
        if width(line) <= COLUMN_LIMIT:
            out.append(line)  # fits: clang-format leaves it as it is
        elif not (text := m.group(2)) or "\t" in line or "  " in text.rstrip(" "):
            return None
        else:
            out += _filled(m.group(1), m.group(1), text.rstrip(" ").split(" "))
    return [*out, unit[-1]] if block else out


def _filled(first: str, prefix: str, words: list[str]) -> list[str]:
    """`words` joined by spaces into lines as full as fit (clang-format's bin-packing, and
    the filling of comments), the first line after `first`, the others after `prefix`."""
    lines, current = [], first + words[0]
    for word in words[1:]:
        if width(current + " " + word) <= COLUMN_LIMIT:
            current += " " + word
        else:
            lines.append(current)
            current = prefix + word
    return [*lines, current]


# The long calls `lay_out_call` models; any other line is left to clang-format.
_PROTOTYPE = re.compile(r"(?P<type>ACLNN_API aclnnStatus) (?P<name>\w+)\((?P<args>.*)\);")
_CHECK = re.compile(r'(?P<pad> *)if \(!Check\((?P<name>\w+)\((?P<args>.*)\), (?P<label>"\w+")\)\) \{')
_IF_CALL = re.compile(r"(?P<pad> *)if \(!(?P<name>\w+(?:\.\w+)?)\((?P<args>.*)\)\) \{")
_PARAM = re.compile(r"(?:const )?\w+\** \w+")  # const aclTensor* self
_ARG = re.compile(r"[&-]?\w+(?:\.\w+)*(?:\(\))?")  # x, &x, -1, 1.5f, x.get(), runtime.stream
# Words C++ reads as operators (`and` is `&&`); never generated names (names.C_KEYWORDS).
_OPERATOR_WORD = re.compile(r"\b(?:and|and_eq|bitand|bitor|compl|not|not_eq|or|or_eq|xor|xor_eq)\b")

_FIRST_BREAK = 15  # clang-format's extra penalty for the first break in each bracket and each list
_WRAPPED = 8  # "if (" and clang-format's continuation indent: where a call goes when broken before

# A layout: its penalty, its breaks after "(" (the fewer win a tie: clang-format's search
# reaches a later break first), its lines.
_Layout = tuple[int, int, list[str]]


def lay_out_call(line: str) -> list[str] | None:
    """`line` as clang-format breaks it if it is one of the calls modelled here, else None.

    clang-format picks the layout of least penalty; for these lines, the few layouts it
    weighs are built here (bin-packed arguments, aligned after the "(" or from the next line;
    a prototype's return type on a line of its own; the label of Check on a line of its own)
    and given the penalties it gives them (`_break`)."""
    if not line.isascii() or _OPERATOR_WORD.search(line):  # wide characters take two columns
        return None
    layouts = [layout for layout in _layouts(line) if all(len(text) <= COLUMN_LIMIT for text in layout[2])]
    layouts.sort(key=lambda layout: layout[:2])
    if not layouts or (len(layouts) > 1 and layouts[0][:2] == layouts[1][:2]):
        return None  # nothing fits, or a tie not modelled
    return layouts[0][2]


def _layouts(line: str) -> list[_Layout]:
    if m := _PROTOTYPE.fullmatch(line):
        params = m["args"].split(", ")
        if not all(_PARAM.fullmatch(param) for param in params):
            return []
        # the name may go on a line of its own: clang-format reads "aclnnStatus" as a name (of
        # type ACLNN_API), and a break after a name costs 110
        own_line = _break(0, 110) + _FIRST_BREAK
        return _call(f"{m['type']} {m['name']}(", params, ");", 1, 4, declaration=True) + [
            (penalty + own_line, breaks, [m["type"], *lines])
            for penalty, breaks, lines in _call(f"{m['name']}(", params, ");", 1, 4, declaration=True)
        ]
    m = _CHECK.fullmatch(line) or _IF_CALL.fullmatch(line)
    if not m or not all(_ARG.fullmatch(arg) for arg in m["args"].split(", ")):
        return []
    pad, args = m["pad"], m["args"].split(", ")
    if m.re is _IF_CALL:
        return _call(f"{pad}if (!{m['name']}(", args, ")) {", 2, len(pad) + _WRAPPED)
    return _checked_call(pad, m["name"], args, m["label"])


def _checked_call(pad: str, name: str, args: list[str], label: str) -> list[_Layout]:
    """`if (!Check(name(args), label)) {`: the call after "Check(" or on the next line, the
    label after it or on a line of its own (a must once the call is broken)."""
    outer = _break(2, 1) + _FIRST_BREAK  # a break among the arguments of Check, after "(" or ","
    layouts = []
    for wrapped in (False, True):
        at = len(pad) + (_WRAPPED if wrapped else len("if (!Check("))
        before = [f"{pad}if (!Check("] if wrapped else []
        head = (" " * at if wrapped else f"{pad}if (!Check(") + name + "("
        for penalty, breaks, lines in _call(head, args, "),", 3, at + 4):
            penalty += outer if wrapped else 0
            layouts.append((penalty + outer, breaks + wrapped, [*before, *lines, f"{' ' * at}{label})) {{"]))
            if len(lines) == 1:
                layouts.append((penalty, breaks + wrapped, [*before, f"{lines[0]} {label})) {{"]))
    return layouts


def _break(depth: int, token: int) -> int:
    """clang-format's penalty for a line break before a token inside `depth` brackets: 20 per
    level it binds at, plus the token's own (1 after a comma). `splitPenalty` in clang's
    TokenAnnotator.cpp; `_FIRST_BREAK` is from ContinuationIndenter::addTokenOnNewLine."""
    return 20 * (depth + 1) + token


def _call(
    head: str, args: list[str], end: str, depth: int, broken_at: int, *, declaration: bool = False
) -> list[_Layout]:
    """The two layouts of the arguments of the call `head` opens (its line up to its "("),
    followed by `end`: on after the "(" and aligned with it, or from the next line at
    `broken_at`; `depth`: the brackets around the arguments."""
    opening = 100 if declaration else 1 if len(args) > 1 else 19  # clang-format's, after this "("
    layouts = []
    for broken in (False, True):
        items = [arg + "," for arg in args[:-1]] + [args[-1] + end]
        lines = _filled(" " * broken_at if broken else head, " " * (broken_at if broken else len(head)), items)
        penalty = (len(lines) - 1) * _break(depth, 1) + (_FIRST_BREAK if len(lines) > 1 else 0)
        if broken:
            layouts.append((penalty + _break(depth, opening) + _FIRST_BREAK, 1, [head, *lines]))
        else:
            layouts.append((penalty, 0, lines))
    return layouts
