"""Output shapes the documents give as alternatives: case by case under conditions the call
settles (an attribute's value, a bool's, an input's rank, several at once, an otherwise case),
or as lists joined by 或 (issue 23). Each reading is held to the documents' own calls."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import ShapeRule
from specgen.parse import parse_paths
from specgen.parse.classify.shape_alternatives import Known, alternatives_rule, either_rule, presence
from specgen.parse.classify.shape_phrases import Reading, ShapeContext


def _resolve(reading: Reading, sentence: str, when: tuple[str, ...] = ()) -> ShapeRule:
    """A reading made a rule as is (symbols bound to the first input's first axes, when asked)."""
    kind, params, dims = reading
    return ShapeRule(kind=kind, params=params, dims=dims, text=sentence, line=1)


def _read(texts: list[str], inputs: tuple[str, ...], values: dict[str, str], subject: str = "out"):
    names = (subject, *inputs, *values)
    ctx = ShapeContext(names, inputs, subject, tensors=(subject, *inputs))
    return alternatives_rule(texts, ctx, Known({**dict.fromkeys(inputs, "tensor"), **values}), _resolve)


def test_cases_with_two_conditions_and_an_otherwise_case():
    # aclnnNLLLoss (ops-nn), out's row: the otherwise case holds where either condition fails
    text = "当reduction为0（none）且self的shape为2维时，out shape为(N,),否则为(1,)。"
    rule = _read([text], ("self", "target"), {"reduction": "int"})
    assert rule is not None and rule.kind == "one_of"
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("N",), ("reduction", "value", "0", "true", "self", "rank", "2", "true")),
        (("1",), ("reduction", "value", "0", "false")),
        (("1",), ("self", "rank", "2", "false")),
    ]


def test_a_condition_standing_alone_leads_the_cases_after_it():
    # aclnnBidirectionLSTMV2 (ops-nn), yOut's row: two statements, two cases each
    texts = [
        "bidirection为false时，当参数packed为false，shape支持三维（time_step, batch_size, input_size）；"
        "当参数packed为true，shape支持二维（total_batch_size, input_size）。",
        "bidirection为true时，当参数packed为false，shape支持三维（time_step, batch_size, 2 * hidden_size）；"
        "当参数packed为true，shape支持二维（total_batch_size, 2 * input_size）。",
    ]
    rule = _read(texts, ("x",), {"bidirection": "bool", "packed": "bool"}, "yOut")
    assert rule is not None
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("time_step", "batch_size", "input_size"), ("bidirection", "bool", "false", "true") + ("packed",) + B_FALSE),
        (("total_batch_size", "input_size"), ("bidirection", "bool", "false", "true") + ("packed",) + B_TRUE),
        (
            ("time_step", "batch_size", "2 * hidden_size"),
            ("bidirection", "bool", "true", "true") + ("packed",) + B_FALSE,
        ),
        (("total_batch_size", "2 * input_size"), ("bidirection", "bool", "true", "true") + ("packed",) + B_TRUE),
    ]


B_TRUE = ("bool", "true", "true")
B_FALSE = ("bool", "false", "true")


def test_a_value_and_its_negation_lead_a_broadcast_and_a_reduced_broadcast():
    # aclnnMseLossOut (ops-nn), out's row
    text = (
        "当reduction的值为0时，out的shape与self和targetbroadcast后的shape一致；当reduction的值不为0时，"
        "out与self、target做broadcast后，再reduce 0轴得到的tensor的shape一致。"
    )
    rule = _read([text], ("self", "target"), {"reduction": "int"})
    assert rule is not None
    broadcast, reduced = rule.alternatives
    assert (broadcast.kind, broadcast.params, broadcast.when) == (
        "broadcast",
        ("self", "target"),
        ("reduction", "value", "0", "true"),
    )
    assert reduced.dims == ("*broadcast(self, target)[:0]", "*broadcast(self, target)[1:]")
    assert reduced.when == ("reduction", "value", "0", "false")
    # the document's call: self and target (2, 2), reduction 1, out (2,)
    shapes = {"self": (2, 2), "target": (2, 2)}
    assert _shapes.output_shape(plain_rule(rule), shapes, {"reduction": 1}) == (2,)
    assert _shapes.output_shape(plain_rule(rule), {"self": (3, 1), "target": (4,)}, {"reduction": 0}) == (3, 4)


def test_lists_joined_by_or_are_alternatives_with_no_condition():
    # aclnnMultilabelMarginLoss (ops-nn), out's row: `(N)或者()`
    rule = _read(["shape为(N)或者()"], ("self",), {"reduction": "int"})
    assert rule is not None
    assert [(a.kind, a.dims, a.when) for a in rule.alternatives] == [("explicit", ("N",), ()), ("explicit", (), ())]


def test_a_losss_list_or_0d_shape_is_unreduced_or_reduced_by_its_reduction_attribute():
    # aclnnMultilabelMarginLoss (ops-nn): out `(N)或者()`, reduction `支持0(none)|1(mean)|2(sum)`;
    # its formula: none gives {l_1, …, l_N}, mean and sum add them up
    names = ("out", "self", "reduction")
    ctx = ShapeContext(names, ("self",), "out", tensors=("out", "self"))
    known = Known({"self": "tensor", "reduction": "int"}, reduction="reduction")
    rule = alternatives_rule(["shape为(N)或者()"], ctx, known, _resolve)
    assert rule is not None
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("N",), ("reduction", "value", "0", "true")),
        ((), ("reduction", "value", "0", "false")),
    ]
    # its call: reduction 0 (self (2, 3)) gives (N) alone; mean gives () alone
    bound = plain_rule(
        rule.model_copy(
            update={
                "alternatives": (
                    rule.alternatives[0].model_copy(update={"dims": ("self.shape[0]",)}),
                    rule.alternatives[1],
                )
            }
        )
    )
    assert _shapes.output_shapes(bound, {"self": (2, 3)}, {"reduction": 0}) == ((2,),)
    assert _shapes.output_shapes(bound, {"self": (2, 3)}, {"reduction": 1}) == ((),)
    # two lists neither of them 0-d, or no reduction documented so: no condition
    two = alternatives_rule(["shape为(N)或者(1)"], ctx, known, _resolve)
    assert two is not None and all(not a.when for a in two.alternatives)
    plain = alternatives_rule(["shape为(N)或者()"], ctx, Known(known.kinds), _resolve)
    assert plain is not None and all(not a.when for a in plain.alternatives)


