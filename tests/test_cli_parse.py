"""`specgen parse` and `specgen schema` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

from specgen.cli import main
from tests.conftest import SPECS


def run(*args: str, cwd=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "specgen", *args], capture_output=True, text=True, encoding="utf-8", check=False, cwd=cwd
    )


def test_parse_json_has_the_documented_fields():
    result = run("parse", str(SPECS), "--format", "json")
    assert result.returncode == 0, result.stderr
    docs = json.loads(result.stdout)
    assert [d["name"] for d in docs] == ["aclnnHardshrinkBackward", "aclnnSoftMarginLossBackward", "aclnnTanhBackward"]
    fn = docs[0]["functions"][0]
    assert set(fn) >= {"name", "line", "params", "errors"}
    param = fn["params"][0]
    assert {"name", "c_type", "direction", "dtypes", "formats", "constraints"} <= set(param)
    assert param["c_type"] == "const aclTensor*" and param["dtypes"] == ["FLOAT16", "FLOAT"]
    assert set(fn["errors"][0]) >= {"code", "name", "condition", "params", "checks"}
    assert {"line", "severity", "message"} <= set(docs[0]["diagnostics"][0])


def test_diagnostics_go_to_stderr_and_errors_set_the_exit_status(tmp_path):
    (tmp_path / "aclnnTanhBackward.md").write_text(
        (SPECS / "aclnnTanhBackward.md").read_text("utf-8"), encoding="utf-8"
    )
    (tmp_path / "sub" / "docs").mkdir(parents=True)
    broken = "# aclnnTodo\n\n```cpp\naclnnStatus aclnnTodoGetWorkspaceSize(int x,\n```\n"
    (tmp_path / "sub" / "docs" / "aclnnTodo.md").write_text(broken, encoding="utf-8")
    (tmp_path / "sub" / "README.md").write_text("# Not an operator document\n", encoding="utf-8")
    result = run("parse", str(tmp_path), "--format", "json")
    assert result.returncode == 1
    assert f"{tmp_path / 'sub' / 'docs' / 'aclnnTodo.md'}:4: error: " in result.stderr
    assert "[doc-prototype-syntax]" in result.stderr  # the code lint uses for the same problem
    docs = json.loads(result.stdout)  # the good document is still reported in full; README is not read
    assert [d["name"] for d in docs] == ["aclnnTanhBackward", "aclnnTodo"]
    assert docs[0]["functions"]
    quiet = run("parse", str(tmp_path), "--quiet")
    assert quiet.returncode == 1 and quiet.stdout == "" and "aclnnTodo.md:4: error:" in quiet.stderr


def test_usage_errors_exit_2(tmp_path):
    assert run("parse", str(tmp_path / "missing.md")).returncode == 2
    assert run("parse", str(tmp_path)).returncode == 2  # no documents
    assert run("parse", cwd=tmp_path).returncode == 2  # nothing under the working directory
    assert run("bogus").returncode == 2


def test_text_format_summarises(capsys):
    assert main(["parse", str(SPECS / "aclnnSoftMarginLossBackward.md")]) == 0
    out = capsys.readouterr().out
    assert "in    int64_t                reduction" in out
    assert "errors: 161001 x1, 161002 x3" in out


def test_schema_is_valid_json_schema(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "OperatorDoc"
    assert {"Param", "Function", "ErrorRule", "Constraint"} <= set(schema["$defs"])
    assert schema["$defs"]["Param"]["additionalProperties"] is False


def test_stats_report_classification_coverage(capsys):
    assert main(["parse", str(SPECS), "--stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["documents"] == 3 and stats["functions"] == 3
    # Every error condition of the seeds maps to a typed check.
    assert stats["conditions"]["total"] == 13 == stats["conditions"]["checked"]
    assert stats["constraints"]["by_kind"]["dtypes"] >= 10
    assert main(["parse", str(SPECS), "--stats"]) == 0
    text = capsys.readouterr().out
    assert "error-rule conditions: 13, with a typed check 13 (100.0%)" in text
    assert "  dtype rules by kind: same_set 2, same 1\n" in text
