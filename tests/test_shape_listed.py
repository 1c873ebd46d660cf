"""An output's shape given case by case in a list the constraints section announces for it
(`关于scale、offset、out的shape说明如下：`), quoted from ops-nn's aclnnTransQuantParamV2.md, lines
241-248, with their indentation."""

from __future__ import annotations

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Param
from specgen.parse.classify.shape_alternatives import presence
from specgen.parse.classify.shape_listed import listed_cases
from specgen.parse.classify.shapes import output_rules
from specgen.parse.classify.text import Statement
from tests.param_kinds import INT, OUT, TENSOR

_MATMUL = (
    "若out作为matmul类算子输入（如[aclnnQuantMatmulV4](../x.md)），shape支持1维(1,)、(n,)或2维(1, n)，其中n与x2一致。"
)
_NOTES = [
    Statement("- 关于scale、offset、out的shape说明如下：", 241),
    Statement("- 当无offset时，out shape与scale shape一致。", 242, indent=2),
    Statement(f"- {_MATMUL}", 243, indent=4),
    Statement("- 当有offset时，仅作为matmul类算子输入（如[aclnnQuantMatmulV4](../x.md)）：", 245, indent=2),
    Statement("- offset，scale，out的shape支持1维(1,)、(n,)或2维(1, n)，其中n与x2一致。", 246, indent=4),
    Statement(
        "- 当输入scale的shape为1维，out的shape也为1维，且shape大小为scale与offset单维shape大小的最大值。", 247, indent=4
    ),
    Statement("- 当输入scale的shape为2维，out的shape与输入scale的shape维度和大小完全一致。", 248, indent=4),
    Statement("- 确定性计算：", 249),
    Statement("- aclnnTransQuantParamV2默认确定性实现。", 250, indent=2),
]


def _params() -> list[Param]:
    return [
        Param(name="scale", **TENSOR),
        Param(name="offset", **{**TENSOR, "optional": True}),
        Param(name="roundMode", **INT),
        Param(name="out", description="量化的计算输出。对应公式中的`out`。", **OUT),
    ]


def test_the_items_of_an_announced_list_are_the_cases_a_lone_condition_leading_those_under_it():
    out = _params()[-1]
    cases = listed_cases(out, _NOTES)
    assert [(s.text, s.line) for s in cases] == [
        ("当无offset时，out shape与scale shape一致。", 242),
        (
            "当有offset时，当输入scale的shape为1维，out的shape也为1维，且shape大小为scale与offset单维shape大小的最大值，"
            "当输入scale的shape为2维，out的shape与输入scale的shape维度和大小完全一致。",
            245,
        ),
    ]
    # a list announced for other tensors, or no list at all
    assert listed_cases(Param(name="y", **OUT), _NOTES) == []
    assert listed_cases(out, _NOTES[1:]) == []


def test_an_item_of_several_sentences_under_a_lone_condition_is_not_led_by_it():
    two = Statement("- 当输入scale的shape为1维，out的shape为(1,)。否则out的shape为(2,)。", 247, indent=4)
    notes = [*_NOTES[:5], two, *_NOTES[7:]]
    assert [s.line for s in listed_cases(_params()[-1], notes)] == [242]


def test_the_output_takes_the_case_the_call_meets():
    params = _params()
    [*_, out] = output_rules(params, [], {}, notes=_NOTES)
    rule = out.shape_rule
    assert rule is not None and rule.kind == "one_of"
    assert [(a.kind, a.dims, a.when, a.line) for a in rule.alternatives] == [
        ("same", (), ("offset", "given", "", "false"), 242),
        (
            "explicit",
            ("max(scale.shape[0], offset.shape[0])",),
            ("offset", "given", "", "true", "scale", "rank", "1", "true"),
            245,
        ),
        ("same", (), ("offset", "given", "", "true", "scale", "rank", "2", "true"), 245),
    ]
    plain = plain_rule(rule)
    one, three, wide = TensorDesc((1,), "FLOAT"), TensorDesc((3,), "FLOAT"), TensorDesc((1, 3), "FLOAT")
    assert _shapes.output_shapes(plain, {"scale": (1,), "offset": (3,)}, {"scale": one, "offset": three}) == ((3,),)
    assert _shapes.output_shapes(plain, {"scale": (1, 3), "offset": (3,)}, {"scale": wide, "offset": three}) == (
        (1, 3),
    )
    assert _shapes.output_shapes(plain, {"scale": (3,), "offset": None}, {"scale": three, "offset": None}) == ((3,),)


def test_having_or_not_having_an_optional_input_is_its_presence():
    assert presence("有offset", ("offset",)) == ("offset", "given", "", "true")
    assert presence("无offset", ("offset",)) == ("offset", "given", "", "false")
    assert presence("无bias", ("offset",)) is None


def test_the_documents_own_call_gets_the_case_it_meets(corpus):
    from specgen.parse import parse_paths

    [path] = (corpus / "docs" / "ops-nn").glob("**/trans_quant_param_v2/docs/aclnnTransQuantParamV2.md")
    [doc] = parse_paths([path])
    [fn] = [f for f in doc.functions if f.name == "aclnnTransQuantParamV2"]
    out = next(p for p in fn.params if p.name == "out")
    values = call_values(fn, fn.sample_call)
    assert values is not None and values["out"].shape == (3,)  # scale and offset (3,)
    descs = {n: getattr(v, "shape", None) for n, v in values.items()}
    assert _shapes.allocation_shape(plain_rule(out.shape_rule), descs, values) == (3,)