def test_a_reduction_is_the_integer_documented_with_none_at_0():
    from specgen.model import Param
    from specgen.parse.classify.shapes import _reduction

    def _int(name: str, text: str) -> Param:
        return Param(name=name, c_type="int64_t", kind="int", direction="in", text=text, line=1)

    assert _reduction([_int("reduction", "支持0(none)|1(mean)|2(sum)。")]) == "reduction"
    assert _reduction([_int("reduction", "支持0（'none'）、1（'mean'）")]) == "reduction"
    assert _reduction([_int("reduction", "支持1(mean)|2(sum)|10(none)")]) == ""  # none is not 0
    assert _reduction([_int("mode", "支持0(none)"), _int("reduction", "0(none)")]) == ""  # two: neither


def test_an_unread_case_or_an_unread_shape_that_always_holds_gives_no_rule():
    values = {"reduction": "int"}
    # a condition this reader does not know (a dtype of the output): the case is not read,
    # and a rule without it would reject that case's calls (aclnnSwigluMxQuant, yOut's row)
    texts = [
        "当activateDim对应的x的尾轴时，shape为[X1,X2,...Xn,H]。",
        "当activateDim对应的不是x的尾轴时，shape为[X1,X2,...,XactivateDim / 2,...,2H]。",
    ]
    assert _read(texts, ("x",), {"activateDim": "int"}) is None
    # a bool compared with a value, or a value with true: not a condition read
    assert _read(["当reduction为true时，shape为(1,)，否则为(2,)"], ("self",), values) is None
    # one case alone is no alternative
    assert _read(["当reduction为0时，shape为(1,)"], ("self",), values) is None
    # an unconditional shape that does not read: the rule would never check anything
    unread = ShapeRule(kind="not_derivable", reason="r", line=1)
    ctx = ShapeContext(("out", "self"), ("self",), "out", tensors=("out", "self"))
    assert alternatives_rule(["shape为(N)或者()"], ctx, Known({"self": "tensor"}), lambda r, s, w: unread) is None


ONE_OF = {
    "kind": "one_of",
    "alternatives": [
        {
            "kind": "explicit",
            "dims": ["x.shape[0]"],
            "when": ["reduction", "value", "0", "true", "x", "rank", "2", "true"],
        },
        {"kind": "explicit", "dims": ["1"], "when": ["reduction", "value", "0", "false"]},
        {"kind": "explicit", "dims": ["1"], "when": ["x", "rank", "2", "false"]},
    ],
}


def test_the_runtime_allows_the_shapes_of_the_cases_the_call_meets():
    x2, x1 = TensorDesc((4, 3), "FLOAT"), TensorDesc((4,), "FLOAT")
    both = {"x": x2, "reduction": 0}
    assert _shapes.output_shapes(ONE_OF, {"x": (4, 3)}, both) == ((4,),)
    assert _shapes.output_shapes(ONE_OF, {"x": (4,)}, {"x": x1, "reduction": 0}) == ((1,),)
    assert _shapes.output_shapes(ONE_OF, {"x": (4, 3)}, {"x": x2, "reduction": 2}) == ((1,),)
    assert _shapes.shape_allowed(ONE_OF, {"x": (4, 3)}, both, (4,)) is None
    assert _shapes.shape_allowed(ONE_OF, {"x": (4, 3)}, both, (1,)) == ((4,),)
    # the reduction not given: no case is met, nothing is checked
    assert _shapes.shape_allowed(ONE_OF, {"x": (4, 3)}, {"x": x2}, (7,)) is None


def test_the_runtime_checks_any_of_several_shapes_and_allocates_only_when_they_agree():
    rule = {"kind": "one_of", "alternatives": [{"kind": "same", "params": ["x"]}, {"kind": "explicit", "dims": []}]}
    shapes, values = {"x": (3,)}, {"x": TensorDesc((3,), "FLOAT")}
    assert _shapes.shape_allowed(rule, shapes, values, ()) is None
    assert _shapes.shape_allowed(rule, shapes, values, (3,)) is None
    assert _shapes.shape_allowed(rule, shapes, values, (4,)) == ((3,), ())
    assert _shapes.allocation_shape(rule, shapes, values) is None
    with pytest.raises(TypeError, match="several shapes"):
        _shapes.allocate("out", rule, {"kind": "fixed", "values": ["FLOAT"]}, {"x": np.zeros(3, np.float32)})
    # a case met whose shape is not settled leaves the output unchecked
    unsettled = {
        "kind": "one_of",
        "alternatives": [{"kind": "same", "params": ["y"]}, {"kind": "explicit", "dims": []}],
    }
    assert _shapes.shape_allowed(unsettled, shapes, values, (9,)) is None


def test_a_bool_or_a_value_case_turned_round_needs_the_argument():
    values_case = ("reduction", "value", "0", "false")
    assert _shapes._written(values_case, {"reduction": 1})
    assert not _shapes._written(values_case, {"reduction": 0})
    assert not _shapes._written(values_case, {})  # not given: not met, either way round
    assert _shapes._written(("packed", "bool", "false", "false"), {"packed": True})
    assert not _shapes._written(("packed", "bool", "false", "true"), {"packed": True})
    assert not _shapes._written(("packed", "bool", "false", "false"), {"packed": None})


