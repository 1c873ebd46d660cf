"""Per-product remarks after a parameter table that hold a value set or a dtype equality on
some products only: each becomes a rule checked when `product=` names one of those products,
and not otherwise (which product runs is unknown). Anchored on the documents' own sentences."""

from __future__ import annotations

import dataclasses

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.parse import parse_paths


def _function(corpus, rel: str):
    path = corpus / "docs" / "ops-nn" / rel
    if not path.exists():
        pytest.skip(f"{rel} is not in the corpus")
    (doc,) = parse_paths([path])
    fn = operator_code(doc, doc.source).functions[0]
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    return fn, spec, host_values(fn.cases.valid.args)


def _broken(spec, args, product):
    return [rule.id for rule, _ in validator.violations(spec, args, product)]


def test_a_remark_ties_dtypes_to_an_input_on_its_products(corpus):
    """aclnnFastBatchNormBackward line 283, under A2 and A3: `参数weight、…、gradWeight、gradBias的
    数据类型与gradOut的保持一致` (the table alone allows weight FLOAT16 beside gradOut FLOAT)."""
    fn, spec, args = _function(corpus, "norm/batch_norm_grad_v3/docs/aclnnFastBatchNormBackward.md")
    assert args["gradOut"].dtype == "FLOAT"
    mixed = {**args, "weight": dataclasses.replace(args["weight"], dtype="FLOAT16")}
    assert _broken(spec, args, "910b") == []  # the document's own call
    assert "product_same_dtype_weight" in _broken(spec, mixed, "910b")
    assert "product_same_dtype_weight" in _broken(spec, mixed, "A3")
    # counter-cases: no product named, or a product the remark does not speak of
    assert "product_same_dtype_weight" not in _broken(spec, mixed, None)
    assert "product_same_dtype_weight" not in _broken(spec, mixed, "950")
    grad_weight = next(p for p in fn.function.params if p.name == "gradWeight")
    held, other = grad_weight.dtype_rule.alternatives
    assert (held.kind, held.params, held.when) == ("same", ("gradOut",), ("", "product", "910b,A3", "true"))
    assert other.when[-1] == "false" and other.kind == "same_set"


def test_a_remark_leaves_one_value_on_its_products(corpus):
    """aclnnUniqueConsecutive lines 176/178, under Ascend 950: `输入`returnInverse`仅支持false`,
    `输入`dim`仅支持1000。`; its dtype remark on the same list stays a dtype set."""
    fn, spec, args = _function(corpus, "index/unique_consecutive/docs/aclnnUniqueConsecutive.md")
    rules = {r.id: r for r in fn.cases.rules}
    assert rules["product_enum_returnInverse"].values == (False,)
    assert rules["product_enum_dim"].values == (1000,)
    assert rules["product_enum_dim"].products == ("950",)
    flat = {**args, "returnInverse": False, "dim": 1000}
    assert _broken(spec, flat, "950") == []
    assert "product_enum_returnInverse" in _broken(spec, {**flat, "returnInverse": True}, "950")
    assert "product_enum_dim" in _broken(spec, {**flat, "dim": 0}, "950")
    for product in (None, "910b"):  # unchecked without the product the remark names
        assert _broken(spec, {**flat, "returnInverse": True, "dim": 0}, product) == []


def _unchecked(fn) -> dict[str, str]:
    return {r.id: r.reason for r in fn.cases.rules if not r.host}


def test_the_reasons_of_fast_batch_norm_backward_are_true(corpus):
    """aclnnFastBatchNormBackward: `当outputMask[0]为true，传入的gradInput是空指针时` names a pointer
    that outputMask makes required (it was unchecked as `every pointer it could name is optional`); and
    `input、gradOut、gradInput（非空时）的shape不一致` relates two inputs whatever outputMask says."""
    fn, spec, args = _function(corpus, "norm/batch_norm_grad_v3/docs/aclnnFastBatchNormBackward.md")
    reasons = _unchecked(fn)
    rules = {r.id: r for r in fn.cases.rules}
    masked = rules["rule2_not_null_when"]
    assert masked.host and masked.params == ("gradInput", "outputMask") and masked.values == (0,)
    assert args["outputMask"][0] is True and args["gradInput"] is not None
    assert "rule2_not_null_when" in _broken(spec, {**args, "gradInput": None}, None)
    # counter-case: with outputMask[0] false gradInput may be null
    unasked = {**args, "gradInput": None, "outputMask": (False, *args["outputMask"][1:])}
    assert "rule2_not_null_when" not in _broken(spec, unasked, None)
    assert rules["rule1_not_null"].params == ("gradOut", "input")  # an unconditional row stays one
    assert rules["rule19_same_shape"].host and rules["rule19_same_shape"].params == ("input", "gradOut")
    assert rules["rule19_same_shape_outputs"].params == ("gradInput",)
    assert "outputMask" in reasons["rule19_same_shape_outputs"]
    wider = dataclasses.replace(args["input"], shape=(*args["input"].shape[:-1], args["input"].shape[-1] + 1))
    assert "rule19_same_shape" in _broken(spec, {**args, "input": wider}, None)
    assert "rule19_same_shape" not in _broken(spec, args, None)  # counter-case: the document's call


