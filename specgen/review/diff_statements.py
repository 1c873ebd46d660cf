"""Statements the parser cannot type (remarks, untyped constraint prose, notes): compared as
normalised sentences, matched across products and renames, each change given a direction."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from specgen import vocab
from specgen.model import Constraint, Function, OperatorDoc, Param
from specgen.review.changes import ChangeId, Collector, Side, normalise
from specgen.review.diff_errors import BEARERS
from specgen.text import plain

# A flag of a parameter -> how a per-product remark names it (`入参`x`，不支持空tensor。`).
FLAG_WORDS = {"non_contiguous": "非连续tensor", "empty_tensor": "空tensor"}


def flag_remark(text: str, param: str, fact: str) -> tuple[list[str], bool] | None:
    """(products, supported) of a remark that only says `param` (不)支持 the flag, or None."""
    products, body = _scoped(text)
    name = re.escape(normalise(param))
    m = re.fullmatch(rf"(?:入参|参数)?{name}(?:参数)?,?(不)?支持{FLAG_WORDS[fact]}", body)
    return (products, m.group(1) is None) if m and products else None


_TERM = re.compile(r"<term>(.*?)</term>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.、)]|[（(]\d+[)）])\s+")


@dataclass(frozen=True)
class Statement:
    text: str  # as written, for the reader
    line: int
    products: tuple[str, ...] = ()  # the products it holds on; () for every one
    cell: bool = False  # a sentence of the parameter's table cells

    @property
    def key(self) -> str:
        products, body = _scoped(self.text)
        products = products or list(self.products)
        return ",".join(products) + "|" + body if products else body

    @property
    def body(self) -> str:
        """The statement without the products it is for: found in the other version's text
        under a product heading, or in another column, it moved."""
        return _scoped(self.text)[1]

    def found_in(self, keys: set[str]) -> bool:
        """Every sentence of it is a sentence of the other version (`keys`): moved, not
        changed, be it under a product heading or with a lead naming the parameter."""
        sentences = _sentences(self.body)
        return bool(sentences) and all(_variants(k) & keys for k in sentences)


def _sentences(body: str) -> list[str]:
    return [k for k in re.split(r"[。;]", body) if k]


def _variants(key: str) -> set[str]:
    """A sentence, and the same without a lead naming the parameter (`x参数中，…`, `入参x，…`)."""
    head, comma, rest = key.partition(",")
    return {key, rest} if comma and rest and len(head) <= 40 and "参" in head else {key}


def _statement_key(text: str) -> str:
    """A statement as compared: tags, comments, bullets and emphasis dropped, `normalise`d."""
    return normalise(_BULLET.sub("", plain(_COMMENT.sub("", text))))


def _scoped(text: str) -> tuple[list[str], str]:
    """(product ids, the rest) of `<term>A2</term>、<term>A3</term>：…` or `A2/A3平台：…`."""
    written = _BULLET.sub("", plain(_COMMENT.sub("", text)))
    head, colon, rest = re.sub(r"[:：]", "：", written).partition("：")
    if not colon or len(head) > 120:
        return [], normalise(written)
    ids = [_product_ids(part) for part in re.split(r"[、，,和]", head) if part.strip()]
    if not ids or None in ids:
        return [], normalise(written)
    return sorted({i for group in ids for i in group or ()}), normalise(rest)


def _product_ids(name: str) -> list[str] | None:
    """`Atlas 200I/500 A2 推理产品` is one product, `A2/A3平台` two (each part a product of its
    own, though the whole reads as A3 alone); None if not products."""
    parts = [vocab.product_id(part) for part in name.split("/")]
    if None not in parts and len(set(parts)) > 1:
        return sorted({p for p in parts if p})
    pid = vocab.product_id(name)
    return [pid] if pid else None


_SENTENCE_END = re.compile(r"[。；;\n]")


def untyped_statements(param: Param, fn: Function) -> list[Statement]:
    """The sentences of a parameter's cells that hold a clause the parser could not type, or
    a relation to a parameter that lacks what it relates (compared as edges nowhere), whole
    (the parser splits `（n），（1，n）` into clauses: a sentence is what was edited)."""
    fragments = [c for c in param.constraints if c.kind == "text" or _unrelated(c, param, fn)]
    found = []
    for sentence in _SENTENCE_END.split(param.text):
        inside = [c for c in fragments if c.text and c.text in sentence]
        if inside:
            products = {c.product for c in inside}
            only = products.pop() if len(products) == 1 else None
            found.append(Statement(sentence.strip(), inside[0].line, (only,) if only else (), cell=True))
    return found


def _unrelated(c: Constraint, param: Param, fn: Function) -> bool:
    """A relation whose subject or a peer lacks what it relates (`形状与shape一致`, `shape`
    an aclIntArray): the parser took a word for a name."""
    if c.kind not in BEARERS:
        return False
    kinds = [param.kind] + [peer.kind for n in c.params if (peer := fn.param(n)) is not None]
    return any(k not in BEARERS[c.kind] for k in kinds)


def typed_statements(param: Param) -> list[Statement]:
    kinds = ("text", "dtypes", "formats", "rank")  # those of their own column are compared as sets
    return [constraint_statement(c) for c in param.constraints if c.kind not in kinds]


def constraint_statement(c: Constraint) -> Statement:
    return Statement(c.text, c.line, (c.product,) if c.product else ())


def note_statements(doc: OperatorDoc) -> list[Statement]:
    """The lines of 约束说明 that no typed constraint was drawn from, one statement each."""
    if doc.notes is None:
        return []
    typed = {c.line for fn in doc.functions for p in fn.params for c in p.constraints if c.kind != "text"}
    found = []
    scope: tuple[int, tuple[str, ...]] | None = None  # (indent, products) of a product heading
    for offset, raw in enumerate(doc.notes.text.split("\n")):
        line, indent = doc.notes.line + offset, len(raw) - len(raw.lstrip())
        if raw.strip() and scope is not None and indent <= scope[0]:
            scope = None
        if raw.rstrip().endswith(("：", ":")):  # `- 确定性计算：` or `- <term>A2</term>：` heads the lines below
            products = tuple(_scoped(raw)[0])
            scope = (indent, products) if products else scope
        elif line not in typed and _statement_key(raw):
            products = scope[1] if scope is not None else ()
            found.append(Statement(raw.strip(), line, products))
    return found


def remark_statements(fn: Function) -> dict[str | None, list[Statement]]:
    """The per-product remarks of the parameter section that no typed constraint came from, by
    the parameter they name (None: none, or several)."""
    typed = {c.line for p in fn.params for c in p.constraints if c.kind != "text"}
    out: dict[str | None, list[Statement]] = {}
    for r in fn.remarks:
        if r.line in typed or any(flag_remark(r.text, p.name, f) for p in fn.params for f in FLAG_WORDS):
            continue  # typed by the parser, or a flag read per product (`_flag_on`)
        st = Statement(r.text, r.line, tuple(_scoped(r.text)[0]))
        named = [p.name for p in fn.params if re.search(rf"(?<![\w]){re.escape(p.name)}(?![\w])", r.text, re.A)]
        out.setdefault(named[0] if len(named) == 1 else None, []).append(st)
    return out


def compare_remarks(out: Collector, old: Side, new: Side, renames: dict[str, str]) -> None:
    """Remarks naming no parameter matched on both sides (those are compared with its cells)."""
    before, after = remark_statements(old.fn), remark_statements(new.fn)
    before = {renames.get(k, k) if k else k: v for k, v in before.items()}
    matched = {renames.get(p.name, p.name) for p in old.fn.params} & {p.name for p in new.fn.params}
    for param in sorted((before.keys() | after.keys()) - matched, key=lambda k: k or ""):
        compare_statements(out, old, new, param, before.get(param, []), after.get(param, []))


def haystack(doc: OperatorDoc, param: str | None = None) -> set[str]:
    """The sentences of a document where one of `param`'s (or of the notes, when None) may
    have moved: the notes, the error table, the remarks, and the parameter's own cells (every
    parameter's for a note)."""
    parts = [doc.notes.text if doc.notes else ""]
    for fn in doc.functions:
        parts += [e.condition for e in fn.errors] + [r.text for r in fn.remarks]
        parts += [t for p in fn.params if param in (None, p.name) for t in (p.description, p.text)]
    lines = (line for part in parts for line in part.split("\n"))
    return {v for line in lines for k in _sentences(_scoped(line)[1]) for v in _variants(k)}


def compare_statements(
    out: Collector,
    old: Side,
    new: Side,
    param: str | None,
    before: list[Statement],
    after: list[Statement],
    typed: tuple[list[Statement], list[Statement]] = ([], []),
) -> None:
    """Untyped statements compared as normalised text: a statement whose text is still
    anywhere in the other version moved (no change); an edited one pairs with its nearest new
    text, typed or not (a parameter's statement with any of the same cell's); the rest were
    added or removed. Information, for a reviewer to read."""
    if not before and not after:
        return
    old_text, new_text = haystack(old.doc, param), haystack(new.doc, param)
    gained, dropped = _values_changed(old.doc, new.doc, param), _values_changed(new.doc, old.doc, param)
    removed = [st for st in before if st.body and not st.found_in(new_text) and not st.body.startswith(dropped)]
    added = [st for st in after if st.body and not st.found_in(old_text) and not st.body.startswith(gained)]
    typed_gone = [st for st in typed[0] if st.body and not st.found_in(new_text)]
    typed_new = [st for st in typed[1] if st.body and not st.found_in(old_text)]
    gone, came = (
        [(st, False) for st in removed] + [(st, True) for st in typed_gone],
        [(st, False) for st in added] + [(st, True) for st in typed_new],
    )
    for (x, _), (y, _) in _pairs(gone, came, loose=param is not None):
        if x in removed or y in added:
            _changed(out, old, new, param, x, y)
        removed, added = [st for st in removed if st is not x], [st for st in added if st is not y]
    for st in removed:
        out.add(ChangeId.CONSTRAINT_TEXT_REMOVED, old, new, param=param, before=_statement_json(st), old_line=st.line)
    for st in added:
        out.add(ChangeId.CONSTRAINT_TEXT_ADDED, old, new, param=param, after=_statement_json(st), new_line=st.line)
    for x, y in _moved_between_products(before, after):
        _changed(out, old, new, param, x, y)


