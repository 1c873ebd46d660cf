"""The one writer of generated output: plans changes, then applies them atomically.

A manifest in the output folder lists what specgen generated, so that files of operators
that are gone can be removed and nothing else is ever touched. Files are written only when
their content changed, through a temporary file and a rename; `--check` only plans.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from specgen.selection import Globs

MANIFEST = ".specgen-manifest.json"


class OutputError(Exception):
    """The output folder cannot be written safely (foreign files, a path escaping it)."""


@dataclass
class Plan:
    out: Path
    write: dict[str, str] = field(default_factory=dict)  # new or changed generated files
    create: dict[str, str] = field(default_factory=dict)  # user-owned files not there yet
    delete: list[str] = field(default_factory=list)  # generated before, for operators now gone
    unchanged: int = 0
    held: list[str] = field(default_factory=list)  # earlier output of failed operators, kept
    manifest: str = ""

    @property
    def changes(self) -> list[str]:
        """One line per change, for --check and logs: `+ path`, `~ path`, `- path`."""
        lines = [f"{'~' if (self.out / p).exists() else '+'} {p}" for p in sorted(self.write)]
        lines += [f"+ {p}" for p in sorted(self.create)]
        lines += [f"- {p}" for p in sorted(self.delete)]
        return sorted(lines, key=lambda line: line[2:])

    @property
    def empty(self) -> bool:
        return not (self.write or self.create or self.delete)


def read_manifest(out: Path) -> tuple[set[str], set[str]]:
    """(generated files, user-owned files) recorded by the previous run."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        return set(data.get("generated", [])), set(data.get("user", []))
    except (OSError, ValueError, AttributeError):
        return set(), set()


def plan(
    out: Path,
    files: dict[str, str],
    user_files: dict[str, str],
    *,
    force: bool = False,
    kept: frozenset[str] | set[str] = frozenset(),
    held: frozenset[str] | set[str] = frozenset(),
    owned: Globs | None = None,
) -> Plan:
    """What must change in `out` so that it holds exactly `files` (plus the user's files).

    `kept` are generated (or user) files known to be current without their content: they stay,
    unread and unwritten. `held` are files of operators that failed this run: those generated
    earlier stay as they were. `owned` match files the configuration gives to the user: they
    are never foreign, never deleted."""
    previous, previous_user = read_manifest(out)
    result = Plan(out=out, held=sorted(set(held) & (previous | previous_user)))
    kept = set(kept) | set(result.held)
    if not force:
        foreign = [p for p in foreign_files(out, previous | previous_user) if not (owned and owned.match([p]))]
        if foreign:
            listed = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise OutputError(
                f"{out} holds files specgen did not generate ({listed}); choose another output folder or use --force"
            )
    for path in sorted(files):
        target = _inside(out, path)
        if _read_bytes(target) == files[path].encode("utf-8"):
            result.unchanged += 1
        else:
            result.write[path] = files[path]
    for path in sorted(user_files):
        if not _inside(out, path).exists():
            result.create[path] = user_files[path]
    generated = set(files) | (set(kept) - previous_user)
    result.unchanged += len(set(kept) - previous_user)
    result.delete = sorted(
        p for p in previous - generated if _inside(out, p).is_file() and not (owned and owned.match([p]))
    )
    users = set(user_files) | previous_user
    manifest = {"generator": "specgen", "generated": sorted(generated), "user": sorted(users)}
    result.manifest = json.dumps(manifest, indent=1) + "\n"
    if _read_bytes(out / MANIFEST) != result.manifest.encode():
        result.write[MANIFEST] = result.manifest
    return result


# What tools leave beside generated code: caches, and what `pip install OUT/python` builds in place.
_TOOL_FOLDERS = ("__pycache__", "build", "dist")


def foreign_files(out: Path, known: set[str]) -> list[str]:
    """Files in `out` that no manifest accounts for; caches and build folders (`__pycache__`,
    hidden folders such as .pytest_cache and specgen's own cache, `build`, `dist`,
    `*.egg-info`) and the manifest aside."""
    if not out.is_dir():
        return []
    found = []
    for folder, dirs, names in os.walk(out):
        dirs[:] = sorted(d for d in dirs if not _tool_folder(d))
        for name in sorted(names):
            relative = (Path(folder) / name).relative_to(out).as_posix()
            if relative != MANIFEST and relative not in known:
                found.append(relative)
    return found


def _tool_folder(name: str) -> bool:
    return name.startswith(".") or name in _TOOL_FOLDERS or name.endswith(".egg-info")


def apply(plan: Plan) -> None:
    """Make the planned changes so that a failure or an interrupt never loses output.

    Every new file is first written in full to a temporary file beside its target; if any of
    that fails, the temporaries go and the tree is as it was. Then the manifest is widened to
    everything this run may leave behind, the temporaries are renamed over their targets (a
    reader sees an old file or a new one, never half of one), stale files are removed, and the
    exact manifest goes last. An interrupt between renames leaves whole files that the manifest
    accounts for, and the next run completes the job.
    """
    contents = {**plan.write, **plan.create}
    contents.pop(MANIFEST, None)
    plan.out.mkdir(parents=True, exist_ok=True)
    staged: dict[Path, Path] = {}
    try:
        for path in sorted(contents):
            target = _inside(plan.out, path)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                staged[target] = _stage(target, contents[path])
            except OSError as exc:
                raise OutputError(f"cannot write {target}: {exc.strerror or exc}; nothing was changed") from exc
        if staged and MANIFEST in plan.write:
            previous, previous_user = read_manifest(plan.out)
            interim = json.loads(plan.manifest)
            interim["generated"] = sorted(previous | set(interim["generated"]))
            interim["user"] = sorted(previous_user | set(interim["user"]))
            write_atomic(plan.out / MANIFEST, json.dumps(interim, indent=1) + "\n")
        for target, tmp in staged.items():
            os.replace(tmp, target)
    finally:
        for tmp in staged.values():
            tmp.unlink(missing_ok=True)  # left only when a write or rename failed
    for path in plan.delete:
        target = _inside(plan.out, path)
        target.unlink(missing_ok=True)
        _remove_empty_parents(target.parent, plan.out)
    if MANIFEST in plan.write:
        write_atomic(plan.out / MANIFEST, plan.manifest)


def _stage(target: Path, content: str) -> Path:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.specgen-tmp")
    try:
        tmp.write_bytes(content.encode("utf-8"))
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_atomic(target: Path, content: str, *, make_parent: bool = True) -> None:
    """Write through a temporary file and a rename: a reader sees the old file or the new one."""
    if make_parent:
        target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _stage(target, content)
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _inside(out: Path, relative: str) -> Path:
    """`out / relative`, refusing any path that leaves `out` (`..`, absolute, symlinks)."""
    root = out.resolve()
    target = (out / relative).resolve()
    if target != root and root not in target.parents:
        raise OutputError(f"{relative}: refusing to write outside the output folder {out}")
    return out / relative


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _remove_empty_parents(folder: Path, stop: Path) -> None:
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
