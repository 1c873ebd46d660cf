"""Parameter statements to typed constraints: the table of phrase rules, and `classify`, which
splits a statement into clauses and lets every rule whose trigger finds a clause read it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from specgen import vocab
from specgen.model import Constraint
from specgen.parse.classify.dim_equalities import rule_dim_equal
from specgen.parse.classify.dims import rule_axis, rule_min_rank, rule_rank
from specgen.parse.classify.element_counts import rule_numel_at_least
from specgen.parse.classify.properties import (
    rule_dtypes,
    rule_empty,
    rule_formats,
    rule_non_contiguous,
    rule_null,
    rule_optional,
    rule_required_with,
)
from specgen.parse.classify.relations import rule_broadcast, rule_castable, rule_same
from specgen.parse.classify.shape_multiples import rule_dim_multiple
from specgen.parse.classify.statements import CONDITION_HEAD, CONTINUATION, clauses, is_conditional, situational
from specgen.parse.classify.text import DTYPE_TOKEN, TEXT_CACHE, Context, Rule, constraint, read
from specgen.parse.classify.values import (
    enum_span,
    rule_clamp,
    rule_enum_general,
    rule_enum_item,
    rule_range,
    rule_value_product,
)


@dataclass(frozen=True, slots=True)
class Example:
    """A phrase quoted from a document, with the parameter it documents (`subject`) and the
    function's other parameters it may name (a relation's peers)."""

    text: str
    subject: str
    others: tuple[str, ...] = ()
    statement: str = ""  # the whole statement, when the clause reads the one before it

    def context(self) -> Context:
        params = (self.subject, *self.others)
        return Context(subject=self.subject, params=params, line=0, statement=self.statement or self.text)


@dataclass(frozen=True, slots=True)
class PhraseRule:
    """One rule on parameter prose. `read` reads a clause into constraints, but only a clause its
    `trigger` finds: a cheap search that spares most rules most clauses. `examples` are phrases
    of real documents it must read."""

    name: str
    trigger: re.Pattern[str]
    read: Rule
    examples: tuple[Example, ...]


# Every rule whose trigger finds a clause reads it, in this order (the order of the constraints).
# The examples' sources are the documents named in the comments (aclnn... under the corpus).
PARAM_RULES: tuple[PhraseRule, ...] = (
    PhraseRule(
        "dtypes",
        re.compile(r"数据类型|dtype|[A-Z][A-Z0-9_]{2}"),
        rule_dtypes,
        (
            Example("数据类型支持BFLOAT16、FLOAT16、FLOAT", "grad"),  # aclnnEmbeddingDenseBackward
            Example("数据类型仅支持FLOAT", "bias"),  # aclnnMatmulCompress
            Example("FLOAT16、FLOAT、BFLOAT16", "out"),  # aclnnMaxPool3D: a sub-bullet, a bare list
        ),
    ),
    PhraseRule(
        "formats",
        re.compile(r"格式|format"),
        rule_formats,
        (
            Example("数据格式支持ND", "x"),  # aclnnFastGeluV2
            Example("format仅支持ND格式", "bias"),  # aclnnConvolution
            Example("数据格式支持ND和NDC1HWC0", "x"),  # aclnnMaxPool3D
        ),
    ),
    PhraseRule(
        "non_contiguous",
        re.compile("连续"),
        rule_non_contiguous,
        (
            Example("支持非连续的Tensor", "self"),  # aclnnLogSoftmaxV2
            Example("其他轴方向不支持非连续的Tensor", "x1"),  # aclnnFusedQuantMatmul
        ),
    ),
    PhraseRule(
        "empty_tensor",
        re.compile("空"),
        rule_empty,
        (
            Example("支持空Tensor", "self"),  # aclnnCelu
            Example("不支持空tensor", "alpha"),  # aclnnForeachSubList
            Example("支持空 Tensor", "gradOutput"),  # aclnnSoftshrinkBackward (experimental)
        ),
    ),
    PhraseRule(
        "optional",
        re.compile(r"可选|空|nullptr|NULL|None|预留|保留|传入|optional|控制是否输出", re.I),
        rule_optional,
        (
            Example("可选参数", "approximate"),  # aclnnGeluV2
            Example("输入可以为空", "bias"),  # aclnnBatchMatmulQuant
            Example("需要传入nullptr", "yScaleOptional"),  # aclnnFusedQuantMatmul
            Example("预留参数", "transposed"),  # aclnnQuantConvolution
            Example("当不需要时传入空指针", "biasOptional"),  # aclnnWeightQuantBatchMatmulNz
            Example("在amsgrad参数为false时可选", "maxGradNormOptional", ("amsgrad",)),  # aclnnApplyAdamW
            Example("传入sorter时", "sorter", ("sortedSequence",)),  # aclnnSearchSorted (ops-math, a review)
            Example("Optional input", "biasOptional"),  # the English documents' direction cell
        ),
    ),
    PhraseRule(
        "null",
        re.compile(r"nullptr|空指针|传参", re.I),
        rule_null,
        (
            Example("目前仅支持nullptr", "restoreShapeOptional"),  # MoeTokenUnpermute (legacy) line 60
            Example("**暂不支持该传参**", "paddingMaskOptional"),  # FlashAttentionUnpaddingScoreGradV2 (legacy)
            Example("当前仅支持传入空指针", "xOffsetOptional"),  # aclnnQuantMatmulDequant
            Example("需要传入nullptr", "yScaleOptional"),  # aclnnFusedQuantMatmul
        ),
    ),
    PhraseRule(
        "not_null_when",
        re.compile(r"nullptr|空指针|控制是否输出", re.I),
        rule_required_with,
        (
            # MoeFinalizeRoutingV2Grad (legacy) line 72: the condition is the clause before
            Example(
                "其也不能是空指针",
                "expandedXOptional",
                ("scalesOptional",),
                statement="当scalesOptional非空指针时，其也不能是空指针",
            ),
        ),
    ),
    PhraseRule(
        "broadcast",
        re.compile(r"broadcast|广播", re.I),
        rule_broadcast,
        (
            Example("需要与out满足broadcast关系", "input", ("out",)),  # aclnnSquaredRelu
            # aclnnSoftshrinkBackward
            Example("shape需要与self和gradOutput的broadcast结果一致", "gradInput", ("self", "gradOutput")),
            # aclnnSiluBackward
            Example("gradOutput、self与gradInput的shape一致且满足broadcast关系", "self", ("gradOutput", "gradInput")),
        ),
    ),
    PhraseRule(
        "same",
        re.compile(r"一致|相同|相等|同"),
        rule_same,
        (
            Example("数据类型与x一致", "out", ("x",)),  # aclnnSituGlu
            Example("shape需要和out的shape保持一致", "self", ("out",)),  # aclnnRReluWithNoise
            Example("数据格式与入参x1一致", "scalar", ("x1",)),  # aclnnForeachAddcmulScalar
            Example("数据类型和shape与out相同", "self", ("out",)),  # aclnnMish
            Example("该参数中所有Tensor的数据类型保持一致", "x"),  # aclnnForeachLog10: within the list
        ),
    ),
    PhraseRule(
        "castable",
        re.compile(r"推导|转换|cast", re.I),
        rule_castable,
        (
            Example("数据类型需要与x1与x2推导之后的数据类型保持一致", "out", ("x1", "x2")),  # aclnnTransposeBatchMatMul
            Example("支持可转换为FLOAT的类型", "beta"),  # aclnnSoftplusBackward
            Example("数据类型与boundaries的数据类型需满足互推导关系", "self", ("boundaries",)),  # aclnnBucketize
        ),
    ),
    PhraseRule(
        "axis",
        re.compile(r"\[\s*-|[(（]\s*-"),
        rule_axis,
        (
            Example("取值范围在[-self.dim(), self.dim()-1]内", "dim", ("self", "out")),  # aclnnGatherV2
            Example("范围为[-selfRef的维度数量, selfRef的维度数量-1]", "dim", ("selfRef",)),  # aclnnScatter
            # aclnnDequantSwigluQuantV2
            Example("activateDim的取值范围是：[-xDim, xDim - 1]（其中xDim指输入x的维度）", "activateDim", ("x",)),
        ),
    ),
    PhraseRule(
        "rank",
        re.compile(r"维|\dD|dim"),
        rule_rank,
        (
            Example("支持1-8维", "grad"),  # aclnnEmbeddingDenseGrad
            Example("维度不超过8维", "self"),  # aclnnLogSoftmaxV2
            Example("数据维度不支持8维以上", "self"),  # issue 25: the same as the column's `0-8`
            Example("最大维度支持8维", "self"),  # issue 25: a maximum, not exactly 8
            Example("shape只支持一维", "groupIndexOptional"),  # aclnnDynamicQuantV3
            Example("要求是一个2D/3D的Tensor", "x", ("k",)),  # MoeGatingTopKSoftmaxV2 (legacy)
            Example("要求是一个2D的shape (NUM_ROWS, K)", "expertIdx"),  # MoeInitRoutingQuant (legacy)
            Example("shape支持1维(n, )或3维(batch, 1, n)", "bias"),  # aclnnQuantMatmulWeightNz
        ),
    ),
    PhraseRule(
        "dim_multiple",
        re.compile(r"倍数|偶数|整除"),
        rule_dim_multiple,
        (
            Example("最后一维必须为偶数", "x"),  # aclnnSwigluGroup
            Example("x的最后一维需要为2的倍数", "x"),  # aclnnSwiGluQuant
            Example("shape必须在入参dim对应的维度上为偶数", "x", ("dim",)),  # aclnnSituGlu
            Example("输入x对应activateDim的维度需要是2的倍数", "x", ("activateDim",)),  # aclnnSwigluMxQuant
            Example("dim对应的self的轴必须是偶数", "dim", ("self",)),  # aclnnGeGlu
        ),
    ),
    PhraseRule(
        "dim_equal",
        re.compile(r"第\s*[0-9一二三四五六七八]\s*个?\s*维|最后一维|最后一个维度|尾轴|末轴"),
        rule_dim_equal,
        (
            Example("最后一维需要和x的最后一维相同", "gamma", ("x",)),  # aclnnLayerNormQuant
            Example("shape与totalSum的第二维一致", "mean", ("totalSum",)),  # aclnnSyncBatchNormGatherStats
            Example("shape第一维长度与numQueries一致", "sampledTokenIds", ("numQueries",)),  # aclnnAdvanceStep
            Example("其第1维的大小等于indices的第1维的大小", "updates", ("indices",)),  # aclnnInplaceQuantScatter
            Example("一维且数值与weight第一维相等", "bias", ("weight",)),  # aclnnConvDepthwise2d
            Example(  # aclnnNLLLoss2dBackward
                "target的第0维、第1维、第2维的shape分别与self的第0维、第2维、第3维的shape一致", "target", ("self",)
            ),
        ),
    ),
    PhraseRule(
        "numel_at_least",
        re.compile(r"shape\s*size", re.I),
        rule_numel_at_least,
        (
            Example("shape size大于等于入参`x`的shape size", "out", ("x",)),  # aclnnForeachAbs
            Example("shape size大于等于入参`x1`的shape size", "out", ("x1", "x2")),  # aclnnForeachAddList
        ),
    ),
    PhraseRule(
        "min_rank",
        re.compile(r"(?:不小于|大于等于|至少|大于)\s*[0-9一二三四五六七八]"),
        rule_min_rank,
        (
            Example("不小于2维", "x"),  # aclnnDequantSwigluQuantV2
            Example("大于1维", "x"),  # aclnnDynamicQuantV2
            Example("Tensor的维度必须大于0", "self", ("dim",)),  # aclnnGlu
            Example("且x的维数必须大于1维", "x"),  # aclnnSwiGluQuant
        ),
    ),
    PhraseRule(
        "enum",
        re.compile(r"\d|true|false"),
        rule_enum_general,
        (
            Example("取值0或1", "approximate"),  # aclnnGeluV2
            Example("仅支持false", "useLocking"),  # aclnnApplyFtrl
            Example("renorm的值只支持0和1", "renorm", ("x",)),  # MoeGatingTopKSoftmaxV2 (legacy)
            Example("输入范围为{35, 36, 40, 41}", "dstType"),  # aclnnAddRmsNormDynamicMxQuant
            Example("支持0(none)|1(mean)|2(sum)|3(batchmean)", "reduction"),  # aclnnKlDivBackward
            Example("0：KEEP_DTYPE", "cubeMathType"),  # aclnnConvTbcBackward: one item of a list
            Example("支持配置为0、1、2", "implMode"),  # aclnnLayerNormWithImplMode
            Example("目前支持可选值：0、1", "version"),  # aclnnFastBatchNormBackward
            Example("dstType的取值范围是:[35, 36, 40, 41]", "dstType"),  # aclnnSwigluMxQuant
            Example("取值范围：{1, 0}", "scaleAlg"),  # aclnnSwigluMxQuantWithDualAxis
            Example("当前版本仅支持false", "keepDims"),  # aclnnQuantMatmulReduceSumWeightNz
            Example("当前仅支持不转置false", "queryTranspose"),  # SwinAttentionScoreQuant (legacy)
            Example("需要传入0", "groupSize"),  # aclnnQuantMatmulReduceSumWeightNz
            Example("值=1", "groups"),  # aclnnQuantConvolutionWeightNz
            Example("传入false即可", "transposed", statement="目前暂不支持，传入false即可。"),  # aclnnQuantConvolution
            Example("仅支持取值0.0", "maxDtypeValue"),  # aclnnGroupedDynamicMxQuantWithDualAxis
            Example("支持 0/1/2：0-none", "reduction"),  # aclnnBinaryCrossEntropyWithLogits
            Example("则groupType取值-1：不分组", "groupType"),  # GroupedMatmulV3 (legacy): the list's first item
        ),
    ),
    PhraseRule(
        "value_product",
        re.compile("产品"),
        rule_value_product,
        (Example("Atlas 推理系列产品只支持1('tanh')", "approximate", ("self",)),),  # aclnnGeGluBackward
    ),
    PhraseRule(
        "clamp",
        re.compile("当"),
        rule_clamp,
        (Example("当λ小于0时，按0计算", "lambd"),),  # aclnnHardshrinkBackward
    ),
    PhraseRule(
        "range",
        re.compile(r"\d|非负|正|零"),
        rule_range,
        (
            Example("必须大于0", "limit"),  # aclnnClippedSwiglu
            Example("groups数大于零", "groups", ("inC",)),  # aclnnDeformableConv2d
            Example("各元素均大于零", "stride"),  # aclnnDeformableConv2d: each element of the array
            Example("数值在[0.0, 1.0]之间", "labelSmoothing"),  # aclnnCrossEntropyLoss
            Example("值应≥0", "padding"),  # aclnnQuantConvolution
            Example("仅支持非负索引", "indices"),  # aclnnInplaceScatterUpdate
            Example("大小应该在[0,2147483647]的范围内", "pad"),  # aclnnConvTbcBackward
            Example("groups取值范围为[1,65535]", "groups", ("input",)),  # aclnnConvolution
            Example("取值范围是小于200000000的正整数", "numSeqs"),  # aclnnAdvanceStep: [1, 2e8)
            # aclnnAvgPool2dBackward
            Example("Atlas 推理系列产品、Atlas 训练系列产品：支持范围为[-255,255]", "divisorOverride"),
        ),
    ),
)
_BY_NAME = {rule.name: rule for rule in PARAM_RULES}

# A conditional clause holds only sometimes: it may still say the parameter may be null, that a
# value is clamped, or name one documented value (`sparseMode为0时，...`).
CONDITIONAL_RULES: tuple[PhraseRule, ...] = (
    _BY_NAME["optional"],
    PhraseRule(
        "enum_item",
        re.compile(r"\d"),
        rule_enum_item,
        (
            Example("sparseMode为2时", "sparseMode", ("query",)),  # PromptFlashAttentionV3: `sparseMode为2时，代表…`
            Example("1：表示累加操作", "reduce"),  # aclnnScatterValue
        ),
    ),
    _BY_NAME["clamp"],
)

# Clauses that describe rather than constrain (kept in the description, not counted).
_DESCRIPTIVE = re.compile(
    r"^(?:Device侧|Host侧|公式中|表示|返回|输入|输出|计算|对应|作为|指定|在Device侧"
    r"|op执行器|反向传播|正向|用于|即)|侧的acl|公式中的"
)
# A clause stating a requirement (`当dropPadMode是1时，expertCapacity必须大于0`, `expertNum必须等于E`)
# is a statement even where nothing before it was: unread, it is named as not checked, never
# folded into the description. A clause opening as pure description (`表示需要计算的维度`) stays one.
REQUIREMENT = re.compile(
    r"必须|要求|不能|不可|不得|仅支持|只支持|不支持|仅可|只能|取值范围|应(?:该|当|为|是|满足|与|大于|小于|等于|在)"
    # `需要满足…`, `shape需要与x一致`, not `需要做Softmax的轴`, `是否需要输出dbeta`, `零表示不需要转置`
    r"|(?<!是否)(?<!不)需要?(?:满足|与|和|为|是|等于|大于|小于|保持|一致|不超过|符合|配合|在)"
    # a bound with its value, not a situation (`小于等于0时up路径不进行变换`)
    r"|(?:大于|小于|等于|不超过|不小于|不大于|≥|≤|>=|<=)\s*[-+]?\d(?![\d.]*\s*(?:时|的?情况|的?场景))"
)
_PURE_DESCRIPTION = re.compile(
    r"^(?:[(（][^()（）]{0,30}[)）]\s*[：:]\s*)?(?:表示|公式中|Device侧|Host侧|在Device侧|即|用于|op执行器|返回)"
)
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[A-Za-z0-9_])|(?<=[A-Za-z0-9_])\s+(?=[\u4e00-\u9fff])")


# what the parameter is, and a bound of its value after `且` (legacy/MoeInitRoutingQuant.md activeNum)
_DESCRIBED_BOUND = re.compile(r"^表示[^，,；;]*?且(?P<bound>(?:大于等于|不小于|大于|小于等于|不大于|小于)\s*-?\d+)$")


def reads_as_description(clause: str) -> bool:
    """The clause opens as a description does (`表示…`, `公式中的x`, `Device侧的aclTensor`)."""
    return bool(_DESCRIPTIVE.search(clause))


@lru_cache(maxsize=TEXT_CACHE)
def normalize_spacing(clause: str) -> str:
    """The clause as rules read it: `空 Tensor` as `空Tensor` (the text kept stays as written)."""
    return _CJK_SPACE.sub("", clause)


def classify(
    statement: str, ctx: Context, *, descriptive_ok: bool = False, typed_only: bool = False
) -> tuple[list[Constraint], list[str]]:
    """Typed constraints of one statement, and the clauses it leaves as description.

    With `descriptive_ok`, clauses that read as description are returned as such instead of
    as unclassified "text" constraints. With `typed_only`, no "text" constraint is returned
    (nor made: a caller that drops them spares their making).
    """
    if span := read(enum_span, statement, ctx):
        [(head, end, enum)] = span
        before = classify(statement[:head], ctx, descriptive_ok=descriptive_ok, typed_only=typed_only)
        after = classify(statement[end:], ctx, typed_only=typed_only)
        return before[0] + [enum] + after[0], before[1]
    found: list[Constraint | None] = []  # None: an untyped clause whose constraint is not made
    description: list[str] = []
    if not ctx.statement:
        ctx = ctx.within(statement)
    situation = False  # the clause before holds only in some situation (`per_tensor模式下…`)
    for clause in clauses(statement):
        # A conditional clause (当…时, 如果…) holds only sometimes: only a clamp, an optional
        # pointer or a documented value read it; so does one that continues it (`，且…`).
        continued = situation and bool(CONTINUATION.match(clause))
        conditional = continued or bool(CONDITION_HEAD.match(clause) or is_conditional(clause))
        situation = continued or situational(clause)
        key = normalize_spacing(clause)
        typed = [
            c if c.text == clause else c.model_copy(update={"text": clause})
            for rule in _triggered(key, conditional)
            for c in read(rule.read, key, ctx)
        ]
        if typed:
            found.extend(typed)
        elif (
            found
            and (last := found[-1]) is not None
            and last.kind == "dtypes"
            and (more := _dtype_continuation(clause))
        ):
            # `数据类型支持fp16，fp32，bf16`: the list goes on past the clause's comma
            found[-1] = last.model_copy(update={"values": tuple(dict.fromkeys(last.values + more))})
        elif found and (last := found[-1]) is not None and (listed := _dtypes_after_same(last, clause)):
            # `数据类型同gradY，支持FLOAT16、BFLOAT16、FLOAT32`: the set, its subject the clause before's
            found.append(constraint("dtypes", clause, ctx, values=listed))
        elif descriptive_ok and _described(clause, key, found):
            description.append(clause)
            if bound := _DESCRIBED_BOUND.match(key):  # `表示总的最大处理row数且大于等于0`: the value's bound
                read_bound = classify(bound.group("bound"), ctx, typed_only=True)[0]
                found.extend(c.model_copy(update={"text": clause}) for c in read_bound if c.kind == "range")
        else:
            found.append(None if typed_only else constraint("text", clause, ctx))
    return [c for c in found if c is not None], description


def states_requirement(clause: str) -> bool:
    """Whether an untyped clause states a requirement rather than describes (`必须包含6个`)."""
    key = normalize_spacing(clause)
    return bool(REQUIREMENT.search(key)) and not _PURE_DESCRIPTION.match(key)


def _described(clause: str, key: str, found: list[Constraint | None]) -> bool:
    """Whether a bullet's untyped clause continues its description: one opening as description
    does, or any before the first rule, but for a clause stating a requirement."""
    if _PURE_DESCRIPTION.match(key):
        return True
    return bool(_DESCRIPTIVE.search(clause) or not found) and not REQUIREMENT.search(key)


@lru_cache(maxsize=TEXT_CACHE)
def _triggered(key: str, conditional: bool) -> tuple[PhraseRule, ...]:
    """The rules whose trigger finds the clause `key`, in table order."""
    return tuple(rule for rule in (CONDITIONAL_RULES if conditional else PARAM_RULES) if rule.trigger.search(key))


_SUPPORTED = re.compile(r"^(?:仅|只)?支持\s*")


def _dtypes_after_same(last: Constraint, clause: str) -> tuple[str, ...]:
    """The dtypes a `支持…` clause lists after `数据类型同x` (a clause of nothing but dtype names)."""
    head = _SUPPORTED.match(clause)
    if last.kind != "same_dtype" or "数据类型" not in last.text or not head:
        return ()
    return _dtype_continuation(clause[head.end() :])


def _dtype_continuation(clause: str) -> tuple[str, ...]:
    """The dtypes of a clause that is nothing but dtype names (any case), else ()."""
    tokens = DTYPE_TOKEN.findall(clause)
    if not tokens or DTYPE_TOKEN.sub("", clause).strip(" 、,，/和及") != "":
        return ()
    names = [vocab.dtype(t) for t in tokens]
    return tuple(n for n in names if n) if all(names) else ()
