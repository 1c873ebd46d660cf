"""Untrusted documents: nothing they say becomes code, no crash, no lost output.

`tests/hostile/aclnnInjection.md` hides the marker PWNED in every place whose text reaches
generated files (title, summary, formula, descriptions, error conditions, constraints,
sample); its parameters are named like Python keywords and like the sample's own variables.
`tests/hostile/aclnnNumbers.md` states numbers no C type (or not the parameter's) holds.
The generated files must compile and hold the marker only inside comments and strings.
The injection document also carries bidi controls (Trojan Source), invisible characters and
terminal escape sequences (raw and as HTML entities): none may reach a generated file or the
terminal unescaped.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import specgen
from specgen.cli import main
from specgen.codegen import render, writer
from specgen.text import UNSAFE, escape_unsafe
from tests.conftest import ROOT, SPECS, STANDIN, tree

HOSTILE = ROOT / "tests" / "hostile"
MARKER = "PWNED"
# C/C++ comments and string or character literals, which may quote anything.
_C_INERT = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def c_code(text: str) -> str:
    """C/C++ source without its comments and literals: what the compiler reads as code."""
    return _C_INERT.sub(" ", text)


def python_names(text: str) -> set[str]:
    """Every name token of a Python source (strings and comments are other tokens)."""
    return {t.string for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME}


@pytest.fixture(scope="module")
def injected(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("injection") / "out"
    assert main(["generate", str(HOSTILE), "-o", str(out)]) == 0
    return out


def test_injected_text_stays_inside_comments_and_strings(injected):
    files = [p for p in injected.rglob("*") if p.is_file() and p.suffix in (".h", ".cpp", ".py")]
    assert {p.suffix for p in files} == {".h", ".cpp", ".py"}
    quoted = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        quoted += text.count(MARKER)
        if path.suffix == ".py":
            ast.parse(text, filename=str(path))
            assert MARKER not in python_names(text), path
        else:
            assert MARKER not in c_code(text), path
    assert quoted > 10  # the hostile text is quoted (so the check above saw it), never run


def test_hostile_files_compile(injected):
    samples = sorted((injected / "samples").glob("*.cpp"))
    assert [p.name for p in samples] == ["injection.cpp", "numbers.cpp"]
    if shutil.which("g++") is None:
        pytest.skip("g++ is not available")
    for sample in samples:
        command = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"]
        command += [f"-I{STANDIN / 'include'}", f"-I{injected / 'include'}", str(sample)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
    ruff = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--isolated",
            "--no-cache",
            "--quiet",
            "--extend-select=PLE2502,PLE2510,PLE2512,PLE2513,PLE2514,PLE2515",  # bidi and invisible characters
            str(injected / "python"),
            str(injected / "tests"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ruff.returncode == 0, ruff.stdout + ruff.stderr


def unsafe_characters(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in UNSAFE.findall(text)})


def test_no_bidi_invisible_or_control_character_reaches_a_generated_file(injected):
    files = [p for p in injected.rglob("*") if p.is_file() and ".specgen-cache" not in p.parts]
    for path in files:
        assert unsafe_characters(path.read_text(encoding="utf-8")) == [], path
    # ... because they are escaped for where they land, not dropped:
    assert "<U+202E>" in (injected / "include/aclnnop/aclnn_injection.h").read_text(encoding="utf-8")
    assert "\\u202e" in (injected / "python/aclnn_ops/injection.py").read_text(encoding="utf-8")
    spec = (injected / "spec/injection.json").read_text(encoding="utf-8")
    assert "\\u202e" in spec and "\u202e" in json.dumps(json.loads(spec), ensure_ascii=False)


def test_a_bidi_file_name_is_escaped_in_output_and_on_the_terminal(tmp_path, capsys):
    docs, out = tmp_path / "docs", tmp_path / "out"
    docs.mkdir()
    trojan = docs / "aclnn\u202eTanh\x1b]0;pwned\x07Backward.md"
    shutil.copy(SPECS / "aclnnTanhBackward.md", trojan)
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    assert unsafe_characters(capsys.readouterr().err) == []
    for path in out.rglob("*"):
        if path.is_file() and ".specgen-cache" not in path.parts:
            assert unsafe_characters(path.read_text(encoding="utf-8")) == [], path


@pytest.mark.parametrize("fmt", ["text", "github", "markdown", "json", "sarif", "junit"])
def test_terminal_output_of_diff_and_lint_escapes_what_documents_say(tmp_path, capsys, fmt):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    shutil.copy(HOSTILE / "aclnnInjection.md", old)
    text = (HOSTILE / "aclnnInjection.md").read_text(encoding="utf-8")
    new.mkdir()
    changed = text.replace("- 接口功能：", "- 接口功能：\x1b]0;pwned\x07\u202e now ", 1)
    (new / "aclnnInjection\u2066.md").write_text(changed, encoding="utf-8")
    assert main(["diff", str(old), str(new), "--format", fmt]) == 0
    diffed = capsys.readouterr()
    assert "summary" in diffed.out
    assert unsafe_characters(diffed.out + diffed.err) == []
    main(["lint", str(new), "--format", fmt])
    linted = capsys.readouterr()
    assert unsafe_characters(linted.out + linted.err) == []


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_parse_output_escapes_what_documents_say(capsys, fmt):
    assert main(["parse", str(HOSTILE / "aclnnInjection.md"), "--format", fmt]) == 0
    parsed = capsys.readouterr()
    assert "\\u202e" in parsed.out and unsafe_characters(parsed.out + parsed.err) == []


def test_keywords_and_the_generated_codes_own_names_are_renamed(injected):
    binding = ast.parse((injected / "python/aclnn_ops/injection.py").read_text(encoding="utf-8"))
    wrapper = next(f for f in binding.body if isinstance(f, ast.FunctionDef) and f.name == "injection")
    names = [a.arg for a in (*wrapper.args.args, *wrapper.args.kwonlyargs)]
    assert names == ["x", "x_shape", "lambda_", "check_", "mode", "np_", "out", "product"]
    sample = c_code((injected / "samples/injection.cpp").read_text(encoding="utf-8"))
    assert "DeviceTensor xShape_;" in sample  # `xShape` would clash with x's shape vector
    assert "const Scalar Check_(" in sample  # `Check` is the sample's status checker
    assert '#include "aclnnop/aclnn_injection.h"' in (injected / "samples/injection.cpp").read_text(encoding="utf-8")


def _doc(name: str, prototype: str, sample: str = "") -> str:
    return (
        f"# {name}\n\n## 函数原型\n\n```Cpp\n{prototype}\n"
        f"aclnnStatus {name}(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)\n"
        f"```\n\n## 调用示例\n\n```Cpp\n{sample}\n```\n"
    )


TAIL = "aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)"
EVIL_INCLUDE = f'#include "aclnnop/aclnn_evil{"9" * 3000}.h"'  # no file system takes such a name
HOSTILE_IDENTIFIERS = {
    "parameter": (
        _doc("aclnnEvil", f'aclnnStatus aclnnEvilGetWorkspaceSize(const aclTensor* x); system("id"); //, {TAIL}'),
        "6: error: aclnnEvilGetWorkspaceSize: expected its last two parameters to be uint64_t* workspaceSize",
    ),
    "newline": (
        _doc("aclnnEvil", f'aclnnStatus aclnnEv\nil"); system("id");GetWorkspaceSize(const aclTensor* x, {TAIL}'),
        "6: error: a declaration starts here but no prototype could be read",
    ),
    "cpp-keyword": (
        _doc("aclnnEvil", f"aclnnStatus aclnnEvilGetWorkspaceSize(const aclTensor* new, {TAIL}"),
        "6: error: parameter name 'new' is a C/C++ keyword",
    ),
    "long-name": (
        _doc("aclnnEvil", f"aclnnStatus aclnnEvilGetWorkspaceSize(const aclTensor* x, {TAIL}", EVIL_INCLUDE),
        "1: error: operator name evil99999",
    ),
    "no-executor": (
        _doc("aclnnEvil", "aclnnStatus aclnnEvilGetWorkspaceSize(const aclTensor* x, const char* system)"),
        "6: error: aclnnEvilGetWorkspaceSize: expected its last two parameters",
    ),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_IDENTIFIERS))
def test_hostile_identifiers_are_located_errors_and_the_others_are_generated(case, tmp_path, capsys):
    docs, out = tmp_path / "docs", tmp_path / "out"
    docs.mkdir()
    shutil.copy(SPECS / "aclnnTanhBackward.md", docs)
    text, expected = HOSTILE_IDENTIFIERS[case]
    evil = docs / "aclnnEvil.md"
    evil.write_text(text, encoding="utf-8")
    assert main(["generate", str(docs), "-o", str(out)]) == 1
    assert f"{evil}:{expected}" in capsys.readouterr().err
    assert (out / "samples/tanh_backward.cpp").is_file()
    assert not list(out.rglob("*evil*"))
    for path in out.rglob("*"):
        assert not path.is_file() or "system(" not in path.read_text(encoding="utf-8"), path


def test_includes_outside_aclnnop_are_not_followed(tmp_path):
    docs, out = tmp_path / "docs", tmp_path / "out"
    docs.mkdir()
    prototype = f"aclnnStatus aclnnEscapeGetWorkspaceSize(const aclTensor* x, {TAIL}"
    for n, include in enumerate(("aclnnop/../../../etc/passwd", "aclnnop/aclnn_../../etc/passwd.h", "/etc/passwd")):
        name = f"aclnnEscape{n}"
        (docs / f"{name}.md").write_text(
            _doc(name, prototype.replace("aclnnEscape", name), f'#include "{include}"'), encoding="utf-8"
        )
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    headers = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.h"))
    assert headers == [f"include/aclnnop/aclnn_escape{n}.h" for n in range(3)]
    assert not any(
        "passwd" in p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file() and p.suffix != ".json"
    )


# ---------------------------------------------------------------- the escaping filters

TEXT = st.text(st.characters(codec="utf-8"), max_size=80) | st.sampled_from(
    ["*/", '"""', "\\", "??/", "a\\\nb", "*//*", "/**/", "'''", '\\"', "\r\n", "\u2028", "|"]
).flatmap(lambda s: st.lists(st.sampled_from([s, "x", "*", "/", '"', "\\", "\n"]), max_size=12).map("".join))


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_c_comment_cannot_end_the_comment(text):
    out = render.c_comment(text)
    assert "*/" not in out and "\n" not in out and "\r" not in out and "??" not in out
    assert not out.endswith("\\")


