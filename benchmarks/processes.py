"""Whole processes, as a user runs them: command start to exit, output written.

    python benchmarks/processes.py [--docs DIR] [--repeat N] [--repo GIT_DIR --range A..B] [--scale 1,2,4]

Times, each the median of N runs on the same documents (default: the shared corpus):
  floor     a Python process that reads and tokenises the same documents with markdown-it-py;
  parse     `specgen parse DOCS --format json` (stdout to /dev/null);
  cold      `specgen generate DOCS -o OUT` into an empty folder;
  warm      the same again, nothing changed;
  one       the same after one document changed;
  diff-git  `specgen diff --git RANGE` in a repository (with --repo and --range).
Each with the peak resident memory of the whole process tree (sampled every 20 ms), with
Python's bytecode cache on, as a user's Python has it (PYTHONDONTWRITEBYTECODE is dropped). With
--scale, cold generate again on the corpus copied k times under new operator names, to show
how time and memory grow with the number of documents.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = """
import sys
from markdown_it import MarkdownIt
tokenizer = MarkdownIt("commonmark")
for path in open(sys.argv[1], encoding="utf-8").read().split("\\n"):
    if path:
        tokenizer.parse(open(path, "rb").read().decode("utf-8", errors="replace"))
"""
CHANGED_FROM, CHANGED_TO = "FLOAT16", "FLOAT16、INT8"


def tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [pid]
    while stack:
        p = stack.pop()
        total += rss.get(p, 0)
        stack += children.get(p, [])
    return total


# Python as a user runs it caches compiled modules (__pycache__); a sandbox or CI image may
# turn that off (PYTHONDONTWRITEBYTECODE), which would charge every process for compiling
# specgen's own modules again.
USER_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str], cwd: Path | None = None) -> tuple[float, int]:
    """Wall seconds and peak tree memory (bytes) of one command."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=USER_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    process.wait()
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    return elapsed, peak


def median_of(repeat: int, command: list[str], before=None, cwd: Path | None = None) -> tuple[float, int]:
    times, peaks = [], []
    for _ in range(repeat):
        if before:
            before()
        seconds, peak = run(command, cwd)
        times.append(seconds)
        peaks.append(peak)
    return statistics.median(times), max(peaks)


def specgen(*args: str) -> list[str]:
    return [sys.executable, "-m", "specgen", *args]


def scaled_copy(docs: Path, dest: Path, k: int) -> None:
    """The documents copied k times, copy i's operators renamed (aclnnFoo -> aclnnFooS{i})."""
    for i in range(k):
        for path in docs.rglob("*.md"):
            text = path.read_text(encoding="utf-8", errors="replace")
            if i:
                # operator names renamed, the aclnnStatus type not
                text = re.sub(r"\baclnn(?!Status\b)([A-Z]\w*?)(GetWorkspaceSize)?\b", rf"aclnn\1S{i}\2", text)
                text = re.sub(r"\baclnn_(\w+)\.h\b", rf"aclnn_\1_s{i}.h", text)
            target = dest / f"copy{i}" / "docs" / path.relative_to(docs)  # a docs/ folder: discovered
            target = target.with_name(target.name.replace("aclnn", f"aclnn{'S' * i}", 1) if i else target.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")


def whole_processes(docs_folder: Path, repeat: int, repo: Path | None = None, rev: str = "") -> dict:
    """{row: (median seconds, peak tree bytes)} for the floor and each command, run on a copy
    of the documents; with `repo`, also `diff --git rev` in it."""
    sys.path.insert(0, str(ROOT))
    from specgen.parse import discover

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        docs, out = work / "docs", work / "out"
        shutil.copytree(docs_folder, docs)
        files = discover([docs])
        listing = work / "files.txt"
        listing.write_text("\n".join(str(p) for p in files), encoding="utf-8")
        changed = next(p for p in files if CHANGED_FROM in p.read_text(encoding="utf-8", errors="replace"))
        original = changed.read_bytes()

        def reset() -> None:
            shutil.rmtree(out, ignore_errors=True)

        def change_one() -> None:
            changed.write_bytes(original)
            run(specgen("generate", str(docs), "-o", str(out)))
            changed.write_text(original.decode("utf-8", "replace").replace(CHANGED_FROM, CHANGED_TO, 1), "utf-8")

        rows = {"floor": median_of(repeat, [sys.executable, "-c", FLOOR, str(listing)])}
        rows["parse"] = median_of(repeat, specgen("parse", str(docs), "--format", "json"))
        rows["cold"] = median_of(repeat, specgen("generate", str(docs), "-o", str(out)), before=reset)
        rows["warm"] = median_of(repeat, specgen("generate", str(docs), "-o", str(out)))
        rows["one"] = median_of(repeat, specgen("generate", str(docs), "-o", str(out)), before=change_one)
        changed.write_bytes(original)
        if repo:
            rows["diff-git"] = median_of(repeat, specgen("diff", "--git", rev), cwd=repo)
    return rows


def scaling(docs_folder: Path, factors: list[int]) -> list[tuple[int, int, float, int]]:
    """(k, documents, seconds, peak tree bytes) of a cold generate on the corpus copied k times."""
    from specgen.parse import discover

    found = []
    with tempfile.TemporaryDirectory() as scratch:
        for k in factors:
            scaled = Path(scratch) / f"scaled{k}"
            scaled_copy(docs_folder, scaled, k)
            seconds, peak = median_of(1, specgen("generate", str(scaled), "-o", str(Path(scratch) / f"out{k}")))
            found.append((k, len(discover([scaled])), seconds, peak))
            shutil.rmtree(scaled)
    return found


def print_rows(rows: dict, repeat: int) -> None:
    floor, cold = rows["floor"][0], rows["cold"][0]
    print(f"whole processes, median of {repeat}, {os.cpu_count()} cores:")
    for name, (seconds, peak) in rows.items():
        extra = f"  {seconds / cold:.3f}x cold" if name in ("warm", "one") else ""
        print(f"  {name:9} {seconds:7.2f} s  {seconds / floor:5.2f}x floor  peak {peak / 2**20:6.0f} MB{extra}")


def print_scaling(found: list[tuple[int, int, float, int]]) -> None:
    for k, n, seconds, peak in found:
        print(
            f"  scale {k}: {n} documents, cold generate {seconds:6.2f} s "
            f"({seconds / n * 1000:.1f} ms a document), peak {peak / 2**20:.0f} MB"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=ROOT.parent / "shared" / "corpus" / "docs")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repo", type=Path, help="a git repository for the diff --git timing")
    parser.add_argument("--range", default="HEAD~50..HEAD")
    parser.add_argument("--scale", default="", help="e.g. 1,2,4: cold generate on the corpus copied k times")
    args = parser.parse_args()
    print_rows(whole_processes(args.docs, args.repeat, args.repo, args.range), args.repeat)
    print_scaling(scaling(args.docs, [int(n) for n in args.scale.split(",") if n]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
