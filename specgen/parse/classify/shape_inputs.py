"""The dimension list an input's own statement gives (SwinTransformerLnQkvQuant's gamma:
`维度只支持1维且为[H]`, bias `[3 * H]`; SwinAttentionScoreQuant's scaleQuant: `输入维度[1,S]`,
paddingMask1Optional `四维的tensor，维度[1,C,S,S]`), as a rule the validator holds the input to.

The list is read by the readers outputs use (`explicit_dims`, then `shapes.rule_from_reading`'s
symbol definitions and bindings). Its symbols are sized by the other inputs whose own lists
name only symbols (x `只支持维度为[B,S,H]` sizes H; weight `[H, 3 * H]` sizes nothing, since
its list is itself a rule), never by the input itself, so that the list is a check and not a
tautology; where those inputs disagree, the runtime leaves the rule unsettled. A symbol no
other input binds, or one the input's statement leaves free (`C维度支持任意值`), is read from
the input itself: that dimension is held to nothing but the rank. So is a symbol the input's
row defines for itself (aclnnQuantMatmulV4: scale `（t，）, t = 1或n`, pertokenScaleOptional `（t，）,
t = m`: two different t). A list made only of the input's own free symbols says no more than a
rank, and is no rule. A tensor a bool transposes (`weightTranspose`, `queryTranspose`) holds
its list, and gives its symbols, only while that bool is false (`ShapeRule.when`); one whose
statements speak of transposition (`仅转置场景支持`) has axes the text does not fix, and is not
checked. When the statements give several lists (`输入shape为(1,N,1,S)或(B,N,1,S)`), one under a
condition only, or a list whose symbols nothing binds, the rule is `not_derivable` with that
reason and the validator lists it as not checked. A list the document's own sample
contradicts is spared by the validator (codegen/cases.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from specgen.model import Param, ShapeRule, SymbolDim
from specgen.parse.classify.shape_phrases import DIM_WORD, Reading, ShapeContext, listed
from specgen.parse.classify.shapes import TENSORS, explicit_dims, rule_from_reading
from specgen.parse.classify.text import Statement

# `C维度支持任意值`, `NC维度支持任意值`: the letters a statement leaves free
_FREE = re.compile(r"(?P<syms>[A-Z]+)\s*(?:维度|轴)?\s*(?:支持)?任意值")
# `支持输入nullptr，或者四维的tensor`: the other choice is a null pointer, no condition on the list
_NULL_OR = re.compile(r"(?:支持|可)?(?:输入|传入)?nullptr\s*[，,]\s*或者?")
_LIST_AT = re.compile(r"[\[（(][^\[\]（）()]*[\]）)]")
# `t = 1或n`, `t = m`: a symbol one row defines for itself by other symbols (not `H=32/64`, a value)
_DEFINES = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(?=[^，,。；;]*[A-Za-z])")
# aclnnCrossEntropyLossGrad's gradLoss, `(N,)` in the shape column beside `当reductionOptional为mean/sum时，
# 要求为一个维度为0D的Tensor`: the list holds in one case only (`当前`, "currently", is no case)
_CASED_SHAPE = re.compile(r"当(?!前)[^，。；;]{0,40}时[，,]?[^。；;]*(?:维|shape)")
# `channel轴`, `通道`: an axis named by its role, which the tensor's format places
_CHANNEL = re.compile(r"(?i)channel|通道|C轴")
_CHANNEL_LAST = re.compile(r"N[DHWL]*[DHWL]C")
# `B…`, `N...`: a run of dimensions the list leaves free, before the named ones
_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*(?:…|\.\.\.)")
# `weightTranspose`, `transposeX2`: the word a bool's name adds to the tensor's it transposes
_TRANSPOSE = re.compile(r"(?i)_?transpose[d_]?")
# `输入shape为(1,N,1,S)或(B,N,1,S)`: lists offered as alternatives
_LIST = r"[\[（(][^\[\]（）()]*[,，][^\[\]（）()]*[\]）)]"
_ALTERNATIVES = re.compile(
    rf"(?:shape|维度)\S{{0,6}}?(?P<lists>{_LIST}(?:\s*[，,]?\s*(?:或者?|以及|、)\s*(?:[一二三四五六七八1-8]维)?\s*{_LIST})+)"
)


def input_rules(params: Sequence[Param], statements: dict[str, list[Statement]]) -> tuple[Param, ...]:
    """The parameters, each input tensor with the rule its own dimension list gives it."""
    out = []
    for p in params:
        rule = input_shape_rule(p, params, statements) if p.kind in TENSORS and p.direction == "in" else None
        out.append(p.model_copy(update={"stated_shape": rule}) if rule is not None else p)
    return tuple(out)


def input_shape_rule(p: Param, params: Sequence[Param], statements: dict[str, list[Statement]]) -> ShapeRule | None:
    """The rule `p`'s own dimension list gives it; None when its statements give none."""
    own = [replace(s, text=_NULL_OR.sub("", s.text)) for s in statements.get(p.name, [])]
    found = explicit_dims(own, ShapeContext(tuple(q.name for q in params), subject=p.name))
    if isinstance(found, str):
        return _alternatives(own) or _unread(found, own)
    reading, statement = found
    if several := _alternatives([statement]):
        return several  # `[G]或[G, N]`: the reader took the first list only
    if reading[0] != "explicit":
        return None  # a relation (`shape与x一致`): the relation constraints check it
    if cased := next((s for s in own if s is not statement and _CASED_SHAPE.search(s.text)), None):
        return _unchecked(f"its statements give its shape case by case (line {cased.line}: {cased.text})", statement)
    if _worded_transposed(p, own):
        why = "its statements speak of it being transposed (转置), so which axis holds which size is not fixed"
        return _unchecked(why, statement)
    prefixed = _prefixed_bindings(p, params, statements)
    rule = _with_bindings(rule_from_reading(params, statements, reading, statement), reading, prefixed)
    if not rule.derived:
        return _unchecked(rule.reason, statement)
    if last := _channel_last(rule, params, statement):
        return _unchecked(f"the channel axis it names is not fixed: {last}", statement)
    defining = _defining(params, statements) | {b.param for found in prefixed.values() for b in found}
    sized = _sized_by_others(p, rule, own, defining, statements)
    return _untransposed(p, sized, params) if sized is not None else None


