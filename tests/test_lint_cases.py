"""`specgen lint` on small documents written after real ones (issue 12): each misreading that
was seen on real documents, and each miss, as one fixture in the real phrasing."""

from __future__ import annotations

import json

import pytest

from specgen.cli import main
from specgen.parse import parse_file
from specgen.review.lint import HeadersError, lint
from tests.conftest import ROOT

HEAD = """# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(
  const aclTensor* self,
  const aclTensor* other,
  aclTensor*       out,
  uint64_t*        workspaceSize,
  aclOpExecutor**  executor)
```

```Cpp
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
```

## aclnnDemoGetWorkspaceSize

- **参数说明：**

  <table>
  <thead>
    <tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>数据类型</th></tr></thead>
  <tbody>
    <tr>
      <td>self（aclTensor*）</td>
      <td>输入</td>
      <td>公式中的self。</td>
      <td>FLOAT、FLOAT16</td>
    </tr>
    <tr>
      <td>other（aclTensor*）</td>
      <td>输入</td>
      <td>公式中的other。</td>
      <td>FLOAT、FLOAT16</td>
    </tr>
    <tr>
      <td>out（aclTensor*）</td>
      <td>输出</td>
      <td>公式中的out。</td>
      <td>FLOAT、FLOAT16</td>
    </tr>
    <tr><td>workspaceSize（uint64_t*）</td><td>输出</td><td>workspace大小。</td><td>-</td></tr>
    <tr><td>executor（aclOpExecutor**）</td><td>输出</td><td>op执行器。</td><td>-</td></tr>
  </tbody>
  </table>
"""


def errors_table(*conditions: str) -> str:
    rows = "".join(
        f"    <tr>\n      <td>ACLNN_ERR_PARAM_INVALID</td>\n      <td>161002</td>\n      <td>{c}</td>\n    </tr>\n"
        for c in conditions
    )
    return (
        "\n- **返回值：**\n\n  <table>\n  <thead>\n    <tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead>\n"
        f"  <tbody>\n{rows}  </tbody>\n  </table>\n"
    )


def found(write_doc, text: str, rule: str | None = None, name: str = "aclnnDemo.md", headers=None):
    findings = lint([parse_file(write_doc(text, name))], headers)
    return [f for f in findings if rule is None or f.rule == rule]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


# ---------------------------------------------------------------- names in error rules


def test_plain_words_are_not_parameter_typos(write_doc):
    """aclnnStack / aclnnChunkCat: "tensor" is a word of the prose, not `tensors` misspelt; nor
    is "height" `weight`, "transpose" `transposed`, `x2Scale` the sibling `x1Scale` (ops-nn's
    error tables). Neither lint nor the parse diagnostic name-typo reads them as parameters."""
    text = HEAD.replace("self", "tensors").replace("other", "weight").replace("out（", "x1Scale（") + errors_table(
        "tensors中tensor的维度不一致，或repeat不满足要求。",
        "Tensor的shape超过8维。",
        "height或width小于1，transpose模式不支持。",
        "x2Scale与x1Scale的shape不一致。",
    )
    assert found(write_doc, text, "doc-error-unknown-name") == []
    doc = parse_file(write_doc(text))
    assert [d.message for d in doc.diagnostics if d.code == "name-typo"] == []
    assert [r.params for r in doc.function("aclnnDemo").errors][:3] == [("tensors",), (), ()]
    # a real slip is still read as its parameter, and said
    slip = parse_file(write_doc(text.replace("tensors中tensor", "tensorss中tensor"), "aclnnSlip.md"))
    assert [d.message for d in slip.diagnostics if d.code == "name-typo"] == [
        "error condition names 'tensorss', read as parameter 'tensors'"
    ]


def test_real_misspellings_are_found_on_their_line(write_doc):
    """MoeInitRoutingQuant writes `activateNum` for `activeNum`; others `sharedInputOffest`,
    `keyIn` for `key`, `gradout`, `clamp_mode`: more than one edit away, or a suffix too many."""
    text = (
        HEAD.replace("self", "activeNum")
        .replace("other", "sharedInputOffset")
        .replace("out（", "key（")
        .replace("aclTensor*       out", "aclTensor*       key")
    )
    text += errors_table(
        "activeNum合法。", "3. activateNum的值小于0。", "sharedInputOffest越界。", "keyIn的shape不对。"
    )
    findings = found(write_doc, text, "doc-error-unknown-name")
    got = {(f.message.split("'")[1], f.param, f.line) for f in findings}
    assert got == {
        ("activateNum", "activeNum", line_of(text, "activateNum的值")),
        ("sharedInputOffest", "sharedInputOffset", line_of(text, "sharedInputOffest越界")),
        ("keyIn", "key", line_of(text, "keyIn的")),
    }


