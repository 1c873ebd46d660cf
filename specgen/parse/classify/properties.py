"""What a parameter is: its dtypes and formats, whether it may be non-contiguous or empty, and
whether it may be a null pointer.
"""

from __future__ import annotations

import re
from functools import lru_cache

from specgen import vocab
from specgen.model import Constraint
from specgen.parse.classify.text import IDENT, TEXT_CACHE, Context, constraint, dtype_list, format_list

_DTYPES = re.compile(
    r"(?:数据类型|dtype)(?:仅|只)?(?:支持|需为|为|要求为|必须为)[:：]?\s*"
    r"(?P<list>[A-Za-z0-9_、,，/和 ]+)|支持的数据类型(?:为)?[:：]?\s*(?P<list2>[A-Za-z0-9_、, ]+)"
)
# `BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）`: a dtype of some products only.
_ONLY_ON = re.compile(r"(?<![A-Za-z0-9_])(?P<dtype>[A-Za-z0-9_]+)\s*[（(]\s*仅\s*(?P<product>[^）)]+?)\s*支持\s*[）)]")
# the same after the list: `FLOAT16、FLOAT32；BFLOAT16 仅支持 Ascend910B 及后续同代 SoC` (kept
# only where the words after 仅支持/仅在 name a product)
_ONLY_ON_AFTER = re.compile(
    r"[；;，,]\s*(?P<dtype>[A-Z][A-Z0-9_]*)\s*仅(?:支持|在)\s*(?P<product>[^，,。；;、（(]+?)\s*(?:上)?\s*(?:支持)?\s*$"
)
# `BOOL(8bit的BOOL)、UINT8`: a remark on one dtype inside the list, which goes on after it
_REMARK = re.compile(r"(?<=[A-Z0-9])\s*[（(][^（）()]{1,40}[）)](?=\s*[、,，/和])")
_ONLY_DTYPES = re.compile(r"^[A-Z][A-Z0-9_]*(?:\s*[、,，/和]\s*[A-Z][A-Z0-9_]*)*$")


def rule_dtypes(clause: str, ctx: Context) -> list[Constraint]:
    """`数据类型支持FLOAT16、FLOAT` or a bare list; a dtype marked `（仅…产品支持）` is that
    product's only."""
    return [constraint("dtypes", clause, ctx, values=dtypes, product=pid) for dtypes, pid in dtype_sets(clause)]


@lru_cache(maxsize=TEXT_CACHE)
def dtype_sets(clause: str) -> tuple[tuple[tuple[str, ...], str | None], ...]:
    """The dtype sets `rule_dtypes` reads from a clause, each with the product id it holds on
    (None: every product). The same lists recur in every table (`FLOAT16、FLOAT、BFLOAT16`)."""
    if _ONLY_DTYPES.match(clause):  # a bare list, e.g. a sub-bullet `FLOAT16、FLOAT`
        dtypes, unknown = dtype_list(clause)
        return ((tuple(dtypes), None),) if dtypes and not unknown else ()
    # the list read with each `（仅…支持）` taken out, or it would end at the first one
    bare = _ONLY_ON.sub(lambda m: m.group("dtype"), clause) if "仅" in clause else clause
    bare = _REMARK.sub("", bare)
    match = _DTYPES.search(bare)
    if not match or "不支持" in bare[: match.start() + 3]:
        return ()
    restricted = _restricted_dtypes(clause) if "仅" in clause else {}
    listed = match.group("list") or match.group("list2") or ""
    dtypes, _ = dtype_list(listed + " " + " ".join(restricted))
    if not dtypes:
        return ()
    # a dtype restricted to products nobody can name is let through on every product
    only_on = {d: pids for d, pids in restricted.items() if pids}
    general = tuple(d for d in dtypes if d not in only_on)
    out: list[tuple[tuple[str, ...], str | None]] = [(general, None)]
    for pid in dict.fromkeys(p for pids in only_on.values() for p in pids):
        out.append((tuple(d for d in dtypes if d in general or pid in only_on.get(d, ())), pid))
    return tuple(out)


