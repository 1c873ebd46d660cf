"""Findings of the third hand-read audit of generated validators (ten random ops-nn operators),
each on the document's own sentence: a dtype of `Ascend910B 及后续同代 SoC` holds on the later
products too, and error rows stating an element count or a last dimension are enforced.
Corpus documents are skipped when the corpus is absent."""

from __future__ import annotations

import pytest

from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse.classify.conditions import condition_checks
from specgen.parse.classify.statements import clauses
from tests.validator_calls import first_violation, ops_nn

HARDSIGMOID_V2 = "experimental/activation/hard_sigmoid_v2/docs/aclnnHardsigmoidV2&aclnnInplaceHardsigmoidV2.md"
APPLY_ADAM_D = "experimental/optim/apply_adam_d/docs/aclnnApplyAdamD.md"
MSDA = "vfusion/multi_scale_deformable_attn_function/docs/aclnnMultiScaleDeformableAttnFunction.md"


# ---------------------------------------------------------------- 及后续同代 (item 1)


@pytest.mark.parametrize("product", ["910b", "A3", "950"])
def test_bfloat16_of_ascend910b_and_later_is_accepted_on_its_generation_and_after(corpus, product):
    """aclnnHardsigmoidV2.md:104 `BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）`: A3 is 910B's
    generation and 950 came later; the audit's call on A3 was rejected with 161002."""
    fn = ops_nn(corpus, HARDSIGMOID_V2)
    bf16 = TensorDesc((2, 3), "BFLOAT16")
    assert first_violation(fn, product, self=bf16, out=bf16) is None


@pytest.mark.parametrize("product", ["310p", "910"])
def test_bfloat16_of_ascend910b_and_later_is_rejected_on_older_products(corpus, product):
    fn = ops_nn(corpus, HARDSIGMOID_V2)
    bf16 = TensorDesc((2, 3), "BFLOAT16")
    found = first_violation(fn, product, self=bf16, out=bf16)
    assert found is not None and found[1] == 161002


# ---------------------------------------------------------------- element counts and last dimensions (items 8, 9)


@pytest.mark.parametrize(
    ("condition", "tensors", "read"),
    [
        # aclnnApplyAdamD.md:109
        (
            "`beta1Power`、`beta2Power`、`lr`、`beta1`、`beta2`、`epsilon` 的 shape size 不为 1",
            ("var", "beta1Power", "beta2Power", "lr", "beta1", "beta2", "epsilon"),
            ("numel", ("beta1Power", "beta2Power", "lr", "beta1", "beta2", "epsilon"), (1,)),
        ),
        # aclnnForeachMulScalarInplace.md:177
        ("scalar元素个数不为1", ("x", "scalar"), ("numel", ("scalar",), (1,))),
        # aclnnNLLLoss2dBackward.md: `不是`
        ("totalWeight的元素个数不是1", ("gradOutput", "totalWeight"), ("numel", ("totalWeight",), (1,))),
        # aclnnMultiScaleDeformableAttnFunction.md:262
        ("spatialShape的最后一轴不是2", ("value", "spatialShape"), ("last_dim", ("spatialShape",), (2,))),
        # aclnnIndexCopy: the situation's tensor is not the one counted (and the row is conditional)
        ("当source为scalar时，index元素数量不为1", ("self", "index", "source"), ("numel", ("index",), (1,))),
        # counter-cases: a multiple stays a multiple; a list's elements are not the list
        ("x的最后一维不是2的倍数", ("x", "y"), ("dim_multiple", ("x",), (2,))),
        ("stateSteps中每个Tensor的元素个数不为1时", ("stateSteps", "x"), ("shape", ("stateSteps",), ())),
    ],
)
def test_an_error_row_stating_a_size_is_read(condition, tensors, read):
    named = tuple(n for n in tensors if n in condition)
    (check,) = condition_checks(condition, named, tensors, tensors)
    assert (check.kind, check.params, check.values) == read


def test_a_stated_element_count_is_checked_and_an_empty_tensor_fails_it():
    rule = validator.Rule(161002, "numel", ("lr", "epsilon"), "shape size 不为 1", id="r", values=(1,))
    params = tuple(validator.ParamSpec(name=n, role="tensor", direction="in") for n in ("lr", "epsilon"))
    spec = validator.Spec(function="aclnnXGetWorkspaceSize", params=params, rules=(rule,))
    one = TensorDesc((1,), "FLOAT")
    assert validator.first_violation(spec, {"lr": one, "epsilon": TensorDesc((), "FLOAT")}) is None
    for bad in ((2,), (0,), (1, 2)):
        found = validator.first_violation(spec, {"lr": one, "epsilon": TensorDesc(bad, "FLOAT")})
        assert found and "epsilon" in found[1], bad


