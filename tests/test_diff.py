"""`specgen diff` on real document history, across dialects, and as a CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from specgen import vocab
from specgen.cli import main
from specgen.model import OperatorDoc
from specgen.parse import parse_file
from specgen.review.diff import CATALOGUE, diff, normalise, summary
from tests.conftest import SPECS, documentation, git

# changes.json entries that are not real changes, found by reading both versions of each
# document (the "simple scan" behind changes.json compares raw text). Keys: (pair, kind,
# what); "*" stands for every row of an error-row entry.
NOT_REAL = {
    ("01", "dtype_added", "*"): "FLOAT32 is FLOAT spelled differently",
    ("01", "dtype_removed", "*"): "FLOAT32 is FLOAT spelled differently",
    ("02", "dtype_removed", "epsilon"): "the dtype column of a host value (double) became '-'",
    ("03", "error_rows_added", "*"): "parentheses changed from half to full width",
    ("03", "error_rows_removed", "*"): "parentheses changed from half to full width",
    ("10", "dtype_added", "scaleOut"): "FLOAT32 is FLOAT spelled differently",
    ("10", "dtype_removed", "scaleOut"): "FLOAT32 is FLOAT spelled differently",
    ("11", "error_rows_added", "*"): "the rows were there before, in a code block (dialect change)",
    ("12", "error_rows_added", "*"): "spaces between CJK and ASCII removed",
    ("12", "error_rows_removed", "*"): "spaces between CJK and ASCII removed",
    ("13", "error_rows_added", "输入或输出的数据类型不在支持的范围之内。"): "a full stop added",
    ("13", "error_rows_removed", "输入或输出的数据类型不在支持的范围之内"): "a full stop added",
    ("18", "dtype_removed", "outputDtype"): "the dtype column of a host value (int64_t) became '-'",
    ("19", "error_rows_added", "*"): "a full stop added",
    ("19", "error_rows_removed", "*"): "a full stop added",
    ("22", "dtype_added", "scaleOut"): "FLOAT32 is FLOAT spelled differently",
    ("22", "dtype_removed", "scaleOut"): "FLOAT32 is FLOAT spelled differently",
    ("23", "error_rows_added", "*"): "the rows were there before, in a code block (dialect change)",
    ("26", "dtype_removed", "*"): "the dtype column of host values (bool) became '-'",
    ("27", "error_rows_added", "x1、x2、bias、scale、offset或out的shape不满足校验条件。"): "a full stop added",
    (
        "27",
        "error_rows_added",
        "x1、x2、bias、scale、offset或out的数据类型和数据格式不在支持的范围之内。",
    ): "a full stop added",
    ("27", "error_rows_added", "传入的x1、x2、scale或out是空指针。"): "a full stop added",
    ("27", "error_rows_removed", "x1、x2、bias、scale、offset或out的shape不满足校验条件"): "a full stop added",
    (
        "27",
        "error_rows_removed",
        "x1、x2、bias、scale、offset或out的数据类型和数据格式不在支持的范围之内",
    ): "a full stop added",
    ("27", "error_rows_removed", "传入的x1、x2、scale或out是空指针"): "a full stop added",
    ("33", "dtype_added", "reduction"): "the dtype column of a host value (int64_t)",
    ("34", "dtype_removed", "*"): "the dtype column of host values (int64_t) became '-'",
    ("35", "error_rows_added", "*"): "the rows were there before, as bullets (dialect change)",
    ("36", "error_rows_added", "*"): "the rows were there before, as items of one table cell",
    ("36", "error_rows_removed", "*"): "one cell listing the rows, split into rows",
    ("38", "error_rows_removed", "561002"): "a status code in the description column, not a condition",
    ("39", "error_rows_added", "*"): "the rows were there before, in a code block (dialect change)",
}
# An error row edited in place: matched to its earlier version, in any direction.
REWORDED_OR_CHANGED = ("error-rule-reworded", "error-rule-tightened", "error-rule-loosened")
# Real changes the scan missed or mis-stated, found by reading the two versions.
ALSO_REAL = [
    ("03", "format-added", "bias"),
    ("16", "product-support-added", None),  # Ascend 950 rows added
    ("36", "error-rule-added", None),  # "x矩阵为非转置时，m不在[1, 2^31-1]范围内"
    ("31", "param-type-changed", "dstTypeMax"),  # float -> double
]


def _name(decl: str) -> str:
    return re.findall(r"[A-Za-z_]\w*", decl)[-1]


def _is_reported(entry: dict, changes: list) -> list[str]:
    """The parts of a changes.json entry that the diff does not report."""
    kind, what, detail = entry["kind"], entry["what"], entry["detail"]
    ids = {c.id for c in changes}
    if kind in ("dtype_added", "dtype_removed"):
        id = kind.replace("_", "-")
        got = {d for c in changes if c.id == id and c.param == what for d in c.values}
        return [d for d in detail if (vocab.dtype(d) or d) not in got]
    if kind in ("param_added", "param_removed"):
        side = "after" if kind == "param_added" else "before"
        id = kind.replace("_", "-")
        return [
            d
            for d in detail
            if not any(
                (c.id == id and c.param == _name(d)) or (c.id == "param-renamed" and getattr(c, side) == _name(d))
                for c in changes
            )
        ]
    if kind == "param_type_changed":
        name = _name(detail[1])
        typed = {"param-type-changed", "param-const-added", "param-const-removed", "param-qualifier-changed"}
        return [] if any(c.param == name and c.id in typed for c in changes) else [detail[1]]
    if kind in ("error_rows_added", "error_rows_removed"):
        side = "after" if kind == "error_rows_added" else "before"
        wanted = {kind.replace("_rows", "-rule").replace("_", "-"), *REWORDED_OR_CHANGED}
        texts = {normalise(getattr(c, side)["condition"]) for c in changes if c.id in wanted and getattr(c, side)}
        return [
            row
            for row in detail
            if not all(normalise(part) in texts for part in re.split(r"[。；]", row) if normalise(part))
        ]
    if kind == "product_support_changed":
        pid = vocab.product_id(what)
        return [] if any(c.id.startswith("product-support") and pid in c.values for c in changes) else [what]
    raise AssertionError(f"unknown kind {kind} ({ids})")


@pytest.fixture(scope="module")
def history(corpus):
    pairs = {}
    for folder in sorted((corpus / "history").iterdir()):
        scan = json.loads((folder / "changes.json").read_text(encoding="utf-8"))
        changes = diff([parse_file(folder / "before.md")], [parse_file(folder / "after.md")])
        pairs[folder.name[:2]] = (scan, changes)
    return pairs


def test_every_real_change_of_the_history_is_reported(history):
    missed = []
    for pair, (scan, changes) in history.items():
        for entry in scan["changes"]:
            for part in _is_reported(entry, changes):
                if (pair, entry["kind"], "*") in NOT_REAL or (pair, entry["kind"], entry["what"]) in NOT_REAL:
                    continue
                if (pair, entry["kind"], part) not in NOT_REAL:
                    missed.append(f"{pair} {entry['kind']} {entry['what']}: {part}")
    assert missed == []


def test_changes_the_scan_missed_are_reported(history):
    for pair, id, param in ALSO_REAL:
        assert any(c.id == id and (param is None or c.param == param) for c in history[pair][1]), (pair, id)


@pytest.mark.parametrize("pair", ["12", "19"])
def test_formatting_only_edits_give_no_change(history, pair):
    assert history[pair][1] == []


def test_a_revert_is_the_inverse_change(history):
    forward = sorted(c.id for c in history["10"][1])
    backward = sorted(c.id for c in history["22"][1])
    inverse = {
        "param-added": "param-removed",
        "dtype-added": "dtype-removed",
        "rank-widened": "rank-narrowed",
        "param-now-optional": "param-now-required",
        "error-rule-added": "error-rule-removed",
        "error-rule-tightened": "error-rule-loosened",
        "constraint-text-added": "constraint-text-removed",
        "shape-rule-added": "shape-rule-removed",
        "same-dtype-rule-added": "same-dtype-rule-removed",
        "product-support-added": "product-support-removed",
    }
    inverse.update({v: k for k, v in list(inverse.items())})
    assert sorted(inverse.get(i, i) for i in forward) == backward


def test_seed_against_repository_version_is_short_and_correct(corpus):
    seed = parse_file(SPECS / "aclnnHardshrinkBackward.md")
    repo = parse_file(corpus / "docs/ops-nn/activation/hard_shrink_grad/docs/aclnnHardshrinkBackward.md")
    changes = diff([seed], [repo])
    real = sorted((c.id, c.param) for c in changes if c.severity != "info")
    assert real == [
        ("dtype-added", "gradInput"),
        ("dtype-added", "gradOutput"),
        ("dtype-added", "self"),
        ("same-dtype-rule-added", None),
    ]
    assert all(c.values == ("BFLOAT16",) for c in changes if c.id == "dtype-added")
    assert {c.id for c in changes if c.severity == "info"} <= {
        "description-changed",
        "constraint-documented",
        "error-rule-reworded",
        "constraint-text-added",  # the note 默认确定性实现
        "param-qualifier-changed",  # the second phase's stream: aclrtStream -> const aclrtStream
        "summary-changed",
        "products-documented",
        "formula-changed",
    }
    assert len(changes) <= 20


def test_same_content_in_both_dialects_and_reordered_rows_give_no_change(write_doc):
    table = """# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
