"""specgen pointed at a whole operator repository, as a new user would: a clone of ops-nn
(`../shared/repos/ops-nn-docs.bundle`: its Markdown with 236 commits of history, README,
CHANGELOG and `experimental/` copies included), with no configuration. Skipped when the
bundle is absent."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.parse import discover
from tests.conftest import ROOT, git, tree
from tests.conftest import run_main as run

OPERATOR_DOCUMENT = re.compile(r"(^|/)docs?/aclnn[^/]*\.md$")
KL_DIV = "loss/kl_div_loss_grad"  # a mainline operator with an experimental/ copy
KL_DIV_COPY = "experimental/" + KL_DIV


def _bundle() -> Path:
    override = os.environ.get("SPECGEN_OPS_NN_BUNDLE")
    return Path(override) if override else ROOT.parent / "shared" / "repos" / "ops-nn-docs.bundle"


def _clone(target: Path) -> Path:
    bundle = _bundle()
    if not bundle.is_file():
        pytest.skip(f"ops-nn bundle not found at {bundle}")
    subprocess.run(["git", "clone", "-q", str(bundle), str(target)], check=True, capture_output=True)
    return target


@pytest.fixture(scope="module")
def ops_nn(tmp_path_factory) -> Path:
    """A clone the tests only read."""
    return _clone(tmp_path_factory.mktemp("repo") / "ops-nn")


@pytest.fixture
def ops_nn_copy(tmp_path) -> Path:
    """A clone of the test's own, to edit."""
    return _clone(tmp_path / "ops-nn-checkout")


# ---------------------------------------------------------------- file selection


def test_only_operator_documents_are_read(ops_nn, capsys, monkeypatch):
    monkeypatch.chdir(ops_nn)
    tracked = git(ops_nn, "ls-files").split("\n")
    assert {"README.md", "CHANGELOG.md", "docs/zh/context/aclnn_return_code.md"} <= set(tracked)
    found = {p.as_posix() for p in discover(["."])}
    assert found == {p for p in tracked if OPERATOR_DOCUMENT.search(p)}
    code, out, _ = run(["lint", ".", "--format", "json"], ops_nn, capsys, monkeypatch)
    findings = json.loads(out)["findings"]
    assert findings and all(OPERATOR_DOCUMENT.search(f["path"]) for f in findings)
    assert not [f for f in findings if f["rule"] == "doc-no-api"]  # was 727, one per README and guide


def test_a_folder_without_operator_documents_is_an_error(ops_nn, capsys, monkeypatch):
    code, _, err = run(["lint", "docs"], ops_nn, capsys, monkeypatch)  # README, guides: no operator document
    assert code == 2 and "no operator documents under docs" in err


# ---------------------------------------------------------------- duplicates and diff


def test_unchanged_tree_diffs_empty_and_duplicates_are_said_once(ops_nn, capsys, monkeypatch):
    code, out, err = run(["diff", ".", ".", "--format", "json", "-v"], ops_nn, capsys, monkeypatch)
    assert code == 0 and json.loads(out)["changes"] == []
    notes = [line for line in err.splitlines() if line.endswith("[duplicate-document]")]
    # mainline over experimental/ is said as info; two mainline copies (a tie settled by path
    # order) are a warning that asks for precedence.prefer
    assert notes and all(": info: " in line or "precedence.prefer" in line for line in notes)
    assert any(": info: " in line for line in notes)
    set_aside = [line.split(":")[0] for line in notes]
    assert len(set_aside) == len(set(set_aside))  # once per document
    copy = next(line for line in notes if line.startswith(KL_DIV_COPY))
    assert f"{KL_DIV}/docs/aclnnKlDivBackward.md" in copy  # both paths


def test_a_range_reports_only_the_documents_its_commits_touched(ops_nn, tmp_path, capsys, monkeypatch):
    touched = set(git(ops_nn, "diff", "--name-only", "HEAD~50", "HEAD").split())
    code, out, _ = run(["diff", "--git", "HEAD~50..HEAD", "--format", "json"], ops_nn, capsys, monkeypatch)
    changes = json.loads(out)["changes"]
    assert code == 0 and changes
    assert {(c["source"]["new"] or c["source"]["old"]).rpartition(":")[0] for c in changes} <= touched
    # The same changes as between the two whole trees: only the parsing was saved.
    for name, revision in (("old", "HEAD~50"), ("new", "HEAD")):
        (tmp_path / name).mkdir()
        archive = subprocess.run(["git", "archive", revision], cwd=ops_nn, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp_path / name)], input=archive, check=True)
    _, whole, _ = run(["diff", "old", "new", "--format", "json"], tmp_path, capsys, monkeypatch)
    assert _facts(json.loads(whole)["changes"]) == _facts(changes)
    # A document named as the PATH is compared alone.
    one = (changes[0]["source"]["new"] or changes[0]["source"]["old"]).rpartition(":")[0]
    _, out, _ = run(["diff", "--git", "HEAD~50..HEAD", one, "--format", "json"], ops_nn, capsys, monkeypatch)
    assert _facts(json.loads(out)["changes"]) == _facts([c for c in changes if one in json.dumps(c["source"])])


