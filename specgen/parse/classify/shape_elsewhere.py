"""Output shapes that other parts of the document give than the output's own statements:

- the function's formula, where the output's row says the operands broadcast: aclnnWeightQuantBatchMatmul's
  out `shape需要是x1与x2 broadcast之后的shape`, with the formula `result = self@mat2+bias` and the
  rows naming its symbols (x1 `公式中的输入self。`, x2 `经处理能得到公式中的输入mat2。`): the
  operands of a matrix product broadcast their batch dimensions only (its sample: x1 (128, 4),
  x2 (4, 4), out (128, 4), which no broadcast of the two gives);
- the error table, which names the output only beside another output, in every row that speaks of
  its shape or rank (aclnnNanMedianDim: `keepDim为false时，valuesOut或indicesOut的shape与self除dim
  外的shape不一致`, and four rows more alike): the two are held to one rule, and the output has
  the other's shape;
- the document's own use of a word: aclnnDeepNorm says `维度` for sizes (gamma `shape维度和输入x后几维
  的维度相同`, gamma (4) for x (3, 1, 4); meanOut `前几维的维度和输入x前几维的维度相同…其余维度大小为1`),
  so yOut's `shape维度和输入x的维度相同` is x's shape (its sample: yOut (3, 1, 4));
- the description's cases of a comparison, each with the output's list, where the list of the
  equal case is the other's without its slice between the compared sizes, empty when they are
  equal: aclnnGatherNd `如果indices_shape[-1] = r，…out的shape为 [indices_shape[0:q-1]]` and
  `如果indices_shape[-1] < r，…设c=indices_shape[-1]，即out的shape为
  [indices_shape[0:q-1],self_shape[c:r]]`, r and q the ranks the description names
  (`维度为**r≥1**的输入张量 self`), `self_shape` self's shape: one list for both cases.

Where another part speaks of the shape in a form no reader takes (`elsewhere_reason`), the output
stays not derivable and its reason names that line: a note of some products only (a product's
note holds on that product, not on the function), or a line of the constraints section or of the
description (cases, a worked example, a size only).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence

from specgen.model import ErrorRule, Param, ShapeRule
from specgen.parse.classify.shape_gradients import Said as Statement
from specgen.parse.classify.shape_phrases import ALLOWED_CALLS, ShapeContext, read_matmul, substituted, top_level_split
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
# a row naming the formula's symbol for its parameter: `公式中的输入input。`, `公式中的vec`,
# `经处理能得到公式中的输入mat2。`
FORMULA_NAME = re.compile(rf"公式中的(?:输入|输出)?\s*`?(?P<sym>{_NAME})`?")
_SHAPE_WORDS = re.compile(r"shape|维度|维数")
# `shape维度和输入\`x\`的维度相同`: the dimensions of the shape, each the input's
_DIMENSIONS_ALIKE = re.compile(rf"shape维度(?:和|与)(?:输入|入参)?\s*`?(?P<x>{_NAME})`?\s*的维度(?:相同|一致)")
# the same document saying `维度` of sizes: `后几维的维度相同`, `前几维的维度和…前几维的维度相同`
_SIZES_SAID = re.compile(r"[前后]几维的维度")


def formula_symbols(params: Sequence[Param], kinds: Sequence[str] = ()) -> dict[str, set[str]]:
    """Each symbol of the formula the parameters' rows name (`公式中的输入input`), with the
    parameters that name it (of `kinds` only, when given)."""
    found: dict[str, set[str]] = {}
    for q in params:
        if kinds and q.kind not in kinds:
            continue
        for m in FORMULA_NAME.finditer(q.description):
            found.setdefault(m.group("sym"), set()).add(q.name)
    return found


def _in_params(formula: str, params: Sequence[Param], among: Sequence[str]) -> str:
    """The formula with each symbol that one tensor of `among` names in its row (`公式中的输入self`)
    replaced by that tensor (several rows may name one symbol: aclnnWeightQuantBatchMatmul's
    deqScale `对x2反量化得到公式中的输入mat2`, beside x2 `经处理能得到公式中的输入mat2`)."""
    names = {q.name for q in params}
    for sym, named in formula_symbols(params, ("tensor",)).items():
        if len(ours := named & set(among)) == 1 and sym not in names:
            formula = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(sym)}(?![A-Za-z0-9_])", ours.pop(), formula)
    return formula


def product_of_operands(peers: Sequence[str], params: Sequence[Param], formula: str, line: int) -> ShapeRule | None:
    """The matrix product of two tensors the output's row says broadcast (`peers`), where the
    formula, its symbols read as the rows name them, multiplies exactly these two; None
    otherwise."""
    if len(peers) != 2:
        return None
    inputs = tuple(q.name for q in params if q.kind == "tensor" and q.direction != "out")
    tensors = tuple(q.name for q in params if q.kind in ("tensor", "tensor_list"))
    ctx = ShapeContext(tuple(q.name for q in params), inputs, tensors=tensors)
    reading = read_matmul(_in_params(formula, params, peers), ctx)
    if reading is None or set(reading[1][:2]) != set(peers):
        return None
    return ShapeRule(kind=reading[0], params=reading[1], text=formula, line=line)


def co_named_rule(
    p: Param, params: Sequence[Param], errors: Sequence[ErrorRule], derived: Mapping[str, ShapeRule]
) -> ShapeRule | None:
    """`p` has the shape of the other output every error row about p's shape or rank names it
    with, as alternatives of one statement (`valuesOut或indicesOut的shape…`), when that output's
    shape is derived (`derived`: the outputs' rules so far) and two rows at least say so; None
    otherwise."""
    outputs = {q.name for q in params if q.direction == "out" and q.kind in ("tensor", "tensor_list")}
    rows = [e for e in errors if p.name in _named(e.condition) and _SHAPE_WORDS.search(e.condition)]
    pairs = [_paired(p.name, e.condition, outputs) for e in rows]
    if len(rows) < 2 or len(set(pairs)) != 1 or not pairs[0]:
        return None
    rule = derived.get(pairs[0])
    if rule is None or not rule.derived:
        return None
    said = next((e for e in rows if "shape" in e.condition), rows[0])  # a row of the shape before one of the rank
    return ShapeRule(kind="same", params=(pairs[0],), text=said.condition, line=said.line)


def tied_output_rule(
    p: Param, params: Sequence[Param], errors: Sequence[ErrorRule], derived: Mapping[str, ShapeRule]
) -> ShapeRule | None:
    """`p` has the shape of the one other output an unconditional error row holds it equal to
    (MoeInitRoutingQuant: `expandedRowIdxOut和expandedExpertIdxOut的shape不相等，且不等于(num_rows
    * k, )`), when that output's shape is derived; None otherwise."""
    outputs = {q.name for q in params if q.direction == "out" and q.kind in ("tensor", "tensor_list")}
    for e in errors:
        pairs = [set(c.params) for c in e.checks if c.kind == "same_shape" and p.name in c.params]
        other = next(iter(pairs[0] - {p.name}), "") if len(pairs) == 1 and len(pairs[0]) == 2 else ""
        rule = derived.get(other)
        if not e.conditional and other in outputs and rule is not None and rule.derived:
            return ShapeRule(kind="same", params=(other,), text=e.condition, line=e.line)
    return None


def _paired(name: str, condition: str, outputs: set[str]) -> str:
    """The output a condition names `name` with as an alternative (`A或name`, `name或A`), when
    it names no other output; "" otherwise."""
    alternatives = re.compile(rf"(?<![A-Za-z0-9_])(?:({_NAME})或{name}|{name}或({_NAME}))(?![A-Za-z0-9_])")
    found = {a or b for a, b in alternatives.findall(condition)} & outputs
    others = (_named(condition) & outputs) - {name}
    return found.pop() if len(found) == 1 and others == found else ""


def _named(condition: str) -> set[str]:
    return set(re.findall(rf"(?<![A-Za-z0-9_]){_NAME}(?![A-Za-z0-9_])", condition))


def dimensions_alike(p: Param, said: Sequence[Statement], params: Sequence[Param]) -> ShapeRule | None:
    """`p` has the shape of the input its statements say its shape's dimensions are alike
    (`shape维度和输入x的维度相同`), where another row of the document says `维度` of sizes
    (`前几维的维度`, `后几维的维度`: the word names no rank there); None otherwise."""
    inputs = {q.name for q in params if q.kind == "tensor" and q.direction == "in"}
    found = {m.group("x"): s for s in said for m in _DIMENSIONS_ALIKE.finditer(s.text) if m.group("x") in inputs}
    if len(found) != 1 or not any(_SIZES_SAID.search(q.text) for q in params if q.name != p.name):
        return None
    [(x, s)] = found.items()
    return ShapeRule(kind="same", params=(x,), text=s.text, line=s.line)


def elsewhere_reason(p: Param, notes: Sequence[Statement], summary: Sequence[Statement]) -> str:
    """Why `p` is not derivable, where a product's note, the constraints section (`notes`) or the
    description (`summary`) speaks of its shape; "" when none does."""
    return product_note_only(p) or unread_statement(p, notes, summary)


def unread_statement(p: Param, notes: Sequence[Statement], summary: Sequence[Statement]) -> str:
    """Why an output is not derivable whose shape the constraints section (`notes`) or the
    description (`summary`) speaks of in a form no reader takes (a statement of some products or
    cases, an example, a size only: aclnnRepeatInterleaveGrad `out的shape大小满足yGrad的axis轴
    ReduceSum后的shape大小`): the first such line; "" when none speaks of it."""
    # a table's column of the output's view or storage shape (aclnnConvertWeightToINT4Pack's
    # `weightInt4Pack view shape`, by its dtype and format) speaks of it too, and so does a
    # formula giving a list's elements dimensions (GroupedMatmul.md:12 `y_i[m_i,n_i]=x_i[m_i,k_i]…`)
    name = re.escape(p.name)
    subject = re.compile(
        rf"(?<![A-Za-z0-9_]){name}(?![A-Za-z0-9_])`?\s*(?:的|参数中，)?\s*(?:输出)?"
        rf"(?:(?:view|storage)\s*)?(?:shape|形状)|(?<![A-Za-z0-9_]){name}_i\["
    )
    for where, lines in (("the constraints section", notes), ("the description", summary)):
        if said := next((s for s in lines if subject.search(s.text)), None):
            text = said.text.strip(" -*")
            text = text[_quote_start(text, subject) :]
            if _SIZE_ONLY.search(text):
                return f"{where} states only its element count, whatever its rank (line {said.line}: {text[:60]})"
            return f"{where} speaks of its shape in a form no reader takes (line {said.line}: {text[:60]})"
    return ""


def _quote_start(text: str, subject: re.Pattern[str]) -> int:
    """Where a quote of a long line starts: at its subject when a lead-in comes before it."""
    found = subject.search(text)
    return found.start() if found and found.start() > 20 else 0


# `out的shape大小满足yGrad的axis轴ReduceSum后的shape大小` (aclnnRepeatInterleaveGrad, whose example
# goes on `out的shape可以为[32]、[2, 16]、[2, 4, 4]等，只需满足out的shape大小为32即可`): an element count
_SIZE_ONLY = re.compile(r"shape\s*(?:大小|size)\s*(?:满足|为|等于|与)")


def product_note_only(p: Param) -> str:
    """Why an output is not derivable whose shape only notes of some products state
    (aclnnDequantSwigluQuant: yOut `shape为[N...,H/2]` in the Ascend 950 notes, none for the
    Atlas A2 products it also supports): a product's note holds on that product, not on the
    function; "" when no product note speaks of its shape."""
    said = next((c for c in p.constraints if c.product and c.kind == "text" and "shape为" in c.text), None)
    if said is None:
        return ""
    return f"only a note of some products ({said.product}) states its shape (line {said.line}: {said.text[:40]})"


# aclnnGatherNd: `对于维度为**r≥1**的输入张量`self`，和维度**q≥1**的输入张量`indices``
_RANK_SYMBOL = re.compile(
    rf"维度为?\s*\**\s*(?P<sym>[A-Za-z])\s*(?:[≥>]=?\s*\d+)?\s*\**\s*的输入张量\s*`?(?P<t>{_NAME})`?"
)
# `设c=indices_shape[-1]`
_LET = re.compile(r"设\s*(?P<sym>[A-Za-z]\w*)\s*=\s*(?P<expr>[^，,。；;]+)")
# `如果indices_shape[-1] = r，则…`
_CASE = re.compile(r"如果\s*(?P<lhs>[^，,=<>]+?)\s*(?P<op>=|<|>)\s*(?P<rhs>[^，,=<>]+?)\s*[，,](?P<then>.*)")


def compared_cases_rule(p: Param, params: Sequence[Param], summary: Sequence[Statement]) -> ShapeRule | None:
    """`p`'s shape where the description gives it case by case, `如果a = b` and `如果a < b`
    (`a > b` invalid), and the equal case's list is the other's without the slice from a to b,
    which is empty when a = b: the other case's list, for both. None when the description
    gives no such pair, or a list it names with what no parameter gives."""
    names = {q.name for q in params}
    tensors = {q.name for q in params if q.kind == "tensor"}
    symbols = _described_symbols(summary, tensors, names)
    cases: dict[str, tuple[tuple[str, ...], tuple[str, str], Statement]] = {}
    for s in summary:
        m = _CASE.search(_shapes_named(s.text, tensors))
        items = _case_list(m.group("then"), p.name) if m else None
        if m is None or items is None:
            continue
        written = [_spliced(item) for item in items] + [m.group("lhs").strip(), m.group("rhs").strip()]
        if not all(_known(d, names | set(symbols)) for d in written):
            return None
        *listed, low, high = _normal(substituted(written, symbols))
        cases.setdefault(m.group("op"), (tuple(listed), (low, high), s))
    if set(cases) != {"=", "<"} or cases["="][1] != cases["<"][1]:
        return None
    general, (low, high), said = cases["<"]
    if tuple(d for d in general if not _slice_between(d, low, high)) != cases["="][0]:
        return None
    return ShapeRule(kind="explicit", dims=general, text=said.text.strip(" -*"), line=said.line)


def _shapes_named(text: str, tensors: set[str]) -> str:
    """`indices_shape[-1]` as `indices.shape[-1]`, for a tensor the function takes."""
    return re.sub(
        rf"(?<![A-Za-z0-9_])({_NAME})_shape(?=\[)",
        lambda m: f"{m.group(1)}.shape" if m.group(1) in tensors else m.group(0),
        text,
    )


def _described_symbols(summary: Sequence[Statement], tensors: set[str], names: set[str]) -> dict[str, str]:
    """The ranks the description names (`维度为**r≥1**的输入张量`self``: r is rank(self)) and
    the sizes it lets be (`设c=indices_shape[-1]`), each defined once; no parameter's name."""
    found: dict[str, set[str]] = {}
    for s in summary:
        text = _shapes_named(s.text, tensors)
        for m in _RANK_SYMBOL.finditer(text):
            if m.group("t") in tensors:
                found.setdefault(m.group("sym"), set()).add(f"rank({m.group('t')})")
        for m in _LET.finditer(text):
            found.setdefault(m.group("sym"), set()).add(m.group("expr").strip())
    return {sym: exprs.pop() for sym, exprs in found.items() if len(exprs) == 1 and sym not in names}


def _case_list(then: str, name: str) -> list[str] | None:
    """The items of the list a case gives as `name`'s shape (`即out的shape为 [a,b]`)."""
    head = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}`?的shape为\s*\[", then)
    if head is None:
        return None
    depth = 0
    for i in range(head.end() - 1, len(then)):
        depth += {"[": 1, "]": -1}.get(then[i], 0)
        if depth == 0:
            return top_level_split(then[head.end() : i])
    return None


def _spliced(item: str) -> str:
    """A slice of a shape (`self.shape[c:r]`) spliced into the list; any other item as it is."""
    return f"*{item}" if re.fullmatch(rf"{_NAME}\.shape\[[^\[\]]*:[^\[\]]*\]", item.strip()) else item.strip()


def _known(expr: str, names: set[str]) -> bool:
    """Whether `expr` parses and names only parameters and the evaluator's calls."""
    try:
        tree = ast.parse(f"[{expr}]", mode="eval")
    except SyntaxError:
        return False
    return all(n.id in names | ALLOWED_CALLS for n in ast.walk(tree) if isinstance(n, ast.Name))


def _slice_between(dim: str, low: str, high: str) -> bool:
    """Whether `dim` splices a shape's slice from `low` to `high` (`*self.shape[c:r]`)."""
    node = ast.parse(f"[{dim}]", mode="eval").body.elts[0]  # type: ignore[attr-defined]
    if not (isinstance(node, ast.Starred) and isinstance(node.value, ast.Subscript)):
        return False
    bounds = node.value.slice
    if not isinstance(bounds, ast.Slice) or bounds.lower is None or bounds.upper is None:
        return False
    return (ast.unparse(bounds.lower), ast.unparse(bounds.upper)) == (low, high)


def _normal(exprs: Sequence[str]) -> list[str]:
    return [ast.unparse(e) for e in ast.parse(f"[{', '.join(exprs)}]", mode="eval").body.elts]  # type: ignore[attr-defined]
