"""The output folder is untrusted: nothing planted in it redirects a write (issue 14, item 1).

Each test plants what a pull request could commit into `generated/` (links under the names
specgen writes or stages, a manifest naming paths outside, a linked cache folder, lock or
output folder) and checks that no file outside the output folder is created or changed.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import writer
from tests.conftest import SPECS, tree

TANH = "samples/tanh_backward.cpp"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder outside the output, where a `.pth` file would run at the next Python start."""
    folder = tmp_path / "site-packages"
    folder.mkdir()
    return folder


@pytest.fixture
def out(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))
    folder = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(folder)]) == 0
    return folder


def generate(out: Path, *args: str) -> int:
    return main(["generate", str(SPECS), "-o", str(out), *args])


def test_links_planted_under_old_staging_names_are_never_written_through(out, site):
    """The attack of the issue: `.NAME.PID.specgen-tmp` links, for upcoming PIDs, to a `.pth`."""
    (out / TANH).write_text("// changed: the next run rewrites it\n", encoding="utf-8")
    planted = out / "samples" / f".tanh_backward.cpp.{os.getpid()}.specgen-tmp"
    planted.symlink_to(site / "evil.pth")
    assert generate(out, "--force") == 0
    assert list(site.iterdir()) == []
    assert not os.path.lexists(planted)  # recognised as specgen's own name, and removed
    assert (out / TANH).read_text(encoding="utf-8").startswith("//")


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_link_in_place_of_a_generated_file_is_refused(out, site, capsys, force):
    (out / TANH).unlink()
    (out / TANH).symlink_to(site / "evil.pth")
    assert generate(out, *force) == 2
    assert f"{out / TANH} is a symbolic link" in capsys.readouterr().err
    assert list(site.iterdir()) == []


def test_planted_links_the_manifest_lists_as_user_files_are_never_written_through(out, site):
    """Without --force: the manifest's `user` entries were never checked, so listing the
    planted staging links there kept them from being foreign."""
    (out / TANH).write_text("// changed: the next run rewrites it\n", encoding="utf-8")
    planted = f"samples/.tanh_backward.cpp.{os.getpid()}.specgen-tmp"
    (out / planted).symlink_to(site / "evil.pth")
    manifest = json.loads((out / writer.MANIFEST).read_text(encoding="utf-8"))
    manifest["user"].append(planted)
    (out / writer.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert generate(out) == 0
    assert list(site.iterdir()) == []


def test_a_link_in_place_of_a_user_file_is_refused(out, site, capsys):
    reference = out / "tests/references/tanh_backward.py"
    reference.unlink()
    reference.symlink_to(site / "evil.pth")
    assert generate(out, "--no-cache") == 2
    assert f"{reference} is a symbolic link" in capsys.readouterr().err
    assert list(site.iterdir()) == []


def test_manifest_entries_outside_the_folder_are_ignored_with_a_warning(out, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    manifest = json.loads((out / writer.MANIFEST).read_text(encoding="utf-8"))
    manifest["generated"] += ["../victim.txt", str(victim)]
    manifest["user"] += ["/etc/passwd"]
    (out / writer.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert generate(out) == 0
    err = capsys.readouterr().err
    assert "lists 2 paths outside the output folder" in err and "'/etc/passwd'" in err
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert "../victim.txt" not in (out / writer.MANIFEST).read_text(encoding="utf-8")


def test_a_linked_cache_folder_is_neither_read_nor_written(out, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / ".specgen-cache")
    (out / ".specgen-cache").symlink_to(elsewhere, target_is_directory=True)
    assert generate(out) == 0
    err = capsys.readouterr().err
    assert "[cache-not-saved]" in err and "output was written" in err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("name", [writer.MANIFEST, writer.LOCK])
def test_a_linked_manifest_or_lock_file_is_refused(out, site, capsys, name):
    target = site / "evil.pth"
    target.write_text("untouched\n", encoding="utf-8")
    (out / name).unlink(missing_ok=True)
    (out / name).symlink_to(target)
    assert generate(out) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "untouched\n"


def test_an_output_folder_that_is_a_link_is_refused(tmp_path, site, capsys):
    """A committed `generated -> ~/.local/lib/python3.11/site-packages` would send every write there."""
    out = tmp_path / "generated"
    out.symlink_to(site, target_is_directory=True)
    assert generate(out, "--force") == 2
    assert "is a symbolic link: give the folder it points to" in capsys.readouterr().err
    assert list(site.iterdir()) == []


def test_files_are_staged_in_a_private_folder_and_never_through_a_link(out, monkeypatch):
    """Every staged file is opened O_CREAT|O_EXCL|O_NOFOLLOW inside a mkdtemp folder of OUT."""
    opened = []
    real_open = os.open

    def spying_open(path, flags, *args, **kwargs):
        if writer.STAGING_PREFIX in str(path) and flags & os.O_CREAT:
            opened.append((Path(path), flags))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(writer.os, "open", spying_open)
    (out / TANH).write_text("// changed\n", encoding="utf-8")
    assert generate(out, "--no-cache") == 0
    assert opened
    for path, flags in opened:
        assert path.relative_to(out).parts[0].startswith(writer.STAGING_PREFIX)
        assert flags & os.O_EXCL and flags & os.O_NOFOLLOW
    assert not [p for p in out.iterdir() if p.name.startswith(writer.STAGING_PREFIX)]


@pytest.mark.parametrize("relative", ["../x", "/etc/passwd", "a/../../x", "a//b", "a\\..\\x", ""])
def test_checked_path_refuses_paths_leaving_the_folder(tmp_path, relative):
    with pytest.raises(writer.OutputError):
        writer.checked_path(tmp_path, relative)


def test_a_full_disk_while_staging_leaves_the_tree_and_says_so(out, monkeypatch, capsys):
    before = tree(out)
    (out / TANH).write_text("// changed\n", encoding="utf-8")
    before[TANH] = (out / TANH).read_bytes()

    real_open = os.open

    def full(path, flags, *args, **kwargs):
        if writer.STAGING_PREFIX in str(path) and flags & os.O_CREAT:
            raise OSError(28, "No space left on device")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(writer.os, "open", full)
    assert generate(out) == 2
    err = capsys.readouterr().err
    assert "no space left on the device; nothing was changed" in err and "internal error" not in err
    assert tree(out) == before
