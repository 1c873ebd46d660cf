"""A per-product remark naming an output by the formula's name (`出参`y``, where the C parameter
is `out` and its row says `对应公式中的`y``): read as the output's, only where one output's row
gives that name and no parameter has it. Corpus documents are skipped when the corpus is absent."""

from __future__ import annotations

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.parse import parse_paths
from specgen.parse.build import _output_aliases, _resolved
from specgen.parse.facts import ParamFacts, Statement

ADD_LIST_V2 = "foreach/foreach_add_list/docs/aclnnForeachAddListV2.md"


def _row(name: str, direction: str, description: str) -> ParamFacts:
    return ParamFacts(name=name, line=1, direction=direction, description=[Statement(description, 1)])


def test_the_formula_name_of_one_output_names_it_after_chu_can():
    # aclnnForeachAddListV2.md:121 out `表示加法运算的输出张量列表。对应公式中的`y`。`
    rows = [_row("x1", "输入", "公式中的`x1`。"), _row("out", "输出", "表示加法运算的输出张量列表。对应公式中的`y`。")]
    aliases = _output_aliases(rows, ("x1", "x2", "alpha", "out"))
    assert aliases == {"y": "out"}
    said = Statement("入参`x1`、`x2`和出参`y`支持包含的最大Tensor个数均为50。", 166)
    assert _resolved(said, aliases).text == "入参`x1`、`x2`和出参`out`支持包含的最大Tensor个数均为50。"
    # a `y` not marked an output (`入参y`) is left as written
    assert _resolved(Statement("入参y不支持BFLOAT16。", 3), aliases).text == "入参y不支持BFLOAT16。"


def test_a_formula_name_two_outputs_give_or_a_parameter_has_is_no_alias():
    two = [_row("out", "输出", "对应公式中的y。"), _row("outRef", "输出", "公式中的y")]
    assert _output_aliases(two, ("x", "out", "outRef")) == {}
    # the formula's `y` is also a parameter's name: `出参y` is that parameter
    assert _output_aliases([_row("out", "输出", "对应公式中的y。")], ("y", "out")) == {}
    # an input's formula name is not an output's
    assert _output_aliases([_row("self", "输入", "公式中的y。")], ("self", "out")) == {}


def _document(corpus, rel: str):
    path = corpus / "docs" / "ops-nn" / rel
    if not path.exists():
        pytest.skip(f"{rel} is not in the corpus")
    (doc,) = parse_paths([path])
    return doc, operator_code(doc, doc.source).functions[0]


def test_the_corpus_remark_bounds_the_output_list_on_its_product(corpus):
    _, fn = _document(corpus, ADD_LIST_V2)
    lengths = {r.params: r.bounds for r in fn.cases.rules if r.kind == "length"}
    assert lengths[("out",)] == (None, 50, True, True)
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    args = host_values(fn.cases.valid.args)
    assert validator.first_violation(spec, args, "950") is None
    first = args["x1"][0]
    dtype, shape = (first.dtype, first.shape) if isinstance(first, TensorDesc) else ("FLOAT", (1,))
    long = [TensorDesc(shape, dtype)] * 51  # each as large as x1's first, which out's elements must reach
    found = validator.first_violation(spec, {**args, "out": long}, "950")
    assert found is not None and found[0].id.endswith("length_out")


# ---------------------------------------------------------------- a dtype paired with another's, per product

MUL_SCALAR_INPLACE = "foreach/foreach_mul_scalar_inplace/docs/aclnnForeachMulScalarInplace.md"


def test_a_remark_pairing_a_dtype_with_anothers_is_one_statement_named_unchecked():
    from specgen.parse.build import _pairings
    from specgen.parse.facts import ProductNote

    # aclnnForeachMulScalarInplace.md:130-133, under Ascend 950
    said = [
        "参数x支持包含的最大Tensor个数为256。",
        "参数scalar的数据类型与入参x的数据类型具有一定对应关系：",
        "当x的数据类型为FLOAT32、INT32时，数据类型与x的数据类型保持一致。",
        "当x的数据类型为BFLOAT16时，数据类型支持FLOAT32。",
    ]
    note = ProductNote(products=("950",), statements=[Statement(t, 129 + i) for i, t in enumerate(said)], line=128)
    (found,) = _pairings("scalar", note)
    assert (found.kind, found.line, found.params) == ("text", 130, ("x",))
    assert found.text.endswith("当x的数据类型为BFLOAT16时，数据类型支持FLOAT32。")
    # the cases speak of scalar's dtypes: nothing of x's own set
    assert _pairings("x", note) == []
    # aclnnForeachAddScalarV2.md:142 names no 数据类型 after the subject
    lead = ProductNote(("910b",), [Statement("入参`scalar`与入参`x`的数据类型具有一定对应关系：", 142)], 141)
    assert [c.params for c in _pairings("scalar", lead)] == [("x",)]


def test_the_corpus_pairing_is_listed_unchecked_with_its_reason_and_x_keeps_its_set(corpus):
    doc, fn = _document(corpus, MUL_SCALAR_INPLACE)
    paired = [r for r in fn.cases.rules if "具有一定对应关系" in r.condition]
    assert [(r.host, r.params) for r in paired] == [(False, ("scalar", "x"))]
    assert "depend on x's dtype" in paired[0].reason and "950" in paired[0].reason
    x = next(p for p in doc.functions[0].params if p.name == "x")
    assert [c for c in x.constraints if c.kind == "dtypes" and c.product] == []
    # the sample (FLOAT x, FLOAT scalar) passes on 950
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    assert validator.first_violation(spec, host_values(fn.cases.valid.args), "950") is None
