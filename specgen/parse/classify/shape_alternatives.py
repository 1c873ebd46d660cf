"""An output's shape given as several alternatives: case by case under conditions the call
settles (`当reduction为0（none）且self的shape为2维时，out shape为(N,),否则为(1,)`;
`bidirection为false时，当参数packed为false，shape支持三维（…）；当参数packed为true，…`; keyed by a
dtype, `INT8: shape为x.shape[:-1]；其他: shape为[M]`), or as
lists joined by 或 with no condition (`shape为(N)或者()`).

`alternatives_rule` reads every case of the output's statements into one `one_of` rule (see
`specgen.model.ShapeRule`): each alternative with its own conditions (`when`, four parts per
condition, all of which must hold): an attribute's value or another, a bool's, an element of a
bool array, an input's rank, an optional input null or given, a tensor's dtype, an axis that is
a tensor's last, and an output's validity as the constraints section defines it; `其他类型时`
(`其余情况`) where none of the cases before it holds. A condition it
cannot read makes the whole reading fail: a rule that left a case out would reject the calls of
that case. A case whose shape it cannot read (or that names a symbol no input binds) stays in
as not derivable: the output is unchecked, and not allocated, whenever that case holds. The
otherwise case (`否则`) holds where any one of the case's conditions fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from specgen.model import ShapeRule
from specgen.parse.classify.shape_phrases import (
    SHAPE_PHRASES,
    Reading,
    ShapeContext,
    dim_expression,
    listed,
    substituted,
    trailing_sizes,
)
from specgen.vocab import DTYPES, dtype

# A reading of one case's shape, with where it was read, made a rule (symbols bound); the
# case's conditions may bind them (`当logProbs为3维时`: logProbs's list of three dimensions).
Resolve = Callable[[Reading, str, tuple[str, ...]], ShapeRule]
# The same without conditions (a statement's shapes joined by 或者).
ResolveOne = Callable[[Reading, str], ShapeRule]


@dataclass(frozen=True, slots=True)
class Known:
    """What the conditions read of the function's parameters: each one's kind, and the
    dtypes each tensor allows (an unnamed `输出类型为INT4或INT32` is the one tensor's that
    allows them)."""

    kinds: Mapping[str, str]
    dtypes: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # the constraints section's statements of when outputs are valid (`当outputMaskOptional[0]为
    # True时，y1Out和scale1Out为有效输出`)
    notes: Sequence[str] = ()
    # the integer attribute that chooses a reduction, 0 being none (`支持0(none)|1(mean)|2(sum)`)
    reduction: str = ""
    # the scenarios integer attributes name, as their conditions (MoeInitRoutingV2 activeNum:
    # `0表示Dropless场景，大于0时表示Active场景`; see `scenarios`)
    scenarios: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


_NAME = r"`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?"
# One condition of a case: an attribute's value (`reduction为0（none）`, `reduction的值不为0`), a
# bool's (`参数packed为false`), an input's rank (`self的shape为2维`).
_VALUE = re.compile(
    rf"^(?:参数|输入|入参)?\s*{_NAME}\s*(?:的值)?\s*(?P<no>不)?(?:为|是|等于|=+)\s*[\"“'`]?(?P<value>[A-Za-z0-9_]+)[\"”'`]?"
    r"\s*(?:[（(][A-Za-z]+[）)])?$"
)
# `activateDim对应的x的尾轴`, `activateDim对应的不是x的尾轴`: an axis value that is (not) a tensor's last
_LAST = re.compile(rf"^{_NAME}\s*对应的\s*(?P<no>不是)?\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*的尾轴$")
# An output's state (`y1Out为有效输出`, `此输出为有效输出`), which the constraints section defines
_STATE_ATOM = re.compile(r"^(?:`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?|此输出)\s*为\s*(?P<state>有效|无效)输出$")
_STATE = re.compile(
    r"当(?P<cond>[^，,；;。]+?)时[，,]\s*(?P<outs>[`A-Za-z0-9_和、\s]+?)\s*(?:始终)?"
    r"(?:在(?P<both>[`A-Za-z0-9_和、\s]+?)均有效时)?\s*为(?P<state>有效|无效)输出"
)
# `outputMaskOptional[0]为True`: one element of a bool array; `outputMaskOptional为空`: null (or not)
_ITEM = re.compile(rf"^{_NAME}\[(?P<i>\d+)\]\s*(?:为|是|=+)\s*(?P<value>True|False|true|false)$")
# Optional parameters given or null: `groupIndexOptional存在`, `…不存在`, `x非空`,
# `outputMaskOptional为空`, `x1Scale和x2Scale不为None`
_NAMES = r"(?P<names>`?[A-Za-z_][A-Za-z0-9_]*`?(?:\s*[和、]\s*`?[A-Za-z_][A-Za-z0-9_]*`?)*)"
_NULL = re.compile(rf"^{_NAMES}\s*(?P<no>不)?为\s*(?:空|空指针|nullptr|None)$")
_GIVEN = re.compile(rf"^{_NAMES}\s*(?:(?P<no>不)?(?:存在|传入)|非空)$")
# `有offset`, `无offset` (aclnnTransQuantParamV2's constraints)
_HAS = re.compile(rf"^(?:(?P<no>无|没有)|有)\s*{_NAMES}$")
# `量化输出类型为INT4或INT32`, `y的数据类型为INT8`: a tensor's dtype (named, or the one allowing them)
_DTYPE = re.compile(
    r"^(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*的)?\s*(?P<other>量化)?(?:输出)?(?:数据)?类型\s*为\s*"
    r"(?P<dtypes>[A-Z][A-Z0-9_]*(?:\s*或\s*[A-Z][A-Z0-9_]*)*)$"
    # `输入x为INT32类型` (aclnnAscendAntiQuant)
    r"|^(?:输入|入参)?\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*为\s*(?P<dtype>[A-Z][A-Z0-9_]*)\s*类型$"
)
_RANK = re.compile(rf"^(?:参数|输入|入参)?\s*{_NAME}\s*(?:的shape)?\s*(?:为|是)\s*(?P<value>\d)\s*维(?:Tensor)?$")
# `其他类型时`, `其余情况下`: a case that holds where none of the statement's cases before it does
_OTHERS = re.compile(r"^(?:其他|其余)(?:类型|情况|场景)下?$")
# Where a condition stands: `当…时，`, `…时，` or `当…，` (then a shape), up to the clause's end.
# (not an aside in brackets: `scale与offset(若不为nullptr)单维shape大小的最大值` is one case's shape)
_CONDITION = re.compile(
    r"(?:(?<![(（])(?:当|若|如果)(?P<led>[^，,；;。]+?)(?:时)?|(?P<bare>[^，,；;。当若]+?)时)\s*[，,]"
)
_OTHERWISE = re.compile(r"[，,；;]?\s*(?:否则|其他情况下?|其余情况下?)\s*[，,]?")
_LIST = r"[(（\[][^()（）\[\]]*[)）\]]"
_LISTS = re.compile(rf"shape\s*(?:为|是|支持)\s*(?P<lists>{_LIST}(?:\s*或(?:者)?\s*{_LIST})+)")
_OR = re.compile(r"\s*或(?:者)?\s*")
_RANKED = re.compile(r"^shape\s*支持[一二三四五六七八1-8]维\s*(?=[(（\[])")
_EMPTY = re.compile(r"shape\s*为\s*(?:\(\s*\)|（\s*）|\[\s*\])")
_BOOLS = ("true", "false")


_SCENARIO_NAME = r"(?P<scenario>[A-Za-z][A-Za-z/]*)场景"
# `0表示Dropless场景`, `1：表示Drop/Pad场景` (a value's bullet), `大于0时表示Active场景`
_NAMED_BY_VALUE = re.compile(rf"(?<![\d.])(?P<value>\d+)\s*[：:]?\s*表示{_SCENARIO_NAME}")
_NAMED_BY_BOUND = re.compile(rf"(?P<op>大于等于|小于等于|大于|小于)\s*(?P<value>\d+)\s*时?\s*表示{_SCENARIO_NAME}")
# `该属性在dropPadMode为0时生效`: the attribute's scenarios hold under another's value only
_IN_EFFECT = re.compile(rf"该(?:属性|参数)在\s*{_NAME}\s*(?:为|是|等于)\s*(?P<value>\d+)\s*时生效")


def scenarios(texts: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The scenarios integer attributes' own rows name (`texts`: each one's row), each as the
    four-part conditions it holds under: a value (`0表示Dropless场景`, `1：表示Drop/Pad场景`) or a
    bound (`大于0时表示Active场景`), under the value of another attribute the row says it takes
    effect at (`该属性在dropPadMode为0时生效`). A scenario two rows name is not read."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for name, text in texts.items():
        effect = _IN_EFFECT.search(text)
        lead = (effect.group("name"), "value", effect.group("value"), "true") if effect else ()
        for m in _NAMED_BY_VALUE.finditer(text):
            found.setdefault(m.group("scenario"), []).append((*lead, name, "value", m.group("value"), "true"))
        for m in _NAMED_BY_BOUND.finditer(text):
            bound = f"{_OPERATORS[m.group('op')]} {m.group('value')}"
            found.setdefault(m.group("scenario"), []).append((*lead, name, "compare", bound, "true"))
    return {scenario: when[0] for scenario, when in found.items() if len(when) == 1}


_SCENARIO_LEAD = re.compile(rf"(?<![A-Za-z/非])在?\s*{_SCENARIO_NAME}下?\s*[，,]?\s*")


def _scenario_led(text: str, known: Known) -> str:
    """The statement with each scenario that leads a clause (`Dropless场景shape为…`, `在Drop/Pad
    场景下要求是…`) written as a condition (`当Dropless场景时，shape为…`)."""

    def led(m: re.Match[str]) -> str:
        named = m.group("scenario")
        known_name = named in known.scenarios or all(p in known.scenarios for p in named.split("/"))
        return f"当{named}场景时，" if known_name else m.group(0)

    return _SCENARIO_LEAD.sub(led, text) if known.scenarios else text


def alternatives_rule(texts: Sequence[str], ctx: ShapeContext, known: Known, resolve: Resolve) -> ShapeRule | None:
    """The output's shapes case by case, or as alternatives joined by 或; None unless every
    case the statements give is read."""
    cases: list[tuple[tuple[str, ...], ShapeRule]] = []
    said = []
    for text in texts:
        found = _cases(_scenario_led(text, known), ctx, known, resolve, [when for when, _ in cases])
        if found is None:
            return None
        cases += found
        said += [text.strip()] if found else []
    if len(cases) < 2 or not any(rule.derived for _, rule in cases):
        return None
    if any(not when and not rule.derived for when, rule in cases):
        return None  # a shape that holds whatever the call does, unread: the rule would never check
    first = next(rule for _, rule in cases if rule.derived)
    alternatives = tuple(
        a.model_copy(update={"line": a.line or first.line}) for when, rule in cases for a in _in_form(when, rule)
    )
    alternatives = tuple(_bounds_sized(a, resolve) for a in alternatives)
    reads = [n for a in alternatives for n in (*a.params, *(s.param for s in a.symbols))]
    return ShapeRule(
        kind="one_of",
        params=tuple(dict.fromkeys(reads)),
        alternatives=alternatives,
        text=" ".join(said),
        line=first.line,
    )


def _bounds_sized(rule: ShapeRule, resolve: Resolve) -> ShapeRule:
    """A case's comparisons with their bounds read as dimensions are (`activeNum小于R * K`: R
    and K bound to the inputs' axes, as the case's symbols); unread bounds stay as written, and
    the runtime leaves such a condition unsettled."""
    at = [i for i in range(0, len(rule.when) - 3, 4) if rule.when[i + 1] == "compare"]
    if not rule.derived or not at:
        return rule
    ops, bounds = zip(*(rule.when[i + 2].split(" ", 1) for i in at), strict=True)
    sized = resolve(("explicit", (), tuple(bounds)), rule.text, ())
    if sized.kind != "explicit" or len(sized.dims) != len(bounds):
        return rule
    when = list(rule.when)
    for i, op, dim in zip(at, ops, sized.dims, strict=True):
        when[i + 2] = f"{op} {dim}"
    symbols = tuple(dict.fromkeys((*rule.symbols, *sized.symbols)))
    return rule.model_copy(update={"when": tuple(when), "symbols": symbols})


def _in_form(when: tuple[str, ...], rule: ShapeRule) -> list[ShapeRule]:
    """A case's shape under its conditions; a shape whose symbols only one form of an input
    defines (its `when`: aclnnMultilabelMarginLoss `(N)` where self is `(N,C)或者(C)`) holds in
    that form, and is unread in the input's others."""
    if not rule.when:
        return [rule.model_copy(update={"when": when})]
    other = ShapeRule(
        kind="not_derivable",
        reason=f"its sizes are defined only where {rule.when[0]} has {rule.when[2]} dimensions"
        if rule.when[1] == "rank"
        else f"its sizes are defined only in another form of {rule.when[0]}",
        when=(*when, *_negated(rule.when)),
        text=rule.text,
        line=rule.line,
    )
    return [rule.model_copy(update={"when": (*when, *rule.when)}), other]


