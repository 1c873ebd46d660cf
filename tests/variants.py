"""Valid variants of the documents' own calls, for the generated validators (the false-rejection fuzz).

Used by tests/test_valid_variants.py on the shared corpus and by benchmarks/valid_variants.py on
any folder of documents. The document's sample call, accepted as it stands, is varied only in
what the document itself says is valid, keeping the sample's shapes and values:

- dtype variants: the tensors the document ties together (a `same_dtype` statement,
  `与self一致`, or an output whose dtype rule is another tensor's) move as one group, to each
  dtype every member of the group allows (an output whose dtype the caller chooses, alone); the outputs outside the group take the dtype their
  rule gives for the new inputs (a dtype-combination table's row, promotion...), else keep
  the sample's;
- table variants: each row of an output's dtype-combination table (`cases` rule alternatives
  whose conditions name input dtypes), its inputs (and their groups) set to the row's first
  dtype of each cell, then to each other dtype of one cell in turn, the output to the row's
  dtype; rows asking for another presence of an optional than the sample's are left out;
- product variants: the sample call with `product=` each product the document marks 支持; on
  each product it is accepted on, the dtype variants with the dtypes (and ties) said for that
  product, and the table rows said for it or for every product.

Where the document states that a shape changes with a dtype (an output's shape rule, or one of
its alternatives, held under a dtype condition), an output moved to another dtype is shaped by
that rule; an input such a condition names keeps the sample's dtype (in another dtype its
shape means something else: INT32 packs eight 4-bit values), so no variant moves it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import get_args

from specgen.codegen.cases import call_values, plain_rule
from specgen.codegen.runtime._shapes import PRODUCT_KEY, case_dtypes, output_dtype, output_shape
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import CheckKind, DtypeRule, Function, OperatorDoc, Param, ShapeRule
from tests.oracle import Call, chosen_functions, validate_all

_TENSORS = ("tensor", "tensor_list")


@dataclass(frozen=True)
class Variant:
    function: str
    source: str  # the document, as the model names it
    kind: str  # "dtype", "table" or "product"
    label: str  # what changed: `x,out=FLOAT16`, `product=910b`
    args: dict[str, object]
    product: str | None = None


@dataclass(frozen=True)
class Rejection:
    variant: Variant
    rule: str  # the id of the rule that fired (`rule3_dtypes`, `implied_output_dtype_out`)
    kind: str  # its kind, as the id names it
    line: int | None  # the document line the rule was read from
    verdict: str  # the validator's message

    def key(self) -> str:
        return f"{self.variant.function} {self.variant.label}"


# ---------------------------------------------------------------- building the variants


def variants(docs: Iterable[OperatorDoc], accepted: set[str] | None = None) -> list[Variant]:
    """Every variant of every function whose sample call resolves (of those in `accepted`,
    when given: the functions whose sample the validator accepts as it stands)."""
    out: list[Variant] = []
    for name, (doc, fn) in chosen_functions(docs).items():
        values = call_values(fn, fn.sample_call) if fn.sample_call else None
        if values is None or (accepted is not None and name not in accepted):
            continue
        out += _function_variants(doc, fn, values)
    return out


def sample_calls(docs: Iterable[OperatorDoc]) -> list[Call]:
    """The functions' own sample calls (those that resolve), as the validator takes them."""
    calls: list[Call] = []
    for name, (_, fn) in chosen_functions(docs).items():
        values = call_values(fn, fn.sample_call) if fn.sample_call else None
        if values is not None:
            calls.append((name, values))
    return calls


def product_variants(docs: Iterable[OperatorDoc], products: set[tuple[str, str]]) -> list[Variant]:
    """The dtype variants of each function on each product of `products` ((function, product):
    those its sample call is accepted on), with the dtypes each group allows there."""
    out: list[Variant] = []
    for name, (doc, fn) in chosen_functions(docs).items():
        values = call_values(fn, fn.sample_call) if fn.sample_call else None
        for product in [p.id for p in doc.products if (name, p.id) in products] if values else ():
            seen: set[tuple] = set()
            out += _dtype_variants(doc, fn, values or {}, product, seen)
            out += _table_variants(doc, fn, values or {}, product, seen)
    return out


