"""Matrix-product outputs, quoted from ops-nn documents: an operand wrapped in a function the
formula defines elementwise, packed 4-bit operands; each reading checked against the
document's own sample call where the corpus is at hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from specgen.codegen.runtime import _shapes
from specgen.model import Constraint, Param, ShapeRule
from specgen.parse.classify.shape_matmul import (
    lettered_product_rule,
    permuted_product_rule,
    unlettered_reason,
    unpacked,
)
from specgen.parse.classify.shape_phrases import ShapeContext, read_matmul, unwrapped_operands
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import BOOL, INT, INT_ARRAY, OUT, TENSOR

# aclnnWeightQuantBatchMatmulV2.md 功能说明 (ops-nn matmul/weight_quant_batch_matmul_v2), its
# formula blocks as the parser joins them
WQBMM_FORMULA = (
    "y = x @ ANTIQUANT(weight) + bias\n\n"
    "ANTIQUANT(weight) = (weight + antiquantOffset) * antiquantScale\n\n"
    "\\begin{aligned}\ny &= QUANT(x @ ANTIQUANT(weight) + bias) \\\\\n"
    "&= (x @ ANTIQUANT(weight) + bias) * quantScale + quantOffset \\\\\n\\end{aligned}"
)
WQBMM_INPUTS = ("x", "weight", "antiquantScale", "antiquantOffsetOptional", "biasOptional")


def _ctx(inputs: tuple[str, ...], attrs: tuple[str, ...] = ()) -> ShapeContext:
    return ShapeContext(("y", *inputs, *attrs), inputs, "y", tensors=("y", *inputs))


def test_an_operand_in_a_function_the_formula_defines_elementwise_is_multiplied_bare():
    assert "y = x @ weight + bias" in unwrapped_operands(WQBMM_FORMULA)
    assert read_matmul(WQBMM_FORMULA, _ctx(WQBMM_INPUTS)) == ("matmul", ("x", "weight"), ())


def test_a_function_the_formula_does_not_define_elementwise_is_not_unwrapped():
    undefined = "y = x @ ANTIQUANT(weight) + bias"
    assert unwrapped_operands(undefined) == undefined
    assert read_matmul(undefined, _ctx(WQBMM_INPUTS)) is None
    by_a_call = "y = x @ ANTIQUANT(weight)\n\nANTIQUANT(weight) = cast(weight) * antiquantScale"
    assert read_matmul(by_a_call, _ctx(WQBMM_INPUTS)) is None
    of_other = "y = x @ ANTIQUANT(weight)\n\nANTIQUANT(weight) = antiquantOffset * antiquantScale"
    assert read_matmul(of_other, _ctx(WQBMM_INPUTS)) is None  # not a function of its operand


def _tensor(name: str, dtypes: list[str]) -> Param:
    allowed = Constraint(kind="dtypes", text="、".join(dtypes), line=1, values=tuple(dtypes))
    return Param(name=name, constraints=(allowed,), **TENSOR)


def test_an_operand_that_may_hold_eight_fp4_in_a_float_holds_the_product_only_where_it_is_not_float():
    # aclnnQuantMatmulWeightNz (ops-nn): `x1是FLOAT8_E4M3FN，x2是FLOAT32时, x2表示一个FLOAT32存储8个
    # FLOAT4_E2M1的紧密排布的数据格式`; aclnnWeightQuantBatchMatmulV2's sample passes a FLOAT weight
    # of (k, n / 8) = (64, 8) for y (16, 64)
    operands = [_tensor("x", ["FLOAT16"]), _tensor("weight", ["INT8", "INT4", "INT32", "FLOAT", "FLOAT4_E2M1"])]
    rule = unpacked(ShapeRule(kind="matmul", params=("x", "weight"), line=1), operands)
    assert rule.when == ("weight", "dtype", "INT32", "false", "weight", "dtype", "FLOAT", "false")
    plain = rule.model_dump(mode="json")
    shapes = {"x": (16, 64), "weight": (64, 8)}
    packed = {"x": np.zeros((16, 64), np.float16), "weight": np.zeros((64, 8), np.float32)}
    assert _shapes.output_shape(plain, shapes, packed) is None  # unchecked, not (16, 8)
    int8 = {**packed, "weight": np.zeros((64, 8), np.int8)}
    assert _shapes.output_shape(plain, shapes, int8) == (16, 8)
    # FLOAT alone, with no 4-bit dtype beside it, is a float operand like any other
    floats = [_tensor("x", ["FLOAT"]), _tensor("weight", ["FLOAT", "FLOAT16"])]
    assert unpacked(ShapeRule(kind="matmul", params=("x", "weight"), line=1), floats).when == ()


def _function(corpus: Path, relative: str, name: str):
    from specgen.parse import parse_paths

    [doc] = parse_paths([corpus / "docs" / "ops-nn" / relative])
    return next(f for f in doc.functions if f.name == name)


def _sample_shapes(function) -> tuple[dict, dict]:
    """The sample call's tensors' shapes and its other values, by parameter name."""
    shapes, values = {}, {}
    for p, a in zip(function.params, function.sample_call.args, strict=False):
        if a.shape is not None:
            shapes[p.name] = tuple(a.shape)
        elif a.value is not None:
            values[p.name] = a.value
    return shapes, values


@pytest.mark.parametrize("version", ["V2", "V3"])
def test_weight_quant_batch_matmul_y_is_the_product_its_sample_writes(corpus, version):
    relative = f"matmul/weight_quant_batch_matmul_v2/docs/aclnnWeightQuantBatchMatmul{version}.md"
    function = _function(corpus, relative, f"aclnnWeightQuantBatchMatmul{version}")
    y = next(p for p in function.params if p.name == "y")
    assert y.shape_rule is not None and (y.shape_rule.kind, y.shape_rule.params) == ("matmul", ("x", "weight"))
    shapes, values = _sample_shapes(function)  # x (16, 32), INT8 weight (32, 16), y (16, 16)
    values["weight"] = np.zeros(shapes["weight"], np.int8)
    assert _shapes.output_shape(y.shape_rule.model_dump(mode="json"), shapes, values) == shapes["y"]


# aclnnTransposeBatchMatMul.md (ops-nn matmul/transpose_batch_mat_mul): 功能说明 and rows, abridged
TBMM_SUMMARY = [
    Statement(
        "- 接口功能：完成张量x1与张量x2的矩阵乘计算。仅支持三维的Tensor传入。Tensor支持转置，转置序列根据传入的数列进行变更。"
        "permX1代表张量x1的转置序列，permX2代表张量x2的转置序列，序列值为0的是batch维度，其余两个维度做矩阵乘法。",
        26,
    ),
    Statement(
        "- x1的shape是(B, M, K)，x2的shape是(B, K, N)，scale为None，batchSplitFactor等于1时，计算输出out的shape是(M, B, N)。",
        29,
    ),
    Statement(
        "- x1的shape是(B, M, K)，x2的shape是(B, K, N)，scale不为None，batchSplitFactor等于1时，计算输出out的shape是(M, 1, B * N)。",
        30,
    ),
    Statement(
        "- x1的shape是(B, M, K)，x2的shape是(B, K, N)，scale为None，batchSplitFactor大于1时，计算输出out的shape是"
        "(batchSplitFactor, M, B * N / batchSplitFactor)。",
        31,
    ),
]


def _tbmm(perm_y: str = "支持[1, 0, 2]。", split: str = "取值范围为[1, B]且能被B整除。") -> list[Param]:
    return [
        Param(name="x1", description="表示矩阵乘的第一个矩阵。", **TENSOR),
        Param(name="x2", description="表示矩阵乘的第二个矩阵。", **TENSOR),
        Param(name="scale", description="表示输出矩阵的量化系数。", optional=True, **TENSOR),
        Param(
            name="permX1",
            description="表示矩阵乘的第一个矩阵的转置序列。",
            text="支持[0, 1, 2]、[1, 0, 2]。",
            **INT_ARRAY,
        ),
        Param(
            name="permX2",
            description="表示矩阵乘的第二个矩阵的转置序列。",
            text="支持[0, 1, 2]、[0, 2, 1]。",
            **INT_ARRAY,
        ),
        Param(name="permY", description="表示矩阵乘输出矩阵的转置序列。", text=perm_y, **INT_ARRAY),
        Param(name="batchSplitFactor", description="用于指定矩阵乘输出矩阵中B维的切分大小。", text=split, **INT),
        Param(name="out", description="表示矩阵乘的输出矩阵，公式中的out。", **OUT),
    ]


def _shape(rule: ShapeRule, shapes: dict, values: dict):
    found = _shapes.output_shapes(rule.model_dump(mode="json"), shapes, {**values, **_arrays(shapes)})
    return found[0] if found and len(found) == 1 else found


def _arrays(shapes: dict) -> dict:
    return {n: np.zeros(s, np.float16) for n, s in shapes.items()}


def test_a_product_of_permuted_operands_reads_each_case_the_description_gives():
    params = _tbmm()
    rule = permuted_product_rule(params[-1], params, TBMM_SUMMARY)
    assert rule is not None and rule.kind == "one_of" and [a.line for a in rule.alternatives] == [29, 30, 31]
    first = rule.alternatives[0]
    assert first.dims == ("x1.shape[permX1[1]]", "x1.shape[permX1[0]]", "x2.shape[permX2[2]]")
    assert first.when[:8] == ("scale", "given", "", "false", "batchSplitFactor", "value", "1", "true")
    # its sample: x1 (M, B, K) = (32, 16, 512) with permX1 [1, 0, 2], x2 (16, 512, 128), out (32, 16, 128)
    shapes = {"x1": (32, 16, 512), "x2": (16, 512, 128)}
    perms = {"permX1": [1, 0, 2], "permX2": [0, 1, 2], "permY": [1, 0, 2], "scale": None}
    assert _shape(rule, shapes, {**perms, "batchSplitFactor": 1}) == (32, 16, 128)
    # the same product of x1 unpermuted, (B, M, K), with permX1 [0, 1, 2]
    unpermuted = {"x1": (16, 32, 512), "x2": (16, 512, 128)}
    assert _shape(rule, unpermuted, {**perms, "permX1": [0, 1, 2], "batchSplitFactor": 1}) == (32, 16, 128)
    # x2 transposed by permX2 [0, 2, 1]: (B, N, K)
    assert _shape(rule, {**shapes, "x2": (16, 128, 512)}, {**perms, "permX2": [0, 2, 1], "batchSplitFactor": 1}) == (
        32,
        16,
        128,
    )
    # its row's worked examples: M, K, N, B = 32, 512, 128, 16; batchSplitFactor 2: (2, 32, 1024); 4: (4, 32, 512)
    assert _shape(rule, shapes, {**perms, "batchSplitFactor": 2}) == (2, 32, 1024)
    assert _shape(rule, shapes, {**perms, "batchSplitFactor": 4}) == (4, 32, 512)
    scaled = {**perms, "batchSplitFactor": 1, "scale": np.zeros((16 * 128,), np.int64)}
    assert _shape(rule, {**shapes, "scale": (16 * 128,)}, scaled) == (32, 1, 2048)
    # an NZ x2 of five dimensions: the cases speak of its ND view, so none holds (unchecked)
    assert _shape(rule, {**shapes, "x2": (16, 8, 32, 16, 16)}, {**perms, "batchSplitFactor": 1}) == ()


def test_a_permuted_product_is_not_read_where_the_document_does_not_settle_it():
    out = _tbmm()[-1]
    # the output's array allows two orders: which one the case gives is not said
    two = _tbmm(perm_y="支持[1, 0, 2]、[0, 1, 2]。")
    assert permuted_product_rule(out, two, TBMM_SUMMARY) is None
    # `大于1` is read as `不等于1` only where the row bounds the integer below by 1
    unbounded = permuted_product_rule(out, _tbmm(split="用于指定切分大小。"), TBMM_SUMMARY)
    assert unbounded is not None and [a.line for a in unbounded.alternatives] == [29, 30]
    # letters that no documented permutation gives: x1 (M, K, B)
    odd = [Statement(TBMM_SUMMARY[1].text.replace("(B, M, K)", "(M, K, B)"), 29)]
    assert permuted_product_rule(out, _tbmm(), [TBMM_SUMMARY[0], *odd]) is None
    # no sentence saying which array permutes which tensor
    assert permuted_product_rule(out, _tbmm(), TBMM_SUMMARY[1:]) is None


# aclnnQuantMatmulV5.md (ops-nn matmul/quant_batch_matmul_v4) 约束说明, Atlas A2/A3 公共约束
QMM_V5_NOTES = [
    Statement(
        "- transposeX1为false情况下X1各个维度表示：（batch, m, k）。transposeX1为true情况下X1各个维度表示：（batch, k, m），"
        "batch可不存在。",
        649,
    ),
    Statement(
        "- ND格式下，为false时X2维度为：（batch，k，n），为true时维度为：（batch，n，k），batch可不存在，其中k与x1的shape中的k一致。",
        651,
    ),
    Statement("- 为true时X2维度为：（batch，k1，n1，n0，k0），batch可不存在，其中k0 = 32，n0 = 16。", 653),
    Statement(
        "- out的shape支持2~6维，（batch，m，n），batch可不存在。数据类型支持FLOAT16、INT8、BFLOAT16、INT32。", 658
    ),
    # x1's letters on a line that names x2 last: read as x2's, they must not unsettle x2's own
    Statement(
        "- 当数据类型为INT8时，且x2的数据类型为INT32时，transposeX1为false。维度为：（m，k），要求k为偶数。", 720
    ),
]


def _quant_matmul_v5() -> list[Param]:
    names = ("x1", "x2", "x1Scale", "x2Scale", "bias")
    return [
        *(Param(name=n, **TENSOR) for n in names),
        Param(name="transposeX1", description="表示x1的输入shape是否转置。", **BOOL),
        Param(name="transposeX2", description="表示x2的输入shape是否转置。", **BOOL),
        Param(name="out", description="公式中的输出out。", **OUT),
    ]


def test_a_product_given_by_letters_across_statements_multiplies_the_inputs_they_bind():
    params = _quant_matmul_v5()
    rule = lettered_product_rule(params[-1], params, QMM_V5_NOTES)
    assert rule is not None and (rule.kind, rule.line) == ("matmul", 658)
    assert rule.params == ("x1", "x2", "transposeX1", "transposeX2")
    # its sample: x1 (5, 64), x2 (8, 64), transposeX1 false, transposeX2 true, out (5, 8)
    flags = {"transposeX1": False, "transposeX2": True}
    assert _shapes.output_shape(rule.model_dump(mode="json"), {"x1": (5, 64), "x2": (8, 64)}, flags) == (5, 8)


def test_letters_are_not_read_as_a_product_where_they_do_not_settle_one():
    params = _quant_matmul_v5()
    out = params[-1]
    # a parameter transposes x2 but the document gives x2's letters one way only
    one_way = [*QMM_V5_NOTES[:1], Statement("- X2维度为：（batch，k，n），batch可不存在。", 651), QMM_V5_NOTES[3]]
    assert lettered_product_rule(out, params, one_way) is None
    # two inputs fit one side: which one is multiplied is not said
    bias = Statement("- bias的shape为（batch，m，k）。", 700)
    assert lettered_product_rule(out, params, [*QMM_V5_NOTES, bias]) is None
    # the output's leading letters differ from the operands'
    other = Statement("- out的shape支持2~6维，（g，m，n）。", 658)
    assert lettered_product_rule(out, params, [*QMM_V5_NOTES[:3], other, QMM_V5_NOTES[4]]) is None
    # no output letters at all
    assert lettered_product_rule(out, params, [*QMM_V5_NOTES[:3], QMM_V5_NOTES[4]]) is None


def test_the_product_holds_on_every_product_the_weight_quant_document_names():
    # aclnnWeightQuantBatchMatmulV2, Atlas 推理系列产品: x `(batch, m, k)`; weight ND `(batch, k, n)`,
    # FRACTAL_NZ `(batch, n, k)`; y (in antiquantGroupSize's bullet) `(batch, m, n)…支持x与weight的batch
    # 维度broadcast，输出batch与broadcast之后的batch一致，m与x的m一致，n与weight的n一致`
    assert read_matmul(WQBMM_FORMULA, _ctx(WQBMM_INPUTS)) == ("matmul", ("x", "weight"), ())
    rule = {"kind": "matmul", "params": ["x", "weight"]}
    x = (2, 16, 32)
    assert _shapes.output_shape(rule, {"x": x, "weight": (32, 8)}, {}) == (2, 16, 8)  # batch broadcast
    assert _shapes.output_shape(rule, {"x": x, "weight": (1, 32, 8)}, {}) == (2, 16, 8)
    # an NZ weight (batch, n, k): not a product of these shapes, so unchecked rather than wrong
    assert _shapes.output_shape(rule, {"x": x, "weight": (2, 8, 32)}, {}) is None
    # ... or, where n equals k, the same (m, n) as the library writes
    assert _shapes.output_shape(rule, {"x": x, "weight": (2, 32, 32)}, {}) == (2, 16, 32)


# aclnnQuantMatmulActivationQuantWeightNz (ops-nn matmul/quant_matmul_activation_quant): x2 is an
# NZ weight, its documented letters hold n1 and n0, never n
QMAQ_X2 = [
    Statement(
        "transposeX2为false时x2的shape：(batch, n1, k1, k0, n0)。transposeX2为true时x2的shape：(batch, k1, n1, n0, k0)。"
        "其中batch代表前0~4维，0维表示batch不存在。k与x1的shape中的k一致。",
        521,
    ),
    Statement("transposeX1为false时x1的shape：(batch, m, k)。transposeX1为true时x1的shape：(batch, k, m)。", 520),
]
QMAQ_Y = Statement("y的shape支持2~6维，(batch, m, n)，batch可不存在，m与x1的m一致，n与x2的n一致。", 537)


def test_an_output_letter_tied_to_an_input_lacking_it_is_the_reason_given():
    """yOut `shape和矩阵乘计算结果一致，(batch, m, n)` and `n与x2的n一致`: x2's shape has no n (only
    ceil(n / n0) = n1), so the reason says n is not one of x2's dimensions."""
    params = _quant_matmul_v5()[:2] + [Param(name="yOut", description="公式中的输出y。", **OUT)]
    own = [Statement("shape和矩阵乘计算结果一致，(batch, m, n)，batch可不存在。", 365)]
    reason = unlettered_reason(params[-1], params, own, [*QMAQ_X2, QMAQ_Y])
    assert "n is not a dimension of x2's documented shape ((batch, n1, k1, k0, n0), (batch, k1, n1, n0, k0))" in reason
    assert "(line 537)" in reason
    # counter-cases: an input that holds the letter (x1 holds m), or no tie stated, give no such reason
    tied_to_x1 = Statement("m与x1的m一致。", 540)
    assert unlettered_reason(params[-1], params, own, [*QMAQ_X2, tied_to_x1]) == ""
    assert unlettered_reason(params[-1], params, own, QMAQ_X2) == ""
