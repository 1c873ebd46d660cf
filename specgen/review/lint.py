"""`specgen lint`: the documents' own mistakes, against their C headers, themselves and their samples.

Each finding has a stable rule id (`Rule`), a severity, a location and a message saying what
disagrees with what. Header declarations are read with pycparser (`specgen.cdecl`), as the
documents' prototypes are. A finding points at the line that holds the name or value it is
about (the cell, the prototype line of the parameter, the `#include`), found in the source text
from the line the model gives; and a document can silence a finding it knows about with
`<!-- specgen-lint: disable=RULE -->` (see `suppress`).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from specgen.cdecl import PrototypeError, find_prototype_spans, parse_prototype
from specgen.config import LintConfig
from specgen.diagnostics import INFO, WARNING, Code, Location
from specgen.files import ReadError, read_bounded, walk
from specgen.model import Function, OperatorDoc, Param
from specgen.review.findings import Declaration, Finding
from specgen.review.lint_sample import sample_findings
from specgen.review.lint_source import Source, clean_comments
from specgen.review.rules import PROBLEM_CODES, RULES, Rule
from specgen.selection import Globs, relative
from specgen.text import printable

# Parse diagnostics lint reports as they are, under their rule's name.
_DIAGNOSTIC_RULES: dict[str, Rule] = {
    code: PROBLEM_CODES[code]
    for code in (Code.PROTOTYPE_SYNTAX, Code.PROTOTYPE_MISMATCH, Code.CONFLICT_MARKER, Code.DUPLICATE_PARAM)
}


class HeadersError(ValueError):
    """`--headers` names a folder that cannot be the include tree of the linted documents."""


# ---------------------------------------------------------------- headers


_PREPROCESSOR = re.compile(r"^[ \t]*#.*$", re.M)


MAX_HEADER = 16 * 2**20  # far above any header (the largest of CANN's are some 100 KB)


def read_headers(folder: Path) -> tuple[dict[str, Declaration], list[Finding]]:
    """Every `aclnnStatus aclnnXxx(...)` declared in the `aclnn_*.h` files under `folder`.
    Each is read as documents are (`files.read_bounded`: a link to /dev/zero, a FIFO or a huge
    file is refused unread), and in time linear in its size."""
    declared: dict[str, Declaration] = {}
    problems = []
    paths = sorted(
        Path(parent) / name
        for parent, names in walk(str(folder))
        for name in names
        if fnmatch.fnmatchcase(name, "aclnn_*.h")
    )
    if not paths:
        raise HeadersError(f"--headers: no aclnn_*.h file under {folder}")
    for path in paths:
        try:
            text = read_bounded(path, MAX_HEADER).decode("utf-8", errors="replace")
        except ReadError as exc:
            raise HeadersError(f"--headers: {printable(str(path))}: {exc}") from None
        code = _PREPROCESSOR.sub(lambda m: " " * len(m.group(0)), text)
        line, counted = 1, 0  # the spans come in order: count the lines between them only
        for start, end, name in find_prototype_spans(clean_comments(code)):
            line, counted = line + text.count("\n", counted, start), start
            try:
                proto = parse_prototype(code[start:end])
            except PrototypeError as exc:
                where = Location(str(path), line)
                problems.append(Finding(Rule.DOC_PROTOTYPE_SYNTAX, where, f"header declaration: {exc}", name))
                continue
            declared.setdefault(name, Declaration(proto, Location(str(path), line)))
    return declared, problems


def _header_findings(doc: OperatorDoc, src: Source, declared: dict[str, Declaration]) -> Iterable[Finding]:
    for fn in doc.functions:
        phases = [
            (fn.workspace_name, fn.params, fn.line, False),
            (fn.name, fn.execute_params, fn.execute_line or fn.line, True),
        ]
        missing = [name for name, *_ in phases if name not in declared]
        if len(missing) == 2:  # an include tree without this operator: say so once, calmly
            yield Finding(
                Rule.HEADER_FUNCTION_MISSING,
                Location(doc.source, fn.line),
                f"no header declares {fn.workspace_name} or {fn.name}; not compared",
                fn.name,
                level=INFO,
            )
            continue
        for name, params, line, execute in phases:
            if name in missing:
                other = fn.name if name == fn.workspace_name else fn.workspace_name
                yield Finding(
                    Rule.HEADER_FUNCTION_MISSING,
                    Location(doc.source, line),
                    f"{name} is documented but declared in no header ({other} is)",
                    fn.name,
                )
            elif params or not execute:
                yield from _compare_signature(doc, src, fn, name, params, line, declared[name], execute)


def _compare_signature(
    doc: OperatorDoc,
    src: Source,
    fn: Function,
    name: str,
    params: Sequence[Param],
    line: int,
    decl: Declaration,
    execute: bool,
) -> Iterable[Finding]:
    header = [(p.name, p.c_type) for p in decl.prototype.params]
    document = [(p.name, p.c_type) for p in params]
    where = str(decl.location)
    if header == document:
        return
    if len(header) != len(document):
        missing = [n for n, _ in header if n not in {d for d, _ in document}]
        extra = [n for n, _ in document if n not in {h for h, _ in header}]
        detail = (f"; missing {', '.join(missing)}" if missing else "") + (
            f"; extra {', '.join(extra)}" if extra else ""
        )
        message = f"{name} has {len(document)} parameters in the document, {len(header)} in {where}{detail}"
        yield Finding(Rule.HEADER_PARAM_COUNT, Location(doc.source, line), message, fn.name)
        return
    if sorted(header) == sorted(document):
        yield Finding(
            Rule.HEADER_PARAM_ORDER,
            Location(doc.source, line),
            f"{name}: parameters ordered {', '.join(n for n, _ in document)} in the document, "
            f"{', '.join(n for n, _ in header)} in {where}",
            fn.name,
        )
        return
    for param, (h_name, h_type) in zip(params, header, strict=True):
        at = src.prototype_line(line, param.name)
        if param.name != h_name:
            # Names do not reach a C caller; the second phase's are boilerplate.
            yield Finding(
                Rule.HEADER_PARAM_NAME,
                Location(doc.source, at),
                f"{name}: parameter {param.name!r} is {h_name!r} in {where}",
                fn.name,
                param.name,
                level=INFO if execute else None,
            )
        if param.c_type != h_type:
            yield _type_finding(doc.source, at, name, fn.name, param, h_type, where)


def _type_finding(path: str, line: int, name: str, function: str, param: Param, h_type: str, where: str) -> Finding:
    same_base = param.c_type.replace("const ", "") == h_type.replace("const ", "")
    rule = Rule.HEADER_PARAM_CONST if same_base else Rule.HEADER_PARAM_TYPE
    # `const aclrtStream` vs `aclrtStream`: a top-level const on a by-value parameter is not
    # part of the function's type (as `param-qualifier-changed` in the diff catalogue).
    by_value = same_base and "*" not in param.c_type
    # A const the document drops costs a caller nothing (a T* converts to const T*); one it
    # adds makes code written from the document pass a const pointer the header refuses.
    dropped = same_base and h_type.startswith("const ") and not param.c_type.startswith("const ")
    level = INFO if by_value else WARNING if dropped else None
    message = f"{name}: parameter {param.name} is `{param.c_type}` in the document, `{h_type}` in {where}"
    return Finding(rule, Location(path, line), message, function, param.name, level=level)


def _undocumented(docs: Sequence[OperatorDoc], declared: dict[str, Declaration]) -> Iterable[Finding]:
    """Functions of a header that declares a documented function, but documented nowhere.
    Single-phase helpers (aclnnCalculateMatmulWeightSize...) count as documented where a
    document gives their prototype."""
    documented = {name for doc in docs for fn in doc.functions for name in (fn.name, fn.workspace_name)}
    documented |= {name for doc in docs for name in single_phase_functions(doc)}
    headers = {declared[name].location.path for name in documented if name in declared}
    for name, decl in sorted(declared.items()):
        if (
            decl.location.path in headers
            and name not in documented
            and (name.endswith("GetWorkspaceSize") or name + "GetWorkspaceSize" not in declared)
        ):
            yield Finding(
                Rule.HEADER_FUNCTION_UNDOCUMENTED,
                decl.location,
                f"{name} is declared but no linted document documents it",
                name,
            )


_SINGLE_PHASE = re.compile(r"^(aclnn\w+) is not part of a GetWorkspaceSize/execute pair")


def single_phase_functions(doc: OperatorDoc) -> list[str]:
    """Functions the document declares outside a two-phase pair (the parser does not model them)."""
    return [
        m.group(1) for d in doc.diagnostics if d.code == Code.SINGLE_PHASE and (m := _SINGLE_PHASE.match(d.message))
    ]


def _check_headers_fit(docs: Sequence[OperatorDoc], declared: dict[str, Declaration], folder: Path) -> None:
    names = {n for doc in docs for fn in doc.functions for n in (fn.name, fn.workspace_name)}
    if names and not names & declared.keys():
        raise HeadersError(
            f"--headers: the {len(declared)} functions declared under {folder} include none of the "
            f"{len(names)} documented ones; is it the right include tree?"
        )


# ---------------------------------------------------------------- the document itself


def _document_findings(doc: OperatorDoc, src: Source) -> Iterable[Finding]:
    for d in doc.diagnostics:
        if (rule := _DIAGNOSTIC_RULES.get(d.code)) is not None:
            yield Finding(rule, Location(doc.source, d.line), d.message)
    if any(d.code == Code.NO_API for d in doc.diagnostics) and not single_phase_functions(doc):
        yield Finding(
            Rule.DOC_NO_API, Location(doc.source, 1), "no API found: no `aclnnStatus aclnnXxx(...)` prototype"
        )
    fences = src.fence_findings(doc)
    yield from fences
    for fn in doc.functions:
        yield from _parameter_names(doc, src, fn, hidden_by_fence=bool(fences))
        yield from _dtype_contradictions(doc, src, fn)
        yield from _error_typos(doc, src, fn)
        for p in fn.params:
            if _looks_written(p, fn):
                yield Finding(
                    Rule.DOC_DIRECTION_CONST,
                    Location(doc.source, src.name_line(p.line, p.name)),
                    f"{fn.workspace_name}: {p.name} is documented as an input, but its name marks an output "
                    f"and its type `{p.c_type}` is not const",
                    fn.name,
                    p.name,
                )


# `yOut`, `out`: outputs by name; `gradOut(put)` is the incoming gradient, an input.
_OUTPUT_NAME = re.compile(r"^(?!grad)(?:out|output|\w+Out|\w+Output)$")


def _looks_written(p: Param, fn: Function) -> bool:
    """A writable tensor documented as an input whose name says it is an output. A const output
    is the API's habit (a header mismatch is `header-param-const`); an input that is merely
    not const says nothing about the document."""
    if p.c_type not in ("aclTensor*", "aclTensorList*"):
        return False
    writable = p.name.endswith("Ref") or "Inplace" in fn.name
    return p.direction == "in" and not writable and bool(_OUTPUT_NAME.search(p.name))


_UNKNOWN = re.compile(r"^(\w+): documented parameter (\w+) is not in the prototype")


def _parameter_names(doc: OperatorDoc, src: Source, fn: Function, hidden_by_fence: bool) -> Iterable[Finding]:
    """Documented names against the prototype's, per phase. A table that spells a name
    differently (`predictedLogits` for `predictedLogitsOut`) is one finding, not two."""
    unknown = [
        (m.group(1), m.group(2), d.line)
        for d in doc.diagnostics
        if d.code == Code.UNKNOWN_PARAM and (m := _UNKNOWN.match(d.message))
    ]
    first_names = {p.name for p in fn.params}
    for phase, params, line in (
        (fn.workspace_name, fn.params, fn.line),
        (fn.name, fn.execute_params, fn.execute_line or fn.line),
    ):
        documented_here = [(name, at) for owner, name, at in unknown if owner == phase]
        missing = [p for p in params if not p.documented]
        if phase == fn.name and len(missing) == len(params):
            continue  # the second phase is often not documented at all: boilerplate
        if hidden_by_fence and len(missing) == len(params):
            continue  # a broken fence swallowed the section: that fence is the finding
        yield from _name_findings(doc, src, fn, phase, line, missing, documented_here, first_names)


def _name_findings(doc, src, fn, phase, line, missing, documented_here, first_names) -> Iterable[Finding]:
    paired = set()
    for name, at in documented_here:
        match = next((p for p in missing if p.name not in paired and similar_names(name, p.name)), None)
        if match is not None:
            paired.add(match.name)
            message = f"{phase}: the prototype's parameter {match.name} is documented as {name}"
        else:
            message = f"{phase}: documented parameter {name} is not in the prototype"
        yield Finding(Rule.DOC_PARAM_UNKNOWN, Location(doc.source, src.name_line(at, name)), message, fn.name, name)
    rest = [p for p in missing if p.name not in paired]
    if len(rest) > 2 and len(rest) == len(fn.params) and phase == fn.workspace_name:
        yield Finding(
            Rule.DOC_PARAM_UNDOCUMENTED,
            Location(doc.source, line),
            f"{phase}: none of its {len(rest)} parameters is documented",
            fn.name,
        )
        return
    for p in rest:
        alias = next((n for n in first_names if n != p.name and _squash(n) == _squash(p.name)), None)
        hint = f" (the document writes {alias})" if alias and phase == fn.name else ""
        yield Finding(
            Rule.DOC_PARAM_UNDOCUMENTED,
            Location(doc.source, src.prototype_line(line, p.name)),
            f"{phase}: parameter {p.name} is in the prototype but not documented{hint}",
            fn.name,
            p.name,
        )


def _squash(name: str) -> str:
    return name.replace("_", "").lower()


def similar_names(a: str, b: str) -> bool:
    """Two spellings of one parameter: case or underscores, a suffix added or dropped, a typo."""
    if _squash(a) == _squash(b):
        return True
    short, long = sorted((a, b), key=len)
    if long.startswith(short) and len(short) >= 3:
        return True
    return min(len(a), len(b)) >= 6 and edit_distance(a, b) <= 2


MAX_NAME = 64  # longer "names" are damage; comparing them letter by letter costs quadratic time


def edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment): a swapped pair of letters counts once."""
    if len(a) > MAX_NAME or len(b) > MAX_NAME or abs(len(a) - len(b)) > 2:
        return max(abs(len(a) - len(b)), 3)  # only distances up to 2 matter here
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