def _cases(
    text: str, ctx: ShapeContext, known: Known, resolve: Resolve, earlier: list[tuple[str, ...]]
) -> list[tuple[tuple[str, ...], ShapeRule]] | None:
    """The cases one statement gives ([] when it gives none); None when it gives one this
    reader cannot read. `earlier`: the conditions of the cases the output's statements before
    it give (`其他类型时`, a statement of its own, turns them round)."""
    out: list[tuple[tuple[str, ...], ShapeRule]] = []
    # `bidirection为false时，当参数packed为false，…；当…`: a condition standing alone leads every case after it
    outer: list[tuple[str, ...]] = []
    # `…；否则…`, `…；其余情况该入参的shape…` (PromptFlashAttentionV2): the otherwise case of the one before
    for sentence in re.split(r"[；;。](?!\s*(?:否则|其[他余]情况))", text):
        if not sentence.strip():
            continue
        found = _sentence_cases(sentence.strip(), ctx, known, resolve, outer, [*earlier, *(w for w, _ in out)])
        if found is None:
            return None
        out += found
    return out


def _sentence_cases(
    sentence: str,
    ctx: ShapeContext,
    known: Known,
    resolve: Resolve,
    outer: list[tuple[str, ...]],
    earlier: list[tuple[str, ...]],
) -> list[tuple[tuple[str, ...], ShapeRule]] | None:
    """The cases of one sentence (`earlier`: the conditions of the statement's cases before
    it, which `其他类型时` turns round)."""
    if (m := _LISTS.search(sentence)) and not _CONDITION.search(sentence):
        parts = _OR.split(m.group("lists"))
        keys = _by_reduction(parts, known)
        return [
            (when, rule)
            for part, when in zip(parts, keys, strict=True)
            for rule in _resolved(f"shape为{part}", sentence, ctx, resolve, ())
        ]
    if keyed := _KEYED.match(sentence):
        return _keyed(keyed, sentence, ctx, known, resolve, earlier)
    conditions = list(_CONDITION.finditer(sentence))
    if not conditions or "shape" not in sentence:  # `当yOut的数据类型为…时，yOut的最后一维需要是2的倍数`
        return []
    out: list[tuple[tuple[str, ...], ShapeRule]] = []
    local: tuple[str, ...] = ()  # a lead of this sentence only
    for i, m in enumerate(conditions):
        said_when = (m.group("led") or m.group("bare")).strip()
        others = _OTHERS.match(said_when)
        whens = _none_of([*earlier, *(w for w, _ in out)]) if others else _condition(said_when, ctx, known)
        if whens is None:
            return None
        end = conditions[i + 1].start() if i + 1 < len(conditions) else len(sentence)
        shape_text = sentence[m.end() : end]
        if not shape_text.strip():
            if i or outer or len(whens) != 1:
                return None
            outer.append(whens[0])
            continue
        # `当dropPadMode是0时，要求是一个2D的Tensor，当activeNum大于0…时，shape为…`: a condition
        # whose clause gives no shape leads the sentence's cases after it
        if i == 0 and len(conditions) > 1 and "shape" not in shape_text.lower():
            if len(whens) > 1 and _restated(whens, conditions[1:], ctx, known):
                continue  # `在Dropless/Active场景下要求是一个2D的Tensor，Dropless场景shape为…`
            if outer or len(whens) != 1:
                return None
            local = whens[0]
            continue
        said, *otherwise = _OTHERWISE.split(shape_text, maxsplit=1)
        lead = outer[0] if outer else local
        out += _each(said, whens, lead, sentence, ctx, resolve)
        if otherwise and otherwise[0].strip():  # `否则为(1,)`: where the case does not hold
            unless = _otherwise(said_when, whens, ctx, known)
            if unless is None:
                return None
            out += _each(otherwise[0], unless, lead, sentence, ctx, resolve)
    return out


