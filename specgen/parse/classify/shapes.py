"""The shape and dtype of what a function writes: one `ShapeRule` and one `DtypeRule` for each
output and in-out tensor, read from the parameters' statements, their relations and the error
conditions.

The phrase readers are a table of their own (`shape_phrases.SHAPE_PHRASES`); `output_rules`
applies them in order of certainty: a relation the document states on the parameter
(`shape与self相同`, `self与other broadcast后的shape`), the shape given case by case with every
case read (shape_alternatives: a `one_of` rule, `当reduction为0时…；否则…`), a reading of its
statements or of the document's formula (an explicit list `{self.shape[0], vec2.shape[0]}`, `[B,N,S,8]`, `[1]`,
a reduction, a loss by `reduction`, a matmul…; a shape column's bare `与self一致`), the
constraints section's equations of the output (`rank(y) = rank(x) + 1`, `y.shape[-1] = 2`), the
cases with some left unread (unchecked in those) where a shape is said for one case only, else a
shape said for every dtype but one or for one value of an attribute (then held to that
condition, `ShapeRule.when`), an error condition that names the output with an input
(`input和out的shape不一致`), an in-out tensor written in place; shapes given outside the
output's statements (shape_elsewhere: a formula's product of operands the row says broadcast, an
output the error table names only beside another). Any other statement that holds
only in some situation is not read; whatever else is "not derivable", with the reason: a rule
is never guessed. Dtypes: a documented same-dtype input, the one dtype allowed, an index
output's integer types, a named promotion, an input allowing exactly the same dtypes, or else
the dtypes the document gives case by case (dtype_rules: by an input's presence, by the rows
of a dtype-combination table).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from specgen.model import Constraint, ConstraintKind, DtypeRule, ErrorRule, Param, ShapeRule, ShapeRuleKind, SymbolDim
from specgen.parse.classify.dtype_rules import case_rule, product_case_rule
from specgen.parse.classify.shape_alternatives import Known, alternatives_rule, either_rule, scenarios
from specgen.parse.classify.shape_arrays import array_shape_rule
from specgen.parse.classify.shape_dtype_notes import dtype_case_rule
from specgen.parse.classify.shape_einsum import einsum_rule
from specgen.parse.classify.shape_elsewhere import (
    FORMULA_NAME,
    co_named_rule,
    compared_cases_rule,
    dimensions_alike,
    elsewhere_reason,
    product_of_operands,
    tied_output_rule,
)
from specgen.parse.classify.shape_equations import equations_reading
from specgen.parse.classify.shape_formulas import defined_by_formula, formula_rule, product_rule
from specgen.parse.classify.shape_halves import halves_rule
from specgen.parse.classify.shape_listed import listed_cases
from specgen.parse.classify.shape_matmul import (
    lettered_product_rule,
    permuted_product_rule,
    unlettered_reason,
    unpacked,
)
from specgen.parse.classify.shape_noted import noted_alike
from specgen.parse.classify.shape_packed import but_packed
from specgen.parse.classify.shape_phrases import (
    ALLOWED_CALLS,
    DIM_WORD,
    LISTS_THEN_SAME,
    MULTIPLE,
    SHAPE_PHRASES,
    Reading,
    ShapeContext,
    dim_expression,
    listed,
    substituted,
    top_level_split,
)
from specgen.parse.classify.shape_products import per_product_rule, statements_for
from specgen.parse.classify.shape_sizes import ProductStatement, size_rule
from specgen.parse.classify.shape_summary import summary_rule
from specgen.parse.classify.shape_symbols import (
    defined_by_statements,
    list_bindings,
    misdefined,
    spatial_rule,
    worded_reading,
)
from specgen.parse.classify.statements import clauses, is_conditional
from specgen.parse.classify.text import Statement
from specgen.text import value_condition
from specgen.vocab import DTYPES, PRODUCT_NAMES, dtype

TENSORS = ("tensor", "tensor_list")
WRITTEN = ("out", "inout")
# Index outputs: the library writes either integer type (the caller chooses by the tensor it passes).
_INDEX_NAME = re.compile(r"(?i)ind(?:ices|ex)|argmax|argmin|position")
_INDEX_DTYPES = ("INT64", "INT32")
# (`其他数据类型时shape和x保持一致`: the other dtypes' case, with no comma before its shape)
_CONDITION = re.compile(r"当|若|如果|时[，,\s]|其[他余](?:数据)?类型时|场景|模式下|情况下|或|否则")


def _conditional(text: str) -> bool:
    return bool(_CONDITION.search(text) or is_conditional(text))


_EXAMPLE_TAIL = re.compile(r"(?:关系)?举例[：:]|例如")
# Readings that state their own situations (`若keepDim为true…`, `当reduction为0时…`).
_SITUATED = ("reduction", "reduce")


def explicit_dims(
    statements: Iterable[Statement], ctx: ShapeContext, cells: Mapping[str, Sequence[str]] | None = None
) -> tuple[Reading, Statement] | str:
    """The one reading the statements give a parameter, with its statement; or why there is
    none ("" when no statement gives one). `cells`: each parameter's shape-column cells."""
    found, conditional = _readings(statements, ctx, cells or {})
    if len(found) > 1 and any(r[0] != "explicit" for r in found):
        # a list of bare symbols (`（batch，m，n）`) gives a rank, not sizes: the formula's
        # product or a relation the same parameter states gives them (aclnnQuantMatmulV4)
        found = {r: s for r, s in found.items() if not _bare(r)}
    if len(found) == 1:
        [(reading, s)] = found.items()
        return reading, s
    if len(found) > 1:
        return "the document gives several shapes: " + "; ".join(f"{r[0]} {r[1] or ''}{list(r[2])}" for r in found)
    return "a shape is given only under a condition" if conditional else ""


def _readings(
    statements: Iterable[Statement], ctx: ShapeContext, cells: Mapping[str, Sequence[str]]
) -> tuple[dict[Reading, Statement], bool]:
    """Every reading the statements give, each with the first statement giving it, and whether
    one was left out as conditional."""
    found: dict[Reading, Statement] = {}
    conditional = False
    for s in statements:
        readings, held = _statement_readings(_column_text(s, cells), ctx)
        conditional = conditional or held
        for reading in readings:
            found.setdefault(reading, s)
    return found, conditional


def _fixed_per_tensor(
    p: Param, params: Sequence[Param], said: Sequence[Statement], ctx: ShapeContext, cells: Mapping[str, Sequence[str]]
) -> ShapeRule | None:
    """An output list whose tensors the statements give one fixed shape beside a bound on their
    element count by an input list's (aclnnForeachNorm out, line 140: `shape size为1` and `shape
    size大于等于入参`x`的shape size`, which its own call breaks, out (1, 1) for x (2, 3)): each
    tensor of that shape, as many as the input list's; the exact statement says the size, the
    bound stays a rule of its own (numel_at_least). A count of one element, which gives no rank,
    is ones at the rank of the input list's tensor at that place (the document's call: (1, 1))."""
    if p.kind != "tensor_list":
        return None
    found, _ = _readings(said, ctx, cells)
    fixed = [(r, s) for r, s in found.items() if r[0] == "explicit" and all(d.isdigit() for d in r[2])]
    lists = {q.name for q in params if q.kind == "tensor_list" and q.direction != "out"}
    bounds = [r for r in found if r[0] == "at_least" and set(r[1]) <= lists]
    if len(fixed) != 1 or not bounds or len(found) != 1 + len(bounds):
        return None
    (reading, s), counted = fixed[0], tuple(dict.fromkeys(n for r in bounds for n in r[1]))
    dims = (f"*ones(rank({counted[0]}))",) if _ONE_ELEMENT.search(s.text) else reading[2]
    return ShapeRule(kind="explicit", params=counted, dims=dims, text=s.text, line=s.line)


# an element count of one, which gives no rank: `shape size为1`, `元素个数为1`
_ONE_ELEMENT = re.compile(r"(?:shape\s*size|元素个数|元素数量)\s*(?:为|是|=|等于)\s*1(?!\d)", re.I)


# A shape column's cell that relates the whole cell to a tensor: `与self一致`, `同输入self`,
# `与 \`gradOutput\` 一致` (the column names the shape, the cell does not)
_BARE_RELATION = re.compile(
    r"^(?:与|同|和|跟)\s*(?:输入|入参)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:保持|完全)?(?:一致|相同)?[。.]?$"
)
# A cell of that column that gives a rank (`≤8`, `1-8`, `0-8`): the column then counts dimensions
_RANK_CELL = re.compile(
    r"^\s*(?:[≤<≥>]=?|不大于|不超过|小于等于|大于等于|不小于|至少|最多)?\s*\d+(?:\s*[-~～至]\s*\d+)?\s*维?"
    r"(?:及以下|以内)?\s*[。.]?$"
)


def _column_text(s: Statement, cells: Mapping[str, Sequence[str]]) -> str:
    """A statement as the readers take it: a shape column's bare relation (`与self一致`) with
    the shape it speaks of named (`shape与self一致`), unless the tensor it names has a rank in
    that column (aclnnUniqueConsecutive: `≤8` for self, then `与self保持一致` for valueOut,
    whose size the data decide: the column counts dimensions there)."""
    m = _BARE_RELATION.match(s.text.strip()) if s.cell else None
    if m is None or _counts_dims(m.group("name"), cells, set()):
        return s.text
    return "shape" + s.text.strip().replace("`", "")


def _counts_dims(name: str, cells: Mapping[str, Sequence[str]], seen: set[str]) -> bool:
    """Whether `name`'s shape-column cell gives a rank, itself or through the tensor its bare
    relation names (aclnnUniqueConsecutive: inverseOut `与valueOut保持一致`, valueOut `与self…`)."""
    seen.add(name)
    for text in cells.get(name, ()):
        if _RANK_CELL.match(text):
            return True
        m = _BARE_RELATION.match(text.strip())
        if m and m.group("name") not in seen and _counts_dims(m.group("name"), cells, seen):
            return True
    return False