def _prefixed_bindings(
    p: Param, params: Sequence[Param], statements: dict[str, list[Statement]]
) -> dict[str, list[SymbolDim]]:
    """Symbols the other inputs' lists with a free prefix bind from the end (aclnnAdaLayerNorm: x
    `shape为[B…, S, H]`, so biasOptional's `[H]`, `H与x中H维一致`, is x.shape[-1])."""
    bound: dict[str, list[SymbolDim]] = {}
    for q in params:
        if q is p or q.kind not in TENSORS or q.direction != "in" or _worded_transposed(q, statements.get(q.name, [])):
            continue
        parts = next((found for s in statements.get(q.name, []) if (found := listed(s.text))), None)
        rest = [part.strip() for part in parts[1:]] if parts and _PREFIX.fullmatch(parts[0].strip()) else []
        if rest and all(DIM_WORD.fullmatch(x) for x in rest):
            for i, x in enumerate(rest):
                bound.setdefault(x, []).append(SymbolDim(symbol=x, param=q.name, axis=i - len(rest)))
    return bound


def _with_bindings(rule: ShapeRule, reading: Reading, prefixed: dict[str, list[SymbolDim]]) -> ShapeRule:
    """The rule with the symbols prefixed lists bind added; a list only they close made a rule."""
    wanted = {d for d in reading[2] if DIM_WORD.fullmatch(d)} & set(prefixed)
    if not wanted:
        return rule
    added = tuple(b for symbol in sorted(wanted) for b in prefixed[symbol])
    if rule.derived:
        return rule.model_copy(update={"symbols": (*rule.symbols, *added)})
    if all(not DIM_WORD.fullmatch(d) or d in wanted for d in reading[2]) and not reading[1]:
        return ShapeRule(kind="explicit", dims=reading[2], symbols=added, text=rule.text, line=rule.line)
    return rule


def _unchecked(why: str, statement: Statement) -> ShapeRule:
    reason = f"the input's own list is not checked: {why}"
    return ShapeRule(kind="not_derivable", reason=reason, text=statement.text, line=statement.line)


def _unread(reason: str, own: Sequence[Statement]) -> ShapeRule | None:
    """A list said under a condition, or beside another: named, with the reader's reason."""
    said = next((s for s in own if _LIST_AT.search(s.text)), None)
    return _unchecked(reason, said) if reason and said is not None else None


def _alternatives(own: Sequence[Statement]) -> ShapeRule | None:
    """`输入shape为(1,N,1,S)或(B,N,1,S)`: several shapes, none read as the one to check."""
    for s in own:
        if m := _ALTERNATIVES.search(s.text):
            reason = f"the statement gives several shapes ({m.group('lists')}); which one a call must have is not read"
            return ShapeRule(kind="not_derivable", reason=reason, text=s.text, line=s.line)
    return None


