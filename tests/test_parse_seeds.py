"""The three seed documents, checked field by field against models written by hand from
reading the documents (not captured from the parser's output)."""

from __future__ import annotations

import pytest

from specgen.parse import parse_file
from tests.conftest import SPECS

NULLPTR, INVALID = "ACLNN_ERR_PARAM_NULLPTR", "ACLNN_ERR_PARAM_INVALID"
EXECUTE = [
    ("workspace", "void*", "workspace"),
    ("workspaceSize", "uint64_t", "workspace_size"),
    ("executor", "aclOpExecutor*", "executor"),
    ("stream", "aclrtStream", "stream"),
]
TAIL = [
    dict(name="workspaceSize", c_type="uint64_t*", kind="workspace_size", direction="out"),
    dict(name="executor", c_type="aclOpExecutor**", kind="executor", direction="out"),
]


def tensor(name, c_type, direction, dtypes, **extra):
    extra.setdefault("empty_tensor", None)
    extra.setdefault("product_dtypes", {})
    return dict(
        name=name,
        c_type=c_type,
        kind="tensor",
        direction=direction,
        dtypes=dtypes,
        formats=["ND"],
        non_contiguous=True,
        **extra,
    )


SEEDS = {
    "aclnnHardshrinkBackward": dict(
        summary="Hardshrink函数",
        include="aclnnop/aclnn_hardshrink_backward.h",
        params=[
            tensor(
                "gradOutput",
                "const aclTensor*",
                "in",
                ["FLOAT16", "FLOAT"],
                empty_tensor=True,
                relations={("broadcast", ("self",))},
            ),
            tensor(
                "self",
                "const aclTensor*",
                "in",
                ["FLOAT16", "FLOAT"],
                empty_tensor=True,
                relations={("broadcast", ("gradOutput",))},
            ),
            dict(
                name="lambd",
                c_type="const aclScalar*",
                kind="scalar",
                direction="in",
                dtypes=["FLOAT"],
                formats=[],
                clamp_min=0.0,
            ),
            tensor(
                "gradInput",
                "aclTensor*",
                "out",
                ["FLOAT16", "FLOAT"],
                empty_tensor=True,
                relations={("broadcast_result", ("self", "gradOutput"))},
            ),
            *TAIL,
        ],
        errors=[
            (161001, NULLPTR, ["gradOutput", "self", "lambd", "gradInput"], ["not_null"]),
            (161002, INVALID, ["self", "lambd", "gradInput"], ["dtypes"]),
            # The document writes "gradIOutput"; it is read as gradOutput (with a warning).
            (161002, INVALID, ["self", "gradOutput"], ["broadcast"]),
            (161002, INVALID, ["gradInput", "self", "gradOutput"], ["broadcast_result"]),
        ],
    ),
    "aclnnTanhBackward": dict(
        summary="激活函数Tanh",
        include="aclnnop/aclnn_tanh_backward.h",
        params=[
            tensor(
                "gradOutput",
                "const aclTensor*",
                "in",
                ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"],
                product_dtypes={"910b": ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"]},
                relations={("same_dtype", ("output", "gradInput")), ("same_shape", ("output", "gradInput"))},
            ),
            tensor(
                "output",
                "const aclTensor*",
                "in",
                ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"],
                product_dtypes={"910b": ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"]},
                relations={("same_dtype", ("gradOutput", "gradInput")), ("same_shape", ("gradOutput", "gradInput"))},
            ),
            tensor(
                "gradInput",
                "aclTensor*",
                "out",
                ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"],
                product_dtypes={"910b": ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"]},
                relations={("same_dtype", ("gradOutput", "output")), ("same_shape", ("gradOutput", "output"))},
            ),
            *TAIL,
        ],
        errors=[
            (161001, NULLPTR, ["gradOutput", "output", "gradInput"], ["not_null"]),
            (161002, INVALID, ["gradOutput", "output", "gradInput"], ["dtypes"]),
            (161002, INVALID, ["gradOutput", "output", "gradInput"], ["same_dtype"]),
            (161002, INVALID, ["gradOutput", "output", "gradInput"], ["same_shape"]),
            (161002, INVALID, ["gradOutput", "output", "gradInput"], ["rank"]),
        ],
    ),
    "aclnnSoftMarginLossBackward": dict(
        summary="计算二分类逻辑损失函数",
        include="aclnnop/aclnn_soft_margin_loss_backward.h",
        params=[
            tensor(
                "gradOutput",
                "const aclTensor*",
                "in",
                ["FLOAT", "FLOAT16"],
                relations={("broadcast", ("self", "target"))},
            ),
            tensor(
                "self",
                "const aclTensor*",
                "in",
                ["FLOAT", "FLOAT16"],
                relations={("broadcast", ("gradOutput", "target"))},
            ),
            tensor(
                "target",
                "const aclTensor*",
                "in",
                ["FLOAT", "FLOAT16"],
                relations={("broadcast", ("gradOutput", "self"))},
            ),
            dict(name="reduction", c_type="int64_t", kind="int", direction="in", dtypes=[], enum=(0, 1, 2)),
            tensor(
                "gradInput",
                "aclTensor*",
                "out",
                ["FLOAT", "FLOAT16"],
                relations={("broadcast", ("self", "target", "gradOutput"))},
            ),
            *TAIL,
        ],
        errors=[
            (161001, NULLPTR, ["gradOutput", "self", "target", "gradInput"], ["not_null"]),
            (161002, INVALID, ["gradOutput", "self", "target"], ["dtypes"]),
            (161002, INVALID, ["gradOutput", "self", "target", "gradInput"], ["broadcast"]),
            (161002, INVALID, ["gradOutput", "self", "target", "gradInput"], ["broadcast_result"]),
        ],
    ),
}


@pytest.fixture(scope="module", params=sorted(SEEDS))
def seed(request):
    return parse_file(SPECS / f"{request.param}.md"), SEEDS[request.param]


def test_document_level_facts(seed):
    doc, want = seed
    assert doc.name == doc.functions[0].name
    assert [f.name for f in doc.functions] == [doc.name]
    assert doc.summary is not None and doc.summary.text.startswith(want["summary"])
    assert len(doc.samples) == 1 and want["include"] in doc.samples[0].includes
    assert not doc.has_errors


def test_execute_phase(seed):
    doc, _ = seed
    fn = doc.functions[0]
    assert [(p.name, p.c_type, p.kind, p.direction) for p in fn.execute_params] == [
        (n, t, k, "in") for n, t, k in EXECUTE
    ]
    assert fn.execute_line is not None and fn.execute_line > fn.line


def test_parameters(seed):
    doc, want = seed
    params = doc.functions[0].params
    assert [p.name for p in params] == [w["name"] for w in want["params"]]
    for param, expected in zip(params, want["params"], strict=True):
        for field in (
            "c_type",
            "kind",
            "direction",
            "dtypes",
            "formats",
            "non_contiguous",
            "empty_tensor",
            "product_dtypes",
        ):
            if field in expected:
                assert getattr(param, field) == expected[field], (param.name, field)
        assert not param.optional, param.name
        assert param.documented and param.line > 0
        relations = {
            (c.kind, c.params)
            for c in param.constraints
            if c.kind in ("broadcast", "broadcast_result", "same_dtype", "same_shape")
        }
        assert relations == expected.get("relations", set()), param.name
        if "enum" in expected:
            assert [c.values for c in param.of_kind("enum")] == [expected["enum"]]
        if "clamp_min" in expected:
            assert [(c.min, c.max) for c in param.of_kind("clamp")] == [(expected["clamp_min"], None)]


def test_error_rules(seed):
    doc, want = seed
    errors = doc.functions[0].errors
    got = [(e.code, e.name, list(e.params), [c.kind for c in e.checks]) for e in errors]
    assert got == want["errors"]
    assert all(e.condition and e.line > 0 for e in errors)


def test_tanh_product_rule_and_rank_limit():
    doc = parse_file(SPECS / "aclnnTanhBackward.md")
    grad = doc.functions[0].params[0]
    assert grad.dtypes_on("910b") == ["FLOAT", "FLOAT16", "DOUBLE", "BFLOAT16"]
    assert grad.dtypes_on("910") == ["FLOAT", "FLOAT16", "DOUBLE"]
    rank_rule = doc.functions[0].errors[-1]
    assert rank_rule.checks[0].max == 8


def test_typo_in_condition_is_reported():
    doc = parse_file(SPECS / "aclnnHardshrinkBackward.md")
    typos = [d for d in doc.diagnostics if d.code == "name-typo"]
    assert len(typos) == 1 and "gradIOutput" in typos[0].message and typos[0].line == 41
