"""Small documents written for the quirks real documents have."""

from __future__ import annotations

import pytest

from specgen.cdecl import PrototypeError, parse_prototype
from specgen.parse import parse_file

PROTO = """
## 函数原型

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(
  const aclTensor* self,
  int64_t          dim,
  aclTensor*       out,
  uint64_t*        workspaceSize,
  aclOpExecutor**  executor)
```

```Cpp
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                      aclrtStream stream)
```
"""

TABLE_SECTION = """
## aclnnDemoGetWorkspaceSize

- **参数说明：**

  <table>
  <thead>
    <tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th>
    <th>数据格式</th><th>维度(shape)</th><th>非连续Tensor</th></tr></thead>
  <tbody>
    <tr>
      <td>self（aclTensor*）</td><td>输入</td><td>输入。</td>
      <td><ul><li>支持空Tensor传入。</li><li>shape与out一致。</li></ul></td>
      <td>FLOAT32、FP16、BF16</td><td>ND</td><td>1-8</td><td>√</td>
    </tr>

    <tr>
      <td>dim（int64_t）</td><td>输入</td><td>维度。</td><td>取值范围为[-1, 8)。</td>
      <td>-</td><td>-</td><td>-</td><td>-</td>
    </tr>
    <tr>
      <td>out（aclTensor*）</td><td>输出</td><td>输出。</td><td>-</td>
      <td>与self一致</td><td>ND</td><td>1-8</td><td>x</td>
    </tr>
  </tbody>
  </table>
  <!-- npu="910" id1 -->
  - <term>Atlas 训练系列产品</term>：数据类型不支持BFLOAT16。
  <!-- end id1 -->

- **返回值：**

  <table>
  <thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead>
  <tbody>
    <tr><td>ACLNN_ERR_PARAM_NULLPTR</td><td>161001</td><td>传入的self或out是空指针。</td></tr>
    <tr><td rowspan="5">ACLNN_ERR_PARAM_INVALID</td><td rowspan="5">161002</td>
        <td>self的数据类型不在支持的范围之内。</td></tr>
    <tr><td>self的维度大于8。</td></tr>
  </tbody></table>
"""


def test_repository_dialect_table_document(write_doc):
    doc = parse_file(write_doc("# aclnnDemo\n" + PROTO + TABLE_SECTION))
    fn = doc.functions[0]
    self_, dim, out = fn.params[:3]
    assert self_.dtypes == ["FLOAT", "FLOAT16", "BFLOAT16"]  # aliases mapped
    assert self_.product_dtypes == {"910": ["FLOAT", "FLOAT16"]}
    assert (self_.rank.min, self_.rank.max) == (1, 8)
    assert self_.non_contiguous is True and self_.empty_tensor is True
    assert [c.params for c in self_.of_kind("same_shape")] == [("out",)]
    assert [(c.min, c.max, c.max_inclusive) for c in dim.of_kind("range")] == [(-1, 8, False)]
    assert out.non_contiguous is False
    assert [c.params for c in out.of_kind("same_dtype")] == [("self",)]
    # A rowspan that runs past the table end does not invent rows.
    assert [(e.code, e.condition) for e in fn.errors] == [
        (161001, "传入的self或out是空指针"),
        (161002, "self的数据类型不在支持的范围之内"),
        (161002, "self的维度大于8"),
    ]
    assert fn.errors[2].line > fn.errors[1].line


def test_bom_crlf_and_zero_width_keep_lines(write_doc):
    text = "# aclnnDemo\n" + PROTO + TABLE_SECTION
    clean = parse_file(write_doc(text, "a.md"))
    dirty = "\ufeff" + text.replace("aclTensor* self", "aclTensor*\u200b self").replace("\n", "\r\n")
    quirky = parse_file(write_doc(dirty.encode("utf-8"), "b.md"))
    assert quirky.functions[0].params == clean.functions[0].params
    assert quirky.functions[0].errors == clean.functions[0].errors


