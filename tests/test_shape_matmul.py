"""Matrix-product outputs, quoted from ops-nn documents: an operand wrapped in a function the
formula defines elementwise, packed 4-bit operands; each reading checked against the
document's own sample call where the corpus is at hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from specgen.codegen.runtime import _shapes
from specgen.model import Constraint, Param, ShapeRule
from specgen.parse.classify.shape_matmul import unpacked
from specgen.parse.classify.shape_phrases import ShapeContext, read_matmul, unwrapped_operands
from tests.param_kinds import TENSOR

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
