"""Generated C and C++ follow the repository's own `.clang-format` (issue 24): its format hook
and specgen's drift check agree instead of rewriting each other's output."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from specgen.codegen.formatting import clang_format_binary
from tests.conftest import SPECS, run_main

STYLE = "BasedOnStyle: Google\nIndentWidth: 4\nColumnLimit: 100\nPointerAlignment: Right\n"


def _c_files(out: Path) -> list[Path]:
    return sorted(p for p in out.rglob("*") if p.suffix in (".h", ".cpp", ".c"))


def _reformatted(files: list[Path], style: Path) -> list[str]:
    """The files that clang-format in `style` would change."""
    changed = []
    for path in files:
        command = [clang_format_binary(), f"--style=file:{style}", str(path)]
        formatted = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        if formatted != path.read_text(encoding="utf-8"):
            changed.append(path.name)
    return changed


def test_generated_c_follows_the_repository_style(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    shutil.copytree(SPECS, repo / "docs")
    (repo / ".clang-format").write_text(STYLE, encoding="utf-8")
    assert run_main(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)[0] == 0
    files = _c_files(repo / "generated")
    assert files and _reformatted(files, repo / ".clang-format") == []
    assert "    " in (repo / "generated/samples/tanh_backward.cpp").read_text(encoding="utf-8")  # IndentWidth 4

    # The style is part of the cache key: a changed style is drift, and regenerating follows it.
    (repo / ".clang-format").write_text(STYLE.replace("IndentWidth: 4", "IndentWidth: 3"), encoding="utf-8")
    assert run_main(["generate", "docs", "-o", "generated", "--check"], repo, capsys, monkeypatch)[0] == 3
    assert run_main(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)[0] == 0
    assert _reformatted(_c_files(repo / "generated"), repo / ".clang-format") == []


def test_without_a_repository_style_the_builtin_one_is_used(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (tmp_path / ".clang-format").write_text(STYLE, encoding="utf-8")  # above the repository: not its style
    shutil.copytree(SPECS, repo / "docs")
    assert run_main(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)[0] == 0
    golden = SPECS.parent / "generated" / "samples" / "tanh_backward.cpp"
    sample = (repo / "generated/samples/tanh_backward.cpp").read_text(encoding="utf-8")
    assert sample.replace("docs/aclnn", "specs/aclnn") == golden.read_text(encoding="utf-8")


def test_a_style_file_far_larger_than_any_is_refused_unread(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    shutil.copytree(SPECS, repo / "docs")
    (repo / ".clang-format").write_bytes(b"#" * (2 << 20))  # a pull request's, 2 MiB
    code, _, err = run_main(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)
    assert code == 2 and "the repository's C/C++ style" in err
    assert not (repo / "generated").exists()
