"""Error conditions to the typed checks they stand for: a condition split into statements,
each read by the condition rules on the parameters it names; the prose rules as a last resort."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from specgen.model import Check
from specgen.parse.classify.condition_rules import (
    CONDITION_RULES,
    PROSE_RULES,
    ConditionRule,
    ConditionStatement,
)
from specgen.parse.classify.relations import BROADCAST_RESULT
from specgen.parse.classify.statements import condition_clauses
from specgen.parse.classify.text import names_in

_PRECONDITION = re.compile(r"(?:时|的时候|场景下|情况下)$")
_CONTINUES = re.compile(r"^\s*(?:其|两者|二者|它们|且|并且|也|并|而|数据类型|数据格式|shape|dtype)")


def read_statement(rules: Iterable[ConditionRule], statement: ConditionStatement) -> list[Check]:
    """The checks `rules` read from a statement: each family's first rule that reads it."""
    found: list[Check] = []
    read_families: set[str] = set()
    for rule in rules:
        if rule.family in read_families or not rule.trigger.search(statement.text):
            continue
        checks = rule.read(statement, tuple(found))
        if checks is not None:
            read_families.add(rule.family)
            found += checks
    return found


# `传入参数weight的元素存在空指针`, `x的元素为空指针，且y的元素不为空指针`: about a list's elements
_ELEMENT_NULL = re.compile(r"的元素\s*(?:存在|有|为|是|不为|不是)?\s*(?:空指针|nullptr)")

# `当outputMask[0]为true，传入的gradInput是空指针时`, `outputMask[0]为True且gradInputOut为空指针`:
# a pointer a bool array's element asks for.
_MASKED_NULL = re.compile(
    r"^(?:当)?\s*`?(?P<flags>[A-Za-z_]\w*)`?\s*\[\s*(?P<index>\d+)\s*\]\s*(?:为|是|=+)\s*(?:true|True|TRUE)\s*"
    r"(?:[，,]|且|并且|[，,]\s*且)\s*"
    r"(?:传入的)?\s*`?(?P<pointer>[A-Za-z_]\w*)`?\s*(?:是|为)空指针(?:时)?[。；]?$"
)


def masked_null(condition: str, pointers: tuple[str, ...], flags: tuple[str, ...]) -> Check | None:
    """A null-pointer condition a bool array's element sets (aclnnFastBatchNormBackward:
    `当outputMask[0]为true，传入的gradInput是空指针时`; aclnnLayerNormBackward:
    `outputMask[0]为True且gradInputOut为空指针。`): the pointer may be null unless that
    element is true; None for any other condition."""
    m = _MASKED_NULL.match(condition.strip())
    if m is None or m.group("flags") not in flags or m.group("pointer") not in pointers:
        return None
    return Check(kind="not_null_when", params=(m.group("pointer"), m.group("flags")), values=(int(m.group("index")),))


# `当inputG为true时，sumDy或sumDyXmu是空指针`, `当amsgrad为true时，maxGradNormOptional为空指针时`: pointers
# a plain bool parameter asks for.
_FLAGGED_NULL = re.compile(
    r"^(?:当|若|如果)?\s*`?(?P<flag>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:为|是|=+)\s*(?:true|True|TRUE)\s*(?:时)?\s*[，,]\s*"
    r"(?:传入的?)?\s*(?P<pointers>`?[A-Za-z_][A-Za-z0-9_]*`?(?:\s*(?:或|、|和|或者)\s*`?[A-Za-z_][A-Za-z0-9_]*`?)*)\s*"
    r"(?:是|为)空指针(?:时)?[。；]?$"
)


def flagged_null(condition: str, pointers: tuple[str, ...], bools: tuple[str, ...]) -> tuple[Check, ...]:
    """The pointers a plain bool parameter asks for (aclnnBatchNormReduceBackward:
    `当inputG为true时，sumDy或sumDyXmu是空指针。`): each may be null unless the flag is true;
    empty for any other condition, or one naming a pointer the function does not take."""
    m = _FLAGGED_NULL.match(condition.strip())
    if m is None or m.group("flag") not in bools:
        return ()
    named = tuple(n.strip("` ") for n in re.split(r"或者|或|、|和", m.group("pointers")))
    if not named or any(n not in pointers for n in named):
        return ()
    return tuple(Check(kind="not_null_when", params=(n, m.group("flag"))) for n in named)


