"""No structure of a document dropped silently: every line of the constraints section (约束说明) —
bullets at any depth, paragraphs, Markdown and HTML table rows — and every per-product remark of
the parameter section is cited, by its line number, by a statement of the generated function:
enforced by the rule that reads it, or named as not checked with a reason. The lines that are no
statements are a small, explicit list (`_NOT_A_STATEMENT`). Corpus documents are skipped when
the corpus is absent."""

from __future__ import annotations

import re

import pytest

from specgen.codegen.note_lines import note_lines
from specgen.model import OperatorDoc
from specgen.parse import parse_paths
from tests.validator_calls import first_violation, function_code, lowered_functions

# Lines that state nothing of their own, by kind:
_NOT_A_STATEMENT = (
    re.compile(r"^\s*$"),  # blank
    re.compile(r"^\s*#"),  # a heading
    re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$"),  # a Markdown table's separator row
    re.compile(r"^\s*(?:[-*+]\s+)?无[。.]?\s*$"),  # `无`: the section states nothing
    re.compile(r"^\s*!\["),  # an image
    # a lead-in ending in a colon (`当前支持的场景：`, `<term>Atlas 推理系列产品</term>：`): the items
    # or the table under it are the statements, it is their context
    re.compile(r"^\s*(?:[-*+]\s+|\d+[.、]\s+)?(?:\*\*)?[^，。；;：:|]{0,120}[：:](?:\*\*)?\s*$"),
)
_TAG = re.compile(r"<[^<>]*>")


def _not_a_statement(line: str, following: str) -> bool:
    if any(p.match(line) or p.match(_TAG.sub("", line)) for p in _NOT_A_STATEMENT):
        return True  # (`<summary><strong>MX量化场景约束：</strong></summary>`: a lead-in in markup)
    if not _TAG.sub("", line).replace("*", "").strip():
        return True  # markup only: an HTML tag or comment (`<!-- npu=… -->`, `<tr>`)
    if line.strip().startswith("|") and _NOT_A_STATEMENT[2].match(following):
        return True  # a Markdown table's header row: its cells are each row's context
    if "<summary" in line:
        return True  # a collapsible block's heading: the context of the statements it holds
    return "<th" in line and 'scope="row"' not in line  # an HTML table's header cell: the same


def _code_lines(lines: list[str]) -> set[int]:
    """Offsets of code fences and the lines between them."""
    inside, found = False, set()
    for offset, line in enumerate(lines):
        fence = line.strip().startswith("```")
        if inside or fence:
            found.add(offset)
        if fence:
            inside = not inside
    return found


def uncited_lines(doc: OperatorDoc, fn) -> list[str]:
    """The lines of the constraints section and of the function's remarks no statement of its
    generated cases cites."""
    cited = {n for s in fn.cases.statements for n in range(s.line, max(s.line, s.end) + 1)}
    missing = []
    if doc.notes is not None:
        lines = doc.notes.text.splitlines()
        code = _code_lines(lines)
        for offset, line in enumerate(lines):
            following = lines[offset + 1] if offset + 1 < len(lines) else ""
            at = doc.notes.line + offset
            if offset not in code and at not in cited and not _not_a_statement(line, following):
                missing.append(f"约束说明 line {at}: {line.strip()[:80]}")
    missing += [f"remark line {r.line}: {r.text[:80]}" for r in fn.function.remarks if r.line not in cited]
    return missing


@pytest.fixture(scope="module")
def corpus_docs(corpus) -> list[OperatorDoc]:
    legacy = corpus / "docs" / "legacy"
    return [*parse_paths([corpus / "docs" / "ops-nn"]), *parse_paths(sorted(legacy.glob("*.md")))]


@pytest.mark.slow
def test_every_line_of_the_constraints_section_is_a_statement(corpus_docs):
    functions = 0
    silent: list[str] = []
    for doc, fn in lowered_functions(corpus_docs):
        functions += 1
        silent += [f"{doc.source} {fn.name}: {line}" for line in uncited_lines(doc, fn)]
    assert functions > 400
    assert silent == [], f"{len(silent)} lines dropped:\n" + "\n".join(silent[:60])


def test_a_table_row_is_one_statement_with_its_header_cells(corpus):
    """GroupedMatmul.md:125 `| 单多单 |1）仅支持splitItem为2/3<br>2）必须传groupListOptional…` under the
    header `| 支持场景 | 场景限制 |` (l.123) was dropped: only the sentence above the table was named."""
    fn = function_code(corpus / "docs" / "legacy" / "GroupedMatmul.md")
    rules = {r.id: r for r in fn.cases.rules}
    [row] = [s for s in fn.cases.statements if s.line == 126]
    assert row.text.startswith("支持场景：单多单；场景限制：1）仅支持splitItem为2/3；2）必须传groupListOptional")
    assert not row.enforced and "支持场景：单多单" in rules[row.rule].reason


