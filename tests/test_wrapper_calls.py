"""The generated wrappers make their documents' own calls: each wrapper, called with its
document's sample arguments on the stand-in runtime, must pass the library what the
document's sample passes, argument by argument (see tests/wrapper_calls.py)."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from specgen.parse import parse_paths
from tests.conftest import GENERATED, SPECS
from tests.oracle import chosen_functions, generate_package
from tests.wrapper_calls import build_recorder, compare, differences, document_wrapper_calls, run_calls

# Functions whose wrapper cannot make the document's call, each with the reason.
_PACKED = "a 4-bit dtype ({}): ml_dtypes holds an element a byte where aclnn packs two, so no array carries it"
EXCEPTIONS = {
    "aclnnConvertWeightToINT4Pack": _PACKED.format("INT4"),
    "aclnnDynamicDualLevelMxQuant": _PACKED.format("FLOAT4_E2M1"),
    "aclnnMxToBlockMxQuant": _PACKED.format("FLOAT4_E2M1"),
    "aclnnQuantMatmulV5": _PACKED.format("FLOAT4_E2M1"),
}


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
    unexplained = {name: diff for name, diff in report.failures.items() if name not in EXCEPTIONS}
    assert unexplained == {}
    assert report.matched / resolved >= 0.9
