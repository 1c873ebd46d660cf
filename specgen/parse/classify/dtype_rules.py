"""Output dtypes the document gives case by case: a `cases` DtypeRule, read where no other
dtype rule is (see shapes.dtype_rule).

Two readings, both of what the document writes, never of an operator's name:

- the output's own statement, clause by clause, each led by an input's presence
  (aclnnWeightQuantBatchMatmulV2 `y`: "当`quantScaleOptional`存在时，数据类型为INT8；当
  `quantScaleOptional`不存在时，数据类型支持FLOAT16、BFLOAT16，且与输入`x`的数据类型一致");
- the dtype-combination tables of the constraints section ("输入和输出支持以下数据类型组合":
  Markdown tables with a column per parameter, `UINT64/INT64` for either, `null` for an absent
  optional), each row a case: the input cells its conditions, the output's cell its dtype.

A case holds under four-part conditions (ShapeRule.when's), and on the products of the npu
comment it lies under, if any (`("", "product", "A3,910b", "true")`: held whatever the
inputs where the product is not known, as in wrappers); a cell or clause that cannot be read
leaves that column without a condition (more rows then match: the output is derived only where
they all agree), and an output cell that cannot be read leaves the table unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import DtypeRule, Param
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


def case_rule(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> DtypeRule | None:
    """The dtype `p` takes case by case, read from its statements and the constraints section's
    dtype-combination tables; None when neither gives a case."""
    cases = [*prose_cases(p, params, notes), *table_cases(p, params, notes)]
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


def _tables(notes: Sequence[Said]) -> list[tuple[list[Said], str]]:
    """The Markdown tables among the lines (runs of lines that start with `|`), each with the
    products it is said for."""
    tables: list[tuple[list[Said], str]] = []
    run: list[Said] = []
    scope = ""
    for s, products in [*scoped(notes), (Statement("", 0), "")]:
        if s.text.startswith("|"):
            if run and s.line != run[-1].line + 1:
                tables.append((run, scope))
                run = []
            run.append(s)
            scope = products
        elif run:
            tables.append((run, scope))
            run = []
    return [t for t in tables if len(t[0]) > 2]


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
    cases: list[DtypeRule] = []
    for table, products in _tables(notes):
        columns = [_column(h) for h in _cells(table[0].text)]
        if p.name not in columns or not inputs.keys() & set(columns):
            continue
        rows = [r for r in table[1:] if not set(r.text) <= set("|-: ")]
        # an optional's column that never says `null` leaves its absence open
        silent = {c for i, c in enumerate(columns) if not any("null" in _at(_cells(r.text), i) for r in rows)}
        read = [_row_case(p, columns, _cells(r.text), inputs, r, silent, _on(products)) for r in rows]
        if all(read):
            cases += [c for c in read if c is not None]
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
) -> DtypeRule | None:
    if len(cells) != len(columns):
        return None
    by_column = dict(zip(columns, cells, strict=True))
    for name, cell in by_column.items():
        if name in inputs:
            open_null = name in silent and inputs[name].optional
            when += _cell_condition(name, cell + "/null" if open_null else cell, inputs[name])
    return _dtype_cell(by_column[p.name], p, inputs, when, row)


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
