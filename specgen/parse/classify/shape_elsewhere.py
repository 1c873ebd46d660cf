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
  so yOut's `shape维度和输入x的维度相同` is x's shape (its sample: yOut (3, 1, 4)).

Where another part speaks of the shape in a form no reader takes (`elsewhere_reason`), the output
stays not derivable and its reason names that line: a note of some products only (a product's
note holds on that product, not on the function), or a line of the constraints section or of the
description (cases, a worked example, a size only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from specgen.model import ErrorRule, Param, ShapeRule
from specgen.parse.classify.shape_gradients import Said as Statement
from specgen.parse.classify.shape_phrases import ShapeContext, read_matmul
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
    subject = re.compile(
        rf"(?<![A-Za-z0-9_]){re.escape(p.name)}(?![A-Za-z0-9_])`?\s*(?:的|参数中，)?\s*(?:输出)?(?:shape|形状)"
    )
    for where, lines in (("the constraints section", notes), ("the description", summary)):
        if said := next((s for s in lines if subject.search(s.text)), None):
            text = said.text.strip(" -*")
            return f"{where} speaks of its shape in a form no reader takes (line {said.line}: {text[:60]})"
    return ""


def product_note_only(p: Param) -> str:
    """Why an output is not derivable whose shape only notes of some products state
    (aclnnDequantSwigluQuant: yOut `shape为[N...,H/2]` in the Ascend 950 notes, none for the
    Atlas A2 products it also supports): a product's note holds on that product, not on the
    function; "" when no product note speaks of its shape."""
    said = next((c for c in p.constraints if c.product and c.kind == "text" and "shape为" in c.text), None)
    if said is None:
        return ""
    return f"only a note of some products ({said.product}) states its shape (line {said.line}: {said.text[:40]})"
