"""`specgen generate`: the golden record, determinism, the writer's guarantees."""

from __future__ import annotations

import filecmp
import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen.formatting import clang_format_binary
from tests.conftest import GENERATED, ROOT, SPECS, tree

TEMPLATES = ROOT / "templates"

REFRESH = "specgen generate specs -o generated"


def generate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "specgen", "generate", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


def copy_specs(tmp_path: Path) -> Path:
    docs = tmp_path / "specs"
    shutil.copytree(SPECS, docs)
    return docs


def test_golden_record_is_current(tmp_path):
    out = tmp_path / "generated"
    result = generate(str(SPECS), "-o", str(out))
    assert result.returncode == 0, result.stderr
    fresh, golden = tree(out), tree(GENERATED)
    stale = sorted(p for p in fresh.keys() | golden.keys() if fresh.get(p) != golden.get(p))
    assert not stale, f"generated/ is out of date ({', '.join(stale)}); refresh it with: {REFRESH}"


def test_output_does_not_depend_on_hash_seed_or_location(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert generate(str(SPECS), "-o", str(first), env={"PYTHONHASHSEED": "1"}).returncode == 0
    assert (
        generate(str(copy_specs(tmp_path / "elsewhere")), "-o", str(second), env={"PYTHONHASHSEED": "2"}).returncode
        == 0
    )
    assert tree(first) == tree(second)


def test_check_reports_drift_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    header = out / "include/aclnnop/aclnn_tanh_backward.h"
    header.write_text("/* edited */\n", encoding="utf-8")
    (out / "samples/hardshrink_backward.cpp").unlink()
    result = generate(str(SPECS), "-o", str(out), "--check")
    assert result.returncode == 3  # out of date; 1 is kept for document errors
    assert result.stdout.splitlines() == [
        "~ include/aclnnop/aclnn_tanh_backward.h",
        "+ samples/hardshrink_backward.cpp",
    ]
    assert header.read_text(encoding="utf-8") == "/* edited */\n"  # --check wrote nothing
    assert REFRESH.split()[0] in result.stderr


def test_writes_only_what_changed(tmp_path):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    time.sleep(0.01)
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    after = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    # the cache's record is written again once, with the stamps of the files it hashed
    assert {p for p in after if after[p] != before[p]} == {out / ".specgen-cache/state.json"}
    time.sleep(0.01)
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == after  # then nothing


def test_removes_files_of_operators_that_are_gone_and_nothing_else(tmp_path):
    docs, out = copy_specs(tmp_path), tmp_path / "out"
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    (docs / "aclnnTanhBackward.md").unlink()
    mine = out / "include" / "notes.txt"
    mine.write_text("mine", encoding="utf-8")
    assert main(["generate", str(docs), "-o", str(out), "--force"]) == 0
    assert not (out / "include/aclnnop/aclnn_tanh_backward.h").exists()
    assert not (out / "python/aclnn_ops/tanh_backward.py").exists()
    assert (out / "include/aclnnop/aclnn_hardshrink_backward.h").exists()
    assert mine.read_text(encoding="utf-8") == "mine"
    # The user's reference file is theirs: it stays even though the operator is gone.
    assert (out / "tests/references/tanh_backward.py").exists()


def test_refuses_a_folder_it_did_not_generate(tmp_path, capsys):
    out = tmp_path / "project"
    out.mkdir()
    (out / "main.c").write_text("int main(void) { return 0; }\n", encoding="utf-8")
    assert main(["generate", str(SPECS), "-o", str(out)]) == 2
    assert "main.c" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["main.c"]
    assert main(["generate", str(SPECS), "-o", str(out), "--force"]) == 0
    assert (out / "main.c").exists() and (out / "samples").is_dir()


def test_user_reference_files_survive_regeneration(tmp_path):
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    reference = out / "tests/references/tanh_backward.py"
    reference.write_text("def tanh_backward(grad_output, output):\n    return grad_output\n", encoding="utf-8")
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    assert main(["generate", str(SPECS), "-o", str(out), "--check"]) == 0
    assert "return grad_output" in reference.read_text(encoding="utf-8")


def test_templates_override_by_file_name(tmp_path):
    override = tmp_path / "templates"
    override.mkdir()
    (override / "header.h.jinja").write_text("/* {{ op.snake }} by my template */\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out), "--templates", str(override)]) == 0
    assert (out / "include/aclnnop/aclnn_tanh_backward.h").read_text(
        encoding="utf-8"
    ) == "/* tanh_backward by my template */\n"
    assert filecmp.cmp(out / "samples/tanh_backward.cpp", GENERATED / "samples/tanh_backward.cpp", shallow=False)


@pytest.mark.parametrize(
    ("template", "where"),
    [("ok\n{{ op.no_such_field.x }}\n", "header.h.jinja:2: "), ("{% if %}\n", "header.h.jinja:1: ")],
)
def test_a_broken_template_override_is_named_with_its_line(template, where, tmp_path, capsys):
    override = tmp_path / "templates"
    override.mkdir()
    (override / "header.h.jinja").write_text(template, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["generate", str(SPECS), "-o", str(out), "--templates", str(override)]) == 2
    assert f"{override / where}" in capsys.readouterr().err
    assert not out.exists()


def test_one_bad_document_does_not_stop_the_others(tmp_path):
    docs, out = copy_specs(tmp_path), tmp_path / "out"
    bad = docs / "aclnnBroken.md"
    bad.write_text(
        "# aclnnBroken\n\n```Cpp\naclnnStatus aclnnBrokenGetWorkspaceSize(onst aclTensor* x,\n"
        "    uint64_t* workspaceSize, aclOpExecutor** executor)\n```\n",
        encoding="utf-8",
    )
    result = generate(str(docs), "-o", str(out))
    assert result.returncode == 1
    assert f"{bad}:4: error:" in result.stderr
    assert sorted(p.name for p in (out / "samples").iterdir()) == [
        "hardshrink_backward.cpp",
        "soft_margin_loss_backward.cpp",
        "tanh_backward.cpp",
    ]


def test_usage_errors(tmp_path):
    assert generate(str(tmp_path / "nothing")).returncode == 2
    assert generate(str(SPECS), "--templates", str(tmp_path / "missing")).returncode == 2


@pytest.mark.slow
def test_whole_corpus_generates_and_every_sample_compiles(corpus, standin, tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    out = tmp_path / "out"
    started = time.perf_counter()
    # The folder selects the repository documents; the legacy ones (not named aclnn*.md) are named.
    legacy = sorted(str(p) for p in (corpus / "docs" / "legacy").glob("*.md"))
    result = generate(str(corpus / "docs"), *legacy, "-o", str(out))
    elapsed = time.perf_counter() - started
    assert result.returncode == 1  # the corpus has documents with errors; the others are generated
    samples = sorted((out / "samples").glob("*.cpp"))
    assert len(samples) > 450
    failures = _compile_all(samples, [f"-I{standin / 'include'}", f"-I{out / 'include'}"])
    print(f"\n{len(samples)} operators generated in {elapsed:.1f}s; {len(samples) - len(failures)} samples compile")
    assert failures == []
    # Long data lists are laid out in Python, not by clang-format: the result must be its own.
    c_files = [str(p) for p in sorted(out.rglob("*")) if p.suffix in (".cpp", ".h")]
    unformatted = subprocess.run(
        [clang_format_binary(), f"--style=file:{TEMPLATES / 'clang-format.yaml'}", "--dry-run", "--Werror", *c_files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert unformatted.returncode == 0, unformatted.stderr[-3000:]
    # I: the templates write imports in ruff's order (generate does not sort them)
    ruff = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--isolated",
            "--quiet",
            "--extend-select=I",
            str(out / "python"),
            str(out / "tests"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ruff.returncode == 0, ruff.stdout[-3000:]


def _compile_all(sources: list[Path], flags: list[str]) -> list[str]:
    """g++ -fsyntax-only on every file, as many at once as there are cores."""
    jobs = os.cpu_count() or 2
    failures, running = [], []
    for source in sources:
        command = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *flags, str(source)]
        running.append(
            (source, subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        )
        if len(running) >= jobs:
            failures += _reap(running.pop(0))
    for item in running:
        failures += _reap(item)
    return failures


def _reap(item: tuple[Path, subprocess.Popen]) -> list[str]:
    source, process = item
    _, err = process.communicate()
    return [f"{source.name}: {err[:500]}"] if process.returncode else []


def _generate_tree(docs, out, *args) -> dict[str, bytes]:
    assert main(["generate", str(docs), "-o", str(out), *args]) in (0, 1)
    return tree(out)


def test_same_output_with_and_without_cache_and_workers(corpus, tmp_path):
    docs = corpus / "docs" / "ops-nn" / "activation"  # enough documents for a real process pool
    plain = _generate_tree(docs, tmp_path / "plain", "--no-cache", "-j", "1")
    parallel = _generate_tree(docs, tmp_path / "parallel", "-j", "2")
    assert plain == parallel and len(plain) > 300
    assert (tmp_path / "parallel" / ".specgen-cache" / "state.json").is_file()
    assert not (tmp_path / "plain" / ".specgen-cache").exists()


def test_incremental_regeneration_matches_a_full_one(tmp_path):
    from specgen.codegen.generate import generate

    docs, out = copy_specs(tmp_path), tmp_path / "out"
    assert generate([docs], out).rendered == 5  # three operators, the shared files, the package metadata
    assert generate([docs], out).rendered == 0
    tanh = docs / "aclnnTanhBackward.md"
    tanh.write_text(tanh.read_text(encoding="utf-8").replace("DOUBLE、", ""), encoding="utf-8")
    result = generate([docs], out)
    # The validator, its tests and the model change; the sample keeps the document's own call.
    # The package's version does not follow the documents: its metadata is left alone.
    assert result.rendered == 1 and sorted(result.plan.write) == [
        "python/aclnn_ops/tanh_backward.py",
        "spec/tanh_backward.json",
        "tests/test_tanh_backward.py",
    ]
    full = tmp_path / "full"
    generate([docs], full, cache=False)
    assert tree(out) == tree(full)


def test_the_record_is_never_trusted_over_the_files(tmp_path):
    from specgen.codegen.generate import generate

    out = tmp_path / "out"
    generate([SPECS], out)
    sample = out / "samples/tanh_backward.cpp"
    good = sample.read_bytes()
    sample.write_text("// edited by hand\n", encoding="utf-8")
    result = generate([SPECS], out)
    assert result.rendered == 1 and sample.read_bytes() == good
    (out / ".specgen-cache" / "state.json").write_text("{not json", encoding="utf-8")
    assert generate([SPECS], out).plan.write == [] and sample.read_bytes() == good


def test_progress_bar_only_on_a_terminal():
    from specgen.parallel import Progress

    class Stream(io.StringIO):
        def __init__(self, tty: bool) -> None:
            super().__init__()
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    for tty in (False, True):
        stream = Stream(tty)
        progress = Progress("parsing", 100, stream)
        for _ in range(100):
            progress.step()
        progress.done()
        assert ("100/100" in stream.getvalue()) is tty


def test_a_function_named_like_a_python_keyword_gets_a_usable_wrapper(tmp_path):
    """aclnnImport would have been `def import(...)`: the whole run failed in ruff."""
    docs = copy_specs(tmp_path)
    tanh = (docs / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    imported = tanh.replace("aclnnTanhBackward", "aclnnImport").replace("aclnn_tanh_backward", "aclnn_import")
    (docs / "aclnnImport.md").write_text(imported, encoding="utf-8")
    out = tmp_path / "out"
    result = generate(str(docs), "-o", str(out))
    assert result.returncode == 0, result.stderr
    binding = next((out / "python" / "aclnn_ops").glob("import*.py")).read_text(encoding="utf-8")
    assert "def import_(" in binding and "def validate_import_(" in binding
