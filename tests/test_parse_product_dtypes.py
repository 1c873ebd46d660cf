"""Per-product dtypes read from a real document that states them three ways at once: a cell
with a product-only dtype, a note restricting one product, and an `额外支持` footnote for the
others. Expected sets written by hand from the document's words. Skipped without the corpus."""

from __future__ import annotations

import pytest

from specgen import vocab
from specgen.parse import parse_document
from specgen.parse.classify.properties import dtype_sets

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


# `Ascend910B 及后续同代 SoC`: 910B, the A3 parts of its generation and the later 950; not the
# older training parts nor the 310 inference parts. experimental/activation/hard_sigmoid_v2/docs/
# aclnnHardsigmoidV2&aclnnInplaceHardsigmoidV2.md:104 (products 950, A3, A2, 310P and 910 marked √)
HARDSIGMOID_V2 = "experimental/activation/hard_sigmoid_v2/docs/aclnnHardsigmoidV2&aclnnInplaceHardsigmoidV2.md"
HARDSIGMOID_V2_CELL = "BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16、FLOAT32、INT32"
# experimental/activation/hard_sigmoid_grad_v3/docs/aclnnHardsigmoidBackward.md:83, the mark after the list
HARDSIGMOID_BACKWARD_CELL = "FLOAT16、FLOAT32；BFLOAT16 仅支持 Ascend910B 及后续同代 SoC"
LATER_GENERATION = {"910b", "A3", "950"}


def _bf16_products(cell: str) -> set[str | None]:
    return {pid for dtypes, pid in dtype_sets("数据类型支持" + cell) if "BFLOAT16" in dtypes}


@pytest.mark.parametrize("cell", [HARDSIGMOID_V2_CELL, HARDSIGMOID_BACKWARD_CELL])
def test_a_dtype_of_a_product_and_later_ones_holds_on_its_generation_and_after(cell):
    assert _bf16_products(cell) == LATER_GENERATION
    general = next(dtypes for dtypes, pid in dtype_sets("数据类型支持" + cell) if pid is None)
    assert set(general) >= {"FLOAT16", "FLOAT"} and "BFLOAT16" not in general


def test_a_dtype_of_one_product_stays_that_products_only():
    # aclnnTanhBackward.md:35 names one product, with no 及后续
    assert _bf16_products("FLOAT、FLOAT16、DOUBLE、BFLOAT16（仅Atlas A2训练系列产品支持）") == {"910b"}


def test_later_products_of_a_product_off_the_training_line_are_unknown_so_allowed_everywhere():
    assert vocab.products_named("Ascend310P 及后续 SoC") is None
    assert _bf16_products("BFLOAT16（仅 Ascend310P 及后续 SoC 支持）、FLOAT16") == {None}


def test_words_after_only_that_name_no_product_are_not_a_product_mark():
    assert _bf16_products("FLOAT16、FLOAT32；BFLOAT16 仅支持连续Tensor") == set()


def test_hardsigmoid_v2_allows_bfloat16_on_a3_and_950(corpus):
    path = corpus / "docs" / "ops-nn" / HARDSIGMOID_V2
    text = path.read_text(encoding="utf-8")
    assert HARDSIGMOID_V2_CELL in text
    for fn in parse_document(path.name, text.encode()).functions:
        for param in fn.params:
            if param.kind != "tensor":
                continue
            for pid in LATER_GENERATION:
                assert "BFLOAT16" in param.dtypes_on(pid), (fn.name, param.name, pid)
            for pid in ("310p", "910"):
                assert "BFLOAT16" not in param.dtypes_on(pid), (fn.name, param.name, pid)