def _bare(reading: Reading) -> bool:
    return reading[0] == "explicit" and all(DIM_WORD.fullmatch(d) for d in reading[2])


def _statement_readings(text: str, ctx: ShapeContext) -> tuple[list[Reading], bool]:
    """The readings of one statement, and whether one was left out as conditional. Its worked
    example (`举例：若x shape:(2，3，4，8)…`) is no condition; a reading that states its own
    situations wins over the lists inside them (`如果reduction = 0，shape与self一致，其他情况shape为[1]`)."""
    text = _EXAMPLE_TAIL.split(text)[0]
    named = [(p.name, r) for p in SHAPE_PHRASES if p.trigger.search(text) and (r := p.read(text, ctx))]
    # a prefix list read through an input's (`[B…, S, 1]`) says what a reading of the words
    # beside it says (`最后一维固定为1，其他维度大小和x一致`), in other terms: the words win
    readings = [r for name, r in named if name != "prefix" or len(named) == 1]
    if any(r[0] in _SITUATED for r in readings):
        return [r for r in readings if r[0] in _SITUATED], False
    if not readings or not _conditional(text) or LISTS_THEN_SAME.match(text.strip()):
        return readings, False  # `shape=[T, 2H]或[B, S, 2H]，与x一致`: alternatives of x's, no condition
    # `当rstdOutOptional存在时与rstdOutOptional的shape相同，shape为[A1,...,Ai,1,...,1]，Ai后共有j个1`:
    # a reading holds when the clauses without a condition give it alone
    plain = "，".join(_unconditional(clauses(text)))
    kept = [r for r in readings if any(p.trigger.search(plain) and p.read(plain, ctx) == r for p in SHAPE_PHRASES)]
    return kept, len(kept) < len(readings)


def _unconditional(parts: Sequence[str]) -> list[str]:
    """The clauses that hold without a condition: not a condition standing alone (`类型为INT32时`),
    nor the clause it leads (`shape的最后一维是x最后一维的1/8`)."""
    out = []
    for i, c in enumerate(parts):
        led = i > 0 and parts[i - 1].endswith("时")
        if not led and not c.endswith("时") and not _conditional(c):
            out.append(c)
    return out


