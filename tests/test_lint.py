"""`specgen lint`: each rule on small documents written for it, the seeds, and the corpus
against headers made from expected.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen.names import snake_case
from specgen.parse import parse_file
from specgen.review.lint import lint
from specgen.review.rules import RULES
from tests.conftest import SPECS, documentation, run_main

PROTOTYPES = """# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor)
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
```
"""
PARAMS = """
## aclnnDemoGetWorkspaceSize

- **参数说明**：
  - self（aclTensor\\*，计算输入）：数据类型支持FLOAT、FLOAT16，数据类型与out一致。
  - alpha（aclScalar\\*，计算输入）：数据类型支持FLOAT。
  - out（aclTensor\\*，计算输出）：数据类型支持FLOAT、BFLOAT16。
  - workspaceSize（uint64\\_t\\*，出参）：workspace大小。
  - executor（aclOpExecutor\\*\\*，出参）：op执行器。

- **返回值**：

  ```
  返回161001（ACLNN_ERR_PARAM_NULLPTR）：1. 传入的self、alphaa或out是空指针。
  ```
"""
SAMPLE = """
## 调用示例

```Cpp
#include "acl/acl.h"
#include "aclnnop/aclnn_demo.h"
int main() {
  ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
  ret = CreateAclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
  alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
  ret = aclnnDemoGetWorkspaceSize(self, alpha, out, &workspaceSize);
  ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
  ret = aclnnDemo(workspaceAddr, workspaceSize, executor, stream);
  ret = aclrtMemcpy(resultData.data(), size, selfDeviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);
  aclDestroyTensor(self);
  aclrtFree(selfDeviceAddr);
  aclrtFree(outDeviceAddr);
  return 0;
}
```
"""


# aclnnDemoGetWorkspaceSize of PROTOTYPES as its header declares it
STD = [
    {"type": "const aclTensor*", "name": "self"},
    {"type": "const aclScalar*", "name": "alpha"},
    {"type": "aclTensor*", "name": "out"},
    {"type": "uint64_t*", "name": "workspaceSize"},
    {"type": "aclOpExecutor**", "name": "executor"},
]


def rules_of(findings):
    return sorted({f.rule for f in findings})


def test_rules_inside_a_document_and_its_sample(write_doc):
    doc = parse_file(write_doc(PROTOTYPES + PARAMS + SAMPLE))
    findings = lint([doc])
    by_rule = {f.rule: f for f in findings}
    assert rules_of(findings) == [
        "doc-dtype-contradiction",
        "doc-error-unknown-name",
        "sample-arity",
        "sample-copies-input",
        "sample-leak-memory",
        "sample-leak-object",
    ]
    assert "self and out must share a dtype" in by_rule["doc-dtype-contradiction"].message
    assert "alphaa" in by_rule["doc-error-unknown-name"].message
    assert "with 4 arguments; the prototype has 5" in by_rule["sample-arity"].message
    assert "input self" in by_rule["sample-copies-input"].message
    assert "workspaceAddr" in by_rule["sample-leak-memory"].message
    leaked = {f.message.split()[0] for f in findings if f.rule == "sample-leak-object"}
    assert leaked == {"alpha", "out"}
    assert all(f.path == doc.source and f.line > 1 for f in findings)


def test_structure_and_prototype_rules(write_doc):
    doc = parse_file(
        write_doc(
            PROTOTYPES.replace("const aclTensor* self", "const aclTensor* self,\n<<<<<<< HEAD")
            + PARAMS.replace("  - alpha（", "  - beta（aclScalar\\*，计算输入）：x。\n  - alpha（").replace(
                "  - out（aclTensor\\*，计算输出）", "  - out（aclTensor\\*，计算输入）"
            )
            + "\n```Cpp\nint x;\n"
        )
    )
    rules = rules_of(lint([doc]))
    assert {"doc-param-unknown", "doc-unclosed-fence", "doc-conflict-marker"} <= set(rules)
    placeholder = parse_file(write_doc("# aclnnTodo\n\nTBD\n", "todo.md"))
    assert rules_of(lint([placeholder])) == ["doc-no-api"]


def test_direction_only_when_an_output_is_documented_as_input(write_doc):
    as_input = PARAMS.replace("  - out（aclTensor\\*，计算输出）", "  - out（aclTensor\\*，计算输入）")
    findings = [f for f in lint([parse_file(write_doc(PROTOTYPES + as_input))]) if f.rule == "doc-direction-const"]
    assert [(f.param, f.line) for f in findings] == [("out", 14)]
    # A const output is the API's habit: the header comparison judges it, not this rule.
    const_out = PROTOTYPES.replace("aclTensor* out", "const aclTensor* out") + PARAMS
    assert not [f for f in lint([parse_file(write_doc(const_out))]) if f.rule == "doc-direction-const"]


