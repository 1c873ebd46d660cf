"""`specgen generate`: documents to the generated tree (parse, group, render, format, write).

Parsing and rendering run on every core. Regeneration is incremental: every document and
every operator has a content key (document bytes and path, specgen's own code, templates,
formatter versions, and every document path as generated files name it), and
`OUT/.specgen-cache/state.json` records, per operator, the key its files were made from and
their content hashes. An operator whose key is unchanged and whose files still hash as
recorded is not rendered again; anything else is.

The record lies in the output folder, which a pull request can change: it is a hint, never
a truth. It is signed (HMAC-SHA256) with a key kept in the user's cache folder, outside every
output folder, and a record whose signature does not match is ignored with a warning (the run
is a full one). Each statement in it is a fact about its inputs ("documents and code of key K
give files hashing to H, and these diagnostics"), so a signed record stays true wherever it
is found; the files themselves are hashed every run. Document bytes are read once, with a
bounded read; the bytes hashed are the bytes parsed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from specgen import parallel, user_cache_folder
from specgen.codegen import cunits, formatting, layout, writer
from specgen.codegen import package as python_package
from specgen.codegen.names import operator_snake
from specgen.config import PackageConfig
from specgen.diagnostics import Code
from specgen.files import ReadError, read_bounded
from specgen.model import Diagnostic, OperatorDoc, generated_single_phase
from specgen.parse import SourceError, discover, failed, parse_document, preload, read_source
from specgen.selection import Choice, Globs, Resolver, Selection, repository_root
from specgen.text import is_utf8, printable

CACHE = Path(".specgen-cache")
STATE_FILE = CACHE / "state.json"
STATE_FORMAT = 5
STATE_HEADER = f"specgen-state {STATE_FORMAT}"  # then the signature, a newline and the JSON
MAX_STATE = 256 * 2**20  # far above the record of the largest corpus (a few MB)
KEY_FILE = "state.key"  # in $XDG_CACHE_HOME/specgen (default ~/.cache/specgen)
SHARED = ""  # the operator name under which the shared support files are recorded
PACKAGE = "/package"  # ... and the generated package's metadata (no operator has a '/')
SUPPORT = (SHARED, PACKAGE)
# A cache folder says what it is: git ignores it, backup tools skip it (https://bford.info/cachedir/).
CACHE_FILES = {
    ".gitignore": "# Created by specgen: the cache of `specgen generate`, not meant to be committed.\n*\n",
    "CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by specgen.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n",
}


@dataclass
class GenerateResult:
    documents: int
    plan: writer.Plan
    operators: list[str] = field(default_factory=list)
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # (source, diagnostic)
    rendered: int = 0  # operators rendered this run (the others were current)
    held: list[str] = field(default_factory=list)  # failed operators whose earlier output was kept


def display_root(paths: Sequence[str | Path]) -> Path:
    """What generated files name documents relative to, without a configuration: the git
    checkout holding the first input (so that neither its location nor its folder's name
    reaches the output, however it is given: `.`, a subfolder), else the parent of the first
    input folder."""
    first = Path(paths[0]).resolve()
    folder = first if first.is_dir() else first.parent
    return repository_root(folder) or folder.parent


@lru_cache(maxsize=1)
def code_digest() -> str:
    """specgen's own code and the pinned tools it runs: a change in any of them changes output."""
    digest = hashlib.sha256(f"state format {STATE_FORMAT}".encode())
    for path in sorted(Path(__file__).parents[1].rglob("*.py")):  # all of specgen
        digest.update(path.read_bytes())
    for tool in ("ruff", "clang-format", "jinja2", "pydantic", "markdown-it-py", "selectolax", "pycparser"):
        try:
            digest.update(metadata.version(tool).encode())
        except metadata.PackageNotFoundError:
            digest.update(b"?")
    return digest.hexdigest()


def _sha(text: str | bytes) -> str:
    """sha256 of text or bytes (a file name that is not UTF-8 as its bytes)."""
    return hashlib.sha256(text.encode(errors="surrogateescape") if isinstance(text, str) else text).hexdigest()


