"""The doc-site dialect's MoE and attention documents (corpus/docs/legacy; issue 23): rules
their own words state, checked against the documents' own sample calls."""

from __future__ import annotations

from pathlib import Path

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse import parse_paths


def _legacy_function(corpus: Path, stem: str):
    [doc] = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
    return next(f for f in doc.functions if f.name == f"aclnn{stem}")


def _sample_shapes(fn) -> tuple[dict, dict]:
    values = call_values(fn, fn.sample_call)
    assert values is not None
    return {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}, values


def test_a_min_of_a_symbol_and_an_attribute_sizes_the_rows(corpus):
    # MoeInitRoutingQuant.md line 48, expandedXOut: `要求是一个2D的Tensor，shape
    # \(min\(NUM\_ROWS, activeNum\) \* k, H\)`; expertIdx (line 44) is `\(NUM\_ROWS, K\)`: the
    # `k` is its K. The sample: x {3, 4}, expertIdx {3, 2}, activeNum 3: expandedXOutShape {6, 4}
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    out = next(p for p in fn.params if p.name == "expandedXOut")
    assert out.shape_rule is not None and out.shape_rule.kind == "explicit"
    assert out.shape_rule.dims == ("min(NUM_ROWS, activeNum) * K", "H")
    shapes, values = _sample_shapes(fn)
    rule = plain_rule(out.shape_rule)
    assert _shapes.output_shape(rule, shapes, values) == (6, 4)
    # fewer active rows than NUM_ROWS: activeNum 2 keeps 2 * K rows
    assert _shapes.output_shape(rule, shapes, {**values, "activeNum": 2}) == (4, 4)


def test_an_output_an_error_row_holds_equal_to_another_takes_its_shape(corpus):
    # MoeInitRoutingQuant.md line 65 (561002): `5. expandedRowIdxOut和expandedExpertIdxOut的shape
    # 不相等，且不等于(num_rows * k, )`; expandedExpertIdxOut's own row (line 50) gives no shape.
    # The sample allocates both in idxOutShape {6} (expertIdx {3, 2})
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    out = next(p for p in fn.params if p.name == "expandedExpertIdxOut")
    assert out.shape_rule is not None
    assert (out.shape_rule.kind, out.shape_rule.params) == ("same", ("expandedRowIdxOut",))
    shapes, values = _sample_shapes(fn)
    assert _shapes.output_shape(plain_rule(out.shape_rule), shapes, values) == (6,)
