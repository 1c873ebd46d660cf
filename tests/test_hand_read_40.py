"""Findings of the hand-read audit 40 (/tmp/hr40, issue 23), each on the document's own
sentence: a rule the document's own sample breaks is spared for the argument that breaks it
only, and also when the sample is read in part. Corpus documents are skipped when the corpus
is absent."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import host_values
from specgen.codegen.runtime._tensor import TensorDesc
from tests.validator_calls import first_violation, function_code, ops_nn

GELU_BACKWARD = "experimental/activation/gelu_grad/docs/aclnnGeluBackward.md"
DUAL_LEVEL_QUANT = "matmul/dual_level_quant_batch_matmul/docs/aclnnDualLevelQuantMatmulWeightNz.md"


def _with_dtype(fn, name: str, dtype: str) -> TensorDesc:
    given = host_values(fn.cases.valid.args)[name]
    return TensorDesc(given.shape, dtype, given.strides, given.format)


# ---------------------------------------------------------------- sparing per argument (item 1)


def test_gelu_backward_spares_only_the_dtype_its_sample_breaks(corpus):
    """aclnnGeluBackward.md:168 `gradOutput、self、gradInput的数据类型和数据格式不在支持的范围之内`
    (161002); the sample (l.305-330) passes gradOutput as ACL_INT32 against l.91's FLOAT、FLOAT16、
    BFLOAT16, so gradOutput's dtype is not enforced; self's (l.101) and gradInput's (l.111) still are."""
    fn = ops_nn(corpus, GELU_BACKWARD)
    assert fn.sample.from_document
    assert first_violation(fn) is None  # the sample's own call, gradOutput INT32
    for name in ("self", "gradInput"):
        found = first_violation(fn, **{name: _with_dtype(fn, name, "INT8")})
        assert found is not None and found[1] == 161002, name
    spared = [r for r in fn.cases.rules if r.kind == "dtypes" and not r.host]
    assert [r.params for r in spared] == [("gradOutput",)]
    assert "line 330" in spared[0].reason and "INT32" in spared[0].reason


def test_a_partly_read_sample_spares_the_dtype_it_states(corpus):
    """aclnnDualLevelQuantMatmulWeightNz.md:121 gives x2 FLOAT4_E2M1, but the sample passes x2Nz
    as ACL_INT8 (l.545 `NpuFormatCast无法转换B4类型，使用B8代替`, l.562); x2Nz's storage shape is
    not read, so the sample is read in part. The document's INT8 x2 is accepted; x1's dtype
    (FLOAT4_E2M1 too, which the sample keeps) is still checked."""
    fn = ops_nn(corpus, DUAL_LEVEL_QUANT)
    assert not fn.sample.from_document
    assert first_violation(fn, x2=_with_dtype(fn, "x2", "INT8")) is None
    found = first_violation(fn, x1=_with_dtype(fn, "x1", "INT8"))
    assert found is not None and found[1] == 161002
    (spared,) = [r for r in fn.cases.rules if r.kind == "dtypes" and not r.host]
    assert spared.params == ("x2",) and "INT8" in spared.reason


# ---------------------------------------------------------------- a string parameter's set of values (item 2)


def _legacy_function(corpus, name: str):
    return function_code(corpus / "docs" / "legacy" / f"{name}.md")


@pytest.mark.parametrize(
    ("name", "allowed", "refused", "quoted"),
    [
        # FlashAttentionVarLenScore.md:75 `数据排布格式，支持TND。`
        ("FlashAttentionVarLenScore", ("TND",), ("BSH", "BNSD"), "支持TND"),
        # IncreFlashAttentionV4.md:101 `当前支持BSH、BNSD、BSND。` (not l.102's default `可传入默认值"BSH"`)
        ("IncreFlashAttentionV4", ("BSH", "BNSD", "BSND"), ("TND", "SBH"), "当前支持BSH、BNSD、BSND"),
    ],
)
def test_a_layout_outside_the_documented_set_is_refused(corpus, name, allowed, refused, quoted):
    fn = _legacy_function(corpus, name)
    (rule,) = [r for r in fn.cases.rules if r.id == "implied_enum_inputLayout"]
    assert quoted in rule.condition
    for layout in allowed:
        assert first_violation(fn, inputLayout=layout) is None, layout
    for layout in refused:
        assert first_violation(fn, inputLayout=layout) == ("implied_enum_inputLayout", 161002), layout


