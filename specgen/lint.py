"""`specgen lint`: the documents' own mistakes, against their C headers, themselves and their samples.

Each finding has a stable rule id (`RULES`), a severity, a location and a message saying what
disagrees with what. Header declarations are read with pycparser (`specgen.cdecl`), as the
documents' prototypes are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from specgen.cdecl import Prototype, PrototypeError, find_prototype_spans, parse_prototype
from specgen.model import Function, OperatorDoc, Param, Sample

ERROR, WARNING = "error", "warning"

RULES: dict[str, tuple[str, str]] = {
    # against the C headers
    "header-function-missing": (ERROR, "a documented function is declared in no header"),
    "header-function-undocumented": (WARNING, "a function of the operator's header is not documented"),
    "header-param-count": (ERROR, "the document and the header have different numbers of parameters"),
    "header-param-name": (ERROR, "a parameter's name differs from the header"),
    "header-param-type": (ERROR, "a parameter's C type differs from the header"),
    "header-param-const": (ERROR, "a parameter's constness differs from the header"),
    "header-param-order": (ERROR, "the parameters are in another order than in the header"),
    # inside the document
    "doc-no-api": (ERROR, "the document declares no two-phase API (a placeholder?)"),
    "doc-prototype-syntax": (ERROR, "a prototype is not valid C"),
    "doc-prototype-mismatch": (WARNING, "two copies of a prototype differ"),
    "doc-conflict-marker": (ERROR, "a merge-conflict marker is left in the document"),
    "doc-unclosed-fence": (WARNING, "a code fence is never closed"),
    "doc-param-unknown": (ERROR, "a documented parameter is not in the prototype"),
    "doc-param-undocumented": (WARNING, "a prototype parameter is not documented"),
    "doc-param-duplicate": (WARNING, "a parameter is documented twice"),
    "doc-direction-const": (WARNING, "the documented direction contradicts the type's constness"),
    "doc-error-unknown-name": (WARNING, "an error rule names a parameter that does not exist"),
    "doc-dtype-contradiction": (WARNING, "parameters that must share a dtype list different dtypes"),
    # in the sample
    "sample-arity": (ERROR, "the sample calls a documented function with another number of arguments"),
    "sample-header": (WARNING, "the sample does not include the operator's header"),
    "sample-copies-input": (ERROR, "the sample copies back an input buffer as the result"),
    "sample-no-output": (WARNING, "the sample never copies back an output"),
    "sample-leak-memory": (WARNING, "device memory allocated by the sample is never freed"),
    "sample-leak-object": (WARNING, "a tensor, scalar or array created by the sample is never destroyed"),
}
_DIAGNOSTIC_RULES = {
    "no-api": "doc-no-api",
    "prototype-syntax": "doc-prototype-syntax",
    "prototype-mismatch": "doc-prototype-mismatch",
    "conflict-marker": "doc-conflict-marker",
    "unclosed-fence": "doc-unclosed-fence",
    "unknown-param": "doc-param-unknown",
    "duplicate-param": "doc-param-duplicate",
    "name-typo": "doc-error-unknown-name",
}


@dataclass(frozen=True)
class Finding:
    rule: str
    path: str
    line: int
    message: str
    function: str | None = None
    param: str | None = None

    @property
    def severity(self) -> str:
        return RULES[self.rule][0]

    def as_json(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "param": self.param,
            "message": self.message,
        }


# ---------------------------------------------------------------- headers


@dataclass(frozen=True)
class Declaration:
    prototype: Prototype
    path: str
    line: int


_PREPROCESSOR = re.compile(r"^[ \t]*#.*$", re.M)


def read_headers(folder: Path) -> tuple[dict[str, Declaration], list[Finding]]:
    """Every `aclnnStatus aclnnXxx(...)` declared in the `aclnn_*.h` files under `folder`."""
    declared: dict[str, Declaration] = {}
    problems = []
    for path in sorted(folder.rglob("aclnn_*.h")):
        text = path.read_text(encoding="utf-8", errors="replace")
        code = _PREPROCESSOR.sub(lambda m: " " * len(m.group(0)), text)
        for start, end, name in find_prototype_spans(clean_comments(code)):
            line = text.count("\n", 0, start) + 1
            try:
                proto = parse_prototype(code[start:end])
            except PrototypeError as exc:
                problems.append(Finding("doc-prototype-syntax", str(path), line, f"header declaration: {exc}", name))
                continue
            declared.setdefault(name, Declaration(proto, str(path), line))
    return declared, problems


def clean_comments(code: str) -> str:
    """Comments blanked out, keeping every offset (and so every line) where it was."""
    return re.sub(r"/\*.*?(?:\*/|\Z)|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)


def _header_findings(doc: OperatorDoc, declared: dict[str, Declaration]) -> Iterable[Finding]:
    for fn in doc.functions:
        for name, params, line in (
            (fn.workspace_name, fn.params, fn.line),
            (fn.name, fn.execute_params, fn.execute_line or fn.line),
        ):
            decl = declared.get(name)
            if decl is None:
                yield Finding(
                    "header-function-missing",
                    doc.source,
                    line,
                    f"{name} is documented but declared in no header",
                    fn.name,
                )
                continue
            yield from _compare_signature(doc, fn, name, params, decl)


def _compare_signature(
    doc: OperatorDoc, fn: Function, name: str, params: Sequence[Param], decl: Declaration
) -> Iterable[Finding]:
    header = [(p.name, p.c_type) for p in decl.prototype.params]
    document = [(p.name, p.c_type) for p in params]
    where = f"{decl.path}:{decl.line}"
    if header == document:
        return
    if len(header) != len(document):
        missing = [n for n, _ in header if n not in {d for d, _ in document}]
        extra = [n for n, _ in document if n not in {h for h, _ in header}]
        detail = (f"; missing {', '.join(missing)}" if missing else "") + (
            f"; extra {', '.join(extra)}" if extra else ""
        )
        yield Finding(
            "header-param-count",
            doc.source,
            fn.line,
            f"{name} has {len(document)} parameters in the document, {len(header)} in {where}{detail}",
            fn.name,
        )
        return
    if sorted(header) == sorted(document):
        yield Finding(
            "header-param-order",
            doc.source,
            fn.line,
            f"{name}: parameters ordered {', '.join(n for n, _ in document)} in the document, "
            f"{', '.join(n for n, _ in header)} in {where}",
            fn.name,
        )
        return
    for param, (h_name, h_type) in zip(params, header, strict=True):
        if param.name != h_name:
            yield Finding(
                "header-param-name",
                doc.source,
                param.line,
                f"{name}: parameter {param.name!r} is {h_name!r} in {where}",
                fn.name,
                param.name,
            )
        if param.c_type != h_type:
            same_base = param.c_type.replace("const ", "") == h_type.replace("const ", "")
            rule = "header-param-const" if same_base else "header-param-type"
            yield Finding(
                rule,
                doc.source,
                param.line,
                f"{name}: parameter {param.name} is `{param.c_type}` in the document, `{h_type}` in {where}",
                fn.name,
                param.name,
            )


def _undocumented(docs: Sequence[OperatorDoc], declared: dict[str, Declaration]) -> Iterable[Finding]:
    """Functions of a header that declares a documented function, but documented nowhere."""
    documented = {name for doc in docs for fn in doc.functions for name in (fn.name, fn.workspace_name)}
    headers = {declared[name].path for name in documented if name in declared}
    for name, decl in sorted(declared.items()):
        if (
            decl.path in headers
            and name not in documented
            and (name.endswith("GetWorkspaceSize") or name + "GetWorkspaceSize" not in declared)
        ):
            yield Finding(
                "header-function-undocumented",
                decl.path,
                decl.line,
                f"{name} is declared but no linted document documents it",
                name,
            )


# ---------------------------------------------------------------- the document itself


def _document_findings(doc: OperatorDoc, declared: dict[str, Declaration] | None) -> Iterable[Finding]:
    for d in doc.diagnostics:
        if d.code in _DIAGNOSTIC_RULES:
            yield Finding(_DIAGNOSTIC_RULES[d.code], doc.source, d.line, d.message)
    for fn in doc.functions:
        for p in fn.params:
            if not p.documented:
                yield Finding(
                    "doc-param-undocumented",
                    doc.source,
                    fn.line,
                    f"{fn.workspace_name}: parameter {p.name} is in the prototype but not documented",
                    fn.name,
                    p.name,
                )
            if (problem := _direction_problem(p, fn)) and not _header_agrees(p, fn, declared):
                yield Finding(
                    "doc-direction-const", doc.source, p.line, f"{fn.workspace_name}: {problem}", fn.name, p.name
                )
        yield from _dtype_contradictions(doc, fn)


def _direction_problem(p: Param, fn: Function) -> str | None:
    if p.kind not in ("tensor", "tensor_list") or "*" not in p.c_type:
        return None
    const = p.c_type.startswith("const ")
    if const and p.direction in ("out", "inout"):
        return f"{p.name} is documented as {p.direction}put but its type `{p.c_type}` is const"
    writable = p.name.endswith("Ref") or "Inplace" in fn.name
    if not const and p.direction == "in" and not writable:
        return f"{p.name} is documented as an input but its type `{p.c_type}` is not const"
    return None


def _header_agrees(p: Param, fn: Function, declared: dict[str, Declaration] | None) -> bool:
    """The header declares the same type: the constness is the API's, not a slip of the document."""
    decl = (declared or {}).get(fn.workspace_name)
    return decl is not None and any(h.name == p.name and h.c_type == p.c_type for h in decl.prototype.params)


