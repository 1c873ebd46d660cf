"""Generated operator modules are never shadowed by the package's own functions (issue 14,
item 6): aclnnLoad, aclnnAvailable and aclnnValidate get modules `load_`, `available_`,
`validate_`, while `aclnn_ops.load`, `.available` and `.validate` stay the package's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import layout
from tests.conftest import SPECS

OPERATORS = {"Load": "load", "Available": "available", "Validate": "validate"}
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
import aclnn_ops
from aclnn_ops import _runtime

own = sorted(n for n in vars(aclnn_ops) if n.islower() and not n.startswith("_"))
assert own == sorted(sys.argv[2].split(",")) == sorted(aclnn_ops._OWN_NAMES), own  # layout's rule, the runtime's
for name in own:
    module = getattr(aclnn_ops, name + "_")
    assert name in module.SPECS or f"aclnn{name.title()}" in module.SPECS, module
    assert callable(getattr(module, name))
    try:
        aclnn_ops.validate(f"aclnn{name.title()}", noSuchArgument=1)
    except TypeError as exc:  # found, by its document name: the arguments are wrong
        assert "its parameters are gradOutput, output, gradInput" in str(exc), exc
import aclnn_ops.load_, aclnn_ops.available_, aclnn_ops.validate_
assert aclnn_ops.load is _runtime.load and aclnn_ops.available is _runtime.available
assert aclnn_ops.validate.__module__ == "aclnn_ops"
print("ok")
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    docs = tmp_path_factory.mktemp("docs")
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    for camel, snake in OPERATORS.items():
        named = text.replace("aclnnTanhBackward", f"aclnn{camel}").replace("aclnn_tanh_backward", f"aclnn_{snake}")
        (docs / f"aclnn{camel}.md").write_text(named, encoding="utf-8")
    out = tmp_path_factory.mktemp("out") / "out"
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    return out


def test_the_package_functions_stay_and_every_operator_module_is_reachable(generated):
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(generated / "python"), ",".join(sorted(layout.PACKAGE_NAMES))],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.strip() == "ok", result.stderr


def test_files_take_the_module_name_and_the_header_keeps_the_cann_name(generated):
    for snake in OPERATORS.values():
        header = (generated / f"include/aclnnop/aclnn_{snake}.h").read_text(encoding="utf-8")
        assert f"#ifndef ACLNN_{snake.upper()}_H_" in header
        sample = (generated / f"samples/{snake}_.cpp").read_text(encoding="utf-8")
        assert f'#include "aclnnop/aclnn_{snake}.h"' in sample
        test = (generated / f"tests/test_{snake}_.py").read_text(encoding="utf-8")
        assert f"from aclnn_ops import {snake}_ as op" in test
        assert (generated / f"tests/references/{snake}_.py").is_file()
        assert (generated / f"spec/{snake}_.json").is_file()
    assert not (generated / "python/aclnn_ops/load.py").exists()


def test_the_generated_tests_of_renamed_operators_run(generated, tmp_path):
    tests = tmp_path / "tests"
    shutil.copytree(generated / "tests", tests)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(generated / "python")},
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout
