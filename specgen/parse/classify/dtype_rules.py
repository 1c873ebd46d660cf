"""Output dtypes the document gives case by case: a `cases` DtypeRule, read where no other
dtype rule is (see shapes.dtype_rule).

Four readings, all of what the document writes, never of an operator's name:

- the output's own statement, clause by clause, each led by an input's presence
  (aclnnWeightQuantBatchMatmulV2 `y`: "当`quantScaleOptional`存在时，数据类型为INT8；当
  `quantScaleOptional`不存在时，数据类型支持FLOAT16、BFLOAT16，且与输入`x`的数据类型一致");
- the dtype-combination tables of the constraints section ("输入和输出支持以下数据类型组合":
  Markdown tables with a column per parameter, `UINT64/INT64` for either, `null` for an absent
  optional), each row a case: the input cells its conditions, the output's cell its dtype; a
  bullet after the table that ties the output to an input (aclnnQuantMatmulV5, T-CG:
  "out和x2Scale的数据类型需要一致") makes a row's several dtypes that input's;
- where neither gives a case, the output's shape cases whose own sentence states the dtype
  (aclnnFlatQuant quantScale: "量化输出类型为FLOAT4_E2M1时，shape为[…]，数据类型为FLOAT8_E8M0"), each
  under its case's conditions (never a case of the output's own dtype);
- where none gives a case, the per-product remarks that leave the output one dtype on some
  products (aclnnAdaLayerNormQuant: "输出`out`的数据类型仅支持INT8" on Atlas A2/A3): fixed there,
  the caller's choice elsewhere.

A case holds under four-part conditions (ShapeRule.when's), and on the products of the npu
comment it lies under, if any (`("", "product", "A3,910b", "true")`: held whatever the
inputs where the product is not known, as in wrappers); a cell or clause that cannot be read
leaves that column without a condition (more rows then match: the output is derived only where
they all agree), and an output cell that cannot be read leaves the table unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import DtypeRule, Param, ShapeRule
from specgen.parse.classify.shape_alternatives import presence
from specgen.parse.classify.shape_gradients import Said
from specgen.parse.classify.text import Statement
from specgen.vocab import PRODUCT_NAMES, dtype

_TENSORS = ("tensor", "tensor_list")

# `- `y`（aclTensor *,计算输出）：…`: a constraints bullet about one parameter
_LEAD = re.compile(r"^\s*[-*]?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:（[^）]*）|\([^)]*\))?\s*[:：]")
# `当`quantScaleOptional`存在时，<what follows>`: one clause, up to its `；`
_CLAUSE = re.compile(r"当\s*(?P<cond>[^，,；;。]+?)\s*时\s*[，,]?\s*(?P<then>[^；;。]*)")
_SAME = re.compile(
    r"与(?:输入|入参)?\s*`?(?P<peer>[A-Za-z_][A-Za-z0-9_]*)`?\s*的?(?:数据类型)?\s*(?:保持)?(?:一致|相同)"
)
_FIXED = re.compile(r"数据类型(?:为|是)\s*(?P<dtype>[A-Z][A-Z0-9_]*)")


def case_rule(
    p: Param, params: Sequence[Param], notes: Sequence[Said], shape: ShapeRule | None = None
) -> DtypeRule | None:
    """The dtype `p` takes case by case, read from its statements, the constraints section's
    dtype-combination tables, or the sentences of its shape cases; None when none gives a case."""
    cases = [*prose_cases(p, params, notes), *table_cases(p, params, notes)] or shape_cases(p, shape)
    if not cases:
        return None
    read = (n for c in cases for n in (*c.params, *c.when[::4]) if n)
    return DtypeRule(
        kind="cases",
        params=tuple(dict.fromkeys(read)),
        alternatives=tuple(cases),
        text=cases[0].text,
        line=cases[0].line,
    )


def shape_cases(p: Param, shape: ShapeRule | None) -> list[DtypeRule]:
    """The dtype each of the output's shape cases gives in its own sentence (aclnnFlatQuant
    quantScale: "量化输出类型为INT4或INT32时，shape为[M]，…，数据类型为FLOAT32。量化输出类型为
    FLOAT4_E2M1时，shape为[…]，数据类型为FLOAT8_E8M0"): a fixed dtype under the case's conditions;
    [] unless every case is conditioned on other parameters and states one dtype the output allows."""
    alternatives = shape.alternatives if shape is not None and shape.kind == "one_of" else ()
    cases = [_sentence_case(a, p) for a in alternatives]
    return [c for c in cases if c is not None] if cases and all(cases) else []


def _sentence_case(case: ShapeRule, p: Param) -> DtypeRule | None:
    found = {d for m in _FIXED.finditer(case.text) if (d := dtype(m.group("dtype")))}
    own = p.name in case.when[::4]  # `数据类型为INT32时，…`: a case of the output's own dtype gives none
    if not case.when or own or len(found) != 1 or not found <= set(p.dtypes):
        return None
    return DtypeRule(kind="fixed", values=tuple(found), when=case.when, text=case.text, line=case.line)


def _inputs(params: Sequence[Param], p: Param) -> dict[str, Param]:
    return {q.name: q for q in params if q.kind in _TENSORS and q.direction != "out" and q.name != p.name}


def prose_cases(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> list[DtypeRule]:
    """The cases of a statement about `p` (its row, or a constraints bullet it leads) whose
    every `当…存在时` clause gives a dtype: a fixed one (`数据类型为INT8`) or an input's
    (`与输入`x`的数据类型一致`); [] when a clause names no input or gives no dtype."""
    said: list[tuple[Said, str]] = [(Statement(p.text, p.line), "")] if p.text else []
    said += [(s, on) for s, on in scoped(notes) if (m := _LEAD.match(s.text)) and m.group("name") == p.name]
    inputs = _inputs(params, p)
    for s, products in said:
        clauses = list(_CLAUSE.finditer(s.text))
        cases = [_clause_case(m, p, inputs, s, _on(products)) for m in clauses]
        if clauses and all(cases):
            return [c for c in cases if c is not None]
    return []


def _clause_case(
    m: re.Match[str], p: Param, inputs: dict[str, Param], s: Said, on: tuple[str, ...] = ()
) -> DtypeRule | None:
    then, given = m.group("then"), presence(m.group("cond"), inputs)
    if given is None:
        return None
    when = (*on, *given)
    if (same := _SAME.search(then)) and same.group("peer") in inputs:
        return DtypeRule(kind="same", params=(same.group("peer"),), when=when, text=m.group(0), line=s.line)
    fixed = _FIXED.search(then)
    if fixed and (d := dtype(fixed.group("dtype"))) and (not p.dtypes or d in p.dtypes):
        return DtypeRule(kind="fixed", values=(d,), when=when, text=m.group(0), line=s.line)
    return None


# `<!-- npu="A3,910b" id17 -->` … `<!-- end id17 -->`: what lies between holds on those products
_NPU = re.compile(r'<!--\s*npu="(?P<products>[^"]+)"')
_NPU_END = re.compile(r"<!--\s*end\b")


def scoped(notes: Sequence[Said]) -> list[tuple[Said, str]]:
    """Each line with the products of the npu comment it lies under ("" outside one)."""
    scope, out = "", []
    for s in notes:
        if m := _NPU.search(s.text):
            # ids the validator knows only (a document's comment is untrusted text); none known: no product's
            scope = (
                ",".join(t for t in (t.strip() for t in m.group("products").split(",")) if t in PRODUCT_NAMES) or "-"
            )
        elif _NPU_END.search(s.text):
            scope = ""
        out.append((s, scope))
    return out


def _on(products: str) -> tuple[str, ...]:
    """The condition of a case said for some products only (the validator's `product=`)."""
    return ("", "product", products, "true") if products else ()


def _tables(notes: Sequence[Said]) -> list[tuple[list[Said], str, int]]:
    """The Markdown tables among the lines (runs of lines that start with `|`), each with the
    products it is said for and the index in `notes` of the line after it."""
    tables: list[tuple[list[Said], str, int]] = []
    run: list[Said] = []
    scope = ""
    for i, (s, products) in enumerate([*scoped(notes), (Statement("", 0), "")]):
        if s.text.startswith("|"):
            if run and s.line != run[-1].line + 1:
                tables.append((run, scope, i))
                run = []
            run.append(s)
            scope = products
        elif run:
            tables.append((run, scope, i))
            run = []
    return [t for t in tables if len(t[0]) > 2]


# where what follows a table stops speaking of it: a folded block's bounds, a heading, an npu comment
_BLOCK_END = re.compile(r"^(?:</?details|<summary|#|<!--\s*(?:npu=|end\b))")
# a bullet's lead naming the scenario it speaks of: `T-CG量化模式下，`, `MX伪量化场景下，`
_SCENARIO = r"^[-*]?\s*(?:(?P<scenario>[^，,。；;]*?)(?:模式|场景)下\s*[，,]\s*)?"
_NAME = r"`?(?P<{}>[A-Za-z_][A-Za-z0-9_]*)`?"
# `T-CG量化模式下，out和x2Scale的数据类型需要一致。`: the whole bullet
_SAME_PAIR = re.compile(
    _SCENARIO
    + _NAME.format("a")
    + r"\s*(?:和|与)\s*"
    + _NAME.format("b")
    + r"\s*的\s*数据类型\s*(?:需要|必须|需|要|应)?\s*(?:保持)?\s*(?:一致|相同)\s*[。.]?$"
)
# `MX伪量化场景下，bias为可选参数。数据类型支持BFLOAT16或FLOAT16，数据类型要求与输出类型保持一致。`:
# an input's bullet tying it to the one output
_TO_OUTPUT = re.compile(
    _SCENARIO + _NAME.format("a") + r"(?![A-Za-z0-9_]).*?数据类型\s*(?:要求|需要|需|必须|应)?\s*(?:与|和)\s*"
    r"输出(?:的)?(?:数据)?类型\s*(?:保持)?\s*(?:一致|相同)"
)


def _tie(p: Param, notes: Sequence[Said], after: int, columns: list[str], sole: bool) -> tuple[str, str]:
    """The input column whose dtype the bullets after a table (up to its block's end or the next
    table of `p`) say `p` shares, and the scenario the bullet names ("" for none): aclnnQuantMatmulV5
    T-CG `out和x2Scale的数据类型需要一致`, MX `bias…数据类型要求与输出类型保持一致` (`sole`: `p` the
    one output); ("", "") when none does."""
    for s in notes[after:]:
        text = s.text.strip()
        if _BLOCK_END.match(text) or (text.startswith("|") and p.name in map(_column, _cells(text))):
            break
        if (m := _SAME_PAIR.match(text)) and p.name in (m["a"], m["b"]):
            peer = m["b"] if m["a"] == p.name else m["a"]
        elif sole and (m := _TO_OUTPUT.match(text)):
            peer = m["a"]
        else:
            continue
        if peer in columns and peer != p.name:
            return peer, (m["scenario"] or "").strip()
    return "", ""


def _summary(notes: Sequence[Said], first: int) -> str:
    """The `<summary>` line of the folded block a table opens with (`T-CG量化场景约束`); ""."""
    for s in reversed(notes[:first]):
        if _BLOCK_END.match(s.text.strip()):
            return s.text if s.text.strip().startswith("<summary") else ""
    return ""


def _tied_rows(rows: list[list[str]], scenario: str, summary: str) -> list[bool]:
    """The rows a tie said for `scenario` holds for: those that name it in a cell (a table of
    several scenarios, `|MX伪量化| …`), else all where the block's summary names it; all for a
    tie said for no scenario."""
    if not scenario:
        return [True] * len(rows)
    named = [scenario in cells for cells in rows]
    return named if any(named) else [scenario in summary] * len(rows)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _column(header: str) -> str:
    """The parameter a header cell names: `x1`, `` `x1`数据类型 ``, `x1数据类型`."""
    return re.sub(r"\s*(?:的)?数据类型$", "", header).strip().strip("`").strip()


def table_cases(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> list[DtypeRule]:
    """A case per row of each dtype-combination table with a column for `p` and one for an
    input tensor; [] from a table whose `p` cell of some row is not a dtype, dtypes or
    `与x一致` of an input."""
    inputs = _inputs(params, p)
    sole = [q.name for q in params if q.kind in _TENSORS and q.direction == "out"] == [p.name]
    cases: list[DtypeRule] = []
    for table, products, after in _tables(notes):
        columns = [_column(h) for h in _cells(table[0].text)]
        if p.name not in columns or not inputs.keys() & set(columns):
            continue
        rows = [r for r in table[1:] if not set(r.text) <= set("|-: ")]
        # an optional's column that never says `null` leaves its absence open
        silent = {c for i, c in enumerate(columns) if not any("null" in _at(_cells(r.text), i) for r in rows)}
        peer, scenario = _tie(p, notes, after, columns, sole)
        tied = _tied_rows([_cells(r.text) for r in rows], scenario, _summary(notes, after - len(table)))
        read = [
            _row_case(p, columns, _cells(r.text), inputs, r, silent, _on(products), peer if t else "")
            for r, t in zip(rows, tied, strict=True)
        ]
        if all(read):
            cases += [c for row in read if row is not None for c in row]
    return list(dict.fromkeys(cases))


def _at(cells: list[str], i: int) -> str:
    return cells[i] if i < len(cells) else ""


def _row_case(
    p: Param,
    columns: list[str],
    cells: list[str],
    inputs: dict[str, Param],
    row: Said,
    silent: set[str],
    when: tuple[str, ...] = (),
    peer: str = "",
) -> list[DtypeRule] | None:
    if len(cells) != len(columns):
        return None
    by_column = dict(zip(columns, cells, strict=True))
    for name, cell in by_column.items():
        if name in inputs:
            open_null = name in silent and inputs[name].optional
            when += _cell_condition(name, cell + "/null" if open_null else cell, inputs[name])
    case = _dtype_cell(by_column[p.name], p, inputs, when, row)
    if case is None:
        return None
    return _shared(case, peer, by_column.get(peer, "")) if peer in inputs else [case]


def _shared(case: DtypeRule, peer: str, cell: str) -> list[DtypeRule]:
    """A row whose output cell lists several dtypes (`BFLOAT16/FLOAT16`) where the table's
    bullets say the output shares `peer`'s dtype: `peer`'s, when its cell lists only dtypes the
    output's does (and where `null` is among them, the row as it reads when `peer` is absent);
    else the row as it reads."""
    tokens = [t.strip() for t in re.split(r"[/、]", cell)]
    named = [dtype(t) for t in tokens if t != "null"]
    if case.kind != "one_of" or not named or not all(named) or not set(map(str, named)) <= set(case.values):
        return [case]
    same = case.model_copy(update={"kind": "same", "params": (peer,)})
    if "null" not in tokens:
        return [same]
    given = (peer, "given", "", "true")
    absent = case.model_copy(update={"when": (*case.when, peer, "given", "", "false")})
    return [same.model_copy(update={"when": (*case.when, *given)}), absent]


def _cell_condition(name: str, cell: str, q: Param) -> tuple[str, ...]:
    """An input cell's condition: its dtypes (`UINT64/INT64`), `null` among them for an absent
    optional; () for a cell of anything else (`与x一致`, `FLOAT（仅x为BFLOAT16）`): no condition."""
    tokens = [t.strip() for t in re.split(r"[/、]", cell)]
    if tokens == ["null"]:
        return (name, "given", "", "false")
    named = ["null" if t == "null" else dtype(t) for t in tokens]
    if not all(named) or ("null" in named and not q.optional):
        return ()
    return (name, "dtype", "/".join(str(n) for n in named), "true")


def _dtype_cell(cell: str, p: Param, inputs: dict[str, Param], when: tuple[str, ...], row: Said) -> DtypeRule | None:
    """The output's cell: one dtype (fixed), several (one_of: the caller's), or an input's."""
    if (same := re.fullmatch(r"与\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:一致|相同)", cell)) and same.group(1) in inputs:
        return DtypeRule(kind="same", params=(same.group(1),), when=when, text=row.text, line=row.line)
    named = [dtype(t) for t in re.split(r"[/、]", cell)]
    if not named or not all(named) or (p.dtypes and not set(named) <= set(p.dtypes)):
        return None
    values = tuple(str(d) for d in dict.fromkeys(named))
    return DtypeRule(
        kind="fixed" if len(values) == 1 else "one_of", values=values, when=when, text=row.text, line=row.line
    )


def product_case_rule(p: Param) -> DtypeRule | None:
    """The one dtype the per-product remarks allow `p` on some products (aclnnAdaLayerNormQuant
    `out`, after its table: `<term>Atlas A3…</term>、<term>Atlas A2…</term>：输出`out`的数据类型仅支持
    INT8`): a case fixed to it there, and on every other product (or none named) the caller's
    choice among the documented dtypes; None when no product narrows `p` to one dtype."""
    single: dict[str, list[str]] = {}
    for product, allowed in p.product_dtypes.items():
        if len(allowed) == 1 and product in PRODUCT_NAMES:
            single.setdefault(allowed[0], []).append(product)
    said = [c for c in p.of_kind("dtypes") if c.product in {q for ps in single.values() for q in ps}]
    if not single or len(p.dtypes) < 2 or not said:
        return None
    cases = [
        DtypeRule(
            kind="fixed", values=(d,), when=("", "product", ",".join(on), "true"), text=said[0].text, line=said[0].line
        )
        for d, on in single.items()
    ]
    others = ("", "product", ",".join(q for on in single.values() for q in on), "false")
    general = [c for c in p.of_kind("dtypes") if c.product is None] or p.of_kind("dtypes")
    cases.append(
        DtypeRule(kind="one_of", values=tuple(p.dtypes), when=others, text=general[0].text, line=general[0].line)
    )
    return DtypeRule(kind="cases", alternatives=tuple(cases), text=said[0].text, line=said[0].line)