def _function_variants(doc: OperatorDoc, fn: Function, values: dict[str, object]) -> Iterator[Variant]:
    seen: set[tuple] = set()
    yield from _dtype_variants(doc, fn, values, None, seen)
    yield from _table_variants(doc, fn, values, None, seen)
    for product in doc.products:
        if product.supported:
            yield Variant(fn.name, doc.source, "product", f"product={product.id}", values, product.id)


def _dtype_variants(
    doc: OperatorDoc, fn: Function, values: dict[str, object], product: str | None, seen: set[tuple] | None = None
) -> list[Variant]:
    """Each group of tied tensors moved to each dtype its members allow (on `product`)."""
    groups = dtype_groups(fn, product)
    seen = set() if seen is None else seen
    kind = "dtype" if product is None else "product dtype"
    out = []
    for group in groups:
        for dtype in _group_dtypes(fn, group, values, product):
            args = _with_dtypes(fn, values, dict.fromkeys(group, dtype), groups, product)
            if args is not None and _fresh(args, seen, values):
                on = f" product={product}" if product else ""
                out.append(Variant(fn.name, doc.source, kind, f"{','.join(group)}={dtype}{on}", args, product))
    return out


def _table_variants(
    doc: OperatorDoc, fn: Function, values: dict[str, object], product: str | None, seen: set[tuple]
) -> list[Variant]:
    """Each row of the outputs' dtype-combination tables (on `product`: the rows said for it or
    for every product), its inputs' groups moved with them."""
    groups = dtype_groups(fn, product)
    kind = "table" if product is None else "product table"
    out = []
    for row, dtypes in _table_rows(fn, values, product):
        moved = {n: d for name, d in dtypes.items() for n in _group_of(groups, name)}
        args = _with_dtypes(fn, values, moved, groups, product)
        if args is not None and _fresh(args, seen, values):
            label = ",".join(f"{n}={d}" for n, d in dtypes.items()) + (f" product={product}" if product else "")
            out.append(Variant(fn.name, doc.source, kind, f"line {row.line}: {label}", args, product))
    return out


def _fresh(args: dict[str, object], seen: set[tuple], sample: dict[str, object]) -> bool:
    """A variant not made already, and not the sample itself."""
    key = tuple(sorted((k, repr(v)) for k, v in args.items()))
    if key in seen or args == sample:
        return False
    seen.add(key)
    return True


def dtype_groups(fn: Function, product: str | None = None) -> list[tuple[str, ...]]:
    """The tensors whose dtypes the document ties together (on every product or on `product`:
    a statement or an error row), as groups in prototype order; a tensor tied to none is a group of its own.
    An output is grouped with the tensor its dtype rule names (`same`, `same_set`)."""
    tensors = [p for p in fn.params if p.kind in _TENSORS]
    names = {p.name for p in tensors}
    parent = {p.name: p.name for p in tensors}

    def root(n: str) -> str:
        while parent[n] != n:
            n = parent[n]
        return n

    ties = [
        (p.name, q) for p in tensors for c in p.of_kind("same_dtype") if c.product in (None, product) for q in c.params
    ]
    for p in tensors:
        rule = p.dtype_rule
        if rule is not None and rule.kind in ("same", "same_set") and not rule.when:
            ties += [(p.name, q) for q in rule.params[:1]]
    # an error row `gradOutput、self和out的数据类型不同`: its tensors share one dtype
    rows = [c.params for e in fn.errors if not e.conditional for c in e.checks if c.kind == "same_dtype"]
    ties += [(row[0], q) for row in rows for q in row[1:]]
    for a, b in ties:
        if a in names and b in names:
            parent[root(b)] = root(a)
    groups: dict[str, list[str]] = {}
    for p in tensors:
        groups.setdefault(root(p.name), []).append(p.name)
    return [tuple(g) for g in groups.values()]


