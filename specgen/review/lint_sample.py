"""The `sample-*` rules: a document's sample program read as C++ text.

Only what the text shows for certain is reported: an object is released when any call, RAII
holder or releasing helper of the sample names it; an output counts as copied back when
anything at all comes back to the host. A fragment marked as such (代码片段, no `main`) is not
a program, and is only checked for the arity of its calls.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable
from pathlib import Path

from specgen.diagnostics import Location
from specgen.model import Function, OperatorDoc, Param, Sample
from specgen.review.findings import Declaration, Finding
from specgen.review.lint_source import Source, clean_comments
from specgen.review.rules import Rule

_CALL = re.compile(r"\b(aclnn\w+)\s*\(")
_CREATE_TENSOR = re.compile(r"\bCreateAclTensor\s*\(")
_EXPR = r"[\w.\[\]]+(?:->[\w.\[\]]+)*"
_MALLOC = re.compile(rf"\baclrtMalloc\s*\(\s*&\s*({_EXPR})")
_FREE = re.compile(rf"\baclrtFree\s*\(\s*\(?\s*(?:void\s*\*\s*\)\s*)?({_EXPR})")
_CREATE_OBJECT = re.compile(
    r"(?<![\w.>])(\w+)\s*=\s*aclCreate(Tensor|Scalar|IntArray|FloatArray|BoolArray|TensorList|ScalarList)\s*\("
)
# `*tensor = aclCreateTensor(...)` in a helper hands the object to its caller
_DEREF_BEFORE = re.compile(r"(?:^|[;{}(,])\s*\*\s*$")
_DESTROY = re.compile(rf"\baclDestroy(\w+)\s*\(\s*({_EXPR})")
_COPY_BACK = re.compile(r"\baclrtMemcpy\w*\s*\(")
# RAII: std::unique_ptr<...> holder(var, aclDestroyTensor); holder.reset(var) hands var over too.
# `deviceAddr##Ptr(deviceAddr, aclrtFree)` inside a macro is a holder as well.
# A type alias of it (`IntArrayPtr holder(raw, aclDestroyIntArray)`) too.
_HOLDER = re.compile(rf"(?<![\w#])([\w#]+)\s*[({{]\s*({_EXPR})\s*,\s*&?\s*(aclrtFree|aclDestroy(\w+))\s*[)}}]")
_RESET = re.compile(rf"\b(\w+)\s*\.\s*reset\s*\(\s*({_EXPR})\s*\)")
_INCLUDE = re.compile(r'^[ \t]*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
_OPERATOR_HEADER = re.compile(r"(?:^|/)aclnn_\w+\.h$")
_RUNTIME_HEADERS = {"aclnn_base.h"}
_DEFINITION = re.compile(r"\b(\w+)\s*\([^;{}()]*\)\s*(?:const\s*)?\{")
_OUTPUT_WORDS = re.compile(r"出参|输出|in-?place|原地", re.I)
_SNIPPET_WORDS = re.compile(r"片段|节选|省略|伪代码|部分代码|关键代码|示意|snippet|excerpt", re.I)
# Inside the code only a comment saying what is left out: `示意` there is about a signature.
_LEFT_OUT = re.compile(r"省略|略去|此处略|片段|节选|omitted|snippet|excerpt|^\W*\.\.\.\W*$", re.I)
_COMMENT = re.compile(r"//([^\n]*)|/\*(.*?)\*/", re.S)


def sample_findings(
    doc: OperatorDoc, sample: Sample, src: Source, declared: dict[str, Declaration] | None
) -> Iterable[Finding]:
    code = clean_comments(sample.code)

    def line_of(offset: int) -> int:
        return sample.line + code.count("\n", 0, offset)

    gws_args = yield from _arity(doc, code, line_of)
    if is_snippet(sample, src):
        return
    yield from _header_include(doc, sample, code, line_of, declared)
    yield from _copy_back(doc, code, line_of, gws_args)
    yield from _leaks(doc, code, line_of)


def is_snippet(sample: Sample, src: Source) -> bool:
    """A fragment, not a program: no `main`, the lines before it call it a fragment, or a
    comment inside it says code is left out (`// 省略输出回拷与资源释放`)."""
    if not re.search(r"\bmain\s*\(", sample.code):
        return True
    before = src.lines[max(0, sample.line - 5) : max(0, sample.line - 1)]
    return any(_SNIPPET_WORDS.search(line) for line in before) or any(
        _LEFT_OUT.search(m.group(1) or m.group(2) or "") for m in _COMMENT.finditer(sample.code)
    )


def _arity(doc: OperatorDoc, code: str, line_of) -> Generator[Finding, None, dict[str, list[str]]]:
    """sample-arity findings; returns {function: arguments of its GetWorkspaceSize call}."""
    functions = {fn.workspace_name: (fn, len(fn.params)) for fn in doc.functions}
    functions.update({fn.name: (fn, len(fn.execute_params)) for fn in doc.functions if fn.execute_params})
    gws_args: dict[str, list[str]] = {}
    for m in _CALL.finditer(code):
        name = m.group(1)
        if name not in functions or re.search(r"aclnnStatus\s*$", code[: m.start()]):
            continue
        args, _ = arguments(code, m.end() - 1)
        fn, expected = functions[name]
        if len(args) != expected:
            yield Finding(
                Rule.SAMPLE_ARITY,
                Location(doc.source, line_of(m.start())),
                f"the sample calls {name} with {len(args)} arguments; the prototype has {expected}",
                fn.name,
            )
        if name == fn.workspace_name:
            gws_args[fn.name] = args
    return gws_args


def arguments(code: str, open_paren: int) -> tuple[list[str], int]:
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


# ---------------------------------------------------------------- the header it includes


def _header_include(doc, sample: Sample, code: str, line_of, declared) -> Iterable[Finding]:
    """The operator's header by any path (`aclnnop/aclnn_x.h`, flat `aclnn_x.h` of a custom
    package, `../op_host/op_api/aclnn_x.h` of the repository): compared by file name."""
    names = [fn.workspace_name for fn in doc.functions if fn.workspace_name in sample.code]
    if not names:
        return
    includes = [
        (m.group(1), m.start())
        for m in _INCLUDE.finditer(code)
        if _OPERATOR_HEADER.search(m.group(1)) and Path(m.group(1)).name not in _RUNTIME_HEADERS
    ]
    if not includes:
        yield Finding(
            Rule.SAMPLE_HEADER,
            Location(doc.source, sample.line),
            f"the sample calls {names[0]} but includes no operator header (aclnn_*.h)",
        )
        return
    if declared is None:
        return
    known = {Path(d.location.path).name for d in declared.values()}
    wanted = {Path(declared[n].location.path).name for n in names if n in declared}
    included = {Path(inc).name for inc, _ in includes}
    # An include the tree does not have is a package of its own, not a mistake we can see.
    if wanted and not wanted & included and included <= known:
        inc, offset = includes[0]
        yield Finding(
            Rule.SAMPLE_HEADER,
            Location(doc.source, line_of(offset)),
            f"the sample includes {', '.join(sorted(included))}; {names[0]} is declared in {', '.join(sorted(wanted))}",
        )


# ---------------------------------------------------------------- what it copies back


def _base(expr: str) -> str:
    """`&x`, `*x`, `x.get()`, `x[i]` -> `x`; `res.deviceAddr`, `p->addr` keep their member."""
    expr = re.sub(r"\.get\(\)|\[[^\]]*\]|[&*()\s]", "", expr)
    return expr.replace("->", ".")


def _written(param: Param, fn: Function) -> bool:
    """The operator writes the parameter: an output, a `...Ref`, or the tensor of an Inplace call."""
    return param.direction != "in" or param.name.endswith("Ref") or "Inplace" in fn.name


def _copy_back(doc: OperatorDoc, code: str, line_of, gws_args) -> Iterable[Finding]:
    by_tensor: dict[str, tuple[Function, Param]] = {}
    for fn_name, args in gws_args.items():
        fn = doc.function(fn_name)
        if fn is None:  # never: gws_args is keyed by the names of doc.functions
            continue
        for param, arg in zip(fn.params, args, strict=False):
            var = _base(arg)
            if var not in by_tensor or _written(param, fn):  # an output in any call is an output
                by_tensor[var] = (fn, param)
    tensors_by_addr = _created_tensors(code)
    copies = list(_copied_back(code, tensors_by_addr))
    inputs, outputs = [], 0
    for source, offset in copies:
        found = by_tensor.get(tensors_by_addr.get(source, source))
        if found is not None:
            fn, param = found
            if _written(param, fn):
                outputs += 1
            else:
                inputs.append((fn, param, source, offset))
    if not outputs:  # inputs printed beside the outputs are not taken for the result
        for fn, param, source, offset in inputs:
            yield from _input_copied(doc, fn, param, source, line_of(offset))
    has_output = any(p.direction in ("out", "inout") for fn in doc.functions for p in fn.params if p.kind == "tensor")
    if gws_args and has_output and not copies:
        message = "the sample never copies anything back to the host"
        yield Finding(Rule.SAMPLE_NO_OUTPUT, Location(doc.source, line_of(0)), message)


def _input_copied(doc: OperatorDoc, fn: Function, param: Param, source: str, line: int) -> Iterable[Finding]:
    """An input read back as the result: the sample's mistake when the prototype makes it
    const; when the prototype lets the operator write it, the document's `输入` is the slip."""
    if not param.documented or _OUTPUT_WORDS.search(param.description + param.text):
        return  # a misnamed row (doc-param-unknown), or an input the document says is written
    if param.c_type.startswith("const ") or "*" not in param.c_type:
        yield Finding(
            Rule.SAMPLE_COPIES_INPUT,
            Location(doc.source, line),
            f"the sample copies back {source}, the buffer of input {param.name}, as its result",
            fn.name,
            param.name,
        )
    else:
        yield Finding(
            Rule.DOC_DIRECTION_CONST,
            Location(doc.source, param.line),
            f"{fn.workspace_name}: {param.name} is documented as an input, but its type `{param.c_type}` is not "
            f"const and the sample reads it back as a result (line {line})",
            fn.name,
            param.name,
        )


