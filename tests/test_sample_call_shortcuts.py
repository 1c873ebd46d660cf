"""Guards of the sample reader's shortcuts (specgen.parse.sample_call and specgen.parse.sample): each gives what the
plain way gives. Token kinds are told from first characters; a statement is read only when a
name it holds is asked about; a variable read twice in one frame is not read again. These
tests compare each with the plain way, on a sample and at every budget and depth."""

from __future__ import annotations

import pytest

from specgen.parse import sample_call as sc
from specgen.parse.sample import evaluator, program, tokens, values
from tests.test_sample_call import HELPER

SAMPLE = (
    HELPER  # the prelude of the documents' samples (CHECK_RET, GetShapeSize, CreateAclTensor)
    + """\
#define DIMS 2

int64_t Twice(int64_t x) { return x * 2; }

int main() {
  std::vector<int64_t> aShape = {Twice(2), DIMS};
  std::vector<int64_t> bShape{3, 1 + 1};
  void* aAddr = nullptr;
  void* bAddr = nullptr;
  aclTensor* a = nullptr;
  aclTensor* b = nullptr;
  std::vector<float> aHost(8, 0);
  auto ret = CreateAclTensor(aHost, aShape, &aAddr, aclDataType::ACL_FLOAT, &a);
  CHECK_RET(ret == 0, return ret);
  ret = CreateAclTensor(aHost, bShape, &bAddr, ACL_INT32, &b);
  std::vector<aclTensor*> parts{a, b};
  aclTensorList* list = aclCreateTensorList(parts.data(), parts.size());
  float alphaValue = 1.5f;
  aclScalar* alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
  std::vector<int64_t> dims = {0, 1};
  if (DIMS > 1) {
    dims.push_back(2);
  } else {
    dims[0] = 7;
  }
  aclIntArray* axes = aclCreateIntArray(dims.data(), dims.size());
  int64_t k = 0;
  for (int i = 0; i < 2; ++i) {
    k += i;
  }
  int64_t n = Twice(2);
  int64_t m = n + -(-(-(-(n))));  // n read twice in one frame, the second time deeper
  int64_t q = -(-(-(-(-(n))))) + n;  // the second time less deep
  int64_t r = m + -(-(-(-(m))));  // m, whose first reading read n again, read again deeper
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor;
  ret = aclnnDemoGetWorkspaceSize(list, a, alpha, axes, k, m, q, r, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  return 0;
}
"""
)
KINDS = ("tensor_list", "tensor", "scalar", "int_array", "int", "int", "int", "int", "workspace_size", "executor")
FUNCTIONS = {"aclnnDemo": KINDS}


def test_the_sample_is_read():
    call = sc.find_calls(SAMPLE, 1, FUNCTIONS)["aclnnDemo"]
    lists, a, alpha, axes, k, m, q, r, *_ = call.args
    assert [(t.shape, t.dtype) for t in lists.items] == [((4, 2), "FLOAT"), ((3, 2), "INT32")]
    assert (a.shape, alpha.value, axes.elements) == ((4, 2), 1.5, (0, 1, 2))
    assert k.kind == "unresolved" and "changed in a loop" in k.unresolved  # `k += i`: not followed
    assert [(x.kind, x.value) for x in (m, q, r)] == [("value", 8), ("value", 0), ("value", 16)]


def test_token_kinds_offsets_and_lines():
    code = 'a.b .5 x/=2 / 1 // c\n/* d\n e */ "s\\\n t" \'c\' "\n#define N (1)\n#define F(x) x\n@ y'
    toks, macros = tokens._lex(code, 10)
    assert list(zip(toks.kinds, toks.texts, toks.lines, strict=True)) == [
        ("id", "a", 10),
        ("op", ".", 10),
        ("id", "b", 10),
        ("num", ".5", 10),
        ("id", "x", 10),
        ("op", "/=", 10),
        ("num", "2", 10),
        ("op", "/", 10),
        ("num", "1", 10),
        ("str", '"s\\\n t"', 12),
        ("chr", "'c'", 13),
        ("op", '"', 13),
        ("op", "@", 16),
        ("id", "y", 16),
    ]
    assert all(code[start : start + len(text)] == text for start, text in zip(toks.starts, toks.texts, strict=True))
    assert [(name, body.texts, body.lines) for name, body in macros] == [("N", ["(", "1", ")"], [14, 14, 14])]


