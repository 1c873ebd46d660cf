"""Null-pointer findings of the hand-read audit 42 (nullability), each on the document's own
line and sample call: a pointer a plain bool asks for, a list's elements, an output a flag
controls, and a wrapper that cannot make an output the call needs."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest

from specgen.parse import parse_paths
from specgen.parse.classify import flagged_null
from tests.oracle import generate_package
from tests.validator_calls import function_code, ops_nn, rejected
from tests.wrapper_calls import build_recorder, differences, document_wrapper_calls, run_calls

BN_REDUCE_BACKWARD = "norm/sync_batch_norm_backward_reduce/docs/aclnnBatchNormReduceBackward.md"


def _refused_by(fn, **changed: object) -> set[str]:
    """The documented conditions of the rules the sample call with `changed` in it breaks."""
    by_id = {r.id: r.condition for r in fn.cases.rules}
    return {by_id[i] for i in rejected(fn, **changed)}


def test_a_pointer_a_plain_bool_asks_for_is_required_only_when_it_is_true(corpus):
    """aclnnBatchNormReduceBackward lines 281/284/287 (161001): `当inputG为true时，sumDy或sumDyXmu是
    空指针。`, `当weightG为true时，gradWeight是空指针。`; the sample (line 523) passes inputG true
    with both outputs given. Null with the flag true is refused, null with it false passes."""
    fn = ops_nn(corpus, BN_REDUCE_BACKWARD)
    assert rejected(fn) == []  # the sample call
    assert _refused_by(fn, inputG=True, sumDy=None) == {"当inputG为true时，sumDy或sumDyXmu是空指针"}
    assert _refused_by(fn, inputG=True, sumDyXmu=None) == {"当inputG为true时，sumDy或sumDyXmu是空指针"}
    assert _refused_by(fn, weightG=True, gradWeight=None) == {"当weightG为true时，gradWeight是空指针"}
    assert rejected(fn, inputG=False, sumDy=None, sumDyXmu=None) == []
    assert rejected(fn, weightG=False, gradWeight=None) == []


def test_a_flag_condition_names_only_the_pointers_it_lists():
    """aclnnApplyAdamW line 318 `当amsgrad为true时，maxGradNormOptional为空指针时。`; a condition
    naming a pointer the function does not take, or a flag that is no bool, reads as nothing."""
    (check,) = flagged_null("当amsgrad为true时，maxGradNormOptional为空指针时", ("maxGradNormOptional",), ("amsgrad",))
    assert (check.kind, check.params) == ("not_null_when", ("maxGradNormOptional", "amsgrad"))
    assert flagged_null("当inputG为true时，sumDy或sumDyXmu是空指针", ("sumDy",), ("inputG",)) == ()
    assert flagged_null("当inputG为true时，sumDy是空指针", ("sumDy",), ()) == ()


def test_the_wrapper_makes_the_outputs_a_bool_asks_for(corpus, tmp_path):
    """aclnnBatchNormReduceBackward's sample (lines 472-545) passes inputG=weightG=biasG=true
    and four FLOAT outputs of shape {2}; its 161001 rows (lines 281-287) refuse them null while
    the flags are true. The wrapper, the outputs left to it, makes them and the document's call
    (it used to pass four null pointers); with a flag false it leaves that output null."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(corpus / "docs" / "ops-nn" / BN_REDUCE_BACKWARD, docs)
    parsed = parse_paths([docs])
    _, (call,) = document_wrapper_calls(parsed, allocate=True)
    left = {"sum_dy", "sum_dy_xmu", "grad_weight", "grad_bias"}
    assert {a["py"] for a in call.args if a["value"] is None} == left
    unasked = [{**a, "value": False} if a["py"] == "bias_g" else a for a in call.args]
    expected = [(n, {"gradBias": None, "biasG": False}.get(n, v)) for n, v in call.expected]
    without_bias = dataclasses.replace(call, args=unasked, expected=expected)
    package = generate_package(docs, tmp_path / "out")
    root = build_recorder([parsed[0].functions[0]], tmp_path / "cann")
    made, unmade = run_calls(package, root, [call, without_bias])
    assert differences(call, made) == []
    assert differences(without_bias, unmade) == []


def test_an_output_a_bool_flag_controls_is_optional_and_required_when_it_is_true(corpus):
    """MoeInitRoutingV2 (legacy) line 92: expertTokensBeforeCapacityOut `通过
    expertTokensBeforeCapacityFlag参数控制是否输出` (line 88: `true：表示输出…`), and the 161001 row
    (line 101) names only `必选计算输出`. Its sample (Drop/Pad, flag true, the output given) passes;
    a Dropless call with the flag false and the output null passes (it was refused as required);
    null with the flag true is refused."""
    fn = function_code(corpus.joinpath("docs", "legacy", "MoeInitRoutingV2.md"))
    assert rejected(fn) == []
    assert fn.function.param("expertTokensBeforeCapacityOut").optional
    dropless = {"dropPadMode": 0, "expertTokensBeforeCapacityFlag": False, "expertTokensBeforeCapacityOut": None}
    expanded = np.zeros((6, 4), np.float32)  # Dropless: [numRows * k, h] (line 89)
    assert rejected(fn, **dropless, expandedXOut=expanded) == []
    assert _refused_by(fn, expertTokensBeforeCapacityOut=None) == {"通过expertTokensBeforeCapacityFlag参数控制是否输出"}
    # expertTokensCountOrCumsumOut's flag is a mode value (0, 1, 2): listed, not checked
    (rule,) = [r for r in fn.cases.rules if r.kind == "not_null_when" and not r.host]
    assert rule.params == ("expertTokensCountOrCumsumOut", "expertTokensCountOrCumsumFlag")


@pytest.mark.parametrize("name", ["GroupedMatmul.md", "GroupedMatmulV3.md"])
def test_a_row_on_a_lists_null_elements_is_not_read_as_the_list_pointer(corpus, name):
    """GroupedMatmul (legacy) lines 85-87 (GroupedMatmulV3 116-118), under 161001:
    `2.传入参数weight的元素存在空指针。`, `3.传入参数x的元素为空指针，且传出参数y的元素不为空指针。`,
    `4.…x的元素不为空指针，且…y的元素为空指针。`: rules on the lists' elements, which the
    validator does not look into; listed as not checked with that reason, never as a null
    check of the lists (the null lists stay refused by row 1, line 84: `必选输入、输出…是空指针`)."""
    fn = function_code(corpus.joinpath("docs", "legacy", name))
    rows = [r for r in fn.cases.rules if "的元素" in r.condition]
    assert [(r.kind, r.params, r.host) for r in rows] == [
        ("element_null", ("weight",), False),
        ("element_null", ("x", "y"), False),
        ("element_null", ("x", "y"), False),
    ]
    assert all("not each element" in r.reason for r in rows)
    assert rejected(fn) == []  # the sample
    assert rejected(fn, weight=None) != []
