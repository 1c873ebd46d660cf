"""Every statement of a function enforced or named: each error condition of the model and each
parameter constraint is a rule of the generated Spec, checked on the host or not checked with a
reason; none is dropped silently. Counted per function over the whole corpus (the model's
statements are the truth here: the parser's reading, not the code generator's)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from specgen.codegen.lower import operator_code
from specgen.codegen.runtime._validate import CHECKED_KINDS
from specgen.codegen.statements import account
from specgen.model import Constraint, Function, OperatorDoc, Param
from specgen.parse import parse_paths
from tests.validator_calls import lowered_functions

SPECS = Path(__file__).resolve().parents[1] / "specs"
WRAPPER_LESS = ("workspace_size", "executor", "workspace", "stream")  # not the caller's arguments


@pytest.fixture(scope="module")
def corpus_docs(corpus) -> list[OperatorDoc]:
    return parse_paths([corpus / "docs"])


def _dropped(fn: Function, rules, statements) -> list[str]:
    """The statements of `fn` no rule enforces or names, each as `param: text` or `error: text`."""
    by_id = {r.id: r for r in rules}
    dropped = []
    for error in fn.errors:
        if not any(r.condition == error.condition and r.code == error.code for r in rules):
            dropped.append(f"error {error.code} (line {error.line}): {error.condition}")
    accounted = Counter((s.param, s.kind, s.text) for s in statements)
    for p in fn.params:
        if p.kind in WRAPPER_LESS:
            continue
        for c in p.constraints:
            key = (p.name, c.kind, c.text)
            if accounted[key] <= 0:
                dropped.append(f"{p.name} (line {c.line}): {c.kind}: {c.text}")
            accounted[key] -= 1
    for s in statements:
        rule = by_id.get(s.rule)
        if s.honoured:
            continue
        if rule is None:
            dropped.append(f"{s.param}: {s.text} names rule {s.rule!r}, which the Spec does not hold")
        elif rule.host != s.enforced or (rule.host and rule.kind not in CHECKED_KINDS):
            dropped.append(f"{s.param}: {s.text} is said enforced by {rule.id}, which is not checked")
        elif not rule.host and not rule.reason:
            dropped.append(f"{s.param}: {s.text} is not checked and no reason is given ({rule.id})")
    return dropped


@pytest.mark.slow
def test_every_statement_is_enforced_or_named(corpus_docs):
    functions = enforced = unchecked = honoured = 0
    silent: list[str] = []
    for doc, fn in lowered_functions(corpus_docs):
        functions += 1
        cases = fn.cases
        silent += [f"{doc.source} {fn.name}: {d}" for d in _dropped(fn.function, cases.rules, cases.statements)]
        honoured += sum(s.honoured for s in cases.statements)
        enforced += sum(r.host for r in cases.rules)
        unchecked += sum(not r.host for r in cases.rules)
    print(f"\n{functions} functions: {enforced} rules checked, {unchecked} named as not checked, {honoured} honoured")
    assert functions > 400
    assert silent == [], "\n".join(silent[:50])


def test_a_constraint_no_rule_reads_is_named_with_its_reason():
    """HardshrinkBackward's λ clamps ("当λ小于0时，按0计算"): not a rejection, so named, not enforced."""
    (doc,) = parse_paths([SPECS / "aclnnHardshrinkBackward.md"])
    fn = operator_code(doc, doc.source).functions[0]
    named = {r.condition: r for r in fn.cases.rules if not r.host}
    assert "当λ小于0时，按0计算" in named
    assert "clamps" in named["当λ小于0时，按0计算"].reason
    assert _dropped(fn.function, fn.cases.rules, fn.cases.statements) == []


def test_a_pointer_required_null_in_one_situation_is_named_as_such(corpus):
    """aclnnDynamicQuantV3 quantMode: `当quantMode取"pertensor"或"perchannel"时，groupIndexOptional必须是
    nullptr` is no second set of quantMode's values; no check reads a conditional null requirement."""
    [path] = (corpus / "docs" / "ops-nn").glob("**/dynamic_quant/docs/aclnnDynamicQuantV3.md")
    [doc] = parse_paths([path])
    fn = operator_code(doc, doc.source).functions[0]
    text = '当quantMode取"pertensor"或"perchannel"时，groupIndexOptional必须是nullptr'
    [rule] = [r for r in fn.cases.rules if r.condition == text]
    assert not rule.host and "conditional null requirement" in rule.reason
    # `如果isSymmetrical是true，offsetOut需要传nullptr` (offsetOut's row) reads as a permission: optional
    assert not [r for r in fn.cases.rules if "需要传nullptr" in r.condition]


