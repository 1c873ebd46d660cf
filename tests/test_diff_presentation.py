"""The diff compares contracts, not presentation: real corpus documents rewritten in another
presentation give no change. The rewrites are those the ops-nn history made (product tables as
`<term>` lists in `npu` comments, a per-product note's text on the lines below its products,
plain product names for `<term>` in notes, a usage cell's `<term>` item moved under the table
as `x参数中，…`) and forms other documents use for the same facts (a product's dtypes as a
`不支持` or `额外支持` footnote, bullets reflowed over several lines, links moved). Each rewrite
says why the contract is unchanged. Skipped without the shared corpus."""

from __future__ import annotations

import random
import re

import pytest

from specgen import vocab
from specgen.parse import parse_document
from specgen.review.diff import diff, summary

_TABLE_ROW = re.compile(r"^\|\s*(?:<term>)?(?P<name>[^|<]+?)(?:</term>)?\s*\|\s*(?P<mark>[√×xX])\s*\|\s*$")
_NOTE = re.compile(r"^(?P<indent>\s*)- (?P<terms>(?:<term>[^<]+</term>[、和]?)+)：(?P<rest>\S.*)$")


def products_as_list(text: str) -> str:
    """`| <term>产品</term> | √ |` rows as `- <term>产品</term>：支持` in `npu` comments (打标签)."""
    out, n = [], 0
    for line in text.split("\n"):
        m = _TABLE_ROW.match(line)
        if m and vocab.product_id(m.group("name")):
            n += 1
            mark = "支持" if m.group("mark") == "√" else "不支持"
            out += [
                f'<!-- npu="{vocab.product_id(m.group("name"))}" id{n} -->',
                f"- <term>{m.group('name').strip()}</term>：{mark}",
                f"<!-- end id{n} -->",
            ]
        elif not (n == 0 and re.match(r"^\|\s*(产品|:?-+)", line)):
            out.append(line)
    return "\n".join(out)


def notes_on_two_lines(text: str) -> str:
    """`- <term>A2</term>：text` as `- <term>A2</term>：`, a blank line and the indented text."""

    def split(m: re.Match[str]) -> str:
        if re.match(r"^(不)?支持\s*$", m.group("rest")):  # a line of the product list, not a note
            return m.group(0)
        indent = m.group("indent")
        return f"{indent}- {m.group('terms')}：\n\n{indent}    {m.group('rest')}"

    return "\n".join(_NOTE.sub(split, line) for line in text.split("\n"))


def terms_as_plain_names(text: str) -> str:
    """`- <term>A2</term>：text` notes as `- A2：text` (product names without the tag)."""

    def plain(m: re.Match[str]) -> str:
        if re.match(r"^(不)?支持\s*$", m.group("rest")):
            return m.group(0)
        names = re.sub(r"</?term>", "", m.group("terms"))
        return f"{m.group('indent')}- {names}：{m.group('rest')}"

    return "\n".join(_NOTE.sub(plain, line) for line in text.split("\n"))


# ---------------------------------------------------------------- notes back into the cells

_NOTE_HEAD = re.compile(r"^\s*- (?P<terms>(?:<term>[^<]+</term>、?)+)：\s*$")
_PARAM_NOTE = re.compile(r"^\s+- (?P<param>[A-Za-z_]\w*)参数中，(?P<text>.+)$")


def notes_into_cells(text: str) -> str:
    """The inverse of ops-nn 08aaf7d (aclnn文件加上芯片标签), which moved a usage cell's
    `<li><term>A2</term>、<term>A3</term>：仅支持…</li>` under the table as
    `- <term>A2</term>、<term>A3</term>：` with the nested `- x参数中，仅支持…`: each nested
    statement goes back into its parameter's usage cell, the lead naming the parameter dropped."""
    moved: list[tuple[str, str]] = []  # (parameter, `<li>` item)
    kept: list[str] = []
    heads: set[int] = set()  # the headings (index in `kept`) some statement left
    head = None  # (terms, indent, index in `kept`) of the heading the lines are under
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip())
        if line.strip() and head and indent <= head[1]:
            head = None
        if m := _NOTE_HEAD.match(line):
            head = (m.group("terms"), indent, len(kept))
        elif head and (note := _PARAM_NOTE.match(line)):
            moved.append((note.group("param"), f"<li>{head[0]}：{note.group('text')}</li>"))
            heads.add(head[2])
            continue
        kept.append(line)
    for param, item in moved:
        kept = _into_usage_cell(kept, param, item)
    return "\n".join(line for k, line in enumerate(kept) if k not in heads or _has_nested(kept, k))


