"""The cache is a hint, never a truth (issue 14, item 2).

`OUT/.specgen-cache/state.json` is in the output folder, so a pull request can forge it. Each
forgery of the issue is replayed on the record as it is written, then `--check` must give
what `--check --no-cache` gives, and a normal run must repair the output.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.codegen import generate as generate_module
from specgen.codegen.generate import STATE_FILE
from tests.conftest import SPECS, tree

BINDING = "python/aclnn_ops/tanh_backward.py"
PAYLOAD = "\nimport os\nos.system('touch /tmp/pwned')\n"


@pytest.fixture(autouse=True)
def private_key_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "keys"))


def run(docs: Path, out: Path, *args: str) -> int:
    return main(["generate", str(docs), "-o", str(out), *args])


def edit_record(out: Path, change: Callable[[dict], None]) -> None:
    """Change the record as an attacker can: its JSON (after the signature line, if any),
    every signature left as it was."""
    path = out / STATE_FILE
    header, newline, body = path.read_text(encoding="utf-8").partition("\n")
    if not newline:  # a record of one JSON line, unsigned
        header, body = "", header
    state = json.loads(body)
    change(state)
    text = json.dumps(state, ensure_ascii=False, sort_keys=True)
    path.write_text(f"{header}\n{text}" if header else text, encoding="utf-8")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_forged_hash_never_makes_check_pass(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    binding = out / BINDING
    binding.write_text(binding.read_text(encoding="utf-8") + PAYLOAD, encoding="utf-8")
    forged = sha(binding.read_bytes())

    def forge(state: dict) -> None:
        state["ops"]["tanh_backward"]["hashes"][BINDING] = forged

    edit_record(out, forge)
    assert run(SPECS, out, "--check", "--no-cache") == 3
    capsys.readouterr()
    assert run(SPECS, out, "--check") == 3
    assert "[cache-ignored]" in capsys.readouterr().err
    assert run(SPECS, out) == 0
    assert "os.system" not in binding.read_text(encoding="utf-8")


def test_a_record_of_another_key_is_ignored(tmp_path, monkeypatch, capsys):
    """A record signed by someone else (committed, copied from another machine)."""
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-user"))
    (out / BINDING).write_text("# edited\n", encoding="utf-8")
    assert run(SPECS, out, "--check") == 3
    assert "not signed with this user's key" in capsys.readouterr().err


def test_emptied_diagnostics_do_not_hide_document_errors(tmp_path):
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    (docs / "aclnnBroken.md").write_text(
        "# aclnnBroken\n\n```Cpp\naclnnStatus aclnnBrokenGetWorkspaceSize(onst aclTensor* x,\n"
        "    uint64_t* workspaceSize, aclOpExecutor** executor)\n```\n",
        encoding="utf-8",
    )
    assert run(docs, out) == 1

    def forge(state: dict) -> None:
        for doc in state["docs"].values():
            doc["diagnostics"] = []
        for op in state["ops"].values():
            op["diagnostics"] = []

    edit_record(out, forge)
    assert run(docs, out) == 1
    assert run(docs, out, "--check") == 0  # current: --check fails on drift only


def test_a_changed_operator_name_deletes_nothing(tmp_path):
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    before = tree(out)

    def forge(state: dict) -> None:
        for source, doc in state["docs"].items():
            if source.endswith("aclnnTanhBackward.md"):
                doc["snake"] = "hardshrink_backward"

    edit_record(out, forge)
    assert run(SPECS, out) == 0
    assert tree(out) == before


@pytest.mark.parametrize(
    "record",
    [b"", b"\xff\xfe garbage", b"specgen-state 4 00\n{}", b'{"format": 4, "docs": [], "ops": 1}', b"\n" * 10],
)
def test_a_malformed_record_makes_a_full_run_with_a_warning(tmp_path, capsys, record):
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    before = tree(out)
    (out / STATE_FILE).write_bytes(record)
    (out / BINDING).write_text("# edited\n", encoding="utf-8")
    capsys.readouterr()
    assert run(SPECS, out) == 0
    assert "[cache-ignored]" in capsys.readouterr().err
    assert tree(out) == before


def test_a_signed_but_damaged_record_is_ignored(tmp_path, capsys):
    """What the signature cannot catch (a record of this user's key whose body is not a
    record) is still no reason to fail."""
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    key = generate_module.signing_key(out)
    body = json.dumps({"format": generate_module.STATE_FORMAT, "docs": {"a.md": {"key": 1}}, "ops": {}}).encode()
    signed = f"{generate_module.STATE_HEADER} {generate_module._sign(key, body)}\n".encode() + body
    (out / STATE_FILE).write_bytes(signed)
    assert run(SPECS, out) == 0
    assert "record of the previous run is damaged" in capsys.readouterr().err


def test_the_bytes_hashed_are_the_bytes_parsed(tmp_path, monkeypatch):
    """A document saved while a run renders: the output and its record both come from the
    bytes read first, so that undoing the edit leaves no stale record behind."""
    docs, out = tmp_path / "docs", tmp_path / "out"
    shutil.copytree(SPECS, docs)
    assert run(docs, out) == 0
    (out / "samples/tanh_backward.cpp").unlink()  # the operator is rendered again, its document not parsed
    tanh = docs / "aclnnTanhBackward.md"
    original = tanh.read_text(encoding="utf-8")
    real_render = generate_module._render

    def render_while_saved(*args, **kwargs):
        tanh.write_text(original.replace("DOUBLE、", ""), encoding="utf-8")  # the editor saves now
        return real_render(*args, **kwargs)

    monkeypatch.setattr(generate_module, "_render", render_while_saved)
    assert run(docs, out) == 0
    monkeypatch.undo()
    tanh.write_text(original, encoding="utf-8")  # and the edit is undone
    assert run(docs, out, "--check", "--no-cache") == 0
    assert run(docs, out, "--check") == 0


def test_a_full_disk_while_saving_the_cache_is_said_and_the_output_kept(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    real_install = generate_module.writer.install

    def cache_disk_full(folder, contents):
        if any(path.startswith(".specgen-cache/") for path in contents):
            raise generate_module.writer.OutputError("cannot write in out: no space left on the device")
        return real_install(folder, contents)

    monkeypatch.setattr(generate_module.writer, "install", cache_disk_full)
    assert run(SPECS, out) == 0
    err = capsys.readouterr().err
    assert "the output was written, but its cache was not saved" in err and "internal error" not in err
    monkeypatch.undo()
    assert run(SPECS, out, "--check") == 0


WARM_RUN = """
import sys
from specgen.cli import main
assert main(["generate", sys.argv[1], "-o", sys.argv[2]]) == 0
print(",".join(m for m in ("jinja2", "markdown_it", "pycparser", "specgen.parse.build") if m in sys.modules))
"""


def test_a_warm_run_imports_neither_parser_nor_templates(tmp_path):
    """Nothing to parse or render: the parser and Jinja2 (a fifth of a warm run) stay unloaded."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "keys")}
    out = tmp_path / "out"
    command = [sys.executable, "-c", WARM_RUN, str(SPECS), str(out)]
    cold = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    # the check can fail; pycparser is imported only for a declaration its fast reader leaves
    assert cold.stdout.strip() == "jinja2,markdown_it,specgen.parse.build"
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert warm.stdout.strip() == ""


