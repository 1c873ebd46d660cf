"""`specgen generate`: documents to the generated tree (parse, group, render, format, write).

Parsing and rendering run on every core. Regeneration is incremental: every document and
every operator has a content key (document bytes and path, specgen's own code, templates,
formatter versions, and every document path as generated files name it), and
`OUT/.specgen-cache/state.json` records, per operator, the key its files were made from and
their content hashes. An operator whose key is unchanged and whose files still hash as
recorded is not rendered again; anything else is.
Nothing is ever served from the record without checking the files themselves, and deleting
the folder only makes the next run a full one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from specgen import package as python_package
from specgen import parallel, render, writer
from specgen.config import PackageConfig
from specgen.formatting import format_sources
from specgen.lower import operator_snake
from specgen.model import Diagnostic, OperatorDoc
from specgen.parse import discover, parse_document
from specgen.report import Note
from specgen.selection import Choice, Globs, Selection

CACHE = Path(".specgen-cache")
STATE_FILE = CACHE / "state.json"
STATE_FORMAT = 3
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
    diagnostics: list[tuple[str, Diagnostic | Note]] = field(default_factory=list)  # (source, diagnostic)
    rendered: int = 0  # operators rendered this run (the others were current)
    held: list[str] = field(default_factory=list)  # failed operators whose earlier output was kept

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for _, d in self.diagnostics)


def display_root(paths: Sequence[str | Path]) -> Path:
    """What generated files name documents relative to, without a configuration: the git
    checkout holding the first input (so that neither its location nor its folder's name
    reaches the output, however it is given: `.`, a subfolder), else the parent of the first
    input folder."""
    first = Path(paths[0]).resolve()
    folder = first if first.is_dir() else first.parent
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder.parent


@lru_cache(maxsize=1)
def code_digest() -> str:
    """specgen's own code and the pinned tools it runs: a change in any of them changes output."""
    digest = hashlib.sha256(f"state format {STATE_FORMAT}".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    for tool in ("ruff", "clang-format", "jinja2", "pydantic", "markdown-it-py", "selectolax", "pycparser"):
        try:
            digest.update(metadata.version(tool).encode())
        except metadata.PackageNotFoundError:
            digest.update(b"?")
    return digest.hexdigest()


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


@dataclass
class _Doc:
    source: str
    key: str
    snake: str | None  # the operator it documents; None when it has no API
    diagnostics: list[dict]
    ok: bool = True  # no errors: its operator is generated from it
    model: str | None = None  # the model's JSON, when parsed in this run
    content: str = ""  # sha256 of its bytes
    functions: list[tuple[str, int]] = field(default_factory=list)  # (name, line) of each function
    dropped: list[str] = field(default_factory=list)  # its functions generated from another document


@dataclass
class _Operator:
    snake: str
    key: str
    files: dict[str, str] = field(default_factory=dict)  # path -> content (rendered this run)
    user_files: dict[str, str] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)  # path -> sha256 (current ones)
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
) -> GenerateResult:
    """`root`: what generated files name documents relative to (the configuration root);
    `user_files`: globs of output files that belong to the user (created once if specgen has
    them, never overwritten, deleted, or counted as foreign)."""
    code_digest()  # once, before any worker forks
    selection = selection or Selection.default()
    root = root or display_root(paths)
    context = _sha(f"{code_digest()}\0{render.template_digest(templates)}")
    state = _load_state(out / STATE_FILE) if cache else {}
    docs = _parse(discover(paths, selection), state.get("docs", {}), jobs)
    choice = selection.choose([(d.source, d.functions) for d in docs if d.functions])
    groups = _groups(docs, choice, selection)
    operators = {snake: _Operator(snake, _operator_key(context, members, root)) for snake, members in groups.items()}
    operators[SHARED] = _Operator(SHARED, _sha(context + "\0shared"))
    metadata = python_package.pyproject(package or PackageConfig(), _documents_digest(groups, root))
    operators[PACKAGE] = _Operator(PACKAGE, _sha(context + "\0package\0" + metadata))
    stale = [op for op in operators.values() if not _current(op, state.get("ops", {}).get(op.snake), out)]
    _render(stale, groups, root, templates, jobs, metadata)
    owned = Globs(user_files)
    for op in stale:
        _hand_over(op, owned)

    files = {path: text for op in stale for path, text in op.files.items()}
    kept = {path for op in operators.values() if op not in stale for path in op.hashes}
    user = {path: text for op in stale for path, text in op.user_files.items()}
    user_kept = {path for op in operators.values() if op not in stale for path in op.user_paths}
    held = {path: snake for snake in _held(docs, operators.values()) for path in render.operator_paths(snake)}
    plan = writer.plan(out, files, user, force=force, kept=kept | user_kept, held=set(held), owned=owned)
    if not check:
        writer.apply(plan)
        if cache:
            _save_state(out / CACHE, docs, operators.values())
    diagnostics = [(d.source, Diagnostic(**x)) for d in docs if d.source not in choice.set_aside for x in d.diagnostics]
    diagnostics += choice.notes
    diagnostics += [(source, Diagnostic(**x)) for op in operators.values() for source, x in op.diagnostics]
    generated = sorted(s for s, op in operators.items() if s not in SUPPORT and (op.files or op.hashes))
    return GenerateResult(
        len(docs), plan, generated, diagnostics, rendered=len(stale), held=sorted({held[p] for p in plan.held})
    )


