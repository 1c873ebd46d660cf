"""Where generated files go and what they are made from: output paths, the templates folder
and its digest, document paths as generated files name them.

Light on purpose (no Jinja2, no model): a warm `generate`, which renders nothing, needs only
this of the codegen stage.
"""

from __future__ import annotations

import hashlib
import keyword
import os
from collections.abc import Callable
from pathlib import Path

from specgen import __version__
from specgen.codegen.errors import TemplateFault
from specgen.files import ReadError, read_bounded, walk
from specgen.text import printable

BUILTIN_TEMPLATES = next(
    p for p in (Path(__file__).parent / "templates", Path(__file__).resolve().parents[2] / "templates") if p.is_dir()
)
# (template, output path) per operator and for the shared support files. `{snake}` is the
# operator's CANN name (its header), `{stem}` what its other files are named after.
OPERATOR_FILES = (
    ("header.h.jinja", "include/aclnnop/aclnn_{snake}.h"),
    ("sample.cpp.jinja", "samples/{stem}.cpp"),
    ("binding.py.jinja", "python/aclnn_ops/{stem}.py"),
    ("test.py.jinja", "tests/test_{stem}.py"),
)
# The package's static Python (specgen/runtime, real modules) copied as-is: (source, output path).
RUNTIME = Path(__file__).parent / "runtime"
STATIC_FILES = (
    ("package_init.py", "python/aclnn_ops/__init__.py"),
    ("_tensor.py", "python/aclnn_ops/_tensor.py"),
    ("_runtime.py", "python/aclnn_ops/_runtime.py"),
    ("_validate.py", "python/aclnn_ops/_validate.py"),
    ("_testing.py", "python/aclnn_ops/_testing.py"),
    ("_shapes.py", "python/aclnn_ops/_shapes.py"),
)
SHARED_FILES = (("tests_conftest.py.jinja", "tests/conftest.py"),)
# Created once and then owned by the user: a regeneration never overwrites them.
USER_FILES = (("reference.py.jinja", "tests/references/{stem}.py"),)
SPEC_FILE = "spec/{stem}.json"

# The names the generated package `aclnn_ops` defines itself (specgen/runtime/package_init.py):
# an operator module of such a name would be hidden behind them (`aclnn_ops.load` is the
# loader, and importing the module would in turn replace the loader), and a Python keyword
# cannot be imported by name. Such an operator's files, its module among them, take a
# trailing underscore (`aclnn_ops.load_`, `samples/load_.cpp`); its header keeps the CANN
# name (`aclnnop/aclnn_load.h`). package_init.py applies the same rule.
PACKAGE_NAMES = frozenset({"available", "load", "validate"})


def file_stem(snake: str) -> str:
    """What an operator's files (but its header) and its Python module are named after."""
    return f"{snake}_" if snake in PACKAGE_NAMES or keyword.iskeyword(snake) else snake


def names_of(snake: str) -> dict[str, str]:
    return {"snake": snake, "stem": file_stem(snake)}


def operator_paths(snake: str) -> set[str]:
    """Every file path an operator's output may have, generated or the user's."""
    paths = (*(path for _, path in (*OPERATOR_FILES, *USER_FILES)), SPEC_FILE)
    return {path.format(**names_of(snake)) for path in paths}


def runtime_source(name: str) -> str:
    """A module of the generated package's static Python (specgen/codegen/runtime)."""
    return (RUNTIME / name).read_text(encoding="utf-8")


def template_path(name: str, override: Path | None = None) -> Path:
    """A file of the templates folder (a --templates folder first), such as the C++ style."""
    for folder in ([override] if override else []) + [BUILTIN_TEMPLATES]:
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(name)


STYLE_FILES = (".clang-format", "_clang-format")


def repository_style(out: Path) -> Path | None:
    """The C/C++ style of the repository the output folder lies in: the nearest `.clang-format`
    (or `_clang-format`) above it, up to the folder holding `.git`; generated C and C++ follow
    it, so that the repository's own format hook leaves them alone."""
    folder = out.resolve()
    for candidate in (folder, *folder.parents):
        found = next((candidate / n for n in STYLE_FILES if (candidate / n).is_file()), None)
        if found is not None:
            return found
        if (candidate / ".git").exists():
            return None
    return None


def template_digest(override: Path | None = None) -> str:
    """A digest of every template in use, for cache keys."""
    folders = ([override] if override else []) + [BUILTIN_TEMPLATES]
    digest = hashlib.sha256(__version__.encode())
    for name in sorted({name for folder in folders for name in _files_under(folder)}):
        source = next(folder / name for folder in folders if os.path.lexists(folder / name))
        digest.update(name.encode() + b"\0" + _template_bytes(source) + b"\0")
    return digest.hexdigest()


MAX_TEMPLATE = 16 * 2**20  # far above any template


def _template_bytes(path: Path) -> bytes:
    """A template's bytes: a regular file of the folder, never a link (a pull request's link to
    a secret would render it into the output), a FIFO or a device; read bounded."""
    try:
        if os.path.islink(path):
            raise ReadError("a symbolic link; templates must be files of their folder")
        return read_bounded(path, MAX_TEMPLATE)
    except ReadError as exc:
        raise TemplateFault(f"{printable(str(path))}: {exc}; not read") from None


def _files_under(folder: Path) -> list[str]:
    """Every file under `folder`, '/'-separated, as the templates loader names them."""
    return [
        (Path(parent) / name).relative_to(folder).as_posix() for parent, files in walk(str(folder)) for name in files
    ]


def display_path(source: str, root: Path | None, resolve: Callable[[Path], Path] = Path.resolve) -> str:
    """The document path as generated files mention it: relative to `root`, '/'-separated
    (`resolve`: a `selection.Resolver` for many documents)."""
    path = Path(source)
    if root is not None:
        try:
            path = resolve(path).relative_to(resolve(root))
        except ValueError:
            path = Path(path.name)
    return path.as_posix()
