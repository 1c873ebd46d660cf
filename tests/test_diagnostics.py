"""One shape for located messages: `Location`, one `Diagnostic` of registered codes (`Code`),
and the registries of diff change ids (`ChangeId`) and lint rules (`Rule`), in step with the
README's tables."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from specgen.diagnostics import CODES, Code, Location
from specgen.model import Diagnostic
from specgen.review import diff, diff_summary
from specgen.review.diff import ChangeId
from specgen.review.report import Item, problem_code
from specgen.review.rules import PROBLEM_CODES, SEVERITY_ORDER, Rule
from tests.conftest import ROOT, documentation, run_main

SEVERITIES = {"error", "warning", "info"}
PRINTED_CODE = re.compile(r"\[([a-z0-9-]+)\]$", re.M)


# ---------------------------------------------------------------- Location


@pytest.mark.parametrize(
    ("text", "path", "line"),
    [("docs/aclnnAdd.md:12", "docs/aclnnAdd.md", 12), ("C:\\ops\\aclnn A&B.md:3", "C:\\ops\\aclnn A&B.md", 3)],
)
def test_a_location_prints_and_parses_as_path_colon_line(text, path, line):
    where = Location.parse(text)
    assert where == Location(path, line) and str(where) == text and f"{where}: x" == f"{text}: x"


@pytest.mark.parametrize("text", ["aclnnAdd.md", "aclnnAdd.md:", ":3", "aclnnAdd.md:three"])
def test_a_location_without_a_line_is_refused(text):
    with pytest.raises(ValueError, match="not a location"):
        Location.parse(text)


def test_ci_formats_count_lines_from_one():
    assert Item("doc-no-api", "error", "m", Location("a.md", 0)).line == 1
    assert Item("doc-no-api", "error", "m", None).path is None


# ---------------------------------------------------------------- diagnostic codes


def test_every_code_has_a_default_severity_and_a_one_line_meaning():
    for code in Code:
        assert code.severity in SEVERITIES, code
        assert code.meaning and "\n" not in code.meaning and len(code.meaning) <= 120, code
        assert code == code.value and re.fullmatch(r"[a-z]+(?:-[a-z]+)*", code), code


def test_a_diagnostic_takes_only_a_registered_code():
    with pytest.raises(ValidationError, match="not a registered diagnostic code"):
        Diagnostic(line=1, severity="error", code="no-such-code", message="m")
    assert Diagnostic(line=1, severity="info", code="duplicate-document", message="m").code == Code.DUPLICATE_DOCUMENT


def test_a_diagnostic_takes_its_code_default_severity_unless_told():
    expected = Diagnostic(line=3, severity="error", code="prototype-syntax", message="m")
    assert Diagnostic.at(3, Code.PROTOTYPE_SYNTAX, "m") == expected
    assert Diagnostic.at(3, Code.DUPLICATE_DOCUMENT, "m", "warning").severity == "warning"


def test_a_diagnostic_dumps_as_before():
    """Plain strings, in the order `specgen parse --format json` has always printed."""
    dumped = Diagnostic.at(7, Code.UNCLOSED_FENCE, "m").model_dump_json()
    assert dumped == '{"line":7,"severity":"warning","code":"unclosed-fence","message":"m"}'


def test_problem_codes_map_diagnostic_codes_to_lint_rules():
    assert set(PROBLEM_CODES) <= CODES and set(PROBLEM_CODES.values()) <= set(Rule)


def test_a_problem_has_one_severity_in_every_command():
    """parse and generate print a diagnostic under its lint rule's name: with the same severity."""
    differ = {code: (Code(code).severity, rule.severity) for code, rule in PROBLEM_CODES.items()}
    assert {c: s for c, s in differ.items() if s[0] != s[1]} == {}
    assert problem_code(Code.NO_API) == "doc-no-api" and problem_code(Code.NAME_TYPO) == "name-typo"


DAMAGED = {
    "aclnnNoApi.md": "# aclnnNoApi\n\nTBD\n",
    "aclnnBroken.md": (
        "# aclnnBroken\n\n## 产品支持情况\n\n| 产品 | 是否支持 |\n|---|---|\n| 不存在的产品 | √ |\n\n"
        "## 函数原型\n\n```cpp\naclnnStatus aclnnBrokenGetWorkspaceSize(const aclTensor* self, "
        "aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);\n"
        "aclnnStatus aclnnBroken(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, "
        "aclrtStream stream);\n```\n\n<<<<<<< HEAD\n\n```cpp\nint main() {\n"
    ),
}


def test_every_code_printed_is_registered(tmp_path, capsys, monkeypatch):
    """Diagnostics of damaged documents (and of the seeds), as every command prints them:
    under a registered code, or under the lint rule of `PROBLEM_CODES`."""
    for name, text in DAMAGED.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    _, _, err = run_main(["parse", "-v", str(tmp_path), str(ROOT / "specs")], ROOT, capsys, monkeypatch)
    printed = set(PRINTED_CODE.findall(err))
    assert {"doc-no-api", "doc-unclosed-fence", "doc-conflict-marker", "unknown-product"} <= printed
    assert printed <= CODES | set(PROBLEM_CODES.values())


def test_codes_the_readme_prints_are_registered():
    readme = documentation()
    printed = set(re.findall(r"^\S+:\d+: (?:error|warning|info): .* \[([a-z-]+)\]$", readme, re.M))
    assert printed and printed <= CODES | set(Rule)


# ---------------------------------------------------------------- diff and lint registries


def _table(header: str) -> dict[str, str]:
    """The README table under `header`: first column (an id in backticks) -> second column."""
    lines = documentation().splitlines()
    start = lines.index(header) + 2
    rows = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1]
    return rows


def test_the_readme_table_of_change_ids_is_the_catalogue():
    table = _table("| id | severity | meaning |")
    assert list(table) == list(ChangeId)
    assert {id: severity for id, severity in table.items()} == {id.value: id.severity for id in ChangeId}


def test_the_readme_table_of_lint_rules_is_the_registry():
    table = _table("| rule | severity | finds |")
    assert list(table) == list(Rule)
    assert {rule: severity.split(";")[0] for rule, severity in table.items()} == {r.value: r.severity for r in Rule}


def test_every_severity_of_the_registries_has_a_rank():
    assert {id.severity for id in ChangeId} <= set(diff.SEVERITY_ORDER)
    assert {rule.severity for rule in Rule} <= set(SEVERITY_ORDER)


def test_every_change_id_reads_as_a_sentence():
    assert set(diff_summary._SENTENCES) == set(ChangeId)
