"""APIs outside the two-phase convention, generated as their documents declare them: a
single-phase API (one call, no workspace or executor: `aclnnCalculateConvolutionWeightSize`
of ops-math, modelled by the fixture tests/single_phase/) and an execute function whose
parameters are in another order than the convention's.

The truths are the documents' own: the prototype in the document's fence, compiled by gcc as
the definition of a stand-in library with the generated header force-included (a declaration
that differs is a build error); the document's sample call, whose arguments the library
records and must receive from the wrapper; and the documented error table."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from specgen.parse import parse_file
from tests.conftest import ROOT, SPECS
from tests.oracle import run_in_package
from tests.test_diff import SINGLE_PHASE
from tests.test_samples import CXXFLAGS
from tests.wrapper_calls import build_operator_library

FIXTURE = ROOT / "tests" / "single_phase" / "aclnnCalculateConvolutionWeightSize.md"
SNAKE = "calculate_convolution_weight_size"
ACL_FLOAT16 = 1  # aclDataType's value, as CANN's acl_base.h numbers it
_PROTOTYPE = re.compile(r"aclnnStatus\s+aclnnCalculateConvolutionWeightSize\s*\((.*?)\)", re.S)

# The stand-in library's definition: records what it receives, rejects what the document's
# error table names, writes the element count.
_DEFINITION = """
{prototype} {{
  FILE* f = rec_open("aclnnCalculateConvolutionWeightSize");
  if (f) {{
    rec_int_array(f, tensorShape);
    fprintf(f, ",%s,%lld,%d", transposed ? "true" : "false", (long long)groups, (int)dataType);
    fputs("]}}\\n", f);
    fclose(f);
  }}
  if (tensorShape == NULL || weightTensorSize == NULL) return 161001;
  if (groups < 1 || groups > 65535 || tensorShape->size != 4) return 161002;
  uint64_t count = 1;
  for (uint64_t i = 0; i < tensorShape->size; i++) count *= (uint64_t)tensorShape->values[i];
  *weightTensorSize = count;
  return ACLNN_SUCCESS;
}}
"""


def _generate(docs: Path, out: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "specgen", "generate", str(docs), "-o", str(out), "--no-cache"]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _sample(out: Path, snake: str, root: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """The generated sample compiled with g++ against the generated header and run."""
    exe = _build_sample(out, snake, root, tmp_path)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=False, timeout=60, env=_env(root, tmp_path))


def _build_sample(out: Path, snake: str, root: Path, tmp_path: Path) -> Path:
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    exe, lib = tmp_path / snake, root / "lib64"
    command = ["g++", *CXXFLAGS, f"-I{root / 'include'}", f"-I{out / 'include'}", str(out / "samples" / f"{snake}.cpp")]
    command += ["-o", str(exe), f"-L{lib}", "-lascendcl", "-lnnopbase", "-lopapi", f"-Wl,-rpath,{lib}"]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    return exe


def _env(root: Path, tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "ASCEND_HOME_PATH": str(root), "STANDIN_RECORD": str(tmp_path / "calls.jsonl")}


@pytest.fixture
def gcc():
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")


# ---------------------------------------------------------------- single-phase: the model


def test_a_single_phase_document_is_modelled_with_its_call_and_rules():
    doc = parse_file(FIXTURE)
    assert doc.functions == () and [f.name for f in doc.single_phase] == ["aclnnCalculateConvolutionWeightSize"]
    (fn,) = doc.single_phase
    assert [(p.name, p.direction) for p in fn.params] == [
        ("tensorShape", "in"),
        ("transposed", "in"),
        ("groups", "in"),
        ("dataType", "in"),
        ("weightTensorSize", "out"),
    ]
    assert [p.name for p in fn.params if p.out_value] == ["weightTensorSize"]
    # the document's error table and its sample's call (`&weightTensorSize` is an address)
    assert [(e.code, e.params) for e in fn.errors] == [
        (161001, ("tensorShape",)),
        (161001, ("weightTensorSize",)),
        (161002, ("groups",)),
        (161002, ("tensorShape",)),
    ]
    assert fn.sample_call is not None and fn.sample_call.resolved
    assert [a.kind for a in fn.sample_call.args] == ["int_array", "value", "value", "value", "address"]
    assert fn.sample_call.args[0].elements == (64, 32, 3, 3)
    # said once, at info, as generated
    assert [(d.severity, d.code) for d in doc.diagnostics] == [("info", "single-phase")]
    assert "generated as one call" in doc.diagnostics[0].message


def test_a_single_phase_api_generated_code_cannot_pass_is_said_not_generated(write_doc, tmp_path):
    """aclnnTransQuantParam takes `const float*` host buffers: modelled, not generated, with the
    parameter that stops it; no error, and no operator output."""
    doc = parse_file(write_doc(SINGLE_PHASE, "aclnnTransQuantParam.md"))
    (diagnostic,) = doc.diagnostics
    assert (diagnostic.severity, diagnostic.code) == ("info", "single-phase")
    assert "not generated" in diagnostic.message and "scaleArray, a const float*" in diagnostic.message
    result = _generate(tmp_path / "aclnnTransQuantParam.md", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "out" / "include" / "aclnnop" / "aclnn_trans_quant_param.h").exists()


# ---------------------------------------------------------------- single-phase: the whole chain


@pytest.fixture(scope="module")
def single_phase(tmp_path_factory):
    """The fixture generated, and the stand-in with a library defining the function by the
    document's own prototype text, compiled with the generated header force-included."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")
    tmp = tmp_path_factory.mktemp("single")
    docs = tmp / "docs"
    docs.mkdir()
    shutil.copy(FIXTURE, docs)
    out = tmp / "out"
    result = _generate(docs, out)
    assert result.returncode == 0, result.stderr
    header = out / "include" / "aclnnop" / f"aclnn_{SNAKE}.h"
    match = _PROTOTYPE.search(FIXTURE.read_text(encoding="utf-8"))
    assert match is not None
    prototype = f"aclnnStatus aclnnCalculateConvolutionWeightSize({match.group(1)})"
    root = build_operator_library(tmp / "cann", _DEFINITION.format(prototype=prototype), [header])
    return out, root