def test_a_stated_last_dimension_is_checked():
    rule = validator.Rule(161002, "last_dim", ("s",), "s的最后一轴不是2", id="r", values=(2,))
    spec = validator.Spec(
        function="aclnnXGetWorkspaceSize",
        params=(validator.ParamSpec(name="s", role="tensor", direction="in"),),
        rules=(rule,),
    )
    assert validator.first_violation(spec, {"s": TensorDesc((4, 2), "INT64")}) is None
    for bad in ((1, 3), (3,), ()):
        assert validator.first_violation(spec, {"s": TensorDesc(bad, "INT64")}), bad


@pytest.mark.parametrize("name", ["lr", "epsilon", "beta1Power"])
@pytest.mark.parametrize("shape", [(2,), (0,)])
def test_apply_adam_d_rejects_a_scalar_input_of_other_than_one_element(corpus, name, shape):
    """aclnnApplyAdamD.md:109 (161002): the audit's calls `lr` (2,) and `epsilon` (0,) were accepted."""
    fn = ops_nn(corpus, APPLY_ADAM_D)
    assert first_violation(fn) is None  # the derived call holds one element in each
    found = first_violation(fn, **{name: TensorDesc(shape, "FLOAT")})
    assert found is not None and found[1] == 161002 and "numel" in found[0]


def test_msda_rejects_a_spatial_shape_whose_last_axis_is_not_two(corpus):
    """aclnnMultiScaleDeformableAttnFunction.md:262 (161002): `spatial_shape (1,3)` was accepted."""
    fn = ops_nn(corpus, MSDA)
    assert first_violation(fn) is None
    spatial = fn.cases.valid.args["spatialShape"]
    found = first_violation(fn, spatialShape=TensorDesc((spatial.shape[0], 3), spatial.dtype))
    assert found is not None and found[1] == 161002 and "last_dim" in found[0]


# ---------------------------------------------------------------- a collective subject (item 7)


def test_inputs_and_outputs_said_as_a_whole_against_one_tensor_relate_every_one():
    """aclnnApplyAdamD.md:107 `输入/输出 dtype 与 `var` 不一致。`: every input and output tensor
    (not workspaceSize, not a bool) against var; one side only when one is said."""
    tensors = ("var", "m", "lr", "varOut")
    sides = (("var", "m", "lr"), ("varOut", "workspaceSize"))
    pointers = (*tensors, "workspaceSize")
    (both,) = condition_checks("输入/输出 dtype 与 `var` 不一致", ("var",), pointers, tensors, sides)
    assert (both.kind, both.params) == ("same_dtype", ("var", "m", "lr", "varOut"))
    (outputs,) = condition_checks("输出 dtype 与 `var` 不一致", ("var",), pointers, tensors, sides)
    assert outputs.params == ("var", "varOut")
    # counter-case: no tensor named to compare with, so no relation is read
    assert all(c.kind != "same_dtype" for c in condition_checks("输入/输出 dtype 不一致", (), pointers, tensors, sides))


@pytest.mark.parametrize("name", ["m", "grad", "lr"])
def test_apply_adam_d_rejects_an_input_of_another_dtype_than_var(corpus, name):
    """The audit's calls `m`, `grad`, `lr` FLOAT16 beside var FLOAT were accepted, and the `与 var
    一致` statements said no error row makes them a rejection."""
    fn = ops_nn(corpus, APPLY_ADAM_D)
    valid = fn.cases.valid.args[name]
    found = first_violation(fn, **{name: TensorDesc(valid.shape, "FLOAT16")})
    assert found == ("rule3_same_dtype", 161002)
    assert not [r for r in fn.cases.rules if r.id.startswith("stated_") and r.kind == "same_dtype"]


# ---------------------------------------------------------------- tensor lists (items 2, 10)

FOREACH_EXPM1 = "foreach/foreach_expm1/docs/aclnnForeachExpm1.md"
FOREACH_MUL_SCALAR_INPLACE = "foreach/foreach_mul_scalar_inplace/docs/aclnnForeachMulScalarInplace.md"