# ---------------------------------------------------------------- dtype lists


_DTYPE_WORDS = re.compile(r"数据类型|dtype", re.I)
# A conditional or derived statement (默认, 若, 当, 推导...) is not a plain same-dtype rule.
_CONDITIONAL = re.compile(r"默认|若|当|如果|时|推导|可以|可与|或|除")


def _dtype_contradictions(doc: OperatorDoc, src: Source, fn: Function) -> Iterable[Finding]:
    reported = set()
    for p in fn.params:
        for c in p.of_kind("same_dtype"):
            if not _DTYPE_WORDS.search(c.text) or _CONDITIONAL.search(c.text):
                continue
            for peer_name in c.params:
                peer = fn.param(peer_name)
                pair = frozenset((p.name, peer_name))
                if peer is None or not p.dtypes or not peer.dtypes or pair in reported:
                    continue
                mine, theirs = set(p.dtypes), set(peer.dtypes)
                if mine <= theirs or theirs <= mine:
                    continue  # one list is a narrower restriction of the other: both can hold
                reported.add(pair)
                yield Finding(
                    Rule.DOC_DTYPE_CONTRADICTION,
                    Location(doc.source, src.text_line(c.line, c.text)),
                    f"{p.name} and {peer_name} must share a dtype, but {p.name} lists "
                    f"{', '.join(p.dtypes)} and {peer_name} lists {', '.join(peer.dtypes)}",
                    fn.name,
                    p.name,
                )


