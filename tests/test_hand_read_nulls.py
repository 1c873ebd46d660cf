"""Findings of the fourth hand-read audit (null pointers, products, a false rejection), each
on the document's own text and the reviewer's calls: mirror calls get the same answer, a
parameter the document says must be null is held to it, and so on."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.runtime import _validate as validator
from specgen.model import Constraint, Param
from specgen.parse import parse_paths
from specgen.parse.classify.shapes import shape_rule
from tests.validator_calls import function_code, rejected

SILU = "activation/silu_grad/docs/aclnnSiluBackward.md"


def test_an_output_whose_inputs_are_the_same_or_broadcast_takes_their_broadcast_shape(corpus):
    """aclnnSiluBackward line 100, `gradOutput、self与gradInput的shape一致且满足broadcast关系`
    (error row line 186: `shape不同或不满足broadcast关系`): gradInput is the broadcast of the two
    inputs, so gradOutput (1,3) with self (2,3) is as valid as the mirror call (2,3) with (1,3)."""
    fn = function_code(corpus / "docs" / "ops-nn" / SILU)
    out = fn.function.param("gradInput")
    assert out is not None and out.shape_rule is not None
    assert (out.shape_rule.kind, out.shape_rule.params) == ("broadcast", ("gradOutput", "self"))
    wide, row = np.zeros((2, 3), np.float32), np.zeros((1, 3), np.float32)
    assert rejected(fn, gradOutput=wide, self=row, gradInput=wide) == []
    assert rejected(fn, gradOutput=row, self=wide, gradInput=wide) == []
    # gradInput narrower than the broadcast, or inputs that do not broadcast: rejected
    assert rejected(fn, gradOutput=row, self=wide, gradInput=row) != []
    assert rejected(fn, gradOutput=wide, self=np.zeros((2, 4), np.float32), gradInput=wide) != []


def _tensor(name: str, direction: str, *relations: tuple[str, str, tuple[str, ...]]) -> Param:
    constraints = tuple(Constraint(kind=kind, text=text, line=1, params=peers) for kind, text, peers in relations)
    c_type = "aclTensor*" if direction == "out" else "const aclTensor*"
    return Param(name=name, c_type=c_type, kind="tensor", direction=direction, constraints=constraints, line=1)


def test_a_same_shape_relation_without_a_broadcast_one_keeps_the_first_inputs_shape():
    same = ("same_shape", "gradOutput、self与gradInput的shape一致", ("gradOutput", "self"))
    out = _tensor("gradInput", "out", same)
    params = [_tensor("gradOutput", "in"), _tensor("self", "in"), out]
    rule = shape_rule(out, params, [], {})
    assert (rule.kind, rule.params) == ("same", ("gradOutput",))
    # a broadcast relation of the output with one input only does not make it the broadcast
    one = ("broadcast", "gradInput与self满足broadcast关系", ("self",))
    out = _tensor("gradInput", "out", same, one)
    rule = shape_rule(out, [*params[:2], out], [], {})
    assert (rule.kind, rule.params) == ("same", ("gradOutput",))
    both = ("broadcast", "gradOutput、self与gradInput的shape一致且满足broadcast关系", ("gradOutput", "self"))
    out = _tensor("gradInput", "out", same, both)
    rule = shape_rule(out, [*params[:2], out], [], {})
    assert (rule.kind, rule.params) == ("broadcast", ("gradOutput", "self"))


LEGACY = ("docs", "legacy")


def test_a_pointer_the_document_says_must_be_null_is_held_to_it(corpus):
    """MoeTokenUnpermute line 60 `目前仅支持nullptr` (restoreShapeOptional, an aclIntArray) and
    FlashAttentionUnpaddingScoreGradV2 line 88 `**暂不支持该传参**` (paddingMaskOptional): given,
    the call is rejected; null (the documents' own samples) it passes."""
    fn = function_code(corpus.joinpath(*LEGACY, "MoeTokenUnpermute.md"))
    assert rejected(fn, restoreShapeOptional=None) == []
    assert rejected(fn, restoreShapeOptional=[1, 2]) == ["implied_null_restoreShapeOptional"]
    fn = function_code(corpus.joinpath(*LEGACY, "FlashAttentionUnpaddingScoreGradV2.md"))
    assert rejected(fn, paddingMaskOptional=None) == []
    mask = np.zeros((1, 1), np.uint8)
    assert "implied_null_paddingMaskOptional" in rejected(fn, paddingMaskOptional=mask)


def test_a_per_product_must_be_null_remark_holds_on_that_product_only(corpus):
    """IncreFlashAttentionV2 line 82, under dequantScale1: `Atlas 推理系列加速卡产品：仅支持nullptr`
    (310p); on 910b, or with no product named, the tensor may be given."""
    fn = function_code(corpus.joinpath(*LEGACY, "IncreFlashAttentionV2.md"))
    rule = next(r for r in fn.cases.rules if r.id == "implied_null_dequantScale1")
    assert rule.products == ("310p",) and rule.host
    scale = np.zeros((1,), np.float32)
    assert "implied_null_dequantScale1" in rejected(fn, "310p", dequantScale1=scale)
    assert "implied_null_dequantScale1" not in rejected(fn, "910b", dequantScale1=scale)
    assert "implied_null_dequantScale1" not in rejected(fn, dequantScale1=scale)
    assert "implied_null_dequantScale1" not in rejected(fn, "310p")


@pytest.mark.parametrize(
    ("text", "null"),
    [
        ("目前仅支持nullptr。", True),  # MoeTokenUnpermute (legacy) line 60
        ("**暂不支持该传参**", True),  # FlashAttentionUnpaddingScoreGradV2 (legacy) line 88
        ("仅支持nullptr", True),  # IncreFlashAttentionV2 line 82, a per-product remark
        ("当前仅支持传入空指针。", True),  # aclnnQuantMatmulDequant xOffsetOptional
        # a case, a permission or another parameter's null: not a requirement of this one
        ("其他输入类型需要传入nullptr", False),  # aclnnQuantMatmulV4 offset
        ("可选参数，支持传入空指针。", False),
        ("否则须为nullptr", False),
        ("如不使用该参数可传入nullptr", False),
    ],
)
def test_only_an_unconditional_must_be_null_clause_is_read(text, null):
    from specgen.parse.classify.params import classify
    from specgen.parse.classify.text import Context

    found, _ = classify(text, Context("offsetOptional", ("offsetOptional", "x"), 1))
    assert any(c.kind == "null" for c in found) is null


def test_a_pointer_required_when_another_is_given(corpus):
    """MoeFinalizeRoutingV2Grad lines 72 and 74, `当scalesOptional非空指针时，其也不能是空指针`
    (expandedXOptional) and the same of expertIdxOptional when biasOptional is given: null with
    the other given is rejected under 161001; both null, or both given, pass."""
    fn = function_code(corpus.joinpath(*LEGACY, "MoeFinalizeRoutingV2Grad.md"))
    assert rejected(fn) == []
    assert rejected(fn, expandedXOptional=None) == ["implied_not_null_when_expandedXOptional"]
    assert rejected(fn, expertIdxOptional=None) == ["implied_not_null_when_expertIdxOptional"]
    rule = next(r for r in fn.cases.rules if r.id == "implied_not_null_when_expandedXOptional")
    assert rule.code == 161001 and rule.params == ("expandedXOptional", "scalesOptional")
    # biasOptional still given does not ask for expandedXOptional: only the pointer its sentence names
    assert "implied_not_null_when_expandedXOptional" not in rejected(fn, expandedXOptional=None, scalesOptional=None)


@pytest.mark.parametrize(
    ("statement", "required_with"),
    [
        ("当scalesOptional非空指针时，其也不能是空指针", ("scalesOptional",)),  # MoeFinalizeRoutingV2Grad line 72
        ("当biasOptional非空指针时，其也不能是空指针", ("biasOptional",)),  # line 74
        # the subject itself, a parameter the function lacks, or a permission: no requirement
        ("当expandedXOptional非空指针时，其也不能是空指针", None),
        ("当fooOptional非空指针时，其也不能是空指针", None),
        ("当scalesOptional非空指针时，其可以是空指针", None),
        ("其也不能是空指针", None),
    ],
)
def test_a_not_null_clause_reads_the_pointer_the_condition_before_it_names(statement, required_with):
    from specgen.parse.classify.params import classify
    from specgen.parse.classify.text import Context

    names = ("expandedXOptional", "scalesOptional", "biasOptional")
    found, _ = classify(statement, Context("expandedXOptional", names, 1))
    read = [c.params for c in found if c.kind == "not_null_when"]
    assert read == ([required_with] if required_with else [])


def test_a_doc_site_list_of_supported_products_rules_out_the_others_but_not_their_generation(corpus):
    """MoeTokenUnpermute line 5: `## 支持的产品型号` lists `- Atlas A2 训练系列产品` only: product 910
    is refused as the repository documents' 不支持 is; A3 (A2's generation) and 910b pass."""
    fn_path = corpus.joinpath(*LEGACY, "MoeTokenUnpermute.md")
    fn = function_code(fn_path)
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name, fn.cases.unsupported_products)
    args = host_values(fn.cases.valid.args)
    with pytest.raises(ValueError, match="does not list product 910 as supported"):
        validator.check(spec, args, "910")
    for product in ("910b", "A3", None):
        validator.check(spec, args, product)
    (doc,) = parse_paths([fn_path])
    assert {p.id: p.supported for p in doc.products} == {
        "910b": True, "910": False, "310p": False, "310b": False, "950": False
    }  # fmt: skip
    assert {p.line for p in doc.products if not p.supported} == {3}  # the section's heading


def test_a_product_table_marking_support_adds_no_product(corpus):
    """aclnnApplyAdamD (ops-nn experimental) heads its √ table `## 支持的产品型号` too: the table
    marks each product, so the ones it leaves out stay unknown, not unsupported."""
    path = corpus / "docs" / "ops-nn" / "experimental" / "optim" / "apply_adam_d" / "docs" / "aclnnApplyAdamD.md"
    if not path.exists():
        pytest.skip("aclnnApplyAdamD.md is not in the corpus")
    (doc,) = parse_paths([path])
    assert [(p.id, p.supported) for p in doc.products] == [("910b", True)]