def test_components_and_shorthands_are_not_typos(write_doc):
    """aclnnAvgPool2d: `paddingH`, `kernelSizeH` are axes of `paddings`/`kernelSize`;
    aclnnQuantMatmul...: `x1Scale` stands for `x1ScaleOptional`."""
    text = HEAD.replace("self", "paddings").replace("other", "x1ScaleOptional") + errors_table(
        "属性padding超过kernelSize对应位置的1/2，例如paddingH=2，paddingH>1。", "传入的x1Scale是空指针。"
    )
    assert found(write_doc, text, "doc-error-unknown-name") == []


# ---------------------------------------------------------------- parameter sections


SQRT_BACKWARD = """# aclnnSqrtBackward

## 接口

```cpp
aclnnStatus aclnnSqrtBackwardGetWorkspaceSize(
    const aclTensor  *y,
    const aclTensor  *dy,
    aclTensor        *z,
    uint64_t         *workspaceSize,
    aclOpExecutor   **executor);

aclnnStatus aclnnSqrtBackward(
    void              *workspace,
    uint64_t           workspaceSize,
    aclOpExecutor     *executor,
    const aclrtStream  stream);
```

## 参数

| Name | Description | Dtype | Format | Shape | Required |
| --- | --- | --- | --- | --- | --- |
| `y` | 前向 `sqrt` 的输出 | `float32` / `float16` / `bfloat16` | `ND` | 0 到 8 维 | Yes |
| `dy` | 上游反向梯度 | `float32` / `float16` / `bfloat16` | `ND` | 与 `y` 完全一致 | Yes |
| `z` | 反向输出梯度 | `float32` / `float16` / `bfloat16` | `ND` | 与 `y` 完全一致 | Yes |
| `workspaceSize` | 返回 workspace 大小 | `uint64_t *` | - | - | Yes |
| `executor` | 返回执行器 | `aclOpExecutor **` | - | - | Yes |
"""

BITWISE_NOT = """# aclnnBitwiseNot

## 3. 函数原型

```cpp
aclnnStatus aclnnBitwiseNotGetWorkspaceSize(
    const aclTensor* self,
    aclTensor*       out,
    uint64_t*        workspaceSize,
    aclOpExecutor**  executor);

aclnnStatus aclnnBitwiseNot(
    void*            workspace,
    uint64_t         workspaceSize,
    aclOpExecutor*   executor,
    aclrtStream      stream);
```

## 4. 参数说明

### 4.1 aclnnBitwiseNotGetWorkspaceSize

| 参数名 | 输入/输出 | 数据类型 | 描述 | 使用说明 |
|-------|----------|---------|------|---------|
| self | 输入 | const aclTensor* | 公式中的 self（待按位取反的输入张量） | 数据格式支持 ND |
| out | 输出 | aclTensor* | 公式中的 out（按位取反结果） | shape 与 self 相同 |
| workspaceSize | 输出 | uint64_t* | 返回需要在 Device 侧申请的 workspace 大小 | - |
| executor | 输出 | aclOpExecutor** | 返回 op 执行器，包含算子计算流程 | - |

### 4.2 aclnnBitwiseNot

| 参数名 | 输入/输出 | 数据类型 | 描述 |
|-------|----------|---------|------|
| workspace | 输入 | void* | 在 Device 侧申请的 workspace 内存地址 |
| workspaceSize | 输入 | uint64_t | 在 Device 侧申请的 workspace 大小 |
| executor | 输入 | aclOpExecutor* | op 执行器，包含了算子计算流程 |
| stream | 输入 | aclrtStream | 指定执行任务的 Stream |
"""