def _symbols(dims: Iterable[str], params: Sequence[str]) -> set[str]:
    names: set[str] = set()
    tree = ast.parse("[" + ", ".join(dims) + "]", mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in params and node.id not in ALLOWED_CALLS:
            names.add(node.id)
    return names


_DEFINED = re.compile(
    r"(?P<sym>[A-Za-z_][A-Za-z0-9_]*)\s*(?:表示|与|是|为)\s*(?:入参|输入)?(?P<x>[A-Za-z_][A-Za-z0-9_]*)的?第(?P<axis>\d)维度?的?(?:大小|保持一致)"
)


def _defined(own: Sequence[Statement], params: Sequence[Param]) -> dict[str, SymbolDim]:
    """Symbols the output's own statements define: `其中N表示x第0维度的大小` (0-based when the
    statement counts from 第0维, which it then says), `shape中N是self第1维的大小` (aclnnGroupNormSilu:
    the first dimension, 1-based, as its call shows: self (2, 3, 4), meanOut (2, 1))."""
    tensors = {q.name for q in params if q.kind == "tensor" and q.direction == "in"}
    out = {}
    for s in own:
        for m in _DEFINED.finditer(s.text):
            axis = int(m.group("axis")) - (0 if "第0维" in s.text else 1)
            if m.group("x") in tensors and axis >= 0:
                out[m.group("sym")] = SymbolDim(symbol=m.group("sym"), param=m.group("x"), axis=axis)
    return out


def _bindings(params: Sequence[Param], statements: dict[str, list[Statement]]) -> dict[str, list[SymbolDim]]:
    """Symbols the inputs' own lists name one dimension each: `x` of shape `[B, N, S, D]` binds
    B to x.shape[0]. Every input that binds a symbol, in order (the evaluator reads the first
    one the call gives: an input may be null, or 0-d in some mode)."""
    names = tuple(q.name for q in params)
    bound: dict[str, list[SymbolDim]] = {}
    for name, dims in _read_lists(params, statements):
        for axis, dim in enumerate(dims):
            if DIM_WORD.fullmatch(dim) and dim not in names:
                bound.setdefault(dim, []).append(SymbolDim(symbol=dim, param=name, axis=axis))
    return bound


def _read_lists(params: Sequence[Param], statements: dict[str, list[Statement]]) -> list[tuple[str, tuple[str, ...]]]:
    """Each input tensor's list, where its statements give one without a condition."""
    names = tuple(q.name for q in params)
    out = []
    for p in params:
        if p.kind in TENSORS and p.direction == "in":
            found = explicit_dims(statements.get(p.name, []), ShapeContext(names, subject=p.name))
            if not isinstance(found, str) and found[0][0] == "explicit":
                out.append((p.name, found[0][2]))
    return out


# ---------------------------------------------------------------- the rules of one output


def _relation_peers(
    p: Param, params: Sequence[Param], kind: ConstraintKind, conditional: Sequence[str]
) -> tuple[str, ...]:
    """Tensors read (inputs, or in-out) that a `kind` constraint relates to `p`, either way round."""
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out" and q.name != p.name}
    own = [n for c in _whole(p.of_kind(kind), conditional) for n in c.params if n in readable]
    if kind == "same_shape":
        related = [q.name for q in params for c in _whole(q.of_kind(kind), conditional) if p.name in c.params]
        own += [n for n in related if n in readable]
    return tuple(dict.fromkeys(own))


def _broadcast_peers(p: Param, params: Sequence[Param], conditional: Sequence[str]) -> tuple[str, ...]:
    """Inputs a `broadcast` constraint puts in one relation with `p`, either way round."""
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out" and q.name != p.name}
    own = [n for c in _whole(p.of_kind("broadcast"), conditional) for n in c.params]
    related = [q.name for q in params for c in _whole(q.of_kind("broadcast"), conditional) if p.name in c.params]
    return tuple(n for n in dict.fromkeys([*own, *related]) if n in readable)


def _broadcast_of(peers: tuple[str, ...], p: Param, params: Sequence[Param], conditional: Sequence[str]) -> ShapeRule:
    """`gradOutput、self与gradInput的shape一致且满足broadcast关系` (aclnnSiluBackward): the shapes
    of the inputs are the same or broadcast, so the output's is their broadcast shape; taking
    the first input's would reject gradOutput (1,3) with self (2,3) yet accept the mirror call."""
    c = _first_constraint(p, params, "broadcast", conditional)
    return ShapeRule(kind="broadcast", params=peers, text=c.text if c else "", line=c.line if c else p.line)


def _whole(constraints: list[Constraint], conditional: Sequence[str]) -> list[Constraint]:
    """Relations of whole shapes, stated without a condition: `shape与mat和vec的乘积相同`
    (aclnnAddmv) relates a product; `数据类型为INT4时，shape与入参x一致` (aclnnFlatQuant) holds
    for one dtype only."""
    return [c for c in constraints if not _PRODUCT.search(c.text) and not any(c.text in t for t in conditional)]


_PRODUCT = re.compile(r"乘积|@")


def _first_constraint(
    p: Param, params: Sequence[Param], kind: ConstraintKind, conditional: Sequence[str]
) -> Constraint | None:
    for c in _whole(p.of_kind(kind), conditional):
        return c
    for q in params:
        for c in _whole(q.of_kind(kind), conditional):
            if p.name in c.params:
                return c
    return None


def shape_rule(
    p: Param,
    params: Sequence[Param],
    errors: Sequence[ErrorRule],
    statements: dict[str, list[Statement]],
    formula: Statement | None = None,
    notes: Sequence[Statement] = (),
    summary: Sequence[Statement] = (),
) -> ShapeRule:
    """The shape `p` is written in, by the first reading that holds (see the module's docstring)."""
    conditional = [s.text for said in statements.values() for s in said if _CONDITION.search(s.text)]
    if rule := array_shape_rule(p, params, statements.get(p.name, [])):  # `为[R1,...,Rj]`, an array's value
        return rule
    if peers := _relation_peers(p, params, "same_shape", conditional):
        c = _first_constraint(p, params, "same_shape", conditional)
        if len(peers) > 1 and set(peers) <= set(_broadcast_peers(p, params, conditional)):
            return _broadcast_of(peers, p, params, conditional)
        return ShapeRule(kind="same", params=peers[:1], text=c.text if c else "", line=c.line if c else p.line)
    if peers := _relation_peers(p, params, "broadcast_result", conditional):
        c = p.of_kind("broadcast_result")[0]
        if formula and (rule := product_of_operands(peers, params, formula.text, formula.line)):
            return rule  # aclnnWeightQuantBatchMatmul: `x1与x2 broadcast之后的shape` of `self@mat2`
        kind: ShapeRuleKind = "same" if len(peers) == 1 else "broadcast"
        return ShapeRule(kind=kind, params=peers, text=c.text, line=c.line)
    said = statements.get(p.name, [])
    outputs = [q for q in params if q.direction == "out" and q.kind in TENSORS]
    if formula is not None and outputs == [p]:
        said = [*said, formula]  # the formula speaks of the only output
    inputs = tuple(q.name for q in params if q.kind == "tensor" and q.direction != "out")
    tensors = tuple(q.name for q in params if q.kind in TENSORS)
    rank = (p.rank.min, p.rank.max) if p.rank else None
    arrays = tuple(q.name for q in params if q.kind == "int_array")
    text = "\n".join(x.text for x in said)
    one = _one_shape(inputs, params, errors)
    lists = tuple(_input_lists(params, statements))
    ctx = ShapeContext(tuple(q.name for q in params), inputs, p.name, text, tensors, rank, arrays, one, lists)
    cells = {name: [s.text for s in said if s.cell] for name, said in statements.items()}
    if rule := _either(p, params, statements, said, ctx):  # `shape需要与x1一致，或者是二维并且…`
        return rule
    # `当…时，shape为…；否则…`: every case read wins over any one reading (a loss by reduction)
    cases = _alternatives(p, params, statements, said, ctx, notes)
    if cases and all(a.derived for a in cases.alternatives):
        return cases
    if alike := _listed_alike(said, statements, inputs):  # aclnnMultilabelMarginLoss isTarget `(N，C)或者(C)`
        return alike
    found = explicit_dims(said, ctx, cells)
    if isinstance(found, str) and (rule := _fixed_per_tensor(p, params, said, ctx, cells)):
        return rule
    if not isinstance(found, str) and (twin := _twin(found[0], ctx.params, _read_lists(params, statements))):
        return ShapeRule(kind="same", params=(twin,), text=found[1].text, line=found[1].line)
    if not isinstance(found, str):
        if found[0][0] == "same" and (rule := spatial_rule(p, params, tied_to=found[0][1])):
            return rule  # AdaptiveMaxPool2d: outputOut and indicesOut each `shape与<the other>一致`
        rule = rule_from_reading(params, statements, *found, own=said, formula=formula, notes=notes)
        if not rule.derived and (formed := _in_one_form(params, statements, found, ctx)):
            return formed  # aclnnCtcLoss logAlphaOut `($N, T, …$)`: logProbs `(T,N,C)或(T,C)`, 3-d
        if not rule.derived and cases:  # aclnnDequantSituQuant yScaleOut: `INT8: …；其他: shape为[M]`, M unbound
            return cases
        if rule.derived or formula is None:  # `[M, N]` unbound: `Y = X \times W_{high} + …`, `…矩阵乘法`
            return rule
        return product_rule(p, params, formula.text, [s.text for s in summary], formula.line) or rule
    if worded := worded_reading(p, [s.text for s in said], params):  # `（…）或者当bidirection为True时（…）`
        return rule_from_reading(params, statements, worded[0], said[worded[1]], own=said, formula=formula, notes=notes)
    if equated := _equations(p, notes, inputs, ctx.params):
        return rule_from_reading(params, statements, *equated)
    if rule := noted_alike(p, params, notes):  # `参数query和attentionOut的shape需要完全一致。`
        return rule
    if rule := _for_other_dtypes(p, said, inputs) or _situated(p, params, statements, said, ctx):
        return cases or rule  # the cases, some unread, where a reading holds in one of them
    if rule := _by_input_shape(p, said, inputs, ctx.params):
        return rule
    if rule := _leading_by_examples(p, said, inputs):
        return rule
    if rule := _from_errors(p, params, errors):
        values = [q.name for q in params if q.kind not in TENSORS]
        value = value_condition([s.text for s in said], values)
        if value and written_when(p, params)[:1] == (value,):  # `当returnInverse为True时有意义`: held to it
            return rule
        if value:  # the row holds in one case only
            reason = f"its shape depends on {value} (the output's own row says when)"
            return ShapeRule(kind="not_derivable", reason=reason, line=p.line)
        return rule
    if not found and (rule := summary_rule(p, params, summary)):  # `对于 $x$ 的梯度…`, `output的shape为…`
        return rule
    if not found and (rule := einsum_rule(p, params, summary)):  # `爱因斯坦求和约定…形式为“term1, term2 -> …”`
        return rule
    if not found and (rule := halves_rule(p, params, summary)):  # `Swish(A)*B`, A and B x's halves along dim
        return rule
    if not found and (rule := compared_cases_rule(p, params, summary)):  # `如果a = b…；如果a < b…`
        return rule
    if not found and formula is not None and (rule := formula_rule(p, params, formula.text, formula.line)):
        return rule
    described = [s.text for s in summary]
    if not found and formula and (rule := product_rule(p, params, formula.text, described, formula.line)):
        return rule
    if not found and (rule := spatial_rule(p, params)):  # `outputSize`: `表示输出结果在H和W维度上的空间大小`
        return rule
    if rule := dimensions_alike(p, said, params):  # aclnnDeepNorm: `shape维度和输入x的维度相同`
        return rule
    if rule := permuted_product_rule(p, params, summary) or lettered_product_rule(p, params, notes):
        return rule  # aclnnTransposeBatchMatMul: permX1, permX2, permY; aclnnQuantMatmulV5: (batch，m，n)
    if cases:  # `当…时，shape为…；否则…`, some case unread
        return cases
    listed = _alternatives(p, params, statements, listed_cases(p, notes), ctx, notes)
    if listed and all(a.derived for a in listed.alternatives):  # `关于scale、offset、out的shape说明如下：`
        return listed
    if rule := dtype_case_rule(p, params, notes):  # `当yOut的输出类型为int32时，y的shape必须为(M, N//8)`
        return rule
    if p.direction == "inout":
        return ShapeRule(kind="in_place", params=(p.name,), text="", line=p.line)
    reason = found or _broadcast_only(said) or _data_dependent(p, said, inputs) or _leading_only(said)
    reason = reason or elsewhere_reason(p, notes, summary)
    inputs_said = [x for q in params if q.name != p.name for x in statements.get(q.name, [])]
    reason = reason or unlettered_reason(p, params, said, [*notes, *inputs_said])
    reason = reason or _one_axis_only(said) or "the document states no rule for this output's shape"
    return ShapeRule(kind="not_derivable", reason=reason, line=p.line)


def _twin(reading: Reading, names: Sequence[str], lists: Sequence[tuple[str, tuple[str, ...]]]) -> str | None:
    """The one input whose own list is the output's, symbol for symbol: the output has its shape
    whatever the symbols are (aclnnConvTbcBackward gradInput `(N,Cin,Hin)` beside input's
    `(N,Cin,Hin)`, though its sample binds Cin two ways through weight); None for a list with a
    size in it (`[M, 2N]`) or that several inputs share."""
    kind, _, dims = reading
    if kind != "explicit" or not dims or not all(DIM_WORD.fullmatch(d) and d not in names for d in dims):
        return None
    twins = [name for name, own in lists if own == dims]
    return twins[0] if len(twins) == 1 else None


def _listed_alike(
    said: Sequence[Statement], statements: dict[str, list[Statement]], inputs: Sequence[str]
) -> ShapeRule | None:
    """An output whose statement lists the very shapes an input's lists, 或 for 或
    (aclnnMultilabelMarginLoss isTarget `(N，C)或者(C)`, as self's and target's `(N,C)或者(C)`):
    that input's shape, whichever form it takes; where several inputs list them, any of theirs
    (allocated where they agree: self 2-d beside target 1-d leaves the words undecided)."""
    for s in said:
        own = _alike(_alternative_lists([s]))
        if len(own) < 2 or not _ONLY_LISTS.fullmatch(s.text.strip()):  # `shape与scale的shape相等，为…或…`
            continue
        twins = [x for x in inputs if _lists_alike(statements.get(x, []), own)]
        same = [ShapeRule(kind="same", params=(x,), text=s.text, line=s.line) for x in twins]
        if len(same) == 1:
            return same[0]
        if same:
            return ShapeRule(kind="one_of", params=tuple(twins), alternatives=tuple(same), text=s.text, line=s.line)
    return None


def _lists_alike(said: Sequence[Statement], own: tuple[str, ...]) -> bool:
    """An input's statements list `own`: all of them together, or one (aclnnSwigluGroupGrad
    weightOptional's `shape=[T, 1]或[B, S, 1]`, its rank cell `2或3 ([T, 1]或[B, S, 1])` repeating it)."""
    return _alike(_alternative_lists(said)) == own or any(_alike(_alternative_lists([s])) == own for s in said)


def _alike(lists: Sequence[str]) -> tuple[str, ...]:
    """Lists as written, but for full-width commas and brackets and spaces."""
    table = str.maketrans({"，": ",", "（": "(", "）": ")", "[": "(", "]": ")", " ": ""})
    return tuple(part.strip().translate(table) for part in lists)


def _situated(
    p: Param, params: Sequence[Param], statements: dict[str, list[Statement]], said: list[Statement], ctx: ShapeContext
) -> ShapeRule | None:
    """The shape the output's statements give in one case (see `_first_case`), held to it."""
    situated = _first_case(said, ctx, [q.name for q in params if q.kind in ("int", "string")])
    if situated is None:
        return None
    reading, statement, when = situated
    reading = _of_rank(reading, when, statements, ctx.params)
    rule = rule_from_reading(params, statements, reading, statement, own=said)
    return rule.model_copy(update={"when": when}) if rule.derived else None


def _either(
    p: Param, params: Sequence[Param], statements: dict[str, list[Statement]], said: list[Statement], ctx: ShapeContext
) -> ShapeRule | None:
    """A statement of the output's that gives one shape or another (see shape_alternatives)."""
    for s in said:

        def resolve(reading: Reading, _: str, s: Statement = s) -> ShapeRule:
            return rule_from_reading(params, statements, reading, s, own=said)

        if rule := either_rule(s.text, ctx, resolve):
            return rule.model_copy(update={"line": s.line})
    return None


def _alternatives(
    p: Param,
    params: Sequence[Param],
    statements: dict[str, list[Statement]],
    said: list[Statement],
    ctx: ShapeContext,
    notes: Sequence[Statement] = (),
) -> ShapeRule | None:
    """The output's shapes case by case (see shape_alternatives), each case's symbols bound as
    any reading's are (`notes`: the constraints section, which may say when the output is valid)."""
    lines = {s.text: s.line for s in said}

    def resolve(reading: Reading, sentence: str, when: tuple[str, ...]) -> ShapeRule:
        line = next((n for text, n in lines.items() if sentence in text), p.line)
        reading = _of_rank(reading, when, statements, ctx.params)  # `当logProbs为3维时`: its list of 3
        rule = rule_from_reading(params, statements, reading, Statement(sentence, line), own=said)
        if rule.derived or when or (form := _one_form(reading, statements, ctx)) is None:
            return rule
        formed = rule_from_reading(params, statements, form[0], Statement(sentence, line), own=said)
        return formed.model_copy(update={"when": form[1]}) if formed.derived else rule

    texts = [s.text for s in _joined(said)]
    tensors = {q.name: q.dtypes for q in params if q.kind in TENSORS}
    named = scenarios({q.name: q.text for q in params if q.kind == "int"})
    known = Known({q.name: q.kind for q in params}, tensors, [s.text for s in notes], _reduction(params), named)
    return alternatives_rule(texts, ctx, known, resolve)


_NONE_AT_ZERO = re.compile(r"(?<!\d)0\s*[(（]\s*['\"“]?none")


def _reduction(params: Sequence[Param]) -> str:
    """The one integer attribute documented as a reduction whose 0 is none (`支持0(none)|1(mean)|
    2(sum)`), or ""."""
    found = [q.name for q in params if q.kind == "int" and _NONE_AT_ZERO.search(q.text)]
    return found[0] if len(found) == 1 else ""


_BROADCASTS_WITH = re.compile(r"shape需要?与\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*满足\s*(?:broadcast|广播)关系")


def _broadcast_only(said: Sequence[Statement]) -> str:
    """Why `shape需要与gradOutput满足broadcast关系` (aclnnMishBackward's gradInput) gives no
    shape: any shape that broadcasts with gradOutput meets it; reading it as the broadcast of
    the inputs would be a guess."""
    for s in said:
        if m := _BROADCASTS_WITH.search(s.text):
            return f"the document says only that its shape broadcasts with {m.group('name')}, which many shapes do"
    return ""


def _leading_only(said: Sequence[Statement]) -> str:
    """Why `shape与入参x的shape前几维保持一致，前几维指x的维度减去gamma的维度` (aclnnGemmaRmsNorm
    rstdOut) gives no shape: it says the leading dimensions, not what follows them (its call
    writes (2, 1) for x (2, 16): 1s, which the row does not state)."""
    if any("前几维" in s.text and "保持一致" in s.text for s in said):
        return "the document gives only the output's leading dimensions, not its rank or its other dimensions"
    return ""


# `shape在axis轴上为x对应轴的值除以blocksize=32向上取整，并对其进行偶数pad` (aclnnSwigluMxQuant
# mxscaleOut): the size along one axis, named by an attribute or in words (`尾轴`)
_ONE_AXIS = re.compile(r"shape\s*在\s*`?(?P<axis>[^，,。；;\s`]{1,16}?)`?\s*轴上(?:的值)?\s*(?:为|，)")


def _one_axis_only(said: Sequence[Statement]) -> str:
    """Why a row that gives the size along one axis only gives no shape: neither the output's
    rank nor its other dimensions are said (aclnnSwigluMxQuant writes (2, 1, 2) for x (2, 64),
    a rank its row does not state)."""
    for s in said:
        if m := _ONE_AXIS.search(s.text):
            where = f"line {s.line}: {s.text.strip()[:40]}"
            axis = m.group("axis") if m.group("axis").isascii() else m.group("axis") + "轴"  # `尾轴`
            return f"the document gives only its size along {axis} ({where}), not its rank or its other dimensions"
    return ""


_DISTINCT = re.compile(r"(?:唯一|不重复)的?元素|去重|消除连续重复")
_SUM_OF_VALUES = re.compile(r"元素个数等于\s*`?(?P<t>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:中)?的?(?:所有)?值之和")


def _data_dependent(p: Param, said: Sequence[Statement], inputs: Sequence[str]) -> str:
    """Why an output's size is left to the data, where its row says so: it holds the input's
    distinct elements (aclnnUnique: `输入张量中的唯一元素`, aclnnUniqueDim: `表示去重结果`), or
    as many elements as a tensor's values add up to (aclnnRepeatInterleaveTensor:
    `元素个数等于repeats的值之和`)."""
    text = " ".join([p.description, *(s.text for s in said)])
    if (m := _SUM_OF_VALUES.search(text)) and m.group("t") in inputs:
        return f"data-dependent: its element count is the sum of {m.group('t')}'s values"
    if _DISTINCT.search(text) and not re.search(r"元素个数与", text):  # aclnnUnique2: `元素个数与self相同`
        return "data-dependent: it holds the input's distinct elements, as many as the data have"
    return ""


_WHERE = re.compile(r"其中\s*(?P<sym>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<expr>[^，。；,;]+)")


def defined_in_place(dims: tuple[str, ...], text: str, names: Sequence[str]) -> tuple[str, ...]:
    """The dims with each symbol the statement defines by a formula replaced by it:
    `[numTokens, slotSize]，其中slotSize = ceil((headDim / 2 + 2) / 64) * 64`."""
    definitions = {}
    for m in _WHERE.finditer(text):
        expr = dim_expression(m.group("expr"), names)
        if expr is not None and m.group("sym") not in names:
            definitions[m.group("sym")] = expr
    return substituted(dims, definitions) if definitions else dims


def _one_shape(inputs: Sequence[str], params: Sequence[Param], errors: Sequence[ErrorRule]) -> bool:
    """Whether the document ties every input tensor to one shape (aclnnSiluMul: `shape需与y一致`
    on x; an error row `gradients与features的shape不相同`)."""
    pairs = [(q.name, n) for q in params for c in q.of_kind("same_shape") if not _conditional(c.text) for n in c.params]
    pairs += [
        (a, b)
        for e in errors
        if not e.conditional
        for c in e.checks
        if c.kind == "same_shape"
        for a in c.params
        for b in c.params
    ]
    tied = {inputs[0]} if inputs else set()
    for _ in inputs:
        tied |= {b for a, b in pairs if a in tied} | {a for a, b in pairs if b in tied}
    return len(inputs) > 1 and set(inputs) <= tied


def rule_from_reading(
    params: Sequence[Param],
    statements: dict[str, list[Statement]],
    reading: Reading,
    statement: Statement,
    own: Sequence[Statement] = (),
    formula: Statement | None = None,
    notes: Sequence[Statement] = (),
) -> ShapeRule:
    kind, reads, dims = reading
    names = [q.name for q in params]
    dims = defined_in_place(dims, statement.text, names) if dims else dims
    dims = defined_by_formula(dims, formula.text, names) if dims and formula else dims
    worded = [*(s.text for said in statements.values() for s in said), *(s.text for s in notes)]
    dims = defined_by_statements(dims, worded, params) if dims else dims
    dims = _multiples_in_place(dims, params, statements, names) if dims else dims
    wanted = _symbols(dims, names) if dims else set()
    if respelled := _respelled(wanted, params):  # DynamicDualLevelMxQuant: `level0Blocksize`
        dims = substituted(dims, respelled)
        wanted -= set(respelled)
    defined = {s: [d] for s, d in _defined(own, params).items()}
    texts = {name: [s.text for s in said] for name, said in statements.items()}
    bound = {**list_bindings(params, texts), **defined, **_bindings(params, statements)} if wanted else {}
    scalars = {q.name for q in params if q.kind in ("int", "bool")}
    unbound = sorted(s for s in wanted if s not in bound and s not in scalars)
    if recased := _recased(unbound, [*bound, *scalars]):  # MoeInitRoutingQuant: `* k` of expertIdx's `K`
        dims = substituted(dims, recased)
        wanted = (wanted - set(recased)) | set(recased.values())
        unbound = [s for s in unbound if s not in recased]
    if unbound:
        reason = f"the list [{', '.join(dims)}] names {', '.join(unbound)}, which no input's documented shape binds"
        why = misdefined(unbound, worded, params)
        reason = f"{reason} ({why})" if why else reason
        return ShapeRule(kind="not_derivable", reason=reason, text=statement.text, line=statement.line)
    symbols = tuple(d for s in sorted(wanted) for d in bound.get(s, ()))
    return ShapeRule(kind=kind, params=reads, dims=dims, symbols=symbols, text=statement.text, line=statement.line)


def _respelled(symbols: set[str], params: Sequence[Param]) -> dict[str, str]:
    """Symbols that are an integer parameter's name in other letter case (`level0Blocksize` for
    `level0BlockSize`) or in snake case (aclnnLstmBackward's `[D * num_layers, …]` beside its
    `[numLayers * D, …]` for `numLayers`): the parameter, when only one is spelled so."""
    by_letters: dict[str, list[str]] = {}
    for q in params:
        if q.kind == "int":
            by_letters.setdefault(_letters(q.name), []).append(q.name)
    return {s: found[0] for s in symbols if len(found := by_letters.get(_letters(s), [])) == 1}


def _recased(unbound: Sequence[str], bound: Sequence[str]) -> dict[str, str]:
    """Symbols no shape binds that a bound one spells in other letter case (MoeInitRoutingQuant
    writes expertIdx `(NUM_ROWS, K)` and expandedXOut `(min(NUM_ROWS, activeNum) * k, H)`): that
    one, when only one is spelled so."""
    by_case: dict[str, list[str]] = {}
    for name in dict.fromkeys(bound):
        by_case.setdefault(name.lower(), []).append(name)
    return {s: found[0] for s in unbound if len(found := by_case.get(s.lower(), [])) == 1}


def _letters(name: str) -> str:
    return name.replace("_", "").lower()


def _input_lists(
    params: Sequence[Param], statements: dict[str, list[Statement]]
) -> Iterable[tuple[str, tuple[str, ...]]]:
    """Each input tensor's first list, unread (`x`: `shape为[M, 2N]` gives M, 2N), unless its
    statement offers another shape beside it (aclnnCtcLoss targets: `当shape为(N,S)…；或者shape为
    (SUM(targetLengths))`: N is no axis of the second)."""
    for p in params:
        if p.kind == "tensor" and p.direction == "in":
            found = next(((s, parts) for s in statements.get(p.name, []) if (parts := listed(s.text))), None)
            if found and not _OTHER_SHAPE.search(found[0].text):
                yield p.name, tuple(found[1])


_OTHER_SHAPE = re.compile(r"或(?:者)?\s*shape\s*(?:为|是)")


def _multiples(params: Sequence[Param], statements: dict[str, list[Statement]]) -> dict[str, str]:
    """Symbols an input's list names alone or times a number, where the list is no reading
    (`x`: `shape为[M, 2N]`, aclnnSwigluMxQuantWithDualAxis: M is x.shape[0], N x.shape[1] / 2);
    the first input that names a symbol gives it."""
    out: dict[str, str] = {}
    for name, parts in _input_lists(params, statements):
        if not all(MULTIPLE.match(part) for part in parts):
            continue
        for axis, m in enumerate(MULTIPLE.match(part) for part in parts):
            if m and m.group("sym") not in out:
                out[m.group("sym")] = f"{name}.shape[{axis}]" + (f" / {m.group('k')}" if m.group("k") else "")
    return out


def _multiples_in_place(
    dims: tuple[str, ...], params: Sequence[Param], statements: dict[str, list[Statement]], names: Sequence[str]
) -> tuple[str, ...]:
    """The dims with each symbol no readable input list binds replaced by what an input's list
    of symbols and their multiples says of it (see `_multiples`)."""
    wanted = _symbols(dims, names) - set(_bindings(params, statements))
    sizes = {s: e for s, e in _multiples(params, statements).items() if s in wanted}
    return substituted(dims, sizes) if sizes else dims


def _equations(
    p: Param, notes: Sequence[Statement], inputs: Sequence[str], names: Sequence[str]
) -> tuple[Reading, Statement] | None:
    """The constraints section's equations of `p` (`rank(mxscaleOut) = rank(x) + 1`,
    `mxscaleOut.shape[-1] = 2`, `其他维度与输入x一致`: see shape_equations), with the first
    line that names it."""
    reading = equations_reading([s.text for s in notes], p.name, inputs, names)
    if reading is None:
        return None
    return reading, next(s for s in notes if p.name in s.text or p.name.removesuffix("Out") in s.text)


# `类型为INT32时，shape的最后一维是x最后一维的1/8，其余维度和x一致；其他类型时，shape与x一致`
# (aclnnAscendQuant: INT32 packs eight INT4), `当输入x为INT32类型时，…，其余情况shape与输入x一致`
_PACKED = re.compile(
    r"(?:当\s*)?(?:输入|入参)?\s*`?(?P<who>[A-Za-z_][A-Za-z0-9_]*)?`?\s*的?(?:数据)?(?:类型)?为\s*(?P<dtype>[A-Z][A-Z0-9_]*)\s*"
    r"(?:类型)?时[，,][^；;。]*[；;。，,]\s*(?:(?:其他|其余)(?:数据)?类型时|其余情况)[，,]?\s*shape\s*(?:与|和)\s*(?:输入|入参)?\s*"
    r"`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:保持)?一致"
)


def _for_other_dtypes(p: Param, said: Sequence[Statement], inputs: Sequence[str]) -> ShapeRule | None:
    """An input's shape, said for every dtype but one (the output's own or an input's): the
    rule holds when that tensor's dtype is another (`when`: (tensor, "dtype", dtype,
    "false")); in the one dtype the shape is left unchecked, and a wrapper allocates only for
    the others."""
    # statements apart (aclnnDynamicQuantV3's `数据类型为INT32时，最后一维是x最后一维的1/8` and
    # `其他数据类型时shape和x保持一致`, two items of a cell) end where they end
    text = "".join(s.text.strip().rstrip("。") + "。" for s in said)
    m = _PACKED.search(text)
    if m is None or m.group("x") not in inputs:
        return None
    who = m.group("who") or p.name
    if who not in (p.name, *inputs):
        return None
    first = next(s for s in said if m.group("dtype") in s.text)
    when = (who, "dtype", m.group("dtype"), "false")
    return ShapeRule(kind="same", params=(m.group("x"),), when=when, text=m.group(), line=first.line)


def _joined(said: Sequence[Statement]) -> list[Statement]:
    """The statements, a condition standing alone (`quantMode是pertoken时`, a line of its own)
    or leading a clause of no shape (MoeFinalizeRoutingV2Grad `当dropPadMode是0时，要求是一个2D的
    Tensor`) joined to the statement after it, and an otherwise case (`否则shape为(R * K, H)`)
    to the statement before it."""
    out: list[Statement] = []
    for s in said:
        if out and (_leads(out[-1].text) or _OTHERWISE_LED.match(s.text)):
            out[-1] = Statement(out[-1].text.rstrip("，,") + "，" + s.text, out[-1].line)
        else:
            out.append(s)
    return out


_OTHERWISE_LED = re.compile(r"^\s*(?:否则|其他情况下?|其余情况下?)")
_LEADING_CONDITION = re.compile(r"^(?:当|若|如果)[^，,；;。]+时(?:[，,](?P<clause>[^；;。]*))?$")


def _leads(text: str) -> bool:
    """A condition standing alone, or leading a clause that gives no shape."""
    if text.rstrip("，,").endswith("时"):
        return True
    m = _LEADING_CONDITION.match(text.strip().rstrip("，,"))
    return m is not None and "shape" not in (m.group("clause") or "").lower()


# `quantMode是pertoken时，shape为x的shape剔除最后一维`: a clause led by one value of an attribute
_VALUE_CASE = re.compile(
    r"^(?:当|若|如果)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的值)?\s*(?:是|为|=|==|取值为)\s*[\"“'`]?"
    r"(?P<value>[A-Za-z0-9_]+)[\"”'`]?\s*时[，,]\s*(?P<rest>.+)$"
)
# `当logProbs为3维时，negLogLikelihoodOut的shape为(N)的Tensor`: a clause led by an input's rank
_RANK_CASE = re.compile(
    r"^(?:当|若|如果)\s*(?:输入)?`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的shape)?\s*为\s*(?P<value>\d)\s*维(?:Tensor)?\s*时[，,]\s*(?P<rest>.+)$"
)
# `当groupIndexOptional存在时，shape为[floor(M/64)+G, N, 2]`: a clause led by an optional input given or null
_GIVEN_CASE = re.compile(
    r"^(?:当|若|如果)\s*(?:输入)?`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?P<no>不)?(?:存在|传入)\s*时[，,]\s*(?P<rest>.+)$"
)
# `数据类型为INT4时，shape与入参x一致`: a clause led by a dtype of the output's (or an input's)
_DTYPE_CASE = re.compile(
    r"^(?:当|若|如果)?\s*(?:输入|入参)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)?`?\s*的?\s*(?:数据)?类型为\s*"
    r"(?P<value>[A-Z][A-Z0-9_]*)\s*(?:类型)?\s*时[，,]\s*(?P<rest>.+)$"
)
# What follows the case's own shape: `，否则negLogLikelihoodOut为0维Tensor`, `；其他类型时，…` (another case)
_OTHERWISE = re.compile(r"[，,]\s*(?:否则|(?:其他|其余)[^，,]{0,6}(?:时|情况|场景))")


def _case(clause: str, values: Sequence[str], ctx: ShapeContext) -> tuple[str, tuple[str, ...]] | None:
    """The condition a clause is led by, as `ShapeRule.when`, and the rest of the clause: one
    value of an attribute, an input tensor's rank, an optional input given or null."""
    if (m := _VALUE_CASE.match(clause)) and m.group("name") in values:
        return m.group("rest"), (m.group("name"), "value", m.group("value"), "true")
    if (m := _RANK_CASE.match(clause)) and m.group("name") in ctx.inputs:
        return m.group("rest"), (m.group("name"), "rank", m.group("value"), "true")
    if (m := _GIVEN_CASE.match(clause)) and m.group("name") in ctx.inputs and m.group("name").endswith("Optional"):
        return m.group("rest"), (m.group("name"), "given", "", "false" if m.group("no") else "true")
    m = _DTYPE_CASE.match(clause)
    if m and (m.group("name") or ctx.subject) in (ctx.subject, *ctx.inputs) and m.group("value") in DTYPES:
        return m.group("rest"), (m.group("name") or ctx.subject, "dtype", m.group("value"), "true")
    return None


def _first_case(
    said: Sequence[Statement], ctx: ShapeContext, values: Sequence[str]
) -> tuple[Reading, Statement, tuple[str, ...]] | None:
    """The shape the output's row gives for the first case of the one parameter its cases name
    (aclnnDynamicQuantV3: `quantMode是pertoken时，shape为x的shape剔除最后一维。quantMode是pertensor
    时，shape为(1,)。…`; an input's rank, an optional input given), with its condition (`when`:
    (attribute, "value", value, "true"), (input, "rank", n, "true"), (input, "given", "",
    "true"/"false")): the rule holds, and is checked and allocated, in that case only; the
    other cases stay unchecked."""
    cases = []
    for s in _joined(said):
        for clause in _sentences(s.text):
            found = _case(clause.strip(), values, ctx)
            if found is None:
                continue
            rest, when = _OTHERWISE.split(found[0])[0], found[1]
            readings = {r for p in SHAPE_PHRASES if p.trigger.search(rest) and (r := p.read(rest, ctx))}
            if len(readings) == 1:
                cases.append((readings.pop(), s, when))
    if not cases or len({c[2][0] for c in cases}) != 1:
        return None
    return cases[0]


def _one_form(
    reading: Reading,
    statements: dict[str, list[Statement]],
    ctx: ShapeContext,
    binds: Callable[[Reading], bool] = lambda _: True,
) -> tuple[Reading, tuple[str, ...]] | None:
    """The reading with its symbols read from the one list of one input's alternative lists
    that names them (aclnnMultilabelMarginLoss out `(N)`, self `(N,C)或者(C)`: N is self's axis
    0 where self has 2 dimensions), with that rank as its condition: the first input's (target,
    `(N，C)或者(C)` too, says the same); None when no list names them, or several of one input.
    `binds`: whether a form's reading counts (aclnnCtcLoss logProbs `(T,N,C)或(T,C)`: the 2-d
    form binds T but not N)."""
    for x in ctx.inputs:
        ranks = {len(top_level_split(part.strip()[1:-1])) for part in _alternative_lists(statements.get(x, []))}
        whens = [(x, "rank", str(rank), "true") for rank in sorted(ranks)]
        found = [
            (read, when)
            for when in whens
            if (read := _of_rank(reading, when, statements, ctx.params)) != reading and binds(read)
        ]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _in_one_form(
    params: Sequence[Param], statements: dict[str, list[Statement]], found: tuple[Reading, Statement], ctx: ShapeContext
) -> ShapeRule | None:
    """The list whose symbols only one form of an input binds (see `_one_form`), held to that
    form: elsewhere the output is neither checked nor allocated."""

    def binds(reading: Reading) -> bool:
        return rule_from_reading(params, statements, reading, found[1]).derived

    form = _one_form(found[0], statements, ctx, binds)
    if form is None:
        return None
    rule = rule_from_reading(params, statements, form[0], found[1])
    return rule.model_copy(update={"when": form[1]})


def _alternative_lists(said: Sequence[Statement]) -> list[str]:
    return [
        part for s in said for m in _ALTERNATIVE_LISTS.finditer(s.text) for part in re.split(r"或(?:者)?", m.group())
    ]


_ALTERNATIVE_LISTS = re.compile(r"[(（\[][^()（）\[\]]*[)）\]](?:\s*或(?:者)?\s*[(（\[][^()（）\[\]]*[)）\]])+")
# a statement that is such lists alone (`shape为(N，C)或者(C)`, aclnnSwigluGroupGrad `shape=[T, 1]或[B, S, 1]`)
_ONLY_LISTS = re.compile(r"(?:shape\s*(?:为|是|=)\s*)?" + _ALTERNATIVE_LISTS.pattern + r"\s*[。.]?")


def _of_rank(
    reading: Reading, when: tuple[str, ...], statements: dict[str, list[Statement]], names: Sequence[str]
) -> Reading:
    """A case held to an input's rank (`当logProbs为3维时，…shape为(N)`) with the symbols that
    input's list of that rank names read from its axes (logProbs `(T,N,C)或(T,C)`: N is
    logProbs.shape[1] when it has 3 dimensions); the reading as it was for any other case."""
    kind, reads, dims = reading
    if when[1:2] != ("rank",) or not dims:
        return reading
    x, rank = when[0], int(when[2])
    lists = [top_level_split(part.strip()[1:-1]) for part in _alternative_lists(statements.get(x, []))]
    of_rank = [parts for parts in lists if len(parts) == rank]
    if len(of_rank) != 1:
        return reading
    sizes = {d: f"{x}.shape[{i}]" for i, d in enumerate(of_rank[0]) if DIM_WORD.fullmatch(d) and d not in names}
    return (kind, reads, substituted(dims, sizes)) if sizes else reading


# `如果输入x的shape为[M, N]，(groupList的shape为[g]，)则输出scaleOut的shape维度为[…]`
_SHAPE_CASE = re.compile(
    r"(?:如果|假设)(?:输入)?(?P<x>[A-Za-z_][A-Za-z0-9_]*)的shape为\s*(?P<l>\[[^\]]*\])[，,]\s*"
    r"(?:(?P<y>[A-Za-z_][A-Za-z0-9_]*)的shape为\s*(?P<gl>\[[^\]]*\])[，,]\s*)?(?:则)?(?:输出)?\s*"
    r"(?P<out>[A-Za-z_][A-Za-z0-9_]*)的shape(?:维度)?为\s*(?P<r>\[[^\]]*\])"
)


def _by_input_shape(
    p: Param, said: Sequence[Statement], inputs: Sequence[str], names: Sequence[str]
) -> ShapeRule | None:
    """The output's shape given case by case of an input's (aclnnDynamicBlockQuant: `如果输入x的
    shape为[M, N]，输出scaleOut的shape维度为[ceil(M/rowBlockSize), ceil(N/colBlockSize)]；如果输入x
    的shape为[B, M, N]，…为[B, ceil(M/rowBlockSize), ceil(N/colBlockSize)]`), where the cases
    differ only by leading dimensions both lists carry: one rule, the input's symbols read from
    its trailing axes (`*x.shape[:-2]`, then the shortest case's list)."""
    text = "，".join(s.text.strip().rstrip("。") for s in said).replace("∗", "*")
    cases = [m for m in _SHAPE_CASE.finditer(text) if m.group("out") == p.name and m.group("x") in inputs]
    if not cases or len({m.group("x") for m in cases}) != 1:
        return None
    split = [(top_level_split(m.group("l")[1:-1]), top_level_split(m.group("r")[1:-1])) for m in cases]
    (l0, r0), x = min(split, key=lambda c: len(c[0])), cases[0].group("x")
    for left, right in split:
        extra = len(left) - len(l0)
        if left[extra:] != l0 or right[:extra] != left[:extra] or right[extra:] != r0:
            return None
    sizes = {sym: f"{x}.shape[{i - len(l0)}]" for i, sym in enumerate(l0) if DIM_WORD.fullmatch(sym)}
    y, listed_y = cases[0].group("y"), top_level_split((cases[0].group("gl") or "[]")[1:-1])
    line = next((s.line for s in said if "shape" in s.text), p.line)
    if y is not None and y not in inputs:  # aclnnGroupedDynamicMxQuant: `groupedIndex`, its input is groupIndex
        reason = f"its shape is given by {y}'s shape {cases[0].group('gl')}, and no input is named {y}"
        return ShapeRule(kind="not_derivable", reason=reason, text=cases[0].group(), line=line)
    sizes.update({sym: f"{y}.shape[{i}]" for i, sym in enumerate(listed_y) if y and DIM_WORD.fullmatch(sym)})
    dims = [dim_expression(d, names) for d in r0]
    if not all(dims):
        return None
    found = substituted([f"*{x}.shape[:{-len(l0)}]", *(d for d in dims if d)], sizes)
    if _symbols(found, names):
        return None
    return ShapeRule(kind="explicit", dims=found, text=cases[0].group(), line=line)


# `若x1 shape:(2，3，4，8)，gamma shape:(8)，rstdOut shape(2，3，4，1)`: a worked example
_SHAPE_OF = r"(?P<{0}>[A-Za-z_][A-Za-z0-9_]*)\s*(?:的)?\s*shape\s*(?:为)?[:：]?\s*[(（](?P<{0}s>[\d\s,，]*)[)）]"
_WORKED = re.compile(
    r"(?:若|如)"
    + _SHAPE_OF.format("x")
    + r"\s*[，,]\s*"
    + _SHAPE_OF.format("g")
    + r"\s*[，,]\s*(?:则)?"
    + _SHAPE_OF.format("o")
)
_LEADING = re.compile(r"前几维")


def _leading_by_examples(p: Param, said: Sequence[Statement], inputs: Sequence[str]) -> ShapeRule | None:
    """`shape与x1前几维保持一致，前几维表示不需要norm的维度`, which says nothing of the rank,
    with the statement's worked examples (aclnnFusedAddRmsNorm: `若x1 shape:(2，3，4，8)，gamma
    shape:(8)，rstdOut shape(2，3，4，1)；若…gamma shape:(4，8)，rstdOut shape(2，3，1，1)`):
    x's leading dimensions then 1s for the other input's, when every example says so."""
    for s in said:
        examples = [m for m in _WORKED.finditer(s.text) if m.group("o") in (p.name, p.name.removesuffix("Out"))]
        if not examples or not _LEADING.search(s.text.split("举例")[0]):
            continue
        x, g = examples[0].group("x"), examples[0].group("g")
        if x not in inputs or g not in inputs or any((m.group("x"), m.group("g")) != (x, g) for m in examples):
            continue
        if not re.search(rf"(?<![A-Za-z0-9_]){x}`?\s*(?:的shape)?前几维", s.text):
            continue
        if all(_agrees(*(_sizes(m.group(k)) for k in ("xs", "gs", "os"))) for m in examples):
            dims = (f"*{x}.shape[:rank({x}) - rank({g})]", f"*ones(rank({g}))")
            return ShapeRule(kind="explicit", dims=dims, text=s.text.strip(), line=s.line)
    return None


def _sizes(listed_sizes: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", listed_sizes))


def _agrees(x: tuple[int, ...], g: tuple[int, ...], out: tuple[int, ...]) -> bool:
    keep = len(x) - len(g)
    return keep >= 0 and out == (*x[:keep], *(1,) * len(g))


_UNEQUAL = re.compile(r"不一致|不相同|不同|不相等|不等")


def _from_errors(p: Param, params: Sequence[Param], errors: Sequence[ErrorRule]) -> ShapeRule | None:
    """`input和out的shape不一致` is an error: the output has the input's shape."""
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out"}
    for error in errors:
        if error.conditional:
            continue
        for check in error.checks:
            peers = tuple(n for n in check.params if n in readable and n != p.name)
            if p.name not in check.params or not peers:
                continue
            if not _UNEQUAL.search(error.condition):
                continue  # `gradOutput、self和out的shape不匹配`: which shapes must match is not said
            if check.kind == "same_shape":
                return ShapeRule(kind="same", params=peers[:1], text=error.condition, line=error.line)
            if check.kind == "broadcast_result":
                kind: ShapeRuleKind = "same" if len(peers) == 1 else "broadcast"
                return ShapeRule(kind=kind, params=peers, text=error.condition, line=error.line)
    return None


_GIVEN_OUTPUT = re.compile(r"指定输出|输出(?:tensor|张量|Tensor)?的(?:数据类型|dtype)")
# The output's own row naming the parameter that gives its dtype: `数据类型需要与dstType保持一致`,
# `数据类型需与dstType对应`, `数据类型由dstType决定`, `数据类型由调用者…指定，且需要与dstDtype一致`
# (read only for an aclDataType or integer parameter whose values are dtype codes).
_DTYPE_FROM = re.compile(
    r"数据类型.*?(?:与|由|和)\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:保持)?(?:一致|对应|决定|相同)"
)
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d+(?![A-Za-z0-9_.])")
# `35:FLOAT8_E5M2`, `34=HIFLOAT8`, `2表示yOut为int8量化输出`; `如果输出y类型为INT8，则为2`
_CODE_PAIR = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<code>\d+)\s*(?:[:：=]|表示\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*为)?)\s*(?P<name>[A-Za-z][A-Za-z0-9_]*)"
    r"|(?P<name2>[A-Za-z][A-Za-z0-9_]*)\s*时?\s*[，,]?\s*则为\s*(?P<code2>\d+)(?![A-Za-z0-9_.])"
)
_LISTS_VALUES = re.compile(r"取值|范围|值为|支持|[{【]")


