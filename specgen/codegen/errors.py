"""The errors of code generation: the model cannot become code (`LowerError`), or a
template failed (`TemplateFault`)."""

from __future__ import annotations


class LowerError(ValueError):
    """The model cannot become code (an invalid identifier, an unsupported type)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


class TemplateFault(Exception):
    """A template failed to render: the user's override, not the document, is at fault."""