HANS_DECODE = """# aclnnHansDecode

## 函数原型

- `aclnnStatus aclnnHansDecodeGetWorkspaceSize(const aclTensor *mantissa, const aclTensor *pdf, bool reshuff, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);`
- `aclnnStatus aclnnHansDecode(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)`

## aclnnHansDecodeGetWorkspaceSize

- **参数说明：**
-
  - mantissa(aclTensor*, 计算输入): 表示输入的待解压张量的尾数部分，Device侧的aclTensor，数据类型支持INT32。
  - pdf(aclTensor*, 计算输入)：表示压缩时采用的指数位所在字节的概率密度分布，数据类型支持INT32。
  - reshuff(bool, 计算输入)：是否重排。
  - out(aclTensor*, 计算输出)：表示解压缩后的指数存放位置，Device侧的aclTensor。
  - workspaceSize(uint64_t*, 出参): 返回需要在Device侧申请的workspace大小。
  - executor(aclOpExecutor**, 出参): 返回op执行器，包含了算子计算流程。
"""

FLASH_ATTENTION = """# FlashAttentionScore

## 算子执行接口

* `aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(const aclTensor *query, int64_t headNum, const aclTensor *attentionOutOut, uint64_t *workspaceSize, aclOpExecutor **executor)`
* `aclnnStatus aclnnFlashAttentionScore(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream)`

## aclnnFlashAttentionScoreGetWorkspaceSize

- **参数说明：**

  - query（aclTensor\\*，计算输入）：Device侧的aclTensor，数据类型支持FLOAT16、BFLOAT16、FLOAT32。

  - headNum（int64\\_t，计算输入）：Host侧的int64_t，代表单卡的head个数。

  - attentionOutOut（aclTensor\\*，计算输出）：Device侧的aclTensor，计算公式的最终输出。

  - workspaceSize（uint64\\_t\\*，出参）：返回需要在Device侧申请的workspace大小。

  - executor（aclOpExecutor\\*\\*，出参）：返回op执行器，包含了算子计算流程。

### aclnnFlashAttentionScore

- **参数说明：**

  -   workspace（void\\*，入参）：在Device侧申请的workspace内存起址。
  -   workspaceSize（uint64\\_t，入参）：在Device侧申请的workspace大小。
  -   executor（aclOpExecutor\\*，入参）：op执行器，包含了算子计算流程。
  -   stream（aclrtStream，入参）：指定执行任务的AscendCL stream流。
"""


@pytest.mark.parametrize(
    ("text", "function", "directions"),
    [
        (SQRT_BACKWARD, "aclnnSqrtBackward", None),  # English table, backticked names
        (BITWISE_NOT, "aclnnBitwiseNot", ["in", "out", "out", "out"]),  # `### 4.1 aclnnXxx`
        (HANS_DECODE, "aclnnHansDecode", ["in", "in", "in", "out", "out", "out"]),  # a stray `- ` bullet
        (FLASH_ATTENTION, "aclnnFlashAttentionScore", ["in", "in", "out", "out", "out"]),  # `###` second phase
    ],
)
def test_parameter_sections_are_read(write_doc, text, function, directions):
    doc = parse_file(write_doc(text, f"{function}.md"))
    fn = doc.function(function)
    assert fn is not None and all(p.documented for p in fn.params)
    if directions:
        assert [p.direction for p in fn.params] == directions
    assert [f for f in lint([doc]) if f.rule.startswith("doc-param")] == []


def test_a_table_naming_parameters_differently_is_one_finding_per_name(write_doc):
    """aclnnCrossEntropySumExpAndIndexLogit: the table says `predictedLogits`, the prototype
    `predictedLogitsOut`: one finding on the row, no second one saying it is undocumented."""
    text = HEAD.replace("<td>out（aclTensor*）</td>", "<td>outTensor（aclTensor*）</td>")
    findings = found(write_doc, text)
    assert [(f.rule, f.line) for f in findings if f.rule.startswith("doc-param")] == [
        ("doc-param-unknown", line_of(text, "<td>outTensor"))
    ]
    assert "parameter out is documented as outTensor" in findings[0].message


def test_an_undocumented_parameter_points_at_its_prototype_line(write_doc):
    text = HEAD.replace(
        "    <tr><td>executor（aclOpExecutor**）</td><td>输出</td><td>op执行器。</td><td>-</td></tr>\n", ""
    )
    findings = found(write_doc, text, "doc-param-undocumented")
    assert [(f.param, f.line) for f in findings] == [("executor", line_of(text, "aclOpExecutor**  executor)"))]