```

## aclnnDemoGetWorkspaceSize

<table><thead><tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th><th>数据格式</th></tr></thead>
<tbody>
<tr><td>self（aclTensor*）</td><td>输入</td><td>输入。</td><td>-</td><td>FLOAT、FLOAT16</td><td>ND</td></tr>
<tr><td>out（aclTensor*）</td><td>输出</td><td>输出。</td><td>shape与self一致。</td><td>FLOAT、FLOAT16</td><td>ND</td></tr>
</tbody></table>

<table><thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead><tbody>
<tr><td>ACLNN_ERR_PARAM_NULLPTR</td><td>161001</td><td>传入的self或out是空指针。</td></tr>
<tr><td rowspan="2">ACLNN_ERR_PARAM_INVALID</td><td rowspan="2">161002</td><td>self的数据类型不在支持的范围之内。</td></tr>
<tr><td>self和out的shape不一致。</td></tr>
</tbody></table>
"""
    bullets = """# aclnnDemo

- `aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)`
- `aclnnStatus aclnnDemo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)`

## aclnnDemoGetWorkspaceSize

- **参数说明**：
  - self（aclTensor\\*，计算输入）：输入。数据类型支持FLOAT16、FLOAT32，数据格式支持ND。
  - out（aclTensor\\*，计算输出）：输出。数据类型支持FLOAT、FLOAT16，数据格式支持ND，shape与self一致。
  - workspaceSize（uint64\\_t\\*，出参）：workspace大小。
  - executor（aclOpExecutor\\*\\*，出参）：op执行器。

- **返回值**：

  ```
  返回161001（ACLNN_ERR_PARAM_NULLPTR）：1. 传入的self或out是空指针。
  返回161002（ACLNN_ERR_PARAM_INVALID）：1. self和out的shape不一致。
                                        2. self的数据类型不在支持的范围之内。
  ```
"""
    a, b = parse_file(write_doc(table, "a.md")), parse_file(write_doc(bullets, "b.md"))
    assert diff([a], [b]) == []


def test_cli_formats_and_fail_on(tmp_path, capsys, corpus):
    old = corpus / "history/05-aclnnScatterList/before.md"
    new = corpus / "history/05-aclnnScatterList/after.md"
    assert main(["diff", str(old), str(new), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    renamed = [c for c in data["changes"] if c["id"] == "param-renamed"]
    assert {(c["before"], c["after"]) for c in renamed} >= {("var", "varRef"), ("indices", "indice")}
    assert all(c["source"]["new"].startswith(str(new)) for c in renamed)
    assert main(["diff", str(old), str(new), "--fail-on", "non-breaking"]) == 1
    # Renames break no C caller, but every Python caller passing the old name by keyword.
    assert main(["diff", str(old), str(new), "--fail-on", "breaking"]) == 1
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--format", "json"]) == 0
    python = {
        (c["before"], c["after"])
        for c in json.loads(capsys.readouterr().out)["changes"]
        if c["id"] == "python-keyword-renamed"
    }
    assert python == {(c["before"], c["after"]) for c in renamed}
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--format", "markdown"]) == 0
    assert "| non-breaking | `param-renamed` |" in capsys.readouterr().out
    assert main(["diff", str(old), str(new), "--format", "github"]) == 0
    assert re.search(r"^::warning file=.*after\.md,line=\d+::param-renamed", capsys.readouterr().out, re.M)
    assert main(["diff", str(old)]) == 2


def test_git_revisions(tmp_path):
    repo = tmp_path / "docs"
    repo.mkdir()
    doc = repo / "aclnnTanhBackward.md"
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    doc.write_text(text, encoding="utf-8")

    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    doc.write_text(text.replace("DOUBLE、", ""), encoding="utf-8")
    command = [sys.executable, "-m", "specgen", "diff", "--git", "HEAD", "--format", "json", "--fail-on", "breaking"]
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stderr
    removed = [c for c in json.loads(result.stdout)["changes"] if c["id"] == "dtype-removed"]
    assert sorted(c["param"] for c in removed) == ["gradInput", "gradOutput", "output"]
    git(repo, "commit", "-qam", "drop DOUBLE")
    command[5] = "HEAD~1..HEAD"
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    assert result.returncode == 1 and "dtype-removed" in result.stdout


def test_catalogue_is_documented():
    readme = documentation()
    missing = [id for id in CATALOGUE if f"`{id}`" not in readme]
    assert missing == []


# ---------------------------------------------------------------- direction of an edited error row

_ERRORS_DOC = """# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask, uint64_t* workspaceSize, aclOpExecutor** executor)
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
```

