"""Sizes the documents give in words beside an output's list: a symbol a statement defines by
a parameter (`num_layers`对应参数`numLayers`) or by a bool (`bidirectional为True时`D = 2`，否则
`D = 1``), and a list that changes when a bool is true (aclnnBidirectionLSTM's yOut:
`shape支持三维（time_step, batch_size, hidden_size）或者当bidirection为True时（time_step,
batch_size, 2 * hidden_size）`), read as one list whose differing sizes choose by the bool
(`2 * hidden_size if bidirection else hidden_size`). Only what the statements say is read: a
symbol defined two ways, by a name that is no parameter of that kind, or a pair of lists of
different lengths is left as it is. The inputs' lists in the same words bind their symbols
(`x`: `shape支持三维（time_step, batch_size, input_size）`); a list that changes with a bool
binds the symbols both forms hold at one axis (initH: batch_size, hidden_size). An integer
array that is the output's spatial size (`outputSize`: `表示输出结果在H和W维度上的空间大小`) gives
the only output those sizes after the input's leading dimensions, as a pooling formula does.

Beside those: a symbol a statement defines by an expression in parentheses (`其中 `dimSize` 等于
`grad` 的最后一维大小（即 `grad.shape[-1]`）`, the constraints section's lines included), a list
whose multiples are written without the sign (`shape为[M, 2N]`), and an output whose size along
`dim` is an integer parameter's, described as that size (`outputSize`: `dim维度再进行重复后的最终大小`).
A tensor list laid out as an input list (`排布与输入params一致`) whose row lists the same element
shapes as the input's takes each element's shape from the input's. An output's list said with
its rank (`shape支持三维（D * num_layers, batch_size, hidden_size）`) is read as its shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from specgen.model import Param, ShapeRule, SymbolDim
from specgen.parse.classify.shape_phrases import Reading, dim_expression, listed, substituted
from specgen.parse.classify.statements import is_conditional
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
# `其中，`num_layers`对应参数`numLayers``; `num_layers：对应参数numLayers`
_PARAM_OF = re.compile(rf"`?(?P<sym>{_NAME})`?\s*[：:]?\s*对应参数\s*`?(?P<param>{_NAME})`?")
# `bidirectional为True时`D = 2`，否则`D = 1``; aclnnLSTM: `bidirection=True时D=2，否则D=1`
_BOOL_CASE = re.compile(
    rf"(?P<flag>{_NAME})\s*(?:为|=)\s*(?:True|true)\s*时\s*`?(?P<sym>{_NAME})\s*=\s*(?P<yes>\d+)`?\s*[，,]\s*否则\s*"
    rf"`?(?P=sym)\s*=\s*(?P<no>\d+)`?"
)
# `其中 `dimSize` 等于 `grad` 的最后一维大小（即 `grad.shape[-1]`）`: the words, then the expression
_THAT_IS = re.compile(
    rf"其中\s*`?(?P<sym>{_NAME})`?\s*(?:等于|为|是)[^（(。；;]*[（(]\s*即\s*`?(?P<expr>[^`（）()]+)`?\s*[）)]"
)
# `（a, b, c）或者当flag为True时（a, b, 2 * c）`
_LIST = r"[（(\[](?P<{}>[^（）()\[\]]*)[）)\]]"
_ALTERNATIVE = re.compile(
    _LIST.format("plain") + rf"\s*或者?\s*当\s*(?P<flag>{_NAME})\s*为\s*(?:True|true)\s*时\s*" + _LIST.format("flagged")
)
# `当modulated为True时，shape为[N, 3 * …]；当modulated为False时，shape为[N, 2 * …]`
_BOTH_CASES = re.compile(
    rf"当\s*(?P<flag>{_NAME})\s*为\s*(?:True|true)\s*时[，,]?\s*shape为\s*"
    + _LIST.format("flagged")
    + r"[\s。；;，,]*当\s*(?P=flag)\s*为\s*(?:False|false)\s*时[，,]?\s*shape为\s*"
    + _LIST.format("plain")
)


def symbol_definitions(texts: Iterable[str], params: Sequence[Param]) -> dict[str, str]:
    """Each symbol a statement defines, as the evaluator's expression (`numLayers`,
    `(2 if bidirectional else 1)`); a parameter's own name is never redefined."""
    kinds = {q.name: q.kind for q in params}
    found: dict[str, set[str]] = {}
    for text in texts:
        for m in _PARAM_OF.finditer(text):
            if kinds.get(m.group("param")) == "int" and m.group("sym") not in kinds:
                found.setdefault(m.group("sym"), set()).add(m.group("param"))
        for m in _BOOL_CASE.finditer(text):
            if kinds.get(m.group("flag")) == "bool" and m.group("sym") not in kinds:
                expr = f"({m.group('yes')} if {m.group('flag')} else {m.group('no')})"
                found.setdefault(m.group("sym"), set()).add(expr)
        for sym, expr in _that_is(text, params):
            found.setdefault(sym, set()).add(expr)
    return {sym: exprs.pop() for sym, exprs in found.items() if len(exprs) == 1}


