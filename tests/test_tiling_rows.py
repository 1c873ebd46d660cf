"""Rows under 561002 (ACLNN_ERR_INNER_TILING_ERROR) of the host-checkable kinds are checked with
their status, and a parameter rule stating the same bound, or a tensor's shape, takes the status of
the row on it (audit 43: legacy MoeGatingTopKSoftmaxV2 l.56-61, MoeGatingTopKSoftmax l.55-59). Each
test starts from the document's own call (l.191: x (3, 4), finishedOptional nullptr, k 2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.validator_calls import first_violation, function_code

DOCS = ("MoeGatingTopKSoftmaxV2", "MoeGatingTopKSoftmax")


def _legacy_function(corpus, name: str):
    return function_code(corpus / "docs" / "legacy" / f"{name}.md")


def _wide(fn, k: int, columns: int = 1100) -> dict[str, object]:
    """x (2, columns) with outputs sized for `k`, as the table's shapes say."""
    names = {p["name"] for p in fn.cases.params}
    outputs = {"yOut": np.zeros((2, k), np.float32), "expertIdxOut": np.zeros((2, k), np.int32)}
    if "rowIdxOut" in names:  # MoeGatingTopKSoftmax l.44: `shape要求与yOut一致`, int32
        outputs["rowIdxOut"] = np.zeros((2, k), np.int32)
    if "softmaxOut" in names:  # MoeGatingTopKSoftmaxV2 l.45: `shape要求与x一致`, FLOAT32
        outputs["softmaxOut"] = np.zeros((2, columns), np.float32)
    return {"x": np.zeros((2, columns), np.float32), "k": k, **outputs}


@pytest.mark.parametrize("name", DOCS)
def test_k_above_1024_is_refused_with_the_rows_561002(corpus, name):
    """`k不大于1024` (parameter list) and `561002 | k的值大于1024`: one bound, the row's status."""
    fn = _legacy_function(corpus, name)
    assert first_violation(fn) is None  # the document's own call
    assert first_violation(fn, **_wide(fn, 1024)) is None
    rule_id, code = first_violation(fn, **_wide(fn, 1025))
    assert code == 561002 and rule_id.startswith("rule"), rule_id
    assert not any(r.id == "implied_range_k" for r in fn.cases.rules)  # the row checks it itself


@pytest.mark.parametrize("name", DOCS)
def test_k_of_zero_is_refused_with_the_rows_561002(corpus, name):
    """`561002 | k的值小于等于0或大于x-1的轴的大小`: k > 0 is checked (the bound by x's last axis is not read)."""
    fn = _legacy_function(corpus, name)
    assert first_violation(fn, **_wide(fn, 1)) is None
    assert first_violation(fn, **_wide(fn, 0)) == ("rule5_range", 561002)


@pytest.mark.parametrize("name", DOCS)
def test_finished_has_xs_shape_without_its_last_axis(corpus, name):
    """finishedOptional `shape为x_shape[:-1]` and `561002 | x与finishedOptional的shape不匹配`: x (3, 4)
    takes finished (3,); x's own shape or another length is refused with 561002."""
    fn = _legacy_function(corpus, name)
    assert first_violation(fn, finishedOptional=np.zeros((3,), np.bool_)) is None
    for shape in ((5,), (3, 4), (3, 1)):
        found = first_violation(fn, finishedOptional=np.zeros(shape, np.bool_))
        assert found is not None and found[1] == 561002, (shape, found)


@pytest.mark.parametrize("name", DOCS)
def test_finished_rank_takes_the_status_of_the_row_on_its_shape(corpus, name):
    """finishedOptional `要求是一个1D/2D的Tensor`: the only row on its shape is 561002."""
    fn = _legacy_function(corpus, name)
    [rank] = [r for r in fn.cases.rules if r.id == "implied_rank_finishedOptional"]
    assert rank.code == 561002


def test_softmax_out_dtype_row_is_checked(corpus):
    """MoeGatingTopKSoftmaxV2 l.45 softmaxOut FLOAT32, `561002 | softmaxOut的数据类型不在支持的范围内`."""
    fn = _legacy_function(corpus, "MoeGatingTopKSoftmaxV2")
    assert first_violation(fn, softmaxOut=np.zeros((3, 4), np.int32)) == ("rule8_dtypes", 561002)


def test_a_relation_between_outputs_alone_keeps_the_outputs_rules(corpus):
    """MoeInitRoutingQuant l.65 `expandedRowIdxOut和expandedExpertIdxOut的shape不相等，且不等于(num_rows * k, )`
    (561002) stays read as expandedExpertIdxOut's rule, and expandedRowIdxOut keeps its own
    `Shape为(NUM_ROWS*K, )` (l.49)."""
    fn = _legacy_function(corpus, "MoeInitRoutingQuant")
    ids = {r.id: r for r in fn.cases.rules}
    assert ids["implied_output_shape_expandedRowIdxOut"].host
    assert ids["rule8_same_shape"].kind == "output_shape" and ids["rule8_same_shape"].code == 561002
    assert first_violation(fn) is None