@pytest.mark.parametrize(
    ("stem", "text", "kind"),
    [
        # `…默认为0，表示和query的head个数相等；numHeads与numKeyValueHeads的比值不能大于64。`: after the
        # semicolon, a rule, no longer the bullet's description (it was dropped silently)
        ("IncreFlashAttentionV2", "numHeads与numKeyValueHeads的比值不能大于64", "ratio"),
        # `限制：需要满足numHeads整除numKeyValueHeads，numHeads与numKeyValueHeads的比值不能大于64，…`
        ("PromptFlashAttentionV3", "限制：需要满足numHeads整除numKeyValueHeads", "multiple"),
    ],
)
def test_a_ratio_of_two_values_is_checked(corpus, stem, text, kind):
    (doc,) = parse_paths([corpus / "docs" / "legacy" / f"{stem}.md"])
    fn = operator_code(doc, doc.source).functions[0]
    [rule] = [r for r in fn.cases.rules if r.condition == text]
    assert rule.host and rule.kind == kind and rule.params == ("numHeads", "numKeyValueHeads")
    (kv,) = [p for p in fn.function.params if p.name == "numKeyValueHeads"]
    assert "比值" not in kv.description
    # the clause before the semicolon stays the description
    assert "表示和query的head个数相等" in kv.description or stem != "IncreFlashAttentionV2"


def test_a_ratio_held_in_a_situation_is_named_with_its_reason():
    """Conditional, the relation stays text: named unchecked with the reason, not enforced."""
    p = Param(name="numKeyValueHeads", c_type="int64_t", kind="int", direction="in", line=1)
    c = Constraint(kind="text", text="当layout为BNSD时，numHeads与numKeyValueHeads的比值不能大于64", line=1)
    p = p.model_copy(update={"constraints": (c,)})
    ([rule], [statement]) = account([p], [])
    assert not rule.host and "no reader types" in rule.reason and statement.rule == rule.id


def test_a_bool_the_document_allows_one_value_of_is_checked(corpus):
    """MoeTokenUnpermute paddedMode `目前仅支持false`: the spec held enum=(False,) but the
    statement was named `cannot check as stated` and paddedMode=True was accepted."""
    (doc,) = parse_paths([corpus / "docs" / "legacy" / "MoeTokenUnpermute.md"])
    fn = operator_code(doc, doc.source).functions[0]
    [rule] = [r for r in fn.cases.rules if r.condition == "目前仅支持false"]
    assert rule.host and rule.kind == "enum"
    [case] = [c for c in fn.cases.cases if c.rule == rule.id]
    assert dict(case.args)["paddedMode"].literal == ("value", True)
    # the document's own call (false) passes: its valid case holds paddedMode=False
    assert dict(fn.cases.valid.args)["paddedMode"].literal == ("value", False)


def test_a_dtype_row_of_the_inputs_and_outputs_checks_every_tensor(corpus):
    """MoeFinalizeRoutingV2Grad `输入和输出的数据类型和格式不在支持的范围内` names every tensor
    collectively; it was named unchecked as `the condition names no parameter`."""
    (doc,) = parse_paths([corpus / "docs" / "legacy" / "MoeFinalizeRoutingV2Grad.md"])
    fn = operator_code(doc, doc.source).functions[0]
    row = "输入和输出的数据类型和格式不在支持的范围内"
    checked = {r.kind: r for r in fn.cases.rules if r.condition == row}
    assert set(checked) == {"dtypes", "formats"} and all(r.host for r in checked.values())
    assert {"gradY", "biasOptional", "gradExpandedXOut"} <= set(checked["dtypes"].params)
    # the shape-and-value row of the same subject stays unchecked (status 561002)
    [shapes] = [r for r in fn.cases.rules if r.condition == "输入和输出的shape、取值不满足参数说明中的要求"]
    assert not shapes.host


def test_a_value_the_documented_values_leave_out_is_rejected_by_their_set(corpus):
    """FlashAttentionUnpaddingScoreGradV2 `sparseModeOptional为5时，**不支持**` among the items 0-8."""
    (doc,) = parse_paths([corpus / "docs" / "legacy" / "FlashAttentionUnpaddingScoreGradV2.md"])
    fn = operator_code(doc, doc.source).functions[0]
    [statement] = [s for s in fn.cases.statements if s.text == "sparseModeOptional为5时，不支持"]
    assert statement.enforced and statement.rule == "implied_enum_sparseModeOptional"
    [spec] = [p for p in fn.cases.params if p["name"] == "sparseModeOptional"]
    assert 5 not in spec["enum"] and {0, 4, 6, 8} <= set(spec["enum"])


