"""The generated wrappers make their documents' own calls: each wrapper, called with its
document's sample arguments on the stand-in runtime, must pass the library what the
document's sample passes, argument by argument (see tests/wrapper_calls.py)."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from specgen import config
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


# `python benchmarks/wrapper_calls.py --docs ../shared/corpus/docs --allocate` on the shared corpus
MIN_ALLOCATED_CALLS = 401 / 453


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
    # no rule, or cases that give several dtypes for the sample's inputs (QuantMatmulV3's table:
    # INT8 operands, a UINT64 scale and no offset give FLOAT16 or INT8)
    said = ("gives no rule for its dtype", "its dtype does not follow from these arguments")
    # the wrappers left to allocate what they can make the document's call, as measured (the
    # issue's target, 90%, is not met: the others' outputs are unstated, data-dependent or the caller's)
    assert before.matched / resolved >= MIN_ALLOCATED_CALLS, before.causes.most_common()
    refused = {f for f, diff in before.failures.items() if any(s in " ".join(diff) for s in said)}
    assert len(refused) >= 15  # ops-nn: RmsNormQuant, DynamicQuant, QuantMatmulV3...
    # a shape stated for some products only needs the product named too (aclnnRotateQuant yOut:
    # INT8 and INT32 lines under A3/910b only): the wrapper asks for it rather than guess
    products = {f for f, diff in after.failures.items() if all("give product=" in d for d in diff)}
    left = refused - products
    assert left.isdisjoint(after.failures), {f: after.failures[f] for f in left & set(after.failures)}
    assert set(after.failures) <= set(before.failures)  # naming a dtype breaks no other call


# The doc-site dialect's documents (corpus/docs/legacy: FlashAttention, IncreFlashAttention,
# Moe*, Swin*…), whose file names the default selection leaves out: `python
# benchmarks/wrapper_calls.py --docs ../shared/corpus/docs/legacy --config CFG --allocate`, CFG
# holding `include = ["*.md"]` (7 of 23 before the readers of issue 35c, 14 before issue 40b's:
# min() and scenario- or comparison-keyed cases of the MoE documents). 25 resolve since issue 42g
# (lists built in a counted loop): GroupedMatmul and GroupedMatmulV3 are refused, as their y list's
# element shapes (`y_i[m_i,n_i]=x_i[m_i,k_i]×weight_i[k_i,n_i]`, per scenario) are not read
MIN_LEGACY_ALLOCATED_CALLS = 17 / 25


@pytest.mark.slow
def test_doc_site_wrappers_allocate_the_outputs_their_documents_state(gcc, corpus, tmp_path):
    legacy = corpus / "docs" / "legacy"
    if not legacy.is_dir():
        pytest.skip("the shared corpus has no doc-site documents")
    pytest.importorskip("ml_dtypes")
    cfg = tmp_path / "specgen.toml"
    cfg.write_text('include = ["*.md"]\n', encoding="utf-8")
    docs = parse_paths([legacy], selection=config.load(str(cfg)).selection)
    resolved, calls = document_wrapper_calls(docs, allocate=True)
    functions = [chosen_functions(docs)[c.function][1] for c in calls]
    package = generate_package(legacy, tmp_path / "out", cfg)
    report = compare(resolved, calls, run_calls(package, build_recorder(functions, tmp_path / "cann"), calls))
    assert report.matched / resolved >= MIN_LEGACY_ALLOCATED_CALLS, report.causes.most_common()
    # outputs each document states in a sentence of its own form: a constraints bullet
    # (`参数query和attentionOut的shape需要完全一致`), a gradient's input (`表示query的梯度`), the input's
    # leading axes and k (`其-1轴要求其大小同k值`), `其shape支持（NUM_ROWS, H）`, `输出维度[N,C,S,H]`,
    # a layout case (`输入query的shape是BNSD，输出shape为BSND`)
    stated = {
        "aclnnIncreFlashAttention",
        "aclnnFlashAttentionScoreGradV2",
        "aclnnFlashAttentionUnpaddingScoreGradV2",
        "aclnnMoeGatingTopKSoftmax",
        "aclnnMoeFinalizeRoutingV2",
        "aclnnSwinAttentionScoreQuant",
        "aclnnPromptFlashAttentionV2",
    }
    assert stated.isdisjoint(report.failures), {f: report.failures[f] for f in stated & set(report.failures)}


def test_a_0d_array_and_a_given_format_reach_the_library(gcc, tmp_path):
    docs = parse_paths([SPECS])
    root = build_recorder([fn for _, fn in chosen_functions(docs).values()], tmp_path / "cann")
    package = generate_package(SPECS, tmp_path / "out")

    def tensor(shape, fmt=None):
        return {"array": [shape, "FLOAT"], "format": fmt}

    args = [
        {"py": "grad_output", "keyword": False, "value": tensor([])},  # 0-d: broadcasts
        {"py": "self", "keyword": False, "value": tensor([2, 3], "NCHW")},  # Tensor(array, "NCHW")
        {"py": "lambd", "keyword": False, "value": 1},  # an int for a FLOAT-only aclScalar
    ]
    call = WrapperCall("aclnnHardshrinkBackward", "hardshrink_backward", args, [], "")
    (result,) = run_calls(package, root, [call])
    grad, x, lambd, grad_input = result["recorded"]
    assert (grad["shape"], x["shape"], x["format"]) == ([], [2, 3], ACL_FORMATS["NCHW"])
    assert lambd == {"k": "scalar", "dtype": ACL_DTYPES["FLOAT"], "value": 1.0}
    # gradInput, documented ND, takes the shape of self broadcast with a 0-d gradOutput, and
    # the plain layout its caller gave self (as aclnnLstmBackward's and aclnnRmsNormGrad's
    # calls make their outputs in their inputs' NCL and NCDHW)
    assert (grad_input["shape"], grad_input["format"]) == ([2, 3], ACL_FORMATS["NCHW"])


def _allocations(path, function):
    from specgen.codegen.lower import operator_code

    (doc,) = parse_paths([path])
    code = next(f for f in operator_code(doc, str(path)).functions if f.function.name == function)
    return {a.name: a.allocation for a in code.wrapper if a.allocation is not None}


def test_an_output_documented_nd_follows_the_layout_of_the_input_it_mirrors(corpus):
    """aclnnRmsNormGrad and aclnnLstmBackward list ND for every tensor and call with NCDHW /
    NCL ones: each allocated output follows the input whose shape it takes ("shape与入参dy的
    shape保持一致"), or holds at the same axes ([D * num_layers, batch_size, hidden_size]:
    batch_size dh's dimension 1, hidden_size its dimension 2); dparamsOut, a list, follows
    params, a list."""
    ops = corpus / "docs" / "ops-nn"
    rms = _allocations(ops / "norm/rms_norm_grad/docs/aclnnRmsNormGrad.md", "aclnnRmsNormGrad")
    assert {n: (a.follows, a.formats) for n, a in rms.items()} == {
        "dxOut": ("dy", ("ND",)),
        "dgammaOut": ("gamma", ("ND",)),
    }
    lstm = _allocations(ops / "rnn/single_layer_lstm_grad/docs/aclnnLstmBackward.md", "aclnnLstmBackward")
    assert {n: a.follows for n, a in lstm.items()} == {
        "dxOut": "input",
        "dhPrevOut": "dh",
        "dcPrevOut": "dh",
        "dparamsOut": "params",
    }


def test_an_output_documented_in_one_other_layout_follows_nothing(corpus):
    """aclnnQuantizedBatchNorm's output allows NCHW only: it is sent in NCHW whatever its
    input's format, so it follows no input (the allocation stays plain)."""
    path = corpus / "docs" / "ops-nn" / "norm" / "quantized_batch_norm" / "docs" / "aclnnQuantizedBatchNorm.md"
    allocation = _allocations(path, "aclnnQuantizedBatchNorm")["output"]
    assert allocation.shape and allocation.follows == ""


def test_an_explicit_shape_follows_the_tensor_holding_its_dimensions_at_the_same_axes():
    from specgen.codegen.lower import _followed
    from specgen.model import ShapeRule, SymbolDim

    def rule(*symbols):
        return ShapeRule(kind="explicit", dims=("2 * L", "B", "H"), symbols=symbols, line=1)

    in_place = rule(SymbolDim(symbol="B", param="hx", axis=1), SymbolDim(symbol="B", param="dh", axis=1))
    assert _followed(in_place, {"dh"}) == "dh"  # hx, a tensor list, is not an output tensor's peer
    assert _followed(rule(SymbolDim(symbol="H", param="dh", axis=-1)), {"dh"}) == "dh"
    # B read from dh's dimension 0 is not where the output holds it: dh's layout says nothing
    assert _followed(rule(SymbolDim(symbol="B", param="dh", axis=0)), {"dh"}) == ""
    assert _followed(rule(SymbolDim(symbol="B", param="hx", axis=1)), {"dh"}) == ""
