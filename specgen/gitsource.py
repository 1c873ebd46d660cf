"""Documents as they are at a git revision, for `specgen diff --git`."""

from __future__ import annotations

import subprocess
from pathlib import Path

from specgen.model import OperatorDoc
from specgen.parse import parse_document


class GitError(Exception):
    """git is missing, the folder is not a repository, or a revision is unknown."""


def _git(*args: str, cwd: Path) -> bytes:
    try:
        result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise GitError("git is not installed") from exc
    if result.returncode != 0:
        raise GitError(f"git {' '.join(args)}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def documents_at(revision: str, path: str, cwd: Path | None = None) -> list[OperatorDoc]:
    """Every `*.md` under `path` at `revision`, named by its path in the repository."""
    cwd = cwd or Path.cwd()
    root = Path(_git("rev-parse", "--show-toplevel", cwd=cwd).decode().strip())
    listing = _git("ls-tree", "-r", "-z", "--full-name", "--name-only", revision, "--", path, cwd=cwd)
    names = sorted(n for n in listing.decode("utf-8", errors="replace").split("\0") if n.endswith(".md"))
    return [parse_document(name, _git("cat-file", "blob", f"{revision}:{name}", cwd=root)) for name in names]


def split_range(spec: str) -> tuple[str, str | None]:
    """`BASE..HEAD` -> (BASE, HEAD); `BASE` -> (BASE, None): the working tree."""
    base, dots, head = spec.partition("..")
    return base, (head or "HEAD") if dots else None
