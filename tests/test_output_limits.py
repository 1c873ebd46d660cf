"""Limits (issue 14, item 6): a huge file, a device or a FIFO, as a document or in place of a
generated file, is never read whole (sizes are checked before reading); formatting goes to
/dev/shm only when it has room, else to the output folder; a full disk is said as such.

specgen runs in a subprocess whose address space is limited to 2 GiB, beside sparse files of
3 GiB: a whole read fails there (MemoryError, an internal error for every document), and a
read that blocks runs into the timeout.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import formatting
from tests.conftest import ROOT, SPECS

LIMIT = 2 * 2**30
HUGE = 3 * 2**30


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def generate(out: Path, env: dict[str, str], *docs: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "specgen", "generate", *map(str, docs), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, **env},
        preexec_fn=_limited,
        timeout=120,
    )


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CACHE_HOME": str(tmp_path / "keys")}


def sparse(path: Path, size: int = HUGE) -> Path:
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.mark.parametrize("kind", ["huge", "device", "fifo"])
def test_a_huge_or_endless_document_behind_a_link_is_refused_unread(tmp_path, keys, kind):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    if kind == "huge":
        target = sparse(tmp_path / "huge.bin")
    elif kind == "device":
        target = Path("/dev/zero")
    else:
        target = tmp_path / "fifo"
        os.mkfifo(target)
    (docs / "aclnnHuge.md").symlink_to(target)
    result = generate(out, keys, docs, docs / "aclnnHuge.md")  # named: read, whatever it links to
    assert result.returncode == 1, result.stderr
    expected = "the file is 3072.0 MiB" if kind == "huge" else "not a regular file"
    assert f"aclnnHuge.md:1: error: {expected}" in result.stderr
    assert len(list((out / "samples").iterdir())) == 3  # the other documents are generated


def test_a_huge_file_in_place_of_a_generated_one_is_not_read(tmp_path, keys):
    out = tmp_path / "out"
    assert generate(out, keys, SPECS).returncode == 0
    binding = sparse(out / "python/aclnn_ops/tanh_backward.py")
    result = generate(out, keys, SPECS)
    assert result.returncode == 0, result.stderr
    assert binding.stat().st_size < 2**20


@pytest.mark.parametrize("check", [False, True])
def test_files_are_formatted_where_they_are_staged(tmp_path, monkeypatch, check):
    """In the output's staging folder, from which they are renamed into place (no copy of the
    tree elsewhere: /dev/shm is 64 MiB in a default Docker container); for --check, which
    writes nothing in the output, in $TMPDIR. Nothing is left behind."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR is read again
    formatted: list[str] = []
    real = formatting._run_chain

    def spying(chain):
        formatted.extend(arg for command in chain for arg in command if arg.endswith(".py"))
        return real(chain)

    monkeypatch.setattr(formatting, "_run_chain", spying)
    out = tmp_path / "out"
    if check:
        assert main(["generate", str(SPECS), "-o", str(out)]) == 0
        formatted.clear()
        assert main(["generate", str(SPECS), "-o", str(out), "--check", "--no-cache"]) == 0
    else:
        assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert formatted
    for path in map(Path, formatted):
        folder = (tmp_path / "tmp") if check else out
        assert path.relative_to(folder).parts[0].startswith("specgen-check-" if check else ".specgen-staging-"), path
    assert not [p for p in out.iterdir() if p.name.startswith(".specgen-staging-")]
    assert not list((tmp_path / "tmp").iterdir())


def test_no_room_to_stage_is_said_as_such(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))
    real = os.open

    def full(path, flags, *args, **kwargs):
        if ".specgen-staging-" in str(path) and flags & os.O_CREAT:
            raise OSError(28, "No space left on device")
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", full)
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write in {out}: no space left on the device; nothing was changed" in err
    assert "internal error" not in err
    assert not out.exists()