def _dtype_contradictions(doc: OperatorDoc, fn: Function) -> Iterable[Finding]:
    reported = set()
    for p in fn.params:
        for c in p.of_kind("same_dtype"):
            for peer_name in c.params:
                peer = fn.param(peer_name)
                pair = frozenset((p.name, peer_name))
                if peer is None or not p.dtypes or not peer.dtypes or pair in reported:
                    continue
                if set(p.dtypes) != set(peer.dtypes):
                    reported.add(pair)
                    yield Finding(
                        "doc-dtype-contradiction",
                        doc.source,
                        c.line,
                        f"{p.name} and {peer_name} must share a dtype, but {p.name} lists "
                        f"{', '.join(p.dtypes)} and {peer_name} lists {', '.join(peer.dtypes)}",
                        fn.name,
                        p.name,
                    )


# ---------------------------------------------------------------- the sample


_CALL = re.compile(r"\b(aclnn\w+)\s*\(")
_CREATE_TENSOR = re.compile(r"\bCreateAclTensor\s*\(")
_MALLOC = re.compile(r"\baclrtMalloc\s*\(\s*&\s*(\w+)")
_FREE = re.compile(r"\baclrtFree\s*\(\s*(\w+)")
_CREATE_OBJECT = re.compile(
    r"\b(\w+)\s*=\s*aclCreate(Tensor|Scalar|IntArray|FloatArray|BoolArray|TensorList|"
    r"ScalarList)\s*\("
)
_DESTROY = re.compile(r"\baclDestroy(\w+)\s*\(\s*(\w+)")
_COPY_BACK = re.compile(r"\baclrtMemcpy\s*\(")
# RAII: std::unique_ptr<...> holder(var, aclDestroyTensor); holder.reset(var) hands var over too.
_HOLDER = re.compile(r"unique_ptr\s*<[^;]*?>\s*(\w+)\s*\(\s*(\w+)\s*,\s*(aclrtFree|aclDestroy(\w+))\s*\)")
_RESET = re.compile(r"\b(\w+)\s*\.\s*reset\s*\(\s*(\w+)\s*\)")
_INCLUDE = re.compile(r'#\s*include\s*[<"](aclnnop/[^>"]+)[>"]')


