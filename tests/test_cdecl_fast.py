"""The fast path of `specgen.cdecl` reads exactly what pycparser reads, or leaves it to pycparser."""

from __future__ import annotations

import json
import re

import pytest
from pycparser import c_lexer

from specgen import cdecl
from specgen.cdecl import PrototypeError, find_prototype_spans

FAST_SHARE_FLOOR = 0.90

ACCEPTED = [
    "aclnnStatus aclnnF(const aclTensor* x, const aclTensor *y, int64_t dim, bool keepdim, const aclIntArray* dims,"
    " double alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);",
    "aclnnStatus aclnnF(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);",
    "aclnnStatus aclnnF(const aclrtStream stream, aclOpExecutor **executor);",
    "aclnnStatus f(const aclTensor * const * const x);",
    "aclnnStatus f(aclTensor ** const x, aclTensor*const y, aclTensor* const* z);",
    "aclnnStatus f(aclTensor *constx, void* constant);",  # names that start with `const`
    "aclnnStatus f(bool b, float f, char* s, const char *c, int8_t i, const bool k);",
    "aclnnStatus f(unsigned long long n, long double d, signed char c, unsigned u, const unsigned int* p);",
    "aclnnStatus f(void x, const void* p, _Bool flag);",
    "aclnnStatus f();",
    "aclnnStatus f( );",
    "aclnnStatus f(void);",
    "aclnnStatus f( void );",
    "aclnnStatus f (int x) ;",
    "aclnnStatus f(int64_t bool, double true);",  # not keywords to pycparser
    "aclnnStatus f(int64_t f);",  # a parameter named as the function
    "aclnnStatus f(int x, int x);",
    "aclnnStatus f(aclnnStatus* status);",
]

REJECTED = [
    "aclnnStatus f(int64_t dims[]);",  # array
    "aclnnStatus f(int64_t dims[2]);",
    "aclnnStatus f(void (*callback)(int));",  # function pointer
    "aclnnStatus f(const aclTensor*);",  # no name
    "aclnnStatus f(int64_t, double);",
    "aclnnStatus f(int64_t int);",  # keyword as name
    "aclnnStatus f(int64_t static);",
    "aclnnStatus if(int x);",
    "aclnnStatus f(onst aclTensor* x);",  # typo
    "aclnnStatus f(const aclTensorList* x const aclScalarList* s);",  # missing comma
    "aclnnStatus f(aclTensor* x, x* y);",  # a name used as a type
    "aclnnStatus f(aclTensor* aclTensor);",
    "aclnnStatus f(int64_t aclnnStatus);",
    "aclnnStatus f(f* x);",
    "aclnnStatus f(aclTensor const* x);",  # postfix const: not taken on
    "aclnnStatus f(int const x);",
    "aclnnStatus f(const const aclTensor* x);",
    "aclnnStatus f(aclTensor* const const x);",
    "aclnnStatus f(const x);",
    "aclnnStatus f(* x);",
    "aclnnStatus f(volatile int x);",
    "aclnnStatus f(struct S* s);",
    "aclnnStatus f(unsigned int64_t x);",
    "aclnnStatus f(int int x);",
    "aclnnStatus f(long unsigned x);",  # a builtin spelling not in the list
    "aclnnStatus f(int x, ...);",
    "aclnnStatus f(int x,);",
    "aclnnStatus f(void, int x);",
    "aclnnStatus f(const void);",
    "aclnnStatus f(aclTensor& x);",
    "aclnnStatus f(int $x);",
    "aclnnStatus f(int64_t né);",
    "aclnnStatus f(int64_t 2x);",
    "aclnnStatus f(int x) const;",
    "aclnnStatus f(int x); aclnnStatus g(int y);",
    "extern aclnnStatus f(int x);",
    "aclnnStatus ACLNN_EXPORT f(int x);",
    "int f(int x);",
    "aclnnStatus f(int x)",
]


def _outcome(read, source: str) -> cdecl.Prototype | str:
    """What `read` makes of `source`, or its error message."""
    try:
        return read(source)
    except PrototypeError as exc:
        return str(exc)


def _pycparser(source: str) -> cdecl.Prototype | str:
    return _outcome(cdecl._pycparser, source)


