"""Output shapes and dtypes from the document's rules, evaluated on the arguments of a call.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
A rule is plain data (`specgen.model.ShapeRule` / `DtypeRule` as a dict): wrappers allocate
outputs with it, validators check outputs against it. Evaluation gives None whenever the
arguments do not settle the answer (an input left out, a symbol read two ways, a division
that leaves a remainder): the caller then neither allocates nor checks.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

Shape = tuple[int, ...]
ShapeOf = Mapping[
    str, Shape | None
]  # parameter -> its shape (None: not a tensor, or null)


def _items(rule: Mapping[str, object], key: str) -> tuple[Any, ...]:
    value = rule.get(key, ())
    return tuple(value) if isinstance(value, list | tuple) else ()


def broadcast(*shapes: Shape) -> Shape | None:
    """NumPy's broadcasting of shapes; None when they do not broadcast."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for dims in zip(*((1,) * (rank - len(s)) + tuple(s) for s in shapes), strict=True):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def output_shape(
    rule: Mapping[str, object], shapes: ShapeOf, values: Mapping[str, object]
) -> Shape | None:
    """The shape `rule` gives the output, or None when the arguments do not settle it (or
    the output is written only under a condition they do not meet)."""
    if not _written(_items(rule, "when"), values):
        return None
    kind = rule.get("kind")
    if kind == "one_of":
        found = output_shapes(rule, shapes, values)
        return found[0] if found and len(set(found)) == 1 else None
    params: tuple[str, ...] = _items(rule, "params")
    if kind in ("same", "in_place", "broadcast"):
        known = [shapes.get(n) for n in params]
        if not known or any(s is None for s in known):
            return None
        return known[0] if kind != "broadcast" else broadcast(*known)  # type: ignore[arg-type]
    if kind == "explicit":
        return _explicit(rule, shapes, values)
    if kind == "matmul" and len(params) in (2, 4):
        return _transposed_matmul(params, shapes, values)
    if kind == "reduce" and len(params) == 3:
        return _reduce(
            shapes.get(params[0]), values.get(params[1]), values.get(params[2])
        )
    if kind == "einsum" and len(params) == 2:
        return einsum(values.get(params[0]), values.get(params[1]))
    if kind == "reduction" and len(params) >= 2:
        reduction = values.get(params[0])
        if reduction in (0, "none"):
            known = [shapes.get(n) for n in params[1:]]
            return None if any(s is None for s in known) else broadcast(*known)  # type: ignore[arg-type]
        return (
            _explicit(rule, shapes, values)
            if isinstance(reduction, int | str)
            else None
        )
    return None


def output_shapes(
    rule: Mapping[str, object], shapes: ShapeOf, values: Mapping[str, object]
) -> tuple[Shape, ...] | None:
    """Every shape the rule allows the output: for `one_of`, the shapes of the alternatives
    whose condition the call meets (() when it meets none); None when one of those is not
    settled (or a plain rule's shape is not)."""
    if rule.get("kind") != "one_of":
        shape = output_shape(rule, shapes, values)
        return None if shape is None else (shape,)
    if not _written(_items(rule, "when"), values):
        return None
    found: list[Shape] = []
    for alternative in _items(rule, "alternatives"):
        if not _written(sized_bounds(alternative, shapes, values), values):
            continue
        shape = output_shape({**alternative, "when": ()}, shapes, values)
        if shape is None:
            return None
        found.append(shape)
    return tuple(dict.fromkeys(found))


def shape_allowed(
    rule: Mapping[str, object],
    shapes: ShapeOf,
    values: Mapping[str, object],
    shape: Shape,
) -> tuple[Shape, ...] | None:
    """None when an output of `shape` meets `rule` (or the call does not settle the rule),
    else the shapes the rule allows."""
    allowed = output_shapes(rule, shapes, values)
    return None if not allowed or tuple(shape) in allowed else allowed


