"""How many valid variants of the documents' own calls the generated validators reject.

    python benchmarks/valid_variants.py [--docs DIR] [--out DIR] [-v] [--sample N]

Each document call the generated validator accepts is varied only as the document says is
valid (tests/variants.py): its tensors' dtypes (the tensors it ties moving together, each
dtype all of them allow), each row of its dtype-combination tables, and each product it
marks 支持 (`product=`), keeping the sample's shapes and values. A rejection is either a
variant the document forbids after all (a per-product restriction, a shape that changes with
the dtype...) or a false rejection: read them. Blind spot: a product's dtype set read too
narrow is never varied past (variants move within the sets read). Prints the summary, the rejections by rule
kind, and (-v) each rejection with the rule that fired and its document line; --sample N
draws N of them with a fixed seed to read by hand.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.oracle import corpus_arguments, generate_package, read_corpus  # noqa: E402
from tests.variants import Rejection, run, sample  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus_arguments(parser, ROOT.parent / "shared" / "corpus" / "docs")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every rejection")
    parser.add_argument("--sample", type=int, default=0, help="list N rejections drawn with a fixed seed")
    args = parser.parse_args()
    docs = read_corpus(args)
    with tempfile.TemporaryDirectory() as scratch:
        package = generate_package(args.docs, args.out or Path(scratch), args.config)
        tried, rejected, spared = run(package, docs)
    print(f"sample calls rejected as they stand (left out): {spared}")
    for kind in ("dtype", "table", "product", "product dtype", "product table"):
        n = sum(v.kind == kind for v in tried)
        r = sum(x.variant.kind == kind for x in rejected)
        print(f"{kind:13s} variants: {n:5d} tried, {r:4d} rejected")
    functions = {x.variant.function for x in rejected}
    print(f"all           variants: {len(tried):5d} tried, {len(rejected):4d} rejected ({len(functions)} functions)")
    print("rejections by the kind of rule that fired:")
    for kind, n in Counter(f"{x.variant.kind}: {x.kind}" for x in rejected).most_common():
        print(f"  {n:4d}  {kind}")
    if args.verbose:
        _list(sorted(rejected, key=lambda x: (x.variant.source, x.key())))
    if args.sample:
        print(f"\na sample of {args.sample} (seed 35):")
        _list(sample(rejected, args.sample))
    return 0


def _list(rejections: list[Rejection]) -> None:
    for x in rejections:
        where = f"{x.variant.source}:{x.line}" if x.line else x.variant.source
        print(f"{x.key()}\n    {x.rule} at {where}\n    {x.verdict[:300]}")


if __name__ == "__main__":
    raise SystemExit(main())