def _headers(folder: Path, functions: dict[str, list[dict]], execute: dict[str, str]) -> Path:
    """Header files declaring `functions` as a CANN header would, with export macros,
    comments and odd spacing for the C parser to get through."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, params in functions.items():
        declared = ",\n    ".join(f"{p['type'].replace('*', ' *')} {p['name']}" for p in params)
        (folder / f"aclnn_{snake_case(name.replace('Inplace', ''))}.h").open("a", encoding="utf-8").write(
            f'#include "aclnn/aclnn_base.h"\nextern "C" {{\n/* {name}: first phase */\n'
            f"ACLNN_API aclnnStatus {name}GetWorkspaceSize(\n    {declared});\n"
            f"ACLNN_API aclnnStatus {execute.get(name, name + '(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)')};  // second\n}}\n"
        )
    return folder


def test_header_rules(write_doc, tmp_path):
    doc = parse_file(write_doc(PROTOTYPES + PARAMS))
    std = STD
    assert [
        f for f in lint([doc], _headers(tmp_path / "ok", {"aclnnDemo": std}, {})) if f.rule.startswith("header")
    ] == []
    cases = {
        "header-param-name": [dict(p, name="input") if p["name"] == "self" else p for p in std],
        "header-param-const": [dict(p, type="const aclTensor*") if p["name"] == "out" else p for p in std],
        "header-param-type": [dict(p, type="const aclTensorList*") if p["name"] == "self" else p for p in std],
        "header-param-count": std[:1] + [{"type": "int64_t", "name": "dim"}] + std[1:],
        "header-param-order": [std[1], std[0], *std[2:]],
    }
    for rule, params in cases.items():
        findings = [
            f for f in lint([doc], _headers(tmp_path / rule, {"aclnnDemo": params}, {})) if f.rule.startswith("header")
        ]
        assert rules_of(findings) == [rule], rule
    # An include tree without the operator: once per function, as information.
    other = parse_file(write_doc(PROTOTYPES.replace("aclnnDemo", "aclnnOther") + PARAMS, "aclnnOther.md"))
    tree = _headers(tmp_path / "other", {"aclnnDemo": std}, {})
    missing = [f for f in lint([doc, other], tree) if f.rule == "header-function-missing"]
    assert [(f.function, f.severity, f.line) for f in missing] == [("aclnnOther", "info", 4)]
    # One phase declared, the other not: a name the document gets wrong.
    renamed = _headers(tmp_path / "renamed", {"aclnnDemo": std}, {"aclnnDemo": "aclnnDemoRun(void *workspace)"})
    missing = [f for f in lint([doc], renamed) if f.rule == "header-function-missing"]
    assert [(f.message.split()[0], f.severity) for f in missing] == [("aclnnDemo", "error")]
    extra = _headers(tmp_path / "extra", {"aclnnDemo": std}, {})
    (extra / "aclnn_demo.h").open("a").write(
        "ACLNN_API aclnnStatus aclnnInplaceDemoGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor);\n"
    )
    assert "header-function-undocumented" in rules_of(lint([doc], extra))


def test_seed_tanh_sample_mistakes_are_found():
    findings = lint([parse_file(SPECS / "aclnnTanhBackward.md")])
    copies = [f for f in findings if f.rule == "sample-copies-input"]
    assert len(copies) == 1 and "input output" in copies[0].message
    leaked = sorted(f.message.split()[2] for f in findings if f.rule == "sample-leak-memory")
    assert leaked == ["gradInputDeviceAddr", "gradOutputDeviceAddr", "outputDeviceAddr", "workspaceAddr"]
    # The other two seeds free what they allocate and print their output.
    others = lint([parse_file(SPECS / "aclnnSoftMarginLossBackward.md")])
    assert not [f for f in others if f.rule.startswith("sample-")]


def test_corpus_header_disagreements_are_all_found_and_only_them(corpus, tmp_path):
    rows = json.loads((corpus / "expected.json").read_text(encoding="utf-8"))
    found, wrong = [], []
    for k, row in enumerate(rows):
        if not row["functions"]:
            continue
        doc = parse_file(corpus / "docs" / row["doc"])
        execute = {
            fn.name: f"{fn.name}({', '.join(f'{p.c_type} {p.name}' for p in fn.execute_params)})"
            for fn in doc.functions
            if fn.execute_params
        }
        headers = _headers(tmp_path / str(k), row["functions"], execute)
        flagged = {f.function for f in lint([doc], headers) if f.rule.startswith("header-param")}
        for name, declared in row["functions"].items():
            fn = doc.function(name)
            disagrees = [(p.c_type, p.name) for p in fn.params] != [(p["type"], p["name"]) for p in declared]
            if disagrees:
                found.append(name)
            if disagrees != (name in flagged):
                wrong.append(f"{row['doc']}: {name}: disagrees={disagrees}, flagged={name in flagged}")
    print(f"\n{len(found)} functions disagree with their headers; all are flagged")
    assert wrong == []
    assert len(found) == 25


def test_cli(capsys):
    assert main(["lint", str(SPECS), "--format", "json"]) == 1  # the tanh sample copies back an input
    data = json.loads(capsys.readouterr().out)
    assert {"rule", "severity", "path", "line", "function", "param", "message"} == set(data["findings"][0])
    assert main(["lint", str(SPECS / "aclnnSoftMarginLossBackward.md")]) == 0
    capsys.readouterr()
    assert main(["lint", str(SPECS), "--format", "github", "--fail-on", "warning"]) == 1
    assert "::error file=" in capsys.readouterr().out


@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_rule_is_documented(rule):
    assert f"`{rule}`" in documentation()


def _repository(root: Path) -> Path:
    """A repository as ops-nn lays it out: an operator with its header, its `experimental/`
    copy with a header of its own that differs, a README that is no operator document, and
    specgen's own output (`generated/`, with its manifest) declaring the function otherwise."""
    std = STD
    docs = root / "activation/demo/docs"
    docs.mkdir(parents=True)
    (docs / "aclnnDemo.md").write_text(PROTOTYPES + PARAMS, encoding="utf-8")
    _headers(root / "activation/demo/op_host/op_api", {"aclnnDemo": std}, {})
    copy = root / "experimental/activation/demo/docs"
    copy.mkdir(parents=True)
    (copy / "aclnnDemo.md").write_text(PROTOTYPES.replace("aclScalar* alpha", "aclScalar* alphaValue") + PARAMS)
    alpha_int = [dict(p, type="int64_t") if p["name"] == "alpha" else p for p in std]
    _headers(root / "experimental/activation/demo/op_host/op_api", {"aclnnDemo": alpha_int}, {})
    (root / "activation/demo/README.md").write_text(PROTOTYPES, encoding="utf-8")
    (root / "CHANGELOG.md").write_text("# changes\n", encoding="utf-8")
    _headers(root / "generated/include/aclnnop", {"aclnnDemo": std[1:]}, {})
    (root / "generated/.specgen-manifest.json").write_text('{"generator": "specgen"}\n', encoding="utf-8")
    (root / "activation/demo/aclnn_demo_copied.h").write_text(
        "/* Generated by specgen from docs/aclnnDemo.md; do not edit. */\n"
        "aclnnStatus aclnnDemoGetWorkspaceSize(uint64_t *workspaceSize, aclOpExecutor **executor);\n",
        encoding="utf-8",
    )
    return root


