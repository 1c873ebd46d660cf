"""No input crashes specgen: mutated real documents end in a model or located diagnostics;
lint and diff (against the undamaged document) take whatever model comes out, and a model
without errors lowers and renders or gets a located error.

Hypothesis mutates the seed documents (and, when it is there, a sample of the corpus):
truncation, flipped and inserted bytes, random Unicode, deep nesting, 10 MB lines, numbers
beyond any C type, tables with absurd rowspans, binary data, other encodings. Internal errors
are raised here (the command line would turn them into an `internal-error` diagnostic), so
any bug fails the test. Rendered Python must compile; `benchmarks/fuzz.py --compile` also
compiles rendered C++ (too slow for every test run).
`SPECGEN_FUZZ_EXAMPLES=N` runs a longer campaign.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import specgen
from specgen.codegen.render import render_operator
from specgen.model import OperatorDoc
from specgen.parse import parse_document
from specgen.review.diff import diff, summary
from specgen.review.lint import lint
from tests.conftest import SPECS, STANDIN, _corpus_dir

EXAMPLES = int(os.environ.get("SPECGEN_FUZZ_EXAMPLES", "150"))
SECONDS_PER_DOCUMENT = 30  # far above the slowest real document (~0.1 s): catches blow-ups only
BIG = 10 * 1024 * 1024  # over the size limit: a located error, quickly


def _documents() -> list[bytes]:
    docs = [p.read_bytes() for p in sorted(SPECS.glob("*.md"))]
    corpus = _corpus_dir() / "docs"
    if corpus.is_dir():
        docs += [p.read_bytes() for p in sorted(corpus.rglob("*.md"))[::25]]
    return docs


DOCUMENTS = _documents()


def _splice(data: bytes, at: float, insert: bytes, remove: int = 0) -> bytes:
    i = int(at * len(data))
    return data[:i] + insert + data[i + remove :]


# One mutation: a function of (document, random draws) -> new bytes.
HOSTILE_SNIPPETS = [
    b"\n" + b"> " * 5000 + b"x\n",  # deep block quotes
    b"\n" + b"".join(b"  " * i + b"- item\n" for i in range(400)),  # deep lists
    b"[" * 20000 + b"]" * 20000,
    b"\n<table>" * 3000,  # unclosed tables
    b'\n<table><tr><td rowspan="99999999">a</td><td colspan="-3">b</td></tr><tr><td rowspan="x">c</td></tr></table>\n',
    b'\n<table><tr><th rowspan="0" colspan="100000">dtype</th></tr><tr><td>FLOAT</td></tr></table>\n',
    b"\n| a | b |\n|---|---|\n" + b"| x |\n" * 3000,  # a table with missing cells
    b"\n```Cpp\naclnnStatus aclnnXGetWorkspaceSize(" + b"const aclTensor* a," * 3000 + b"\n```\n",
    b"\naclnnStatus aclnnXGetWorkspaceSize(" + b"(" * 5000 + b"\n",
    b"\n```\n" * 1000,  # fences opening and closing
    b"\n\xef\xbb\xbf\x00\x00\xff\xfe\r\r\n\x1b[31m\n",
    b"\n" + "返回161002（ACLNN_ERR_PARAM_INVALID）：".encode() * 2000 + b"\n",
    b"\n<<<<<<< HEAD\n=======\n>>>>>>> b\n",
]


@st.composite
def mutated(draw) -> tuple[bytes, bytes]:
    """(a real document, a damaged copy of it)."""
    original = data = draw(st.sampled_from(DOCUMENTS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.floats(0, 1))
        kind = draw(
            st.sampled_from(
                ["truncate", "flip", "bytes", "unicode", "snippet", "long-line", "number", "encoding", "binary"]
            )
        )
        if kind == "truncate":
            data = data[: int(at * len(data))]
        elif kind == "flip":
            for _ in range(draw(st.integers(1, 64))):
                i = draw(st.integers(0, max(0, len(data) - 1)))
                data = data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1 :]
        elif kind == "bytes":
            data = _splice(data, at, draw(st.binary(max_size=256)), draw(st.integers(0, 64)))
        elif kind == "unicode":
            data = _splice(data, at, draw(st.text(max_size=200)).encode("utf-8", "surrogatepass"))
        elif kind == "snippet":
            data = _splice(data, at, draw(st.sampled_from(HOSTILE_SNIPPETS)))
        elif kind == "long-line":
            unit = draw(st.sampled_from([b"a", "数".encode(), b"|", b"*", b"<td>", b"x,", b"[", b" ", b"1"]))
            data = _splice(data, at, unit * (draw(st.sampled_from([100_000, 1_500_000, BIG])) // len(unit)))
        elif kind == "number":  # every number from some point on grows beyond any C type
            digits = draw(st.sampled_from([b"4294967296", b"9" * 20, b"9" * 400, b"9" * 5000, b"1e999", b"-0.0"]))
            i = int(at * len(data))
            data = data[:i] + re.sub(rb"\d+", digits, data[i:], count=draw(st.integers(1, 50)))
        elif kind == "encoding":
            text = data.decode("utf-8", "replace")
            data = text.encode(draw(st.sampled_from(["utf-16", "utf-16-be", "gb18030", "utf-32"])), "replace")
        else:
            data = draw(st.binary(min_size=1, max_size=4096))
    return original, data


@pytest.fixture
def debug(monkeypatch):
    monkeypatch.setenv(specgen.DEBUG_VARIABLE, "1")  # an internal error raises instead of being reported


def check_input(original: bytes, data: bytes, cpp_folder: Path | None = None) -> str:
    """Parse one input, lint it, diff it against the document it was made from and, when it
    parses cleanly, lower and render it; fail on anything wrong. With `cpp_folder`, rendered
    C++ is also compiled there. Returns how far it went: `rejected`, `parsed` or `rendered`."""
    start = time.monotonic()
    doc = parse_document("fuzz/aclnnFuzz.md", data)
    lines = data.count(b"\n") + data.count(b"\r") + 2
    for d in doc.diagnostics:
        assert 1 <= d.line <= lines and d.message and d.severity in ("error", "warning", "info")
    if not doc.functions:
        assert doc.diagnostics  # no API is said: an error, or a page that is not an operator's
    doc.model_dump_json()  # the model is complete and serialisable
    lint([doc])
    for change in diff([_original(original)], [doc]):
        summary(change)
    outcome = "rejected"
    if doc.functions and not doc.has_errors:  # what generate does next
        rendered = render_operator([doc], None)
        assert rendered.files or any(d.severity == "error" for _, d in rendered.diagnostics)
        outcome = "rendered" if rendered.files else "parsed"
        for path, text in rendered.files.items():
            if path.endswith(".py"):
                compile(text, path, "exec")
        if cpp_folder and rendered.files:
            _compile_cpp(rendered.files, cpp_folder)
    elapsed = time.monotonic() - start
    assert elapsed < SECONDS_PER_DOCUMENT, f"{elapsed:.1f} s on {len(data)} bytes"
    return outcome


def _compile_cpp(files: dict[str, str], folder: Path) -> None:
    for path, text in files.items():
        if path.endswith((".h", ".cpp")):
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    samples = [folder / p for p in files if p.endswith(".cpp")]
    command = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"]
    command += [f"-I{STANDIN / 'include'}", f"-I{folder / 'include'}", *map(str, samples)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[:2000]


@cache
def _original(data: bytes) -> OperatorDoc:
    return parse_document("fuzz/aclnnFuzz.md", data)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs on every run: CI is reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
@given(mutated())
def test_any_input_ends_in_a_model_or_located_diagnostics(debug, pair):
    check_input(*pair)
