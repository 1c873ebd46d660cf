"""Parameter documentation of a function region: table rows or bullets to `ParamFacts`."""

from __future__ import annotations

import re
from functools import lru_cache

from markdown_it.token import Token

from specgen import text as textmod
from specgen import vocab
from specgen.parse.document import Document
from specgen.parse.facts import ParamFacts, ProductNote, Statement
from specgen.parse.tables import Table

# Column roles, by header text (spaces removed); the first role a header matches wins.
# English headers (`| Name | Description | Dtype | Format | Shape |`) are matched too.
_ROLES: list[tuple[str, re.Pattern[str]]] = [
    ("name", re.compile(r"参数名|^参数$|^(?:param(?:eter)?\s*)?name$|^param(?:eter)?$", re.I)),
    ("direction", re.compile(r"输入/?输出|^方向$|^(?:direction|in/?out|input/output)$", re.I)),
    ("usage", re.compile(r"使用说明|^usage$", re.I)),
    ("description", re.compile(r"^描述$|^说明$|^参数说明$|^description$", re.I)),
    ("dtype", re.compile(r"^数据类型|^d(?:ata\s*)?types?$", re.I)),
    ("ctype", re.compile(r"^类型$|^(?:c\s*)?type$", re.I)),
    ("format", re.compile(r"数据格式|^格式$|^(?:data\s*)?formats?$", re.I)),
    ("shape", re.compile(r"维度|shape", re.I)),
    ("non_contiguous", re.compile(r"非连续|contiguous", re.I)),
]
_NAME_CELL = re.compile(
    r"^(?P<name>[A-Za-z_]\w*(?:/[A-Za-z_]\w*)*)\s*"
    r"(?:[（(]\s*(?P<paren>[^）)]*?)\s*[）)])?\s*$"
)
_BULLET_HEAD = re.compile(
    r"^(?P<name>[A-Za-z_]\w*)\s*(?:[（(]\s*(?P<paren>[^）)]*?)\s*[）)])?"
    r"\s*(?P<colon>[:：])?\s*(?P<rest>.*)$",
    re.S,
)
_PARAMS_LABEL = re.compile(r"^参数说明[:：]?$")
_C_TYPE_HINT = re.compile(r"^(?:const\s+)?[A-Za-z_]\w*(?:\s*\*+)?(?:\s*\[\])?$")
_PRODUCT_HINT = re.compile(r"Atlas|Ascend|昇腾|<term>|产品")


def column_roles(header: list[str]) -> dict[str, int]:
    return dict(_column_roles(tuple(header)))


@lru_cache(maxsize=1024)  # documents repeat a handful of headers
def _column_roles(header: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    roles: dict[str, int] = {}
    for col, text in enumerate(header):
        for role, pattern in _ROLES:
            if pattern.search(text) and role not in roles:
                roles[role] = col
                break
    return tuple(roles.items())


def is_param_table(table: Table) -> bool:
    roles = column_roles(table.header)
    return (
        "name" in roles
        and ("direction" in roles or "description" in roles)
        and not any("错误码" in h or "返回码" in h for h in table.header)
    )


def params_from_table(table: Table) -> list[ParamFacts]:
    roles = column_roles(table.header)
    out: list[ParamFacts] = []
    last_origin = None
    for row, line in zip(table.rows, table.lines, strict=True):
        if roles["name"] >= len(row):
            continue
        name_cell = row[roles["name"]]
        if name_cell.origin == last_origin and out:  # a rowspan continues the parameter
            _add_cells(out[-1], row, roles, line, continuation=True)
            continue
        last_origin = name_cell.origin
        match = _NAME_CELL.match(textmod.plain(name_cell.html).strip("`"))
        if not match:
            continue
        for name in match.group("name").split("/"):
            facts = ParamFacts(name=name, line=line, type_hint=_type_hint(match.group("paren")))
            _add_cells(facts, row, roles, line, continuation=False)
            out.append(facts)
    return out


def _add_cells(facts: ParamFacts, row: list, roles: dict[str, int], line: int, *, continuation: bool) -> None:
    # The row's cell of each role (of a continuation row, only those no earlier row spans).
    cells = {
        role: row[col].html for role, col in roles.items() if col < len(row) and not (continuation and row[col].spanned)
    }
    if (html := cells.get("direction")) is not None and not continuation:
        facts.direction = textmod.plain(html)
    if (html := cells.get("ctype")) is not None and not continuation:
        facts.type_hint = _type_hint(textmod.plain(html)) or facts.type_hint
    if (html := cells.get("description")) is not None:
        facts.description.extend(Statement(_letters(t), line) for t in textmod.lines(html) if t not in ("-", "/"))
    if (html := cells.get("usage")) is not None:
        for t in textmod.lines(html):
            if t not in ("-", "/"):
                _add_statement(facts, _letters(t), line)
    for role in ("dtype", "format", "shape", "non_contiguous"):
        if (html := cells.get(role)) is not None and role not in facts.cells:
            facts.cells[role] = Statement(textmod.plain(html), line)


_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "eta": "η", "theta": "θ",
    "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "omega": "ω",
}  # fmt: skip
_TEX_LETTER = re.compile(r"\\(" + "|".join(_GREEK) + r")(?![A-Za-z])")