def test_a_masked_null_row_written_with_and(corpus):
    """aclnnLayerNormBackward lines 280/283/286: `outputMask[0]为True且gradInputOut为空指针。` (and [1]
    gradWeightOut, [2] gradBiasOut) was a not_null of outputMask alone: [T,T,T] with every output
    None was accepted. Each row is the pointer the mask's element asks for."""
    fn, spec, args = _function(corpus, "norm/layer_norm_grad_v3/docs/aclnnLayerNormBackward.md")
    rules = {r.id: r for r in fn.cases.rules}
    for index, (rule_id, out) in enumerate(
        [
            ("rule2_not_null_when", "gradInputOut"),
            ("rule3_not_null_when", "gradWeightOut"),
            ("rule4_not_null_when", "gradBiasOut"),
        ]
    ):
        assert rules[rule_id].params == (out, "outputMask") and rules[rule_id].values == (index,)
        assert args["outputMask"][index] is True and args[out] is not None
        assert rule_id in _broken(spec, {**args, out: None}, None)
        mask = tuple(False if i == index else v for i, v in enumerate(args["outputMask"]))
        assert rule_id not in _broken(spec, {**args, out: None, "outputMask": mask}, None)  # counter-case
    assert _broken(spec, args, None) == []  # the document's own call


def test_a_mask_and_pointer_joined_by_or_is_no_masked_null():
    """Counter-case of the form: `或` joins two conditions, not a mask and the pointer it asks for."""
    from specgen.parse.classify import masked_null

    assert masked_null("outputMask[1]为True或gradWeightOut为空指针。", ("gradWeightOut",), ("outputMask",)) is None
    read = masked_null("outputMask[1]为True且gradWeightOut为空指针。", ("gradWeightOut",), ("outputMask",))
    assert read is not None and read.values == (1,)


def test_tensors_whose_dimensions_differ_are_a_same_rank_rule(corpus):
    """aclnnAdaptiveAvgPool2dBackward line 164: `gradOutput和self维度不一致。` was read as each
    tensor's rank in 3-4 (a 3-D gradOutput beside a 4-D self was accepted); it is one rank."""
    fn, spec, args = _function(corpus, "pooling/adaptive_avg_pool2d_grad/docs/aclnnAdaptiveAvgPool2dBackward.md")
    rule = next(r for r in fn.cases.rules if r.condition == "gradOutput和self维度不一致")
    assert rule.kind == "same_rank" and rule.params == ("gradOutput", "self") and rule.host
    assert _broken(spec, args, None) == []  # the document's own call
    self_ = args["self"]
    assert len(self_.shape) == 4
    three = dataclasses.replace(args["gradOutput"], shape=args["gradOutput"].shape[1:])
    assert rule.id in _broken(spec, {**args, "gradOutput": three}, None)
    # counter-case: `NC维度不一致` (the N and C sizes) names no tensor and is no same-rank rule
    assert next(r for r in fn.cases.rules if r.condition == "NC维度不一致").kind != "same_rank"


@pytest.mark.parametrize(
    "condition, read",
    [
        ("selfRef、index、src的维度数不一致", ("selfRef", "index", "src")),  # aclnnInplaceScatter
        ("keepDim为true时，valuesOut或indicesOut的维度与self的维度不一致", ("valuesOut", "indicesOut", "self")),
        # counter-cases: a part of a shape (aclnnIndexPutImpl, aclnnRmsNormDynamicMxQuant)
        ("indices中BOOL类型索引（掩码）的shape与selfRef对应维度不一致时", None),
        ("gamma的维度和x的需要做norm的维度不相同", None),
    ],
)
def test_the_same_rank_form(condition, read):
    from specgen.parse.classify import condition_checks

    names = ("selfRef", "index", "src", "valuesOut", "indicesOut", "self", "indices", "gamma", "x")
    checks = condition_checks(condition, names, names, names)
    same = [c.params for c in checks if c.kind == "same_rank"]
    assert same == ([read] if read else [])


