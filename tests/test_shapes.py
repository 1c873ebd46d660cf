"""Output shape and dtype rules: the phrases each reader must read, and the evaluator."""

from __future__ import annotations

import pytest

from specgen.codegen.runtime import _shapes
from specgen.parse.classify.shapes import SHAPE_PHRASES

EXAMPLES = [(phrase, example) for phrase in SHAPE_PHRASES for example in phrase.examples]


@pytest.mark.parametrize(("phrase", "example"), EXAMPLES, ids=[f"{p.name}:{e.text[:30]}" for p, e in EXAMPLES])
def test_each_phrase_reads_its_examples(phrase, example):
    assert phrase.trigger.search(example.text)
    assert phrase.read(example.text, (example.subject, *example.others)) == (example.dims or None)


def test_explicit_rules_evaluate_symbols_shapes_and_splices():
    rule = {"kind": "explicit", "dims": ["self.shape[0]", "vec2.shape[0]"]}
    assert _shapes.output_shape(rule, {"self": (3,), "vec2": (4,)}, {}) == (3, 4)
    rule = {"kind": "explicit", "dims": ["B", "ceil(N / 64)", "2"], "symbols": [{"symbol": "B", "param": "x", "axis": 0}]}
    assert _shapes.output_shape(rule, {"x": (5, 7)}, {"N": 130}) == (5, 3, 2)
    assert _shapes.output_shape({"kind": "explicit", "dims": ["*x.shape[:-1]", "x.shape[-1] / 2"]}, {"x": (2, 3, 8)}, {}) == (2, 3, 4)


def test_unsettled_rules_give_none():
    assert _shapes.output_shape({"kind": "explicit", "dims": ["x.shape[-1] / 2"]}, {"x": (3,)}, {}) is None  # a remainder
    assert _shapes.output_shape({"kind": "same", "params": ["x"]}, {"x": None}, {}) is None  # a null input
    assert _shapes.output_shape({"kind": "broadcast", "params": ["a", "b"]}, {"a": (2,), "b": (3,)}, {}) is None
    assert _shapes.output_shape({"kind": "not_derivable", "reason": "r"}, {}, {}) is None


def test_dtype_rules():
    assert _shapes.output_dtype({"kind": "one_of", "values": ["INT64", "INT32"]}, {}) == "INT64"
    assert _shapes.dtype_allowed({"kind": "one_of", "values": ["INT64", "INT32"]}, {}, "INT32")
    assert _shapes.dtype_allowed({"kind": "same", "params": ["self"]}, {"self": "FLOAT"}, "FLOAT16") is False
    assert _shapes.dtype_allowed({"kind": "same", "params": ["self"]}, {"self": None}, "FLOAT16") is None
