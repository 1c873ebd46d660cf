"""What every command prints on stderr (issue 24): one line format, info hidden unless -v,
-q errors only, a closing summary line, the reason of a --fail-on failure, and the
configuration's `ignore` honoured by every command."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import SPECS, run_main

LINE = re.compile(r"^\S+:\d+: (error|warning|info): .* \[[a-z-]+\]$")
PLACEHOLDER = "# aclnnTodo\n\n本文档内容正按全新接口模板整改中。\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The seeds (one has a name-typo warning), a placeholder page (info) and a document
    with an unreadable prototype (error), in a git checkout."""
    (tmp_path / ".git").mkdir()
    docs = tmp_path / "docs"
    shutil.copytree(SPECS, docs)
    (docs / "aclnnTodo.md").write_text(PLACEHOLDER, encoding="utf-8")
    tanh = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    (docs / "aclnnBroken.md").write_text(
        tanh.replace("aclnnTanhBackward", "aclnnBroken").replace(
            "aclOpExecutor **executor)", "aclOpExecutor **executor"
        ),
        encoding="utf-8",
    )
    return tmp_path


def _lines(err: str) -> tuple[list[str], list[str]]:
    """(diagnostic lines, the specgen: lines)."""
    lines = err.splitlines()
    return [line for line in lines if not line.startswith("specgen:")], [
        line for line in lines if line.startswith("specgen:")
    ]


def _command(name: str, *flags: str) -> list[str]:
    return [name, "docs", *(["-o", "out"] if name == "generate" else []), *flags]


@pytest.mark.parametrize("name", ["parse", "generate"])
def test_levels_and_the_summary_line(repo, capsys, monkeypatch, name):
    code, _, err = run_main(_command(name), repo, capsys, monkeypatch)
    found, closing = _lines(err)
    assert code == 1 and all(LINE.match(line) for line in found), err
    assert {LINE.match(line)[1] for line in found} == {"error", "warning"}  # info hidden by default
    assert closing[-1].startswith("specgen: 2 errors, 1 warning in 5 documents (1 info not shown; -v shows them)")

    _, _, verbose = run_main(_command(name, "-v"), repo, capsys, monkeypatch)
    assert "aclnnTodo.md:1: info: not an operator page" in verbose

    _, _, quiet = run_main(_command(name, "-q"), repo, capsys, monkeypatch)
    found, closing = _lines(quiet)
    assert found and {LINE.match(line)[1] for line in found} == {"error"} and closing == []


def test_ignore_in_the_configuration_holds_for_every_command(repo, capsys, monkeypatch):
    (repo / "specgen.toml").write_text('ignore = ["name-typo", "doc-prototype-syntax"]\n', encoding="utf-8")
    for command in (["parse", "docs", "-q"], ["generate", "docs", "-o", "out"], ["lint", "docs"]):
        code, out, err = run_main(command, repo, capsys, monkeypatch)
        assert "name-typo" not in out + err and "doc-prototype-syntax" not in out + err, command
    code, _, _ = run_main(["parse", "docs", "-q"], repo, capsys, monkeypatch)
    assert code == 0  # the only errors are ignored


def test_check_fails_on_drift_only_and_names_the_documents_to_fix(repo, capsys, monkeypatch):
    assert run_main(["generate", "docs", "-o", "out"], repo, capsys, monkeypatch)[0] == 1  # an error: written anyway
    code, _, err = run_main(["generate", "docs", "-o", "out", "--check"], repo, capsys, monkeypatch)
    assert code == 0 and "output current" in err  # the broken document fails parse/lint, not the drift check
    tanh = repo / "docs" / "aclnnTanhBackward.md"
    tanh.write_text(tanh.read_text(encoding="utf-8").replace("FLOAT16", "BFLOAT16"), encoding="utf-8")
    code, _, err = run_main(["generate", "docs", "-o", "out", "--check"], repo, capsys, monkeypatch)
    assert code == 3
    assert "the output is out of date" in err and "after fixing docs/aclnnBroken.md" in err


def test_fail_on_says_why(repo, capsys, monkeypatch):
    code, out, err = run_main(["lint", "docs/aclnnBroken.md", "--fail-on", "error"], repo, capsys, monkeypatch)
    assert code == 1 and LINE.match(out.splitlines()[0])
    assert re.search(
        r"^specgen: \d+ findings \(.*\) in 1 document; failing: \d+ at or above error \(--fail-on error\)$", err, re.M
    )


def test_a_missing_execute_function_is_one_warning_and_the_operator_is_generated(tmp_path, capsys, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines(keepends=True) if "aclnnStatus aclnnTanhBackward(void" not in line]
    (docs / "aclnnTanhBackward.md").write_text("".join(kept), encoding="utf-8")
    code, _, err = run_main(["generate", "docs", "-o", "out"], tmp_path, capsys, monkeypatch)
    found, _ = _lines(err)
    assert code == 0 and len(found) == 1 and found[0].endswith("[no-execute]"), err
    header = (tmp_path / "out/include/aclnnop/aclnn_tanh_backward.h").read_text(encoding="utf-8")
    assert "aclnnStatus aclnnTanhBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor," in header