def _group_of(groups: list[tuple[str, ...]], name: str) -> tuple[str, ...]:
    return next((g for g in groups if name in g), (name,))


def _group_dtypes(fn: Function, group: tuple[str, ...], values: dict[str, object], product: str | None) -> list[str]:
    """The dtypes every member of the group allows (on `product`; members with no dtype list
    aside), in the first's order; [] for a group with no input given in the call (unless all
    are outputs whose dtype the caller chooses) or no member with a list."""
    params = [p for n in group if (p := fn.param(n)) is not None]
    given = [p for p in params if values.get(p.name) is not None]
    if not given or not (any(p.direction != "out" for p in given) or all(map(_chosen, params))):
        return []
    listed = [p.dtypes_on(product) for p in params if p.dtypes]
    if not listed:
        return []
    return [d for d in listed[0] if all(d in other for other in listed[1:])]


def _chosen(p: Param) -> bool:
    """An output whose dtype its rule leaves to the caller (no rule, several dtypes, none
    derivable), and whose shape no other tensor's dtype conditions (aclnnFlatQuant's quantScale:
    `量化输出类型为INT4或INT32时，…数据类型为FLOAT32`: its dtype follows out's)."""
    free = p.dtype_rule is None or p.dtype_rule.kind in ("one_of", "not_derivable")
    return p.direction == "out" and free and not _dtype_conditions(p.shape_rule) - {p.name}


def _with_dtypes(
    fn: Function,
    values: dict[str, object],
    dtypes: dict[str, str],
    groups: list[tuple[str, ...]],
    product: str | None = None,
) -> dict[str, object] | None:
    """The call with these tensors of these dtypes, and the other outputs as their rules give
    them for the new inputs (on `product`); None when an output's dtype-combination table
    lists no row for the new inputs (the document does not give that combination)."""
    args = dict(values)
    for name, dtype in dtypes.items():
        value = args.get(name)
        if value is None:
            continue
        args[name] = _retyped(value, dtype)
    for p in fn.params:  # a scalar `与self数据类型范围一致` holds the sample's number converted, as C does
        peer = next((q for c in p.of_kind("same_dtype") if c.product is None for q in c.params if q in dtypes), "")
        if p.kind == "scalar" and peer and isinstance(args.get(p.name), int | float):
            args[p.name] = _converted(args[p.name], dtypes[peer])  # type: ignore[arg-type]
    for p in fn.params:
        if p.kind not in _TENSORS or p.direction == "in" or p.name in dtypes or args.get(p.name) is None:
            continue
        if _unlisted(p, args, product):
            return None
        derived = _derived_dtype(p, args, product)
        if derived is not None:
            args[p.name] = _retyped(args[p.name], derived)
    return _reshaped(fn, args, values, product)


def _retyped(value: object, dtype: str) -> object:
    if isinstance(value, TensorDesc):
        return replace(value, dtype=dtype)
    if isinstance(value, list):
        return [_retyped(v, dtype) for v in value]
    return value


def _converted(value: float, dtype: str) -> object:
    if dtype == "BOOL":
        return bool(value)
    if dtype.startswith(("INT", "UINT")):
        return int(value)
    return float(value)


def _dtype_of(value: object) -> str | None:
    return value.dtype if isinstance(value, TensorDesc) else None


def _on(args: dict[str, object], product: str | None) -> dict[str, object]:
    return {**args, PRODUCT_KEY: product} if product else args


def _unlisted(p: Param, args: dict[str, object], product: str | None) -> bool:
    """The output's dtype cases (a combination table) hold for none of the call's inputs."""
    rule = p.dtype_rule
    if rule is None or rule.kind != "cases":
        return False
    found = case_dtypes(plain_rule(rule), {n: _dtype_of(v) for n, v in args.items()}, _on(args, product))
    return found == ()


