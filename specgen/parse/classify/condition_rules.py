"""The error-condition rules: what a statement of an error condition (`self和out的shape不一致`)
says, as tables of rules, each with conditions of real documents it must read.

Rules come in families (null, shape, dtype, format, axis, rank, contiguity): every family reads
a statement, and within a family the first rule that reads it wins (broadcast over same shape,
castable over same dtype over supported dtypes). The prose rules give a condition no rule reads
a prose-only kind (product, internal, shape, value...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from specgen.model import MAX_RANK, Check, CheckKind
from specgen.parse.classify.dims import AXIS_INTERVAL, axis_interval
from specgen.parse.classify.relations import BROADCAST, BROADCAST_RESULT, CASTABLE, DTYPE_WORD
from specgen.parse.classify.text import Context, names_in


@dataclass(frozen=True, slots=True)
class ConditionStatement:
    """One statement of an error condition, the parameters it names, and the function's
    parameters a statement naming none is about."""

    text: str
    named: tuple[str, ...]
    pointers: tuple[str, ...]  # the function's required pointers (null checks)
    tensors: tuple[str, ...]  # the function's tensors
    # the required pointers read and written (`x或输出参数是空指针` names x, then every output)
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()

    @property
    def subjects(self) -> tuple[str, ...]:
        """What a check is on: the parameters named, or every tensor when it names none."""
        return self.named or self.tensors

    @property
    def named_tensors(self) -> tuple[str, ...]:
        """The tensors it names, or every tensor when it names no parameter at all."""
        return tuple(p for p in self.named if p in self.tensors) if self.named else self.tensors


@dataclass(frozen=True, slots=True)
class ConditionExample:
    """An error condition quoted from a document, with the function's tensors and its other
    parameters (every one a required pointer)."""

    text: str
    tensors: tuple[str, ...]
    others: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()  # those of them written (the others read)

    def statement(self) -> ConditionStatement:
        params = (*self.tensors, *self.others)
        named = tuple(names_in(self.text, params))
        inputs = tuple(n for n in params if n not in self.outputs)
        return ConditionStatement(self.text, named, params, self.tensors, inputs, self.outputs)


# What a rule reads from a statement, given the checks earlier rules read from it: its checks,
# [] to claim the statement for its family without a check, None to leave it to the next rule.
ConditionReader = Callable[[ConditionStatement, tuple[Check, ...]], list[Check] | None]


@dataclass(frozen=True, slots=True)
class ConditionRule:
    """One rule on error conditions: `read` reads a statement its `trigger` finds; within a
    `family` the first rule that reads it wins. `examples` are conditions of real documents
    it must read."""

    name: str
    family: str
    trigger: re.Pattern[str]
    read: ConditionReader
    examples: tuple[ConditionExample, ...]


# ---------------------------------------------------------------- null pointers and empty tensors

_NULL = re.compile(r"(?<!不为)(?<!不是)(?<!非)(?:空指针|nullptr)|(?<!不)(?<!非)为空(?!tensor|Tensor|张量)")
_JOINT_NULL = re.compile(r"同(?:时)?为空|都为空|均为空")  # `p与k同为空指针`: not each on its own
_SITUATION = re.compile(r"(?:求解|计算|当|若|如果|需要)\s*$")
_EMPTY_BAD = re.compile(r"(?<!不为)(?<!不是)(?<!非)(?:空Tensor|空tensor|空张量)|元素个数为0|shape中存在0|任意维度为零")


_ASCII_WORD = re.compile(r"\w+", re.ASCII)


def _in_a_situation(condition: str, name: str) -> bool:
    """`…、求解gradInput时是空指针`: the parameter is null-checked only in some situation."""
    mentions = (m for m in _ASCII_WORD.finditer(condition) if m.group() == name)  # name as a whole word
    return any(_SITUATION.search(condition[: m.start()]) for m in mentions)


# `传入的x或输出参数是空指针`, `计算输入/输出参数、workspaceSize…`: the inputs or outputs as a whole,
# beside parameters named (not `输出out`, `必选输出（out、quantScale）`, which name their own)
_ALL_OF_A_SIDE = re.compile(
    r"(?:计算|必选)?(?P<side>输入|输出)(?:参数)?(?:的?(?:Tensor|tensor))?(?=\s*(?:[或和、/，,]|是|为|均|都))"
)


def _not_null(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """Each pointer named (naming none: every required one) must be given, unless null only
    together with another (`p与k同为空指针`) or only in some situation; beside names, the
    inputs or outputs said as a whole (`x或输出参数`) are every required one of that side."""
    if _JOINT_NULL.search(s.text):  # `p与k同为空指针`: one of them is enough
        return [Check(kind="not_all_null", params=s.named)] if len(s.named) > 1 else None
    sides = {m.group("side") for m in _ALL_OF_A_SIDE.finditer(s.text)} if s.named else set()
    whole = (*(s.inputs if "输入" in sides else ()), *(s.outputs if "输出" in sides else ()))
    said = tuple(dict.fromkeys((*s.named, *whole))) if s.named else s.pointers
    required = tuple(n for n in said if not _in_a_situation(s.text, n))
    return [Check(kind="not_null", params=required)] if required else []


def _empty_tensor(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`x为空tensor`, `传入tensor中任意维度为零`: an empty tensor is rejected."""
    return [Check(kind="empty_tensor", params=s.subjects)]


# ---------------------------------------------------------------- relations

# Tensors related within one list argument (`x中的Tensor的数据类型不一致`).
_WITHIN_LIST = re.compile(r"中的?\s*(?:Tensor|tensor)|中各个|中每个|中所有|所有(?:Tensor|tensor)")
_SHAPE_RELATIONS = ("same_shape", "broadcast", "broadcast_result")


