"""Tables inside tables, and error codes no error row is read from (issue 23): a `<table>`
opened inside a parameter table must not swallow the error table after it, a table nested in
a cell must not add rows to the table around it, and a section that names 161001/161002 but
yields no error row gets a located warning instead of silence. Built on a real document."""

from __future__ import annotations

import pytest

from specgen.parse import parse_document

DOC = "ops-nn/optim/advance_step/docs/aclnnAdvanceStep.md"
PARAM_CELL = "<td>输入</td>"  # the second cell of inputTokens' row in the parameter table
ERROR_ROW = "<td>161001</td>"


@pytest.fixture(scope="module")
def text(corpus) -> str:
    return (corpus / "docs" / DOC).read_text(encoding="utf-8")


def _errors(text: str) -> list[tuple[int, str]]:
    (fn,) = parse_document("aclnnAdvanceStep.md", text.encode("utf-8")).functions
    return [(e.code, e.condition) for e in fn.errors]


def _warnings(text: str) -> list[str]:
    doc = parse_document("aclnnAdvanceStep.md", text.encode("utf-8"))
    return [f"{d.line}: {d.message}" for d in doc.diagnostics if d.code == "no-error-rows"]


def test_the_clean_document_reads_its_error_rows(text):
    assert (
        161001,
        "传入的inputTokens、sampledTokenIds、inputPositions、seqLens、slotMapping、blockTables是空指针",
    ) in _errors(text)
    assert _warnings(text) == []


def test_a_table_opened_inside_a_parameter_table_and_never_closed_keeps_the_error_table(text):
    broken = text.replace(PARAM_CELL, "<td>输入<table></td>", 1)
    assert _errors(broken) == _errors(text)


def test_a_table_opened_between_rows_keeps_every_row(text):
    broken = text.replace("    <tr>\n      <td>sampledTokenIds", "    <table>\n    <tr>\n      <td>sampledTokenIds", 1)
    assert broken != text
    (fn,) = parse_document("aclnnAdvanceStep.md", broken.encode("utf-8")).functions
    assert fn.param("sampledTokenIds").dtypes == ["INT64"]
    assert _errors(broken) == _errors(text)


def test_a_table_nested_in_an_error_cell_adds_no_row(text):
    """A small table inside a condition's cell is part of that cell's text, not rows of its own."""
    cell = "是空指针。</td>"
    nested = "是空指针。<table><tr><td>嵌套</td></tr><tr><td>表格</td></tr></table></td>"
    assert cell in text
    read = _errors(text.replace(cell, nested, 1))
    assert (161001, "嵌套") not in read and (161001, "表格") not in read  # its rows are no rows of the outer table
    assert [e for e in read if "嵌套" not in e[1]] == _errors(text)


def test_error_codes_without_a_row_read_get_a_located_warning(text):
    unread = text.replace("<th>错误码</th>", "<th>代码</th>").replace("<th>返回码</th>", "<th>名称</th>")
    assert _errors(unread) == []
    (warning,) = _warnings(unread)
    line = int(warning.split(":")[0])
    assert "161001" in unread.splitlines()[line - 1] or "161002" in unread.splitlines()[line - 1]