## aclnnDemoGetWorkspaceSize

<table><thead><tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th><th>数据格式</th></tr></thead>
<tbody>
<tr><td>selfRef（aclTensor*）</td><td>输入/输出</td><td>输入。</td><td>{cell}</td><td>FLOAT、FLOAT16</td><td>ND</td></tr>
<tr><td>mask（aclTensor*）</td><td>输入</td><td>掩码。</td><td>-</td><td>BOOL</td><td>ND</td></tr>
</tbody></table>

<table><thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead><tbody>
<tr><td>ACLNN_ERR_PARAM_NULLPTR</td><td>161001</td><td>传入的selfRef或mask是空指针。</td></tr>
<tr><td>ACLNN_ERR_PARAM_INVALID</td><td>161002</td><td>{row}</td></tr>
</tbody></table>

## 约束说明

- {note}
"""


def _demo(write_doc, name: str, row: str, cell: str = "-", note: str = "确定性计算：默认确定性实现。"):
    return parse_file(write_doc(_ERRORS_DOC.format(row=row, cell=cell, note=note), name))


def _ids(write_doc, before: dict, after: dict) -> list[str]:
    return [c.id for c in diff([_demo(write_doc, "a.md", **before)], [_demo(write_doc, "b.md", **after)])]


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        # aclnnInplaceMaskedFillScalar: a new alternative rejects more calls
        (
            "selfRef和mask的shape无法做broadcast。",
            "selfRef和mask的shape无法做broadcast，或selfRef的shape不等于二者broadcast后的shape。",
            "error-rule-tightened",
        ),
        # aclnnAddN: broadcast became same shape
        ("selfRef和mask的shape无法做broadcast。", "selfRef和mask的shape不一致。", "error-rule-tightened"),
        ("selfRef和mask的shape不一致。", "selfRef和mask的shape无法做broadcast。", "error-rule-loosened"),
        # an alternative dropped
        (
            "selfRef和mask的shape无法做broadcast，或selfRef的shape不等于二者broadcast后的shape。",
            "selfRef和mask的shape无法做broadcast。",
            "error-rule-loosened",
        ),
        # wording alone (a dropped 的): the same typed checks
        ("selfRef和mask的shape无法做broadcast。", "selfRef和mask shape无法做broadcast。", None),
        (
            "selfRef和mask的shape不满足broadcast关系。",
            "selfRef与mask的shape不满足broadcast规则。",
            "error-rule-reworded",
        ),
    ],
)
def test_an_edited_error_row_is_classed_by_what_it_rejects(write_doc, before, after, expected):
    ids = [i for i in _ids(write_doc, {"row": before}, {"row": after}) if i.startswith("error-rule")]
    assert ids == ([expected] if expected else [])


def test_an_error_row_written_twice_is_one_rule(write_doc):
    row = "selfRef和mask的shape无法做broadcast。"
    twice = f"{row}</td></tr>\n<tr><td>ACLNN_ERR_PARAM_INVALID</td><td>161002</td><td>{row}"
    assert diff([_demo(write_doc, "a.md", row=row)], [_demo(write_doc, "b.md", row=twice)]) == []
    assert diff([_demo(write_doc, "b.md", row=twice)], [_demo(write_doc, "a.md", row=row)]) == []


def test_an_error_row_made_unconditional_is_tightened(write_doc):
    conditional = {"row": "当mask为BOOL时，selfRef的数据类型不为FLOAT。"}
    always = {"row": "selfRef的数据类型不为FLOAT。"}
    rule = diff([_demo(write_doc, "a.md", **conditional)], [_demo(write_doc, "b.md", **always)])
    if (
        not parse_file(write_doc(_ERRORS_DOC.format(row=conditional["row"], cell="-", note="-"), "c.md"))
        .functions[0]
        .errors[1]
        .conditional
    ):
        pytest.skip("the parser does not mark this row conditional")
    assert [c.id for c in rule if c.id.startswith("error-rule")] == ["error-rule-tightened"]
    back = diff([_demo(write_doc, "b.md", **always)], [_demo(write_doc, "a.md", **conditional)])
    assert [c.id for c in back if c.id.startswith("error-rule")] == ["error-rule-loosened"]


def test_untyped_statements_are_compared_as_text_and_located_on_both_sides(write_doc):
    before = {"row": "mask的shape不合法。", "cell": "offset必须为4的倍数。"}
    after = {
        "row": "mask的shape不合法。",
        "cell": "通过aclnnSetPytorchRandom设置对标PyTorch模式时，offset必须为4的倍数。",
    }
    changes = diff([_demo(write_doc, "a.md", **before)], [_demo(write_doc, "b.md", **after)])
    edited = [c for c in changes if c.id == "constraint-text-changed"]
    assert len(edited) == 1 and edited[0].param == "selfRef"
    assert "对标PyTorch" in edited[0].after["text"] and edited[0].before["text"].startswith("offset")
    assert edited[0].old is not None and edited[0].new is not None
    gone = diff([_demo(write_doc, "a.md", **before)], [_demo(write_doc, "b.md", row=before["row"])])
    assert [(c.id, c.param) for c in gone if c.id.startswith("constraint-text")] == [
        ("constraint-text-removed", "selfRef")
    ]


def test_a_note_added_reworded_or_moved(write_doc):
    row = {"row": "mask的shape不合法。"}
    note = "<term>Ascend 950PR/Ascend 950DT</term>：默认非Batch一致性实现，支持通过aclrtSetSysParamOpt开启Batch一致性。"
    both = f"确定性计算：默认确定性实现。\n- {note}"
    added = diff([_demo(write_doc, "a.md", **row)], [_demo(write_doc, "b.md", **row, note=both)])
    assert [(c.id, c.after["products"]) for c in added if c.id.startswith("constraint-text")] == [
        ("constraint-text-added", ["950"])
    ]
    plain = note.replace("<term>", "").replace("</term>", "")
    assert diff([_demo(write_doc, "a.md", **row, note=note)], [_demo(write_doc, "b.md", **row, note=plain)]) == []
    moved = {"cell": "offset必须为4的倍数。"}
    into_note = {"note": "确定性计算：默认确定性实现。\n- selfRef参数中，offset必须为4的倍数。"}
    changes = diff([_demo(write_doc, "a.md", **row, **moved)], [_demo(write_doc, "b.md", **row, **into_note)])
    assert [c.id for c in changes if c.id.startswith("constraint-text")] == []


def test_a_relation_kept_by_an_error_row_is_not_removed(write_doc):
    """aclnnTril: the cell's relation dropped while the 161002 row keeps it."""
    row = "selfRef和mask的shape不一致。"
    both = _demo(write_doc, "a.md", row=row, cell="shape与mask一致。")
    assert any(c.kind == "same_shape" for p in both.functions[0].params for c in p.constraints)
    kept = diff([both], [_demo(write_doc, "b.md", row=row)])
    assert [c.id for c in kept if c.id.startswith("shape-rule")] == []
    dropped = diff([both], [_demo(write_doc, "b.md", row="mask的数据类型不合法。")])
    assert [c.id for c in dropped if c.id.startswith("shape-rule")] == ["shape-rule-removed"]