def test_outputs_said_the_same_as_each_other_only_settle_no_shape():
    """Two outputs each said to have the other's shape (aclnnLayerNormBackward's gradWeightOut
    `shape与gradBiasOut的shape相等` and gradBiasOut `shape与gradWeightOut的shape相等`, their
    `[R1,...,Rj]` aside): a circle, not a shape; it is cut at its first output."""
    from specgen.model import Param, ShapeRule
    from specgen.parse.classify.shapes import _unwound
    from tests.param_kinds import OUT

    def said_as(name: str, peer: str) -> Param:
        rule = ShapeRule(kind="same", params=(peer,), text=f"shape与{peer}的shape相等", line=1)
        return Param(name=name, shape_rule=rule, **OUT)

    weight, bias = _unwound([said_as("gradWeightOut", "gradBiasOut"), said_as("gradBiasOut", "gradWeightOut")])
    assert weight.shape_rule is not None and bias.shape_rule is not None
    cut = weight.shape_rule
    assert cut.kind == "not_derivable" and "gradBiasOut the same as gradWeightOut" in cut.reason
    # the other still holds to it: a gradBiasOut of another shape than the caller's gradWeightOut
    assert bias.shape_rule.kind == "same" and bias.shape_rule.params == ("gradWeightOut",)


def test_outputs_given_an_arrays_documented_value_take_it(corpus):
    """aclnnLayerNormBackward lines 210/220: gradWeightOut and gradBiasOut `为[R1,...,Rj]`, the value
    normalizedShape's row gives (line 140, `值为[R1,...,Rj]`): their shape is normalizedShape's value."""
    fn, _, _ = _function(corpus, "norm/layer_norm_grad_v3/docs/aclnnLayerNormBackward.md")
    rules = {p.name: p.shape_rule for p in fn.function.params if p.shape_rule}
    for name in ("gradWeightOut", "gradBiasOut"):
        assert (rules[name].kind, rules[name].dims) == ("explicit", ("*normalizedShape",))
    assert rules["gradInputOut"].kind == "same" and rules["gradInputOut"].params == ("input",)


def test_in_out_tensors_said_the_same_as_each_other_keep_their_relation(corpus):
    """Counter-case: aclnnApplyAdamW's in-out mRef and varRef (`shape要求与输入varRef保持一致`) each
    hold a shape of their own; the rule relating them stays."""
    fn, _, _ = _function(corpus, "optim/apply_adam_w/docs/aclnnApplyAdamW.md")
    rules = {p.name: p.shape_rule for p in fn.function.params if p.shape_rule}
    assert rules["mRef"].kind == "same" and rules["mRef"].params == ("varRef",)


def test_a_relation_an_unchecked_error_row_names_says_so(corpus):
    """aclnnForeachAddList: x2's `数据类型、数据格式和shape与入参x1一致` is rejected by the row
    `x1、x2、out的shape不满足约束` (not checked: it stands for the constraints as a whole): the shape
    part is checked position by position under that row's status (tests/test_list_shapes.py); its
    format part is named by no row; and that row's reason claims no check it does not make."""
    fn, _, _ = _function(corpus, "foreach/foreach_add_list/docs/aclnnForeachAddList.md")
    reasons = _unchecked(fn)
    assert "stated_x2_4_same_shape" not in reasons
    [shape] = [r for r in fn.cases.rules if r.kind == "same_shape"]
    assert shape.host and shape.params == ("x2", "x1") and shape.code == 561002
    assert "no error row" in reasons["stated_x2_5_same_format"]  # counter-case: no row names formats
    assert "checked one by one" not in reasons["rule4_constraints"]
    # the count is the statements': those of x1, x2 and out, enforced or named
    named = [s for s in fn.cases.statements if s.param in ("x1", "x2", "out") and not s.honoured]
    counted = f"{sum(s.enforced for s in named)} of the {len(named)} constraints of x1, x2, out are checked"
    assert counted in reasons["rule4_constraints"]
    assert sum(s.enforced for s in named) < len(named)  # the format relation among those not checked


def test_a_relation_of_single_tensors_an_unchecked_row_names_says_so(corpus):
    """aclnnAscendQuant: offset's `shape与scale一致` is named by the row `x、scale、offset、y的shape…`,
    which is not checked; the relation's reason says so (single tensors: no list rule takes it)."""
    fn, _, _ = _function(corpus, "quant/ascend_quant_v2/docs/aclnnAscendQuant.md")
    reason = _unchecked(fn)["stated_offset_3_same_shape"]
    assert "the error row `x、scale、offset、y的shape" in reason and "that row is not checked" in reason


