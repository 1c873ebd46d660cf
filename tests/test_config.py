"""The configuration (`[tool.specgen]` or `specgen.toml`): where it is found, what each key
does, and that command-line flags override it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from specgen.cli import main
from specgen.config import ConfigError, load
from specgen.selection import Selection, compile_glob
from tests.conftest import SPECS
from tests.conftest import run_main as run

TANH = "aclnnTanhBackward.md"


def operator_repo(root: Path) -> Path:
    """A small operator repository: two mainline operators, an experimental copy, a README."""
    for folder, name in (("activation/tanh_grad", TANH), ("activation/hardshrink_grad", "aclnnHardshrinkBackward.md")):
        (root / folder / "docs").mkdir(parents=True)
        shutil.copy(SPECS / name, root / folder / "docs" / name)
    (root / "experimental/activation/tanh_grad/docs").mkdir(parents=True)
    copy = (SPECS / TANH).read_text(encoding="utf-8").replace("DOUBLE、", "")
    (root / "experimental/activation/tanh_grad/docs" / TANH).write_text(copy, encoding="utf-8")
    (root / "README.md").write_text("# Operators\n\nNot an operator document.\n", encoding="utf-8")
    return root


# ---------------------------------------------------------------- finding it


def test_found_upward_and_paths_are_relative_to_it(tmp_path, capsys, monkeypatch):
    repo = operator_repo(tmp_path / "repo")
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "ops"\n\n[tool.specgen]\npaths = ["activation"]\noutput = "build/generated"\n',
        encoding="utf-8",
    )
    code, _, err = run(["generate"], repo / "activation" / "tanh_grad", capsys, monkeypatch)
    assert code == 0, err
    assert (repo / "build/generated/include/aclnnop/aclnn_tanh_backward.h").is_file()
    assert (repo / "build/generated/include/aclnnop/aclnn_hardshrink_backward.h").is_file()
    code, _, _ = run(["generate", "-o", str(tmp_path / "flag")], repo, capsys, monkeypatch)  # a flag overrides
    assert code == 0 and (tmp_path / "flag/samples/tanh_backward.cpp").is_file()


def test_specgen_toml_wins_over_pyproject_and_config_names_one(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.specgen]\noutput = "from-pyproject"\n', encoding="utf-8")
    (tmp_path / "specgen.toml").write_text('output = "from-specgen-toml"\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    assert load(cwd=tmp_path / "sub").output == "from-specgen-toml"
    assert load(str(tmp_path / "pyproject.toml")).output == "from-pyproject"
    (tmp_path / "specgen.toml").unlink()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")  # no [tool.specgen]
    assert load(cwd=tmp_path / "sub").file is None


def test_wrong_keys_and_values_are_usage_errors(tmp_path, capsys, monkeypatch):
    (tmp_path / "specgen.toml").write_text('outptu = "x"\n', encoding="utf-8")
    code, _, err = run(["lint"], tmp_path, capsys, monkeypatch)
    assert code == 2 and "unknown key outptu" in err
    with pytest.raises(ConfigError, match="fail-on must be error or warning or info"):
        load(cwd=_config(tmp_path, '[lint]\nfail-on = "fatal"\n'))
    with pytest.raises(ConfigError, match="paths must be a list of strings"):
        load(cwd=_config(tmp_path, 'paths = "docs"\n'))
    assert main(["--config", str(tmp_path / "missing.toml"), "lint"]) == 2


def _config(folder: Path, text: str) -> Path:
    (folder / "specgen.toml").write_text(text, encoding="utf-8")
    return folder


# ---------------------------------------------------------------- selection and precedence


def test_globs():
    assert compile_glob("**/docs/aclnn*.md").match("a/b/docs/aclnnX.md")
    assert compile_glob("**/docs/aclnn*.md").match("docs/aclnnX.md")
    assert not compile_glob("**/docs/aclnn*.md").match("docs/zh/aclnn_return_code.md")
    assert not compile_glob("aclnn*.md").match("sub/aclnnX.md")  # `*` stays in one folder
    assert compile_glob("experimental/**").match("experimental/a/b.md")
    assert compile_glob("[!R]*.md").match("aclnn.md") and not compile_glob("[!R]*.md").match("README.md")


def test_include_exclude_and_precedence(tmp_path, capsys, monkeypatch):
    repo = operator_repo(tmp_path)
    default = Selection(repo)
    assert [p.name for p in default.discover([repo])] == ["aclnnHardshrinkBackward.md", TANH, TANH]
    wide = Selection(repo, include=("**/*.md",), exclude=("experimental/**",))
    assert sorted(p.name for p in wide.discover([repo])) == ["README.md", "aclnnHardshrinkBackward.md", TANH]
    _config(repo, '[precedence]\nprefer = ["experimental/**"]\n')
    code, out, err = run(["diff", "--format", "json", ".", "activation"], repo, capsys, monkeypatch)
    # The experimental copy (without DOUBLE) now wins on the old side only.
    assert code == 0 and {c["id"] for c in json.loads(out)["changes"]} == {"dtype-added"}
    _, _, err = run(["generate", ".", "--check", "-o", str(tmp_path / "out"), "-v"], repo, capsys, monkeypatch)
    note = f"activation/tanh_grad/docs/{TANH}:14: info: aclnnTanhBackward also documented in experimental/"
    assert note in err and "it takes precedence" in err
    _, _, err = run(["lint", "."], repo, capsys, monkeypatch)  # lint reads both, and chooses nothing
    assert "also documented in" not in err
    # A hook passes file names: an excluded one is skipped, and a run with nothing left is no error.
    _config(repo, 'exclude = ["experimental/**"]\n')
    code, _, err = run(["lint", f"experimental/activation/tanh_grad/docs/{TANH}"], repo, capsys, monkeypatch)
    assert code == 0 and "every file given is excluded by the configuration" in err


# ---------------------------------------------------------------- output files of the user


def test_user_files_are_kept_without_force(tmp_path, capsys, monkeypatch):
    repo = operator_repo(tmp_path / "repo")
    _config(
        repo, 'paths = ["activation"]\noutput = "out"\nuser-files = ["python/README.md", "python/pyproject.toml"]\n'
    )
    assert run(["generate"], repo, capsys, monkeypatch)[0] == 0
    (repo / "out/python/README.md").write_text("# my package\n", encoding="utf-8")
    (repo / "out/python/pyproject.toml").write_text("# mine\n", encoding="utf-8")
    (repo / "out/notes.txt").write_text("not listed\n", encoding="utf-8")
    code, _, err = run(["generate"], repo, capsys, monkeypatch)
    assert code == 2 and "notes.txt" in err and "README.md" not in err  # only the unlisted file is foreign
    (repo / "out/notes.txt").unlink()
    assert run(["generate", "--check"], repo, capsys, monkeypatch)[:2] == (0, "")
    assert (repo / "out/python/pyproject.toml").read_text(encoding="utf-8") == "# mine\n"
    assert (repo / "out/python/README.md").read_text(encoding="utf-8") == "# my package\n"


# ---------------------------------------------------------------- lint rules


def test_lint_selection_severity_and_per_file_ignores(tmp_path, capsys, monkeypatch):
    repo = operator_repo(tmp_path)
    (repo / "activation/todo/docs").mkdir(parents=True)
    (repo / "activation/todo/docs/aclnnTodo.md").write_text("# aclnnTodo\n\nTBD\n", encoding="utf-8")

    def rules(config: str, *flags: str) -> tuple[int, list[tuple[str, str, bool]]]:
        _config(repo, config)
        command = ["lint", "activation/todo", "--format", "json", "--show-suppressed", *flags]
        code, out, _ = run(command, repo, capsys, monkeypatch)
        found = json.loads(out)["findings"] if code != 2 else []
        return code, [(f["rule"], f["severity"], f.get("suppressed", False)) for f in found if "Todo" in f["path"]]

    assert rules("") == (0, [("doc-no-api", "info", False)])  # a placeholder is not a defect
    assert rules('[lint]\nseverity = { doc-no-api = "error" }\n') == (1, [("doc-no-api", "error", False)])
    assert rules(
        '[lint]\nseverity = { doc-no-api = "error" }\nper-file-ignores = { "**/aclnnTodo.md" = ["doc-*"] }\n'
    ) == (0, [("doc-no-api", "error", True)])
    assert rules('[lint]\nignore = ["doc-no-api"]\n') == (0, [])
    assert rules('[lint]\nselect = ["header-*"]\n') == (0, [])
    assert rules('[lint]\nselect = ["header-*"]\n', "--select", "doc-*", "--fail-on", "info") == (
        1,
        [("doc-no-api", "info", False)],
    )
    assert rules('[lint]\nignore = ["doc-no-apy"]\n') == (2, [])  # a rule name that matches nothing is a typo


# ---------------------------------------------------------------- accepted changes


def test_accepted_changes_are_shown_and_never_fail(tmp_path, capsys, monkeypatch):
    old, new = tmp_path / "old" / TANH, tmp_path / "new" / TANH
    old.parent.mkdir()
    new.parent.mkdir()
    shutil.copy(SPECS / TANH, old)
    new.write_text(old.read_text(encoding="utf-8").replace("DOUBLE、", ""), encoding="utf-8")
    args = ["diff", str(old), str(new), "--fail-on", "breaking"]
    assert run(args, tmp_path, capsys, monkeypatch)[0] == 1
    code, entries, _ = run([*args, "--format", "accept"], tmp_path, capsys, monkeypatch)
    assert entries.count("[[accept]]") == 3 and 'id = "dtype-removed"' in entries and 'values = ["DOUBLE"]' in entries
    (tmp_path / "accepted.toml").write_text(entries, encoding="utf-8")
    code, text, _ = run([*args, "--accept", "accepted.toml"], tmp_path, capsys, monkeypatch)
    assert code == 0 and text.count("(accepted)") == 3
    _config(tmp_path, '[diff]\naccept = "accepted.toml"\nfail-on = "breaking"\n')
    code, out, _ = run(["diff", str(old), str(new), "--format", "json"], tmp_path, capsys, monkeypatch)
    assert code == 0 and all(c["accepted"] for c in json.loads(out)["changes"] if c["severity"] == "breaking")
    (tmp_path / "accepted.toml").write_text('[[accept]]\nid = "no-such-change"\nfunction = "x"\n', encoding="utf-8")
    assert run(["diff", str(old), str(new)], tmp_path, capsys, monkeypatch)[0] == 2


def test_the_readme_documents_every_key(monkeypatch):
    import re
    import tomllib

    from specgen import config
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Configuration") :]
    example = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    read: set[str] = set()
    finish = config._Reader.finish

    def record(reader) -> None:
        prefix = reader.where.rpartition("[")[2].rstrip("]")
        read.update(f"{prefix}.{key}" if "[" in reader.where else key for key in reader.used)
        finish(reader)

    monkeypatch.setattr(config._Reader, "finish", record)
    config.parse(tomllib.loads(example)["tool"]["specgen"], ROOT)
    tables = {"precedence", "lint", "diff", "package"}
    first_cells = re.findall(r"^\| (`[^|]*) \|", section, re.M)
    documented = {key for cell in first_cells for key in re.findall(r"`([\w.-]+)`", cell)}
    assert read - tables == documented


def test_build_folders_of_an_installed_package_are_not_foreign(tmp_path):
    from specgen.codegen.writer import foreign_files

    for name in ("python/build/lib/aclnn_ops/x.py", "python/aclnn_ops.egg-info/PKG-INFO", "python/dist/a.whl"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "python/mine.txt").write_text("", encoding="utf-8")
    assert foreign_files(tmp_path, set()) == ["python/mine.txt"]


def test_the_resolver_resolves_as_path_resolve_does(tmp_path, monkeypatch):
    from specgen.selection import Resolver

    real = tmp_path / "real"
    (real / "docs").mkdir(parents=True)
    (real / "docs" / "a.md").write_text("x", encoding="utf-8")
    (tmp_path / "linked").symlink_to(real)  # a folder reached through a link
    (real / "docs" / "b.md").symlink_to(real / "docs" / "a.md")  # a file that is a link
    (real / "docs" / "up").symlink_to("..")  # a relative link up, in the middle of paths
    monkeypatch.chdir(real)
    paths = [
        real / "docs" / "a.md",
        tmp_path / "linked" / "docs" / "a.md",
        real / "docs" / "b.md",
        tmp_path / "linked" / "docs" / "b.md",
        Path("docs/a.md"),
        Path("docs/../docs/a.md"),
        Path("docs/.."),
        real / "docs" / "missing.md",
        real / "missing" / "deeper" / "a.md",  # folders that do not exist
        tmp_path / "linked" / "docs" / "up" / "docs" / "up" / "docs" / "a.md",
        tmp_path / "linked" / "docs" / "up" / "missing" / "a.md",
    ]
    resolve = Resolver()
    assert [resolve(p) for p in paths] == [p.resolve() for p in paths]
    # a resolver holds relative folders as the working folder made them: one per run, never shared
    assert Resolver() is not Resolver()


@pytest.mark.parametrize(
    ("path", "base"),
    [("/a/b/c", "/a"), ("/a/b", "/a/b"), ("/a/bc", "/a/b"), ("/a", "/"), ("/", "/"), ("/x", "/a"), ("a/b", "a"),
     ("a", "a"), ("a", "b"), ("/a", "a")],
)  # fmt: skip
def test_relative_is_path_relative_to(path, base):
    from specgen.selection import relative

    try:
        expected = Path(path).relative_to(Path(base)).as_posix()
    except ValueError:
        expected = None
    assert relative(Path(path), Path(base)) == expected


def test_the_readme_configuration_works_when_pasted_into_a_repository(tmp_path, capsys, monkeypatch):
    """The README's `[tool.specgen]` example, pasted as is into an operator repository's
    pyproject.toml: every command runs with it (no usage error from a key it sets)."""
    import re

    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", readme[readme.index("## Configuration") :], re.S).group(1)
    repo = operator_repo(tmp_path / "repo")
    (repo / ".git").mkdir()
    (repo / "pyproject.toml").write_text('[project]\nname = "ops"\n\n' + example, encoding="utf-8")
    for command in (
        ["generate"],
        ["generate", "--check"],
        ["lint"],
        ["parse", "-q"],
        ["diff", "activation", "activation"],
    ):
        code, _, err = run(command, repo, capsys, monkeypatch)
        assert code in (0, 1), (command, err)
    assert (repo / "generated/include/aclnnop/aclnn_tanh_backward.h").is_file()
