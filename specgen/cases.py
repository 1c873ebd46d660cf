"""Validator rules and test cases of a function, as plain data for the templates.

Every documented error rule becomes a validator rule (checkable on the host or marked as
not), and at least one generated case that breaks it, next to a valid case that passes.
Parameter constraints no error rule covers (a documented dtype set, an enum) are enforced
too, with status 161002 and the constraint's own text as the condition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from specgen.constraints import is_conditional
from specgen.lower import FunctionCode, SampleArg, dtype_numpy
from specgen.model import ErrorRule, Param

NULLPTR, INVALID = 161001, 161002
HOST_CHECKS = {
    "not_null",
    "dtypes",
    "formats",
    "rank",
    "same_shape",
    "broadcast",
    "broadcast_result",
    "same_dtype",
    "same_format",
    "enum",
    "range",
    "empty_tensor",
    "non_contiguous",
}
NOT_ON_HOST = {
    "castable": "dtype promotion rules are the library's own; not checked on the host",
    "internal": "a failure inside the library, not an argument rule",
    "constraints": "stands for the parameter constraints, which are checked one by one",
    "product": "the document lists no unsupported product to check against",
    "shape": "a shape rule stated in prose only; not checked on the host",
    "value": "a value rule stated in prose only; not checked on the host",
    "unclassified": "the condition is not recognised; not checked on the host",
}
POINTER_ROLES = ("tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array", "float_array", "string")
# dtypes tried, in order, when a case needs one a parameter does not allow
_OTHER_DTYPES = ("DOUBLE", "INT64", "INT32", "FLOAT", "FLOAT16", "INT8", "UINT8", "BOOL", "INT16")


@dataclass(frozen=True)
class RuleData:
    code: int
    kind: str
    params: tuple[str, ...]
    condition: str
    max: int | None = None
    host: bool = True
    reason: str = ""
    implied: bool = False  # from a parameter constraint, not from an error rule


@dataclass(frozen=True)
class Case:
    """Arguments (by C name) for one generated test, and what must happen."""

    id: str
    args: dict[str, tuple]
    code: int = 0  # 0: must pass
    condition: str = ""
    library: bool = True  # also run against the library (False: needs a TensorDesc)
    skip: str = ""
    product: bool = False  # run with an unsupported product


@dataclass(frozen=True)
class FunctionCases:
    params: tuple[dict, ...]  # ParamSpec keyword arguments
    rules: tuple[RuleData, ...]
    valid: Case
    cases: tuple[Case, ...] = field(default_factory=tuple)
    unsupported_products: tuple[str, ...] = ()


def function_cases(fn: FunctionCode, unsupported_products: tuple[str, ...] = ()) -> FunctionCases:
    params = [a.code.param for a in fn.wrapper]
    rules = _rules(fn, params, unsupported_products)
    valid = Case(id="valid", args=_valid_args(fn))
    cases = [case for k, rule in enumerate(rules) for case in _breaking_cases(params, valid, rule, k)]
    return FunctionCases(
        params=tuple(_param_spec(a.role, a.code.param) for a in fn.wrapper),
        rules=tuple(rules),
        valid=valid,
        cases=tuple(cases),
        unsupported_products=unsupported_products,
    )


# ---------------------------------------------------------------- rules


def _param_spec(role: str, p: Param) -> dict:
    general = [c.values for c in p.of_kind("dtypes") if c.product is None]
    enum = tuple(v for c in p.of_kind("enum") for v in c.values)
    ranges = p.of_kind("range")
    spec = {
        "name": p.name,
        "role": role,
        "direction": p.direction,
        "optional": p.optional,
        "dtypes": tuple(p.dtypes),
        "general_dtypes": tuple(v for g in general for v in g) if general else None,
        "product_dtypes": {k: tuple(v) for k, v in p.product_dtypes.items()},
        "formats": tuple(p.formats),
        "rank": (p.rank.min, p.rank.max) if p.rank else None,
        "enum": enum,
        "range": (ranges[0].min, ranges[0].max, ranges[0].min_inclusive, ranges[0].max_inclusive) if ranges else None,
        "empty": p.empty_tensor,
        "non_contiguous": p.non_contiguous,
    }
    return {k: v for k, v in spec.items() if v not in (None, (), {}, False) or k in ("name", "role", "direction")}


def _rules(fn: FunctionCode, params: list[Param], unsupported_products: tuple[str, ...]) -> list[RuleData]:
    known = {p.name for p in params}
    rules: list[RuleData] = []
    for error in fn.function.errors:
        checks = [(c.kind, c.params, c.max) for c in error.checks] or [("unclassified", error.params, None)]
        for kind, names, limit in checks:
            reason = _not_on_host(kind, error, bool(unsupported_products))
            rules.append(
                RuleData(
                    code=error.code,
                    kind=kind,
                    params=tuple(n for n in names if n in known),
                    condition=error.condition,
                    max=int(limit) if limit is not None else None,
                    host=not reason,
                    reason=reason,
                )
            )
    return rules + _implied_rules(params, rules)


RELATIONS = (
    "same_shape",
    "same_dtype",
    "same_format",
    "broadcast",
    "broadcast_result",
    "rank",
    "empty_tensor",
    "non_contiguous",
)


def _not_on_host(kind: str, error: ErrorRule, has_products: bool) -> str:
    """Why a rule is not checked on the host; empty when it is."""
    if kind == "product":
        return "" if has_products else NOT_ON_HOST["product"]
    if kind not in HOST_CHECKS:
        return NOT_ON_HOST.get(kind, NOT_ON_HOST["unclassified"])
    if error.code not in (NULLPTR, INVALID):
        return f"status {error.code} comes from inside the library (runtime or tiling), after the argument checks"
    if kind == "not_null" and error.code != NULLPTR:
        return "a null rule under status 161002 concerns list elements or conditions, not the arguments"
    if kind != "not_null" and is_conditional(error.condition):
        return "a conditional rule (当…时); its condition is not checked on the host"
    if kind in RELATIONS and not error.params:
        return "the condition names no parameter, so which tensors it relates is not stated"
    return ""


def _implied_rules(params: list[Param], rules: list[RuleData]) -> list[RuleData]:
    covered = {(r.kind, n) for r in rules if r.host for n in r.params}
    implied = []
    for p in params:
        pointer = p.kind in POINTER_ROLES
        if pointer and not p.optional and ("not_null", p.name) not in covered:
            condition = f"{p.name} is required (not documented as optional)"
            implied.append(RuleData(NULLPTR, "not_null", (p.name,), condition, implied=True))
        for kind, constraint_kind in (
            ("dtypes", "dtypes"),
            ("formats", "formats"),
            ("rank", "rank"),
            ("enum", "enum"),
            ("range", "range"),
        ):
            constraints = p.of_kind(constraint_kind)  # type: ignore[arg-type]
            if constraints and (kind, p.name) not in covered and _checkable(p, kind):
                implied.append(RuleData(INVALID, kind, (p.name,), constraints[0].text, implied=True))
    return implied


def _checkable(p: Param, kind: str) -> bool:
    if kind in ("dtypes", "formats", "rank"):
        return p.kind in ("tensor", "tensor_list")
    return p.kind in ("int", "float")


# ---------------------------------------------------------------- cases


def _valid_args(fn: FunctionCode) -> dict[str, tuple]:
    plan = {a.name: a for a in fn.sample.args}
    return {a.code.name: _arg(plan.get(a.code.name), a.code.param) for a in fn.wrapper}


def _arg(sample: SampleArg | None, p: Param) -> tuple:
    if sample is None or sample.kind == "null":
        return ("none",)
    if sample.kind in ("tensor", "tensor_list"):
        # NumPy arrays are ND and of NumPy dtypes; anything else is described, not built.
        plain = sample.format == "ND" and dtype_numpy(sample.dtype) is not None
        array = (
            ("array", sample.shape, sample.dtype)
            if plain
            else ("desc", sample.shape, sample.dtype, None, sample.format)
        )
        return ("list", (array, array)) if sample.kind == "tensor_list" else array
    if sample.kind in ("int_array", "bool_array", "float_array"):
        return ("value", (sample.value,))
    if sample.kind == "scalar_list":
        return ("value", (sample.value,) * sample.count)
    return ("value", sample.value)


def _breaking_cases(params: list[Param], valid: Case, rule: RuleData, k: int) -> list[Case]:
    base = f"rule{k + 1}_{rule.kind}"
    if rule.implied:
        base = f"implied_{rule.kind}_{'_'.join(rule.params)}"

    def skipped(reason: str) -> list[Case]:
        return [Case(id=base, args=valid.args, code=rule.code, condition=rule.condition, skip=reason)]

    if not rule.host:
        return skipped(rule.reason)
    if not rule.params:
        return skipped("the condition names no parameter this function has")
    by_name = {p.name: p for p in params}
    made = _MUTATIONS[rule.kind](valid.args, rule, by_name)
    if not made:
        return skipped("no argument breaks this rule without breaking the call (e.g. optional parameters)")
    return [
        Case(
            id=f"{base}_{suffix}" if len(made) > 1 else base,
            args=args,
            code=rule.code,
            condition=rule.condition,
            library=not _uses_desc(args),
        )
        for suffix, args in made
    ]


def _uses_desc(args: dict[str, tuple]) -> bool:
    return any(a[0] == "desc" for a in args.values())


def _replace(args: dict[str, tuple], name: str, value: tuple) -> dict[str, tuple]:
    out = dict(args)
    out[name] = value
    return out


def _tensor(args: dict[str, tuple], name: str) -> tuple | None:
    value = args.get(name)
    return value if value and value[0] in ("array", "desc") else None


def _with(spec: tuple, *, shape=None, dtype=None, fmt=None, strides=None) -> tuple:
    """A tensor argument with some properties changed: a NumPy array while it can be one
    (ND, contiguous, a NumPy dtype), else a TensorDesc."""
    current_strides, current_fmt = (spec[3], spec[4]) if spec[0] == "desc" else (None, "ND")
    shape = spec[1] if shape is None else shape
    dtype = spec[2] if dtype is None else dtype
    fmt = current_fmt if fmt is None else fmt
    strides = current_strides if strides is None else strides
    if fmt == "ND" and strides is None and dtype_numpy(dtype):
        return ("array", tuple(shape), dtype)
    return ("desc", tuple(shape), dtype, strides, fmt)


Mutation = list[tuple[str, dict[str, tuple]]]


def _null(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    return [
        (n, _replace(args, n, ("none",)))
        for n in rule.params
        if not params[n].optional and args.get(n, ("none",))[0] != "none"
    ]


def _bad_dtype(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        spec = _tensor(args, name)
        allowed = params[name].dtypes
        other = next((d for d in _OTHER_DTYPES if d not in allowed), None)
        if spec and allowed and other:
            return [(name, _replace(args, name, _with(spec, dtype=other)))]
    return []


def _bad_format(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        spec = _tensor(args, name)
        allowed = params[name].formats
        other = next((f for f in ("NCHW", "ND", "NHWC", "NCL", "FRACTAL_NZ") if f not in allowed), None)
        if spec and allowed and other:
            return [(name, _replace(args, name, _with(spec, fmt=other)))]
    return []


def _bad_rank(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    """One dimension too many (or too few), given to every tensor the rule names that has
    the same shape, so that their shapes still agree with each other."""
    for name in rule.params:
        spec = _tensor(args, name)
        rank = params[name].rank
        high = rule.max if rule.max is not None else (rank.max if rank else None)
        low = rank.min if rank else 0
        if spec and (high is not None or low > 0):
            shape = (1,) * (high + 1) if high is not None else (2,) * (low - 1)
            out = dict(args)
            for peer in rule.params:
                if (peer_spec := _tensor(args, peer)) and peer_spec[1] == spec[1]:
                    out[peer] = _with(peer_spec, shape=shape)
            return [(name, out)]
    return []


def _other_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that neither equals nor broadcasts with `shape`."""
    if not shape:
        return (3,)
    last = shape[-1]
    return shape[:-1] + (last + 1 if last != 1 else 3,)