def _beside_length(found: list[Check], statement: ConditionStatement) -> bool:
    """An array's length rule was read beside the statement, which no prose rule reads."""
    return any(c.kind == "length" for c in found) and not read_statement(PROSE_RULES, statement)


def condition_checks(
    condition: str,
    named: tuple[str, ...],
    pointer_params: tuple[str, ...],
    tensor_params: tuple[str, ...],
    sides: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
) -> list[Check]:
    """The typed checks an error condition stands for.

    `named` are the parameters the condition mentions; a condition that names none applies
    to every pointer (null checks) or tensor parameter (dtypes, formats, rank...), as documents
    mean it, but relates none. A condition of several statements gives the checks of each, on
    that statement's parameters (`input与inputGrad的shape不一致，或grid与gridGrad的shape不一致`:
    two same_shape pairs). Within a family the most specific reading wins (broadcast over same
    shape, castable over same dtype over supported dtypes); prose-only kinds are the last resort.
    `sides`: the required pointers read, and those written (`x或输出参数是空指针`: every output).
    """
    return list(_condition_checks(condition, tuple(named), tuple(pointer_params), tuple(tensor_params), sides))


# Error conditions are boilerplate (`传入的self、out是空指针`) that recurs from function to
# function with the same parameters: each is read once.
@lru_cache(maxsize=4096)
def _condition_checks(
    condition: str,
    named: tuple[str, ...],
    pointer_params: tuple[str, ...],
    tensor_params: tuple[str, ...],
    sides: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
) -> tuple[Check, ...]:
    if "@" in condition:  # about a computed result (batch1@batch2): prose only
        return (Check(kind="shape", params=named or tensor_params),)
    if named and _ELEMENT_NULL.search(condition):  # the lists' elements, not the list pointers
        return (Check(kind="element_null", params=named),)
    found: list[Check] = []
    unread: list[ConditionStatement] = []  # clauses no rule reads, beside others read
    previous: tuple[str, ...] = ()
    statements = condition_clauses(condition, named)
    for k, clause in enumerate(statements):
        own = tuple(names_in(clause, named, {})) if named else ()
        if named and (not own or _CONTINUES.match(clause) or (BROADCAST_RESULT.search(clause) and len(own) < 2)):
            own = tuple(dict.fromkeys(previous + own))  # `或者shape的维度大于8维`: the same parameters
        previous = own
        if k + 1 < len(statements) and _PRECONDITION.search(clause):
            continue  # `y1Out的数据类型不为DT_INT32时，…`: the situation, not the error
        statement = ConditionStatement(clause, own, pointer_params, tensor_params, *sides)
        read = read_statement(CONDITION_RULES, statement)
        unread.append(statement) if not read else None
        found += [c for c in read if c not in found]
    # `shape不同或不满足broadcast关系`: the broadcast is the reading; a same shape within it is not.
    broadcast = [set(c.params) for c in found if c.kind in ("broadcast", "broadcast_result", "broadcast_to")]
    found = [c for c in found if c.kind != "same_shape" or not any(set(c.params) <= b for b in broadcast)]
    if found:
        # `k小于0或者k大于输入self在dim维度上的size大小`: the clause read aside, the other keeps its
        # prose kind (named, not checked) instead of vanishing behind it
        prose = [c for s in unread for c in read_statement(PROSE_RULES, s) if c.kind in ("value", "shape")]
        # `…的长度不为2，smoothScale1Optional或smoothScale2Optional不为空，但…对应位置为false`: a clause no
        # rule reads, beside a length read, stays named as prose (not checked) rather than dropped
        prose += [Check(kind="value", params=s.named) for s in unread if s.named and _beside_length(found, s)]
        return tuple(found + [c for c in prose if c not in found])
    return tuple(read_statement(PROSE_RULES, ConditionStatement(condition, named, pointer_params, tensor_params)))
