"""Shared fixtures. The real-document corpus lives beside the project (`../shared/corpus`)
in the development workspace and CI; a user's clone has none, so tests using it skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# No bytecode beside the golden record: `specgen generate --check` lists any file its manifest
# does not account for (a planted .pyc would run instead of its module), so the tests, which
# import and run generated/, must not leave __pycache__ there (nor the processes they start).
sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"
GENERATED = ROOT / "generated"
STANDIN = ROOT / "tests" / "standin"
SEED_OPERATORS = ("hardshrink_backward", "soft_margin_loss_backward", "tanh_backward")
# libascendcl: runtime; libnnopbase: tensors; libopapi: the operators
STANDIN_LIBRARIES = (("runtime.c", "libascendcl.so"), ("nnopbase.c", "libnnopbase.so"), ("opapi.c", "libopapi.so"))


def documentation() -> str:
    """The user documentation: the README and docs/*.md, which the registries' tables live in."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


def _corpus_dir() -> Path:
    override = os.environ.get("SPECGEN_CORPUS")
    return Path(override) if override else ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = _corpus_dir()
    if not (path / "expected.json").is_file():
        pytest.skip(f"shared corpus not found at {path}")
    return path


def run_main(args: list[str], cwd: Path, capsys, monkeypatch) -> tuple[int, str, str]:
    """`specgen ARGS` in this process from `cwd`: (exit status, stdout, stderr)."""
    from specgen.cli import main

    monkeypatch.chdir(cwd)
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes; caches aside."""
    skip = {"__pycache__", ".pytest_cache", ".specgen-cache"}
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not skip & set(p.parts)
    }


@pytest.fixture
def write_doc(tmp_path: Path):
    """Write a small test document and return its path."""

    def write(text: str | bytes, name: str = "aclnnDemo.md") -> Path:
        path = tmp_path / name
        if isinstance(text, str):
            path.write_text(text, encoding="utf-8")
        else:
            path.write_bytes(text)
        return path

    return write


@pytest.fixture(scope="session")
def standin(tmp_path_factory) -> Path:
    """The host-only CANN stand-in, built with gcc: ROOT/include and ROOT/lib64.

    The operator library is compiled with the generated seed headers force-included, so a
    declaration that does not match the stand-in's definitions fails the build.
    """
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not available")
    root = tmp_path_factory.mktemp("cann")
    shutil.copytree(STANDIN / "include", root / "include")
    (root / "lib64").mkdir()
    headers = [f"-include{GENERATED / 'include' / 'aclnnop' / f'aclnn_{op}.h'}" for op in SEED_OPERATORS]
    for source, library in STANDIN_LIBRARIES:
        extra = headers if source == "opapi.c" else []
        command = [
            "gcc",
            "-std=c11",
            "-O1",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fPIC",
            "-shared",
            f"-I{root / 'include'}",
            f"-I{GENERATED / 'include'}",
            *extra,
            str(STANDIN / "src" / source),
            "-o",
            str(root / "lib64" / library),
            "-lm",
        ]
        subprocess.run(command, check=True, capture_output=True, text=True)
    return root


@pytest.fixture(scope="session")
def aclnn_ops(standin):
    """The generated package, bound to the stand-in."""
    path = str(GENERATED / "python")
    if path not in sys.path:
        sys.path.insert(0, path)
    import aclnn_ops

    aclnn_ops.load(standin)
    return aclnn_ops


def git(repo: Path, *args: str) -> str:
    """`git ARGS` in `repo` with a committer identity (a test machine may have none); its output."""
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, cwd=repo, check=True, capture_output=True, text=True).stdout
