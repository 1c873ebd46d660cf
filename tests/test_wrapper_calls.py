"""The generated wrappers make their documents' own calls: each wrapper, called with its
document's sample arguments on the stand-in runtime, must pass the library what the
document's sample passes, argument by argument (see tests/wrapper_calls.py)."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from specgen.codegen.runtime._tensor import ACL_DTYPES, ACL_FORMATS
from specgen.parse import parse_paths
from tests.conftest import GENERATED, SPECS
from tests.oracle import chosen_functions, generate_package
from tests.wrapper_calls import WrapperCall, build_recorder, compare, differences, document_wrapper_calls, run_calls


@pytest.fixture(scope="module")
def gcc():
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")


@pytest.mark.parametrize("allocate", [False, True])
def test_seed_wrappers_make_their_documents_calls(gcc, tmp_path, allocate):
    docs = parse_paths([SPECS])
    resolved, calls = document_wrapper_calls(docs, allocate=allocate)
    assert resolved == len(calls) == 3
    functions = [chosen_functions(docs)[c.function][1] for c in calls]
    root = build_recorder(functions, tmp_path / "cann")
    results = run_calls(GENERATED / "python", root, calls)
    report = compare(resolved, calls, results)
    assert report.failures == {} and report.matched == 3
    # The comparison sees a scalar made with another dtype than the document's.
    hardshrink = next(i for i, c in enumerate(calls) if c.function == "aclnnHardshrinkBackward")
    call = calls[hardshrink]
    expected = [(n, {**v, "dtype": "INT64"} if n == "lambd" else v) for n, v in call.expected]
    assert [d.split(":")[0] for d in differences(replace(call, expected=expected), results[hardshrink])] == ["lambd"]


@pytest.mark.slow
def test_corpus_wrappers_make_their_documents_calls(gcc, corpus, tmp_path):
    pytest.importorskip("ml_dtypes")  # BFLOAT16 and FLOAT8 arrays
    docs = parse_paths([corpus / "docs"])
    resolved, calls = document_wrapper_calls(docs)
    functions = [chosen_functions(docs)[c.function][1] for c in calls]
    package = generate_package(corpus / "docs", tmp_path / "out")
    report = compare(resolved, calls, run_calls(package, build_recorder(functions, tmp_path / "cann"), calls))
    print(f"\n{resolved} resolved, {report.called} called, {report.matched} make the document's call")
    for reason, n in report.causes.most_common():
        print(f"  {n:4d}  {reason}")
    # every wrapper makes its call, 4-bit tensors (INT4, FLOAT4_E2M1) given as packed Tensors included
    assert report.failures == {}
    assert report.matched / resolved >= 0.9


@pytest.mark.slow
def test_a_caller_chosen_output_dtype_named_makes_the_documents_call(gcc, corpus, tmp_path):
    """Outputs whose dtype the document leaves to the caller (quant outputs listing several,
    related to no input): the wrapper refuses to guess, and given only the dtype the sample
    uses (`y_out_dtype="INT8"`) it allocates the rest and makes the document's call."""
    pytest.importorskip("ml_dtypes")
    docs = parse_paths([corpus / "docs"])
    resolved, left = document_wrapper_calls(docs, allocate=True)
    _, named = document_wrapper_calls(docs, allocate=True, name_dtypes=True)
    functions = [chosen_functions(docs)[c.function][1] for c in left]
    package = generate_package(corpus / "docs", tmp_path / "out")
    root = build_recorder(functions, tmp_path / "cann")
    before = compare(resolved, left, run_calls(package, root, left))
    after = compare(resolved, named, run_calls(package, root, named))
    refused = {f for f, diff in before.failures.items() if "gives no rule for its dtype" in " ".join(diff)}
    assert len(refused) >= 15  # ops-nn: RmsNormQuant, DynamicQuant, QuantMatmulV3...
    assert refused.isdisjoint(after.failures), {f: after.failures[f] for f in refused & set(after.failures)}
    assert set(after.failures) <= set(before.failures)  # naming a dtype breaks no other call


def test_a_0d_array_and_a_given_format_reach_the_library(gcc, tmp_path):
    docs = parse_paths([SPECS])
    root = build_recorder([fn for _, fn in chosen_functions(docs).values()], tmp_path / "cann")

    def tensor(shape, fmt=None):
        return {"array": [shape, "FLOAT"], "format": fmt}

    args = [
        {"py": "grad_output", "keyword": False, "value": tensor([])},  # 0-d: broadcasts
        {"py": "self", "keyword": False, "value": tensor([2, 3], "NCHW")},  # Tensor(array, "NCHW")
        {"py": "lambd", "keyword": False, "value": 1},  # an int for a FLOAT-only aclScalar
    ]
    call = WrapperCall("aclnnHardshrinkBackward", "hardshrink_backward", args, [], "")
    (result,) = run_calls(GENERATED / "python", root, [call])
    grad, x, lambd, grad_input = result["recorded"]
    assert (grad["shape"], x["shape"], x["format"]) == ([], [2, 3], ACL_FORMATS["NCHW"])
    assert lambd == {"k": "scalar", "dtype": ACL_DTYPES["FLOAT"], "value": 1.0}
    assert (grad_input["shape"], grad_input["format"]) == ([2, 3], ACL_FORMATS["ND"])
