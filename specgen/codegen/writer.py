"""The one writer of generated output: plans changes, then applies them atomically.

A manifest in the output folder lists what specgen generated, so that files of operators
that are gone can be removed and nothing else is ever touched. Files are written only when
their content changed; `--check` only plans.

The output folder is as untrusted as the documents: it is committed, so a pull request can
plant anything in it. Hence:
- every path specgen reads or writes in it (generated, user, manifest, cache) is checked
  first (`checked_path`): relative, no `..`, no symbolic link on the way or at the end, no
  special file; anything else is refused before a byte is written;
- new files are written in a private staging folder that `mkdtemp` makes inside the output
  folder (a fresh name, mode 0700), at their paths in the output, each opened with
  O_CREAT|O_EXCL|O_NOFOLLOW (`stage`: the processes that render them write them there, and
  the formatters work on them in place), synced to disk, and only then renamed into place,
  folders synced before the manifest is replaced;
- a staging folder left by a killed run is recognised by its name and removed by the next
  run (`clean_leftovers`); nothing it holds is ever used;
- one run per output folder at a time (`locked`): a `flock` on `.specgen-lock`, which holds
  the holder's PID; the kernel releases it when the holder ends, even by kill -9.
"""

from __future__ import annotations

import errno
import fcntl  # POSIX: flock, as O_NOFOLLOW below
import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from specgen.files import walk
from specgen.selection import Globs
from specgen.text import printable

MANIFEST = ".specgen-manifest.json"
LOCK = ".specgen-lock"
STAGING_PREFIX = ".specgen-staging-"
# What specgen 0.x staged beside each target (`.NAME.PID.specgen-tmp`): a killed run of it
# left them; they are recognised as specgen's own, never foreign, and removed.
_OLD_STAGED = re.compile(r"\..+\.\d+\.specgen-tmp\Z", re.S)
MAX_FILE = 64 * 2**20  # far above any generated file: a larger one is never read whole
LOCK_WAIT = 60.0  # seconds a run waits for another one on the same folder
_SYNC_THREADS = 16  # fsyncs on one file system are batched by the kernel: do them side by side


class OutputError(Exception):
    """The output folder cannot be written safely (foreign files, a path escaping it, a link,
    a full disk, another run holding it)."""


@dataclass
class Plan:
    out: Path
    staged: Path  # the staging folder: the content of the files below, at their paths
    write: list[str] = field(default_factory=list)  # new or changed generated files (and the manifest)
    create: list[str] = field(default_factory=list)  # user-owned files not there yet
    delete: list[str] = field(default_factory=list)  # generated before, for operators now gone
    unchanged: int = 0
    held: list[str] = field(default_factory=list)  # earlier output of failed operators, kept
    manifest: str = ""
    warnings: list[str] = field(default_factory=list)  # manifest entries ignored, and why
    untracked: list[str] = field(default_factory=list)  # --check: files no manifest accounts for

    @property
    def changes(self) -> list[str]:
        """One line per change, for --check and logs: `+ path`, `~ path`, `- path`."""
        lines = [f"{'~' if os.path.lexists(self.out / p) else '+'} {p}" for p in sorted(self.write)]
        lines += [f"+ {p}" for p in sorted(self.create)]
        lines += [f"- {p}" for p in sorted(self.delete)]
        lines += [f"? {p}" for p in sorted(self.untracked)]
        return sorted(lines, key=lambda line: line[2:])

    @property
    def empty(self) -> bool:
        return not (self.write or self.create or self.delete or self.untracked)


# ---------------------------------------------------------------- paths inside the output folder


def check_output_folder(out: Path) -> None:
    """The output folder itself: a real folder, or nothing yet (never a link, which would send
    every write elsewhere). A relative one (in the checkout, where a pull request can commit
    a link) has no link on its way either: `build -> ../outside` would take `build/generated`
    out of the repository. An absolute path is the user's own choice."""
    folders = [out] if out.is_absolute() else [Path(*out.parts[:n]) for n in range(len(out.parts), 0, -1)]
    for folder in folders:
        try:
            mode = os.lstat(folder).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(mode):
            raise OutputError(f"{folder} is a symbolic link: give the folder it points to ({out.resolve()}) instead")
        if not stat.S_ISDIR(mode):
            raise OutputError(f"{folder} is not a folder")


