"""`specgen report` and `specgen diff --format html` without a browser: what the pages hold,
that document text cannot become markup, determinism, and the same documents and
diagnostics as generate. (tests/test_site_browser.py looks at the pages in Chromium.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import SPECS, git, run_main, tree

SEED_NAMES = sorted(p.stem for p in SPECS.glob("aclnn*.md"))
PLANTED = (
    ("算子功能：", '算子功能：<script>window.__pwned=1</script><img src=x onerror="window.__pwned=3">'
     "[click](javascript:window.__pwned=2)"),
    ("是空指针", '是空指针<script>window.__pwned=5</script><a href="javascript:window.__pwned=7">x</a>'),
    ("数据格式支持ND。", '数据格式支持ND。<script>window.__pwned=4</script>'),
    ("int main()", 'int main()  // </script><script>window.__pwned=6</script>\nint unused()'),
)  # fmt: skip


def hostile_doc(folder: Path) -> Path:
    """The Tanh seed with markup and `javascript:` links planted in its prose, an error
    condition, a parameter and its sample program."""
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    for old, new in PLANTED:
        assert old in text, old
        text = text.replace(old, new, 1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "aclnnTanhBackward.md"
    path.write_text(text, encoding="utf-8")
    return path


def changed_pair(tmp_path: Path) -> tuple[Path, Path]:
    """The Tanh seed and a version that drops DOUBLE (breaking) and adds NCHW (not breaking)."""
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "aclnnTanhBackward.md").write_text(text, encoding="utf-8")
    changed = text.replace("DOUBLE、", "").replace("数据格式支持ND。", "数据格式支持ND、NCHW。")
    (new / "aclnnTanhBackward.md").write_text(changed, encoding="utf-8")
    return old, new


def report(args: list[str], cwd: Path, capsys, monkeypatch) -> tuple[int, str, str]:
    return run_main(["report", *args], cwd, capsys, monkeypatch)


def test_index_and_pages_of_the_seeds(tmp_path, capsys, monkeypatch):
    code, _, err = report([str(SPECS), "-o", str(tmp_path / "site")], tmp_path, capsys, monkeypatch)
    assert code == 0, err
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    listed = re.findall(r'<th scope="row"><a href="ops/([^"]+)\.html">([^<]+)</a>', index)
    assert sorted(name for _, name in listed) == SEED_NAMES
    page = (tmp_path / "site" / "ops" / "aclnnTanhBackward.html").read_text(encoding="utf-8")
    # the document's own words, located: the prototype, an error condition and its line
    assert "aclnnTanhBackwardGetWorkspaceSize" in page
    assert "传入的gradOutput、output 、gradInput是空指针" in page
    assert "specs/aclnnTanhBackward.md:44" in page


def test_same_bytes_twice_and_an_unchanged_site_is_not_rewritten(tmp_path, capsys, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    for site in (first, second):
        assert report([str(SPECS), "-o", str(site)], tmp_path, capsys, monkeypatch)[0] == 0
    assert tree(first) == tree(second)
    again = report([str(SPECS), "-o", str(first)], tmp_path, capsys, monkeypatch)
    assert "0 files written" in again[2]


def test_planted_markup_stays_text(tmp_path, capsys, monkeypatch):
    hostile_doc(tmp_path / "docs")
    report([str(tmp_path / "docs"), "-o", str(tmp_path / "site")], tmp_path, capsys, monkeypatch)
    for page in (tmp_path / "site").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert html.count("<script") == 1, page  # the page's own script only
        assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", html, re.I), page
        assert "<img" not in html and "onerror=" not in html.replace("onerror=&#34;", "")
    page = (tmp_path / "site" / "ops" / "aclnnTanhBackward.html").read_text(encoding="utf-8")
    # the planted text reaches the page as text (the parser keeps the words of markup in prose)
    assert "window.__pwned=5" in page and "window.__pwned=4" in page
    assert "&lt;/script&gt;&lt;script&gt;window.__pwned=6" in page


def test_report_says_what_generate_says(tmp_path, capsys, monkeypatch):
    """The same documents chosen, with the same diagnostics, as generate (a duplicate set aside)."""
    docs = tmp_path / "repo"
    for folder in ("ops/docs", "copy/docs"):
        (docs / folder).mkdir(parents=True)
    for seed in SPECS.glob("*.md"):
        (docs / "ops" / "docs" / seed.name).write_bytes(seed.read_bytes())
    (docs / "copy" / "docs" / "aclnnTanhBackward.md").write_bytes((SPECS / "aclnnTanhBackward.md").read_bytes())
    code_g, _, err_g = run_main(["generate", str(docs), "-o", str(tmp_path / "out")], tmp_path, capsys, monkeypatch)
    code_r, _, err_r = report([str(docs), "-o", str(tmp_path / "site")], tmp_path, capsys, monkeypatch)

    def located(err: str) -> list[str]:
        return sorted(line for line in err.splitlines() if not line.startswith("specgen:"))

    assert located(err_r) == located(err_g) and any("duplicate-document" in x for x in located(err_g))
    assert code_r == code_g == 0
    assert sorted(p.stem for p in (tmp_path / "site" / "ops").glob("*.html")) == SEED_NAMES


def test_stale_pages_go_and_foreign_folders_are_refused(tmp_path, capsys, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    for seed in SPECS.glob("*.md"):
        (docs / seed.name).write_bytes(seed.read_bytes())
    site = tmp_path / "site"
    report([str(docs), "-o", str(site)], tmp_path, capsys, monkeypatch)
    (docs / "aclnnTanhBackward.md").unlink()
    code, _, err = report([str(docs), "-o", str(site)], tmp_path, capsys, monkeypatch)
    assert code == 0 and "1 removed" in err
    assert not (site / "ops" / "aclnnTanhBackward.html").exists()
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep", encoding="utf-8")
    code, _, err = report([str(docs), "-o", str(foreign)], tmp_path, capsys, monkeypatch)
    assert code == 2 and "did not write" in err
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]


def test_diff_html_puts_breaking_changes_first(tmp_path, capsys, monkeypatch):
    old, new = changed_pair(tmp_path)
    code, html, _ = run_main(["diff", str(old), str(new), "--format", "html"], tmp_path, capsys, monkeypatch)
    assert code == 0
    severities = re.findall(r'<table class="changes" data-severity="([^"]+)"', html)
    assert severities and severities[0] == "breaking" and "non-breaking" in severities
    assert severities == sorted(severities, key=["breaking", "non-breaking", "info"].index)
    assert re.search(r"<dt>breaking</dt><dd>3</dd>", html)  # DOUBLE dropped from three tensors
    assert "format-added" in html and "old/aclnnTanhBackward.md:35" in html


def test_accepted_changes_are_shown_as_accepted(tmp_path, capsys, monkeypatch):
    old, new = changed_pair(tmp_path)
    accept = tmp_path / "accepted.toml"
    accept.write_text(
        '[[accept]]\nid = "dtype-removed"\nfunction = "aclnnTanhBackward"\nparam = "output"\n', encoding="utf-8"
    )
    args = ["diff", str(old), str(new), "--format", "html", "--accept", str(accept)]
    _, html, _ = run_main(args, tmp_path, capsys, monkeypatch)
    assert re.search(r"<dt>breaking</dt><dd>2</dd>", html) and re.search(r"<dt>accepted</dt><dd>1</dd>", html)
    assert html.count('class="change accepted-change"') == 1


def test_report_of_a_git_range_links_its_review_page(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    doc = repo / "aclnnTanhBackward.md"
    text = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    doc.write_text(text, encoding="utf-8")

    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    doc.write_text(text.replace("DOUBLE、", ""), encoding="utf-8")
    code, _, err = report([".", "--git", "HEAD", "-o", str(tmp_path / "site")], repo, capsys, monkeypatch)
    assert code == 0, err
    assert 'href="diff.html"' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    review = (tmp_path / "site" / "diff.html").read_text(encoding="utf-8")
    assert "dtype-removed" in review and "<dt>breaking</dt><dd>3</dd>" in review
    _, listed, _ = run_main(["diff", "--git", "HEAD", "--format", "json"], repo, capsys, monkeypatch)
    shown = re.findall(r"<code>([a-z-]+)</code><br>", review)
    assert sorted(shown) == sorted(c["id"] for c in json.loads(listed)["changes"])  # what diff says, all of it


def test_an_output_shows_its_shape_rule_as_typed_and_as_written():
    from specgen.parse import parse_file
    from specgen.site.pages import shape_rule

    grad_output, _, grad_input, *_ = parse_file(SPECS / "aclnnTanhBackward.md").functions[0].params
    assert shape_rule(grad_output) == ""  # an input has none
    # the seed's own row for gradInput (line 37)
    assert shape_rule(grad_input) == "same(gradOutput): shape需要与gradOutput、output相同"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ('s = "</script>";', '<span class="s">"&lt;/script&gt;"</span>'),
        ("a && b < c", "a &amp;&amp; b &lt; c"),
        ("// <b>x</b>", '<span class="c">// &lt;b&gt;x&lt;/b&gt;</span>'),
        ("aclTensor* t", '<span class="t">aclTensor</span>* t'),
    ],
)
def test_highlighting_escapes_each_token(code, expected):
    from specgen.site.highlight import c_markup

    assert expected in c_markup(code)


def made(err: str) -> int:
    return int(re.search(r"\((\d+) made", err).group(1))


def test_a_warm_run_remakes_only_what_changed(tmp_path, capsys, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    for seed in SPECS.glob("*.md"):
        (docs / seed.name).write_bytes(seed.read_bytes())
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    args = [str(docs), "-o", str(site)]
    assert made(report(args, tmp_path, capsys, monkeypatch)[2]) == 3
    assert made(report(args, tmp_path, capsys, monkeypatch)[2]) == 0
    tanh = docs / "aclnnTanhBackward.md"
    tanh.write_text(tanh.read_text(encoding="utf-8").replace("DOUBLE、", ""), encoding="utf-8")
    assert made(report(args, tmp_path, capsys, monkeypatch)[2]) == 1
    report([str(docs), "-o", str(fresh)], tmp_path, capsys, monkeypatch)
    assert tree(site) == tree(fresh)  # what the record kept is what a full run makes
    # a page edited by hand is made again; a record edited by hand is not believed
    page = site / "ops" / "aclnnHardshrinkBackward.html"
    page.write_text(page.read_text(encoding="utf-8").replace("gradOutput", "forged"), encoding="utf-8")
    assert made(report(args, tmp_path, capsys, monkeypatch)[2]) == 1 and tree(site) == tree(fresh)
    record = site / ".specgen-cache" / "report.json"
    record.write_bytes(record.read_bytes().replace(b'"hash": "', b'"hash": "0'))
    assert made(report(args, tmp_path, capsys, monkeypatch)[2]) == 3 and tree(site) == tree(fresh)


def test_source_links_follow_a_url_template(tmp_path, capsys, monkeypatch):
    url = "https://example.invalid/blob/main/{path}#L{line}"
    report([str(SPECS), "-o", str(tmp_path / "site"), "--source-url", url], tmp_path, capsys, monkeypatch)
    page = (tmp_path / "site" / "ops" / "aclnnTanhBackward.html").read_text(encoding="utf-8")
    assert '<a class="source" href="https://example.invalid/blob/main/specs/aclnnTanhBackward.md#L44"' in page


def test_a_fault_while_lowering_one_document_leaves_its_page_and_the_others(tmp_path, capsys, monkeypatch):
    from specgen.site import pages

    def broken(doc, shown):
        if doc.name == "aclnnTanhBackward":
            raise RuntimeError("boom")
        return real(doc, shown)

    real = pages.operator_code
    monkeypatch.setattr(pages, "operator_code", broken)
    code, _, err = report([str(SPECS), "-o", str(tmp_path / "site"), "-j", "1"], tmp_path, capsys, monkeypatch)
    assert code == 1 and "aclnnTanhBackward.md:1: error: internal error while generating from" in err
    assert len(list((tmp_path / "site" / "ops").glob("*.html"))) == 3
    page = (tmp_path / "site" / "ops" / "aclnnTanhBackward.html").read_text(encoding="utf-8")
    assert "no validator" in page and "RuntimeError: boom" in page


def test_a_single_phase_api_has_its_one_call_on_the_page(tmp_path, capsys, monkeypatch):
    fixture = Path(__file__).parent / "single_phase"
    code, _, err = report([str(fixture), "-o", str(tmp_path / "site")], tmp_path, capsys, monkeypatch)
    assert code == 0, err
    page = (tmp_path / "site" / "ops" / "aclnnCalculateConvolutionWeightSize.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", page)
    assert "GetWorkspaceSize(" not in text  # no first phase invented for it
    assert "Parameters of aclnnCalculateConvolutionWeightSize\n" in text
    # the document's call and the generated one, each with the value written through the pointer
    assert "aclnnCalculateConvolutionWeightSize(tensorShape, false, 1, ACL_FLOAT16, &amp;weightTensorSize);" in text
    assert (
        "aclnnCalculateConvolutionWeightSize(tensorShape.get(), transposed, groups, dataType, &amp;weightTensorSize);"
        in text
    )


def test_a_single_phase_api_not_generated_says_why_on_its_page(tmp_path, capsys, monkeypatch, write_doc):
    from tests.test_diff import SINGLE_PHASE

    folder = write_doc(SINGLE_PHASE, "aclnnTransQuantParam.md").parent
    code, _, err = report([str(folder), "-o", str(tmp_path / "site")], tmp_path, capsys, monkeypatch)
    assert code == 0, err
    page = (tmp_path / "site" / "ops" / "aclnnTransQuantParam.html").read_text(encoding="utf-8")
    assert "not generated: the generated code cannot pass its parameter scaleArray, a const float*" in page
