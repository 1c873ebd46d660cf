"""An output's shape stated per product only, in the per-product remarks after the parameter
table, read into a `one_of` rule whose cases each hold on the products the remark names.

aclnnCtcLoss states logAlphaOut's shape only under the output's name after the table:

    - logAlphaOut：
       <!-- npu="A3,910b" -->
       - <term>Atlas A2 …</term>、<term>Atlas A3 …</term>：shape为($N, T, (2*max(targetLengths)+8)/8*8$)。
       <!-- npu="950" -->
       - <term>Ascend 950PR/Ascend 950DT</term>：shape为($N, T, (2*max(targetLengths)+1)$)。

A statement speaks of `p` when it is one of `p`'s own constraints held on a product
(`yOut参数中，shape为[N...,H/2]`), names `p` as what has the shape (`logAlphaOut的shape为…`), or
names no parameter at all and `p` is the only written tensor no other statement gives a shape
(the remark sits under the output's bullet, which the remarks do not keep). Each statement is
read as the output's own row would be (`read`); the case holds where the product condition
`("", "product", "A3,910b", "true")` does: a validator given `product=` checks that product's
shape, a wrapper given `product=` allocates it; with no product, no case holds, so nothing is
rejected and the wrapper refuses. A product no statement speaks of, or whose statement no
reader takes, stays unchecked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_sizes import ProductStatement

# `shape为…`, `shape是…`, `shape表示为…`: the statement gives a shape (not a rank or a size)
_GIVES_SHAPE = re.compile(r"(?:shape|形状)\s*(?:需要|必须)?\s*(?:为|是|表示为)")
_WORD = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"

# Reads one statement as the output's own row: (the output, the statement) -> its rule.
Reader = Callable[[Param, ProductStatement], ShapeRule]


def _speaks_of(s: ProductStatement, p: Param, params: Sequence[Param], alone: bool) -> bool:
    """Whether the remark gives `p`'s shape: the last parameter named before its `shape为` is
    `p` (`yOut参数中，shape为…`), or it names none there and `p` is the only output left (`alone`)."""
    gives = _GIVES_SHAPE.search(s.text)
    if gives is None:
        return False
    subject = s.text[: gives.start()]
    named = sorted((m.start(), q.name) for q in params if (m := re.search(_WORD.format(re.escape(q.name)), subject)))
    if not named:  # nor any other name (a parameter of another function's)
        return alone and not re.search(r"[A-Za-z_]\w*", subject)
    return named[-1][1] == p.name


def statements_for(
    p: Param, params: Sequence[Param], remarks: Sequence[ProductStatement], alone: bool
) -> list[ProductStatement]:
    """The per-product statements that give `p`'s shape: its own constraints held on a
    product, and the remarks that speak of it (see `_speaks_of`)."""
    own = [
        ProductStatement((c.product,), c.text, c.line)
        for c in p.constraints
        if c.product and c.kind == "text" and _GIVES_SHAPE.search(c.text)
    ]
    return own + [s for s in remarks if _speaks_of(s, p, params, alone)]


def _on(products: Sequence[str]) -> tuple[str, ...]:
    return ("", "product", ",".join(products), "true")


def per_product_rule(
    p: Param, params: Sequence[Param], said: Sequence[ProductStatement], read: Reader
) -> ShapeRule | None:
    """`p`'s shape case by case for the products the statements `said` name, each case read by
    `read`; a `not_derivable` rule naming the first statement when none is read; None when no
    statement speaks of its shape."""
    if not said:
        return None
    cases = []
    seen: set[str] = set()
    for s in said:
        rule = read(p, s)
        fresh = tuple(pid for pid in s.products if pid not in seen)
        if not rule.derived or rule.kind in ("one_of", "not_derivable") or len(rule.when) % 4 or not fresh:
            continue  # the first statement of a product counts
        seen.update(fresh)
        cases.append(rule.model_copy(update={"when": _on(fresh) + rule.when, "text": s.text, "line": s.line}))
    if not cases:
        first = said[0]
        products = ", ".join(first.products)
        where = f"line {first.line}: {first.text[:60]}"
        reason = f"a remark of some products ({products}) speaks of its shape in a form no reader takes ({where})"
        return ShapeRule(kind="not_derivable", reason=reason, line=first.line)
    return ShapeRule(kind="one_of", alternatives=tuple(cases), text=cases[0].text, line=cases[0].line)
