"""The truths the generator did not produce: the documents' own sample calls and the ops-nn
repository's example programs, run through the generated validators.

A document's call that its own rules reject is not enforced (the rule is listed as unchecked
with that reason), so the first test counts those rules. The example programs were written
apart from the documents and are never used for generation: every call of theirs that reads
fully must be accepted, and each known exception is listed below with its reason.
"""

from __future__ import annotations

import pytest

from specgen.parse import parse_paths
from tests.oracle import changed_outputs, document_calls, example_calls, generate_package, validate_all

# Example calls the generated validators reject, each read by hand: (example file, function) -> why.
_INT4_PACK = "ops-nn/matmul/weight_quant_batch_matmul_v2/examples/arch35/test_aclnn_weight_quant_batch_matmul_{}.cpp"
_STALE_INT4_PACK = (
    "the document allows weight INT32 only ('传入weight…的数据类型不在支持的范围之内'); this arch35 example packs "
    "FLOAT weights: a dtype the document does not list yet"
)
EXAMPLE_EXCEPTIONS: dict[tuple[str, str], str] = {
    ("ops-nn/experimental/activation/relu_grad_v3/examples/test_aclnn_relu_grad_v3.cpp", "aclnnReluGradV3"): (
        "the document requires y's shape equal to x's or a single element ('x、y和z的shape不一致' is 161002); "
        "the example broadcasts (8,32,1,64) with (1,32,128,64): document and example disagree"
    ),
    (_INT4_PACK.format("v2_f16f4_nz"), "aclnnConvertWeightToINT4Pack"): _STALE_INT4_PACK,
    (_INT4_PACK.format("v2_f16mxf4_nd"), "aclnnConvertWeightToINT4Pack"): _STALE_INT4_PACK,
    (_INT4_PACK.format("v3_f16mxf4_nd"), "aclnnConvertWeightToINT4Pack"): _STALE_INT4_PACK,
    ("ops-nn/norm/group_norm_swish_grad/examples/test_aclnn_group_norm_swish_grad.cpp", "aclnnGroupNormSwishGrad"): (
        "the document's table gives dgammaOut 2 dimensions (its own sample uses {3, 1}); the example passes (3,)"
    ),
    ("ops-nn/optim/apply_fused_ema_adam/examples/test_aclnn_apply_fused_ema_adam.cpp", "aclnnApplyFusedEmaAdam"): (
        "the document's table gives step 1 dimension; the example passes a (2, 2) tensor"
    ),
}


@pytest.fixture(scope="module")
def corpus_docs(corpus):
    return parse_paths([corpus / "docs"])


@pytest.fixture(scope="module")
def corpus_package(corpus, tmp_path_factory):
    package = generate_package(corpus / "docs", tmp_path_factory.mktemp("corpus_out"))
    assert (package / "aclnn_ops" / "__init__.py").is_file()
    return package


@pytest.mark.slow
def test_document_calls_are_accepted_and_samples_reproduce_them(corpus_docs, corpus_package):
    report = document_calls(corpus_docs)
    read = len(report.calls)
    print(
        f"\n{report.functions} functions; the document's sample calls {report.with_call}; fully read {read} "
        f"({read / report.functions:.1%}); the generated sample makes that call for {report.reproduced} "
        f"({report.reproduced / max(read, 1):.1%} of those read)"
    )
    print(f"enforced rules by kind: {dict(report.enforced.most_common())}")
    print("unchecked rules by reason:")
    for reason, n in report.unchecked.most_common():
        print(f"  {n:5d}  {reason}")
    print(f"{len(report.spared)} rules not enforced because the document's own call breaks them:")
    print("\n".join("  " + s for s in report.spared))
    results = validate_all(corpus_package, report.calls)
    rejected = [f"{name}: {problem}" for (name, _), problem in zip(report.calls, results, strict=True) if problem]
    # Rules the document's call breaks are spared at generation: the generated package must agree.
    assert rejected == []
    assert read / report.functions >= 0.85
    assert report.reproduced / max(read, 1) >= 0.9


@pytest.mark.slow
def test_example_programs_are_accepted(corpus, corpus_docs, corpus_package):
    examples = corpus / "examples"
    found, where, calls = example_calls(corpus_docs, examples)
    rejected = {
        key: problem for key, problem in zip(where, validate_all(corpus_package, calls), strict=True) if problem
    }
    print(
        f"\n{len(list(examples.rglob('*.cpp')))} example programs; {found} calls of documented functions; "
        f"{len(calls)} fully read; {len(rejected)} rejected ({len(rejected) / max(len(calls), 1):.1%})"
    )
    for (path, name), problem in sorted(rejected.items()):
        print(f"  {path} {name}: {problem}")
    unexpected = {k: v for k, v in rejected.items() if k not in EXAMPLE_EXCEPTIONS}
    stale = [k for k in EXAMPLE_EXCEPTIONS if k not in rejected]
    assert unexpected == {}
    assert stale == [], "listed exceptions that are now accepted: remove them"


# Of the document calls the validators accept, those with one output's first dimension changed
# that they reject (`python benchmarks/output_shapes.py -v` lists the others with their rules).
MIN_REJECTED_CHANGES = {"out": 492 / 541, "inout": 20 / 58}


@pytest.mark.slow
def test_a_document_call_with_an_output_of_another_shape_is_rejected(corpus_docs, corpus_package):
    calls = document_calls(corpus_docs).calls
    accepted = [c for c, v in zip(calls, validate_all(corpus_package, calls), strict=True) if v is None]
    tries = changed_outputs(corpus_docs, accepted)
    verdicts = validate_all(corpus_package, [call for _, _, call in tries])
    for direction, floor in MIN_REJECTED_CHANGES.items():
        made = [v for (d, _, _), v in zip(tries, verdicts, strict=True) if d == direction]
        rejected = sum(v is not None for v in made)
        print(f"\n{direction}: {rejected} of {len(made)} changed shapes rejected")
        assert rejected / len(made) >= floor - 1e-9, direction
