"""How documents state an output's shape: the table of phrase readers (`SHAPE_PHRASES`).

Each reader turns one statement of a parameter (or the document's formula) into a reading:
the rule's kind, the parameters it reads and its dims (see `specgen.model.ShapeRule`), or
None. Every record carries the real phrases it must read (tests/test_shapes.py reads them
all); `shapes.py` applies the table and decides what holds.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from specgen.model import ShapeRuleKind


@dataclass(frozen=True, slots=True)
class ShapeContext:
    """What a reader knows of the function: every parameter's name, the input tensors', the
    subject's, and all the subject's statements (`其余维度与x一致` may stand apart)."""

    params: tuple[str, ...]
    inputs: tuple[str, ...] = ()
    subject: str = ""
    said: str = ""
    tensors: tuple[str, ...] | None = None  # every tensor parameter (None: every parameter)
    rank: tuple[int, int | None] | None = None  # the subject's documented rank
    arrays: tuple[str, ...] = ()  # the integer-array parameters (a shape given as values)
    one_shape: bool = False  # the inputs must all have one shape (`x的shape需与y一致`)
    lists: tuple[tuple[str, tuple[str, ...]], ...] = ()  # input tensors' lists, unread (`x`: `(N...,H)`)

    def is_tensor(self, name: str) -> bool:
        return name in (self.params if self.tensors is None else self.tensors)

    def resolve(self, name: str) -> str:
        """The parameter a statement names: `weight` for `weightOptional` when only that exists."""
        return name if name in self.params or name + "Optional" not in self.params else name + "Optional"


# A reading: the rule's kind, the parameters it reads, its dims (see `ShapeRule`).
Reading = tuple[ShapeRuleKind, tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class ShapeExample:
    """A phrase of a real document, with the function's other parameters (`others`, taken as
    the input tensors) and what it must read (None: nothing)."""

    text: str
    subject: str
    others: tuple[str, ...]
    reading: Reading | None
    attrs: tuple[str, ...] = ()  # the function's parameters that are not tensors
    rank: tuple[int, int | None] | None = None
    arrays: tuple[str, ...] = ()  # those of `attrs` that are integer arrays
    lists: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the inputs' own lists, unread

    def context(self) -> ShapeContext:
        params = (self.subject, *self.others, *self.attrs)
        tensors = (self.subject, *self.others)
        return ShapeContext(
            params, self.others, self.subject, self.text, tensors, self.rank, self.arrays, lists=self.lists
        )


@dataclass(frozen=True, slots=True)
class ShapePhrase:
    """One way documents state a shape: `read` turns a statement into a reading."""

    name: str
    trigger: re.Pattern[str]
    read: Callable[[str, ShapeContext], Reading | None]
    examples: tuple[ShapeExample, ...]


# ---------------------------------------------------------------- explicit lists

_OPEN_CLOSE = {"[": "]", "(": ")", "（": "）", "{": "}"}
# `shape为[B, N]`, `其shape支持（NUM_ROWS，K）`, `输出维度[N,C,S,H]`, `要求是一个2D的shape [numRows, k]`
# (doc-site dialect; not
# `shape支持三维（…）`, which ops-nn's LSTM rows write of each tensor of a list)
_LIST_HEAD = re.compile(
    r"(?i)(?:(?:shape|形状|维度)\s*(?:需要|必须|要求|固定|均)?\s*(?:为|是|=|：|:)|各个维度表示\s*[：:])"
    r"\s*(?:[一二三四五六七八1-8]维)?\s*(?=[\[\(（{])|(?:shape\s*支持|(?:输入|输出)维度|\dD的\s*shape)\s*(?=[\[\(（{])"
    # `要求是一个2D的Tensor，shape (min(NUM_ROWS, activeNum) * k, H)` (doc-site dialect)
    r"|\dD的\s*Tensor\s*[，,]\s*shape\s*(?=[\[\(（{])"
    # SwinTransformerLnQkvQuant's gamma: `维度只支持1维且为[H]`
    r"|维度\s*只?支持\s*[一二三四五六七八1-8]维且为\s*(?=[\[\(（{])"
    # SwinAttentionScoreQuant's paddingMask1Optional: `四维的tensor，维度[1,C,S,S]`
    r"|(?<![^，,；;\s])维度\s*(?=\[)"
)
# another list after the first: `shape支持[G, N]，[G, ]` gives two shapes
_ANOTHER_LIST = re.compile(r"^\s*(?:[，,、/]|或)\s*[\[\(（{]")
DIM_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIZE_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\.size\((-?\d+)\)")
ALLOWED_CALLS = frozenset({"ceil", "floor", "ceildiv", "rank", "len", "ones", "broadcast", "prod", "max", "min"})


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


def top_level_split(inner: str) -> list[str]:
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
    return ast.unparse(_c_rounding(tree)) if _closed(tree.body, set(params)) else None


class _CRounding(ast.NodeTransformer):
    """`(x + 7) / 8`, `(n + 2 - 1) / 2`: C's rounding idiom, an integer division (a plain
    `/` must divide exactly)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        rounded = isinstance(node.func, ast.Name) and node.func.id in ("ceil", "floor")
        for i, arg in enumerate(node.args):  # ceil((a + 2) / 64) divides exactly, then rounds
            if rounded and isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
                self.generic_visit(arg)
            else:
                node.args[i] = self.visit(arg)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        left = node.left
        offset = isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add | ast.Sub)
        if isinstance(node.op, ast.Div) and offset and isinstance(left.right, ast.Constant):  # type: ignore[attr-defined]
            return ast.BinOp(left=left, op=ast.FloorDiv(), right=node.right)
        return node


def _c_rounding(tree: ast.AST) -> ast.AST:
    return ast.fix_missing_locations(_CRounding().visit(tree))


def _closed(node: ast.AST, params: set[str]) -> bool:
    """Integers, symbols, parameters' shapes, + - * / // and ceil/floor/ceildiv."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.BinOp):
        ops = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
        return isinstance(node.op, ops) and _closed(node.left, params) and _closed(node.right, params)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.USub) and _closed(node.operand, params)
    if isinstance(node, ast.Call):
        named = isinstance(node.func, ast.Name) and node.func.id in ALLOWED_CALLS
        return named and not node.keywords and all(_closed(a, params) for a in node.args)
    if isinstance(node, ast.Attribute):  # x.shape, spliced whole (`*x.shape`)
        return node.attr == "shape" and isinstance(node.value, ast.Name) and node.value.id in params
    if isinstance(node, ast.Subscript):  # x.shape[i], x.shape[:-1]
        value, index = node.value, node.slice
        bounds = [index.lower, index.upper] if isinstance(index, ast.Slice) and index.step is None else [index]
        whole = all(b is None or _closed(b, params) for b in bounds)
        return _closed(value, params) and isinstance(value, ast.Attribute) and whole
    return False


def listed(statement: str) -> list[str] | None:
    """The parts of the first list the statement gives, unread (`shape为[M, 2N]`: M, 2N); None
    when it gives none, or another in its place (`[B…, H]或[B…, 1, H]`). Lists after it are
    examples (`shape=[..., 2H]，常用shape为[T, 2H]或[B, S, 2H]`)."""
    head = _LIST_HEAD.search(statement)
    found = _bracketed(statement, head.end()) if head else None
    if head is None or found is None or _another_follows(statement[head.end() + len(found) :]):
        return None
    return top_level_split(found[1:-1])


def _another_follows(rest: str) -> bool:
    """Whether another shape follows a list: `或…` (`[B…, H]或[B…, 1, H]`), `，[G, ]`."""
    return "或" in rest[:3] or bool(_ANOTHER_LIST.match(rest))


def read_list(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为[B, N, S, 8]`, `shape为{self.shape[0], vec2.shape[0]}`: the dims of the one list
    the statement gives; None when it gives none, several, or one that is not closed."""
    lists = list(_LIST_HEAD.finditer(statement))
    if len(lists) != 1:
        return None
    found = _bracketed(statement, lists[0].end())
    if found is None or _another_follows(statement[lists[0].end() + len(found) :]):
        return None
    return _explicit_reading(_dims(found[1:-1], ctx.params))


# A list's leading dimensions, any number of them: `...`, `…`, `N...`, `B…`
_ELLIPSIS = re.compile(r"^(?P<lead>[A-Za-z_][A-Za-z0-9_]*)?\s*(?:\.\.\.|…)$")
# A dimension that is a symbol or a multiple of one: `H`, `2H`, `2*N`
MULTIPLE = re.compile(r"^(?:(?P<k>\d+)\s*\*?\s*)?(?P<sym>[A-Za-z_][A-Za-z0-9_]*)$")


class _Substitute(ast.NodeTransformer):
    def __init__(self, definitions: dict[str, ast.expr]) -> None:
        self.definitions = definitions

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.definitions.get(node.id, node)


def substituted(dims: Sequence[str], sizes: dict[str, str]) -> tuple[str, ...]:
    """The dims with each symbol `sizes` names replaced by its size expression (as they were
    when they name none)."""
    tree = ast.parse("[" + ", ".join(dims) + "]", mode="eval")
    if not any(isinstance(n, ast.Name) and n.id in sizes for n in ast.walk(tree)):
        return tuple(dims)
    definitions = {s: ast.parse(e, mode="eval").body for s, e in sizes.items()}
    return tuple(ast.unparse(e) for e in _Substitute(definitions).visit(tree).body.elts)


def trailing_sizes(name: str, parts: Sequence[str]) -> dict[str, str] | None:
    """What the symbols of a list's trailing dimensions are (`[..., 2H]`: H is
    x.shape[-1] / 2); None when one is no symbol or multiple of one."""
    sizes: dict[str, str] = {}
    for j, part in enumerate(parts):
        m = MULTIPLE.match(part)
        if m is None:
            return None
        size = f"{name}.shape[{j - len(parts)}]" + (f" / {m.group('k')}" if m.group("k") else "")
        sizes.setdefault(m.group("sym"), size)
    return sizes