def _restated(whens: list[tuple[str, ...]], later: Sequence[re.Match[str]], ctx: ShapeContext, known: Known) -> bool:
    """Each alternative of a lead is the condition of a case after it: the lead adds nothing."""
    said = [_condition((m.group("led") or m.group("bare")).strip(), ctx, known) or [] for m in later]
    return all(any(when in found for found in said) for when in whens)


# `INT8: shape为x.shape[:-1]+[H]；其他: shape为[M, H]` (aclnnDequantSituQuant yOut): a case keyed
# by a dtype (or several, `INT32/BF16`), then the others
_KEYED = re.compile(
    r"^(?P<key>[A-Z][A-Z0-9_]*(?:\s*[/、或]\s*[A-Z][A-Z0-9_]*)*|其他|其余)(?:类型|情况)?\s*[:：]\s*(?P<shape>shape.+)$"
)


def _by_reduction(parts: Sequence[str], known: Known) -> list[tuple[str, ...]]:
    """The condition each of a loss's lists holds under: `shape为(N)或者()` (aclnnMultilabelMarginLoss
    out) where a reduction attribute is documented as `0(none)|1(mean)|2(sum)`: the list unreduced
    (0, none), the 0-d shape reduced (mean and sum add the losses up); no condition otherwise."""
    empty = [bool(_EMPTY.fullmatch(f"shape为{part.strip()}")) for part in parts]
    if not known.reduction or len(parts) != 2 or sum(empty) != 1:
        return [()] * len(parts)
    return [(known.reduction, "value", "0", "false" if is_empty else "true") for is_empty in empty]