def _given_dtype(p: Param, params: Sequence[Param]) -> DtypeRule | None:
    """A parameter that gives the output's dtype: an aclDataType (`指定输出的数据类型` of the one
    output, `需要与out的dtype一致`), or an integer holding aclDataType values (`dstType`:
    `指定数据转换后yOut的类型，输入范围为{35, 36, 40, 41}`) when every value it lists is the
    code of a dtype the output allows."""
    outputs = [q for q in params if q.direction == "out" and q.kind in TENSORS]
    # `yOut的类型`, `y1Out和y2Out的类型`, `2表示yOut为int8量化输出`
    others = r"(?:[和、与][A-Za-z_][A-Za-z0-9_]*)*"
    name = "|".join(map(re.escape, _output_names(p, params)))
    named = re.compile(
        rf"(?<![A-Za-z0-9_])(?:{name})(?![A-Za-z0-9_]){others}的?\s*(?:目标)?(?:输出)?(?:数据类型|类型|dtype)"
        rf"|\d\s*表示\s*(?:{name})\s*为"
    )
    from_row = {m.group("name"): c for c in _sentences(p.text) if not _conditional(c) for m in _DTYPE_FROM.finditer(c)}
    for q in params:
        if q.kind != "dtype" and not (q.kind == "int" and _codes_of(q.text, p.dtypes)):
            continue
        said = [c for c in _sentences(q.text) if _names_output(c, named, outputs == [p])]
        if q.kind == "int":
            said = [c for c in said if not _conditional(c)]
        if q.name in from_row:
            return DtypeRule(kind="given", params=(q.name,), text=from_row[q.name].strip(), line=p.line)
        if said:
            return DtypeRule(kind="given", params=(q.name,), text=said[0].strip(), line=q.line)
    return None


