"""An output's shape the constraints section gives dtype by dtype, a line each, under an npu
comment (aclnnRotateQuant, ops-nn/matmul/rotate_quant/docs/aclnnRotateQuant.md lines 428-434):
a case per line, held for that dtype of the output on those products."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen.runtime import _shapes
from specgen.model import Constraint, Param
from specgen.parse.classify.shape_dtype_notes import dtype_case_rule
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import OUT, TENSOR

_A3 = [
    '<!-- npu="A3,910b" id10 -->',
    "- <term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>、<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：",
    "  - x的shape为(M, N)，rotation的shape为(K, K)。",
    "  - x第二维的长度(N)必须是K的整数倍，N必须可以整除8。",
    "  - 当yOut的输出类型为int8时，y的shape必须和x相同(M, N)。",
    "  - 当yOut的输出类型为int32时，y的shape必须为(M, N//8)。",
    "<!-- end id10 -->",
]


def _notes(lines: list[str]) -> list[Statement]:
    return [Statement(t, 428 + i) for i, t in enumerate(lines)]


def _params() -> list[Param]:
    dtypes = ("FLOAT4_E2M1", "FLOAT8_E4M3FN", "FLOAT8_E5M2", "INT8", "INT32")
    out = Param(name="yOut", **OUT)
    out = out.model_copy(update={"constraints": (_dtypes(dtypes),)})
    return [Param(name="x", **TENSOR), Param(name="rotation", **TENSOR), out]


def _dtypes(values: tuple[str, ...]) -> Constraint:
    return Constraint(kind="dtypes", text="、".join(values), values=values, line=292)


def test_each_dtype_line_is_a_case_of_its_products():
    params = _params()
    rule = dtype_case_rule(params[2], params, _notes(_A3))
    assert rule is not None and rule.kind == "one_of" and rule.params == ("x",)
    int8, int32 = rule.alternatives
    assert (int8.kind, int8.params, int8.line) == ("same", ("x",), 432)
    assert (int32.kind, int32.dims, int32.line) == ("explicit", ("x.shape[0]", "x.shape[1]//8"), 433)
    assert int32.when == ("", "product", "A3,910b", "true", "yOut", "dtype", "INT32", "true")
    # the sample (lines 557-559): x {M, N} BF16, yOut INT8 {M, N}; INT32 packs eight to an element
    derive = rule.model_dump(mode="json")
    x = np.zeros((16, 128), np.float16)
    dtype = {"kind": "one_of", "values": ["INT8", "INT32"]}
    assert _shapes.allocate("yOut", derive, dtype, {"x": x}, dtype="INT8", product="A3").shape == (16, 128)
    assert _shapes.allocate("yOut", derive, dtype, {"x": x}, dtype="INT32", product="A3").shape == (16, 16)
    # 950 (FLOAT8/FLOAT4 only) has no such line: its yOut stays unallocated, and unchecked
    with pytest.raises(TypeError, match="A3, 910b only"):
        _shapes.allocate("yOut", derive, dtype, {"x": x}, dtype="FLOAT8_E4M3FN", product="950")


def test_lines_that_bind_nothing_or_speak_of_another_tensor_are_not_read():
    params = _params()
    unbound = [line for line in _A3 if "x的shape为" not in line]
    assert dtype_case_rule(params[2], params, _notes(unbound)) is None  # M and N unbound
    # `y` names another parameter: the line does not speak of yOut
    with_y = [*params, Param(name="y", **OUT)]
    assert dtype_case_rule(with_y[2], with_y, _notes(_A3)) is None
    # a dtype the output does not allow is no case of it
    other = [line.replace("int32", "int16") for line in _A3]
    assert dtype_case_rule(params[2], params, _notes(other)) is None
    # no dtype-led line: nothing
    assert dtype_case_rule(params[2], params, _notes(_A3[:4])) is None
