"""An output's shape the constraints section gives dtype by dtype, in lines of its own, each led
by one dtype of the output (aclnnRotateQuant, under `<!-- npu="A3,910b" -->`):

    - x的shape为(M, N)，rotation的shape为(K, K)。
    - 当yOut的输出类型为int8时，y的shape必须和x相同(M, N)。
    - 当yOut的输出类型为int32时，y的shape必须为(M, N//8)。

Each line is a case of a `one_of` rule that holds when the output has that dtype (and on the
products of the npu comment it lies under): an input's shape (`和x相同`), or a list whose
symbols an input's shape in the same scope binds (`x的shape为(M, N)`). The shape may be said of
the output by its name without `Out` (`y` for yOut) where no parameter has that name. A dtype
no line names (950's FLOAT8 yOut) holds no case: unchecked, and not allocated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.dtype_rules import scoped
from specgen.parse.classify.shape_gradients import Said
from specgen.vocab import DTYPES, dtype

_NAME = r"`?(?P<{}>[A-Za-z_][A-Za-z0-9_]*)`?"
_CASE = re.compile(
    r"^\s*[-*]?\s*(?:当|若|如果)\s*" + _NAME.format("out") + r"\s*的\s*(?:数据|输出)?类型为\s*(?P<dtype>[A-Za-z0-9_]+)"
    r"\s*(?:类型)?\s*时\s*[，,]\s*" + _NAME.format("subject") + r"\s*的\s*shape\s*(?:必须|需要|需)?\s*"
    r"(?:(?:和|与)\s*(?:输入)?\s*" + _NAME.format("same") + r"\s*(?:的shape)?\s*(?:相同|一致|保持一致)"
    r"\s*(?:[（(][^）)]*[）)])?|为\s*[（(](?P<dims>[^）)]*)[）)])\s*[。；;]?\s*$"
)
# `x的shape为(M, N)`: an input's dims named by symbols
_INPUT_SHAPE = re.compile(_NAME.format("name") + r"\s*的\s*shape\s*(?:为|是)\s*[（(](?P<dims>[^）)]*)[）)]")
_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIM = re.compile(r"^[A-Za-z0-9_\s+\-*/]+$")


def dtype_case_rule(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> ShapeRule | None:
    """`p`'s shape case by case for the dtypes the constraints section's lines give it; None
    when no line does, or one that does is not read."""
    names = {q.name: q for q in params}
    subjects = {p.name} | ({p.name.removesuffix("Out")} - names.keys())
    inputs = {q.name for q in params if q.kind == "tensor" and q.direction != "out"}
    cases: list[ShapeRule] = []
    bound: dict[str, dict[str, str]] = {}
    for s, products in scoped(notes):
        for shaped in _INPUT_SHAPE.finditer(s.text):
            if shaped.group("name") in inputs:
                bound.setdefault(products, {}).update(_bindings(shaped.group("name"), shaped.group("dims")))
        m = _CASE.match(s.text)
        if m is None or m.group("out") != p.name:
            continue
        d = dtype(m.group("dtype"))
        if m.group("subject") not in subjects or d not in DTYPES or (p.dtypes and d not in p.dtypes):
            return None
        if products == "-":
            continue  # an npu comment naming no product known: held nowhere
        on = ("", "product", products, "true") if products else ()
        case = _case(m, inputs, bound.get(products, {}), s, (*on, p.name, "dtype", d, "true"))
        if case is None:
            return None
        cases.append(case)
    if not cases:
        return None
    read = tuple(dict.fromkeys(n for c in cases for n in (*c.params, *_read(c.dims)) if n in inputs))
    return ShapeRule(kind="one_of", params=read, alternatives=tuple(cases), text=cases[0].text, line=cases[0].line)


def _read(dims: Sequence[str]) -> list[str]:
    return [m.group(1) for d in dims for m in re.finditer(r"([A-Za-z_]\w*)\.shape", d)]


def _bindings(name: str, dims: str) -> dict[str, str]:
    """Each plain symbol of an input's listed shape, as that dimension of the input."""
    parts = [d.strip() for d in re.split(r"[,，]", dims)]
    return {d: f"{name}.shape[{i}]" for i, d in enumerate(parts) if re.fullmatch(r"[A-Za-z]\w*", d)}


def _case(
    m: re.Match[str], inputs: set[str], bound: dict[str, str], s: Said, when: tuple[str, ...]
) -> ShapeRule | None:
    """One line's shape: an input's, or a list of symbols the scope's input shapes bind."""
    text = s.text.strip().lstrip("-* ")
    if m.group("same"):
        if m.group("same") not in inputs:
            return None
        return ShapeRule(kind="same", params=(m.group("same"),), when=when, text=text, line=s.line)
    dims = [d.strip() for d in re.split(r"[,，]", m.group("dims"))]
    if not all(_DIM.match(d) for d in dims):
        return None
    symbols = {x for d in dims for x in _SYMBOL.findall(d)}
    if not symbols <= bound.keys():
        return None  # a symbol no input's shape in the same scope binds
    resolved = tuple(_SYMBOL.sub(lambda x: bound[x.group()], d) for d in dims)
    return ShapeRule(kind="explicit", dims=resolved, when=when, text=text, line=s.line)