# ---------------------------------------------------------------- names in error rules


# ASCII boundaries: in `传入的self、alpha` the Chinese letters around a name are \w too.
_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_(])")
# Suffixes CANN parameter names carry: `keyIn` for a parameter `key` is a name, misspelt.
_NAME_SUFFIXES = ("In", "Out", "Ref", "Optional", "Input", "Output")


def _error_typos(doc: OperatorDoc, src: Source, fn: Function) -> Iterable[Finding]:
    names = {p.name for f in doc.functions for p in (*f.params, *f.execute_params)}
    reported = set()
    for rule in fn.errors:
        for word in dict.fromkeys(_IDENTIFIER.findall(rule.condition)):
            right = misspelt_parameter(word, names)
            if right is None or word in reported:
                continue
            reported.add(word)
            yield Finding(
                Rule.DOC_ERROR_UNKNOWN_NAME,
                Location(doc.source, src.name_line(rule.line, word)),
                f"error condition names {word!r}, which is no parameter; {right!r} is",
                fn.name,
                right,
            )


def misspelt_parameter(word: str, names: set[str]) -> str | None:
    """The parameter `word` misspells, or None for a parameter, a plain word ("tensor", "repeat"),
    a constant, a shorthand (`x1Scale` for `x1ScaleOptional`) or a component (`paddingH`)."""
    if word in names or word.isupper() or word.startswith(("acl", "ACL")) or not 3 <= len(word) <= MAX_NAME:
        return None
    if word[0].isupper() and word[1:].islower():
        return None  # `Tensor`, `Shape`: a word starting a clause
    if any(n.startswith(word) or _component(word, n) for n in names):
        return None
    case_only = [n for n in names if n.lower() == word.lower()]
    if case_only:
        return case_only[0]
    if word.islower() and "_" not in word and not any(ch.isdigit() for ch in word):
        return _lowercase_typo(word, names)
    suffixed = [n for n in names if any(word == n + s for s in _NAME_SUFFIXES)]
    if len(suffixed) == 1:
        return suffixed[0]
    close = [n for n in names if len(n) >= 6 and edit_distance(word, n) <= 2 and not _differs_in_digits(word, n)]
    return close[0] if len(close) == 1 else None


