"""The shape and dtype of what a function writes: one `ShapeRule` and one `DtypeRule` for each
output and in-out tensor, read from the parameters' statements, their relations and the error
conditions.

The readers form a table (`SHAPE_PHRASES`) of phrase -> rule records, each with the real
phrases it must read; `output_rules` applies them in order of certainty: a relation the
document states on the parameter (`shape与self相同`, `self与other broadcast后的shape`), an
explicit list (`{self.shape[0], vec2.shape[0]}`, `[B,N,S,8]`, `[1]`), an error condition
that names the output with an input (`input和out的shape不一致`), an in-out tensor written in
place. Whatever else is "not derivable", with the reason: a rule is never guessed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from specgen.model import Constraint, ConstraintKind, DtypeRule, ErrorRule, Param, ShapeRule, ShapeRuleKind, SymbolDim
from specgen.parse.classify.statements import is_conditional

TENSORS = ("tensor", "tensor_list")
WRITTEN = ("out", "inout")
# Index outputs: the library writes either integer type (the caller chooses by the tensor it passes).
_INDEX_NAME = re.compile(r"(?i)ind(?:ices|ex)|argmax|argmin|position")
_INDEX_DTYPES = ("INT64", "INT32")
_CONDITION = re.compile(r"当|若|如果|时[，,]|场景|模式下|情况下|或")


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class ShapeExample:
    """A phrase of a real document, with the function's parameter names and the rule it reads."""

    text: str
    subject: str
    others: tuple[str, ...]
    dims: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShapePhrase:
    """One way documents state a shape: `read` turns a statement into the dims of its list."""

    name: str
    trigger: re.Pattern[str]
    read: Callable[[str, Sequence[str]], tuple[str, ...] | None]
    examples: tuple[ShapeExample, ...]


# ---------------------------------------------------------------- explicit lists

_OPEN_CLOSE = {"[": "]", "(": ")", "（": "）", "{": "}"}
_LIST_HEAD = re.compile(
    r"(?i)(?:shape|形状|维度)\s*(?:需要|必须|要求|固定)?\s*(?:为|是|=|：|:)\s*(?:[一二三四五六七八1-8]维)?\s*(?=[\[\(（{])"
)
_DIM_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIZE_CALL = re.compile(r"\b([A-Za-z_]\w*)\.size\((-?\d+)\)")
_ALLOWED_CALLS = frozenset({"ceil", "floor", "ceildiv"})


def _bracketed(text: str, start: int) -> str | None:
    """The list opening at text[start], brackets included; None when it does not close."""
    close = _OPEN_CLOSE[text[start]]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == text[start]:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def _top_level_split(inner: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "([（{":
            depth += 1
        elif ch in ")]）}":
            depth -= 1
        elif depth == 0 and ch in ",，":
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p.strip() for p in parts]


def dim_expression(text: str, params: Sequence[str]) -> str | None:
    """A dimension as the evaluator reads it (`self.shape[0]`, `2*N`, `ceil(H/64)`), or None
    when it is not a closed expression (`...`, `*`, Chinese words)."""
    expr = _SIZE_CALL.sub(r"\1.shape[\2]", text.strip()).replace("×", "*").replace("（", "(").replace("）", ")")
    if not expr or "..." in expr or "…" in expr:
        return None
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return None
    return ast.unparse(tree) if _closed(tree.body, set(params)) else None


def closed_dims(dims: Sequence[str], params: Sequence[str]) -> bool:
    """Every dim an expression the evaluator reads (`*x.shape[:-1]` splices a shape)."""
    try:
        tree = ast.parse("[" + ", ".join(dims) + "]", mode="eval")
    except SyntaxError:
        return False
    elements = tree.body.elts  # type: ignore[attr-defined]
    return all(_closed(e.value if isinstance(e, ast.Starred) else e, set(params)) for e in elements)