SINGLE_PHASE = """# aclnnTransQuantParam

## 函数原型

```Cpp
aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleSize, uint64_t** quantParam, uint64_t* quantParamSize)
```
"""


def test_single_phase_apis_are_modelled_and_compared(write_doc):
    """A single-phase API (no executor) is part of the contract: a parameter it gains is a
    change, and it is modelled with its own parameters, said once at info."""
    old = parse_file(write_doc(SINGLE_PHASE, "old.md"))
    assert [f.name for f in old.single_phase] == ["aclnnTransQuantParam"] and old.functions == ()
    assert [p.name for p in old.single_phase[0].params] == ["scaleArray", "scaleSize", "quantParam", "quantParamSize"]
    assert [(d.severity, d.code) for d in old.diagnostics] == [("info", "single-phase")]
    new = parse_file(
        write_doc(
            SINGLE_PHASE.replace("uint64_t scaleSize,", "uint64_t scaleSize, const float* offsetArray,"), "new.md"
        )
    )
    changes = diff([old], [new])
    assert [(c.id, c.function, c.param) for c in changes] == [("param-added", "aclnnTransQuantParam", "offsetArray")]


_PRODUCTS = """
## 产品支持情况

- <term>Ascend 950PR/Ascend 950DT</term>：支持
- <term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>：支持
- <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：支持
"""
# aclnnClippedSwiglu (ops-nn 904959e..699ebab): the cell's 不支持空Tensor became two remarks
_REMARKS = """
- <term>Ascend 950PR/Ascend 950DT</term>：
  - 入参`mask`，不支持空tensor。
- <term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>、<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：
  - 入参`mask`，支持空tensor。
"""


