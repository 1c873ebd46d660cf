"""Compiled templates are kept in the user's cache between runs, and a damaged cache is no
cache, never an error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

COMPILES = """
import jinja2
compiled = []
real = jinja2.Environment.compile
def counting(self, *args, **kwargs):
    compiled.append(1)
    return real(self, *args, **kwargs)
jinja2.Environment.compile = counting
from specgen.codegen import render
render.load_templates()
print(len(compiled))
"""


def compiles(cache: Path) -> int:
    """How many templates a new process compiles to load them all."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", COMPILES], env=env, capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_templates_are_compiled_once_then_loaded(tmp_path):
    assert compiles(tmp_path) > 0
    kept = list((tmp_path / "specgen" / "templates").iterdir())
    assert kept
    assert compiles(tmp_path) == 0


def test_a_damaged_cache_is_compiled_again(tmp_path):
    first = compiles(tmp_path)
    for path in (tmp_path / "specgen" / "templates").iterdir():
        path.write_bytes(b"not a compiled template")
    assert compiles(tmp_path) == first
    assert compiles(tmp_path) == 0


def test_no_cache_folder_is_no_cache(tmp_path):
    (tmp_path / "specgen").write_text("a file where the folder would be", encoding="utf-8")
    assert compiles(tmp_path) > 0
