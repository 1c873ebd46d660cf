"""`specgen report`: the site of a set of documents, written through one writer.

Documents are chosen as generate chooses them (`Selection.choose`), with its diagnostics.
Each page is made by a worker from its document alone: parsed, trimmed of the functions
another document documents, linted, lowered by codegen and rendered. Files are written
through `codegen.writer` (each staged in full, then renamed into place); a file whose
content is unchanged is not rewritten, and pages of documents no longer there are removed.

Incremental: `SITE/.specgen-cache/report.json` records, per document, the key of its bytes
(with its path, specgen's code and templates and the report's options), its functions,
name and diagnostics, and the hash of the page made from it. A document whose key is
recorded is not parsed again, and its page is not made again while the file on disk still
hashes as recorded. The record is signed with the user's key (as generate signs its own);
one that does not verify is ignored. The site is a function of its inputs: no time, no
absolute path, no order that depends on the file system.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from specgen import parallel
from specgen.codegen import writer
from specgen.codegen.generate import code_digest, signing_key
from specgen.codegen.layout import display_path, template_digest
from specgen.config import LintConfig
from specgen.model import Diagnostic, OperatorDoc
from specgen.parse import SourceError, failed, parse_document, preload, read_source
from specgen.review.lint import configure, lint
from specgen.selection import Resolver, Selection
from specgen.site.pages import index_row, linker, lower, operator_page
from specgen.site.render import render
from specgen.site.views import DiffPage, IndexRow

MARKER = ".specgen-site"  # says a folder is a site specgen wrote (and may rewrite)
PAGES = "ops"
INDEX = "index.html"
DIFF = "diff.html"
RECORD = ".specgen-cache/report.json"
RECORD_FORMAT = "specgen-report 1"
MAX_RECORD = 64 * 2**20


class SiteError(Exception):
    """The output folder cannot take the site."""


@dataclass(frozen=True)
class Options:
    root: Path  # what the site names documents relative to
    url: str | None = None  # a template with {path} and {line} for links to documents
    lint: LintConfig = field(default_factory=LintConfig)
    lint_root: Path = Path(".")  # the configuration's root, for lint's per-file-ignores


@dataclass
class SiteResult:
    documents: int
    pages: int = 0
    written: int = 0
    removed: int = 0
    remade: int = 0  # pages made in this run (the others were current)
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # in generate's order


@dataclass
class _Doc:
    source: str
    key: str
    name: str = ""
    functions: list[tuple[str, int]] = field(default_factory=list)
    diagnostics: list[dict] = field(default_factory=list)
    data: bytes = b""
    model: OperatorDoc | None = None  # when parsed in this run
    readable: bool = True


@dataclass(frozen=True)
class _Job:
    source: str
    data: bytes
    model: OperatorDoc | None
    dropped: frozenset[str]
    page: str
    shown: str
    folder: str
    options: Options


def build_site(
    sources: Sequence[Path],
    out: Path,
    selection: Selection,
    options: Options,
    *,
    review: DiffPage | None = None,
    jobs: int | None = None,
) -> SiteResult:
    """Write the site of the documents `sources` into `out`; `review`: the review page of a
    range, linked from the index."""
    _check_folder(out)
    context = _context(options)
    key, record = _previous(out)
    with parallel.Workers(jobs) as workers:
        docs = _read(sources, context, record.get("docs", {}), workers)
        choice = selection.choose([(d.source, d.functions) for d in docs if d.functions])
        result = SiteResult(len(docs))
        result.diagnostics = [
            (d.source, Diagnostic(**x)) for d in docs if d.source not in choice.set_aside for x in d.diagnostics
        ]
        result.diagnostics += choice.notes
        kept = [d for d in docs if d.source not in choice.set_aside]
        names = page_names([(d.name, d.source) for d in kept])
        resolve = Resolver()
        jobs_ = [
            _Job(
                d.source,
                d.data,
                d.model,
                frozenset(choice.dropped.get(d.source, ())),
                names[d.source],
                display_path(d.source, options.root, resolve),
                str(out / PAGES),
                options,
            )  # fmt: skip
            for d in kept
        ]
        pages = record.get("pages", {})
        made: dict[str, dict] = {}
        todo = []
        for job, doc in zip(jobs_, kept, strict=True):
            page_key = _sha(f"{doc.key}\0{job.page}\0{','.join(sorted(job.dropped))}")
            known = pages.get(page_key)
            if known and _hash_on_disk(out, job.page) == known["hash"]:
                made[job.source] = {**known, "key": page_key}
            else:
                todo.append((page_key, job))
        if todo:
            preload()
        fresh = workers.run(_page, [job for _, job in todo], label="pages", cost=lambda j: len(j.data) or 1)
    contents: dict[str, str] = {}
    for (page_key, job), (html, row, lowering) in zip(todo, fresh, strict=True):
        contents[job.page] = html
        made[job.source] = {"key": page_key, "hash": _sha(html), "row": row, "lowering": lowering}
    result.remade = len(todo)
    result.diagnostics += [(d.source, Diagnostic(**x)) for d in kept for x in made[d.source]["lowering"]]
    rows = sorted((IndexRow(**_row(made[d.source]["row"])) for d in kept), key=lambda r: (r.name.lower(), r.page))
    contents[INDEX] = render("index.html.jinja", rows=rows, documents=len(docs), review=review is not None, root="")
    if review is not None:
        contents[DIFF] = render("diff.html.jinja", page=review, root="")
    contents[MARKER] = "A site written by `specgen report`; it rewrites this folder.\n"
    result.pages = len(rows)
    result.written, result.removed = _write(out, contents, {job.page for job in jobs_})
    if key is not None:
        _save(out, key, docs, made)
    return result


def page_names(docs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each document's page (`docs`: (operator name, source)), `ops/<name>.html`: its name
    made safe for a file name, numbered when two documents share one (in path order)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for name, source in sorted(docs):
        stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name).strip(".") or "operator"
        page, n = stem, 1
        while page.lower() in taken:
            n += 1
            page = f"{stem}-{n}"
        taken.add(page.lower())
        names[source] = f"{PAGES}/{page}.html"
    return names


# ---------------------------------------------------------------- documents and pages


def _context(options: Options) -> str:
    """Everything a page is made from besides its document."""
    lint_options = json.dumps(asdict(options.lint), sort_keys=True, default=str)
    parts = (code_digest(), template_digest(), str(options.root.resolve()), options.url or "", lint_options)
    return _sha("\0".join(parts) + f"\0{options.lint_root.resolve()}")


def _read(sources: Sequence[Path], context: str, recorded: dict, workers: parallel.Workers) -> list[_Doc]:
    """Every document's key; those the record does not hold are parsed (in the workers)."""
    docs, todo = [], []
    for path in sources:
        source = str(path)
        try:
            data = read_source(path)
        except SourceError as exc:
            model = failed(source, str(exc), code=exc.code)
            docs.append(_Doc(source, "", model.name, [], _dumped(model), model=model, readable=False))
            continue
        doc = _Doc(source, _sha(f"{context}\0{source}\0".encode() + data), data=data)
        known = recorded.get(source)
        if known and known["key"] == doc.key:
            doc.name, doc.diagnostics = known["name"], known["diagnostics"]
            doc.functions = [(n, line) for n, line in known["functions"]]
        else:
            todo.append(doc)
        docs.append(doc)
    if todo:
        preload()
    for doc, model in zip(todo, workers.run(_parse, [(d.source, d.data) for d in todo], label="parsing"), strict=True):
        doc.model, doc.name, doc.diagnostics = model, model.name, _dumped(model)
        doc.functions = [(f.name, f.line) for f in model.functions]
    return docs