@dataclass
class _Doc:
    source: str
    key: str
    snake: str | None  # the operator it documents; None when it has no API
    diagnostics: list[dict]
    ok: bool = True  # no errors: its operator is generated from it
    model: bytes | None = None  # the model's JSON, compressed (`_packed`), when parsed in this run
    content: str = ""  # sha256 of its bytes
    data: bytes = b""  # its bytes, read once: the bytes hashed are the bytes parsed
    functions: list[tuple[str, int]] = field(default_factory=list)  # (name, line) of each function
    dropped: list[str] = field(default_factory=list)  # its functions generated from another document
    shown: str = ""  # its path as generated files name it


@dataclass
class _Operator:
    snake: str
    key: str
    files: list[str] = field(default_factory=list)  # paths rendered (and staged) this run
    user_files: list[str] = field(default_factory=list)
    lifted: dict[str, tuple[cunits.Lifted, ...]] = field(default_factory=dict)  # left to format, by path
    hashes: dict[str, str] = field(default_factory=dict)  # path -> sha256 (current ones)
    stamps: dict[str, list[int]] = field(default_factory=dict)  # path -> stamp when its hash was checked
    user_paths: list[str] = field(default_factory=list)
    diagnostics: list = field(default_factory=list)


def generate(
    paths: Sequence[str | Path],
    out: Path,
    *,
    templates: Path | None = None,
    check: bool = False,
    force: bool = False,
    jobs: int | None = None,
    cache: bool = True,
    selection: Selection | None = None,
    root: Path | None = None,
    package: PackageConfig | None = None,
    user_files: Sequence[str] = (),
    ignore: Sequence[str] = (),
    waiting: Callable[[str], None] | None = None,
    sources: Sequence[Path] | None = None,
) -> GenerateResult:
    """`root`: what generated files name documents relative to (the configuration root);
    `user_files`: globs of output files that belong to the user (created once if specgen has
    them, never overwritten, deleted, or counted as foreign); `ignore`: globs of output files
    that are the user's build products (neither drift for --check nor foreign); `waiting`: told when another run
    holds the output folder and this one waits for it; `sources`: the documents `paths` select,
    when the caller has found them already."""
    code_digest()  # once, before any worker forks
    with writer.locked(out, shared=check, waiting=waiting) as since:
        notes = [] if check else _cleaned(out)
        key, state = _previous_run(out, notes) if cache else (None, {})
        with parallel.Workers(jobs) as workers:  # one set for parsing and rendering, started once
            result, docs, operators = _generate(
                paths, sources, out, state, templates=templates, check=check, force=force, workers=workers,
                selection=selection or Selection.default(), root=root or display_root(paths),
                package=package, user_files=user_files, ignore=ignore, since=since,
            )  # fmt: skip
        notes += [(str(out / writer.MANIFEST), _note(Code.MANIFEST_IGNORED, w)) for w in result.plan.warnings]
        if key is not None and not check:
            notes += _save_state(out, key, docs, operators)
    result.diagnostics += notes
    return result


