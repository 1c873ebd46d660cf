"""The document's own call is the truth for output shapes and dtypes (issue 23, item 2).

Every fully read sample call of the corpus, and every fully read call of the ops-nn example
programs (written apart from the documents, never used for generation), is compared with the
outputs' rules evaluated on its inputs: the shape and dtype the rule gives must be the ones the
call passes. Each disagreement was read by hand and is listed with its verdict; a document whose
call contradicts its own rule is also a `sample-output-rule` lint finding (tests/lint_verdicts.json).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime._shapes import output_shape
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse import parse_paths
from specgen.review.lint_outputs import disagreements
from tests.oracle import chosen_functions, example_calls

DOCUMENT_DEFECT, RULE_BUG = "document defect", "rule bug"
_GNS = "ops-nn/norm/group_norm_swish_grad/docs/aclnnGroupNormSwishGrad.md"
_GNS_WHY = "'数据类型和shape与gamma相同' with gamma {3}, but the call passes {3, 1} (the example program passes (3,))"
_RELU_V3_WHY = (
    "'shape需要与x一致', but the call passes a bit mask: x {1,1,1,1,16} gives {1,1,1,1,2} UINT8 (8 flags a byte; "
    "the sample prints bit i of byte i/8): the prose misstates the mask's shape"
)
_SWIGLU = "aclnnSwigluBackwardMxQuantWithDualAxis"
_SWIGLU_WHY = (
    "the row says 'shape为[M, (ceil(N/32)+2-1)/2, 2]' and yGrad's row defines 'N = x最后一维 / 2': x [256, 1024] "
    "gives N 512 and (16+1)/2 = 8, but the call passes 16 (as if N were x's last dimension): the formula or "
    "the call is wrong, the rule is read as written (the validator spares it: the document's call breaks it)"
)
_SWIGLU2_WHY = (
    "the row says '当groupIndexOptional存在时，shape为[floor(M/64)+G, N, 2]' and yGrad's row defines 'N = x最后一维 "
    "/ 2': x [256, 1024] gives N 512, but the call passes 1024 (as for mxscale1Out, N taken as x's last "
    "dimension): the formula or the call is wrong, the rule is read as written"
)
_TOPK = "aclnnTopKTopPSample"
_TOPK_WHY = (
    "its row says 'shape需要与`logits`前n-1维一致', but the call passes logits' whole shape (48, 131072), as the "
    "formula 'logitsTopKPSelect[b][logitsIdx[b][v]]' writes it: the table or the call is wrong (the validator "
    "spares the rule, the wrapper does not allocate by it)"
)

# (document under docs/, function, output, shape|dtype) -> (verdict, why): read by hand.
DOCUMENT_DISAGREEMENTS: dict[tuple[str, str, str, str], tuple[str, str]] = {
    (_GNS, "aclnnGroupNormSwishGrad", "dgammaOut", "shape"): (DOCUMENT_DEFECT, _GNS_WHY),
    (_GNS, "aclnnGroupNormSwishGrad", "dbetaOut", "shape"): (DOCUMENT_DEFECT, _GNS_WHY),
    ("ops-nn/experimental/activation/relu_v3/docs/aclnnReluV3.md", "aclnnReluV3", "maskOut", "shape"): (
        DOCUMENT_DEFECT,
        _RELU_V3_WHY,
    ),
    (
        "ops-nn/quant/swiglu_backward_mx_quant_with_dual_axis/docs/aclnnSwigluBackwardMxQuantWithDualAxis.md",
        _SWIGLU,
        "mxscale1Out",
        "shape",
    ): (DOCUMENT_DEFECT, _SWIGLU_WHY),
    (
        "ops-nn/quant/swiglu_backward_mx_quant_with_dual_axis/docs/aclnnSwigluBackwardMxQuantWithDualAxis.md",
        _SWIGLU,
        "mxscale2Out",
        "shape",
    ): (DOCUMENT_DEFECT, _SWIGLU2_WHY),
    ("ops-nn/index/top_k_top_p_sample/docs/aclnnTopKTopPSample.md", _TOPK, "logitsTopKPSelect", "shape"): (
        DOCUMENT_DEFECT,
        _TOPK_WHY,
    ),
}
# (example file under examples/, function, output, shape|dtype) -> (verdict, why).
EXAMPLE_DISAGREEMENTS: dict[tuple[str, str, str, str], tuple[str, str]] = {
    (
        "ops-nn/experimental/activation/relu_grad_v3/examples/test_aclnn_relu_grad_v3.cpp",
        "aclnnReluGradV3",
        "z",
        "shape",
    ): (
        DOCUMENT_DEFECT,
        "the document says z's shape is x's ('shape与x一致'; 'x、y和z的shape不一致' is an error); the example "
        "broadcasts x (8,32,1,64) with y (1,32,128,64) into z (8,32,128,64): example and document disagree, "
        "the rule is read as written",
    ),
    ("ops-nn/experimental/activation/relu_v3/examples/test_aclnn_relu_v3.cpp", "aclnnReluV3", "maskOut", "shape"): (
        DOCUMENT_DEFECT,
        _RELU_V3_WHY,
    ),
    (
        "ops-nn/quant/swiglu_backward_mx_quant_with_dual_axis/examples/arch35/"
        "test_aclnn_swiglu_backward_mx_quant_with_dual_axis.cpp",
        _SWIGLU,
        "mxscale1Out",
        "shape",
    ): (DOCUMENT_DEFECT, _SWIGLU_WHY),
    (
        "ops-nn/quant/swiglu_backward_mx_quant_with_dual_axis/examples/arch35/"
        "test_aclnn_swiglu_backward_mx_quant_with_dual_axis.cpp",
        _SWIGLU,
        "mxscale2Out",
        "shape",
    ): (DOCUMENT_DEFECT, _SWIGLU2_WHY),
    (
        "ops-nn/index/top_k_top_p_sample/examples/test_aclnn_top_k_top_p_sample.cpp",
        _TOPK,
        "logitsTopKPSelect",
        "shape",
    ): (
        DOCUMENT_DEFECT,
        _TOPK_WHY,
    ),
}
# Fewer outputs compared than this means the comparison itself stopped working.
MIN_DOCUMENT_OUTPUTS, MIN_EXAMPLE_OUTPUTS = 400, 400


@pytest.fixture(scope="module")
def corpus_docs(corpus):
    return parse_paths([corpus / "docs"])


def _compared(fn, values) -> int:
    """Outputs of the call whose shape the rule settles on the call's inputs (what the comparison speaks about)."""
    shapes = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}
    return sum(
        1
        for p in fn.params
        if p.direction in ("out", "inout")
        and p.shape_rule
        and p.shape_rule.kind != "in_place"  # an in-out tensor's own shape: nothing to compare
        and output_shape(plain_rule(p.shape_rule), shapes, values) is not None
    )


