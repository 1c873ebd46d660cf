"""Time specgen on a set of documents, against the floor of markdown-it-py tokenising them.

    python benchmarks/run.py [--docs DIR] [--work DIR] [--repeat N] [--jobs N]
                             [--in-process-only] [--repo GIT_DIR --range A..B] [--scale 1,2,4]

Stages, each the best of N runs, on the same documents (default: the shared corpus):
  (a) markdown-it-py tokenising every document (decoded text -> tokens), on one core: the
      floor no parser built on markdown-it-py can beat on one core;
  (b) `specgen parse DOCS --format json` (output discarded);
  (c) a cold `specgen generate` into an empty folder;
  (d) a warm `specgen generate` with nothing changed;
  (e) a warm `specgen generate` after one document changed.
Prints seconds, ratios to (a) and to (c), and peak resident memory. Stages run in this
process (workers are forked from it), so interpreter start-up is not counted there.

Then the same as a user sees it (`processes.py`): whole processes from start to exit with the
output written, against a process that reads and tokenises the documents, each with the peak
memory of the process tree; with --repo, `diff --git RANGE`; with --scale, cold generate on the
corpus copied k times. --in-process-only skips these.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import resource
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import processes  # noqa: E402  (benchmarks/ is on the path as the script's folder)
from markdown_it import MarkdownIt  # noqa: E402

from specgen import cli  # noqa: E402
from specgen.codegen.generate import generate  # noqa: E402
from specgen.parse import discover  # noqa: E402
from specgen.text import decode  # noqa: E402

CHANGED_FROM, CHANGED_TO = "FLOAT16", "FLOAT16、INT8"


def best(function, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=ROOT.parent / "shared" / "corpus" / "docs")
    parser.add_argument(
        "--work",
        type=Path,
        default=ROOT / "benchmarks" / ".work",
        help="scratch folder (a copy of the documents and the output); default benchmarks/.work",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, help="worker processes (default: one per core)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--in-process-only", action="store_true", help="skip the whole-process timings")
    parser.add_argument("--repo", type=Path, help="a git repository for the diff --git timing")
    parser.add_argument("--range", default="HEAD~50..HEAD")
    parser.add_argument("--scale", default="", help="e.g. 1,2,4: cold generate on the corpus copied k times")
    args = parser.parse_args()
    if not args.docs.is_dir():
        parser.error(f"no documents folder {args.docs} (give --docs)")

    docs = args.work / "docs"
    out = args.work / "generated"
    shutil.rmtree(args.work, ignore_errors=True)
    shutil.copytree(args.docs, docs)
    files = discover([docs])
    texts = [decode(p.read_bytes())[0] for p in files]
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    changed = next(p for p in files if CHANGED_FROM in p.read_text(encoding="utf-8", errors="replace"))
    original = changed.read_bytes()

    tokenizer = MarkdownIt("commonmark")
    floor = best(lambda: [tokenizer.parse(t) for t in texts], args.repeat)

    def parse_command() -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli.main(["parse", str(docs), "--format", "json"])

    def run_generate() -> None:
        generate([docs], out, jobs=args.jobs)

    def reset_output() -> None:
        shutil.rmtree(out, ignore_errors=True)

    def change_one() -> None:
        changed.write_bytes(original)
        run_generate()  # current again
        text = original.decode("utf-8", errors="replace")
        changed.write_text(text.replace(CHANGED_FROM, CHANGED_TO, 1), encoding="utf-8")

    parse = best(parse_command, args.repeat)
    cold = best(run_generate, args.repeat, before=reset_output)
    warm = best(run_generate, args.repeat)
    one = best(run_generate, args.repeat, before=change_one)
    changed.write_bytes(original)

    self_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    figures = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()} {platform.release()}",
        "documents": len(files),
        "megabytes": round(megabytes, 1),
        "jobs": args.jobs or os.cpu_count(),
        "seconds": {"tokenise": floor, "parse": parse, "cold": cold, "warm": warm, "one_changed": one},
        "peak_rss_mb": {"main": round(self_rss), "largest_worker": round(child_rss)},
    }
    whole = {} if args.in_process_only else processes.whole_processes(args.docs, args.repeat, args.repo, args.range)
    scaled = processes.scaling(args.docs, [int(n) for n in args.scale.split(",") if n])
    if whole:
        figures["whole_process"] = {n: {"seconds": s, "peak_tree_mb": round(p / 2**20)} for n, (s, p) in whole.items()}
    if scaled:
        figures["scaling"] = [
            {"copies": k, "documents": n, "seconds": s, "peak_tree_mb": round(p / 2**20)} for k, n, s, p in scaled
        ]
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{len(files)} documents, {megabytes:.1f} MB; {figures['machine']}")
    print(f"in this process, best of {args.repeat}:")
    rows = [
        ("(a) markdown-it-py tokenise", floor, ""),
        ("(b) specgen parse", parse, ""),
        ("(c) generate, cold", cold, ""),
        ("(d) generate, warm, nothing changed", warm, f"{warm / cold:.3f}x cold"),
        ("(e) generate, one document changed", one, f"{one / cold:.3f}x cold"),
    ]
    for label, seconds, extra in rows:
        print(f"  {label:38} {seconds:7.3f} s  {seconds / floor:5.2f}x (a)  {extra}")
    print(f"  peak resident memory: main {self_rss:.0f} MB, largest worker {child_rss:.0f} MB")
    if whole:
        processes.print_rows(whole, args.repeat)
    processes.print_scaling(scaled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
