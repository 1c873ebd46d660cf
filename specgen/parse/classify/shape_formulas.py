"""Output sizes the document gives by a LaTeX formula of the input's spatial sizes
(pooling, convolution):

    D_{out}=\\lfloor \\frac{D_{in}+2*padding[0]-kernelSize[0]}{stride[0]}+1 \\rfloor
    [N, C, H_{out}, W_{out}]=[N,C,\\lfloor{\\frac{H_{in}+2 \\times {padding[0] - …}}{stride[0]}}\\rfloor + 1, …]

The output keeps the input's leading dimensions and takes one computed size for each
`X_{out}` the formula defines, `X_{in}` being the input's matching dimension counted from the
end (inputs of these operators may come with or without the batch axis). A formula is read
only when every name it uses is an integer parameter, an element of an integer array or an
`X_{in}`; when it gives one size two ways it is not read (but see the pairs below). A bool whose own
row says it changes the output's shape or rounding (`ceilMode`: "推导的输出out的shape是否向上取整")
holds the formula to its false value (`ShapeRule.when`): the documents give the true case
only as a correction ("则H_{out}的shape需减1").

Families read beside that: a convolution's formula, written for 3 axes from the input's `D`
and the kernel's `K_d` (`[(D + 2 \\times padding[0] - …) / stride[0]] + 1`, `[…]` the integer
part), is read once per axis for as many axes as the call's input has (`*[… for i in
range(rank(input) - 2)]`, unsettled when an array has not one element per axis); a floor and a
ceil formula, or a plain and a transposed one, are read when a bool's row names the choice,
the floor, the plain one, holding while it is false; and the symbols a formula defines
(`outH = (inH + padding[0] + padding[1] - …) // stride[2] + 1`) take their expression in an
output's list (`shape为[N, outC, outH, outW]`). A second output with an equation of its own,
its sizes subscripted by its name (aclnnMaxPool2dWithMask's `[N, C, H_{indices}, W_{indices}] =
[N, C, k_h \\times k_w, …H_{out}…]`), is read as the out is, over the out's sizes; formulas that
cannot be read say which names no parameter gives (apart from those an array's row names only as
a whole: aclnnMaxPool's pads `对应公式中的padding_size`, for `padding_size_{Htop}`…), or that they
are written in what the model does not read (C's `?:`). A matrix product written with
`\\times` (`Y = X \\times W_{high} + …`) is read as a matmul of the two 2-d inputs the rows
name, where the description says the function is a matrix product and the formula writes no `@`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_elsewhere import formula_symbols
from specgen.parse.classify.shape_phrases import ALLOWED_CALLS, substituted

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


def _gauss_brackets(text: str) -> str:
    """`[(H + 2 * padding[1] - …) / stride[1]] + 1` (aclnnConvolution): a bracket that follows
    no name is the integer part, `floor(…)`; `padding[1]` stays a subscript."""
    out, closing = [], []
    for i, ch in enumerate(text):
        if ch == "[":
            subscript = bool(re.search(r"[A-Za-z0-9_\])]\s*$", text[:i]))
            closing.append("]" if subscript else ")")
            out.append("[" if subscript else "floor(")
        elif ch == "]" and closing:
            out.append(closing.pop())
        else:
            out.append(ch)
    return "".join(out)


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
    text = re.sub(r"(?<=\w)_\{(\w+)\}", r"_\1", text.replace("\\_", "_"))  # `padding\_size_{Htop}`
    text = _gauss_brackets(text)
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
    for name, value in _size_equations(formula):
        if (expr := latex_expression(value)) is not None:
            found.setdefault(name, set()).add(expr)
    return found


def _unreadable(formula: str, line: int) -> ShapeRule | None:
    """Why the `X_out` the formula defines are not read, when it writes them only in what is no
    expression the model reads (aclnnMaxPoolV3: `(ceil\\_mode\\; ?\\; sH - 1 : 0)`, C's
    conditional); None when it defines none."""
    names = sorted({name for name, _ in _size_equations(formula)})
    if not names:
        return None
    verb = "are" if len(names) > 1 else "is"
    return _unread(f"{', '.join(names)} {verb} written in what the model does not read", line)


def _size_equations(formula: str) -> list[tuple[str, str]]:
    """Each `X_out` the formula defines, with the LaTeX of each value it gives it."""
    pairs: list[tuple[str, str]] = []
    for block in re.split(r"\n\s*\n|\\\\\s*\n(?=\s*[A-Z]_)", formula):
        flat = _SIZE.sub(r"\1_\2", _TEXT.sub(r"\1", " ".join(block.split())))
        m = _EQUATION.match(flat.strip())
        if m is None:
            continue
        lhs, rhs = m.group("lhs"), m.group("rhs").strip()
        if not lhs.startswith("["):
            pairs.append((lhs, rhs))
        elif rhs.startswith("[") and rhs.endswith("]"):
            names, values = _list_items(lhs[1:-1]), _list_items(rhs[1:-1])
            if len(names) == len(values):
                pairs += [(n.strip(), v) for n, v in zip(names, values, strict=True)]
    return [(name, value) for name, value in pairs if re.fullmatch(r"[A-Z]_out", name)]


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


def _unknown(tree: ast.AST, params: Sequence[Param], sizes: set[str]) -> str:
    """The names a formula uses that no integer parameter, array or input size gives."""
    known = {p.name for p in params if p.kind in ("int", "int_array")} | sizes | set(ALLOWED_CALLS)
    return ", ".join(sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in known}))


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
        return _own_formula(p, params, formula, line)
    equations = _equations(formula)
    if not equations:
        return _unreadable(formula, line)
    source = _formula_input(params)
    if source is None:
        return _unread("the formula's input is not one tensor the document names", line)
    chosen = _one_way(equations, params)
    if isinstance(chosen, str):
        return _unread(_unnamed(equations, params) or chosen, line)
    sizes, when = chosen
    dims = _fixed_rank(sizes, params, source)
    if isinstance(dims, str):
        per_axis = _per_axis(sizes, p, params, source, formula)
        if not isinstance(per_axis, list):
            return _unread(per_axis or dims, line)
        dims, transposing = per_axis, _bools(params, _TRANSPOSED)
        when = when or ((transposing[0], "", "false") if len(transposing) == 1 else ())  # the plain convolution's
    return _held(dims, sizes, when, params, line)


def _held(
    dims: Sequence[str], sizes: dict[str, str], when: tuple[str, ...], params: Sequence[Param], line: int
) -> ShapeRule:
    """The rule, held to the bool case the formula holds for (or the one bool whose row says it
    changes the output's shape: `ceilMode`, its false case)."""
    if not when:
        bools = _bools(params, _SHAPES_OUTPUT)
        if len(bools) > 1:
            return _unread(f"the output's size depends on {', '.join(bools)}", line)
        when = (bools[0], "", "false") if bools else ()
    text = "; ".join(f"{name} = {expr}" for name, expr in sizes.items())
    return ShapeRule(kind="explicit", dims=tuple(dims), when=holds_only_when(when), text=text, line=line)


def _own_formula(p: Param, params: Sequence[Param], formula: str, line: int) -> ShapeRule | None:
    """An output other than the formula's `out` with an equation of its own, its sizes
    subscripted by its name (aclnnMaxPool2dWithMask's indices: `[N, C, H_{indices},
    W_{indices}]=[N,C,k_h \\times k_w, (\\lceil{\\frac{H_{out} \\times W_{out}}{16}}\\rceil+1)
    \\times 2 \\times 16]`): the input's leading dimensions (the items both sides share), then
    its sizes, `X_out` being the out's sizes by the formula, held to the same bool case; None
    when the formula gives the output no equation."""
    own = _own_sizes(formula, p.name)
    source = _formula_input(params)
    if own is None or source is None:
        return None
    out_sizes = _one_way(_equations(formula), params)
    if isinstance(out_sizes, str):
        return _unread(f"{p.name}'s sizes follow the out's, and {out_sizes}", line)
    sizes = {name: substituted([expr], out_sizes[0])[0] for name, expr in own.items()}
    dims = _fixed_rank(sizes, params, source)
    return _unread(dims, line) if isinstance(dims, str) else _held(dims, sizes, out_sizes[1], params, line)


def _own_sizes(formula: str, name: str) -> dict[str, str] | None:
    """The sizes an equation `[N, C, H_{name}, W_{name}] = [N, C, …, …]` gives, by `X_name`,
    when its sizes come last and the items before them are the same on both sides."""
    own = re.compile(rf"(?P<x>[A-Z])_\{{?{re.escape(name)}\}}?")
    for block in re.split(r"\n\s*\n|\\\\\s*\n", formula):
        m = _EQUATION.match(_TEXT.sub(r"\1", " ".join(block.split())).strip())
        rhs = m.group("rhs").strip() if m else ""
        if m is None or not m.group("lhs").startswith("[") or not own.search(m.group("lhs")):
            continue
        if not (rhs.startswith("[") and rhs.endswith("]")):
            return None
        names = [item.strip() for item in _list_items(m.group("lhs")[1:-1])]
        values = [item.strip() for item in _list_items(rhs[1:-1])]
        mine = [i for i, item in enumerate(names) if own.fullmatch(item)]
        if len(names) != len(values) or not mine or mine != list(range(mine[0], len(names))):
            return None
        if names[: mine[0]] != values[: mine[0]]:
            return None
        exprs = {f"{names[i][0]}_{name}": latex_expression(values[i]) for i in mine}
        return {k: v for k, v in exprs.items() if v} if all(exprs.values()) else None
    return None


def holds_only_when(when: tuple[str, ...]) -> tuple[str, ...]:
    """A bool's case as a condition the shape holds in only (allocation too: a transposed
    convolution is no plain one of another size): ("transposed", "bool", "false", "true")."""
    return (when[0], "bool", when[2], "true") if len(when) == 3 and when[1] == "" else when


def _fixed_rank(sizes: dict[str, str], params: Sequence[Param], source: str) -> list[str] | str:
    """The dims when the formula names only parameters, `X_in` and the elements an array's row
    names (`kH`): the input's leading dimensions, then one size for each `X_out`, `X_in`
    counted from the end; or why not."""
    k = len(sizes)
    axes = {f"{name[0]}_in": f"{source}.shape[{i - k}]" for i, name in enumerate(sizes)}
    axes = {**element_symbols(params), **axes}
    dims = [f"*{source}.shape[:{-k}]"]
    for name, expr in sizes.items():
        tree = ast.parse(expr, mode="eval")
        if not _names_allowed(tree, params, set(axes)):
            return f"{name} names {_unknown(tree, params, set(axes)) or 'what'}, which no parameter gives"
        dims.append(substituted([expr], axes)[0])
    return dims


# An integer array's row names its elements by length: `长度为1(kH=kW)或2(kH, kW)`
# (aclnnAvgPool2d's kernelSize): one element for both, or one each
_ELEMENTS = re.compile(r"(?P<n>[1-9])\s*[(（]\s*(?P<names>[A-Za-z]\w*(?:\s*[,，、]\s*[A-Za-z]\w*)+)\s*[)）]")
_ALL_EQUAL = re.compile(r"1\s*[(（]\s*(?P<names>[A-Za-z]\w*(?:\s*=\s*[A-Za-z]\w*)+)\s*[)）]")


def element_symbols(params: Sequence[Param]) -> dict[str, str]:
    """The symbols integer arrays' rows name their elements by, each as the element
    (`kH`: `kernelSize[0]`). When the row also allows one element for all
    (`长度为1(kH=kW)`), the last symbol of two is the array's last element, which is the
    first when there is one: `kW`: `kernelSize[len(kernelSize) - 1]`. A symbol two rows
    name, or a row naming three with one element for all, gives none."""
    found: dict[str, set[str]] = {}
    for q in params:
        if q.kind != "int_array":
            continue
        row = q.description + q.text
        for m in _ELEMENTS.finditer(row):
            names = re.split(r"\s*[,，、]\s*", m.group("names").strip())
            if len(names) != int(m.group("n")):
                continue
            shared = [e for e in _ALL_EQUAL.finditer(row) if re.split(r"\s*=\s*", e.group("names")) == names]
            if shared and len(names) != 2:
                continue
            for i, name in enumerate(names):
                last = shared and i == len(names) - 1
                found.setdefault(name, set()).add(f"{q.name}[len({q.name}) - 1]" if last else f"{q.name}[{i}]")
    taken = {q.name for q in params}
    return {name: exprs.pop() for name, exprs in found.items() if len(exprs) == 1 and name not in taken}


def _one_way(equations: dict[str, set[str]], params: Sequence[Param]) -> tuple[dict[str, str], tuple[str, ...]] | str:
    """One expression for each size, with the bool value it holds for; or why there is none.
    Two formulas for each size are read when a bool's row names the choice: a floor and a
    ceil (aclnnMaxPool3dWithArgmax, `ceilMode`: `计算输出形状时取整的方法`), or a convolution
    and its transposed form, the one naming the array of the transposed case
    (aclnnConvolution: `transposed` "是否为转置卷积", `outputPadding` "转置卷积情况下…"). The
    floor, the plain convolution, holds while the bool is false."""
    if all(len(exprs) == 1 for exprs in equations.values()):
        return {name: next(iter(exprs)) for name, exprs in equations.items()}, ()
    if any(len(exprs) != 2 for exprs in equations.values()):
        return "the formula gives an output size two ways"
    rounding = _bools(params, _SHAPES_OUTPUT)
    transposing = _bools(params, _TRANSPOSED)
    transposed_arrays = [q.name for q in params if q.kind == "int_array" and _TRANSPOSED.search(q.description)]
    chosen: dict[str, str] = {}
    flags = set()
    for name, exprs in equations.items():
        floor = [e for e in exprs if "ceil(" not in e and e.replace("floor(", "ceil(") in exprs]
        plain = [e for e in exprs if not any(_names(e, a) for a in transposed_arrays)]
        if len(floor) == 1 and len(rounding) == 1:
            chosen[name], flag = floor[0], rounding[0]
        elif len(plain) == 1 and len(transposing) == 1:
            chosen[name], flag = plain[0], transposing[0]
        else:
            return "the formula gives an output size two ways"
        flags.add(flag)
    if len(flags) != 1:
        return "the formula gives an output size two ways"
    return chosen, (flags.pop(), "", "false")


_TRANSPOSED = re.compile(r"转置")


def _bools(params: Sequence[Param], said: re.Pattern[str]) -> list[str]:
    return [q.name for q in params if q.kind == "bool" and said.search(q.description)]


def _names(expr: str, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(ast.parse(expr, mode="eval")))


# The output's row names its channel count: `通道数等于weight第一维`, `通道数等于weight原shape第一维`
_CHANNELS = re.compile(r"通道数等于(?P<t>[A-Za-z_][A-Za-z0-9_]*?)(?:原shape)?的?第一维")
# The formula's own layout of the output: `\text{output}(N_i, C_{\text{out}_j}, D_{out}, …)`
_CALL_ARGS = re.compile(r"\(([^()]*)\)")
_SIZE_SLOT, _KERNEL_SLOT, _AXIS = "_size", "_kernel", "i"


def _per_axis(
    sizes: dict[str, str], p: Param, params: Sequence[Param], source: str, formula: str
) -> list[str] | str | None:
    """A convolution's sizes (aclnnConvolution, 1D to 3D): the formula gives each `X_out` alike
    from the input's axis `X`, the kernel's `K_x` and element i of each array (D, H, W: 0, 1,
    2), after the output's batch and channels. Read for as many axes as the input has after
    those two: `*[floor((input.shape[i + 2] + 2 * padding[i] - …) / stride[i]) + 1 for i in
    range(rank(input) - 2)]`. The batch is the input's first axis, the channels what the
    output's row says (`通道数等于weight第一维`); None when the formula is not of this form,
    why not when it is but the document does not say what it needs."""
    templates = {_axis_template(expr, name[0], i, params) for i, (name, expr) in enumerate(sizes.items())}
    if len(templates) != 1 or None in templates:
        return None
    channels = _CHANNELS.search(p.description + p.text)
    tensors = {q.name for q in params if q.kind == "tensor" and q.direction == "in"}
    kernel = _kernel(params)
    if channels is None or channels.group("t") not in tensors:
        return "a convolution's output channels are not stated (`通道数等于weight第一维`)"
    if kernel is None or _lead(sizes, formula) != 2:
        return "a convolution's kernel or the output's layout (N, C, then the sizes) is not stated"
    slots = {_SIZE_SLOT: f"{source}.shape[i + 2]", _KERNEL_SLOT: f"{kernel}.shape[i + 2]"}
    [element] = substituted([templates.pop() or ""], slots)
    each = f"*[{element} for {_AXIS} in range(rank({source}) - 2)]"
    return [f"{source}.shape[0]", f"{channels.group('t')}.shape[0]", each]


def _kernel(params: Sequence[Param]) -> str | None:
    """The convolution's kernel: the input tensor the formula calls weight."""
    named = [
        q.name
        for q in params
        if q.kind == "tensor" and q.direction == "in" and (q.name == "weight" or "公式中的weight" in q.description)
    ]
    return named[0] if len(set(named)) == 1 else None


def _lead(sizes: dict[str, str], formula: str) -> int | None:
    """How many axes come before the sizes in the formula's layout of the output."""
    flat = _SIZE.sub(r"\1_\2", _TEXT.sub(r"\1", formula))
    for m in _CALL_ARGS.finditer(flat):
        items = [item.strip() for item in m.group(1).split(",")]
        if [item for item in items if item in sizes] == list(sizes):
            return items.index(next(iter(sizes)))
    return None


class _Axis(ast.NodeTransformer):
    """One size's formula with its axis taken out: `X` (or `X_in`), `K_x` and `array[n]`
    become slots and `array[i]`."""

    def __init__(self, letter: str, position: int, arrays: set[str]) -> None:
        self.letter, self.position, self.arrays = letter, position, arrays

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in (self.letter, f"{self.letter}_in"):
            return ast.Name(_SIZE_SLOT, ast.Load())
        if node.id.lower() == f"k_{self.letter.lower()}":
            return ast.Name(_KERNEL_SLOT, ast.Load())
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        array = isinstance(node.value, ast.Name) and node.value.id in self.arrays
        if array and isinstance(node.slice, ast.Constant) and node.slice.value == self.position:
            node.slice = ast.Name(_AXIS, ast.Load())
        return node


def _axis_template(expr: str, letter: str, position: int, params: Sequence[Param]) -> str | None:
    """The size's formula as the same formula of every axis, or None when it names anything
    but integers, the arrays (by this axis) and the axis's own sizes."""
    ints = {q.name for q in params if q.kind == "int"}
    arrays = {q.name for q in params if q.kind == "int_array"}
    tree = _Axis(letter, position, arrays).visit(ast.parse(expr, mode="eval"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            indexed = isinstance(node.value, ast.Name) and node.value.id in arrays
            if not (indexed and isinstance(node.slice, ast.Name) and node.slice.id == _AXIS):
                return None
        elif isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in ALLOWED_CALLS):
                return None
        elif isinstance(node, ast.Name) and node.id not in ints | arrays | set(ALLOWED_CALLS) | {
            _SIZE_SLOT,
            _KERNEL_SLOT,
            _AXIS,
        }:
            return None
    return ast.unparse(tree)


_DEFINITION = re.compile(r"(?P<sym>[A-Za-z][A-Za-z0-9_]*)\s*=\s*(?P<rhs>[^=]+)")


def formula_definitions(formula: str, names: Sequence[str]) -> dict[str, str]:
    """The symbols the formula defines each by one equation of its own block, as the
    evaluator's expressions: aclnnDeformableConv2d's `outH = (inH + padding[0] + padding[1] -
    ((K_H - 1) * dilation[2] + 1)) // stride[2] + 1`. A parameter's name, a symbol defined two
    ways or an equation that is no expression (`(x,y) = …`) is left out."""
    found: dict[str, set[str]] = {}
    for block in re.split(r"\n\s*\n|\\\\\s*\n", formula):
        m = _DEFINITION.fullmatch(" ".join(block.split()))
        if m is None or m.group("sym") in names:
            continue
        if (expr := latex_expression(m.group("rhs"))) is not None:
            found.setdefault(m.group("sym"), set()).add(expr)
    return {sym: exprs.pop() for sym, exprs in found.items() if len(exprs) == 1}


def defined_by_formula(dims: tuple[str, ...], formula: str, names: Sequence[str]) -> tuple[str, ...]:
    """The dims with each symbol the formula defines replaced by its expression
    (`[N, outC, outH, outW]`: outH and outW by aclnnDeformableConv2d's formula)."""
    return substituted(dims, formula_definitions(formula, names))


def _unnamed(equations: dict[str, set[str]], params: Sequence[Param]) -> str:
    """Why formulas that give a size two ways could not be read either way: the names they use
    that no parameter gives (aclnnMaxPool: `k_h`, `s_h`), and those an array's row names only
    as a whole (`padding_size_Htop`: pads); "" when none."""
    letters = [name[0] for name in equations]  # a convolution's `H` and `K_h` are its axis's sizes
    sizes = {*(f"{x}_in" for x in letters), *letters, *(f"K_{x.lower()}" for x in letters), *element_symbols(params)}
    unknown: set[str] = set()
    for expr in (e for exprs in equations.values() for e in exprs):
        found = _unknown(ast.parse(expr, mode="eval"), params, sizes).split(", ")
        unknown.update(n for n in found if n)
    wholes = _named_whole(unknown, params)
    unbound = sorted(unknown - {n for names in wholes.values() for n in names})
    parts = [f"{', '.join(unbound)}, which no parameter gives"] if unbound else []
    for (symbol, owner), names in sorted(wholes.items()):
        parts.append(f"{', '.join(sorted(names))}, which the row of {owner} names only as a whole ({symbol})")
    return f"the formulas name {'; '.join(parts)}" if parts else ""


def _named_whole(unknown: set[str], params: Sequence[Param]) -> dict[tuple[str, str], set[str]]:
    """The unknown names an integer array's row names as a whole (aclnnMaxPool's pads:
    `对应公式中的padding_size`, for `padding_size_Htop` and three more), by (symbol, array)."""
    found: dict[tuple[str, str], set[str]] = {}
    for symbol, owners in formula_symbols(params, ("int_array",)).items():
        named = {n for n in unknown if n == symbol or n.startswith(f"{symbol}_")}
        if named and len(owners) == 1:
            found[(symbol, next(iter(owners)))] = named
    return found


def _unread(reason: str, line: int) -> ShapeRule:
    return ShapeRule(kind="not_derivable", reason=f"a size formula: {reason}", line=line)


# A row's formula symbol: `表示激活矩阵，对应公式中的$X$`, `对应公式中的$W_{high}$`
_FORMULA_SYMBOL = re.compile(r"对应公式中的\s*\$\s*(?P<sym>[^$]+?)\s*\$")
_OPERAND = r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?"
_TIMES = re.compile(
    r"(?<![A-Za-z0-9_{}])(?P<a>" + _OPERAND + r")\s*\\times\s*(?P<b>" + _OPERAND + r")(?![A-Za-z0-9_{])"
)
_MATRIX_PRODUCT = re.compile(r"矩阵乘")


def product_rule(
    p: Param, params: Sequence[Param], formula: str, summary: Sequence[str], line: int
) -> ShapeRule | None:
    """The output of a matrix product the formula writes with `\\times` (aclnnMatmulEmuSplitWeight:
    `Y = X \\times W_{high} + scale \\times (X \\times W_{low})`, the description `…GEMM…矩阵乘法`):
    the rows name the output `$Y$` and the operands `$X$`, `$W_{high}$`, both 2-d inputs, and
    every product of two tensors is of X by W_high or by a tensor its row ties to W_high's shape
    (wLow: `shape必须与wHigh完全一致`). Read only where the description says the function is a
    matrix product and the formula writes no `@` (whose documents write scalings with `\\times`)."""
    symbols = {_symbol(m.group("sym")): q for q in params if (m := _FORMULA_SYMBOL.search(q.description))}
    own = [s for s, q in symbols.items() if q.name == p.name]
    if len(own) != 1 or "@" in formula or not any(_MATRIX_PRODUCT.search(s) for s in summary):
        return None
    defined = re.search(rf"(?:^|\n)\s*{re.escape(own[0])}\s*=(?P<rhs>[^=]+)$", _flat_symbols(formula), re.M)
    operands = _matrix_product(defined.group("rhs"), symbols) if defined else None
    if defined is None or operands is None:
        return None
    return ShapeRule(kind="matmul", params=operands, text=defined.group(0).strip(), line=line)


def _matrix_product(rhs: str, symbols: dict[str, Param]) -> tuple[str, str] | None:
    """The two operands of the products of tensors `rhs` writes with `\\times`: one left operand,
    and one right operand the others are tied to by shape; None when a product is of tensors
    that are not both 2-d inputs, or there are none."""
    pairs = {(_symbol(m.group("a")), _symbol(m.group("b"))) for m in _TIMES.finditer(rhs)}
    matrices = {s: q for s, q in symbols.items() if q.kind == "tensor" and q.direction == "in" and _two_d(q)}
    tensors = {s for s, q in symbols.items() if q.kind == "tensor"}
    if any(a in tensors and b in tensors and not {a, b} <= set(matrices) for a, b in pairs):
        return None
    products = [(matrices[a].name, matrices[b]) for a, b in pairs if a in matrices and b in matrices]
    lefts, rights = {a for a, _ in products}, {b.name: b for _, b in products}
    tied = [n for n in rights if all(m == n or _same_shape(q, rights[n]) for m, q in rights.items())]
    return (lefts.pop(), tied[0]) if len(lefts) == 1 and len(tied) == 1 else None


def _symbol(latex: str) -> str:
    return re.sub(r"[{}\s]", "", latex)


def _flat_symbols(formula: str) -> str:
    return "\n".join(" ".join(block.split()) for block in re.split(r"\n\s*\n", formula))


def _two_d(q: Param) -> bool:
    return q.rank is not None and q.rank.min == q.rank.max == 2


def _same_shape(q: Param, other: Param) -> bool:
    """Whether q's row ties its shape to the other's (`shape必须与wHigh完全一致`)."""
    return any(other.name in c.params for c in q.of_kind("same_shape"))
