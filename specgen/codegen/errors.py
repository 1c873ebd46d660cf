"""The one error of lowering: the model cannot become code."""

from __future__ import annotations


class LowerError(ValueError):
    """The model cannot become code (an invalid identifier, an unsupported type)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