def _c_unescape(literal: str) -> str:
    """The bytes a C compiler makes of the literal, as UTF-8 text."""
    assert literal[0] == literal[-1] == '"' and "\n" not in literal
    tokens = re.findall(r'\\([0-7]{3})|\\(["\\?])|(.)', literal[1:-1], re.S)
    data = b"".join(bytes([int(o, 8)]) if o else (q or ch).encode("utf-8") for o, q, ch in tokens)
    return data.decode("utf-8")


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_c_string_keeps_the_text_inside_one_literal(text):
    literal = render.c_string(text)
    assert not re.search(r'(?<!\\)(?:\\\\)*"', literal[1:-1])  # no unescaped quote inside
    assert _c_unescape(literal) == text


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_python_docstring_cannot_end_the_docstring(text):
    body = render.py_docstring(text)
    value = ast.literal_eval(f'"""{body} """')
    assert value == " ".join(render._CONTROL.sub(" ", text).split()) + " "


@settings(max_examples=400, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | TEXT, lambda c: st.lists(c, max_size=3)))
def test_python_literals_round_trip(value):
    assert ast.literal_eval(render.py_literal(value)) == value


BIDI = st.text(st.sampled_from("a\u202e\u2066\u2069\u200f\u061c\x1b\x9b\u3164\U000e0041\ufeff*/\\\"'"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(BIDI | TEXT)
def test_no_filter_lets_a_bidi_invisible_or_control_character_through(text):
    for escape in (render.c_comment, render.c_string, render.py_docstring, render.py_literal, render.md_cell):
        assert not UNSAFE.search(escape(text)), escape.__name__
    assert _c_unescape(render.c_string(text)) == text
    assert ast.literal_eval(render.py_literal(text)) == text


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_markdown_cells_stay_in_their_cell(text):
    cell = render.md_cell(text)
    assert "\n" not in cell and not re.search(r"(?<!\\)\|", cell) and "<" not in cell


# ---------------------------------------------------------------- no lost output


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_previous_tree_intact(failure, tmp_path, monkeypatch, capsys):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    assert main(["generate", str(docs), "-o", str(out), "--no-cache"]) == 0
    before = tree(out)
    for doc in docs.iterdir():  # every operator changes
        doc.write_text(
            doc.read_text(encoding="utf-8").replace("数据格式支持ND", "数据格式支持ND、NCHW"), encoding="utf-8"
        )
    (docs / "aclnnTanhBackward.md").unlink()  # and one is gone
    calls = []
    real = writer.os.open

    def failing_open(path, flags, *args, **kwargs):
        if writer.STAGING_PREFIX in str(path) and flags & os.O_CREAT:
            calls.append(path)
            if len(calls) == 5:  # while the rendered files are staged
                raise failure
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(writer.os, "open", failing_open)
    assert main(["generate", str(docs), "-o", str(out), "--no-cache"]) == 2
    assert len(calls) == 5
    err = capsys.readouterr().err
    assert "nothing was changed" in err if isinstance(failure, OSError) else "interrupted" in err
    assert tree(out) == before
    monkeypatch.undo()
    assert main(["generate", str(docs), "-o", str(out), "--no-cache"]) == 0
    assert not (out / "samples/tanh_backward.cpp").exists()
    assert not [p for p in out.rglob("*specgen-tmp*")] and not [p for p in out.glob(".specgen-staging-*")]


def test_an_interrupted_rename_leaves_whole_files_the_manifest_accounts_for(tmp_path, monkeypatch):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    (docs / "aclnnTanhBackward.md").unlink()
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    shutil.copy(SPECS / "aclnnTanhBackward.md", docs)  # a new operator: new files
    renames = []
    real = writer.os.replace

    def interrupted(source, target):
        renames.append(target)
        if len(renames) == 4:
            raise KeyboardInterrupt
        real(source, target)

    monkeypatch.setattr(writer.os, "replace", interrupted)
    assert main(["generate", str(docs), "-o", str(out)]) == 2
    assert len(renames) == 4
    monkeypatch.undo()
    assert not [p for p in out.rglob("*specgen-tmp*")] and not [p for p in out.glob(".specgen-staging-*")]
    # No file is foreign to the manifest: the next run completes the job without --force.
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    assert main(["generate", str(docs), "-o", str(out), "--check"]) == 0


def test_refuses_to_write_through_a_symlink_out_of_the_folder(tmp_path, capsys):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert main(["generate", str(SPECS), "-o", str(out)]) == 0
    shutil.rmtree(out / "samples")
    (out / "samples").symlink_to(elsewhere, target_is_directory=True)
    assert main(["generate", str(SPECS), "-o", str(out)]) == 2
    assert "refusing to write outside the output folder" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    "broken",
    [
        "int z)",  # a prototype whose parameters are wrong
        "aclOpExecutor **executor",  # prototypes never closed: no function is read at all
    ],
)
def test_a_document_that_breaks_keeps_its_earlier_output(tmp_path, capsys, broken):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    before = tree(out / "samples")
    tanh = docs / "aclnnTanhBackward.md"
    tanh.write_text(tanh.read_text(encoding="utf-8").replace("aclOpExecutor **executor)", broken), encoding="utf-8")
    for _ in range(2):  # also when the next run finds the failure in its record
        assert main(["generate", str(docs), "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert f"{tanh}:14: error:" in err and "kept the earlier output of tanh_backward" in err
        assert tree(out / "samples") == before
    tanh.unlink()  # a document that is gone takes its output with it
    assert main(["generate", str(docs), "-o", str(out)]) == 0
    assert not (out / "samples/tanh_backward.cpp").exists()
    manifest = json.loads((out / writer.MANIFEST).read_text(encoding="utf-8"))
    assert not [p for p in manifest["generated"] if "tanh" in p]


def test_an_internal_error_is_a_located_error_on_its_document_only(tmp_path, monkeypatch, capsys):
    from specgen.parse import build

    docs = tmp_path / "docs"
    shutil.copytree(SPECS, docs)
    real = build.read_document

    def buggy(path, data):
        if path.endswith("aclnnTanhBackward.md"):
            raise KeyError("a bug\nover two lines")
        return real(path, data)

    monkeypatch.setattr("specgen.parse.build.read_document", buggy)
    monkeypatch.delenv(specgen.DEBUG_VARIABLE, raising=False)
    assert main(["parse", str(docs), "--format", "json"]) == 1
    captured = capsys.readouterr()
    parsed = {Path(d["source"]).name: d for d in json.loads(captured.out)}
    assert parsed["aclnnHardshrinkBackward.md"]["functions"] and parsed["aclnnSoftMarginLossBackward.md"]["functions"]
    line = next(x for x in captured.err.splitlines() if "aclnnTanhBackward.md" in x)
    assert ":1: error: internal error while reading this document (KeyError: 'a bug\\nover two lines')" in line
    assert "Traceback" not in captured.err
    with pytest.raises(KeyError):
        main(["--debug", "parse", str(docs)])
    assert not specgen.debugging()  # --debug lasts as long as its command


def test_absurd_spans_and_ranks_are_read_without_blowing_up(tmp_path):
    huge = "9" * 5000
    doc = _doc(
        "aclnnSpan",
        "aclnnStatus aclnnSpanGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, "
        "aclOpExecutor** executor)",
    ) + (
        "\n## aclnnSpanGetWorkspaceSize\n\n"
        f'<table><tr><th rowspan="{huge}">参数名</th><th colspan="1000000000">输入/输出</th><th>描述</th></tr>\n'
        "<tr><td>self</td><td>输入</td><td>数据类型支持FLOAT，维度不超过4294967296。</td></tr>\n"
        "<tr><td>out</td><td>输出</td><td>shape与self一致。</td></tr></table>\n\n"
        "```\n返回161002（ACLNN_ERR_PARAM_INVALID）：self的维度大于4294967296。\n```\n"
    )
    (tmp_path / "aclnnSpan.md").write_text(doc, encoding="utf-8")
    assert main(["generate", str(tmp_path / "aclnnSpan.md"), "-o", str(tmp_path / "out")]) == 0
    spec = json.loads((tmp_path / "out/spec/span.json").read_text(encoding="utf-8"))
    params = spec["documents"][0]["functions"][0]["params"]
    assert [p["name"] for p in params][:2] == ["self", "out"]
    assert all(c["kind"] != "rank" for p in params for c in p["constraints"])  # 2**32 dimensions is no rule


def test_the_escaping_fast_path_skips_no_unsafe_character():
    """escape_unsafe returns printable ASCII text untouched: none of it may be unsafe."""
    assert not [c for c in map(chr, range(128)) if c.isprintable() and UNSAFE.match(c)]
    assert escape_unsafe("a\x1bb") == "a\\x1bb" and escape_unsafe("plain 'text'") == "plain 'text'"
