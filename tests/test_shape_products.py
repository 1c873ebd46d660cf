"""Output shapes stated per product only, in the remarks after the parameter table
(specgen.parse.classify.shape_products), on the real sentences."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen import cases
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Constraint, Param, ShapeRule
from specgen.parse import parse_paths
from specgen.parse.classify.shape_products import per_product_rule, statements_for
from specgen.parse.classify.shape_sizes import ProductStatement

# aclnnDequantSwigluQuant (ops-nn), the 950 remarks after the parameter table (lines 249-250)
YOUT_950 = "shape为[N...,H/2]"
SCALE_950 = "shape与yOut去除尾轴后的shape一致"
# aclnnCtcLoss (ops-nn), under `- logAlphaOut：` after the table (lines 212, 215)
CTC_A2 = "shape为($N, T, (2*max(targetLengths)+8)/8*8$)。"
CTC_950 = "shape为($N, T, (2*max(targetLengths)+1)$)。"
# aclnnDequantSwigluQuant's 950 remark of another parameter
WEIGHT_950 = "weightScaleOptional参数中，shape表示为[H]或[groupNum, H]，且取值H和x最后一维保持一致。"


def _tensor(name: str, direction: str, *said: tuple[str, str]) -> Param:
    c_type = "aclTensor*" if direction == "out" else "const aclTensor*"
    constraints = tuple(Constraint(kind="text", text=t, line=249, product=pid) for pid, t in said)
    return Param(name=name, c_type=c_type, kind="tensor", direction=direction, constraints=constraints, line=1)


def test_the_statements_that_give_the_outputs_shape():
    x = _tensor("x", "in")
    y = _tensor("yOut", "out", ("950", YOUT_950), ("950", "yOut的尾轴需要小超过5120"))
    scale = _tensor("scaleOut", "out", ("950", SCALE_950))
    params = [x, y, scale]
    # its own constraint held on 950 that gives a shape; not the one that bounds its last axis
    assert [s.text for s in statements_for(y, params, [], alone=False)] == [YOUT_950]
    # `shape与yOut…一致` relates, it does not give a shape
    assert statements_for(scale, params, [], alone=False) == []
    # a remark naming another parameter before its shape is that parameter's, and so is one
    # naming a name that is no parameter (of this function)
    y, weight = _tensor("yOut", "out"), _tensor("weightScaleOptional", "in")
    said = [ProductStatement(("950",), WEIGHT_950, 240)]
    assert statements_for(y, [x, weight, y], said, alone=True) == []
    assert statements_for(y, [x, y], said, alone=True) == []
    assert [s.line for s in statements_for(weight, [x, weight, y], said, alone=False)] == [240]
    # a remark naming no parameter before its shape: the only output left, and only it
    ctc = [ProductStatement(("910b", "A3"), CTC_A2, 212), ProductStatement(("950",), CTC_950, 215)]
    assert statements_for(y, params, ctc, alone=True) == ctc
    assert statements_for(y, params, ctc, alone=False) == []


def _reader(rules: dict[str, ShapeRule]):
    return lambda p, s: rules[s.text]


def test_each_products_shape_is_a_case_held_on_those_products():
    y = _tensor("yOut", "out")
    a2 = ShapeRule(kind="same", params=("x",), line=1)
    a950 = ShapeRule(kind="explicit", dims=("x.shape[0]",), line=1)
    said = [ProductStatement(("910b", "A3"), CTC_A2, 212), ProductStatement(("950",), CTC_950, 215)]
    rule = per_product_rule(y, [y], said, _reader({CTC_A2: a2, CTC_950: a950}))
    assert rule is not None and rule.kind == "one_of"
    assert [(a.kind, a.when, a.line) for a in rule.alternatives] == [
        ("same", ("", "product", "910b,A3", "true"), 212),
        ("explicit", ("", "product", "950", "true"), 215),
    ]
    # a statement no reader takes leaves its products unchecked; the others still hold
    unread = ShapeRule(kind="not_derivable", reason="x", line=1)
    rule = per_product_rule(y, [y], said, _reader({CTC_A2: unread, CTC_950: a950}))
    assert rule is not None and [a.when[2] for a in rule.alternatives] == ["950"]
    # none read: not derivable, the reason naming the remark's line
    rule = per_product_rule(y, [y], said, _reader({CTC_A2: unread, CTC_950: unread}))
    assert rule is not None and not rule.derived
    assert "(910b, A3)" in rule.reason and "line 212: shape为($N, T" in rule.reason
    assert per_product_rule(y, [y], [], _reader({})) is None


def _doc(corpus, *parts: str):
    (doc,) = parse_paths([corpus.joinpath("docs", "ops-nn", *parts)])
    return doc.functions[0]


def test_dequant_swiglu_quant_yout_on_950(corpus):
    fn = _doc(corpus, "quant", "dequant_swiglu_quant", "docs", "aclnnDequantSwigluQuant.md")
    y = fn.param("yOut")
    assert y is not None and y.shape_rule is not None and y.shape_rule.kind == "one_of"
    (case,) = y.shape_rule.alternatives
    assert (case.dims, case.when, case.line) == (
        ("*x.shape[:-1]", "x.shape[-1] / 2"),
        ("", "product", "950", "true"),
        249,
    )
    # the document's own call (x (2, 32), yOut (2, 16)) meets it on 950
    derive, x = cases.plain_rule(y.shape_rule), np.zeros((2, 32), np.float16)
    assert _shapes.shape_allowed(derive, {"x": (2, 32)}, {_shapes.PRODUCT_KEY: "950"}, (2, 16)) is None
    assert _shapes.shape_allowed(derive, {"x": (2, 32)}, {_shapes.PRODUCT_KEY: "950"}, (2, 32)) == ((2, 16),)
    # no product, or a product the remark does not speak of: unchecked
    assert _shapes.shape_allowed(derive, {"x": (2, 32)}, {}, (2, 32)) is None
    assert _shapes.shape_allowed(derive, {"x": (2, 32)}, {_shapes.PRODUCT_KEY: "910b"}, (2, 32)) is None
    # a wrapper given product='950' allocates the 950 shape; with none it refuses
    int8 = {"kind": "fixed", "values": ["INT8"]}
    assert _shapes.allocate("yOut", derive, int8, {"x": x}, product="950").shape == (2, 16)
    with pytest.raises(TypeError, match="pass yOut: .*states its shape for 950 only: give product="):
        _shapes.allocate("yOut", derive, int8, {"x": x})
    with pytest.raises(TypeError, match="pass yOut: .*states its shape for 950 only, not 910b"):
        _shapes.allocate("yOut", derive, int8, {"x": x}, product="910b")
    # on 950 without x, the case holds but its shape does not follow: not blamed on the product
    with pytest.raises(TypeError, match="several shapes, or none it can settle"):
        _shapes.allocate("yOut", derive, int8, {"x": None}, product="950")
    # the validator given product='950' holds yOut to it; with no product, or 910b, it does not
    from specgen.codegen.runtime._validate import ParamSpec, Rule, Spec, violations

    specs = (ParamSpec("x", "tensor", "in"), ParamSpec("yOut", "tensor", "out"))
    rule = Rule(161002, "output_shape", ("yOut", "x"), YOUT_950, id="implied_output_shape_yOut", derive=derive)
    spec = Spec(function="aclnnDequantSwigluQuantGetWorkspaceSize", params=specs, rules=(rule,))
    wrong = {"x": x, "yOut": np.zeros((2, 32), np.int8)}
    assert [why for _, why in violations(spec, wrong, "950")] == [
        "yOut has shape (2, 32); the document's rule gives (2, 16)"
    ]
    assert violations(spec, wrong) == [] and violations(spec, wrong, "910b") == []
    assert violations(spec, {**wrong, "yOut": np.zeros((2, 16), np.int8)}, "950") == []
    # scaleOut's 950 remark relates it to yOut in a form no reader takes: named, with its line
    scale = fn.param("scaleOut")
    assert scale is not None and scale.shape_rule is not None and not scale.shape_rule.derived
    assert "(950)" in scale.shape_rule.reason and "line 250: shape为[N,...]" in scale.shape_rule.reason


def test_ctc_loss_log_alpha_holds_per_product_where_logprobs_binds_its_symbols(corpus):
    """logAlphaOut's shape is stated only under its bullet after the table, per product, as
    inline LaTeX with symbols N and T that only logProbs's 3-d form `(T,N,C)` binds (its 2-d
    form `(T,C)` has no N): each product's case holds on that product where logProbs is 3-d."""
    fn = _doc(corpus, "loss", "ctc_loss_v2", "docs", "aclnnCtcLoss.md")
    out = fn.param("logAlphaOut")
    assert out is not None and out.shape_rule is not None and out.shape_rule.kind == "one_of"
    assert [(a.dims[2], a.when, a.line) for a in out.shape_rule.alternatives] == [
        (
            "(2 * max(targetLengths) + 8) // 8 * 8",
            ("", "product", "910b,A3", "true", "logProbs", "rank", "3", "true"),
            212,
        ),
        ("2 * max(targetLengths) + 1", ("", "product", "950", "true", "logProbs", "rank", "3", "true"), 215),
    ]
    assert {a.dims[:2] for a in out.shape_rule.alternatives} == {("logProbs.shape[1]", "logProbs.shape[0]")}
    # the document's two samples: logProbs (12, 4, 5), targetLengths {2, 3, 1, 5}; logAlphaOut
    # {4, 12, 16} in the A3/910b sample, {4, 12, 11} in the 950 one
    derive = cases.plain_rule(out.shape_rule)
    logprobs = TensorDesc((12, 4, 5), "FLOAT")
    values = {"logProbs": logprobs, "targetLengths": [2, 3, 1, 5]}
    shapes = {"logProbs": (12, 4, 5)}
    assert _shapes.output_shapes(derive, shapes, {**values, _shapes.PRODUCT_KEY: "910b"}) == ((4, 12, 16),)
    assert _shapes.output_shapes(derive, shapes, {**values, _shapes.PRODUCT_KEY: "950"}) == ((4, 12, 11),)
    # no product, or a 2-d logProbs (N is 1 there by another row's words): unchecked
    assert _shapes.shape_allowed(derive, shapes, values, (9, 9, 9)) is None
    flat = {"logProbs": TensorDesc((12, 5), "FLOAT"), "targetLengths": [5], _shapes.PRODUCT_KEY: "950"}
    assert _shapes.shape_allowed(derive, {"logProbs": (12, 5)}, flat, (9, 9, 9)) is None


