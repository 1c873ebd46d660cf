"""Rules between tensors and integer arrays (issue 35a): `outputMask的长度不为3` and
`normalizedShape维度小于1维` are an array's `length`, `input的维度小于normalizedShape的维度` a tensor's
rank against an array's length (`rank_at_least`), `weightOptional非空且shape与normalizedShape不相等`
a tensor's shape against an array's value (`array_shape`); an output `为[R1,...,Rj]` beside an
array `值为[R1,...,Rj]` has the array's value as its shape. Checked by aclnnLayerNormBackward's
generated validator on the document's own call and on calls that break one row each."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import function_cases, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._shapes import output_shape
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Param
from specgen.parse import parse_paths
from specgen.parse.classify.conditions import condition_checks
from specgen.parse.classify.shape_arrays import array_shape_rule
from specgen.parse.classify.text import Statement
from tests.param_kinds import INT_ARRAY, OUT

TENSORS = ("gradOut", "input", "mean", "rstd", "weightOptional", "biasOptional")


def _checks(condition: str, named: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    pointers = (*TENSORS, "normalizedShape", "outputMask")
    return [(c.kind, c.params) for c in condition_checks(condition, named, pointers, TENSORS)]


def test_the_rows_read_as_length_and_rank_at_least():
    assert _checks("input的维度小于normalizedShape的维度。", ("input", "normalizedShape")) == [
        ("rank_at_least", ("input", "normalizedShape"))
    ]
    assert _checks("outputMask的长度不为3。", ("outputMask",)) == [("length", ("outputMask",))]
    assert _checks("normalizedShape维度小于1维。", ("normalizedShape",)) == [("length", ("normalizedShape",))]
    assert _checks("weightOptional非空且shape与normalizedShape不相等。", ("weightOptional", "normalizedShape")) == [
        ("array_shape", ("weightOptional", "normalizedShape"))
    ]
    # counter-cases: a tensor's 维度 is its rank; two tensors compare ranks, not a length
    assert _checks("input维度小于1维。", ("input",)) == [("rank", ("input",))]
    assert [k for k, _ in _checks("input的维度小于gradOut的维度", ("input", "gradOut"))] != ["rank_at_least"]
    assert [k for k, _ in _checks("weightOptional的shape与input不相等", ("weightOptional", "input"))] == ["same_shape"]


@pytest.fixture(scope="module")
def layer_norm_backward(corpus):
    [doc] = parse_paths([corpus / "docs/ops-nn/norm/layer_norm_grad_v3/docs/aclnnLayerNormBackward.md"])
    fn = operator_code(doc, doc.source).functions[0]
    cases = function_cases(fn)
    return validator_spec(cases.params, list(cases.rules), fn.function.name)


def _call(**changed: object) -> dict[str, object]:
    """The document's sample call (input (2, 2), normalizedShape [2]), with `changed`."""
    t = {
        "gradOut": ((2, 2), "FLOAT"), "input": ((2, 2), "FLOAT"), "mean": ((2, 1), "FLOAT"),
        "rstd": ((2, 1), "FLOAT"), "weightOptional": ((2,), "FLOAT"), "biasOptional": ((2,), "FLOAT"),
        "gradInputOut": ((2, 2), "FLOAT"), "gradWeightOut": ((2,), "FLOAT"), "gradBiasOut": ((2,), "FLOAT"),
    }  # fmt: skip
    args: dict[str, object] = {name: TensorDesc(shape, dtype) for name, (shape, dtype) in t.items()}
    args |= {"normalizedShape": (2,), "outputMask": (True, True, True)}
    return args | changed


def _broken(spec, args) -> list[str]:
    return [rule.id for rule, _ in validator.violations(spec, args)]


def _row(spec, kind: str, param: str) -> str:
    """The id of the error row's rule of that kind on that parameter (row numbers move as rows are read)."""
    (rule,) = [r for r in spec.rules if r.kind == kind and r.params[0] == param and r.id.startswith("rule")]
    return rule.id


def test_the_validator_holds_the_rows(layer_norm_backward):
    spec = layer_norm_backward
    assert _broken(spec, _call()) == []
    # as many elements as input has dimensions, the tensors of its value's shape
    square = {
        n: TensorDesc((2, 2), "FLOAT") for n in ("weightOptional", "biasOptional", "gradWeightOut", "gradBiasOut")
    }
    assert _broken(spec, _call(normalizedShape=(2, 2), **square)) == []
    assert _row(spec, "rank_at_least", "input") in _broken(spec, _call(normalizedShape=(2, 2, 2)))
    assert _row(spec, "length", "outputMask") in _broken(spec, _call(outputMask=(True, True)))
    assert _row(spec, "length", "normalizedShape") in _broken(spec, _call(normalizedShape=()))
    assert _row(spec, "array_shape", "weightOptional") in _broken(spec, _call(weightOptional=TensorDesc((3,), "FLOAT")))
    assert _row(spec, "array_shape", "biasOptional") in _broken(spec, _call(biasOptional=TensorDesc((2, 1), "FLOAT")))
    assert _broken(spec, _call(weightOptional=None, biasOptional=None)) == []  # optional: null is fine


NORMALIZED = Param(
    name="normalizedShape", text="值为[R1,...,Rj], 长度小于等于输入input的shape长度，不支持为空。", **INT_ARRAY
)


def _said(text: str) -> list[Statement]:
    return [Statement(text, 210)]


def test_an_output_given_an_arrays_documented_value_takes_it():
    out = Param(name="gradWeightOut", **OUT)
    rule = array_shape_rule(out, [NORMALIZED, out], _said("shape与gradBiasOut的shape相等，为[R1,...,Rj]。"))
    assert rule is not None and (rule.kind, rule.dims) == ("explicit", ("*normalizedShape",))
    args = {"normalizedShape[0]": 4, "normalizedShape[1]": 8, "len(normalizedShape)": 2}
    assert output_shape(rule.model_dump(mode="json"), {}, args) == (4, 8)
    # counter-cases: another list (gradInputOut `为[A1,...,Ai,R1,...,Rj]`), a value of numbers
    # (aclnnDequantBias `值为[1，27]`), or two arrays giving the list settle no shape
    assert array_shape_rule(out, [NORMALIZED, out], _said("shape与input的shape相等，为[A1,...,Ai,R1,...,Rj]。")) is None
    numbers = Param(name="outputDtype", text="值为[1，27]。", **INT_ARRAY)
    assert array_shape_rule(out, [numbers, out], _said("shape为[1，27]。")) is None
    twin = NORMALIZED.model_copy(update={"name": "otherShape"})
    assert array_shape_rule(out, [NORMALIZED, twin, out], _said("为[R1,...,Rj]。")) is None
