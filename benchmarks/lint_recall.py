"""Lint recall and precision on document/header mismatches of a whole operator repository.

    python benchmarks/lint_recall.py --repo CLONE [--code DIR] [--expected FILE] [--show]

A clone of ops-nn (`git clone ../shared/repos/ops-nn-docs.bundle CLONE`) holds the documents
but no C headers: the headers expected.json records (one per document, from the document's own
operator folder) are written into the clone where the repository keeps them
(`<operator>/op_host/op_api/aclnn_*.h`), and `specgen lint . --headers .` runs from the clone's
root as a user would, with the specgen of `--code` (default: this checkout; give an extracted
earlier commit to measure "before").

Recall: of the mismatches read by hand (`mismatches` in tests/lint_verdicts.json), how many
have a finding on that function of that document, and how many of those point at the line the
reader named (within 2 lines). Precision: of the warnings and errors of the header rules on
documents with a known header, how many are about a mismatch read by hand; `--show` lists the
others to read.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.expected_headers import write_operator_headers  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
# The rules that say a document and its header disagree; a table row naming a parameter the
# prototype lacks (doc-param-unknown) counts for recall when it is the side that disagrees.
HEADER_RULES = re.compile(r"^header-")
MISMATCH_RULES = re.compile(r"^(header-|doc-param-unknown)")
NEAR = 2


def run_lint(repo: Path, code: Path) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run(
        [sys.executable, "-m", "specgen.cli", "lint", ".", "--headers", ".", "--format", "json"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"specgen lint failed ({done.returncode}): {done.stderr[-2000:]}")
    return json.loads(done.stdout)["findings"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--code", type=Path, default=ROOT)
    parser.add_argument("--expected", type=Path, default=CORPUS / "expected.json")
    parser.add_argument("--verdicts", type=Path, default=ROOT / "tests" / "lint_verdicts.json")
    parser.add_argument("--show", action="store_true", help="list the findings no mismatch accounts for")
    args = parser.parse_args()
    rows = json.loads(args.expected.read_text(encoding="utf-8"))
    print(f"{write_operator_headers(rows, args.repo, 'ops-nn/')} headers written into {args.repo}")
    known = {row["doc"].removeprefix("ops-nn/") for row in rows if row["functions"]}
    mismatches = json.loads(args.verdicts.read_text(encoding="utf-8"))["mismatches"]
    findings = [f for f in run_lint(args.repo, args.code) if MISMATCH_RULES.match(f["rule"])]
    found = near = 0
    for m in mismatches:
        path = m["document"].removeprefix("docs/ops-nn/")
        mine = [f for f in findings if f["path"].removeprefix("./") == path and f["function"] == m["function"]]
        close = [f for f in mine if abs(f["line"] - m["line"]) <= NEAR]
        found += bool(mine)
        near += bool(close)
        if not close:
            print(f"  {'missed' if not mine else 'elsewhere'}: {path} {m['function']} ({m['what']})")
    print(f"recall: {found} of {len(mismatches)} mismatches found, {near} at the line that disagrees")
    accounted = {(m["document"].removeprefix("docs/ops-nn/"), m["function"]) for m in mismatches}
    judged = [
        f
        for f in findings
        if HEADER_RULES.match(f["rule"])
        and f["severity"] != "info"
        and f["path"].removeprefix("./") in known
        and f["function"] is not None
    ]
    true = [f for f in judged if (f["path"].removeprefix("./"), f["function"]) in accounted]
    print(
        f"precision: {len(true)} of {len(judged)} warnings and errors of the header rules "
        "are about a mismatch read by hand"
    )
    if args.show:
        for f in judged:
            if f not in true:
                print(f"  {f['path']}:{f['line']}: {f['rule']}: {f['message']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