def test_a_per_product_remark_not_typed_whole_is_named(corpus):
    """aclnnAscendQuant.md:196 `出参`y`数据类型仅支持INT8，数据格式不支持NZ。` (Atlas 推理系列产品) was in
    no rule; l.195's BFLOAT16 half is typed (checked), its `数据格式不支持NZ` half is not."""
    path = corpus / "docs" / "ops-nn" / "quant" / "ascend_quant_v2" / "docs" / "aclnnAscendQuant.md"
    fn = function_code(path)
    rules = {r.id: r for r in fn.cases.rules}
    remarks = {s.line: rules[s.rule] for s in fn.cases.statements if s.kind == "remark"}
    assert remarks[196].condition == "310p：出参y数据类型仅支持INT8，数据格式不支持NZ。" and not remarks[196].host
    assert "rule2_dtypes" in remarks[195].reason and "no rule reads the rest" in remarks[195].reason


def test_a_bullet_continuation_line_joins_its_bullet():
    """GroupedMatmul.md:120-121: `- 当前支持的场景：` then, on the next line, `支持场景中单表示单tensor…`."""
    text = "  - 当前支持的场景：\n    支持场景中单表示单tensor。\n\n    | a | b |\n    |--|--|\n    | 1 | 2 |\n"
    [lead, row] = note_lines(text)
    assert (lead.offset, lead.end, lead.text) == (0, 1, "当前支持的场景：支持场景中单表示单tensor。")
    assert (row.offset, row.text, row.context) == (5, "a：1；b：2", "当前支持的场景：支持场景中单表示单tensor。；a：1")
    [row] = note_lines(
        "- <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>、<term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>：\n\n  | x1 |\n  | -- |\n  | INT8 |\n"
    )
    assert (
        row.context
        == "Atlas A2 训练系列产品/Atlas A2 推理系列产品、Atlas A3 训练系列产品/Atlas A3 推理系列产品；x1：INT8"
    )


@pytest.mark.parametrize(("stem", "first"), [("PromptFlashAttentionV2", 125), ("PromptFlashAttentionV3", 130)])
def test_a_parameter_sub_bullet_under_a_product_is_a_statement_of_that_product(corpus, stem, first):
    """PromptFlashAttentionV2.md:124-130 sparseMode, under `<term>Atlas A2 训练系列产品/…</term>：`:
    `sparseMode为1时，代表allMask，必须传入完整的attenmask矩阵（S1 * S2）。` … `sparseMode为5、6、7、8时，…
    **均暂不支持**`: the items were in no rule. They are the product's statements now: its values 0-4
    one list (5 refused on that product, 0-4 accepted), the rest named."""
    fn = function_code(corpus / "docs" / "legacy" / f"{stem}.md")
    cited = {s.line for s in fn.cases.statements if s.param == "sparseMode"}
    assert set(range(first, first + 6)) <= cited
    named = {s.text for s in fn.cases.statements if s.param == "sparseMode" and not s.enforced}
    assert "必须传入完整的attenmask矩阵（S1 * S2）" in named
    for value in range(5):
        assert first_violation(fn, product="910b", sparseMode=value) is None, value
    assert first_violation(fn, product="910b", sparseMode=5) is not None
    assert first_violation(fn) is None  # the document's own call


@pytest.mark.parametrize(("stem", "line"), [("GroupedMatmul", 12), ("GroupedMatmulV3", 14)])
def test_a_matrix_product_of_list_elements_is_named_with_its_reason(corpus, stem, line):
    """GroupedMatmul.md:12 `$y_i[m_i,n_i]=x_i[m_i,k_i] \\times weight_i[k_i,n_i], i=1...g$`: the K agreement
    was neither checked nor listed. No check pairs two lists' elements (and the scenario decides which
    pair: the sample of GroupedMatmulV3 passes one x (512,256) with one weight (2,256,256)), so it is
    named, with the dimensions it relates; the document's own call still passes."""
    fn = function_code(corpus / "docs" / "legacy" / f"{stem}.md")
    [rule] = [r for r in fn.cases.rules if r.condition == "y_i[m_i,n_i]=x_i[m_i,k_i] \\times weight_i[k_i,n_i]"]
    assert not rule.host and rule.params == ("x", "weight", "y")
    assert (
        f"line {line}" in rule.reason and "x_i's last dimension (k_i) equals weight_i's first-but-last" in rule.reason
    )
    assert [s.line for s in fn.cases.statements if s.rule == rule.id] == [line]
    assert first_violation(fn) is None
