"""Bulk checks over the shared corpus of real documents (skipped when it is absent)."""

from __future__ import annotations

import json

import pytest

from specgen.parse import parse_file, parse_paths
from tests.conftest import SPECS

AGREEMENT_FLOOR = 0.94


@pytest.fixture(scope="module")
def parsed(corpus):
    rows = json.loads((corpus / "expected.json").read_text(encoding="utf-8"))
    docs = {row["doc"]: parse_file(corpus / "docs" / row["doc"]) for row in rows}
    return rows, docs


def test_every_document_parses_without_exception(corpus, parsed):
    rows, docs = parsed
    assert len(docs) == len(rows) > 500
    # A document without any two-phase API is a located error, never an exception.
    for doc in docs.values():
        for d in doc.diagnostics:
            assert d.line >= 1 and d.message


def test_signatures_agree_with_headers(parsed):
    rows, docs = parsed
    total, agree, report = 0, 0, []
    for row in rows:
        doc = docs[row["doc"]]
        for name, declared in row["functions"].items():
            total += 1
            fn = doc.function(name)
            got = [(p.c_type, p.name) for p in fn.params] if fn else None
            want = [(p["type"], p["name"]) for p in declared]
            if got == want:
                agree += 1
            else:
                report.append(f"{row['doc']}: {name}: document {got} != header {want}")
    print(f"\n{agree}/{total} functions agree with their headers ({agree / total:.1%})")
    print("\n".join(report))
    assert agree / total >= AGREEMENT_FLOOR


def test_every_header_function_is_found(parsed):
    rows, docs = parsed
    missing = [
        (row["doc"], name) for row in rows for name in row["functions"] if docs[row["doc"]].function(name) is None
    ]
    assert missing == []


def test_both_dialects_give_the_same_operator(corpus):
    seed = parse_file(SPECS / "aclnnHardshrinkBackward.md")
    repo = parse_file(corpus / "docs/ops-nn/activation/hard_shrink_grad/docs/aclnnHardshrinkBackward.md")
    a, b = seed.functions[0], repo.functions[0]
    assert a.name == b.name
    signature = [(p.name, p.c_type, p.kind, p.direction, p.optional, p.formats) for p in a.params]
    assert signature == [(p.name, p.c_type, p.kind, p.direction, p.optional, p.formats) for p in b.params]
    assert [(p.name, p.c_type) for p in a.execute_params][:3] == [(p.name, p.c_type) for p in b.execute_params][:3]
    # The repository document writes `const aclrtStream`; the seed does not.
    assert [p.c_type for p in b.execute_params][3] == "const aclrtStream"
    assert [(e.code, e.name, e.params) for e in a.errors] == [(e.code, e.name, e.params) for e in b.errors]
    # Where the texts differ: BFLOAT16 and the per-product note exist only in the newer text.
    for pa, pb in zip(a.params[:4], b.params[:4], strict=True):
        assert [d for d in pb.dtypes if d not in pa.dtypes] == (["BFLOAT16"] if pa.kind == "tensor" else [])
    assert b.params[0].product_dtypes == {"910": ["FLOAT16", "FLOAT"]}
    assert a.params[0].product_dtypes == {}
    assert not seed.products and {p.id for p in repo.products if p.supported} == {"950", "A3", "910b", "910"}


def test_placeholder_and_single_phase_documents_are_diagnosed(corpus):
    doc = parse_file(corpus / "docs/ops-nn/quant/trans_quant_param/docs/aclnnTransQuantParam.md")
    assert doc.functions == ()
    codes = {d.code for d in doc.diagnostics}
    assert "single-phase" in codes and "no-api" not in codes  # one problem, one code


def test_whole_corpus_through_parse_paths(corpus):
    docs = parse_paths([corpus / "docs"])
    assert len(docs) > 500
    with_api = [d for d in docs if d.functions]
    assert len(with_api) / len(docs) >= 0.995


def test_error_conditions_map_to_typed_checks(corpus):
    from specgen.review.coverage import coverage

    cov = coverage(parse_paths([corpus / "docs"]))
    print(
        f"\n{cov.checked}/{cov.conditions} error conditions have a typed check; "
        f"{cov.classified}/{cov.statements} constraint statements are typed"
    )
    assert cov.checked / cov.conditions >= 0.90
    # Unclassified text is kept and counted, never dropped.
    assert cov.constraints["text"] == sum(cov.unclassified.values()) > 0