def _functions(prog: program._Program) -> list[program._Func]:
    return [prog.globals, *(f for fs in prog.funcs.values() for f in fs)]


READ_ON = [  # cut samples whose last statement reads on into the macro bodies after the program
    "#define HEAD (int j = 0; j < DIMS; j++)\n" + SAMPLE[: SAMPLE.index("  int64_t k = 0;")] + "  for",
    "#define ARGS (aHost, aShape, &aAddr)\n" + SAMPLE[: SAMPLE.index("  CHECK_RET(ret == 0")] + "  Twice",
]


@pytest.mark.parametrize("code", [SAMPLE, *READ_ON], ids=["sample", "cut at a for", "cut at a call"])
def test_statements_read_when_asked_give_the_events_of_reading_them_all(code):
    every = program._Program(code, 1)
    by_name: list[dict[str, list[program._Event]]] = []
    for func in _functions(every):  # every statement read, in order, as one pass over them would
        events: dict[str, list[program._Event]] = {}
        for si, st in enumerate(func.stmts):
            for e in every._events(func, si, st):
                events.setdefault(e.name, []).append(e)
        by_name.append(events)
    asked = program._Program(code, 1)
    names = set(asked.texts) | {n for events in by_name for n in events} | {program._RETURN}
    for func, events in zip(_functions(asked), by_name, strict=True):
        places = (0, len(func.stmts) // 2, len(func.stmts))
        for name in sorted(names):
            want = events.get(name, [])
            before = {pos: [e for e in reversed(want) if e.stmt < pos] for pos in places}
            assert {pos: list(asked.events_before(func, name, pos)) for pos in places} == before  # as read
            assert asked.events(func, name) == want
            assert func.positions[name] == [e.stmt for e in want]
            assert {pos: list(asked.events_before(func, name, pos)) for pos in places} == before  # all read
    where = {id(f): k for k, f in enumerate(_functions(every))} | {id(f): k for k, f in enumerate(_functions(asked))}
    for name in asked.funcs:
        want_sites = sorted(every.calls_to.get(name, []), key=lambda site: site[2])
        sites = asked.call_sites(name)
        assert [(where[id(f)], si, paren) for f, si, paren in sites] == [
            (where[id(f)], si, paren) for f, si, paren in want_sites
        ]


def _read_anew(self: sc._Evaluator, name: str, frame: evaluator._Frame) -> values._Val:
    return self._guarded(self._lookup, 1, name, frame)


def _budget_used() -> int:
    evaluators: list[sc._Evaluator] = []

    class Kept(sc._Evaluator):
        def __init__(self, prog: program._Program) -> None:
            super().__init__(prog)
            evaluators.append(self)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(sc, "_Evaluator", Kept)
        sc.find_calls(SAMPLE, 1, FUNCTIONS)
    return evaluator.BUDGET - evaluators[0].budget


def test_a_variable_read_twice_in_a_frame_is_what_reading_it_anew_gives(monkeypatch):
    used = _budget_used()
    assert used > 100
    limits = [(budget, 40) for budget in range(1, used + 3, 2)] + [(evaluator.BUDGET, depth) for depth in range(1, 30)]
    limits += [(budget, depth) for budget in range(7, used, 23) for depth in (6, 9, 12)]
    for budget, depth in limits:
        monkeypatch.setattr(evaluator, "BUDGET", budget)
        monkeypatch.setattr(evaluator, "MAX_DEPTH", depth)
        remembered = sc.find_calls(SAMPLE, 1, FUNCTIONS)
        with monkeypatch.context() as m:
            m.setattr(sc._Evaluator, "lookup", _read_anew)
            anew = sc.find_calls(SAMPLE, 1, FUNCTIONS)
        assert remembered == anew, (budget, depth)


@pytest.mark.parametrize(
    "change",
    [
        ("ret = aclnnDemoGetWorkspaceSize(", "// aclnnDemoGetWorkspaceSize\n  ret = ("),
        ("ret = aclnnDemoGetWorkspaceSize(", "ret = xaclnnDemoGetWorkspaceSize("),
        ("ret = aclnnDemoGetWorkspaceSize(", 'ret = f("aclnnDemoGetWorkspaceSize", '),
    ],
    ids=["in a comment", "in a longer name", "in a string"],
)
def test_a_name_not_called_gives_no_call(change):
    assert sc.find_calls(SAMPLE.replace(*change), 1, FUNCTIONS) == {}
