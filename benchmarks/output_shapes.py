"""How many wrong output shapes the generated validators reject, on the documents' own calls.

    python benchmarks/output_shapes.py [--docs DIR] [--out DIR] [--config FILE] [-v]

Each document call the generated validator accepts is tried again with one output tensor's
first dimension changed (one larger; a 0-d output gains a dimension): the share rejected, for
outputs and for in-out tensors apart (an in-out tensor is an input too: a change of it is
caught only by a relation to another input). Also: how many of the document calls are rejected
as they stand (false rejections), and the main causes of the accepted changes (the output's
shape rule, or why there is none); -v lists each. --config: a specgen configuration, for
documents whose file names the default selection leaves out (the doc-site dialect's
`FlashAttentionScoreV2.md`: `include = ["*.md"]`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.oracle import changed_outputs, corpus_arguments, document_calls, generate_package, read_corpus, validate_all  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus_arguments(parser, ROOT.parent / "shared" / "corpus" / "docs")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every output whose change is accepted")
    args = parser.parse_args()
    docs = read_corpus(args)
    with tempfile.TemporaryDirectory() as scratch:
        package = generate_package(args.docs, args.out or Path(scratch), args.config)
        if not (package / "aclnn_ops").is_dir():
            print(f"specgen generate {args.docs} made no Python package (see `specgen generate`; --config?)")
            return 2
        calls = document_calls(docs).calls
        verdicts = validate_all(package, calls)
        accepted = [c for c, v in zip(calls, verdicts, strict=True) if v is None]
        tries = changed_outputs(docs, accepted)
        results = validate_all(package, [call for _, _, call in tries])
    total, rejected, causes = Counter[str](), Counter[str](), Counter[str]()
    missed = []
    for (direction, rule, _), verdict in zip(tries, results, strict=True):
        total[direction] += 1
        rejected[direction] += verdict is not None
        if verdict is None:
            missed.append(f"{direction:5s} {rule}")
            causes[rule.split(": ", 1)[1][:90]] += 1
    print(f"document calls: {len(calls)}; rejected as they stand: {len(calls) - len(accepted)}")
    for direction in ("out", "inout"):
        n, r = total[direction], rejected[direction]
        print(f"{direction:5s} tensors with the first dimension changed: {r} of {n} rejected ({r / max(n, 1):.1%})")
    n, r = sum(total.values()), sum(rejected.values())
    print(f"all   tensors with the first dimension changed: {r} of {n} rejected ({r / max(n, 1):.1%})")
    print("accepted changes by the output's shape rule:")
    for cause, count in causes.most_common(15):
        print(f"  {count:4d}  {cause}")
    if args.verbose:
        print("\n".join(sorted(missed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
