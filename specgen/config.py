"""The project's configuration: `[tool.specgen]` in `pyproject.toml`, or a `specgen.toml`.

Found by walking up from the working directory (a `specgen.toml` wins over a `pyproject.toml`
in the same folder; a `pyproject.toml` without `[tool.specgen]` is passed over), or named with
`--config`. Paths in it are relative to the folder that holds it (the configuration root).
Command-line flags override it. Unknown keys are errors, so that a typo is never silently
ignored. The README documents every key.

A configuration is as untrusted as the documents (a pull request can change it): the search
stops at the repository root (the folder holding `.git`), passes over files another user
owns or others can write (said as warnings), and every path in it must resolve, links
followed, inside the repository (`Config.path`). Templates it names render in Jinja's sandbox.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, overload

from specgen.files import ReadError, read_bounded
from specgen.selection import DEFAULT_DEFER, DEFAULT_INCLUDE, Selection, compile_glob, repository_root

CONFIG_FILE = "specgen.toml"
PYPROJECT = "pyproject.toml"
MAX_CONFIG = 16 * 2**20  # far above any pyproject.toml: read bounded, as documents are
LINT_LEVELS = ("error", "warning", "info")
DIFF_LEVELS = ("breaking", "non-breaking", "info")


class ConfigError(Exception):
    """The configuration cannot be read or holds a wrong key or value (a usage error)."""


@dataclass(frozen=True)
class LintConfig:
    headers: str | None = None
    select: tuple[str, ...] = ("*",)
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, str] = field(default_factory=dict)
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fail_on: str = "error"


@dataclass(frozen=True)
class DiffConfig:
    accept: tuple[str, ...] = ()  # files of accepted changes
    fail_on: str | None = None


@dataclass(frozen=True)
class PackageConfig:
    name: str = "aclnn-ops"
    version: str | None = None  # None: derived from the documents' state


@dataclass(frozen=True)
class Config:
    root: Path  # the configuration's folder; without one, the git checkout of the working folder
    file: Path | None = None
    paths: tuple[str, ...] | None = None  # None: each command's default
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    defer: tuple[str, ...] = DEFAULT_DEFER
    output: str | None = None
    templates: str | None = None
    user_files: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()  # diagnostic codes and lint rules (globs) no command reports
    output_ignore: tuple[str, ...] = ()  # the user's build products in the output folder
    lint: LintConfig = field(default_factory=LintConfig)
    diff: DiffConfig = field(default_factory=DiffConfig)
    package: PackageConfig = field(default_factory=PackageConfig)
    warnings: tuple[str, ...] = ()  # configuration files passed over, and why

    @property
    def selection(self) -> Selection:
        return Selection(self.root, self.include, self.exclude, self.prefer, self.defer)

    def path(self, value: str) -> str:
        """A path of the configuration as the commands take it: relative to the working
        directory when the configuration root is inside it, else absolute. It must resolve
        (links followed) inside the repository holding the configuration (its root without
        one): a path given on the command line may go anywhere, one from a file may not."""
        absolute = (self.root / value).resolve()
        inside = repository_root(self.root) or self.root.resolve()
        if not absolute.is_relative_to(inside):
            where = self.file or "the configuration"
            raise ConfigError(f"{where}: {value!r} is outside the repository {inside} (give it on the command line)")
        try:
            return os.path.relpath(absolute)
        except ValueError:  # another drive on Windows
            return str(absolute)


def load(explicit: str | None = None, cwd: Path | None = None) -> Config:
    """The configuration named by `--config`, else the nearest one above `cwd`, else defaults."""
    cwd = (cwd or Path.cwd()).resolve()
    if explicit is not None:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"--config: no such file: {explicit}")
        table = _table(path, required=True)
        return parse(table or {}, path.resolve().parent, path)
    warnings: list[str] = []
    for folder in _up_to_repository(cwd):
        for name in (CONFIG_FILE, PYPROJECT):
            path = folder / name
            if not path.is_file():
                continue
            if untrusted := _untrusted(path):
                warnings.append(f"{path}: ignored: {untrusted}")
            elif (table := _table(path, required=False)) is not None:
                return replace(parse(table, folder, path), warnings=tuple(warnings))
    return Config(root=repository_root(cwd) or cwd, warnings=tuple(warnings))


def _up_to_repository(cwd: Path) -> list[Path]:
    """The folders searched: `cwd` and its parents up to the repository root (all of them
    outside a repository)."""
    top = repository_root(cwd)
    return [f for f in (cwd, *cwd.parents) if top is None or f.is_relative_to(top)]


def _caller() -> int:
    return os.getuid()


def _untrusted(path: Path) -> str | None:
    """Why a configuration file found by the search is not the caller's to trust (as git's
    safe.directory): another user owns it (or the link to it), group or others can write it,
    or its folder lets others replace it (writable by others, not sticky). None when trusted."""
    try:
        found, target, folder = os.lstat(path), os.stat(path), os.stat(path.parent)
    except OSError as exc:
        return exc.strerror or str(exc)
    trusted = (_caller(), 0)
    for info in (found, target):
        if info.st_uid not in trusted:
            return f"owned by uid {info.st_uid}, neither you nor root"
    if target.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"writable by group or others (mode {stat.S_IMODE(target.st_mode):o})"
    if folder.st_mode & stat.S_IWOTH and not folder.st_mode & stat.S_ISVTX:
        return f"its folder {path.parent} is writable by others"
    return None


def _table(path: Path, *, required: bool) -> dict[str, Any] | None:
    """The specgen table of a file: the whole of a specgen.toml, `[tool.specgen]` of a pyproject."""
    try:
        data = tomllib.loads(read_bounded(path, MAX_CONFIG).decode("utf-8"))
    except (ReadError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    if path.name != PYPROJECT:
        return data
    table = data.get("tool", {}).get("specgen")
    if table is None and required:
        raise ConfigError(f"{path}: no [tool.specgen] table")
    return table


# ---------------------------------------------------------------- reading the table


def parse(table: Mapping[str, Any], root: Path, file: Path | None = None) -> Config:
    where = str(file) if file else "configuration"
    reader = _Reader(table, where)
    precedence = _Reader(reader.table("precedence"), f"{where}: [precedence]")
    lint = _Reader(reader.table("lint"), f"{where}: [lint]")
    diff = _Reader(reader.table("diff"), f"{where}: [diff]")
    package = _Reader(reader.table("package"), f"{where}: [package]")
    config = Config(
        root=root,
        file=file,
        paths=reader.strings("paths"),
        include=reader.strings("include") or DEFAULT_INCLUDE,
        exclude=reader.strings("exclude") or (),
        prefer=precedence.strings("prefer") or (),
        defer=precedence.strings("defer", default=DEFAULT_DEFER),
        output=reader.string("output"),
        templates=reader.string("templates"),
        user_files=reader.strings("user-files") or (),
        ignore=reader.strings("ignore") or (),
        output_ignore=reader.strings("output-ignore") or (),
        lint=LintConfig(
            headers=lint.string("headers"),
            select=lint.strings("select") or ("*",),
            ignore=lint.strings("ignore") or (),
            severity=lint.mapping("severity", LINT_LEVELS),
            per_file_ignores={glob: tuple(rules) for glob, rules in lint.lists("per-file-ignores").items()},
            fail_on=lint.choice("fail-on", LINT_LEVELS) or "error",
        ),
        diff=DiffConfig(accept=diff.strings("accept", single=True) or (), fail_on=diff.choice("fail-on", DIFF_LEVELS)),
        package=PackageConfig(name=package.string("name") or "aclnn-ops", version=package.string("version")),
    )
    for r in (reader, precedence, lint, diff, package):
        r.finish()
    _check_globs(config, where)
    return config


def _check_globs(config: Config, where: str) -> None:
    """Every glob compiles (one that would backtrack for seconds is refused here, a usage error)."""
    globs = (*config.include, *config.exclude, *config.prefer, *config.defer, *config.user_files)
    globs += (*config.output_ignore, *config.lint.per_file_ignores)
    for glob in globs:
        try:
            compile_glob(glob)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None


class _Reader:
    """Typed access to one table; `finish` rejects the keys nobody asked for."""

    def __init__(self, table: Mapping[str, Any], where: str) -> None:
        self.data, self.where = dict(table), where
        self.used: set[str] = set()

    def _get(self, key: str) -> Any:
        self.used.add(key)
        return self.data.get(key)

    def _fail(self, key: str, expected: str) -> ConfigError:
        return ConfigError(f"{self.where}: {key} must be {expected}, not {self.data[key]!r}")

    def table(self, key: str) -> Mapping[str, Any]:
        value = self._get(key)
        if value is not None and not isinstance(value, dict):
            raise self._fail(key, "a table")
        return value or {}

    def string(self, key: str) -> str | None:
        value = self._get(key)
        if value is not None and not isinstance(value, str):
            raise self._fail(key, "a string")
        return value

    @overload
    def strings(self, key: str, *, default: tuple[str, ...], single: bool = False) -> tuple[str, ...]: ...
    @overload
    def strings(self, key: str, *, default: None = None, single: bool = False) -> tuple[str, ...] | None: ...
    def strings(
        self, key: str, *, default: tuple[str, ...] | None = None, single: bool = False
    ) -> tuple[str, ...] | None:
        value = self._get(key)
        if value is None:
            return default
        if single and isinstance(value, str):
            return (value,)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(key, "a list of strings" + (" or a string" if single else ""))
        return tuple(value)

    def choice(self, key: str, allowed: tuple[str, ...]) -> str | None:
        value = self.string(key)
        if value is not None and value not in allowed:
            raise self._fail(key, " or ".join(allowed))
        return value

    def mapping(self, key: str, allowed: tuple[str, ...]) -> dict[str, str]:
        value = self.table(key)
        bad = {k: v for k, v in value.items() if v not in allowed}
        if bad:
            raise ConfigError(f"{self.where}: {key}: {', '.join(bad)} must be one of {', '.join(allowed)}")
        return dict(value)

    def lists(self, key: str) -> dict[str, list[str]]:
        value = self.table(key)
        for k, v in value.items():
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ConfigError(f"{self.where}: {key}: {k} must be a list of rule names")
        return dict(value)

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise ConfigError(f"{self.where}: unknown key {', '.join(unknown)} (known: {', '.join(sorted(self.used))})")
