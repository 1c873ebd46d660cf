"""Call each generated Python wrapper with its document's sample arguments and compare the
C-level call with the document's, argument by argument.

    python benchmarks/wrapper_calls.py --docs DIR [--out DIR] [--config FILE] [--allocate [--name-dtypes]] [-v]

For a folder of operator documents: how many functions' sample calls resolve, how many
wrappers make exactly that call on the stand-in runtime (tests/standin, with an operator
library that records each call; needs gcc), and the main causes of the others. Outputs are
passed as arrays of the sample's shapes; with --allocate the wrapper allocates those it can;
with --name-dtypes too those whose dtype the document leaves to the caller, named as the
sample's (`y_out_dtype="INT8"`).
The same measurement as tests/test_wrapper_calls.py, on material outside the shared corpus.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.oracle import corpus_arguments, generate_package, read_corpus  # noqa: E402
from tests.wrapper_calls import build_recorder, compare, document_wrapper_calls, run_calls  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus_arguments(parser, None)
    parser.add_argument("--allocate", action="store_true", help="leave the outputs the wrapper allocates to it")
    parser.add_argument(
        "--name-dtypes", action="store_true", help="with --allocate: name the dtype of outputs the caller types"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list every function that differs")
    args = parser.parse_args()
    docs = read_corpus(args)
    resolved, calls = document_wrapper_calls(docs, allocate=args.allocate, name_dtypes=args.name_dtypes)
    with tempfile.TemporaryDirectory() as scratch:
        package = generate_package(args.docs, args.out or Path(scratch) / "out", args.config)
        if not (package / "aclnn_ops").is_dir():
            print(f"specgen generate {args.docs} made no Python package (see `specgen generate`)")
            return 2
        root = build_recorder((fn for _, fn in _functions(docs, calls)), Path(scratch) / "cann")
        report = compare(resolved, calls, run_calls(package, root, calls))
    print(
        f"{report.resolved} functions whose sample call resolves; {report.called} wrappers called; "
        f"{report.matched} make the document's call ({report.matched / max(report.resolved, 1):.1%} of those "
        f"resolved, {report.matched / max(report.called, 1):.1%} of those called)"
    )
    print("causes (functions):")
    for reason, n in report.causes.most_common(25):
        print(f"  {n:4d}  {reason}")
    if args.verbose:
        for name, diff in sorted(report.failures.items()):
            print(f"{name}:\n    " + "\n    ".join(diff))
    return 0


def _functions(docs, calls):
    from tests.oracle import chosen_functions

    chosen = chosen_functions(docs)
    return [chosen[c.function] for c in calls]


if __name__ == "__main__":
    raise SystemExit(main())
