"""Error rows comparing an integer array's length (issue 35a): `outputMask的长度不为3` and
`normalizedShape维度小于1维` are an array's `length`, `input的维度小于normalizedShape的维度` a tensor's
rank against an array's length (`rank_at_least`); checked by aclnnLayerNormBackward's generated
validator on the document's own call and on calls that break one row each."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import function_cases, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse import parse_paths
from specgen.parse.classify.conditions import condition_checks

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
    # counter-cases: a tensor's 维度 is its rank; two tensors compare ranks, not a length
    assert _checks("input维度小于1维。", ("input",)) == [("rank", ("input",))]
    assert [k for k, _ in _checks("input的维度小于gradOut的维度", ("input", "gradOut"))] != ["rank_at_least"]


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


def test_the_validator_holds_the_rows(layer_norm_backward):
    spec = layer_norm_backward
    assert _broken(spec, _call()) == []
    assert _broken(spec, _call(normalizedShape=(2, 2))) == []  # as many elements as input's dimensions
    assert "rule14_rank_at_least" in _broken(spec, _call(normalizedShape=(2, 2, 2)))
    assert "rule16_length" in _broken(spec, _call(outputMask=(True, True)))
    assert "rule7_length" in _broken(spec, _call(normalizedShape=()))
