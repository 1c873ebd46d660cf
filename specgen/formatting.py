"""Format generated sources with the pinned formatters, one batch per tool.

ruff formats Python and clang-format C/C++ (style in the templates folder). Both run once
over a temporary copy of every file, so the cost does not grow with a process per file.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

PYTHON_SUFFIXES = (".py",)
C_SUFFIXES = (".h", ".cpp", ".c")
_BATCH = 200  # files per clang-format invocation, well under the argument-length limit


class FormatterError(RuntimeError):
    """A formatter is missing or rejected generated code (a bug in a template)."""


@lru_cache(maxsize=1)
def ruff_binary() -> str:
    try:
        from ruff.__main__ import find_ruff_bin
    except ImportError as exc:
        raise FormatterError("ruff is not installed (pip install specgen installs the pinned version)") from exc
    return str(find_ruff_bin())


@lru_cache(maxsize=1)
def clang_format_binary() -> str:
    try:
        import clang_format
    except ImportError as exc:
        raise FormatterError("clang-format is not installed (pip install specgen installs the pinned version)") from exc
    return str(clang_format.get_executable("clang-format"))


def format_sources(files: Mapping[str, str], style: Path) -> dict[str, str]:
    """The same files, formatted; files of other kinds are returned unchanged."""
    python = [p for p in files if p.endswith(PYTHON_SUFFIXES)]
    c_like = [p for p in files if p.endswith(C_SUFFIXES)]
    if not python and not c_like:
        return dict(files)
    with tempfile.TemporaryDirectory(prefix="specgen-format-") as tmp:
        root = Path(tmp)
        names = {}
        for path in python + c_like:
            # The output's own layout, so that ruff sees the same packages (first-party imports).
            name = root / path
            name.parent.mkdir(parents=True, exist_ok=True)
            name.write_text(files[path], encoding="utf-8")
            names[path] = name
        if python:
            sources = [str(names[p]) for p in python]
            # ruff's defaults, so that `ruff check` / `ruff format --check` pass on the output as is
            ruff = [ruff_binary(), "--isolated", "--no-cache", "--quiet"]
            _run([ruff[0], "check", *ruff[1:], "--select=I", "--fix", *sources])  # import order
            _run([ruff[0], "format", *ruff[1:], *sources])
        for start in range(0, len(c_like), _BATCH):
            batch = c_like[start : start + _BATCH]
            _run([clang_format_binary(), f"--style=file:{style}", "-i", *(str(names[p]) for p in batch)])
        out = dict(files)
        for path, name in names.items():
            out[path] = name.read_text(encoding="utf-8")
        return out


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tool = Path(command[0]).name
        raise FormatterError(f"{tool} failed on generated code: {result.stderr.strip()[:2000]}")
