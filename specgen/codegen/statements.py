"""Every constraint statement of a function, enforced or named.

A parameter's constraints (its table cells and per-product remarks, as `Constraint`s) are
each either enforced by a checked validator rule of a kind that tests them, honoured by the
parameter's spec (an optional pointer, a permission), or listed as a rule not checked on the
host with the reason (`host=False`): never dropped silently. The error conditions are rules
already (`cases._rules`); this module accounts for the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from specgen.codegen.note_lines import MARKUP, NoteLine, note_lines
from specgen.codegen.runtime._validate import Rule
from specgen.model import Constraint, DtypeRule, Param, ShapeRule, TextBlock

INVALID = 161002
# The rule kinds that enforce a constraint of each kind (a stricter relation enforces a looser one).
ENFORCED_BY: dict[str, tuple[str, ...]] = {
    "dtypes": ("dtypes",),
    "formats": ("formats",),
    "rank": ("rank",),
    "enum": ("enum",),
    "range": ("range",),
    "axis": ("axis",),
    "length": ("length",),
    "multiple": ("multiple",),
    "dim_multiple": ("dim_multiple",),
    "numel_at_least": ("numel_at_least",),
    "min_rank": ("min_rank",),
    "dim_equal": ("dim_equal",),
    "ratio": ("ratio",),
    "same_shape": ("same_shape", "broadcast_result", "output_shape", "array_shape"),
    "broadcast": ("broadcast", "broadcast_result", "broadcast_to", "same_shape"),
    "broadcast_result": ("broadcast_result", "output_shape"),
    "broadcast_to": ("broadcast_to",),
    "same_dtype": ("same_dtype", "output_dtype", "list_dtype"),
    "same_format": ("same_format",),
    "castable": ("castable",),
    "non_contiguous": ("non_contiguous",),
    "empty_tensor": ("empty_tensor", "numel"),
    "null": ("null",),
    "not_null_when": ("not_null_when",),
}
# Constraints of a tensor's shape each read as a rule of their own kind (`cases._stated_shape_rules`)
STATED_SHAPE_KINDS = ("dim_multiple", "numel_at_least", "min_rank", "dim_equal")
TENSOR_ONLY = ("dtypes", "formats", "rank", "empty_tensor", "non_contiguous")  # what the validator reads of tensors
RELATION_KINDS = ("same_shape", "broadcast", "broadcast_result", "same_dtype", "same_format", "castable")
# Why a constraint of a kind no checked rule covers is not checked, by kind.
_REASONS = {
    "text": "no rule reads this statement (kept verbatim); not checked on the host",
    "clamp": "the library clamps values outside the bounds instead of rejecting them",
    "castable": "dtype promotion rules are the library's own; not checked on the host",
}
_TENSOR_STATES = {"empty_tensor": "an empty tensor", "non_contiguous": "a non-contiguous tensor"}


@dataclass(frozen=True)
class Statement:
    """One constraint of a parameter and what became of it: the rule that enforces it or lists
    it as not checked (`rule`), or `honoured` by the parameter's spec."""

    param: str
    kind: str
    text: str
    line: int
    rule: str = ""  # the id of the enforcing or unchecked rule; empty when honoured
    enforced: bool = False
    end: int = 0  # the last line of a statement over several lines (a table row, a joined paragraph)

    @property
    def honoured(self) -> bool:
        return self.enforced and not self.rule


def account(params: list[Param], rules: list[Rule]) -> tuple[list[Rule], tuple[Statement, ...]]:
    """The rules not checked on the host that name the constraints no rule covers, and every
    constraint's statement with the rule that covers it."""
    added: list[Rule] = []
    statements = []
    for p in params:
        for index, c in enumerate(p.constraints):
            statement = Statement(p.name, c.kind, c.text, c.line)
            if _honoured(p, c):
                statements.append(replace(statement, enforced=True))
                continue
            covering = _flag_covering(p, c, rules) or _covering(p, c, rules)
            read = _read_by_output(p, c, rules) if covering is None else None
            if read is not None and not read[1]:
                covering = read[0]
            elif covering is None:
                reason = read[1] if read is not None else _reason(p, c, rules)
                covering = Rule(
                    INVALID, c.kind, (p.name, *c.params), c.text,
                    host=False, reason=reason, id=f"stated_{p.name}_{index + 1}_{c.kind}",
                )  # fmt: skip
                added.append(covering)
            statements.append(replace(statement, rule=covering.id, enforced=covering.host))
    return added, tuple(statements)