def _keyed(
    m: re.Match[str],
    sentence: str,
    ctx: ShapeContext,
    known: Known,
    resolve: Resolve,
    earlier: list[tuple[str, ...]],
) -> list[tuple[tuple[str, ...], ShapeRule]] | None:
    """The case a dtype keys (`INT8: shape为…`), held to the dtype of the tensor it speaks of;
    `其他: …` where none of the cases before holds. None when the key is no dtype or names no
    one tensor."""
    key = m.group("key")
    if key in ("其他", "其余"):
        whens = _none_of(earlier)
    else:
        dtypes = [dtype(d) or "" for d in re.split(r"\s*[/、或]\s*", key)]
        name = _keyed_tensor(dtypes, ctx, known) if all(d in DTYPES for d in dtypes) else None
        whens = [(name, "dtype", d, "true") for d in dtypes] if name else None
    return None if whens is None else _each(m.group("shape"), whens, (), sentence, ctx, resolve)


def _keyed_tensor(dtypes: Sequence[str], ctx: ShapeContext, known: Known) -> str | None:
    """The tensor whose dtype keys the cases: one that allows these dtypes and others (a key
    that is all a tensor allows tells its calls nothing apart: aclnnDequantSituQuant's yOut is
    INT8 alone, its `INT8:` is x's), the row's own first, else the only one."""
    keyed = [name for name, allowed in known.dtypes.items() if set(dtypes) < set(allowed)]
    if ctx.subject in keyed:
        return ctx.subject
    return keyed[0] if len(keyed) == 1 else None