def _corpus_function(corpus: Path, stem: str, name: str, folder: str = "ops-nn"):
    paths = [p for p in (corpus / "docs" / folder).rglob(f"{stem}.md") if "experimental" not in p.parts]
    [doc] = parse_paths(paths)
    return next(f for f in doc.functions if f.name == name)


@pytest.mark.parametrize(
    ("stem", "output", "shape"),
    [
        ("aclnnNLLLoss", "out", (2,)),  # self (2, 3), target (2,), reduction 0
        ("aclnnMseLossOut", "out", (2,)),  # self and target (2, 2), reduction 1
        ("aclnnBidirectionLSTMV2", "yOut", (2, 32, 64)),  # x (2, 32, 32), initH (2, 32, 32), bidirection
        ("aclnnUnique", "inverseOut", (8,)),  # self (8,), returnInverse true
        ("aclnnSwigluMxQuant", "yOut", (2, 32)),  # x (2, 64), activateDim -1
        ("aclnnDequantSwigluQuantV2", "scaleOut", (2,)),  # x (2, 64), activateDim -1
        ("aclnnAddRmsNormDynamicQuant", "y1Out", (2, 8)),  # x1 (2, 8): both alternatives agree
        ("aclnnFlatQuant", "quantScale", (16,)),  # x (16, 16, 16), out INT32
        # rules once held to one case, now every case (issue 23, fourth round)
        ("aclnnCrossEntropyLoss", "lossOut", (1,)),  # input (2, 5), reductionOptional "mean": otherwise [1]
        ("aclnnCtcLoss", "negLogLikelihoodOut", (4,)),  # logProbs (12, 4, 5): 3-d, (N) its axis 1
        ("aclnnL1Loss", "out", ()),  # self and target (2, 2), reduction 1: 0-d
        ("aclnnDynamicQuantV3", "scaleOut", (4,)),  # x (4, 2), quantMode "pertoken"
        ("aclnnFlatQuant", "out", (16, 16, 2)),  # x (16, 16, 16), out INT32: the last dimension an eighth
        ("aclnnAscendQuant", "y", (4, 2)),  # x (4, 2), y INT8: another dtype than INT32, x's shape
        ("aclnnTransQuantParamV3", "out", (3,)),  # scale and offset (3,): 1-d, the larger size
        ("aclnnDequantSituQuant", "yScaleOut", (16,)),  # x (16, 64) INT8: `INT8: shape为x.shape[:-1]`
    ],
)
def test_the_documents_own_calls_get_the_shapes_the_alternatives_give(corpus, stem, output, shape):
    fn = _corpus_function(corpus, stem, stem)
    p = next(p for p in fn.params if p.name == output)
    assert p.shape_rule is not None and p.shape_rule.derived
    values = call_values(fn, fn.sample_call)
    assert values is not None and values[output].shape == shape
    descs = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}
    rule = plain_rule(p.shape_rule)
    assert _shapes.output_shape(rule, descs, values) == shape
    assert _shapes.allocation_shape(rule, descs, values) == shape


def test_a_shape_or_another_after_huozhe():
    # aclnnAddRmsNormDynamicQuant (ops-nn): y1Out's row, then scale1Out's
    ctx = ShapeContext(("y1Out", "x1", "x2", "gamma"), ("x1", "x2", "gamma"), "y1Out", tensors=None)
    text = "shape需要与输入x1/x2一致，或者是二维并且第一维等于x1除了最后一维的维度乘积，第二维等于x1的最后一维。"
    rule = either_rule(text, ctx, _resolve)
    assert rule is not None
    assert [(a.kind, a.params, a.dims) for a in rule.alternatives] == [
        ("same", ("x1",), ()),
        ("explicit", (), ("prod(x1.shape[:-1])", "x1.shape[-1]")),
    ]
    # x1 (2, 3, 8): y1Out (2, 3, 8) or (6, 8); the document's call, x1 (2, 8): both (2, 8), allocated
    shapes, values = {"x1": (2, 3, 8)}, {"x1": TensorDesc((2, 3, 8), "FLOAT16")}
    assert _shapes.output_shapes(plain_rule(rule), shapes, values) == ((2, 3, 8), (6, 8))
    assert _shapes.allocation_shape(plain_rule(rule), {"x1": (2, 8)}, {"x1": TensorDesc((2, 8), "FLOAT16")}) == (2, 8)
    scale = "shape需要与输入x1除最后一维后的shape一致，或者与x1除了最后一维的乘积一致。"
    rule = either_rule(scale, ctx, _resolve)
    assert rule is not None and [a.dims for a in rule.alternatives][1] == ("prod(x1.shape[:-1])",)
    # an error row's 或者 is no alternative shape; nor a product of a tensor that is not an input
    assert either_rule("shape超过8维，或者两者shape不一致", ctx, _resolve) is None
    assert either_rule("shape需要与x1一致，或者与y除了最后一维的乘积一致", ctx, _resolve) is None