def _restricted_dtypes(clause: str) -> dict[str, tuple[str, ...] | None]:
    """Each dtype marked as some products' only (`BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）`,
    `；BFLOAT16 仅支持 …`) with the product ids the mark names (None: a product phrase whose
    products are unknown)."""
    marks = list(_ONLY_ON.finditer(clause))
    tail = _ONLY_ON_AFTER.search(clause)
    if tail and vocab.product_id(tail.group("product")):
        marks.append(tail)
    out: dict[str, tuple[str, ...] | None] = {}
    for m in marks:
        if name := vocab.dtype(m.group("dtype")):
            out[name] = vocab.products_named(m.group("product"))
    return out


_FORMATS = re.compile(r"(?:数据格式|format)(?:仅|只)?(?:支持|要求为|为)\s*(?P<list>[A-Za-z0-9_、,，/ ]+)")


def rule_formats(clause: str, ctx: Context) -> list[Constraint]:
    """`数据格式支持ND`, `format仅支持ND格式`."""
    match = _FORMATS.search(clause)
    formats = format_list(match.group("list")) if match else []
    return [constraint("formats", clause, ctx, values=tuple(formats))] if formats else []


_NON_CONTIGUOUS = re.compile(r"(?P<neg>不)?支持非连续")


def rule_non_contiguous(clause: str, ctx: Context) -> list[Constraint]:
    """`支持非连续的Tensor`, or `不支持…`."""
    match = _NON_CONTIGUOUS.search(clause)
    if not match:
        return []
    return [constraint("non_contiguous", clause, ctx, supported=not match.group("neg"))]


_EMPTY = re.compile(r"(?P<neg>不)?支持(?:传入)?空(?:Tensor|tensor|TensorList|张量)")


def rule_empty(clause: str, ctx: Context) -> list[Constraint]:
    """`支持空Tensor`, or `不支持…`."""
    match = _EMPTY.search(clause)
    return [constraint("empty_tensor", clause, ctx, supported=not match.group("neg"))] if match else []


# `通过expertTokensBeforeCapacityFlag参数控制是否输出` (MoeInitRoutingV2): the output the flag asks for.
_FLAG_CONTROLS = re.compile(r"(?:由|通过)\s*`?(?P<flag>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:参数)?\s*控制是否输出")


_OPTIONAL = re.compile(
    (
        r"可选(?!取值|值|的取值|范围|维度|模式|择|参数值)|(?i:\boptional\b)"
        r"|(?<![不非])支持(?:传入?)?NULL|(?<![不非])可(?:以)?(?:传入?|是|为|设为|设置为)?\s*NULL"
        r"|(?<![不非])可(?:以)?(?:为|传)空(?!Tensor|tensor|张量|TensorList)|^(?:如果|若|当)(?:传入|传)?NULL"
        r"|不需要时(?:为|传入?|可传入?)?\s*NULL|不使用.{0,12}?时(?:可)?(?:传入?|为)\s*NULL"
        r"|(?:需要|需|只能)传入?NULL|预留参数|保留参数|传入?\s*NULL(?:\s*nullptr)?\s*(?:即可|时)"
        r"|若非空|若不为空|(?<!不)非空(?:指针)?时|不为空(?:指针)?时|或(?:者)?\s*NULL"
        r"|默认值?(?:为)?\s*NULL|为\s*NULL\s*(?:时|的情况)"
        r"|" + _FLAG_CONTROLS.pattern  # an output a flag asks for
    ).replace("NULL", r"(?:空指针|nullptr|NULL|None)")
)
_OTHERS = re.compile(r"对应参数|其他参数|相关参数|其余参数")
_NULL_VERB = re.compile(r"\s*(?:传入的?|传|输入|为|是|不为|不是|非|不)?\s*")  # `当biasOptional非空指针时`


_PASSED = re.compile(r"传入\s*")
_PASSED_WHEN = re.compile(r"\s*(?:时|的情况)")


def _passed_in(clause: str, subject: str | None) -> int | None:
    """Where `传入<subject>时` starts in the clause (fixed patterns and a string comparison,
    not a pattern per parameter name: those would be compiled over and over)."""
    if not subject:
        return None
    for m in _PASSED.finditer(clause):
        if clause.startswith(subject, m.end()) and _PASSED_WHEN.match(clause, m.end() + len(subject)):
            return m.start()
    return None


