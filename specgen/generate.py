"""`specgen generate`: documents to the generated tree (parse, group, render, format, write).

Parsing and rendering run on every core. Regeneration is incremental: every document and
every operator has a content key (document bytes and path, specgen's own code, templates,
formatter versions, the display root), and `OUT/.specgen-cache/state.json` records, per
operator, the key its files were made from and their content hashes. An operator whose key
is unchanged and whose files still hash as recorded is not rendered again; anything else is.
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

from specgen import parallel, render, writer
from specgen.formatting import format_sources
from specgen.lower import operator_snake
from specgen.model import Diagnostic, OperatorDoc
from specgen.parse import discover, parse_document

STATE_FILE = Path(".specgen-cache") / "state.json"
STATE_FORMAT = 2
SHARED = ""  # the operator name under which the shared support files are recorded


@dataclass
class GenerateResult:
    documents: int
    plan: writer.Plan
    operators: list[str] = field(default_factory=list)
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # (source, diagnostic)
    rendered: int = 0  # operators rendered this run (the others were current)
    held: list[str] = field(default_factory=list)  # failed operators whose earlier output was kept

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for _, d in self.diagnostics)


def display_root(paths: Sequence[str | Path]) -> Path:
    """Generated files name documents relative to the parent of the first input folder, so
    that the output does not depend on the working directory or the checkout's location."""
    first = Path(paths[0]).resolve()
    return first.parent if first.is_dir() else first.parent.parent


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
) -> GenerateResult:
    code_digest()  # once, before any worker forks
    root = display_root(paths)
    context = _sha(f"{code_digest()}\0{render.template_digest(templates)}\0{root}")
    state = _load_state(out / STATE_FILE) if cache else {}
    docs = _parse(discover(paths), state.get("docs", {}), jobs)
    groups: dict[str, list[_Doc]] = {}
    for doc in sorted(docs, key=lambda d: d.source):
        if doc.snake and doc.ok:
            groups.setdefault(doc.snake, []).append(doc)
    operators = {
        snake: _Operator(snake, _sha(context + "".join(f"\0{d.source}\0{d.key}" for d in members)))
        for snake, members in groups.items()
    }
    operators[SHARED] = _Operator(SHARED, _sha(context + "\0shared"))
    stale = [op for op in operators.values() if not _current(op, state.get("ops", {}).get(op.snake), out)]
    _render(stale, groups, root, templates, jobs)

    files = {path: text for op in stale for path, text in op.files.items()}
    kept = {path for op in operators.values() if op not in stale for path in op.hashes}
    user_files = {path: text for op in stale for path, text in op.user_files.items()}
    user_files_kept = {path for op in operators.values() if op not in stale for path in op.user_paths}
    held = {path: snake for snake in _held(docs, operators.values()) for path in render.operator_paths(snake)}
    plan = writer.plan(out, files, user_files, force=force, kept=kept | user_files_kept, held=set(held))
    if not check:
        writer.apply(plan)
        if cache:
            _save_state(out / STATE_FILE, docs, operators.values())
    diagnostics = [(d.source, Diagnostic(**x)) for d in docs for x in d.diagnostics]
    diagnostics += [(source, Diagnostic(**x)) for op in operators.values() for source, x in op.diagnostics]
    generated = sorted(s for s, op in operators.items() if s != SHARED and (op.files or op.hashes))
    return GenerateResult(
        len(docs), plan, generated, diagnostics, rendered=len(stale), held=sorted({held[p] for p in plan.held})
    )


# ---------------------------------------------------------------- the record of the previous run


def _load_state(path: Path) -> dict:
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # absent or damaged: a full run
    return state if isinstance(state, dict) and state.get("format") == STATE_FORMAT else {}


def _save_state(path: Path, docs: list[_Doc], operators) -> None:
    state = {
        "format": STATE_FORMAT,
        "docs": {d.source: {"key": d.key, "snake": d.snake, "ok": d.ok, "diagnostics": d.diagnostics} for d in docs},
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
        key = _sha(f"{code_digest()}\0{source}\0".encode() + data)
        known = recorded.get(source)
        if known and known.get("key") == key:
            docs.append(_Doc(source, key, known["snake"], known["diagnostics"], known["ok"]))
        else:
            docs.append(_Doc(source, key, None, []))
            todo.append((source, data))
    parsed = dict(zip((s for s, _ in todo), parallel.run(_parse_one, todo, jobs=jobs, label="parsing"), strict=True))
    for doc in docs:
        if doc.source in parsed:
            doc.snake, doc.ok, doc.diagnostics, doc.model = parsed[doc.source]
    return docs


def _parse_one(job: tuple[str, bytes]) -> tuple[str | None, bool, list[dict], str | None]:
    source, data = job
    doc = parse_document(source, data)
    snake = operator_snake(doc) if doc.functions else None
    ok = snake is not None and not doc.has_errors
    return snake, ok, [d.model_dump() for d in doc.diagnostics], doc.model_dump_json() if ok else None


def _held(docs: list[_Doc], operators) -> list[str]:
    """Operators a failing document documents that have no output this run: their previous
    output stays until the document is fixed or removed."""
    produced = {op.snake for op in operators if op.files or op.hashes}
    failed = {d.snake for d in docs if d.snake and not d.ok}
    failed |= {op.snake for op in operators if op.snake != SHARED and op.snake not in produced}
    return sorted(failed - produced)


# ---------------------------------------------------------------- render


def _render(
    stale: list[_Operator], groups: dict[str, list[_Doc]], root: Path, templates: Path | None, jobs: int | None
) -> None:
    """Render and format the stale operators (and shared files); record their hashes."""
    unparsed = [d for op in stale if op.snake != SHARED for d in groups[op.snake] if d.model is None]
    for doc, (*_, model) in zip(
        unparsed,
        parallel.run(_parse_one, [(d.source, Path(d.source).read_bytes()) for d in unparsed], jobs=jobs),
        strict=True,
    ):
        doc.model = model  # unchanged, but needed by an operator another document changed
    operators = [op for op in stale if op.snake != SHARED]
    jobs_in = [([d.model for d in groups[op.snake]], str(root), str(templates or "")) for op in operators]
    for op, (files, user_files, diagnostics) in zip(
        operators, parallel.run(_render_one, jobs_in, jobs=jobs, label="rendering"), strict=True
    ):
        op.files, op.user_files, op.diagnostics = files, user_files, diagnostics
    for op in stale:
        if op.snake == SHARED:
            op.files = render.render_shared(templates)
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


def _render_one(job: tuple[list[str], str, str]) -> tuple[dict, dict, list]:
    models, root, templates = job
    docs = [OperatorDoc.model_validate_json(m) for m in models]
    rendered = render.render_operator(docs, Path(root), Path(templates) if templates else None)
    return rendered.files, rendered.user_files, [(source, d.model_dump()) for source, d in rendered.diagnostics]
