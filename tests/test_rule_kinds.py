"""The check kinds issue 23 added to the validator: a one-way broadcast (`a不能广播至b`), a value's
multiple (`offset % 4 == 0`) and a dimension's multiple (`x的最后一维不能被2整除`), each read from
an error row, enforced, and given a test case that breaks it alone; and a string parameter's set
of values (modes, layouts) read from its statements."""

from __future__ import annotations

import dataclasses

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Constraint, Param
from specgen.parse import parse_document, parse_paths
from specgen.parse.classify.listed_shapes import listed_ranks, shape_lists
from specgen.parse.classify.statements import clauses
from specgen.parse.classify.string_sets import string_sets
from specgen.parse.classify.value_statements import value_statements
from tests.conftest import SPECS
from tests.test_cases import cases_of

ROW = "返回161002（ACLNN_ERR_PARAM_INVALID）："


def _spec(kind: str, params: tuple[str, ...], roles: dict[str, str], values: tuple = ()) -> _validate.Spec:
    rule = _validate.Rule(161002, kind, params, "documented", id="r", values=values)
    specs = tuple(_validate.ParamSpec(name=n, role=r, direction="in") for n, r in roles.items())  # type: ignore[arg-type]
    return _validate.Spec(function="aclnnXGetWorkspaceSize", params=specs, rules=(rule,))


def _broken(spec: _validate.Spec, **args: object) -> str:
    found = _validate.first_violation(spec, args)
    return found[1] if found else ""


def test_nan_is_inside_no_range_and_infinity_only_in_an_unbounded_side():
    # aclnnSwigluGroupGrad: `clampLimit不满足≥0（包括NaN）`; NaN compares false with any bound
    rule = _validate.Rule(
        161002, "range", ("clampLimit",), "clampLimit不满足≥0（包括NaN）", id="r", bounds=(0.0, None, True, True)
    )
    spec = _validate.Spec(
        function="aclnnXGetWorkspaceSize",
        params=(_validate.ParamSpec(name="clampLimit", role="value", direction="in"),),
        rules=(rule,),
    )
    assert "outside" in _broken(spec, clampLimit=float("nan"))
    assert "outside" in _broken(spec, clampLimit=-1.0)
    assert _broken(spec, clampLimit=0.0) == "" and _broken(spec, clampLimit=float("inf")) == ""


def test_a_one_way_broadcast_rejects_the_other_way():
    spec = _spec("broadcast_to", ("src", "selfRef"), {"src": "tensor", "selfRef": "tensor"})
    assert _broken(spec, src=TensorDesc((3,), "FLOAT"), selfRef=TensorDesc((2, 3), "FLOAT")) == ""
    # (2, 3) and (3,) broadcast together, but src does not broadcast to selfRef's (3,)
    assert "does not broadcast to selfRef" in _broken(
        spec, src=TensorDesc((2, 3), "FLOAT"), selfRef=TensorDesc((3,), "FLOAT")
    )


@pytest.mark.parametrize(
    ("value", "bad"), [(8, False), (0, False), ((4, 12), False), (6, True), (4.5, True), ((4, 5), True)]
)
def test_a_value_multiple(value, bad):
    spec = _spec("multiple", ("offset",), {"offset": "value"}, values=(4,))
    assert bool(_broken(spec, offset=value)) is bad