def rule_optional(clause: str, ctx: Context) -> list[Constraint]:
    """May be a null pointer: `可选`, `可为空`, `若非空`, `不需要时传nullptr`, `传入sorter时`...
    A clause saying so of another parameter (`当scalesOptional传入空指针时`) is not about this one."""
    match = _OPTIONAL.search(clause)
    start = match.start() if match else _passed_in(clause, ctx.subject)
    if start is None:
        return []
    before = clause[:start]
    others = [m for m in IDENT.finditer(before) if m.group() in ctx.params and m.group() != ctx.subject]
    if match and match.group().startswith("可选"):
        return [constraint("optional", clause, ctx)]  # `在amsgrad参数为false时可选`: about the subject
    if (others and _NULL_VERB.fullmatch(before[others[-1].end() :])) or _OTHERS.search(before):
        return []
    return [constraint("optional", clause, ctx)]


# A pointer that must be null, said without a condition: `目前仅支持nullptr` (MoeTokenUnpermute
# restoreShapeOptional), `<product>：仅支持nullptr` (IncreFlashAttentionV2, a per-product remark),
# `当前仅支持传入空指针`, `当前仅支持输入nullptr` (SwinAttentionScoreQuant), `需要传入nullptr` (a
# reserved parameter), `**暂不支持该传参**`
# (FlashAttentionUnpaddingScoreGradV2 paddingMaskOptional).
_NULL_ONLY = re.compile(
    r"^(?:目前|当前)?(?:仅|只)(?:支持|能)(?:传入?|输入|为|是)?\s*(?:nullptr|空指针|NULL)\s*[。.]?$"
    r"|^(?:需要|需|必须|固定)(?:传入?|为|是)\s*(?:nullptr|空指针)\s*[。.]?$"
    r"|^(?:目前|当前)?暂不支持(?:该|此)传参\s*[。.]?$",
    re.I,
)
# A clause that names a case (`其他输入类型需要传入nullptr`, `否则须为nullptr`) is not unconditional.
_NULL_CASE = re.compile(r"时|其他|其余|否则|除|场景|模式|情况")


def rule_null(clause: str, ctx: Context) -> list[Constraint]:
    """Must be a null pointer: the clause says nothing else (`目前仅支持nullptr`,
    `暂不支持该传参`), so it holds whatever the other arguments are."""
    body = _PRODUCT_LEAD.sub("", clause.replace("*", "").strip())
    if _NULL_CASE.search(body) or not _NULL_ONLY.match(body):
        return []
    return [constraint("null", clause, ctx)]


# `Atlas 推理系列加速卡产品：` leading a per-product remark (its product is the context's)
_PRODUCT_LEAD = re.compile(r"^[^：:，,。]{0,80}产品[^：:]{0,40}[：:]\s*")


# `当scalesOptional非空指针时，其也不能是空指针` (MoeFinalizeRoutingV2Grad expandedXOptional): the
# clause requiring the subject, and the condition clause before it naming the other pointer.
_REQUIRED = re.compile(
    r"^(?:其|该参数)?也?(?:不能|不可|不允许|不得)(?:是|为|传入?)?\s*(?:空指针|nullptr)\s*[。.]?$", re.I
)
_GIVEN_WHEN = re.compile(
    r"(?:当|若|如果)\s*(?P<other>[A-Za-z_][A-Za-z0-9_]*)\s*"
    r"(?:非空指针|不为空指针|不是空指针|不为nullptr|非nullptr|非空|不为空)\s*时\s*[，,]\s*$"
)


def rule_required_with(clause: str, ctx: Context) -> list[Constraint]:
    """Must not be null when another pointer is not: `当scalesOptional非空指针时，其也不能是空指针`;
    or an output a flag controls, when the flag asks for it (`通过…Flag参数控制是否输出`)."""
    if (m := _FLAG_CONTROLS.search(clause)) and m.group("flag") in ctx.params and m.group("flag") != ctx.subject:
        return [constraint("not_null_when", clause, ctx, params=(m.group("flag"),))]
    if not _REQUIRED.match(clause.strip()):
        return []
    at = ctx.statement.find(clause)
    m = _GIVEN_WHEN.search(ctx.statement[: max(at, 0)])
    if at < 0 or m is None or m.group("other") not in ctx.params or m.group("other") == ctx.subject:
        return []
    return [constraint("not_null_when", clause, ctx, params=(m.group("other"),))]
