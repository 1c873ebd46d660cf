"""A longer fuzz campaign than the test suite runs: python benchmarks/fuzz.py [--examples N]

Feeds the mutations of tests/test_fuzz.py to the parser, lint and diff (and to lowering and
rendering when a mutant still parses cleanly) without stopping at the first failure, and reports how many
inputs were tried, how many failed (tracebacks, wrong diagnostics or over the time bound)
and the time per input. Failing inputs are saved under benchmarks/.work/fuzz/.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import specgen  # noqa: E402
from tests.test_fuzz import check_input, mutated  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0, help="the campaign's random seed")
    parser.add_argument("--compile", action="store_true", help="also compile every rendered sample with g++")
    args = parser.parse_args()
    specgen.DEBUG = True
    saved = ROOT / "benchmarks" / ".work" / "fuzz"
    scratch = Path(tempfile.mkdtemp(prefix="specgen-fuzz-"))
    times: list[float] = []
    sizes: list[int] = []
    failures: list[str] = []
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(mutated())
    def campaign(pair: tuple[bytes, bytes]) -> None:
        original, data = pair
        start = time.monotonic()
        try:
            outcomes[check_input(original, data, scratch if args.compile else None)] += 1
            problem = None
        except Exception:  # noqa: BLE001 - recorded, the campaign goes on
            problem = traceback.format_exc(limit=-3)
        times.append(time.monotonic() - start)
        sizes.append(len(data))
        if problem:
            name = hashlib.sha256(data).hexdigest()[:12]
            saved.mkdir(parents=True, exist_ok=True)
            (saved / f"{name}.md").write_bytes(data)
            failures.append(f"{name}.md: {problem}")

    started = time.monotonic()
    try:
        seed(args.seed)(campaign)()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    total = time.monotonic() - started
    print(f"inputs tried: {len(times)} in {total:.0f} s; failures: {len(failures)}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    if times:
        print(
            f"per input: median {statistics.median(times) * 1000:.0f} ms, max {max(times):.2f} s; "
            f"sizes up to {max(sizes) / 2**20:.1f} MiB"
        )
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