def _bad_shape(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    tensors = [n for n in rule.params if _tensor(args, n)]
    if len(tensors) < 2:
        return []
    # Change the last one named: for a broadcast-result rule that is usually the output.
    outputs = [n for n in tensors if params[n].direction == "out"]
    name = outputs[-1] if rule.kind == "broadcast_result" and outputs else tensors[-1]
    spec, reference = _tensor(args, name), _tensor(args, next(n for n in tensors if n != name))
    assert spec is not None and reference is not None
    if rule.kind == "broadcast_result" and outputs:
        # Still broadcastable with the inputs, but not their broadcast shape.
        current = spec[1]
        shape = current[:-1] + (1,) if current and current[-1] != 1 else (2,) + current
    elif max(reference[1] or (1,)) > 1:
        shape = _other_shape(reference[1])
    else:
        shape = (2,) * max(len(reference[1]), 1)
    if spec[1] == shape:
        shape = shape + (2,)
    return [(name, _replace(args, name, _with(spec, shape=shape)))]


def _bad_same_dtype(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    tensors = [n for n in rule.params if _tensor(args, n)]
    if len(tensors) < 2:
        return []
    name = tensors[-1]
    spec, first = _tensor(args, name), _tensor(args, tensors[0])
    assert spec is not None and first is not None
    # Prefer a dtype the parameter allows, so that only the "same dtype" rule is broken.
    choices = [d for d in params[name].dtypes if d != first[2]] + [d for d in _OTHER_DTYPES if d != first[2]]
    return [(name, _replace(args, name, _with(spec, dtype=choices[0])))]


def _bad_same_format(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    tensors = [n for n in rule.params if _tensor(args, n)]
    if len(tensors) < 2:
        return []
    name = tensors[-1]
    spec, first = _tensor(args, name), _tensor(args, tensors[0])
    assert spec is not None and first is not None
    first_fmt = first[4] if first[0] == "desc" else "ND"
    other = next(f for f in (*params[name].formats, "NCHW", "ND") if f != first_fmt)
    return [(name, _replace(args, name, _with(spec, fmt=other)))]


def _bad_enum(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        allowed = [v for c in params[name].of_kind("enum") for v in c.values if isinstance(v, int)]
        if allowed and args.get(name, ("none",))[0] == "value":
            return [(name, _replace(args, name, ("value", max(allowed) + 1)))]
    return []


def _bad_range(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        ranges = params[name].of_kind("range")
        if not ranges or args.get(name, ("none",))[0] != "value":
            continue
        c = ranges[0]
        integral = params[name].kind == "int"
        step = 1 if integral else 0.5
        if c.min is not None:
            value = c.min - (step if c.min_inclusive else 0)
        elif c.max is not None:
            value = c.max + (step if c.max_inclusive else 0)
        else:
            continue
        return [(name, _replace(args, name, ("value", int(value) if integral else float(value))))]
    return []


def _bad_empty(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        spec = _tensor(args, name)
        if spec and spec[1] and params[name].empty_tensor is not True:
            return [(name, _replace(args, name, _with(spec, shape=(0,) + tuple(spec[1][1:]))))]
    return []


def _bad_contiguity(args: dict, rule: RuleData, params: dict[str, Param]) -> Mutation:
    for name in rule.params:
        spec = _tensor(args, name)
        if spec and params[name].non_contiguous is not True and len(spec[1]) >= 2 and min(spec[1]) > 1:
            strides = (1,) + (spec[1][0],) * (len(spec[1]) - 1)  # column-major: not contiguous
            return [(name, _replace(args, name, _with(spec, strides=strides)))]
    return []


_MUTATIONS = {
    "not_null": _null,
    "dtypes": _bad_dtype,
    "formats": _bad_format,
    "rank": _bad_rank,
    "same_shape": _bad_shape,
    "broadcast": _bad_shape,
    "broadcast_result": _bad_shape,
    "same_dtype": _bad_same_dtype,
    "same_format": _bad_same_format,
    "enum": _bad_enum,
    "range": _bad_range,
    "empty_tensor": _bad_empty,
    "non_contiguous": _bad_contiguity,
}