def test_a_dimension_range_with_a_value_of_its_own(corpus):
    """aclnnUniqueConsecutive dim, its description cell: `取值范围为[-self.dim(), self.dim())，传入
    1000表示不指定维度`: a dimension of self, or 1000 (the document's own call passes 1000)."""
    fn, spec, args = _function(corpus, "index/unique_consecutive/docs/aclnnUniqueConsecutive.md")
    rank = len(args["self"].shape)
    assert "implied_axis_dim" in {r.id for r in fn.cases.rules if r.host}
    for dim in (1000, -rank, rank - 1):
        assert "implied_axis_dim" not in _broken(spec, {**args, "dim": dim}, None)
    for dim in (rank, -rank - 1, 999):
        assert "implied_axis_dim" in _broken(spec, {**args, "dim": dim}, None)


def test_an_ignored_dimension_keeps_its_range_unread():
    """Counter-case: a value said to be ignored at times (`…不生效`) leaves the range no rule."""
    from specgen.parse import classify as cons

    ctx = cons.Context(subject="dim", params=("self", "dim"), line=1)
    read = cons.classify("取值范围为[-self.dim(), self.dim())，传入1000表示不指定维度", ctx)[0]
    assert [(c.kind, c.params, c.values) for c in read if c.kind == "axis"] == [("axis", ("self",), (1000,))]
    ignored = cons.classify("取值范围为[-self.dim(), self.dim())，mode为0时该参数不生效", ctx)[0]
    assert not [c for c in ignored if c.kind == "axis"]


def test_a_condition_listed_under_a_product_is_no_dtype_equality(corpus):
    """Counter-case, aclnnFusedMatmul line 227: `x1、x2、x3三者的数据类型完全一致，且同为BFLOAT16或同为
    FLOAT16` is one of the conditions of a cubeMathType mode, not a rule: no product-held equality."""
    fn, _, _ = _function(corpus, "matmul/fused_mat_mul/docs/aclnnFusedMatmul.md")
    tied = [(p.name, c.text) for p in fn.function.params for c in p.of_kind("same_dtype") if c.product]
    assert tied == []
    assert not [r for r in fn.cases.rules if r.products]


def _unsupported(corpus, rel: str):
    fn, _, args = _function(corpus, rel)
    cases = fn.cases
    spec = validator_spec(cases.params, list(cases.rules), fn.name, cases.unsupported_products)
    return cases, spec, args


def test_a_product_the_support_list_marks_unsupported_is_refused(corpus):
    """aclnnLogitGrad lines 17-23: `<term>Atlas 训练系列产品</term>：不支持` (and 200I/500 A2,
    推理系列): product="910" is refused; A3 and A2 (`支持`) and no product pass. The document has
    no error row for it, so the refusal is a ValueError, not a guessed status."""
    cases, spec, args = _unsupported(corpus, "loss/logit_grad/docs/aclnnLogitGrad.md")
    assert cases.unsupported_products == ("310b", "310p", "910")
    for product in (None, "A3", "910b"):
        validator.check(spec, args, product)
    with pytest.raises(ValueError, match="not list product 910 as supported"):
        validator.check(spec, args, "910")


def test_an_unsupported_product_takes_the_status_of_the_row_that_says_so(corpus):
    """aclnnAdaptiveMaxPool3d: 310P/910 `不支持`, and the error row `161002 | 平台不支持`: the
    refusal is that row's AclnnError; a supported product passes."""
    cases, spec, args = _unsupported(corpus, "pooling/adaptive_max_pool3d/docs/aclnnAdaptiveMaxPool3d.md")
    assert "910" in cases.unsupported_products
    validator.check(spec, args, "910b")
    with pytest.raises(validator.AclnnError) as raised:
        validator.check(spec, args, "910")
    assert raised.value.status == 161002 and "平台不支持" in str(raised.value)


# ---------------------------------------------------------------- remarks that restrict no dtype set
# Found by benchmarks/valid_variants.py: the document's own call (or one with the dtypes the
# product's remark allows) refused on a product whose remark only names the dtypes in a
# condition, or names them of another parameter.


def _retyped(args, names, dtype):
    return {**args, **{n: dataclasses.replace(args[n], dtype=dtype) for n in names}}