def _derived_dtype(p: Param, args: dict[str, object], product: str | None) -> str | None:
    """The dtype the output's rule gives for the call's inputs (None when it does not settle
    one, or for a fixed or chosen dtype: the sample's stands)."""
    rule = p.dtype_rule
    if rule is None or rule.kind in ("fixed", "one_of", "given", "not_derivable"):
        return None
    derived = output_dtype(plain_rule(rule), {n: _dtype_of(v) for n, v in args.items()}, _on(args, product))
    return derived if derived and (not p.dtypes or derived in p.dtypes) else None


def _reshaped(
    fn: Function, args: dict[str, object], sample: dict[str, object], product: str | None
) -> dict[str, object] | None:
    """The outputs whose shape rule the document states per their own dtype, shaped by it for
    their new dtype on `product` (when the rule settles a shape); None when such a condition
    names another tensor whose dtype changed: an input's shape means something else in its new
    dtype (INT32 packs eight 4-bit values), and another output changes with it in ways the
    model may not hold (aclnnFlatQuant's quantScale: `量化输出类型为FLOAT4_E2M1时，shape为[M,
    ceildiv(N1*N2,64),2]，数据类型为FLOAT8_E8M0`)."""
    shapes = {n: v.shape if isinstance(v, TensorDesc) else None for n, v in args.items()}
    for p in fn.params:
        value = args.get(p.name)
        named = _dtype_conditions(p.shape_rule)
        if p.direction == "in" or not isinstance(value, TensorDesc) or not named:
            continue
        if any(_changed(fn, n, args, sample) for n in named - {p.name}):
            return None
        if value.dtype == _dtype_of(sample.get(p.name)):
            continue
        assert p.shape_rule is not None
        shape = output_shape(plain_rule(p.shape_rule), shapes, _on(args, product))
        if shape is not None:
            args[p.name] = replace(value, shape=tuple(shape), strides=None)
    return args


def _dtype_conditions(rule: ShapeRule | None) -> set[str]:
    """The tensors whose dtype a shape rule (or one of its alternatives) holds under."""
    if rule is None:
        return set()
    found = {rule.when[i] for i in range(0, len(rule.when) - 3, 4) if rule.when[i + 1] == "dtype"}
    return found.union(*(_dtype_conditions(a) for a in rule.alternatives))


def _changed(fn: Function, name: str, args: dict[str, object], sample: dict[str, object]) -> bool:
    return fn.param(name) is not None and _dtype_of(args.get(name)) != _dtype_of(sample.get(name))


def _table_rows(
    fn: Function, values: dict[str, object], product: str | None
) -> Iterator[tuple[DtypeRule, dict[str, str]]]:
    """The rows of the outputs' dtype-combination tables (`cases` alternatives whose conditions
    name input dtypes) that the call can take as it stands (each optional present or absent as
    in the sample; on `product`, rows said for it or for every product): each input the row
    names with the first dtype of its cell, then each other dtype of a cell in turn; the output
    with the row's one dtype (or the first of its several)."""
    for p in fn.params:
        rule = p.dtype_rule
        if p.direction == "in" or rule is None or rule.kind != "cases" or values.get(p.name) is None:
            continue
        for case in rule.alternatives:
            if product is not None and not _said_on(case, product):
                continue
            for dtypes in _row_choices(case, values):
                if case.kind in ("fixed", "one_of") and case.values:
                    dtypes[p.name] = case.values[0]
                yield case, dtypes


def _said_on(case: DtypeRule, product: str) -> bool:
    said = [case.when[i + 2] for i in range(0, len(case.when) - 3, 4) if case.when[i + 1] == "product"]
    return all(product in ids.split(",") for ids in said)