def _channel_last(rule: ShapeRule, params: Sequence[Param], statement: Statement) -> str:
    """Why the channel axis the statement names (aclnnBatchNorm's runningMean: `shape长度与入参input中
    channel轴的长度相等`, read `input.shape[1]`) is not one axis: the tensor allows a format that puts
    it last (input `NCHW、NHWC`); "" when none does or the statement names no channel."""
    if not _CHANNEL.search(statement.text):
        return ""
    for q in params:
        last = [f for f in q.formats if _CHANNEL_LAST.fullmatch(f)]
        if last and any(f"{q.name}.shape[" in d for d in rule.dims):
            return f"{q.name} allows {', '.join(last)}, which put it last"
    return ""


def _worded_transposed(p: Param, own: Sequence[Statement]) -> bool:
    """Whether `p`'s statements speak of it being transposed (aclnnWeightQuantBatchMatmulV2's
    weight `(k, n)` … `仅转置场景支持`, passed (n, k) by its example)."""
    return "转置" in p.text or any("转置" in s.text for s in own)


def _flag(name: str, params: Sequence[Param]) -> str:
    """The bool that says whether the tensor is given transposed (SwinTransformerLnQkvQuant's
    weightTranspose for weight), or ""."""
    flags = [q.name for q in params if q.kind == "bool" and _TRANSPOSE.sub("", q.name).lower() == name.lower()]
    return flags[0] if len(flags) == 1 else ""


def _defining(params: Sequence[Param], statements: dict[str, list[Statement]]) -> set[str]:
    """The inputs whose own list names only symbols (`[B,S,H]`), not transposed: they give the
    symbols sizes."""
    names = tuple(q.name for q in params)
    out = set()
    for q in params:
        if q.kind in TENSORS and q.direction == "in" and not _worded_transposed(q, statements.get(q.name, [])):
            found = explicit_dims(statements.get(q.name, []), ShapeContext(names, subject=q.name))
            if not isinstance(found, str) and _all_symbols(found[0], names):
                out.add(q.name)
    return out


def _all_symbols(reading: Reading, names: Sequence[str]) -> bool:
    return reading[0] == "explicit" and all(DIM_WORD.fullmatch(d) and d not in names for d in reading[2])


def _sized_by_others(
    p: Param, rule: ShapeRule, own: Sequence[Statement], defining: set[str], statements: dict[str, list[Statement]]
) -> ShapeRule | None:
    """The rule with each symbol sized by the other inputs whose lists define it; a symbol
    no such input binds, one `p`'s statements leave free, or one they define for themselves
    (aclnnQuantMatmulV4: scale `（t，）, t = 1或n`, pertokenScaleOptional `（t，）, t = m`), sized by
    `p` itself (its first axis of that name). None when no dimension is then held to more
    than the rank."""
    free = {c for s in own for m in _FREE.finditer(s.text) for c in m.group("syms")}
    free |= _local(own)

    def binds(s: SymbolDim) -> bool:
        return s.param != p.name and s.param in defining and s.symbol not in _local(statements.get(s.param, []))

    symbols: list[SymbolDim] = []
    for symbol in dict.fromkeys(s.symbol for s in rule.symbols):
        others = [s for s in rule.symbols if s.symbol == symbol and binds(s)]
        symbols.extend(others if others and symbol not in free else _own_axis(p, symbol, rule.dims))
    sized_elsewhere = any(s.param != p.name for s in symbols)
    closed = any(not DIM_WORD.fullmatch(d) or d not in {s.symbol for s in symbols} for d in rule.dims)
    repeated = len(set(rule.dims)) < len(rule.dims)
    if not (sized_elsewhere or closed or repeated or rule.params):
        return None
    return rule.model_copy(update={"symbols": tuple(symbols)})


def _untransposed(p: Param, rule: ShapeRule, params: Sequence[Param]) -> ShapeRule:
    """The rule held while `p` and every tensor it reads are given untransposed: a bool that
    transposes one (SwinAttentionScoreQuant's queryTranspose) changes which axis holds S and H."""
    read = dict.fromkeys((p.name, *(s.param for s in rule.symbols)))
    flags = [f for name in read if (f := _flag(name, params))]
    when = tuple(part for f in dict.fromkeys(flags) for part in (f, "bool", "false", "true"))
    return rule.model_copy(update={"when": when}) if when else rule


def _local(own: Sequence[Statement]) -> set[str]:
    """The symbols a parameter's statements define for themselves (`t = 1或n`)."""
    return {m.group(1) for s in own for m in _DEFINES.finditer(s.text)}


def _own_axis(p: Param, symbol: str, dims: tuple[str, ...]) -> list[SymbolDim]:
    axes = [i for i, d in enumerate(dims) if d == symbol]
    return [SymbolDim(symbol=symbol, param=p.name, axis=axes[0])] if axes else []
