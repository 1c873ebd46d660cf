"""Time `specgen report` on a folder of documents, as a user runs it (whole processes).

    python benchmarks/site_build.py [--docs DIR] [--work DIR] [--repeat N] [--jobs N]

Runs, each N times (median and best printed):
  cold:  `specgen report DOCS -o SITE` into a new folder;
  warm:  the same again with nothing changed (every file compared, none rewritten);
then the site's size: pages, bytes, the largest page. Default documents: the shared
corpus's ops-nn folder (527 documents).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DOCS = ROOT.parent / "shared" / "corpus" / "docs" / "ops-nn"


def run(docs: Path, site: Path, jobs: int | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers): on a shared machine the
    CPU time drifts less than the wall time."""
    command = [sys.executable, "-m", "specgen", "report", str(docs), "-o", str(site)]
    if jobs:
        command += ["-j", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if result.returncode not in (0, 1):  # 1: some documents have errors, the site is still written
        raise SystemExit(f"specgen report failed ({result.returncode}):\n{result.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=DEFAULT_DOCS)
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks" / ".work" / "site")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int)
    args = parser.parse_args()
    documents = sum(1 for _ in args.docs.rglob("*.md"))
    cold, warm = [], []
    for _ in range(args.repeat):
        shutil.rmtree(args.work, ignore_errors=True)
        cold.append(run(args.docs, args.work, args.jobs))
        warm.append(run(args.docs, args.work, args.jobs))
    pages = sorted((args.work / "ops").glob("*.html"), key=lambda p: p.stat().st_size)
    size = sum(p.stat().st_size for p in args.work.rglob("*") if p.is_file())
    print(f"{documents} documents under {args.docs}; {args.repeat} runs each")
    for name, times in (("cold", cold), ("warm", warm)):
        wall, cpu = [t for t, _ in times], [c for _, c in times]
        print(f"  {name}: wall median {statistics.median(wall):.1f} s, best {min(wall):.1f} s; ", end="")
        print(f"CPU median {statistics.median(cpu):.1f} s")
    print(f"  site: {len(pages)} operator pages, {size / 2**20:.1f} MiB; largest {pages[-1].name} ", end="")
    print(f"{pages[-1].stat().st_size / 2**10:.0f} KiB" if pages else "")


if __name__ == "__main__":
    main()