def misdefined(symbols: Iterable[str], texts: Iterable[str], params: Sequence[Param]) -> str:
    """Why statements that define some of `symbols` bind none of them: the name they define it
    by is no parameter of that kind (aclnnGRUBackward: `bidirection为True时 D = 2，否则 D = 1`,
    the bool being `bidirectional`); "" when no statement defines them."""
    kinds = {q.name: q.kind for q in params}
    wanted, found = set(symbols), set()
    for text in texts:
        for m in _BOOL_CASE.finditer(text):
            if m.group("sym") in wanted and kinds.get(m.group("flag")) != "bool":
                found.add(f"{m.group('sym')} is defined by {m.group('flag')}, which is no bool parameter")
        for m in _PARAM_OF.finditer(text):
            if m.group("sym") in wanted and kinds.get(m.group("param")) != "int":
                found.add(f"{m.group('sym')} is defined by {m.group('param')}, which is no integer parameter")
    return "; ".join(sorted(found))


def _that_is(text: str, params: Sequence[Param]) -> Iterable[tuple[str, str]]:
    """The symbols `其中 S 等于 …（即 E）` defines, when E reads a tensor's shape
    (`grad.shape[-1]`); a word in the parentheses, or a parameter's own name, is no definition."""
    names = [q.name for q in params]
    tensors = [q.name for q in params if q.kind in ("tensor", "tensor_list")]
    for m in _THAT_IS.finditer(text):
        expr = dim_expression(m.group("expr"), names)
        if expr and m.group("sym") not in names and any(f"{t}.shape" in expr for t in tensors):
            yield m.group("sym"), expr


def defined_by_statements(dims: tuple[str, ...], texts: Iterable[str], params: Sequence[Param]) -> tuple[str, ...]:
    """The dims with each symbol the statements define replaced by its expression."""
    return substituted(dims, symbol_definitions(texts, params))


# aclnnEmbeddingDenseBackward's out: `维度为2维，首轴大小为numWeights，尾轴大小与grad尾轴相同`
_FIRST_AXIS = re.compile(rf"首轴大小为\s*`?(?P<size>{_NAME})`?")
_LAST_AXIS = re.compile(rf"尾轴大小与\s*`?(?P<peer>{_NAME})`?\s*的?尾轴相同")
_TWO_DIMS = re.compile(r"维度为2维|^\s*2\s")