def _with_products(write_doc, name: str, mask_cell: str, remarks: str = "") -> OperatorDoc:
    text = _ERRORS_DOC.format(row="mask的shape不合法。", cell="-", note="-")
    text = text.replace("\n## aclnnDemoGetWorkspaceSize", _PRODUCTS + "\n## aclnnDemoGetWorkspaceSize")
    text = text.replace("<td>掩码。</td><td>-</td>", f"<td>掩码。</td><td>{mask_cell}</td>")
    return parse_file(
        write_doc(text.replace("</tbody></table>\n\n<table>", f"</tbody></table>\n{remarks}\n<table>"), name)
    )


def _flags(changes) -> list[tuple]:
    return [(c.id, c.severity, c.param, c.after["supported"], c.after["products"]) for c in changes]


def test_a_lifted_limit_is_non_breaking_and_scoped_to_its_products(write_doc):
    """A stated 不支持空Tensor gone is a lifted limit (no call can fail for it), on the products
    the remarks that replace it say so: not on every product, not a text to read."""
    limited = _with_products(write_doc, "a.md", "不支持空Tensor。")
    assert limited.functions[0].param("mask").empty_tensor is False
    gone = diff([limited], [_with_products(write_doc, "b.md", "-")])
    assert _flags(gone) == [("empty-tensor-added", "non-breaking", "mask", None, [])]
    scoped = diff([limited], [_with_products(write_doc, "c.md", "-", _REMARKS)])
    assert _flags(scoped) == [("empty-tensor-added", "non-breaking", "mask", True, ["910b", "A3"])]
    back = diff([_with_products(write_doc, "c.md", "-", _REMARKS)], [limited])
    assert _flags(back) == [("empty-tensor-removed", "breaking", "mask", False, ["910b", "A3"])]


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        # aclnnExpand-like: `shape` holds the dimensions; 形状 is selfRef's own shape, no relation
        ("const aclIntArray* shape", [("constraint-text-added", "info", "selfRef")]),
        # a tensor named `shape`: the same words are a shape relation
        ("const aclTensor* shape", [("shape-rule-added", "breaking", None)]),
    ],
)
def test_a_relation_holds_only_between_parameters_that_have_it(write_doc, declared, expected):
    """A shape relation needs two tensors: a word taken for the name of an aclIntArray is a
    statement to read, not a new same-shape rule."""

    def doc(name: str, cell: str) -> OperatorDoc:
        text = _ERRORS_DOC.format(row="mask的shape不合法。", cell=cell, note="-").replace("mask", "shape")
        cell_type = declared.split()[1]
        text = text.replace("const aclTensor* shape", declared).replace("shape（aclTensor*）", f"shape（{cell_type}）")
        return parse_file(write_doc(text, name))

    changes = diff([doc("a.md", "-")], [doc("b.md", "形状与shape一致。")])
    assert [(c.id, c.severity, c.param) for c in changes] == expected


