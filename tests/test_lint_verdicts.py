"""The adjudicated set (tests/lint_verdicts.json): findings on the shared corpus read by hand.
A finding judged false must not come back, one judged true must still be found, and a true
error judged too severe must no longer be an error."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from specgen.parse import parse_file
from specgen.review.findings import Finding
from specgen.review.lint import lint
from specgen.review.rules import SEVERITY_ORDER
from tests.conftest import ROOT, run_main
from tests.expected_headers import write_operator_headers
from tests.test_repo_ops_nn import _clone

VERDICTS = json.loads((ROOT / "tests" / "lint_verdicts.json").read_text(encoding="utf-8"))["verdicts"]
NEAR = 2  # lines


def write_headers(corpus: Path, folder: Path) -> Path:
    """The corpus's documents (linked) under `folder/docs`, each operator folder with its own
    header written from expected.json (tests/expected_headers.py)."""
    rows = json.loads((corpus / "expected.json").read_text(encoding="utf-8"))
    for row in rows:
        document = folder / "docs" / row["doc"]
        document.parent.mkdir(parents=True, exist_ok=True)
        document.symlink_to(corpus / "docs" / row["doc"])
    write_operator_headers(rows, folder / "docs")
    return folder


@pytest.fixture(scope="module")
def findings(corpus, tmp_path_factory) -> dict[tuple[str, str], dict[str, list[Finding]]]:
    """(headers, document) -> rule -> findings, for the documents the verdicts are about."""
    documents = sorted({v["document"] for v in VERDICTS})
    tree = write_headers(corpus, tmp_path_factory.mktemp("repository"))
    docs = [parse_file(tree / d) for d in documents]
    out: dict[tuple[str, str], dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
    for variant, folder in (("none", None), ("expected", tree)):
        for f in lint(docs, folder):
            out[variant, Path(f.path).relative_to(tree).as_posix()][f.rule].append(f)
    return out


def _near(findings, verdict) -> list[Finding]:
    line = verdict.get("now_line", verdict["line"])
    rule = verdict.get("now_rule", verdict["rule"])
    return [f for f in findings[verdict["headers"], verdict["document"]][rule] if abs(f.line - line) <= NEAR]


def _where(v) -> str:
    return f"{v['rule']} {v['document']}:{v.get('now_line', v['line'])} ({v['why']})"


def test_the_adjudicated_set_is_large_and_stratified():
    by_rule = defaultdict(int)
    for v in VERDICTS:
        by_rule[v["rule"]] += 1
    assert len(VERDICTS) >= 100 and max(by_rule.values()) <= 24


def test_findings_judged_false_do_not_come_back(findings):
    back = [
        _where(v)
        for v in VERDICTS
        if not v["verdict"]
        and any(SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER[v["severity"]] for f in _near(findings, v))
    ]
    assert back == []


def test_findings_judged_true_are_still_found(findings):
    gone = [_where(v) for v in VERDICTS if v["verdict"] and not _near(findings, v)]
    assert gone == []


def test_true_errors_judged_too_severe_are_no_longer_errors(findings):
    still = [
        _where(v)
        for v in VERDICTS
        if v["verdict"]
        and not v["severity_right"]
        and v["severity"] == "error"
        and any(f.severity == "error" for f in _near(findings, v))
    ]
    assert still == []


MISMATCHES = json.loads((ROOT / "tests" / "lint_verdicts.json").read_text(encoding="utf-8"))["mismatches"]


@pytest.mark.slow
def test_the_whole_repository_finds_every_mismatch_and_only_them(corpus, tmp_path, capsys, monkeypatch):
    """`specgen lint . --headers .` in a clone of ops-nn with its headers where the repository
    keeps them, as a user runs it: every document/header mismatch read by hand is found at
    the line that disagrees (experimental/ copies included), and every warning or error of the
    header rules is about one of them (benchmarks/lint_recall.py prints the same figures)."""
    repo = _clone(tmp_path / "ops-nn")
    rows = json.loads((corpus / "expected.json").read_text(encoding="utf-8"))
    write_operator_headers(rows, repo, "ops-nn/")
    _, out, _ = run_main(["lint", ".", "--headers", ".", "--format", "json"], repo, capsys, monkeypatch)
    findings = [f for f in json.loads(out)["findings"] if f["rule"].startswith(("header-", "doc-param-unknown"))]
    where = {(m["document"].removeprefix("docs/ops-nn/"), m["function"]): m["line"] for m in MISMATCHES}
    found = {
        (f["path"], f["function"])
        for f in findings
        if abs(f["line"] - where.get((f["path"], f["function"]), 0)) <= NEAR
    }
    assert sorted(set(where) - found) == []
    assert any(path.startswith("experimental/") for path, _ in where)
    known = {row["doc"].removeprefix("ops-nn/") for row in rows if row["functions"]}
    unexplained = [
        f"{f['path']}:{f['line']}: {f['message']}"
        for f in findings
        if f["rule"].startswith("header-")
        and f["severity"] != "info"
        and f["path"] in known
        and (f["path"], f["function"]) not in where
    ]
    assert unexplained == []