def worded_reading(p: Param, texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """A shape an output's statements give in these words (a list that changes with a bool, a
    2-d shape by its first and last axes, a list of multiples written `2N`, the input's shape
    with its `dim` axis of an integer parameter's size), with the index of the statement; None
    when none."""
    return (
        bool_alternative(texts, params)
        or _two_axes(p, texts, params)
        or _implicit_products(texts, params)
        or _final_size(p, texts, params)
        or _same_arrangement(p, texts, params)
        or _ranked_list(texts, params)
    )


_RANKS = "一二三四五六七八"
# aclnnLSTM's hy: `shape支持三维（D * num_layers, batch_size, hidden_size）`; iOut: `列表中每个shape支持三维（…）`
_RANKED = re.compile(rf"shape支持(?P<rank>[{_RANKS}])维\s*[（(](?P<items>[^（）()]*)[）)]")


def _ranked_list(texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """The one list an output's statements give as `shape支持三维（a, b, c）`, of as many
    dimensions as they say, with no other beside it (`或者当…时（…）` is `bool_alternative`'s)
    and no condition; None otherwise."""
    names = [q.name for q in params]
    found = []
    for i, text in enumerate(texts):
        for m in _RANKED.finditer(text):
            items = [item.strip() for item in re.split(r"[,，]", m.group("items"))]
            dims = [dim_expression(item, names) for item in items]
            alone = not is_conditional(text) and "或" not in text[m.end() :][:4]
            if alone and len(items) == _RANKS.index(m.group("rank")) + 1 and all(dims):
                found.append((("explicit", (), tuple(d for d in dims if d)), i))
    # the same list said twice (aclnnLSTM's table gives hy's row twice) is one list
    return found[0] if len({reading for reading, _ in found}) == 1 else None  # type: ignore[return-value]


# aclnnLstmBackward's dparamsOut: `排布与输入params一致`, and each element's shape by its name
# (`dweight_ih：[4*hidden_size, cur_input_size] …`) as params' row gives them (`weight_ih：[…]`)
_ARRANGED_AS = re.compile(rf"排布(?:需要|必须)?与(?:输入|入参)?\s*`?(?P<x>{_NAME})`?\s*(?:保持)?(?:一致|相同)")
_ELEMENT_SHAPE = re.compile(rf"{_NAME}\s*[：:]\s*(?P<list>\[[^\[\]]*\])")


def _same_arrangement(p: Param, texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """A tensor list laid out as an input tensor list (`排布与输入params一致`) whose row lists
    the same element shapes as that input's: each element the shape of the input's."""
    lists = {q.name: q for q in params if q.kind == "tensor_list" and q.direction == "in"}
    for i, text in enumerate(texts):
        m = _ARRANGED_AS.search(text)
        x = lists.get(m.group("x")) if m and p.kind == "tensor_list" else None
        if x is not None and _element_shapes(p.text) and _element_shapes(p.text) == _element_shapes(x.text):
            return ("same", (x.name,), ()), i
    return None


def _element_shapes(text: str) -> set[str]:
    return {re.sub(r"\s+", "", m.group("list")) for m in _ELEMENT_SHAPE.finditer(text)}


# `2N`, `4 H`, `2N/32`: a number written before the symbol it multiplies (not a name's digits: `x1`)
_IMPLICIT = re.compile(r"(?<![A-Za-z0-9_.])(?P<k>\d+)\s*(?=[A-Za-z_])")


def _implicit_products(texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """`shape为[M, 2N]` (aclnnSwigluBackwardMxQuantWithDualAxis y1Out): the one list the
    statements give, unconditionally, whose dimensions are closed once `2N` is read `2 * N`;
    None when no such list, or several, or one with no such product (other readers see those)."""
    names = [q.name for q in params]
    found = []
    for i, text in enumerate(texts):
        parts = listed(text) if not is_conditional(text) else None
        if not parts or not any(_IMPLICIT.search(part) for part in parts):
            continue
        dims = [dim_expression(_IMPLICIT.sub(r"\g<k> * ", part.strip()), names) for part in parts]
        if all(dims):
            found.append((("explicit", (), tuple(d for d in dims if d)), i))
    return found[0] if len(found) == 1 else None  # type: ignore[return-value]


# aclnnRepeatInterleaveWithDim's outputSize: `dim维度再进行重复后的最终大小`; its out: `out的shape在
# dim维度下的size等于repeats中所有元素的和…等于repeats * self的dim维度下的size`
_FINAL_SIZE = re.compile(r"^dim维度[^，,。；;]{0,12}最终大小")
_ALONG_DIM = re.compile(rf"(?P<out>{_NAME})的shape在dim维度下的size等于.*?(?P<x>{_NAME})的?(?:在)?dim维度")


def _final_size(p: Param, texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """The output's size along `dim` said by its row, and an integer parameter whose own
    description says it is that size (`outputSize`: `dim维度再进行重复后的最终大小`): the input's
    shape with that axis of the parameter's size, as the 功能说明's worked example shows
    (`[[a, b], [c, d], [e, f]]`, repeats `[1, 2, 3]`, dim 0: six rows of two). The input is the
    one the row names beside `dim`."""
    kinds = {q.name: q.kind for q in params}
    sizes = [q.name for q in params if q.kind == "int" and _FINAL_SIZE.match(q.description.strip())]
    if kinds.get("dim") != "int" or len(sizes) != 1:
        return None
    for i, text in enumerate(texts):
        m = _ALONG_DIM.search(text)
        if m and m.group("out") == p.name and kinds.get(m.group("x")) == "tensor":
            x, axis = m.group("x"), f"dim % rank({m.group('x')})"
            return ("explicit", (), (f"*{x}.shape[:{axis}]", sizes[0], f"*{x}.shape[{axis} + 1:]")), i
    return None


def _two_axes(p: Param, texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """`维度为2维，首轴大小为numWeights，尾轴大小与grad尾轴相同`: an integer parameter's value,
    then a tensor's last axis; the rank 2 said in the statement or by the output's row."""
    kinds = {q.name: q.kind for q in params}
    two = p.rank is not None and p.rank.min == p.rank.max == 2
    for i, text in enumerate(texts):
        first, last = _FIRST_AXIS.search(text), _LAST_AXIS.search(text)
        if first is None or last is None or not (two or _TWO_DIMS.search(text)):
            continue
        if kinds.get(first.group("size")) == "int" and kinds.get(last.group("peer")) in ("tensor", "tensor_list"):
            return ("explicit", (), (first.group("size"), f"{last.group('peer')}.shape[-1]")), i
    return None


def bool_alternative(texts: Sequence[str], params: Sequence[Param]) -> tuple[Reading, int] | None:
    """The one list an output's statements give with its form when a bool is true, and the
    index of the statement that gives it; None when no statement does, or two do."""
    bools = {q.name for q in params if q.kind == "bool"}
    names = [q.name for q in params]
    joined = "\n".join(texts)  # the two cases may stand in two statements
    starts = [sum(len(t) + 1 for t in texts[:i]) for i in range(len(texts))]
    found = []
    for pattern in (_ALTERNATIVE, _BOTH_CASES):
        for m in pattern.finditer(joined):
            dims = _merged(m.group("plain"), m.group("flagged"), m.group("flag"), names)
            if m.group("flag") in bools and dims is not None:
                found.append((("explicit", (), dims), max(i for i, at in enumerate(starts) if at <= m.start())))
    return found[0] if len(found) == 1 else None  # type: ignore[return-value]


def _merged(plain: str, flagged: str, flag: str, names: Sequence[str]) -> tuple[str, ...] | None:
    """The two lists as one: equal sizes kept, differing ones `flagged if flag else plain`."""
    pairs = list(zip(re.split(r"[,，]", plain), re.split(r"[,，]", flagged), strict=False))
    if len(re.split(r"[,，]", plain)) != len(re.split(r"[,，]", flagged)):
        return None
    dims = []
    for a, b in pairs:
        x, y = dim_expression(a, names), dim_expression(b, names)
        if x is None or y is None:
            return None
        dims.append(x if x == y else f"{y} if {flag} else {x}")
    return tuple(dims)


_RANK_LIST = re.compile(r"shape支持[一二三四五六七八]维" + _LIST.format("plain"))


def list_bindings(params: Sequence[Param], statements: dict[str, list[str]]) -> dict[str, list[SymbolDim]]:
    """Symbols the inputs' `shape支持三维（a, b, c）` lists name one dimension each, in order."""
    bound: dict[str, list[SymbolDim]] = {}
    for q in params:
        if q.kind != "tensor" or q.direction != "in":
            continue
        for text in statements.get(q.name, []):
            alternative = _ALTERNATIVE.search(text)
            plain = _RANK_LIST.search(text) if alternative is None else alternative
            if plain is None:
                continue
            items = [item.strip() for item in re.split(r"[,，]", plain.group("plain"))]
            other = re.split(r"[,，]", alternative.group("flagged")) if alternative else items
            for axis, (item, flagged) in enumerate(zip(items, other, strict=False)):
                if re.fullmatch(_NAME, item) and item == flagged.strip() and len(items) == len(other):
                    bound.setdefault(item, []).append(SymbolDim(symbol=item, param=q.name, axis=axis))
    return bound


# aclnnMaxUnpool2d's outputSize: `表示输出结果在H和W维度上的空间大小`; aclnnMaxUnpool3d: `D、H和W`
_SPATIAL = re.compile(r"表示输出结果在(?P<axes>(?:[DHW](?:out)?[和、，,\s]*)+)维度上的空间大小")


def spatial_rule(p: Param, params: Sequence[Param], tied_to: Sequence[str] = ()) -> ShapeRule | None:
    """The only output's shape when an integer array is its spatial size: the input's leading
    dimensions, then the array's values (`[*self.shape[:-2], *outputSize]`). The input is the
    one tensor input, or the one the array's row names (`self在H和W维度上的size`). Outputs
    whose statements tie each to the other outputs (`tied_to`: aclnnAdaptiveMaxPool2d's
    outputOut `shape与indicesOut一致`, indicesOut `shape与outputOut一致`) share that size."""
    outputs = [q.name for q in params if q.direction == "out" and q.kind in ("tensor", "tensor_list")]
    arrays = [(q, m) for q in params if q.kind == "int_array" and (m := _SPATIAL.search(f"{q.description}\n{q.text}"))]
    others = set(outputs) - {p.name}
    if not (outputs == [p.name] or (tied_to and set(tied_to) <= others)) or len(arrays) != 1:
        return None
    array, m = arrays[0]
    inputs = [q.name for q in params if q.kind == "tensor" and q.direction == "in"]
    named = [n for n in inputs if re.search(rf"(?<![A-Za-z0-9_]){n}(?![A-Za-z0-9_])", array.text)]
    source = inputs if len(inputs) == 1 else named if len(named) == 1 else []
    if not source:
        return None
    k = len(re.findall(r"[DHW]", m.group("axes")))
    dims = (f"*{source[0]}.shape[:{-k}]", f"*{array.name}")
    return ShapeRule(kind="explicit", dims=dims, text=m.group(0), line=array.line)
