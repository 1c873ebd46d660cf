"""Which files are operator documents, and which document of a function wins.

An operator repository holds much Markdown that is not an operator document (README,
CHANGELOG, guides, design notes, PR templates) and `experimental/` copies of mainline
operators. By default only `aclnn*.md` files in `docs/` (or `doc/`) folders are read, plus
`aclnn*.md` files directly in a folder given on the command line, plus files named
explicitly; when two documents declare the same function, the mainline one is used and the
`experimental/` one is set aside, said once as an info diagnostic. `generate` and `diff`
both take this one choice (lint reads every document, copies included).

Globs are matched against a file's path relative to the folder searched, to the configuration
root and to its repository (the nearest folder above it holding `.git`; the file system's root
when there is none), '/'-separated: `*` and `?` stay inside one folder, `**/` is any number of
folders, a trailing `/**` everything below. Never relative to the working folder: the same
documents give the same choice from wherever specgen runs. Precedence (`prefer`, `defer`)
takes no folder searched, only the root and the repository.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from specgen.diagnostics import INFO, WARNING, Code
from specgen.files import walk
from specgen.model import Diagnostic

DEFAULT_INCLUDE = ("**/docs/aclnn*.md", "**/doc/aclnn*.md", "aclnn*.md")
DEFAULT_DEFER = ("**/experimental/**",)


MAX_WILDCARDS = 8  # more make a regular expression that backtracks for seconds on one long name


def compile_glob(pattern: str) -> re.Pattern[str]:
    """A glob as a regular expression over '/'-separated relative paths. A configuration is
    untrusted: repeated `**/` collapse into one, and a pattern with more than MAX_WILDCARDS
    `*` is refused (ValueError) rather than left to backtrack."""
    pattern = re.sub(r"(?:\*\*/)+", "**/", pattern.lstrip("/"))
    if pattern.count("*") > MAX_WILDCARDS:
        raise ValueError(f"glob {pattern!r} has more than {MAX_WILDCARDS} wildcards")
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and (end := pattern.find("]", i + 2)) != -1:
            body = pattern[i + 1 : end]
            out.append("[" + ("^" + re.escape(body[1:]) if body[0] in "!^" else re.escape(body)) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


class Globs:
    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = tuple(patterns)
        self.compiled = [compile_glob(p) for p in self.patterns]

    def first(self, candidates: Iterable[str]) -> int | None:
        """The index of the first pattern matching any of the candidate paths."""
        names = list(candidates)
        return next((i for i, rx in enumerate(self.compiled) if any(rx.match(n) for n in names)), None)

    def match(self, candidates: Iterable[str]) -> bool:
        return self.first(candidates) is not None


def relative(path: Path, base: Path) -> str | None:
    """`path.relative_to(base).as_posix()`, None when `path` is not under `base`."""
    if os.sep == "/":  # as text: pathlib's parts cost more than the rest of a warm run's matching
        text, prefix = str(path), str(base).rstrip("/") + "/"
        if text.rstrip("/") + "/" == prefix:
            return "."
        return text[len(prefix) :] if text.startswith(prefix) else None
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return None


@dataclass(frozen=True)
class Selection:
    root: Path
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    defer: tuple[str, ...] = DEFAULT_DEFER

    @classmethod
    def default(cls) -> Selection:
        return cls(repository_root(Path.cwd().resolve()) or Path.cwd().resolve())

    @cached_property
    def _globs(self) -> tuple[Globs, Globs, Globs, Globs]:
        return Globs(self.include), Globs(self.exclude), Globs(self.prefer), Globs(self.defer)

    @cached_property
    def _root(self) -> Path:
        return self.root.resolve()

    @cached_property
    def _known_names(self) -> dict[tuple[Path, Path | None], list[str]]:
        return {}  # the forms of each path, found once (`rank` asks for them again)

    @cached_property
    def _resolve(self) -> Resolver:
        return Resolver()

    def _names(self, path: Path, base: Path | None = None) -> list[str]:
        """The forms of `path` globs are matched against."""
        key = (path, base)
        if key not in self._known_names:
            self._known_names[key] = self._forms(path, base)
        return self._known_names[key]

    def _forms(self, path: Path, base: Path | None) -> list[str]:
        absolute = self._resolve(path)
        forms = [
            relative(absolute, self._resolve.folder(base)) if base else None,
            relative(absolute, self._root),
            relative(absolute, self._resolve.repository(absolute.parent)),
        ]
        return [f for f in dict.fromkeys(forms) if f]

    def takes(self, path: Path, base: Path) -> bool:
        """Whether a file found under the folder `base` is read."""
        include, exclude, _, _ = self._globs
        names = self._names(path, base)
        return include.match(names) and not exclude.match(names)

    def excluded(self, path: Path) -> bool:
        """Whether a file named explicitly is excluded (explicit files need no include)."""
        return self._globs[1].match(self._names(path))

    def rank(self, source: str) -> tuple[int, int]:
        """Lower wins: a `prefer` match (earlier first), then neither, then a `defer` match."""
        _, _, prefer, defer = self._globs
        names = self._names(Path(source))
        if (i := prefer.first(names)) is not None:
            return (0, i)
        if (i := defer.first(names)) is not None:
            return (2, i)
        return (1, 0)

    # ------------------------------------------------------------ discovery

    def discover(self, paths: Iterable[str | Path]) -> list[Path]:
        """Documents named or found under `paths`, in stable order, each once."""
        found: dict[Path, None] = {}
        for path in map(Path, paths):
            if path.is_dir():
                for p in walk_markdown(path):
                    if self.takes(p, path):
                        found.setdefault(p, None)
            elif not self.excluded(path):
                found.setdefault(path, None)
        return list(found)

    # ------------------------------------------------------------ duplicates

    def choose(self, documents: Sequence[tuple[str, Sequence[tuple[str, int]]]]) -> Choice:
        """One document per function: `documents` are (source, [(function, line)])."""
        choice = Choice()
        owner: dict[str, str] = {}
        for source, functions in sorted(documents, key=lambda d: (self.rank(d[0]), d[0])):
            lost = [(name, line) for name, line in functions if name in owner]
            for name, _ in functions:
                owner.setdefault(name, source)
            if lost:
                choice.dropped[source] = {name for name, _ in lost}
                if len(lost) == len(functions):
                    choice.set_aside.add(source)
                choice.notes += self._notes(source, lost, owner)
        return choice

    def _notes(self, source: str, lost: list[tuple[str, int]], owner: dict[str, str]) -> list[tuple[str, Diagnostic]]:
        """One info diagnostic per (document set aside, document used), naming both."""
        by_winner: dict[str, list[tuple[str, int]]] = {}
        for name, line in lost:
            by_winner.setdefault(owner[name], []).append((name, line))
        notes = []
        for winner, items in by_winner.items():
            tie = self.rank(winner) == self.rank(source)
            why = "same precedence, first in path order" if tie else "it takes precedence"
            names = ", ".join(name for name, _ in items)
            message = f"{names} also documented in {winner}: that document is used ({why}) and this one is set aside"
            if tie:  # a file name must not decide silently which document generates the code
                message += "; set [tool.specgen] precedence.prefer to choose"
            line = min(line for _, line in items)
            severity = WARNING if tie else INFO
            notes.append((source, Diagnostic.at(line, Code.DUPLICATE_DOCUMENT, message, severity)))
        return notes


@dataclass
class Choice:
    dropped: dict[str, set[str]] = field(default_factory=dict)  # source -> functions used from elsewhere
    set_aside: set[str] = field(default_factory=set)  # documents none of whose functions are used
    notes: list[tuple[str, Diagnostic]] = field(default_factory=list)


class Resolver:
    """`Path.resolve()` for many files in many folders of a few trees: a folder costs one
    `lstat` once its parent is resolved, and a file one `lstat` (a symbolic link, a relative
    folder or a path with `..` is resolved in full)."""

    def __init__(self) -> None:
        self._folders: dict[Path, Path] = {}
        self._repositories: dict[Path, Path] = {}

    def folder(self, folder: Path) -> Path:
        known = self._folders.get(folder)
        if known is None:
            parent = folder.parent
            if parent == folder or not folder.is_absolute() or ".." in folder.parts or folder.is_symlink():
                known = folder.resolve()
            else:
                known = self.folder(parent) / folder.name
            self._folders[folder] = known
        return known

    def __call__(self, path: Path) -> Path:
        if path.name in ("", ".", "..") or path.is_symlink():
            return path.resolve()
        return self.folder(path.parent) / path.name

    def repository(self, folder: Path) -> Path:
        """The nearest folder at or above the resolved `folder` that holds `.git`, else the
        file system's root (cached per folder: every document of a tree asks)."""
        walked = []
        current = folder
        while (known := self._repositories.get(current)) is None:
            walked.append(current)
            if (current / ".git").exists() or current.parent == current:
                known = current
                break
            current = current.parent
        for f in walked:
            self._repositories[f] = known
        return known


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` that holds `.git`, if any."""
    return next((f for f in (folder, *folder.parents) if (f / ".git").exists()), None)


def walk_markdown(folder: Path) -> list[Path]:
    """Every `*.md` under `folder`, hidden folders (.git, caches) aside, in sorted order."""
    found = []
    for current, names in walk(str(folder), lambda d: not d.startswith(".")):  # no recursion on depth
        found += [Path(current) / n for n in names if n.endswith(".md")]
    return sorted(found)
