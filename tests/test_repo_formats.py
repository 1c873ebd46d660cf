"""CI formats of diff and lint (SARIF 2.1.0, JUnit XML, Markdown with counts), plain-English
diff messages with JSON of one shape per change id, and one code per problem."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest

from specgen.cli import main
from specgen.diagnostics import Location
from specgen.parse import parse_file
from specgen.review import report
from specgen.review.diff import CATALOGUE, diff, summary
from specgen.review.lint import _DIAGNOSTIC_RULES
from specgen.review.rules import RULES
from tests.conftest import SPECS

TANH = "aclnnTanhBackward.md"


@pytest.fixture
def versions(tmp_path):
    """Two versions of the tanh document: DOUBLE dropped, a parameter renamed."""
    old, new = tmp_path / "old" / TANH, tmp_path / "new" / TANH
    old.parent.mkdir()
    new.parent.mkdir()
    shutil.copy(SPECS / TANH, old)
    text = old.read_text(encoding="utf-8").replace("DOUBLE、", "")
    new.write_text(re.sub(r"\bgradOutput\b", "gradOut", text), encoding="utf-8")
    return old, new


def output(capsys, args: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(args)
    return code, capsys.readouterr().out


def test_sarif_is_well_formed_for_diff_and_lint(versions, capsys):
    old, new = versions
    for args, catalogue in (
        (["diff", str(old), str(new), "--format", "sarif"], CATALOGUE),
        (["lint", str(SPECS), "--format", "sarif", "--show-suppressed"], RULES),
    ):
        code, text = output(capsys, args)
        log = json.loads(text)
        assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
        (run,) = log["runs"]
        rules = run["tool"]["driver"]["rules"]
        assert [r["id"] for r in rules] == list(catalogue)
        assert run["results"]
        for result in run["results"]:
            assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
            assert result["level"] in ("error", "warning", "note") and result["message"]["text"]
            (location,) = result["locations"]
            physical = location["physicalLocation"]
            assert physical["region"]["startLine"] >= 1
            assert physical["artifactLocation"]["uri"].endswith(TANH) or "aclnn" in physical["artifactLocation"]["uri"]


def test_sarif_uris_are_encoded_and_suppressions_marked():
    item = report.Item("doc-no-api", "error", "m", Location("ops/docs/aclnnA&aclnnInplace A.md", 3), "suppressed")
    (result,) = json.loads(report.sarif([item], RULES))["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "ops/docs/aclnnA&aclnnInplace%20A.md", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3}
    assert result["suppressions"] == [{"kind": "inSource", "status": "accepted"}]


def test_junit_has_a_case_per_document_failing_at_the_bar(versions, capsys):
    code, text = output(capsys, ["lint", str(SPECS), "--format", "junit"])
    suite = ET.fromstring(text).find("testsuite")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert len(cases) == 3 == int(suite.get("tests"))
    failing = {name for name, case in cases.items() if case.find("failure") is not None}
    assert failing == {f"{SPECS / TANH}"} and code == 1  # its sample copies an input back (an error)
    assert int(suite.get("failures")) == 1
    old, new = versions
    code, text = output(capsys, ["diff", str(old), str(new), "--format", "junit"])
    failure = ET.fromstring(text).find("testsuite/testcase/failure")
    assert failure is not None and "dtype-removed" in failure.text and code == 0


def test_markdown_counts_each_severity(versions, capsys):
    old, new = versions
    _, text = output(capsys, ["diff", str(old), str(new), "--format", "markdown"])
    counts = re.search(r"^\*\*(\d+) breaking, (\d+) non-breaking, (\d+) info\*\*$", text, re.M)
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| severity")]
    assert counts and sum(map(int, counts.groups())) == len(rows)
    _, text = output(capsys, ["lint", str(SPECS), "--format", "markdown"])
    assert re.search(r"^\*\*\d+ error, \d+ warning, \d+ info\*\*$", text, re.M)


def test_diff_messages_are_plain_english(versions, capsys):
    old, new = versions
    _, text = output(capsys, ["diff", str(old), str(new)])
    assert "parameter gradOutput was renamed to gradOut; C callers are unaffected" in text
    assert "Python callers passing gradOutput by keyword break: it is now gradOut" in text
    assert re.search(r"parameter \w+ no longer accepts DOUBLE \[dtype-removed\]$", text, re.M)
    for leak in ("when given", "supported=", "] ->", "{'", "None"):
        assert leak not in text


def _shape(value) -> str:
    """A JSON value's shape: containers and keys; a scalar inside a table may be null."""
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{k}:{_shape(v) if isinstance(v, dict | list) else ''}" for k, v in sorted(value.items()))
            + "}"
        )
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def test_json_before_and_after_have_one_shape_per_change_id(corpus):
    shapes: dict[str, set[str]] = defaultdict(set)
    for folder in sorted((corpus / "history").iterdir()):
        for change in diff([parse_file(folder / "before.md")], [parse_file(folder / "after.md")]):
            facts = change.as_json()
            for side in ("before", "after"):
                if facts[side] is not None:
                    shapes[change.id].add(f"{side}:{_shape(facts[side])}")
            assert summary(change)  # every change reads as a sentence
    assert len(shapes) >= 15
    mixed = {id: s for id, s in shapes.items() if len({x.split(":")[0] for x in s}) < len(s)}
    # constraint-documented carries {"fact", "value"}; its value's type depends on the fact.
    assert set(mixed) <= {"constraint-documented"}, mixed


def test_one_code_per_problem_across_commands():
    assert set(_DIAGNOSTIC_RULES.items()) <= set(report.PROBLEM_CODES.items())
    assert set(report.PROBLEM_CODES.values()) <= set(RULES)