def test_an_axis_that_is_the_last_or_not_and_numbered_leading_dimensions():
    # aclnnSwigluMxQuant (ops-nn): x is `[X1,X2,...Xn,2H]`; yOut's row, two statements
    texts = [
        "当activateDim对应的x的尾轴时，shape为[X1,X2,...Xn,H]。",
        "当activateDim对应的不是x的尾轴时，shape为[X1,X2,...,XactivateDim / 2,...,2H]。",
        "当yOut的数据类型为FLOAT4_E2M1、FLOAT4_E1M2时，yOut的最后一维需要是2的倍数。",  # no shape: no case
    ]
    names = ("yOut", "x", "activateDim")
    lists = (("x", ("X1", "X2", "...Xn", "2H")),)
    ctx = ShapeContext(names, ("x",), "yOut", tensors=("yOut", "x"), lists=lists)
    rule = alternatives_rule(texts, ctx, Known({"x": "tensor", "activateDim": "int"}), _resolve)
    assert rule is not None
    tail, other = rule.alternatives
    assert (tail.dims, tail.when) == (("*x.shape[:-1]", "x.shape[-1] / 2"), ("activateDim", "last", "x", "true"))
    assert (other.kind, other.when) == ("not_derivable", ("activateDim", "last", "x", "false"))
    # the document's call: x (2, 64), activateDim -1: yOut (2, 32); another axis: unchecked
    x = TensorDesc((2, 64), "BFLOAT16")
    assert _shapes.output_shapes(plain_rule(rule), {"x": (2, 64)}, {"x": x, "activateDim": -1}) == ((2, 32),)
    assert _shapes.output_shapes(plain_rule(rule), {"x": (2, 64)}, {"x": x, "activateDim": 1}) == ((2, 32),)
    assert _shapes.output_shapes(plain_rule(rule), {"x": (2, 64)}, {"x": x, "activateDim": 0}) is None
    # scaleOut's `[X1,X2,...,Xn]`: x's leading dimensions alone (aclnnDequantSwigluQuantV2)
    scale = alternatives_rule(
        ["当activateDim对应的x的尾轴时，shape为[X1,X2,...,Xn]。", "当activateDim对应的不是x的尾轴时，shape为[1]。"],
        ctx,
        Known({"x": "tensor", "activateDim": "int"}),
        _resolve,
    )
    assert scale is not None and scale.alternatives[0].dims == ("*x.shape[:-1]",)
    # a list whose numbered run names another symbol than the input's is not read through it
    other_run = alternatives_rule(
        ["当activateDim对应的x的尾轴时，shape为[Y1,Y2,...Yn,H]。", "当activateDim对应的不是x的尾轴时，shape为[1]。"],
        ctx,
        Known({"x": "tensor", "activateDim": "int"}),
        _resolve,
    )
    assert other_run is not None and other_run.alternatives[0].kind == "not_derivable"
    # an axis that is no integer parameter leads no case
    assert alternatives_rule(texts[:2], ctx, Known({"x": "tensor", "activateDim": "string"}), _resolve) is None


def test_a_dtype_case_of_the_one_tensor_that_allows_it():
    # aclnnFlatQuant (ops-nn), quantScale's row: `量化输出类型` names no tensor; only out allows
    # INT4, INT32 and FLOAT4_E2M1 (x: [M, N1, N2]; its error row: `INT4或INT32场景下quantScale的维度
    # 不为1，或者第一维度与x的第一维度不一致`)
    texts = [
        "量化输出类型为INT4或INT32时，shape为[M],M与x中M维度一致，数据类型为FLOAT32。",
        "量化输出类型为FLOAT4_E2M1时，shape为[M,ceildiv(N1*N2,64),2]，数据类型为FLOAT8_E8M0。",
    ]
    names = ("quantScale", "x", "out")
    ctx = ShapeContext(names, ("x",), "quantScale", tensors=names)
    dtypes = {"x": ("FLOAT16", "BFLOAT16"), "out": ("INT4", "INT32", "FLOAT4_E2M1"), "quantScale": ("FLOAT",)}
    known = Known(dict.fromkeys(names, "tensor"), dtypes)
    rule = alternatives_rule(texts, ctx, known, _resolve)
    assert rule is not None
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("M",), ("out", "dtype", "INT4", "true")),
        (("M",), ("out", "dtype", "INT32", "true")),
        (("M", "ceildiv(N1 * N2, 64)", "2"), ("out", "dtype", "FLOAT4_E2M1", "true")),
    ]
    # no tensor, or two, allow the dtypes named: not read
    assert alternatives_rule(texts, ctx, Known(known.kinds, {**dtypes, "out": ("INT8",)}), _resolve) is None
    assert alternatives_rule(texts, ctx, Known(known.kinds, {**dtypes, "x": dtypes["out"]}), _resolve) is None


V2_NOTES = [
    # aclnnAddRmsNormDynamicQuantV2 (ops-nn), 约束说明: when each output is valid
    "- 当outputMaskOptional[0]为True时，y1Out和scale1Out为有效输出；当outputMaskOptional[0]为False时，y1Out和scale1Out为无效输出。",
    "- 当outputMaskOptional[1]为True时，y2Out和scale2Out为有效输出；当outputMaskOptional[1]为False时，y2Out和scale2Out为无效输出。",
    "- 当outputMaskOptional为空时，y1Out和scale1Out始终为有效输出。",
    "- 当outputMaskOptional为空时，y2Out和scale2Out在smoothScale1Optional和smoothScale2Optional均有效时为有效输出，否则为无效输出。",
]
V2_KINDS = {
    "x1": "tensor",
    "smoothScale1Optional": "tensor",
    "smoothScale2Optional": "tensor",
    "outputMaskOptional": "bool_array",
    "scale2Out": "tensor",
    "y1Out": "tensor",
}


