"""The frozen views the site's templates print (a leaf: imports no other stage)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import quote


@dataclass(frozen=True)
class Source:
    """A located line of a document: `text` as printed (`path:line`), `href` to open it."""

    text: str
    href: str
    line: int = 0

    @classmethod
    def of(cls, path: str, line: int, url: str | None, relative: str) -> Source:
        """`path:line`, linked through `url` (a template with {path} and {line}, filled with
        `path`) when given, else to the file at `relative` (from the page)."""
        if url:
            return cls(f"{path}:{line}", url.replace("{path}", quote(path)).replace("{line}", str(line)), line)
        return cls(f"{path}:{line}", f"{quote(relative)}#L{line}", line)


@dataclass(frozen=True)
class ConstraintRow:
    kind: str
    typed: str  # the typed reading, e.g. `rank 1..8`, `same_shape(self, other)`
    text: str  # the original statement
    source: Source


@dataclass(frozen=True)
class MatrixRow:
    dtype: str
    cells: tuple[str, ...]  # "yes", "no" or "n/a", one per column of the matrix


@dataclass(frozen=True)
class Matrix:
    columns: tuple[tuple[str, str], ...]  # (product id, its name as the document writes it)
    rows: tuple[MatrixRow, ...]


@dataclass(frozen=True)
class ParamRow:
    name: str
    direction: str
    c_type: str
    kind: str
    optional: bool
    description: str
    formats: str
    rank: str
    shape: str  # the shape rule, when the model has one
    matrix: Matrix | None
    constraints: tuple[ConstraintRow, ...]
    source: Source


@dataclass(frozen=True)
class CheckRow:
    kind: str
    params: str
    enforced: bool
    reason: str  # why it is left unchecked; empty when enforced


@dataclass(frozen=True)
class ErrorRow:
    code: int
    name: str
    condition: str
    conditional: bool
    checks: tuple[CheckRow, ...]
    source: Source


@dataclass(frozen=True)
class CallRow:
    """One argument of a sample call: as the document writes it, or as the generated sample makes it."""

    param: str
    text: str
    facts: str  # shape, dtype, format or value
    source: Source | None = None


@dataclass(frozen=True)
class FindingRow:
    rule: str
    severity: str
    message: str
    suppressed: bool
    source: Source


@dataclass(frozen=True)
class FunctionView:
    name: str
    anchor: str
    call_name: str  # the function its parameters are passed to: the first phase, or the single-phase API
    prototypes: tuple[str, ...]  # C, highlighted markup (escaped piece by piece)
    params: tuple[ParamRow, ...]
    errors: tuple[ErrorRow, ...]
    implied: tuple[CheckRow, ...]  # parameter constraints checked without an error rule of their own
    document_call: tuple[CallRow, ...]
    generated_call: tuple[CallRow, ...]
    calls: tuple[str, str]  # the two calls as code, highlighted markup (empty when there is none)
    sample_note: str  # where the generated sample's call comes from
    enforced: int
    unchecked: int
    lowered: str  # why the function has no validator (a lowering error); empty when it has one
    source: Source


@dataclass(frozen=True)
class OperatorPage:
    name: str
    page: str  # its file in the site, e.g. `ops/aclnnAdd.html`
    summary: str
    products: tuple[tuple[str, str, bool], ...]  # (id, name, supported)
    functions: tuple[FunctionView, ...]
    findings: tuple[FindingRow, ...]
    diagnostics: tuple[FindingRow, ...]
    sample_program: str  # the generated sample, highlighted markup; empty when none
    document_samples: tuple[tuple[str, Source], ...]  # highlighted markup, where it starts
    source: Source

    @property
    def enforced(self) -> int:
        return sum(f.enforced for f in self.functions)

    @property
    def unchecked(self) -> int:
        return sum(f.unchecked for f in self.functions)

    @property
    def live_findings(self) -> int:
        return sum(not f.suppressed for f in self.findings)


@dataclass(frozen=True)
class IndexRow:
    name: str
    page: str
    summary: str
    products: str
    functions: tuple[str, ...]
    findings: int
    enforced: int
    unchecked: int
    errors: int  # error diagnostics of its document


@dataclass(frozen=True)
class ChangeRow:
    id: str
    severity: str
    summary: str
    before: str
    after: str
    old: Source | None
    new: Source | None
    accepted: bool


@dataclass(frozen=True)
class ChangeGroup:
    """The changes of one severity, operator and function."""

    severity: str
    operator: str
    function: str
    changes: tuple[ChangeRow, ...]


@dataclass(frozen=True)
class DiffPage:
    title: str
    counts: tuple[tuple[str, int], ...]  # (severity or "accepted", how many)
    groups: tuple[ChangeGroup, ...] = field(default_factory=tuple)