def _each(
    text: str,
    whens: list[tuple[str, ...]],
    lead: tuple[str, ...],
    sentence: str,
    ctx: ShapeContext,
    resolve: Resolve,
) -> list[tuple[tuple[str, ...], ShapeRule]]:
    """The shapes a case's words give, under each of its conditions (read under each: a rank
    binds symbols), shape by shape."""
    rules = [_resolved(text, sentence, ctx, resolve, when) for when in whens]
    if len({len(r) for r in rules}) != 1:
        return [((*lead, *when), rule) for when, found in zip(whens, rules, strict=True) for rule in found]
    return [((*lead, *when), found[i]) for i in range(len(rules[0])) for when, found in zip(whens, rules, strict=True)]


def _none_of(earlier: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]] | None:
    """Where none of the cases before holds (`类型为INT32时，…；其他类型时，shape与x一致`): each
    of their conditions turned round, all at once; None when there are none before, or one of
    them is several conditions (its negation would be several cases)."""
    if not earlier or any(len(when) != 4 for when in earlier):
        return None
    return [tuple(part for when in dict.fromkeys(earlier) for part in _negated(when))]


def _otherwise(
    text: str, whens: list[tuple[str, ...]], ctx: ShapeContext, known: Known
) -> list[tuple[str, ...]] | None:
    """Where a case does not hold: an output's other state (`否则` after `此输出为有效输出`), or
    any one of its conditions failing; None for several alternatives (not read)."""
    if (m := _STATE_ATOM.match(text.strip())) and _subject(m.group("name"), ctx):
        return _states(ctx.subject, ctx, known).get("无效" if m.group("state") == "有效" else "有效")
    if len(whens) != 1:
        return None
    return [_negated(whens[0][k : k + 4]) for k in range(0, len(whens[0]), 4)]


def _resolved(text: str, sentence: str, ctx: ShapeContext, resolve: Resolve, when: tuple[str, ...]) -> list[ShapeRule]:
    """The shapes a case's words give: one, or one or another (`…一致，或者与x1除了最后一维的
    乘积一致`), or a not-derivable alternative saying why."""
    text = _RANKED.sub("shape为", text.strip().rstrip("，,；;"))  # `shape支持三维（time_step, …）`
    if text.startswith("为"):  # `否则为(1,)`
        text = "shape" + text
    if either := either_rule(text, ctx, lambda reading, _: resolve(reading, sentence, when)):
        return list(either.alternatives)
    return [_one(text, sentence, ctx, resolve, when)]


def _one(text: str, sentence: str, ctx: ShapeContext, resolve: Resolve, when: tuple[str, ...]) -> ShapeRule:
    if _EMPTY.fullmatch(text) or _SCALAR.fullmatch(text):  # `()`, `只支持0维`: a 0-d tensor
        return ShapeRule(kind="explicit", text=sentence, line=0)
    readings = {r for p in SHAPE_PHRASES if p.trigger.search(text) and (r := p.read(text, ctx))}
    if not readings and (reading := _broadcast_case(text, ctx) or _numbered(text, ctx) or _dropped(text, ctx)):
        readings = {reading}
    if len(readings) != 1:
        reason = f"the case `{text}` gives " + ("no shape" if not readings else "several shapes")
        return ShapeRule(kind="not_derivable", reason=reason, text=sentence, line=0)
    return resolve(readings.pop(), sentence, when)


