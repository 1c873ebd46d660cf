"""Documents as they are at git revisions, for `specgen diff --git`.

Only documents whose blobs differ between the two sides are parsed, with the documents that
share a file name with one of them (their `experimental/` copies and other duplicates), so
that the choice between duplicates is the same as on the whole tree. Blobs are read through
one `git cat-file --batch`, after `git cat-file --batch-check` has given their sizes: a blob
larger than any document is never read (a pull request can commit a 600 MB one); files of
the working tree are read as documents are (`read_source`, bounded). Revisions are resolved
to commits first, after `--end-of-options`, so that no revision is ever read as an option.
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path

from specgen import parallel
from specgen.model import OperatorDoc
from specgen.parse import MAX_DOCUMENT, SourceError, failed, parse_document, preload, read_source, too_large
from specgen.selection import Selection, walk_markdown
from specgen.text import is_utf8

Content = bytes | SourceError  # a document's bytes, or why they were not read


class GitError(Exception):
    """git is missing, the folder is not in a repository, or a revision or folder does not exist."""


def _git(*args: str, cwd: Path, stdin: bytes | None = None) -> bytes:
    try:
        result = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise GitError("git is not installed") from exc
    if result.returncode != 0:
        raise GitError(f"git {args[0]}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


@dataclass(frozen=True)
class Range:
    base: str  # as written
    head: str | None  # None: the working tree
    merge_base: bool  # `A...B`: from the common ancestor of A and B


def parse_range(spec: str) -> Range:
    """`A...B`, `A..B`, `A..` (to HEAD), `..B` (from HEAD), or `A` (against the working tree)."""
    for dots, merge_base in (("...", True), ("..", False)):
        if dots in spec:
            base, _, head = spec.partition(dots)
            return Range(base or "HEAD", head or "HEAD", merge_base)
    return Range(spec, None, False)


class Repository:
    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        try:
            self.top = Path(_git("rev-parse", "--show-toplevel", cwd=cwd).decode().strip()).resolve()
        except GitError as exc:
            raise GitError(f"{cwd} is not inside a git repository") from exc

    def commit(self, revision: str) -> str:
        try:
            out = _git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}", cwd=self.cwd)
        except GitError:
            raise GitError(f"unknown revision {revision!r} (a branch, tag or commit; fetch it first?)") from None
        return out.decode().strip()

    def merge_base(self, a: str, b: str) -> str:
        try:
            return _git("merge-base", "--end-of-options", a, b, cwd=self.cwd).decode().strip()
        except GitError:
            raise GitError(f"{a} and {b} have no common ancestor") from None

    def listing(self, commit: str, folder: str, selection: Selection) -> dict[str, str]:
        """Selected documents under `folder` at `commit`: repository path -> blob id."""
        out = _git("ls-tree", "-r", "-z", "--full-name", "--end-of-options", commit, "--", folder, cwd=self.cwd)
        found = {}
        for record in out.decode("utf-8", errors="surrogateescape").split("\0"):
            meta, _, name = record.partition("\t")
            if not name.endswith(".md") or " blob " not in meta:
                continue
            if self._wanted(self.top / name, self.cwd / folder, selection):
                found[name] = meta.split()[2]
        return found

    @staticmethod
    def _wanted(path: Path, given: Path, selection: Selection) -> bool:
        """A document named by the PATH itself is read unless excluded; one under it if selected."""
        if path.resolve() == given.resolve():
            return not selection.excluded(path)
        return selection.takes(path, given)

    def worktree(self, folder: str, selection: Selection) -> dict[str, tuple[str, Content]]:
        """Selected documents under `folder` on disk: repository path -> (blob id, content)."""
        base = self.cwd / folder
        if base.exists() and not base.resolve().is_relative_to(self.top):
            raise GitError(f"{folder} is outside the repository {self.top}")
        found: dict[str, tuple[str, Content]] = {}
        for path in walk_markdown(base) if base.is_dir() else [base] if base.is_file() else []:
            if not self._wanted(path, base, selection):
                continue
            name = path.resolve().relative_to(self.top).as_posix()
            try:
                data = read_source(path)
            except SourceError as exc:  # reported on the document; never the same as a blob
                found[name] = (f"unreadable {exc}", exc)
                continue
            found[name] = (hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(), data)
        return found

    def sizes(self, blobs: list[str]) -> dict[str, int]:
        """The size of every blob, through one `git cat-file --batch-check` (nothing is read)."""
        out = _git("cat-file", "--batch-check", cwd=self.cwd, stdin="".join(f"{b}\n" for b in blobs).encode())
        found = {}
        for blob, line in zip(blobs, out.decode(errors="replace").splitlines(), strict=False):
            header = line.split()
            if len(header) != 3 or not header[2].isdigit():
                raise GitError(f"git cat-file: cannot read blob {blob}")
            found[blob] = int(header[2])
        return found

    def read(self, blobs: set[str]) -> dict[str, Content]:
        """The content of every blob, through one `git cat-file --batch`; a blob larger than
        any document is not read (its size is asked first): a SourceError in its place."""
        sizes = self.sizes(sorted(blobs))
        large = {b: too_large(f"{size / 2**20:.1f} MiB") for b, size in sizes.items() if size > MAX_DOCUMENT}
        order = sorted(set(blobs) - set(large))
        if not order:
            return dict(large)
        out = _git("cat-file", "--batch", cwd=self.cwd, stdin="".join(f"{b}\n" for b in order).encode())
        contents: dict[str, Content] = {}
        at = 0
        for blob in order:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) != 3:
                raise GitError(f"git cat-file: cannot read blob {blob}")
            size = int(header[2])
            contents[blob] = out[end + 1 : end + 1 + size]
            at = end + 1 + size + 1  # the content is followed by a newline
        return contents | large


def documents_between(
    spec: str, folder: str, selection: Selection, *, cwd: Path | None = None, jobs: int | None = None
) -> tuple[list[OperatorDoc], list[OperatorDoc]]:
    """(old, new) models of the documents that differ under `folder` between the two sides of
    `spec`, and of their duplicates; documents named by their path in the repository."""
    here, shown = (cwd or Path.cwd()).resolve(), folder
    if (here / folder).is_dir():  # the repository holding the folder, whatever the working folder
        here, folder = (here / folder).resolve(), "."
    repo = Repository(here)
    wanted = parse_range(spec)
    base, head = repo.commit(wanted.base), repo.commit(wanted.head) if wanted.head else None
    if wanted.merge_base and head:
        base = repo.merge_base(base, head)
    old = repo.listing(base, folder, selection)
    new_tree = repo.listing(head, folder, selection) if head else None
    disk = repo.worktree(folder, selection) if head is None else {}
    new = new_tree if new_tree is not None else {name: blob for name, (blob, _) in disk.items()}
    if not old and not new:
        _no_documents(shown, spec, exists=(repo.cwd / folder).exists())
    names = _with_duplicates({n for n in old.keys() | new.keys() if old.get(n) != new.get(n)}, old.keys() | new.keys())
    blobs = repo.read({old[n] for n in names if n in old} | {new[n] for n in names if n in new and n not in disk})
    old_jobs = [(n, blobs[old[n]]) for n in sorted(names) if n in old]
    new_jobs = [(n, disk[n][1] if n in disk else blobs[new[n]]) for n in sorted(names) if n in new]
    preload()
    every: list[tuple[str, Content]] = [(n, _named(n, c)) for n, c in old_jobs + new_jobs]
    # Errors become models here, not in workers.
    readable = [(n, c) for n, c in every if isinstance(c, bytes)]
    parsed = iter(parallel.run(_parse, readable, jobs=jobs, label="parsing"))
    docs = [next(parsed) if isinstance(c, bytes) else failed(n, str(c), code=c.code) for n, c in every]
    return docs[: len(old_jobs)], docs[len(old_jobs) :]


def _named(name: str, content: Content) -> Content:
    """The content of a document, or an error when its name is not UTF-8 (no output names it)."""
    return content if is_utf8(name) else SourceError("the file name is not UTF-8; not read (rename it)")


def _parse(job: tuple[str, bytes]) -> OperatorDoc:
    return parse_document(*job)


def _with_duplicates(changed: set[str], every: set[str]) -> set[str]:
    """The changed documents and every document sharing a file name with one of them."""
    stems = {Path(n).name.lower() for n in changed}
    return changed | {n for n in every if Path(n).name.lower() in stems}


def _no_documents(folder: str, spec: str, *, exists: bool) -> None:
    """A folder with no document on either side is a mistake to report, never "no changes"."""
    if not exists:
        raise GitError(f"no such folder: {folder} (neither in the working tree nor at {spec})")
    raise GitError(f"no operator documents under {folder} on either side of {spec}")