# Words of the documents' prose that sit one letter from a parameter name somewhere.
_PLAIN_WORDS = frozenset(
    "float double int bool true false shape dtype format tensor scalar input output inputs outputs "
    "mode axis axes dim dims size sizes value values index indices none null nullptr sum mean max min".split()
)


def _lowercase_typo(word: str, names: set[str]) -> str | None:
    """`alphaa` for `alpha`: one letter off a lowercase name; not `tensor` (for `tensors`), not
    an English word of the prose, not a plural of the name."""
    if len(word) < 5 or word in _PLAIN_WORDS:
        return None
    close = [n for n in names if n.islower() and word not in (n + "s", n + "es") and edit_distance(word, n) == 1]
    return close[0] if len(close) == 1 else None


def _component(word: str, name: str) -> bool:
    """`paddingH` (of `paddings`), `kernelSize0`: one axis or element of parameter `name`."""
    stem = re.sub(r"(?<=[a-z])(?:[A-Z]|\d{1,2})$", "", word)
    return stem != word and len(stem) >= 3 and name.startswith(stem)


def _differs_in_digits(a: str, b: str) -> bool:
    """`x1Scale` vs `x2Scale`: numbered siblings, not a typo of each other."""
    return re.sub(r"\d", "#", a) == re.sub(r"\d", "#", b)