@pytest.mark.parametrize(
    "layout",
    ["{product}：offset必须为4的倍数。", "{product}：\n  - offset必须为4的倍数。"],
)
def test_a_note_moved_to_another_product_is_a_change(write_doc, layout):
    """The same words said for 950 instead of A2 hold where they did not: reported, with both
    scopes; said again for the same product, nothing."""
    a2 = layout.format(product="<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>")
    ascend = layout.format(product="<term>Ascend 950PR/Ascend 950DT</term>")
    row = {"row": "mask的shape不合法。"}
    moved = diff([_demo(write_doc, "a.md", **row, note=a2)], [_demo(write_doc, "b.md", **row, note=ascend)])
    assert [(c.id, c.before["products"], c.after["products"]) for c in moved] == [
        ("constraint-text-changed", ["910b"], ["950"])
    ]
    assert "now for 950" in summary(moved[0])
    assert diff([_demo(write_doc, "a.md", **row, note=a2)], [_demo(write_doc, "c.md", **row, note=a2)]) == []


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        # aclnnAddmmWeightNz (ops-nn 904959e..699ebab): two more shapes of self are supported
        (
            "self支持shape为（n），（1，n），（m，n）。",
            "self支持shape为（n）、（1，n）、（m，1）、（1，1）或（m，n）。",
            "widened",
        ),
        (
            "self支持shape为（n）、（1，n）、（m，1）、（1，1）或（m，n）。",
            "self支持shape为（n），（1，n），（m，n）。",
            "narrowed",
        ),
        # aclnnForeachSubListV2 (ops-nn f0119e3..904959e): the condition of a permission lists more
        (
            "当mask的数据类型为INT32时，数据类型支持INT32、INT64。",
            "当mask的数据类型为INT32、INT16、INT8、UINT8时，数据类型支持INT32、INT64。",
            "widened",
        ),
        # a member renamed (reflect -> reflect1d) is no member added
        ("padding模式支持reflect、constant。", "padding模式支持reflect1d、constant。", "text"),
        # a bounded list (仅支持) applied to more cases may reject more: read by hand
        ("当mask为INT32时，仅支持FLOAT。", "当mask为INT32、INT8时，仅支持FLOAT。", "text"),
        # one member swapped for another: neither list holds the other
        ("self支持shape为（n），（1，n）。", "self支持shape为（n），（m，1）。", "text"),
        # a negated list rejects more with each member: left to be read
        ("offset不支持取值为1、2。", "offset不支持取值为1、2、3。", "text"),
    ],
)
def test_a_list_of_what_is_supported_is_classed_by_its_members(write_doc, before, after, expected):
    changes = diff([_demo(write_doc, "a.md", row="-", cell=before)], [_demo(write_doc, "b.md", row="-", cell=after)])
    ids = {"widened": "constraint-list-widened", "narrowed": "constraint-list-narrowed"}
    assert [c.id for c in changes] == [ids.get(expected, "constraint-text-changed")]