_CALL = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import aclnn_ops
from aclnn_ops import calculate_convolution_weight_size as op

def status(call):
    try:
        call()
    except aclnn_ops.AclnnError as exc:
        return exc.status
    return 0

aclnn_ops.load()
args = json.load(sys.stdin)
print(json.dumps({
    "returned": op.calculate_convolution_weight_size(*args),
    "null_shape": status(lambda: op.validate(None, *args[1:])),
    "groups_0": status(lambda: op.validate(args[0], args[1], 0, args[3])),
    "library_null_shape": status(lambda: op._run_calculate_convolution_weight_size(None, *args[1:])),
}))
"""


def test_the_single_phase_wrapper_makes_the_documents_call_and_returns_the_size(single_phase, tmp_path):
    out, root = single_phase
    call = parse_file(FIXTURE).single_phase[0].sample_call
    assert call is not None
    args = [list(call.args[0].elements or ()), call.args[1].value, call.args[2].value, call.args[3].value]
    result = run_in_package(_CALL, out / "python", args, _env(root, tmp_path))
    assert result["returned"] == 64 * 32 * 3 * 3  # what the library wrote through the pointer
    # the last call the library saw (the wrapper's; the validator stops the null one first)
    recorded = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert recorded[0]["args"] == [{"k": "array", "values": [64, 32, 3, 3]}, False, 1, ACL_FLOAT16]
    # the documented rules: a null tensorShape is 161001, groups outside [1, 65535] is 161002
    assert (result["null_shape"], result["groups_0"]) == (161001, 161002)
    assert result["library_null_shape"] == 161001  # and the unchecked call reaches the library


def test_the_single_phase_sample_compiles_runs_and_prints_the_size(single_phase, tmp_path):
    out, root = single_phase
    sample = (out / "samples" / f"{SNAKE}.cpp").read_text(encoding="utf-8")
    assert "The arguments are those of the document's own call" in sample
    result = _sample(out, SNAKE, root, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"weightTensorSize = {64 * 32 * 3 * 3}"]
    recorded = json.loads((tmp_path / "calls.jsonl").read_text().splitlines()[-1])
    assert recorded["args"] == [{"k": "array", "values": [64, 32, 3, 3]}, False, 1, ACL_FLOAT16]


def test_the_single_phase_sample_releases_everything(single_phase, tmp_path):
    """valgrind finds no leak: the int array is destroyed, the runtime released."""
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is not available")
    out, root = single_phase
    exe = _build_sample(out, SNAKE, root, tmp_path)
    command = ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "--error-exitcode=9"]
    result = subprocess.run(
        [*command, str(exe)], capture_output=True, text=True, check=False, timeout=120, env=_env(root, tmp_path)
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "in use at exit: 0 bytes" in result.stderr


def test_a_single_phase_sample_derived_from_the_rules_compiles(single_phase, tmp_path):
    """Without the document's sample the call is derived; it still builds against the header."""
    _, root = single_phase
    text = FIXTURE.read_text(encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / FIXTURE.name).write_text(text[: text.index("## 调用示例")], encoding="utf-8")
    result = _generate(docs, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    sample = (tmp_path / "out" / "samples" / f"{SNAKE}.cpp").read_text(encoding="utf-8")
    assert "Arguments derived from the documented rules" in sample
    _build_sample(tmp_path / "out", SNAKE, root, tmp_path)


def test_the_generated_tests_of_a_single_phase_api_pass_against_the_library(single_phase, tmp_path):
    out, root = single_phase
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(out / "tests")],
        capture_output=True,
        text=True,
        check=False,
        cwd=out,
        env={**_env(root, tmp_path), "PYTHONPATH": str(out / "python")},
    )
    assert result.returncode == 0, result.stdout[-4000:]
    assert " passed" in result.stdout.splitlines()[-1]