def read_prefix(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为[N...,H/2]` where the input x is `(N...,H)`: x's leading dimensions (those its
    list gives as `N...`), then the trailing ones, each symbol read from x's trailing
    dimensions (aclnnDequantSwigluQuant; `[B…, S]` of x `[B…, S, H]`, `[..., 2H]` of `[..., H]`)."""
    parts = listed(statement) or []
    head = _ELLIPSIS.match(parts[0]) if len(parts) > 1 else None
    if head is None:
        return None
    for name, own in ctx.lists:
        lead = _ELLIPSIS.match(own[0]) if len(own) > 1 else None
        sizes = trailing_sizes(name, own[1:]) if lead and lead.group("lead") == head.group("lead") else None
        if sizes is None or name not in ctx.inputs:
            continue
        tail = [dim_expression(re.sub(r"(\d)\s*([A-Za-z_])", r"\1*\2", p), ctx.params) for p in parts[1:]]
        if not all(tail):
            return None
        return ("explicit", (), (f"*{name}.shape[:{1 - len(own)}]", *substituted([t for t in tail if t], sizes)))
    return None


# What follows a shape column's list when it only says what the symbols are: `N为批处理大小`
_LEGEND = re.compile(r"^[，,；;。\s]*(?:其中)?\s*[A-Za-z_][A-Za-z0-9_]*\s*(?:为|表示|是|代表)")


_SPLICED = re.compile(
    r"shape\s*(?:为|=)\s*`?(?P<x>(?P<name>[A-Za-z_][A-Za-z0-9_]*?)(?P<sep>\.|_)shape\[[^\]]*\])`?"
    r"(?:\s*\+\s*(?P<tail>\[[^\]]*\])|\s*(?=[；;。，,]|$))"
)


def read_spliced(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为x.shape[:-1]+[ceil(H/64), 2]`: a part of a tensor's shape, then a list; or
    the part alone (`shape为x.shape[:-1]`, or legacy MoeGatingTopKSoftmaxV2's finishedOptional
    `shape为x_shape[:-1]`, line 39: `x_shape` is x's shape where x is a parameter)."""
    m = _SPLICED.search(statement)
    if m is None or (m.group("sep") == "_" and m.group("name") not in ctx.params):
        return None
    subscript = m.group("x")[len(m.group("name")) + len("_shape") :]
    head = dim_expression(f"{m.group('name')}.shape{subscript}", ctx.params)
    tail = _dims(m.group("tail")[1:-1], ctx.params) if m.group("tail") else ()
    if head is None or tail is None or ":" not in head:
        return None
    return ("explicit", (), (f"*{head}", *tail))


def read_cell(cell: str, ctx: ShapeContext) -> Reading | None:
    """A shape column holding a list alone, or followed by what its symbols are:
    `(batch_size, hidden_size)`, `(N,C) N为批处理大小，C为标签数，必须大于0`."""
    cell = cell.strip().strip("`").rstrip("。")
    found = _bracketed(cell, 0) if cell and cell[0] in _OPEN_CLOSE else None
    if found is None:
        return None
    rest = cell[len(found) :]
    if rest.strip() and (not _LEGEND.match(rest) or "或" in rest or any(c in rest for c in "[(（{")):
        return None
    return _explicit_reading(_dims(found[1:-1], ctx.params))


def _explicit_reading(dims: tuple[str, ...] | None) -> Reading | None:
    return ("explicit", (), dims) if dims is not None else None


# a list's contents written as inline LaTeX (aclnnCtcLoss: `shape为($N, T, (2*max(targetLengths)+1)$)`)
_INLINE_MATH = re.compile(r"\$([^$]+)\$")


def _dims(inner: str, params: Sequence[str]) -> tuple[str, ...] | None:
    if (latex := _INLINE_MATH.fullmatch(inner.strip())) is not None:  # `($N, T, 2*S+1$)`
        inner = latex.group(1)
    parts = top_level_split(inner)
    if parts and parts[-1] == "":  # `(n, )`
        parts = parts[:-1]
    dims = [dim_expression(p, params) for p in parts]
    return tuple(d for d in dims if d is not None) if parts and all(dims) else None


_NAME = r"(?:输入|入参|计算输入)?\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
# `数据类型和 Shape 必须与 gradOutput 一致`; `shape 同 valuesOut。` (the clause ends at the name)
_SAME_AS = re.compile(
    r"[Ss]hape\s*\S{0,10}?\s*(?:与|和|同|跟)\s*"
    + _NAME
    + r"\s*(?:的?\s*shape\s*)?(?:(?:保持|完全)?(?:一致|相同|一样|相等)|(?<=[A-Za-z0-9_])\s*[。；;]?$)"
)
# `输出shape与输入shape一致`, `shape需要与输入的shape相同`: the one input, unnamed
_SAME_AS_INPUT = re.compile(r"shape[^与和，。]{0,12}(?:与|和)输入的?(?:数据类型、)?shape[^，。]{0,12}?(?:一致|相同)")
# `shape的维度与x保持一致` (aclnnGroupedDynamicMxQuant): the sizes, not only the rank (维度数)
_SAME_DIMS = re.compile(r"^shape的?维度与(?:输入|入参)?\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*保持一致$")
# `\`out\` shape 必须等于 \`self\` shape` (aclnnFmodTensor, ops-math)
_EQUALS = re.compile(
    r"shape\s*(?:必须|需要)?等于\s*`?(?:输入|入参)?\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*的?\s*shape"
)
# `out的shape与输入scale的shape维度和大小完全一致` (aclnnTransQuantParamV3): its rank and its sizes
_RANK_AND_SIZES = re.compile(
    r"shape\s*(?:与|和|同)\s*(?:输入|入参)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*shape\s*"
    r"(?:维度|维数)(?:和|与|及)(?:大小|size)(?:都|均)?(?:完全)?(?:一致|相同)"
)
_ONE_ELEMENT = re.compile(r"一维包含一个元素的Tensor|shape为\[1\]的一维Tensor|shape\s*size为1(?![0-9])")
_PARTIAL = re.compile(r"维|轴|前|除|size|长度|个数|broadcast|广播|或|乘|积|@")
# `shape=[T, 2H]或[B, S, 2H]，与x一致` (aclnnSwigluGroupGrad gradXOut): the lists it may take, then
# the tensor whose shape it is
LISTS_THEN_SAME = re.compile(
    r"^shape\s*(?:=|为)\s*[\[(（][^，；;。]*[\])）]\s*，\s*(?:与|和)\s*(?:输入|入参)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?"
    r"\s*(?:的shape)?\s*(?:保持)?(?:一致|相同)[。.]?$"
)


def read_same(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape需要与self一样`, `shape与入参x一致`: the whole shape of the tensor named (or of
    the one input tensor, `输出shape与输入shape一致`)."""
    if (m := _SAME_DIMS.match(statement.rstrip("。"))) and ctx.is_tensor(m.group("name")):
        return ("same", (m.group("name"),), ())
    if _ONE_ELEMENT.search(statement):
        return ("explicit", (), ("1",))
    if (m := _EQUALS.search(statement)) and ctx.is_tensor(m.group("name")) and m.group("name") != ctx.subject:
        return ("same", (m.group("name"),), ())
    if (m := LISTS_THEN_SAME.match(statement.strip())) and ctx.is_tensor(m.group("name")):
        return ("same", (m.group("name"),), ()) if m.group("name") != ctx.subject else None
    if (m := _RANK_AND_SIZES.search(statement)) and ctx.is_tensor(name := ctx.resolve(m.group("name"))):
        return ("same", (name,), ()) if name != ctx.subject else None
    if _PARTIAL.search(statement):
        return None
    if (m := _SAME_AS.search(statement)) and (name := ctx.resolve(m.group("name"))) != ctx.subject:
        if ctx.is_tensor(name):
            return ("same", (name,), ())
        if name in ctx.arrays:  # `shape 与 origInputShape 一致`: the array's values
            return ("explicit", (), (f"*{name}",))
    if _SAME_AS_INPUT.search(statement) and (len(ctx.inputs) == 1 or ctx.inputs and ctx.one_shape):
        return ("same", ctx.inputs[:1], ())  # the one input, or the first of inputs of one shape
    return None


_AT_LEAST = re.compile(
    r"shape\s*size\s*(?:需要|必须)?\s*(?:大于等于|大于或等于|不小于|>=|≥)\s*(?:入参|输入)?\s*"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*的?\s*shape\s*size"
)


def read_at_least(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape size大于等于入参x的shape size`: as many elements as the tensor named, or more
    (a wrapper allocates the tensor's shape; no one shape is required)."""
    m = _AT_LEAST.search(statement)
    if m is None or not ctx.is_tensor(name := ctx.resolve(m.group("name"))) or name == ctx.subject:
        return None
    return ("at_least", (name,), ())


_DROP_LAST = re.compile(r"shape(?:维度)?为" + _NAME + r"的shape(?:剔除|去除|去掉)(?:掉)?最后一维")
_WITHOUT_LAST = re.compile(
    r"shape需要与"
    + _NAME
    + r"除最后一维(?:后|外)的shape一致|shape与(?:计算)?输入\s*(?P<n2>[A-Za-z_][A-Za-z0-9_]*)相比，无最后一维"
    r"|^维度大小与\s*(?P<n3>[A-Za-z_][A-Za-z0-9_]*)\s*除了?最后一个?维度?外的大小一致"
    # `shape需要与logits前n-1维一致` (aclnnTopKTopPSample): n is the named tensor's rank
    r"|^shape需要与\s*`?(?P<n4>[A-Za-z_][A-Za-z0-9_]*)`?\s*前n-1维(?:保持)?一致"
)


def read_drop_last(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为输入x1的shape剔除掉最后一维`: the tensor's shape without its last dimension."""
    m = _DROP_LAST.search(statement) or _WITHOUT_LAST.search(statement)
    if m is None:
        return None
    found = m.groupdict()
    name = found.get("n2") or found.get("n3") or found.get("n4") or found["name"]
    return ("explicit", (), (f"*{name}.shape[:-1]",)) if name in ctx.params else None


# `shape的最后一维是入参x最后一维的1/8，其余维度和x一致` (INT32 holding eight INT4 values)
_LAST_FRACTION = re.compile(
    r"最后一维(?:必须|需要)?(?:是|为)\s*(?:入参|输入)?\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*的?最后一维的\s*1\s*/\s*"
    r"(?P<k>\d+)\s*[，,]\s*(?:其余|其他)维度(?:和|与)\s*(?:入参|输入)?\s*`?(?P<x2>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:保持)?一致"
)


def read_last_fraction(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape的最后一维是入参x最后一维的1/8，其余维度和x一致`: x's shape, its last dimension
    divided (the evaluator leaves a remainder unsettled)."""
    m = _LAST_FRACTION.search(statement)
    if m is None or m.group("x") != m.group("x2") or m.group("x") not in ctx.inputs:
        return None
    x = m.group("x")
    return ("explicit", (), (f"*{x}.shape[:-1]", f"{x}.shape[-1] / {m.group('k')}"))


# `第1维长度与输入grad长度相同`, `第2维长度与输入weight的第2维长度相同`: one axis each
_AXIS_SAME = re.compile(
    r"第(?P<axis>[0-9一二三四])维(?:长度|大小)?(?:需要|必须)?(?:与|和|等于)\s*(?:输入|入参)?\s*`?"
    r"(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的第(?P<of>[0-9一二三四])维)?(?:长度|大小)?\s*(?:保持)?(?:相同|一致)"
)
_ORDINAL = {"一": 1, "二": 2, "三": 3, "四": 4}


def _ordinal(word: str) -> int:
    return _ORDINAL[word] if word in _ORDINAL else int(word)


def read_axes(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape第1维长度与输入grad长度相同，第2维长度与输入weight的第2维长度相同`: every axis of
    the output (its documented rank, counted from 第1维) the size of an input's axis (a tensor
    named without one: its only, first axis)."""
    found = list(_AXIS_SAME.finditer(statement))
    if (
        not found
        or ctx.rank is None
        or ctx.rank[0] != ctx.rank[1]
        or any(m.group("x") not in ctx.inputs for m in found)
    ):
        return None
    sizes = {_ordinal(m.group("axis")): (m.group("x"), _ordinal(m.group("of") or "1") - 1) for m in found}
    if len(sizes) != len(found) or set(sizes) != set(range(1, ctx.rank[0] + 1)):
        return None  # an axis said twice, counted from 0, or left unsaid
    return ("explicit", (), tuple(f"{x}.shape[{axis}]" for x, axis in (sizes[i] for i in sorted(sizes))))


# `其非-1轴要求与x的对应轴大小一致，其-1轴要求其大小同k值` (MoeGatingTopKSoftmax, doc-site dialect):
# the input's leading axes, then an integer parameter's value
_LAST_AXIS = r"(?:-1轴|尾轴|最后一维|最后一个轴)"
_LAST_BY_VALUE = re.compile(
    rf"(?:其)?非{_LAST_AXIS}(?:要求|需要|必须)?(?:与|和)\s*(?:输入|入参)?\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*的?"
    r"(?:对应(?:轴|维度?))?(?:大小)?(?:保持)?(?:一致|相同)\s*[，,]\s*"
    rf"(?:其)?{_LAST_AXIS}(?:要求|需要|必须)?(?:其)?(?:大小)?(?:同|为|等于|与)\s*`?(?P<k>[A-Za-z_][A-Za-z0-9_]*)`?"
    r"\s*(?:值|的值)?(?:一致|相同)?(?=[，,。；;]|$)"
)


def read_last_by_value(statement: str, ctx: ShapeContext) -> Reading | None:
    """`其非-1轴要求与x的对应轴大小一致，其-1轴要求其大小同k值`: x's shape, its last axis the
    value of the integer parameter named (not a tensor's, not an array's)."""
    m = _LAST_BY_VALUE.search(statement)
    if m is None or m.group("x") not in ctx.inputs:
        return None
    k = m.group("k")
    if k not in ctx.params or ctx.is_tensor(k) or k in ctx.arrays:
        return None
    return ("explicit", (), (f"*{m.group('x')}.shape[:-1]", k))


# `输入query的shape是BNSD，输出shape为BSND` (PromptFlashAttentionV2, doc-site dialect, the case of
# inputLayout BNSD_BSND): the input's axes, as the letters of its layout name them, in the
# output's layout's order
_LAYOUTS = re.compile(
    r"输入\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*shape\s*(?:是|为)\s*(?P<a>[A-Z]{2,8})\s*[，,]\s*"
    r"输出\s*(?:的)?\s*shape\s*(?:是|为)\s*(?P<b>[A-Z]{2,8})(?![A-Za-z0-9_])"
)


def read_layouts(statement: str, ctx: ShapeContext) -> Reading | None:
    """`输入query的shape是BNSD，输出shape为BSND`: query's axes reordered (B, S, N, D from B, N, S, D);
    None unless both layouts name the same distinct letters."""
    m = _LAYOUTS.search(statement)
    if m is None or m.group("x") not in ctx.inputs:
        return None
    a, b = m.group("a"), m.group("b")
    if sorted(a) != sorted(b) or len(set(a)) != len(a):
        return None
    return ("explicit", (), tuple(f"{m.group('x')}.shape[{a.index(c)}]" for c in b))


_HALF = r"(?:一半|二分之一|1/2)"
_LAST_HALF = re.compile(
    r"最后一维(?:的值|大小)?为(?:计算)?(?:输入)?\s*(?P<name>(?!shape)[A-Za-z_][A-Za-z0-9_]*)?\s*(?:shape)?\s*的?最后一维(?:的值|值|大小)?的?"
    + _HALF
)
_REST_SAME = re.compile(r"(?:其余|其他)(?:的)?维度.{0,30}?(?:一致|相同)")


def read_last_half(statement: str, ctx: ShapeContext) -> Reading | None:
    """`最后一维为x最后一维的一半，其余维度与x一致`: half the last dimension, the others kept
    (the rest may be said in another statement of the parameter)."""
    m = _LAST_HALF.search(statement)
    rest = _REST_SAME.search(ctx.said)
    if m is None or rest is None:
        return None
    named = [n for n in ctx.inputs if re.search(rf"(?<![A-Za-z0-9_]){n}(?![A-Za-z0-9_])", rest.group())]
    name = m.group("name") or (ctx.inputs[0] if len(ctx.inputs) == 1 else named[0] if len(named) == 1 else None)
    if name is None or name not in ctx.params:
        return None
    return ("explicit", (), (f"*{name}.shape[:-1]", f"{name}.shape[-1] / 2"))


_DIM_HALF = re.compile(
    r"shape在入参(?P<dim>[A-Za-z_][A-Za-z0-9_]*)对应的维度上为(?P<name>[A-Za-z_][A-Za-z0-9_]*)的一半，其他维度上?与(?P=name)一致"
    r"|除了(?P<dim2>[A-Za-z_][A-Za-z0-9_]*)指定的轴外需要保持一致，(?P=dim2)指定的轴为(?P<name2>[A-Za-z_][A-Za-z0-9_]*)的shape对应轴的一半"
)


# aclnnGlu: `shape为(*_1,M,*_2)，其中*表示self中对应维度，M = N /2`, where self's row writes
# `(*_1,N,*_2)，…N表示dim指定的维度大小`: half along `dim`
_STARS_HALF = re.compile(
    r"\(\*_1,\s*(?P<m>[A-Za-z_]\w*),\s*\*_2\)\$?，?\s*其中\$?\*\$?表示(?P<name>[A-Za-z_]\w*)中对应维度，\$?(?P=m)\s*=\s*[A-Za-z_]\w*\s*/\s*2"
)


def read_dim_half(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape在入参dim对应的维度上为x的一半，其他维度与x一致`: half along the axis `dim` names."""
    m = _DIM_HALF.search(statement)
    if m is None and (stars := _STARS_HALF.search(statement)):
        dim, name = "dim", stars.group("name")
    elif m is None:
        return None
    else:
        dim, name = m.group("dim") or m.group("dim2"), m.group("name") or m.group("name2")
    if dim not in ctx.params or name not in ctx.params:
        return None
    axis = f"{dim} % rank({name})"
    return ("explicit", (), (f"*{name}.shape[:{axis}]", f"{name}.shape[{axis}] / 2", f"*{name}.shape[{axis} + 1:]"))


_CHANNEL = re.compile(
    r"(?:shape)?(?:的size|长度)?(?:需要)?与(?:入参|输入)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)中?的?(?:channel轴|第二维的值)"
)


def read_channel(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape与入参input中channel轴保持一致`: one dimension, the input's channels (axis 1)."""
    m = _CHANNEL.search(statement)
    if m is None or m.group("name") not in ctx.params:
        return None
    return ("explicit", (), (f"{m.group('name')}.shape[1]",))


_KEEPDIM = re.compile(r"(?i)keep_?dims?")
_REDUCE = re.compile(
    r"(?:除|在)(?P<dim>[A-Za-z_][A-Za-z0-9_]*)(?:指定维度)?(?:外|上)的?.{0,30}?(?:为1|一致)|依据(?P<k>[A-Za-z_][A-Za-z0-9_]*)与(?P<name>[A-Za-z_][A-Za-z0-9_]*)相对应"
    r"|去掉\s*(?P<d2>[A-Za-z_][A-Za-z0-9_]*)\s*维"
)


def read_reduce(statement: str, ctx: ShapeContext) -> Reading | None:
    """`若keepDim为true，则shape需要与self的shape在除dim外的size一致，且在dim上的size为1，若
    keepDim为false，则shape需要与self除dim外的shape一致`: a reduction over `dim`."""
    keep = [n for n in ctx.params if _KEEPDIM.fullmatch(n)]
    axes = [n for n in ctx.params if n in ("dim", "dims", "axis", "axes")]
    m = _REDUCE.search(statement)
    if m is None or len(keep) != 1 or len(axes) != 1 or len(ctx.inputs) != 1:
        return None
    return ("reduce", (ctx.inputs[0], axes[0], keep[0]), ())


_NONE_CASE = re.compile(
    r"(?:当\s*)?(?P<r>reduction[A-Za-z0-9_]*)\s*(?:的值)?\s*(?:为|=|取值为)\s*[\"“']?(?:0|none)[\"”']?\s*(?:（none）)?"
    r"\s*时?，?[^；;]{0,30}?shape\s*(?:需要?|必须)?(?:与|和)\s*(?P<names>[A-Za-z0-9_、/和 ]+?)\s*(?:的\s*shape)?\s*"
    r"(?:进行)?\s*(?P<b>broadcast\s*后的shape|的broadcast结果)?\s*(?:相同|一致)"
)
_REDUCED = re.compile(r"[；;，,]\s*(?:当\s*)?.{0,30}?(?:(?P<scalar>标量|0维|scalar)|\(1,\)|\[1\])")


def read_loss(statement: str, ctx: ShapeContext) -> Reading | None:
    """`当reduction为0（none）时，shape与target的shape相同，否则为(1,)`: the inputs' shape
    without reduction, a scalar (or [1]) with it."""
    m = _NONE_CASE.search(statement)
    if m is None or m.group("r") not in ctx.params:
        return None
    names = tuple(n for n in re.split(r"[、/和 ]+", m.group("names")) if n in ctx.params)
    rest = _REDUCED.search(statement, m.end())
    if not names or rest is None or (len(names) > 1 and not m.group("b") and "/" not in m.group("names")):
        return None
    return ("reduction", (m.group("r"), *names), () if rest.group("scalar") else ("1",))


_NORM_KEEP = re.compile(r"不需要norm的维度|需要norm的维度")
_FIRST_N = re.compile(r"前(?P<n>\d)维")
_ONES = re.compile(r"(?:均|大小|维度)为1|维度为1|-1轴是1|最后一维为1")
_LAST_ONE = re.compile(
    r"最后一维固定为1，其他维度大小和(?P<n3>[A-Za-z_][A-Za-z0-9_]*)一致|"
    r"除最后一维外各维度与(?:入参)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)对应维度保持一致，最后一维为1|前几维指(?P<n2>[A-Za-z_][A-Za-z0-9_]*)的维度减去1.{0,30}?-1轴是1"
)


def read_norm(statement: str, ctx: ShapeContext) -> Reading | None:
    """Statistics of a normalisation: the input's leading dimensions (those not normalised:
    the input's rank less gamma's, or the first n), then 1s or nothing (`维度数与x保持一致，
    其中不需要norm的维度与x对应维度保持一致，需要norm的维度（与gamma维度数相同的后几维）均为1`)."""
    if m := _LAST_ONE.search(statement):
        name = m.group("name") or m.group("n2") or m.group("n3")
        return ("explicit", (), (f"*{name}.shape[:-1]", "1")) if name in ctx.inputs else None
    named = [n for n in ctx.inputs if n != "gamma" and re.search(rf"(?<![A-Za-z0-9_]){n}(?![A-Za-z0-9_])", statement)]
    if not _NORM_KEEP.search(statement) and not _FIRST_N.search(statement):
        return None
    if len(named) != 1:
        return None
    x = named[0]
    ones = bool(_ONES.search(statement))
    if not ones or re.match(r"其余|其他", statement):
        return None  # the leading dimensions alone say nothing of the rank (aclnnGemmaRmsNorm writes (2, 1))
    if m := _FIRST_N.search(statement):
        n = m.group("n")
        return ("explicit", (), (f"*{x}.shape[:{n}]", f"*ones(rank({x}) - {n})"))
    if "gamma" not in ctx.inputs:
        return None
    keep = f"*{x}.shape[:rank({x}) - rank(gamma)]"
    return ("explicit", (), (keep, "*ones(rank(gamma))"))


_LAYER_NORM = re.compile(r"shape为\[A1,\s*\.\.\.,\s*Ai,\s*1,\s*\.\.\.,\s*1\]，Ai后共有j个1")


def read_layer_norm(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为[A1,...,Ai,1,...,1]，Ai后共有j个1，与需要norm的轴长度保持相同`: j = the length
    of normalizedShape."""
    shapes = [n for n in ctx.params if n.lower() == "normalizedshape"]
    if not _LAYER_NORM.search(statement) or len(shapes) != 1 or len(ctx.inputs) < 1:
        return None
    x, j = ctx.inputs[0], shapes[0]
    return ("explicit", (), (f"*{x}.shape[:rank({x}) - len({j})]", f"*ones(len({j}))"))


_MATMUL = re.compile(r"(?P<a>[A-Za-z_][A-Za-z0-9_]*)\s*@\s*(?P<b>[A-Za-z_][A-Za-z0-9_]*)(?!\s*\^)")


_LAST_TWO = re.compile(
    r"shape\S{0,4}与\s*(?P<a>[A-Za-z_][A-Za-z0-9_]*)\s*@\s*(?P<b>[A-Za-z_][A-Za-z0-9_]*)\s*的后两维的?\s*shape\s*(?:保持)?(?:一致|相同)"
)


# A parameter that transposes one operand: transposeX1, transA, transposeWeight (its operand: x1, A, weight)
_TRANSPOSER = re.compile(r"(?i)trans(?:pose)?_?(?P<operand>[A-Za-z0-9_]+)")


def transposers(a: str, b: str, ctx: ShapeContext) -> tuple[str, str] | None:
    """The parameters that transpose a and b ("" for none); None when a parameter transposes
    something else, or several transpose one operand."""
    found: dict[str, str] = {}
    for name in (n for n in ctx.params if "trans" in n.lower() and not ctx.is_tensor(n)):
        m = _TRANSPOSER.fullmatch(name)
        operand = next((x for x in (a, b) if m and m.group("operand").lower() == x.lower()), None)
        if operand is None or operand in found:
            return None
        found[operand] = name
    return found.get(a, ""), found.get(b, "")


# A function the formula defines elementwise on one operand: `ANTIQUANT(weight) = (weight +
# antiquantOffset) * antiquantScale` (names, numbers, + - * / and parentheses only)
_ELEMENTWISE_DEF = re.compile(
    r"(?P<f>[A-Za-z_][A-Za-z0-9_]*)\s*\(\s*(?P<arg>[A-Za-z_][A-Za-z0-9_]*)\s*\)\s*=\s*(?P<rhs>[A-Za-z0-9_\s+\-*/().]+)$",
    re.M,
)


_CALL = re.compile(r"[A-Za-z0-9_]\s*\(")  # a call inside the definition: not elementwise


def unwrapped_operands(statement: str) -> str:
    """The formula with each operand wrapped in a function it defines elementwise written bare:
    `y = x @ ANTIQUANT(weight) + bias` with `ANTIQUANT(weight) = (weight + antiquantOffset) *
    antiquantScale` (aclnnWeightQuantBatchMatmulV2) is `y = x @ weight + bias`, the function
    keeping its operand's shape."""
    for m in _ELEMENTWISE_DEF.finditer(statement):
        f, arg = m.group("f"), m.group("arg")
        rhs = m.group("rhs")
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(arg)}(?![A-Za-z0-9_])", rhs) and not _CALL.search(rhs):
            statement = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(f)}\s*\(\s*{re.escape(arg)}\s*\)", arg, statement)
    return statement


def read_matmul(statement: str, ctx: ShapeContext) -> Reading | None:
    """The document's formula `out = self @ mat2`, `out = β self + α (mat1 @ mat2)`: the shape
    of the product, when every product the formula writes is of the same two inputs; with the
    parameters that transpose them (`out = x1@x2 * scale + offset` with transposeX1 and
    transposeX2: params (x1, x2, transposeX1, transposeX2)). A transposition the formula writes
    (`A^T @ B^T`) is read only with the parameters that decide it (aclnnGemm: transA, transB)."""
    statement = unwrapped_operands(statement)
    if any("trans" in n.lower() for n in ctx.params) or "^T" in statement:
        return _transposed_matmul(statement, ctx)
    last_two = _LAST_TWO.search(statement)
    if last_two and {last_two.group("a"), last_two.group("b")} <= set(ctx.inputs):
        # the whole shape only when the output is 2-d (aclnnAddbmm sums over the batch;
        # aclnnBaddbmm's 3-d out says the same of its last two dimensions)
        a, b = last_two.group("a"), last_two.group("b")
        return ("explicit", (), (f"{a}.shape[-2]", f"{b}.shape[-1]")) if ctx.rank == (2, 2) else None
    if not re.search(r"=[^=]*@", statement) or "维" in statement:
        return None  # a formula, not `shape要求与batch1@batch2的后两维shape保持一致`
    pairs = {(m.group("a"), m.group("b")) for m in _MATMUL.finditer(statement)}
    if len(pairs) != 1:
        return None
    [(a, b)] = pairs
    return ("matmul", (a, b), ()) if a in ctx.inputs and b in ctx.inputs else None


def _transposed_matmul(statement: str, ctx: ShapeContext) -> Reading | None:
    pairs = {(m.group("a"), m.group("b")) for m in _MATMUL.finditer(statement)}
    if not re.search(r"=[^=]*@", statement) or "维" in statement or len(pairs) != 1:
        return None
    [(a, b)] = pairs
    flags = transposers(a, b, ctx) if a in ctx.inputs and b in ctx.inputs else None
    if flags is None or flags == ("", ""):
        return None
    return ("matmul", (a, b, *flags), ())


_SIZE0 = re.compile(r"^(?P<out>[A-Za-z_][A-Za-z0-9_]*)\.size\(0\)需要与(?P<name>[A-Za-z_][A-Za-z0-9_]*)\.size\(0\)一致")


def read_size0(statement: str, ctx: ShapeContext) -> Reading | None:
    """`logitsMaxLocalOut.size(0)需要与input.size(0)一致` of a 1-d output: that one dimension."""
    m = _SIZE0.match(statement)
    if m is None or m.group("out") != ctx.subject or m.group("name") not in ctx.inputs or ctx.rank != (1, 1):
        return None
    return ("explicit", (), (f"{m.group('name')}.shape[0]",))


_AXIS_ONE = re.compile(r"shape排序轴为1，非排序轴与(?P<name>[A-Za-z_][A-Za-z0-9_]*)一致")


def read_axis_one(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape排序轴为1，非排序轴与self一致` (the sort axis is `dim`): size 1 along it."""
    m = _AXIS_ONE.search(statement)
    if m is None or m.group("name") not in ctx.inputs or "dim" not in ctx.params:
        return None
    x, axis = m.group("name"), f"dim % rank({m.group('name')})"
    return ("explicit", (), (f"*{x}.shape[:{axis}]", "1", f"*{x}.shape[{axis} + 1:]"))


_SIZE_OF_VALUE = re.compile(r"shape为1D Tensor，shape大小与(?P<name>[A-Za-z_][A-Za-z0-9_]*)相同")
_REPEATS_ALONG = re.compile(
    r"(?P<out>[A-Za-z_][A-Za-z0-9_]*)的shape在dim维度下的size等于(?P<r>[A-Za-z_][A-Za-z0-9_]*)\s*\*\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)在dim维度下的size"
)


def read_value_size(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape为1D Tensor，shape大小与outputSize相同`: an integer argument gives the size;
    `out的shape在dim维度下的size等于repeats * self在dim维度下的size` (with `shape维度数量与self
    一致`): the input's shape with that axis multiplied."""
    if (m := _SIZE_OF_VALUE.search(statement)) and m.group("name") in ctx.params and not ctx.is_tensor(m.group("name")):
        return ("explicit", (), (m.group("name"),))
    m = _REPEATS_ALONG.search(statement)
    if m is None or "dim" not in ctx.params or m.group("name") not in ctx.inputs or ctx.is_tensor(m.group("r")):
        return None
    x, r, axis = m.group("name"), m.group("r"), f"dim % rank({m.group('name')})"
    return ("explicit", (), (f"*{x}.shape[:{axis}]", f"{r} * {x}.shape[{axis}]", f"*{x}.shape[{axis} + 1:]"))


# `shape仅支持1维度，元素个数与self相同`: one dimension, as many elements as the tensor has
_ONE_DIM = re.compile(r"(?:shape)?\s*(?:仅支持|只支持|为|是)\s*(?:1|一)\s*维(?:度)?(?:Tensor)?\s*[，,]")
_AS_MANY = re.compile(
    r"元素个数(?:与|和)\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的元素个数)?\s*(?:相同|一致|相等)"
)


def read_element_count(statement: str, ctx: ShapeContext) -> Reading | None:
    """`shape仅支持1维度，元素个数与self相同` (aclnnUnique2's valueOut): a 1-d output with as many
    elements as the input tensor has; the one dimension said in the statement or by the rank
    column. Not an element count alone (`元素个数与x中Tensor的个数相等` counts a list's tensors)."""
    m = _AS_MANY.search(statement)
    if m is None or m.group("name") not in ctx.inputs or not ctx.is_tensor(m.group("name")):
        return None
    said_one = (one := _ONE_DIM.search(statement)) is not None and one.start() < m.start()
    if not said_one and ctx.rank != (1, 1):
        return None
    return ("explicit", (), (f"prod({m.group('name')}.shape)",))


# `out的shape也为1维，该维度的shape大小为scale与offset(若不为nullptr)单维shape大小的最大值`: one
# dimension, the larger of two 1-d tensors' sizes
_LARGER_OF = re.compile(
    r"(?:shape)?\s*(?:也|均)?\s*为\s*(?:1|一)\s*维\s*[，,]\s*(?:且|该维度的)?\s*(?:shape)?\s*大小为\s*"
    r"`?(?P<a>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:与|和)\s*`?(?P<b>[A-Za-z_][A-Za-z0-9_]*)`?\s*"
    r"(?:[(（]若不为\s*(?:nullptr|空指针|空)[)）])?\s*(?:的)?\s*单维\s*(?:shape)?\s*大小的最大值"
)


def read_larger_of(statement: str, ctx: ShapeContext) -> Reading | None:
    """`out的shape也为1维，该维度的shape大小为scale与offset(若不为nullptr)单维shape大小的最大值`
    (aclnnTransQuantParamV3): one dimension, the larger of the two tensors' one sizes. Where
    the optional one is null the rule cannot be evaluated: that call's output stays unchecked."""
    m = _LARGER_OF.search(statement)
    if m is None or not {m.group("a"), m.group("b")} <= set(ctx.inputs):
        return None
    return ("explicit", (), (f"max({m.group('a')}.shape[0], {m.group('b')}.shape[0])",))


_POOLED = re.compile(
    r"(?:Shape|shape)由(?P<x>[A-Za-z_][A-Za-z0-9_]*)和(?P<size>[A-Za-z_][A-Za-z0-9_]*)共同指定"
    r"|shape需要与(?P<x2>[A-Za-z_][A-Za-z0-9_]*)的shape和(?P<size2>[A-Za-z_][A-Za-z0-9_]*)推导出的shape结果一致"
)
_INDEXED = re.compile(
    r"除dim维长度等于(?P<index>[A-Za-z_][A-Za-z0-9_]*)长度外，其他维长度与(?P<x>[A-Za-z_][A-Za-z0-9_]*)相应维一致"
)
_GATHERED = re.compile(
    r"除dim维扩展为跟(?P<index>[A-Za-z_][A-Za-z0-9_]*)的shape一样外，其他维长度与(?P<x>[A-Za-z_][A-Za-z0-9_]*)相应维一致"
)


def read_indexed(statement: str, ctx: ShapeContext) -> Reading | None:
    """An input's shape with the `dim` axis replaced: by the index's length (index_select), by
    the index's whole shape (gather), or the trailing axes by an integer array (adaptive
    pooling: `Shape由self和outputSize共同指定`)."""
    if m := _POOLED.search(statement):
        x, size = m.group("x") or m.group("x2"), m.group("size") or m.group("size2")
        if x in ctx.inputs and size in ctx.params and not ctx.is_tensor(size):
            return ("explicit", (), (f"*{x}.shape[:rank({x}) - len({size})]", f"*{size}"))
        return None
    m = _INDEXED.search(statement) or _GATHERED.search(statement)
    if m is None or "dim" not in ctx.params or not {m.group("x"), m.group("index")} <= set(ctx.inputs):
        return None
    x, index, axis = m.group("x"), m.group("index"), f"dim % rank({m.group('x')})"
    middle = f"{index}.shape[0]" if m.re is _INDEXED else f"*{index}.shape"
    return ("explicit", (), (f"*{x}.shape[:{axis}]", middle, f"*{x}.shape[{axis} + 1:]"))


# self's shape halved along `dim` (GeGlu, Glu)
_SELF_HALVED: Reading = (
    "explicit",
    (),
    ("*self.shape[:dim % rank(self)]", "self.shape[dim % rank(self)] / 2", "*self.shape[dim % rank(self) + 1:]"),
)

SHAPE_PHRASES: tuple[ShapePhrase, ...] = (
    ShapePhrase(
        "prefix",
        re.compile(r"\.\.\.|…"),
        read_prefix,
        (
            ShapeExample(  # aclnnDequantSwigluQuant (ops-nn): x `shape为(N...,H)`
                "shape为[N...,H/2]",
                "yOut",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]", "x.shape[-1] / 2")),
                lists=(("x", ("N...", "H")),),
            ),
            ShapeExample(  # aclnnAdaLayerNormQuant: x `shape为[B…, S, H]`
                "shape为[B…, S]，其中B支持0到6个维度，维度数量和大小与x中的B保持一致，S与x中S维一致。",
                "quantScale",
                ("x",),
                ("explicit", (), ("*x.shape[:-2]", "x.shape[-2]")),
                lists=(("x", ("B…", "S", "H")),),
            ),
            ShapeExample(  # aclnnSwigluGroupQuantGrad: gradY `shape=[..., H]`
                "shape=[..., 2H]，常用shape为[T, 2H]或[B, S, 2H]，与x一致。",
                "gradXOut",
                ("gradY",),
                ("explicit", (), ("*gradY.shape[:-1]", "2 * gradY.shape[-1]")),
                lists=(("gradY", ("...", "H")),),
            ),
            ShapeExample(  # x's list leads with N...: another prefix
                "shape为[B…, S]", "quantScale", ("x",), None, lists=(("x", ("N...", "S", "H")),)
            ),
        ),
    ),
    ShapePhrase(
        "list",
        _LIST_HEAD,
        read_list,
        (
            # aclnnGer (ops-math)
            ShapeExample(
                "shape为{self.shape[0], vec2.shape[0]}",
                "out",
                ("self", "vec2"),
                ("explicit", (), ("self.shape[0]", "vec2.shape[0]")),
            ),
            ShapeExample(
                "shape为(B,N,2)", "gradXyz2", ("xyz2",), ("explicit", (), ("B", "N", "2"))
            ),  # aclnnChamferDistanceBackward
            ShapeExample(
                "shape为[M, 2N]", "y1Out", ("x",), None
            ),  # aclnnSwigluBackwardMxQuantWithDualAxis: 2N is no expression
            ShapeExample("shape固定为[1]", "amax", ("x",), ("explicit", (), ("1",))),  # aclnnQuantMax
            ShapeExample(  # aclnnCtcLoss logAlphaOut (910b, A3): the list's contents as inline LaTeX
                "shape为($N, T, (2*max(targetLengths)+8)/8*8$)。",
                "logAlphaOut",
                ("logProbs", "targets"),
                ("explicit", (), ("N", "T", "(2 * max(targetLengths) + 8) // 8 * 8")),
                ("targetLengths",),
                arrays=("targetLengths",),
            ),
            ShapeExample(  # aclnnFusedLinearOnlineMaxSum: C's rounding idiom, an integer division
                "shape为[(input.size(0) + 7) / 8]。",
                "targetMaskOut",
                ("input",),
                ("explicit", (), ("(input.shape[0] + 7) // 8",)),
            ),
            ShapeExample(
                "shape为(N,Cin,Hin)", "gradInput", ("input",), ("explicit", (), ("N", "Cin", "Hin"))
            ),  # aclnnConvTbcBackward
            # MoeFinalizeRoutingV2 (doc-site dialect) out; the sample: scales {3, 2}, bias {2, 4}, out {3, 4}
            ShapeExample(
                "限制：其shape支持（NUM_ROWS, H）。", "out", ("scalesOptional",), ("explicit", (), ("NUM_ROWS", "H"))
            ),
            # SwinAttentionScoreQuant (doc-site dialect) out; the sample: query {B, N, S, H}, out {B, N, S, H}
            ShapeExample(
                "维度支持四维，输出维度[N,C,S,H]，S<=1024，H=32/64",
                "out",
                ("query",),
                ("explicit", (), ("N", "C", "S", "H")),
            ),
            # MoeInitRoutingV2 (doc-site dialect) expertIdx; the sample: expertIdx {3, 2}
            ShapeExample("要求是一个2D的shape [numRows, k]。", "expertIdx", (), ("explicit", (), ("numRows", "k"))),
            # aclnnSwiGluQuant (ops-nn) smoothScalesOptional `shape支持[G, N]，[G, ]`: two shapes
            ShapeExample("shape支持[G, N]，[G, ]，其中G代表groupIndex分组数量", "scaleOut", ("x",), None),
        ),
    ),
    ShapePhrase(
        "spliced",
        re.compile(r"[._]shape\[[^\]]*\]`?\s*(?:\+\s*\[|[；;。，,]|$)"),
        read_spliced,
        (
            # legacy MoeGatingTopKSoftmaxV2 finishedOptional (line 39): `x_shape` for x's shape
            ShapeExample(
                "要求是一个1D/2D的Tensor，数据类型支持bool，shape为x_shape[:-1]，数据格式要求为ND",
                "finishedOptional",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]",)),
            ),
            ShapeExample("shape为y_shape[:-1]", "finishedOptional", ("x",), None),  # no parameter y
            # aclnnSituMxQuant (H is defined in the same statement: see shapes.py)
            ShapeExample(
                "shape为x.shape[:-1]+[H]，其中H=x.shape[-1]/2。",
                "yOut",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]", "H")),
            ),
            ShapeExample(
                "shape为x.shape[:-1]+[ceil(H/64), 2]，其中H=x.shape[-1]/2。",
                "yScaleOut",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]", "ceil(H / 64)", "2")),
            ),
            # aclnnDequantSituQuant yScaleOut's INT8 case (`INT8: shape为x.shape[:-1]；其他: …`)
            ShapeExample("shape为x.shape[:-1]", "yScaleOut", ("x",), ("explicit", (), ("*x.shape[:-1]",))),
            ShapeExample("shape为x.shape[0]。", "out", ("x",), None),  # one size, not a part of the shape
        ),
    ),
    ShapePhrase(
        "cell",
        re.compile(r"^\s*[\[\(（{]"),
        read_cell,
        (
            # aclnnThnnFusedLstmCell
            ShapeExample(
                "(batch_size, hidden_size)", "hyOut", ("input",), ("explicit", (), ("batch_size", "hidden_size"))
            ),
            ShapeExample(
                "(batch_size, 4 * hidden_size)", "storageOut", (), ("explicit", (), ("batch_size", "4 * hidden_size"))
            ),
            ShapeExample(  # aclnnCrossEntropyLoss: the list, then what its symbols are
                "(N,C) N为批处理大小，C为标签数，必须大于0", "input", (), ("explicit", (), ("N", "C"))
            ),
            ShapeExample(  # aclnnCtcLossBackward
                "(T,N,C) T为输入长度，N为批处理大小，C为类别数，包括空白标识",
                "logProbs",
                (),
                ("explicit", (), ("T", "N", "C")),
            ),
            ShapeExample("(N) 或 ()", "out", (), None),  # another list follows: several shapes
        ),
    ),
    ShapePhrase(
        "same_as",
        re.compile(r"(?i)shape|一个元素"),
        read_same,
        (
            ShapeExample("shape需要与self一样", "gradInput", ("self",), ("same", ("self",), ())),  # aclnnGeGluBackward
            # aclnnTransQuantParamV3 out (the case where scale is 2-d)
            ShapeExample(
                "out的shape与输入scale的shape维度和大小完全一致", "out", ("scale", "offset"), ("same", ("scale",), ())
            ),
            # aclnnAddRmsNormDynamicQuant: another output
            ShapeExample("shape需要与scale1Out一致", "scale2Out", ("scale1Out",), ("same", ("scale1Out",), ())),
            ShapeExample(
                "shape需要与x除最后一维后的shape一致", "scaleOut", ("x",), None
            ),  # aclnnRmsNormDynamicQuant: a part
            ShapeExample("输出shape与输入shape一致", "out", ("x",), ("same", ("x",), ())),  # aclnnSiluMul
            ShapeExample(
                "输出的数据类型、shape、数据格式与输入的数据类型、shape、数据格式保持一致",
                "out",
                ("x",),
                ("same", ("x",), ()),
            ),  # aclnnSquaredRelu
            ShapeExample("输出shape与输入shape一致", "out", ("x", "y"), None),  # aclnnSiluMul: which input?
            ShapeExample("输出shape和输入shape其他维度一致", "out", ("x",), None),  # aclnnGeluMul: a part
            ShapeExample("shape的维度与x保持一致", "y", ("x",), ("same", ("x",), ())),  # aclnnGroupedDynamicMxQuant
            # aclnnTopKTopPSample: its sample and example pass logits' own shape for logitsTopKPSelect,
            # so the statement says only that the leading n-1 dimensions agree: no whole shape
            ShapeExample("shape需要与logits前n-1维一致", "logitsSelectIdx", ("logits",), None),
            ShapeExample(
                "`out` shape 必须等于 `self` shape", "out", ("self", "other"), ("same", ("self",), ())
            ),  # aclnnFmodTensor (ops-math)
            ShapeExample(
                "一维包含一个元素的Tensor", "out", ("self", "other"), ("explicit", (), ("1",))
            ),  # aclnnEqual (ops-math)
            ShapeExample("shape维度和输入x的维度相同", "yOut", ("x",), None),  # aclnnDeepNorm: the rank, or the sizes?
            # aclnnSwigluGroupGrad (ops-nn), gradXOut: x's own alternatives, then x named
            ShapeExample("shape=[T, 2H]或[B, S, 2H]，与x一致。", "gradXOut", ("gradY", "x"), ("same", ("x",), ())),
            ShapeExample("shape=[T, 1]或[B, S, 1]。", "gradWeightOutOptional", ("x",), None),  # no tensor named
            ShapeExample(  # aclnnAveragePoolingGrad: an integer array's values
                "输入侧梯度，shape 与 origInputShape 一致",
                "out",
                ("grads",),
                ("explicit", (), ("*origInputShape",)),
                ("origInputShape",),
                arrays=("origInputShape",),
            ),
            ShapeExample("shape size为1。", "out", ("x",), ("explicit", (), ("1",))),  # aclnnForeachNorm
            ShapeExample(  # aclnnSeluBackward (ops-nn experimental): "Shape", and words before 与
                "输入梯度，数据类型和 Shape 必须与 gradOutput 一致",
                "gradInput",
                ("gradOutput", "result"),
                ("same", ("gradOutput",), ()),
            ),
            # aclnnMedian (ops-nn experimental): another output, the clause ending at its name
            ShapeExample("shape 同 valuesOut。", "indicesOut", ("self", "valuesOut"), ("same", ("valuesOut",), ())),
            ShapeExample("shape 同 input，或同 rank 且一个维度为 1。", "target", ("input",), None),  # a part
        ),
    ),
    ShapePhrase(
        "at_least",
        _AT_LEAST,
        read_at_least,
        (
            # aclnnForeachAbs (an output tensor list)
            ShapeExample(
                "数据类型和数据格式与入参x的数据类型和数据格式一致，shape size大于等于入参x的shape size。",
                "out",
                ("x",),
                ("at_least", ("x",), ()),
            ),
            ShapeExample(  # aclnnForeachAddList
                "数据类型和数据格式与入参x1的数据类型和数据格式一致，shape size大于等于入参x1的shape size。",
                "out",
                ("x1", "x2"),
                ("at_least", ("x1",), ()),
            ),
        ),
    ),
    ShapePhrase(
        "axes",
        re.compile(r"第[0-9一二三四]维(?:长度|大小)?(?:需要|必须)?(?:与|和|等于)"),
        read_axes,
        (
            # aclnnFusedLinearCrossEntropyLossGrad (ops-nn), inputGradOut (2-d; weightGradOut alike)
            ShapeExample(
                "shape第1维长度与输入grad长度相同，第2维长度与输入weight的第2维长度相同。",
                "inputGradOut",
                ("grad", "input", "weight"),
                ("explicit", (), ("grad.shape[0]", "weight.shape[1]")),
                rank=(2, 2),
            ),
            # aclnnFusedCrossEntropyLossWithMaxSum, vocabParallelLogitsOptional: one axis of two
            ShapeExample(
                "shape第1维需要与logitsMax第1维一致", "vocabParallelLogitsOptional", ("logitsMax",), None, rank=(2, 2)
            ),
        ),
    ),
    ShapePhrase(
        "last_fraction",
        re.compile(r"最后一维的\s*1\s*/"),
        read_last_fraction,
        (
            # aclnnFlatQuant (ops-nn), out: the INT32 case
            ShapeExample(
                "shape的最后一维是入参x最后一维的1/8，其余维度和x一致",
                "out",
                ("x", "kroneckerP1"),
                ("explicit", (), ("*x.shape[:-1]", "x.shape[-1] / 8")),
            ),
            # the other dimensions not said: no reading
            ShapeExample("最后一维是x最后一维的1/8", "y", ("x",), None),
        ),
    ),
    ShapePhrase(
        "drop_last",
        re.compile(r"最后一个?维|前n-1维"),
        read_drop_last,
        (
            # aclnnAddLayerNormQuantV2
            ShapeExample(
                "shape为输入x1的shape剔除掉最后一维", "outScales1Out", ("x1",), ("explicit", (), ("*x1.shape[:-1]",))
            ),
            # aclnnRmsNormDynamicQuant
            ShapeExample(
                "shape需要与输入x除最后一维后的shape一致", "scaleOut", ("x",), ("explicit", (), ("*x.shape[:-1]",))
            ),
            # aclnnSwiGluQuantV2
            ShapeExample(
                "计算输出scaleOut的shape与计算输入x相比，无最后一维，其余维度与计算输入x保持一致",
                "scaleOut",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]",)),
            ),
            ShapeExample(
                "shape维度为x的shape剔除最后一维", "scaleOut", ("x",), ("explicit", (), ("*x.shape[:-1]",))
            ),  # aclnnDynamicQuant
            ShapeExample(  # aclnnTopKTopPSample (ops-nn), logitsSelectIdx
                "shape需要与logits前n-1维一致",
                "logitsSelectIdx",
                ("logits",),
                ("explicit", (), ("*logits.shape[:-1]",)),
            ),
            ShapeExample(  # aclnnGeluQuant (the statement before it: shape比self维度少1维)
                "维度大小与self除了最后一个维度外的大小一致",
                "outScaleOptional",
                ("self",),
                ("explicit", (), ("*self.shape[:-1]",)),
            ),
        ),
    ),
    ShapePhrase(
        "last_half",
        re.compile(_HALF),
        read_last_half,
        (
            # aclnnSwiGluQuant
            ShapeExample(
                "计算输出yOut的shape最后一维大小为计算输入x最后一维的二分之一，其余维度与x保持一致",
                "yOut",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]", "x.shape[-1] / 2")),
            ),
            # aclnnFatreluMul: the input unnamed here, named where the rest is said (threshold is a tensor too)
            ShapeExample(
                "输出shape最后一维的值为输入shape最后一维值的二分之一。其他维度的值和输入input的shape其他维度的值保持一致。",
                "out",
                ("input", "threshold"),
                ("explicit", (), ("*input.shape[:-1]", "input.shape[-1] / 2")),
            ),
            # aclnnGeluMul (the rest in another statement: 输出shape和输入shape其他维度一致)
            ShapeExample(
                "最后一维的值为输入shape最后一维值的二分之一，其他维度一致",
                "out",
                ("input",),
                ("explicit", (), ("*input.shape[:-1]", "input.shape[-1] / 2")),
            ),
        ),
    ),
    ShapePhrase(
        "dim_half",
        re.compile(r"一半|\*_2"),
        read_dim_half,
        (
            ShapeExample(  # aclnnGlu (ops-nn)
                "数据类型必须可以由self cast得到，shape为(*_1,M,*_2)，其中*表示self中对应维度，M = N /2。",
                "out",
                ("self",),
                _SELF_HALVED,
                ("dim",),
            ),
            ShapeExample(  # aclnnGlu (legacy doc site): the same, in LaTeX
                "shape为$(*_1,M,*_2)$其中$*$表示self中对应维度，$M = N /2$。",
                "out",
                ("self",),
                _SELF_HALVED,
                ("dim",),
            ),
            ShapeExample("shape为(*_1,M,*_2)，其中*表示self中对应维度，M = N /2。", "out", ("self",), None),  # no dim
            # aclnnSituGlu
            ShapeExample(
                "shape在入参dim对应的维度上为x的一半，其他维度与x一致",
                "out",
                ("x",),
                (
                    "explicit",
                    (),
                    ("*x.shape[:dim % rank(x)]", "x.shape[dim % rank(x)] / 2", "*x.shape[dim % rank(x) + 1:]"),
                ),
                ("dim",),
            ),
            # aclnnGeGlu
            ShapeExample(
                "out的shape跟self的shape除了dim指定的轴外需要保持一致，dim指定的轴为self的shape对应轴的一半",
                "out",
                ("self",),
                _SELF_HALVED,
                ("dim",),
            ),
        ),
    ),
    ShapePhrase(
        "channel",
        re.compile("channel轴|第二维"),
        read_channel,
        (
            ShapeExample(
                "shape与入参input中channel轴保持一致", "meanAll", ("input",), ("explicit", (), ("input.shape[1]",))
            ),  # aclnnBatchNormGatherStatsWithCounts
            ShapeExample(
                "shape需要与输入x的第二维的值一致", "sum", ("x",), ("explicit", (), ("x.shape[1]",))
            ),  # aclnnBatchNormReduce
            ShapeExample(
                "shape长度与入参input中channel轴的长度相等",
                "saveMean",
                ("input",),
                ("explicit", (), ("input.shape[1]",)),
            ),  # aclnnBatchNorm
        ),
    ),
    ShapePhrase(
        "norm",
        re.compile(r"norm|前\d维|最后一维(?:固定)?为1|-1轴是1"),
        read_norm,
        (
            # aclnnRmsNorm
            ShapeExample(
                "维度数与x保持一致，其中不需要norm的维度与x对应维度保持一致，需要norm的维度（与gamma维度数相同的后几维）均为1",
                "rstdOut",
                ("x", "gamma"),
                ("explicit", (), ("*x.shape[:rank(x) - rank(gamma)]", "*ones(rank(gamma))")),
            ),
            # aclnnGemmaRmsNorm: the leading dimensions only, and the sample writes (2, 1): no rank stated
            ShapeExample(
                "shape与入参x的shape前几维保持一致，前几维指x的维度减去gamma的维度，表示不需要norm的维度",
                "rstdOut",
                ("x", "gamma"),
                None,
            ),
            # aclnnInstanceNorm
            ShapeExample(
                "shape与输入x满足broadcast关系（前2维的shape和输入x前2维的shape相同，前2维表示不需要norm的维度，其余维度大小为1）",
                "mean",
                ("x",),
                ("explicit", (), ("*x.shape[:2]", "*ones(rank(x) - 2)")),
            ),
            # aclnnAdaLayerNormV2
            ShapeExample(
                "shape为[B…, S, 1]，最后一维固定为1，其他维度大小和x一致",
                "meanOutOptional",
                ("x",),
                ("explicit", (), ("*x.shape[:-1]", "1")),
            ),
            # aclnnRmsNormDynamicMxQuant
            ShapeExample(
                "维度数与入参x保持一致，除最后一维外各维度与x对应维度保持一致，最后一维为1",
                "rstdOut",
                ("x", "gamma"),
                ("explicit", (), ("*x.shape[:-1]", "1")),
            ),
        ),
    ),
    ShapePhrase(
        "layouts",
        re.compile(r"输出\s*(?:的)?\s*shape\s*(?:是|为)\s*[A-Z]{2,8}"),
        read_layouts,
        (
            # PromptFlashAttentionV2 (doc-site dialect) attentionOut, the case inputLayout BNSD_BSND
            ShapeExample(
                "输入query的shape是BNSD，输出shape为BSND",
                "attentionOut",
                ("query", "key"),
                ("explicit", (), ("query.shape[0]", "query.shape[2]", "query.shape[1]", "query.shape[3]")),
            ),
            ShapeExample("输入query的shape是BNSD，输出shape为BSH", "attentionOut", ("query",), None),  # merged axes
            ShapeExample("输入mask的shape是BNSD，输出shape为BSND", "attentionOut", ("query",), None),  # no input
        ),
    ),
    ShapePhrase(
        "last_by_value",
        re.compile(r"非(?:-1轴|尾轴|最后一维|最后一个轴)"),
        read_last_by_value,
        (
            # MoeGatingTopKSoftmax (doc-site dialect) yOut; the sample: x {3, 4}, k 2, yOut {3, 2}
            ShapeExample(
                "其非-1轴要求与x的对应轴大小一致，其-1轴要求其大小同k值",
                "yOut",
                ("x", "finishedOptional"),
                ("explicit", (), ("*x.shape[:-1]", "k")),
                ("k",),
            ),
            ShapeExample(  # a tensor's size is no value
                "其非-1轴要求与x的对应轴大小一致，其-1轴要求其大小同w值", "yOut", ("x", "w"), None
            ),
            ShapeExample(  # the leading axes of no input
                "其非-1轴要求与z的对应轴大小一致，其-1轴要求其大小同k值", "yOut", ("x",), None, ("k", "z")
            ),
        ),
    ),
    ShapePhrase(
        "layer_norm",
        re.compile(r"Ai后共有j个1"),
        read_layer_norm,
        (
            # aclnnLayerNorm
            ShapeExample(
                "shape为[A1,...,Ai,1,...,1]，Ai后共有j个1，与需要norm的轴长度保持相同",
                "meanOutOptional",
                ("input",),
                ("explicit", (), ("*input.shape[:rank(input) - len(normalizedShape)]", "*ones(len(normalizedShape))")),
                ("normalizedShape",),
            ),
        ),
    ),
    ShapePhrase(
        "size0",
        re.compile(r"\.size\(0\)"),
        read_size0,
        (
            # aclnnFusedLinearOnlineMaxSum (a 1-d output)
            ShapeExample(
                "logitsMaxLocalOut.size(0)需要与input.size(0)一致",
                "logitsMaxLocalOut",
                ("input",),
                ("explicit", (), ("input.shape[0]",)),
                rank=(1, 1),
            ),
        ),
    ),
    ShapePhrase(
        "axis_one",
        re.compile("排序轴为1"),
        read_axis_one,
        (
            ShapeExample(  # aclnnKthvalue
                "shape排序轴为1，非排序轴与self一致",
                "valuesOut",
                ("self",),
                ("explicit", (), ("*self.shape[:dim % rank(self)]", "1", "*self.shape[dim % rank(self) + 1:]")),
                ("dim",),
            ),
        ),
    ),
    ShapePhrase(
        "element_count",
        re.compile(r"元素个数(?:与|和)"),
        read_element_count,
        (
            # aclnnUnique2
            ShapeExample(
                "第一个输出张量，保存输入张量中的唯一元素，shape仅支持1维度，元素个数与self相同。",
                "valueOut",
                ("self",),
                ("explicit", (), ("prod(self.shape)",)),
                ("sorted", "returnInverse", "returnCounts"),
            ),
            # a 1-d output by its rank column
            ShapeExample("元素个数与x一致。", "y", ("x",), ("explicit", (), ("prod(x.shape)",)), rank=(1, 1)),
            # the rank unsaid: any shape of that element count
            ShapeExample("元素个数与x一致。", "y", ("x",), None),
            # aclnnForeachAddScalarList's scalars: a list's tensors, not a tensor's elements
            ShapeExample("元素个数与`x`中Tensor的个数相等。", "scalars", ("x",), None, rank=(1, 1)),
        ),
    ),
    ShapePhrase(
        "larger_of",
        re.compile(r"最大值"),
        read_larger_of,
        (
            # aclnnTransQuantParamV3 out (the case where scale is 1-d)
            ShapeExample(
                "out的shape也为1维，该维度的shape大小为scale与offset(若不为nullptr)单维shape大小的最大值",
                "out",
                ("scale", "offset"),
                ("explicit", (), ("max(scale.shape[0], offset.shape[0])",)),
                ("roundMode",),
            ),
            # aclnnTransQuantParamV2's constraints
            ShapeExample(
                "out的shape也为1维，且shape大小为scale与offset单维shape大小的最大值",
                "out",
                ("scale", "offset"),
                ("explicit", (), ("max(scale.shape[0], offset.shape[0])",)),
            ),
            # aclnnAdvanceStep: a bound, not a size
            ShapeExample(
                "shape第一维长度与numSeqs一致，第二维大于（seqLens中的最大值）/blockSize。", "x", ("seqLens",), None
            ),
        ),
    ),
    ShapePhrase(
        "value_size",
        re.compile(r"shape大小与|在dim维度下的size"),
        read_value_size,
        (
            # aclnnRepeatInterleaveInt
            ShapeExample(
                "shape为1D Tensor，shape大小与outputSize相同",
                "out",
                ("self",),
                ("explicit", (), ("outputSize",)),
                ("outputSize",),
            ),
            # aclnnRepeatInterleaveIntWithDim
            ShapeExample(
                "out的shape在dim维度下的size等于repeats * self在dim维度下的size",
                "out",
                ("self",),
                (
                    "explicit",
                    (),
                    (
                        "*self.shape[:dim % rank(self)]",
                        "repeats * self.shape[dim % rank(self)]",
                        "*self.shape[dim % rank(self) + 1:]",
                    ),
                ),
                ("dim", "repeats"),
            ),
        ),
    ),
    ShapePhrase(
        "indexed",
        re.compile(r"除dim维|共同指定|推导出的shape"),
        read_indexed,
        (
            ShapeExample(  # aclnnIndexSelect
                "除dim维长度等于index长度外，其他维长度与self相应维一致",
                "out",
                ("self", "index"),
                (
                    "explicit",
                    (),
                    ("*self.shape[:dim % rank(self)]", "index.shape[0]", "*self.shape[dim % rank(self) + 1:]"),
                ),
                ("dim",),
            ),
            ShapeExample(  # aclnnGatherV2
                "维数等于self维数与index维数之和减一，除dim维扩展为跟index的shape一样外，其他维长度与self相应维一致",
                "out",
                ("self", "index"),
                (
                    "explicit",
                    (),
                    ("*self.shape[:dim % rank(self)]", "*index.shape", "*self.shape[dim % rank(self) + 1:]"),
                ),
                ("dim",),
            ),
            ShapeExample(  # aclnnAdaptiveAvgPool2d
                "Shape由self和outputSize共同指定",
                "out",
                ("self",),
                ("explicit", (), ("*self.shape[:rank(self) - len(outputSize)]", "*outputSize")),
                ("outputSize",),
            ),
        ),
    ),
    ShapePhrase(
        "matmul",
        re.compile("@"),
        read_matmul,
        (
            ShapeExample(
                "result=self @ mat2", "out", ("self", "mat2"), ("matmul", ("self", "mat2"), ())
            ),  # aclnnMm (formula)
            ShapeExample(
                "out = β  self + α  (mat1 @ mat2)", "out", ("self", "mat1", "mat2"), ("matmul", ("mat1", "mat2"), ())
            ),  # aclnnAddmm
            ShapeExample(
                "out = α  (A @ B) + β  C  out = α  (A^T @ B^T) + βC", "out", ("A", "B", "C"), None
            ),  # aclnnGemm: no parameter says when A^T
            ShapeExample(  # aclnnGemm: transA and transB decide (若transA非零，计算前会将A进行转置)
                "out = α  (A @ B) + β  C  out = α  (A^T @ B^T) + βC",
                "out",
                ("A", "B", "C"),
                ("matmul", ("A", "B", "transA", "transB"), ()),
                ("alpha", "beta", "transA", "transB"),
            ),
            ShapeExample(  # aclnnQuantMatmulV3
                "out = x1@x2 * scale + offset  out = (x1@x2 + bias) * scale + offset",
                "out",
                ("x1", "x2", "scale", "bias"),
                ("matmul", ("x1", "x2", "transposeX1", "transposeX2"), ()),
                ("offset", "transposeX1", "transposeX2"),
            ),
            ShapeExample(  # aclnnQuantMatmulDequant: one operand transposed
                "out = (x @ weight) * weightScale",
                "out",
                ("x", "weight", "weightScale"),
                ("matmul", ("x", "weight", "", "transposeWeight"), ()),
                ("transposeWeight",),
            ),
            ShapeExample(  # a transposition of something else: not read
                "out = x1@x2", "out", ("x1", "x2"), None, ("transposeX1", "transposeOut")
            ),
            ShapeExample(  # aclnnWeightQuantBatchMatmulV2: an operand in a function the formula defines elementwise
                "y = x @ ANTIQUANT(weight) + bias\n\nANTIQUANT(weight) = (weight + antiquantOffset) * antiquantScale",
                "y",
                ("x", "weight", "antiquantScale", "antiquantOffsetOptional", "biasOptional"),
                ("matmul", ("x", "weight"), ()),
            ),
            ShapeExample(  # the same, the function undefined or defined by a call: its shape unknown
                "y = x @ ANTIQUANT(weight) + bias\n\nANTIQUANT(weight) = cast(weight) * antiquantScale",
                "y",
                ("x", "weight", "antiquantScale"),
                None,
            ),
            ShapeExample(  # aclnnAddbmm: the product's last two dimensions
                "shape要求与batch1@batch2的后两维shape保持一致。",
                "out",
                ("self", "batch1", "batch2"),
                ("explicit", (), ("batch1.shape[-2]", "batch2.shape[-1]")),
                rank=(2, 2),
            ),
            ShapeExample(  # aclnnBaddbmm: out is 3-d, the statement bounds its last two dimensions
                "shape要求与batch1@batch2的后两维shape保持一致。",
                "out",
                ("self", "batch1", "batch2"),
                None,
                rank=(3, 3),
            ),
        ),
    ),
    ShapePhrase(
        "reduce",
        re.compile(r"(?i)keep_?dim"),
        read_reduce,
        (
            # aclnnNanMedianDim
            ShapeExample(
                "若keepDim为true，则shape需要与self的shape在除dim外的size一致，且在dim上的size为1，若keepDim为false，则shape需要与self除dim外的shape一致",
                "valuesOut",
                ("self",),
                ("reduce", ("self", "dim", "keepDim"), ()),
                ("dim", "keepDim"),
            ),
            ShapeExample(  # aclnnMedianDim (ops-nn/experimental)
                "dtype 须与 self 一致；shape 为 self 去掉 dim 维（keepDim 时该维为 1）。",
                "valuesOut",
                ("self",),
                ("reduce", ("self", "dim", "keepDim"), ()),
                ("dim", "keepDim"),
            ),
            ShapeExample(
                "shape需要依据keepDim与self相对应",
                "valuesOut",
                ("self",),
                ("reduce", ("self", "dim", "keepDim"), ()),
                ("dim", "keepDim"),
            ),  # aclnnMedianDim
        ),
    ),
    ShapePhrase(
        "loss",
        re.compile(r"reduction"),
        read_loss,
        (
            # aclnnNLLLoss2d
            ShapeExample(
                "当reduction为0（none）时，shape与target的shape相同，否则为(1,)",
                "out",
                ("self", "target"),
                ("reduction", ("reduction", "target"), ("1",)),
                ("reduction",),
            ),
            # aclnnSoftMarginLoss
            ShapeExample(
                "reduction=0 时 shape 与 self 相同；reduction=1 或 2 时为标量（0 维 tensor）",
                "out",
                ("self",),
                ("reduction", ("reduction", "self"), ()),
                ("reduction",),
            ),
            # aclnnSmoothL1Loss
            ShapeExample(
                "当reduction为none时，shape与self和target的broadcast结果一致，当reduction为mean或sum时为[1]",
                "result",
                ("self", "target"),
                ("reduction", ("reduction", "self", "target"), ("1",)),
                ("reduction",),
            ),
            # aclnnSoftMarginLoss (ops-nn): quoted 'none', 需要与, English "scalar"
            ShapeExample(
                "若reduction取值为'none'，则shape需要与self和target进行 broadcast 后的shape一致，否则out为scalar。",
                "out",
                ("self", "target"),
                ("reduction", ("reduction", "self", "target"), ()),
                ("reduction",),
            ),
            # aclnnMseLoss
            ShapeExample(
                "当reduction的值为0时，out的shape与self和targetbroadcast后的shape一致；当reduction的值不为0时，out的shape支持0维",
                "out",
                ("self", "target"),
                ("reduction", ("reduction", "self", "target"), ()),
                ("reduction",),
            ),
        ),
    ),
)