def _flag_covering(p: Param, c: Constraint, rules: list[Rule]) -> Rule | None:
    """A tensor's statement of another parameter's value (x1's `仅支持非转置`, an enum on its
    transpose flag transposeX1): the set rule of that parameter, which holds it."""
    if c.kind != "enum" or p.kind != "tensor" or not c.params:
        return None
    return next((r for r in rules if r.kind == "enum" and r.params == c.params), None)


# Parameters whose C type fixes their dtype and format: the argument's type check enforces it.
VALUE_KINDS = ("int", "float", "bool", "string", "int_array", "float_array", "bool_array", "dtype")


def stated_params(p: Param, c: Constraint) -> tuple[str, ...]:
    """The parameters a stated shape rule reads: the subject alone for a least rank."""
    return (p.name,) if c.kind == "min_rank" else c.params


def stated_values(c: Constraint) -> tuple[object, ...]:
    """The numbers a stated shape rule holds: a least rank's own, else the constraint's values."""
    return (int(c.min),) if c.kind == "min_rank" and c.min is not None else tuple(c.values)


def _honoured(p: Param, c: Constraint) -> bool:
    """A permission, or a fact the parameter's spec applies: an optional pointer may be null; a
    plain value's dtype and format are its C type's, which the argument's type check enforces."""
    if c.kind in ("dtypes", "formats") and p.kind in VALUE_KINDS:
        return True
    return c.kind == "optional" or (c.kind in ("non_contiguous", "empty_tensor") and c.supported is not False)


def _covering(p: Param, c: Constraint, rules: list[Rule]) -> Rule | None:
    """The rule that checks the constraint, a checked one first; None when none covers it."""
    if c.kind == "text" and (count := _element_count(c.text)) is not None:
        # `元素个数为1`: the error row's numel rule of that count (`scalar元素个数不为1`)
        return next((r for r in rules if r.kind == "numel" and r.host and p.name in r.params
                     and r.values and float(r.values[0]) == count), None)  # type: ignore[arg-type]  # fmt: skip
    if c.kind == "text" and (left_out := _left_out(p, c.text)) is not None:
        # `sparseModeOptional为5时，不支持`: the set of the documented values the enum rule holds leaves it out
        return next((r for r in rules if r.kind == "enum" and r.host and r.params == (p.name,) and not r.values
                     and left_out not in {v for e in p.of_kind("enum") if e.product is None for v in e.values}),
                    None)  # fmt: skip
    if _narrower_set(p, c) or superseded(p, c):
        return None  # the parameter's whole set is checked, not this narrowing (nor a wider set)
    kinds = ENFORCED_BY.get(c.kind, ())
    peers = set(c.params) - {p.name}

    def covers(rule: Rule) -> bool:
        if rule.kind not in kinds or p.name not in rule.params or rule.when != c.when:
            return False  # a set held under a condition is its own rule's
        if rule.kind == "list_dtype":  # `该参数中所有Tensor的数据类型保持一致`: one list's own tensors
            return not peers
        if rule.kind == "dim_equal":  # its numbering settled by the sample: that statement's rule
            return rule.params == c.params and rule.condition == c.text
        if rule.kind in STATED_SHAPE_KINDS:  # `最后一维必须为偶数`: that dimension, that number
            return rule.params == stated_params(p, c) and tuple(rule.values) == stated_values(c)
        if rule.kind == "numel":  # `不支持空Tensor`: a count of one or more has no empty tensor
            return bool(rule.values) and float(rule.values[0]) >= 1  # type: ignore[arg-type]
        if c.kind in TENSOR_ONLY and p.kind not in ("tensor", "tensor_list"):
            return False  # a dtypes rule naming a scalar checks the tensors it names only
        if c.kind in RELATION_KINDS and peers:
            return bool(peers & set(rule.params))
        if rule.products:  # a per-product remark's rule: the constraint said on one of its products
            return c.product in rule.products and c.text == rule.condition
        return c.product is None or c.kind in ("dtypes", "formats")  # per-product dtype sets: `product=`

    # a checked rule first, and one holding the parameter's own set or bounds before an error
    # row's (`lambda小于0`)
    found = sorted((r for r in rules if covers(r)), key=lambda r: (not r.host, bool(r.bounds or r.values)))
    return found[0] if found else None


_ELEMENT_COUNT = re.compile(r"^(?:元素个数|元素数量|shape\s*size)\s*(?:为|是|=|等于)\s*(\d+)[。.]?$", re.I)


def _element_count(text: str) -> int | None:
    """The count a parameter row states of its own elements (`元素个数为1`, `shape size = 1`)."""
    found = _ELEMENT_COUNT.match(text.strip())
    return int(found.group(1)) if found else None