def _row_choices(case: DtypeRule, values: dict[str, object]) -> list[dict[str, str]]:
    """The input dtypes a row's conditions give: the first of each cell, then each other dtype
    of one cell in turn ([] when a condition cannot be met by the sample's call: another
    presence, a condition of another kind)."""
    cells: dict[str, list[str]] = {}
    for i in range(0, len(case.when) - len(case.when) % 4, 4):
        name, what, value, held = case.when[i : i + 4]
        if what == "product":
            continue
        given = values.get(name) is not None
        if what == "given" and (held == "true") == given:
            continue
        if what != "dtype" or held != "true":
            return []
        cell = [d for d in value.split("/") if d != "null"]
        if not given and "null" in value.split("/"):
            continue
        if not given or not cell:
            return []
        cells[name] = cell
    first = {name: cell[0] for name, cell in cells.items()}
    others = [{**first, name: d} for name, cell in cells.items() for d in cell[1:]]
    return [first, *others] if cells else []


# ---------------------------------------------------------------- running them


def run(package: Path, docs: Iterable[OperatorDoc]) -> tuple[list[Variant], list[Rejection], int]:
    """Every variant through the generated validators: the variants, the rejections, and how
    many sample calls were rejected as they stand (their functions are left out)."""
    docs = list(docs)
    calls = sample_calls(docs)
    verdicts = validate_all(package, calls)
    accepted = {name for (name, _), v in zip(calls, verdicts, strict=True) if v is None}
    tried = variants(docs, accepted)
    results = validate_all(package, [(v.function, v.args) for v in tried], [v.product for v in tried])
    # on each product the sample call is accepted on, the dtypes the document allows there
    on = {(v.function, v.product) for v, r in zip(tried, results, strict=True) if v.kind == "product" and r is None}
    more = product_variants(docs, on)  # type: ignore[arg-type]
    tried += more
    results += validate_all(package, [(v.function, v.args) for v in more], [v.product for v in more])
    functions = {name: fn for name, (_, fn) in chosen_functions(docs).items()}
    rejected = [_rejection(functions[v.function], v, r) for v, r in zip(tried, results, strict=True) if r is not None]
    return tried, rejected, len(calls) - len(accepted)


_VERDICT = re.compile(r"^\d+ (?P<rule>[A-Za-z0-9_]+): ")


def _rejection(fn: Function, variant: Variant, verdict: str) -> Rejection:
    match = _VERDICT.match(verdict)
    rule = match.group("rule") if match else verdict.split(":")[0]
    return Rejection(variant, rule, rule_kind(rule), rule_line(fn, rule, variant.product), verdict)


def rule_kind(rule: str) -> str:
    """The check kind a rule id names (`rule3_same_dtype`, `product_same_dtype_weight`: same_dtype)."""
    kind = re.sub(r"^(?:rule\d+|implied|product)_", "", rule)
    known = sorted(get_args(CheckKind), key=len, reverse=True)
    return next((k for k in known if kind == k or kind.startswith(k + "_")), kind)


def rule_line(fn: Function, rule: str, product: str | None = None) -> int | None:
    """The document line a generated rule was read from: its error row, the parameter
    statement (a per-product rule's: the one said for `product`), or the output's shape or
    dtype rule."""
    if match := re.match(r"^rule(\d+)_", rule):
        rows = [e for e in fn.errors for _ in (e.checks or (None,))]
        index = int(match.group(1)) - 1
        return rows[index].line if index < len(rows) else None
    for p in sorted(fn.params, key=lambda p: -len(p.name)):  # `x1` before `x`
        if not rule.endswith(p.name) and f"_{p.name}_" not in rule:
            continue
        if "output_shape" in rule and p.shape_rule is not None:
            return p.shape_rule.line
        if "output_dtype" in rule and p.dtype_rule is not None:
            return p.dtype_rule.line
        kind = rule.split("_")[1] if rule.count("_") > 1 else ""
        said = [c for c in p.constraints if c.kind == kind]
        own = [c for c in said if c.product == product and rule.startswith("product_")]
        return (own or said)[0].line if said else p.line
    return None


def sample(rejections: list[Rejection], size: int = 60, seed: int = 35) -> list[Rejection]:
    """All the rejections when fewer than `size`, else `size` of them drawn with a fixed seed."""
    if len(rejections) <= size:
        return rejections
    return random.Random(seed).sample(rejections, size)