def _generate(
    paths, sources, out: Path, state: dict, *, templates, check, force, workers, selection, root, package, user_files,
    ignore, since: int | None,
) -> tuple[GenerateResult, list[_Doc], list[_Operator]]:  # fmt: skip
    """`since`: the file system's time when this run took the output folder (`writer.locked`)."""
    style = layout.repository_style(out)
    context = _context(templates, user_files, ignore, style)
    found = discover(paths, selection) if sources is None else list(sources)
    docs = _parse(found, state.get("docs", {}), workers, templates)
    choice = selection.choose([(d.source, d.functions) for d in docs if d.functions])
    groups = _groups(docs, choice, selection, root)
    operators = {snake: _Operator(snake, _operator_key(context, members)) for snake, members in groups.items()}
    operators[SHARED] = _Operator(SHARED, _sha(context + "\0shared"))
    metadata = python_package.pyproject(package or PackageConfig())
    operators[PACKAGE] = _Operator(PACKAGE, _sha(context + "\0package\0" + metadata))
    recorded = state.get("ops", {})
    stale = [op for op in operators.values() if not _current(op, recorded.get(op.snake), out, since)]
    with _staging(out, check) as staging:  # each file is written there once, as rendered
        _render(stale, groups, root, templates, workers, metadata, staging)
        workers.close()  # done with them: their memory is freed before formatting and writing
        _format(stale, staging, templates, style)
        owned = Globs(user_files)
        for op in stale:
            _hand_over(op, owned)
        files = [path for op in stale for path in op.files]
        kept = {path for op in operators.values() if op not in stale for path in op.hashes}
        user = [path for op in stale for path in op.user_files]
        user_kept = {path for op in operators.values() if op not in stale for path in op.user_paths}
        held = {path: snake for snake in _held(docs, operators.values()) for path in layout.operator_paths(snake)}
        plan = writer.plan(
            out, staging, files, user, force=force, kept=kept | user_kept, held=set(held), owned=owned,
            ignored=Globs(ignore), check=check,
        )  # fmt: skip
        if not check:
            writer.apply(plan)
    diagnostics: list[tuple[str, Diagnostic]] = [
        (d.source, Diagnostic(**x)) for d in docs if d.source not in choice.set_aside for x in d.diagnostics
    ]
    diagnostics += choice.notes
    diagnostics += [(source, Diagnostic(**x)) for op in operators.values() for source, x in op.diagnostics]
    generated = sorted(s for s, op in operators.items() if s not in SUPPORT and (op.files or op.hashes))
    result = GenerateResult(
        len(docs), plan, generated, diagnostics, rendered=len(stale), held=sorted({held[p] for p in plan.held})
    )
    return result, docs, list(operators.values())


def _context(templates: Path | None, user_files: Sequence[str], ignore: Sequence[str], style: Path | None) -> str:
    """What every operator's key starts from: specgen's code, the templates, the repository's
    C/C++ style, and the settings that change what a run records (which files are the user's,
    which are left alone)."""
    settings = json.dumps([list(user_files), list(ignore)])
    return _sha(f"{code_digest()}\0{layout.template_digest(templates)}\0{_style_digest(style)}\0{settings}")


MAX_STYLE = 1 << 20  # a .clang-format is a few hundred bytes


def _style_digest(style: Path | None) -> str:
    """A repository's C/C++ style as part of the cache key, read as every file a repository
    holds is (`files.read_bounded`: a link to /dev/zero or a FIFO is refused unread)."""
    if style is None:
        return "builtin"
    try:
        return _sha(read_bounded(style, MAX_STYLE))
    except ReadError as exc:
        raise writer.OutputError(f"{printable(str(style))}: the repository's C/C++ style: {exc}") from None


@contextmanager
def _staging(out: Path, check: bool) -> Iterator[Path]:
    """Where the rendered files are written and formatted: the writer's staging folder in the
    output folder, from which they are renamed into place (for --check, which writes nothing
    there, a folder in $TMPDIR)."""
    if check:
        with tempfile.TemporaryDirectory(prefix="specgen-check-") as folder:
            yield Path(folder)
    else:
        with writer.staging_folder(out) as folder:
            yield folder


def _note(code: Code, message: str) -> Diagnostic:
    """A diagnostic about the output folder, not about a line of a document: on line 1."""
    return Diagnostic.at(1, code, message)


def _cleaned(out: Path) -> list[tuple[str, Diagnostic]]:
    """Remove what a killed run left (its staging folder), and say so."""
    removed = writer.clean_leftovers(out, hidden=[str(CACHE)])
    if not removed:
        return []
    message = f"removed what an interrupted run of specgen left: {', '.join(removed[:3])}"
    return [(str(out), _note(Code.LEFTOVER_REMOVED, message))]