def _closed(node: ast.AST, params: set[str]) -> bool:
    """Integers, symbols, parameters' shapes, + - * / // and ceil/floor/ceildiv."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.BinOp):
        ops = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)
        return isinstance(node.op, ops) and _closed(node.left, params) and _closed(node.right, params)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and _closed(node.operand, params)
    if isinstance(node, ast.Call):
        named = isinstance(node.func, ast.Name) and node.func.id in _ALLOWED_CALLS
        return named and not node.keywords and all(_closed(a, params) for a in node.args)
    if isinstance(node, ast.Attribute):  # x.shape, spliced whole (`*x.shape`)
        return node.attr == "shape" and isinstance(node.value, ast.Name) and node.value.id in params
    if isinstance(node, ast.Subscript):  # x.shape[i], x.shape[:-1]
        value, index = node.value, node.slice
        bounds = [index.lower, index.upper] if isinstance(index, ast.Slice) and index.step is None else [index]
        whole = all(b is None or _closed(b, params) for b in bounds)
        return _closed(value, params) and isinstance(value, ast.Attribute) and whole
    return False


def read_list(statement: str, params: Sequence[str]) -> tuple[str, ...] | None:
    """`shape为[B, N, S, 8]`, `shape为{self.shape[0], vec2.shape[0]}`: the dims of the one list
    the statement gives; None when it gives none, several, or one that is not closed."""
    lists = [m for m in _LIST_HEAD.finditer(statement)]
    if len(lists) != 1:
        return None
    found = _bracketed(statement, lists[0].end())
    if found is None or "或" in statement[lists[0].end() + len(found) :][:3]:
        return None
    return _dims(found[1:-1], params)


def read_cell(cell: str, params: Sequence[str]) -> tuple[str, ...] | None:
    """A shape column holding nothing but a list: `(batch_size, hidden_size)`."""
    cell = cell.strip().strip("`").rstrip("。")
    if not cell or cell[0] not in _OPEN_CLOSE or _bracketed(cell, 0) != cell:
        return None
    return _dims(cell[1:-1], params)


def _dims(inner: str, params: Sequence[str]) -> tuple[str, ...] | None:
    parts = _top_level_split(inner)
    if parts and parts[-1] == "":  # `(n, )`
        parts = parts[:-1]
    dims = [dim_expression(p, params) for p in parts]
    return tuple(d for d in dims if d is not None) if parts and all(dims) else None


_NAME = r"(?:输入|入参|计算输入)?\s*(?P<name>[A-Za-z_]\w*)"
_SAME_AS = re.compile(
    r"shape\S{0,10}?(?:与|和|同|跟)\s*" + _NAME + r"\s*(?:的\s*shape\s*)?(?:保持|完全)?(?:一致|相同|一样|相等)"
)
_PARTIAL = re.compile(r"维|轴|前|除|size|长度|个数|broadcast|广播|或|乘|积|@")


def read_same(statement: str, params: Sequence[str]) -> tuple[str, ...] | None:
    """`shape需要与self一样`, `shape与入参x一致`: the whole shape of the tensor named."""
    m = _SAME_AS.search(statement)
    if m is None or m.group("name") not in params or _PARTIAL.search(statement):
        return None
    return (f"*{m.group('name')}.shape",)


_DROP_LAST = re.compile(r"shape为" + _NAME + r"的shape(?:剔除|去除|去掉)(?:掉)?最后一维")
_WITHOUT_LAST = re.compile(
    r"shape需要与"
    + _NAME
    + r"除最后一维(?:后|外)的shape一致|shape与(?:计算)?输入\s*(?P<n2>[A-Za-z_]\w*)相比，无最后一维"
)


def read_drop_last(statement: str, params: Sequence[str]) -> tuple[str, ...] | None:
    """`shape为输入x1的shape剔除掉最后一维`: the tensor's shape without its last dimension."""
    m = _DROP_LAST.search(statement) or _WITHOUT_LAST.search(statement)
    if m is None:
        return None
    name = m.groupdict().get("n2") or m.group("name")
    return (f"*{name}.shape[:-1]",) if name in params else None