# ---------------------------------------------------------------- an execute function of another signature

_CONVENTION = "aclnnTanhBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)"
_SAMPLE_CALL = "(workspaceAddr, workspaceSize, executor, stream)"
# Documented execute signatures other than the convention's: (prototype, the sample's call,
# what the stand-in checks it receives, what the warning says, the parameter bullets as the
# document then says them).
SIGNATURES = {
    "reordered": (
        "aclnnTanhBackward(void *workspace, uint64_t workspaceSize, aclrtStream stream, aclOpExecutor *executor)",
        "(workspaceAddr, workspaceSize, stream, executor)",
        "executor == (aclOpExecutor*)&executor_token && stream != NULL",
        "the same parameters in another order",
        {},
    ),
    "no stream": (
        "aclnnTanhBackward(void *workspace, uint64_t workspaceLen, aclOpExecutor *executor)",
        "(workspaceAddr, workspaceSize, executor)",
        "executor == (aclOpExecutor*)&executor_token",
        "no stream",
        {
            "  - stream：指定执行任务的AscendCL stream流。\n": "",
            "  - workspaceSize：在Device": "  - workspaceLen：在Device",
        },
    ),
}
# The library: the first phase hands out the executor token; the execute function, defined by
# the documented prototype, fails unless it receives that token (and the stream) where it says.
_LIBRARY = """
aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                              aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
  (void)gradOutput; (void)output; (void)gradInput;
  return rec_close(NULL, workspaceSize, executor);
}
aclnnStatus %s {
  (void)workspace;
  return %s ? ACLNN_SUCCESS : 161002;
}
"""


def _document(tmp_path: Path, prototype: str, call: str, bullets: dict[str, str]) -> Path:
    """The seed aclnnTanhBackward with its execute function documented as `prototype`."""
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    assert text.count(_CONVENTION) == 2 and text.count(_SAMPLE_CALL) == 1  # outline, prototype; sample
    for old, new in bullets.items():
        assert text.count(old) == 1
        text = text.replace(old, new)
    docs = tmp_path / "docs"
    docs.mkdir()
    path = docs / "aclnnTanhBackward.md"
    path.write_text(text.replace(_CONVENTION, prototype).replace(_SAMPLE_CALL, call), encoding="utf-8")
    return path


@pytest.mark.parametrize("signature", SIGNATURES)
def test_an_execute_function_of_another_signature_is_one_warning_saying_how(tmp_path, signature):
    prototype, call, _, how, bullets = SIGNATURES[signature]
    doc = parse_file(_document(tmp_path, prototype, call, bullets))
    warnings = [d for d in doc.diagnostics if d.severity != "info"]
    (said,) = [d for d in warnings if d.code == "execute-signature"]
    assert [d.code for d in warnings if d.code != "name-typo"] == ["execute-signature"]
    assert f": {how}; generated as documented" in said.message
    documented = [p.strip().split()[-1].lstrip("*") for p in prototype.split("(")[1].rstrip(")").split(",")]
    assert [p.name for p in doc.functions[0].execute_params] == documented


