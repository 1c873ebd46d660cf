"""One run per output folder at a time (issue 14, item 4): a flock on OUT/.specgen-lock, which
holds the holder's PID; a second run waits for the first, or says who holds the folder."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import writer
from tests.conftest import ROOT, SPECS, tree

# A run that holds the folder for a while: its formatters start two seconds late.
SLOW_RUN = """
import subprocess, sys, time
real = subprocess.run
def slow(*args, **kwargs):
    time.sleep(2)
    return real(*args, **kwargs)
subprocess.run = slow
from specgen.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(autouse=True)
def private_key_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))


def hold(out: Path, pid: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / writer.LOCK, os.O_RDWR | os.O_CREAT)
    os.write(fd, f"{pid}\n".encode())
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


@pytest.mark.parametrize("check", [[], ["--check"]])
def test_a_second_run_says_who_holds_the_folder(tmp_path, monkeypatch, capsys, check):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    before = tree(out)
    (out / "samples/tanh_backward.cpp").unlink()
    fd = hold(out, 4242)
    monkeypatch.setattr(writer, "LOCK_WAIT", 0.3)
    capsys.readouterr()
    try:
        assert main(["generate", str(SPECS), "-o", str(out), *check]) == 2
    finally:
        os.close(fd)
    err = capsys.readouterr().err
    assert f"waiting for another specgen run on {out} to end (pid 4242)" in err
    assert f"{out} is in use by another specgen run (pid 4242); try again when it has ended" in err
    assert not (out / "samples/tanh_backward.cpp").exists()  # it wrote nothing
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert tree(out) == before


def test_a_second_run_waits_for_the_first_and_both_succeed(tmp_path, capsys):
    out = tmp_path / "out"
    first = subprocess.Popen(
        [sys.executable, "-c", SLOW_RUN, "generate", str(SPECS), "-o", str(out)],
        cwd=ROOT,
        env=os.environ.copy(),
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not _holds(out, first.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _holds(out, first.pid)
    capsys.readouterr()
    second = main(["generate", str(SPECS), "-o", str(out)])
    _, first_err = first.communicate(timeout=60)
    assert (first.returncode, second) == (0, 0), first_err
    assert f"waiting for another specgen run on {out} to end (pid {first.pid})" in capsys.readouterr().err
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert not (out / writer.LOCK).exists()  # the last run out removes it


def _holds(out: Path, pid: int) -> bool:
    try:
        return (out / writer.LOCK).read_text(encoding="ascii").strip() == str(pid)
    except OSError:
        return False


def test_a_lock_file_left_by_a_killed_run_holds_nothing(tmp_path, capsys):
    """The kernel releases a flock when its holder ends, kill -9 included: a PID in the file
    is not a lock."""
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    (out / writer.LOCK).write_text("999999\n", encoding="ascii")
    capsys.readouterr()
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert "waiting" not in capsys.readouterr().err
    assert not (out / writer.LOCK).exists()


def test_check_writes_no_lock_file(tmp_path):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    before = sorted(p.name for p in out.iterdir())
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert sorted(p.name for p in out.iterdir()) == before
