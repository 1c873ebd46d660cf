"""specgen: operator documents to models, code, diffs and lint findings."""

__version__ = "0.1.0"