@pytest.mark.parametrize(
    ("condition", "read"),
    [
        ("x或out中的Tensor的数据类型不一致", ("list_dtype", ("x", "out"))),  # aclnnForeachExpm1.md:167
        ("x1、x2中的Tensor的数据类型不一致", ("list_dtype", ("x1", "x2"))),  # aclnnForeachAddListV2
        ("x和out的数据类型不一致", ("same_dtype", ("x", "out"))),  # aclnnForeachExpm1.md:159
        # counter-cases: a tensor named after the list's, or lists related by 与: across them
        ("varRef中tensor与updates的数据类型不一致", ("same_dtype", ("varRef", "updates"))),  # aclnnScatterList
        (
            "paramsRef、gradsRef与momentumBufferListOptionalRef及其中各个tensor的数据类型不同",  # aclnnFusedSgd
            ("same_dtype", ("paramsRef", "gradsRef", "momentumBufferListOptionalRef")),
        ),
    ],
)
def test_a_dtype_row_on_lists_is_read_within_each_or_across(condition, read):
    kind, named = read
    (check,) = condition_checks(condition, named, (*named, "y"), (*named, "y"))
    assert (check.kind, check.params) == read


def _list_spec(kind: str) -> validator.Spec:
    rule = validator.Rule(161002, kind, ("x", "out"), "documented", id="r")
    params = tuple(validator.ParamSpec(name=n, role="tensor_list", direction="in") for n in ("x", "out"))
    return validator.Spec(function="aclnnXGetWorkspaceSize", params=params, rules=(rule,))


F32, F16 = TensorDesc((2, 3), "FLOAT"), TensorDesc((1, 3), "FLOAT16")


def test_lists_of_one_dtype_are_compared_position_by_position():
    spec = _list_spec("same_dtype")
    assert validator.first_violation(spec, {"x": [F32, F16], "out": [F32, F16]}) is None
    found = validator.first_violation(spec, {"x": [F32, F16], "out": [F16, F32]})
    assert found and "out[0]" in found[1]


def test_the_tensors_of_each_list_share_one_dtype():
    spec = _list_spec("list_dtype")
    assert validator.first_violation(spec, {"x": [F32, F32], "out": [F16, F16]}) is None
    found = validator.first_violation(spec, {"x": [F32, F16], "out": [F32, F16]})
    assert found and "x[1]" in found[1]


def test_foreach_expm1_rejects_mixed_dtypes_in_a_list_with_the_rows_status(corpus):
    """aclnnForeachExpm1.md:167 `x或out中的Tensor的数据类型不一致。` (561002): the audit's call was
    rejected with 161002 by line 159 `x和out的数据类型不一致`, which it does not break."""
    fn = ops_nn(corpus, FOREACH_EXPM1)
    found = first_violation(fn, x=[F32, F16], out=[F32, F16])
    assert found is not None and found[1] == 561002 and "list_dtype" in found[0]
    rows = {r.id: r for r in fn.cases.rules}
    assert rows[found[0]].condition == "x或out中的Tensor的数据类型不一致"


def test_foreach_mul_scalar_inplace_checks_its_561002_rows(corpus):
    """aclnnForeachMulScalarInplace.md:171-177: mixed dtypes in x and a scalar of two elements
    were accepted, and the rows said 561002 came from inside the library."""
    fn = ops_nn(corpus, FOREACH_MUL_SCALAR_INPLACE)
    assert first_violation(fn) is None
    assert first_violation(fn, x=[F32, F16])[1] == 561002
    assert first_violation(fn, scalar=TensorDesc((2,), "FLOAT")) == ("rule6_numel", 561002)
    assert first_violation(fn, scalar=TensorDesc((0,), "FLOAT")) == ("rule6_numel", 561002)
    enforced = {r.condition for r in fn.cases.rules if r.host}
    assert not [r for r in fn.cases.rules if "inside the library" in r.reason and r.condition in enforced]


def test_row_statements_the_561002_rows_check_are_not_listed_as_unchecked(corpus):
    """aclnnForeachMulScalarInplace.md:98-100: scalar's `不支持空Tensor` and `元素个数为1` and x's
    `该参数中所有Tensor的数据类型保持一致` are checked by the numel and list_dtype rows (recheck of
    the audit): the docstring listed them as not checked beside the rules that reject them."""
    fn = ops_nn(corpus, FOREACH_MUL_SCALAR_INPLACE)
    unchecked = {r.id for r in fn.cases.rules if not r.host and "determinism" not in r.reason}  # l.230: no rule
    assert not unchecked & {"stated_scalar_1_empty_tensor", "stated_scalar_2_text", "stated_x_2_same_dtype"}
    # left: `x中存在空指针Tensor` (list elements) and the 950 remark pairing scalar's dtype with x's
    pairing = {r.id for r in fn.cases.rules if not r.host and "对应关系" in r.condition}
    assert len(pairing) == 1 and unchecked - pairing == {"rule3_not_null"}