def test_legacy_bullets_and_code_block_errors(write_doc):
    doc = parse_file(
        write_doc(r"""# Demo

## 算子执行接口

- `aclnnStatus aclnnDemoGetWorkspaceSize(const aclTensor *x, const aclScalar *tol, aclTensor *y, uint64_t *workspaceSize, aclOpExecutor** executor)`
- `aclnnStatus aclnnDemo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)`

## aclnnDemoGetWorkspaceSize

- **参数说明**：

  - x（aclTensor\*，计算输入）：Device侧的aclTensor。数据类型支持FLOAT16、FLOAT。[数据格式](common/数据格式.md)支持ND。支持[非连续的Tensor](common/非连续的Tensor.md)。
    - Atlas A2 训练系列产品/Atlas 800I A2 推理产品：数据类型支持BFLOAT16、FLOAT16、FLOAT。
  - tol (aclScalar*, 入参) ：数据类型支持FLOAT。如果传入空指针，则tol取0.0001。
  - y（aclTensor\*，计算输出）：数据类型与x一致，shape为2维。
  - workspaceSize（uint64\_t\*，出参）：返回workspace大小。
  - executor（aclOpExecutor\**，出参）：返回op执行器。

- **返回值**：

  ```
  第一段接口完成入参校验，出现以下场景时报错：
  返回161001（ACLNN_ERR_PARAM_NULLPTR）: 1. 传入的x或y是空指针。
  返回161002（ACLNN_ERR_PARAM_INVALID）: 1. x和y的数据类型不在支持的范围之内。
                                        2. y的shape不是2维。
  ```
""")
    )
    fn = doc.functions[0]
    x, tol, y = fn.params[:3]
    assert x.dtypes == ["FLOAT16", "FLOAT", "BFLOAT16"]
    assert x.product_dtypes == {"910b": ["BFLOAT16", "FLOAT16", "FLOAT"]}
    assert (x.formats, x.non_contiguous) == (["ND"], True)
    assert tol.optional and not x.optional
    assert [c.params for c in y.of_kind("same_dtype")] == [("x",)]
    assert (y.rank.min, y.rank.max) == (2, 2)
    assert [(e.code, e.condition, e.params) for e in fn.errors] == [
        (161001, "传入的x或y是空指针", ("x", "y")),
        (161002, "x和y的数据类型不在支持的范围之内", ("x", "y")),
        (161002, "y的shape不是2维", ("y",)),
    ]
    assert [e.line for e in fn.errors] == [23, 24, 25]


def test_placeholder_document_is_said_once_at_info_as_not_an_operator_page(write_doc):
    doc = parse_file(write_doc("# aclnnTodo\n\n本文档内容正按全新接口模板整改中。\n"))
    assert doc.functions == ()
    assert [(d.severity, d.code, d.line) for d in doc.diagnostics] == [("info", "no-api", 1)]
    assert "not an operator page" in doc.diagnostics[0].message


def test_conflict_markers_inside_prototype(write_doc):
    doc = parse_file(
        write_doc("""# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(
<<<<<<< HEAD
  const aclTensor* self,
=======
  const aclTensor* input,
>>>>>>> feature
  aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
```
""")
    )
    assert [p.name for p in doc.functions[0].params] == ["self", "out", "workspaceSize", "executor"]
    assert "conflict-marker" in {d.code for d in doc.diagnostics}


def test_unclosed_fence_and_typo_in_prototype(write_doc):
    doc = parse_file(
        write_doc("""# aclnnDemo

```Cpp
aclnnStatus aclnnDemoGetWorkspaceSize(onst aclTensor* self, aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor)
aclnnStatus aclnnDemo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)
""")
    )
    codes = {d.code: d for d in doc.diagnostics}
    assert codes["prototype-syntax"].severity == "error" and codes["prototype-syntax"].line == 4
    assert codes["unclosed-fence"].line == 3
    # The function is still there, read leniently, so lint can point at the typo.
    assert doc.functions[0].params[0].c_type == "onst aclTensor*"


