"""Shared fixtures. The real-document corpus lives beside the project (`../shared/corpus`)
in the development workspace and CI; a user's clone has none, so tests using it skip."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"


def _corpus_dir() -> Path:
    override = os.environ.get("SPECGEN_CORPUS")
    return Path(override) if override else ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus() -> Path:
    path = _corpus_dir()
    if not (path / "expected.json").is_file():
        pytest.skip(f"shared corpus not found at {path}")
    return path


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