def test_second_phase_names_against_its_own_table(write_doc):
    """aclnnGeluBackward: `workspace_size` in the prototype, `workspaceSize` in the table."""
    text = (
        HEAD.replace(
            "uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream",
            "uint64_t workspace_size, aclOpExecutor* executor, aclrtStream",
        )
        + "\n## aclnnDemo\n\n- **参数说明：**\n\n  - workspace（void\\*，入参）：地址。\n  - workspaceSize（uint64\\_t，入参）：大小。\n"
        "  - executor（aclOpExecutor\\*，入参）：执行器。\n  - stream（aclrtStream，入参）：流。\n"
    )
    findings = found(write_doc, text, "doc-param-undocumented")
    assert [(f.param, f.severity) for f in findings] == [("workspace_size", "warning")]
    assert "the document writes workspaceSize" in findings[0].message


# ---------------------------------------------------------------- helpers and placeholders


TRANS_QUANT_PARAM = """# aclnnTransQuantParam

## 函数原型

```Cpp
aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleArraySize, const float* offsetArray,
                                 uint64_t offsetArraySize, uint64_t** quantParam, uint64_t* quantParamSize)
```
"""


def test_single_phase_helpers_are_not_placeholders(write_doc, tmp_path):
    assert found(write_doc, TRANS_QUANT_PARAM, name="aclnnTransQuantParam.md") == []
    assert [f.rule for f in found(write_doc, "# aclnnTodo\n\nTBD\n", name="todo.md")] == ["doc-no-api"]
    # Declared beside a documented pair and documented by its own page: nothing to report.
    folder = tmp_path / "include"
    folder.mkdir()
    (folder / "aclnn_trans_quant_param.h").write_text(
        "aclnnStatus aclnnTransQuantParam(const float* scaleArray, uint64_t scaleArraySize, const float* offsetArray,"
        " uint64_t offsetArraySize, uint64_t** quantParam, uint64_t* quantParamSize);\n"
        "aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,"
        " uint64_t* workspaceSize, aclOpExecutor** executor);\n"
        "aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);\n"
    )
    docs = [parse_file(write_doc(TRANS_QUANT_PARAM, "aclnnTransQuantParam.md")), parse_file(write_doc(HEAD))]
    assert [f.rule for f in lint(docs, folder) if f.rule.startswith("header")] == []
    assert [f.rule for f in lint(docs[1:], folder) if f.rule.startswith("header")] == ["header-function-undocumented"]


# ---------------------------------------------------------------- dtype lists


def test_dtype_lists_narrower_or_conditional_are_not_contradictions(write_doc):
    narrower = HEAD.replace("<td>公式中的out。</td>", "<td>数据类型与self一致。</td>").replace(
        "<td>FLOAT、FLOAT16</td>\n    </tr>\n    <tr><td>workspaceSize",
        "<td>FLOAT</td>\n    </tr>\n    <tr><td>workspaceSize",
    )
    assert found(write_doc, narrower, "doc-dtype-contradiction") == []
    disjoint = narrower.replace(
        "<td>FLOAT</td>\n    </tr>\n    <tr><td>workspaceSize", "<td>INT8</td>\n    </tr>\n    <tr><td>workspaceSize"
    )
    findings = found(write_doc, disjoint, "doc-dtype-contradiction")
    assert [f.line for f in findings] == [line_of(disjoint, "<td>数据类型与self一致。</td>")]
    conditional = disjoint.replace("数据类型与self一致。", "数据类型默认与self一致。")  # aclnnRmsNormDynamicMxQuant
    assert found(write_doc, conditional, "doc-dtype-contradiction") == []


# ---------------------------------------------------------------- fences


def test_fences_in_blockquotes_are_closed(write_doc):
    text = HEAD + "\n> **说明：**\n>\n> ```cpp\n> int x = 0;\n> ```\n\n正文。\n"
    assert found(write_doc, text, "doc-unclosed-fence") == []


def test_a_fence_that_does_not_close_is_found_where_it_is(write_doc):
    """aclnnSwishBackward: the prototype block ends with "```l", so the sections after it are code."""
    text = HEAD.replace("aclrtStream stream)\n```\n", "aclrtStream stream)\n```l\n") + "\n```\n"
    findings = found(write_doc, text, "doc-unclosed-fence")
    assert [f.line for f in findings] == [line_of(text, "```l")]


# ---------------------------------------------------------------- headers


def test_an_empty_or_unrelated_header_folder_is_a_usage_error(write_doc, tmp_path, capsys):
    doc = write_doc(HEAD)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(HeadersError):
        lint([parse_file(doc)], empty)
    unrelated = tmp_path / "unrelated"
    unrelated.mkdir()
    (unrelated / "aclnn_other.h").write_text("aclnnStatus aclnnOther(void* workspace);\n")
    assert main(["lint", str(doc), "--headers", str(empty)]) == 2
    assert main(["lint", str(doc), "--headers", str(unrelated)]) == 2
    assert "right include tree" in capsys.readouterr().err


