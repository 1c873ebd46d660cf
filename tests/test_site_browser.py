"""The report's pages as a person sees them: opened from file:// in headless Chromium (the
distribution's package, which .ci/run installs), read back from the rendered page. Each test
also asserts that the page logged no console error and sent no request beyond its own file.
Screenshots are kept under the pytest temporary folder (or $SPECGEN_SCREENSHOTS)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from specgen.cli import main
from tests.browser import Browser, executable
from tests.conftest import SPECS
from tests.test_site import SEED_NAMES, changed_pair, hostile_doc

CHROMIUM = executable()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")

# The contrast of every piece of text against what is behind it (WCAG 2 relative luminance);
# text in a closed <details> or visually hidden (.sr) is skipped, as a reader does not see it.
CONTRAST = """
(() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const worst = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length || el.closest(".sr")) continue;
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) worst.push(el.tagName + "." + el.className + ": " + ratio.toFixed(2));
  }
  return worst;
})()
"""
STRUCTURE = """
(() => {
  const levels = Array.from(document.querySelectorAll("h1,h2,h3,h4,h5,h6")).map((h) => Number(h.tagName[1]));
  const jumps = levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1);
  const headers = Array.from(document.querySelectorAll("th")).filter((th) => !th.getAttribute("scope"));
  const untitled = Array.from(document.querySelectorAll("table")).filter((t) => !t.caption);
  const inputs = Array.from(document.querySelectorAll("input")).filter(
    (i) => !document.querySelector('label[for="' + i.id + '"]'));
  const emptyLinks = Array.from(document.querySelectorAll("a")).filter((a) => !a.textContent.trim());
  return {lang: document.documentElement.lang, h1: levels.filter((l) => l === 1).length, first: levels[0],
          jumps: jumps.length, headers: headers.length, untitled: untitled.length,
          unlabelled: inputs.length, emptyLinks: emptyLinks.length};
})()
"""


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM is not None
    opened = Browser(CHROMIUM)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("SPECGEN_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def seed_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("seed-site")
    assert main(["report", str(SPECS), "-o", str(site)]) == 0
    return site


def show(browser: Browser, page: Path) -> None:
    """Open `page` and check what every page must be: nothing logged, nothing fetched."""
    problems = browser.open(page.as_uri())
    assert not problems.any(), problems


def visible_operators(browser: Browser) -> list[str]:
    return browser.evaluate(
        "Array.from(document.querySelectorAll('#operators tbody tr')).filter((r) => !r.hidden)"
        ".map((r) => r.cells[0].innerText.trim())"
    )


def cell(browser: Browser, param: str, dtype: str, product: str) -> str:
    """What the dtype × product matrix of `param` shows for `dtype` on `product`."""
    script = f"""(() => {{
      const table = document.querySelector('table.matrix[data-param={json.dumps(param)}]');
      const heads = Array.from(table.tHead.rows[0].cells).map((c) => c.innerText.trim());
      const row = Array.from(table.tBodies[0].rows).find((r) => r.cells[0].innerText.trim() === {json.dumps(dtype)});
      return row.cells[heads.indexOf({json.dumps(product)})].innerText.trim()[0];
    }})()"""
    return browser.evaluate(script)


def test_index_lists_every_seed_operator(browser, seed_site, shots):
    show(browser, seed_site / "index.html")
    assert sorted(visible_operators(browser)) == SEED_NAMES
    browser.screenshot(shots / "index.png")


def test_dtype_matrix_of_a_known_operator(browser, seed_site, shots):
    # aclnnTanhBackward.md:35: "FLOAT、FLOAT16、DOUBLE、BFLOAT16（仅Atlas A2训练系列产品支持）"
    show(browser, seed_site / "ops" / "aclnnTanhBackward.html")
    assert cell(browser, "gradOutput", "BFLOAT16", "910b") == "✓"
    assert cell(browser, "gradOutput", "BFLOAT16", "any") == "✗"
    assert cell(browser, "gradOutput", "DOUBLE", "any") == "✓"
    browser.screenshot(shots / "operator.png")


def test_the_filter_narrows_the_list_from_the_keyboard(browser, seed_site):
    show(browser, seed_site / "index.html")
    for _ in range(10):  # Tab from the top of the page until the filter has the focus
        if browser.evaluate("document.activeElement.id") == "filter":
            break
        browser.press("Tab", "Tab", 9)
    assert browser.evaluate("document.activeElement.id") == "filter"
    browser.type("tanh")
    assert visible_operators(browser) == ["aclnnTanhBackward"]
    assert browser.evaluate("document.getElementById('shown').innerText") == "1 of 3 operators shown"


def test_columns_sort(browser, seed_site):
    show(browser, seed_site / "index.html")
    enforced = (
        "Array.from(document.querySelectorAll('#operators tbody tr')).map((r) => Number(r.cells[5].dataset.value))"
    )
    button = "Array.from(document.querySelectorAll('#operators thead button')).find((b) => b.innerText.startsWith('Rules enforced'))"
    browser.evaluate(f"{button}.click()")
    ascending = browser.evaluate(enforced)
    browser.evaluate(f"{button}.click()")
    assert browser.evaluate(enforced) == sorted(ascending, reverse=True) and ascending == sorted(ascending)


def test_planted_markup_runs_nothing(browser, tmp_path):
    hostile_doc(tmp_path / "docs")
    assert main(["report", str(tmp_path / "docs"), "-o", str(tmp_path / "site")]) in (0, 1)
    show(browser, tmp_path / "site" / "ops" / "aclnnTanhBackward.html")
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.scripts.length") == 1
    assert browser.evaluate("document.querySelectorAll('[href^=\"javascript\" i], img, iframe').length") == 0
    assert "window.__pwned=5" in browser.evaluate("document.body.innerText")


def test_the_review_shows_a_breaking_change_first(browser, tmp_path, shots, capsys):
    old, new = changed_pair(tmp_path)
    capsys.readouterr()
    main(["diff", str(old), str(new), "--format", "html"])
    page = tmp_path / "diff.html"
    page.write_text(capsys.readouterr().out, encoding="utf-8")
    show(browser, page)
    first = browser.evaluate("document.querySelector('table.changes tbody tr th').innerText")
    assert first.startswith("breaking") and "dtype-removed" in first
    counts = browser.evaluate("document.getElementById('counts').innerText")
    assert re.search(r"breaking\s+3", counts) and re.search(r"non-breaking\s+\d", counts)
    browser.screenshot(shots / "diff.png")


@pytest.mark.parametrize("page", ["index.html", "ops/aclnnTanhBackward.html", "diff"])
def test_pages_pass_an_accessibility_check(browser, seed_site, tmp_path, capsys, page):
    if page == "diff":
        old, new = changed_pair(tmp_path)
        capsys.readouterr()
        main(["diff", str(old), str(new), "--format", "html"])
        target = tmp_path / "diff.html"
        target.write_text(capsys.readouterr().out, encoding="utf-8")
    else:
        target = seed_site / page
    show(browser, target)
    structure = browser.evaluate(STRUCTURE)
    assert structure == {
        "lang": "en", "h1": 1, "first": 1, "jumps": 0, "headers": 0, "untitled": 0, "unlabelled": 0, "emptyLinks": 0,
    }  # fmt: skip
    assert browser.evaluate(CONTRAST) == []


@pytest.mark.slow
def test_the_corpus_site_lists_every_function_of_its_documents(browser, corpus, tmp_path, shots):
    docs = corpus / "docs" / "ops-nn"
    assert main(["report", str(docs), "-o", str(tmp_path / "site")]) in (0, 1)  # some documents have errors
    show(browser, tmp_path / "site" / "index.html")
    shown = browser.evaluate(
        "Array.from(document.querySelectorAll('#operators tbody td.functions')).flatMap((c) => c.innerText.split(', ')).filter(Boolean)"
    )
    # every two-phase function, and every single-phase API (declared without a first phase)
    declared = re.compile(r"aclnnStatus\s+(aclnn\w+?)\s*\(")
    written = set()
    for path in docs.rglob("*.md"):
        names = set(declared.findall(path.read_text(errors="replace")))
        two_phase = {n.removesuffix("GetWorkspaceSize") for n in names if n.endswith("GetWorkspaceSize")}
        written |= two_phase | {n for n in names if n + "GetWorkspaceSize" not in names and n not in two_phase}
        written -= {n for n in names if n.endswith("GetWorkspaceSize")}
    assert written and sorted(set(shown)) == sorted(written) and len(shown) == len(set(shown))
    browser.screenshot(shots / "corpus-index.png", full_page=False)
    # aclnnCelu&aclnnInplaceCelu.md:158: "<term>Atlas 训练系列产品</term>：数据类型支持FLOAT、FLOAT16。"
    show(browser, tmp_path / "site" / "ops" / "aclnnCelu_aclnnInplaceCelu.html")
    assert cell(browser, "self", "BFLOAT16", "910") == "✗"
    assert cell(browser, "self", "BFLOAT16", "910b") == "✓"
    assert cell(browser, "self", "FLOAT", "310p") == "—"  # line 20: not supported on Atlas 推理系列产品
    browser.screenshot(shots / "corpus-operator.png", full_page=False)
    for page in sorted((tmp_path / "site" / "ops").glob("*.html"))[::10]:  # a sample of the pages, in full
        show(browser, page)
        assert browser.evaluate(STRUCTURE)["jumps"] == 0, page