def _reads_of_generated_files(monkeypatch) -> list[str]:
    """The generated files a run reads (not the record or the manifest)."""
    reads: list[str] = []
    real = generate_module.writer.read_stamped

    def spying(out, relative, *args, **kwargs):
        if not relative.startswith("."):
            reads.append(relative)
        return real(out, relative, *args, **kwargs)

    monkeypatch.setattr(generate_module.writer, "read_stamped", spying)
    return reads


def test_a_file_hashed_once_is_not_read_again_until_it_changes(tmp_path, monkeypatch):
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    reads = _reads_of_generated_files(monkeypatch)
    assert run(SPECS, out) == 0  # hashes every file once, and records their stamps
    assert BINDING in reads
    reads.clear()
    assert run(SPECS, out) == 0
    assert reads == []  # every stamp is the one recorded: nothing read
    binding = out / BINDING
    info = binding.stat()
    text = binding.read_text(encoding="utf-8")
    binding.write_text(text.replace("import", "imqort", 1), encoding="utf-8")  # same size
    os.utime(binding, ns=(info.st_atime_ns, info.st_mtime_ns))  # and the same mtime: its ctime tells
    assert run(SPECS, out) == 0
    assert BINDING in reads  # and its operator's other files, compared with their new rendering
    assert all("tanh_backward" in path for path in reads)
    assert binding.read_text(encoding="utf-8") == text  # repaired


def test_a_stamp_as_recent_as_the_run_is_not_recorded(tmp_path, monkeypatch):
    """A file changed within the clock tick of its stamp keeps its mtime: a stamp not older
    than the run's start (the lock file's mtime) is not recorded, and the file is read again."""
    out = tmp_path / "out"
    assert run(SPECS, out) == 0
    binding = out / BINDING
    info = binding.stat()
    future = info.st_mtime_ns + 3600 * 10**9
    os.utime(binding, ns=(info.st_atime_ns, future))  # as recent as any run for an hour
    reads = _reads_of_generated_files(monkeypatch)
    assert run(SPECS, out) == 0  # hashes every file
    assert BINDING in reads
    reads.clear()
    assert run(SPECS, out) == 0
    assert reads == [BINDING]  # the others' stamps were recorded, not this one's