def test_a_dimension_multiple_reads_the_last_or_the_named_dimension():
    last = _spec("dim_multiple", ("x",), {"x": "tensor"}, values=(2,))
    assert _broken(last, x=TensorDesc((3, 4), "FLOAT")) == ""
    assert "last dimension (5)" in _broken(last, x=TensorDesc((4, 5), "FLOAT"))
    named = _spec("dim_multiple", ("x", "dim"), {"x": "tensor", "dim": "value"}, values=(2,))
    assert "dimension dim=0 (3)" in _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=0)
    assert _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=-1) == ""
    assert _broken(named, x=TensorDesc((3, 4), "FLOAT"), dim=5) == ""  # out of range: the axis rule's business


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        ("gradOutput不能broadcast到output的shape。", "broadcast_to"),
        ("gradOutput的最后一维不能被2整除。", "dim_multiple"),
    ],
)
def test_each_kind_is_read_enforced_and_broken_alone(row, kind):
    cases = cases_of(ROW + row)
    (rule,) = [r for r in cases.rules if r.kind == kind]
    assert rule.host, rule.reason
    made = [c for c in cases.cases if c.rule == rule.id]
    assert made and all(not c.skip for c in made), made


def _text(statement: str) -> Constraint:
    return Constraint(kind="text", text=statement, line=1)


@pytest.mark.parametrize(
    ("statements", "values"),
    [
        (['approximate仅支持{"none", "tanh"}'], {"none", "tanh"}),  # aclnnGeluQuant
        (["只支持“none”和“tanh”", "分别对应Gelu的erf模式和tanh模式"], {"none", "tanh"}),  # aclnnGeluMul
        (["支持 none、sum、mean", "默认 mean"], {"none", "sum", "mean"}),  # aclnnHingeEmbeddingLoss
        (["支持取值round/ceil/trunc/floor"], {"round", "ceil", "trunc", "floor"}),  # aclnnAscendQuant
        (["支持NHWC或NCHW"], {"NHWC", "NCHW"}),  # aclnnInstanceNorm
        # aclnnGroupedQuantMax: a set stated for one situation widens the set, never narrows it
        (["当dstType取值为34", 'roundMode支持"round"、"hybrid"', '当dstType取值为35或者36时，roundMode支持"rint"'],
         {"round", "hybrid", "rint"}),
        (['融合模式取值必须是""（表示不做融合）、"add"、"mul"'], {"", "add", "mul"}),  # aclnnFusedMatmul
        (["建议值NCHW"], set()),  # advice, not a set: nothing enforced
        (["支持TND"], {"TND"}),  # legacy/FlashAttentionUnpaddingScoreGradV2.md:128: one value, the whole clause
        (["数据类型支持String"], set()),  # a dtype list, no value
        (["支持TND格式的输入"], set()),  # one word inside more text: not read as the set
        # aclnnEinsum's equation: quoted equations are values, commas and arrows included
        (["Host侧表达式字符串", '当前取值只支持"abcd,abced->abce"、"a,b->ab"'], {"abcd,abced->abce", "a,b->ab"}),
        (["Host侧表达式字符串", '当前取值只支持"abcd'], set()),  # an unclosed quote quotes nothing
        (['取值为"a b"或"a;b"'], set()),  # nor do quotes around other text
        # aclnnDynamicQuantV3: values leading a rule on another parameter set nothing (the second stays text)
        (['当前支持"pertoken"、"pertensor"和"perchannel"', '当quantMode取"pertensor"或"perchannel"时，'
          "groupIndexOptional必须是nullptr"], {"pertoken", "pertensor", "perchannel"}),
    ],
)  # fmt: skip
def test_string_sets_are_read_from_the_documents_statements(statements, values):
    read = string_sets([_text(s) for s in statements])
    assert {v for c in read if c.kind == "enum" for v in c.values} == values
    assert len(read) == len(statements)  # each statement kept, as enum or as text
    assert all(c.kind == "text" for c in read if "必须是nullptr" in c.text)


def test_values_leading_a_rule_on_another_parameter_are_no_set_but_a_set_under_a_condition_is():
    # aclnnDynamicQuantV3 quantMode: the values are the condition; what it requires is of groupIndexOptional
    null = '当quantMode取"pertensor"或"perchannel"时，groupIndexOptional必须是nullptr'
    assert [c.kind for c in string_sets([_text('当前支持"pertoken"'), _text(null)])] == ["enum", "text"]
    # aclnnGroupedQuantMax's form: the condition quotes nothing, the rule quotes the values
    widened = string_sets([_text('当dstType取值为35时，roundMode支持"rint"')])
    assert [(c.kind, c.values) for c in widened] == [("enum", ("rint",))]


