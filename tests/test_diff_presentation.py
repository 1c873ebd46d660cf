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


REWRITES = [products_as_list, notes_on_two_lines, terms_as_plain_names]


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