def test_the_wrapper_given_950_makes_the_documents_call(corpus, tmp_path):
    """aclnnDequantSwigluQuant's generated wrapper, called with its document's sample arguments
    (x (2, 32)), scaleOut passed and yOut left to it: with product='950' (and the mode and scales
    the 950 remarks allow, null) it allocates yOut (2, 16) and makes the document's call; with no product it refuses, the 950 remark holding on 950 only."""
    import dataclasses
    import shutil

    from tests.oracle import generate_package
    from tests.wrapper_calls import build_recorder, differences, document_wrapper_calls, run_calls

    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")
    source = corpus / "docs" / "ops-nn" / "quant" / "dequant_swiglu_quant" / "docs" / "aclnnDequantSwigluQuant.md"
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(source, docs)
    parsed = parse_paths([docs])
    _, (call,) = document_wrapper_calls(parsed, allocate=True)
    _, (passed,) = document_wrapper_calls(parsed)
    assert [a["value"] for a in call.args if a["py"] == "y_out"] == [None]  # left to the wrapper
    # scaleOut's 950 remark is read by no reader: passed as the sample's array
    args = [b if a["py"] == "scale_out" else a for a, b in zip(call.args, passed.args, strict=True)]
    call = dataclasses.replace(call, args=args)
    # on 950 quantModeOptional `仅支持"dynamic"` and quantScaleOptional only for it (its 950 remarks):
    # the sample's "static" with a scale is its 910b call, so the 950 call passes both null
    nulled = {"quant_mode_optional", "quant_scale_optional", "quant_offset_optional"}
    as_950 = [{**a, "value": None} if a["py"] in nulled else a for a in call.args]
    expected = [(n, None if n in ("quantModeOptional", "quantScaleOptional", "quantOffsetOptional") else v)
                for n, v in call.expected]  # fmt: skip
    on_950 = dataclasses.replace(
        call, args=[*as_950, {"py": "product", "keyword": True, "value": "950"}], expected=expected
    )
    package = generate_package(docs, tmp_path / "out")
    root = build_recorder([parsed[0].functions[0]], tmp_path / "cann")
    given, unknown = run_calls(package, root, [on_950, call])
    assert differences(on_950, given) == []
    assert "pass yOut: its shape does not follow" in unknown.get("error", "")
    assert "states its shape for 950 only: give product=" in unknown.get("error", "")
