"""`specgen diff --git` scored against changes judged by hand (tests/diff_verdicts.json): the
true contract changes of random samples of documents of two ranges of the ops-nn history,
written down from `git diff` before specgen's output was read. Precision: the share of the
reports on sampled documents that match a verdict. Recall: the share of verdicts found with
an id of the same meaning. Skipped when the bundle is absent.

`python -m tests.test_diff_verdicts` prints the figures and every miss and false report.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from specgen.review.diff import SEVERITY_ORDER
from tests.conftest import ROOT
from tests.test_repo_ops_nn import _bundle

VERDICTS = json.loads((ROOT / "tests" / "diff_verdicts.json").read_text(encoding="utf-8"))


@dataclass
class Score:
    reported: int = 0  # reports on sampled documents, less those on ambiguous verdicts
    right: int = 0  # of them, matching a verdict
    true: int = 0  # verdicts not ambiguous
    found: int = 0  # of them, matched by a report
    found_strict: int = 0  # of them, matched by a report of the verdict's severity
    misses: list[dict] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.reported if self.reported else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.true if self.true else 1.0


def _document(change: dict) -> str:
    where = change["source"]["new"] or change["source"]["old"] or ""
    return where.rpartition(":")[0]


def _products(change: dict) -> set[str] | None:
    for side in (change["after"], change["before"]):
        if isinstance(side, dict):
            if side.get("products"):
                return set(side["products"])
            if side.get("product"):
                return {side["product"]}
    return None


def _matches(verdict: dict, change: dict) -> bool:
    if change["function"] != verdict["function"] or change["id"] not in verdict["ids"]:
        return False
    if verdict["param"] is not None and change["param"] != verdict["param"]:
        return False
    return "products" not in verdict or _products(change) == set(verdict["products"])


def score_range(repo: Path, judged: dict, into: Score) -> None:
    sampled = set(judged["documents"])
    reports = [c for c in _changes(repo, judged["range"]) if _document(c) in sampled]
    verdicts = judged["changes"]
    for change in reports:
        hit = [v for v in verdicts if _matches(v, change)]
        if any(v.get("ambiguous") for v in hit):
            continue
        into.reported += 1
        if hit:
            into.right += 1
        else:
            into.false.append(f"{_document(change)}: {change['id']} {change['function']} {change['param']}")
    for verdict in verdicts:
        if verdict.get("ambiguous"):
            continue
        into.true += 1
        hit = [c for c in reports if _matches(verdict, c)]
        into.found += bool(hit)
        into.found_strict += any(SEVERITY_ORDER[c["severity"]] == SEVERITY_ORDER[verdict["severity"]] for c in hit)
        if not hit:
            into.misses.append(verdict)


def score(repo: Path) -> Score:
    total = Score()
    for judged in VERDICTS["ranges"]:
        score_range(repo, judged, total)
    return total


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    bundle = _bundle()
    if not bundle.is_file():
        pytest.skip(f"ops-nn bundle not found at {bundle}")
    clone = tmp_path_factory.mktemp("verdicts") / "ops-nn"
    subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True, capture_output=True)
    return clone


@pytest.fixture(scope="module")
def scored(repo) -> Score:
    return score(repo)


def test_verdicts_are_well_formed():
    from specgen.review.diff import CATALOGUE

    for judged in VERDICTS["ranges"]:
        for verdict in judged["changes"]:
            assert verdict["doc"] in judged["documents"], verdict
            assert set(verdict["ids"]) <= CATALOGUE.keys(), verdict["ids"]
            assert verdict["severity"] in SEVERITY_ORDER and verdict["why"]


@pytest.mark.slow
def test_precision_and_recall_on_judged_changes(scored):
    figures = f"precision {scored.right}/{scored.reported}, recall {scored.found}/{scored.true}"
    assert scored.precision >= 0.9, "\n".join([figures, *scored.false])
    assert scored.recall >= 0.9, "\n".join([figures, *(str(m["why"]) for m in scored.misses)])
    # the bar: found with the right class (a report of the judged severity)
    assert scored.found_strict >= 0.9 * scored.true, f"{figures}, {scored.found_strict} of the judged severity"


@pytest.mark.slow
def test_every_judged_breaking_change_is_reported_breaking(scored):
    broken = [str(m["why"]) for m in scored.misses if m["severity"] == "breaking"]
    assert not broken, "\n".join(broken)


@pytest.mark.slow
def test_no_report_on_a_document_whose_contract_did_not_change(scored):
    judged = {v["doc"] for r in VERDICTS["ranges"] for v in r["changes"]}
    invented = [f for f in scored.false if f.partition(":")[0] not in judged]
    assert not invented, "\n".join(invented)


# Commits of the ops-nn history that change how documents are written, not what they say,
# read from their `git diff`: product tables rewritten as `<term>` lists in `npu` comments
# (打标签), product names normalised, notes' `A2/A3平台：` written as `<term>` tags, stray
# semicolons in sample programs, documents moved to another folder. Each must give no change.
FORMAT_ONLY = {
    "d68fbae": "nn仓打标签: product tables to tagged lists (71 documents)",
    "bfbea13": "打标签 (72 documents)",
    "382af55": "打标签: `x` marks as ：x",
    "8f39a81": "optim、pooling打标签",
    "f0119e3": "rnn、vfusion、control打标签",
    "18271c4": "product names normalised (Atlas A2训练系列产品/Atlas 800I A2推理产品/… -> Atlas A2 训练系列产品/…)",
    "5618748": "notes' `A2/A3平台：` and `Ascend 950平台：` written as <term> tags",
    "472bea2": "document format and sample code style",
    "0910efb": "CHECK_RET semicolons in samples",
    "71f84b6": "CHECK_RET semicolons in samples",
    "e1e6786": "CHECK_RET syntax in samples",
    "a3f97e7": "CHECK_RET semicolons and trailing spaces",
    "6f7a2d2": "stray semicolons",
    "ab149fe": "aclnnUnique.md and aclnnUnique2.md moved to another operator's folder (same functions)",
}
# 08aaf7d (per-product cell statements moved under product headings) is judged, with the
# wording edits it may report, in tests/format_only_verdicts.json (tests/test_diff_format_only.py).


def _changes(repo: Path, spec: str) -> list[dict]:
    run = [sys.executable, "-m", "specgen", "diff", "--git", spec, "--format", "json"]
    return json.loads(subprocess.run(run, cwd=repo, capture_output=True, text=True, check=True).stdout)["changes"]


@pytest.mark.slow
@pytest.mark.parametrize("commit", sorted(FORMAT_ONLY))
def test_a_format_only_commit_gives_no_change(repo, commit):
    changes = _changes(repo, f"{commit}^..{commit}")
    assert changes == [], FORMAT_ONLY[commit]


def _main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "ops-nn"
        subprocess.run(["git", "clone", "-q", str(_bundle()), str(repo)], check=True, capture_output=True)
        result = score(repo)
    print(f"precision {result.right}/{result.reported} = {result.precision:.0%}")
    print(f"recall {result.found}/{result.true} = {result.recall:.0%} (same severity: {result.found_strict})")
    for miss in result.misses:
        print(f"missed: {miss['function']} {miss['param']} {miss['ids'][0]}: {miss['why']}")
    for report in result.false:
        print(f"false: {report}")


if __name__ == "__main__":
    sys.exit(_main())