def _has_nested(lines: list[str], k: int) -> bool:
    """Line k is followed by lines indented deeper (comments and blank lines aside)."""
    indent = len(lines[k]) - len(lines[k].lstrip())
    following = next((x for x in lines[k + 1 :] if x.strip() and not x.lstrip().startswith("<!--")), "")
    return len(following) - len(following.lstrip()) > indent


def _into_usage_cell(lines: list[str], param: str, item: str) -> list[str]:
    """`item` added to the usage cell (the fourth cell) of the row naming `param`."""
    row = next((i for i, line in enumerate(lines) if re.match(rf"^\s*<td>{param}（", line)), None)
    if row is None or "<td>" not in lines[row + 3]:
        return lines
    cell = lines[row + 3]
    body = cell.strip().removeprefix("<td>").removesuffix("</td>")
    if body == "-":
        body = f"<ul>{item}</ul>"
    elif body.endswith("</ul>"):
        body = body.removesuffix("</ul>") + item + "</ul>"
    else:
        body = f"<ul><li>{body}</li>{item}</ul>"
    indent = cell[: len(cell) - len(cell.lstrip())]
    return lines[: row + 3] + [f"{indent}<td>{body}</td>"] + lines[row + 4 :]


# ---------------------------------------------------------------- reflowed bullets, renamed links

_LONG_BULLET = re.compile(r"^(?P<indent>\s*)- (?P<body>[^<|`$].{30,})$")


def reflowed_bullets(text: str) -> str:
    """A long bullet of prose continued on the next line after its first `，` (Markdown's soft
    line break: the same paragraph), as documents reflowed by an editor are."""

    def reflow(m: re.Match[str]) -> str:
        head, comma, rest = m.group("body").partition("，")
        if not comma or not rest.strip() or "：" in head:
            return m.group(0)
        return f"{m.group('indent')}- {head}，\n{m.group('indent')}  {rest}"

    out, fence = [], False
    for line in text.split("\n"):
        fence ^= line.lstrip().startswith("```")
        out.append(line if fence else _LONG_BULLET.sub(reflow, line))
    return "\n".join(out)


def renamed_links(text: str) -> str:
    """Every relative link target moved to another folder (`docs/zh/context/x.md` as
    `docs/zh/context/moved/x.md`): where a link points is not what the operator accepts."""
    text = re.sub(r"\]\((?!http)([^()\s]*/)?([^()/\s]+\.md)", r"](\1moved/\2", text)
    return re.sub(r'href="(?!http)([^"]*/)?([^"/]+\.md)"', r'href="\1moved/\2"', text)


# ---------------------------------------------------------------- per-product dtypes as footnotes

_RESTRICTION = re.compile(
    r"^(?P<head>\s*- (?P<terms>(?:<term>[^<]+</term>、?)+)：)数据类型支持(?P<dtypes>[A-Z0-9_、 ]+)。?\s*$"
)
_DTYPE_CELL = re.compile(r"^(?P<indent>\s*)<td>(?P<dtypes>[A-Z][A-Z0-9_]*(?:、[A-Z][A-Z0-9_]*)*)</td>\s*$")
_NAME_CELL = re.compile(r"^\s*<td>(?P<name>[A-Za-z_]\w*)（")
_SUPPORTED = re.compile(r"^- (?P<term><term>[^<]+</term>)：支持\s*$")


def _dtypes(listed: str) -> list[str]:
    return [d for token in re.split(r"[、\s]+", listed) if (d := vocab.dtype(token))]


