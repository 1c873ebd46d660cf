"""Output sizes the document gives by a LaTeX formula of the input's spatial sizes
(pooling, convolution):

    D_{out}=\\lfloor \\frac{D_{in}+2*padding[0]-kernelSize[0]}{stride[0]}+1 \\rfloor
    [N, C, H_{out}, W_{out}]=[N,C,\\lfloor{\\frac{H_{in}+2 \\times {padding[0] - …}}{stride[0]}}\\rfloor + 1, …]

The output keeps the input's leading dimensions and takes one computed size for each
`X_{out}` the formula defines, `X_{in}` being the input's matching dimension counted from the
end (inputs of these operators may come with or without the batch axis). A formula is read
only when every name it uses is an integer parameter, an element of an integer array or an
`X_{in}`; when it gives one size two ways (floor and ceil) it is not read. A bool whose own
row says it changes the output's shape or rounding (`ceilMode`: "推导的输出out的shape是否向上取整")
holds the formula to its false value (`ShapeRule.when`): the documents give the true case
only as a correction ("则H_{out}的shape需减1").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_phrases import ALLOWED_CALLS

_SIZE = re.compile(r"\b([A-Z])_\{?(in|out)\}?")
_TEXT = re.compile(r"\\(?:text|mathrm)\s*\{\s*([^{}]*)\}")
_ROUNDING = {"\\lfloor": "floor(", "\\rfloor": ")", "\\lceil": "ceil(", "\\rceil": ")"}
_EQUATION = re.compile(r"(?P<lhs>\[[^=\[\]]*\]|[A-Z]_out)\s*=\s*(?P<rhs>.+)")
# Its own row says a bool changes the output's shape: `推导的输出out的shape是否向上取整`,
# `计算输出形状时取整的方法`
_SHAPES_OUTPUT = re.compile(r"shape|形状|取整")
_DERIVED_HERE = re.compile(r"由上述公式推导|公式中的out")


def _braced(text: str, start: int) -> int:
    """The index just past the group opened by the `{` at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    raise ValueError("unbalanced braces")


def _fractions(text: str) -> str:
    """`\\frac{a}{b}` as `((a)/(b))`, innermost first."""
    while (at := text.rfind("\\frac")) >= 0:
        first = text.index("{", at)
        first_end = _braced(text, first)
        second_end = _braced(text, first_end)
        numerator, denominator = text[first + 1 : first_end - 1], text[first_end + 1 : second_end - 1]
        text = f"{text[:at]}(({numerator})/({denominator})){text[second_end:]}"
    return text


def latex_expression(latex: str) -> str | None:
    """A LaTeX size formula as the evaluator's expression (`H_in` for `H_{in}`), or None when
    it is not one. Braces only group for the typesetter: `2 \\times {padding[0] - 1}` is
    `2 * padding[0] - 1`."""
    text = _TEXT.sub(r"\1", latex)
    text = re.sub(r"\\left|\\right|\\[;,!]|\\\\", " ", text)
    for word, replacement in _ROUNDING.items():
        text = text.replace(word, replacement)
    text = re.sub(r"\\times|\\cdot", "*", text)
    text = _SIZE.sub(r"\1_\2", text)
    try:
        text = _fractions(text)
    except ValueError:
        return None
    text = text.replace("{", " ").replace("}", " ")
    if "\\" in text:
        return None
    try:
        return ast.unparse(ast.parse(text.strip(), mode="eval"))
    except SyntaxError:
        return None


def _list_items(text: str) -> list[str]:
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    return [*items, text[start:]]


