"""specgen: operator documents to models, code, diffs and lint findings."""

__version__ = "0.1.0"

# Set by `specgen --debug`: internal errors met on one document are raised with their
# traceback instead of being reported as a located error on that document.
DEBUG = False