def _groups(docs: list[_Doc], choice: Choice, selection: Selection, root: Path) -> dict[str, list[_Doc]]:
    """The documents of each operator, the preferred first; documents set aside left out."""
    groups: dict[str, list[_Doc]] = {}
    resolve = Resolver()
    for doc in sorted(docs, key=lambda d: (selection.rank(d.source), d.source)):
        doc.dropped = sorted(choice.dropped.get(doc.source, ()))
        if doc.snake and doc.ok and doc.source not in choice.set_aside:
            doc.shown = layout.display_path(doc.source, root, resolve)
            groups.setdefault(doc.snake, []).append(doc)
    return groups


def _operator_key(context: str, members: list[_Doc]) -> str:
    """Everything an operator's files are made from: the documents (content, and their paths
    as the output names them) and the functions taken from other documents."""
    parts = (f"\0{d.shown}\0{d.content}\0{','.join(d.dropped)}" for d in members)
    return _sha(context + "".join(parts))


def _hand_over(op: _Operator, owned: Globs) -> None:
    """Files the configuration gives to the user: specgen creates them once, then never
    touches them (nor checks their content for the cache)."""
    mine = [path for path in op.files if owned.match([path])]
    op.files = [path for path in op.files if path not in mine]
    op.user_files += mine
    for path in mine:
        op.hashes.pop(path, None)
    op.user_paths = sorted(set(op.user_paths) | set(op.user_files))


# ---------------------------------------------------------------- the record of the previous run


def signing_key(out: Path) -> bytes:
    """The key records are signed with: random, made on first use, kept in the user's cache
    folder (mode 0600), never in an output folder, where a pull request could read or forge
    it. Raises OSError or ValueError when it cannot be kept."""
    folder = user_cache_folder().resolve()
    if folder.is_relative_to(out.resolve()):
        raise ValueError(f"the key folder {folder} is inside the output folder")
    path = folder / KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        made = folder / f".{KEY_FILE}.{os.getpid()}"
        made.unlink(missing_ok=True)
        fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(secrets.token_bytes(32))
        try:
            os.link(made, path)  # whole or not at all; a run on another folder may have won
        except FileExistsError:
            pass
        finally:
            made.unlink()
    key = path.read_bytes()
    if len(key) != 32:
        raise ValueError(f"{path} is not a key of specgen (remove it: a new one is made)")
    return key


def _previous_run(out: Path, notes: list) -> tuple[bytes | None, dict]:
    """The signing key and the record of the previous run; what is wrong with either is said
    (as a warning on the record) and makes the run a full one."""
    where = str(out / STATE_FILE)
    try:
        key = signing_key(out)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        message = f"no cache: no signing key in {user_cache_folder()} ({reason})"
        notes.append((where, _note(Code.CACHE_OFF, message)))
        return None, {}
    state, problem = _load_state(out, key)
    if problem:
        notes.append((where, _note(Code.CACHE_IGNORED, f"{problem}; ignored: this run is a full one")))
    return key, state


def _load_state(out: Path, key: bytes) -> tuple[dict, str | None]:
    """The record when it is signed with `key` and well formed, else {} and what is wrong."""
    try:
        raw = writer.read_file(out, STATE_FILE.as_posix(), limit=MAX_STATE)
    except writer.OutputError as exc:
        return {}, str(exc)
    if raw is None:
        return {}, None  # none yet (or larger than any record): a full run
    header, _, body = raw.partition(b"\n")
    if not hmac.compare_digest(header, f"{STATE_HEADER} {_sign(key, body)}".encode()):
        return (
            {},
            "the record of the previous run is not signed with this user's key "
            "(edited, copied, or written by another version of specgen)",
        )
    try:
        return _checked_state(json.loads(body)), None
    except (ValueError, TypeError, KeyError, AttributeError):
        return {}, "the record of the previous run is damaged"


