"""What the linter reports (`Finding`) and the header declarations it compares documents
with: a module of its own, so that the linter's parts (lint, lint_sample, lint_source) all
import it and none imports another back."""

from __future__ import annotations

from dataclasses import dataclass

from specgen.cdecl import Prototype
from specgen.diagnostics import Location
from specgen.review.rules import Rule


@dataclass(frozen=True)
class Finding:
    rule: Rule
    location: Location
    message: str
    function: str | None = None
    param: str | None = None
    level: str | None = None  # a severity below the rule's default, for this finding only
    suppressed: bool = False  # silenced by a `specgen-lint: disable` comment of the document

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int:
        return self.location.line

    @property
    def severity(self) -> str:
        return self.level or self.rule.severity

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rule": self.rule.value,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "param": self.param,
            "message": self.message,
        }
        if self.suppressed:
            out["suppressed"] = True
        return out


@dataclass(frozen=True)
class Declaration:
    prototype: Prototype
    location: Location
