"""What every located message of specgen shares: a `Location` in a file, and the registry of
diagnostic codes (`Code`), each with its default severity and what it means.

Diagnostics are printed as `path:line: severity: message [code]`; a code lint reports as one
of its rules is printed under the rule's name (`specgen.review.rules.PROBLEM_CODES`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Self

Severity = Literal["error", "warning", "info"]
ERROR: Severity = "error"
WARNING: Severity = "warning"
INFO: Severity = "info"
_PATH_LINE = re.compile(r"(?P<path>.+):(?P<line>-?[0-9]+)", re.S)


@dataclass(frozen=True, slots=True)
class Location:
    """A line of a file; printed, and parsed back, as `path:line`."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"

    @classmethod
    def parse(cls, text: str) -> Location:
        """`path:line` (the path may hold colons: the line is after the last one)."""
        match = _PATH_LINE.fullmatch(text)
        if match is None:
            raise ValueError(f"not a location (path:line): {text!r}")
        return cls(match["path"], int(match["line"]))


class Catalogued(StrEnum):
    """A registry of ids: each member is its id as printed (it compares equal to the string),
    with a (default) severity and a one-line meaning."""

    severity: str
    meaning: str

    def __new__(cls, value: str, severity: str, meaning: str) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.severity = severity
        member.meaning = meaning
        return member


class Code(Catalogued):
    """Every diagnostic code, its default severity and a one-line meaning."""

    severity: Severity

    # reading a document
    UNREADABLE = "unreadable", ERROR, "the file cannot be read (missing, not a regular file, an I/O error)"
    TOO_LARGE = "too-large", ERROR, "the file is far larger than any operator document; not read"
    ENCODING = "encoding", WARNING, "the document is not UTF-8; read as UTF-16 or GB18030, or bytes replaced"
    LONG_LINE = "long-line", WARNING, "a line is longer than any real one; only its start is read"
    UNCLOSED_FENCE = "unclosed-fence", WARNING, "a code fence is never closed; it runs to the end of the file"
    CONFLICT_MARKER = "conflict-marker", ERROR, "a merge-conflict marker is left in the document"
    UNKNOWN_PRODUCT = "unknown-product", WARNING, "a product name no vocabulary entry knows"
    INTERNAL_ERROR = "internal-error", ERROR, "a bug of specgen's met on this document; the others are still read"
    # its API
    PROTOTYPE_SYNTAX = "prototype-syntax", ERROR, "a prototype is not valid C (it is read leniently)"
    PROTOTYPE_MISMATCH = "prototype-mismatch", WARNING, "two copies of a prototype differ; the first is used"
    NAME_CASE = "name-case", WARNING, "a first-phase function does not end in `GetWorkspaceSize` exactly"
    NO_EXECUTE = (
        "no-execute",
        WARNING,
        "a GetWorkspaceSize function has no matching execute function; the convention's is assumed",
    )
    EXECUTE_SIGNATURE = (
        "execute-signature",
        WARNING,
        "an execute function is documented with other parameters than the convention's; generated as documented",
    )
    SINGLE_PHASE = (
        "single-phase",
        INFO,
        "a single-phase API (no GetWorkspaceSize/execute pair): generated as one call where its parameters allow",
    )
    NO_API = "no-api", INFO, "not an operator page: no `aclnnStatus aclnnXxx(...)` prototype (a placeholder, a guide)"
    NO_PARAM_SECTION = "no-param-section", WARNING, "no section documents the parameters of a function"
    DUPLICATE_PARAM = "duplicate-param", WARNING, "a parameter is documented twice"
    UNKNOWN_PARAM = "unknown-param", ERROR, "a documented parameter is not in the prototype (its checks would be lost)"
    NAME_TYPO = "name-typo", WARNING, "an error condition misspells a parameter; read as that parameter"
    NO_ERROR_ROWS = (
        "no-error-rows",
        WARNING,
        "a function's section names argument error codes (161001/161002) but no error row is read from it",
    )
    # choosing documents
    DUPLICATE_DOCUMENT = (
        "duplicate-document",
        INFO,
        "another document declares the same functions and is used (a warning when only path order chose)",
    )
    # generating code
    LOWER = "lower", ERROR, "the model cannot become code (an invalid identifier, an unsupported type)"
    DUPLICATE_FUNCTION = (
        "duplicate-function",
        WARNING,
        "a function of the operator is documented twice; the first is used",
    )
    SAMPLE_UNMET_RULE = (
        "sample-unmet-rule",
        WARNING,
        "no sample call meets every documented rule; the sample says which",
    )
    MANIFEST_IGNORED = "manifest-ignored", WARNING, "entries of the output's manifest are ignored (paths outside it)"
    LEFTOVER_REMOVED = "leftover-removed", INFO, "what an interrupted run left in the output folder was removed"
    CACHE_OFF = "cache-off", WARNING, "no signing key for the record of the previous run: no cache"
    CACHE_IGNORED = "cache-ignored", WARNING, "the record of the previous run is unsigned or damaged: a full run"
    CACHE_NOT_SAVED = "cache-not-saved", WARNING, "the output was written but its cache was not: the next run is full"


CODES = frozenset(Code)  # the registered codes, as strings compare


def registered(code: str) -> str:
    """`code`, when it is a registered diagnostic code (else ValueError)."""
    if code not in CODES:
        raise ValueError(f"{code!r} is not a registered diagnostic code (specgen.diagnostics.Code)")
    return code
