"""Per-product dtypes read from a real document that states them three ways at once: a cell
with a product-only dtype, a note restricting one product, and an `额外支持` footnote for the
others. Expected sets written by hand from the document's words. Skipped without the corpus."""

from __future__ import annotations

import pytest

from specgen.parse import parse_document

# experimental/activation/mish_grad_v2/docs/aclnnMishBackward.md says, for gradOutput, self and
# gradInput: the cell `BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16、FLOAT32`; under the
# table `<term>Atlas 训练系列产品</term>：数据类型支持 FLOAT16、FLOAT32。` and `<term>Ascend 950…
# </term>、<term>Atlas A3…</term>、<term>Atlas A2…</term>：额外支持 BFLOAT16。`
MISH_BACKWARD = "experimental/activation/mish_grad_v2/docs/aclnnMishBackward.md"
BY_HAND = {
    "950": {"FLOAT16", "FLOAT", "BFLOAT16"},
    "A3": {"FLOAT16", "FLOAT", "BFLOAT16"},
    "910b": {"FLOAT16", "FLOAT", "BFLOAT16"},
    "310p": {"FLOAT16", "FLOAT"},  # supported, no note: the list without the 910B-only BFLOAT16
    "910": {"FLOAT16", "FLOAT"},
}


@pytest.mark.parametrize("param", ["gradOutput", "self", "gradInput"])
def test_each_product_gets_the_dtypes_the_document_gives_it(corpus, param):
    path = corpus / "docs" / "ops-nn" / MISH_BACKWARD
    doc = parse_document(path.name, path.read_bytes())
    read = doc.functions[0].param(param)
    assert read is not None
    assert {pid: set(read.dtypes_on(pid)) for pid in BY_HAND} == BY_HAND


# foreach/foreach_sub_list/docs/aclnnForeachSubListV2.md: x1, x2 and out list FLOAT、FLOAT16、
# BFLOAT16、INT32、INT16、INT8、UINT8 and the constraints section says
# `- Ascend 950PR/Ascend 950DT：不支持INT16、INT8、UINT8。`
FOREACH_SUB_LIST_V2 = "foreach/foreach_sub_list/docs/aclnnForeachSubListV2.md"
WITHDRAWN = "- Ascend 950PR/Ascend 950DT：不支持INT16、INT8、UINT8。"


def test_a_constraints_note_that_withdraws_dtypes_narrows_its_product(corpus):
    path = corpus / "docs" / "ops-nn" / FOREACH_SUB_LIST_V2
    text = path.read_text(encoding="utf-8")
    assert WITHDRAWN in text
    fn = parse_document(path.name, text.encode()).functions[0]
    for name in ("x1", "x2", "out"):
        assert set(fn.param(name).dtypes_on("950")) == {"FLOAT", "FLOAT16", "BFLOAT16", "INT32"}, name
        assert {"INT16", "INT8", "UINT8"} <= set(fn.param(name).dtypes_on("A3")), name
    # the same words under a condition are not a product's set: left as text
    conditional = text.replace(WITHDRAWN, "- Ascend 950PR/Ascend 950DT：当alpha为DOUBLE时，不支持INT16、INT8、UINT8。")
    fn = parse_document(path.name, conditional.encode()).functions[0]
    assert "INT8" in fn.param("x1").dtypes_on("950")