def test_cosmetic_header_differences_are_information(write_doc, tmp_path):
    """`const aclrtStream` (a by-value qualifier) and second-phase names are no errors."""
    folder = tmp_path / "include"
    folder.mkdir()
    (folder / "aclnn_demo.h").write_text(
        "aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,"
        " uint64_t* workspaceSize, aclOpExecutor** executor);\n"
        "aclnnStatus aclnnDemo(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);\n"
    )
    text = HEAD.replace(
        "aclOpExecutor* executor, aclrtStream stream", "aclOpExecutor* executor, const aclrtStream stream"
    )
    findings = found(write_doc, text, headers=folder)
    assert {(f.rule, f.param, f.severity) for f in findings} == {
        ("header-param-const", "stream", "info"),
        ("header-param-name", "workspaceSize", "info"),
    }


def _header(folder, *params: str) -> object:
    """A header declaring aclnnDemoGetWorkspaceSize with `params` (before the workspace pair)."""
    folder.mkdir(exist_ok=True)
    (folder / "aclnn_demo.h").write_text(
        f"aclnnStatus aclnnDemoGetWorkspaceSize({', '.join(params)}, uint64_t* workspaceSize, "
        "aclOpExecutor** executor);\n"
        "aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);\n"
    )
    return folder


def test_another_order_is_said_beside_other_differences(write_doc, tmp_path):
    """aclnnMlaPrologV3WeightNz: the same parameters in another order, and a type besides;
    once one parameter more, too. Each difference is said, the order at the first moved line."""
    headers = _header(tmp_path / "typed", "const aclTensor* other", "const aclTensor* self", "const aclTensor* out")
    findings = found(write_doc, HEAD, headers=headers)
    assert {(f.rule, f.param, f.line) for f in findings} == {
        ("header-param-order", "self", line_of(HEAD, "const aclTensor* self,")),
        ("header-param-const", "out", line_of(HEAD, "aclTensor*       out,")),
    }
    order = next(f.message for f in findings if f.rule == "header-param-order")
    assert "ordered self, other, out, workspaceSize, executor in the document, other, self, out," in order
    more = _header(
        tmp_path / "more", "const aclTensor* other", "const aclTensor* self", "int64_t dim", "aclTensor* out"
    )
    assert {f.rule for f in found(write_doc, HEAD, headers=more)} == {"header-param-count", "header-param-order"}


def test_a_renamed_row_is_one_finding_naming_both(write_doc, tmp_path):
    """`grid` written `gird` in the row: one finding at the row, not doc-param-unknown for gird
    and doc-param-undocumented for grid (a short name, one letter swapped)."""
    text = HEAD.replace("other", "grid").replace("<td>grid（aclTensor*）</td>", "<td>gird（aclTensor*）</td>")
    findings = found(write_doc, text)
    assert [(f.rule, f.line) for f in findings] == [("doc-param-unknown", line_of(text, "<td>gird"))]
    assert "the prototype's parameter grid is documented as gird" in findings[0].message
    headers = _header(tmp_path / "grid", "const aclTensor* self", "const aclTensor* grid", "aclTensor* out")
    assert [(f.rule, f.line) for f in found(write_doc, text, headers=headers)] == [
        ("doc-param-unknown", line_of(text, "<td>gird"))
    ]


def test_rows_renamed_unlike_their_parameters_are_paired_by_place(write_doc):
    """aclnnMseLossGrad's row `predict` stands where the prototype has `self`: with a row for
    every parameter, a renamed row is the parameter in its place, however unlike the names."""
    text = HEAD.replace("<td>self（aclTensor*）</td>", "<td>input（aclTensor*）</td>").replace(
        "<td>other（aclTensor*）</td>", "<td>src（aclTensor*）</td>"
    )
    findings = found(write_doc, text)
    assert [(f.rule, f.param, f.line) for f in findings] == [
        ("doc-param-unknown", "input", line_of(text, "<td>input")),
        ("doc-param-unknown", "src", line_of(text, "<td>src")),
    ]
    assert "parameter self is documented as input" in findings[0].message
    assert "parameter other is documented as src" in findings[1].message
    # a row missing as well: no place to go by, so names decide and the rest is said apart
    fewer = text.replace(
        "    <tr><td>executor（aclOpExecutor**）</td><td>输出</td><td>op执行器。</td><td>-</td></tr>\n", ""
    )
    assert {(f.rule, f.param) for f in found(write_doc, fewer)} == {
        ("doc-param-unknown", "input"),
        ("doc-param-unknown", "src"),
        ("doc-param-undocumented", "self"),
        ("doc-param-undocumented", "other"),
        ("doc-param-undocumented", "executor"),
    }