def _within_each(text: str, related: tuple[str, ...]) -> bool:
    """`x或out中的Tensor…`, `x1、x2中的Tensor…`: the lists named first, each of its own tensors;
    not `varRef中tensor与updates…` (a tensor named after), nor lists related by 与/和."""
    m = _WITHIN_LIST.search(text)
    if m is None:
        return False
    before = text[: m.start()]
    return all(p in names_in(before, related) for p in related) and not re.search(r"与|和", before)


def _relate(s: ConditionStatement, kind: CheckKind) -> list[Check] | None:
    """A relation needs two tensors of its own (or a list's tensors among themselves); a shape
    relation short of them is a prose-only shape rule, any other none."""
    related = tuple(p for p in s.named if p in s.tensors)
    if related and kind == "same_dtype" and _within_each(s.text, related):
        return [Check(kind="list_dtype", params=related)]  # `x或out中的Tensor的数据类型不一致`: within each
    if len(related) >= 2 or (len(related) == 1 and _WITHIN_LIST.search(s.text)):
        return [Check(kind=kind, params=related)]
    if kind in _SHAPE_RELATIONS:
        return [Check(kind="shape", params=s.subjects)]
    return None


# ---------------------------------------------------------------- shapes

# A relation of part of the shapes (`batch1和batch2的第一维度…不能做broadcast`).
_PART_OF_SHAPE = re.compile(r"第|轴|某|[前后]\S{0,3}维|最后一维|维度?上")
_ELEMENT_COUNT = re.compile(r"元素个数|元素数量|shape ?size", re.I)  # a count, not a shape
_SHAPE_MISMATCH = re.compile(r"(?i)(?:shape|size|尺寸|大小).{0,25}?(?:不一致|不相同|不同|不相等|不匹配|不等于|不一样)")
_SHAPE_PROSE = re.compile(
    r"(?i)shape.{0,20}?(?:不在|不支持|非法|超过|错误|不对|不满足|不符合|不正确|不为|不是)"
    r"|元素个数|元素数量|Tensor数量|个数|长度|维(?:度)?.{0,20}?(?:不相等|不一致|不等于|不同)|相乘条件|整除|通道数"
    r"|(?:size|轴).{0,10}?(?:为0|大于|小于)"
)
# A shape compared with a computed, required or partial one: no relation between parameters.
_SHAPE_COMPUTED = re.compile(r"推导|计算|实际|要求|指定|定义|语义|拆分|\[")
_DOCUMENTED = re.compile(r"参数说明|约束说明|不满足.{0,8}(?:约束|要求|条件|限制)|不符合.{0,6}(?:约束|要求)|上述")
# "维度上的size大于0" is not about the rank, nor is "dim的取值范围".
_SIZE_WORDS = re.compile(
    r"(?<![A-Za-z])(?i:size)(?![A-Za-z])|大小|元素|长度|除.{0,8}(?:外|以外)|轴|取值|维度的?值|某|第\S{0,3}维"
)


# One way: `src的shape不能广播至selfRef`, `weightOptional无法广播到target的shape`; `gradOutput的shape
# 不能向self broadcast` names the target before the word.
_BROADCAST_TO = re.compile(
    r"(?i)(?:广播|broadcast)\s*(?:至|到)|向(?=\s*[A-Za-z_]\w*\s*(?:的shape)?\s*(?:广播|broadcast))"
)


