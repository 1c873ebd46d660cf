"""The `specgen` command: a thin layer over plain functions; exit codes are mapped here only.

Exit status: 0 success; 1 the command ran and found something (document errors, a diff at
or above --fail-on, out-of-date output, lint findings); 2 usage or unexpected errors.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import specgen
from specgen import __version__
from specgen.config import Config, ConfigError
from specgen.config import load as load_config
from specgen.diagnostics import Location
from specgen.model import Diagnostic, OperatorDoc, json_schema
from specgen.review.report import problem_code, terminal_safe
from specgen.review.rules import SEVERITY_ORDER
from specgen.text import escape_unsafe, json_escape, printable

OK, FOUND, ERROR, OUT_OF_DATE = 0, 1, 2, 3


class UsageError(Exception):
    """A problem with the command line or the environment, reported without a traceback."""


class NothingToDo(Exception):
    """Every file given is excluded by the configuration (as when a hook passes them): not an error."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: a usage error (2), or --help / --version (0)
        return exc.code if isinstance(exc.code, int) else ERROR
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return ERROR
    with specgen.debug_mode(getattr(args, "debug", False)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        args.settings = _settings(getattr(args, "config", None))
        STDERR.reset(args, args.settings.ignore)
        return args.run(args)
    except (UsageError, ConfigError) as exc:
        print(terminal_safe(f"specgen: error: {exc}"), file=sys.stderr)
        return ERROR
    except NothingToDo as exc:
        print(printable(f"specgen: {exc}"), file=sys.stderr)
        return OK
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return OK
    except KeyboardInterrupt:
        print("specgen: interrupted", file=sys.stderr)
        return ERROR
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if specgen.debugging():
            raise
        print(
            terminal_safe(f"specgen: internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)"),
            file=sys.stderr,
        )
        return ERROR


def _settings(explicit: str | None) -> Config:
    try:
        settings = load_config(explicit)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    for warning in settings.warnings:
        print(terminal_safe(f"specgen: warning: {warning}"), file=sys.stderr)
    return settings


def _positive(text: str) -> int:
    """-j N: a number of worker processes, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of workers, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more workers, not {value}")
    return value


def _rule_list(text: str) -> tuple[str, ...]:
    return tuple(r.strip() for r in text.split(",") if r.strip())


def _parser() -> argparse.ArgumentParser:
    # --debug and --config go before or after the command; SUPPRESS keeps the command's parser
    # from resetting what the top-level one read.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks of internal errors"
    )
    common.add_argument(
        "-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help="show errors only (no summary)"
    )
    common.add_argument(
        "-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="also show info diagnostics"
    )
    common.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="a specgen.toml or pyproject.toml (default: the nearest one above the working directory)",
    )
    parser = argparse.ArgumentParser(
        prog="specgen",
        parents=[common],
        description="Parse Ascend aclnn operator documents; generate, diff and lint from them.",
    )
    parser.add_argument("--version", action="version", version=f"specgen {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, parents=[common])

    documents = "documents or folders (default: the configuration's paths, else .)"
    p = command("parse", "parse operator documents and print their models")
    p.add_argument("paths", nargs="*", metavar="PATH", help=documents)
    p.add_argument("--format", choices=["json", "text"], default="text")
    p.add_argument(
        "--stats",
        action="store_true",
        help="print how much constraint prose and how many error conditions were classified",
    )
    p.set_defaults(run=cmd_parse)

    p = command("generate", "generate headers, samples, bindings and tests from documents")
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="documents or folders (default: the configuration's, else specs or .)"
    )
    p.add_argument("-o", "--output", help="output folder (default: the configuration's, else generated)")
    p.add_argument(
        "--check", action="store_true", help=f"write nothing; exit {OUT_OF_DATE} if the output is not current"
    )
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("--force", action="store_true", help="write into a folder holding files specgen did not generate")
    p.add_argument("-j", "--jobs", type=_positive, help="worker processes, 1 or more (default: one per core)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write OUT/.specgen-cache")
    p.set_defaults(run=cmd_generate)

    p = command("diff", "compare two versions of documents: what changed in the API contract")
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW (files or folders); with --git, the folder to compare (default: .)",
    )
    p.add_argument(
        "--git",
        metavar="BASE[..HEAD]",
        help="compare git revisions: BASE..HEAD, BASE...HEAD (from the merge base), "
        "or BASE alone (against the working tree)",
    )
    formats = ["text", "markdown", "json", "github", "sarif", "junit", "accept", "html"]
    p.add_argument("--format", choices=formats, default="text")
    p.add_argument(
        "--fail-on",
        choices=["breaking", "non-breaking", "info"],
        help="exit 1 when a change at or above this severity is present and not accepted",
    )
    p.add_argument(
        "--accept", metavar="FILE", action="append", default=[], help="a file of accepted changes (repeatable)"
    )
    p.set_defaults(run=cmd_diff)

    p = command("lint", "find mistakes in documents: against C headers, inside the document, in its sample")
    p.add_argument("paths", nargs="*", metavar="PATH", help=documents)
    p.add_argument("--headers", metavar="DIR", help="a CANN include tree or any folder of aclnn_*.h")
    p.add_argument("--format", choices=["text", "json", "github", "markdown", "sarif", "junit"], default="text")
    p.add_argument(
        "--fail-on",
        choices=["error", "warning", "info"],
        help="exit 1 when a finding at or above this severity is present (default: the configuration's, else error)",
    )
    p.add_argument("--select", type=_rule_list, metavar="RULES", help="only these rules (comma-separated globs)")
    p.add_argument("--ignore", type=_rule_list, metavar="RULES", help="not these rules (comma-separated globs)")
    p.add_argument(
        "--show-suppressed",
        action="store_true",
        help="also show findings silenced by a <!-- specgen-lint: disable=RULE --> comment (they never fail)",
    )
    p.set_defaults(run=cmd_lint)

    p = command("report", "write the operator catalogue (and, with --git, the review report) as a static site")
    p.add_argument("paths", nargs="*", metavar="PATH", help=documents)
    p.add_argument("-o", "--output", default="site", help="the site's folder (default: site)")
    p.add_argument("--git", metavar="BASE[..HEAD]", help="also write the review report of this range (diff.html)")
    p.add_argument(
        "--accept", metavar="FILE", action="append", default=[], help="a file of accepted changes (repeatable)"
    )
    p.add_argument("--source-url", metavar="URL", help="link documents here: {path} and {line} are filled in")
    p.add_argument("-j", "--jobs", type=_positive, help="worker processes, 1 or more (default: one per core)")
    p.set_defaults(run=cmd_report)

    p = command("schema", "print the JSON Schema of the operator model")
    p.set_defaults(run=cmd_schema)
    return parser


# ---------------------------------------------------------------- documents


def _paths(args: argparse.Namespace, fallback: Sequence[str]) -> list[str]:
    """The command's PATHs, else the configuration's, else `fallback`."""
    if args.paths:
        return list(args.paths)
    settings: Config = args.settings
    if settings.paths:
        return [settings.path(p) for p in settings.paths]
    return list(fallback)


def _select(paths: Sequence[str], settings: Config) -> list[Path]:
    """The documents the paths select; an error when there are none (a typo must not pass)."""
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise UsageError(f"no such file or directory: {', '.join(missing)}")
    sources = settings.selection.discover(paths)
    if sources:
        return sources
    if all(os.path.isfile(p) for p in paths):
        raise NothingToDo("nothing to do: every file given is excluded by the configuration")
    raise UsageError(
        f"no operator documents under {', '.join(paths)} (by default aclnn*.md files in docs/ folders; "
        "set include in the configuration to read others)"
    )


@dataclass
class Stderr:
    """The diagnostics a command prints to stderr: at or above its level (-q errors only, by
    default warnings and errors, -v everything) and not ignored by the configuration's
    `ignore`; counted by severity for the closing summary line."""

    level: int = 1
    ignore: tuple[str, ...] = ()
    quiet: bool = False
    counts: Counter = field(default_factory=Counter)
    failing: set[str] = field(default_factory=set)  # documents with an error said (not ignored)

    def reset(self, args: argparse.Namespace, ignore: Sequence[str]) -> None:
        quiet, verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
        self.level, self.quiet = (2 if quiet else 0 if verbose else 1), quiet
        self.ignore, self.counts, self.failing = tuple(ignore), Counter(), set()

    def say(self, source: str, d: Diagnostic) -> None:
        if any(fnmatch.fnmatchcase(c, pattern) for c in (problem_code(d.code), d.code) for pattern in self.ignore):
            return
        self.counts[d.severity] += 1
        if d.severity == "error":
            self.failing.add(source)
        if SEVERITY_ORDER[d.severity] >= self.level:
            print(_diagnostic_line(source, d), end="", file=sys.stderr)

    def summary(self, documents: int, *more: str) -> None:
        """`specgen: 2 errors, 5 warnings in 410 documents; ...` (info counted when hidden)."""
        if self.quiet:
            return
        parts = [_plural(self.counts[s], s) for s in ("error", "warning")]
        hidden = self.counts["info"] if self.level > 0 else 0
        line = f"{', '.join(parts)} in {_plural(documents, 'document')}"
        line += f" ({hidden} info not shown; -v shows them)" if hidden else ""
        print(printable("specgen: " + "; ".join([line, *[m for m in more if m]])), file=sys.stderr)


STDERR = Stderr()


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def say(source: str, d: Diagnostic) -> None:
    STDERR.say(source, d)


def _diagnostic_line(source: str, d: Diagnostic) -> str:
    # Paths and messages quote documents: no escape sequence or bidi control reaches the terminal.
    where = Location(printable(source), d.line)
    return terminal_safe(f"{where}: {d.severity}: {d.message} [{problem_code(d.code)}]") + "\n"


def report_diagnostics(docs: Sequence[OperatorDoc]) -> None:
    for doc in docs:
        for d in doc.diagnostics:
            say(doc.source, d)


def _parsed(sources: Sequence[Path]) -> list[OperatorDoc]:
    from specgen import parallel
    from specgen.parse import parse_file, preload

    preload()
    return parallel.run(parse_file, list(sources), label="parsing")


def chosen(docs: Sequence[OperatorDoc], settings: Config, *, trim: bool, quiet: bool = False) -> list[OperatorDoc]:
    """One document per function, as generate chooses: documents all of whose functions are
    documented by a preferred one are set aside (said once, at info level); with `trim`, the
    functions a kept document shares with a preferred one are left out of its model."""
    choice = settings.selection.choose([(d.source, [(f.name, f.line) for f in d.functions]) for d in docs])
    if not quiet:
        for source, note in choice.notes:
            say(source, note)
    kept = [d for d in docs if d.source not in choice.set_aside]
    if not trim:
        return kept
    return [_without(d, choice.dropped.get(d.source, set())) for d in kept]


def _without(doc: OperatorDoc, functions: set[str]) -> OperatorDoc:
    if not functions:
        return doc
    return doc.model_copy(update={"functions": tuple(f for f in doc.functions if f.name not in functions)})


# ---------------------------------------------------------------- parse


def cmd_parse(args: argparse.Namespace) -> int:
    sources = _select(_paths(args, ["."]), args.settings)
    if args.stats:
        from specgen.review import coverage

        docs = _parsed(sources)
        report_diagnostics(docs)
        cov = coverage.coverage(docs)
        if args.format == "json":
            json.dump(coverage.as_json(cov), sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(coverage.report(cov))
        STDERR.summary(len(docs))
        return FOUND if STDERR.counts["error"] else OK
    from specgen import parallel

    # Each worker prints its documents; the models never travel back to this process.
    fmt = "none" if STDERR.quiet else args.format
    from specgen.parse import preload

    preload()
    results = parallel.run(_print_one, [(str(p), fmt) for p in sources], label="parsing", cost=_file_size)
    for _, diagnostics in results:
        for source, d in diagnostics:
            say(source, d)
    if fmt == "none":
        pass
    elif args.format == "json":
        sys.stdout.write("[\n" + ",\n".join(text for text, _ in results) + "\n]\n")  # indented by the workers
    else:
        sys.stdout.write("".join(text for text, _ in results))
    STDERR.summary(len(results))
    return FOUND if STDERR.counts["error"] else OK


def _file_size(job: tuple[str, str]) -> int:
    try:
        return os.stat(job[0]).st_size
    except OSError:  # reported when the document is read
        return 0


def _print_one(job: tuple[str, str]) -> tuple[str, list[tuple[str, Diagnostic]]]:
    """(the document as printed, its diagnostics): the models never travel back."""
    from specgen.parse import parse_file

    source, fmt = job
    doc = parse_file(source)
    text = "" if fmt == "none" else doc.model_dump_json(indent=2) if fmt == "json" else describe(doc)
    text = escape_unsafe(text, json_escape) if fmt == "json" else terminal_safe(text)  # no escape sequences
    if fmt == "json":  # an element of the printed array; JSON has no blank line to leave alone
        text = "  " + text.replace("\n", "\n  ")
    return text, [(doc.source, d) for d in doc.diagnostics]


def describe(doc: OperatorDoc) -> str:
    """A short human-readable summary of a model."""
    out = [f"{printable(doc.source)}: {doc.name}"]
    for fn in (*doc.functions, *doc.single_phase):
        out.append(f"  {fn.name} (line {fn.line}{', single-phase' if fn in doc.single_phase else ''})")
        for p in fn.params:
            facts = ", ".join(p.dtypes)
            if p.formats:
                facts += f" [{', '.join(p.formats)}]"
            flag = "?" if p.optional else " "
            out.append(f"    {p.direction:<5} {p.c_type:<22} {p.name}{flag} {facts}".rstrip())
        codes: dict[int, int] = {}
        for e in fn.errors:
            codes[e.code] = codes.get(e.code, 0) + 1
        if codes:
            out.append("    errors: " + ", ".join(f"{c} x{n}" for c, n in sorted(codes.items())))
    if not doc.functions and not doc.single_phase:
        out.append("  (no API)")
    return "\n".join(out) + "\n"


def cmd_generate(args: argparse.Namespace) -> int:
    from specgen.codegen.errors import TemplateFault
    from specgen.codegen.formatting import FormatterError
    from specgen.codegen.generate import generate
    from specgen.codegen.writer import OutputError

    settings: Config = args.settings
    paths = _paths(args, ["specs"] if os.path.isdir("specs") else ["."])
    sources = _select(paths, settings)
    output = args.output or (settings.path(settings.output) if settings.output else "generated")
    try:
        result = generate(
            paths,
            Path(output),
            templates=_templates(args, settings),
            check=args.check,
            force=args.force,
            jobs=args.jobs,
            cache=not args.no_cache,
            selection=settings.selection,
            root=settings.root if settings.file else None,
            package=settings.package,
            user_files=settings.user_files,
            ignore=settings.output_ignore,
            waiting=lambda message: print(printable(f"specgen: {message}"), file=sys.stderr),
            sources=sources,
        )
    except (OutputError, FormatterError, TemplateFault) as exc:
        raise UsageError(str(exc)) from exc
    _report_generation(result, args.check, f"specgen generate {' '.join(paths)} -o {output}")
    # --check asks whether the output is current, and fails on drift only: a failing document
    # keeps its operator's earlier output, so errors in documents a change never touched cannot
    # fail it (they are listed; `parse` and `lint` on the changed files fail on them).
    if args.check:
        return OK if result.plan.empty else OUT_OF_DATE
    return FOUND if STDERR.counts["error"] else OK


def _templates(args: argparse.Namespace, settings: Config) -> Path | None:
    chosen_templates = args.templates or (settings.path(settings.templates) if settings.templates else None)
    templates = Path(chosen_templates) if chosen_templates else None
    if templates is not None and not templates.is_dir():
        raise UsageError(f"--templates: no such folder: {templates}")
    return templates


def _report_generation(result, check: bool, command: str) -> None:
    for source, d in result.diagnostics:
        say(source, d)
    plan = result.plan
    failing = sorted(STDERR.failing)
    kept = f"kept the earlier output of {', '.join(result.held)} (fix the errors above to regenerate it)"
    if check:
        for line in plan.changes:
            print(printable(line))
        status = "output current" if plan.empty else f"the output is out of date ({len(plan.changes)} changes)"
        advice = "" if plan.empty else f"run `{command}`"
        if failing and not plan.empty:  # regenerating would not bring a failing document's operator back
            advice += f" after fixing {', '.join(failing[:3])}" + (" and others" if len(failing) > 3 else "")
        STDERR.summary(result.documents, status, advice, kept if result.held else "")
    else:
        written = f"{len(plan.write) + len(plan.create)} files written, {len(plan.delete)} removed"
        done = f"{len(result.operators)} operators; {written}, {plan.unchanged} unchanged"
        STDERR.summary(result.documents, done, kept if result.held else "")


# ---------------------------------------------------------------- diff


def cmd_diff(args: argparse.Namespace) -> int:
    from specgen.review import diff

    settings: Config = args.settings
    changes, documents = _changes(args, settings)
    fail_on = args.fail_on or settings.diff.fail_on
    sys.stdout.write(_diff_report(args.format, changes, fail_on))
    bar = diff.SEVERITY_ORDER[fail_on] if fail_on else None
    failing = [c for c in changes if bar is not None and not c.accepted and diff.SEVERITY_ORDER[c.severity] >= bar]
    _close("change", [c.severity for c in changes if not c.accepted], diff.SEVERITY_ORDER, documents, failing, fail_on)
    return FOUND if failing else OK


def _changes(args: argparse.Namespace, settings: Config) -> tuple[list, int]:
    """The changes between the two sides, those a file of accepted changes lists marked, and
    the number of documents of the new side."""
    from specgen.review import accept, diff

    old, new = _diff_sides(args, settings)
    try:
        entries = accept.load([settings.path(p) for p in settings.diff.accept] + args.accept)
    except accept.AcceptError as exc:
        raise UsageError(str(exc)) from None
    return accept.mark(diff.diff(old, new), entries), len(new)


def _diff_sides(args: argparse.Namespace, settings: Config) -> tuple[list[OperatorDoc], list[OperatorDoc]]:
    """Both versions' documents, one per function on each side, chosen as generate chooses."""
    from specgen.review.gitsource import GitError, documents_between

    if args.git:
        if len(args.paths) > 1:
            raise UsageError("with --git, give at most one folder")
        configured = settings.paths if settings.paths and len(settings.paths) == 1 else None
        folder = args.paths[0] if args.paths else settings.path(configured[0]) if configured else "."
        try:
            old, new = documents_between(args.git, folder, settings.selection)
        except GitError as exc:
            raise UsageError(str(exc)) from exc
    else:
        if len(args.paths) != 2:
            raise UsageError("give OLD and NEW (two files or two folders), or --git BASE[..HEAD]")
        old_sources, new_sources = _select(args.paths[:1], settings), _select(args.paths[1:], settings)
        every = list(dict.fromkeys(old_sources + new_sources))  # `diff . .` parses each file once
        parsed = dict(zip(every, _parsed(every), strict=True))
        old, new = [parsed[p] for p in old_sources], [parsed[p] for p in new_sources]
    return chosen(old, settings, trim=True, quiet=True), chosen(new, settings, trim=True)


def _diff_report(fmt: str, changes: Sequence, fail_on: str | None) -> str:
    from specgen.review import accept, diff, report

    order = diff.SEVERITY_ORDER
    bar = order[fail_on or diff.BREAKING]  # JUnit failures and `accept` entries: breaking by default
    items = [
        report.Item(c.id, c.severity, diff.summary(c), c.new or c.old, "accepted" if c.accepted else None)
        for c in changes
    ]
    if fmt == "json":
        return report.dumps({"changes": [c.as_json() for c in changes]})
    if fmt == "markdown":
        return report.markdown(items, f"specgen diff: {len(changes)} changes", list(reversed(order)))
    if fmt == "github":
        return report.github(items)
    if fmt == "sarif":
        return report.sarif(items, diff.CATALOGUE)
    if fmt == "junit":
        return report.junit("specgen diff", items, [], lambda i: not i.status and order[i.severity] >= bar)
    if fmt == "html":
        from specgen.site.diffpage import diff_html

        return diff_html(changes, f"specgen diff: {len(changes)} changes")
    if fmt == "accept":
        return accept.entries_toml([c for c in changes if not c.accepted and order[c.severity] >= bar])
    return report.text(items, colour=sys.stdout.isatty())


# ---------------------------------------------------------------- lint


def cmd_lint(args: argparse.Namespace) -> int:
    from specgen.review.lint import HeadersError, configure, lint, skipped_note
    from specgen.review.rules import RULES

    settings: Config = args.settings
    configured = settings.lint
    rules = [p for p in settings.ignore if any(fnmatch.fnmatchcase(r, p) for r in RULES)]  # the rest are codes
    ignore = (*(args.ignore or configured.ignore), *rules)
    options = replace(configured, select=args.select or configured.select, ignore=ignore)
    chosen_headers = args.headers or (settings.path(options.headers) if options.headers else None)
    headers = Path(chosen_headers) if chosen_headers else None
    if headers is not None and not headers.is_dir():
        raise UsageError(f"--headers: no such folder: {headers}")
    # Every document, set-aside `experimental/` copies included: a copy is published too.
    paths = _paths(args, ["."])
    docs = _parsed(_select(paths, settings))
    if (note := skipped_note(settings.selection, paths)) and not STDERR.quiet:
        print(f"specgen lint: {note}", file=sys.stderr)
    try:
        found = configure(lint(docs, headers), options, settings.root)
    except (HeadersError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    findings = [f for f in found if args.show_suppressed or not f.suppressed]
    fail_on = args.fail_on or options.fail_on
    bar = SEVERITY_ORDER[fail_on]
    shown = [f for f in findings if args.format != "text" or SEVERITY_ORDER[f.severity] >= STDERR.level]
    sys.stdout.write(_lint_report(args.format, shown, [d.source for d in docs], bar))
    failing = [f for f in findings if SEVERITY_ORDER[f.severity] >= bar and not f.suppressed]
    _close("finding", [f.severity for f in findings if not f.suppressed], SEVERITY_ORDER, len(docs), failing, fail_on)
    return FOUND if failing else OK


def _close(
    noun: str,
    severities: Sequence[str],
    order: Mapping[str, int],
    documents: int,
    failing: Sequence,
    fail_on: str | None,
) -> None:
    """lint's and diff's closing line on stderr: counts by severity (most severe first, in the
    command's `order`), and why the command fails."""
    if STDERR.quiet and not failing:
        return
    tally = sorted(Counter(severities).items(), key=lambda item: -order[item[0]])
    counts = ", ".join(_plural(n, s) if s in ("error", "warning") else f"{n} {s}" for s, n in tally)
    line = f"specgen: {_plural(len(severities), noun)} ({counts or 'none'}) in {_plural(documents, 'document')}"
    if failing:
        line += f"; failing: {len(failing)} at or above {fail_on} (--fail-on {fail_on})"
    print(printable(line), file=sys.stderr)


def _lint_report(fmt: str, findings: Sequence, sources: Sequence[str], bar: int) -> str:
    from specgen.review import report
    from specgen.review.rules import RULES

    items = [
        report.Item(f.rule, f.severity, f.message, f.location, "suppressed" if f.suppressed else None) for f in findings
    ]
    if fmt == "json":
        return report.dumps({"findings": [f.as_json() for f in findings]})
    if fmt == "github":
        return report.github(items)
    if fmt == "markdown":
        title = f"specgen lint: {len(findings)} findings in {len(sources)} documents"
        return report.markdown(items, title, list(reversed(SEVERITY_ORDER)), nothing="No findings.")
    if fmt == "sarif":
        return report.sarif(items, RULES)
    if fmt == "junit":
        fails = lambda i: not i.status and SEVERITY_ORDER[i.severity] >= bar  # noqa: E731 - one use, read in place
        return report.junit("specgen lint", items, sources, fails)
    return report.text(items, colour=sys.stdout.isatty())


# ---------------------------------------------------------------- report


def cmd_report(args: argparse.Namespace) -> int:
    from specgen.codegen.generate import display_root
    from specgen.site.build import Options, SiteError, build_site
    from specgen.site.diffpage import diff_page

    settings: Config = args.settings
    paths = _paths(args, ["."])
    sources = _select(paths, settings)
    review = None
    if args.git:
        args.paths = paths[:1]  # the range is read under the first folder
        changes, _ = _changes(args, settings)
        review = diff_page(changes, f"specgen diff --git {args.git}: {len(changes)} changes", args.source_url)
    root = settings.root if settings.file else display_root(paths)
    options = Options(root=root, url=args.source_url, lint=settings.lint, lint_root=settings.root)
    try:
        result = build_site(sources, Path(args.output), settings.selection, options, review=review, jobs=args.jobs)
    except SiteError as exc:
        raise UsageError(str(exc)) from None
    for source, d in result.diagnostics:
        say(source, d)
    made = f"{result.pages} operator pages in {args.output} ({result.remade} made, the others current)"
    STDERR.summary(result.documents, made, f"{result.written} files written, {result.removed} removed")
    return FOUND if STDERR.counts["error"] else OK


def cmd_schema(args: argparse.Namespace) -> int:
    json.dump(json_schema(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return OK


if __name__ == "__main__":
    sys.exit(main())
