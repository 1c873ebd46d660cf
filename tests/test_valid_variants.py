"""Valid variants of the documents' own calls must pass the generated validators (issue 35b).

tests/variants.py varies each document's sample call only as the document says is valid (each
dtype its tied tensors allow, each row of its dtype-combination tables, each product it marks
支持, and on each product the dtypes allowed there). The corpus run must reject none but the
variants listed below, each read by hand against its document: the document itself forbids
them (the sample was written for another product). A listed variant the validators accept
again fails too: the document's restriction is no longer checked.
"""

from __future__ import annotations

import pytest

from specgen.parse import parse_paths
from tests.oracle import generate_package
from tests.variants import dtype_groups, product_variants, rule_kind, run, variants

# (function, variant label) -> the statement the variant breaks, read by hand: truly invalid.
JUDGED_INVALID: dict[tuple[str, str], str] = {
    ("aclnnUniqueConsecutive", "product=950"): (
        "aclnnUniqueConsecutive.md line 178, under Ascend 950: '输入`dim`仅支持1000。'; the sample passes dim 0"
    ),
    ("aclnnCtcLoss", "product=950"): (
        "aclnnCtcLoss.md line 215, under Ascend 950: logAlphaOut 'shape为(N, T, (2*max(targetLengths)+1))'; the "
        "sample's (4, 12, 16) is line 212's A2/A3 shape ((2*max+8)/8*8)"
    ),
    ("aclnnMaxPool", "product=910"): (
        "aclnnMaxPool.md line 206, under Atlas training: '参数self、out的数据类型不支持FLOAT、BFLOAT16…'; the sample "
        "passes FLOAT"
    ),
    ("aclnnDequantSwigluQuant", "product=950"): (
        "aclnnDequantSwigluQuant.md line 248, under Ascend 950: 'quantModeOptional参数中，仅支持“dynamic”'; the "
        'sample passes "static"'
    ),
    ("aclnnQuantize", "product=310p"): (
        "aclnnQuantize.md line 171, under Atlas inference: '入参`x`、`scales`不支持BFLOAT16、FLOAT32'; the sample "
        "passes FLOAT"
    ),
}


def _doc(corpus, rel: str):
    path = corpus / "docs" / "ops-nn" / rel
    if not path.exists():
        pytest.skip(f"{rel} is not in the corpus")
    (doc,) = parse_paths([path])
    return doc


@pytest.mark.slow
def test_valid_variants_of_the_document_calls_are_accepted(corpus, tmp_path_factory):
    docs = parse_paths([corpus / "docs"])
    package = generate_package(corpus / "docs", tmp_path_factory.mktemp("variants_out"))
    assert (package / "aclnn_ops" / "__init__.py").is_file()
    tried, rejected, spared = run(package, docs)
    assert spared == 0  # the sample calls themselves (tests/test_oracle.py says so too)
    kinds = {v.kind for v in tried}
    assert len(tried) > 5000 and kinds == {"dtype", "table", "product", "product dtype", "product table"}, kinds
    unexplained = [
        f"{x.key()}: {x.rule} at {x.variant.source}:{x.line}: {x.verdict[:200]}"
        for x in rejected
        if (x.variant.function, x.variant.label) not in JUDGED_INVALID
    ]
    assert not unexplained, "\n".join(unexplained)
    still = {(x.variant.function, x.variant.label) for x in rejected}
    assert set(JUDGED_INVALID) <= still, sorted(set(JUDGED_INVALID) - still)


def test_an_error_row_ties_the_dtypes_it_names(corpus):
    """aclnnHardswishBackward line 179: `gradOutput、self和out的数据类型不同` is 161002, so a variant
    moves the three together (FLOAT16 for one alone would be invalid, not a finding)."""
    doc = _doc(corpus, "activation/hard_swish_grad/docs/aclnnHardswishBackward.md")
    assert dtype_groups(doc.functions[0]) == [("gradOutput", "self", "out")]
    labels = [v.label for v in variants([doc]) if v.kind == "dtype"]
    assert labels == ["gradOutput,self,out=BFLOAT16", "gradOutput,self,out=FLOAT16"]