@pytest.mark.parametrize("signature", SIGNATURES)
def test_an_execute_function_of_another_signature_is_generated_as_documented(gcc, tmp_path, signature):
    prototype, call, check, _, bullets = SIGNATURES[signature]
    path = _document(tmp_path, prototype, call, bullets)
    out = tmp_path / "out"
    result = _generate(path.parent, out)
    assert result.returncode == 0 and "[lower]" not in result.stderr, result.stderr
    header = out / "include" / "aclnnop" / "aclnn_tanh_backward.h"
    root = build_operator_library(tmp_path / "cann", _LIBRARY % (prototype, check), [header])
    # the binding passes the executor (and the stream) where the document puts them
    script = (
        "import sys, json\nsys.path.insert(0, sys.argv[1])\nimport numpy as np, aclnn_ops\n"
        "from aclnn_ops import tanh_backward as op\naclnn_ops.load()\n"
        "x = np.ones((2, 3), np.float32)\nprint(json.dumps(op.tanh_backward(x, x).shape))\n"
    )
    assert run_in_package(script, out / "python", None, _env(root, tmp_path)) == [2, 3]
    # and so does the sample
    sample = _sample(out, "tanh_backward", root, tmp_path)
    assert sample.returncode == 0, sample.stderr


def test_an_execute_function_with_a_parameter_no_code_can_supply_is_one_lower_error(tmp_path):
    """Generated code has nothing to pass for `int64_t flags`: one error saying so, no warning
    promising it is generated as documented."""
    prototype = _CONVENTION.replace("aclrtStream stream)", "aclrtStream stream, int64_t flags)")
    path = _document(tmp_path, prototype, "(workspaceAddr, workspaceSize, executor, stream, 0)", {})
    result = _generate(path.parent, tmp_path / "out")
    said = [line for line in result.stderr.splitlines() if "aclnnTanhBackward" in line and "[name-typo]" not in line]
    assert result.returncode == 1 and len(said) == 1 and said[0].endswith("[lower]"), result.stderr


# ---------------------------------------------------------------- a first phase writing a plain value

_GWS_TAIL = "aclTensor *gradInput, uint64_t *workspaceSize"
_COUNTING_LIBRARY = """
aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                              aclTensor* gradInput, int64_t* elementCount, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  (void)gradOutput; (void)output;
  if (gradInput == NULL || elementCount == NULL) return 161001;
  *elementCount = 1;
  for (uint64_t d = 0; d < gradInput->ndim; d++) *elementCount *= gradInput->dims[d];
  return rec_close(NULL, workspaceSize, executor);
}
aclnnStatus aclnnTanhBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  (void)workspace; (void)workspaceSize; (void)executor; (void)stream;
  return ACLNN_SUCCESS;
}
"""


def test_a_value_a_first_phase_writes_through_a_pointer_is_returned(gcc, tmp_path):
    """A first phase with an `int64_t* elementCount` out-parameter: the wrapper returns it after
    the output, the sample prints it (a two-phase function with one was a lower error)."""
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    gradinput_bullet = next(line for line in text.splitlines(keepends=True) if line.startswith("  - gradInput："))
    assert text.count(_GWS_TAIL) == 2 and text.count("gradInput, &workspaceSize") == 1
    text = text.replace(_GWS_TAIL, "aclTensor *gradInput, int64_t *elementCount, uint64_t *workspaceSize")
    text = text.replace(gradinput_bullet, gradinput_bullet + "  - elementCount：输出gradInput的元素个数。\n")
    text = text.replace("gradInput, &workspaceSize", "gradInput, &elementCount, &workspaceSize")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "aclnnTanhBackward.md").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = _generate(docs, out)
    assert result.returncode == 0, result.stderr
    header = out / "include" / "aclnnop" / "aclnn_tanh_backward.h"
    root = build_operator_library(tmp_path / "cann", _COUNTING_LIBRARY, [header])
    script = (
        "import sys, json\nsys.path.insert(0, sys.argv[1])\nimport numpy as np, aclnn_ops\n"
        "from aclnn_ops import tanh_backward as op\naclnn_ops.load()\n"
        "x = np.ones((2, 3), np.float32)\ngrad, count = op.tanh_backward(x, x)\n"
        "print(json.dumps([grad.shape, count]))\n"
    )
    assert run_in_package(script, out / "python", None, _env(root, tmp_path)) == [[2, 3], 6]
    sample = _sample(out, "tanh_backward", root, tmp_path)
    assert sample.returncode == 0, sample.stderr
    assert "elementCount = 8" in sample.stdout.splitlines()  # the document's gradInput is {4, 2}
