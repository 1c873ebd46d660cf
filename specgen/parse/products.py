"""Product support (产品支持情况) and per-product notes (`<term>产品</term>：...`)."""

from __future__ import annotations

import re

from specgen import text as textmod
from specgen import vocab
from specgen.diagnostics import Code
from specgen.model import Diagnostic, Product
from specgen.parse.document import Document
from specgen.parse.facts import ProductNote, Statement
from specgen.parse.sections import products_section
from specgen.parse.tables import tables_in

_TERM_NOTE = re.compile(
    r"^(?P<indent>\s*)(?:[-*]\s+)?(?P<terms>(?:\**<term>[^<]*</term>\**\s*[、，,/和]?\s*)+)"
    r"[:：]?\s*(?P<rest>.*)$"
)
_TERM = re.compile(r"<term>([^<]*)</term>")
# The same note with the product names written plainly (`- Ascend 950PR/Ascend 950DT：不支持INT16`).
_NAMES = sorted(vocab.PRODUCT_NAMES.values(), key=len, reverse=True)
_NAME = "|".join(re.escape(n).replace(r"\ ", r"\s*") for n in _NAMES)
_PLAIN_NOTE = re.compile(
    rf"^(?P<indent>\s*)(?:[-*]\s+)?(?P<terms>(?:(?:{_NAME})\s*[、，,和]?\s*)+)[:：]\s*(?P<rest>.*)$"
)
_PLAIN_NAME = re.compile(_NAME)
_BULLET = re.compile(r"^(?P<indent>\s*)[-*]\s+(?P<body>.*)$")
_SUPPORTED = re.compile(r"^(?:√|✓|✔|支持)")
_UNSUPPORTED = re.compile(r"^(?:×|x|X|✗|不支持)")


def read_products(doc: Document) -> tuple[list[Product], list[Diagnostic]]:
    """The products the document lists as supported or not, and warnings for unknown names."""
    section = products_section(doc)
    if section is None:
        return [], []
    found: dict[str, Product] = {}
    warnings: list[Diagnostic] = []

    def add(name: str, supported: bool, line: int) -> None:
        pid = vocab.product_id(name)
        if pid is None:
            warnings.append(Diagnostic.at(line, Code.UNKNOWN_PRODUCT, f"unknown product name {name!r}"))
            return
        if pid not in found:  # the first mention counts; later ones are not made at all
            found[pid] = Product(id=pid, name=name.strip(), supported=supported, line=line)

    for table in tables_in(doc, section.start, section.end):
        for row, line in zip(table.rows, table.lines, strict=True):
            cells = [textmod.plain(c.html) for c in row]
            if len(cells) >= 2 and (_SUPPORTED.match(cells[1]) or _UNSUPPORTED.match(cells[1])):
                add(cells[0], bool(_SUPPORTED.match(cells[1])), line)
    for i in range(section.start, section.end):
        raw = doc.lines[i]
        if doc.in_fence(i) or "|" in raw:
            continue
        if terms := _TERM.findall(raw):
            rest = textmod.plain(_TERM.sub("", raw)).lstrip("-* ：:")
            for name in terms:
                add(name, not _UNSUPPORTED.match(rest), i + 1)
        elif (m := _BULLET.match(raw)) or (raw.strip() and "产品" in raw and "详细" not in raw):
            body = textmod.plain(m.group("body") if m else raw)
            name, _, rest = body.partition("：")
            if vocab.product_id(name) and "参见" not in body:
                add(name, not _UNSUPPORTED.match(rest.strip()), i + 1)
    listed_only = not tables_in(doc, section.start, section.end)  # a table marks each product √/×
    if listed_only and _SUPPORTED_ONLY.search(section.title) and found and all(p.supported for p in found.values()):
        found.update(_absent(found, section.line))
    return sorted(found.values(), key=lambda p: p.line), warnings


# The doc-site section `支持的产品型号` lists the supported products only: one it does not name
# is unsupported (the repository's `产品支持情况` marks each ×/√ instead).
_SUPPORTED_ONLY = re.compile(r"^支持的产品型号$")


