"""Run documents' own sample calls and example programs through the generated validators.

    python benchmarks/oracle.py --docs DIR [--examples DIR] [--out DIR]

For a folder of operator documents (e.g. a clone of another operator repository) and,
optionally, its example programs: how many functions' sample calls are fully read, how many
generated samples make exactly that call, the rules spared because the document's own call
breaks them, and every example call the generated validators reject. The same measurement
as tests/test_oracle.py, on material outside the shared corpus.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from specgen.parse import parse_paths  # noqa: E402
from tests.oracle import document_calls, example_calls, generate_package, validate_all  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, required=True)
    parser.add_argument("--examples", type=Path)
    parser.add_argument("--out", type=Path, help="where to generate (default: a temporary folder)")
    args = parser.parse_args()
    docs = parse_paths([args.docs])
    with tempfile.TemporaryDirectory() as scratch:
        package = generate_package(args.docs, args.out or Path(scratch))
        report = document_calls(docs)
        read = len(report.calls)
        rejected = [(n, p) for (n, _), p in zip(report.calls, validate_all(package, report.calls), strict=True) if p]
        print(
            f"{report.functions} functions; sample calls {report.with_call}; fully read {read}; "
            f"reproduced by the generated sample {report.reproduced}; document calls rejected {len(rejected)}"
        )
        for line in report.spared:
            print("  spared:", line)
        if args.examples:
            found, where, calls = example_calls(docs, args.examples)
            results = validate_all(package, calls)
            bad = [(w, p) for w, p in zip(where, results, strict=True) if p]
            print(
                f"examples: {found} calls of documented functions, {len(calls)} fully read, {len(bad)} rejected "
                f"({len(bad) / max(len(calls), 1):.1%})"
            )
            for (path, name), problem in bad:
                print(f"  {path} {name}: {problem}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