def _broadcast(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`self和target的shape无法做broadcast`: a broadcast of two tensors, or (part of a shape,
    a count) prose; `a不能广播至b`: a broadcasts to b's shape, not the other way."""
    if _PART_OF_SHAPE.search(s.text) or _ELEMENT_COUNT.search(s.text):
        return [Check(kind="shape", params=s.subjects)]
    result = BROADCAST_RESULT.search(s.text) or "一致" in s.text  # `与…broadcast之后的shape一致`
    if not result and (to := _broadcast_to(s)):
        return to
    return _relate(s, "broadcast_result" if result else "broadcast")


def _broadcast_to(s: ConditionStatement) -> list[Check] | None:
    """Sources named before `广播至`, the one target named right after it."""
    m = _BROADCAST_TO.search(s.text)
    if m is None:
        return None
    sources = [p for p in names_in(s.text[: m.start()], s.tensors)]
    targets = [p for p in names_in(s.text[m.end() :], s.tensors)]
    if not sources or len(targets) != 1 or targets[0] in sources:
        return None
    return [Check(kind="broadcast_to", params=(*sources, targets[0]))]


def _same_shape(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`x和y的shape不一致`: the same shape, unless compared with a size or a computed shape."""
    if _SHAPE_PROSE.search(s.text) or _DOCUMENTED.search(s.text) or _SIZE_WORDS.search(s.text):
        return []  # a size or part of a shape: prose, if nothing else reads the condition
    if _SHAPE_COMPUTED.search(s.text):
        return [Check(kind="shape", params=s.subjects)]
    return _relate(s, "same_shape")


# ---------------------------------------------------------------- dtypes and formats

_DTYPE_MISMATCH = re.compile(
    r"(?:数据类型|dtype|类型).{0,16}?(?:不一致|不相同|不同|不相等|不匹配|不一样)"
    r"|(?:数据类型|dtype).{0,10}?(?:需要|需|要|必须)?(?:与|和).{0,30}?(?:一致|相同)"
    # the tensors named before agree (`tensors[0] 、tensors[1]、output三者数据类型需保持一致`)
    r"|(?:二者|两者|三者|四者)的?(?:数据类型|dtype)(?:需要|需|要|必须)?(?:保持)?(?:一致|相同)"
)
_DTYPE_BAD = re.compile(
    r"(?:数据类型|dtype).{0,24}?(?:不在|不支持|非法|不满足|不属于|不为|不是|不符合|不合法|不受支持)|不是支持的数据类型"
    r"|(?:type|类型)不匹配"
)
_FORMAT_MISMATCH = re.compile(r"(?i)(?:数据格式|格式|format).{0,12}?不一致")
_FORMAT_BAD = re.compile(r"(?i)(?:数据格式|格式|format).{0,12}?(?:不在|不支持|不是|不为|不满足|不正确)|私有格式")


def _castable(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`self和other无法做数据类型推导`, `alpha的数据类型不可转换为FLOAT`."""
    if "shape" in s.text and not DTYPE_WORD.search(s.text):
        return None  # `通过公式推导出的out的shape`: shape inference, not dtypes
    return [Check(kind="castable", params=s.subjects)]


def _same_dtype(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`x和y数据类型不一致`; with no two tensors to relate the dtype rule may still read it."""
    return _relate(s, "same_dtype") or _sides_against(s)


# `输入/输出 dtype 与 `var` 不一致`: every input and output tensor against the one named
_SIDES_AGAINST = re.compile(
    r"^(?:传入的?)?(?P<sides>(?:输入|输出)(?:\s*(?:/|和|与|、|及)\s*(?:输入|输出))?)(?:参数)?(?:的?(?:Tensor|tensor))?"
    r"\s*的?\s*(?:数据类型|dtype)\s*(?:与|和)\s*(?P<against>[^，,；;]*?)\s*(?:不一致|不相同|不同|不匹配)"
)


def _sides_against(s: ConditionStatement) -> list[Check] | None:
    """The tensors of the sides said as a whole (`输入/输出`) against the one tensor named after
    them; None for any other form (a side beside named tensors names its own)."""
    m = _SIDES_AGAINST.match(s.text.strip().strip("`"))
    against = [p for p in names_in(m.group("against"), s.named) if p in s.tensors] if m else []
    if m is None or len(against) != 1:
        return None
    sides = m.group("sides")
    whole = (*(s.inputs if "输入" in sides else ()), *(s.outputs if "输出" in sides else ()))
    others = tuple(p for p in dict.fromkeys(whole) if p in s.tensors and p != against[0])
    return [Check(kind="same_dtype", params=(against[0], *others))] if others else None


def _dtypes(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`数据类型不在支持的范围之内`: a dtype outside the supported ones."""
    return [Check(kind="dtypes", params=s.subjects)]


def _same_format(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`input和output的数据格式不一致`: the same format (no two tensors: nothing, and no format set)."""
    return _relate(s, "same_format") or []


def _formats(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """A format outside the supported ones; `数据类型或数据格式不在支持的范围之内` says so too."""
    if _FORMAT_BAD.search(s.text) or ("格式" in s.text and "数据类型" in s.text):
        return [Check(kind="formats", params=s.subjects)]
    return None


# ---------------------------------------------------------------- dimensions

# An index outside a tensor's dimensions: `dim值不在self维度范围内`, `axis指定的轴超出输入x的维度数`.
_AXIS_OUT = re.compile(
    r"(?:不在|超出了?|超过|越界)[^，,；;]{0,24}?(?:维度范围|维度数|的维度|维度|dim最大值|\.dim|rank)"
)
_RANK_BAD = re.compile(
    r"(?:维度|维数|rank|dim|shape长度|shape维度)"
    r".{0,12}?(?:大于|超过|超出|小于|不等于|不为|不是|不在|不一致)"
    r"|(?:大于|超过|超出)\s*\d+\s*维|(?:不是|不为|非)\s*\d\s*(?:[-~]\s*\d\s*)?(?:维|D)|维度高于\s*\d"
)
_RANK_LIMIT = re.compile(r"(?<!不)(?:大于|超过|超出)\s*(\d{1,2})(?![\d.])")


def _axis(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`dim值不在self维度范围内`, `dim的值不在[-self的维度数量, self的维度数量-1]之间`: the value
    parameter named before, the tensor whose dimensions it indexes."""
    values = [p for p in s.named if p not in s.tensors]
    if not values:
        return None
    ctx = Context(subject=None, params=tuple(s.tensors), line=0, statement=s.text)
    interval = AXIS_INTERVAL.search(s.text)
    tensor = axis_interval(s.text, ctx) if interval else None
    at = interval.start() if interval else 0
    if tensor is None and (m := _AXIS_OUT.search(s.text)):
        tensors = [p for p in names_in(m.group(), s.tensors)]
        tensor, at = (tensors[0], m.start()) if tensors else (None, 0)
    if tensor is None:
        return None
    before = [p for p in names_in(s.text[:at], s.named) if p in values]
    return [Check(kind="axis", params=(before[-1], tensor))] if before else None


# `gradOutput和self维度不一致`, `self、index的维度数不一致`, `valuesOut或indicesOut的维度与self的维度不一致`:
# the tensors' numbers of dimensions differ. The whole statement is of that form, so that a part
# of a shape (`selfRef对应维度`, `x1的需要做norm的维度`) is no rank.
_RANK_WORD = r"(?:维度|维数|rank)(?:数量?|个数)?"
_TENSORS_ALIKE = r"[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|，|,|和|与|或|及)\s*[A-Za-z_][A-Za-z0-9_]*)*"
_RANK_MISMATCH = re.compile(_RANK_WORD + r"\s*(?:不一致|不相同|不同|不相等|不匹配)")
_SAME_RANK_FORM = re.compile(
    rf"^(?:[^，,]*时\s*[，,]\s*)?(?:输入)?[（(]?\s*{_TENSORS_ALIKE}\s*[）)]?\s*的?\s*{_RANK_WORD}"
    rf"(?:\s*(?:与|和)\s*{_TENSORS_ALIKE}\s*的?\s*{_RANK_WORD})?\s*(?:不一致|不相同|不同|不相等|不匹配)[。；;]?$"
)


def _same_rank(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`gradOutput和self维度不一致`: tensors of one rank, whether 维度 means the number of
    dimensions or their sizes (equal sizes have equal ranks); None for any other form, or
    fewer than two tensors named (`NC维度不一致` relates no tensors)."""
    tensors = tuple(names_in(s.text, s.tensors))
    if len(tensors) < 2 or not _SAME_RANK_FORM.match(s.text.strip()):
        return None
    return [Check(kind="same_rank", params=tensors)]


def _rank(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`x的维度不为3`, `大于8维`: a rank rule on the tensors named, with its limit when one fits."""
    tensors = s.named_tensors
    if _SIZE_WORDS.search(s.text) or not tensors:
        return None
    limit = _RANK_LIMIT.search(s.text)
    high = int(limit.group(1)) if limit and int(limit.group(1)) <= MAX_RANK else None
    if high is None and any(c.kind == "axis" for c in found):
        return []  # the index rule says it all; `dim的绝对值超出self的dim最大值或超出8维` says both
    return [Check(kind="rank", params=tensors, max=high)]


_NAME_RE = r"[A-Za-z_][A-Za-z0-9_]*"
_LENGTH_WORD = r"(?:维度|维数|长度|shape长度|rank)"
# `input的维度小于normalizedShape的维度`: a tensor's rank against an array's length
_RANK_BELOW_LENGTH = re.compile(
    rf"^(?:输入)?\s*(?P<tensor>{_NAME_RE})\s*的?\s*{_LENGTH_WORD}\s*小于\s*(?P<array>{_NAME_RE})\s*的?\s*{_LENGTH_WORD}[。；;]?$"
)


def _tensor_and_array(form: re.Pattern[str], kind: CheckKind) -> ConditionReader:
    """A reader of a statement of `form` relating a tensor to another parameter named that is no
    tensor (an integer array): the check of `kind` on (tensor, array); None for any other form."""

    def read(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
        m = form.match(s.text.strip())
        if m is None or m.group("tensor") not in s.tensors or m.group("array") in s.tensors:
            return None
        if m.group("array") not in s.named:
            return None
        return [Check(kind=kind, params=(m.group("tensor"), m.group("array")))]

    return read


# `input的维度小于normalizedShape的维度`: the tensor has at least as many dimensions as the array
# has elements
_rank_at_least = _tensor_and_array(_RANK_BELOW_LENGTH, "rank_at_least")


# `outputMask的长度不为3`; `normalizedShape维度小于1维`: an array's (no tensor's) length
_LENGTH_IS_NOT = re.compile(
    rf"^(?P<array>{_NAME_RE})\s*的?\s*(?:长度|维度|元素个数)\s*(?:(?:不为|不等于|!=|≠)\s*(?P<n>\d{{1,3}})"
    rf"|小于\s*(?P<low>\d{{1,3}})\s*维?)[。；;]?$"
)


def _array_length(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`outputMask的长度不为3`: an array's length is the number; `normalizedShape维度小于1维`: at
    least the number. None for a tensor (its 维度 is its rank) or any other form."""
    m = _LENGTH_IS_NOT.match(s.text.strip())
    if m is None or m.group("array") in s.tensors or m.group("array") not in s.named:
        return None
    if m.group("n") is not None:
        return [Check(kind="length", params=(m.group("array"),), values=(int(m.group("n")),))]
    return [Check(kind="length", params=(m.group("array"),), min=int(m.group("low")))]


# `weightOptional非空且shape与normalizedShape不相等`: a tensor's shape against an array's value
_SHAPE_NOT_ARRAY = re.compile(
    rf"^(?P<tensor>{_NAME_RE})\s*(?:非空且|[（(]非空时[）)])?\s*的?\s*shape\s*与\s*(?P<array>{_NAME_RE})\s*"
    r"(?:的值)?\s*(?:不相等|不一致|不相同)[。；;]?$"
)
_array_shape = _tensor_and_array(_SHAPE_NOT_ARRAY, "array_shape")


# ---------------------------------------------------------------- multiples

_N = r"\s*(\d{1,6})\s*"
# `x的最后一维不能被8整除`, `x的尾轴不能被2整除`, `x的最后一维不是2的倍数`
_LAST_DIM_MULTIPLE = re.compile(
    r"(?:最后一维|尾轴)(?:的?大小)?\s*(?:(?:不能|无法)被" + _N + r"整除|不是" + _N + r"的倍数)"
)
# `x在dim对应维度上不能被2整除`, `self根据指定的dim所对应的维度不能整除2`
_DIM_MULTIPLE = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*\s*(?:对应维度上|所对应的维度)\s*(?:(?:不能|无法)被" + _N + r"整除|不能整除" + _N + ")"
)
# `offset不是4的倍数`, `offset % 4 != 0`, `offset不能被4整除`
_VALUE_MULTIPLE = re.compile(
    r"(?:不是|不为)" + _N + r"的倍数|%" + _N + r"(?:!=|≠|不等于|不为)\s*0|(?:不能|无法)被" + _N + r"整除"
)


def _number(m: re.Match[str]) -> int:
    return int(next(g for g in m.groups() if g))


def _dim_multiple(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """A tensor's last dimension (or the one a dim value names) a multiple of a number."""
    m = _LAST_DIM_MULTIPLE.search(s.text) or _DIM_MULTIPLE.search(s.text)
    if m is None:
        return None
    tensors = [p for p in names_in(s.text[: m.start() + len(m.group(0))], s.tensors)]
    if len(tensors) != 1 or _number(m) < 2:
        return None
    dims = [p for p in s.named if p not in s.tensors and p in m.group(0)] if m.re is _DIM_MULTIPLE else []
    if m.re is _DIM_MULTIPLE and len(dims) != 1:
        return None
    return [Check(kind="dim_multiple", params=(tensors[0], *dims), values=(_number(m),))]


# `scalar元素个数不为1`, `out的shape size不为1`, `foundInf或invScale中的元素个数不为1`
_NUMEL = re.compile(r"(?:元素个数|元素数量|shape\s*size)\s*(?:不为|不等于|不是|!=)\s*(\d{1,6})(?![\d.])")
# `spatialShape的最后一轴不是2` (not `…不是2的倍数`, a multiple)
_LAST_DIM_SIZE = re.compile(
    r"(?:最后一轴|最后一维|尾轴)(?:的?大小)?\s*(?:不为|不等于|不是|!=)\s*(\d{1,6})(?![\d.]|\s*的?倍)"
)


def _sized_tensors(s: ConditionStatement, m: re.Match[str] | None) -> tuple[str, ...]:
    """The tensors named before a size's words, where only tensors are named there and not
    a list's elements (`stateSteps中每个Tensor的元素个数`); () otherwise."""
    if m is None:
        return ()
    before = re.split(r"[，,；;]", s.text[: m.start()])[-1]  # not the situation (`当source为scalar时，`)
    if "每个" in before:
        return ()
    named = tuple(names_in(before, s.named))
    return named if named and all(p in s.tensors for p in named) else ()


def _numel(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """Tensors of a stated number of elements (`beta1Power…epsilon 的 shape size 不为 1`)."""
    m = _NUMEL.search(s.text)
    tensors = _sized_tensors(s, m)
    return [Check(kind="numel", params=tensors, values=(int(m.group(1)),))] if m and tensors else None


def _last_dim(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """A tensor's last dimension of a stated size (`location的最后一轴不是2`)."""
    m = _LAST_DIM_SIZE.search(s.text)
    tensors = _sized_tensors(s, m)
    return [Check(kind="last_dim", params=tensors, values=(int(m.group(1)),))] if m and len(tensors) == 1 else None


def _multiple(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`offset不是4的倍数`: a value parameter (not a tensor) a multiple of a number."""
    m = _VALUE_MULTIPLE.search(s.text)
    values = [p for p in names_in(s.text[: m.start()], s.named) if p not in s.tensors] if m else []
    if m is None or len(values) != 1 or set(s.named) & set(s.tensors):
        return None  # a tensor named too: a dimension's multiple, which `_dim_multiple` reads
    return [Check(kind="multiple", params=(values[-1],), values=(_number(m),))] if _number(m) >= 2 else None


# ---------------------------------------------------------------- a value's bounds and set

_NUM = r"(-?\d+(?:\.\d+)?)"
# What rejects a value, as the bound it breaks: `lambda小于0` (min 0), `eps不大于0` (min 0, excluded),
# `numLayers不满足>0`, `reduction值不在0~2范围之内`, `dilation的数值不等于1`, `reduction的值非0,1,2三值之一`.
_BELOW = re.compile(r"(?<!不)(?:小于|<)(?!=|等于)\s*" + _NUM)  # allowed: >= N
_BELOW_OR_AT = re.compile(r"(?:小于等于|<=|不大于|不满足\s*>(?!=)\s*)" + _NUM)  # allowed: > N
_ABOVE = re.compile(r"(?<!不)(?:大于|>)(?!=|等于)\s*" + _NUM)  # allowed: <= N
_ABOVE_OR_AT = re.compile(r"(?:大于等于|>=|不小于|不满足\s*<(?!=)\s*)" + _NUM)  # allowed: < N
# `clampLimit不满足≥0（包括NaN）` (aclnnSwigluGroupGrad): the bound the value must meet, as written
_UNMET_AT_LEAST = re.compile(r"不满足\s*(?:≥|>=)\s*" + _NUM)  # allowed: >= N
_UNMET_AT_MOST = re.compile(r"不满足\s*(?:≤|<=)\s*" + _NUM)  # allowed: <= N
_OUTSIDE = re.compile(
    r"不在\s*[\[［]?\s*" + _NUM + r"\s*(?:~|～|-|,|，|到|至)\s*" + _NUM + r"\s*[\]］]?\s*(?:的?范围|之间|内)"
)
_NOT_EQUAL = re.compile(r"(?:不等于|不为|!=)\s*" + _NUM + r"(?![\d./]|\s*维|\s*D)")
_NOT_ONE_OF = re.compile(r"非\s*(-?\d+(?:\s*[,，、]\s*-?\d+)+)\s*(?:三值|几个值|两值)?之一")
_NEGATIVE = re.compile(r"为负数|小于零")
# A bound on something else than the value itself: its size, a dimension, elements, a product.
_NOT_THE_VALUE = re.compile(r"维|size|长度|个数|元素|\*|乘|之和|之积|绝对值|shape|数量|和为|差")
# Two conditions together (`clampLimit不为-1.0且不大于0`: -1.0 is allowed), or a clause going on
# from the one before (`也不等于3` after `stride的长度既不等于0、1`): not one bound of the value.
_COMPOUND = re.compile(r"且|同时|^\s*(?:也|并|而|其|或)")


def _bounds(text: str) -> list[tuple[str, float]]:
    """Each comparison in the text as (the allowed side, the number): `ge`, `gt`, `le`, `lt`;
    a comparison with `等于` read first, and its words not read again."""
    found = []
    ordered = ((_UNMET_AT_LEAST, "ge"), (_UNMET_AT_MOST, "le"), (_BELOW_OR_AT, "gt"), (_ABOVE_OR_AT, "lt"))
    for pattern, kind in (*ordered, (_BELOW, "ge"), (_ABOVE, "le")):
        for m in pattern.finditer(text):
            found.append((kind, float(m.group(1))))
        text = pattern.sub(" ", text)
    return found


def _value_bound(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """One value parameter named alone, with the bound or set a comparison in the statement gives."""
    values = [p for p in s.named if p not in s.tensors]
    if len(values) != 1 or len(s.named) != 1 or _NOT_THE_VALUE.search(s.text) or _COMPOUND.search(s.text):
        return None
    name = values[0]
    if m := _OUTSIDE.search(s.text):
        low, high = sorted((float(m.group(1)), float(m.group(2))))
        return [Check(kind="range", params=(name,), min=low, max=high)]
    if m := _NOT_ONE_OF.search(s.text):
        return [
            Check(kind="enum", params=(name,), values=tuple(int(v) for v in re.split(r"\s*[,，、]\s*", m.group(1))))
        ]
    bounds = _bounds(s.text)
    if len(bounds) == 1:
        ((kind, number),) = bounds
        if kind in ("ge", "gt"):
            return [Check(kind="range", params=(name,), min=number, min_inclusive=kind == "ge")]
        return [Check(kind="range", params=(name,), max=number, max_inclusive=kind == "le")]
    if not bounds and _NEGATIVE.search(s.text):
        return [Check(kind="range", params=(name,), min=0)]
    if not bounds and (m := _NOT_EQUAL.search(s.text)):
        number = float(m.group(1))
        return [Check(kind="enum", params=(name,), values=(int(number) if number.is_integer() else number,))]
    return None


# ---------------------------------------------------------------- contiguity

_CONTIGUOUS_BAD = re.compile(r"非连续|连续性|不连续")


def _non_contiguous(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
    """`self为非连续张量`: a non-contiguous tensor is rejected."""
    return [Check(kind="non_contiguous", params=s.subjects)]


# ---------------------------------------------------------------- prose-only kinds

_VALUE_PROSE = re.compile(
    r"取值|值.{0,10}?(?:大于|小于|超出|不在|不满足|不为|不是|非法)|范围|越界|超过|超出|不属于|不是.{0,20}之一"
    r"|(?:小于|大于|不大于|不小于|等于|超过)\s*-?\d|[<>!]=?\s*-?\d|不是\s*(?:true|false)|不为\s*(?:true|false)"
    r"|自然数|正整数|输入不对|不支持传入|不支持的|当前支持的值|无效值|负数|倍数|偶数|奇数|之一|[<>!]=|\s[<>]\s"
)
_PRODUCT = re.compile(r"产品|平台|处理器|芯片|SocVersion|SoC", re.I)
_INTERNAL = re.compile(r"内部|npu runtime|aclOpExecutor失败|tiling|Tiling|异常")


def _prose(kind: CheckKind, *, on_named: bool = False) -> ConditionReader:
    """A reader of a prose-only kind: on the parameters named, or (`on_named` false) on every
    tensor when the condition names none."""

    def read(s: ConditionStatement, found: tuple[Check, ...]) -> list[Check] | None:
        return [Check(kind=kind, params=s.named if on_named else s.subjects)]

    return read


# ---------------------------------------------------------------- the tables

# Families in order; within a family the first rule that reads a statement wins. The examples'
# sources are the documents named in the comments (aclnn... under the corpus).
CONDITION_RULES: tuple[ConditionRule, ...] = (
    ConditionRule(
        "not_null",
        "null",
        _NULL,
        _not_null,
        (
            # aclnnMaxPool2dWithIndicesBackward
            ConditionExample("传入的self、indices是空指针", ("gradOutput", "self", "indices", "gradInput")),
            ConditionExample("必选参数为空指针", ("x", "out")),  # aclnnFastGeluV2: every required pointer
            # aclnnThresholdBackward
            ConditionExample(
                "传入的 gradOutput、self、threshold 或 out 是空指针", ("gradOutput", "self", "out"), ("threshold",)
            ),
            # aclnnDynamicQuantV3: x, then the outputs as a whole
            ConditionExample("传入的x或输出参数是空指针", ("x", "yOut", "scaleOut"), outputs=("yOut", "scaleOut")),
            ConditionExample("p与k同为空指针", ("logits", "p", "k", "out")),  # aclnnApplyTopKTopP: one of them
        ),
    ),
    ConditionRule(
        "empty_tensor",
        "null",
        _EMPTY_BAD,
        _empty_tensor,
        (
            # aclnnSwigluGroup
            ConditionExample("groupIndexOptional为空tensor", ("x", "weightOptional", "groupIndexOptional", "out")),
            # aclnnQuantConvolution
            ConditionExample("传入tensor中任意维度为零的均不满足要求", ("input", "weight", "bias", "output")),
        ),
    ),
    ConditionRule(
        "broadcast",
        "shape",
        BROADCAST,
        _broadcast,
        (
            ConditionExample("self和target的shape无法做broadcast", ("self", "target", "out")),  # aclnnMseLoss
            # aclnnSigmoidBackward
            ConditionExample(
                "gradInput的shape与gradOutput和output的broadcast结果不一致", ("gradOutput", "output", "gradInput")
            ),
            # aclnnBinaryCrossEntropyWithLogits
            ConditionExample(
                "weightOptional 或 posWeightOptional 无法广播到 target 的 shape",
                ("self", "target", "weightOptional", "posWeightOptional"),
            ),
            ConditionExample("gradOutput不能broadcast到self的shape", ("gradOutput", "self", "gradInput")),
            ConditionExample(
                "gradOutput的shape不能向self broadcast", ("gradOutput", "self", "gradInput")
            ),  # aclnnMishBackward
            # aclnnAddbmm
            ConditionExample("batch1和batch2的第一维度不相等或不能做broadcast操作", ("batch1", "batch2")),
        ),
    ),
    ConditionRule(
        "array_shape",
        "shape",
        _SHAPE_NOT_ARRAY,
        _array_shape,
        (
            # aclnnLayerNormBackward: normalizedShape is an aclIntArray
            ConditionExample(
                "weightOptional非空且shape与normalizedShape不相等", ("input", "weightOptional"), ("normalizedShape",)
            ),
        ),
    ),
    ConditionRule(
        "same_shape",
        "shape",
        _SHAPE_MISMATCH,
        _same_shape,
        (
            ConditionExample("x和y的shape不一致", ("x", "y")),  # aclnnGeluV2
            # aclnnAdaptiveMaxPool2dBackward
            ConditionExample("self和gradInput的shape不一致", ("gradOutput", "self", "indices", "gradInput")),
            ConditionExample("out shape与实际不匹配", ("self", "target", "weight", "out")),  # aclnnBinaryCrossEntropy
        ),
    ),
    ConditionRule(
        "castable",
        "dtype",
        CASTABLE,
        _castable,
        (
            ConditionExample("self和other无法做数据类型推导", ("self", "other", "out")),  # aclnnAddRelu
            ConditionExample("alpha的数据类型不可转换为FLOAT", ("self", "out"), ("alpha",)),  # aclnnCelu
        ),
    ),
    ConditionRule(
        "same_dtype",
        "dtype",
        _DTYPE_MISMATCH,
        _same_dtype,
        (
            ConditionExample("x和y数据类型不一致", ("x", "y")),  # aclnnGeluV2
            ConditionExample("out的数据类型与x不匹配", ("x", "out")),  # aclnnSituGlu
            ConditionExample("x中的Tensor的数据类型不一致", ("x",)),  # aclnnForeachLogInplace: within the list
            # aclnnApplyAdamD: every input and output against var
            ConditionExample("输入/输出 dtype 与 `var` 不一致", ("var", "m", "varOut"), outputs=("varOut",)),
            # aclnnEinsum, under each equation it registers: a list's elements and the output
            ConditionExample("tensors[0] 、tensors[1]、output三者数据类型需保持一致", ("tensors", "output")),
        ),
    ),
    ConditionRule(
        "dtypes",
        "dtype",
        _DTYPE_BAD,
        _dtypes,
        (
            # aclnnAdaptiveMaxPool2d
            ConditionExample("indicesOut的数据类型不为int64", ("self", "outputOut", "indicesOut")),
            ConditionExample("数据类型不在支持的范围之内", ("data", "indices", "updates", "out")),  # aclnnScatterNd
        ),
    ),
    ConditionRule(
        "same_format",
        "format",
        _FORMAT_MISMATCH,
        _same_format,
        (
            ConditionExample("input和output的数据格式不一致", ("input", "weight", "output")),  # aclnnBatchNormElemt
            # aclnnMaxPool2dWithIndices
            ConditionExample("out的数据格式和self的数据格式不一致", ("self", "out", "indices")),
        ),
    ),
    ConditionRule(
        "formats",
        "format",
        re.compile(r"(?i)格式|format"),  # what every reading has; `_formats` tells which
        _formats,
        (
            ConditionExample("输入的数据格式不为ND", ("x", "wHigh", "wLow", "y")),  # aclnnMatmulEmuSplitWeight
            ConditionExample("self和out的数据类型和数据格式不在支持的范围之内", ("self", "out")),  # aclnnGelu
        ),
    ),
    ConditionRule(
        "axis",
        "axis",
        re.compile(r"[\[(（]\s*-|不在|超出|超过|越界"),  # an index interval, or out of the dimensions
        _axis,
        (
            ConditionExample("dim值不在self维度范围内", ("self", "out"), ("dim",)),  # aclnnLogSoftmax
            ConditionExample("输入axis指定的轴超出输入x的维度数", ("x", "scales", "out"), ("axis",)),  # aclnnQuantize
            # aclnnRepeatInterleaveIntWithDim
            ConditionExample("dim的值不在[-self的维度数量， self的维度数量-1]之间", ("self", "out"), ("dim",)),
        ),
    ),
    ConditionRule(
        "rank_at_least",
        "rank",
        _RANK_BELOW_LENGTH,
        _rank_at_least,
        (
            # aclnnLayerNormBackward: normalizedShape is an aclIntArray
            ConditionExample("input的维度小于normalizedShape的维度", ("gradOut", "input"), ("normalizedShape",)),
        ),
    ),
    ConditionRule(
        "array_length",
        "length",
        _LENGTH_IS_NOT,
        _array_length,
        (
            # aclnnLayerNormBackward: outputMask is an aclBoolArray, normalizedShape an aclIntArray
            ConditionExample("outputMask的长度不为3", ("gradOut", "input"), ("outputMask",)),
            ConditionExample("normalizedShape维度小于1维", ("gradOut", "input"), ("normalizedShape",)),
        ),
    ),
    ConditionRule(
        "same_rank",
        "rank",
        _RANK_MISMATCH,
        _same_rank,
        (
            ConditionExample("gradOutput和self维度不一致", ("gradOutput", "self", "out")),
        ),  # aclnnAdaptiveAvgPool2dBackward
    ),
    ConditionRule(
        "rank",
        "rank",
        _RANK_BAD,
        _rank,
        (
            ConditionExample("x的维度不为3", ("x", "kroneckerP1", "kroneckerP2", "out")),  # aclnnFlatQuant
            ConditionExample("selfRef 的维度大于 8", ("selfRef",)),  # aclnnRelu
            # aclnnPreluBackward
            ConditionExample(
                "gradOutput、self、weight、gradInput、gradWeight大于8维",
                ("gradOutput", "self", "weight", "gradInput", "gradWeight"),
            ),
        ),
    ),
    ConditionRule(
        "dim_multiple",
        "multiple",
        re.compile(r"整除|倍数"),
        _dim_multiple,
        (
            ConditionExample("x的最后一维不能被2整除", ("x", "y")),  # aclnnSwigluMxQuantWithDualAxis
            ConditionExample("x的最后一维不是2的倍数", ("x", "y")),  # aclnnDequantSituQuant
            ConditionExample("输入x1的尾轴不能被2整除", ("x1", "x2", "y")),  # aclnnAddRmsNormDynamicMxQuant
            # aclnnSituGlu
            ConditionExample("x在dim对应维度上不能被2整除", ("x", "out"), ("dim",)),
        ),
    ),
    ConditionRule(
        "numel",
        "size",
        re.compile(r"元素个数|元素数量|shape\s*size"),
        _numel,
        (
            ConditionExample("scalar元素个数不为1", ("x", "scalar")),  # aclnnForeachMulScalarInplace
            ConditionExample("out的shape size不为1", ("x", "out")),  # aclnnForeachNorm
            # aclnnForeachNonFiniteCheckAndUnscale
            ConditionExample("foundInf或invScale中的元素个数不为1", ("scaledGrads", "foundInf", "invScale")),
            # aclnnApplyAdamD
            ConditionExample(
                "`beta1Power`、`lr`、`epsilon` 的 shape size 不为 1", ("var", "m", "beta1Power", "lr", "epsilon")
            ),
        ),
    ),
    ConditionRule(
        "last_dim",
        "size",
        re.compile(r"最后一轴|最后一维|尾轴"),
        _last_dim,
        (
            # aclnnMultiScaleDeformableAttnFunction
            ConditionExample("spatialShape的最后一轴不是2", ("value", "spatialShape", "location")),
        ),
    ),
    ConditionRule(
        "multiple",
        "multiple",
        re.compile(r"整除|倍数|%"),
        _multiple,
        (
            ConditionExample("offset不是4的倍数", ("self", "out"), ("offset",)),  # issue 23: bernoulli
            ConditionExample("offset % 4 != 0", ("self", "out"), ("offset",)),
        ),
    ),
    ConditionRule(
        "value_bound",
        "value",
        re.compile(r"小于|大于|[<>≥≤]|不在|不等于|不为|!=|非|负数"),
        _value_bound,
        (
            # aclnnSwigluGroupGrad: the bound as the value must meet it
            ConditionExample("clampLimit不满足≥0（包括NaN）", ("gradY", "x", "gradXOut"), ("clampLimit",)),
            ConditionExample(
                "lambda小于0", ("gradOutput", "self", "gradInput"), ("lambda",)
            ),  # aclnnSoftshrinkBackward
            ConditionExample("eps不大于0", ("input", "out"), ("eps",)),  # aclnnGroupNorm
            ConditionExample("numLayers不满足>0", ("input", "output"), ("numLayers",)),  # aclnnLstmBackward
            ConditionExample("reduction值不在0~2范围之内", ("self", "target", "out"), ("reduction",)),  # aclnnMseLoss
            ConditionExample("dilation的数值不等于1", ("self", "out"), ("dilation",)),  # aclnnMaxPool2dWithMask
            # aclnnBinaryCrossEntropyWithLogitsBackward
            ConditionExample("reduction的值非0,1,2三值之一", ("gradOutput", "self"), ("reduction",)),
        ),
    ),
    ConditionRule(
        "non_contiguous",
        "contiguity",
        _CONTIGUOUS_BAD,
        _non_contiguous,
        (
            ConditionExample("self为非连续张量", ("self", "valueOut", "inverseOut")),  # aclnnUnique
            # aclnnMaxUnpool3dBackward
            ConditionExample("out为不连续的Tensor", ("gradOutput", "self", "indices", "out")),
        ),
    ),
)

# A condition none of the rules above reads: the first of these that finds it gives its kind.
PROSE_RULES: tuple[ConditionRule, ...] = (
    ConditionRule(
        "product",
        "prose",
        _PRODUCT,
        _prose("product"),
        (
            ConditionExample("平台不支持", ("self", "outputOut", "indicesOut")),  # aclnnAdaptiveMaxPool3d
            ConditionExample("当前处理器不支持卷积", ("input", "weight", "bias", "output")),  # aclnnConvolution
        ),
    ),
    ConditionRule(
        "internal",
        "prose",
        _INTERNAL,
        _prose("internal"),
        (
            ConditionExample("内部创建aclOpExecutor失败", ("x", "yOut", "scaleOut")),  # aclnnDynamicQuant
            ConditionExample("调用tiling时发生异常", ("x", "gamma", "yOut", "scaleOut")),  # aclnnRmsNormDynamicQuant
        ),
    ),
    ConditionRule(
        "constraints",
        "prose",
        _DOCUMENTED,
        _prose("constraints", on_named=True),
        (
            ConditionExample("beta不符合约束", ("self", "target", "result"), ("beta",)),  # aclnnSmoothL1Loss
            # aclnnSmoothL1Loss
            ConditionExample("self、target或result的shape不符合约束", ("self", "target", "result")),
        ),
    ),
    ConditionRule(
        "shape_prose",
        "prose",
        _SHAPE_PROSE,
        _prose("shape"),
        (
            ConditionExample("alpha元素个数不为1", ("x1", "x2", "alpha", "out")),  # aclnnForeachAddList
            ConditionExample("x的最后一维不能被2整除", ("x", "y")),  # aclnnSwigluMxQuantWithDualAxis
        ),
    ),
    ConditionRule(
        "shape_mismatch",
        "prose",
        _SHAPE_MISMATCH,
        _prose("shape"),
        (
            # aclnnFakeQuantPerChannelAffineCachemask
            ConditionExample("scale和zeroPoint的size大小不一致", ("self", "scale", "zeroPoint", "out")),
            ConditionExample("stride的size大小不等于3", ("self", "indices", "outRef"), ("stride",)),  # aclnnMaxUnpool3d
        ),
    ),
    ConditionRule(
        "value",
        "prose",
        _VALUE_PROSE,
        _prose("value", on_named=True),
        (
            ConditionExample("eps不大于0", ("input", "out"), ("eps",)),  # aclnnGroupNorm
            ConditionExample("p < 0", ("selfRef",), ("p",)),  # aclnnRenorm
            # aclnnGeGluBackward
            ConditionExample("参数approximate的取值范围不是0和1", ("self", "gradInput"), ("approximate",)),
        ),
    ),
)
