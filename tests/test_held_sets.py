"""A value set held while a tensor has some dtypes (issue 35a item 1): aclnnQuantMatmulActivationQuantWeightNz
roundMode `当yDtype为FLOAT4_E2M1/FLOAT4_E1M2时，支持{"rint", "floor", "round"}` and `当yDtype为FLOAT8_E4M3FN/
FLOAT8_E5M2时，仅支持{"rint"}` (yDtype: yOut's dtype; the function has no yDtype parameter). Each set
holds under its condition, checked where the call settles it; null is the default ("rint")."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import function_cases, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Constraint
from specgen.parse import parse_paths
from specgen.parse.classify.string_sets import held_sets

FLOAT4 = '当yDtype为FLOAT4_E2M1/FLOAT4_E1M2时，支持{"rint", "floor", "round"}'
FLOAT8 = '当yDtype为FLOAT8_E4M3FN/FLOAT8_E5M2时，仅支持{"rint"}'


def _enum(text: str, *values: str) -> Constraint:
    return Constraint(kind="enum", text=text, line=318, values=values)


def test_a_set_held_under_a_tensors_dtype_reads_its_condition():
    names = ("x1", "x2", "roundMode", "yOut", "yScaleOut")
    [four, eight] = held_sets([_enum(FLOAT4, "rint", "floor", "round"), _enum(FLOAT8, "rint")], names)
    assert four.when == ("yOut", "dtype", "FLOAT4_E2M1/FLOAT4_E1M2", "true")
    assert eight.when == ("yOut", "dtype", "FLOAT8_E4M3FN/FLOAT8_E5M2", "true")
    # aclnnRotateQuant's 约束说明 form names the tensor itself, its dtypes joined by 或
    [said] = held_sets([_enum('当yOut的数据类型为FLOAT8_E4M3FN或FLOAT8_E5M2时，roundMode仅支持"rint"', "rint")], names)
    assert said.when == ("yOut", "dtype", "FLOAT8_E4M3FN/FLOAT8_E5M2", "true")


def test_a_condition_naming_no_one_tensor_or_no_dtype_stays_unconditioned():
    # no parameter y/yOut, a value condition (aclnnDynamicQuantV3's form), an unknown dtype word
    assert held_sets([_enum(FLOAT8, "rint")], ("x", "out"))[0].when == ()
    assert held_sets([_enum('当quantMode取"pertensor"时，支持{"a"}', "a")], ("quantMode",))[0].when == ()
    assert held_sets([_enum('当yDtype为FP99时，仅支持{"rint"}', "rint")], ("yOut",))[0].when == ()


@pytest.fixture(scope="module")
def spec(corpus):
    path = corpus / "docs/ops-nn/matmul/quant_matmul_activation_quant/docs/aclnnQuantMatmulActivationQuantWeightNz.md"
    [doc] = parse_paths([path])
    fn = operator_code(doc, doc.source).functions[0]
    cases = function_cases(fn)
    return validator_spec(cases.params, list(cases.rules), fn.function.name)


def _call(round_mode: str | None, y_dtype: str = "FLOAT8_E4M3FN", **changed: object) -> dict[str, object]:
    """The document's sample call (line 806), roundMode and yOut's dtype aside."""
    args: dict[str, object] = {
        "x1": TensorDesc((5, 64), "FLOAT8_E4M3FN"),
        "x2": TensorDesc((128, 64), "FLOAT8_E4M3FN"),
        "x1ScaleOptional": TensorDesc((5, 1, 2), "FLOAT8_E8M0"),
        "x2Scale": TensorDesc((128, 1, 2), "FLOAT8_E8M0"),
        "biasOptional": None,
        "transposeX1": False,
        "transposeX2": True,
        "groupSize": 32,
        "activationType": "gelu_tanh",
        "quantMode": "mx",
        "roundMode": round_mode,
        "scaleAlg": 0,
        "dstTypeMax": 0.0,
        "yOut": TensorDesc((5, 128), y_dtype),
        "yScaleOut": TensorDesc((5, 2, 2), "FLOAT8_E8M0"),
    }
    return args | changed


def _broken(spec, args) -> list[str]:
    return [rule.id for rule, _ in validator.violations(spec, args)]


def test_the_validator_holds_each_set_under_its_condition(spec):
    assert _broken(spec, _call(None)) == []  # null: the default, "rint"
    assert _broken(spec, _call("rint")) == []
    assert _broken(spec, _call("floor")) == ["held_enum_roundMode_2"]  # FLOAT8: only "rint"
    assert _broken(spec, _call("floor", "FLOAT8_E5M2")) == ["held_enum_roundMode_2"]
    # an output the call leaves to the wrapper settles no dtype: not checked
    assert "held_enum_roundMode_2" not in _broken(spec, _call("floor", yOut=None))


def test_a_null_the_parameter_row_allows_is_accepted_whatever_the_error_row_says(spec):
    """Issue 35a item 3: the 161001 row `传入的x1、x2、x1Scale或x2Scale是空指针` against
    x1ScaleOptional's `如果不使用该参数，传入nullptr` (lint: doc-null-contradiction): the null is taken."""
    assert _broken(spec, _call("rint", x1ScaleOptional=None)) == []
    assert _broken(spec, _call("rint", x2Scale=None)) == ["rule1_not_null"]  # a required one is not