def test_a_statement_an_output_rule_reads_is_enforced_by_it(corpus):
    """aclnnDynamicQuantV3 (ops-nn): scaleOut's three `quantMode是…时，shape为…` items are the cases
    of its shape rule; of yOut's, `其他数据类型时shape和x保持一致` is its shape rule, which holds
    where yOut is not INT32, so the INT32 item is read but left unchecked; the INT4 item is named as a
    requirement in one situation."""
    [path] = (corpus / "docs" / "ops-nn").glob("**/dynamic_quant/docs/aclnnDynamicQuantV3.md")
    [doc] = parse_paths([path])
    fn = operator_code(doc, doc.source).functions[0]
    by_text = {(s.param, s.text): s for s in fn.cases.statements}
    for text in ("x的shape剔除最后一维", "shape为(1,)", "x的shape剔除倒数第二维"):
        [s] = [s for (param, said), s in by_text.items() if param == "scaleOut" and said.endswith(text)]
        assert (s.rule, s.enforced) == ("implied_output_shape_scaleOut", True)
    other = by_text[("yOut", "其他数据类型时shape和x保持一致")]
    assert (other.rule, other.enforced) == ("implied_output_shape_yOut", True)
    rules = {r.id: r for r in fn.cases.rules}
    packed = by_text[("yOut", "数据类型为INT32时，最后一维是x最后一维的1/8")]
    assert not packed.enforced and "holds where yOut is not INT32" in rules[packed.rule].reason
    int4 = by_text[("yOut", "数据类型为INT4时，最后一维的大小必须能被2整除")]
    assert not int4.enforced and "shape requirement stated for one situation" in rules[int4.rule].reason
    assert _dropped(fn.function, fn.cases.rules, fn.cases.statements) == []


def test_a_statement_is_read_by_an_output_rule_as_whole_clauses_only():
    from specgen.codegen.statements import _within

    assert _within("shape为1", "维度为1。shape为1")
    assert not _within("shape为1", "shape为1维")  # a clause of its own, not a prefix of another
    assert not _within("为1", "shape为1")


def test_the_constraints_section_is_named_line_by_line(corpus):
    """aclnnCtcLoss's 约束说明 bounds targets, inputLengths and targetLengths: no rule reads that
    section, so each bullet is named as not checked, at its own line, and so is the paragraph
    after them (`若不满足前三条值域约束，…`); determinism is no rule on the arguments, named as such."""
    path = corpus / "docs" / "ops-nn/loss/ctc_loss_v2/docs/aclnnCtcLoss.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    (doc,) = parse_paths([path])
    (fn,) = operator_code(doc, doc.source).functions
    named = [r for r in fn.cases.rules if r.id.startswith("notes_") and "determinism" not in r.reason]
    determinism = [r.condition for r in fn.cases.rules if r.kind == "notes" and "determinism" in r.reason]
    assert all("确定性" in said for said in determinism) and determinism
    assert [r.condition.split("的")[0] for r in named] == [
        "targets",
        "inputLengths",
        "targetLengths",
        "targetLengths中",
        "若不满足前三条值域约束，CPU/GPU可能存在越界行为，导致negLogLikelihoodOut和logAlphaOut",
    ]
    for rule in named:
        assert not rule.host
        line = int(rule.reason.split("line ")[1].split(")")[0])
        assert rule.condition[:12] in lines[line - 1].replace("`", "")


VERDICTS = Path(__file__).with_name("statement_verdicts.json")


def test_the_hand_read_verdicts_hold(corpus):
    """10 random operators read by hand (tests/statement_verdicts.json): each listed rule is still
    enforced, or still named with a reason, as the reading found."""
    record = json.loads(VERDICTS.read_text(encoding="utf-8"))
    rules = {}
    for rel in record["operators"]:
        (doc,) = parse_paths([corpus / "docs" / rel])
        for fn in operator_code(doc, doc.source).functions:
            rules.update({(fn.name, r.id): r for r in fn.cases.rules})
    wrong = []
    for v in record["verdicts"]:
        rule = rules.get((v["function"], v["rule"]))
        if rule is None or rule.host != (v["verdict"] == "enforced") or (not rule.host and not rule.reason):
            wrong.append(f"{v['function']} {v['rule']}: read as {v['verdict']} ({v['why']}), now {rule}")
    assert wrong == [], "\n".join(wrong)