def _values_changed(was: OperatorDoc, now: OperatorDoc, param: str | None) -> tuple[str, ...]:
    """How a statement about an enum value `was` lacks begins (`cubemathtype=4`, and `4:` in
    that parameter's own cells): it explains that value, part of its enum-values change."""
    heads: list[str] = []
    for fn in now.functions:
        before = next((f for f in was.functions if f.name == fn.name), None)
        for p in fn.params if before is not None else ():
            peer = before.param(p.name) if before is not None else None
            known = {str(v) for c in peer.of_kind("enum") for v in c.values} if peer is not None else set()
            if not known:
                continue
            for v in {str(v) for c in p.of_kind("enum") for v in c.values} - known:
                heads += [normalise(f"{p.name}={v}"), *([f"{normalise(v)}:"] if p.name == param else [])]
    return tuple(heads)


def _scope(st: Statement) -> tuple[str, ...]:
    return tuple(sorted(st.products or _scoped(st.text)[0]))


def _moved_between_products(before: list[Statement], after: list[Statement]) -> list[tuple]:
    """The same words now said for other products (`<term>A2</term>：…` became `<term>950</term>：…`):
    the statement holds where it did not, and no longer where it did."""
    scopes_a, scopes_b = ({(st.body, _scope(st)) for st in sts} for sts in (before, after))
    pairs, used = [], set()
    for x in before:
        if not x.body or (x.body, _scope(x)) in scopes_b:
            continue
        y = next(
            (y for y in after if y.body == x.body and id(y) not in used and (y.body, _scope(y)) not in scopes_a), None
        )
        if y is not None:
            used.add(id(y))
            pairs.append((x, y))
    return pairs


