"""`specgen report`: the site written from chosen documents, their lint findings and,
optionally, a review page.

Pages are made in parallel (one job per document) and written through `codegen.writer`
(each file staged in full, then renamed into place); a file whose content is unchanged is
not rewritten, and pages of documents no longer there are removed. The site is a function of
its inputs: no time, no absolute path, no order that depends on the file system.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from specgen import parallel
from specgen.codegen import writer
from specgen.codegen.layout import display_path
from specgen.config import LintConfig
from specgen.model import Diagnostic, OperatorDoc
from specgen.review.findings import Finding
from specgen.review.lint import configure, lint
from specgen.selection import Resolver
from specgen.site.pages import index_row, linker, lower, operator_page
from specgen.site.render import render
from specgen.site.views import DiffPage, IndexRow

MARKER = ".specgen-site"  # says a folder is a site specgen wrote (and may rewrite)
PAGES = "ops"
INDEX = "index.html"
DIFF = "diff.html"


class SiteError(Exception):
    """The output folder cannot take the site."""


@dataclass
class SiteResult:
    pages: int
    written: int = 0
    removed: int = 0
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # found while lowering

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for _, d in self.diagnostics)


@dataclass(frozen=True)
class _Job:
    doc: OperatorDoc
    page: str
    shown: str
    folder: str  # the pages' folder, for links to the document
    url: str | None
    findings: tuple[Finding, ...]


def build_site(
    docs: Sequence[OperatorDoc],
    findings: Sequence[Finding],
    out: Path,
    *,
    root: Path,
    url: str | None = None,
    review: DiffPage | None = None,
    jobs: int | None = None,
) -> SiteResult:
    """Write the site of `docs` (chosen and trimmed as generate chooses) into `out`.

    `root`: what the site names documents relative to; `url`: a template with `{path}` and
    `{line}` for links to documents (default: relative links to the files); `review`: the
    review page of a range, linked from the index."""
    _check_folder(out)
    resolve = Resolver()
    by_doc: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_doc[f.path].append(f)
    names = page_names(docs)
    folder = str(out / PAGES)
    work = [
        _Job(d, names[d.source], display_path(d.source, root, resolve), folder, url, tuple(by_doc.get(d.source, ())))
        for d in docs
    ]
    made = parallel.run(_page, work, jobs=jobs, label="pages")
    rows = sorted((row for _, row, _ in made), key=lambda r: (r.name.lower(), r.page))
    contents = {job.page: html for job, (html, _, _) in zip(work, made, strict=True)}
    contents[INDEX] = render("index.html.jinja", rows=rows, documents=len(docs), review=review is not None, root="")
    if review is not None:
        contents[DIFF] = render("diff.html.jinja", page=review, root="")
    contents[MARKER] = "A site written by `specgen report`; it rewrites this folder.\n"
    lowering = [(job.doc.source, d) for job, (_, _, found) in zip(work, made, strict=True) for d in found]
    result = SiteResult(len(rows), diagnostics=lowering)
    result.written, result.removed = _write(out, contents)
    return result


def lint_findings(
    docs: Sequence[OperatorDoc], options: LintConfig, root: Path, jobs: int | None = None
) -> list[Finding]:
    """What `specgen lint` finds in `docs` (no headers), configured as it configures them;
    each document linted by a worker (lint has no finding that spans documents without headers)."""
    found = parallel.run(_lint_one, list(docs), jobs=jobs, label="linting")
    every = sorted({f for findings in found for f in findings}, key=lambda f: (f.path, f.line, f.rule, f.message))
    return configure(every, options, root)


def _lint_one(doc: OperatorDoc) -> list[Finding]:
    return lint([doc])


def page_names(docs: Sequence[OperatorDoc]) -> dict[str, str]:
    """Each document's page, `ops/<name>.html`: its operator name made safe for a file name,
    numbered when two documents share one (in the order of their paths)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for doc in sorted(docs, key=lambda d: (d.name, d.source)):
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", doc.name).strip(".") or "operator"
        name, n = stem, 1
        while name.lower() in taken:
            n += 1
            name = f"{stem}-{n}"
        taken.add(name.lower())
        names[doc.source] = f"{PAGES}/{name}.html"
    return names


def _page(job: _Job) -> tuple[str, IndexRow, list[Diagnostic]]:
    link = linker(job.doc.source, job.shown, job.folder, job.url)
    lowered = lower(job.doc, job.shown)
    page = operator_page(job.doc, job.page, link, lowered, job.findings)
    return render("operator.html.jinja", page=page, root="../"), index_row(page), lowered.diagnostics


# ---------------------------------------------------------------- writing


def _check_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise SiteError(f"{out} holds files that specgen report did not write; give an empty or new folder")


def _write(out: Path, contents: dict[str, str]) -> tuple[int, int]:
    """Write what changed (atomically, file by file) and remove pages no longer made:
    (files written, files removed)."""
    changed = {path: text for path, text in contents.items() if writer.read_file(out, path) != text.encode("utf-8")}
    writer.install(out, changed)
    stale = (
        sorted(p for p in (out / PAGES).glob("*.html") if f"{PAGES}/{p.name}" not in contents)
        if (out / PAGES).is_dir()
        else []
    )
    for path in stale:
        path.unlink()
    return len(changed), len(stale)