def checked_path(out: Path, relative: str) -> Path:
    """`out / relative` when specgen may read or write it: a '/'-separated relative path with
    no `..`, whose existing folders are real folders and which is itself absent or a regular
    file. Anything else raises OutputError, so no read or write leaves `out` or passes
    through a link planted in it."""
    if not clean_relative(relative):
        raise OutputError(f"{relative}: refusing to write outside the output folder {out}")
    parts = relative.split("/")
    current = os.fspath(out)  # strings, not Paths: this runs on every file of every run
    for depth, part in enumerate(parts, 1):
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return out / relative  # specgen makes the rest
        except OSError as exc:
            raise OutputError(f"{current}: {exc.strerror or exc}") from None
        if stat.S_ISLNK(mode):
            raise OutputError(
                f"{relative}: refusing to write outside the output folder {out}: {current} is a symbolic link "
                "(specgen never reads or writes through a link in its output folder; remove it)"
            )
        if not (stat.S_ISREG(mode) if depth == len(parts) else stat.S_ISDIR(mode)):
            kind = "a regular file" if depth == len(parts) else "a folder"
            raise OutputError(f"{current}: expected {kind} in the output folder; remove it")
    return out / relative


def clean_relative(relative: str) -> bool:
    parts = relative.split("/")
    return (
        bool(relative)
        and "\\" not in relative
        and "\0" not in relative
        and all(p not in ("", ".", "..") for p in parts)
    )


Stamp = tuple[int, int, int, int]  # a file's size, mtime and ctime (ns), and inode


def read_file(out: Path, relative: str, limit: int = MAX_FILE) -> bytes | None:
    """The bytes of a file of `out` (checked as `checked_path`); None when it is absent or
    larger than `limit`, which is never read."""
    return read_stamped(out, relative, limit)[0]


def stamp(out: Path, relative: str) -> Stamp | None:
    """The stamp of a regular file of `out` (checked as `checked_path`); None when absent."""
    try:
        info = os.lstat(checked_path(out, relative))
    except FileNotFoundError:
        return None
    return _stamp(info) if stat.S_ISREG(info.st_mode) else None


def _stamp(info: os.stat_result) -> Stamp:
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino


def read_stamped(out: Path, relative: str, limit: int = MAX_FILE) -> tuple[bytes | None, Stamp | None]:
    """`read_file`, and the file's stamp taken before it was read: a later change to the file
    changes it (its ctime at least), unless made within the same clock tick as the stamp's
    mtime (see `generate._current`)."""
    path = checked_path(out, relative)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise OutputError(f"cannot read {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None, None
        data = file.read(limit + 1)
    return (data, _stamp(info)) if len(data) <= limit else (None, None)


def _same_content(out: Path, relative: str, staged: Path) -> bool:
    """The file of `out` holds what `staged` holds (read only when the sizes agree)."""
    path = checked_path(out, relative)
    try:
        size = os.lstat(path).st_size
    except FileNotFoundError:
        return False
    if size != os.stat(staged).st_size:
        return False
    return read_file(out, relative, limit=size) == staged.read_bytes()


def _is_regular(out: Path, relative: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(checked_path(out, relative)).st_mode)
    except (OutputError, OSError):
        return False


# ---------------------------------------------------------------- the manifest


def read_manifest(out: Path) -> tuple[set[str], set[str]]:
    """(generated files, user-owned files) recorded by the previous run."""
    generated, user, _ = _read_manifest(out)
    return generated, user


def _read_manifest(out: Path) -> tuple[set[str], set[str], list[str]]:
    """The manifest's two lists, without the entries no run of specgen writes (a path leaving
    the folder, a `..`): those are said, and ignored."""
    try:
        data = json.loads(read_file(out, MANIFEST) or b"{}")
        lists = [data.get(key, []) for key in ("generated", "user")]
    except (ValueError, AttributeError):
        return set(), set(), [f"{MANIFEST} is not a manifest of specgen; ignored"]
    warnings, kept = [], []
    for entries in lists:
        entries = entries if isinstance(entries, list) else []
        good = {e for e in entries if isinstance(e, str) and clean_relative(e)}
        bad = [e for e in entries if e not in good]
        if bad:
            warnings.append(f"{MANIFEST} lists {len(bad)} paths outside the output folder (e.g. {bad[0]!r}); ignored")
        own = sorted(e for e in good if _own_file(e))  # a run would delete its own lock, or its cache
        if own:
            warnings.append(f"{MANIFEST} lists {len(own)} of specgen's own files (e.g. {own[0]!r}); ignored")
        kept.append(good - set(own))
    return kept[0], kept[1], warnings


def _own_file(relative: str) -> bool:
    """A file of specgen's own bookkeeping, never a generated one."""
    top = relative.split("/")[0]
    return relative in (MANIFEST, LOCK) or top == _CACHE_FOLDER or top.startswith(STAGING_PREFIX)


def plan(
    out: Path,
    staged: Path,
    files: list[str],
    user_files: list[str],
    *,
    force: bool = False,
    kept: frozenset[str] | set[str] = frozenset(),
    held: frozenset[str] | set[str] = frozenset(),
    owned: Globs | None = None,
    ignored: Globs | None = None,
    check: bool = False,
) -> Plan:
    """What must change in `out` so that it holds exactly `files` (plus the user's files),
    whose content is staged in `staged`.

    `kept` are generated (or user) files known to be current without their content: they stay,
    unread and unwritten. `held` are files of operators that failed this run: those generated
    earlier stay as they were. `owned` match files the configuration gives to the user: they
    are never foreign, never deleted; `ignored` match the user's own build products, which
    neither `--check` nor the refusal of foreign files sees. With `check`, every other file
    no manifest accounts for is drift (`untracked`): tool folders too, since a pull request
    can plant a `.pyc` or a `build/` there. Every path is checked (`checked_path`) here,
    before anything is written."""
    check_output_folder(out)
    previous, previous_user, warnings = _read_manifest(out)
    result = Plan(out=out, staged=staged, held=sorted(set(held) & (previous | previous_user)), warnings=warnings)
    kept = set(kept) | set(result.held)
    set_aside = [g for g in (owned, ignored) if g is not None]
    if check:
        known = previous | previous_user | set(files) | set(user_files) | kept
        untracked = foreign_files(out, known, everything=True)
        result.untracked = [p for p in untracked if _runnable(p) or not any(g.match([p]) for g in set_aside)]
    elif not force:
        _refuse_foreign(out, previous | previous_user, set_aside)
    for path in sorted(files):
        if _same_content(out, path, staged / path):
            result.unchanged += 1
        else:
            result.write.append(path)
    result.create = [path for path in sorted(user_files) if not os.path.lexists(checked_path(out, path))]
    generated = set(files) | (set(kept) - previous_user)
    result.unchanged += len(set(kept) - previous_user)
    result.delete = sorted(p for p in previous - generated if _is_regular(out, p) and not (owned and owned.match([p])))
    users = set(user_files) | previous_user
    manifest = {"generator": "specgen", "generated": sorted(generated), "user": sorted(users)}
    result.manifest = json.dumps(manifest, indent=1) + "\n"
    if read_file(out, MANIFEST) != result.manifest.encode():
        result.write.append(MANIFEST)
    return result


_RUNNABLE = (".py", ".pyc", ".pyo", ".pth", ".so")


def _runnable(path: str) -> bool:
    """A file Python would run or load (a module, bytecode, a path hook, an extension): drift
    for --check whatever `user-files` and `output-ignore` say, since the configuration that
    sets them is as much a pull request's as the file (`output-ignore = ["**"]` must not let
    a planted `__pycache__/x.pyc` or `build/lib/x.py` through)."""
    return path.endswith(_RUNNABLE) or "__pycache__/" in f"/{path}"


def _refuse_foreign(out: Path, known: set[str], set_aside: list[Globs]) -> None:
    foreign = [p for p in foreign_files(out, known) if not any(g.match([p]) for g in set_aside)]
    if foreign:
        listed = ", ".join(map(printable, foreign[:5])) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise OutputError(
            f"{out} holds files specgen did not generate ({listed}); choose another output folder or use --force"
        )


# What tools leave beside generated code: caches, and what `pip install OUT/python` builds in place.
_TOOL_FOLDERS = ("__pycache__", "build", "dist")


def foreign_files(out: Path, known: set[str], *, everything: bool = False) -> list[str]:
    """Files in `out` that no manifest accounts for, specgen's own aside (the manifest, the
    lock, its cache files, its staging folders and what a killed run of it left); unless
    `everything`, caches and build folders too (`__pycache__`, hidden folders such as
    .pytest_cache, `build`, `dist`, `*.egg-info`). Links to folders are listed, not entered."""
    if not out.is_dir():
        return []
    found = []
    top = os.fspath(out)
    enter = _not_staging if everything else _not_tool_folder
    for folder, names in walk(top, enter):
        prefix = "" if folder == top else Path(os.path.relpath(folder, top)).as_posix() + "/"
        found += [prefix + name for name in names if not _specgens(prefix + name, known)]
    return found


def _specgens(relative: str, known: set[str]) -> bool:
    """A file specgen accounts for: generated (`known`), or one of its own."""
    return (
        relative in known
        or relative in (MANIFEST, LOCK)
        or relative in _CACHE_FILES
        or bool(_OLD_STAGED.match(relative.rpartition("/")[2]))
    )


# specgen's own files in its cache folder (generate.CACHE_FILES and the record).
_CACHE_FOLDER = ".specgen-cache"
_CACHE_FILES = {f"{_CACHE_FOLDER}/{name}" for name in (".gitignore", "CACHEDIR.TAG", "state.json")}


def _not_tool_folder(name: str) -> bool:
    return not _tool_folder(name)


def _not_staging(name: str) -> bool:
    return not name.startswith(STAGING_PREFIX)


def _tool_folder(name: str) -> bool:
    return name.startswith(".") or name in _TOOL_FOLDERS or name.endswith(".egg-info")


# ---------------------------------------------------------------- applying a plan


def apply(plan: Plan) -> None:
    """Make the planned changes so that a failure or an interrupt never loses output.

    Every new file was written in full to the staging folder (`stage`); it is synced there
    first, and if any of that fails, the tree is as it was. Then the manifest is widened to
    everything this run may leave behind, the staged files are renamed over their targets (a
    reader sees an old file or a new one, never half of one), their folders are synced, stale
    files are removed, and the exact manifest goes last. An interrupt between renames leaves
    whole files that the manifest accounts for, and the next run completes the job.
    """
    out = plan.out
    paths = [path for path in (*plan.write, *plan.create) if path != MANIFEST]
    if paths:
        if plan.staged.parent.resolve() != out.resolve():
            raise ValueError(f"{plan.staged} is not a staging folder of {out}")  # a --check plan: never applied
        staged = _synced(out, plan.staged, paths)
        if MANIFEST in plan.write:
            install(out, {MANIFEST: _interim_manifest(plan)})
        _commit(out, staged)
    for path in plan.delete:
        target = checked_path(out, path)
        _failing("remove", target, partial(target.unlink, missing_ok=True))
        _remove_empty_parents(target.parent, out)
    if MANIFEST in plan.write:
        install(out, {MANIFEST: plan.manifest})


def _interim_manifest(plan: Plan) -> str:
    """The manifest while files are renamed: the previous entries and the new ones."""
    previous, previous_user = read_manifest(plan.out)
    interim = json.loads(plan.manifest)
    interim["generated"] = sorted(previous | set(interim["generated"]))
    interim["user"] = sorted(previous_user | set(interim["user"]))
    return json.dumps(interim, indent=1) + "\n"


def install(out: Path, contents: dict[str, str]) -> None:
    """Write files of `out` (relative path -> text): all are staged and synced first, then
    renamed into place and their folders synced. Nothing is changed when staging fails."""
    if not contents:
        return
    out.mkdir(parents=True, exist_ok=True)
    with staging_folder(out) as staging:
        for path, content in contents.items():
            stage(staging, path, content)
        _commit(out, _synced(out, staging, list(contents)))


def _synced(out: Path, staging: Path, paths: list[str]) -> dict[str, Path]:
    """The staged files of `paths` (each checked first), synced to disk: path -> staged file."""
    for path in paths:
        checked_path(out, path)  # a refused path refuses the whole run, before any change
    staged = {path: staging / path for path in paths}
    try:
        _sync_files(staged.values())
    except OSError as exc:
        raise OutputError(f"cannot write in {out}: {_reason(exc)}; nothing was changed") from None
    return staged


def _commit(out: Path, staged: dict[str, Path]) -> None:
    """Rename staged files over their targets, then sync the folders that changed."""
    targets = {path: checked_path(out, path) for path in staged}
    made: set[str] = set()
    for path, target in targets.items():
        _make_folders(out, path, made)
        _failing("write", target, partial(os.replace, staged[path], target))
    _sync_folders({folder for target in targets.values() for folder in _folders_up_to(target, out)})


def _folders_up_to(target: Path, out: Path) -> list[Path]:
    """The folders holding `target`, up to `out`: a new folder is durable once its parent is synced."""
    return [folder for folder in target.parents if folder == out or out in folder.parents]


@contextmanager
def staging_folder(out: Path) -> Iterator[Path]:
    """A private folder inside `out` (made by mkdtemp: a fresh name and mode 0700, so that
    nothing planted can redirect what is written there), removed afterwards."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    except OSError as exc:
        raise OutputError(f"cannot write in {out}: {_reason(exc)}") from None
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def stage(folder: Path, relative: str, content: str) -> None:
    """A file of the output written in full in the staging folder `folder`, at its path in the
    output, exclusively (never through anything there). Its own folders are made: `folder`
    is private (`staging_folder`), so nothing else can have put a link on the way."""
    if not clean_relative(relative):
        raise OutputError(f"{relative}: refusing to write outside the output folder")
    path = folder / relative
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        with os.fdopen(fd, "wb") as file:
            file.write(content.encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"cannot write in {folder.parent}: {_reason(exc)}; nothing was changed") from None


def _sync_files(paths: Iterable[Path]) -> None:
    def sync(path: Path) -> None:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    with ThreadPoolExecutor(max_workers=_SYNC_THREADS) as pool:
        list(pool.map(sync, paths))


def _sync_folders(folders: Iterable[Path]) -> None:
    """Renames are durable once their folder is synced (the data was synced before)."""
    for folder in sorted(set(folders)):
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            with suppress(OSError):  # some file systems cannot sync a folder; the files are synced
                os.fsync(fd)
        finally:
            os.close(fd)


def _make_folders(out: Path, relative: str, made: set[str]) -> None:
    """The missing folders of `relative`, one by one (the existing ones were checked); those
    in `made` (relative paths) are there already, made or found for an earlier file."""
    folder = out
    parts = relative.split("/")[:-1]
    for depth, part in enumerate(parts, 1):
        folder = folder / part
        key = "/".join(parts[:depth])
        if key in made:
            continue
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot make {folder}: {_reason(exc)}; {_PARTIAL}") from None
        made.add(key)


_PARTIAL = "the files written so far are whole and listed in the manifest: run again to finish"


def _failing(action: str, target: Path, operation: Callable[[], object]) -> None:
    try:
        operation()
    except OSError as exc:
        raise OutputError(f"cannot {action} {target}: {_reason(exc)}; {_PARTIAL}") from None


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left on the device"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{exc.strerror} (the output folder is not writable)"
    return exc.strerror or str(exc)


def _remove_empty_parents(folder: Path, stop: Path) -> None:
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


# ---------------------------------------------------------------- what a killed run left


def clean_leftovers(out: Path, hidden: Iterable[str] = ()) -> list[str]:
    """Remove what a killed run of specgen left: its staging folders (`.specgen-staging-*`
    at the top of `out`) and the staged files of specgen 0.x (`.NAME.PID.specgen-tmp`, also
    in the `hidden` folders named, such as the cache). Nothing there is ever used; a link of
    such a name is removed, never followed. Returns what was removed. Call it holding the
    lock (`locked`): another run's staging is live."""
    if not out.is_dir():
        return []
    removed = []
    for entry in sorted(os.listdir(out)):
        if entry.startswith(STAGING_PREFIX):
            _remove_entry(out / entry)
            removed.append(entry)
    searched = set(hidden)
    for folder, names in walk(str(out), lambda d: not _tool_folder(d) or d in searched):
        for name in names:
            if _OLD_STAGED.match(name):
                _remove_entry(Path(folder) / name)
                removed.append((Path(folder) / name).relative_to(out).as_posix())
    return removed


def _remove_entry(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)  # does not follow links inside
    else:
        path.unlink(missing_ok=True)


# ---------------------------------------------------------------- one run at a time


@contextmanager
def locked(
    out: Path, *, shared: bool = False, wait: float | None = None, waiting: Callable[[str], None] | None = None
) -> Iterator[int | None]:
    """Hold `out` for one run: an exclusive flock on OUT/.specgen-lock, which holds the
    holder's PID and is removed when the run ends; with `shared` (--check, which writes
    nothing), a shared lock when a run holds the folder. Waits up to `wait` seconds (default
    LOCK_WAIT) for another run to end, saying so once through `waiting`; then gives up,
    naming its PID. The kernel releases a lock when its holder ends, even by kill -9: a lock
    file left behind holds nothing. An output folder this call made is removed again when
    the run fails before writing anything in it. Gives the file system's time (ns) when the
    folder was taken, read off the lock file just written (None for a shared lock)."""
    check_output_folder(out)
    made = not out.exists()
    fd = _acquire(out, shared, LOCK_WAIT if wait is None else wait, waiting)
    try:
        yield None if fd is None or shared else os.fstat(fd).st_mtime_ns
    except BaseException:
        _release(fd, out, shared)
        if made:
            with suppress(OSError):  # unless something is in it now
                out.rmdir()
        raise
    _release(fd, out, shared)


def _release(fd: int | None, out: Path, shared: bool) -> None:
    if fd is not None:
        if not shared:
            (out / LOCK).unlink(missing_ok=True)  # before the lock goes: waiters check for it
        os.close(fd)


def _acquire(out: Path, shared: bool, wait: float, waiting: Callable[[str], None] | None) -> int | None:
    deadline, told = time.monotonic() + wait, False
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    while True:
        fd = _open_lock(out, shared)
        if fd is None:
            return None
        if not _try_lock(fd, mode):
            holder = _holder(fd)
            os.close(fd)
            if time.monotonic() >= deadline:
                raise OutputError(f"{out} is in use by another specgen run ({holder}); try again when it has ended")
            if waiting and not told:
                waiting(f"waiting for another specgen run on {out} to end ({holder})")
                told = True
            time.sleep(0.05)
            continue
        if _still_there(fd, out / LOCK):
            if not shared:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return fd
        os.close(fd)  # the run we waited for removed it as it ended: lock a fresh one


def _try_lock(fd: int, mode: int) -> bool:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _open_lock(out: Path, shared: bool) -> int | None:
    """The lock file, made if need be; None for a --check when no run holds the folder."""
    if not shared:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot make {out}: {_reason(exc)}") from None
    flags = os.O_RDONLY if shared else os.O_RDWR | os.O_CREAT
    try:
        fd = os.open(out / LOCK, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o666)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OutputError(f"{out / LOCK} is a symbolic link; remove it") from None
        raise OutputError(f"cannot lock {out}: {_reason(exc)}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise OutputError(f"{out / LOCK} is not a regular file; remove it")
    if info.st_nlink > 1:  # writing the PID would overwrite the file it is linked to
        os.close(fd)
        raise OutputError(f"{out / LOCK} is a hard link to a file elsewhere; remove it")
    return fd


def _still_there(fd: int, path: Path) -> bool:
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (found.st_dev, found.st_ino) == (mine.st_dev, mine.st_ino)


def _holder(fd: int) -> str:
    pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return f"pid {pid}" if pid.isdigit() else "pid unknown"