def test_a_layout_set_the_document_widens_elsewhere_is_listed_not_enforced(corpus):
    """FlashAttentionScoreGradV2.md:135 `支持BSH、SBH、BSND、BNSD`, yet l.206 says of softmaxMax
    `TND的输入格式除外，此时为[T, N, 8]`: TND is a layout the document knows, so the set of l.135
    is not taken as the whole, and the reason says why."""
    fn = _legacy_function(corpus, "FlashAttentionScoreGradV2")
    (rule,) = [r for r in fn.cases.rules if r.kind == "enum" and r.params == ("inputLayout",)]
    assert not rule.host and "TND" in rule.reason
    assert "cannot check as stated" not in rule.reason


# ---------------------------------------------------------------- relations the constraints section makes firm (item 3)

HARDSWISH_BACKWARD = "experimental/activation/hard_swish_grad/docs/aclnnHardswishBackward.md"


def test_hardswish_backward_holds_the_relations_of_its_constraints_section(corpus):
    """aclnnHardswishBackward.md:67 `gradOutput、self 和 out 的数据类型必须一致。` and l.68 `shape 必须一致，
    不支持广播。`: the table's `与 gradOutput 一致` (l.44) is firm; self FLOAT16 against a FLOAT
    gradOutput, and self (3,) against (9,), were accepted."""
    fn = ops_nn(corpus, HARDSWISH_BACKWARD)
    assert first_violation(fn) is None
    found = first_violation(fn, self=_with_dtype(fn, "self", "FLOAT16"))
    assert found is not None and found[0].startswith("notes_same_dtype") and found[1] == 161002
    given = host_values(fn.cases.valid.args)["gradOutput"]
    found = first_violation(fn, self=TensorDesc((3,) if given.shape != (3,) else (4,), given.dtype))
    assert found is not None and found[0].startswith("notes_same_shape")
    said = {s.text: s.enforced for s in fn.cases.statements if s.kind == "notes" and s.enforced}
    assert said == {
        "gradOutput、self 和 out 的数据类型必须一致。": True,
        "gradOutput、self 和 out 的 shape 必须一致，不支持广播。": True,
    }


def test_an_output_format_tied_to_an_input_is_checked(corpus):
    """aclnnHardswishBackward.md:45 out's format cell `与 `gradOutput` 一致`: neither checked nor listed
    before (its text was taken as read by out's shape rule); an out in FRACTAL_NZ is refused."""
    fn = ops_nn(corpus, HARDSWISH_BACKWARD)
    given = host_values(fn.cases.valid.args)["gradOutput"]
    assert first_violation(fn, out=TensorDesc(given.shape, given.dtype, None, "FRACTAL_NZ")) == (
        "implied_same_format_out",
        161002,
    )
    (statement,) = [s for s in fn.cases.statements if s.param == "out" and s.kind == "same_format"]
    assert statement.rule == "implied_same_format_out" and statement.enforced


def test_a_relation_said_under_one_product_stays_per_product():
    """aclnnRotateQuant.md:415 `x和rotation的数据类型必须相同` sits under `- <term>Ascend 950PR…</term>：`
    (and a `<!-- npu=` block): it is not made a rule of every product; a top-level bullet is."""
    from specgen.codegen.statements import notes_relations
    from specgen.model import Param, TextBlock

    params = [Param(name=n, kind="tensor", c_type="aclTensor*", direction="in", line=1) for n in ("x", "rotation")]
    nested = TextBlock(text="- <term>Ascend 950PR</term>：\n  - x和rotation的数据类型必须相同。", line=10)
    marked = TextBlock(text='<!-- npu="950" id9 -->\n- x和rotation的数据类型必须相同。\n<!-- end id9 -->', line=10)
    plain = TextBlock(text="- `x`和`rotation`的数据类型必须相同。", line=10)
    assert notes_relations(nested, params) == [] and notes_relations(marked, params) == []
    (rule,) = notes_relations(plain, params)
    assert (rule.kind, rule.params, rule.host) == ("same_dtype", ("x", "rotation"), True)