_OUTPUT_RULES = (("output_shape", "shape_rule"), ("output_dtype", "dtype_rule"))
# the id prefix of the rule an input's own dimension list gives (`stated_shape_gamma`)
STATED_SHAPE = "stated_shape_"
_CLAUSE_END = "。；;，,.\n "


def _read_by_output(p: Param, c: Constraint, rules: list[Rule]) -> tuple[Rule, str] | None:
    """The output rule whose reading is made of the statement (aclnnDynamicQuantV3 scaleOut's
    `quantMode是pertoken时，shape为x的shape剔除最后一维`, a case of its shape rule), with "" when it
    reads it as a rule, or the reason it reads it as the one dtype it leaves unchecked
    (`数据类型为INT32时，最后一维是x最后一维的1/8`, its shape held for the other dtypes); None when
    no output rule is read from it. A tensor's state (`不支持非连续的Tensor`) is never a shape's
    or a dtype's reading, though a rule read from the whole row quotes it (MoeInitRoutingQuant
    expandedRowIdxOut)."""
    if c.kind in ("non_contiguous", "empty_tensor", "not_null_when"):  # when it may be null is no shape's
        return None
    return _output_reading(p, _plain(c.text), rules)


def _output_reading(p: Param, said: str, rules: list[Rule]) -> tuple[Rule, str] | None:
    """`_read_by_output` for the statement `said` (markup stripped) and the output `p`."""
    for kind, field in _OUTPUT_RULES:
        rule = next((r for r in rules if r.kind == kind and r.params[:1] == (p.name,) and r.derive), None)
        if rule is None or not said:
            continue
        for part in _read_parts(getattr(p, field)):
            exempt = [part.when[i + 2] for i in range(0, len(part.when) - 3, 4)
                      if part.when[i : i + 2] == (p.name, "dtype") and part.when[i + 3] == "false"]  # fmt: skip
            if not _within(said, _plain(part.text)) and not _packs(said, p.name, exempt):
                continue
            if any(d.lower() in said.lower() for d in exempt):
                return rule, (
                    f"read by the output rule {rule.id}, which holds where {p.name} is not {exempt[0]}: in "
                    f"{exempt[0]} the statement gives part of the shape only, so it is not checked on the host"
                )
            return rule, ""
        if _case_of_whole(getattr(p, field), said):
            return rule, ""
    return _input_list_reading(p, said, rules)


# what a statement says of a shape: a dimension list, a rank, the word
_SPEAKS_OF_SHAPE = re.compile(r"shape|\d\s*D的|\d\s*维|[\[(（][^\]）)]*[\]）)]", re.I)


def _case_of_whole(rule: ShapeRule | DtypeRule | None, said: str) -> bool:
    """A shape statement of a rule whose every case is read, where the cases' texts rewrite the
    scenario (`当Dropless场景时，shape为…`) and the statement says it as the row does (MoeInitRoutingV2
    expandedXOut: `Dropless场景shape为[numRows * k, h]`, `在Drop/Pad场景下要求是一个3D的Tensor`)."""
    if not isinstance(rule, ShapeRule) or not rule.alternatives or not all(a.derived for a in rule.alternatives):
        return False
    return bool(_SPEAKS_OF_SHAPE.search(said)) and _within(said, _plain(rule.text))


def _input_list_reading(p: Param, said: str, rules: list[Rule]) -> tuple[Rule, str] | None:
    """The rule of an input's own dimension list (checked, or named with its reason) when the
    statement is that list's (SwinTransformerLnQkvQuant's x: `只支持维度为[B,S,H]`)."""
    rule = next((r for r in rules if r.id == f"{STATED_SHAPE}{p.name}"), None)
    stated = p.stated_shape
    if rule is None or stated is None or not _within(said, _plain(stated.text)):
        return None
    if said == _plain(
        stated.text
    ):  # the whole statement the list is read from (`shape长度与入参input中channel轴的长度相等`)
        return rule, ""
    # the statement holds the list itself; a bound beside it (`B只支持[1,32]`, `N1和N2不超过256`) is not the list's
    lists = {_squeezed(_LIST_ITEMS.split(m)) for m in _LIST.findall(said)}
    if not lists or (stated.derived and _squeezed(stated.dims) not in lists):
        return None
    return rule, ""


# a dimension list in a statement (`[B,S,H]`, `(num_levels)`, `（t，）`) and the commas between its items
_LIST = re.compile(r"[\[（(]([^\[\]（）()]*)[\]）)]")
_LIST_ITEMS = re.compile(r"[,，]")