def test_not_utf8_is_read_with_a_warning(write_doc):
    text = "# aclnnDemo\n" + PROTO
    doc = parse_file(write_doc(text.encode("gb18030"), "gbk.md"))
    assert doc.functions and "encoding" in {d.code for d in doc.diagnostics}


@pytest.mark.parametrize(
    "decl, expected",
    [
        ("aclnnStatus f(const aclTensor *self)", [("self", "const aclTensor*")]),
        (r"aclnnStatus f(aclTensor \*out, uint64\_t \*ws)", [("out", "aclTensor*"), ("ws", "uint64_t*")]),
        (
            "aclnnStatus f(const aclTensor* const* xs, int64_t dims[])",
            [("xs", "const aclTensor* const*"), ("dims", "int64_t*")],
        ),
        (
            "aclnnStatus f(const aclrtStream stream, aclOpExecutor  **executor)",
            [("stream", "const aclrtStream"), ("executor", "aclOpExecutor**")],
        ),
        ("aclnnStatus f(bool keep = false, double eps /* 1e-5 */)", [("keep", "bool"), ("eps", "double")]),
    ],
)
def test_prototype_types_are_canonical(decl, expected):
    assert [(p.name, p.c_type) for p in parse_prototype(decl).params] == expected


def test_prototype_errors_say_why():
    with pytest.raises(PrototypeError, match="not a C declaration"):
        parse_prototype("aclnnStatus f(const aclTensorList* x const aclScalarList* s)")


def test_the_block_parse_is_that_of_the_full_parser():
    """`load` parses with markdown-it's normalize and text_join rules off: `text.decode` has
    already done what normalize does (CR, CRLF, NUL), and text_join only joins inline children."""
    from markdown_it import MarkdownIt

    from specgen.parse.document import load
    from specgen.text import decode

    data = (
        "# aclnnDemo\r\n" + PROTO + "\r- a\x00b\r\n\r\n  | x | y |\n  |---|---|\n  | 1 | 2 |\n" + TABLE_SECTION
    ).encode()
    full = MarkdownIt("commonmark").enable("table").disable("inline")

    def fields(tokens):
        return [(t.type, t.tag, t.map, t.nesting, t.level, t.content, t.markup, t.info) for t in tokens]

    assert fields(load("a.md", data).tokens) == fields(full.parse(decode(data)[0]))


def test_includes_are_read_where_first_on_their_line(write_doc):
    code = '#include <a.h>\n  #include "b.h"\nint x; #include <c.h>\n#\tinclude <d.h>\n#include\n<e.h>\nint main() {}\n'
    doc = parse_file(write_doc("# aclnnDemo\n" + PROTO + "\n## 调用示例\n\n```cpp\n" + code + "```\n", "s.md"))
    assert doc.samples[0].includes == ("a.h", "b.h", "d.h", "e.h")


@pytest.mark.parametrize(
    ("body", "conditions"),
    [
        # legacy/MoeInitRoutingQuant.md:64-65 (a numbered list in a code block): ` * k` multiplies,
        # it starts no bullet (the rows were cut into `…(min(num_rows, activateNum)` and `k, H)`)
        (
            "3. activateNum的值小于0。\n4. expandedXOut的shape不等于(min(num_rows, activateNum) * k, H)。",
            ("activateNum的值小于0", "expandedXOut的shape不等于(min(num_rows, activateNum) * k, H)"),
        ),
        # ops-nn aclnnGather: `[-self.dim(), self.dim() - 1]` is one range
        ("dim指定的维度超过了self自身维度范围[-self.dim(), self.dim() - 1]。", (
            "dim指定的维度超过了self自身维度范围[-self.dim(), self.dim() - 1]",)),
        # bullet items flattened into one cell still split
        ("- self是空指针。 - out是空指针。", ("self是空指针", "out是空指针")),
        ("self是空指针。 * out是空指针", ("self是空指针", "out是空指针")),
    ],
)  # fmt: skip
def test_an_operator_between_operands_starts_no_condition(body, conditions):
    from specgen.parse.errors import _located_conditions

    assert tuple(c for c, _ in _located_conditions(body)) == conditions