def test_a_valid_or_invalid_output_by_what_the_constraints_section_says():
    # aclnnAddRmsNormDynamicQuantV2 (ops-nn), scale2Out's row: valid is one shape or another, else [1]
    text = (
        "如果此输出为有效输出，shape需要与x1除了最后一维后的shape一致，或者与x1除了最后一维的乘积一致；否则shape为[1]。"
    )
    names = tuple(V2_KINDS)
    ctx = ShapeContext(names, ("x1", "smoothScale1Optional", "smoothScale2Optional"), "scale2Out", tensors=names)
    rule = alternatives_rule([text], ctx, Known(V2_KINDS, notes=V2_NOTES), _resolve)
    assert rule is not None
    both = ("smoothScale1Optional", "given", "", "true", "smoothScale2Optional", "given", "", "true")
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("*x1.shape[:-1]",), ("outputMaskOptional[1]", "bool", "true", "true")),
        (("*x1.shape[:-1]",), ("outputMaskOptional", "given", "", "false", *both)),
        (("prod(x1.shape[:-1])",), ("outputMaskOptional[1]", "bool", "true", "true")),
        (("prod(x1.shape[:-1])",), ("outputMaskOptional", "given", "", "false", *both)),
        (("1",), ("outputMaskOptional[1]", "bool", "false", "true")),
        (("1",), ("outputMaskOptional", "given", "", "false", "smoothScale1Optional", "given", "", "false")),
        (("1",), ("outputMaskOptional", "given", "", "false", "smoothScale2Optional", "given", "", "false")),
    ]
    x1, scale = TensorDesc((2, 3, 8), "FLOAT16"), TensorDesc((8,), "FLOAT16")
    shapes = {"x1": (2, 3, 8)}
    # the document's call: no mask, both smooth scales: valid, (2, 3) or (6,)
    given = {"x1": x1, "outputMaskOptional": None, "smoothScale1Optional": scale, "smoothScale2Optional": scale}
    assert _shapes.output_shapes(plain_rule(rule), shapes, given) == ((2, 3), (6,))
    # the mask's second element false: invalid, [1]
    masked = {**given, "outputMaskOptional": [True, False]}
    assert _shapes.output_shapes(plain_rule(rule), shapes, masked) == ((1,),)
    # no mask and one smooth scale null: invalid
    assert _shapes.output_shapes(plain_rule(rule), shapes, {**given, "smoothScale2Optional": None}) == ((1,),)
    # the last statement alone says both when it is valid and when not: read
    assert alternatives_rule([text], ctx, Known(V2_KINDS, notes=V2_NOTES[3:]), _resolve) is not None
    # one that says when it is valid but not when not (y1Out's `始终为有效输出`): not read
    y1 = ShapeContext(names, ctx.inputs, "y1Out", tensors=names)
    assert alternatives_rule([text], y1, Known(V2_KINDS, notes=[V2_NOTES[2]]), _resolve) is None
    # no constraints section: the state is not read
    assert alternatives_rule([text], ctx, Known(V2_KINDS), _resolve) is None


def _values(x: tuple[int, ...], **more: object) -> dict[str, object]:
    return {"x": TensorDesc(x, "FLOAT16"), **more}


def test_the_other_dtypes_case_holds_where_no_case_before_it_does():
    # aclnnAscendQuant (ops-nn), y's row: INT32 packs eight INT4 values
    text = "数据类型为INT32时，shape的最后一维是x最后一维的1/8，其余维度和x一致；其他类型时，shape与x一致。"
    names = ("y", "x")
    ctx = ShapeContext(names, ("x",), "y", tensors=names)
    known = Known(dict.fromkeys(names, "tensor"), {"y": ("INT8", "INT32"), "x": ("FLOAT16",)})
    rule = alternatives_rule([text], ctx, known, _resolve)
    assert rule is not None
    assert [(a.kind, a.when) for a in rule.alternatives] == [
        ("explicit", ("y", "dtype", "INT32", "true")),
        ("same", ("y", "dtype", "INT32", "false")),
    ]
    packed = {**_values((4, 16)), "y": TensorDesc((), "INT32")}
    assert _shapes.output_shapes(plain_rule(rule), {"x": (4, 16)}, packed) == ((4, 2),)
    assert _shapes.output_shapes(plain_rule(rule), {"x": (4, 16)}, {**packed, "y": TensorDesc((), "INT8")}) == (
        (4, 16),
    )
    # `其他类型时` with no case before it, or after a case of two conditions: not read
    assert alternatives_rule(["其他类型时，shape与x一致。"], ctx, known, _resolve) is None
    two = "当y的数据类型为INT32且x的shape为2维时，shape为(1,)；其他类型时，shape与x一致。"
    assert alternatives_rule([two], ctx, known, _resolve) is None


def test_a_dtype_of_an_input_said_as_its_type():
    # aclnnAscendAntiQuant (ops-nn), y's row: the INT32 case's words are not read, the other is
    text = "当输入x为INT32类型时，shape尾轴的大小为输入x的尾轴大小的8倍，其余情况shape与输入x一致。"
    names = ("y", "x")
    ctx = ShapeContext(names, ("x",), "y", tensors=names)
    known = Known(dict.fromkeys(names, "tensor"), {"x": ("INT8", "INT32"), "y": ("FLOAT16",)})
    rule = alternatives_rule([text], ctx, known, _resolve)
    assert rule is not None
    assert [(a.kind, a.when) for a in rule.alternatives] == [
        ("not_derivable", ("x", "dtype", "INT32", "true")),
        ("same", ("x", "dtype", "INT32", "false")),
    ]
    # a packed x: unchecked; another dtype: x's shape
    assert _shapes.output_shapes(plain_rule(rule), {"x": (4, 2)}, {"x": TensorDesc((4, 2), "INT32")}) is None
    assert _shapes.output_shapes(plain_rule(rule), {"x": (4, 2)}, {"x": TensorDesc((4, 2), "INT8")}) == ((4, 2),)
    # a name that is no tensor's: not read
    assert alternatives_rule([text.replace("输入x为", "输入z为")], ctx, known, _resolve) is None