# A 0-d output, said of the whole case (aclnnL1Loss `out的shape只支持0维`, aclnnMseLoss `out的shape
# 支持0维`, aclnnCtcLoss `否则negLogLikelihoodOut为0维Tensor`, aclnnLpLoss `out 需为标量`)
_SCALAR = re.compile(
    r"(?:`?[A-Za-z_][A-Za-z0-9_]*`?\s*的?\s*)?(?:shape\s*)?(?:只|仅)?(?:支持|需|需要|必须)?\s*(?:为|是)?\s*"
    r"(?:0维(?:的)?(?:Tensor|tensor|张量)?|标量(?:\s*shape)?|scalar)[。.]?"
)
# `shape为x的shape剔除倒数第二维` (aclnnDynamicQuantV3 scaleOut, perchannel): without the axis before the last
_DROP_SECOND_LAST = re.compile(
    r"^shape(?:维度)?为\s*(?:输入|入参)?\s*`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*的shape(?:剔除|去除|去掉)(?:掉)?倒数第二维$"
)


def _dropped(text: str, ctx: ShapeContext) -> Reading | None:
    m = _DROP_SECOND_LAST.match(text)
    if m is None or m.group("x") not in ctx.inputs:
        return None
    x = m.group("x")
    return ("explicit", (), (f"*{x}.shape[:-2]", f"{x}.shape[-1]"))


# `out的shape与self和targetbroadcast后的shape一致`; `out与self、target做broadcast后，再reduce 0轴
# 得到的tensor的shape一致` (aclnnMseLossOut): the broadcast, then without the axis reduced
_BROADCAST_CASE = re.compile(
    r"与\s*`?(?P<a>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:和|、)\s*`?(?P<b>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:做|进行)?\s*broadcast\s*后"
    r"(?:[，,]\s*再\s*reduce\s*(?P<axis>\d)\s*轴得到的tensor)?的\s*shape\s*(?:一致|相同)$"
)


def _broadcast_case(text: str, ctx: ShapeContext) -> Reading | None:
    m = _BROADCAST_CASE.search(text)
    if m is None or not {m.group("a"), m.group("b")} <= set(ctx.inputs):
        return None
    if m.group("axis") is None:
        return ("broadcast", (m.group("a"), m.group("b")), ())
    whole, axis = f"broadcast({m.group('a')}, {m.group('b')})", int(m.group("axis"))
    return ("explicit", (), (f"*{whole}[:{axis}]", f"*{whole}[{axis + 1}:]"))


# `shape需要与输入x1除最后一维后的shape一致，或者与x1除了最后一维的乘积一致` (aclnnAddRmsNormDynamicQuant
# scale1Out): a shape, or another after 或者 (`或者是二维并且…`)
_EITHER = re.compile(r"^(?P<first>shape\s*(?:需要|必须)?\s*与.+?一致)[，,]\s*或者?\s*(?:是)?\s*(?P<second>.+?)[。.]?$")
_BOTH = re.compile(r"(?<=[A-Za-z0-9_])/[A-Za-z_][A-Za-z0-9_]*")
_PRODUCT = re.compile(
    r"^与\s*(?:输入)?`?(?P<x>[A-Za-z_][A-Za-z0-9_]*)`?\s*除(?:了)?最后一维的(?:维度)?乘积一致$"
    r"|^二维并且第一维等于\s*`?(?P<y>[A-Za-z_][A-Za-z0-9_]*)`?\s*除(?:了)?最后一维的维度乘积[，,]\s*"
    r"第二维等于\s*`?(?P=y)`?\s*的最后一维$"
)


def either_rule(text: str, ctx: ShapeContext, resolve: ResolveOne) -> ShapeRule | None:
    """A statement that gives a shape, then another after 或者: a `one_of` rule of the two,
    when both read (the second as the product of an input's leading dimensions, `与x1除了最后一维
    的乘积一致`, or that product with its last dimension, `或者是二维并且第一维等于x1除了最后一维的
    维度乘积，第二维等于x1的最后一维`)."""
    m = _EITHER.match(text.strip().replace("`", ""))
    if m is None:
        return None
    said = _BOTH.sub("", m.group("first"))  # `与输入x1/x2一致`: x1's shape, which is x2's
    said = said.replace("除了最后一维", "除最后一维")  # as the readers spell it
    first = {r for p in SHAPE_PHRASES if p.trigger.search(said) and (r := p.read(said, ctx))}
    second = _PRODUCT.match(m.group("second"))
    x = (second.group("x") or second.group("y")) if second else None
    if len(first) != 1 or second is None or x not in ctx.inputs:
        return None
    product = f"prod({x}.shape[:-1])"
    dims = (product,) if second.group("x") else (product, f"{x}.shape[-1]")
    alternatives = (resolve(first.pop(), text), resolve(("explicit", (), dims), text))
    if not all(a.derived for a in alternatives):
        return None
    reads = [n for a in alternatives for n in (*a.params, *(s.param for s in a.symbols))]
    return ShapeRule(
        kind="one_of", params=tuple(dict.fromkeys(reads)), alternatives=alternatives, text=text.strip(), line=0
    )


_NUMBERED = re.compile(r"^(?P<sym>[A-Za-z_]+)1$")