def _output_names(p: Param, params: Sequence[Param]) -> tuple[str, ...]:
    """`p`'s name, the one its row gives it in the formula (`量化后的输出，公式中的y`: an
    attribute's row may call it so, aclnnSituMxQuant dstType `输出y的数据类型`), and `yOut`
    without `Out`, when no parameter has that name."""
    taken = {q.name for q in params}
    formula = [m.group("sym") for m in FORMULA_NAME.finditer(p.description)][:1]
    short = [p.name[:-3]] if p.name.endswith("Out") and len(p.name) > 3 else []  # `yOut`: `输出y`
    return tuple(dict.fromkeys((p.name, *(n for n in (*formula, *short) if n not in taken))))


def _sentences(text: str) -> list[str]:
    return re.split(r"[。；;\n]", text)


def _names_output(text: str, named: re.Pattern[str], only_output: bool) -> bool:
    return bool(named.search(text) or (only_output and _GIVEN_OUTPUT.search(text)))


def _codes_of(text: str, allowed: Sequence[str]) -> bool:
    """Whether the values `text` lists (`输入范围为{35, 36}`, `支持取值2、3、29`) are aclDataType
    values of dtypes in `allowed`, and the pairs it spells out (`35:FLOAT8_E5M2`, `34=HIFLOAT8`)
    are theirs: then the integer is a dtype code."""
    names = {code: name for name, code in DTYPES.items()}
    listed = [s for s in _sentences(text) if _LISTS_VALUES.search(s)]
    pairs = [(m["code"] or m["code2"], m["name"] or m["name2"]) for m in _CODE_PAIR.finditer(text)]
    # codes are small; a text that lists no values may spell out its pairs only
    numbers = [n for s in listed for n in _NUMBER.findall(s)] or [code for code, _ in pairs]
    codes = [int(n) if len(n) < 4 else -1 for n in numbers]
    if not codes or any(names.get(c) not in allowed for c in codes):
        return False
    return all(len(code) < 4 and names.get(int(code)) == dtype(name) for code, name in pairs)