# ---------------------------------------------------------------- entry point


def lint(docs: Sequence[OperatorDoc], headers: Path | None = None) -> list[Finding]:
    """Every finding, suppressed ones included (`Finding.suppressed`); sorted by place."""
    declared = None
    findings: list[Finding] = []
    if headers is not None:
        declared, problems = read_headers(headers)
        _check_headers_fit(docs, declared, headers)
        findings += problems
    for doc in docs:
        src = Source.of(doc.source)
        mine = list(_document_findings(doc, src))
        if declared is not None:
            mine += _header_findings(doc, src, declared)
        for sample in doc.samples:
            mine += sample_findings(doc, sample, src, declared)
        findings += suppress(_once_per_parameter(mine), src)
    if declared is not None:
        findings += _undocumented(docs, declared)
    return sorted(set(findings), key=lambda f: (f.path, f.line, f.rule, f.message))


def _once_per_parameter(findings: list[Finding]) -> list[Finding]:
    """A direction slip seen twice (by its name and by the sample) is one finding."""
    seen, out = set(), []
    for f in findings:
        key = (f.rule, f.function, f.param)
        if f.rule == Rule.DOC_DIRECTION_CONST and key in seen:
            continue
        seen.add(key)
        out.append(f)
    return out


def suppress(findings: Iterable[Finding], src: Source) -> list[Finding]:
    """Mark the findings a `<!-- specgen-lint: disable=RULE -->` comment of the document covers."""
    return [replace(f, suppressed=True) if src.disables(f.rule, f.line) else f for f in findings]


