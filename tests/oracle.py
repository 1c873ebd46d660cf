"""Running calls written apart from the generator through its validators (the truth tests).

Used by tests/test_oracle.py on the shared corpus and by benchmarks/oracle.py on any folder
of documents and example programs (e.g. another operator repository).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specgen import config as specgen_config
from specgen.codegen.cases import call_values, function_cases
from specgen.codegen.errors import LowerError
from specgen.codegen.lower import operator_code
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.model import Function, OperatorDoc
from specgen.parse import parse_paths
from specgen.parse.sample_call import find_calls
from specgen.selection import Selection

_VALIDATE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import aclnn_ops
from aclnn_ops import TensorDesc

def decode(value):
    if isinstance(value, dict):
        return TensorDesc(*value["t"])
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value

results = []
for call in json.load(sys.stdin):
    try:
        args = {k: decode(v) for k, v in call["args"].items()}
        aclnn_ops.validate(call["function"], product=call.get("product"), **args)
        results.append(None)
    except aclnn_ops.AclnnError as exc:
        results.append(f"{exc.status} {exc.rule}: {exc.message} [{exc.condition}]")
    except Exception as exc:  # a call the package cannot take at all is a rejection too
        results.append(f"{type(exc).__name__}: {exc}")
print(json.dumps(results))
"""

Call = tuple[str, dict[str, object]]  # (function, arguments by C name)


def corpus_arguments(parser: argparse.ArgumentParser, docs: Path | None) -> None:
    """A benchmark's --docs (defaulting to `docs`, else required), --out and --config."""
    parser.add_argument("--docs", type=Path, default=docs, required=docs is None)
    parser.add_argument("--out", type=Path, help="where to generate (default: a temporary folder)")
    parser.add_argument("--config", type=Path, help="a specgen configuration (e.g. to include other file names)")


def read_corpus(args: argparse.Namespace) -> list[OperatorDoc]:
    """The documents --docs names, chosen as --config's selection says."""
    selection = specgen_config.load(str(args.config)).selection if args.config else None
    return parse_paths([args.docs], selection=selection)


def generate_package(docs: Path, out: Path, config: Path | None = None) -> Path:
    """`specgen generate DOCS -o OUT` (with `--config CONFIG`); the generated Python package's folder."""
    options = ["--config", str(config)] if config else []
    subprocess.run(
        [sys.executable, "-m", "specgen", *options, "generate", str(docs), "-o", str(out), "--no-cache"],
        capture_output=True,
        check=False,
    )
    return out / "python"


def validate_all(package: Path, calls: list[Call], products: list[str | None] | None = None) -> list[str | None]:
    """Each call through `aclnn_ops.validate` of the generated package at `package` (on the
    product of the same index, when given), in a process of its own (another aclnn_ops may
    be imported in this one): None when accepted."""
    on = products or [None] * len(calls)
    payload = [
        {"function": f, "args": {k: _encode(v) for k, v in a.items()}, "product": product}
        for (f, a), product in zip(calls, on, strict=True)
    ]
    return run_in_package(_VALIDATE, package, payload)


def run_in_package(script: str, package: Path, payload: object, env: dict[str, str] | None = None) -> Any:
    """`script` run with the package folder as its argument and `payload` as JSON on its
    standard input; what it prints, read as JSON."""
    result = subprocess.run(
        [sys.executable, "-c", script, str(package)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def _encode(value: object) -> object:
    if isinstance(value, TensorDesc):
        return {"t": [list(value.shape), value.dtype, list(value.strides) if value.strides else None, value.format]}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def chosen_functions(docs: Iterable[OperatorDoc]) -> dict[str, tuple[OperatorDoc, Function]]:
    """Each function as generate takes it: from the document of highest precedence (mainline
    before `experimental/`, then path order) among those without errors."""
    selection = Selection.default()
    out: dict[str, tuple[OperatorDoc, Function]] = {}
    for doc in sorted(docs, key=lambda d: (selection.rank(d.source), d.source)):
        for fn in doc.functions if not doc.has_errors else ():
            out.setdefault(fn.name, (doc, fn))
    return out


@dataclass
class DocumentCalls:
    functions: int = 0
    with_call: int = 0
    calls: list[Call] = field(default_factory=list)  # fully read
    reproduced: int = 0  # generated samples making exactly that call
    enforced: Counter[str] = field(default_factory=Counter)
    unchecked: Counter[str] = field(default_factory=Counter)
    spared: list[str] = field(default_factory=list)  # rules the document's own call breaks


def document_calls(docs: Iterable[OperatorDoc]) -> DocumentCalls:
    """The documents' own calls, and what the generated code makes of them."""
    report = DocumentCalls()
    for name, (doc, function) in chosen_functions(docs).items():
        report.functions += 1
        report.with_call += function.sample_call is not None
        values = call_values(function, function.sample_call) if function.sample_call else None
        try:
            fn = next(f for f in operator_code(doc, doc.source).functions if f.name == name)
        except LowerError:
            continue
        if values is None:
            continue
        report.calls.append((name, values))
        report.reproduced += fn.sample.from_document
        for rule in function_cases(fn).rules:
            if rule.host:
                report.enforced[rule.kind] += 1
                continue
            report.unchecked[rule.reason.split(":")[0].split("(")[0].strip()] += 1
            if "sample call" in rule.reason:
                report.spared.append(f"{doc.source}: {name} {rule.id}: {rule.condition[:80]}")
    return report


def example_calls(docs: Iterable[OperatorDoc], examples: Path) -> tuple[int, list[tuple[str, str]], list[Call]]:
    """Calls of documented functions in the example programs under `examples`: how many were
    found, and those fully read with where they come from (file, function)."""
    documented = {name: fn for name, (_, fn) in chosen_functions(docs).items()}
    kinds = {name: tuple(p.kind for p in fn.params) for name, fn in documented.items()}
    found, where, calls = 0, [], []
    for path in sorted(examples.rglob("*.cpp")):
        code = path.read_text(encoding="utf-8", errors="replace")
        for name, call in find_calls(code, 1, kinds).items():
            found += 1
            values = call_values(documented[name], call)
            if values is not None:
                calls.append((name, values))
                where.append((path.relative_to(examples).as_posix(), name))
    return found, where, calls


def changed_outputs(docs, calls: list[Call]) -> list[tuple[str, str, Call]]:
    """(direction, `function.output: its shape rule`, the call with that output's first dimension
    changed) for every output and in-out tensor of the calls: a shape the document's call
    contradicts (the validator should reject it)."""
    functions = {name: fn for name, (_, fn) in chosen_functions(docs).items()}
    out = []
    for name, args in calls:
        for p in functions[name].params:
            value = args.get(p.name)
            if p.direction not in ("out", "inout") or not isinstance(value, TensorDesc):
                continue
            shape = (value.shape[0] + 1, *value.shape[1:]) if value.shape else (2,)
            changed = TensorDesc(shape, value.dtype, None, value.format)
            out.append((p.direction, f"{name}.{p.name}: {_rule(p)}", (name, {**args, p.name: changed})))
    return out


def _rule(p) -> str:
    rule = p.shape_rule
    if rule is None:
        return "no rule"
    return f"not derivable ({rule.reason})" if not rule.derived else rule.kind