@pytest.mark.parametrize(
    ("stem", "values"),
    [
        # `用于标识输入query、key、value的数据排布格式，当前支持BSH、BNSD、BSND。用户不特意指定时可传入默认值"BSH"。`
        ("IncreFlashAttentionV2", ("BSH", "BNSD", "BSND")),
        # `…当前支持BSH、BSND、BNSD、BNSD_BSND（输入为BNSD时，输出格式为BSND）。…默认值"BSH"。`
        ("PromptFlashAttentionV3", ("BSH", "BSND", "BNSD", "BNSD_BSND")),
        # `Host侧的string，代表输入query、keyIn、value的数据排布格式，支持TND。`
        ("FlashAttentionUnpaddingScoreGradV2", ("TND",)),
    ],
)
def test_a_set_in_the_descriptive_first_sentence_of_a_string_bullet_is_read(corpus, stem, values):
    # the set was left as description: any inputLayout, "XYZ" included, was accepted
    (doc,) = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
    (layout,) = [p for f in doc.functions for p in f.params if p.name == "inputLayout"]
    assert {v for c in layout.constraints if c.kind == "enum" for v in c.values} == set(values)
    assert not any("支持BSH" in d or "支持TND" in d for d in [layout.description])


def test_a_layout_outside_the_set_is_rejected_and_the_documented_ones_pass():
    spec = _validate.Spec(
        function="aclnnXGetWorkspaceSize",
        params=(_validate.ParamSpec(name="layout", role="string", direction="in", enum=("BSH", "BSND", "BNSD")),),
        rules=(_validate.Rule(161002, "enum", ("layout",), "inputLayout仅支持BSH、BSND、BNSD", id="r"),),
    )
    assert _broken(spec, layout="BNSD") == ""
    assert "the document allows" in _broken(spec, layout="SBH")


@pytest.mark.parametrize(
    ("statement", "ranks"),
    [
        ("shape可支持(2, N, 1, D)，(2, N, D)，(2, H)", (2, 4)),  # issue 23: fused_infer_attention_score
        ("shape需要为(N, C, H, W)或(C, H, W)", (3, 4)),  # aclnnMaxUnpool2dBackward
        ("shape为3维(W, S1, S2)、4维(W, 1, S1, S2)或5维(1, W, 1, S1, S2)", (3, 5)),  # aclnnMaskedSoftmaxWithRelPosBias
        ("shape=[T, H]或[B, S, H]", (2, 3)),  # aclnnSwigluGroupGrad
        ("常用shape为[T, H]或[B, S, H]", None),  # examples, not the set (aclnnSwigluGroupQuantGrad)
        ("当self的shape为(N,C)时，target的shape为(N)", None),  # a situation (aclnnNLLLoss)
        ("(N,C)或者(C) 其中N表示batch size，C表示类别数", None),  # more than a list: left as text
    ],
)
def test_prose_listing_shapes_of_several_ranks_gives_their_range(statement, ranks):
    assert listed_ranks(statement) == ranks


def test_listed_shapes_widen_a_table_rank():
    """The table says 4 dimensions, the prose lists 2 to 4: every listed shape is admitted."""
    table = Constraint(kind="rank", text="4", line=1, min=4, max=4)
    prose = _text("shape可支持(2, N, 1, D)，(2, N, D)，(2, H)")
    param = Param(name="q", c_type="const aclTensor*", kind="tensor", direction="in", line=1,
                  constraints=tuple(shape_lists([table, prose])))  # fmt: skip
    assert (param.rank.min, param.rank.max) == (2, 4)


