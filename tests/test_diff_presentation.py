"""The diff compares contracts, not presentation: real corpus documents rewritten in another
presentation (the rewrites the ops-nn history made: product tables as `<term>` lists in `npu`
comments, a per-product note's text on the lines below its products, plain
product names for `<term>` in notes) give no change. Skipped without the shared corpus."""

from __future__ import annotations

import random
import re

import pytest

from specgen.parse import parse_document
from specgen.review.diff import diff, summary
from specgen.vocab import product_id

_TABLE_ROW = re.compile(r"^\|\s*(?:<term>)?(?P<name>[^|<]+?)(?:</term>)?\s*\|\s*(?P<mark>[√×xX])\s*\|\s*$")
_NOTE = re.compile(r"^(?P<indent>\s*)- (?P<terms>(?:<term>[^<]+</term>[、和]?)+)：(?P<rest>\S.*)$")


def products_as_list(text: str) -> str:
    """`| <term>产品</term> | √ |` rows as `- <term>产品</term>：支持` in `npu` comments (打标签)."""
    out, n = [], 0
    for line in text.split("\n"):
        m = _TABLE_ROW.match(line)
        if m and product_id(m.group("name")):
            n += 1
            mark = "支持" if m.group("mark") == "√" else "不支持"
            out += [
                f'<!-- npu="{product_id(m.group("name"))}" id{n} -->',
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
    lines = text.split("\n")
    moved: list[tuple[str, str]] = []  # (parameter, `<li>` item)
    kept: list[str] = []
    terms = None
    for line in lines:
        if head := _NOTE_HEAD.match(line):
            terms = head.group("terms")
        elif terms and (note := _PARAM_NOTE.match(line)):
            moved.append((note.group("param"), f"<li>{terms}：{note.group('text')}</li>"))
            continue
        elif line.strip() and not line.startswith("    "):
            terms = None
        kept.append(line)
    for param, item in moved:
        kept = _into_usage_cell(kept, param, item)
    return "\n".join(_without_empty_heads(kept))


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


def _without_empty_heads(lines: list[str]) -> list[str]:
    """A product heading whose nested statements all went into cells is dropped."""
    out = []
    for i, line in enumerate(lines):
        following = next((x for x in lines[i + 1 :] if x.strip()), "")
        if _NOTE_HEAD.match(line) and not following.startswith("    "):
            continue
        out.append(line)
    return out


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


REWRITES = [products_as_list, notes_on_two_lines, terms_as_plain_names, reflowed_bullets, renamed_links]


def _sample(corpus, n: int = 40) -> list:
    docs = sorted((corpus / "docs" / "ops-nn").rglob("aclnn*.md"))
    return random.Random(25).sample(docs, min(n, len(docs)))


@pytest.mark.parametrize("rewrite", REWRITES, ids=lambda f: f.__name__)
def test_a_document_rewritten_in_another_presentation_has_the_same_contract(corpus, rewrite):
    changed = []
    for path in _sample(corpus):
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