def _facts(changes: list[dict]) -> list[str]:
    return sorted(json.dumps([c["id"], c["function"], c["param"], c["before"], c["after"]]) for c in changes)


def test_revisions_and_folders_that_do_not_exist_are_errors(ops_nn, capsys, monkeypatch):
    code, out, _ = run(["diff", "--git", "HEAD~5...HEAD", "--format", "json"], ops_nn, capsys, monkeypatch)
    assert code == 0 and json.loads(out)["changes"]  # A...B: from the merge base
    code, _, err = run(["diff", "--git", "origin/main...HEAD"], ops_nn, capsys, monkeypatch)
    assert code == 2 and "unknown revision 'origin/main'" in err
    code, _, err = run(["diff", "--git", "HEAD~1..HEAD", "no_such_folder"], ops_nn, capsys, monkeypatch)
    assert code == 2 and "no such folder: no_such_folder" in err
    code, _, err = run(["diff", "--git=--output=leak..HEAD"], ops_nn, capsys, monkeypatch)
    assert code == 2 and "unknown revision '--output=leak'" in err and not (ops_nn / "leak").exists()
    code, out, _ = run(["diff", "--git", "HEAD", "--format", "json"], ops_nn, capsys, monkeypatch)
    assert code == 0 and json.loads(out)["changes"] == []  # a clean working tree


def test_the_mainline_document_wins_over_its_experimental_copy_everywhere(ops_nn_copy, tmp_path, capsys, monkeypatch):
    copy = ops_nn_copy / KL_DIV_COPY / "docs/aclnnKlDivBackward.md"
    text = copy.read_text(encoding="utf-8")
    assert "    int64_t          reduction," in text
    copy.write_text(
        text.replace("    int64_t          reduction,", "    const char*      reduction,"), encoding="utf-8"
    )
    out = tmp_path / "out"
    # The copy is given first: precedence, not path order, decides.
    code, _, err = run(["generate", KL_DIV_COPY, KL_DIV, "-o", str(out), "-v"], ops_nn_copy, capsys, monkeypatch)
    assert code == 0, err
    header = (out / "include/aclnnop/aclnn_kl_div_backward.h").read_text(encoding="utf-8")
    assert "int64_t reduction" in header and "char* reduction" not in header
    assert "experimental" not in header
    notes = [line for line in err.splitlines() if "[duplicate-document]" in line]
    assert len(notes) == 1 and notes[0].startswith(f"{KL_DIV_COPY}/docs/aclnnKlDivBackward.md:")
    # lint reads every document, the set-aside copy too, and locates its findings there
    mainline = (ops_nn_copy / KL_DIV / "docs/aclnnKlDivBackward.md").read_text(encoding="utf-8")
    prototype = mainline[mainline.index("aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(") :]
    (tmp_path / "include").mkdir()
    (tmp_path / "include/aclnn_kl_div_backward.h").write_text(prototype[: prototype.index(")") + 1] + ";\n")
    args = ["lint", KL_DIV_COPY, KL_DIV, "--headers", str(tmp_path / "include"), "--format", "json"]
    code, out_json, _ = run(args, ops_nn_copy, capsys, monkeypatch)
    typed = [f for f in json.loads(out_json)["findings"] if f["rule"] == "header-param-type"]
    assert [f["path"] for f in typed] == [f"{KL_DIV_COPY}/docs/aclnnKlDivBackward.md"]
    code, out_json, _ = run(["diff", "--git", "HEAD", "--format", "json"], ops_nn_copy, capsys, monkeypatch)
    assert code == 0 and json.loads(out_json)["changes"] == []  # the copy is set aside on both sides


# ---------------------------------------------------------------- generate


def test_output_names_no_checkout_and_the_cache_key_covers_it(ops_nn_copy, tmp_path, capsys, monkeypatch):
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    assert run(["generate", KL_DIV, "-o", str(inside)], ops_nn_copy, capsys, monkeypatch)[0] == 0
    given = f"{ops_nn_copy.name}/{KL_DIV}"
    assert run(["generate", given, "-o", str(outside)], ops_nn_copy.parent, capsys, monkeypatch)[0] == 0
    files = tree(inside)
    assert files == tree(outside)
    assert not [p for p, data in files.items() if ops_nn_copy.name.encode() in data]
    moved = shutil.copytree(ops_nn_copy, tmp_path / "renamed-checkout", symlinks=True)
    for extra in ([], ["--no-cache"]):
        code, listed, _ = run(["generate", KL_DIV, "-o", str(inside), "--check", *extra], moved, capsys, monkeypatch)
        assert (code, listed) == (0, "")
    cache = inside / ".specgen-cache"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"