def _dtype_cells(lines: list[str]) -> dict[int, tuple[str, list[str]]]:
    """{line index: (parameter, dtypes)} of the dtype cells that are a bare dtype list."""
    cells, name = {}, None
    for i, line in enumerate(lines):
        if m := _NAME_CELL.match(line):
            name = m.group("name")
        elif (
            (m := _DTYPE_CELL.match(line))
            and name
            and len(dtypes := _dtypes(m.group("dtypes"))) == len(m.group("dtypes").split("、"))
        ):
            cells[i] = (name, dtypes)
    return cells


def _cells_hold_every_dtype(text: str, cells: dict[int, tuple[str, list[str]]]) -> bool:
    """Every parameter's general dtype set is a bare list cell (no `BFLOAT16（仅…支持）`, no
    statement in prose): only then is the footnote form sure to say the same."""
    doc = parse_document("x.md", text.encode())
    listed = {d for _, dtypes in cells.values() for d in dtypes}
    general = {
        v for fn in doc.functions for p in fn.params for c in p.of_kind("dtypes") if c.product is None for v in c.values
    }
    return bool(listed) and general <= listed


def restriction_as_unsupported(text: str) -> str:
    """`- <term>P</term>：数据类型支持S。` under a parameter table as `- <term>P</term>：数据类型
    不支持R。`, R the dtypes of the document's cells that S leaves out: each parameter's set on P
    (its list less R, its list within S) is unchanged (the form ops-nn's aclnnMaxPool uses)."""
    lines = text.split("\n")
    cells = _dtype_cells(lines)
    if not any(_RESTRICTION.match(line) for line in lines) or not _cells_hold_every_dtype(text, cells):
        return text
    listed = list(dict.fromkeys(d for _, dtypes in cells.values() for d in dtypes))
    for i, line in enumerate(lines):
        if m := _RESTRICTION.match(line):
            allowed = _dtypes(m.group("dtypes"))
            removed = [d for d in listed if d not in allowed]
            if removed and set(allowed) <= set(listed):  # a parameter with none of S is not restricted either way
                lines[i] = f"{m.group('head')}数据类型不支持{'、'.join(removed)}。"
    return "\n".join(lines)


def restriction_as_extra(text: str) -> str:
    """The base list narrowed to what product P supports, with an `额外支持` footnote for the
    other supported products (`<term>A2</term>…：self额外支持BFLOAT16，out额外支持BFLOAT16`),
    instead of the full base list and P's `数据类型支持S` note: each product's set is unchanged.
    Documents of one function, with one per-product dtype note and one dtype cell per parameter."""
    lines = text.split("\n")
    notes = [(i, m) for i, line in enumerate(lines) if (m := _RESTRICTION.match(line))]
    cells = _dtype_cells(lines)
    names = [name for name, _ in cells.values()]
    functions = [line for line in lines if re.match(r"^#+\s*aclnn\w*GetWorkspaceSize", line)]
    dtype_notes = [line for line in lines if "<term>" in line and "数据类型" in line]
    if len(notes) != 1 or len(dtype_notes) != 1 or len(functions) != 1 or len(set(names)) != len(names):
        return text
    if not _cells_hold_every_dtype(text, cells):
        return text
    at, note = notes[0]
    allowed = _dtypes(note.group("dtypes"))
    if not set(allowed) <= {d for _, dtypes in cells.values() for d in dtypes}:
        return text  # the note adds dtypes of its own: no narrowing of the lists says that
    others = [
        m.group("term")
        for line in lines
        if (m := _SUPPORTED.match(line)) and m.group("term") not in note.group("terms")
    ]
    # a parameter with none of S keeps its list: P's note restricts it in neither form
    narrowed = {i: (name, dtypes) for i, (name, dtypes) in cells.items() if set(dtypes) & set(allowed)}
    extra = {name: [d for d in dtypes if d not in allowed] for name, dtypes in narrowed.values()}
    if not others or not any(extra.values()):
        return text
    for i, (_, dtypes) in narrowed.items():
        indent = _DTYPE_CELL.match(lines[i]).group("indent")
        lines[i] = f"{indent}<td>{'、'.join(d for d in dtypes if d in allowed)}</td>"
    said = "，".join(f"{name}额外支持{'、'.join(more)}" for name, more in extra.items() if more)
    indent = note.group("head")[: len(note.group("head")) - len(note.group("head").lstrip())]
    lines[at] = f"{indent}- {'、'.join(others)}：{said}。"
    return "\n".join(lines)