def _leading_run(parts: Sequence[str]) -> tuple[str, int] | None:
    """`X1,X2,...Xn` (or `X1,X2,...,Xn`) at the head of a list: its symbol and how many parts
    it takes; None when the list does not start so."""
    m = _NUMBERED.match(parts[0]) if parts else None
    if m is None:
        return None
    sym, ends = m.group("sym"), (f"...{m.group('sym')}n", f"…{m.group('sym')}n")
    for i, part in enumerate(parts[1:], start=1):
        if part in ends or (part == f"{sym}n" and parts[i - 1] in ("...", "…")):
            return sym, i + 1
        if not re.fullmatch(rf"{sym}\d+|\.\.\.|…", part):
            return None
    return None


def _numbered(text: str, ctx: ShapeContext) -> Reading | None:
    """`shape为[X1,X2,...Xn,H]` where the input x is `[X1,X2,...Xn,2H]` (aclnnSwigluMxQuant,
    aclnnDequantSwigluQuantV2): x's leading dimensions, then the trailing ones, each symbol
    read from x's trailing dimensions (H is x.shape[-1] / 2); `[X1,X2,...,Xn]`: the leading
    ones alone."""
    parts = listed(text) or []
    run = _leading_run(parts)
    if run is None:
        return None
    for name, own in ctx.lists:
        theirs = _leading_run(own)
        if theirs is None or theirs[0] != run[0] or name not in ctx.inputs or len(own) == theirs[1]:
            continue
        trailing = own[theirs[1] :]
        sizes = trailing_sizes(name, trailing)
        tail = [dim_expression(re.sub(r"(\d)\s*([A-Za-z_])", r"\1*\2", p), ctx.params) for p in parts[run[1] :]]
        if sizes is None or not all(tail):
            return None
        return ("explicit", (), (f"*{name}.shape[:{-len(trailing)}]", *substituted([t for t in tail if t], sizes)))
    return None


def _condition(text: str, ctx: ShapeContext, known: Known) -> list[tuple[str, ...]] | None:
    """A case's conditions (`A且B`), four parts each, as alternatives of them (`类型为INT4或INT32`
    is two); None when one is not read."""
    conjunctions: list[tuple[str, ...]] = [()]
    subject = ""
    for atom in re.split(r"\s*(?:且|并且)\s*", text.strip()):
        options = _compared(atom.strip(), subject, known) or _atom(atom.strip(), ctx, known)
        if options is None:
            return None
        subject = options[0][0] if len(options) == 1 else ""
        conjunctions = [(*c, *o) for c in conjunctions for o in options]
    return conjunctions


# `activeNum大于0`, `小于R * K` (the atom before's subject): an integer attribute compared with
# an integer or a size expression
_COMPARED = re.compile(
    rf"^(?:{_NAME}\s*(?:的值)?\s*)?(?P<op>大于等于|小于等于|大于|小于|>=|<=|>|<)\s*(?P<bound>[A-Za-z0-9_ *+\-/()]+?)$"
)
_OPERATORS = {"大于等于": ">=", "小于等于": "<=", "大于": ">", "小于": "<"}


def _compared(atom: str, subject: str, known: Known) -> list[tuple[str, ...]] | None:
    """An integer attribute's comparison, as (name, "compare", "<op> <bound>", "true"); None
    when the atom is no comparison of one."""
    m = _COMPARED.match(atom)
    name = (m.group("name") or subject) if m else ""
    if m is None or known.kinds.get(name) != "int":
        return None
    bound = dim_expression(m.group("bound"), ())
    if bound is None:
        return None
    return [(name, "compare", f"{_OPERATORS.get(m.group('op'), m.group('op'))} {bound}", "true")]


def _atom(atom: str, ctx: ShapeContext, known: Known) -> list[tuple[str, ...]] | None:
    if (in_scenario := _in_scenario(atom, known)) is not None:
        return in_scenario
    kinds = known.kinds
    if (m := _STATE_ATOM.match(atom)) and _subject(m.group("name"), ctx):
        return _states(ctx.subject, ctx, known).get(m.group("state"))
    if (m := _ITEM.match(atom)) and kinds.get(m.group("name")) == "bool_array":
        return [(f"{m.group('name')}[{m.group('i')}]", "bool", m.group("value").lower(), "true")]
    if (given := presence(atom, kinds)) is not None:
        return [given]
    if (m := _RANK.match(atom)) and m.group("name") in ctx.inputs:
        return [(m.group("name"), "rank", m.group("value"), "true")]
    if (m := _LAST.match(atom)) and kinds.get(m.group("name")) == "int" and m.group("x") in ctx.inputs:
        return [(m.group("name"), "last", m.group("x"), "false" if m.group("no") else "true")]
    if (m := _DTYPE.match(atom)) and m.group("x"):
        d = dtype(m.group("dtype")) or ""
        return [(m.group("x"), "dtype", d, "true")] if d in DTYPES and m.group("x") in known.dtypes else None
    if m := _DTYPE.match(atom):
        named, dtypes = m.group("name"), [dtype(d) or "" for d in re.split(r"\s*或\s*", m.group("dtypes"))]
        if not all(d in DTYPES for d in dtypes):
            return None
        name = (
            named
            if named in known.dtypes
            else _unnamed(dtypes, ctx, known, m.group("other"))
            if named is None
            else None
        )
        return [(name, "dtype", d, "true") for d in dtypes] if name else None
    m = _VALUE.match(atom)
    if m is None:
        return None
    name, value, held = m.group("name"), m.group("value"), "false" if m.group("no") else "true"
    if kinds.get(name) == "bool" and value.lower() in _BOOLS:
        return [(name, "bool", value.lower(), held)]
    if kinds.get(name) in ("int", "string") and value.lower() not in _BOOLS:
        return [(name, "value", value, held)]
    return None


