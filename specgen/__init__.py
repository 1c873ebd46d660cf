"""specgen: operator documents to models, code, diffs and lint findings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__version__ = "0.2.0"

# `specgen --debug` or SPECGEN_DEBUG=1: internal errors met on one document are raised with
# their traceback instead of being reported as a located error on that document. An
# environment variable, so that worker processes see it however they are started.
DEBUG_VARIABLE = "SPECGEN_DEBUG"


def user_cache_folder() -> Path:
    """specgen's folder in the user's cache ($XDG_CACHE_HOME/specgen, else ~/.cache/specgen):
    the signing key of the output records, the compiled templates. A relative XDG_CACHE_HOME
    is ignored, as the XDG rules say (it would name a folder of the checkout, where a pull
    request could commit a key)."""
    value = os.environ.get("XDG_CACHE_HOME", "")
    return Path(value if os.path.isabs(value) else Path.home() / ".cache") / "specgen"


def debugging() -> bool:
    return os.environ.get(DEBUG_VARIABLE) == "1"


@contextmanager
def debug_mode(on: bool) -> Iterator[None]:
    """Debugging for the duration of one command (when `on`), as it was afterwards."""
    before = os.environ.get(DEBUG_VARIABLE)
    if on:
        os.environ[DEBUG_VARIABLE] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(DEBUG_VARIABLE, None)
        else:
            os.environ[DEBUG_VARIABLE] = before


def internal_error_message(exc: BaseException, doing: str) -> str:
    """One line for a bug of specgen's met on one document (the traceback is for --debug)."""
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())
    detail = detail if len(detail) <= 300 else detail[:300] + "..."
    return f"internal error while {doing} this document ({detail}); please report it with the document"