def _arguments(code: str, open_paren: int) -> tuple[list[str], int]:
    """Top-level arguments of the call whose '(' is at `open_paren`, and the end offset."""
    depth, start, args = 0, open_paren + 1, []
    for i in range(open_paren, len(code)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append(code[start:i].strip())
                return [a for a in args if a], i
        elif ch == "," and depth == 1:
            args.append(code[start:i].strip())
            start = i + 1
    return [], len(code)


def _sample_findings(doc: OperatorDoc, sample: Sample, declared: dict[str, Declaration] | None) -> Iterable[Finding]:
    code = clean_comments(sample.code)

    def line_of(offset: int) -> int:
        return sample.line + code.count("\n", 0, offset)

    functions = {fn.workspace_name: (fn, len(fn.params)) for fn in doc.functions}
    functions.update({fn.name: (fn, len(fn.execute_params)) for fn in doc.functions if fn.execute_params})
    tensors_by_addr = _created_tensors(code)
    gws_args: dict[str, list[str]] = {}
    for m in _CALL.finditer(code):
        name = m.group(1)
        if name not in functions or re.search(r"aclnnStatus\s*$", code[: m.start()]):
            continue
        args, _ = _arguments(code, m.end() - 1)
        fn, expected = functions[name]
        if len(args) != expected:
            yield Finding(
                "sample-arity",
                doc.source,
                line_of(m.start()),
                f"the sample calls {name} with {len(args)} arguments; the prototype has {expected}",
                fn.name,
            )
        if name == fn.workspace_name:
            gws_args[fn.name] = args
    yield from _header_include(doc, sample, declared)
    yield from _copy_back(doc, code, line_of, tensors_by_addr, gws_args)
    yield from _leaks(doc, code, line_of, gws_args)


def _created_tensors(code: str) -> dict[str, str]:
    """Device address variable -> tensor variable, from `CreateAclTensor(host, shape, &addr, dtype, &tensor)`."""
    out = {}
    for m in _CREATE_TENSOR.finditer(code):
        args, _ = _arguments(code, m.end() - 1)
        refs = [a[1:].strip() for a in args if a.startswith("&")]
        if len(refs) >= 2:
            out[refs[0]] = refs[-1]
    return out


def _header_include(doc: OperatorDoc, sample: Sample, declared: dict[str, Declaration] | None) -> Iterable[Finding]:
    includes = _INCLUDE.findall(sample.code)
    names = [fn.workspace_name for fn in doc.functions if fn.workspace_name in sample.code]
    if not names:
        return
    if not includes:
        yield Finding(
            "sample-header", doc.source, sample.line, f"the sample calls {names[0]} but includes no aclnnop/ header"
        )
        return
    if declared is None:
        return
    headers = {Path(declared[n].path).name for n in names if n in declared}
    if headers and not headers & {Path(inc).name for inc in includes}:
        yield Finding(
            "sample-header",
            doc.source,
            sample.line,
            f"the sample includes {', '.join(includes)}; {names[0]} is declared in {', '.join(sorted(headers))}",
        )


def _copy_back(doc, code, line_of, tensors_by_addr, gws_args) -> Iterable[Finding]:
    by_tensor: dict[str, tuple[Function, Param]] = {}
    for fn_name, args in gws_args.items():
        fn = doc.function(fn_name)
        for param, arg in zip(fn.params, args, strict=False):
            var = re.sub(r"\W", "", arg.split(".")[0].split("->")[0])
            if var not in by_tensor or _written(param, fn):  # an output in any call is an output
                by_tensor[var] = (fn, param)
    copied_output = False
    for source, offset in _copied_back(code, tensors_by_addr):
        fn, param = by_tensor.get(tensors_by_addr.get(source, source), (None, None))
        if param is None:
            continue
        if not _written(param, fn):
            yield Finding(
                "sample-copies-input",
                doc.source,
                line_of(offset),
                f"the sample copies back {source}, the buffer of input {param.name}, as its result",
                fn.name,
                param.name,
            )
        else:
            copied_output = True
    if (
        gws_args
        and not copied_output
        and any(p.direction in ("out", "inout") for fn in doc.functions for p in fn.params if p.kind == "tensor")
    ):
        yield Finding("sample-no-output", doc.source, line_of(0), "the sample never copies an output back to the host")


def _released(code: str) -> tuple[set[str], set[tuple[str, str]]]:
    """(variables freed with aclrtFree, (kind, variable) destroyed), by calls or RAII holders."""
    freed = set(_FREE.findall(code))
    destroyed = set(_DESTROY.findall(code))
    holders = {}
    for holder, var, deleter, kind in _HOLDER.findall(code):
        holders[holder] = (deleter, kind)
        if var != "nullptr":
            freed.add(var) if deleter == "aclrtFree" else destroyed.add((kind, var))
    for holder, var in _RESET.findall(code):
        if holder in holders:
            deleter, kind = holders[holder]
            freed.add(var) if deleter == "aclrtFree" else destroyed.add((kind, var))
    return freed, destroyed


_DEFINITION = re.compile(r"\b(\w+)\s*\([^;{}()]*\)\s*(?:const\s*)?\{")


def _written(param: Param, fn: Function) -> bool:
    """The operator writes the parameter: an output, a `...Ref`, or the tensor of an Inplace call."""
    return param.direction != "in" or param.name.endswith("Ref") or "Inplace" in fn.name


def _copied_back(code: str, tensors_by_addr: dict[str, str]) -> Iterable[tuple[str, int]]:
    """(device buffer variable, offset) of every copy to the host: direct aclrtMemcpy calls, and
    calls of the sample's own helpers (PrintOutResult(shape, &addr)) that copy to the host."""
    helpers = set()
    for m in _DEFINITION.finditer(code):
        _, end = _arguments(code, m.end() - 1)
        if "DEVICE_TO_HOST" in code[m.end() : end] and m.group(1) not in ("if", "for", "while", "switch"):
            helpers.add(m.group(1))
    for m in _COPY_BACK.finditer(code):
        args, _ = _arguments(code, m.end() - 1)
        if len(args) >= 5 and "DEVICE_TO_HOST" in args[4]:
            yield re.sub(r"\W", "", args[2]), m.start()
    for helper in helpers:
        for m in re.finditer(rf"\b{re.escape(helper)}\s*\(", code):
            args, _ = _arguments(code, m.end() - 1)
            for arg in args:
                name = re.sub(r"\W", "", arg)
                if name in tensors_by_addr:
                    yield name, m.start()


def _leaks(doc, code, line_of, gws_args) -> Iterable[Finding]:
    freed, destroyed = _released(code)
    for m in _MALLOC.finditer(code):
        if m.group(1) not in freed:
            yield Finding(
                "sample-leak-memory",
                doc.source,
                line_of(m.start()),
                f"device memory {m.group(1)} is allocated but never freed (aclrtFree)",
            )
    for m in _CREATE_TENSOR.finditer(code):
        args, _ = _arguments(code, m.end() - 1)
        refs = [a[1:].strip() for a in args if a.startswith("&")]
        if refs and refs[0] not in freed:
            yield Finding(
                "sample-leak-memory",
                doc.source,
                line_of(m.start()),
                f"device memory {refs[0]} (made by CreateAclTensor) is never freed (aclrtFree)",
            )
    passed = {re.sub(r"\W", "", a) for args in gws_args.values() for a in args}
    created = [(m.group(1), m.group(2), m.start()) for m in _CREATE_OBJECT.finditer(code)]
    created += [
        (a[1:].strip(), "Tensor", m.start())
        for m in _CREATE_TENSOR.finditer(code)
        for a in _arguments(code, m.end() - 1)[0][-1:]
        if a.startswith("&")
    ]
    for var, kind, offset in created:
        if (kind, var) not in destroyed and var in passed:
            yield Finding(
                "sample-leak-object",
                doc.source,
                line_of(offset),
                f"{var} (acl{kind}) is created but never destroyed (aclDestroy{kind})",
            )


# ---------------------------------------------------------------- entry point


def lint(docs: Sequence[OperatorDoc], headers: Path | None = None) -> list[Finding]:
    declared = None
    findings: list[Finding] = []
    if headers is not None:
        declared, problems = read_headers(headers)
        findings += problems
    for doc in docs:
        findings += _document_findings(doc, declared)
        if declared is not None:
            findings += _header_findings(doc, declared)
        for sample in doc.samples:
            findings += _sample_findings(doc, sample, declared)
    if declared is not None:
        findings += _undocumented(docs, declared)
    return sorted(set(findings), key=lambda f: (f.path, f.line, f.rule, f.message))
