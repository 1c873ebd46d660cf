"""A run killed at any point is followed by a run that yields the tree of a clean run, with
no manual step (issue 14, item 3).

A driver runs `specgen generate` in a subprocess and sends itself SIGKILL at the n-th call
of a chosen function (the formatters' subprocess.run, os.mkdir, os.fsync, os.replace,
os.unlink): first it counts the calls of a whole run, then it kills at every call of the
write phase (fsync, replace, unlink) and at the first, a middle and the last call of the
others. The change it applies removes an operator, changes another and
keeps a third, so that staging, renames, deletions, the manifest and the cache are all hit.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import writer
from tests.conftest import ROOT, SPECS, tree

WATCHED = ("subprocess.run", "os.mkdir", "os.fsync", "os.replace", "os.unlink")
DRIVER = """
import json, os, signal, subprocess, sys
spec = json.loads(sys.argv[1])
counts = {}
modules = {"os": os, "subprocess": subprocess}

def watch(key):
    module, name = key.split(".")
    real = getattr(modules[module], name)
    def counted(*args, **kwargs):
        counts[key] = counts.get(key, 0) + 1
        if spec["kill"] == [key, counts[key]]:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    setattr(modules[module], name, counted)

for key in spec["watch"]:
    watch(key)
from specgen.cli import main
status = main(sys.argv[2:])
with open(spec["counts"], "w") as f:
    json.dump(counts, f)
sys.exit(status)
"""


@pytest.fixture(autouse=True)
def private_key_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))


def changed_documents(tmp_path: Path) -> Path:
    docs = tmp_path / "after"
    shutil.copytree(SPECS, docs)
    (docs / "aclnnTanhBackward.md").unlink()
    hardshrink = docs / "aclnnHardshrinkBackward.md"
    text = hardshrink.read_text(encoding="utf-8").replace("数据格式支持ND", "数据格式支持ND、NCHW")
    hardshrink.write_text(text, encoding="utf-8")
    return docs


def drive(docs: Path, out: Path, kill: tuple[str, int] | None, counts: Path) -> int:
    spec = json.dumps({"watch": WATCHED, "kill": list(kill) if kill else None, "counts": str(counts)})
    command = [sys.executable, "-c", DRIVER, spec, "generate", str(docs), "-o", str(out), "-j", "1"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, check=False, env=os.environ.copy()).returncode


WRITE_PHASE = ("os.fsync", "os.replace", "os.unlink")  # every call; the others at three points


def kill_points(counts: dict[str, int]) -> list[tuple[str, int]]:
    points = []
    for key, count in sorted(counts.items()):
        calls = range(1, count + 1) if key in WRITE_PHASE else sorted({1, (count + 1) // 2, count})
        points += [(key, n) for n in calls]
    return points


def test_a_run_killed_at_any_point_is_followed_by_a_clean_equivalent_tree(tmp_path):
    docs = changed_documents(tmp_path)
    before = tmp_path / "before"
    assert main(["generate", str(SPECS), "-o", str(before)]) == 0
    clean = tmp_path / "clean"  # the run without a kill, from the same tree
    shutil.copytree(before, clean, symlinks=True)
    # the compiled templates are in the user's cache (its writes are not the output's) first
    assert drive(docs, tmp_path / "templates-cached", None, tmp_path / "unused.json") == 0
    assert drive(docs, clean, None, tmp_path / "counts.json") == 0
    counts = json.loads((tmp_path / "counts.json").read_text(encoding="utf-8"))
    assert set(counts) == set(WATCHED), counts
    assert not (clean / "samples/tanh_backward.cpp").exists() and (clean / "samples/hardshrink_backward.cpp").exists()

    points = kill_points(counts)
    assert len(points) >= 40
    for key, n in points:
        out = tmp_path / f"killed-{key}-{n}"
        shutil.copytree(before, out, symlinks=True)
        assert drive(docs, out, (key, n), tmp_path / "unused.json") == -9, (key, n)
        # What a CI job would run next: never "files specgen did not generate".
        assert main(["generate", str(docs), "-o", str(out), "--check"]) in (0, 3), (key, n)
        assert main(["generate", str(docs), "-o", str(out)]) == 0, (key, n)
        assert tree(out) == tree(clean), (key, n)
        assert main(["generate", str(docs), "-o", str(out), "--check"]) == 0, (key, n)
        shutil.rmtree(out)


def test_staged_files_of_specgen_0x_are_its_own_and_removed(tmp_path, capsys):
    """`kill -9` of the previous version left `.NAME.PID.specgen-tmp` files that blocked every
    later run, --check and --no-cache included, and --force did not remove them."""
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    clean = tree(out)
    left = [
        "samples/.tanh_backward.cpp.4242.specgen-tmp",
        "python/aclnn_ops/.__init__.py.77.specgen-tmp",
        ".specgen-cache/.state.json.99.specgen-tmp",
    ]
    for path in left:
        (out / path).write_text("half a fi", encoding="utf-8")
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert main(["generate", str(SPECS), "-o", str(out), "--check", "--no-cache"]) == 0
    capsys.readouterr()
    assert main(["generate", str(SPECS), "-o", str(out), "-v"]) == 0  # said at info
    assert "removed what an interrupted run of specgen left" in capsys.readouterr().err
    assert tree(out) == clean and not [path for path in left if (out / path).exists()]


def test_a_staging_folder_left_by_a_killed_run_is_removed(tmp_path):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    clean = tree(out)
    left = out / f"{writer.STAGING_PREFIX}k1ll3d"
    (left / "samples").mkdir(parents=True)
    (left / "samples/tanh_backward.cpp").write_text("half", encoding="utf-8")
    (left / "0").symlink_to("/etc/passwd")
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert tree(out) == clean
    assert Path("/etc/passwd").exists()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name synced files")
def test_files_and_folders_are_synced_before_the_manifest_is_replaced(tmp_path, monkeypatch):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    (out / "samples/tanh_backward.cpp").write_text("// changed\n", encoding="utf-8")
    shutil.rmtree(out / "spec")
    (docs / "aclnnHardshrinkBackward.md").unlink()  # the manifest changes
    events: list[tuple[str, str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}"), ""))
        real_fsync(fd)

    def replace(source, target) -> None:
        events.append(("replace", str(source), str(target)))
        real_replace(source, target)

    monkeypatch.setattr(writer.os, "fsync", fsync)
    monkeypatch.setattr(writer.os, "replace", replace)
    assert main(["generate", str(docs), "-o", str(out), "--no-cache"]) == 0
    renames = [(i, source, target) for i, (kind, source, target) in enumerate(events) if kind == "replace"]
    synced = {(path, i) for i, (kind, path, _) in enumerate(events) if kind == "fsync"}
    assert any(target.endswith("samples/tanh_backward.cpp") for _, _, target in renames)
    for at, source, target in renames:
        assert any(path == source and i < at for path, i in synced), f"{target} renamed before its data was synced"
    manifest_at = max(i for i, _, target in renames if target.endswith(writer.MANIFEST))
    for _, _, target in renames[:-1]:
        folder = str(Path(target).parent)
        assert any(path == folder and i < manifest_at for path, i in synced), f"{folder} not synced"
