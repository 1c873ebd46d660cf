"""Long braced lists (sample data) are laid out in Python as clang-format lays them out, so
that clang-format need not read them: checked against clang-format itself."""

from __future__ import annotations

import random
import re
import subprocess

import pytest

from specgen.codegen import writer
from specgen.codegen.braced import COLUMN_LIMIT, lay_out
from specgen.codegen.formatting import clang_format_binary, format_staged, prepare
from tests.conftest import ROOT

STYLE = ROOT / "templates" / "clang-format.yaml"
# Items as the samples spell them: float, integer and half-precision literals.
ITEMS = ["-1.5f", "0.25f", "-1.25f", "0.5f", "1.0f", "0", "1", "-4", "3", "127", "-128", "65535",
         "FloatToHalf(-1.25)", "FloatToHalf(0.5)", "FloatToBfloat(1.0)"]  # fmt: skip


def _cases(seed: int, count: int) -> list[tuple[int, str, list[str]]]:
    """Long list statements of varied indents, names, lengths and item mixes."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        n = rng.choice([6, 7, 8, 10, 12, 16, 20, 24, 30, 40, 64, 100, 128, 256])
        pool = rng.sample(ITEMS, rng.randint(1, 5))
        cyclic = rng.random() < 0.5  # the samples' data repeat with a period
        items = [pool[i % len(pool)] if cyclic else rng.choice(pool) for i in range(n)]
        head = f"const std::vector<{rng.choice(['float', 'uint16_t', 'int64_t'])}> {'x' * rng.randint(1, 40)}Data = "
        indent = rng.choice([2, 4])
        if len(" " * indent + head + "{" + ", ".join(items) + "};") > COLUMN_LIMIT:
            cases.append((indent, head, items))
    return cases


def _clang_format(source: str) -> str:
    command = [clang_format_binary(), f"--style=file:{STYLE}", "--assume-filename=x.cpp"]
    return subprocess.run(command, input=source, capture_output=True, text=True, check=True).stdout


def test_layout_is_clang_formats_own():
    cases = _cases(seed=7, count=600)
    source = ""
    for i, (indent, head, items) in enumerate(cases):
        line = " " * indent + head + "{" + ", ".join(items) + "};"
        source += f"void f{i}() {{\n" + (line if indent == 2 else "  {\n" + line + "\n  }") + "\n}\n"
    bodies = re.split(r"(?m)^(?=void f\d+\(\) \{)", _clang_format(source))[1:]
    assert len(bodies) == len(cases)
    differ = []
    for (indent, head, items), body in zip(cases, bodies, strict=True):
        lines = body.rstrip("\n").split("\n")[1:-1]
        lines = lines[1:-1] if indent == 4 else lines
        if lines != lay_out(indent, head, items):
            differ.append((indent, head, len(items)))
    assert differ == []


def test_lists_clang_format_would_bin_pack_are_left_to_it():
    assert lay_out(2, "const std::vector<float> xData = ", ["FloatToHalf(-1.25)"] * 4 + ["1" * 60]) is None


@pytest.mark.parametrize("exact", [True, False])
def test_formatting_a_staged_file_gives_what_clang_format_gives(tmp_path, exact):
    """Through the path `generate` takes: prepared, staged, formatted in place. `exact`: the
    rest of the file is in clang-format's layout but for long lines (specgen's templates);
    else anything (a user's templates), and clang-format reads the whole file."""
    items = ", ".join(ITEMS[i % 4] for i in range(300))
    rest = "  int x = 1;" if exact else "  int   x = 1;"
    long_call = "  Check(" + ", ".join(f"argument{i}" for i in range(20)) + ");"
    source = f"void f() {{\n  const std::vector<float> data = {{{items}}};\n{rest}\n{long_call}\n}}\n"
    prepared, lifted = prepare("sample.cpp", source, exact=exact)
    writer.stage(tmp_path, "sample.cpp", prepared)
    format_staged(tmp_path, ["sample.cpp"], {"sample.cpp": lifted} if lifted else {}, STYLE, exact=exact)
    formatted = (tmp_path / "sample.cpp").read_text(encoding="utf-8")
    assert formatted == _clang_format(source) and formatted != source
    assert "int x = 1;" in formatted