def _created_tensors(code: str) -> dict[str, str]:
    """Device address -> tensor variable, from `CreateAclTensor(host, shape, &addr, dtype, &tensor)`."""
    out = {}
    for m in _CREATE_TENSOR.finditer(code):
        args, _ = arguments(code, m.end() - 1)
        refs = [_base(a) for a in args if a.startswith("&")]
        if len(refs) >= 2:
            out[refs[0]] = refs[-1]
    return out


def _helpers(code: str, marker: re.Pattern[str]) -> set[str]:
    """Functions the sample defines whose body matches `marker`."""
    found = set()
    for m in _DEFINITION.finditer(code):
        _, end = arguments(code, m.end() - 1)
        if marker.search(code[m.end() : end]) and m.group(1) not in ("if", "for", "while", "switch", "main"):
            found.add(m.group(1))
    return found


def _copied_back(code: str, tensors_by_addr: dict[str, str]) -> Iterable[tuple[str, int]]:
    """(device buffer, offset) of every copy to the host: aclrtMemcpy calls, and calls of the
    sample's own helpers (PrintOutResult(shape, &addr)) that copy to the host."""
    for m in _COPY_BACK.finditer(code):
        args, _ = arguments(code, m.end() - 1)
        if len(args) >= 5 and "DEVICE_TO_HOST" in args[-1]:
            yield _base(args[2]), m.start()
    for helper in _helpers(code, re.compile(r"DEVICE_TO_HOST")) - _input_printers(code):
        for m in re.finditer(rf"(?<![\w:]){re.escape(helper)}\s*\(", code):
            if _is_definition(code, m):
                continue
            args, _ = arguments(code, m.end() - 1)
            for arg in args or [""]:
                yield _base(arg), m.start()


