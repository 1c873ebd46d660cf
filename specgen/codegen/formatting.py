"""Format generated sources with the pinned formatters, one batch per tool.

ruff formats Python and clang-format C/C++ (style in the templates folder). Files are
formatted where they are staged (the writer's staging folder, at their paths in the output,
so that ruff sees the same packages), in place: each file is written once by the process that
rendered it (`prepare` first), and the formatters run once over all of them, so that the cost
does not grow with a process per file and no process holds every file's text.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

from specgen.codegen import braced, cunits

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
        raise FormatterError("ruff is not installed (pip install aclnn-specgen installs it)") from exc
    return str(find_ruff_bin())


@lru_cache(maxsize=1)
def clang_format_binary() -> str:
    try:
        import clang_format
    except ImportError as exc:
        raise FormatterError("clang-format is not installed (pip install aclnn-specgen installs it)") from exc
    return str(clang_format.get_executable("clang-format"))


def prepare(path: str, text: str, *, exact: bool) -> tuple[str, tuple[cunits.Lifted, ...]]:
    """A rendered file made ready to stage, and what is left for `format_staged`: C and C++
    get their long data lists laid out (`braced`); from specgen's own templates (`exact`:
    already in clang-format's layout wherever a line fits), their long lines are lifted out
    (`cunits`), to be laid out by one clang-format run over all files. Other files are as
    they were."""
    if not path.endswith(C_SUFFIXES):
        return text, ()
    text = braced.lay_out_lists(text)
    return cunits.lift(text) if exact else (text, ())


def format_staged(
    folder: Path,
    paths: list[str],
    lifted: Mapping[str, tuple[cunits.Lifted, ...]],
    style: Path,
    *,
    exact: bool,
    restyle: Path | None = None,
) -> None:
    """Format the prepared files at `paths` under `folder`, in place: ruff on the Python;
    the lifted lines laid out and put back (`exact`), or else clang-format on whole files;
    then, with `restyle` (a repository's own style file), clang-format in that style."""
    python = [str(folder / p) for p in paths if p.endswith(PYTHON_SUFFIXES)]
    c_like = [str(folder / p) for p in paths if p.endswith(C_SUFFIXES)]
    chains = []
    if python:
        # ruff's defaults, so that `ruff check` / `ruff format --check` pass on the output as is.
        # specgen's own templates write their imports in ruff's order (a corpus test checks it);
        # a user's are sorted first, then formatted: one command after the other.
        ruff = [ruff_binary(), "--isolated", "--no-cache", "--quiet"]
        sort_imports = [] if exact else [[ruff[0], "check", *ruff[1:], "--select=I", "--fix", *python]]
        chains.append([*sort_imports, [ruff[0], "format", *ruff[1:], *python]])
    if not exact:
        batch = max(1, min(_BATCH, -(-len(c_like) // (os.cpu_count() or 1))))
        for start in range(0, len(c_like), batch):
            chains.append([[clang_format_binary(), f"--style=file:{style}", "-i", *c_like[start : start + batch]]])
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        running = [pool.submit(_run_chain, chain) for chain in chains]
        if exact:
            _put_back(folder, lifted, style)
        for future in running:
            future.result()
    if restyle is not None and c_like:
        for start in range(0, len(c_like), _BATCH):
            _run_chain([[clang_format_binary(), f"--style=file:{restyle}", "-i", *c_like[start : start + _BATCH]]])


def _put_back(folder: Path, lifted: Mapping[str, tuple[cunits.Lifted, ...]], style: Path) -> None:
    """Lay out every lifted line in one clang-format run, and put each back in its file."""
    units = [unit for path in sorted(lifted) for unit in lifted[path]]
    laid_out = cunits.lay_out(units, lambda text: _clang_format_text(text, style), os.cpu_count() or 1)
    k = 0
    for path in sorted(lifted):
        count = len(lifted[path])
        if count:
            file = folder / path
            file.write_text(
                cunits.splice(file.read_text(encoding="utf-8"), lifted[path], laid_out[k : k + count]), encoding="utf-8"
            )
        k += count


def _clang_format_text(text: str, style: Path) -> str:
    command = [clang_format_binary(), f"--style=file:{style}", "--assume-filename=units.cpp"]
    result = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise FormatterError(f"clang-format failed on generated code: {result.stderr.strip()[:2000]}")
    return result.stdout


def _run_chain(chain: list[list[str]]) -> None:
    for command in chain:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            tool = Path(command[0]).name
            raise FormatterError(f"{tool} failed on generated code: {result.stderr.strip()[:2000]}")
