"""Commits of the ops-nn history judged format-only by hand (tests/format_only_verdicts.json,
each with why) give no report but the wording edits their verdict lists. The verdicts were
written from `git diff` before specgen's output was read; a random sample of the commits is
there too with the contract commits marked as such (what it tells apart). Skipped when the
bundle is absent."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from tests.test_diff_verdicts import _changes, repo  # noqa: F401 (repo: the clone fixture)

VERDICTS = json.loads((ROOT / "tests" / "format_only_verdicts.json").read_text(encoding="utf-8"))
FORMAT_ONLY = {c["commit"]: c for c in VERDICTS["commits"] if c["verdict"] == "format-only"}


def test_verdicts_are_well_formed():
    from specgen.review.diff import CATALOGUE

    for judged in VERDICTS["commits"]:
        assert judged["verdict"] in ("format-only", "contract") and judged["why"], judged
        for allowed in judged.get("allowed", []):
            assert allowed["id"] in CATALOGUE and allowed["why"], allowed
            assert CATALOGUE[allowed["id"]][0] == "info", "only wording edits are allowed"


def _allowed(change: dict, judged: dict) -> bool:
    return any(
        (a["id"], a["function"], a["param"]) == (change["id"], change["function"], change["param"])
        for a in judged.get("allowed", [])
    )


@pytest.mark.slow
@pytest.mark.parametrize("commit", sorted(FORMAT_ONLY))
def test_a_commit_judged_format_only_gives_no_change(repo, commit):  # noqa: F811
    judged = FORMAT_ONLY[commit]
    changes = _changes(repo, f"{commit}^..{commit}")
    unexpected = [f"{c['severity']} {c['id']} {c['function']} {c['param']}" for c in changes if not _allowed(c, judged)]
    assert unexpected == [], judged["why"]