def _ranked(cell: str) -> Param:
    from specgen.parse.classify.cells import shape_cell
    from specgen.parse.classify.text import Context

    ctx = Context(subject="x2Scale", params=("x2Scale",), line=1)
    return Param(name="x2Scale", c_type="const aclTensor*", kind="tensor", direction="in", line=1,
                 constraints=tuple(shape_cell(cell, ctx)))  # fmt: skip


def test_a_rank_cell_listing_ranks_with_a_gap_is_a_set(corpus):
    """aclnnQuantMatmulActivationQuantWeightNz lines 227/242/259: the 维度 cell `1、3` (x2Scale is
    3-D for FLOAT8_E8M0, the document's sample passes {n, k/groupSize/2, 2}; bias `1维(n,)或3维`)
    means 1 or 3 dimensions: a 2-D tensor is rejected by the generated validator."""
    path = corpus / "docs/ops-nn/matmul/quant_matmul_activation_quant/docs/aclnnQuantMatmulActivationQuantWeightNz.md"
    if not path.exists():
        pytest.skip("the document is not in the corpus")
    (doc,) = parse_paths([path])
    assert "<td>1、3</td>" in path.read_text(encoding="utf-8")
    fn = operator_code(doc, doc.source).functions[0]
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    args = host_values(fn.cases.valid.args)
    for name in ("x2Scale", "biasOptional", "x1ScaleOptional"):
        assert spec.param(name).ranks == (1, 3)
    assert len(args["x2Scale"].shape) == 3

    def broken(shape):
        changed = {**args, "x2Scale": dataclasses.replace(args["x2Scale"], shape=shape)}
        return [r.id for r, _ in _validate.violations(spec, changed, None)]

    assert "implied_rank_x2Scale" in broken((2, 3))
    assert "implied_rank_x2Scale" not in broken((3,))  # counter-cases: the listed ranks
    assert broken(args["x2Scale"].shape) == []


@pytest.mark.parametrize(
    "cell, ranks, values",
    [("1、3", (1, 3), (1, 3)), ("1-3", (1, 3), ()), ("2、3", (2, 3), ()), ("4", (4, 4), ())],
)
def test_only_a_listed_set_with_a_gap_holds_its_ranks(cell, ranks, values):
    """A range (`1-3`) or a list without a gap (`2、3`) keeps every rank between its bounds."""
    rank = _ranked(cell).rank
    assert (rank.min, rank.max, rank.values) == (*ranks, values)


def _soft_margin(extra_row: str):
    """aclnnSoftMarginLossBackward (a seed) with one more 161002 condition on reduction."""
    text = (SPECS / "aclnnSoftMarginLossBackward.md").read_text(encoding="utf-8")
    anchor = "做broadcast后的shape与gradInput不一致。"
    assert anchor in text
    doc = parse_document("aclnnSoftMarginLossBackward.md", text.replace(anchor, anchor + " " + extra_row, 1).encode())
    (fn,) = operator_code(doc, doc.source).functions
    return fn


@pytest.mark.parametrize(
    ("row", "kind", "bad"),
    [
        ("reduction值不在0~2范围之内。", "range", 3),  # aclnnMseLoss
        ("reduction的值非0,1,2三值之一。", "enum", 3),  # aclnnBinaryCrossEntropyWithLogitsBackward
        ("reduction小于0。", "range", -1),
    ],
)
def test_a_value_bound_in_an_error_row_is_enforced_with_its_own_bounds(row, kind, bad):
    fn = _soft_margin(row)
    (rule,) = [r for r in fn.cases.rules if r.condition == row.rstrip("。") and r.kind == kind]
    assert rule.host, rule.reason
    spec = _validate.Spec(function="f", params=tuple(_validate.ParamSpec(**p) for p in fn.cases.params), rules=(rule,))
    args = {"reduction": 1}
    assert _validate.first_violation(spec, args) is None  # the document's own call passes reduction=1
    assert _validate.first_violation(spec, {"reduction": bad}) is not None
    # its error case: made, or skipped because the seed's own reduction enum states the same bound
    # (a value outside 0..2 breaks both, so no case breaks this rule alone)
    made = [c for c in fn.cases.cases if c.rule == rule.id]
    assert made and all(not c.skip or "implied_enum_reduction" in c.skip for c in made), made