# ---------------------------------------------------------------- parameter tables as lists

_COLUMNS = ["参数名", "输入/输出", "描述", "使用说明", "数据类型", "数据格式", "维度(shape)", "非连续Tensor"]
_PARAM_TABLE = re.compile(r"^(?P<indent>[ \t]*)<table\b.*?</table>[ \t]*$", re.S | re.M)
_TR = re.compile(r"<tr>(.*?)</tr>", re.S)
_TD = re.compile(r"<t[dh]>(.*?)</t[dh]>", re.S)
_LISTED = re.compile(r"^[A-Z][A-Z0-9_]*(?:、[A-Z][A-Z0-9_]*)*$")
_DIRECTION = {"输入": "计算输入", "输出": "计算输出", "输入/输出": "计算输入/计算输出"}
# The type phrase list documents open a parameter with (the seeds, shared/corpus/docs/legacy)
_BOILERPLATE = {
    "aclTensor*": "Device侧的aclTensor，",
    "aclScalar*": "Host侧的aclScalar，",
    "double": "Host侧的double，",
}
_BOILERPLATE |= {"float": "Host侧的浮点类型，", "int64_t": "Host侧的int64_t，", "aclIntArray*": "Host侧的aclIntArray，"}


def _sentences(cell: str) -> str:
    """A cell's items as sentences, each ending in `。` (a lead of nested items too)."""
    items = [re.sub(r"</?ul>", "", i).strip() for i in re.split(r"</?li>|<br\s*/?>", cell)]
    items = [i.removesuffix("：") for i in items if i and i not in ("-", "</ul>")]  # a lead of nested items
    return "".join(i if i.endswith(("。", "；")) else i + "。" for i in items)


def _said(role: str, cell: str) -> str | None:
    """The cell as the bullet's sentence; None where no sentence says the same for sure."""
    cell = cell.strip()
    if cell in ("-", ""):
        return ""
    if role == "dtype":
        return f"数据类型支持{cell}。" if _LISTED.match(cell) else None
    if role == "format":
        return f"数据格式支持{cell}。" if _LISTED.match(cell) else None
    if role == "shape" and (upto := re.fullmatch(r"0-(\d)", cell)):
        return f"数据维度不支持{upto.group(1)}维以上。"  # the example: the same as `0-8`
    if role == "shape":
        return f"shape支持{cell}维。" if re.fullmatch(r"\d+(-\d+)?", cell) else None
    return {"√": "支持非连续的Tensor。", "×": "不支持非连续的Tensor。"}.get(cell)


def _bullet(cells: list[str], indent: str) -> str | None:
    name = re.fullmatch(r"(?P<name>\w+)（(?P<ctype>[^）]+)）", cells[0].strip())
    if not name or cells[1].strip() not in _DIRECTION:
        return None
    text = _sentences(cells[2]) + (_sentences(cells[3]) if len(cells) > 3 else "")
    for role, cell in zip(("dtype", "format", "shape", "nc"), cells[4:], strict=False):  # 3 columns: none
        said = _said(role, cell)
        if said is None:
            return None
        text += said
    lead = _BOILERPLATE.get(name["ctype"].replace(" ", ""), "")
    return f"{indent}- {name['name']}（{name['ctype']}，{_DIRECTION[cells[1].strip()]}）：{lead}{text}"


