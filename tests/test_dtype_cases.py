"""Output dtypes the document gives case by case (`DtypeRule` kind "cases"): the readers on
the documents' own sentences and tables, the allocation and the validator's check, and the
corpus documents' sample calls against the cases read from them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from specgen.codegen import cases
from specgen.codegen.runtime import _shapes
from specgen.codegen.runtime._tensor import TensorDesc, describe
from specgen.model import Constraint, Param
from specgen.parse.classify.dtype_rules import case_rule
from specgen.parse.classify.shapes import dtype_rule


@dataclass(frozen=True)
class Line:
    text: str
    line: int


def _tensor(name, direction, dtypes, optional=False):
    constraints = (Constraint(kind="dtypes", text="、".join(dtypes), line=1, values=tuple(dtypes)),)
    c_type = "aclTensor*" if direction == "out" else "const aclTensor*"
    kind = dict(constraints=constraints, optional=optional, line=1)
    return Param(name=name, c_type=c_type, kind="tensor", direction=direction, **kind)


def _notes(*texts):
    return [Line(t, 400 + i) for i, t in enumerate(texts)]


# aclnnWeightQuantBatchMatmulV2 (ops-nn), 约束说明, line 386: the output's own bullet
WQBMM_Y = (
    "  - `y`（aclTensor *,计算输出）：维度支持2维，shape支持(m, n)。数据类型支持FLOAT16、BFLOAT16、INT8。"
    "当`quantScaleOptional`存在时，数据类型为INT8；当`quantScaleOptional`不存在时，数据类型支持FLOAT16、"
    "BFLOAT16，且与输入`x`的数据类型一致。"
)


def _wqbmm(y_text=WQBMM_Y):
    x = _tensor("x", "in", ["FLOAT16", "BFLOAT16"])
    quant = _tensor("quantScaleOptional", "in", ["UINT64"], optional=True)
    y = _tensor("y", "out", ["FLOAT16", "BFLOAT16", "INT8"])
    return [x, quant, y], _notes("  - `x`（aclTensor *,计算输入）：矩阵为非转置时…", y_text)


def _dtype(rule, **args):
    dtypes = {n: describe(v).dtype if isinstance(v, np.ndarray) else None for n, v in args.items()}
    return _shapes.output_dtype(cases.plain_rule(rule), dtypes, args)


def test_a_statement_gives_the_dtype_by_an_inputs_presence():
    params, notes = _wqbmm()
    rule = dtype_rule(params[2], params, [], notes)
    assert rule.kind == "cases" and rule.line == 401
    assert [(c.kind, c.values, c.params, c.when) for c in rule.alternatives] == [
        ("fixed", ("INT8",), (), ("quantScaleOptional", "given", "", "true")),
        ("same", (), ("x",), ("quantScaleOptional", "given", "", "false")),
    ]
    x = np.zeros((2, 3), np.float16)
    assert _dtype(rule, x=x, quantScaleOptional=np.zeros(1, np.uint64)) == "INT8"
    assert _dtype(rule, x=x, quantScaleOptional=None) == "FLOAT16"
    # a call that does not say whether the optional is given settles no case
    assert _dtype(rule, x=x) is None
    # nor one whose case takes the dtype of an input it does not give as a tensor
    assert _dtype(rule, x=None, quantScaleOptional=None) is None


def test_a_statement_naming_no_parameter_or_no_dtype_gives_no_case():
    # the clause names a parameter the function does not have
    params, notes = _wqbmm(WQBMM_Y.replace("当`quantScaleOptional`不存在时", "当`quantScale`不存在时"))
    assert dtype_rule(params[2], params, [], notes).kind == "not_derivable"
    # a clause that gives no dtype (`数据类型支持FLOAT16、BFLOAT16` alone) leaves the statement unread
    params, notes = _wqbmm(WQBMM_Y.replace("，且与输入`x`的数据类型一致", ""))
    assert dtype_rule(params[2], params, [], notes).kind == "not_derivable"
    # another parameter's bullet says nothing of y
    params, notes = _wqbmm(WQBMM_Y.replace("`y`（", "`x`（"))
    assert case_rule(params[2], params, notes) is None


# aclnnQuantMatmulV3 (ops-nn), 约束说明: the Atlas A2/A3 table of dtype combinations
QMM_TABLE = (
    "| x1 | x2 | scale | offset | bias | out |",
    "| ------- | ------- | ------ | ------ | ------- | ------- |",
    "| INT8 | INT8 | UINT64/INT64 | null | null/INT32  |  FLOAT16 |",
    "| INT8 | INT8 | UINT64/INT64 | null/FLOAT32 | null/INT32  |  INT8 |",
    "| INT8 | INT8 | FLOAT32/BFLOAT16 | null | null/INT32/BFLOAT16/FLOAT32  |  BFLOAT16 |",
    "| INT4/INT32 | INT4/INT32 | UINT64/INT64 | null | null/INT32  |  FLOAT16 |",
    "| INT8 | INT8 | FLOAT32/BFLOAT16 | null | null/INT32  | INT32 |",
)


def _qmm():
    x1, x2 = (_tensor(n, "in", ["INT8", "INT4", "INT32"]) for n in ("x1", "x2"))
    scale = _tensor("scale", "in", ["UINT64", "INT64", "FLOAT", "BFLOAT16"])
    offset = _tensor("offset", "in", ["FLOAT"], optional=True)
    bias = _tensor("bias", "in", ["INT32", "BFLOAT16", "FLOAT"], optional=True)
    out = _tensor("out", "out", ["FLOAT16", "INT8", "BFLOAT16", "INT32"])
    return [x1, x2, scale, offset, bias, out]


def test_a_combination_table_gives_the_dtype_where_every_matching_row_agrees():
    params = _qmm()
    rule = dtype_rule(params[-1], params, [], _notes(*QMM_TABLE))
    assert rule.kind == "cases" and len(rule.alternatives) == 5
    assert rule.alternatives[0].when[:8] == ("x1", "dtype", "INT8", "true", "x2", "dtype", "INT8", "true")
    i4, i8 = np.zeros((2, 2), np.int32), np.zeros((2, 2), np.int8)
    u64, f32 = np.zeros(2, np.uint64), np.zeros(2, np.float32)
    # INT32-packed INT4 operands: one row, FLOAT16
    assert _dtype(rule, x1=i4, x2=i4, scale=u64, offset=None, bias=None) == "FLOAT16"
    # INT8 with a UINT64 scale and no offset: FLOAT16 or INT8 — the caller's, never guessed
    assert _dtype(rule, x1=i8, x2=i8, scale=u64, offset=None, bias=None) is None
    # an offset given leaves the INT8 row alone
    assert _dtype(rule, x1=i8, x2=i8, scale=u64, offset=f32, bias=None) == "INT8"
    # a FLOAT scale: BFLOAT16 or INT32
    assert _dtype(rule, x1=i8, x2=i8, scale=f32, offset=None, bias=None) is None
    # dtypes no row lists: no case holds, the dtype stays the caller's
    assert _dtype(rule, x1=i8, x2=i4, scale=u64, offset=None, bias=None) is None


def test_a_table_whose_output_cell_is_not_a_dtype_gives_no_case():
    params = _qmm()
    rows = (*QMM_TABLE[:-1], "| INT8 | INT8 | FLOAT32/BFLOAT16 | null | null/INT32  | 见说明 |")
    assert case_rule(params[-1], params, _notes(*rows)) is None
    # a table without the output's column, or without an input's, speaks of other things
    assert case_rule(params[-1], params, _notes(*(r.rsplit("|", 2)[0] + "|" for r in QMM_TABLE))) is None
    # a row whose output dtype the output does not allow
    rows = (*QMM_TABLE[:-1], "| INT8 | INT8 | FLOAT32/BFLOAT16 | null | null/INT32  | DOUBLE |")
    assert case_rule(params[-1], params, _notes(*rows)) is None


def test_an_optional_column_that_never_says_null_leaves_its_absence_open():
    # aclnnAddRmsNormQuant (ops-nn): scales2Optional's column lists dtypes only
    x1 = _tensor("x1", "in", ["FLOAT16", "BFLOAT16"])
    scales2 = _tensor("scales2Optional", "in", ["FLOAT", "BFLOAT16"], optional=True)
    y = _tensor("y1Out", "out", ["INT8", "HIFLOAT8"])
    table = (
        "| x1数据类型 | scales2Optional数据类型 | y1Out数据类型 |",
        "| --- | --- | --- |",
        "| FLOAT16 | FLOAT | INT8 |",
        "| BFLOAT16 | BFLOAT16 | INT8 |",
    )
    rule = case_rule(y, [x1, scales2, y], _notes(*table))
    assert rule is not None
    f16 = np.zeros(2, np.float16)
    assert _dtype(rule, x1=f16, scales2Optional=None) == "INT8"
    assert _dtype(rule, x1=f16, scales2Optional=np.zeros(2, np.float32)) == "INT8"


def test_allocation_takes_the_cases_dtype_or_the_callers():
    params, notes = _wqbmm()
    rule = cases.plain_rule(dtype_rule(params[2], params, [], notes))
    shape = {"kind": "same", "params": ["x"]}
    x = np.zeros((2, 3), np.float16)
    assert _shapes.allocate("y", shape, rule, {"x": x, "quantScaleOptional": None}).dtype == np.float16
    quant = np.zeros(1, np.uint64)
    assert _shapes.allocate("y", shape, rule, {"x": x, "quantScaleOptional": quant}).dtype == np.int8
    qmm = cases.plain_rule(dtype_rule(_qmm()[-1], _qmm(), [], _notes(*QMM_TABLE)))
    i8, u64 = np.zeros((2, 2), np.int8), np.zeros(2, np.uint64)
    args = {"x1": i8, "x2": i8, "scale": u64, "offset": None, "bias": None}
    with pytest.raises(TypeError, match="the document.s cases give FLOAT16 or INT8; give its dtype as out_dtype"):
        _shapes.allocate("out", {"kind": "same", "params": ["x1"]}, qmm, args, keyword="out_dtype")
    chosen = _shapes.allocate("out", {"kind": "same", "params": ["x1"]}, qmm, args, dtype="INT8")
    assert chosen.dtype == np.int8


def test_the_check_holds_an_output_to_its_case_only_where_one_dtype_applies():
    qmm = cases.plain_rule(dtype_rule(_qmm()[-1], _qmm(), [], _notes(*QMM_TABLE)))
    i4, i8, u64 = np.zeros((2, 2), np.int32), np.zeros((2, 2), np.int8), np.zeros(2, np.uint64)
    one = {"x1": i4, "x2": i4, "scale": u64, "offset": None, "bias": None}
    dtypes = {n: describe(v).dtype if v is not None else None for n, v in one.items()}
    assert _shapes.dtype_allowed(qmm, dtypes, "FLOAT16", one) is True
    assert _shapes.dtype_allowed(qmm, dtypes, "INT8", one) is False
    several = {**one, "x1": i8, "x2": i8}
    dtypes = {n: describe(v).dtype if v is not None else None for n, v in several.items()}
    assert _shapes.dtype_allowed(qmm, dtypes, "INT32", several) is None  # lenient: unchecked


# the corpus functions whose output dtype is read by case (two by prose, the others by table)
CASED = {
    "aclnnWeightQuantBatchMatmulV2": "y",
    "aclnnWeightQuantBatchMatmulV3": "y",
    "aclnnQuantMatmulV3": "out",
    "aclnnQuantMatmulV4": "out",
    "aclnnRmsNormQuant": "y",
    "aclnnQuantMatmulV5": "out",  # its T-CG table's tie to x2Scale
    "aclnnAdaLayerNormQuant": "out",  # INT8 on Atlas A2/A3 only
    "aclnnDynamicQuant": "yOut",  # INT8 on Atlas 推理/训练 only
}


def test_the_corpus_sample_calls_meet_their_cases(corpus):
    from specgen.parse import parse_paths
    from specgen.review.lint_outputs import call_values, disagreements

    docs = parse_paths([corpus / "docs" / "ops-nn"])
    functions = {f.name: f for d in docs for f in d.functions if f.name in CASED}
    assert set(functions) == set(CASED)
    derived = {}
    for name, out in CASED.items():
        fn = functions[name]
        assert next(p for p in fn.params if p.name == out).dtype_rule.kind == "cases"
        values = call_values(fn, fn.sample_call) if fn.sample_call else None
        if values is None:
            continue
        assert [d for d in disagreements(fn, values) if d.what == "dtype"] == []
        rule = next(p for p in fn.params if p.name == out).dtype_rule
        dtypes = {n: v.dtype if isinstance(v, TensorDesc) else None for n, v in values.items()}
        derived[name] = (_shapes.output_dtype(cases.plain_rule(rule), dtypes, values), values[out].dtype)
    # the weight-quant samples pass no quantScaleOptional: y takes x's dtype, as the sample's y has
    for name in ("aclnnWeightQuantBatchMatmulV2", "aclnnWeightQuantBatchMatmulV3"):
        assert derived[name][0] == derived[name][1]
    # QuantMatmulV5's sample (T-CG: FLOAT8_E4M3FN x1, FLOAT4_E2M1 x2) gives x2Scale BFLOAT16: out BFLOAT16
    assert derived["aclnnQuantMatmulV5"] == ("BFLOAT16", "BFLOAT16")
    fn = functions["aclnnQuantMatmulV5"]
    values = call_values(fn, fn.sample_call)
    rule = cases.plain_rule(next(p for p in fn.params if p.name == "out").dtype_rule)
    dtypes = {n: v.dtype if isinstance(v, TensorDesc) else None for n, v in values.items()}
    # the validator holds the sample's out to x2Scale's dtype: FLOAT16, the row's other dtype, breaks it
    assert _shapes.dtype_allowed(rule, dtypes, "BFLOAT16", values) is True
    assert _shapes.dtype_allowed(rule, dtypes, "FLOAT16", values) is False
    # on no product named, the per-product remarks leave the dtype to the caller (the samples' INT8)
    assert derived["aclnnAdaLayerNormQuant"][0] is None and derived["aclnnDynamicQuant"][0] is None


def test_a_table_said_for_some_products_holds_on_them_where_the_product_is_known():
    # aclnnAddRmsNormDynamicQuant (ops-nn), 约束说明: INT8 on Atlas A2/A3; INT8, HIFLOAT8… on 950
    x1 = _tensor("x1", "in", ["FLOAT16", "BFLOAT16"])
    y = _tensor("y1Out", "out", ["INT8", "HIFLOAT8"])
    header = ("    | `x1`数据类型 | `y1Out`数据类型 |", "    | ----------- | -------------- |")
    notes = _notes(
        '  <!-- npu="A3,910b" id8 -->',
        *(h.strip() for h in header),
        "| FLOAT16     | INT8           |",
        "  <!-- end id8 -->",
        '  <!-- npu="950" id9 -->',
        *(h.strip() for h in header),
        "| FLOAT16     | INT8           |",
        "| FLOAT16     | HIFLOAT8           |",
        "  <!-- end id9 -->",
    )
    rule = case_rule(y, [x1, y], notes)
    assert rule is not None and rule.params == ("x1",)
    assert {c.when[:4] for c in rule.alternatives} == {
        ("", "product", "A3,910b", "true"),
        ("", "product", "950", "true"),
    }
    f16 = np.zeros(2, np.float16)
    assert _dtype(rule, x1=f16) is None  # no product: INT8 or HIFLOAT8
    assert _dtype(rule, x1=f16, **{_shapes.PRODUCT_KEY: "910b"}) == "INT8"
    assert _dtype(rule, x1=f16, **{_shapes.PRODUCT_KEY: "950"}) is None
    assert _dtype(rule, x1=f16, **{_shapes.PRODUCT_KEY: "310p"}) is None  # no table for it: unchecked
    # a wrapper given the product allocates y1Out in the one dtype the product's table gives
    plain, shape = cases.plain_rule(rule), {"kind": "same", "params": ["x1"]}
    assert _shapes.allocate("y1Out", shape, plain, {"x1": f16}, product="910B").dtype == np.int8
    with pytest.raises(TypeError, match="give INT8 or HIFLOAT8; give its dtype as y1_out_dtype"):
        _shapes.allocate("y1Out", shape, plain, {"x1": f16}, product="950", keyword="y1_out_dtype")
    with pytest.raises(ValueError, match="unknown product 'Atlas910'; the known products are 950, A3"):
        _shapes.allocate("y1Out", shape, plain, {"x1": f16}, product="Atlas910")


def test_the_validator_holds_the_output_to_its_products_case():
    from specgen.codegen.runtime._validate import ParamSpec, Rule, Spec, violations

    derive = {
        "kind": "cases",
        "params": ["x1"],
        "alternatives": [
            {"kind": "fixed", "values": ["INT8"], "when": ["", "product", "A3,910b", "true"]},
            {"kind": "one_of", "values": ["INT8", "HIFLOAT8"], "when": ["", "product", "950", "true"]},
        ],
    }
    params = (ParamSpec("x1", "tensor", "in"), ParamSpec("y1Out", "tensor", "out"))
    rule = Rule(161002, "output_dtype", ("y1Out", "x1"), "表", id="implied_output_dtype_y1Out", derive=derive)
    spec = Spec(function="aclnnXGetWorkspaceSize", params=params, rules=(rule,))
    args = {"x1": np.zeros(2, np.float16), "y1Out": np.zeros(2, np.float16)}
    assert [(r.id, why) for r, why in violations(spec, args, "910b")] == [
        ("implied_output_dtype_y1Out", "y1Out has dtype FLOAT16; the document's cases give INT8 for these x1")
    ]
    assert violations(spec, args, "950") == [] and violations(spec, args) == []
    assert violations(spec, {**args, "y1Out": np.zeros(2, np.int8)}, "A3") == []


# aclnnQuantMatmulV5 (ops-nn), 约束说明, the T-CG block (lines 950-964): the table gives the
# output BFLOAT16/FLOAT16, and a bullet after it ties the choice to x2Scale
QMM5_TCG = (
    "<summary><strong>T-CG量化场景约束：</strong></summary>",
    "- 输入和输出支持以下数据类型组合：",
    "| x1 | x2 | x1Scale | x2Scale | x2Offset | yScale | bias | out |",
    "| -- | -- | -- | -- | -- | -- | -- | -- |",
    "| FLOAT8_E4M3FN | FLOAT4_E2M1 | null | BFLOAT16/FLOAT16 | null | INT64/UINT64 | null | BFLOAT16/FLOAT16 |",
    "- x1、x2、x1Scale、x2Scale和groupSize的取值关系：",
    "|量化类型|x1 shape|x2 shape|x1Scale shape|x2Scale shape|yScale shape|[gsM，gsN，gsK]|groupSize|",
    "|-------|--------|--------|-------------|-------------|------------|---------------|--|",
    "|T-CG量化|(m, k)|(n, k)|null|(n, ceil(k / 32))|(1, n)|[0, 0, 32]/[1, 1, 32]|32/4295032864|",
    "- T-CG量化模式下，bias是预留参数，当前版本不支持，需要传入nullptr。",
    "- T-CG量化模式下，out和x2Scale的数据类型需要一致。",
    "</details>",
)


def _qmm5():
    x1 = _tensor("x1", "in", ["INT8", "FLOAT8_E4M3FN"])
    x2 = _tensor("x2", "in", ["INT8", "FLOAT4_E2M1"])
    x1_scale = _tensor("x1Scale", "in", ["FLOAT"], optional=True)
    x2_scale = _tensor("x2Scale", "in", ["FLOAT", "BFLOAT16", "FLOAT16"])
    x2_offset = _tensor("x2Offset", "in", ["FLOAT", "FLOAT16"], optional=True)
    y_scale = _tensor("yScale", "in", ["INT64", "UINT64"], optional=True)
    bias = _tensor("bias", "in", ["INT32", "FLOAT"], optional=True)
    out = _tensor("out", "out", ["FLOAT16", "BFLOAT16", "INT8"])
    return [x1, x2, x1_scale, x2_scale, x2_offset, y_scale, bias, out]


def test_a_bullet_after_a_table_ties_a_rows_choice_to_an_inputs_dtype():
    params = _qmm5()
    rule = case_rule(params[-1], params, _notes(*QMM5_TCG))
    assert rule is not None and len(rule.alternatives) == 1
    case = rule.alternatives[0]
    assert (case.kind, case.params, case.values) == ("same", ("x2Scale",), ("BFLOAT16", "FLOAT16"))
    dtypes = {"x1": "FLOAT8_E4M3FN", "x2": "FLOAT4_E2M1", "x2Scale": "BFLOAT16", "yScale": "UINT64"}
    values = {"x1Scale": None, "x2Offset": None, "bias": None}
    plain = cases.plain_rule(rule)
    # the descriptions the runtime reads: TensorDescs for the tensors, None for the absent optionals
    args = {**{n: TensorDesc((2, 2), d) for n, d in dtypes.items()}, **values}
    assert _shapes.output_dtype(plain, dtypes, args) == "BFLOAT16"
    f16 = {**dtypes, "x2Scale": "FLOAT16"}
    assert _shapes.output_dtype(plain, f16, {**args, "x2Scale": TensorDesc((2, 2), "FLOAT16")}) == "FLOAT16"
    # a dtype the output's cell does not list: no dtype, never x2Scale's
    f32 = {**dtypes, "x2Scale": "FLOAT"}
    assert _shapes.output_dtype(plain, f32, {**args, "x2Scale": TensorDesc((2, 2), "FLOAT")}) is None


def test_a_tie_said_elsewhere_or_under_a_condition_leaves_the_choice_to_the_caller():
    params = _qmm5()

    def kinds(*notes):
        rule = case_rule(params[-1], params, _notes(*notes))
        return [c.kind for c in rule.alternatives] if rule else None

    # the block ends before the bullet: it speaks of another scenario's table
    assert kinds(*QMM5_TCG[:-2], "</details>", "<details>", QMM5_TCG[-2]) == ["one_of"]
    # a bullet under a condition of its own is not the table's tie
    conditional = "- 当bias不为空时，out和x2Scale的数据类型需要一致。"
    assert kinds(*QMM5_TCG[:-2], conditional, "</details>") == ["one_of"]
    # a tie to a column whose cell lists dtypes the output's does not: the row as it reads
    wider = QMM5_TCG[4].replace("| BFLOAT16/FLOAT16 | null | INT64", "| BFLOAT16/FLOAT | null | INT64")
    assert kinds(*QMM5_TCG[:4], wider, *QMM5_TCG[5:]) == ["one_of"]


def _product_narrowed(remark_products=("A3", "910b")):
    # aclnnAdaLayerNormQuant (ops-nn), line 253, after the parameter table:
    # `<term>Atlas A3…</term>、<term>Atlas A2…</term>：输出`out`的数据类型仅支持INT8。`
    general = ("INT8", "FLOAT8_E4M3FN", "FLOAT8_E5M2", "HIFLOAT8")
    said = [Constraint(kind="dtypes", text="、".join(general), line=200, values=general)]
    remark = "输出`out`的数据类型仅支持INT8。"
    said += [Constraint(kind="dtypes", text=remark, line=253, values=("INT8",), product=pid) for pid in remark_products]
    return Param(name="out", c_type="aclTensor*", kind="tensor", direction="out", constraints=tuple(said), line=1)


def test_a_product_remark_that_leaves_one_dtype_fixes_it_on_that_product_only():
    out = _product_narrowed()
    x = _tensor("x", "in", ["FLOAT16", "BFLOAT16"])
    rule = dtype_rule(out, [x, out], [], [])
    assert rule.kind == "cases" and rule.line == 253
    plain, shape = cases.plain_rule(rule), {"kind": "same", "params": ["x"]}
    args = {"x": np.zeros((2, 8), np.float16)}
    assert _shapes.allocate("out", shape, plain, args, product="A3").dtype == np.int8
    assert _shapes.allocate("out", shape, plain, args, product="910b").dtype == np.int8
    # on 950 the remark says nothing: any of the four, the caller's; so with no product named
    for product in ("950", None):
        with pytest.raises(TypeError, match="cases give INT8 or FLOAT8_E4M3FN or FLOAT8_E5M2 or HIFLOAT8"):
            _shapes.allocate("out", shape, plain, args, product=product, keyword="out_dtype")
    # the caller's choice still wins where the document leaves one
    assert _shapes.allocate("out", shape, plain, args, product="950", dtype="INT8").dtype == np.int8


def test_a_product_remark_of_several_dtypes_or_an_unknown_product_fixes_nothing():
    x = _tensor("x", "in", ["FLOAT16"])
    several = _product_narrowed().model_copy(
        update={
            "constraints": tuple(
                c.model_copy(update={"values": ("INT8", "HIFLOAT8")}) if c.product else c
                for c in _product_narrowed().constraints
            )
        }
    )
    assert dtype_rule(several, [x, several], [], []).kind == "not_derivable"
    unknown = _product_narrowed(remark_products=("Atlas910",))
    assert dtype_rule(unknown, [x, unknown], [], []).kind == "not_derivable"


def test_a_shape_that_waits_on_the_callers_dtype_asks_for_the_dtype():
    # aclnnDynamicQuant (ops-nn) yOut: `类型为INT32时，shape的最后一维是x最后一维的1/8…其他类型时，shape与x一致`;
    # INT8 only on Atlas 推理/训练 (line 174), several dtypes elsewhere
    shape = {
        "kind": "one_of",
        "params": ["x"],
        "alternatives": [
            {
                "kind": "explicit",
                "dims": ["*x.shape[:-1]", "x.shape[-1] / 8"],
                "when": ["yOut", "dtype", "INT32", "true"],
            },
            {"kind": "same", "params": ["x"], "when": ["yOut", "dtype", "INT32", "false"]},
        ],
    }
    derive = {
        "kind": "cases",
        "alternatives": [
            {"kind": "fixed", "values": ["INT8"], "when": ["", "product", "310p,910", "true"]},
            {"kind": "one_of", "values": ["INT4", "INT8", "INT32"], "when": ["", "product", "310p,910", "false"]},
        ],
    }
    args = {"x": np.zeros((2, 16), np.float16), "smoothScalesOptional": None}
    with pytest.raises(TypeError, match="pass yOut: its dtype does not follow .*give its dtype as y_out_dtype"):
        _shapes.allocate("yOut", shape, derive, args, keyword="y_out_dtype")
    assert _shapes.allocate("yOut", shape, derive, args, product="310p").shape == (2, 16)
    assert _shapes.allocate("yOut", shape, derive, args, dtype="INT32").shape == (2, 2)
    # a shape unsettled for another reason is still the shape's refusal
    other = {**shape, "alternatives": [{**a, "when": ["x", "rank", "3", "true"]} for a in shape["alternatives"]]}
    with pytest.raises(TypeError, match="pass yOut: its shape does not follow"):
        _shapes.allocate("yOut", other, derive, args, keyword="y_out_dtype")


# aclnnQuantMatmulV5 (ops-nn), 约束说明, the MX block (lines 913-938): a table of two scenarios,
# and a bullet of the 伪量化 one tying bias, when given, to the output
QMM5_MX = (
    "<summary><strong>MX量化场景约束：</strong></summary>",
    "|量化类型| x1 | x2 | x1Scale | x2Scale | x2Offset | yScale | bias | out |",
    "|-------| -- | -- | -- | -- | -- | -- | -- | -- |",
    "|MX全量化| FLOAT8_E4M3FN | FLOAT8_E4M3FN | null | FLOAT | null | null | null/FLOAT32 | FLOAT16/BFLOAT16/FLOAT32 |",
    "|MX伪量化| FLOAT8_E4M3FN | FLOAT4_E2M1 | null | FLOAT | null | null | null/BFLOAT16/FLOAT16 | BFLOAT16/FLOAT16 |",
    "- MX伪量化场景下，bias为可选参数。数据类型支持BFLOAT16或FLOAT16，数据类型要求与输出类型保持一致。数据格式支持ND。",
    "</details>",
)


def _mx_out(params, bias):
    rule = cases.plain_rule(case_rule(params[-1], params, _notes(*QMM5_MX)))
    args = {
        "x1": TensorDesc((2, 2), "FLOAT8_E4M3FN"),
        "x2": TensorDesc((2, 2), "FLOAT4_E2M1"),
        "x1Scale": None,
        "x2Scale": TensorDesc((2,), "FLOAT"),
        "x2Offset": None,
        "yScale": None,
        "bias": None if bias is None else TensorDesc((1, 2), bias),
    }
    dtypes = {n: v.dtype if v is not None else None for n, v in args.items()}
    return _shapes.output_dtype(rule, dtypes, args)


def test_an_inputs_bullet_ties_the_rows_of_its_scenario_to_the_output_when_given():
    params = _qmm5()
    params[6] = _tensor("bias", "in", ["INT32", "FLOAT", "BFLOAT16", "FLOAT16"], optional=True)
    params[-1] = _tensor("out", "out", ["FLOAT16", "BFLOAT16", "FLOAT"])
    rule = case_rule(params[-1], params, _notes(*QMM5_MX))
    assert [(c.kind, c.params) for c in rule.alternatives] == [("one_of", ()), ("same", ("bias",)), ("one_of", ())]
    assert _mx_out(params, "FLOAT16") == "FLOAT16"
    assert _mx_out(params, "BFLOAT16") == "BFLOAT16"
    assert _mx_out(params, None) is None  # no bias: BFLOAT16 or FLOAT16, the caller's
    # the 全量化 row's FLOAT32 bias is not tied: FLOAT16, BFLOAT16 or FLOAT32, the caller's
    args = dict(x1="FLOAT8_E4M3FN", x2="FLOAT8_E4M3FN", x2Scale="FLOAT", bias="FLOAT")
    plain = cases.plain_rule(rule)
    descs = {n: TensorDesc((2,), d) for n, d in args.items()} | {"x1Scale": None, "x2Offset": None, "yScale": None}
    assert _shapes.output_dtype(plain, {**args, "x1Scale": None}, descs) is None
    # a bullet tying the output when another output could be meant is not read
    second = _tensor("rstd", "out", ["FLOAT"])
    assert [c.kind for c in case_rule(params[-1], [*params, second], _notes(*QMM5_MX)).alternatives] == [
        "one_of",
        "one_of",
    ]


def test_a_tie_said_for_a_scenario_the_block_does_not_name_is_not_read():
    params = _qmm5()
    other = (QMM5_TCG[0].replace("T-CG", "K-G"), *QMM5_TCG[1:])
    rule = case_rule(params[-1], params, _notes(*other))
    assert [c.kind for c in rule.alternatives] == ["one_of"]


def test_the_error_case_of_a_settled_case_rule_keeps_the_nulls_its_row_needs(corpus):
    from specgen.codegen.lower import operator_code
    from specgen.codegen.views import NullArg
    from specgen.parse import parse_paths

    path = corpus / "docs" / "ops-nn" / "matmul" / "quant_batch_matmul_v4" / "docs" / "aclnnQuantMatmulV5.md"
    (doc,) = parse_paths([path])
    (fn,) = operator_code(doc, doc.source).functions
    (case,) = [c for c in fn.cases.cases if c.rule == "implied_output_dtype_out"]
    # the T-CG row holds only while x1Scale and bias are null: given tensors, no case would hold
    # and the changed out dtype could break nothing
    assert not case.skip
    assert isinstance(case.args["x1Scale"], NullArg) and isinstance(case.args["bias"], NullArg)
    assert case.args["out"].dtype == "FLOAT16"


def _function(corpus, relative, name):
    from specgen.parse import parse_paths

    (doc,) = parse_paths([corpus / "docs" / "ops-nn" / relative])
    return next(f for f in doc.functions if f.name == name)


def test_a_shape_case_whose_sentence_gives_the_dtype_gives_it_under_the_same_condition(corpus):
    from specgen.review.lint_outputs import call_values

    # aclnnFlatQuant quantScale, line 192: "量化输出类型为INT4或INT32时，shape为[M],…，数据类型为FLOAT32。
    # 量化输出类型为FLOAT4_E2M1时，shape为[M,ceildiv(N1*N2,64),2]，数据类型为FLOAT8_E8M0。" (out: the quantized output)
    fn = _function(corpus, "quant/flat_quant/docs/aclnnFlatQuant.md", "aclnnFlatQuant")
    params = {p.name: p for p in fn.params}
    rule = params["quantScale"].dtype_rule
    assert [(c.values, c.when) for c in rule.alternatives] == [
        (("FLOAT",), ("out", "dtype", "INT4", "true")),
        (("FLOAT",), ("out", "dtype", "INT32", "true")),
        (("FLOAT8_E8M0",), ("out", "dtype", "FLOAT4_E2M1", "true")),
    ]
    plain = cases.plain_rule(rule)
    for out, expected in (("INT32", "FLOAT"), ("FLOAT4_E2M1", "FLOAT8_E8M0")):
        assert _shapes.output_dtype(plain, {"out": out}, {"out": TensorDesc((2, 2), out)}) == expected
    # the sample (out INT32, quantScale FLOAT) meets it
    values = call_values(fn, fn.sample_call)
    assert values["out"].dtype == "INT32"
    dtypes = {n: v.dtype if isinstance(v, TensorDesc) else None for n, v in values.items()}
    assert _shapes.output_dtype(plain, dtypes, values) == values["quantScale"].dtype == "FLOAT"
    # out's own cases (`数据类型为INT32时，shape的最后一维…`) are of its own dtype: they give none
    assert params["out"].dtype_rule.kind == "not_derivable"


def test_shape_cases_give_no_dtype_unless_each_states_one():
    from specgen.model import ShapeRule
    from specgen.parse.classify.dtype_rules import shape_cases

    out = _tensor("yScaleOut", "out", ["FLOAT", "FLOAT8_E8M0"])

    def one_of(*texts):
        alts = [
            ShapeRule(kind="explicit", dims=("1",), when=("quantMode", "value", str(i), "true"), text=t, line=5)
            for i, t in enumerate(texts)
        ]
        return ShapeRule(kind="one_of", alternatives=tuple(alts), line=5)

    # aclnnSwigluGroupQuant yScaleOut, line 576 (two of its three cases)
    read = one_of(
        "quantMode为0时，shape为[...,ceil((D/2)/128)]，数据类型为FLOAT32",
        "quantMode为1时，shape为[…]，数据类型为FLOAT8_E8M0",
    )
    assert [c.values for c in shape_cases(out, read)] == [("FLOAT",), ("FLOAT8_E8M0",)]
    # one case silent on the dtype: no case is read (the silent one is not guessed)
    assert shape_cases(out, one_of("quantMode为0时，shape为[1]，数据类型为FLOAT32", "quantMode为1时，shape为[2]")) == []
    # a dtype the output does not allow is no reading of it
    assert shape_cases(out, one_of("quantMode为0时，shape为[1]，数据类型为INT8")) == []
