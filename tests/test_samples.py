"""The generated C++ samples of the seeds: compiled with -Werror against the stand-in, run,
and their printed outputs checked against the NumPy references."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess

import numpy as np
import pytest

from specgen.codegen.lower import operator_code
from specgen.parse import parse_file
from tests.conftest import GENERATED, SEED_OPERATORS, SPECS

SOURCES = {
    "hardshrink_backward": "aclnnHardshrinkBackward.md",
    "soft_margin_loss_backward": "aclnnSoftMarginLossBackward.md",
    "tanh_backward": "aclnnTanhBackward.md",
}
CXXFLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror"]
_LINE = re.compile(r"^(\w+)\[(\d+)\] = (\S+)$")


def build(standin, tmp_path, snake: str):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    exe = tmp_path / snake
    lib = standin / "lib64"
    subprocess.run(
        [
            "g++",
            *CXXFLAGS,
            f"-I{standin / 'include'}",
            f"-I{GENERATED / 'include'}",
            str(GENERATED / "samples" / f"{snake}.cpp"),
            "-o",
            str(exe),
            f"-L{lib}",
            "-lascendcl",
            "-lnnopbase",
            "-lopapi",
            f"-Wl,-rpath,{lib}",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return exe


def printed(output: str) -> dict[str, list[float]]:
    values: dict[str, list[float]] = {}
    for line in output.splitlines():
        match = _LINE.match(line)
        assert match, f"unexpected sample output line {line!r}"
        values.setdefault(match.group(1), []).append(float(match.group(3)))
    return values


def reference(snake: str):
    path = GENERATED / "tests" / "references" / f"{snake}.py"
    spec = importlib.util.spec_from_file_location(f"reference_{snake}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, snake)


@pytest.mark.parametrize("snake", SEED_OPERATORS)
def test_sample_runs_and_prints_the_reference_result(standin, tmp_path, snake):
    exe = build(standin, tmp_path, snake)
    result = subprocess.run([str(exe)], capture_output=True, text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    values = printed(result.stdout)

    fn = operator_code(parse_file(SPECS / SOURCES[snake]), SOURCES[snake]).functions[0]
    plan = {a.name: a for a in fn.sample.args}
    inputs = {}
    for arg in fn.wrapper:
        sample = plan[arg.name]
        if arg.output:
            continue
        if sample.kind == "tensor":  # the data the sample spells out (inputs are not printed)
            data = [float(v.removesuffix("f")) for v in sample.values]
            inputs[arg.py_name] = np.array(data, dtype=np.float32).reshape(sample.shape)
        else:
            inputs[arg.py_name] = sample.value
    (output,) = [a for a in fn.wrapper if a.output]
    expected = np.asarray(reference(snake)(**inputs), dtype=np.float64).ravel()
    np.testing.assert_allclose(values[output.name], expected, rtol=1e-6, atol=1e-6)
    # Only the outputs are printed after the call.
    assert set(values) == {a.name for a in fn.sample.args if a.prints}


@pytest.mark.parametrize("snake", SEED_OPERATORS)
def test_sample_releases_everything(standin, tmp_path, snake):
    """valgrind finds no leak: every tensor, scalar and device buffer is released."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not available")
    exe = build(standin, tmp_path, snake)
    result = subprocess.run(
        ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=9", str(exe)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "in use at exit: 0 bytes" in result.stderr


@pytest.mark.parametrize("failing", ["aclnnTanhBackwardGetWorkspaceSize", "aclnnTanhBackward"])
def test_sample_reports_a_failing_call_and_still_releases_everything(standin, tmp_path, failing):
    exe = build(standin, tmp_path, "tanh_backward")
    command = [str(exe)]
    valgrind = shutil.which("valgrind")
    if valgrind:
        command = [
            valgrind,
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
            "--error-exitcode=9",
            *command,
        ]
    result = subprocess.run(
        command, capture_output=True, text=True, check=False, timeout=120, env={"STANDIN_FAIL": failing}
    )
    assert result.returncode == 1, result.stderr[-3000:]
    assert f"{failing} failed: error 161002" in result.stderr
    assert "gradInput[0]" not in result.stdout
    if valgrind:
        assert "in use at exit: 0 bytes" in result.stderr


def test_a_derived_value_meets_the_set_its_error_row_gives(corpus):
    """aclnnReluGradV4 (ops-nn experimental): '当前实现仅接受 `threshold == 0`' and the 161002 row
    'threshold不等于0': the derived sample passes 0, where it passed 1 and broke that row."""
    [path] = (corpus / "docs" / "ops-nn").glob("experimental/**/aclnnReluGradV4.md")
    (fn,) = operator_code(parse_file(path), str(path)).functions
    [threshold] = [a for a in fn.sample.args if a.name == "threshold"]
    assert threshold.value == 0
    assert fn.cases.unmet == ()