def test_var_len_score_holds_one_dtype_for_query_key_value(corpus):
    """FlashAttentionVarLenScore.md:128 `输入query、key、value、realShiftOptional的数据类型必须一致。`:
    a FLOAT key with a FLOAT16 query was accepted."""
    fn = _legacy_function(corpus, "FlashAttentionVarLenScore")
    assert first_violation(fn) is None
    query = host_values(fn.cases.valid.args)["query"].dtype
    found = first_violation(fn, key=_with_dtype(fn, "key", "FLOAT" if query != "FLOAT" else "FLOAT16"))
    assert found is not None and found[0].startswith("notes_same_dtype")


def test_a_narrower_string_set_said_in_one_situation_is_named_and_the_union_checked(corpus):
    """aclnnAddRmsNormDynamicMxQuant.md:203 roundMode `当dstType为40/41时，支持{"rint", "floor", "round"}` and
    `当dstType为36/35时，仅支持{"rint"}`: the union is checked ("ceil" refused, "floor" accepted); the
    narrowing under dstType 36/35 is not read as a rule, so it is named, not claimed enforced."""
    fn = ops_nn(corpus, "norm/add_rms_norm_dynamic_mx_quant/docs/aclnnAddRmsNormDynamicMxQuant.md")
    assert first_violation(fn, roundMode="ceil") == ("implied_enum_roundMode", 161002)
    assert (
        first_violation(fn, roundMode="floor") is None
        or first_violation(fn, roundMode="floor")[0] != "implied_enum_roundMode"
    )
    (narrow,) = [s for s in fn.cases.statements if s.param == "roundMode" and "仅支持" in s.text]
    assert not narrow.enforced
    (rule,) = [r for r in fn.cases.rules if r.id == narrow.rule]
    assert "narrower set" in rule.reason and "implied_enum_roundMode" in rule.reason


# ---------------------------------------------------------------- value sets and null phrasings (item 4)


@pytest.mark.parametrize(
    ("name", "param", "allowed", "refused"),
    [
        # FlashAttentionVarLenScore.md:86 sparseModeOptional `支持配置值为0、1、2、3、4、6、7、8`
        ("FlashAttentionVarLenScore", "sparseModeOptional", 8, 5),
        # SwinTransformerLnQkvQuant.md:35 seqLength `只支持32/64两种`
        ("SwinTransformerLnQkvQuant", "seqLength", 64, 48),
    ],
)
def test_a_value_set_phrased_as_configurable_or_slashed_is_checked(corpus, name, param, allowed, refused):
    fn = _legacy_function(corpus, name)
    assert first_violation(fn) is None
    found = first_violation(fn, **{param: allowed})
    assert found is None or param not in found[0]
    assert first_violation(fn, **{param: refused}) == (f"implied_enum_{param}", 161002)


def test_a_pointer_said_to_take_only_nullptr_as_input_must_be_null(corpus):
    """SwinAttentionScoreQuant.md:40 paddingMask2Optional `当前仅支持输入nullptr`: a given mask passed."""
    fn = _legacy_function(corpus, "SwinAttentionScoreQuant")
    assert first_violation(fn) is None
    mask = host_values(fn.cases.valid.args)["paddingMask1Optional"] or TensorDesc((1, 3, 49, 49), "FLOAT16")
    assert first_violation(fn, paddingMask2Optional=mask) == ("implied_null_paddingMask2Optional", 161002)


def test_a_same_format_relation_lets_nd_stand_beside_a_plain_layout():
    """Leniency: an ND output beside an NCHW input is the same data to the operator (as a
    formats row listing ND admits NCHW); NCHW beside NHWC, or a private format, still disagree."""
    from specgen.codegen.runtime._validate import _formats_agree

    assert _formats_agree("ND", "NCHW") and _formats_agree("NCL", "ND") and _formats_agree("NHWC", "NHWC")
    assert not _formats_agree("NCHW", "NHWC") and not _formats_agree("ND", "FRACTAL_NZ")
