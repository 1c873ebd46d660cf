"""Findings of the hand-read audit 42 (/tmp/hr42, fixes 2 and 4) that helper 42f fixed, each on
the document's own sentence and its sample call. Corpus documents are skipped when the corpus
is absent."""

from __future__ import annotations

from tests.validator_calls import first_violation, function_code


def _legacy_function(corpus, name: str):
    return function_code(corpus / "docs" / "legacy" / f"{name}.md")


# ---------------------------------------------------------------- a list's first item (a)


def test_grouped_matmul_v3_accepts_the_no_grouping_value(corpus):
    """GroupedMatmulV3.md:99 `则groupType取值-1：不分组，0：m轴分组，1：n轴分组，2：k轴分组。`: -1 is the
    documented no-grouping mode (:158, the 多多多 scenario); the sample (l.337) passes groupType 0."""
    fn = _legacy_function(corpus, "GroupedMatmulV3")
    assert first_violation(fn) is None  # the document's own call
    for value in (-1, 0, 1, 2):
        assert first_violation(fn, groupType=value) is None, value
    assert first_violation(fn, groupType=3) == ("implied_enum_groupType", 161002)
    assert first_violation(fn, groupType=-2) == ("implied_enum_groupType", 161002)


# ---------------------------------------------------------------- a value row's own status (c)


def test_moe_init_routing_v2_value_rows_give_their_status(corpus):
    """MoeInitRoutingV2.md:104 `561002 … 2. activeNum、expertNum、expertCapacity的值小于0` and :105
    `3. dropPadMode、expertTokensCountOrCumsumFlag、expertTokensBeforeCapacityFlag不在取值范围内` restate
    the parameter list's `值范围大于等于0` (:76, :78) and `取值为0和1` (:79): the rows check them, with
    their status, and are not listed as not checked. The sample (l.225-228: activeNum 0,
    expertCapacity 2, expertNum 3, dropPadMode 1) passes."""
    fn = _legacy_function(corpus, "MoeInitRoutingV2")
    assert first_violation(fn) is None
    for name in ("activeNum", "expertNum", "expertCapacity"):
        assert first_violation(fn, **{name: -1}) == ("rule6_value", 561002), name
    assert first_violation(fn, dropPadMode=2) == ("rule7_value", 561002)
    assert first_violation(fn, expertTokensCountOrCumsumFlag=3) == ("rule7_value", 561002)
    unchecked = {r.id for r in fn.cases.rules if not r.host}
    assert not unchecked & {"rule6_value", "rule7_value"}