def test_a_whole_repository_copies_included(tmp_path, capsys, monkeypatch):
    repo = _repository(tmp_path / "repo")
    code, out, err = run_main(["lint", ".", "--headers", ".", "--format", "json"], repo, capsys, monkeypatch)
    findings = [f for f in json.loads(out)["findings"] if f["rule"].startswith("header-")]
    # The mainline document agrees with its own header; the copy, linted once at its own path,
    # is compared with the header beside it (int64_t alpha), not with the mainline's.
    assert [(f["path"], f["rule"], f["line"]) for f in findings] == [
        ("experimental/activation/demo/docs/aclnnDemo.md", "header-param-name", 4),
        ("experimental/activation/demo/docs/aclnnDemo.md", "header-param-type", 4),
    ]
    assert "in experimental/activation/demo/op_host/op_api/aclnn_demo.h" in findings[1]["message"]
    # Neither generated/ (its manifest) nor a header marked as specgen's was read.
    assert "generated" not in out and "copied" not in out
    skipped = [line for line in err.splitlines() if "not linted" in line]
    assert len(skipped) == 1 and "2 Markdown files" in skipped[0] and "1 of them declaring" in skipped[0]
    assert "`include`" in skipped[0]


def test_headers_that_are_only_specgen_output_are_refused(tmp_path, capsys, monkeypatch):
    repo = _repository(tmp_path / "repo")
    code, _, err = run_main(["lint", ".", "--headers", "generated"], repo, capsys, monkeypatch)
    assert code == 2 and "no aclnn_*.h file under generated (1 are specgen's own output" in err
