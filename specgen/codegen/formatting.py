"""Format generated sources with the pinned formatters, one batch per tool.

ruff formats Python and clang-format C/C++ (style in the templates folder). Both run once
over a copy of every file in a work folder (`generate` chooses it: /dev/shm when it has room,
else a staging folder in the output folder), so the cost does not grow with a process per file.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import subprocess
import tempfile
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
        raise FormatterError("ruff is not installed (pip install specgen installs the pinned version)") from exc
    return str(find_ruff_bin())


@lru_cache(maxsize=1)
def clang_format_binary() -> str:
    try:
        import clang_format
    except ImportError as exc:
        raise FormatterError("clang-format is not installed (pip install specgen installs the pinned version)") from exc
    return str(clang_format.get_executable("clang-format"))


# A stretch every sample repeats (its support code) is marked by the template; it is formatted
# once per distinct content and spliced back, instead of once per file.
_BLOCK = re.compile(r"^// specgen:begin-block\n(.*?)^// specgen:end-block\n", re.S | re.M)
_PLACEHOLDER = "// specgen:block {}\n"


def format_sources(
    files: Mapping[str, str], style: Path, workdir: Path | None = None, *, exact_templates: bool = False
) -> dict[str, str]:
    """The same files, formatted; files of other kinds are returned unchanged. `workdir`: an
    empty folder to format in (default: a temporary one in $TMPDIR). `exact_templates`: the C
    and C++ come from specgen's own templates, already in clang-format's layout wherever a
    line fits: clang-format then lays out only the lines that do not (`cunits`)."""
    blocks: dict[str, str] = {}

    def lift(match: re.Match[str]) -> str:
        key = hashlib.sha256(match.group(1).encode()).hexdigest()[:16]
        blocks[key] = match.group(1)
        return _PLACEHOLDER.format(key)

    lists: dict[str, tuple[str, list[str]]] = {}
    lifted = {path: _lift_lists(_BLOCK.sub(lift, text), lists) if path.endswith(C_SUFFIXES) else text
              for path, text in files.items()}  # fmt: skip
    if exact_templates:
        c_like = {path: text for path, text in lifted.items() if path.endswith(C_SUFFIXES)}
        formatted = _format({p: t for p, t in lifted.items() if p not in c_like}, style, workdir)
        formatted |= cunits.format_units(c_like, lambda text: _clang_format_text(text, style), os.cpu_count() or 1)
    else:
        blocks_in = {f"_block_{key}.cpp": text for key, text in blocks.items()}
        formatted = _format(lifted | blocks_in, style, workdir)
        blocks = {key: formatted.pop(f"_block_{key}.cpp") for key in blocks}
    for key, block in blocks.items():
        formatted = {path: text.replace(_PLACEHOLDER.format(key), block) for path, text in formatted.items()}
    if lists:
        formatted = {path: _LIST_MARK.sub(lambda m: _laid_out(m, lists), text) for path, text in formatted.items()}
    return formatted


def _clang_format_text(text: str, style: Path) -> str:
    command = [clang_format_binary(), f"--style=file:{style}", "--assume-filename=units.cpp"]
    result = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise FormatterError(f"clang-format failed on generated code: {result.stderr.strip()[:2000]}")
    return result.stdout


_LIST_MARK = re.compile(r"^( *)// specgen:list (\d+)$", re.M)


def _lift_lists(text: str, lists: dict[str, tuple[str, list[str]]]) -> str:
    """Long braced lists (sample data) set aside for `braced.lay_out`, a marker in their place:
    laid out in Python they cost clang-format nothing."""

    def lift(match: re.Match[str]) -> str:
        items = braced.items_of(match.group("items"))
        if len(match.group(0)) <= braced.COLUMN_LIMIT or not items or len(items) < braced.MIN_ITEMS:
            return match.group(0)
        key = str(len(lists))
        lists[key] = (match.group("head"), items)
        return f"{match.group('indent')}// specgen:list {key}"

    return braced.LIST_LINE.sub(lift, text) if "= {" in text else text


def _laid_out(marker: re.Match[str], lists: dict[str, tuple[str, list[str]]]) -> str:
    head, items = lists[marker.group(2)]
    lines = braced.lay_out(len(marker.group(1)), head, items)
    assert lines is not None  # only lists it lays out are lifted
    return "\n".join(lines)


def _format(files: Mapping[str, str], style: Path, workdir: Path | None) -> dict[str, str]:
    python = [p for p in files if p.endswith(PYTHON_SUFFIXES)]
    c_like = [p for p in files if p.endswith(C_SUFFIXES)]
    if not python and not c_like:
        return dict(files)
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="specgen-format-") as tmp:
            return _format(files, style, Path(tmp))
    names = _lay_out(files, python + c_like, workdir)
    commands = []
    if python:
        sources = [str(names[p]) for p in python]
        # ruff's defaults, so that `ruff check` / `ruff format --check` pass on the output as is;
        # import sorting first, then formatting: one command after the other.
        ruff = [ruff_binary(), "--isolated", "--no-cache", "--quiet"]
        commands.append(
            [
                [ruff[0], "check", *ruff[1:], "--select=I", "--fix", *sources],
                [ruff[0], "format", *ruff[1:], *sources],
            ]
        )
    batch = max(1, min(_BATCH, -(-len(c_like) // (os.cpu_count() or 1))) if c_like else 1)
    for start in range(0, len(c_like), batch):
        chunk = (str(names[p]) for p in c_like[start : start + batch])
        commands.append([[clang_format_binary(), f"--style=file:{style}", "-i", *chunk]])
    _run_all(commands)
    return {**files, **{path: name.read_text(encoding="utf-8") for path, name in names.items()}}


def _lay_out(files: Mapping[str, str], paths: list[str], workdir: Path) -> dict[str, Path]:
    """The files to format written under `workdir`, in the output's own layout (so that ruff
    sees the same packages: first-party imports). A full disk is said as such."""
    names = {path: workdir / path for path in paths}
    try:
        for folder in sorted({name.parent for name in names.values()}):
            folder.mkdir(parents=True, exist_ok=True)
        for path, name in names.items():
            name.write_text(files[path], encoding="utf-8")
    except OSError as exc:
        size = sum(len(files[p].encode()) for p in paths) / 2**20
        reason = "no space left on the device" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else exc.strerror
        raise FormatterError(
            f"cannot write the {len(paths)} files to format ({size:.1f} MiB) in {workdir}: {reason}"
        ) from None
    return names


def _run_all(chains: list[list[list[str]]]) -> None:
    """Run chains of commands, the chains side by side on the machine's cores."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for future in [pool.submit(_run_chain, chain) for chain in chains]:
            future.result()


def _run_chain(chain: list[list[str]]) -> None:
    for command in chain:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            tool = Path(command[0]).name
            raise FormatterError(f"{tool} failed on generated code: {result.stderr.strip()[:2000]}")