def _letters(text: str) -> str:
    """`公式中的\\alpha` as `公式中的α`: a cell names a formula's letter either way."""
    return _TEX_LETTER.sub(lambda m: _GREEK[m.group(1)], text) if "\\" in text else text


def _type_hint(paren: str | None) -> str | None:
    """The C type inside `name（aclTensor*）` or a type column; None for aliases like `β`."""
    if not paren:
        return None
    candidate = re.split(r"[，,]", paren)[0].strip()
    return candidate if _C_TYPE_HINT.match(candidate) else None


# ---------------------------------------------------------------- bullets


def params_from_bullets(doc: Document, start: int, end: int) -> list[ParamFacts]:
    """Parameter bullets in lines [start, end): the items under a `参数说明` bullet, or else
    the region's top-level items written `name（type，direction）：...`."""
    tokens = [t for t in doc.tokens if t.map is None or start <= t.map[0] < end]
    items = _items(tokens)
    label = next((i for i in items if _PARAMS_LABEL.match(_head_text(tokens, i).strip("*"))), None)
    if label is not None:
        candidates = _children(tokens, label) or _children_of_empty_sibling(tokens, items, label)
        strict = False
    else:
        top = min((tokens[i].level for i in items), default=0)
        candidates = [i for i in items if tokens[i].level == top]
        strict = True
    out = []
    for index in candidates:
        facts = _bullet_param(tokens, index, strict)
        if facts is not None:
            out.append(facts)
    return out


def _items(tokens: list[Token]) -> list[int]:
    return [i for i, t in enumerate(tokens) if t.type == "list_item_open"]


def _children(tokens: list[Token], index: int) -> list[int]:
    level = tokens[index].level
    out = []
    for i in range(index + 1, len(tokens)):
        tok = tokens[i]
        if tok.type == "list_item_close" and tok.level == level:
            break
        if tok.type == "list_item_open" and tok.level == level + 2:
            out.append(i)
    return out


def _children_of_empty_sibling(tokens: list[Token], items: list[int], label: int) -> list[int]:
    """`- **参数说明：**` followed by a stray `- ` item holding the parameter bullets."""
    siblings = [i for i in items if i > label and tokens[i].level == tokens[label].level]
    if siblings and not _head_text(tokens, siblings[0]).strip():
        return _children(tokens, siblings[0])
    return []


def _own_inlines(tokens: list[Token], index: int) -> list[Token]:
    """Inline tokens of an item's own paragraphs (not of its nested items)."""
    level = tokens[index].level
    out = []
    for i in range(index + 1, len(tokens)):
        tok = tokens[i]
        if tok.type == "list_item_close" and tok.level == level:
            break
        if tok.type in ("inline", "html_block", "code_block") and tok.level in (level + 1, level + 2):
            out.append(tok)
    return out


def _head_text(tokens: list[Token], index: int) -> str:
    inlines = _own_inlines(tokens, index)
    return textmod.plain(inlines[0].content) if inlines else ""