def test_a_slip_in_the_prototype_is_found_at_the_prototype(write_doc, tmp_path):
    """aclnnGRUBackward: the prototype says `bidirectional`, the table and the header
    `bidirection`. With the header, one finding at the prototype line naming both."""
    text = HEAD.replace("const aclTensor* other,", "const aclTensor* gird,")
    headers = _header(tmp_path / "grid", "const aclTensor* self", "const aclTensor* other", "aclTensor* out")
    findings = found(write_doc, text, headers=headers)
    assert [(f.rule, f.line) for f in findings] == [("header-param-name", line_of(text, "const aclTensor* gird,"))]
    assert "parameter 'gird' is 'other' in" in findings[0].message
    assert "the table writes 'other' as the header does" in findings[0].message


# ---------------------------------------------------------------- samples


def sample(
    body: str, includes: str = '#include "acl/acl.h"\n#include "aclnnop/aclnn_demo.h"\n', before: str = ""
) -> str:
    return f"{HEAD}\n## 调用示例\n\n{before}\n```Cpp\n{includes}int main() {{\n{body}\n  return 0;\n}}\n```\n"


CALLS = """  ret = CreateAclTensor(selfHost, shape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
  ret = CreateAclTensor(otherHost, shape, &otherDeviceAddr, aclDataType::ACL_FLOAT, &other);
  ret = CreateAclTensor(outHost, shape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
  ret = aclnnDemoGetWorkspaceSize(self, other, out, &workspaceSize, &executor);
  ret = aclnnDemo(workspaceAddr, workspaceSize, executor, stream);
  ret = aclrtMemcpy(result.data(), size, outDeviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);
  aclDestroyTensor(self);
  aclDestroyTensor(other);
  aclDestroyTensor(out);
  aclrtFree(selfDeviceAddr);
  aclrtFree(otherDeviceAddr);
  aclrtFree(outDeviceAddr);"""


def test_a_clean_sample_has_no_findings(write_doc):
    assert found(write_doc, sample(CALLS)) == []


@pytest.mark.parametrize(
    "include",
    [
        '#include "aclnn_demo.h"\n',  # flat, in a custom-operator package
        '#include "../op_host/op_api/aclnn_demo.h"\n',  # the repository's own examples
    ],
)
def test_includes_right_for_their_package(write_doc, include):
    assert found(write_doc, sample(CALLS, include), "sample-header") == []


def test_a_sample_without_the_operator_header(write_doc):
    """aclnnLogSoftmaxV2: the include is commented out."""
    text = sample(CALLS, '#include "acl/acl.h"\n// #include "aclnn_demo.h"\n')
    assert [f.rule for f in found(write_doc, text, "sample-header")] == ["sample-header"]


def test_a_marked_snippet_is_not_a_program(write_doc):
    body = "aclnnDemoGetWorkspaceSize(self, other, out, &workspaceSize, &executor);\naclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);"
    text = f'{HEAD}\n## 调用示例\n\n核心调用片段：\n\n```cpp\n#include "aclnn_demo.h"\n{body}\n```\n'
    assert found(write_doc, text) == []


def test_a_fragment_marked_inside_its_fence_is_not_a_program(write_doc):
    """aclnnBinaryCrossEntropyWithLogitsBackward (experimental/): `// 省略输出回拷与资源释放`
    inside the code; what is left out is no leak and no missing copy-back."""
    body = (
        "  // 省略 aclInit / stream 初始化与 aclTensor 构造\n"
        "  ret = aclnnDemoGetWorkspaceSize(self, other, out, &workspaceSize, &executor);\n"
        "  ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  ret = aclnnDemo(workspaceAddr, workspaceSize, executor, stream);\n"
        "  // 省略输出回拷与资源释放"
    )
    assert found(write_doc, sample(body)) == []
    # the same program without its markers leaks and copies nothing back
    unmarked = "\n".join(line for line in body.split("\n") if "省略" not in line)
    assert {f.rule for f in found(write_doc, sample(unmarked))} == {"sample-leak-memory", "sample-no-output"}