_MATH_TYPES = "<li>0：KEEP_DTYPE，保持输入的数据类型进行计算。</li><li>1：ALLOW_FP32_DOWN_PRECISION，支持将输入数据降精度计算。</li>"
_NEW_TYPE = "<li>4：USE_FP32_ADD，支持使用高精度方式进行计算。</li>"


def _with_enum(write_doc, name: str, items: str, note: str = "-") -> OperatorDoc:
    text = _ERRORS_DOC.format(row="mask的shape不合法。", cell="-", note=note)
    text = text.replace("const aclTensor* mask,", "const aclTensor* mask, int8_t cubeMathType,")
    row = f"<tr><td>cubeMathType（int8_t）</td><td>输入</td><td>计算逻辑。</td><td><ul>{items}</ul></td><td>INT8</td><td>-</td></tr>"
    return parse_file(
        write_doc(text.replace("</tbody></table>\n\n<table>", f"{row}\n</tbody></table>\n\n<table>"), name)
    )


def test_a_statement_explaining_a_new_enum_value_is_part_of_that_change(write_doc):
    """aclnnAddmmWeightNz (ops-nn 904959e..699ebab): cubeMathType gains 4, its cell the item
    `4：USE_FP32_ADD，…` and the notes a line `cubeMathType=4，当…`: one change, not three."""
    note = "<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：cubeMathType=4，当selfRef为FLOAT16时，使用FLOAT32中间结果计算。"
    old = _with_enum(write_doc, "a.md", _MATH_TYPES)
    new = _with_enum(write_doc, "b.md", _MATH_TYPES + _NEW_TYPE, note=note)
    assert [(c.id, c.values) for c in diff([old], [new])] == [("enum-values-added", (4,))]
    assert [(c.id, c.values) for c in diff([new], [old])] == [("enum-values-removed", (4,))]
    # a statement about a value both versions have is still compared
    kept = _with_enum(write_doc, "c.md", _MATH_TYPES, note=note.replace("=4", "=1"))
    assert [c.id for c in diff([old], [kept])] == ["constraint-text-added"]


def test_a_note_for_a2_and_a3_is_for_both_however_written(write_doc):
    """Commit 5618748 writes `A2/A3平台：` as two <term> tags: the same products, no change;
    the words said for A3 alone are a change of scope."""
    row = {"row": "mask的shape不合法。"}
    slash = "A2/A3平台：默认非确定性实现。"
    tags = (
        "<term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>、"
        "<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：默认非确定性实现。"
    )
    assert diff([_demo(write_doc, "a.md", **row, note=slash)], [_demo(write_doc, "b.md", **row, note=tags)]) == []
    narrowed = diff(
        [_demo(write_doc, "a.md", **row, note=slash)],
        [_demo(write_doc, "c.md", **row, note="A3平台：默认非确定性实现。")],
    )
    assert [(c.id, c.before["products"], c.after["products"]) for c in narrowed] == [
        ("constraint-text-changed", ["910b", "A3"], ["A3"])
    ]


