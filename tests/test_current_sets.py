"""The values a parameter's statements say are supported, read from the documents' own lists
(audit 43, W1 and U*): a `当前仅支持 A…，B…` list is the set supported now, narrower than the
values a document lists with their meanings; an only-supported list of `N表示…` items, and
`N（LABEL）：…` items, each give the values. Each document's own call stays accepted; the same
call with a value outside the set is refused with 161002."""

from __future__ import annotations

from specgen.parse.classify.statements import clauses
from tests.validator_calls import first_violation, ops_nn, rejected

SWIGLU_QUANT_V2 = "quant/swi_glu_quant/docs/aclnnSwiGluQuantV2.md"


def _statement(fn, param: str, text: str):
    [statement] = [s for s in fn.cases.statements if s.param == param and s.text == text]
    return statement


def test_an_only_supported_list_is_one_clause():
    """The values after `仅支持` with their labels stay one clause; a clause of its own after them does not."""
    assert clauses('当前仅支持"dynamic"动态量化，"static"静态量化。静态量化仅支持per_tensor量化') == [
        '当前仅支持"dynamic"动态量化，"static"静态量化',
        "静态量化仅支持per_tensor量化",
    ]
    assert clauses("当前仅支持0表示cumsum模式，1表示count模式。") == ["当前仅支持0表示cumsum模式，1表示count模式"]
    assert clauses("仅支持0,1,2三个值，0表示不做任何操作") == ["仅支持0,1,2三个值", "0表示不做任何操作"]
    assert clauses("只支持2维，其他维度不支持") == ["只支持2维", "其他维度不支持"]


def test_the_set_supported_now_is_checked_not_the_meanings(corpus):
    """aclnnSwiGluQuantV2 quantModeOptional, l.185: `"static"表示静态量化、"dynamic"表示动态量化、
    "dynamic_msd"表示动态MSD量化。当前仅支持"dynamic"动态量化，"static"静态量化。`: dynamic_msd,
    which only has a meaning, is refused; static, supported now, is accepted (it was read as
    {"dynamic"} and the union {static, dynamic, dynamic_msd} was checked)."""
    fn = ops_nn(corpus, SWIGLU_QUANT_V2)
    assert rejected(fn) == []
    assert first_violation(fn, quantModeOptional="static") is None
    assert first_violation(fn, quantModeOptional="dynamic_msd") == ("implied_enum_quantModeOptional", 161002)
    meanings = _statement(
        fn, "quantModeOptional", '"static"表示静态量化、"dynamic"表示动态量化、"dynamic_msd"表示动态MSD量化'
    )
    assert not meanings.enforced
    assert "implied_enum_quantModeOptional" in {r.id: r for r in fn.cases.rules}[meanings.rule].reason
    now = _statement(fn, "quantModeOptional", '当前仅支持"dynamic"动态量化，"static"静态量化')
    assert now.enforced and now.rule == "implied_enum_quantModeOptional"


def test_an_only_supported_list_of_meanings(corpus):
    """aclnnSwiGluQuantV2 groupListType, l.195: `当前仅支持0表示cumsum模式，1表示count模式`, with
    the row `groupListType不在指定的取值范围内` (l.290, 161002): 2 is refused, 1 accepted."""
    fn = ops_nn(corpus, SWIGLU_QUANT_V2)
    assert first_violation(fn, groupListType=1) is None
    assert first_violation(fn, groupListType=2) == ("implied_enum_groupListType", 161002)
    assert _statement(fn, "groupListType", "当前仅支持0表示cumsum模式，1表示count模式").enforced


def test_labelled_items_are_values(corpus):
    """aclnnConvTbc cubeMathType, l.131: `0（KEEP_DTYPE）：保持输入数据类型进行计算` … `3（USE_HF32）：…`:
    the values 0-3; 4 is refused."""
    fn = ops_nn(corpus, "conv/convolution_forward/docs/aclnnConvTbc.md")
    assert rejected(fn) == []
    assert all(first_violation(fn, cubeMathType=v) is None for v in (0, 1, 2, 3))
    assert first_violation(fn, cubeMathType=4) == ("implied_enum_cubeMathType", 161002)


def test_labelled_values_after_only(corpus):
    """aclnnBinaryCrossEntropyBackward reduction: `仅支持0(none),1(mean),2(sum)三个值`: 1 and 2
    are accepted (the list was read as {0})."""
    fn = ops_nn(corpus, "loss/binary_cross_entropy_grad/docs/aclnnBinaryCrossEntropyBackward.md")
    assert first_violation(fn, reduction=1) is None and first_violation(fn, reduction=2) is None
    assert first_violation(fn, reduction=3) is not None