def _sign(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def _checked_state(state: dict) -> dict:
    """The record, its shape checked (TypeError, KeyError or ValueError otherwise)."""
    _expect(state["format"] == STATE_FORMAT)
    for doc in state["docs"].values():
        _expect(isinstance(doc["key"], str) and isinstance(doc["ok"], bool))
        _expect(doc["snake"] is None or isinstance(doc["snake"], str))
        _expect(all(isinstance(name, str) and isinstance(line, int) for name, line in doc["functions"]))
        _expect(all(Diagnostic(**d) for d in doc["diagnostics"]))
    for op in state["ops"].values():
        _expect(isinstance(op["key"], str) and all(isinstance(h, str) for h in op["hashes"].values()))
        _expect(all(isinstance(p, str) and writer.clean_relative(p) for p in [*op["hashes"], *op["user_paths"]]))
        _expect(set(op["stamps"]) <= set(op["hashes"]))
        _expect(all(len(s) == 4 and all(type(n) is int for n in s) for s in op["stamps"].values()))
        _expect(all(Diagnostic(**d) for _, d in op["diagnostics"]))
    return state


def _expect(condition: bool) -> None:
    if not condition:
        raise ValueError("unexpected shape")


def _save_state(out: Path, key: bytes, docs: list[_Doc], operators: list[_Operator]) -> list[tuple[str, Diagnostic]]:
    """Record what this run's files were made from; a failure to is said, never fatal: the
    output is written, and the next run is a full one."""
    body = json.dumps(_state(docs, operators), ensure_ascii=False, sort_keys=True).encode()
    files = {(CACHE / name).as_posix(): text for name, text in CACHE_FILES.items()}
    files[STATE_FILE.as_posix()] = f"{STATE_HEADER} {_sign(key, body)}\n{body.decode()}"
    try:
        writer.install(out, {p: t for p, t in files.items() if writer.read_file(out, p, MAX_STATE) != t.encode()})
    except writer.OutputError as exc:
        message = f"the output was written, but its cache was not saved ({exc}); the next run is a full one"
        return [(str(out / STATE_FILE), _note(Code.CACHE_NOT_SAVED, message))]
    return []


def _state(docs: list[_Doc], operators: list[_Operator]) -> dict:
    return {
        "format": STATE_FORMAT,
        "docs": {
            d.source: {
                "key": d.key,
                "snake": d.snake,
                "ok": d.ok,
                "diagnostics": d.diagnostics,
                "functions": d.functions,
            }
            for d in docs
            if is_utf8(d.source)  # one that is not was not read: nothing to record
        },
        "ops": {
            op.snake: {
                "key": op.key,
                "hashes": op.hashes,
                "stamps": op.stamps,
                "user_paths": op.user_paths,
                "diagnostics": op.diagnostics,
            }
            for op in operators
        },
    }


def _current(op: _Operator, recorded: dict | None, out: Path, since: int | None) -> bool:
    """The operator's files were made from the same key and still hold what was written: a
    file is read and hashed unless its stamp is the one recorded when it was last hashed.

    A stamp is recorded only when its mtime is older than `since`, a time of the same file
    system's clock taken before it. A later change to the file then has a later mtime and
    ctime, which no user process can set back; a stamp as recent as `since` could share its
    clock tick (timestamps are coarse, and coarser on some file systems) with a change made
    after it was taken (the "racily clean" case of git)."""
    if not recorded or recorded.get("key") != op.key:
        return False
    stamps = recorded.get("stamps", {})
    checked = {}
    for path, digest in recorded.get("hashes", {}).items():
        try:
            known = stamps.get(path)
            if known is not None and list(writer.stamp(out, path) or ()) == known:
                checked[path] = known  # unchanged since it was last hashed
                continue
            content, stamp = writer.read_stamped(out, path)
        except writer.OutputError:
            return False  # a link or worse where a file was: the writer says so
        if content is None or stamp is None or _sha(content) != digest:
            return False
        if since is not None and stamp[1] < since:
            checked[path] = list(stamp)
    op.hashes, op.stamps, op.user_paths = recorded["hashes"], checked, recorded.get("user_paths", [])
    op.diagnostics = recorded.get("diagnostics", [])
    return True


# ---------------------------------------------------------------- parse


def _preload(templates: Path | None) -> None:
    """Import the parser and the renderer, and compile the templates, before worker processes
    are forked: they share them, where each would do it on its first job. A warm run, which
    needs none of it, does none of it."""
    from specgen.codegen import render

    preload()
    render.load_templates(templates)


def _parse(sources: list[Path], recorded: dict, workers: parallel.Workers, templates: Path | None) -> list[_Doc]:
    """Every document's key; documents whose key the record does not hold are parsed."""
    docs, todo = [], []
    for path in sources:
        source = str(path)
        try:
            data = read_source(path)
        except SourceError as exc:
            docs.append(_unreadable(source, exc))
            continue
        key, content = _sha(f"{code_digest()}\0{source}\0".encode() + data), _sha(data)
        known = recorded.get(source)
        if known and known.get("key") == key:
            functions = [(name, line) for name, line in known["functions"]]
            docs.append(
                _Doc(source, key, known["snake"], known["diagnostics"], known["ok"], None, content, data, functions)
            )
        else:
            docs.append(_Doc(source, key, None, [], content=content, data=data))
            todo.append((source, data))
    if todo:
        _preload(templates)
    found = workers.run(_parse_one, todo, label="parsing", cost=_doc_size)
    parsed = dict(zip((s for s, _ in todo), found, strict=True))
    for doc in docs:
        if doc.source in parsed:
            doc.snake, doc.ok, doc.diagnostics, doc.model, doc.functions = parsed[doc.source]
            doc.data = b""  # parsed: its bytes are not needed again
    return docs


def _unreadable(source: str, exc: SourceError) -> _Doc:
    """A document that could not be read: its error, every run (never recorded as current)."""
    diagnostics = [d.model_dump() for d in failed(source, str(exc), code=exc.code).diagnostics]
    return _Doc(source, _sha(f"unreadable\0{source}\0{exc}"), None, diagnostics, ok=False)


def _parse_one(job: tuple[str, bytes]) -> tuple[str | None, bool, list[dict], bytes | None, list[tuple[str, int]]]:
    source, data = job
    doc = parse_document(source, data)
    # A failing document names its operator even when no prototype could be read (one never
    # closed, say), so that its earlier output is kept rather than deleted.
    generated = (*doc.functions, *generated_single_phase(doc))
    snake = operator_snake(doc) if generated or doc.has_errors else None
    ok = snake is not None and not doc.has_errors
    diagnostics = [d.model_dump() for d in doc.diagnostics]
    functions = [(f.name, f.line) for f in generated]
    return snake, ok, diagnostics, _packed(doc) if ok else None, functions


def _packed(doc: OperatorDoc) -> bytes:
    """The model as this process keeps it until it is rendered: its JSON, compressed (a
    tenth of the size, for a few milliseconds a document) so that the documents of a whole
    repository are held in little memory."""
    return zlib.compress(doc.model_dump_json().encode(), 1)


def _held(docs: list[_Doc], operators) -> list[str]:
    """Operators a failing document documents that have no output this run: their previous
    output stays until the document is fixed or removed."""
    produced = {op.snake for op in operators if op.files or op.hashes}
    failed = {d.snake for d in docs if d.snake and not d.ok}
    failed |= {op.snake for op in operators if op.snake not in SUPPORT and op.snake not in produced}
    return sorted(failed - produced)


# ---------------------------------------------------------------- render


def _render(
    stale: list[_Operator],
    groups: dict[str, list[_Doc]],
    root: Path,
    templates: Path | None,
    workers: parallel.Workers,
    metadata: str,
    staging: Path,
) -> None:
    """Render the stale operators (and the shared files) into the staging folder."""
    if not stale:
        return  # a warm run: Jinja2 is not even imported
    from specgen.codegen import render

    operators = [op for op in stale if op.snake not in SUPPORT]
    if operators:
        _preload(templates)
    unparsed = [d for op in operators for d in groups[op.snake] if d.model is None]
    for doc, (*_, model, _) in zip(
        unparsed, workers.run(_parse_one, [(d.source, d.data) for d in unparsed], cost=_doc_size), strict=True
    ):
        doc.model = model  # unchanged, but needed by an operator another document changed
    where = (str(root), str(templates or ""), str(staging))
    jobs_in = [([(_model(d), d.dropped) for d in groups[op.snake]], *where) for op in operators]
    for op, (files, user_files, lifted, diagnostics) in zip(
        operators, workers.run(_render_one, jobs_in, label="rendering", cost=_models_size), strict=True
    ):
        op.files, op.user_files, op.lifted, op.diagnostics = files, user_files, lifted, diagnostics
    for doc in (d for members in groups.values() for d in members):
        doc.model, doc.data = None, b""  # rendered: freed before the files are formatted and written
    for op in stale:
        if op.snake in SUPPORT:
            support = render.render_shared(templates) if op.snake == SHARED else python_package.files(metadata)
            op.files, _, op.lifted = _staged(staging, support, {}, exact=templates is None)


def _doc_size(job: tuple[str, bytes]) -> int:
    return len(job[1])


def _models_size(job: tuple[list[tuple[bytes, list[str]]], str, str, str]) -> int:
    return sum(len(model) for model, _ in job[0])


def _model(doc: _Doc) -> bytes:
    if doc.model is None:  # parsed above: a bug of specgen's, not of the document
        raise RuntimeError(f"{doc.source} was not parsed")
    return doc.model


def _render_one(job: tuple[list[tuple[bytes, list[str]]], str, str, str]) -> tuple[list, list, dict, list]:
    """One operator's files rendered and staged, in a worker: only their paths, what is left
    to format, and the diagnostics go back (never the text)."""
    from specgen.codegen import render  # imported before the workers were forked (`_preload`)

    models, root, templates, staging = job
    docs = [_without(OperatorDoc.model_validate_json(zlib.decompress(m)), set(dropped)) for m, dropped in models]
    rendered = render.render_operator(docs, Path(root), Path(templates) if templates else None)
    files, user_files, lifted = _staged(Path(staging), rendered.files, rendered.user_files, exact=not templates)
    return files, user_files, lifted, [(source, d.model_dump()) for source, d in rendered.diagnostics]


def _staged(
    staging: Path, files: dict[str, str], user_files: dict[str, str], *, exact: bool
) -> tuple[list[str], list[str], dict[str, tuple[cunits.Lifted, ...]]]:
    """Write rendered files, prepared for formatting, in the staging folder: (their paths,
    the user's files' paths, the lines lifted out of them for clang-format)."""
    lifted = {}
    for path, text in (*files.items(), *user_files.items()):
        prepared, units = formatting.prepare(path, text, exact=exact)
        writer.stage(staging, path, prepared)
        if units:
            lifted[path] = units
    return list(files), list(user_files), lifted


def _format(stale: list[_Operator], staging: Path, templates: Path | None, repository_style: Path | None) -> None:
    """Format the staged files in place; record their hashes. specgen's own templates print
    C++ in clang-format's layout (only long lines are left to it), a user's may not; a
    repository's own `.clang-format` then restyles the C and C++ files whole."""
    paths = [path for op in stale for path in (*op.files, *op.user_files)]
    lifted = {path: units for op in stale for path, units in op.lifted.items()}
    style = layout.template_path("clang-format.yaml", templates)
    formatting.format_staged(staging, paths, lifted, style, exact=templates is None, restyle=repository_style)
    for op in stale:
        op.hashes = {path: _sha((staging / path).read_bytes()) for path in op.files}
        op.user_paths = sorted(op.user_files)
        op.lifted = {}


def _without(doc: OperatorDoc, functions: set[str]) -> OperatorDoc:
    """The document without the functions another (preferred) document gives."""
    if not functions:
        return doc
    kept = {
        "functions": tuple(f for f in doc.functions if f.name not in functions),
        "single_phase": tuple(f for f in doc.single_phase if f.name not in functions),
    }
    return doc.model_copy(update=kept)