def _bullet_param(tokens: list[Token], index: int, strict: bool) -> ParamFacts | None:
    inlines = _own_inlines(tokens, index)
    if not inlines or inlines[0].type != "inline":
        return None
    head, *more = inlines
    first_line = head.map[0] + 1 if head.map else 0
    match = _BULLET_HEAD.match(textmod.plain(head.content.split("\n")[0]))
    if not match or not (match.group("paren") or match.group("colon")):
        return None
    if strict and not match.group("paren"):
        return None
    type_hint, direction = _split_paren(match.group("paren"))
    facts = ParamFacts(
        name=match.group("name"), line=first_line, type_hint=type_hint, direction=direction, mixed_prose=True
    )
    rest_lines = [_letters(line) for line in [match.group("rest")] + head.content.split("\n")[1:]]
    for offset, raw in enumerate(rest_lines):
        facts.statements.extend(Statement(t, first_line + offset) for t in textmod.lines(raw))
    for tok in more:
        if tok.type == "inline" and tok.map:
            facts.statements.extend(Statement(t, tok.map[0] + 1) for t in textmod.lines(tok.content))
    for child in _children(tokens, index):
        _nested_statement(tokens, child, facts)
    return facts


def _nested_statement(tokens: list[Token], index: int, facts: ParamFacts) -> None:
    """A sub-bullet of a parameter: a per-product note or one more statement."""
    text = " ".join(textmod.plain(t.content) for t in _own_inlines(tokens, index) if t.type == "inline")
    line = span[0] + 1 if (span := tokens[index].map) else facts.line
    if text:
        _add_statement(facts, text, line)
    for child in _children(tokens, index):
        _nested_under(tokens, child, text, facts)


def _nested_under(tokens: list[Token], index: int, lead: str, facts: ParamFacts) -> None:
    """A sub-bullet of a parameter's sub-bullet (PromptFlashAttentionV2 sparseMode's `sparseMode为1时，
    代表allMask，必须传入完整的attenmask矩阵` under `<term>Atlas A2 …</term>：`): a statement of the
    products its lead names, else one more statement of the parameter."""
    text = " ".join(textmod.plain(t.content) for t in _own_inlines(tokens, index) if t.type == "inline")
    line = span[0] + 1 if (span := tokens[index].map) else facts.line
    products = _products_said(lead)
    if text:
        _add_statement(facts, products + text, line)
    for child in _children(tokens, index):
        _nested_under(tokens, child, products or text, facts)


def _products_said(lead: str) -> str:
    """The lead's products with their colon (`<term>Atlas A2 …</term>：`), whatever follows them; empty
    when the lead names no product."""
    if product_lead(lead) is None:
        return ""
    who, sep, _ = re.split(r"([:：])", lead, maxsplit=1)
    return who + sep


def _add_statement(facts: ParamFacts, text: str, line: int) -> None:
    """One more statement of a parameter, or a per-product note when it opens with products
    (`<term>A2</term>、<term>A3</term>：…`): a usage cell's item and a sub-bullet alike, so a
    note moved from the cell to the list under the table reads the same."""
    lead = product_lead(text)
    if lead is None:
        facts.statements.append(Statement(text, line))
        return
    products, what = lead
    facts.notes.append(ProductNote(products=products, statements=[Statement(what, line)], line=line))


def product_lead(text: str) -> tuple[tuple[str, ...], str] | None:
    """(product ids, the rest) of a statement opening with the products it holds on."""
    who, sep, what = (re.split(r"([:：])", text, maxsplit=1) + ["", ""])[:3]
    if not sep or not _PRODUCT_HINT.search(who):
        return None
    products = tuple(dict.fromkeys(pid for name in re.split(r"[、,，]", who) if (pid := vocab.product_id(name))))
    return (products, what.strip()) if products else None


def _split_paren(paren: str | None) -> tuple[str | None, str | None]:
    """`aclTensor*，计算输入` to (type hint, direction words)."""
    if not paren:
        return None, None
    type_hint, direction = None, None
    for part in re.split(r"[，,]", paren):
        part = part.strip()
        if vocab.direction(part) is not None or "可选" in part:
            direction = part
        elif part and type_hint is None:
            type_hint = _type_hint(part)
    return type_hint, direction
