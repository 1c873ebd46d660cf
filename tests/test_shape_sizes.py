"""Element counts of foreach outputs stated per product outside the parameter table
(specgen.parse.classify.shape_sizes), on the real sentences."""

from __future__ import annotations

import pytest

from specgen.model import Constraint, Param
from specgen.parse import parse_paths
from specgen.parse.classify.shape_sizes import ProductStatement, size_rule, sized_peers

# aclnnForeachSqrt (ops-nn), the remarks after its parameter table
SQRT_A2 = "入参x的shape size小于等于出参out的shape size。"
SQRT_950 = "入参x的shape size与出参out的shape size一致。入参x和出参out支持包含的最大Tensor个数均为50。"
# aclnnForeachLerpScalar (ops-nn)
LERP_A2 = "参数out的shape size大于等于入参x1的shape size。"
LERP_950 = "参数x1、x2、out的shape size保持一致。支持包含的最大Tensor个数为50。"


@pytest.mark.parametrize(
    ("statement", "output", "peers"),
    [
        (SQRT_A2, "out", ("x",)),
        (SQRT_950, "out", ("x",)),
        (LERP_A2, "out", ("x1",)),
        (LERP_950, "out", ("x1", "x2")),
        # the input's side of the same statements: x may have fewer elements than out
        (SQRT_A2, "x", ()),
        (LERP_A2, "x1", ()),
        # aclnnForeachLerpScalar's other remark: shapes, not element counts, and no output
        ("参数x1、x2的shape保持一致。", "out", ()),
        # aclnnForeachNorm's row: an element count given, related to no tensor
        ("shape size为1。", "out", ()),
        # `与` with no word of equality after it relates nothing
        ("入参x的shape size与出参out的shape size之积小于2^31。", "out", ()),
    ],
)
def test_sized_peers(statement, output, peers):
    assert sized_peers(statement, output) == peers


def _list(name: str, direction: str) -> Param:
    c_type = "aclTensorList*" if direction == "out" else "const aclTensorList*"
    dtypes = Constraint(kind="dtypes", text="FLOAT", line=1, values=("FLOAT",))
    return Param(name=name, c_type=c_type, kind="tensor_list", direction=direction, constraints=(dtypes,), line=1)


def test_every_supported_product_must_relate_the_output_to_the_same_input():
    x, out = _list("x", "in"), _list("out", "out")
    a2 = ProductStatement(("910b", "A3"), SQRT_A2, 129)
    a950 = ProductStatement(("950",), SQRT_950, 133)
    rule = size_rule(out, [x, out], [a2, a950], ["950", "A3", "910b"])
    assert rule is not None and (rule.kind, rule.params, rule.line) == ("at_least", ("x",), 129)
    # a supported product with no statement (950 here) leaves the output unread
    assert size_rule(out, [x, out], [a2], ["950", "A3", "910b"]) is None
    # no product list: the products the statements name
    assert size_rule(out, [x, out], [a2], []) is not None
    # the statements of the input's side, or of a plain tensor output, give it nothing
    assert size_rule(x, [x, out], [a2, a950], ["950", "A3", "910b"]) is None


def test_lerp_scalar_out_takes_the_input_both_products_relate_it_to():
    x1, x2, out = _list("x1", "in"), _list("x2", "in"), _list("out", "out")
    remarks = [ProductStatement(("910b", "A3"), LERP_A2, 154), ProductStatement(("950",), LERP_950, 160)]
    rule = size_rule(out, [x1, x2, out], remarks, ["950", "A3", "910b"])
    # x2 only on 950: x1, the one every product names
    assert rule is not None and rule.params == ("x1",)


@pytest.mark.parametrize(
    ("folder", "function", "peer", "line"),
    [("foreach_sqrt", "aclnnForeachSqrt", "x", 129), ("foreach_lerp_scalar", "aclnnForeachLerpScalar", "x1", 154)],
)
def test_corpus_foreach_outputs_sized_by_their_remarks(corpus, folder, function, peer, line):
    path = corpus / "docs" / "ops-nn" / "foreach" / folder / "docs" / f"{function}.md"
    (doc,) = parse_paths([path])
    out = doc.functions[0].param("out")
    assert out is not None and out.shape_rule is not None
    assert (out.shape_rule.kind, out.shape_rule.params, out.shape_rule.line) == ("at_least", (peer,), line)
    # the document's own call: out items of the input's shapes
    call = doc.functions[0].sample_call
    assert call is not None
    by_name = dict(zip((p.name for p in doc.functions[0].params), call.args, strict=True))
    assert [i.shape for i in by_name["out"].items] == [i.shape for i in by_name[peer].items]


def test_foreach_norm_out_is_one_element_per_tensor(corpus):
    """aclnnForeachNorm's out row says `shape size为1` (an element count) and, as the other foreach
    rows, `shape size大于等于入参x的shape size`, which its own call breaks (out items (1, 1) for x
    items (2, 3), (1, 3)); its one remark (`950：参数x、out支持的最大长度为256个`) gives no size. The
    exact count is the shape read, one tensor per tensor of x, ones at its rank (the count gives
    none; the call's (1, 1) for a 2-D x; tests/test_list_shapes.py)."""
    path = corpus / "docs" / "ops-nn" / "foreach" / "foreach_norm" / "docs" / "aclnnForeachNorm.md"
    (doc,) = parse_paths([path])
    fn = doc.functions[0]
    out = fn.param("out")
    assert out is not None and out.shape_rule is not None
    rule = out.shape_rule
    assert (rule.kind, rule.params, rule.dims, rule.text) == (
        "explicit",
        ("x",),
        ("*ones(rank(x))",),
        "shape size为1。",
    )
    assert [sized_peers(r.text, "out") for r in fn.remarks] == [()] * len(fn.remarks) != []
    call = fn.sample_call
    assert call is not None
    by_name = dict(zip((p.name for p in fn.params), call.args, strict=True))
    assert [i.shape for i in by_name["out"].items] == [(1, 1), (1, 1)]
    assert [i.shape for i in by_name["x"].items] == [(2, 3), (1, 3)]
