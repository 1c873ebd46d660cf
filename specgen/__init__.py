"""specgen: operator documents to models, code, diffs and lint findings."""

__version__ = "0.1.0"

# Set by `specgen --debug`: internal errors met on one document are raised with their
# traceback instead of being reported as a located error on that document.
DEBUG = False


def internal_error_message(exc: BaseException, doing: str) -> str:
    """One line for a bug of specgen's met on one document (the traceback is for --debug)."""
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())
    detail = detail if len(detail) <= 300 else detail[:300] + "..."
    return f"internal error while {doing} this document ({detail}); please report it with the document"