def _check(found: dict, listed: dict) -> None:
    for key, (passed, derived) in sorted(found.items()):
        print(f"  {' '.join(key)}: the call passes {passed}, the rule gives {derived}")
    assert {k: v for k, v in found.items() if k not in listed} == {}, "unlisted disagreements: read and list them"
    assert [k for k in listed if k not in found] == [], "listed disagreements no longer found: remove them"
    assert all(verdict in (DOCUMENT_DEFECT, RULE_BUG) and why for verdict, why in listed.values())


def test_document_calls_get_the_outputs_their_rules_give(corpus, corpus_docs):
    found, calls, outputs = {}, 0, 0
    for doc in corpus_docs:
        source = Path(doc.source).relative_to(corpus / "docs").as_posix()
        for fn in doc.functions:
            values = call_values(fn, fn.sample_call) if fn.sample_call else None
            if values is None:
                continue
            calls += 1
            outputs += _compared(fn, values)
            for d in disagreements(fn, values):
                found[source, fn.name, d.param, d.what] = (d.passed, d.derived)
    print(f"\n{calls} document calls read fully; {outputs} outputs whose rule the call settles; {len(found)} disagree")
    assert outputs >= MIN_DOCUMENT_OUTPUTS
    _check(found, DOCUMENT_DISAGREEMENTS)


def test_example_programs_get_the_outputs_the_rules_give(corpus, corpus_docs):
    documented = {name: fn for name, (_, fn) in chosen_functions(corpus_docs).items()}
    _, where, calls = example_calls(corpus_docs, corpus / "examples")
    found, outputs = {}, 0
    for (path, name), (_, values) in zip(where, calls, strict=True):
        outputs += _compared(documented[name], values)
        for d in disagreements(documented[name], values):
            found[path, name, d.param, d.what] = (d.passed, d.derived)
    print(
        f"\n{len(calls)} example calls read fully; {outputs} outputs whose rule the call settles; {len(found)} disagree"
    )
    assert outputs >= MIN_EXAMPLE_OUTPUTS
    _check(found, EXAMPLE_DISAGREEMENTS)


def test_an_output_typed_by_a_dtype_argument_is_compared_with_it(corpus_docs):
    """Outputs whose dtype an aclDataType argument gives (Quantize's `dtype`): the documents' calls
    agree with it, and the same call with that output retyped does not."""
    compared = 0
    for doc in corpus_docs:
        for fn in doc.functions:
            values = call_values(fn, fn.sample_call) if fn.sample_call else None
            for p in fn.params:
                passed = (values or {}).get(p.name)
                if p.dtype_rule is None or p.dtype_rule.kind != "given" or not isinstance(passed, TensorDesc):
                    continue
                assert not [d for d in disagreements(fn, values) if d.param == p.name], fn.name
                retyped = {**values, p.name: dataclasses.replace(passed, dtype="BOOL")}
                assert [d.what for d in disagreements(fn, retyped) if d.param == p.name] == ["dtype"], fn.name
                compared += 1
    assert compared >= 3
