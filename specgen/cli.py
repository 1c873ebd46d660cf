"""The `specgen` command: a thin layer over plain functions; exit codes are mapped here only.

Exit status: 0 success; 1 the command ran and found something (document errors, a diff at
or above --fail-on, out-of-date output, lint findings); 2 usage or unexpected errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import specgen
from specgen import __version__
from specgen.model import OperatorDoc, json_schema

OK, FOUND, ERROR = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or the environment, reported without a traceback."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return ERROR
    specgen.DEBUG = getattr(args, "debug", False)
    try:
        return args.run(args)
    except UsageError as exc:
        print(f"specgen: error: {exc}", file=sys.stderr)
        return ERROR
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return OK
    except KeyboardInterrupt:
        print("specgen: interrupted", file=sys.stderr)
        return ERROR
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if specgen.DEBUG:
            raise
        print(
            f"specgen: internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)",
            file=sys.stderr,
        )
        return ERROR


def _parser() -> argparse.ArgumentParser:
    # --debug goes before or after the command; SUPPRESS keeps the command's parser from
    # resetting what the top-level one read.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks of internal errors"
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

    p = command("parse", "parse operator documents and print their models")
    p.add_argument("paths", nargs="+", metavar="PATH", help="documents or folders (*.md)")
    p.add_argument("--format", choices=["json", "text"], default="text")
    p.add_argument(
        "--stats",
        action="store_true",
        help="print how much constraint prose and how many error conditions were classified",
    )
    p.set_defaults(run=cmd_parse)

    p = command("generate", "generate headers, samples, bindings and tests from documents")
    p.add_argument("paths", nargs="*", metavar="PATH", default=["specs"], help="documents or folders (default: specs)")
    p.add_argument("-o", "--output", default="generated", help="output folder (default: generated)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 if the output is not current")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("--force", action="store_true", help="write into a folder holding files specgen did not generate")
    p.add_argument("-j", "--jobs", type=int, help="worker processes (default: one per core)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write OUT/.specgen-cache")
    p.set_defaults(run=cmd_generate)

    p = command("diff", "compare two versions of documents: what changed in the API contract")
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW (files or folders); with --git, the folder to compare (default: .)",
    )
    p.add_argument("--git", metavar="BASE[..HEAD]", help="compare git revisions (HEAD omitted: the working tree)")
    p.add_argument("--format", choices=["text", "markdown", "json", "github"], default="text")
    p.add_argument(
        "--fail-on",
        choices=["breaking", "non-breaking", "info"],
        help="exit 1 when a change at or above this severity is present",
    )
    p.set_defaults(run=cmd_diff)

    p = command("lint", "find mistakes in documents: against C headers, inside the document, in its sample")
    p.add_argument("paths", nargs="+", metavar="PATH", help="documents or folders (*.md)")
    p.add_argument("--headers", metavar="DIR", help="a CANN include tree or any folder of aclnn_*.h")
    p.add_argument("--format", choices=["text", "json", "github"], default="text")
    p.add_argument(
        "--fail-on",
        choices=["error", "warning", "info"],
        default="error",
        help="exit 1 when a finding at or above this severity is present (default: error)",
    )
    p.add_argument(
        "--show-suppressed",
        action="store_true",
        help="also show findings silenced by a <!-- specgen-lint: disable=RULE --> comment (they never fail)",
    )
    p.set_defaults(run=cmd_lint)

    p = command("schema", "print the JSON Schema of the operator model")
    p.set_defaults(run=cmd_schema)
    return parser


def _docs_exist(paths: Sequence[str]) -> None:
    from specgen.parse import discover

    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise UsageError(f"no such file or directory: {', '.join(missing)}")
    if not discover(paths):
        raise UsageError(f"no *.md documents under {', '.join(paths)}")


def _docs(paths: Sequence[str]) -> list[OperatorDoc]:
    from specgen.parse import parse_paths

    _docs_exist(paths)
    return parse_paths(paths)


def report_diagnostics(docs: Sequence[OperatorDoc]) -> None:
    for doc in docs:
        for d in doc.diagnostics:
            print(f"{doc.source}:{d.line}: {d.severity}: {d.message} [{d.code}]", file=sys.stderr)


def cmd_parse(args: argparse.Namespace) -> int:
    if args.stats:
        from specgen import coverage

        docs = _docs(args.paths)
        report_diagnostics(docs)
        cov = coverage.coverage(docs)
        if args.format == "json":
            json.dump(coverage.as_json(cov), sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(coverage.report(cov))
        return FOUND if any(d.has_errors for d in docs) else OK
    from specgen import parallel
    from specgen.parse import discover

    _docs_exist(args.paths)
    # Each worker prints its documents; the models never travel back to this process.
    results = parallel.run(_print_one, [(str(p), args.format) for p in discover(args.paths)], label="parsing")
    for _, diagnostics, _ in results:
        sys.stderr.write(diagnostics)
    if args.format == "json":
        sys.stdout.write("[\n" + ",\n".join(textwrap.indent(text, "  ") for text, _, _ in results) + "\n]\n")
    else:
        sys.stdout.write("".join(text for text, _, _ in results))
    return FOUND if any(has_errors for _, _, has_errors in results) else OK


def _print_one(job: tuple[str, str]) -> tuple[str, str, bool]:
    """(the document as printed, its diagnostics as printed, whether it has errors)."""
    from specgen.parse import parse_file

    source, fmt = job
    doc = parse_file(source)
    text = doc.model_dump_json(indent=2) if fmt == "json" else describe(doc)
    diagnostics = "".join(f"{doc.source}:{d.line}: {d.severity}: {d.message} [{d.code}]\n" for d in doc.diagnostics)
    return text, diagnostics, doc.has_errors


def describe(doc: OperatorDoc) -> str:
    """A short human-readable summary of a model."""
    out = [f"{doc.source}: {doc.name}"]
    for fn in doc.functions:
        out.append(f"  {fn.name} (line {fn.line})")
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
    if not doc.functions:
        out.append("  (no API)")
    return "\n".join(out) + "\n"


def cmd_generate(args: argparse.Namespace) -> int:
    from specgen.formatting import FormatterError
    from specgen.generate import generate
    from specgen.render import TemplateFault
    from specgen.writer import OutputError

    _docs_exist(args.paths)
    templates = Path(args.templates) if args.templates else None
    if templates is not None and not templates.is_dir():
        raise UsageError(f"--templates: no such folder: {templates}")
    try:
        result = generate(
            args.paths,
            Path(args.output),
            templates=templates,
            check=args.check,
            force=args.force,
            jobs=args.jobs,
            cache=not args.no_cache,
        )
    except (OutputError, FormatterError, TemplateFault) as exc:
        raise UsageError(str(exc)) from exc
    for source, d in result.diagnostics:
        print(f"{source}:{d.line}: {d.severity}: {d.message} [{d.code}]", file=sys.stderr)
    plan = result.plan
    if args.check:
        for line in plan.changes:
            print(line)
        if not plan.empty:
            print(
                f"specgen: {args.output} is out of date ({len(plan.changes)} changes); "
                f"run `specgen generate {' '.join(args.paths)} -o {args.output}`",
                file=sys.stderr,
            )
            return FOUND
    else:
        print(
            f"specgen: {len(result.operators)} operators from {result.documents} documents; "
            f"{len(plan.write) + len(plan.create)} files written, {len(plan.delete)} removed, "
            f"{plan.unchanged} unchanged",
            file=sys.stderr,
        )
    if result.held:
        print(
            f"specgen: kept the earlier output of {', '.join(result.held)}: fix the errors above to regenerate it",
            file=sys.stderr,
        )
    return FOUND if result.has_errors else OK


def cmd_diff(args: argparse.Namespace) -> int:
    from specgen import diff, report
    from specgen.gitsource import GitError, documents_at, split_range
    from specgen.parse import parse_paths

    if args.git:
        if len(args.paths) > 1:
            raise UsageError("with --git, give at most one folder")
        base, head = split_range(args.git)
        folder = args.paths[0] if args.paths else "."
        try:
            old = documents_at(base, folder)
            new = documents_at(head, folder) if head else parse_paths([folder])
        except GitError as exc:
            raise UsageError(str(exc)) from exc
    else:
        if len(args.paths) != 2:
            raise UsageError("give OLD and NEW (two files or two folders), or --git BASE[..HEAD]")
        _docs_exist(args.paths[:1])
        _docs_exist(args.paths[1:])
        old, new = parse_paths(args.paths[:1]), parse_paths(args.paths[1:])
    changes = diff.diff(old, new)
    items = [report.Item(c.id, c.severity, diff.summary(c), c.new or c.old) for c in changes]
    if args.format == "json":
        sys.stdout.write(report.dumps({"changes": [c.as_json() for c in changes]}))
    elif args.format == "markdown":
        sys.stdout.write(report.markdown(items, f"specgen diff: {len(changes)} changes"))
    elif args.format == "github":
        sys.stdout.write(report.github(items))
    else:
        sys.stdout.write(report.text(items, colour=sys.stdout.isatty()))
    if args.fail_on and any(diff.SEVERITY_ORDER[c.severity] >= diff.SEVERITY_ORDER[args.fail_on] for c in changes):
        return FOUND
    return OK


def cmd_lint(args: argparse.Namespace) -> int:
    from specgen import report
    from specgen.lint import SEVERITY_ORDER, HeadersError, lint

    headers = Path(args.headers) if args.headers else None
    if headers is not None and not headers.is_dir():
        raise UsageError(f"--headers: no such folder: {headers}")
    try:
        found = lint(_docs(args.paths), headers)
    except HeadersError as exc:
        raise UsageError(str(exc)) from None
    findings = [f for f in found if args.show_suppressed or not f.suppressed]
    items = [
        report.Item(f.rule, f.severity, f.message + (" (suppressed)" if f.suppressed else ""), f"{f.path}:{f.line}")
        for f in findings
    ]
    if args.format == "json":
        sys.stdout.write(report.dumps({"findings": [f.as_json() for f in findings]}))
    elif args.format == "github":
        sys.stdout.write(report.github(items))
    else:
        sys.stdout.write(report.text(items, colour=sys.stdout.isatty()))
    bar = SEVERITY_ORDER[args.fail_on]
    return FOUND if any(SEVERITY_ORDER[f.severity] >= bar and not f.suppressed for f in findings) else OK


def cmd_schema(args: argparse.Namespace) -> int:
    json.dump(json_schema(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return OK


if __name__ == "__main__":
    sys.exit(main())
