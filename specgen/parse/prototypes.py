"""Find the C prototypes a document declares, wherever it writes them.

Prototypes come in fences (any info string), inline code, plain bullets (`第一段接口：...`)
and lazy continuation lines, so they are found by content in the source text, not by
container. Declarations inside the sample section or marked `extern "C"` only count when
the document declares nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from specgen.cdecl import (
    Prototype,
    PrototypeError,
    find_prototype_spans,
    parse_prototype,
    read_leniently,
)
from specgen.diagnostics import Code
from specgen.model import Diagnostic
from specgen.parse.document import Document
from specgen.parse.sections import is_sample_section

_CONFLICT_BLOCK = re.compile(r"^<{7}[^\n]*\n(.*?)^={7}[^\n]*\n.*?^>{7}[^\n]*$", re.M | re.S)
_EXTERN_C = re.compile(r'extern\s+"C"\s*$')
# Real operators have at most a few dozen parameters; far more is damage, not an API.
MAX_PARAMS = 256


@dataclass(frozen=True, slots=True)
class Declaration:
    name: str
    line: int
    prototype: Prototype | None  # None when the text is not a declaration at all
    error: str | None  # why pycparser rejected it (the prototype is then read leniently)
    from_sample: bool


def find_declarations(doc: Document) -> tuple[list[Declaration], list[Diagnostic]]:
    """Every declaration of the document, and located warnings about them."""
    warnings: list[Diagnostic] = []
    decls: list[Declaration] = []
    for start, end, name in find_prototype_spans(doc.text):
        line = doc.text.count("\n", 0, start) + 1
        raw = doc.text[start:end]
        if not raw.endswith(")"):
            decls.append(
                Declaration(name, line, None, "prototype is never closed by ')'", _in_sample(doc, line, start))
            )
            continue
        raw, conflict = _resolve_conflict(raw)
        if conflict:
            message = f"merge-conflict markers inside the prototype of {name}; reading the first side"
            warnings.append(Diagnostic.at(line, Code.CONFLICT_MARKER, message))
        if raw.count(",") >= MAX_PARAMS:
            decls.append(Declaration(name, line, None, f"more than {MAX_PARAMS} parameters; not read", False))
            continue
        try:
            proto, error = parse_prototype(raw), None
        except PrototypeError as exc:
            proto, error = read_leniently(raw), str(exc)
        decls.append(Declaration(name, line, proto, error, _in_sample(doc, line, start)))
    documented = [d for d in decls if not d.from_sample]
    return (documented or decls), warnings


def _in_sample(doc: Document, line: int, offset: int) -> bool:
    prefix = doc.text[max(0, offset - 40) : offset]
    if _EXTERN_C.search(prefix.rstrip(" ")):
        return True
    return any(is_sample_section(s.title) for s in doc.enclosing(line - 1))


def _resolve_conflict(raw: str) -> tuple[str, bool]:
    if "<<<<<<<" not in raw:
        return raw, False
    return _CONFLICT_BLOCK.sub(lambda m: m.group(1), raw), True