def _pairs(gone: list, came: list, *, loose: bool) -> list[tuple]:
    """Edited statements: the closest (old, new) pairs first, each statement in one pair, at
    least one of them untyped. Two untyped sentences of one parameter's cells pair however far
    apart (its cell was edited); otherwise they must be alike."""
    scored = sorted(
        ((_alike(x, y), i, j) for i, (x, tx) in enumerate(gone) for j, (y, ty) in enumerate(came) if not (tx and ty)),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    used_a, used_b, out = set(), set(), []
    for ratio, i, j in scored:
        one_cell = gone[i][0].cell and came[j][0].cell and not gone[i][1] and not came[j][1]
        if i in used_a or j in used_b or ratio < (0.0 if loose and one_cell else 0.6):
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((gone[i], came[j]))
    return out


def _changed(out: Collector, old: Side, new: Side, param: str | None, a: Statement, b: Statement) -> None:
    out.add(
        _list_direction(a, b),
        old,
        new,
        param=param,
        before=_statement_json(a),
        after=_statement_json(b),
        old_line=a.line,
        new_line=b.line,
    )


_ALTERNATIVE = re.compile(r"或者|[、,或]")
# A statement's tokens: a separator of alternatives (`|` once normalised), a bracketed group
# (`(1,n)`), a run of Latin letters and digits (`int16`), or a run of anything else.
_TOKEN = re.compile(r"\||\([^()]*\)|\[[^\[\]]*\]|[a-z0-9_.\-]+|[^|(\[a-z0-9_.\-]+")
# Words that make a list conjunctive, reverse it or bound it (`self、mat1和mat2的数据类型必须一致`,
# `不支持A、B`, `当x为A、B时，仅支持C`: one more member rejects more): such lists are read by hand.
_NOT_A_PERMISSION = re.compile(r"不|无法|禁止|必须|需要|需|要求|一致|相同|相等|和|与|且|仅|只")


def _list_tokens(body: str) -> list[str] | None:
    """The tokens of a statement of what is supported (`self支持shape为(n)、(1,n)或(m,n)`,
    `当x1的数据类型为int32时,数据类型支持int32、int64`), its separators made one, or None."""
    if "支持" not in body or _NOT_A_PERMISSION.search(body):
        return None
    tokens = [_ALTERNATIVE.sub("|", t) if not t.startswith(("(", "[")) else t for t in _TOKEN.findall(body)]
    return [t for part in tokens for t in re.split(r"(\|)", part) if t]


def _list_direction(a: Statement, b: Statement) -> ChangeId:
    """A list of what is supported that gained whole members (and lost none) accepts more
    calls; one that lost whole members (and gained none) accepts fewer; any other edit is
    text to read."""
    was, now = _list_tokens(a.body), _list_tokens(b.body)
    if was is None or now is None or was == now:
        return ChangeId.CONSTRAINT_TEXT_CHANGED
    ops = [op for op in difflib.SequenceMatcher(None, was, now, autojunk=False).get_opcodes() if op[0] != "equal"]
    runs = [(tag, was[i1:i2] or now[j1:j2]) for tag, i1, i2, j1, j2 in ops]
    whole = all("|" in (run[0], run[-1]) and len(run) > 1 for _, run in runs)
    if whole and {tag for tag, _ in runs} == {"insert"}:
        return ChangeId.CONSTRAINT_LIST_WIDENED
    if whole and {tag for tag, _ in runs} == {"delete"}:
        return ChangeId.CONSTRAINT_LIST_NARROWED
    return ChangeId.CONSTRAINT_TEXT_CHANGED


def _alike(a: Statement, b: Statement) -> float:
    """How alike two statements read, a lead naming the parameter (`x参数中，`) set aside."""
    return max(_ratio(x, y) for x in _variants(a.body) for y in _variants(b.body))


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _statement_json(st: Statement) -> dict[str, Any]:
    return {"text": st.text, "products": list(st.products or _scoped(st.text)[0])}
