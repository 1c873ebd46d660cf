"""Foreach tensor lists (audit 43: aclnnForeachAddcdivScalarList, aclnnForeachNorm). A list's tensors
have the shape of another list's at the same place (x1 l.94 `shape与入参`x2`、`x3`的shape一致`), checked
under the status of the row naming those lists' shapes (`561002 | x1、x2、x3、out的shape不满足约束`); an
element count said of an output list holds for each of its tensors (aclnnForeachNorm l.208 `out的shape
size不为1`), and the wrapper allocates such a list one tensor per tensor of its input list."""

from __future__ import annotations

import dataclasses

import numpy as np

from specgen.codegen.runtime import _shapes
from tests.validator_calls import _call, first_violation, ops_nn, rejected

ADDCDIV_SCALAR_LIST = "foreach/foreach_addcdiv_scalar_list/docs/aclnnForeachAddcdivScalarList.md"
NORM = "foreach/foreach_norm/docs/aclnnForeachNorm.md"


def _reshaped(items: list, index: int, shape: tuple[int, ...]) -> list:
    """The list with its tensor `index` given another shape (its dtype and format kept)."""
    return [dataclasses.replace(d, shape=shape) if i == index else d for i, d in enumerate(items)]


def _valid(fn) -> dict[str, object]:
    return _call(fn, {})[1]


def test_lists_of_one_shape_place_by_place(corpus):
    fn = ops_nn(corpus, ADDCDIV_SCALAR_LIST)
    [rule] = [r for r in fn.cases.rules if r.kind == "same_shape"]
    assert rule.host and rule.params == ("x1", "x2", "x3") and rule.code == 561002
    valid = _valid(fn)
    # the document's own call: tensors of two shapes, each list alike place by place
    assert [d.shape for d in valid["x1"]] == [(2, 3), (1, 3)] == [d.shape for d in valid["x2"]]
    assert rejected(fn) == []
    # x2[1] of x2[0]'s shape: every shape x1 holds is still there, but not at that place
    assert first_violation(fn, x2=_reshaped(valid["x2"], 1, (2, 3))) == (rule.id, 561002)
    assert first_violation(fn, x3=_reshaped(valid["x3"], 0, (2, 4))) == (rule.id, 561002)
    # the statements of x1, x2, x3 are the rule's, no longer listed as not checked
    said = [s for s in fn.cases.statements if s.kind == "same_shape"]
    assert [s.param for s in said] == ["x1", "x2", "x3"] and all(s.rule == rule.id and s.enforced for s in said)
    assert [c.skip for c in fn.cases.cases if c.rule == rule.id] == [""]


def test_every_foreach_document_keeps_its_own_call(corpus):
    """Every foreach document that ties lists' shapes (they share the phrasings): its own call
    passes, and its subject list with the first tensor reshaped is refused by the rule first, with the
    status of the row naming those lists' shapes where one does, else 161002."""
    folder = corpus / "docs" / "ops-nn" / "foreach"
    checked = 0
    for path in sorted(folder.glob("*/docs/aclnnForeach*.md")):
        fn = ops_nn(corpus, str(path.relative_to(corpus / "docs" / "ops-nn")))
        for rule in (r for r in fn.cases.rules if r.kind == "same_shape"):
            assert rule.host, (fn.name, rule.reason)
            assert rejected(fn) == [], fn.name
            subject = rule.params[0]
            # one element in three dimensions: no output falls short of it (`shape size大于等于`)
            broken = _reshaped(_valid(fn)[subject], 0, (1, 1, 1))
            assert first_violation(fn, **{subject: broken}) == (rule.id, rule.code), fn.name
            rows = [r for r in fn.cases.rules if r.id.startswith("rule") and "shape" in r.condition]
            named = [r.code for r in rows if set(rule.params) <= set(r.params)]
            assert rule.code == (named[0] if named else 161002), fn.name
            checked += 1
    assert checked >= 20


def test_a_list_element_count_holds_for_each_tensor(corpus):
    fn = ops_nn(corpus, NORM)
    rule = next(r for r in fn.cases.rules if r.id == "rule4_numel")
    assert rule.host and rule.params == ("out",) and rule.code == 561002
    valid = _valid(fn)
    assert [d.shape for d in valid["out"]] == [(1, 1), (1, 1)] and rejected(fn) == []
    assert first_violation(fn, out=_reshaped(valid["out"], 1, (1, 2))) == ("rule4_numel", 561002)
    assert first_violation(fn, out=_reshaped(valid["out"], 0, (0, 1))) == ("rule4_numel", 561002)
    # `shape size为1` (l.140) is that rule's, no longer listed as not checked
    [said] = [s for s in fn.cases.statements if s.text == "shape size为1"]
    assert said.rule == "rule4_numel" and said.enforced


def test_an_output_list_of_one_element_per_input_tensor_is_allocated(corpus):
    fn = ops_nn(corpus, NORM)
    [out] = [a for a in fn.wrapper if a.name == "out"]
    assert out.allocation is not None and not out.allocation.refusal
    # one element each (`shape size为1`, l.140), at the rank of x's tensor there: the document's
    # call gives (1, 1) for its 2-D x
    x = [np.zeros((2, 3), np.float16), np.zeros((1, 3), np.float16), np.zeros((4,), np.float16)]
    made = _shapes.allocate("out", out.allocation.shape, out.allocation.dtype, {"x": x}, each=True)
    assert [(a.shape, a.dtype) for a in made] == [((1, 1), np.float16), ((1, 1), np.float16), ((1,), np.float16)]
    # a list of another length is allocated as long; x's dtype is out's
    made = _shapes.allocate("out", out.allocation.shape, out.allocation.dtype, {"x": x[:1]}, each=True)
    assert [(a.shape, a.dtype) for a in made] == [((1, 1), np.float16)]