@pytest.mark.parametrize("source", ACCEPTED)
def test_accepted_declarations_read_as_pycparser_does(source):
    fast = cdecl._fast(source)
    assert fast is not None
    assert fast == _pycparser(source)


@pytest.mark.parametrize("source", REJECTED)
def test_other_declarations_are_left_to_pycparser(source):
    assert cdecl._fast(source) is None
    # so the entry point gives pycparser's reading or error unchanged
    assert _outcome(cdecl._parse, source) == _pycparser(source)


@pytest.mark.parametrize("builtin", sorted(cdecl._BUILTINS))
def test_every_accepted_builtin_is_spelled_as_pycparser_does(builtin):
    for param in (f"{builtin} x", f"const {builtin} x", f"{builtin}* const* x", f"const {builtin} **x"):
        source = f"aclnnStatus f({param});"
        fast = cdecl._fast(source)
        assert fast is not None and fast == _pycparser(source)


def test_keywords_are_those_of_pycparser():
    # A keyword pycparser gained would otherwise pass the fast path as a name or type.
    assert set(c_lexer._keyword_map) == cdecl._KEYWORDS


def test_corpus_declarations_read_as_pycparser_does(corpus, monkeypatch):
    declarations = []
    for path in sorted((corpus / "docs").rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        declarations += [text[start:end] for start, end, _ in find_prototype_spans(text) if text[end - 1] == ")"]
    for row in json.loads((corpus / "expected.json").read_text(encoding="utf-8")):
        for name, params in row["functions"].items():
            typed = ", ".join(f"{p['type']} {p['name']}" for p in params)
            declarations.append(f"aclnnStatus {name}({typed});")
    # The sources exactly as parse_prototype hands them to _parse.
    sources: set[str] = set()

    def record(source: str) -> cdecl.Prototype:
        sources.add(source)
        return cdecl.Prototype("", ())

    monkeypatch.setattr(cdecl, "_parse", record)
    for declaration in declarations:
        cdecl.parse_prototype(declaration)
    monkeypatch.undo()

    fast = {source: cdecl._fast(source) for source in sorted(sources)}
    for source, proto in fast.items():
        if proto is not None:
            assert proto == _pycparser(source), source
    share = sum(proto is not None for proto in fast.values()) / len(fast)
    print(f"fast path: {share:.1%} of {len(fast)} distinct sources ({len(declarations)} declarations)")
    assert share >= FAST_SHARE_FLOOR


_WORD_BOUNDED_START = re.compile(r"\baclnn[Ss]tatus\s+(?:[A-Z_]+\s+)*(aclnn\w+)\s*\(")


def _spans_by_word_bounded_regex(text: str) -> list[tuple[int, int, str]]:
    """What `find_prototype_spans` found when its pattern began with `\\b` (slow on whole documents)."""
    spans = []
    for match in _WORD_BOUNDED_START.finditer(text):
        depth, end = 0, len(text)
        for paren in re.finditer(r"[()]", text[match.end() - 1 :]):
            depth += 1 if paren.group() == "(" else -1
            if depth == 0:
                end = match.end() - 1 + paren.end()
                break
        spans.append((match.start(), end, match.group(1)))
    return spans


@pytest.mark.parametrize(
    "text",
    [
        "aclnnStatus aclnnA(int x);",
        " aclnnStatus aclnnA(int x)",
        "xaclnnStatus aclnnA(int x)",  # not a word start
        "_aclnnStatus aclnnA(int x)",
        "1aclnnStatus aclnnA(int x)",
        "接口aclnnStatus aclnnA(int x)",  # CJK characters are word characters to `\b`
        "接口 aclnnStatus aclnnA(int x)",
        "（aclnnstatus ACLNN_API aclnnA(int (x))",
        "xaclnnStatus aclnnStatus aclnnA(int x)",  # a refused match, then one inside it
        "aclnnStatus aclnnA(int x aclnnStatus aclnnB(int y)",  # never closed
    ],
)
def test_prototype_spans_start_at_a_word_start(text):
    assert find_prototype_spans(text) == _spans_by_word_bounded_regex(text)