def test_a_scalar_of_the_tensors_dtype_follows_it(corpus):
    """aclnnIndexFill: value `与self数据类型范围一致`, `需要可转化为self的数据类型`: with self BOOL the
    sample's 10.0 is passed as C converts it (True), not as a float a BOOL cannot hold."""
    doc = _doc(corpus, "index/index_fill_d/docs/aclnnIndexFill&aclnnInplaceIndexFill.md")
    made = {v.label: v.args for v in variants([doc]) if v.function == "aclnnIndexFill"}
    assert made["self,out=BOOL"]["value"] is True
    assert made["self,out=INT32"]["value"] == 10 and isinstance(made["self,out=INT32"]["value"], int)


def test_a_combination_the_table_does_not_list_is_not_built(corpus):
    """aclnnQuantMatmulV4: on A2/A3 the table (line 465) lists scale FLOAT32/BFLOAT16 with
    pertokenScaleOptional FLOAT32, on Atlas inference (310p, lines 453-456) scale UINT64/INT64
    only: scale BFLOAT16 is a variant on 910b, none on 310p, whatever scale's row allows. Each
    row is built too, the output taking the row's dtype (line 465: BFLOAT16)."""
    doc = _doc(corpus, "matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulV4.md")
    on = {(v.label, v.product) for v in product_variants([doc], {("aclnnQuantMatmulV4", p) for p in ("310p", "910b")})}
    assert ("scale=BFLOAT16 product=910b", "910b") in on
    assert not any("scale=BFLOAT16" in label for label, product in on if product == "310p")
    tables = {(label.split(":")[0], product) for label, product in on if label.startswith("line")}
    assert ("line 465", "910b") in tables and not any(product == "310p" for _, product in tables)
    rows = {v.label: v.args for v in variants([doc]) if v.kind == "table"}
    row = next(args for label, args in rows.items() if label.startswith("line 465"))
    assert (row["scale"].dtype, row["out"].dtype) == ("FLOAT", "BFLOAT16")


def test_an_input_whose_dtype_a_shape_rule_names_keeps_its_dtype(corpus):
    """aclnnWeightQuantBatchMatmulNz: y's matmul rule holds unless weight is INT32 or FLOAT (packed
    4-bit values, line 30's rule): the sample's FLOAT weight (64, 8) holds N = 64 packed, so weight
    INT4 of that shape would be another call, not a variant; x and y move together still."""
    doc = _doc(corpus, "matmul/weight_quant_batch_matmul_v2/docs/aclnnWeightQuantBatchMatmulNz.md")
    labels = [v.label for v in variants([doc]) if v.kind == "dtype"]
    assert not any(label.startswith("weight=") for label in labels)
    assert "x,y=BFLOAT16" in labels


def test_rule_kinds_read_from_their_ids():
    assert rule_kind("rule3_same_dtype") == "same_dtype"
    assert rule_kind("implied_output_shape_logAlphaOut") == "output_shape"
    assert rule_kind("product_enum_quantModeOptional_2") == "enum"
    assert rule_kind("implied_dtypes_A") == "dtypes"
    assert rule_kind("product_same_dtype_weight") == "same_dtype"
    assert rule_kind("rule2_not_null_when") == "not_null_when"


def test_an_output_shaped_by_its_own_dtype_is_reshaped_with_it(corpus):
    """aclnnRotateQuant lines 432-433, on A2/A3: `当yOut的输出类型为int32时，y的shape必须为(M, N//8)`:
    the variant with yOut INT32 (a packed output, the class a hand-read found refused) has the
    packed shape; aclnnFlatQuant: out FLOAT4_E2M1 changes quantScale's shape and dtype too (line
    192), which the model does not hold whole: neither is moved."""
    doc = _doc(corpus, "matmul/rotate_quant/docs/aclnnRotateQuant.md")
    made = {v.label: v.args for v in product_variants([doc], {("aclnnRotateQuant", "910b")})}
    x, y = made["yOut=INT32 product=910b"]["x"], made["yOut=INT32 product=910b"]["yOut"]
    assert y.shape == (x.shape[0], x.shape[1] // 8)
    doc = _doc(corpus, "quant/flat_quant/docs/aclnnFlatQuant.md")
    labels = [v.label for v in variants([doc]) if v.kind == "dtype"]
    assert labels == ["x,kroneckerP1,kroneckerP2=BFLOAT16"]  # neither out nor quantScale alone