def test_a_constraints_bullet_an_output_rule_reads_is_enforced_not_listed(corpus):
    """aclnnRotateQuant (ops-nn) 约束说明: `当yOut的输出类型为int8时，y的shape必须和x相同(M, N)。` and the
    int32 line are the cases of yOut's shape rule: counted as enforced by it, not named as not
    checked; `x和rotation的数据类型必须相同。` no rule reads stays named. aclnnRmsNormQuant's
    `当y的数据类型为INT32时，y的最后一维必须是x最后一维的1/8。` is read by y's rule only as the dtype it
    is not held for: still not checked, with that reason."""
    ops = corpus / "docs" / "ops-nn"
    [doc] = parse_paths([ops / "matmul/rotate_quant/docs/aclnnRotateQuant.md"])
    fn = operator_code(doc, doc.source).functions[0]
    rules = {r.id: r for r in fn.cases.rules}
    int8 = "当yOut的输出类型为int8时，y的shape必须和x相同(M, N)。"
    int32 = "当yOut的输出类型为int32时，y的shape必须为(M, N//8)。"
    read = {s.text: s for s in fn.cases.statements if s.kind == "notes"}
    for text in (int8, int32):
        assert (read[text].rule, read[text].enforced) == ("implied_output_shape_yOut", True)
        assert rules["implied_output_shape_yOut"].host
    named = [r.condition for r in fn.cases.rules if r.kind == "notes"]
    assert int8 not in named and int32 not in named
    assert "x和rotation的数据类型必须相同。" in named
    assert _dropped(fn.function, fn.cases.rules, fn.cases.statements) == []

    [doc] = parse_paths([ops / "norm/rms_norm_quant/docs/aclnnRmsNormQuant.md"])
    fn = operator_code(doc, doc.source).functions[0]
    [packed] = [r for r in fn.cases.rules if r.kind == "notes" and "1/8" in r.condition]
    assert not packed.host and "holds where y is not INT32" in packed.reason


def test_a_shape_row_about_one_output_against_its_rule_is_checked_as_that_rule():
    """aclnnSituGlu (ops-nn) rule7 `out的维度数与x不一致，或out在dim对应维度上的大小不等于x的一半`: every
    call it rejects gives out another shape than its rule (`shape在入参dim对应的维度上为x的一半`) does, so
    the row is checked as that rule, not named as unchecked. Counter-cases: an alternative about
    another tensor (`x在dim对应维度上不能被2整除`), or a tensor the rule does not read, stay named."""
    from specgen.codegen.cases import NOT_ON_HOST, _held_by_outputs, plain_rule
    from specgen.codegen.runtime._validate import Rule
    from specgen.model import Param, ShapeRule
    from tests.param_kinds import INT, OUT, TENSOR

    dims = ("*x.shape[:dim % rank(x)]", "x.shape[dim % rank(x)] / 2", "*x.shape[dim % rank(x) + 1:]")
    shape = ShapeRule(
        kind="explicit", dims=dims, text="shape在入参dim对应的维度上为x的一半，其他维度与x一致。", line=187
    )
    params = [Param(name="x", **TENSOR), Param(name="y", **TENSOR), Param(name="dim", **INT)]
    params.append(Param(name="out", shape_rule=shape, **OUT))
    held = Rule(
        161002, "output_shape", ("out", "x"), shape.text, id="implied_output_shape_out", derive=plain_rule(shape)
    )

    def row(condition: str, names: tuple[str, ...]) -> Rule:
        return Rule(161002, "shape", names, condition, host=False, reason=NOT_ON_HOST["shape"], id="rule7_shape")

    [checked] = _held_by_outputs([row(SITU_GLU_ROW, ("out", "dim", "x"))], params, [held])
    assert (checked.kind, checked.host, checked.derive) == ("output_shape", True, held.derive)
    other = row("out的维度数与x不一致，或x在dim对应维度上不能被2整除", ("out", "dim", "x"))
    unread = row("out与y的shape不一致", ("out", "y"))
    assert _held_by_outputs([other, unread], params, [held]) == [other, unread]


SITU_GLU_ROW = "out的维度数与x不一致，或out在dim对应维度上的大小不等于x的一半"


def test_situ_glu_names_no_shape_row_its_output_rule_checks(corpus):
    [doc] = parse_paths([corpus / "docs/ops-nn/activation/situ_glu/docs/aclnnSituGlu.md"])
    fn = operator_code(doc, doc.source).functions[0]
    # the row's rank part is rule6_rank; its shape part, once named as prose, is out's rule
    [row] = [r for r in fn.cases.rules if r.condition == SITU_GLU_ROW and r.id == "rule7_shape"]
    assert row.host and row.kind == "output_shape"
    assert not [r for r in fn.cases.rules if r.id == "implied_output_shape_out"]  # the row holds it
    assert _dropped(fn.function, fn.cases.rules, fn.cases.statements) == []