def _is_index(p: Param) -> bool:
    return bool(p.dtypes) and set(p.dtypes) <= set(_INDEX_DTYPES) and bool(_INDEX_NAME.search(p.name))


def _may_share(p: Param, params: Sequence[Param], peer: str) -> bool:
    """Whether `p` can take `peer`'s dtype: an index output (INT32/INT64) takes an index
    input's, never a tensor's that allows other dtypes (cummin's indices are not self's)."""
    q = next((q for q in params if q.name == peer), None)
    return not _is_index(p) or (q is not None and bool(q.dtypes) and set(q.dtypes) <= set(p.dtypes))


def _flag_dtype(p: Param, params: Sequence[Param], notes: Sequence[Statement]) -> DtypeRule | None:
    """A bool that chooses the output's dtype, both cases stated (aclnnBucketize: `outInt32为True
    时，out的数据类型必须为INT32；outInt32为False时，out的数据类型必须为INT64`): values are the
    dtype when true, then when false."""
    texts = [p.text, *(q.text for q in params), *(n.text for n in notes)]
    for q in params:
        if q.kind != "bool":
            continue
        said: dict[str, tuple[str, str]] = {}
        for text, m in ((t, m) for t in texts for m in _FLAG_DTYPE.finditer(t)):
            if m.group("flag") == q.name and m.group("out") == p.name and (d := dtype(m.group("dtype"))):
                said.setdefault(m.group("value").lower(), (d, text))
        if set(said) == {"true", "false"} and {said["true"][0], said["false"][0]} <= set(p.dtypes):
            values, text = (said["true"][0], said["false"][0]), said["true"][1].strip()
            return DtypeRule(kind="given", params=(q.name,), values=values, text=text, line=p.line)
    return None


