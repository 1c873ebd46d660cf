"""The adjudicated set (tests/lint_verdicts.json): findings on the shared corpus read by hand.
A finding judged false must not come back, one judged true must still be found, and a true
error judged too severe must no longer be an error."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from specgen.codegen.names import snake_case
from specgen.parse import parse_file
from specgen.review.findings import Finding
from specgen.review.lint import lint
from specgen.review.rules import SEVERITY_ORDER
from tests.conftest import ROOT

VERDICTS = json.loads((ROOT / "tests" / "lint_verdicts.json").read_text(encoding="utf-8"))["verdicts"]
NEAR = 2  # lines


def write_headers(corpus: Path, folder: Path) -> Path:
    """The corpus's documents (linked) with, in each operator folder, the header expected.json
    says declares its functions, where the repository keeps it (`op_host/op_api/`): a mainline
    operator and its `experimental/` copy each have their own."""
    execute = "(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n"
    for row in json.loads((corpus / "expected.json").read_text(encoding="utf-8")):
        document = folder / "docs" / row["doc"]
        document.parent.mkdir(parents=True, exist_ok=True)
        document.symlink_to(corpus / "docs" / row["doc"])
        if not row["functions"]:
            continue
        text = '#include "aclnn/aclnn_base.h"\n'
        for name, params in row["functions"].items():
            declared = ",\n    ".join(f"{p['type']} {p['name']}" for p in params)
            text += f"aclnnStatus {name}GetWorkspaceSize(\n    {declared});\naclnnStatus {name}{execute}"
        first = sorted(row["functions"])[0].replace("Inplace", "")
        include = document.parent.parent / "op_host" / "op_api"
        include.mkdir(parents=True, exist_ok=True)
        with (include / f"aclnn_{snake_case(first)}.h").open("a", encoding="utf-8") as out:
            out.write(text)
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