def _input_printers(code: str) -> set[str]:
    """`PrintInResult`, `PrintInput`: helpers named for showing an input, not a result."""
    return set(re.findall(r"\b(\w*(?:In|Input)(?:Result|Data|Tensor)?)\s*\(", code)) - {"main"}


def _is_definition(code: str, m: re.Match[str]) -> bool:
    _, end = arguments(code, m.end() - 1)
    return code[end + 1 : end + 40].lstrip().startswith(("{", "const"))


# ---------------------------------------------------------------- what it releases


def _released(code: str) -> tuple[set[str], set[str], list[tuple[str, int]]]:
    """(buffers freed, objects destroyed, explicit releases that a holder also performs)."""
    freed = {_base(e) for e in _FREE.findall(code)}
    destroyed = {_base(e) for _, e in _DESTROY.findall(code)}
    held: set[str] = set()
    holders = {}
    for m in _HOLDER.finditer(code):
        holder, var, deleter = m.group(1), _base(m.group(2)), m.group(3)
        holders[holder] = deleter
        if var != "nullptr":
            held.add(var)
            (freed if deleter == "aclrtFree" else destroyed).add(var)
    for holder, var in _RESET.findall(code):
        if holder in holders:
            held.add(_base(var))
            (freed if holders[holder] == "aclrtFree" else destroyed).add(_base(var))
    for helper in _helpers(code, re.compile(r"\baclrtFree\b|\baclDestroy\w+\s*\(")):
        for m in re.finditer(rf"\b{re.escape(helper)}\s*\(", code):
            for arg in arguments(code, m.end() - 1)[0]:
                freed.add(_base(arg))
                destroyed.add(_base(arg))
    released_holders = {h for h in holders if re.search(rf"\b{re.escape(h)}\s*\.\s*release\s*\(", code)}
    twice = [
        (_base(m.group(2)), m.start())
        for m in _DESTROY.finditer(code)
        if _base(m.group(2)) in held and not released_holders
    ]
    return freed, destroyed, twice