def test_a_0d_case_and_a_rank_case():
    # aclnnL1Loss (ops-nn), out's row
    text = (
        "当reduction的值为0时，out的shape与self和targetbroadcast后的shape一致；当reduction的值不为0时，"
        "out的shape只支持0维。"
    )
    rule = _read([text], ("self", "target"), {"reduction": "int"})
    assert rule is not None
    assert [(a.kind, a.dims, a.when) for a in rule.alternatives] == [
        ("broadcast", (), ("reduction", "value", "0", "true")),
        ("explicit", (), ("reduction", "value", "0", "false")),
    ]
    shapes = {"self": (2, 2), "target": (2, 2)}
    assert _shapes.output_shapes(plain_rule(rule), shapes, {"reduction": 1}) == ((),)
    # aclnnCtcLoss (ops-nn), negLogLikelihoodOut's row: a rank said without `的shape`
    ctc = "当logProbs为3维时，negLogLikelihoodOut的shape为(N)的Tensor，否则negLogLikelihoodOut为0维Tensor。"
    rule = _read([ctc], ("logProbs",), {}, subject="negLogLikelihoodOut")
    assert rule is not None
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("N",), ("logProbs", "rank", "3", "true")),
        ((), ("logProbs", "rank", "3", "false")),
    ]
    # a range of ranks is no 0-d shape: that case stays unread (unchecked)
    ranks = _read(["当reduction的值为0时，shape与self一致；否则shape支持0-8维。"], ("self",), {"reduction": "int"})
    assert ranks is not None and ranks.alternatives[1].kind == "not_derivable"


def test_an_optional_input_present_or_not_and_an_axis_dropped():
    # aclnnSwigluMxQuantWithDualAxis (ops-nn), mxscale2Out's row
    texts = [
        "当groupIndexOptional存在时，shape为[floor(M/64)+G, N, 2]。",
        "当groupIndexOptional不存在时，shape为[ceil(M/64), N, 2]。",
    ]
    rule = _read(texts, ("x", "groupIndexOptional"), {}, subject="mxscale2Out")
    assert rule is not None
    assert [a.when for a in rule.alternatives] == [
        ("groupIndexOptional", "given", "", "true"),
        ("groupIndexOptional", "given", "", "false"),
    ]
    # a name that is no input's: not read
    assert _read(texts, ("x",), {}, subject="mxscale2Out") is None
    # aclnnDynamicQuantV3 (ops-nn), scaleOut's row: x's shape without the axis before its last
    cases = [
        "quantMode是pertoken时，shape为x的shape剔除最后一维。",
        "quantMode是pertensor时，shape为(1,)。",
        "quantMode是perchannel时，shape为x的shape剔除倒数第二维。",
    ]
    rule = _read(cases, ("x",), {"quantMode": "string"}, subject="scaleOut")
    assert rule is not None
    assert [a.dims for a in rule.alternatives] == [("*x.shape[:-1]",), ("1",), ("*x.shape[:-2]", "x.shape[-1]")]
    per_channel = _values((4, 3, 2), quantMode="perchannel")
    assert _shapes.output_shapes(plain_rule(rule), {"x": (4, 3, 2)}, per_channel) == ((4, 2),)
    # the axis dropped from a tensor that is no input: that case is not read
    other = _read([*cases[:2], cases[2].replace("x的shape", "y的shape")], ("x",), {"quantMode": "string"}, "scaleOut")
    assert other is not None and other.alternatives[2].kind == "not_derivable"


def test_a_bool_that_chooses_the_shape_does_not_say_when_the_output_is_written():
    from specgen.parse.classify.shapes import _chooses

    # aclnnBidirectionLSTM (ops-nn), yOut's row: `shape支持三维（time_step, batch_size, hidden_size）或者当
    # bidirection为True时（time_step, batch_size, 2 * hidden_size）`: the shape for either value
    dims = ("time_step", "batch_size", "2 * hidden_size if bidirection else hidden_size")
    lstm = ShapeRule(kind="explicit", dims=dims, line=1)
    assert _chooses(lstm, ("bidirection", "", "true"))
    # aclnnBatchNormReduceBackward (ops-nn), gradBias's row: `如果biasG为True则输出`: written or not
    bias = ShapeRule(kind="explicit", dims=("input.shape[1]",), line=1)
    assert not _chooses(bias, ("biasG", "", "true"))
    # a name that is only part of another (`bidirectionMode`), or an element of an array: no choice
    assert not _chooses(ShapeRule(kind="explicit", dims=("bidirectionMode",), line=1), ("bidirection", "", "true"))
    assert not _chooses(ShapeRule(kind="explicit", dims=("mask[0]",), line=1), ("mask", "0", "true"))


def test_an_unnamed_dtype_is_the_rows_own_and_the_other_dtypes_case_may_stand_alone():
    # aclnnGroupQuant (ops-nn), y's row: two statements; groupIndex allows INT32 too
    texts = ["类型为INT32时，shape的最后一维是`x`最后一维的1/8，其余维度和x一致。", "其他类型时，shape与`x`一致。"]
    names = ("y", "x", "groupIndex")
    ctx = ShapeContext(names, ("x", "groupIndex"), "y", tensors=names)
    dtypes = {"y": ("INT8", "INT32", "INT4"), "x": ("FLOAT16",), "groupIndex": ("INT32", "INT64")}
    known = Known(dict.fromkeys(names, "tensor"), dtypes)
    rule = alternatives_rule(texts, ctx, known, _resolve)
    assert rule is not None
    assert [a.when for a in rule.alternatives] == [("y", "dtype", "INT32", "true"), ("y", "dtype", "INT32", "false")]
    # `量化输出类型` speaks of another tensor than the row's: the one that allows the dtype, here two
    quantized = ["量化输出类型为INT32时，shape为[M]。", "其他类型时，shape与`x`一致。"]
    assert alternatives_rule(quantized, ctx, known, _resolve) is None