def test_check_tells_drift_from_document_errors(ops_nn_copy, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    broken = "experimental/loss/mse_loss_grad"  # `onst aclTensor*` in its prototype
    args = ["generate", KL_DIV, broken, "-o", str(out)]
    code, _, err = run(args, ops_nn_copy, capsys, monkeypatch)
    assert code == 1 and "[doc-prototype-syntax]" in err
    code, listed, err = run([*args, "--check"], ops_nn_copy, capsys, monkeypatch)
    assert (code, listed) == (0, "")  # current: the document's error is listed, and fails parse and lint
    assert "[doc-prototype-syntax]" in err
    (out / "samples/kl_div_backward.cpp").write_text("// edited\n", encoding="utf-8")
    code, listed, _ = run([*args, "--check"], ops_nn_copy, capsys, monkeypatch)
    assert (code, listed) == (3, "~ samples/kl_div_backward.cpp\n")


def test_the_generated_package_installs_and_imports_in_a_fresh_venv(ops_nn_copy, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    assert run(["generate", KL_DIV, "-o", str(out)], ops_nn_copy, capsys, monkeypatch)[0] == 0
    metadata = (out / "python/pyproject.toml").read_text(encoding="utf-8")
    assert 'requires-python = ">=3.11"' in metadata and '"numpy>=1.26"' in metadata
    assert 'ml-dtypes = ["ml_dtypes>=0.4"]' in metadata
    assert re.search(r'^version = "0\.0\.0"$', metadata, re.M)  # not following the documents: no drift per edit
    assert (out / "python/aclnn_ops/py.typed").is_file()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(out / "python")], capture_output=True, text=True, check=False
    )
    if install.returncode != 0 and re.search(r"No matching distribution|Could not find a version", install.stderr):
        pytest.skip("no package index reachable for setuptools and numpy")
    assert install.returncode == 0, install.stderr
    probe = "import aclnn_ops, aclnn_ops.kl_div_backward as k; print(k.__name__)"
    imported = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert imported.stdout.strip() == "aclnn_ops.kl_div_backward", imported.stderr
    # What the install built in place (build/, *.egg-info) is no reason to refuse the folder.
    assert run(["generate", KL_DIV, "-o", str(out)], ops_nn_copy, capsys, monkeypatch)[0] == 0


# ---------------------------------------------------------------- pre-commit hooks


def _hooks() -> list[dict[str, str]]:
    """The hooks file, read as the flat list of mappings it is (no YAML parser needed)."""
    hooks: list[dict[str, str]] = []
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^(- |  )(\w+): (.*)$", line):
            if m.group(1) == "- ":
                hooks.append({})
            hooks[-1][m.group(2)] = m.group(3)
    return hooks


def test_hooks_work_as_written_on_the_repository(ops_nn_copy):
    hooks = {h["id"]: h for h in _hooks()}
    assert set(hooks) == {"specgen-drift", "specgen-parse", "specgen-lint"}
    tracked = git(ops_nn_copy, "ls-files").split("\n")
    changed = git(ops_nn_copy, "diff", "--name-only", "--diff-filter=d", "HEAD~5", "HEAD").split("\n")
    read = {p.relative_to(ops_nn_copy).as_posix() for p in discover([ops_nn_copy])}
    (ops_nn_copy / "specgen.toml").write_text(f'paths = ["{KL_DIV}"]\noutput = "generated"\n', encoding="utf-8")
    specgen = [sys.executable, "-m", "specgen"]
    subprocess.run([*specgen, "generate"], cwd=ops_nn_copy, check=True, capture_output=True)
    for hook in hooks.values():
        pattern = re.compile(hook["files"])
        assert {p for p in tracked if pattern.search(p)} == read  # a hook runs when what specgen reads changes
        files = [p for p in changed if pattern.search(p)]
        command = hook["entry"].split()[1:]
        args = command if hook.get("pass_filenames") == "false" else command + files
        result = subprocess.run([*specgen, *args], cwd=ops_nn_copy, capture_output=True, text=True, check=False)
        expected = (0,) if hook["id"] == "specgen-drift" else (0, 1)
        assert result.returncode in expected, (hook["id"], result.stderr[-2000:])
        if hook["id"] == "specgen-parse":
            assert files and result.stdout == ""


def test_bad_worker_counts_are_usage_errors(capsys):
    for value in ("0", "-3", "two"):
        assert main(["generate", "-j", value]) == 2
        assert "-j/--jobs" in capsys.readouterr().err
