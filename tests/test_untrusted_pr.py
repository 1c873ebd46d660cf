"""A pull request is untrusted too: its configuration, its file names, its blobs and what it
plants in the output folder (issue 26). Each test replays one attack of the issue.

The CI recipe of the README runs `specgen generate --check` and `specgen diff --git` on a
checkout of the pull request: everything in the repository is the attacker's, including
`pyproject.toml`, the committed output folder and the file names.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from specgen import config
from specgen.config import ConfigError, load
from tests.conftest import SPECS, git
from tests.conftest import run_main as run

TANH = "aclnnTanhBackward.md"
PAYLOAD = "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}"


def repository(root: Path, pyproject: str = "") -> Path:
    """A checkout: `.git`, one document under docs/, a pyproject with `[tool.specgen]`."""
    (root / ".git").mkdir(parents=True)
    (root / "docs").mkdir()
    shutil.copy(SPECS / TANH, root / "docs" / TANH)
    (root / "pyproject.toml").write_text(f'[project]\nname = "ops"\n\n[tool.specgen]\n{pyproject}', encoding="utf-8")
    return root


def not_the_callers(path: Path, monkeypatch) -> None:
    """Make `path` another user's, as planted in a shared folder."""
    if os.getuid() == 0:
        os.chown(path, 12345, -1)
    else:  # cannot give a file away: pretend to be someone else
        monkeypatch.setattr(config, "_caller", lambda: os.getuid() + 1)


# ---------------------------------------------------------------- 1. configuration cannot run code