def test_a_bound_with_a_second_condition_is_not_enforced_alone():
    """`clampLimit不为-1.0且不大于0` (aclnnSwigluGroup): -1.0 is allowed, so no bound is read."""
    from specgen.parse.classify.conditions import condition_checks

    checks = condition_checks("clampLimit不为-1.0且不大于0", ("clampLimit",), ("clampLimit",), ("x",))
    assert all(c.kind not in ("range", "enum") for c in checks)


def _read(kind: str, statements: list[str], names: tuple[str, ...] = ("C", "group")) -> list[Constraint]:
    return value_statements(kind, names[0], [_text(s) for s in statements], names)


@pytest.mark.parametrize(
    ("kind", "statements", "lengths"),
    [
        ("int_array", ["长度为1(kH=kW)或2(kH, kW)"], (1, 2)),  # aclnnAvgPool2d kernelSize
        ("int_array", ["长度仅支持0、1、2"], (0, 1, 2)),  # aclnnMaxPool2dWithIndicesBackward stride
        ("int_array", ["数组长度恒为2"], (2,)),  # aclnnAdaptiveAvgPool2d outputSize
        ("int_array", ["长度为2的INT32数组"], (2,)),  # aclnnAdaptiveMaxPool2d outputSize
        # aclnnConvolutionBackward stride: another length is stated relative to weight: no set
        ("int_array", ["数组长度必须为1", "数组长度为weight维度减2"], ()),
        ("int_array", ["数组长度为N"], ()),  # aclnnCtcLoss inputLengths: a symbol
    ],
)
def test_array_lengths_are_read_only_when_every_length_statement_is(kind, statements, lengths):
    read = _read(kind, statements)
    assert tuple(v for c in read if c.kind == "length" for v in c.values) == lengths


def test_a_string_length_range():
    """issue 23: distribute_barrier_v2's group "支持长度：[1,127]"."""
    (c,) = _read("string", ["支持长度：[1,127]"])
    assert (c.kind, c.min, c.max) == ("length", 1, 127)
    rule = _validate.Rule(161002, "length", ("group",), c.text, id="r", bounds=(1, 127, True, True))
    spec = _validate.Spec("f", (_validate.ParamSpec(name="group", role="string", direction="in"),), (rule,))
    assert _broken(spec, group="hccl_world") == ""
    assert "length 0" in _broken(spec, group="")


@pytest.mark.parametrize(
    ("statement", "values", "params"),
    [
        ("仅支持32的倍数", (32,), ()),  # aclnnDynamicMxQuant blocksize
        ("C必须可以被group整除", (), ("group",)),  # aclnnGroupNormBackward C
        ("当伪量化算法为pergroup量化模式时传入值的范围为[32, k-1]且值要求是32的倍数", None, None),  # a situation
    ],
)
def test_a_value_multiple_in_a_parameter_statement(statement, values, params):
    (c,) = _read("int", [statement])
    if values is None:
        assert c.kind == "text"
    else:
        assert (c.kind, c.values, c.params) == ("multiple", values, params)


def test_a_multiple_of_another_parameter_is_checked_against_its_value():
    rule = _validate.Rule(161002, "multiple", ("C", "group"), "C必须可以被group整除", id="r")
    spec = _spec_of(rule, {"C": "value", "group": "value"})
    assert _broken(spec, C=12, group=4) == ""
    assert "not a multiple of 5" in _broken(spec, C=12, group=5)
    assert _broken(spec, C=12, group=0) == ""  # no divisor: its own rules say what it must be