def _groups(docs: list[_Doc], choice: Choice, selection: Selection) -> dict[str, list[_Doc]]:
    """The documents of each operator, the preferred first; documents set aside left out."""
    groups: dict[str, list[_Doc]] = {}
    for doc in sorted(docs, key=lambda d: (selection.rank(d.source), d.source)):
        doc.dropped = sorted(choice.dropped.get(doc.source, ()))
        if doc.snake and doc.ok and doc.source not in choice.set_aside:
            groups.setdefault(doc.snake, []).append(doc)
    return groups


def _operator_key(context: str, members: list[_Doc], root: Path) -> str:
    """Everything an operator's files are made from: the documents (content, and their paths
    as the output names them) and the functions taken from other documents."""
    parts = (f"\0{render.display_path(d.source, root)}\0{d.content}\0{','.join(d.dropped)}" for d in members)
    return _sha(context + "".join(parts))


def _documents_digest(groups: dict[str, list[_Doc]], root: Path) -> str:
    """The state of the documents generated from, for the package's version."""
    return _sha("".join(f"{render.display_path(d.source, root)}\0{d.content}\0" for g in groups.values() for d in g))


def _hand_over(op: _Operator, owned: Globs) -> None:
    """Files the configuration gives to the user: specgen creates them once, then never
    touches them (nor checks their content for the cache)."""
    mine = [path for path in op.files if owned.match([path])]
    for path in mine:
        op.user_files[path] = op.files.pop(path)
        op.hashes.pop(path, None)
    op.user_paths = sorted(set(op.user_paths) | set(mine))


# ---------------------------------------------------------------- the record of the previous run


def _load_state(path: Path) -> dict:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # absent or damaged: a full run
    return state if isinstance(state, dict) and state.get("format") == STATE_FORMAT else {}


def _save_state(folder: Path, docs: list[_Doc], operators) -> None:
    path = folder / STATE_FILE.name
    for name, text in CACHE_FILES.items():
        if _read_text(folder / name) != text:
            writer.write_atomic(folder / name, text)
    state = {
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
        },
        "ops": {
            op.snake: {"key": op.key, "hashes": op.hashes, "user_paths": op.user_paths, "diagnostics": op.diagnostics}
            for op in operators
        },
    }
    text = json.dumps(state, ensure_ascii=False, sort_keys=True)
    if _read_text(path) != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        writer.write_atomic(path, text, make_parent=False)


def _current(op: _Operator, recorded: dict | None, out: Path) -> bool:
    """The operator's files were made from the same key and still hold what was written."""
    if not recorded or recorded.get("key") != op.key:
        return False
    for path, digest in recorded.get("hashes", {}).items():
        content = _read_bytes(out / path)
        if content is None or _sha(content) != digest:
            return False
    op.hashes, op.user_paths = recorded["hashes"], recorded.get("user_paths", [])
    op.diagnostics = recorded.get("diagnostics", [])
    return True


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _read_text(path: Path) -> str | None:
    content = _read_bytes(path)
    return content.decode("utf-8", errors="replace") if content is not None else None