def test_a_product_remark_listing_more_dtypes_widens_that_product(write_doc):
    """aclnnSigmoid (ops-nn 5e28e45): an A3/A2 remark listing the column's dtypes and INT8 is
    those products' own set; deleting it withdraws INT8 there, and only there."""
    remark = (
        "\n- <term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>、"
        "<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：selfRef的数据类型支持FLOAT、FLOAT16、INT8。\n"
    )
    wide = _with_products(write_doc, "a.md", "-", remark)
    assert wide.functions[0].param("selfRef").product_dtypes == {
        "A3": ["FLOAT", "FLOAT16", "INT8"],
        "910b": ["FLOAT", "FLOAT16", "INT8"],
    }
    # unnamed, the remark is about the parameter whose dtypes it lists: mask keeps its BOOL
    unnamed = _with_products(write_doc, "c.md", "-", remark.replace("selfRef的数据类型", "数据类型"))
    assert unnamed.functions[0].param("selfRef").product_dtypes == wide.functions[0].param("selfRef").product_dtypes
    assert unnamed.functions[0].param("mask").product_dtypes == {}
    changes = diff([wide], [_with_products(write_doc, "b.md", "-")])
    assert [(c.id, c.param, c.values, c.after.get("products")) for c in changes] == [
        ("dtype-removed", "selfRef", ("INT8",), ["910b", "A3"])
    ]


def test_second_phase_parameters_are_compared(write_doc):
    """The execute function's parameters are the contract too (Expm1's `workspace_size` ->
    `workspaceSize`, `const aclrtStream` -> `aclrtStream`): a rename C callers do not see, a
    top-level const they do not either, and no Python keyword (the wrapper passes them)."""
    old = _demo(write_doc, "a.md", row="mask的shape不合法。")
    text = _ERRORS_DOC.format(row="mask的shape不合法。", cell="-", note="确定性计算：默认确定性实现。").replace(
        "uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream",
        "uint64_t workspace_size, aclOpExecutor* executor, const aclrtStream stream",
    )
    new = parse_file(write_doc(text, "b.md"))
    changes = [(c.id, c.severity, c.param, c.before, c.after) for c in diff([old], [new])]
    assert changes == [
        ("param-renamed", "non-breaking", "workspace_size", "workspaceSize", "workspace_size"),
        ("param-qualifier-changed", "info", "stream", "aclrtStream", "const aclrtStream"),
    ]


@pytest.mark.parametrize(
    "cell",
    ["与mask的数据类型需满足数据类型推导规则。", "数据类型需要可转换成mask的数据类型。"],
)
def test_a_dtype_compatibility_rule_is_compared(write_doc, cell):
    """Promotion (数据类型推导规则) and castability (可转换成) bind two parameters' dtypes: a
    pair that was free is constrained (breaking), and the reverse loosens."""
    free, bound = (
        _demo(write_doc, "a.md", row="-", cell="-", note="-"),
        _demo(write_doc, "b.md", row="-", cell=cell, note="-"),
    )
    assert [(c.id, c.severity, c.after) for c in diff([free], [bound])] == [
        ("castable-rule-added", "breaking", ["mask", "selfRef"])
    ]
    assert [(c.id, c.severity, c.before) for c in diff([bound], [free])] == [
        ("castable-rule-removed", "non-breaking", ["mask", "selfRef"])
    ]


def test_a_flag_said_per_product_without_a_product_list_is_not_silent(write_doc):
    """A document with no product list whose remarks say per product `入参mask，不支持空tensor`
    still has those facts, for the products the remarks name."""
    remarks = _REMARKS.replace("、<term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>", "")
    plain = _demo(write_doc, "a.md", row="mask的shape不合法。")
    text = _ERRORS_DOC.format(row="mask的shape不合法。", cell="-", note="确定性计算：默认确定性实现。")
    said = parse_file(
        write_doc(text.replace("</tbody></table>\n\n<table>", f"</tbody></table>\n{remarks}\n<table>"), "b.md")
    )
    assert not said.products
    changes = diff([plain], [said])
    assert [(c.id, c.param, c.after["value"], c.after["products"]) for c in changes] == [
        ("constraint-documented", "mask", False, ["950"]),
        ("constraint-documented", "mask", True, ["A3"]),
    ]


def test_curly_and_straight_quotes_are_the_same_words():
    """ops-nn 08aaf7d: '仅支持输入为空指针或"rint"' became '…或“rint”' (a format-only commit)."""
    assert normalise('仅支持输入为空指针或"rint"') == normalise("仅支持输入为空指针或“rint”")
    assert normalise("仅支持“rint”") != normalise("仅支持“round”")