def test_a_shape_whose_symbol_one_form_of_an_input_defines(corpus):
    # aclnnMultilabelMarginLoss (ops-nn): out `shape为(N)或者()`, self `shape为(N,C)或者(C)，其中N表示batch
    # size`: (N) holds where self has 2 dimensions (N its axis 0); reduction `支持0(none)|1(mean)|2(sum)`
    # keys the two (the formula: none gives {l_1, …, l_N}, mean and sum add them up)
    fn = _corpus_function(corpus, "aclnnMultilabelMarginLoss", "aclnnMultilabelMarginLoss")
    out = next(p for p in fn.params if p.name == "out")
    assert out.shape_rule is not None and out.shape_rule.kind == "one_of"
    rule = plain_rule(out.shape_rule)
    values = call_values(fn, fn.sample_call)
    assert values is not None and values["out"].shape == (2,)  # self (2, 3), reduction 0
    shapes = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in values.items()}
    assert _shapes.output_shapes(rule, shapes, values) == ((2,),)
    assert _shapes.shape_allowed(rule, shapes, values, (3,)) == ((2,),)
    assert _shapes.allocation_shape(rule, shapes, values) == (2,)
    summed = {**values, "reduction": 2}
    assert _shapes.output_shapes(rule, shapes, summed) == ((),)
    # a 1-d self: (N) is unread there, so nothing is checked
    flat = {**values, "self": TensorDesc((3,), "FLOAT")}
    assert _shapes.output_shapes(rule, {**shapes, "self": (3,)}, flat) is None
    # isTarget `(N，C)或者(C)`: the lists self and target both give, 或 for 或: either's shape,
    # allocated where they agree (self 2-d beside target 1-d leaves the words undecided)
    is_target = next(p for p in fn.params if p.name == "isTarget")
    assert is_target.shape_rule is not None and is_target.shape_rule.kind == "one_of"
    mask = plain_rule(is_target.shape_rule)
    assert _shapes.allocation_shape(mask, shapes, values) == (2, 3)
    assert _shapes.allocation_shape(mask, {**shapes, "target": (3,)}, values) is None
    assert _shapes.shape_allowed(mask, {**shapes, "target": (3,)}, values, (3,)) is None  # target's
    assert _shapes.shape_allowed(mask, shapes, values, (3,)) == ((2, 3),)


def test_an_output_listing_an_inputs_shapes_or_for_or_has_its_shape_and_no_other_statement_does():
    from specgen.parse.classify.shapes import Statement, _listed_alike

    # aclnnMultilabelMarginLoss (ops-nn): isTarget's row and self's
    said = [Statement("shape为(N，C)或者(C)", 1)]
    statements = {"self": [Statement("shape为(N,C)或者(C)，其中N表示batch size，C表示类别数。", 2)]}
    rule = _listed_alike(said, statements, ("self", "target"))
    assert rule is not None and (rule.kind, rule.params) == ("same", ("self",))
    # another order, one list alone, or words beside the lists (aclnnAdaLayerNormBackward
    # gradScaleOut `shape与scale的shape相等，为[B…, H]或[B…, 1, H]`): not this reader's
    assert _listed_alike([Statement("shape为(C)或者(N，C)", 1)], statements, ("self",)) is None
    assert _listed_alike([Statement("shape为(N，C)", 1)], statements, ("self",)) is None
    scale = {"scale": [Statement("shape为[B…, H]或[B…, 1, H]。", 2)]}
    worded = [Statement("shape与scale的shape相等，为[B…, H]或[B…, 1, H]。", 1)]
    assert _listed_alike(worded, scale, ("scale",)) is None
    # aclnnSwigluGroupGrad (ops-nn): gradWeightOutOptional `shape=[T, 1]或[B, S, 1]`, as weightOptional's
    # own statement says, which its rank cell `2或3 ([T, 1]或[B, S, 1])` repeats; gradY lists [T, H]
    weight = [Statement("shape=[T, 1]或[B, S, 1]。", 2), Statement("2或3 ([T, 1]或[B, S, 1])", 2)]
    grad = [Statement("shape=[T, H]或[B, S, H]。", 3), Statement("2或3 ([T, H]或[B, S, H])", 3)]
    inputs = {"gradY": grad, "weightOptional": weight}
    rule = _listed_alike([Statement("shape=[T, 1]或[B, S, 1]。", 1)], inputs, ("gradY", "weightOptional"))
    assert rule is not None and (rule.kind, rule.params) == ("same", ("weightOptional",))
    assert _listed_alike([Statement("shape=[T, 2]或[B, S, 2]。", 1)], inputs, ("gradY", "weightOptional")) is None


def test_presence_reads_optionals_given_or_null_in_every_wording_the_documents_use():
    names = {"quantScaleOptional", "x1Scale", "x2Scale", "scale"}
    # aclnnWeightQuantBatchMatmulV2 `当`quantScaleOptional`存在时`; aclnnTransposeQuantBatchMatMul
    # `x1Scale和x2Scale不为None`; aclnnTransposeBatchMatMul `scale为None`
    assert presence("`quantScaleOptional`存在", names) == ("quantScaleOptional", "given", "", "true")
    assert presence("quantScaleOptional不存在", names) == ("quantScaleOptional", "given", "", "false")
    assert presence("x1Scale和x2Scale不为None", names) == (
        *("x1Scale", "given", "", "true"),
        *("x2Scale", "given", "", "true"),
    )
    assert presence("scale为None", names) == ("scale", "given", "", "false")
    assert presence("scale非空", names) == ("scale", "given", "", "true")
    # a name the caller does not know, or a condition on something else, is not a presence
    assert presence("x1Scale和offset不为None", names) is None
    assert presence("scale为INT8", names) is None