def _equations(formula: str) -> dict[str, set[str]]:
    """Each `X_out` the formula defines, with every expression it gives it."""
    found: dict[str, set[str]] = {}
    for block in re.split(r"\n\s*\n|\\\\\s*\n(?=\s*[A-Z]_)", formula):
        flat = _SIZE.sub(r"\1_\2", " ".join(block.split()))
        m = _EQUATION.match(flat.strip())
        if m is None:
            continue
        lhs, rhs = m.group("lhs"), m.group("rhs").strip()
        if lhs.startswith("["):
            if not (rhs.startswith("[") and rhs.endswith("]")):
                continue
            names, values = _list_items(lhs[1:-1]), _list_items(rhs[1:-1])
            pairs = list(zip(names, values, strict=False)) if len(names) == len(values) else []
        else:
            pairs = [(lhs, rhs)]
        for name, value in pairs:
            name = name.strip()
            if re.fullmatch(r"[A-Z]_out", name) and (expr := latex_expression(value)) is not None:
                found.setdefault(name, set()).add(expr)
    return found


def _names_allowed(tree: ast.AST, params: Sequence[Param], sizes: set[str]) -> bool:
    ints = {p.name for p in params if p.kind == "int"}
    arrays = {p.name for p in params if p.kind == "int_array"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            if not (isinstance(node.value, ast.Name) and node.value.id in arrays):
                return False
            if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)):
                return False
        elif isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in ALLOWED_CALLS):
                return False
        elif isinstance(node, ast.Name) and node.id not in ints | arrays | sizes | set(ALLOWED_CALLS):
            return False
    return True


class _Sizes(ast.NodeTransformer):
    """`H_in` as the input's dimension counted from the end."""

    def __init__(self, axes: dict[str, str]) -> None:
        self.axes = axes

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.parse(self.axes[node.id], mode="eval").body if node.id in self.axes else node


def _formula_input(params: Sequence[Param]) -> str | None:
    """The input the formula calls `input`: the one tensor input, or the one whose row says so."""
    tensors = [p for p in params if p.kind == "tensor" and p.direction == "in"]
    named = [p for p in tensors if "公式中的input" in p.description + p.text]
    chosen = named if len(named) == 1 else tensors if len(tensors) == 1 else []
    return chosen[0].name if chosen else None


def _speaks_of(p: Param, params: Sequence[Param]) -> bool:
    """Whether the formula's `out` is `p`: its row says so, or it is the only output tensor."""
    outputs = [q for q in params if q.direction == "out" and q.kind in ("tensor", "tensor_list")]
    return outputs == [p] or bool(_DERIVED_HERE.search(p.description + p.text)) and p.name.lower().startswith("out")


def formula_rule(p: Param, params: Sequence[Param], formula: str, line: int) -> ShapeRule | None:
    """The output's shape by the document's size formula, or None when the formula gives none
    for it (a ShapeRule not_derivable when it gives one that cannot be read)."""
    if not _speaks_of(p, params):
        return None
    equations = _equations(formula)
    if not equations:
        return None
    source = _formula_input(params)
    if source is None:
        return _unread("the formula's input is not one tensor the document names", line)
    if any(len(exprs) > 1 for exprs in equations.values()):
        return _unread("the formula gives an output size two ways", line)
    order = list(equations)  # the formula's order: D, H, W
    k = len(order)
    axes = {f"{name[0]}_in": f"{source}.shape[{i - k}]" for i, name in enumerate(order)}
    dims = [f"*{source}.shape[:{-k}]"]
    for name in order:
        tree = ast.parse(next(iter(equations[name])), mode="eval")
        if not _names_allowed(tree, params, set(axes)):
            return _unread(f"{name} names what no parameter gives", line)
        dims.append(ast.unparse(_Sizes(axes).visit(tree)))
    bools = [q.name for q in params if q.kind == "bool" and _SHAPES_OUTPUT.search(q.description)]
    if len(bools) > 1:
        return _unread(f"the output's size depends on {', '.join(bools)}", line)
    when = (bools[0], "", "false") if bools else ()
    text = "; ".join(f"{name} = {next(iter(equations[name]))}" for name in order)
    return ShapeRule(kind="explicit", dims=tuple(dims), when=when, text=text, line=line)


def _unread(reason: str, line: int) -> ShapeRule:
    return ShapeRule(kind="not_derivable", reason=f"a size formula: {reason}", line=line)