def _squeezed(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(s for s in ("".join(i.split()) for i in items) if s)


# `当y的数据类型为INT32时，y的最后一维必须是x最后一维的1/8`: the line a same-shape rule is held but for
_LAST_DIM = re.compile(r"最后一维|尾轴")


def _packs(said: str, output: str, exempt: list[str]) -> bool:
    """The statement gives the last dimension of `output` in the dtype its rule is not held for."""
    names = re.search(rf"(?<![A-Za-z0-9_]){re.escape(output)}(?![A-Za-z0-9_])", said)
    return bool(names and _LAST_DIM.search(said) and any(d.lower() in said.lower() for d in exempt))


def _read_parts(rule: ShapeRule | DtypeRule | None) -> list[ShapeRule | DtypeRule]:
    """The readings a derived rule is made of: its cases read, or itself."""
    if rule is None or not rule.derived:
        return []
    return [a for a in rule.alternatives if a.derived] if rule.alternatives else [rule]


def _plain(text: str) -> str:
    return MARKUP.sub("", text).strip().rstrip("。.；;")


def _within(said: str, text: str) -> bool:
    """`said` is whole clauses of `text` (`shape为1` is not within `shape为1维`)."""
    at = text.find(said)
    while at >= 0:
        end = at + len(said)
        if (at == 0 or text[at - 1] in _CLAUSE_END) and (end == len(text) or text[end] in _CLAUSE_END):
            return True
        at = text.find(said, at + 1)
    return False


# `当quantMode取"pertensor"或"perchannel"时，groupIndexOptional必须是nullptr`: null required in a situation
_NULL_WHEN = re.compile(
    r"^(?:当|若|如果)[^，,；;。]+?时\s*[，,]\s*`?[A-Za-z_][A-Za-z0-9_]*`?\s*(?:必须|需要|需|只能)\s*(?:是|为|传入?)?\s*"
    r"(?:nullptr|空指针|NULL|None)[。.]?$"
)

# The words by which an error row speaks of a relation's subject (`x1、x2、out的shape不满足约束`).
_RELATION_WORDS = {"same_shape": "shape", "broadcast": "shape", "broadcast_result": "shape",
                   "same_dtype": "数据类型", "same_format": "格式"}  # fmt: skip


# the parser leaves such an item out of the values it reads (classify/values.rule_enum_item)
_VALUE_LEFT_OUT = re.compile(
    r"^(?P<subject>[A-Za-z_][A-Za-z0-9_]*)\s*(?:为|=|取)\s*(?P<v>-?\d+)\s*时\s*[，,]?\s*(?:当前|目前)?暂?不支持\s*[。.]?$"
)


def _left_out(p: Param, text: str) -> int | None:
    """The value an item of documented values says is not supported (`sparseModeOptional为5时，不支持`)."""
    m = _VALUE_LEFT_OUT.match(text.replace("**", ""))
    return int(m.group("v")) if m and m.group("subject") == p.name else None


# `numHeads与numKeyValueHeads的比值不能大于64`, `需要满足numHeads整除numKeyValueHeads`
_RATIO = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*(?:与|和)\s*[A-Za-z_][A-Za-z0-9_]*\s*的?比值|[A-Za-z0-9_]整除[A-Za-z_]")


# `参数scalar的数据类型与入参x的数据类型具有一定对应关系：当x的数据类型为BFLOAT16时，数据类型支持FLOAT32…`
_PAIRED = re.compile(
    r"与(?:输入参数|入参|输入|参数)?\s*`?(?P<peer>[A-Za-z_][A-Za-z0-9_]*)?`?\s*的?数据类型具有一定对应关系"
)


# `仅支持{"rint"}`, `当dstType为36/35时，支持…`: a restriction, not a value's meaning (`0：KEEP_DTYPE`)
_RESTRICTS = re.compile(r"仅|只|时")


# `当前仅支持"dynamic"动态量化，"static"静态量化` (aclnnSwiGluQuantV2 quantModeOptional, line 185): the
# values supported now, said whole and in no situation
_CURRENT_ONLY = re.compile(r"^(?:当前|目前)(?:版本)?(?:仅|只)支持")


def current_set(p: Param) -> set[object]:
    """The values a string parameter's statements say are the only ones supported now, in no
    situation and on every product: its set, narrower than the meanings of the values it lists
    (`"static"表示静态量化、"dynamic"表示动态量化、"dynamic_msd"表示动态MSD量化`); empty when none says so."""
    if p.kind != "string":
        return set()
    said = [c for c in p.of_kind("enum") if c.product is None and not c.when and _CURRENT_ONLY.match(c.text)]
    return {v for c in said for v in c.values}


def superseded(p: Param, c: Constraint) -> bool:
    """A set of a string parameter wider than the one it supports now (see `current_set`)."""
    now = current_set(p)
    return bool(now) and c.kind == "enum" and not c.when and c.product is None and not set(c.values) <= now


def _narrower_set(p: Param, c: Constraint) -> bool:
    """A string parameter's set narrower than its whole one, in a restriction whose situation
    the model does not hold (aclnnAddRmsNormDynamicMxQuant roundMode: `当dstType为36/35时，仅支持
    {"rint"}` beside `当dstType为40/41时，支持{"rint", "floor", "round"}`)."""
    if p.kind != "string" or c.kind != "enum" or c.when or c.product is not None or not _RESTRICTS.search(c.text):
        return False
    if "默认" in c.text:  # `用户不特意指定时可传入默认值"BSH"`: a default, not a narrowing
        return False
    if current_set(p):  # the set supported now is the parameter's, not a narrowing of it
        return False
    whole = {v for e in p.of_kind("enum") if e.product is None and not e.when for v in e.values}
    return set(c.values) < whole


# `当quantMode = "dynamic"时，shape支持2-8维度`, `数据类型为INT4时，最后一维的大小必须能被2整除`: a
# tensor's shape required in a situation, its requirement after the situation; a value's range in one
# (`当self为0维时，dim的取值范围…`), what a layout's dimensions mean (`当维度为4时，各维度依次表示…`)
# and a situation alone (`如果shape为2维`) are no shape requirement
_SITUATION_THEN = re.compile(
    r"^(?:(?:当(?!前)|若|如果|假如)[^，,；;]*?|[^，,；;]*?)(?:时|场景下|模式下|情况下)\s*[，,]?\s*(?P<then>\S.*)$"
)
_SHAPE_SAID = re.compile(r"最后一维|尾轴|第\S维|\d\s*维|[一二三四五六七八两]维|维度|维数|shape", re.I)
_REQUIRED = re.compile(
    r"必须|需要|需|要求|只能|仅支持|只支持|支持|不能|不超过|小于|大于|等于|一致|相同|倍数|偶数|整除|为\s*\d\s*维"
)
_NO_SHAPE_REQUIREMENT = re.compile(r"表示|取值|范围|连续|建议|创建|构造|处理")
_CONDITION_ONLY = re.compile(r"^(?:如果|若|假如)[^，,]*$")  # `如果运算时对应维度的p范数大于maxNorm`: its 则 follows


def _situated_shape(text: str) -> bool:
    """A shape requirement the statement makes in a situation only."""
    said = _plain(text)
    m = _SITUATION_THEN.match(said)
    if m is None or _NO_SHAPE_REQUIREMENT.search(said) or _CONDITION_ONLY.match(said):
        return False
    then = m.group("then")
    return bool(_SHAPE_SAID.search(then) and _REQUIRED.search(then))


# Some elements of an array named by their dimension (aclnnConvDepthwise2d `strideH和strideW∈[1,63]`,
# aclnnMaxPool3D `D、H、W维的值必须大于0`, `N维和C维必须为1`), not the whole array
_ARRAY_ELEMENTS = re.compile(
    r"(?<![A-Za-z])(?P<named>[a-z]+[DHW](?:\s*(?:、|和)\s*[a-z]+[DHW])*)\s*(?:应在|∈)"
    r"|(?<![A-Za-z])(?P<dims>[NCDHW]维?(?:\s*(?:、|和)\s*[NCDHW]维?)*)\s*(?:维度?的?值|(?<=维)必须(?:设置)?为)"
)


def _reason(p: Param, c: Constraint, rules: list[Rule]) -> str:
    if _narrower_set(p, c):
        held = next((r.id for r in rules if r.kind == "enum" and r.host and r.params == (p.name,)), "")
        whole = f"; the whole set is checked ({held})" if held else ""
        return (
            f"a narrower set than the {len(p.of_kind('enum'))} statements of {p.name} give together, in a"
            f" situation or time no check reads; the union is checked, not this narrowing{whole}"
        )
    if superseded(p, c):
        held = next((r.id for r in rules if r.kind == "enum" and r.host and r.params == (p.name,)), "")
        now = ", ".join(sorted(map(str, current_set(p))))
        return (
            f"values the document lists with their meanings, wider than the ones it says it supports now"
            f" ({now}), which are checked ({held or 'no rule'}); not checked as a set"
        )
    if c.kind == "text" and _NULL_WHEN.match(c.text.strip()):
        return "a pointer required null in one situation only: no check reads a conditional null requirement"
    if c.kind == "text" and _RATIO.search(c.text):
        return (
            "a ratio or divisibility of two parameters' values in a form no reader types (held in a situation,"
            " or `可以整除`, which the documents write both ways round)"
        )
    if c.kind == "text" and _situated_shape(c.text):
        return (
            "a shape requirement stated for one situation only (`当…时`, `如果…`, `…场景下`): no reader types a"
            " tensor's shape under a condition, so it is not checked on the host"
        )
    if c.kind == "text" and p.kind in ("int_array", "float_array") and (named := _ARRAY_ELEMENTS.search(c.text)):
        elements = named.group("named") or named.group("dims")
        return (
            f"a rule on the elements `{elements}` of {p.name} only: which positions they hold"
            " follows from the array's length and the data format, which no check pairs with the statement; not"
            " checked on the host"
        )
    if c.kind == "text" and (paired := _PAIRED.search(c.text)):
        peer = paired.group("peer") or "another parameter"
        on = f" on product {c.product}" if c.product else ""
        return (
            f"the dtypes {p.name} allows{on} depend on {peer}'s dtype, case by case; no check reads a pair of "
            "dtypes, so it is not checked on the host"
        )
    if c.kind in _REASONS:
        return _REASONS[c.kind]
    if c.product is not None:
        return f"stated for product {c.product} only; per-product checks cover dtype sets, values and dtype equalities"
    if c.kind in RELATION_KINDS:
        peers = ", ".join(x for x in c.params if x != p.name) or "another parameter"
        if row := _row_naming(p, c, rules):
            row_said = f"the error row `{row.condition}` ({row.id}) names it"
            return f"a relation with {peers}; {row_said}, but that row is not checked (see its reason)"
        return f"a relation with {peers} stated in the parameter table only; no error row makes it a rejection"
    if c.kind in ("empty_tensor", "non_contiguous"):
        return f"the error table gives no status for {_TENSOR_STATES[c.kind]}; not checked on the host"
    if c.kind == "not_null_when":
        asker = c.params[0] if c.params else "another parameter"
        return f"required when {asker} asks for it; {asker} is no bool or pointer, so when it asks is not checked"
    if c.kind == "rank" and p.kind not in ("tensor", "tensor_list"):
        return f"a rank statement on {p.name}, which is not a tensor"
    if c.kind in ("range", "enum") and p.kind in ("tensor", "tensor_list"):
        return "a rule on a tensor's values: the validator reads shapes and dtypes, not data"
    if c.kind == "dtypes" and p.kind in ("scalar", "scalar_list"):
        return "a scalar's dtype follows the Python value or the tensor it goes with; not checked on the host"
    if c.kind == "rank" and p.direction == "out":
        return "the output's own row makes its shape depend on a value, so its rank holds in one case only"
    return f"a {c.kind} statement on {p.name} ({p.kind}) that the validator cannot check as stated"


def _row_naming(p: Param, c: Constraint, rules: list[Rule]) -> Rule | None:
    """An unchecked error row naming the parameter, a peer and the relation's subject."""
    peers = set(c.params) - {p.name}
    word = _RELATION_WORDS.get(c.kind, "\0")
    for rule in rules:
        named = p.name in rule.params and peers & set(rule.params)
        if named and rule.id.startswith("rule") and not rule.host and word in rule.condition:
            return rule
    return None


# ---------------------------------------------------------------- the constraints section

NOTES_REASON = (
    "a statement of the constraints section (约束说明, line {line}); no rule reads it (the section's "
    "rules are often per product or per mode), so it is not checked on the host"
)


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# `gradOutput、self 和 out 的数据类型必须一致。`, `x和rotation的数据类型必须相同。`, `shape 必须一致，不支持广播。`:
# a relation of the tensors named, said with no condition (a clause may follow after a comma)
_FIRM_RELATION = re.compile(
    rf"^(?:输入|输出|参数|入参)?\s*(?P<names>{_NAME}(?:\s*(?:、|,|，|和|与|及|以及)\s*{_NAME})+)\s*的\s*"
    r"(?P<what>数据类型|dtype|shape)\s*(?:必须|需要|需|要)?\s*(?:保持)?\s*(?:一致|相同)\s*(?:[，,；;。].*)?$"
)
_RELATION_OF = {"数据类型": "same_dtype", "dtype": "same_dtype", "shape": "same_shape"}


def _top_bullets(notes: TextBlock) -> list[tuple[int, str]]:
    """The constraints section's bullets said of every product (line, text without markup): not
    nested under a product's heading, not inside a block marked for some products (`<!-- npu=`)."""
    return [
        (notes.line + n.offset, n.text)
        for n in note_lines(notes.text)
        if n.kind == "bullet" and not n.indent and not n.marked
    ]


def notes_relations(notes: TextBlock | None, params: list[Param]) -> list[Rule]:
    """The dtype and shape relations the constraints section states of every product, as checked
    rules: the section makes firm what the parameter table says only (aclnnHardswishBackward:
    `gradOutput、self 和 out 的数据类型必须一致。`, l.67)."""
    if notes is None:
        return []
    tensors = {p.name for p in params if p.kind in ("tensor", "tensor_list")}
    rules: list[Rule] = []
    for _, text in _top_bullets(notes):
        m = _FIRM_RELATION.match(text)
        names = tuple(dict.fromkeys(re.findall(_NAME, m.group("names")))) if m else ()
        if len(names) < 2 or not set(names) <= tensors:
            continue
        kind = _RELATION_OF[m.group("what")]  # type: ignore[union-attr]
        rule_id = f"notes_{kind}_{len(rules) + 1}"
        rules.append(Rule(INVALID, kind, names, text, id=rule_id))
    return rules


def notes_rules(
    notes: TextBlock | None, params: list[Param], rules: list[Rule]
) -> tuple[list[Rule], tuple[Statement, ...]]:
    """Each bullet of the constraints section (约束说明) as a rule not checked on the host, so that
    what the section says is named rather than dropped: the parser keeps it verbatim only. A
    bullet an output's rule is read from (aclnnRotateQuant's `当yOut的输出类型为int32时，y的shape必须为
    (M, N//8)`) is that rule's statement instead: enforced when the rule is checked, else named
    with the rule's reason."""
    if notes is None:
        return [], ()
    named: list[Rule] = []
    statements: list[Statement] = []
    for note in note_lines(notes.text):
        at = notes.line + note.offset
        said = Statement("", "notes", note.text, at, end=notes.line + note.end)
        firm = next((r for r in rules if r.id.startswith("notes_same_") and r.condition == note.text), None)
        if firm is not None:  # checked, or spared by the document's own sample (its reason says so)
            statements.append(replace(said, param=firm.params[0], rule=firm.id, enforced=firm.host))
            continue
        reading = _note_reading(note.text, params, rules)
        if reading is not None and reading[0].host and not reading[1]:
            statements.append(replace(said, param=reading[0].params[0], rule=reading[0].id, enforced=True))
            continue
        reason = reading[1] if reading is not None and reading[1] else _note_reason(note, said)
        rule = Rule(INVALID, "notes", (), note.text, host=False, reason=reason, id=f"notes_{len(named) + 1}")
        named.append(rule)
        statements.append(replace(said, rule=rule.id))
    return named, tuple(statements)


def _note_reason(note: NoteLine, said: Statement) -> str:
    """Why a statement of the constraints section is not checked, with the case it holds in."""
    if note.kind == "row":
        held = f" (its case: `{note.context}`)" if note.context else ""
        return (
            f"a row of a table in the constraints section (约束说明, lines {said.line}-{said.end}), read with its"
            f" header cells{held}; no rule reads a table's rows, so it is not checked on the host"
        )
    if "确定性" in note.text:
        return f"a remark on the library's determinism (约束说明, line {said.line}), not a rule on the arguments"
    under = f"; it holds under `{note.context}`" if note.context else ""
    return NOTES_REASON.format(line=said.line) + under


def remark_rules(
    remarks: Sequence[TextBlock], statements: Sequence[Statement]
) -> tuple[list[Rule], tuple[Statement, ...]]:
    """Each per-product remark of the parameter section (`310p：出参y数据类型仅支持INT8，数据格式不支持NZ。`)
    as a statement: of the constraint that holds it whole, else named as not checked (the parser
    types some of its clauses as constraints, accounted with them, and keeps the rest verbatim only)."""
    named: list[Rule] = []
    found: list[Statement] = []
    for remark in remarks:
        products, _, said = remark.text.partition("：")
        if (holder := _holder(said, remark.line, statements)) is not None:
            found.append(replace(holder, kind="remark", text=remark.text, line=remark.line, end=0))
            continue
        typed = [s for s in statements if s.line == remark.line and s.kind != "notes"]
        rule_id = f"remark_{len(named) + 1}"
        reason = _remark_reason(remark, products, typed)
        named.append(Rule(INVALID, "notes", (), remark.text, host=False, reason=reason, id=rule_id))
        found.append(Statement("", "remark", remark.text, remark.line, rule_id))
    return named, tuple(found)


def _holder(said: str, line: int, statements: Sequence[Statement]) -> Statement | None:
    """The constraint that holds a remark whole: verbatim (kept as text, `参数scalar的数据类型与入参x的数据类型
    具有一定对应关系： 当x的数据类型为…` holds the items under it too), or typed, at the remark's line, when
    the remark is one clause; a remark of several clauses (`数据类型不支持BFLOAT16，数据格式不支持NZ`)
    may be typed by one of them only."""
    body = _plain(said)
    one_clause = not re.search(r"[，,；;]", body)
    for s in statements:
        if s.kind == "text" and body and body in _plain(s.text):
            return s
        if s.line == line and s.kind != "notes" and one_clause and _plain(s.text) == body:
            return s
    return None


# `$y_i[m_i,n_i]=x_i[m_i,k_i] \\times weight_i[k_i,n_i], i=1...g$`: a product of list elements, i by i
_ELEMENT_PRODUCT = re.compile(
    r"(?P<out>[A-Za-z]\w*?)_i\[(?P<od>[^\]]+)\]\s*=\s*(?P<a>[A-Za-z]\w*?)_i\[(?P<ad>[^\]]+)\]\s*"
    r"\\times\s*(?P<b>[A-Za-z]\w*?)_i\[(?P<bd>[^\]]+)\]"
)


def formula_rules(summary: TextBlock | None, params: list[Param]) -> tuple[list[Rule], tuple[Statement, ...]]:
    """A matrix product of tensor lists' elements the function section states (GroupedMatmul.md:12
    `y_i[m_i,n_i]=x_i[m_i,k_i] \\times weight_i[k_i,n_i]`), named as not checked: no check pairs the
    dimensions of two lists' elements, and which elements pair depends on the scenario."""
    if summary is None:
        return [], ()
    lists = {p.name for p in params if p.kind == "tensor_list"}
    named: list[Rule] = []
    for m in _ELEMENT_PRODUCT.finditer(summary.text):
        names = (m.group("a"), m.group("b"), m.group("out"))
        if not set(names) <= lists:
            continue
        a, b, out = names
        shared = m.group("ad").split(",")[-1].strip()
        if shared != m.group("bd").split(",")[0].strip():
            continue  # the formula pairs no dimension of the operands
        reason = (
            f"a matrix product of list elements in the function section (功能说明, line {summary.line}): {a}_i's"
            f" last dimension ({shared}) equals {b}_i's first-but-last, and {out}_i is [{m.group('od')}];"
            " no check pairs the dimensions of two tensor lists' elements, and which elements pair depends on"
            " the scenario (single or several tensors per list, the split), so it is not checked on the host"
        )
        named.append(
            Rule(INVALID, "notes", names, m.group(0), host=False, reason=reason, id=f"formula_{len(named) + 1}")
        )
    return named, tuple(Statement(r.params[0], "formula", r.condition, summary.line, r.id) for r in named)


def _remark_reason(remark: TextBlock, products: str, typed: list[Statement]) -> str:
    where = f"a per-product remark of the parameter section (line {remark.line}, on {products})"
    if not typed:
        return f"{where}; no rule reads it, so it is not checked on the host"
    parts = ", ".join(dict.fromkeys(s.rule or f"{s.param}'s spec" for s in typed))
    return (
        f"{where}; the part typed as a constraint is accounted under {parts}; no rule reads the rest"
        " (often a condition on a format or value), so that is not checked on the host"
    )


def _note_reading(text: str, params: list[Param], rules: list[Rule]) -> tuple[Rule, str] | None:
    """The output rule a bullet of the constraints section is read by (see `_read_by_output`)."""
    said = _plain(text)
    # `Ascend 950PR/Ascend 950DT：当y的数据类型为INT32时…`: a lead naming products is no clause of the rule
    bare = _PRODUCT_LEAD.sub("", said)
    for p in params:
        if p.direction == "in":
            continue
        for candidate in dict.fromkeys((said, bare)):
            if (found := _output_reading(p, candidate, rules)) is not None:
                return found
    return None


_PRODUCT_LEAD = re.compile(r"^[^：:，,。]{0,120}产品[^：:，,。]{0,40}[：:]\s*|^Ascend[^：:，,。]{0,60}[：:]\s*")