# ---------------------------------------------------------------- a list's length on a product (item 5)


def test_a_remark_bounding_a_lists_tensors_is_checked_on_its_product(corpus):
    """aclnnForeachMulScalarInplace.md:129, under Ascend 950: `参数`x`支持包含的最大Tensor个数为256。`
    The audit's call of 257 tensors on 950 was accepted; with no product, which one runs is unknown."""
    fn = ops_nn(corpus, FOREACH_MUL_SCALAR_INPLACE)
    one = TensorDesc((1,), "FLOAT")
    assert first_violation(fn, "950", x=[one] * 257) == ("product_length_x", 161002)
    assert first_violation(fn, "950", x=[one] * 256) is None
    assert first_violation(fn, None, x=[one] * 257) is None


def test_a_remark_bounding_several_lists_bounds_each_named_and_no_other(corpus):
    # aclnnForeachMulScalarV2.md: `入参x和出参out支持包含的最大Tensor个数均为50。`
    fn = ops_nn(corpus, "foreach/foreach_mul_scalar/docs/aclnnForeachMulScalarV2.md")
    lengths = {r.params: r.bounds for r in fn.cases.rules if r.kind == "length"}
    assert lengths == {("x",): (None, 50, True, True), ("out",): (None, 50, True, True)}


# ---------------------------------------------------------------- an output of a broadcast that cannot be (item 3)

THRESHOLD_BACKWARD = "experimental/activation/threshold_grad_v2_d/docs/aclnnThresholdBackward.md"


def test_an_output_of_inputs_that_do_not_broadcast_meets_no_shape(corpus):
    """aclnnThresholdBackward.md:104 `shape需要与self和gradOutput进行broadcast之后的shape相等`: the
    audit's call gradOutput (3,2), self (2,2), out (3,2) was accepted; no broadcast shape exists."""
    fn = ops_nn(corpus, THRESHOLD_BACKWARD)
    assert first_violation(fn) is None
    dtype = fn.cases.valid.args["self"].dtype
    grad, out = TensorDesc((3, 2), dtype), TensorDesc((3, 2), dtype)
    found = first_violation(fn, gradOutput=grad, self=TensorDesc((2, 2), dtype), out=out)
    assert found is not None and "output_shape" in found[0]
    # counter-case: shapes that broadcast, out their broadcast
    assert first_violation(fn, gradOutput=grad, self=TensorDesc((1, 2), dtype), out=out) is None


# ---------------------------------------------------------------- peers listed with a comma (minor)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # aclnnSigmoidBackward.md:95 (experimental), aclnnSeluBackward, aclnnLogSoftmaxBackward
        ("数据类型、shape需要与grad_output，output一致", ["数据类型、shape需要与grad_output，output一致"]),
        ("shape需要与gradOutput，output一致", ["shape需要与gradOutput，output一致"]),
        # counter-cases: a comma between clauses stays a split
        ("x，y的shape一致", ["x", "y的shape一致"]),
        ("与x一致，y的shape为(2,3)", ["与x一致", "y的shape为(2,3)"]),
    ],
)
def test_the_peers_of_one_relation_listed_with_a_comma_are_one_clause(text, expected):
    assert clauses(text) == expected


def test_sigmoid_backward_grad_input_takes_the_dtype_of_output(corpus):
    """The audit's call: gradInput FLOAT16 beside FLOAT inputs was accepted (the statement was
    split at ，into fragments no rule read)."""
    fn = ops_nn(corpus, "experimental/activation/sigmoid_grad/docs/aclnnSigmoidBackward.md")
    valid = fn.cases.valid.args["gradInput"]
    other = "FLOAT16" if valid.dtype != "FLOAT16" else "FLOAT"
    assert first_violation(fn, gradInput=TensorDesc(valid.shape, other)) is not None


def test_a_constraints_section_headed_otherwise_is_read(corpus):
    """aclnnApplyAdamD.md:128 `## 约束与说明` (aclnnHardswishBackward: `## 约束与限制`): its
    statements are named, not dropped."""
    fn = ops_nn(corpus, APPLY_ADAM_D)
    noted = [r for r in fn.cases.rules if r.id.startswith("notes_")]
    assert noted and "line 130" in noted[0].reason