_FLAG_DTYPE = re.compile(
    r"(?P<flag>[A-Za-z_][A-Za-z0-9_]*)\s*(?:为|=+)\s*(?P<value>true|false)\s*时\s*[，,]?\s*"
    r"(?P<out>[A-Za-z_][A-Za-z0-9_]*)\s*的\s*(?:数据类型|dtype)\s*(?:必须|需要|应)?\s*(?:为|是)\s*(?P<dtype>[A-Za-z0-9_]+)",
    re.IGNORECASE,
)


def _elementwise_of(shape: ShapeRule | None, name: str) -> bool:
    """Whether the output takes `name`'s shape, alone or broadcast with others."""
    return shape is not None and shape.kind in ("same", "broadcast") and name in shape.params


def tied_on_products(p: Param, params: Sequence[Param], general: DtypeRule) -> DtypeRule:
    """`general`, or, where a per-product remark ties `p`'s dtype to an input on some products
    (`参数gradWeight、gradBias的数据类型与gradOut的保持一致`), cases: that input's dtype on
    those products, `general` on the others."""
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out" and q.name != p.name}
    tied = [c for c in p.of_kind("same_dtype") if c.product in PRODUCT_NAMES and c.params[0] in readable]
    if not tied or (general.kind == "same" and general.params == tied[0].params[:1]):
        return general
    on = ",".join(dict.fromkeys(str(c.product) for c in tied if c.params[:1] == tied[0].params[:1]))
    held = DtypeRule(
        kind="same", params=tied[0].params[:1], when=("", "product", on, "true"), text=tied[0].text, line=tied[0].line
    )
    cases = [held]
    if general.kind != "not_derivable":
        cases.append(general.model_copy(update={"when": ("", "product", on, "false")}))
    return DtypeRule(kind="cases", alternatives=tuple(cases), text=tied[0].text, line=tied[0].line)