def _absent(found: dict[str, Product], line: int) -> dict[str, Product]:
    """The known products a supported-only list leaves out, as unsupported, at its heading;
    none of the generation of one it names."""
    listed = set(found)
    kin = {kin for pid in listed for kin in vocab.generation_of(pid)}  # A2 listed: A3 not ruled out
    return {
        pid: Product(id=pid, name=name, supported=False, line=line)
        for pid, name in vocab.PRODUCT_NAMES.items()
        if pid not in listed and pid not in kin
    }


def notes_in(doc: Document, start: int, end: int, skip: list[tuple[int, int]]) -> list[ProductNote]:
    """`<term>` notes in lines [start, end), outside the line ranges in `skip` (tables)."""
    notes = []
    read_to = start  # lines before it are read (the nested bullets of a note)
    for i in [k for k in range(start, end) if "<term>" in doc.lines[k] or _PLAIN_NAME.search(doc.lines[k])]:
        m = _TERM_NOTE.match(doc.lines[i]) or _PLAIN_NOTE.match(doc.lines[i])
        if i < read_to or m is None or doc.in_fence(i) or any(a <= i < b for a, b in skip):
            continue
        names = _TERM.findall(m.group("terms")) or _PLAIN_NAME.findall(m.group("terms"))
        products = tuple(dict.fromkeys(pid for name in names if (pid := vocab.product_id(name))))
        note_line = i + 1
        rest, read_to = _continued(doc, m.group("rest"), i + 1, end)
        statements = [Statement(t, note_line) for t in textmod.lines(rest)]
        if not statements:  # the remarks follow as nested bullets
            statements, read_to = nested_bullets(doc, read_to, end, len(m.group("indent")))
        if products:
            notes.append(ProductNote(products=products, statements=statements, line=note_line))
    return notes


def nested_bullets(doc: Document, i: int, end: int, indent: int) -> tuple[list[Statement], int]:
    """Bullets, or indented paragraphs (a note's text on the lines below its products), deeper
    than `indent` from line i on; stops at the first shallower line."""
    out: list[Statement] = []
    while i < end:
        raw = doc.lines[i]
        if not raw.strip() or raw.lstrip().startswith("<!--"):
            i += 1
            continue
        m = _BULLET.match(raw)
        depth = len(m.group("indent")) if m else len(raw) - len(raw.lstrip())
        if depth <= indent or (m is None and raw.lstrip().startswith(("|", "<", "#", "```"))):
            break
        text, after = _continued(doc, m.group("body") if m else raw, i + 1, end)
        out.extend(Statement(t, i + 1) for t in textmod.lines(text))
        i = after
    return out, i


# A line that starts a block of its own (a bullet, a heading, a table, a fence, HTML, a formula)
# and so continues no paragraph.
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.、)]\s|[（(]\d+[)）]|#|\||<|```|\$\$|>)")


def _continued(doc: Document, text: str, i: int, end: int) -> tuple[str, int]:
    """`text` (of line i - 1) with the lines from i on that continue its paragraph (a bullet
    reflowed over several lines reads as on one line), and the index of the next line."""
    while text.strip() and i < end and _continues(doc.lines[i]) and not doc.in_fence(i):
        text += doc.lines[i].strip()
        i += 1
    return text, i


def _continues(line: str) -> bool:
    return bool(line.strip()) and not _BLOCK_START.match(line)


def unwrapped(body: str) -> str:
    """`body` with each paragraph's continuation lines joined to its first line, a blank line
    left in place of each so that line k of the text is still line k of the document."""
    out: list[str] = []
    fence = False
    for raw in body.split("\n"):
        if raw.lstrip().startswith("```"):
            fence = not fence
        elif not fence and out and out[-1].strip() and not out[-1].lstrip().startswith("```") and _continues(raw):
            out[-1] += raw.strip()
            out.append("")
            continue
        out.append(raw)
    return "\n".join(out)