def _parse(job: tuple[str, bytes]) -> OperatorDoc:
    return parse_document(*job)


def _dumped(doc: OperatorDoc) -> list[dict]:
    return [d.model_dump() for d in doc.diagnostics]


def _page(job: _Job) -> tuple[str, dict, list[dict]]:
    """A document's page, its index row and what lowering it said."""
    doc = job.model or parse_document(job.source, job.data)
    findings = configure(lint([doc]), job.options.lint, job.options.lint_root)
    if job.dropped:  # the functions another document documents are on that one's page
        doc = doc.model_copy(update={"functions": tuple(f for f in doc.functions if f.name not in job.dropped)})
    link = linker(doc.source, job.shown, job.folder, job.options.url)
    lowered = lower(doc, job.shown)
    page = operator_page(doc, job.page, link, lowered, findings)
    html = render("operator.html.jinja", page=page, root="../")
    return html, asdict(index_row(page)), [d.model_dump() for d in lowered.diagnostics]


def _row(data: dict) -> dict:
    return {**data, "functions": tuple(data["functions"])}


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


# ---------------------------------------------------------------- the record


def _previous(out: Path) -> tuple[bytes | None, dict]:
    """The signing key and the previous run's record ({} when there is none or it does not
    verify: the run is a full one)."""
    try:
        key = signing_key(out)
    except (OSError, ValueError):
        return None, {}
    try:
        raw = writer.read_file(out, RECORD, limit=MAX_RECORD)
    except writer.OutputError:
        return key, {}
    if raw is None:
        return key, {}
    header, _, body = raw.partition(b"\n")
    if not hmac.compare_digest(header, f"{RECORD_FORMAT} {_sign(key, body)}".encode()):
        return key, {}
    try:
        record = json.loads(body)
        assert isinstance(record["docs"], dict) and isinstance(record["pages"], dict)
        return key, record
    except (ValueError, KeyError, TypeError, AssertionError):
        return key, {}


def _save(out: Path, key: bytes, docs: list[_Doc], made: dict[str, dict]) -> None:
    record = {
        "docs": {
            d.source: {"key": d.key, "name": d.name, "functions": d.functions, "diagnostics": d.diagnostics}
            for d in docs
            if d.readable
        },
        "pages": {
            m["key"]: {"hash": m["hash"], "row": m["row"], "lowering": m["lowering"]}
            for m in sorted(made.values(), key=lambda m: m["key"])
        },
    }
    body = json.dumps(record, ensure_ascii=False, sort_keys=True).encode("utf-8")
    text = f"{RECORD_FORMAT} {_sign(key, body)}\n{body.decode('utf-8')}"
    if writer.read_file(out, RECORD, limit=MAX_RECORD) != text.encode("utf-8"):
        writer.install(out, {RECORD: text})


def _sign(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def _hash_on_disk(out: Path, page: str) -> str | None:
    try:
        data = writer.read_file(out, page)
    except writer.OutputError:
        return None
    return _sha(data) if data is not None else None


# ---------------------------------------------------------------- writing


def _check_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise SiteError(f"{out} holds files that specgen report did not write; give an empty or new folder")


def _write(out: Path, contents: dict[str, str], pages: set[str]) -> tuple[int, int]:
    """Write what changed (atomically, file by file) and remove the pages not in `pages`:
    (files written, files removed)."""
    changed = {path: text for path, text in contents.items() if writer.read_file(out, path) != text.encode("utf-8")}
    writer.install(out, changed)
    found = sorted((out / PAGES).glob("*.html")) if (out / PAGES).is_dir() else []
    stale = [p for p in found if f"{PAGES}/{p.name}" not in pages]
    for path in stale:
        path.unlink()
    return len(changed), len(stale)
