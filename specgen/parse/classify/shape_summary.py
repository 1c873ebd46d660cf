"""Output shapes the function description gives outside its formulas: what a gradient output
is the gradient of (shape_gradients), and shape statements, in its prose or in its code
blocks, of inputs and outputs alike (aclnnEmbeddingBag):

    假设输入weight的shape为(numWeight, embeddingDim)，indices的shape为(bagIndices)，offsets的shape为(bagOffsets)。
    output的shape为includeLastOffset ? (bagOffsets - 1, embeddingDim) : (bagOffsets, embeddingDim)
    offset2bag的shape为(bagIndices,)

An input's list of bare names binds each name to its axis (`embeddingDim`: `weight.shape[1]`);
an output's list (or a bool's choice of two lists of one length) is its shape once every name
it uses is bound. The description may give an output's shape once per mode or per product:
it is read only when every statement gives the same shape, and is not derivable otherwise.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_elsewhere import formula_symbols
from specgen.parse.classify.shape_formulas import holds_only_when
from specgen.parse.classify.shape_gradients import Said, gradient_rule
from specgen.parse.classify.shape_phrases import substituted
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
# `offsets的shape为(bagOffsets)`, `output的shape为includeLastOffset ? (…) : (…)`
_SHAPE_IS = re.compile(rf"(?<![A-Za-z0-9_])(?P<name>{_NAME})的shape为\s*(?P<expr>[^，。；;]*)")
_LIST = re.compile(r"[(（](?P<items>[^()（）]*)[)）]")
# `$input$为n*m的二维张量`, `$out$为长度为n的一维张量` (aclnnMv): the same statements in words
_TENSOR_OF = re.compile(rf"\$?(?P<name>{_NAME})\$?为(?P<dims>{_NAME}(?:\s*\*\s*{_NAME})+)的(?P<rank>[二三四五])维张量")
_VECTOR_OF = re.compile(rf"\$?(?P<name>{_NAME})\$?为长度为(?P<n>{_NAME})的一维张量")
_RANKS = {"二": 2, "三": 3, "四": 4, "五": 5}
_CHOICE = re.compile(rf"(?P<flag>{_NAME})\s*\?\s*(?P<a>\([^()]*\))\s*:\s*(?P<b>\([^()]*\))\s*$")


def summary_rule(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> ShapeRule | None:
    """`p`'s shape by the description's lines (`summary`), or None when they give none."""
    return gradient_rule(p, params, summary) or _stated_rule(p, params, summary)


def _shape_statements(params: Sequence[Param], summary: Sequence[Said]) -> list[tuple[str, str, Said]]:
    """Each (parameter, shape expression, line) the description states, in either wording;
    a symbol the formula uses for a parameter (`公式中的输入input`) stands for it."""
    aliases = formula_symbols(params)
    names = {q.name for q in params}

    def param_of(name: str) -> str:
        own = aliases.get(name, set())
        return name if name in names else next(iter(own)) if len(own) == 1 else name

    found = []
    for s in summary:
        text = _VECTOR_OF.sub(lambda m: f"{m.group('name')}的shape为({m.group('n')})", s.text)
        text = _TENSOR_OF.sub(_listed, text)
        found += [(param_of(m.group("name")), m.group("expr").strip(), s) for m in _SHAPE_IS.finditer(text)]
    return found


def _listed(m: re.Match[str]) -> str:
    dims = [d.strip() for d in m.group("dims").split("*")]
    if len(dims) != _RANKS[m.group("rank")]:
        return m.group(0)
    return f"{m.group('name')}的shape为({', '.join(dims)})"


def _stated_rule(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> ShapeRule | None:
    bools = {q.name for q in params if q.kind == "bool"}
    statements = _shape_statements(params, summary)
    bindings = _bindings(params, statements)
    readings: dict[tuple[str, ...], Said] = {}
    for name, expr, s in statements:
        if name == p.name and (dims := _dims(expr, bools)) is not None:
            readings.setdefault(dims, s)
    if not readings:
        return None
    when: tuple[str, ...] = ()
    if len(readings) > 1 and (agreed := _agreed_while_false(readings, bools)):
        readings, when = agreed
    if len(readings) > 1:
        reason = "the description gives several shapes (by mode or product): " + "; ".join(map(str, readings))
        return ShapeRule(kind="not_derivable", reason=reason, line=next(iter(readings.values())).line)
    ((dims, said),) = readings.items()
    names = {n.id for d in dims for n in ast.walk(ast.parse(d, mode="eval")) if isinstance(n, ast.Name)}
    if not names <= set(bindings) | bools:
        return None
    dims = substituted(dims, bindings)
    return ShapeRule(kind="explicit", dims=dims, when=holds_only_when(when), text=said.text, line=said.line)


class _False(ast.NodeTransformer):
    """`a if flag else b` as `b`."""

    def __init__(self, flag: str) -> None:
        self.flag = flag

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return node.orelse if isinstance(node.test, ast.Name) and node.test.id == self.flag else node


def _agreed_while_false(
    readings: dict[tuple[str, ...], Said], bools: set[str]
) -> tuple[dict[tuple[str, ...], Said], tuple[str, ...]] | None:
    """The one shape every statement gives while a bool one of them chooses by is false, and
    that bool's condition (aclnnEmbeddingBag's bagSize: `includeLastOffset ? (bagOffsets - 1) :
    (bagOffsets,)` for some products, `(bagOffsets,)` for another); None when there is none."""
    flags = {
        n.id for dims in readings for d in dims for n in ast.walk(ast.parse(d, mode="eval")) if isinstance(n, ast.Name)
    }
    chosen = [f for f in sorted(flags & bools) if any(f" if {f} else " in d for dims in readings for d in dims)]
    if len(chosen) != 1:
        return None
    plain: dict[tuple[str, ...], Said] = {}
    for dims, said in readings.items():
        key = tuple(ast.unparse(_False(chosen[0]).visit(ast.parse(d, mode="eval"))) for d in dims)
        plain.setdefault(key, said)
    return (plain, (chosen[0], "", "false")) if len(plain) == 1 else None


def _bindings(params: Sequence[Param], statements: list[tuple[str, str, Said]]) -> dict[str, str]:
    """Each name an input's stated list holds, as that input's axis; a name bound two ways is
    left out."""
    inputs = {q.name for q in params if q.kind == "tensor" and q.direction == "in"}
    found: dict[str, set[str]] = {}
    for name, expr, _ in statements:
        lists = _LIST.match(expr)
        if name not in inputs or lists is None:
            continue
        items = _items(lists.group("items"))
        if items and all(re.fullmatch(_NAME, i) for i in items):
            for axis, item in enumerate(items):
                found.setdefault(item, set()).add(f"{name}.shape[{axis}]")
    return {name: where.pop() for name, where in found.items() if len(where) == 1}


def _dims(expr: str, bools: set[str]) -> tuple[str, ...] | None:
    """`(bagIndices,)`, `bagOffsets` or `flag ? (a, b) : (c, d)` as dims (`a if flag else c`);
    None when it is none of these or its items are no expressions."""
    if m := _CHOICE.match(expr):
        when, otherwise = _items(m.group("a")[1:-1]), _items(m.group("b")[1:-1])
        if m.group("flag") not in bools or len(when) != len(otherwise):
            return None
        dims = [a if a == b else f"{a} if {m.group('flag')} else {b}" for a, b in zip(when, otherwise, strict=True)]
    elif (whole := _LIST.fullmatch(expr)) is not None:
        dims = _items(whole.group("items"))
    elif re.fullmatch(_NAME, expr):
        dims = [expr]
    else:
        return None
    try:
        return tuple(ast.unparse(ast.parse(d, mode="eval")) for d in dims) if dims else None
    except SyntaxError:
        return None


def _items(text: str) -> list[str]:
    return [i.strip() for i in text.split(",") if i.strip()]