SHAPE_PHRASES: tuple[ShapePhrase, ...] = (
    ShapePhrase(
        "list",
        _LIST_HEAD,
        read_list,
        (
            ShapeExample(
                "shape为{self.shape[0], vec2.shape[0]}", "out", ("self", "vec2"), ("self.shape[0]", "vec2.shape[0]")
            ),  # aclnnGer (ops-math)
            ShapeExample("shape为(B,N,2)", "gradXyz2", ("xyz2",), ("B", "N", "2")),  # aclnnChamferDistanceBackward
            ShapeExample(
                "shape为[M, 2N]", "y1Out", ("x",), ()
            ),  # aclnnSwigluBackwardMxQuantWithDualAxis: 2N is no expression
            ShapeExample("shape为[1]", "out", ("self",), ("1",)),  # aclnnEqual (ops-math)
            ShapeExample("shape为(N,Cin,Hin)", "gradInput", ("input",), ("N", "Cin", "Hin")),  # aclnnConvTbcBackward
        ),
    ),
    ShapePhrase(
        "cell",
        re.compile(r"^\s*[\[\(（{]"),
        read_cell,
        (
            ShapeExample(
                "(batch_size, hidden_size)", "hyOut", ("input",), ("batch_size", "hidden_size")
            ),  # aclnnThnnFusedLstmCell
            ShapeExample(
                "(batch_size, 4 * hidden_size)", "storageOut", (), ("batch_size", "4 * hidden_size")
            ),  # aclnnThnnFusedLstmCell
        ),
    ),
    ShapePhrase(
        "same_as",
        re.compile(r"shape"),
        read_same,
        (
            ShapeExample("shape需要与self一样", "gradInput", ("self",), ("*self.shape",)),  # aclnnGeGluBackward
            ShapeExample(
                "shape需要与scale1Out一致", "scale2Out", ("scale1Out",), ("*scale1Out.shape",)
            ),  # aclnnAddRmsNormDynamicQuant
            ShapeExample(
                "shape需要与x除最后一维后的shape一致", "scaleOut", ("x",), ()
            ),  # aclnnRmsNormDynamicQuant: a part
        ),
    ),
    ShapePhrase(
        "drop_last",
        re.compile(r"最后一维"),
        read_drop_last,
        (
            ShapeExample(
                "shape为输入x1的shape剔除掉最后一维", "outScales1Out", ("x1",), ("*x1.shape[:-1]",)
            ),  # aclnnAddLayerNormQuantV2
            ShapeExample(
                "shape需要与输入x除最后一维后的shape一致", "scaleOut", ("x",), ("*x.shape[:-1]",)
            ),  # aclnnRmsNormDynamicQuant
            ShapeExample(
                "计算输出scaleOut的shape与计算输入x相比，无最后一维，其余维度与计算输入x保持一致",
                "scaleOut",
                ("x",),
                ("*x.shape[:-1]",),
            ),  # aclnnSwiGluQuantV2
        ),
    ),
)


def explicit_dims(statements: Iterable[Statement], params: Sequence[str]) -> tuple[tuple[str, ...], Statement] | str:
    """The one list the statements give a parameter, with its statement; or why there is none
    ("" when no statement gives a list)."""
    found: dict[tuple[str, ...], Statement] = {}
    conditional = False
    for s in statements:
        for phrase in SHAPE_PHRASES:
            if not phrase.trigger.search(s.text):
                continue
            dims = phrase.read(s.text, params)
            if dims is None:
                continue
            if _CONDITION.search(s.text) or is_conditional(s.text):
                conditional = True
                continue
            found.setdefault(dims, s)
    if len(found) == 1:
        [(dims, s)] = found.items()
        return dims, s
    if len(found) > 1:
        return "the document gives several shapes: " + "; ".join("[" + ", ".join(d) + "]" for d in found)
    return "a shape is given only under a condition" if conditional else ""


_WHOLE = re.compile(r"\*(\w+)\.shape")


def _symbols(dims: Iterable[str], params: Sequence[str]) -> set[str]:
    names: set[str] = set()
    tree = ast.parse("[" + ", ".join(dims) + "]", mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in params and node.id not in _ALLOWED_CALLS:
            names.add(node.id)
    return names


def _bindings(inputs: Sequence[tuple[Param, list[Statement]]], names: Sequence[str]) -> dict[str, SymbolDim]:
    """Symbols the inputs' own lists name one dimension each: `x` of shape `[B, N, S, D]` binds
    B to x.shape[0]. The first input that binds a symbol wins."""
    bound: dict[str, SymbolDim] = {}
    for p, statements in inputs:
        found = explicit_dims(statements, names)
        if isinstance(found, str):
            continue
        for axis, dim in enumerate(found[0]):
            if _DIM_WORD.fullmatch(dim) and dim not in names:
                bound.setdefault(dim, SymbolDim(symbol=dim, param=p.name, axis=axis))
    return bound


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
    p: Param, params: Sequence[Param], errors: Sequence[ErrorRule], statements: dict[str, list[Statement]]
) -> ShapeRule:
    """The shape `p` is written in, by the first reading that holds (see the module's docstring)."""
    conditional = [s.text for said in statements.values() for s in said if _CONDITION.search(s.text)]
    if peers := _relation_peers(p, params, "same_shape", conditional):
        c = _first_constraint(p, params, "same_shape", conditional)
        return ShapeRule(kind="same", params=peers[:1], text=c.text if c else "", line=c.line if c else p.line)
    if peers := _relation_peers(p, params, "broadcast_result", conditional):
        c = p.of_kind("broadcast_result")[0]
        kind: ShapeRuleKind = "same" if len(peers) == 1 else "broadcast"
        return ShapeRule(kind=kind, params=peers, text=c.text, line=c.line)
    names = [q.name for q in params]
    found = explicit_dims(statements.get(p.name, []), names)
    if not isinstance(found, str):
        return _explicit(p, params, statements, found)
    if rule := _from_errors(p, params, errors):
        return rule
    if p.direction == "inout":
        return ShapeRule(kind="in_place", params=(p.name,), text="", line=p.line)
    reason = found or "the document states no rule for this output's shape"
    return ShapeRule(kind="not_derivable", reason=reason, line=p.line)