def table_as_list(text: str) -> str:
    """Parameter tables of the usual columns as the parameter bullets of the list dialect
    (shared/corpus/docs/legacy and the seeds: `- x（aclTensor*，计算输入）：描述。使用说明。
    数据类型支持FLOAT16、FLOAT。数据格式支持ND。shape支持1-8维。支持非连续的Tensor。`), the
    inverse of the repositories' list-to-table rewrites. Each column becomes the sentence the
    list dialect writes for it (a table whose cells say anything else, or spans rows, is left
    as it is), so the facts are the same; the description has no column of its own in a list,
    so where it ends is read from the words."""

    def rewrite(m: re.Match[str]) -> str:
        table = m.group(0)
        if "rowspan" in table or "colspan" in table:
            return table
        rows = [_TD.findall(r) for r in _TR.findall(table)]
        header = [re.sub(r"\s", "", c) for c in rows[0]] if rows else []
        if header not in (_COLUMNS, _COLUMNS[:3]):
            return table
        if any(len(r) != len(header) for r in rows[1:]):
            return table
        bullets = [_bullet(r, m.group("indent")) for r in rows[1:]]
        if not bullets or None in bullets:
            return table
        return "\n".join(bullets)

    return _PARAM_TABLE.sub(rewrite, text)


REWRITES = [products_as_list, notes_on_two_lines, terms_as_plain_names, reflowed_bullets, renamed_links]
# Rewrites of forms few documents have: tried on every corpus document holding `marker`.
RARE_REWRITES = {
    notes_into_cells: "参数中，",
    restriction_as_unsupported: "数据类型支持",
    restriction_as_extra: "数据类型支持",
}


def _sample(corpus, n: int = 40) -> list:
    docs = sorted((corpus / "docs" / "ops-nn").rglob("aclnn*.md"))
    return random.Random(25).sample(docs, min(n, len(docs)))


def _documents(corpus, rewrite) -> list:
    if rewrite not in RARE_REWRITES:
        return _sample(corpus)
    docs = sorted((corpus / "docs" / "ops-nn").rglob("aclnn*.md"))
    return [p for p in docs if RARE_REWRITES[rewrite] in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("rewrite", [*REWRITES, *RARE_REWRITES], ids=lambda f: f.__name__)
def test_a_document_rewritten_in_another_presentation_has_the_same_contract(corpus, rewrite):
    changed = []
    for path in _documents(corpus, rewrite):
        text = path.read_text(encoding="utf-8")
        rewritten = rewrite(text)
        if rewritten == text:
            continue
        before = parse_document(path.name, text.encode())
        after = parse_document(path.name, rewritten.encode())
        changed += [f"{path.name}: {summary(c)}" for c in diff([before], [after])]
    assert changed == [], "\n".join(changed)


def test_the_rewrites_change_the_documents(corpus):
    """Each rewrite has something to rewrite in the sample, or its test would prove nothing."""
    texts = [p.read_text(encoding="utf-8") for p in _sample(corpus)]
    for rewrite in REWRITES:
        assert sum(rewrite(t) != t for t in texts) >= 3, rewrite.__name__
    for rewrite in RARE_REWRITES:
        texts = [p.read_text(encoding="utf-8") for p in _documents(corpus, rewrite)]
        assert sum(rewrite(t) != t for t in texts) >= 2, rewrite.__name__


def _typed_and_described(corpus) -> tuple[list[str], list[str]]:
    """(changes of a typed fact, description changes) of the sample written as lists."""
    typed, described = [], []
    for path in _sample(corpus):
        text = path.read_text(encoding="utf-8")
        if (rewritten := table_as_list(text)) == text:
            continue
        changes = diff([parse_document(path.name, text.encode())], [parse_document(path.name, rewritten.encode())])
        for c in changes:
            (described if c.id.value == "description-changed" else typed).append(f"{path.name}: {summary(c)}")
    return typed, described


def test_a_parameter_table_written_as_a_list_has_the_same_contract(corpus):
    """Every fact read from a column (dtypes, formats, ranks, non-contiguous, relations and
    statements) reads the same from the list's sentences. The description may not: a table's
    description cell can hold a clause a list's lead would not take as description (`可选输入
    参数，表示…`); those (2 in the sample: aclnnAdaLayerNorm's weightOptional and biasOptional)
    are all that is left, where the list's whole first sentences and the usage rules that
    follow were read as description before (37)."""
    typed, described = _typed_and_described(corpus)
    assert typed == [], "\n".join(typed)
    assert len(described) <= 2, "\n".join(described)


def test_the_tables_are_written_as_lists(corpus):
    texts = [p.read_text(encoding="utf-8") for p in _sample(corpus)]
    assert sum(table_as_list(t) != t for t in texts) >= 10