def _covers(released: set[str], var: str) -> bool:
    """`res` released releases `res.deviceAddr` (a helper freeing a struct's members)."""
    return var in released or var.split(".")[0] in released


def _leaks(doc: OperatorDoc, code: str, line_of) -> Iterable[Finding]:
    freed, destroyed, twice = _released(code)
    for m in _MALLOC.finditer(code):
        var = _base(m.group(1))
        if not _covers(freed, var):
            yield Finding(
                Rule.SAMPLE_LEAK_MEMORY,
                Location(doc.source, line_of(m.start())),
                f"device memory {var} is allocated but never freed (aclrtFree)",
            )
    for m in _CREATE_TENSOR.finditer(code):
        args, _ = arguments(code, m.end() - 1)
        refs = [_base(a) for a in args if a.startswith("&")]
        if refs and not _covers(freed, refs[0]):
            yield Finding(
                Rule.SAMPLE_LEAK_MEMORY,
                Location(doc.source, line_of(m.start())),
                f"device memory {refs[0]} (made by CreateAclTensor) is never freed (aclrtFree)",
            )
    yield from _object_leaks(doc, code, line_of, destroyed)
    for var, offset in twice:
        yield Finding(
            Rule.SAMPLE_DOUBLE_RELEASE,
            Location(doc.source, line_of(offset)),
            f"{var} is destroyed here and again by the smart pointer that holds it",
        )


def _object_leaks(doc: OperatorDoc, code: str, line_of, destroyed: set[str]) -> Iterable[Finding]:
    created = [
        (m.group(1), m.group(2), m.start())
        for m in _CREATE_OBJECT.finditer(code)
        if not _DEREF_BEFORE.search(code[max(0, m.start() - 80) : m.start()])
    ]
    created += [
        (_base(a), "Tensor", m.start())
        for m in _CREATE_TENSOR.finditer(code)
        for a in arguments(code, m.end() - 1)[0][-1:]
        if a.startswith("&")
    ]
    in_lists = _list_members(code)
    for var, kind, offset in created:
        if not _covers(destroyed, var) and var not in in_lists:
            yield Finding(
                Rule.SAMPLE_LEAK_OBJECT,
                Location(doc.source, line_of(offset)),
                f"{var} (acl{kind}) is created but never destroyed (aclDestroy{kind})",
            )


def _list_members(code: str) -> set[str]:
    """Objects handed to a tensor list or kept in a container: the list, or a loop over the
    container, destroys them."""
    if not re.search(r"aclCreate(?:Tensor|Scalar)List|\bfor\s*\(", code):
        return set()
    members = set()
    for m in re.finditer(r"(?:push_back|emplace_back)\s*\(\s*(\w+)\s*\)|[\w={,]\s*\{([\w\s,]*)\}", code):
        members |= set(re.findall(r"\w+", m.group(1) or m.group(2) or ""))
    return members