_IN_SCENARIO = re.compile(rf"^在?\s*{_SCENARIO_NAME}下?$")


def _in_scenario(atom: str, known: Known) -> list[tuple[str, ...]] | None:
    """`Drop/Pad场景`, `在Dropless/Active场景下`: the conditions of a scenario the rows name, or of
    each of several (`Dropless/Active`) when the name is none itself; None otherwise."""
    m = _IN_SCENARIO.match(atom)
    if m is None or not known.scenarios:
        return None
    name = m.group("scenario")
    if name in known.scenarios:
        return [known.scenarios[name]]
    parts = name.split("/")
    return [known.scenarios[p] for p in parts] if all(p in known.scenarios for p in parts) else None


def presence(atom: str, names: Collection[str]) -> tuple[str, ...] | None:
    """`atom` as the conditions that optional parameters among `names` are given or null (four
    parts each: `(x, "given", "", "true")`; `有x`, `无x` too); None when it says something else or
    names another."""
    m = _NULL.match(atom) or _GIVEN.match(atom) or _HAS.match(atom)
    if m is None:
        return None
    named = [n.strip("`") for n in re.split(r"\s*[和、]\s*", m.group("names"))]
    if not all(n in names for n in named):
        return None
    given = (m.re is not _NULL) != bool(m.group("no"))
    return tuple(x for n in named for x in (n, "given", "", "true" if given else "false"))


def _subject(name: str | None, ctx: ShapeContext) -> bool:
    return name in (None, ctx.subject)


def _states(subject: str, ctx: ShapeContext, known: Known) -> dict[str, list[tuple[str, ...]]]:
    """When the constraints section says an output is valid (`有效`) and when not (`无效`):
    `当outputMaskOptional[0]为True时，y1Out和scale1Out为有效输出`, `当outputMaskOptional为空时，y2Out
    和scale2Out在smoothScale1Optional和smoothScale2Optional均有效时为有效输出，否则为无效输出`; both
    or neither (a state the section leaves out is not guessed)."""
    found: dict[str, list[tuple[str, ...]]] = {"有效": [], "无效": []}
    for text in known.notes:
        for sentence in re.split(r"[；;。]", text):
            m = _STATE.search(sentence)
            if m is None or subject not in re.split(r"[和、\s]+", m.group("outs").replace("`", "")):
                continue
            whens = _condition(m.group("cond"), ctx, known)
            if whens is None or (m.group("both") and len(whens) != 1):
                return {}
            if m.group("both"):  # valid when each is given, else (any one null) not
                both = [n for n in re.split(r"[和、\s]+", m.group("both").replace("`", "")) if n]
                found["有效"].append((*whens[0], *(x for n in both for x in (n, "given", "", "true"))))
                found["无效"] += [(*whens[0], n, "given", "", "false") for n in both]
            else:
                found[m.group("state")] += whens
    return found if found["有效"] and found["无效"] else {}


def _unnamed(dtypes: Sequence[str], ctx: ShapeContext, known: Known, other: str | None) -> str | None:
    """The tensor an unnamed dtype speaks of: the row's own when it allows them (aclnnGroupQuant
    y: `类型为INT32时`, though groupIndex allows INT32 too), unless the words name another
    (`量化输出类型`, in quantScale's row: the quantized output's); else the one that allows them."""
    if not other and set(dtypes) <= set(known.dtypes.get(ctx.subject, ())):
        return ctx.subject
    return _allowing(dtypes, known)


def _allowing(dtypes: Sequence[str], known: Known) -> str | None:
    """The one tensor that allows every dtype an unnamed condition names."""
    found = [name for name, allowed in known.dtypes.items() if set(dtypes) <= set(allowed)]
    return found[0] if len(found) == 1 else None


def _negated(when: tuple[str, ...]) -> tuple[str, ...]:
    """One condition turned round: the otherwise case holds where it does not."""
    name, kind, value, held = when
    return (name, kind, value, "false" if held == "true" else "true")
