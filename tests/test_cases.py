"""Rule by rule: which documented error rules a generated validator enforces, which it lists
as unchecked and why, and what its test cases are. Each row is the seed document
aclnnTanhBackward.md with its error rules (or its sample) rewritten as a document could be.
"""

from __future__ import annotations

import pytest

from specgen.codegen.cases import FunctionCases, cases_for, function_cases, host_values, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate
from specgen.codegen.views import ArrayTensor, Case, DescTensor, NullArg, TensorListArg, ValueArg
from specgen.parse import parse_document
from tests.conftest import SPECS

SEED = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
ERRORS = SEED[SEED.index("返回161001") : SEED.index("维度大于8。") + len("维度大于8。")]


def cases_of(errors: str, *, sample_edit: tuple[str, str] = ("", "")) -> FunctionCases:
    text = SEED.replace(ERRORS, errors).replace(*sample_edit) if sample_edit[0] else SEED.replace(ERRORS, errors)
    doc = parse_document("aclnnTanhBackward.md", text.encode("utf-8"))
    (fn,) = operator_code(doc, doc.source).functions
    return function_cases(fn)


def by_kind(cases: FunctionCases) -> dict[str, list]:
    out: dict[str, list] = {}
    for rule in cases.rules:
        out.setdefault(rule.kind, []).append(rule)
    return out


def test_not_null_only_for_the_pointers_a_161001_rule_names():
    cases = cases_of("返回161001（ACLNN_ERR_PARAM_NULLPTR）：传入的gradOutput是空指针。")
    null_rules = by_kind(cases)["not_null"]
    assert [(r.params, r.host) for r in null_rules] == [(("gradOutput",), True)]  # none invented for the others


@pytest.mark.parametrize(
    ("condition", "reason"),
    [
        ("当gradOutput的数据类型为FLOAT时，gradOutput和output的shape不同。", "conditional"),
        ("返回561103（ACLNN_ERR_INNER_NULLPTR）：gradOutput和output的shape不同。", "inside the library"),
    ],
)
def test_rules_not_enforced_say_why(condition, reason):
    text = condition if condition.startswith("返回") else "返回161002（ACLNN_ERR_PARAM_INVALID）：" + condition
    unchecked = [r for r in cases_of(text).rules if not r.host and r.condition in text]  # the error row's
    assert unchecked and all(reason in r.reason for r in unchecked)


def test_a_tiling_row_of_a_kind_the_host_checks_is_checked_with_its_status():
    """561002 rows are checked as the first phase checks them, after the 161xxx rows (audit 43:
    legacy MoeGatingTopKSoftmaxV2 `561002 | x与finishedOptional的shape不匹配`)."""
    text = "返回561002（ACLNN_ERR_INNER_TILING_ERROR）：gradOutput和output的shape不同。"
    [rule] = [r for r in cases_of(text).rules if r.condition in text]
    assert rule.host and rule.kind == "same_shape" and rule.code == 561002


def test_a_relation_is_checked_between_the_tensors_it_names():
    cases = cases_of("返回161002（ACLNN_ERR_PARAM_INVALID）：gradOutput和output的数据类型不同。")
    (rule,) = by_kind(cases)["same_dtype"]
    assert rule.host and rule.params == ("gradOutput", "output") and rule.code == 161002


def test_a_rule_the_documents_own_call_breaks_is_not_enforced():
    """The sample passes output {2, 4} beside gradOutput {4, 2}: its authors' call wins over
    the 'shape不同' rule as read, which is listed as unchecked with the line of the call."""
    errors = "返回161002（ACLNN_ERR_PARAM_INVALID）：gradOutput、output和gradInput的shape不同。"
    cases = cases_of(errors, sample_edit=("outputShape = {4, 2}", "outputShape = {2, 4}"))
    (rule,) = by_kind(cases)["same_shape"]
    assert not rule.host and "document's own sample call" in rule.reason and "output has shape (2, 4)" in rule.reason
    assert cases.valid.args["output"].shape == (2, 4)  # the valid case is still the document's call
    enforced = cases_of(errors)
    assert by_kind(enforced)["same_shape"][0].host  # with the document's own shapes it is enforced


def test_an_output_whose_error_row_is_spared_is_held_to_its_own_rule():
    """The spared 'shape不同' row covered gradInput; its own rule (shape需要与gradOutput、output相同)
    then holds, as the sample's gradInput {4, 2} meets it (aclnnApplyTopKTopP in ops-nn)."""
    errors = "返回161002（ACLNN_ERR_PARAM_INVALID）：gradOutput、output和gradInput的shape不同。"
    spared = cases_of(errors, sample_edit=("outputShape = {4, 2}", "outputShape = {2, 4}"))
    (own,) = [r for r in spared.rules if r.id == "implied_output_shape_gradInput"]
    assert own.host and own.params[:2] == ("gradInput", "gradOutput")
    assert not [r for r in cases_of(errors).rules if r.kind == "output_shape"]  # covered while the row holds


def test_every_error_case_is_rejected_by_the_rule_it_was_made_for():
    cases = cases_of(ERRORS)
    spec = validator_spec(cases.params, list(cases.rules), "aclnnTanhBackward")
    made = [c for c in cases.cases if not c.skip]
    assert made
    for case in made:  # by that rule alone: the peers a dtype or rank case changes follow it
        broken = [rule.id for rule, _ in _validate.violations(spec, host_values(case.args))]
        assert broken == [case.rule], case.id
    assert _validate.violations(spec, host_values(cases.valid.args)) == []