# ---------------------------------------------------------------- parse


def _parse(sources: list[Path], recorded: dict, jobs: int | None) -> list[_Doc]:
    """Every document's key; documents whose key the record does not hold are parsed."""
    docs, todo = [], []
    for path in sources:
        source, data = str(path), path.read_bytes()
        key, content = _sha(f"{code_digest()}\0{source}\0".encode() + data), _sha(data)
        known = recorded.get(source)
        if known and known.get("key") == key:
            functions = [(name, line) for name, line in known["functions"]]
            docs.append(_Doc(source, key, known["snake"], known["diagnostics"], known["ok"], None, content, functions))
        else:
            docs.append(_Doc(source, key, None, [], content=content))
            todo.append((source, data))
    parsed = dict(zip((s for s, _ in todo), parallel.run(_parse_one, todo, jobs=jobs, label="parsing"), strict=True))
    for doc in docs:
        if doc.source in parsed:
            doc.snake, doc.ok, doc.diagnostics, doc.model, doc.functions = parsed[doc.source]
    return docs


def _parse_one(job: tuple[str, bytes]) -> tuple[str | None, bool, list[dict], str | None, list[tuple[str, int]]]:
    source, data = job
    doc = parse_document(source, data)
    snake = operator_snake(doc) if doc.functions else None
    ok = snake is not None and not doc.has_errors
    diagnostics = [d.model_dump() for d in doc.diagnostics]
    functions = [(f.name, f.line) for f in doc.functions]
    return snake, ok, diagnostics, doc.model_dump_json() if ok else None, functions


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
    jobs: int | None,
    metadata: str,
) -> None:
    """Render and format the stale operators (and shared files); record their hashes."""
    unparsed = [d for op in stale if op.snake not in SUPPORT for d in groups[op.snake] if d.model is None]
    for doc, (*_, model, _) in zip(
        unparsed,
        parallel.run(_parse_one, [(d.source, Path(d.source).read_bytes()) for d in unparsed], jobs=jobs),
        strict=True,
    ):
        doc.model = model  # unchanged, but needed by an operator another document changed
    operators = [op for op in stale if op.snake not in SUPPORT]
    jobs_in = [([(d.model, d.dropped) for d in groups[op.snake]], str(root), str(templates or "")) for op in operators]
    for op, (files, user_files, diagnostics) in zip(
        operators, parallel.run(_render_one, jobs_in, jobs=jobs, label="rendering"), strict=True
    ):
        op.files, op.user_files, op.diagnostics = files, user_files, diagnostics
    for op in stale:
        if op.snake == SHARED:
            op.files = render.render_shared(templates)
        elif op.snake == PACKAGE:
            op.files = python_package.files(metadata)
    if not stale:
        return
    # Output paths are unique across operators: one batch per formatter, laid out as the output.
    formatted = format_sources(
        {p: t for op in stale for p, t in (*op.files.items(), *op.user_files.items())},
        render.template_path("clang-format.yaml", templates),
    )
    for op in stale:
        op.files = {path: formatted[path] for path in op.files}
        op.user_files = {path: formatted[path] for path in op.user_files}
        op.hashes = {path: _sha(text) for path, text in op.files.items()}
        op.user_paths = sorted(op.user_files)


def _render_one(job: tuple[list[tuple[str, list[str]]], str, str]) -> tuple[dict, dict, list]:
    models, root, templates = job
    docs = [_without(OperatorDoc.model_validate_json(m), set(dropped)) for m, dropped in models]
    rendered = render.render_operator(docs, Path(root), Path(templates) if templates else None)
    return rendered.files, rendered.user_files, [(source, d.model_dump()) for source, d in rendered.diagnostics]


def _without(doc: OperatorDoc, functions: set[str]) -> OperatorDoc:
    """The document without the functions another (preferred) document gives."""
    if not functions:
        return doc
    return doc.model_copy(update={"functions": tuple(f for f in doc.functions if f.name not in functions)})
