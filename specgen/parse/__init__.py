"""Documents to models: `parse_paths(paths)` is the entry point of every command."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import specgen
from specgen.diagnostics import Code
from specgen.files import ReadError, read_bounded
from specgen.model import Diagnostic, OperatorDoc
from specgen.selection import Selection
from specgen.text import is_utf8

__all__ = ["SourceError", "discover", "parse_document", "parse_file", "parse_paths", "preload", "read_source"]


def discover(paths: Iterable[str | Path], selection: Selection | None = None) -> list[Path]:
    """Operator documents named or found (recursively) under the given paths, in stable order.

    Which files under a folder are documents is the selection's business (by default
    `aclnn*.md` in `docs/` folders, see `specgen.selection`); files named explicitly are read."""
    return (selection or Selection.default()).discover(paths)


# The largest real document is about 90 KB; reading far more only costs time.
MAX_DOCUMENT = 2 * 1024 * 1024


class SourceError(Exception):
    """A document that cannot be read (missing, not a regular file, too large)."""

    def __init__(self, message: str, code: Code = Code.UNREADABLE) -> None:
        super().__init__(message)
        self.code = code


def too_large(size: str) -> SourceError:
    return SourceError(
        f"the file is {size}: expected an operator document of at most {MAX_DOCUMENT // 2**20} MiB; not read",
        code=Code.TOO_LARGE,
    )


def read_source(path: str | Path) -> bytes:
    """A document's bytes, of which never more than MAX_DOCUMENT are read: the size is checked
    before the first byte (stat, then a bounded read), so that a huge file, a device or a FIFO
    given as a document (or behind a link) costs nothing. A file whose name is not UTF-8 is
    not read: no output could name it. Raises SourceError."""
    if not is_utf8(str(path)):
        raise SourceError("the file name is not UTF-8; not read (rename it)")
    try:
        return read_bounded(path, MAX_DOCUMENT)
    except ReadError as exc:
        if exc.too_large:
            raise too_large(str(exc)) from None
        raise SourceError(str(exc)) from None


def parse_document(path: str, data: bytes) -> OperatorDoc:
    """One document to its model. Never raises: a bug of specgen's met on this document
    becomes an error diagnostic on it, and the other documents are still read."""
    from specgen.parse.build import read_document  # the parser, imported when first needed

    if len(data) > MAX_DOCUMENT:
        return failed(path, str(too_large(f"{len(data) / 2**20:.1f} MiB")), code=Code.TOO_LARGE)
    try:
        return read_document(path, data)
    except Exception as exc:  # noqa: BLE001 - one document must not stop the others
        if specgen.debugging():
            raise
        return failed(path, specgen.internal_error_message(exc, "reading"), code=Code.INTERNAL_ERROR)


def preload() -> None:
    """Import the parser now, before worker processes are forked: they share it, where each
    would import it on its first document. A command that parses nothing (a warm `generate`)
    never imports it."""
    import specgen.parse.build  # noqa: F401


def parse_file(path: str | Path) -> OperatorDoc:
    try:
        data = read_source(path)
    except SourceError as exc:
        return failed(str(path), str(exc), code=exc.code)
    return parse_document(str(path), data)


def failed(source: str, message: str, code: Code = Code.UNREADABLE) -> OperatorDoc:
    """The model of a document that could not be read at all. A name that is not UTF-8 is
    kept with its other bytes as `\\xff` (no output, JSON least of all, can hold them raw)."""
    from specgen.text import plain

    if not is_utf8(source):
        source = os.fsencode(source).decode("utf-8", errors="backslashreplace")
    return OperatorDoc(
        source=source,
        name=plain(Path(source).stem) or "?",
        diagnostics=(Diagnostic.at(1, code, message, "error"),),
    )


def parse_paths(
    paths: Iterable[str | Path], jobs: int | None = None, selection: Selection | None = None
) -> list[OperatorDoc]:
    """Every document under `paths`, parsed on up to `jobs` processes, in discovery order."""
    from specgen import parallel

    preload()
    return parallel.run(parse_file, discover(paths, selection), jobs=jobs, label="parsing")