def _explicit(
    p: Param,
    params: Sequence[Param],
    statements: dict[str, list[Statement]],
    found: tuple[tuple[str, ...], Statement],
) -> ShapeRule:
    dims, statement = found
    names = [q.name for q in params]
    if len(dims) == 1 and (whole := _WHOLE.fullmatch(dims[0])) and whole.group(1) != p.name:
        return ShapeRule(kind="same", params=(whole.group(1),), text=statement.text, line=statement.line)
    inputs = [(q, statements.get(q.name, [])) for q in params if q.kind in TENSORS and q.direction == "in"]
    bound = _bindings(inputs, names)
    wanted = _symbols(dims, names)
    scalars = {q.name for q in params if q.kind == "int"}
    unbound = sorted(s for s in wanted if s not in bound and s not in scalars)
    if unbound:
        reason = f"the list [{', '.join(dims)}] names {', '.join(unbound)}, which no input's documented shape binds"
        return ShapeRule(kind="not_derivable", reason=reason, text=statement.text, line=statement.line)
    symbols = tuple(bound[s] for s in sorted(wanted) if s in bound)
    return ShapeRule(kind="explicit", dims=dims, symbols=symbols, text=statement.text, line=statement.line)


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


def dtype_rule(p: Param, params: Sequence[Param], errors: Sequence[ErrorRule]) -> DtypeRule:
    """The dtype `p` is written in: a documented same-dtype input, the one dtype it allows, an
    index output's integer types, or not derivable."""
    readable = {q.name for q in params if q.kind in TENSORS and q.direction != "out" and q.name != p.name}
    for c in p.of_kind("same_dtype"):
        if peers := tuple(n for n in c.params if n in readable):
            return DtypeRule(kind="same", params=peers[:1], text=c.text, line=c.line)
    if len(p.dtypes) == 1:
        c = p.of_kind("dtypes")[0]
        return DtypeRule(kind="fixed", values=tuple(p.dtypes), text=c.text, line=c.line)
    if p.dtypes and set(p.dtypes) <= set(_INDEX_DTYPES) and _INDEX_NAME.search(p.name):
        c = p.of_kind("dtypes")[0]
        values = tuple(d for d in _INDEX_DTYPES if d in p.dtypes)
        return DtypeRule(kind="one_of", values=values, text=c.text, line=c.line)
    for q in params:
        for c in q.of_kind("same_dtype"):
            if p.name in c.params and q.name in readable:
                return DtypeRule(kind="same", params=(q.name,), text=c.text, line=c.line)
    for error in errors:
        for check in error.checks:
            peers = tuple(n for n in check.params if n in readable)
            if check.kind == "same_dtype" and p.name in check.params and peers and not error.conditional:
                return DtypeRule(kind="same", params=peers[:1], text=error.condition, line=error.line)
    if p.direction == "inout":
        return DtypeRule(kind="same", params=(p.name,), text="", line=p.line)
    twins = [
        q for q in params if q.name in readable and q.kind == "tensor" and p.dtypes and set(q.dtypes) == set(p.dtypes)
    ]
    if twins:
        c = p.of_kind("dtypes")[0]
        return DtypeRule(kind="same_set", params=(twins[0].name,), text=c.text, line=c.line)
    reason = (
        "the document allows " + "、".join(p.dtypes) + " and relates the dtype to no input"
        if p.dtypes
        else "the document states no dtype"
    )
    return DtypeRule(kind="not_derivable", reason=reason, line=p.line)


def output_rules(
    params: Sequence[Param], errors: Sequence[ErrorRule], statements: dict[str, list[Statement]]
) -> tuple[Param, ...]:
    """The parameters, each output and in-out tensor with its shape and dtype rule."""
    out = []
    for p in params:
        if p.direction in WRITTEN and p.kind in TENSORS:
            rules = {
                "shape_rule": shape_rule(p, params, errors, statements),
                "dtype_rule": dtype_rule(p, params, errors),
            }
            p = p.model_copy(update=rules)
        out.append(p)
    return tuple(out)