def test_a_dtype_rule_allowing_every_common_dtype_is_broken_by_a_rare_one():
    """A dtype list with every dtype the cases try first (ops-nn's GatherNd) is still broken:
    by a dtype outside it, not skipped as if none could break it."""
    common = "FLOAT、FLOAT16、DOUBLE、BFLOAT16、INT64、INT32、INT8、UINT8、BOOL、INT16"
    cases = cases_of(ERRORS, sample_edit=("FLOAT、FLOAT16、DOUBLE、BFLOAT16", common))
    (case,) = [c for c in cases.cases if c.rule == "rule2_dtypes"]
    assert not case.skip and case.args["gradOutput"].dtype not in common.split("、")


@pytest.mark.parametrize("from_document", [False, True])
def test_sample_data_stay_inside_the_documented_element_range(from_document):
    """The sample's data for a tensor whose elements the document bounds ("元素需大于等于0")
    stay inside the bound, whether the call is derived or the document's (whose shapes and
    dtypes it keeps; the data are the sample's own)."""
    text = SEED.replace(
        "shape需要与output、gradInput相同。", "shape需要与output、gradInput相同，且元素需大于等于0。", 1
    )
    if not from_document:
        text = text.replace(
            "aclnnTanhBackwardGetWorkspaceSize(gradOutput, output, gradInput", "Unrelated(gradOutput", 1
        )
    doc = parse_document("aclnnTanhBackward.md", text.encode("utf-8"))
    (fn,) = operator_code(doc, doc.source).functions
    [grad_output] = [a for a in fn.sample.args if a.name == "gradOutput"]
    assert fn.sample.from_document == from_document and fn.function.params[0].of_kind("range")
    assert grad_output.values and all(float(v.rstrip("f")) >= 0 for v in grad_output.values)


def test_case_arguments_print_as_the_plain_data_the_generated_tests_build():
    """The typed arguments become the tuples aclnn_ops._testing.build reads back."""
    args = {
        "none": NullArg(),
        "array": ArrayTensor((2, 3), "FLOAT"),
        "desc": DescTensor((2, 3), "FLOAT16", (1, 2), "NCHW"),
        "list": TensorListArg((ArrayTensor((2,), "INT32"),)),
        "value": ValueArg((1, 2)),
    }
    assert Case("c", args).literal_args == {
        "none": ("none",),
        "array": ("array", (2, 3), "FLOAT"),
        "desc": ("desc", (2, 3), "FLOAT16", (1, 2), "NCHW"),
        "list": ("list", (("array", (2,), "INT32"),)),
        "value": ("value", (1, 2)),
    }


def test_a_function_is_lowered_with_its_cases():
    doc = parse_document("aclnnTanhBackward.md", SEED.encode("utf-8"))
    (fn,) = operator_code(doc, doc.source).functions
    assert fn.cases == cases_for(fn.function, fn.wrapper, fn.sample)  # made once, with the function's view
    assert fn.cases.valid.args["gradOutput"] == ArrayTensor((4, 2), "FLOAT")


def test_an_output_bounded_below_by_an_element_count_gets_no_shape_check():
    # the Foreach documents' "shape size大于等于入参x的shape size" (ops-nn) on the seed's gradInput:
    # a larger output is valid, so no output_shape rule may claim to check it
    text = (
        SEED.replace("shape需要与output、gradInput相同", "shape需要与output相同")
        .replace("shape需要与gradOutput、gradInput相同", "shape需要与gradOutput相同")
        .replace("shape需要与gradOutput、output相同", "shape size大于等于gradOutput的shape size")
        .replace("gradOutput、output和gradInput的shape不同。", "gradOutput和output的shape不同。")
    )
    doc = parse_document("aclnnTanhBackward.md", text.encode("utf-8"))
    (fn,) = operator_code(doc, doc.source).functions
    grad_input = next(p for p in doc.functions[0].params if p.name == "gradInput")
    assert grad_input.shape_rule is not None and grad_input.shape_rule.kind == "at_least"
    assert not [r for r in function_cases(fn).rules if r.kind == "output_shape"]


@pytest.mark.parametrize(
    ("pattern", "output", "held"),
    [
        # `如果输入x的shape为[M, N]，输出scaleOut的shape维度为[ceil(M/rowBlockSize), …]`: the rule reads
        # rowBlockSize, the value its row's condition names, so it states its own cases
        ("**/dynamic_block_quant/docs/aclnnDynamicBlockQuant.md", "scaleOut", True),
        # `当axis为非尾轴时，mxscaleOut输出需要对每两行数据进行交织处理`: the rule reads axis
        ("**/dynamic_mx_quant/docs/aclnnDynamicMxQuant.md", "mxscaleOut", True),
        # `当quantMode = "static"时，数据类型支持…`: a rule that does not read quantMode (xOut as x1)
        # holds in one case only
        ("**/add_layer_norm_quant/docs/aclnnAddLayerNormQuant.md", "xOut", False),
    ],
)
def test_an_output_rule_is_held_when_it_reads_the_value_its_row_is_conditional_on(corpus, pattern, output, held):
    path = next(p for p in (corpus / "docs" / "ops-nn").glob(pattern) if "experimental" not in p.parts)
    doc = parse_document(path.name, path.read_bytes())
    fn = operator_code(doc, doc.source).functions[0]
    ids = {r.id for r in function_cases(fn).rules if r.host}
    assert (f"implied_output_shape_{output}" in ids) == held
