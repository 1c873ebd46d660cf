"""A corpus document's generated function and calls of its validator, as the hand-read tests
make them: the document's own (valid) call with some arguments changed."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from specgen.codegen.cases import host_values, validator_spec
from specgen.codegen.errors import LowerError
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime import _validate as validator
from specgen.parse import parse_paths


def function_code(path: Path, index: int = 0):
    """The generated code of the document's function `index`; the test skips when the corpus
    does not hold the document."""
    if not path.exists():
        pytest.skip(f"{path.name} is not in the corpus")
    (doc,) = parse_paths([path])
    return operator_code(doc, doc.source).functions[index]


def lowered_functions(docs: Iterable) -> Iterator:
    """Each (document, generated function) of the documents that lower; the others are left to
    the tests of lowering errors."""
    for doc in docs:
        try:
            code = operator_code(doc, doc.source)
        except LowerError:
            continue
        for fn in code.functions:
            yield doc, fn


def ops_nn(corpus: Path, relative: str, index: int = 0):
    """`function_code` of an ops-nn document, by its path in that repository."""
    return function_code(corpus / "docs" / "ops-nn" / relative, index)


def _call(fn, changed: dict[str, object]):
    spec = validator_spec(fn.cases.params, list(fn.cases.rules), fn.name)
    return spec, {**host_values(fn.cases.valid.args), **changed}


def rejected(fn, product: str | None = None, **changed: object) -> list[str]:
    """The ids of every rule the valid call with `changed` in it breaks."""
    spec, args = _call(fn, changed)
    return [r.id for r, _ in validator.violations(spec, args, product)]


def first_violation(fn, product: str | None = None, **changed: object) -> tuple[str, int] | None:
    """The first rule the valid call with `changed` in it breaks (its id and status)."""
    spec, args = _call(fn, changed)
    found = validator.first_violation(spec, args, product)
    return (found[0].id, found[0].code) if found else None
