"""An output the description computes by the Einstein summation convention (aclnnEinsum,
ops-nn/matmul/batch_mat_mul_v3/docs/aclnnEinsum.md): its shape is the equation's output term,
read only where the description, the equation's row and the tensor list's row all say so."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Param
from specgen.parse.classify.shape_einsum import einsum_rule
from specgen.parse.classify.shapes import Statement
from tests.param_kinds import OUT

# line 26 of the description, and the two parameter rows (lines 82 and 92)
_DESCRIPTION = Statement(
    "- 接口功能：使用爱因斯坦求和约定执行张量计算，形式为“term1, term2 -> output-term”，按照以下等式生成输出张量，"
    "其中reduce-sum对出现在输入项(term1, term2)中但未出现在输出项中的所有索引执行求和。",
    26,
)
_TENSORS = "包含两个tensor，tensors[0]表示公式中的term1，tensors[1]表示公式中的term2。"
_EQUATION = "表示爱因斯坦求和约定的简写公式。"
_LIST = {"c_type": "const aclTensorList*", "kind": "tensor_list", "direction": "in", "line": 82}
_STRING = {"c_type": "const char*", "kind": "string", "direction": "in", "line": 92}


def _params(tensors: str = _TENSORS, equation: str = _EQUATION) -> list[Param]:
    return [
        Param(name="tensors", description=tensors, **_LIST),
        Param(name="equation", description=equation, **_STRING),
        Param(name="output", description="输出tensor。", **OUT),
    ]


def test_the_einsum_output_is_the_equations_output_term():
    params = _params()
    rule = einsum_rule(params[2], params, [_DESCRIPTION])
    assert rule is not None and rule.kind == "einsum" and rule.line == 26
    assert rule.params == ("tensors", "equation")
    derive = rule.model_dump(mode="json")
    # the document's sample: {1, 2, 3, 4} and {1, 2, 3, 5, 4} by "abcd,abced->abce" give {1, 2, 3, 5}
    listed = [TensorDesc((1, 2, 3, 4), "INT32"), TensorDesc((1, 2, 3, 5, 4), "INT32")]
    values = {"tensors": listed, "equation": "abcd,abced->abce"}
    assert _shapes.output_shape(derive, {}, values) == (1, 2, 3, 5)
    # the other equation the document registers: an outer product
    outer = {"tensors": [TensorDesc((3,), "INT32"), TensorDesc((4,), "INT32")], "equation": "a,b->ab"}
    assert _shapes.output_shape(derive, {}, outer) == (3, 4)


def test_an_equation_of_another_form_or_that_the_tensors_do_not_fit_is_left_unchecked():
    derive = {"kind": "einsum", "params": ["tensors", "equation"]}
    two = [TensorDesc((2, 3), "FLOAT"), TensorDesc((3, 4), "FLOAT")]
    assert _shapes.output_shape(derive, {}, {"tensors": two, "equation": "ab,bc->ac"}) == (2, 4)
    for equation in ("...b,bc->...c", "ab,bc", "ab,bc->ad", "abc,bc->ac", "ab,cc->ac"):
        assert _shapes.output_shape(derive, {}, {"tensors": two, "equation": equation}) is None, equation
    assert _shapes.output_shape(derive, {}, {"tensors": two[:1], "equation": "ab,bc->ac"}) is None


def test_einsum_is_not_read_without_the_convention_the_equation_row_or_the_terms_row():
    params = _params()
    plain = Statement("- 接口功能：完成张量计算，形式为“term1, term2 -> output-term”。", 26)
    assert einsum_rule(params[2], params, [plain]) is None
    unrowed = _params(equation="表示计算公式。")
    assert einsum_rule(unrowed[2], unrowed, [_DESCRIPTION]) is None
    unbound = _params(tensors="包含两个tensor。")
    assert einsum_rule(unbound[2], unbound, [_DESCRIPTION]) is None


def test_a_wrapper_allocates_the_einsum_output_in_the_lists_common_dtype():
    # the sample's arguments (lines 309-311: INT32 {1, 2, 3, 4} and {1, 2, 3, 5, 4}); the dtype
    # rule the error rows under each registered equation give (`…output三者数据类型需保持一致`)
    shape = {"kind": "einsum", "params": ["tensors", "equation"]}
    dtype = {"kind": "same", "params": ["tensors"]}
    listed = [np.zeros((1, 2, 3, 4), np.int32), np.zeros((1, 2, 3, 5, 4), np.int32)]
    out = _shapes.allocate("output", shape, dtype, {"tensors": listed, "equation": "abcd,abced->abce"})
    assert out.shape == (1, 2, 3, 5) and out.dtype == np.int32
    # elements of two dtypes settle no one dtype: the wrapper refuses rather than choose
    mixed = [listed[0], np.zeros((1, 2, 3, 5, 4), np.float32)]
    with pytest.raises(TypeError, match="dtype"):
        _shapes.allocate("output", shape, dtype, {"tensors": mixed, "equation": "abcd,abced->abce"})