def _spec_of(rule: _validate.Rule, roles: dict[str, str]) -> _validate.Spec:
    specs = tuple(_validate.ParamSpec(name=n, role=r, direction="in") for n, r in roles.items())  # type: ignore[arg-type]
    return _validate.Spec(function="aclnnXGetWorkspaceSize", params=specs, rules=(rule,))


def test_a_quoted_value_is_one_clause_commas_and_all():
    """aclnnEinsum's equation row (line 90): `"abcd,abced->abce"` is a value, not three clauses;
    commas outside quotes still split, and an unclosed quote holds nothing together."""
    assert clauses('当前取值只支持"abcd,abced->abce"、"a,b->ab"。Host侧表达式字符串') == [
        '当前取值只支持"abcd,abced->abce"、"a,b->ab"',
        "Host侧表达式字符串",
    ]
    assert clauses('当前取值只支持"abcd,abced->abce') == ['当前取值只支持"abcd', "abced->abce"]


@pytest.mark.parametrize(
    ("statement", "kind", "params", "high"),
    [
        # legacy PromptFlashAttentionV2.md:119, FusedInferAttentionScoreV2.md:102 numKeyValueHeads
        ("限制：需要满足numHeads整除numKeyValueHeads", "multiple", ("numHeads", "numKeyValueHeads"), None),
        ("需要满足numHeads整除numKeyValueHeads", "multiple", ("numHeads", "numKeyValueHeads"), None),
        # legacy IncreFlashAttention.md:72
        ("numHeads与numKeyValueHeads的比值不能大于64", "ratio", ("numHeads", "numKeyValueHeads"), 64),
        # with a modal word the documents mean the reverse (`group需可以整除self的第一维度`): unread
        ("numHeads可以整除numKeyValueHeads", "text", (), None),
        ("当layout为BNSD时，numHeads与numKeyValueHeads的比值不能大于64", "text", (), None),  # a situation
    ],
)
def test_a_relation_of_two_values_in_a_parameter_statement(statement, kind, params, high):
    (c,) = _read("int", [statement], ("numKeyValueHeads", "numHeads"))
    assert (c.kind, c.params, c.max) == (kind, params, high)


def test_a_ratio_of_two_values_is_checked_and_a_zero_denominator_never_rejects():
    # legacy IncreFlashAttention.md:72: `默认为0，表示和query的head个数相等。numHeads与numKeyValueHeads的比值不能大于64`
    text = "numHeads与numKeyValueHeads的比值不能大于64"
    rule = _validate.Rule(
        161002, "ratio", ("numHeads", "numKeyValueHeads"), text, id="r", bounds=(None, 64, True, True)
    )
    spec = _spec_of(rule, {"numHeads": "value", "numKeyValueHeads": "value"})
    assert _broken(spec, numHeads=128, numKeyValueHeads=2) == ""  # 64 itself is allowed
    assert "numHeads / numKeyValueHeads is 65" in _broken(spec, numHeads=130, numKeyValueHeads=2)
    assert _broken(spec, numHeads=130, numKeyValueHeads=0) == ""  # 0: equal to numHeads
    assert _broken(spec, numHeads=130) == ""


def test_a_divisibility_of_two_values_is_checked_dividend_first():
    # legacy FusedInferAttentionScoreV2.md:102 `需要满足numHeads整除numKeyValueHeads` (its 约束说明:
    # `numHeads是numKeyValueHeads的倍数关系`)
    text = "需要满足numHeads整除numKeyValueHeads"
    rule = _validate.Rule(161002, "multiple", ("numHeads", "numKeyValueHeads"), text, id="r")
    spec = _spec_of(rule, {"numHeads": "value", "numKeyValueHeads": "value"})
    assert _broken(spec, numHeads=8, numKeyValueHeads=2) == ""
    assert "not a multiple of 2" in _broken(spec, numHeads=3, numKeyValueHeads=2)
    assert _broken(spec, numHeads=3, numKeyValueHeads=0) == ""