def test_an_aside_in_brackets_is_no_case_and_a_size_is_the_larger_of_two():
    # aclnnTransQuantParamV3 (ops-nn), out's row: `(若不为nullptr)` qualifies offset, it opens no case
    text = (
        "当输入scale的shape为1维时，out的shape也为1维，该维度的shape大小为scale与offset(若不为nullptr)单维shape大小"
        "的最大值，当输入scale的shape为2维时，out的shape与输入scale的shape维度和大小完全一致。"
    )
    rule = _read([text], ("scale", "offset"), {"roundMode": "int"})
    assert rule is not None and rule.kind == "one_of"
    assert [(a.kind, a.params, a.dims, a.when) for a in rule.alternatives] == [
        ("explicit", (), ("max(scale.shape[0], offset.shape[0])",), ("scale", "rank", "1", "true")),
        ("same", ("scale",), (), ("scale", "rank", "2", "true")),
    ]
    plain = plain_rule(rule)
    one, two = TensorDesc((1,), "FLOAT"), TensorDesc((5,), "FLOAT")
    assert _shapes.output_shapes(plain, {"scale": (1,), "offset": (5,)}, {"scale": one, "offset": two}) == ((5,),)
    assert _shapes.output_shapes(plain, {"scale": (5,), "offset": (1,)}, {"scale": two, "offset": one}) == ((5,),)
    wide = TensorDesc((1, 5), "FLOAT")
    assert _shapes.output_shapes(plain, {"scale": (1, 5), "offset": None}, {"scale": wide, "offset": None}) == ((1, 5),)
    # offset null with a 1-d scale: the size is not settled, so the output is neither checked nor allocated
    values = {"scale": two, "offset": None}
    assert _shapes.shape_allowed(plain, {"scale": (5,), "offset": None}, values, (9,)) is None
    assert _shapes.allocation_shape(plain, {"scale": (5,), "offset": None}, values) is None


def test_cases_keyed_by_a_dtype_are_the_dtype_of_the_tensor_that_allows_it_and_others():
    # aclnnDequantSituQuant (ops-nn), yScaleOut's row: yScaleOut is FLOAT and yOut INT8 alone; x
    # allows INT8, INT32, BF16 and FLOAT16, so `INT8:` is x's dtype; M is bound by no input
    text = "INT8: shape为x.shape[:-1]；其他: shape为[M]。"
    names = ("yScaleOut", "x", "yOut")
    ctx = ShapeContext(names, ("x",), "yScaleOut", tensors=names)
    dtypes = {"x": ("INT8", "INT32", "BFLOAT16", "FLOAT16"), "yOut": ("INT8",), "yScaleOut": ("FLOAT",)}
    known = Known(dict.fromkeys(names, "tensor"), dtypes)
    rule = alternatives_rule([text], ctx, known, _resolve)
    assert rule is not None
    assert [(a.dims, a.when) for a in rule.alternatives] == [
        (("*x.shape[:-1]",), ("x", "dtype", "INT8", "true")),
        (("M",), ("x", "dtype", "INT8", "false")),
    ]
    int8 = {"x": TensorDesc((16, 64), "INT8")}
    assert _shapes.output_shapes(plain_rule(rule), {"x": (16, 64)}, int8) == ((16,),)
    # two tensors that allow INT8 and more, or only one that allows INT8 alone: no key, not read
    both = Known(known.kinds, {**dtypes, "yOut": ("INT8", "INT32")})
    assert alternatives_rule([text], ctx, both, _resolve) is None
    alone = Known(known.kinds, {**dtypes, "x": ("INT8",)})
    assert alternatives_rule([text], ctx, alone, _resolve) is None
    # a key that is no dtype (a layout), or `其他:` with no case before it: not read
    assert alternatives_rule(["ND: shape为x.shape[:-1]；其他: shape为[M]。"], ctx, known, _resolve) is None
    assert alternatives_rule(["其他: shape为[M]。"], ctx, known, _resolve) is None


def test_a_layout_case_reorders_the_inputs_axes_and_the_other_layouts_keep_its_shape():
    # PromptFlashAttentionV2.md (doc-site dialect, corpus/docs/legacy) attentionOut, line 133;
    # its sample (inputLayout "BNSD"): queryShape {batchSize, numHeads, sequenceLengthQ, headDims},
    # outShape the same
    text = (
        "限制：当inputLayout为BNSD_BSND时，输入query的shape是BNSD，输出shape为BSND；"
        "其余情况该入参的shape需要与入参query的shape保持一致。"
    )
    rule = _read([text], ("query", "key"), {"inputLayout": "string"}, "attentionOut")
    assert rule is not None and rule.kind == "one_of"
    assert [(a.kind, a.dims, a.params, a.when) for a in rule.alternatives] == [
        (
            "explicit",
            ("query.shape[0]", "query.shape[2]", "query.shape[1]", "query.shape[3]"),
            (),
            ("inputLayout", "value", "BNSD_BSND", "true"),
        ),
        ("same", (), ("query",), ("inputLayout", "value", "BNSD_BSND", "false")),
    ]
    plain = rule.model_dump(mode="json")
    query = TensorDesc((1, 2, 3, 4), "FLOAT16")
    shapes = {"query": (1, 2, 3, 4)}
    assert _shapes.output_shapes(plain, shapes, {"query": query, "inputLayout": "BNSD"}) == ((1, 2, 3, 4),)
    assert _shapes.output_shapes(plain, shapes, {"query": query, "inputLayout": "BNSD_BSND"}) == ((1, 3, 2, 4),)
    # the case alone, with no other case after it: one case is no set of alternatives
    assert _read([text.split("；")[0]], ("query",), {"inputLayout": "string"}, "attentionOut") is None