def test_templates_from_the_configuration_cannot_run_code(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo", 'templates = "evil"\n')
    (repo / "evil").mkdir()
    (repo / "evil" / "header.h.jinja").write_text(PAYLOAD + "\n", encoding="utf-8")
    code, _, err = run(["generate", "docs", "-o", "generated", "--check"], repo, capsys, monkeypatch)
    assert not (repo / "PWNED").exists()
    assert code == 2 and "evil/header.h.jinja" in err and "unsafe" in err


def test_templates_given_on_the_command_line_are_sandboxed_too(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo")
    (repo / "evil").mkdir()
    (repo / "evil" / "header.h.jinja").write_text(PAYLOAD + "\n", encoding="utf-8")
    code, _, _ = run(["generate", "docs", "-o", "out", "--templates", "evil"], repo, capsys, monkeypatch)
    assert code == 2 and not (repo / "PWNED").exists()


def test_harmless_custom_templates_still_render(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo", 'templates = "mine"\n')
    (repo / "mine").mkdir()
    (repo / "mine" / "header.h.jinja").write_text(
        "// {{ op.snake }}: {{ op.functions | length }} functions\n", encoding="utf-8"
    )
    code, _, err = run(["generate", "docs", "-o", "out"], repo, capsys, monkeypatch)
    assert code == 0, err
    header = (repo / "out/include/aclnnop/aclnn_tanh_backward.h").read_text(encoding="utf-8")
    assert header == "// tanh_backward: 1 functions\n"


def test_the_search_stops_at_the_repository_root(tmp_path):
    (tmp_path / "specgen.toml").write_text('output = "../../planted"\n', encoding="utf-8")  # above the checkout
    repo = repository(tmp_path / "repo")
    (repo / "pyproject.toml").write_text('[project]\nname = "ops"\n', encoding="utf-8")  # no [tool.specgen]
    (repo / "docs" / "sub").mkdir()
    settings = load(cwd=repo / "docs" / "sub")
    assert settings.file is None


def test_a_configuration_of_another_user_is_ignored(tmp_path, monkeypatch):
    planted = tmp_path / "specgen.toml"  # as in /tmp, mode 1777, by another user
    planted.write_text('templates = "evil"\n', encoding="utf-8")
    not_the_callers(planted, monkeypatch)
    (tmp_path / "project").mkdir()
    settings = load(cwd=tmp_path / "project")
    assert settings.file is None and settings.templates is None
    assert any("specgen.toml" in w and "owned by" in w for w in settings.warnings)


@pytest.mark.parametrize("mode", [0o666, 0o664])
def test_a_configuration_others_can_write_is_ignored(tmp_path, mode):
    planted = tmp_path / "specgen.toml"
    planted.write_text('templates = "evil"\n', encoding="utf-8")
    planted.chmod(mode)
    settings = load(cwd=tmp_path)
    assert settings.file is None
    assert any("writable" in w for w in settings.warnings)


@pytest.mark.parametrize(
    "key", ['output = "../outside"', 'templates = "/etc"', 'paths = ["/"]', '[tool.specgen.lint]\nheaders = "../../x"']
)
def test_paths_of_the_configuration_stay_inside_the_repository(tmp_path, key):
    repo = repository(tmp_path / "repo", key + "\n")
    settings = load(cwd=repo)
    with pytest.raises(ConfigError, match="outside the repository"):
        value = settings.output or settings.templates or settings.lint.headers or settings.paths[0]
        settings.path(value)


def test_a_committed_link_cannot_take_a_configured_path_outside(tmp_path, capsys, monkeypatch):
    (tmp_path / "outside").mkdir()
    repo = repository(tmp_path / "repo", 'output = "build/generated"\n')
    (repo / "build").symlink_to(tmp_path / "outside")
    code, _, err = run(["generate", "docs"], repo, capsys, monkeypatch)
    assert code == 2 and "outside the repository" in err
    assert list((tmp_path / "outside").iterdir()) == []


def test_paths_given_on_the_command_line_go_anywhere(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo", 'output = "build/generated"\n')
    code, _, err = run(["generate", "docs", "-o", str(tmp_path / "elsewhere")], repo, capsys, monkeypatch)
    assert code == 0, err
    assert (tmp_path / "elsewhere/include/aclnnop/aclnn_tanh_backward.h").is_file()


# ---------------------------------------------------------------- 2. --check sees everything


PLANTED = (
    "python/aclnn_ops/__pycache__/tanh_backward.cpython-311.pyc",  # an unchecked-hash .pyc runs instead
    "python/build/lib/aclnn_ops/tanh_backward.py",  # ships in the wheel built from python/
    "python/aclnn_ops.egg-info/PKG-INFO",
    "python/dist/aclnn_ops-0.0.0-py3-none-any.whl",
    ".github/workflows/x.yml",
    ".specgen-cache/planted.py",
    "stray.txt",
)


@pytest.fixture
def generated_repo(tmp_path, capsys, monkeypatch) -> Path:
    repo = repository(tmp_path / "repo")
    code, _, err = run(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)
    assert code == 0, err
    return repo


@pytest.mark.parametrize("planted", PLANTED)
def test_check_lists_every_file_the_manifest_does_not(generated_repo, planted, capsys, monkeypatch):
    target = generated_repo / "generated" / planted
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"import os; os.system('touch PWNED')\n")
    code, out, _ = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    assert code == 3 and f"? {planted}" in out.splitlines()


def test_a_configured_ignore_list_lets_the_users_build_products_be(generated_repo, capsys, monkeypatch):
    with (generated_repo / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write('output-ignore = ["python/build/**", "python/*.egg-info/**"]\n')
    for planted in PLANTED[1:3]:
        (generated_repo / "generated" / planted).parent.mkdir(parents=True, exist_ok=True)
        (generated_repo / "generated" / planted).write_text("", encoding="utf-8")
    code, out, err = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    # What Python would run is drift whatever the (pull request's) configuration ignores.
    assert code == 3 and out == f"? {PLANTED[1]}\n", err
    (generated_repo / "generated" / PLANTED[1]).unlink()
    code, out, err = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    assert code == 0 and out == "", err
    (generated_repo / "generated/python/aclnn_ops/__pycache__").mkdir()
    (generated_repo / "generated/python/aclnn_ops/__pycache__/x.pyc").write_text("", encoding="utf-8")
    code, out, _ = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    assert code == 3 and out == "? python/aclnn_ops/__pycache__/x.pyc\n"


def test_user_files_and_the_ignore_list_are_part_of_the_cache_key(generated_repo, capsys, monkeypatch):
    import json

    with (generated_repo / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write('user-files = ["tests/test_*.py"]\n')
    code, _, err = run(["generate", "docs", "-o", "generated"], generated_repo, capsys, monkeypatch)
    assert code == 0, err
    manifest = json.loads((generated_repo / "generated/.specgen-manifest.json").read_text(encoding="utf-8"))
    assert "tests/test_tanh_backward.py" in manifest["user"]
    assert "tests/test_tanh_backward.py" not in manifest["generated"]


# ---------------------------------------------------------------- 3. every name printed safely

# GitHub Actions runs any line of a step's output that starts with `::` as a workflow command.
WORKFLOW = "aclnnZ\n::error file=README.md,line=1::forged\n::stop-commands::tok\n.md"
FORMAT_CHARACTERS = "\u0600\u0601\u0605\u06dd\u070f\u08e2\U000110bd\U00013430\U0001bca0"


def _workflow_commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("::")]


def test_every_format_character_is_unsafe_as_a_class():
    import unicodedata

    from specgen.text import UNSAFE

    for ch in FORMAT_CHARACTERS:
        assert UNSAFE.match(ch), f"U+{ord(ch):04X}"
    # The table is frozen (output must not change with the Python running specgen); this keeps
    # it the whole class: every format, control and line/paragraph separator of this Python's
    # Unicode database.
    missing = [
        f"U+{c:04X}"
        for c in range(0x110000)
        if unicodedata.category(chr(c)) in ("Cf", "Cc", "Zl", "Zp") and chr(c) not in "\t\n"
        if not UNSAFE.match(chr(c))
    ]
    assert missing == []


@pytest.fixture
def workflow_repo(tmp_path) -> Path:
    repo = repository(tmp_path / "repo")
    shutil.copy(SPECS / TANH, repo / "docs" / WORKFLOW)
    (repo / "docs" / TANH).unlink()
    shutil.copy(SPECS / "aclnnHardshrinkBackward.md", repo / "docs" / "aclnnHardshrinkBackward.md")
    return repo


@pytest.mark.parametrize(
    "command",
    [
        ["generate", "docs", "-o", "out"],
        ["generate", "docs", "-o", "out", "--check"],
        ["parse", "docs"],
        ["parse", "docs", "-q"],
        ["lint", "docs"],
        ["lint", "docs", "--format", "markdown"],
        ["diff", "docs", "docs", "--format", "markdown"],
    ],
)
def test_a_file_name_cannot_print_a_workflow_command(workflow_repo, command, capsys, monkeypatch):
    broken = "# broken\n\n```cpp\naclnnStatus aclnnBrokenGetWorkspaceSize(int x,\n```\n"
    (workflow_repo / "docs" / WORKFLOW).write_text(broken, encoding="utf-8")  # an error names it
    _, out, err = run(command, workflow_repo, capsys, monkeypatch)
    assert _workflow_commands(out) == [] and _workflow_commands(err) == []
    assert "::error file=README.md" in out + err or "markdown" in command  # the name is there, escaped


def test_github_format_prints_only_its_own_annotations(workflow_repo, capsys, monkeypatch):
    (workflow_repo / "docs" / WORKFLOW).write_text(
        (SPECS / TANH).read_text(encoding="utf-8").replace("aclnnStatus aclnnTanhBackward", "int aclnnTanhBackward"),
        encoding="utf-8",
    )
    _, out, err = run(["lint", "docs", "--format", "github"], workflow_repo, capsys, monkeypatch)
    commands = _workflow_commands(out)
    assert commands and all(
        line.startswith(("::error file=", "::warning file=", "::notice file=")) for line in commands
    )
    assert all(line.count("::") == 2 for line in commands), commands  # the forged ones are inside, escaped
    assert _workflow_commands(err) == []


def test_a_document_whose_name_is_not_utf8_is_reported_and_the_others_generated(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo")
    bad = os.path.join(os.fsencode(repo / "docs"), b"aclnnBad\xff.md")
    shutil.copy(SPECS / "aclnnHardshrinkBackward.md", bad)
    code, _, err = run(["generate", "docs", "-o", "out"], repo, capsys, monkeypatch)
    assert (repo / "out/include/aclnnop/aclnn_tanh_backward.h").is_file(), err
    assert code == 1 and "aclnnBad\\xff.md" in err and "not UTF-8" in err
    assert "\udcff" not in err


def test_check_lists_planted_names_escaped(generated_repo, capsys, monkeypatch):
    (generated_repo / "generated" / "x\x1b]0;owned\x07\n::error::y").write_text("", encoding="utf-8")
    code, out, _ = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    assert code == 3 and "? x\\x1b]0;owned\\x07\\n::error::y\n" in out
    code, _, err = run(["generate", "docs", "-o", "generated"], generated_repo, capsys, monkeypatch)
    assert code == 2 and "x\\x1b]0;owned\\x07\\n::error::y" in err and "\x1b" not in err


HOSTILE_TEXT = "a\x1b[31m\x07\u202e\u0600\n::error::b &#91;x&#93;&#40;https://evil&#41; [y](https://e) @octocat"


def test_accept_entries_are_valid_toml_without_a_raw_control(tmp_path):
    import tomllib

    from specgen.diagnostics import Location
    from specgen.review.accept import entries_toml
    from specgen.review.diff import Change, ChangeId
    from specgen.text import UNSAFE

    change = Change(
        ChangeId.DTYPE_REMOVED, "aclnnX", HOSTILE_TEXT, None, None, Location("d.md", 1), None, (HOSTILE_TEXT,)
    )
    text = entries_toml([change])
    assert UNSAFE.search(text) is None and _workflow_commands(text) == []
    entry = tomllib.loads(text)["accept"][0]
    assert entry["param"] == HOSTILE_TEXT and entry["values"] == [HOSTILE_TEXT]


def test_markdown_escapes_links_and_mentions():
    from specgen.diagnostics import Location
    from specgen.review.report import Item, markdown

    text = markdown([Item("rule", "error", HOSTILE_TEXT, Location(HOSTILE_TEXT, 1))], "t", ["error"])
    assert "&#91;" not in text.replace("&amp;#91;", "") and "[y]" not in text
    assert "@octocat" not in text and "\x1b" not in text and _workflow_commands(text) == []


def test_sarif_and_text_reports_escape_names():
    import json

    from specgen.diagnostics import Location
    from specgen.review.report import Item, sarif, text
    from specgen.text import UNSAFE

    item = Item("rule", "error", HOSTILE_TEXT, Location(HOSTILE_TEXT, 1))
    log = sarif([item], {"rule": ("error", "a rule")})
    assert UNSAFE.search(log) is None and json.loads(log)["runs"][0]["results"][0]["message"]["text"] == HOSTILE_TEXT
    printed = text([item], colour=False)
    assert UNSAFE.search(printed) is None and _workflow_commands(printed) == []


# ---------------------------------------------------------------- 4. bounded reads


def _commit(repo: Path, message: str) -> None:
    git(repo, "add", ".")
    git(repo, "commit", "-qm", message)


def _base_commit(repo: Path) -> Path:
    """A git repository with one document, committed."""
    (repo / "docs").mkdir(parents=True)
    shutil.copy(SPECS / TANH, repo / "docs" / TANH)
    git(repo, "init", "-q")
    _commit(repo, "base")
    return repo


def test_diff_git_never_reads_a_blob_larger_than_a_document(tmp_path, monkeypatch):
    from specgen.parse import MAX_DOCUMENT
    from specgen.review import gitsource
    from specgen.selection import Selection

    repo = _base_commit(tmp_path / "repo")
    (repo / "docs" / "aclnnHuge.md").write_bytes(b"# huge\n" * (MAX_DOCUMENT // 7 + 10))
    (repo / "docs" / TANH).write_text((SPECS / TANH).read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    _commit(repo, "head")
    asked: list[bytes] = []
    real = gitsource._git

    def spy(*args, cwd, stdin=None):
        if "--batch" in args:
            asked.append(stdin or b"")
        return real(*args, cwd=cwd, stdin=stdin)

    monkeypatch.setattr(gitsource, "_git", spy)
    old, new = gitsource.documents_between("HEAD~1..HEAD", "docs", Selection.default(), cwd=repo, jobs=1)
    huge = next(d for d in new if d.source.endswith("aclnnHuge.md"))
    assert [d.code for d in huge.diagnostics] == ["too-large"]
    huge_blob = gitsource.Repository(repo).listing(
        gitsource.Repository(repo).commit("HEAD"), "docs", Selection.default()
    )
    assert huge_blob["docs/aclnnHuge.md"].encode() not in b"".join(asked)
    assert any(d.source.endswith(TANH) and d.functions for d in new)  # the others are read


def _special(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")


def _run_cli(args: list[str], cwd: Path) -> tuple[int, str]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "specgen", *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    return done.returncode, done.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_header_that_is_a_fifo_or_dev_zero_is_refused_unread(tmp_path, kind):
    repo = repository(tmp_path / "repo")
    (repo / "include").mkdir()
    _special(kind, repo / "include" / "aclnn_tanh_backward.h")
    code, err = _run_cli(["lint", "docs", "--headers", "include"], repo)
    assert code == 2 and "not a regular file" in err, err


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_an_accept_file_that_is_a_fifo_or_dev_zero_is_refused_unread(tmp_path, kind):
    repo = repository(tmp_path / "repo")
    _special(kind, repo / "accepted.toml")
    code, err = _run_cli(["diff", "docs", "docs", "--accept", "accepted.toml"], repo)
    assert code == 2 and "not a regular file" in err, err


DEPTH = 1100


def _remove_deep(folder: Path) -> None:
    """Remove a chain of DEPTH folders `d/d/d...` without recursion (shutil.rmtree recurses)."""
    os.chdir(folder)
    for _ in range(DEPTH):
        os.chdir("d")
    for name in os.listdir("."):
        os.unlink(name)
    for _ in range(DEPTH):
        os.chdir("..")
        os.rmdir("d")


def test_a_folder_tree_thousands_of_levels_deep_is_walked(capsys, monkeypatch):
    import tempfile

    # Not under tmp_path: pytest removes old ones with shutil.rmtree, which recurses.
    top = Path(tempfile.mkdtemp(prefix="specgen-deep-"))
    repo = repository(top / "repo")
    monkeypatch.chdir(repo / "docs")
    for _ in range(DEPTH):  # each level made from the last: no path handed to the kernel is long
        os.mkdir("d")
        os.chdir("d")
    shutil.copy(SPECS / "aclnnHardshrinkBackward.md", "aclnnHardshrinkBackward.md")
    try:
        code, _, err = run(["generate", "docs", "-o", "out"], repo, capsys, monkeypatch)
        assert code == 0, err
        assert (repo / "out/include/aclnnop/aclnn_tanh_backward.h").is_file()
    finally:
        _remove_deep(repo / "docs")
        shutil.rmtree(top)


def _headers(folder: Path, count: int) -> Path:
    folder.mkdir()
    body = "".join(
        f"/* {i} */\naclnnStatus aclnnOp{i}GetWorkspaceSize(const aclTensor *self, aclTensor *out, "
        f"uint64_t *workspaceSize, aclOpExecutor **executor);\n"
        for i in range(count)
    )
    (folder / "aclnn_many.h").write_text(body, encoding="utf-8")
    return folder


def test_reading_headers_is_linear_in_the_number_of_prototypes(tmp_path):
    import time

    from specgen.review.lint import read_headers

    def seconds(count: int) -> float:
        folder = _headers(tmp_path / str(count), count)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            declared, _ = read_headers(folder)
            best = min(best, time.perf_counter() - start)
        assert len(declared) == count and declared[f"aclnnOp{count - 1}GetWorkspaceSize"][0].location.line == 2 * count
        return best

    small, large = seconds(2000), seconds(8000)
    assert large < 6 * small + 0.2, (small, large)  # quadratic: 16 times (0.9 s -> 7 s before)


# ---------------------------------------------------------------- 5. the smaller items


def test_a_hard_link_at_the_lock_is_refused_and_its_file_kept(tmp_path, capsys, monkeypatch):
    repo = repository(tmp_path / "repo")
    secret = tmp_path / "secret"
    secret.write_text("precious\n", encoding="utf-8")
    (repo / "generated").mkdir()
    os.link(secret, repo / "generated" / ".specgen-lock")
    code, _, err = run(["generate", "docs", "-o", "generated"], repo, capsys, monkeypatch)
    assert secret.read_text(encoding="utf-8") == "precious\n"
    assert code == 2 and "hard link" in err


def test_a_manifest_listing_specgens_own_files_cannot_delete_them(generated_repo):
    import json

    from specgen.codegen import writer

    out = generated_repo / "generated"
    manifest = json.loads((out / writer.MANIFEST).read_text(encoding="utf-8"))
    own = [writer.LOCK, writer.MANIFEST, ".specgen-cache/state.json", ".specgen-cache/CACHEDIR.TAG"]
    manifest["generated"] += own
    (out / writer.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (out / writer.LOCK).write_text("", encoding="utf-8")
    plan = writer.plan(out, tmp := out / "staged-nothing", [], [])
    assert not set(own) & set(plan.delete)
    assert any("specgen's own" in w for w in plan.warnings)
    assert not tmp.exists()


def test_a_linked_folder_on_the_way_to_the_output_is_refused(tmp_path, capsys, monkeypatch):
    (tmp_path / "outside").mkdir()
    repo = repository(tmp_path / "repo")
    (repo / "build").symlink_to("../outside")  # committed by the pull request
    code, _, err = run(["generate", "docs", "-o", "build/generated"], repo, capsys, monkeypatch)
    assert code == 2 and "symbolic link" in err
    assert list((tmp_path / "outside").iterdir()) == []


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    import specgen

    monkeypatch.setenv("XDG_CACHE_HOME", "generated/.keys")  # a committed key would re-sign a forged record
    assert specgen.user_cache_folder() == Path.home() / ".cache" / "specgen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert specgen.user_cache_folder() == tmp_path / "specgen"


def _two_phase(name: str, params: str) -> str:
    return (
        f"# {name}\n\n## 函数原型\n\n```Cpp\naclnnStatus {name}GetWorkspaceSize({params}, aclTensor* out, "
        "uint64_t* workspaceSize, aclOpExecutor** executor)\n"
        f"aclnnStatus {name}(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)\n"
        "```\n"
    )


def test_generated_names_never_shadow_the_modules_own(tmp_path, capsys, monkeypatch):
    import ast

    repo = repository(tmp_path / "repo")
    for name in ("aclnnCheck", "aclnnRt", "aclnnCtypes"):
        (repo / "docs" / f"{name}.md").write_text(
            _two_phase(name, "const aclTensor* call, const aclTensor* rt, const aclTensor* check"), encoding="utf-8"
        )
    code, _, err = run(["generate", "docs", "-o", "out"], repo, capsys, monkeypatch)
    assert code in (0, 1), err
    modules = sorted((repo / "out/python/aclnn_ops").glob("*.py"))
    bindings = [m for m in modules if m.stem in ("check", "rt", "ctypes") or m.stem.rstrip("_") in ("check", "rt")]
    assert len(bindings) == 3, [m.name for m in modules]
    for module in bindings:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {
            a.asname or a.name for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names
        }
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert not imported & defined, module
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            params = {a.arg for a in (*fn.args.args, *fn.args.kwonlyargs)}
            bound = {t.id for node in ast.walk(fn) for t in _targets(node)}
            assert not params & (bound | imported), (module.name, fn.name, params & (bound | imported))


def _targets(node) -> list:
    import ast

    if isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
        return [node.optional_vars]
    if isinstance(node, ast.Assign):
        return [t for t in node.targets if isinstance(t, ast.Name)]
    return []


def test_a_name_that_is_not_utf8_is_an_error_in_every_format(tmp_path, capsys, monkeypatch):
    import json

    repo = repository(tmp_path / "repo")
    shutil.copy(SPECS / "aclnnHardshrinkBackward.md", os.path.join(os.fsencode(repo / "docs"), b"aclnnBad\xff.md"))
    code, out, _ = run(["parse", "docs", "--format", "json"], repo, capsys, monkeypatch)
    models = json.loads(out)
    assert code == 1 and [m["source"] for m in models] == ["docs/aclnnBad\\xff.md", f"docs/{TANH}"]
    for fmt in ("json", "sarif", "junit", "markdown", "github", "text"):
        code, out, err = run(["lint", "docs", "--format", fmt], repo, capsys, monkeypatch)
        assert code == 1 and "internal error" not in err and "\udcff" not in out + err, fmt


@pytest.mark.parametrize("kind", ["fifo", "zero", "outside"])
def test_a_template_that_is_a_link_or_a_fifo_is_refused_unread(tmp_path, kind):
    repo = repository(tmp_path / "repo", 'templates = "mine"\n')
    (repo / "mine").mkdir()
    if kind == "outside":
        (tmp_path / "secret").write_text("TOKEN\n", encoding="utf-8")
        (repo / "mine" / "header.h.jinja").symlink_to(tmp_path / "secret")
    else:
        _special(kind, repo / "mine" / "header.h.jinja")
    code, err = _run_cli(["generate", "docs", "-o", "out"], repo)
    assert code == 2 and "header.h.jinja" in err, err
    assert not (repo / "out").exists() or "TOKEN" not in "".join(
        p.read_text(encoding="utf-8") for p in (repo / "out").rglob("*.h")
    )


@pytest.mark.parametrize("fmt", ["sarif", "json", "markdown", "text", "github", "junit"])
def test_diff_git_reports_a_committed_name_that_is_not_utf8(tmp_path, fmt, capsys, monkeypatch):
    repo = _base_commit(tmp_path / "repo")
    shutil.copy(SPECS / "aclnnHardshrinkBackward.md", os.path.join(os.fsencode(repo / "docs"), b"aclnnBad\xff.md"))
    _commit(repo, "head")
    code, out, err = run(["diff", "--git", "HEAD~1..HEAD", "docs", "--format", fmt], repo, capsys, monkeypatch)
    assert code == 0 and "internal error" not in err and "\udcff" not in out + err, err


@pytest.mark.parametrize("key", ["output-ignore", "user-files"])
def test_a_configuration_cannot_hide_planted_code_from_check(generated_repo, key, capsys, monkeypatch):
    with (generated_repo / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write(f'{key} = ["**"]\n')
    assert run(["generate", "docs", "-o", "generated"], generated_repo, capsys, monkeypatch)[0] == 0
    planted = generated_repo / "generated" / PLANTED[0]
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_bytes(b"planted")
    code, out, _ = run(["generate", "docs", "-o", "generated", "--check"], generated_repo, capsys, monkeypatch)
    assert code == 3 and f"? {PLANTED[0]}" in out.splitlines()


def test_a_glob_that_would_backtrack_is_refused_and_repeated_folders_collapse(tmp_path, capsys, monkeypatch):
    from specgen.selection import compile_glob

    assert compile_glob("**/**/**/docs/a*.md").pattern == compile_glob("**/docs/a*.md").pattern
    repo = repository(tmp_path / "repo")
    (repo / "specgen.toml").write_text('include = ["' + "*a" * 30 + 'b"]\n', encoding="utf-8")
    code, _, err = run(["parse", "docs"], repo, capsys, monkeypatch)
    assert code == 2 and "wildcards" in err  # refused before any path is matched against it