def test_members_and_helpers_release_memory(write_doc):
    """aclrtFree(data.x), a `->` member, and a helper that frees a struct's buffers."""
    body = CALLS.replace("aclrtFree(selfDeviceAddr);", "aclrtFree(res.deviceAddr);").replace(
        "&selfDeviceAddr", "&res.deviceAddr"
    )
    body = body.replace("aclrtFree(otherDeviceAddr);", "aclrtFree(ctx->otherAddr);").replace(
        "&otherDeviceAddr", "&ctx->otherAddr"
    )
    body = body.replace("aclrtFree(outDeviceAddr);", "DestroyResource(outRes);").replace(
        "&outDeviceAddr", "&outRes.deviceAddr"
    )
    body = body.replace("result.data(), size, outDeviceAddr", "result.data(), size, outRes.deviceAddr")
    helper = "void DestroyResource(Resource& r) {\n  aclrtFree(r.deviceAddr);\n}\n"
    text = sample(body, '#include "aclnnop/aclnn_demo.h"\n' + helper)
    assert found(write_doc, text, "sample-leak-memory") == []


def test_objects_never_destroyed_or_released_twice(write_doc):
    """aclnnMatmulWeightNz: an aclIntArray made for a helper call and never destroyed;
    aclnnGroupNormSilu: a unique_ptr holder plus an explicit aclDestroyTensor."""
    body = CALLS.replace(
        "  ret = aclnnDemoGetWorkspaceSize",
        "  aclIntArray* mat2Size = aclCreateIntArray(shape.data(), shape.size());\n"
        "  ret = aclnnCalculateMatmulWeightSize(mat2Size, &size);\n"
        "  std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> selfPtr(self, aclDestroyTensor);\n"
        "  ret = aclnnDemoGetWorkspaceSize",
    )
    text = sample(body)
    assert {
        (f.rule, f.line) for f in found(write_doc, text) if f.rule in ("sample-leak-object", "sample-double-release")
    } == {
        ("sample-leak-object", line_of(text, "mat2Size = aclCreateIntArray")),
        ("sample-double-release", line_of(text, "aclDestroyTensor(self);")),
    }


def test_an_output_documented_as_input_is_the_documents_slip(write_doc):
    """The sample reads back a writable parameter the table calls 输入: not the sample's fault."""
    text = sample(CALLS).replace(
        "<td>out（aclTensor*）</td>\n      <td>输出</td>", "<td>out（aclTensor*）</td>\n      <td>输入</td>"
    )
    rules = {(f.rule, f.param) for f in found(write_doc, text)}
    assert ("doc-direction-const", "out") in rules and not any(r == "sample-copies-input" for r, _ in rules)


def test_no_output_only_when_nothing_comes_back(write_doc):
    helper_copy = CALLS.replace(
        "  ret = aclrtMemcpy(result.data(), size, outDeviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);",
        "  PrintOutResult(shape, &outTensorAddr);",
    )
    helper = "void PrintOutResult(std::vector<int64_t>& shape, void** addr) {\n  aclrtMemcpy(d, n, *addr, n, ACL_MEMCPY_DEVICE_TO_HOST);\n}\n"
    assert found(write_doc, sample(helper_copy, '#include "aclnnop/aclnn_demo.h"\n' + helper), "sample-no-output") == []
    nothing = CALLS.replace(
        "  ret = aclrtMemcpy(result.data(), size, outDeviceAddr, size, ACL_MEMCPY_DEVICE_TO_HOST);\n", ""
    )
    assert [f.rule for f in found(write_doc, sample(nothing), "sample-no-output")] == ["sample-no-output"]


# ---------------------------------------------------------------- suppression