# ---------------------------------------------------------------- configuration


def configure(findings: Iterable[Finding], options: LintConfig, root: Path) -> list[Finding]:
    """Findings as the configuration (`[tool.specgen.review.lint]`) wants them: rules not selected or
    ignored are dropped, severities overridden, and per-file ignores mark findings suppressed
    (shown with --show-suppressed, never failing), as an in-document comment would."""
    _check_rule_names(options)
    files = [(Globs([glob]), rules) for glob, rules in options.per_file_ignores.items()]
    out = []
    for f in findings:
        if not _names_rule(options.select, f.rule) or _names_rule(options.ignore, f.rule):
            continue
        level = next((s for pattern, s in options.severity.items() if fnmatch.fnmatchcase(f.rule, pattern)), None)
        if level is not None:
            f = replace(f, level=level)
        paths = _path_forms(f.path, root)
        if any(globs.match(paths) and _names_rule(rules, f.rule) for globs, rules in files):
            f = replace(f, suppressed=True)
        out.append(f)
    return out


def _names_rule(patterns: Iterable[str], rule: str) -> bool:
    return any(p == "all" or fnmatch.fnmatchcase(rule, p) for p in patterns)


def _check_rule_names(options: LintConfig) -> None:
    """A rule name that matches no rule is a typo: say so rather than silently select nothing."""
    named = [*options.select, *options.ignore, *options.severity]
    named += [r for rules in options.per_file_ignores.values() for r in rules]
    unknown = sorted({n for n in named if n != "all" and not any(fnmatch.fnmatchcase(r, n) for r in RULES)})
    if unknown:
        raise ValueError(f"lint configuration: no rule matches {', '.join(unknown)} (rules: {', '.join(RULES)})")


def _path_forms(path: str, root: Path) -> list[str]:
    """The finding's path as written and relative to the configuration root."""
    return [f for f in (Path(path).as_posix().removeprefix("./"), relative(Path(path).resolve(), root.resolve())) if f]