def dtype_rule(
    p: Param,
    params: Sequence[Param],
    errors: Sequence[ErrorRule],
    notes: Sequence[Statement] = (),
    shape: ShapeRule | None = None,
) -> DtypeRule:
    """The dtype `p` is written in (on every product: see `tied_on_products`): the value of an
    aclDataType parameter (or a bool) that gives it, a documented same-dtype input, the one dtype it allows, an index
    output's integer types, or not derivable."""
    if given := _given_dtype(p, params) or _flag_dtype(p, params, notes):
        return given
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out" and q.name != p.name}
    for c in (c for c in p.of_kind("same_dtype") if c.product is None):
        if peers := tuple(n for n in c.params if n in readable and _may_share(p, params, n)):
            return DtypeRule(kind="same", params=peers[:1], text=c.text, line=c.line)
    if len(p.dtypes) == 1:
        c = p.of_kind("dtypes")[0]
        return DtypeRule(kind="fixed", values=tuple(p.dtypes), text=c.text, line=c.line)
    if _is_index(p):
        c = p.of_kind("dtypes")[0]
        # in the document's order: wrappers allocate the first (the corpus samples pass it)
        return DtypeRule(kind="one_of", values=tuple(p.dtypes), text=c.text, line=c.line)
    for q in params:
        for c in q.of_kind("same_dtype"):
            if p.name in c.params and q.name in readable and c.product is None:
                return DtypeRule(kind="same", params=(q.name,), text=c.text, line=c.line)
    for error in errors:
        for check in error.checks:
            peers = tuple(n for n in check.params if n in readable)
            if check.kind == "same_dtype" and p.name in check.params and peers and not error.conditional:
                return DtypeRule(kind="same", params=peers[:1], text=error.condition, line=error.line)
    if p.direction == "inout":
        return DtypeRule(kind="same", params=(p.name,), text="", line=p.line)
    for c in p.of_kind("castable"):
        if (peers := tuple(n for n in c.params if n in readable)) and "推导" in c.text:
            return DtypeRule(kind="promote", params=peers, text=c.text, line=c.line)
    tensors = [q for q in params if q.name in readable and q.kind == "tensor" and p.dtypes]
    if twins := [q for q in tensors if set(q.dtypes) == set(p.dtypes)]:
        c = p.of_kind("dtypes")[0]
        return DtypeRule(kind="same_set", params=(twins[0].name,), text=c.text, line=c.line)
    # aclnnErfinv: self FLOAT…INT64, out FLOAT、FLOAT16、BFLOAT16 and self's shape: out in self's dtype
    # where it allows it (an elementwise output; an index output's INT32/INT64 is no data dtype)
    wider = [q for q in tensors if set(q.dtypes) > set(p.dtypes) and _elementwise_of(shape, q.name)]
    if len(wider) == 1 and not set(p.dtypes) <= set(_INDEX_DTYPES):
        c = p.of_kind("dtypes")[0]
        return DtypeRule(kind="same_set", params=(wider[0].name,), values=tuple(p.dtypes), text=c.text, line=c.line)
    if cases := case_rule(p, params, notes, shape) or product_case_rule(p):
        return cases  # aclnnWeightQuantBatchMatmulV2 y: `当quantScaleOptional存在时，数据类型为INT8；…`
    reason = (
        "the document allows " + "、".join(p.dtypes) + " and relates the dtype to no input"
        if p.dtypes
        else "the document states no dtype"
    )
    return DtypeRule(kind="not_derivable", reason=reason, line=p.line)


_WHEN_TRUE = re.compile(
    r"(?:若|如果|当)\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[(?P<index>\d+)\])?`?\s*(?:为|=+)\s*(?:True|true|TRUE)"
)


def written_when(p: Param, params: Sequence[Param]) -> tuple[str, ...]:
    """The bool (or bool-array element) the output's own row makes its writing depend on:
    `可选输出，若outputMask[0]为True，则需要输出，否则不输出`, `如果inputG为True则输出`,
    `当outputRstd为True时，…`; () when the row names no such condition, or several."""
    kinds = {q.name: q.kind for q in params}
    found = set()
    for text in (p.description, p.text):
        for m in _WHEN_TRUE.finditer(text):
            name, index = m.group("name"), m.group("index")
            if (kinds.get(name), index is None) in (("bool", True), ("bool_array", False)):
                found.add((name, index or "", "true"))
    values = [q.name for q in params if q.kind not in TENSORS]
    said = value_condition([p.description, p.text], values)
    return found.pop() if len(found) == 1 and said in ("", *(f[0] for f in found)) else ()


def _chooses(shape: ShapeRule, when: tuple[str, ...]) -> bool:
    """Whether the bool a row names chooses the shape rather than whether the output is written
    (aclnnBidirectionLSTM yOut: `shape支持三维（time_step, batch_size, hidden_size）或者当bidirection为
    True时（time_step, batch_size, 2 * hidden_size）`, read as `2 * hidden_size if bidirection else
    hidden_size`): the rule's sizes read it, so it holds whatever the bool."""
    return bool(when) and any(
        re.search(rf"(?<![A-Za-z0-9_.]){re.escape(when[0])}(?![A-Za-z0-9_\[])", d) for d in shape.dims
    )


def _by_product(
    p: Param, params: Sequence[Param], statements: dict[str, list[Statement]], remarks: Sequence[ProductStatement]
) -> ShapeRule | None:
    """`p`'s shape as per-product statements give it (see shape_products), each read alone as
    the output's own row, with no other source of the shape."""

    def read(q: Param, s: ProductStatement) -> ShapeRule:
        own = {**statements, q.name: [Statement(s.text, s.line)]}
        rule = shape_rule(q.model_copy(update={"constraints": (), "direction": "out"}), params, (), own)
        return rule if rule.kind != "in_place" else ShapeRule(kind="not_derivable", line=s.line)

    def given(q: Param) -> bool:  # another output whose shape its own statements give
        return q.name != p.name and shape_rule(q, params, (), statements).derived

    written = [q for q in params if q.direction in WRITTEN and q.kind in TENSORS]
    alone = bool(remarks) and sum(not given(q) for q in written) == 1
    return per_product_rule(p, params, statements_for(p, params, remarks, alone), read)


def _said_of(
    p: Param, statements: dict[str, list[Statement]], notes: Sequence[Statement], errors: Sequence[ErrorRule]
) -> tuple[list[Statement], list[Statement]]:
    """`p`'s own statements, and every other line that may speak of it: the other parameters'
    rows, the constraints section, the error conditions."""
    others = [s for name, said in statements.items() if name != p.name for s in said]
    return statements.get(p.name, []), [*others, *notes, *(Statement(e.condition, e.line) for e in errors)]


def output_rules(
    params: Sequence[Param],
    errors: Sequence[ErrorRule],
    statements: dict[str, list[Statement]],
    formula: Statement | None = None,
    notes: Sequence[Statement] = (),
    summary: Sequence[Statement] = (),
    remarks: tuple[Sequence[ProductStatement], Sequence[str]] = ((), ()),
) -> tuple[Param, ...]:
    """The parameters, each output and in-out tensor with its shape and dtype rule (`notes`:
    the constraints section's lines; `summary`: the description's; `remarks`: the parameter
    section's per-product statements and the products supported, see shape_sizes)."""
    out: list[Param] = []
    derived: dict[str, ShapeRule] = {}
    for p in params:
        if p.direction in WRITTEN and p.kind in TENSORS:
            shape = shape_rule(p, params, errors, statements, formula, notes, summary)
            if not shape.derived and (named := co_named_rule(p, params, errors, derived)):
                shape = named  # aclnnNanMedianDim: `valuesOut或indicesOut的shape与self除dim外的shape不一致`
            if not shape.derived and (tied := tied_output_rule(p, params, errors, derived)):
                shape = tied  # MoeInitRoutingQuant: `expandedRowIdxOut和expandedExpertIdxOut的shape不相等`
            if not shape.derived and (sized := size_rule(p, params, *remarks)):
                shape = sized  # aclnnForeachSqrt: `910b、A3：入参x的shape size小于等于出参out的shape size`
            if not shape.derived and (by := _by_product(p, params, statements, remarks[0])):
                shape = by  # aclnnCtcLoss logAlphaOut: `950：shape为($N, T, (2*max(targetLengths)+1)$)`
            derived[p.name] = shape
            if shape.derived and not shape.when and (when := written_when(p, params)) and not _chooses(shape, when):
                shape = shape.model_copy(update={"when": when})
            shape = unpacked(shape, params)
            shape = but_packed(p, shape, _said_of(p, statements, notes, errors), statements)
            rules = {
                "shape_rule": shape,
                "dtype_rule": tied_on_products(p, params, dtype_rule(p, params, errors, notes, shape)),
            }
            p = p.model_copy(update=rules)
        out.append(p)
    return tuple(_unwound(out))


def _circle(name: str, rules: dict[str, ShapeRule]) -> list[str]:
    """The outputs a `same` rule of `name` leads through back to it (`gradWeightOut` same
    `gradBiasOut`, and `gradBiasOut` same `gradWeightOut`); [] when the chain ends elsewhere."""
    seen = [name]
    while (rule := rules.get(seen[-1])) is not None and rule.kind == "same" and len(rule.params) == 1:
        if rule.params[0] == name:
            return seen
        if rule.params[0] in seen:
            return []
        seen.append(rule.params[0])
    return []


def _unwound(params: list[Param]) -> list[Param]:
    """Outputs whose `same` rules refer only to each other settle no shape (aclnnLayerNormBackward:
    gradWeightOut `shape与gradBiasOut的shape相等`, gradBiasOut `shape与gradWeightOut的shape相等`):
    the circle is cut at its first output, not derivable with the circle as its reason; the
    others keep their rule, which still holds them to it (the same shape as the caller's)."""
    # in-out tensors hold shapes of their own, which such a rule relates: only outputs are settled by it
    rules = {p.name: p.shape_rule for p in params if p.shape_rule is not None and p.direction == "out"}
    out = []
    for p in params:
        if p.shape_rule is not None and (circle := _circle(p.name, rules)):
            said = " and ".join(f"{n} the same as {rules[n].params[0]}" for n in circle)
            reason = f"its shape is said only in a circle ({said}), which settles none of them"
            rule = ShapeRule(kind="not_derivable", reason=reason, text=p.shape_rule.text, line=p.shape_rule.line)
            rules[p.name] = rule
            p = p.model_copy(update={"shape_rule": rule})
        out.append(p)
    return out