def test_suppression_of_the_next_element_and_of_the_file(write_doc, capsys):
    leaky = sample(CALLS.replace("  aclrtFree(selfDeviceAddr);\n", ""))
    assert [f.rule for f in found(write_doc, leaky)] == ["sample-leak-memory"]
    quiet = leaky.replace("\n```Cpp\n", "\n<!-- specgen-lint: disable=sample-header,sample-leak-memory -->\n\n```Cpp\n")
    assert [(f.rule, f.suppressed) for f in found(write_doc, quiet)] == [("sample-leak-memory", True)]
    too_early = quiet.replace("## 调用示例\n", "## 调用示例\n\n示例代码如下。\n")
    too_early = too_early.replace("<!-- specgen-lint: disable=sample-header,sample-leak-memory -->\n\n", "")
    too_early = too_early.replace("## 调用示例\n", "## 调用示例\n<!-- specgen-lint: disable=sample-leak-memory -->\n")
    assert [f.suppressed for f in found(write_doc, too_early)] == [False]  # it covers the paragraph only
    other_rule = leaky.replace("\n```Cpp\n", "\n<!-- specgen-lint: disable=sample-header -->\n```Cpp\n")
    assert [f.suppressed for f in found(write_doc, other_rule)] == [False]
    whole = "<!-- specgen-lint: disable-file=sample-leak-memory -->\n" + leaky
    path = write_doc(whole)
    assert [f.suppressed for f in lint([parse_file(path)])] == [True]
    assert main(["lint", str(path), "--format", "json", "--fail-on", "warning"]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == []
    assert main(["lint", str(path), "--format", "json", "--fail-on", "warning", "--show-suppressed"]) == 0
    shown = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["rule"], f["suppressed"]) for f in shown] == [("sample-leak-memory", True)]


def test_a_suppressed_table_row(write_doc):
    text = HEAD.replace("<td>out（aclTensor*）</td>", "<td>outTensor（aclTensor*）</td>").replace(
        "    <tr>\n      <td>outTensor",
        "    <!-- specgen-lint: disable=doc-param-unknown -->\n    <tr>\n      <td>outTensor",
    )
    assert [(f.rule, f.suppressed) for f in found(write_doc, text)] == [("doc-param-unknown", True)]


# ---------------------------------------------------------------- the sample's call against the output rules


def test_a_sample_call_contradicting_its_output_rule_is_found_at_the_call(write_doc):
    """aclnnTanhBackward's gradInput takes gradOutput's shape ({4, 2}); its seed's call agrees.
    The same document with the call's gradInput made {4, 3} contradicts its own rule: one
    finding at the call, naming both shapes."""
    text = (ROOT / "specs" / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    assert found(write_doc, text, "sample-output-rule", name="aclnnTanhBackward.md") == []
    wrong = text.replace("gradInputShape = {4, 2}", "gradInputShape = {4, 3}")
    [finding] = found(write_doc, wrong, "sample-output-rule", name="aclnnTanhBackward.md")
    assert finding.line == line_of(wrong, "aclnnTanhBackwardGetWorkspaceSize(gradOutput")
    assert "[4, 3]" in finding.message and "[4, 2]" in finding.message and finding.param == "gradInput"


# ---------------------------------------------------------------- null pointers


def _with_optional_other(words: str, null_row: str) -> str:
    """HEAD with `other`'s row in `words` and one 161001 row."""
    text = HEAD.replace("<td>公式中的other。</td>", f"<td>{words}</td>")
    table = errors_table(null_row).replace("ACLNN_ERR_PARAM_INVALID", "ACLNN_ERR_PARAM_NULLPTR")
    return text + table.replace("161002", "161001")


def test_a_null_row_against_a_row_that_allows_null_is_a_contradiction(write_doc):
    """aclnnQuantMatmulActivationQuantWeightNz: `传入的x1、x2、x1Scale或x2Scale是空指针` against
    x1ScaleOptional's `如果不使用该参数，传入nullptr`: found at the error row, on the name."""
    text = _with_optional_other("公式中的other。如果不使用该参数，传入nullptr。", "传入的self、other或out是空指针。")
    findings = found(write_doc, text, "doc-null-contradiction")
    assert [(f.line, f.param) for f in findings] == [(line_of(text, "传入的self、other或out是空指针"), "other")]
    assert f"other's row (line {line_of(text, '<td>other（aclTensor*）</td>')})" in findings[0].message


def test_a_null_row_held_in_a_situation_or_a_row_silent_on_null_is_no_contradiction(write_doc):
    # aclnnGRU: `…，或训练模式下rOut、zOut…是空指针`: in training mode only
    situated = _with_optional_other(
        "如果不使用该参数，传入nullptr。", "传入的self或out是空指针，或训练模式下other是空指针。"
    )
    assert found(write_doc, situated, "doc-null-contradiction") == []
    # a row that says nothing of null (aclnnCrossEntropyLoss lseForZlossOut: `计算时必须传入`)
    silent = _with_optional_other("计算时必须传入，但不参与计算。", "传入的self、other或out是空指针。")
    assert found(write_doc, silent, "doc-null-contradiction") == []
