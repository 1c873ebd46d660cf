"""Interleaved whole-process runs of an earlier commit and of the working tree.

    python benchmarks/ab.py --base REV [--runs N] [--before SHELL] -- ARG...

Runs `python -m specgen ARG...` N times with the code of REV (a git worktree made for the
purpose) and N times with this checkout's, alternately, and prints the median and best
wall time of each. On a machine shared with others, timings drift by a third over minutes:
runs of two versions made one after the other compare the machine's moods, interleaved
runs compare the code. `{side}` in an argument becomes `base` or `head`, so that each
version keeps its own output folder (`-o /tmp/out-{side}`: a warm run stays warm);
`--before` runs before each command, with SIDE set in its environment.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from processes import USER_ENV  # benchmarks/ is on the path as the script's folder

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, int]:
    """Wall seconds and exit status of one run."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the commit to compare with (e.g. HEAD~1)")
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--before", default="", help="a shell command run before each run (SIDE=base|head)")
    parser.add_argument("args", nargs="+", help="the specgen command line, after --")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="specgen-ab-") as scratch:
        base = Path(scratch) / "base"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "--detach", "-q", str(base), options.base], check=True)
        try:
            times: dict[str, list[float]] = {"base": [], "head": []}
            statuses: dict[str, set[int]] = {"base": set(), "head": set()}
            roots = {"base": base, "head": ROOT}
            for _ in range(options.runs):
                for side, root in roots.items():
                    side_env = {**USER_ENV, "PYTHONPATH": str(root), "SIDE": side}
                    if options.before:
                        subprocess.run(options.before, shell=True, env=side_env, check=True)
                    args = [a.replace("{side}", side) for a in options.args]
                    # -P: the working folder (perhaps this checkout) does not come before PYTHONPATH
                    seconds, status = timed([sys.executable, "-P", "-m", "specgen", *args], side_env, os.getcwd())
                    times[side].append(seconds)
                    statuses[side].add(status)
        finally:
            subprocess.run([*git, "remove", "--force", str(base)], check=False)
    for side, values in times.items():
        print(f"{side} ({options.base if side == 'base' else 'working tree'}): "
              f"median {statistics.median(values):.3f} s, best {min(values):.3f} s, {len(values)} runs, "
              f"exit status {', '.join(map(str, sorted(statuses[side])))}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
