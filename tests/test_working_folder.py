"""The same answer from any folder (issue 24): precedence, include and exclude are matched
against paths relative to the repository or the configuration, never the working folder.

A small repository holds a mainline document and an `experimental/` copy of it that says
something else; parse, generate, lint and diff run from inside the repository, from the
folder above it and from an unrelated folder, on the same absolute paths, and must agree.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SPECS, git, run_main, tree

MAINLINE = "ops/tanh_backward/docs/aclnnTanhBackward.md"
COPY = "experimental/ops/tanh_backward/docs/aclnnTanhBackward.md"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "parent" / "repo"
    (root / ".git").mkdir(parents=True)  # what marks a repository for specgen
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    for name, body in (
        (MAINLINE, text),
        (COPY, text.replace("# aclnnTanhBackward", "# aclnnTanhBackward\n\nEXPERIMENTAL COPY", 1)),
    ):
        path = root / name
        path.parent.mkdir(parents=True)
        path.write_text(body, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    return root


def _folders(repo: Path) -> dict[str, Path]:
    return {"inside": repo / "ops", "above": repo.parent, "elsewhere": repo.parents[1] / "elsewhere"}


def test_generate_takes_the_mainline_document_from_every_folder(repo, tmp_path, capsys, monkeypatch):
    outputs = {}
    for where, cwd in _folders(repo).items():
        out = tmp_path / f"out-{where}"
        code, _, err = run_main(["generate", str(repo), "-o", str(out), "--no-cache"], cwd, capsys, monkeypatch)
        assert code == 0, err
        outputs[where] = tree(out)
        spec = json.loads(outputs[where]["spec/tanh_backward.json"])
        assert "EXPERIMENTAL COPY" not in json.dumps(spec, ensure_ascii=False), f"the copy won from {where}"
    assert outputs["inside"] == outputs["above"] == outputs["elsewhere"]


@pytest.mark.parametrize("command", [["parse", "--format", "json"], ["lint", "--format", "json"]])
def test_parse_and_lint_agree_from_every_folder(repo, capsys, monkeypatch, command):
    results = {
        where: run_main([*command, str(repo)], cwd, capsys, monkeypatch) for where, cwd in _folders(repo).items()
    }
    assert results["inside"] == results["above"] == results["elsewhere"]
    assert results["elsewhere"][0] in (0, 1)  # 1: lint's findings on the seed (no header given)


def test_diff_agrees_from_every_folder(repo, tmp_path, capsys, monkeypatch):
    new = tmp_path / "new"
    new_doc = new / MAINLINE
    new_doc.parent.mkdir(parents=True)
    new_doc.write_text((repo / MAINLINE).read_text(encoding="utf-8").replace("FLOAT16", "BFLOAT16"), encoding="utf-8")
    (new / ".git").mkdir()
    results = {
        where: run_main(["diff", "--format", "json", str(repo), str(new)], cwd, capsys, monkeypatch)
        for where, cwd in _folders(repo).items()
    }
    assert results["inside"] == results["above"] == results["elsewhere"]
    assert json.loads(results["elsewhere"][1])["changes"], "the edit must show as a change"


def test_diff_of_a_git_range_agrees_from_every_folder(repo, capsys, monkeypatch):
    """`specgen diff --git BASE..HEAD FOLDER` reads the repository that holds FOLDER, not the
    working folder's (from elsewhere it said "not inside a git repository")."""
    shutil.rmtree(repo / ".git")

    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    doc = repo / MAINLINE
    doc.write_text(doc.read_text(encoding="utf-8").replace("FLOAT16", "BFLOAT16"), encoding="utf-8")
    git(repo, "commit", "-qam", "edit")
    results = {
        where: run_main(["diff", "--git", "HEAD~1..HEAD", "--format", "json", str(repo)], cwd, capsys, monkeypatch)
        for where, cwd in _folders(repo).items()
    }
    assert results["inside"] == results["above"] == results["elsewhere"]
    assert json.loads(results["elsewhere"][1])["changes"], results["elsewhere"][2]