def _written(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """Whether the call meets the rule's condition: the bool `when` names (`(name, index or
    "", "true"/"false")`, an index into a bool array) has the value the rule holds for, or
    every four-part condition holds (`_CONDITIONS`; 4k parts: k conditions, all of them);
    True when it has no condition, False when the call does not settle it."""
    if when and len(when) % 4 == 0:
        parts = (when[i : i + 4] for i in range(0, len(when), 4))
        return all(_CONDITIONS[part[1]](part, values) for part in parts)
    if len(when) != 3:
        return not when
    name, index, wanted = when
    value = values.get(name)
    if index != "":
        items = value if isinstance(value, list | tuple) else ()
        value = items[int(index)] if int(index) < len(items) else None
    return isinstance(value, bool) and value == (wanted == "true")


def _has_value(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """(name, "value", value, "true"/"false"): an attribute has that value
    (`quantMode是pertoken时`), or has another (`当reduction的值不为0时`); False when the
    call does not give it."""
    value = values.get(when[0])
    if value is None or isinstance(value, bool):
        return False
    return (str(value) == when[2]) == (when[3] != "false")


def _of_dtype(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """(name, "dtype", dtype, "true"/"false"): the tensor has that dtype, or has another; a
    table cell's dtypes `UINT64/INT64` any of them, `null` among them an absent optional."""
    from ._tensor import describe

    name, _, dtype, wanted = when
    value = values.get(name)
    if value is None:  # `null` among a table cell's dtypes names an absent optional
        return name in values and "null" in dtype.split("/") and wanted == "true"
    desc = _desc(describe, value)
    return desc is not None and (desc.dtype in dtype.split("/")) == (wanted == "true")


def _bool_case(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """(name, "bool", value, "true"/"false"): the bool a case holds for (`transposed`), or
    the other value; `name[i]` one element of a bool array (`outputMaskOptional[0]`); False
    when the call does not give the bool."""
    name, _, index = when[0].partition("[")
    value = values.get(name)
    if index:
        items = value if isinstance(value, list | tuple) else ()
        at = int(index.rstrip("]"))
        value = items[at] if at < len(items) else None
    if not isinstance(value, bool):
        return False
    return (value == (when[2] == "true")) == (when[3] != "false")


def _shaped(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """Whether the input tensor `when` names has the rank it names (`(name, "rank", n,
    "true")`), or is given (`(name, "given", "", "true")`) or null (`"false"`); False when
    the call does not settle it (the argument is missing)."""
    from ._tensor import describe

    name, what, rank, wanted = when
    if name not in values:
        return False
    value = values[name]
    if what == "given":
        return (value is not None) == (wanted == "true")
    desc = _desc(describe, value)
    return desc is not None and (len(desc.shape) == int(rank)) == (wanted == "true")


def _last_axis(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """(name, "last", tensor, "true"/"false"): the axis an integer names is the tensor's last
    (`activateDim对应的x的尾轴`: -1 or its rank less one), or is another; False when the call
    does not give both."""
    from ._tensor import describe

    name, _, tensor, wanted = when
    axis, desc = values.get(name), _desc(describe, values.get(tensor))
    if not isinstance(axis, int) or isinstance(axis, bool) or desc is None:
        return False
    rank = len(desc.shape)
    return (axis in (-1, rank - 1)) == (wanted == "true")


_COMPARE = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


def _compared(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """(name, "compare", "<op> <bound>", "true"/"false"): an integer attribute compared with
    a bound (`activeNum大于0`: "> 0"), or not; False when the call does not give the integer or
    the bound is still an expression (`sized_bounds` sizes those it can)."""
    value = values.get(when[0])
    op, _, bound = str(when[2]).partition(" ")
    if not isinstance(value, int) or isinstance(value, bool) or op not in _COMPARE:
        return False
    try:
        limit = int(bound)
    except ValueError:
        return False
    return _COMPARE[op](value, limit) == (when[3] != "false")


def sized_bounds(
    rule: Mapping[str, object], shapes: ShapeOf, values: Mapping[str, object]
) -> tuple[Any, ...]:
    """The rule's conditions with each comparison's bound (`< R * K`) evaluated as a dimension
    of the rule is (its symbols), where the call settles it."""
    when = list(_items(rule, "when"))
    for i in range(0, len(when) - 3, 4):
        if when[i + 1] != "compare":
            continue
        op, _, bound = str(when[i + 2]).partition(" ")
        size = _explicit({**rule, "dims": [bound]}, shapes, values)
        if size is not None:
            when[i + 2] = f"{op} {size[0]}"
    return tuple(when)


# Where a validator or wrapper given `product=` puts it among the values the rules read.
PRODUCT_KEY = "@product"
# The product ids `product=` takes (the ids of the documents' npu="..." comments).
PRODUCTS = ("950", "A3", "910b", "310b", "310p", "910")


def product_id(product: str | None) -> str | None:
    """A product id as `PRODUCTS` spells it (any case); ValueError for an unknown one."""
    if product is None:
        return None
    found = {p.lower(): p for p in PRODUCTS}.get(str(product).lower())
    if found is None:
        raise ValueError(
            f"unknown product {product!r}; the known products are {', '.join(PRODUCTS)}"
        )
    return found


def _on_product(when: tuple[Any, ...], values: Mapping[str, object]) -> bool:
    """("", "product", "A3,910b", "true"): a case said for those products (an npu comment's
    ids) holds on them; where the product is not known `_settled` passes over it."""
    return (values.get(PRODUCT_KEY) in when[2].split(",")) == (when[3] == "true")


# The four-part conditions of `ShapeRule.when` and `DtypeRule.when`, by their second part.
_CONDITIONS = {
    "product": _on_product,
    "value": _has_value,
    "dtype": _of_dtype,
    "bool": _bool_case,
    "rank": _shaped,
    "given": _shaped,
    "last": _last_axis,
    "compare": _compared,
}


def matmul(a: Shape | None, b: Shape | None) -> Shape | None:
    """The shape of a @ b (NumPy's and PyTorch's matmul: 1-d operands, broadcast batches)."""
    if a is None or b is None or not a or not b:
        return None
    left, right = (1, *a) if len(a) == 1 else a, (*b, 1) if len(b) == 1 else b
    if left[-1] != right[-2]:
        return None
    batch = broadcast(left[:-2], right[:-2])
    if batch is None:
        return None
    rows = () if len(a) == 1 else (left[-2],)
    cols = () if len(b) == 1 else (right[-1],)
    return (*batch, *rows, *cols)


def einsum(tensors: object, equation: object) -> Shape | None:
    """The output shape of a plain Einstein summation (`abcd,abced->abce`): each letter of the
    output term has the size it has in the input terms, one term per tensor of the list. None
    for any other form (an ellipsis, a term without `->`, a letter sized two ways or absent
    from the inputs, a term whose length is not its tensor's rank): left unchecked."""
    if not isinstance(equation, str) or not isinstance(tensors, list | tuple):
        return None
    m = re.fullmatch(
        r"\s*([a-zA-Z]+(?:\s*,\s*[a-zA-Z]+)*)\s*->\s*([a-zA-Z]*)\s*", equation
    )
    if m is None:
        return None
    terms = [t.strip() for t in m.group(1).split(",")]
    shapes = [getattr(t, "shape", None) for t in tensors]
    if len(terms) != len(shapes):
        return None
    sizes: dict[str, int] = {}
    for term, shape in zip(terms, shapes, strict=True):
        if shape is None or len(shape) != len(term):
            return None
        for letter, size in zip(term, shape, strict=True):
            if sizes.setdefault(letter, int(size)) != int(size):
                return None
    out = m.group(2)
    if len(set(out)) != len(out) or any(letter not in sizes for letter in out):
        return None
    return tuple(sizes[letter] for letter in out)


def _transposed_matmul(
    params: tuple[str, ...], shapes: ShapeOf, values: Mapping[str, object]
) -> Shape | None:
    """a @ b, each operand transposed (its last two dimensions swapped) when the parameter
    params[2] (a's) or params[3] (b's) is true or nonzero ("" names none)."""
    operands = []
    for name, flag in zip(params[:2], (*params[2:], "", ""), strict=False):
        shape, value = shapes.get(name), values.get(flag) if flag else False
        if shape is None or not isinstance(value, bool | int):
            return None
        if value:
            if len(shape) < 2:
                return None
            shape = (*shape[:-2], shape[-1], shape[-2])
        operands.append(shape)
    return matmul(*operands)


def _reduce(shape: Shape | None, axes: object, keepdim: object) -> Shape | None:
    """`shape` reduced over `axes` (an int or a sequence of them; none: every axis)."""
    if shape is None or not isinstance(keepdim, bool):
        return None
    listed = axes if isinstance(axes, list | tuple) else [axes]
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in listed):
        return None
    rank = max(len(shape), 1)
    chosen = {a % rank for a in listed} if listed else set(range(len(shape)))  # type: ignore[operator]
    if keepdim:
        return tuple(1 if i in chosen else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in chosen)


def _explicit(
    rule: Mapping[str, object], shapes: ShapeOf, values: Mapping[str, object]
) -> Shape | None:
    env: dict[str, int] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            env[f"bool({name})"] = int(value)  # read by `a if name else b` only
        elif isinstance(value, int):
            env[name] = value
        elif isinstance(value, list | tuple):
            env[f"len({name})"] = len(value)  # read by len(name)
            for i, item in enumerate(value):  # read by *name (a splice)
                if isinstance(item, int) and not isinstance(item, bool):
                    env[f"{name}[{i}]"] = item
    for symbol, size in _symbol_sizes(_items(rule, "symbols"), shapes).items():
        if size is None:
            return None
        env[symbol] = size
    dims: list[int] = []
    try:
        for element in _parsed(_items(rule, "dims")):
            if isinstance(element, ast.Starred):  # `*x.shape[:-1]`: a shape spliced in
                dims.extend(_shape_part(element.value, env, shapes))
            else:
                dims.append(_evaluate(element, env, shapes))
    except (
        KeyError,
        ValueError,
        IndexError,
        TypeError,
        ZeroDivisionError,
        AttributeError,
    ):
        return None
    return tuple(dims) if all(d >= 0 for d in dims) else None


def _symbol_sizes(bindings: tuple[Any, ...], shapes: ShapeOf) -> dict[str, int | None]:
    """Each symbol's size, from the first of its inputs the call gives with that axis; None
    when none does, or two give different sizes (the symbol is read two ways)."""
    sizes: dict[str, int | None] = {}
    for binding in bindings:
        symbol, shape, axis = (
            binding["symbol"],
            shapes.get(binding["param"]),
            binding["axis"],
        )
        sizes.setdefault(symbol, None)
        if shape is None or not -len(shape) <= axis < len(shape):
            continue
        if sizes[symbol] is None:
            sizes[symbol] = shape[axis]
        elif sizes[symbol] != shape[axis]:
            return {symbol: None}
    return sizes


@lru_cache(maxsize=1024)
def _parsed(dims: tuple[str, ...]) -> list[ast.expr]:
    return ast.parse("[" + ", ".join(dims) + "]", mode="eval").body.elts  # type: ignore[attr-defined]


def _shape_part(node: ast.expr, env: Mapping[str, int], shapes: ShapeOf) -> Shape:
    """`x.shape` or `x.shape[a:b]`."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.attr == "shape"
    ):
        shape = shapes.get(node.value.id)
        if shape is None:
            raise ValueError(f"{node.value.id} has no shape")
        return tuple(shape)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        whole = _shape_part(node.value, env, shapes)
        low, high = (
            None if b is None else _evaluate(b, env, shapes)
            for b in (node.slice.lower, node.slice.upper)
        )
        return whole[low:high]
    if isinstance(node, ast.Name):  # `*outputSize`: an integer array's values
        return tuple(env[f"{node.id}[{i}]"] for i in range(env[f"len({node.id})"]))
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ones"
    ):
        return (1,) * _evaluate(node.args[0], env, shapes)  # `*ones(rank(gamma))`
    if isinstance(node, ast.ListComp):
        return _per_axis(node, env, shapes)
    # `*broadcast(self, target)[1:]`: the tensors' broadcast shape
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "broadcast"
    ):
        named = [
            shapes.get(a.id) if isinstance(a, ast.Name) else None for a in node.args
        ]
        found = broadcast(*named) if all(s is not None for s in named) else None  # type: ignore[arg-type]
        if found is None:
            raise ValueError(f"{ast.unparse(node)} has no shape")
        return found
    raise ValueError(f"cannot splice {ast.unparse(node)}")


def _per_axis(node: ast.ListComp, env: Mapping[str, int], shapes: ShapeOf) -> Shape:
    """`*[f(i) for i in range(n)]`: one size per axis by a formula the document gives for
    each axis alike (a convolution's). Every integer array the formula indexes by the axis
    must hold one element per axis: otherwise (a padding of 4 for 2 axes) it is unsettled."""
    [loop] = node.generators
    if not (
        isinstance(loop.target, ast.Name)
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
        and len(loop.iter.args) == 1
        and not loop.ifs
    ):
        raise ValueError(f"cannot splice {ast.unparse(node)}")
    axis, count = loop.target.id, _evaluate(loop.iter.args[0], env, shapes)
    for sub in ast.walk(node.elt):
        if (
            isinstance(sub, ast.Subscript)
            and isinstance(sub.value, ast.Name)
            and isinstance(sub.slice, ast.Name)
            and sub.slice.id == axis
            and env[f"len({sub.value.id})"] != count
        ):
            raise ValueError(f"{sub.value.id} has no element per axis")
    return tuple(
        _evaluate(node.elt, {**env, axis: i}, shapes) for i in range(max(count, 0))
    )


def _evaluate(node: ast.expr, env: Mapping[str, int], shapes: ShapeOf) -> int:
    """An integer expression of the rule's small language (see specgen.parse.classify.shapes)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand, env, shapes)
    if isinstance(node, ast.BinOp):
        a, b = _evaluate(node.left, env, shapes), _evaluate(node.right, env, shapes)
        return _binary(node.op, a, b)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return _call(node.func.id, node.args, env, shapes)
    if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Name):
        # `2 if bidirectional else 1`: a size the document gives by a bool's value
        chosen = node.body if env[f"bool({node.test.id})"] else node.orelse
        return _evaluate(chosen, env, shapes)
    if isinstance(node, ast.Subscript) and isinstance(
        node.value, ast.Name
    ):  # `padding[0]`
        return env[f"{node.value.id}[{_evaluate(node.slice, env, shapes)}]"]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute):
        owner = node.value.value
        shape = shapes.get(owner.id) if isinstance(owner, ast.Name) else None
        if shape is not None:
            return shape[_evaluate(node.slice, env, shapes)]
    raise ValueError(f"cannot evaluate {ast.unparse(node)}")


def _call(
    name: str, args: list[ast.expr], env: Mapping[str, int], shapes: ShapeOf
) -> int:
    """ceildiv(a, b); ceil(a/b) and floor(a/b) round the quotient (any other argument is whole);
    prod(a shape or part of one); max(a, b, ...) or max(an integer array); min(a, b, ...)."""
    if name == "len" and len(args) == 1 and isinstance(args[0], ast.Name):
        return env[f"len({args[0].id})"]
    if name == "rank" and len(args) == 1 and isinstance(args[0], ast.Name):
        shape = shapes.get(args[0].id)
        if shape is None:
            raise ValueError(f"{args[0].id} has no shape")
        return len(shape)
    if (
        name == "prod" and len(args) == 1
    ):  # `prod(x1.shape[:-1])`: the product of dimensions
        return math.prod(_shape_part(args[0], env, shapes))
    if (
        name == "max" and len(args) == 1
    ):  # `max(targetLengths)`: an integer array's largest
        return max(_shape_part(args[0], env, shapes))
    if name == "max" and len(args) > 1:  # `max(scale.shape[0], offset.shape[0])`
        return max(_evaluate(x, env, shapes) for x in args)
    if name == "min" and len(args) > 1:  # `min(NUM_ROWS, activeNum) * k`
        return min(_evaluate(x, env, shapes) for x in args)
    if name == "ceildiv" and len(args) == 2:
        a, b = (_evaluate(x, env, shapes) for x in args)
        return -(-a // b)
    if name in ("ceil", "floor") and len(args) == 1:
        exact = _exact(args[0], env, shapes)
        return math.ceil(exact) if name == "ceil" else math.floor(exact)
    raise ValueError(f"cannot evaluate {name}()")


def _exact(node: ast.expr, env: Mapping[str, int], shapes: ShapeOf) -> Fraction:
    """The value of an expression rounded as a whole (`floor((H + 2*p - k)/s + 1)`): its
    divisions exact."""
    if isinstance(node, ast.BinOp) and isinstance(
        node.op, ast.Div | ast.Add | ast.Sub | ast.Mult
    ):
        a, b = _exact(node.left, env, shapes), _exact(node.right, env, shapes)
        if isinstance(node.op, ast.Div):
            return a / b
        return (
            a + b
            if isinstance(node.op, ast.Add)
            else a - b
            if isinstance(node.op, ast.Sub)
            else a * b
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_exact(node.operand, env, shapes)
    return Fraction(_evaluate(node, env, shapes))


def _binary(op: ast.operator, a: int, b: int) -> int:
    if isinstance(op, ast.Add):
        return a + b
    if isinstance(op, ast.Sub):
        return a - b
    if isinstance(op, ast.Mult):
        return a * b
    if isinstance(op, ast.FloorDiv):
        return a // b
    if isinstance(op, ast.Mod):
        return a % b
    if isinstance(op, ast.Div):
        if a % b:
            raise ValueError(f"{a}/{b} leaves a remainder")
        return a // b
    raise ValueError(f"operator {type(op).__name__}")


def output_dtype(
    rule: Mapping[str, object],
    dtypes: Mapping[str, str | None],
    values: Mapping[str, object] | None = None,
) -> str | None:
    """The dtype `rule` gives the output (the first of a choice), or None when not settled
    (a dtype `given` by a parameter: when its value is not among `values`)."""
    kind = rule.get("kind")
    if kind == "given":
        value = values.get(_items(rule, "params")[0]) if values else None
        # a bool that chooses: the dtype when true, then when false
        if isinstance(value, bool) and (choice := _items(rule, "values")):
            return choice[0 if value else 1]
        return _given(value)
    if kind == "promote":
        return promote(*(dtypes.get(n) for n in _items(rule, "params")))
    if kind in ("same", "same_set"):
        dtype = dtypes.get(_items(rule, "params")[0])
        allowed = _items(
            rule, "values"
        )  # same_set: the output's fewer dtypes, when it has fewer
        return dtype if not allowed or dtype in allowed else None
    if kind in ("fixed", "one_of"):
        return _items(rule, "values")[0]
    if kind == "cases":
        return _case_dtype(rule, dtypes, values or {})
    return None


def _case_dtype(
    rule: Mapping[str, object],
    dtypes: Mapping[str, str | None],
    values: Mapping[str, object],
) -> str | None:
    """The one dtype every case the call meets gives; None when a case's condition is not
    settled by the call, when no case holds, or when those that hold give several dtypes (a
    case of several, `FLOAT16/BFLOAT16`, is the caller's choice)."""
    found = case_dtypes(rule, dtypes, values)
    return (
        found[0] if found is not None and len(found) == 1 and found[0] != "?" else None
    )


def case_dtypes(
    rule: Mapping[str, object],
    dtypes: Mapping[str, str | None],
    values: Mapping[str, object],
) -> tuple[str, ...] | None:
    """The dtypes the cases the call meets give (a case of an unknown input's dtype: "?"),
    in the document's order; None when the call does not settle a case's condition."""
    found: dict[str, None] = {}
    for case in _items(rule, "alternatives"):
        held = _settled(tuple(_items(case, "when")), values)
        if held is None:
            return None
        if held and case.get("kind") == "one_of":
            found.update(dict.fromkeys(_items(case, "values")))
        elif held:
            found[output_dtype(case, dtypes, values) or "?"] = None
    return tuple(found)


def conditions_hold(when: Sequence[Any], values: Mapping[str, object]) -> bool | None:
    """Whether a rule's four-part conditions (`ShapeRule.when`'s) hold on the call's values:
    True, False, or None where the call does not settle them."""
    return _settled(tuple(when), values)


def _settled(when: tuple[Any, ...], values: Mapping[str, object]) -> bool | None:
    """Whether the four-part conditions all hold (True), one fails (False), or the call does
    not settle one that could decide it (None: neither it nor its opposite holds)."""
    unsettled = False
    for i in range(0, len(when) - len(when) % 4, 4):
        part = when[i : i + 4]
        if part[1] == "product" and values.get(PRODUCT_KEY) is None:
            continue  # said for some products, on a call for no product: it may hold
        opposite = (*part[:3], "false" if part[3] == "true" else "true")
        held, against = (_CONDITIONS[part[1]](c, values) for c in (part, opposite))
        if part[1] == "dtype" and part[0] in values and values[part[0]] is None:
            against = (
                not held
            )  # an absent optional: a cell of dtypes without `null` fails
        if held == against:
            unsettled = True
        elif not held:
            return False
    return None if unsettled else True


def _given(value: object) -> str | None:
    """The dtype a parameter's value names: a dtype, or an integer holding an aclDataType
    value (`dstType=36`: FLOAT8_E4M3FN; a C `true` is 1, as C converts it)."""
    from ._tensor import DTYPE_TABLE, dtype_name

    if value is None:
        return None
    if isinstance(value, int):
        return next((d.name for d in DTYPE_TABLE if d.acl == value), None)
    try:
        return dtype_name(value)
    except TypeError:
        return None


# The promotion order of the aclnn dtypes within each category (PyTorch's rules).
_FLOATS = ("FLOAT16", "BFLOAT16", "FLOAT", "DOUBLE")
_INTS = ("INT8", "INT16", "INT32", "INT64")


def promote(*dtypes: str | None) -> str | None:
    """The dtype PyTorch's type promotion gives tensors of these dtypes; None when one is
    unknown or outside the simple cases (complex, unsigned wider than 8 bits, 8-bit floats)."""
    known = set(dtypes)
    if None in known or not known:
        return None
    if len(known) == 1:
        return known.pop()
    floats = [d for d in known if d in _FLOATS]
    if floats:
        if {"FLOAT16", "BFLOAT16"} == set(floats):
            return "FLOAT"
        return (
            max(floats, key=_FLOATS.index)
            if known <= {*_FLOATS, *_INTS, "UINT8", "BOOL"}
            else None
        )
    ints = [d for d in known if d in _INTS]
    if known <= {*_INTS, "UINT8", "BOOL"}:
        if "UINT8" in known and ints:
            return max(("INT16", *ints), key=_INTS.index)
        return (
            max(ints, key=_INTS.index)
            if ints
            else ("UINT8" if "UINT8" in known else "BOOL")
        )
    return None


def dtype_allowed(
    rule: Mapping[str, object],
    dtypes: Mapping[str, str | None],
    dtype: str,
    values: Mapping[str, object] | None = None,
) -> bool | None:
    """Whether an output of `dtype` meets `rule`; None when the rule cannot tell."""
    kind = rule.get("kind")
    if kind in ("fixed", "one_of"):
        return dtype in _items(rule, "values")
    expected = output_dtype(rule, dtypes, values)
    return None if expected is None else dtype == expected


def allocation_shape(
    rule: Mapping[str, object], shapes: ShapeOf, values: Mapping[str, object]
) -> Shape | None:
    """The shape a wrapper allocates: the rule's shape, or for a lower bound on the element
    count (`at_least`) the shape of the tensor it names."""
    # a bool the output is written under leaves the tensor allocated either way (the library
    # takes it); a four-part condition decides the shape, so allocation holds to it (a dtype
    # one for the dtype the output is allocated in, see _allocate_one)
    binding = len(_items(rule, "when")) % 4 == 0
    unconditional = {k: v for k, v in rule.items() if k != "when" or binding}
    if rule.get("kind") == "at_least":
        return output_shape({**unconditional, "kind": "same"}, shapes, values)
    return output_shape(unconditional, shapes, values)


def allocate(
    name: str,
    shape_rule: Mapping[str, object],
    dtype_rule: Mapping[str, object],
    args: Mapping[str, object],
    each: bool = False,
    follows: tuple[str, str, tuple[str, ...]] | None = None,
    dtype: object = None,
    product: str | None = None,
    keyword: str = "",
) -> Any:
    """A zeroed NumPy array for output `name`, shaped and typed by the document's rules from
    the other arguments (`args`: by C name); TypeError when they do not settle it. `each`: a
    tensor list, one array per element of the tensor lists the rules read. `follows`: (the
    input whose format the output takes, the format it is sent in by default, the output's
    documented formats): a Tensor in that format when it is not ND, the output's rows allow
    it (`format_allowed`: ND admits the plain layouts) and the ranks agree. `dtype`: the
    dtype the caller chose, where the document leaves it to the caller (by the wrapper's
    `keyword`). `product`: the rules said for some products hold there (ValueError for an
    unknown product)."""
    if product is not None:
        args = {**args, PRODUCT_KEY: product_id(product)}
    if dtype is not None:
        from ._tensor import dtype_name

        dtype_rule = {"kind": "fixed", "values": [dtype_name(dtype)]}
    if each:
        return [
            _formatted(
                _allocate_one(f"{name}[{i}]", shape_rule, dtype_rule, item, keyword),
                item,
                follows,
            )
            for i, item in enumerate(_items_of(name, shape_rule, dtype_rule, args))
        ]
    return _formatted(
        _allocate_one(name, shape_rule, dtype_rule, args, keyword), args, follows
    )


def _formatted(
    array: Any,
    args: Mapping[str, object],
    follows: tuple[str, str, tuple[str, ...]] | None,
) -> Any:
    from ._tensor import Tensor, describe, format_allowed

    if follows is None:
        return array
    name, default, formats = follows
    value = args.get(name)
    fmt = value.format if isinstance(value, Tensor) else default
    read, written = _desc(describe, value), describe(array)
    if (
        fmt == "ND"
        or not format_allowed(fmt, formats)
        or read is None
        or written is None
    ):
        return array
    if read.ndim != written.ndim:
        return array
    if isinstance(array, Tensor):  # a packed 4-bit one
        return Tensor(array.array, fmt, array.dtype)
    return Tensor(array, fmt)


def _items_of(
    name: str,
    shape_rule: Mapping[str, object],
    dtype_rule: Mapping[str, object],
    args: Mapping[str, object],
) -> list[dict[str, object]]:
    """The arguments once per element of the tensor lists the rules read (of one length)."""
    read = {*_items(shape_rule, "params"), *_items(dtype_rule, "params")}
    lists = {
        n: list(v) for n, v in args.items() if n in read and isinstance(v, list | tuple)
    }
    lengths = {len(v) for v in lists.values()}
    if len(lengths) != 1:
        raise TypeError(
            f"pass {name}: its length does not follow from these arguments (the tensor lists it follows "
            + ("differ in length)" if lengths else "are not given)")
        )
    return [
        {**args, **{n: v[i] for n, v in lists.items()}} for i in range(lengths.pop())
    ]


def _allocate_one(
    name: str,
    shape_rule: Mapping[str, object],
    dtype_rule: Mapping[str, object],
    args: Mapping[str, object],
    keyword: str = "",
) -> Any:
    from ._runtime import empty
    from ._tensor import TensorDesc, describe

    descs = {n: _desc(describe, v) for n, v in args.items()}
    dtype = output_dtype(
        dtype_rule, {n: _dtype_of(describe, v) for n, v in args.items()}, args
    )
    planned = (
        {**args, name: TensorDesc((), dtype)} if dtype else args
    )  # for a dtype condition
    shape = allocation_shape(
        shape_rule, {n: d.shape if d else None for n, d in descs.items()}, planned
    )
    if shape is None or dtype is None:
        # a shape that waits on the dtype the caller chooses (`类型为INT32时，shape的最后一维是x
        # 最后一维的1/8`): the dtype is what to name
        waits = dtype is None and bool(keyword) and _reads_own_dtype(name, shape_rule)
        missing = "shape" if shape is None and not waits else "dtype"
        why = shape_rule.get("reason") if shape is None else dtype_rule.get("reason")
        if shape is None and shape_rule.get("kind") == "one_of":
            why = _products_only(shape_rule, args) or (
                "the document gives it several shapes, or none it can settle, for these arguments"
            )
        if missing == "dtype" and dtype_rule.get("kind") == "cases":
            why = _unsettled_cases(dtype_rule, descs, args)
            why += f"; give its dtype as {keyword}" if keyword else ""
        why = why or _unmet(shape_rule if missing == "shape" else dtype_rule, args)
        raise TypeError(
            f"pass {name}: its {missing} does not follow from these arguments ({why or 'rule unsettled'})"
        )
    return empty(shape, dtype)


# How a refusal names a four-part condition, by its second part (the condition's truth: the
# first phrase, its opposite: the second).
_CONDITION_WORDS = {
    "product": ("on {2}", "not on {2}"),
    "value": ("{0} is {2}", "{0} is not {2}"),
    "dtype": ("{0}'s dtype is {2}", "{0}'s dtype is not {2}"),
    "bool": ("{0} is {2}", "{0} is not {2}"),
    "rank": ("{0} has rank {2}", "{0} has not rank {2}"),
    "given": ("{0} is given", "{0} is not given"),
    "last": ("{0}'s last axis is {2}", "{0}'s last axis is not {2}"),
    "compare": ("{0} {2}", "not {0} {2}"),
}


def _unmet(rule: Mapping[str, object], args: Mapping[str, object]) -> str:
    """The conditions of a rule these arguments fail (`its rule holds only when weight's dtype
    is not INT32`), in words; "" when they fail none."""
    when = _items(rule, "when")
    if len(when) % 4:
        return ""
    parts = [when[i : i + 4] for i in range(0, len(when), 4)]
    words = [
        _CONDITION_WORDS[p[1]][p[3] == "false"].format(*p)
        for p in parts
        if p[1] in _CONDITION_WORDS and _settled(p, args) is False
    ]
    return "its rule holds only when " + " and ".join(words) if words else ""


def _reads_own_dtype(name: str, rule: Mapping[str, object]) -> bool:
    """Whether a case of the shape rule holds on the output's own dtype (`(name, "dtype", …)`)."""
    whens = [
        _items(rule, "when"),
        *(_items(c, "when") for c in _items(rule, "alternatives")),
    ]
    return any(
        w[i] == name and w[i + 1] == "dtype"
        for w in whens
        for i in range(0, len(w) - 3, 4)
    )


def _products_only(rule: Mapping[str, object], args: Mapping[str, object]) -> str:
    """Why a shape the document states for some products only is not settled: no product
    given, or one it says nothing for; "" when some case holds on no product, or on the one given."""
    named: list[str] = []
    for case in _items(rule, "alternatives"):
        when = _items(case, "when")
        if len(when) < 4 or when[1] != "product" or when[3] != "true":
            return ""
        named += [pid for pid in when[2].split(",") if pid not in named]
    given = args.get(PRODUCT_KEY)
    if not named or given in named:  # the product's case holds, its shape unsettled
        return ""
    said = f"the document states its shape for {', '.join(named)} only"
    return f"{said}, not {given}" if given else f"{said}: give product="


def _unsettled_cases(
    rule: Mapping[str, object], descs: Mapping[str, Any], args: Mapping[str, object]
) -> str:
    """Why the document's cases leave an output's dtype to the caller, for these arguments."""
    found = case_dtypes(
        rule, {n: d.dtype if d else None for n, d in descs.items()}, args
    )
    said = (
        "the document's cases do not settle it"
        if found is None
        else "no case of the document's holds"
        if not found
        else "the document's cases give " + " or ".join(found)
    )
    return said


def _dtype_of(describe: Any, value: object) -> str | None:
    """A tensor's dtype, or the one dtype every tensor of a list has (a rule may name the
    list: `tensors[0] 、tensors[1]、output三者数据类型需保持一致`); None otherwise."""
    if not isinstance(value, list | tuple):
        desc = _desc(describe, value)
        return desc.dtype if desc else None
    found = {getattr(_desc(describe, v), "dtype", None) for v in value}
    return found.pop() if len(found) == 1 and None not in found else None


def _desc(describe: Any, value: object) -> Any:
    """A tensor argument's description; None for anything else (values, lists, None)."""
    if value is None or isinstance(value, bool | int | float | str | list | tuple):
        return None
    try:
        return describe(value)
    except (TypeError, ValueError):
        return None