def test_a_condition_on_the_input_dtype_restricts_no_set(corpus):
    """aclnnGemm line 228, under Ascend 950: `cubeMathType=4，当输入数据类型为FLOAT16/BFLOAT16时，
    gemm过程会升精度计算…` says what happens for those dtypes, not that A may only be them: the
    document's call (FLOAT, cubeMathType 1) runs there. Line 237's `不支持BFLOAT16数据类型` still
    holds on the Atlas training products."""
    _, spec, args = _function(corpus, "matmul/gemm/docs/aclnnGemm.md")
    assert args["A"].dtype == "FLOAT"
    assert _broken(spec, args, "950") == []
    assert _broken(spec, _retyped(args, ("A", "B", "C", "out"), "FLOAT16"), "950") == []
    # the dtype table's row, held to 910's set, or A's own set on 910: either refuses BFLOAT16
    assert {"implied_dtypes_A", "rule2_dtypes"} & set(
        _broken(spec, _retyped(args, ("A", "B", "C", "out"), "BFLOAT16"), "910")
    )


def test_a_sentence_led_by_a_condition_restricts_no_set(corpus):
    """aclnnAddmm line 230, under A2/A3: `cubeMathType=4，当self、mat1和mat2均为FLOAT16或均为
    BFLOAT16时，…；当输入数据类型为FLOAT32且k轴大于2048时，…` leaves self all three dtypes of its row;
    aclnnAscendQuant line 190, A2/A3: `当数据格式为NZ时，出参y的数据类型支持INT32` leaves y INT8 in
    ND (the document's call)."""
    _, spec, args = _function(corpus, "matmul/mat_mul_v3/docs/aclnnAddmm&aclnnInplaceAddmm.md")
    for dtype in ("FLOAT", "FLOAT16", "BFLOAT16"):
        assert _broken(spec, _retyped(args, ("self", "mat1", "mat2", "out"), dtype), "910b") == []
    assert _broken(spec, _retyped(args, ("self", "mat1", "mat2", "out"), "BFLOAT16"), "910") != []
    _, spec, args = _function(corpus, "quant/ascend_quant_v2/docs/aclnnAscendQuant.md")
    assert args["y"].dtype == "INT8"
    assert _broken(spec, args, "910b") == [] and _broken(spec, args, "A3") == []


def test_a_remark_restricts_the_parameters_it_names_as_subject(corpus):
    """aclnnRmsNormQuant line 186, A2/A3: `入参x、gamma、beta、scale的数据类型仅支持FLOAT16，BFLOAT16，
    offset仅支持INT8` gives the list to x…scale, not to offset (the call's offset is INT8);
    aclnnQuantize line 180, A2/A3: `入参zeroPoints不支持FLOAT32。且当数据类型为BFLOAT16时，x、scales
    数据类型均为BFLOAT16` withdraws FLOAT from zeroPoints only (the call's x is FLOAT), while line
    171's `入参x、scales不支持BFLOAT16、FLOAT32` on the Atlas inference products still refuses it."""
    _, spec, args = _function(corpus, "norm/rms_norm_quant/docs/aclnnRmsNormQuant.md")
    assert args["offset"].dtype == "INT8"
    assert _broken(spec, args, "910b") == []
    assert _broken(spec, _retyped(args, ("x", "gamma", "beta", "scale"), "FLOAT"), "910b") != []
    _, spec, args = _function(corpus, "quant/quantize/docs/aclnnQuantize.md")
    assert args["x"].dtype == "FLOAT"
    assert _broken(spec, args, "910b") == [] and _broken(spec, args, "A3") == []
    assert _broken(spec, args, "310p") != []


def test_a_clause_ending_in_a_condition_restricts_no_set(corpus):
    """aclnnAscendQuant line 189, A2/A3: `参数x、scale、offset的数据格式为NZ时，数据类型仅支持FLOAT32` holds
    in NZ only: x FLOAT16 in ND runs there; aclnnAvgPool2dBackward lines 239-256, Ascend 950:
    `在globalPooling模式下，当输入数据类型为BFLOAT16时不支持该选项` (of a cubeMathType value) leaves
    gradOutput FLOAT16; line 195's `入参x、scale、offset的数据类型不支持BFLOAT16` still holds on 310p."""
    _, spec, args = _function(corpus, "quant/ascend_quant_v2/docs/aclnnAscendQuant.md")
    assert _broken(spec, _retyped(args, ("x", "scale", "offset"), "FLOAT16"), "910b") == []
    assert _broken(spec, _retyped(args, ("x", "scale", "offset"), "BFLOAT16"), "310p") != []
    _, spec, args = _function(corpus, "pooling/avg_pool3_d_grad/docs/aclnnAvgPool2dBackward.md")
    assert _broken(spec, _retyped(args, ("gradOutput", "self", "gradInput"), "FLOAT16"), "950") == []
