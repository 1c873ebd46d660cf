"""Assemble an `OperatorDoc` from the readers' raw facts."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from pathlib import Path

from specgen import text as textmod
from specgen import vocab
from specgen.cdecl import CParam, parse_prototype
from specgen.diagnostics import Code
from specgen.model import (
    EXECUTE_KINDS,
    POINTER_KINDS,
    Constraint,
    Diagnostic,
    ErrorRule,
    Function,
    OperatorDoc,
    Param,
    Sample,
    SampleCall,
    Scalar,
    TextBlock,
    single_phase_gap,
)
from specgen.parse import classify as cons
from specgen.parse import sections as sec
from specgen.parse.classify.listed_shapes import shape_lists
from specgen.parse.classify.shape_elsewhere import FORMULA_NAME
from specgen.parse.classify.shape_inputs import input_rules
from specgen.parse.classify.shape_sizes import ProductStatement
from specgen.parse.classify.shapes import Statement as ShapeStatement
from specgen.parse.classify.shapes import output_rules
from specgen.parse.classify.string_sets import held_sets, stated_sets, string_sets
from specgen.parse.classify.value_statements import transpose_flags, value_statements
from specgen.parse.document import Document, load
from specgen.parse.errors import (
    STATUS_CODES,
    ErrorFacts,
    errors_from_table,
    errors_from_text,
    is_error_table,
)
from specgen.parse.facts import ParamFacts, ProductNote, Statement
from specgen.parse.params import is_param_table, params_from_bullets, params_from_table
from specgen.parse.products import notes_in, read_products, unwrapped
from specgen.parse.prototypes import Declaration, find_declarations
from specgen.parse.sample_call import find_calls
from specgen.parse.tables import Table, tables_in

GWS = "GetWorkspaceSize"
# `#include <...>`; the line start before `#` is checked apart (see `_includes`).
_INCLUDE = re.compile(r'#[ \t]*include\s*[<"]([^>"]+)[>"]')
_FORMULA = re.compile(r"\$\$(.*?)\$\$", re.S)
_SUMMARY_LABEL = re.compile(r"^(?:接口功能|算子功能|功能)\s*[:：]\s*")
_INT_TYPES = {
    "int",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "size_t",
    "long",
    "short",
    "unsigned",
}
REL_KINDS = ("broadcast", "broadcast_result", "broadcast_to", "same_shape", "same_dtype", "same_format")


def read_document(path: str, data: bytes) -> OperatorDoc:
    """One document to its model; problems in the document become located diagnostics."""
    doc = load(path, data)
    diags: list[Diagnostic] = list(doc.warnings)
    decls, warnings = find_declarations(doc)
    diags += warnings
    products, product_warnings = read_products(doc)
    diags += product_warnings
    samples = _samples(doc)
    two_phase, single_phase = _functions(doc, decls, diags)
    functions = _with_sample_calls(two_phase, samples)
    single_phase = _with_sample_calls(single_phase, samples, suffix="")
    return OperatorDoc(
        source=path,
        name=_doc_name(doc),
        summary=_summary(doc),
        formula=_formula(doc),
        products=tuple(products),
        functions=tuple(functions),
        single_phase=tuple(single_phase),
        notes=_notes(doc),
        samples=tuple(samples),
        diagnostics=tuple(_on_a_line(d) for d in sorted(diags, key=lambda d: d.line)),
    )


def _on_a_line(d: Diagnostic) -> Diagnostic:
    """Lines count from 1: a diagnostic about what precedes the first line is on it."""
    return d if d.line >= 1 else d.model_copy(update={"line": 1})


# ---------------------------------------------------------------- document-level facts


def _doc_name(doc: Document) -> str:
    h1 = next((s.title for s in doc.sections if s.level == 1 and s.title), None)
    return h1 or doc.front_matter.get("title") or Path(doc.path).stem


def _summary(doc: Document) -> TextBlock | None:
    """The first paragraph of the function description, without its 接口功能： label."""
    section = sec.summary_section(doc)
    if section is None:
        return None
    for tok in doc.tokens:
        if tok.type != "inline" or not tok.map or not section.start <= tok.map[0] < section.end:
            continue
        text = _SUMMARY_LABEL.sub("", textmod.plain(tok.content))
        if text and not text.startswith(("计算公式", "$")):
            return TextBlock(text=text, line=tok.map[0] + 1)
    return None


def _formula(doc: Document) -> TextBlock | None:
    section = sec.summary_section(doc)
    if section is None:
        return None
    body = doc.span(section.start, section.end)
    blocks = [m for m in _FORMULA.finditer(body) if m.group(1).strip()]
    if not blocks:
        return None
    text = "\n\n".join(_dedent(m.group(1)) for m in blocks)
    return TextBlock(text=text, line=section.start + 1 + body.count("\n", 0, blocks[0].start()))


def _dedent(block: str) -> str:
    return "\n".join(line.strip() for line in block.strip("\n").split("\n")).strip()


def _notes(doc: Document) -> TextBlock | None:
    section = sec.notes_section(doc)
    if section is None:
        return None
    span = doc.span(section.start, section.end)
    body = span.strip("\n")
    first = section.start + len(span) - len(span.lstrip("\n")) + 1  # the body's first line, not the heading
    return TextBlock(text=unwrapped(body), line=first) if body.strip() else None


def _samples(doc: Document) -> list[Sample]:
    sample_sections = sec.sample_sections(doc)
    fences = [
        f
        for f in doc.fences
        if any(s.start <= f.start < s.end for s in sample_sections)
        or (not sample_sections and "int main(" in f.content)
    ]
    samples = []
    for f in fences:
        includes = _includes(f.content)
        if "main(" in f.content or includes:
            samples.append(Sample(code=f.content, language=f.info.lower(), line=f.line, includes=includes))
    return samples


def _includes(code: str) -> tuple[str, ...]:
    """The headers `code` includes, each `#include` first on its line (but for spaces and
    tabs). The pattern starts with `#`, which the regex engine finds fast, where a pattern
    anchored at every line start (`^[ \\t]*#`, re.M) is tried at every character of samples
    hundreds of lines long."""
    found = []
    pos = 0
    while match := _INCLUDE.search(code, pos):
        at = match.start()
        if code[code.rfind("\n", 0, at) + 1 : at].strip(" \t"):  # not first on its line
            pos = at + 1
            continue
        found.append(match.group(1))
        pos = match.end()
    return tuple(found)


def _with_sample_calls(functions: list[Function], samples: list[Sample], suffix: str = GWS) -> list[Function]:
    """Each function with its call in the first sample that makes one: the call of its
    `<name><suffix>` (the first phase; a single-phase API's own name with no suffix)."""
    wanted = {f.name: tuple(p.kind for p in f.params) for f in functions}
    found: dict[str, SampleCall] = {}
    for sample in samples:
        if len(found) == len(wanted):
            break
        calls = find_calls(sample.code, sample.line, {n: k for n, k in wanted.items() if n not in found}, suffix)
        found.update(calls)
    return [_with_call(f, found[f.name]) if f.name in found else f for f in functions]


def _with_call(fn: Function, call: SampleCall) -> Function:
    """The function with its sample call; a pointer the authors pass as nullptr is optional."""
    params = fn.params
    if len(call.args) == len(params):
        params = tuple(
            p.model_copy(update={"optional": True}) if arg.kind == "null" and not p.optional else p
            for p, arg in zip(params, call.args, strict=True)
        )
    return fn.model_copy(update={"sample_call": call, "params": params})


# ---------------------------------------------------------------- functions


def _functions(
    doc: Document, decls: list[Declaration], diags: list[Diagnostic]
) -> tuple[list[Function], list[Function]]:
    """The two-phase functions, and the single-phase ones (declared outside a pair)."""
    by_name: dict[str, Declaration] = {}
    for d in decls:
        if d.error:
            diags.append(Diagnostic.at(d.line, Code.PROTOTYPE_SYNTAX, f"{d.name}: {d.error}"))
        if d.prototype is None:
            continue
        if d.name not in by_name:
            by_name[d.name] = d
        elif by_name[d.name].prototype != d.prototype:
            message = f"this prototype of {d.name} differs from the one on line {by_name[d.name].line}; using the first"
            diags.append(Diagnostic.at(d.line, Code.PROTOTYPE_MISMATCH, message))
    lowered = {n.lower(): d for n, d in by_name.items()}
    phases = [d for n, d in by_name.items() if n.lower().endswith(GWS.lower())]
    paired = set()
    functions = []
    for gws in phases:
        base = gws.name[: -len(GWS)]
        if not gws.name.endswith(GWS):
            diags.append(Diagnostic.at(gws.line, Code.NAME_CASE, f"{gws.name} should end in {GWS!r}"))
        exe = by_name.get(base) or lowered.get(base.lower())
        if exe is None:
            message = f"{gws.name} has no matching execute function {base}; "
            message += f"assumed {base}(workspace, workspaceSize, executor, stream)"
            diags.append(Diagnostic.at(gws.line, Code.NO_EXECUTE, message))
        paired.update({gws.name, exe.name if exe else ""})
        functions.append(_function(doc, base, gws, exe, len(phases), diags))
    unread = {d.name for d in decls if d.prototype is None}  # an execute half whose pair is unreadable
    single = [
        _single_phase(doc, d, diags) for name, d in by_name.items() if name not in paired and name + GWS not in unread
    ]
    if not functions and not any(d.severity == "error" for d in diags):
        diags += _no_api(doc, {d.line for d in decls}, declared=bool(by_name))
    return functions, single


def _single_phase(doc: Document, d: Declaration, diags: list[Diagnostic]) -> Function:
    """A function outside a GetWorkspaceSize/execute pair, with the parameters and error rules
    its own section documents (the section headed with its name)."""
    gws_region, exe_region = sec.function_regions(doc, d.name, 1)
    facts, errors, notes = _region_facts(doc, exe_region or gws_region)
    proto = d.prototype.params if d.prototype else ()
    params = _params(
        proto, facts, notes, inplace=False, fallback_line=d.line, function=d.name, diags=diags, other_phase=set()
    )
    fn = Function(name=d.name, line=d.line, params=tuple(params), errors=tuple(_error_rules(errors, params, diags)))
    gap = single_phase_gap(fn)
    message = f"{d.name} is a single-phase API (no GetWorkspaceSize/execute pair): "
    message += f"modelled, not generated ({gap})" if gap else "generated as one call"
    diags.append(Diagnostic.at(d.line, Code.SINGLE_PHASE, message))
    return fn


_CONVENTIONAL_EXECUTE = parse_prototype(
    "aclnnStatus aclnnX(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)"
)


def execute_kind(c_type: str, name: str) -> str:
    """An execute parameter's kind: the workspace size by its type (`uint64_t workspaceLen`)
    as well as by the convention's names."""
    kind = param_kind(c_type, name)
    return "workspace_size" if kind == "int" and c_type == "uint64_t" else kind


def _unconventional_execute(exe: Declaration, diags: list[Diagnostic]) -> None:
    """One warning saying how a documented execute signature differs from the convention's:
    another order, or some of its four parameters left out (generated as documented). One
    with other parameters cannot be generated: codegen says so, once (a `lower` error)."""
    assert exe.prototype is not None
    documented = [(p.c_type, p.name) for p in exe.prototype.params]
    kinds = [execute_kind(t, n) for t, n in documented]
    if kinds == list(EXECUTE_KINDS) or not set(kinds) <= set(EXECUTE_KINDS) or len(set(kinds)) < len(kinds):
        return
    convention = ", ".join(f"{p.c_type} {p.name}" for p in _CONVENTIONAL_EXECUTE.params)
    missing = [k.replace("_", " ") for k in EXECUTE_KINDS if k not in kinds]
    how = f"no {', '.join(missing)}" if missing else "the same parameters in another order"
    message = f"{exe.name} is documented as ({', '.join(f'{t} {n}' for t, n in documented)}), not as the "
    message += f"convention's ({convention}): {how}; generated as documented"
    diags.append(Diagnostic.at(exe.line, Code.EXECUTE_SIGNATURE, message))


_DECLARATION_START = re.compile(r"^[ \t>*-]*aclnnStatus\s+aclnn(?!Xxx)\w", re.M)


def _no_api(doc: Document, read: set[int], *, declared: bool) -> list[Diagnostic]:
    """No two-phase function: an error where a declaration starts (`aclnnStatus aclnnAbs...`
    first on a line) but none was read from that line; else, with no declaration at all, a
    page that is not an operator's (single-phase declarations are said as such)."""
    for start in _DECLARATION_START.finditer(doc.text):
        line = doc.text.count("\n", 0, start.start()) + 1
        if line not in read:
            message = "a declaration starts here but no prototype could be read from it"
            return [Diagnostic.at(line, Code.PROTOTYPE_SYNTAX, message)]
    if declared:
        return []
    message = "not an operator page: no `aclnnStatus aclnnXxx(...)` prototype (a placeholder, a guide)"
    return [Diagnostic.at(1, Code.NO_API, message)]


# A statement that only withdraws dtypes (`不支持INT16、INT8、UINT8`, `参数self、out的数据类型不支持BFLOAT16`):
# the constraints section's product notes of that form narrow the parameters' dtypes on their
# products as the parameter section's do; any other words (a condition, `Cube单元…计算`) keep it text.
_ONLY_WITHDRAWS_DTYPES = re.compile(
    r"(?:(?:参数|入参)?[`\w、和]+的)?(?:数据类型)?不支持\s*[A-Z][A-Z0-9_]*(?:\s*[、，,和]\s*[A-Z][A-Z0-9_]*)*"
    r"\s*(?:数据类型|类型)?[。.；;]?"
)


def _section_dtype_notes(doc: Document) -> list[ProductNote]:
    """The constraints section's product notes that only withdraw dtypes (ops-nn
    aclnnForeachSubListV2: `- Ascend 950PR/Ascend 950DT：不支持INT16、INT8、UINT8。`)."""
    section = sec.notes_section(doc)
    if section is None:
        return []
    out = []
    for note in notes_in(doc, section.start, section.end, []):
        kept = [st for st in note.statements if _ONLY_WITHDRAWS_DTYPES.fullmatch(st.text.strip())]
        if kept:
            out.append(ProductNote(note.products, kept, note.line))
    return out


def _function(
    doc: Document, name: str, gws: Declaration, exe: Declaration | None, n_functions: int, diags: list[Diagnostic]
) -> Function:
    gws_region, exe_region = sec.function_regions(doc, name, n_functions)
    if gws_region is None:
        message = f"no section documents the parameters of {gws.name}"
        diags.append(Diagnostic.at(gws.line, Code.NO_PARAM_SECTION, message))
    facts, errors, notes = _region_facts(doc, gws_region)
    notes = [*notes, *_section_dtype_notes(doc)]
    if gws_region is not None and not errors and (line := _error_code_line(doc, gws_region)):
        message = f"{gws.name}: the section names error codes (line {line}) but no error row is read from it"
        diags.append(Diagnostic.at(line, Code.NO_ERROR_ROWS, message))
    gws_proto = gws.prototype.params if gws.prototype else ()
    # No execute function documented (said as no-execute): the library's has the convention's
    # prototype, which the model takes so that the function is still generated.
    exe_proto = exe.prototype.params if exe and exe.prototype else _CONVENTIONAL_EXECUTE.params
    params = _params(
        gws_proto,
        facts,
        notes,
        inplace="Inplace" in name,
        fallback_line=gws.line,
        function=gws.name,
        diags=diags,
        other_phase={p.name for p in exe_proto},
    )
    params = transpose_flags(_with_summary_values(params, _summary_statements(doc)))
    if exe and exe.prototype:
        _unconventional_execute(exe, diags)
    exe_facts = _param_facts(doc, exe_region)  # the execute phase's errors and notes are not modelled
    exe_params = _params(
        exe_proto,
        exe_facts,
        [],
        inplace=False,
        fallback_line=exe.line if exe else gws.line,
        function=name,
        diags=diags,
        execute=True,
        other_phase={p.name for p in gws_proto},
    )
    error_rules = tuple(_error_rules(errors, params, diags))
    remarks = [ProductStatement(note.products, st.text, st.line) for note in notes for st in note.statements]
    supported = [p.id for p in read_products(doc)[0] if p.supported]
    return Function(
        name=name,
        line=gws.line,
        params=input_rules(
            output_rules(
                params,
                error_rules,
                _shape_statements(facts),
                _formula_statement(doc),
                _notes_statements(doc),
                _summary_statements(doc),
                (remarks, supported),
            ),
            _shape_statements(facts),
        ),
        execute_params=tuple(exe_params),
        execute_line=exe.line if exe else None,
        errors=error_rules,
        remarks=tuple(TextBlock(text=_noted(note, st), line=st.line) for note in notes for st in note.statements),
    )


def _noted(note: ProductNote, statement: Statement) -> str:
    """A note's statement with the products it holds on: `910b、A3：…`."""
    return f"{'、'.join(note.products)}：{statement.text}"


def _formula_statement(doc: Document) -> ShapeStatement | None:
    formula = _formula(doc)
    return ShapeStatement(formula.text, formula.line) if formula else None


# A description bullet stating a parameter's range by its name (aclnnScatterAdd's
# `- dim取值范围为[-self.dim(), self.dim() - 1]。`, among the requirements of the computation).
_SUMMARY_LEAD = re.compile(r"^[-*]\s*`?(?P<name>[A-Za-z_]\w*)`?\s*(?=取值范围)")
_SUMMARY_KINDS = ("axis", "range")


def _with_summary_values(params: list[Param], statements: list[ShapeStatement]) -> list[Param]:
    """Each parameter with the axis or value range a description bullet states of it by name,
    where its own row states none of that kind."""
    names = tuple(p.name for p in params)
    out = []
    for p in params:
        found: list[Constraint] = []
        for st in statements:
            lead = _SUMMARY_LEAD.match(st.text)
            if lead is None or lead.group("name") != p.name or any(c.kind in _SUMMARY_KINDS for c in p.constraints):
                continue
            ctx = cons.Context(subject=p.name, params=names, line=st.line)
            typed = cons.classify(st.text[lead.end() :], ctx)[0]
            text = st.text.lstrip("-* ")
            found += [c.model_copy(update={"text": text}) for c in typed if c.kind in _SUMMARY_KINDS]
        out.append(p.model_copy(update={"constraints": (*p.constraints, *found)}) if found else p)
    return out


def _summary_statements(doc: Document) -> list[ShapeStatement]:
    """The function description's lines outside formula blocks, code blocks' included, each
    with its line (the shape readers find there what a gradient output is the gradient of,
    `对于 $x$ 的梯度…（对应函数原型中的gradInput参数）`, and shape statements,
    `output的shape为includeLastOffset ? (…) : (…)`)."""
    section = sec.summary_section(doc)
    if section is None:
        return []
    body = _FORMULA.sub(lambda m: "\n" * m.group(0).count("\n"), doc.span(section.start, section.end))
    numbered = enumerate(body.split("\n")[1:], start=section.start + 1)
    return [ShapeStatement(text.strip(), i + 1) for i, text in numbered if text.strip()]


def _notes_statements(doc: Document) -> list[ShapeStatement]:
    """The constraints section's lines outside code blocks, each with its line (the shape
    readers look there for an output's equations)."""
    section = sec.notes_section(doc)
    if section is None:
        return []
    lines = range(section.start, min(section.end, len(doc.lines)))
    return [
        ShapeStatement(text.strip(), i + 1, indent=len(text) - len(text.lstrip()))
        for i in lines
        if (text := doc.lines[i]).strip() and not doc.in_fence(i)
    ]


def _shape_statements(facts: list[ParamFacts]) -> dict[str, list[ShapeStatement]]:
    """What each parameter's row or bullet says, by statement, for the shape readers."""
    out: dict[str, list[ShapeStatement]] = {}
    for f in facts:
        said = [ShapeStatement(s.text, s.line) for s in [*f.description, *f.statements]]
        if cell := f.cells.get("shape"):  # the shape column's cell: its subject is the shape
            said.append(ShapeStatement(cell.text, cell.line, cell=True))
        out.setdefault(f.name, []).extend(said)
    return out


def _region_facts(
    doc: Document, region: sec.Region | None
) -> tuple[list[ParamFacts], list[ErrorFacts], list[ProductNote]]:
    if region is None:
        return [], [], []
    tables = tables_in(doc, region.start, region.end)
    spans = [(t.line - 1, t.end) for t in tables]
    facts = _param_facts(doc, region, tables)
    errors = [e for t in tables if is_error_table(t) for e in errors_from_table(t)]
    if not errors:
        errors = errors_from_text(doc, region.start, region.end, spans)
    return facts, errors, _notes_to_params(notes_in(doc, region.start, region.end, spans), facts)


_PARAM_LEAD = re.compile(r"^(?:参数)?(?P<name>[A-Za-z_]\w*)\s*参数中\s*[，,:：]\s*")


def _notes_to_params(notes: list[ProductNote], facts: list[ParamFacts]) -> list[ProductNote]:
    """A product note's statement led by the parameter it is about (`x参数中，仅支持…` under
    `<term>A2</term>：`) is that parameter's note, as it was when it sat in the parameter's
    cell (`<li><term>A2</term>：仅支持…</li>`); the notes left are the region's (but those a
    tensor's bullet nests, which are already its own)."""
    by_name = {f.name: f for f in facts}
    # a tensor or scalar bullet's own sub-bullets (those after the last bullet, executor's
    # by indentation, are the region's: `- executor（…）：…` then `- <term>A2</term>：不支持INT64`)
    nested = {
        n.line for f in facts if "acl" in (f.type_hint or "") and "Executor" not in (f.type_hint or "") for n in f.notes
    }
    left = []
    for note in (n for n in notes if n.line not in nested):
        kept = []
        for st in note.statements:
            lead = _PARAM_LEAD.match(st.text)
            if lead and lead.group("name") in by_name:
                own = Statement(st.text[lead.end() :], st.line)
                by_name[lead.group("name")].notes.append(ProductNote(note.products, [own], st.line))
            else:
                kept.append(st)
        if kept:
            left.append(ProductNote(note.products, kept, note.line))
    return left


_ARGUMENT_CODE = re.compile(r"(?<!\d)16100[12](?!\d)")


def _error_code_line(doc: Document, region: sec.Region) -> int:
    """The 1-based line of the region's first argument error code (161001/161002) outside a
    code block (a sample's status checks are not the error table); 0 when it names none."""
    for i in range(region.start, region.end):
        if _ARGUMENT_CODE.search(doc.lines[i]) and not doc.in_fence(i):
            return i + 1
    return 0


def _param_facts(doc: Document, region: sec.Region | None, tables: list[Table] | None = None) -> list[ParamFacts]:
    """What a region says of each parameter: its parameter tables' rows, or else its bullets."""
    if region is None:
        return []
    if tables is None:
        tables = tables_in(doc, region.start, region.end)
    facts = [f for t in tables if is_param_table(t) for f in params_from_table(t)]
    return facts or params_from_bullets(doc, region.start, region.end)


# ---------------------------------------------------------------- parameters


def param_kind(c_type: str, name: str) -> str:
    stars = c_type.count("*")
    core = c_type.replace("const", " ").replace("*", " ").split()
    base = core[-1] if core else ""
    if base == "uint64_t" and name in ("workspaceSize", "workspace_size"):
        return "workspace_size"
    if base == "aclOpExecutor":
        return "executor"
    if base == "aclrtStream":
        return "stream"
    if base == "void" and stars == 1:
        return "workspace"
    if base in vocab.TYPE_KINDS and stars == 1:
        return vocab.TYPE_KINDS[base]
    if base == "aclDataType" and stars == 0:
        return "dtype"
    if base == "char" and stars == 1:
        return "string"
    if stars == 0:
        if base in _INT_TYPES:
            return "int"
        if base in ("float", "double"):
            return "float"
        if base == "bool":
            return "bool"
    return "other"


def param_direction(kind: str, c_type: str, name: str, written: str | None, inplace: bool, execute: bool) -> str:
    if execute:
        return "in"
    if kind in ("workspace_size", "executor"):
        return "out"
    writable = "*" in c_type and not c_type.startswith("const ") and kind in POINTER_KINDS
    ref = name.endswith("Ref") or (inplace and name.startswith("self"))
    stated = vocab.direction(written) if written else None
    if stated == "in" and writable and ref:
        return "inout"
    if stated:
        return stated
    if not writable:
        return "in"
    return "inout" if ref else "out"


def _params(
    prototype: Iterable[CParam],
    facts: list[ParamFacts],
    notes: list[ProductNote],
    *,
    inplace: bool,
    fallback_line: int,
    function: str,
    diags: list[Diagnostic],
    execute: bool = False,
    other_phase: Iterable[str] = (),
) -> list[Param]:
    """Prototype parameters joined with what the document says of them. Documented names of
    `other_phase` are not reported: some documents describe both phases in one table."""
    prototype = list(prototype)
    names = tuple(p.name for p in prototype)
    by_name: dict[str, ParamFacts] = {}
    for f in facts:
        if f.name in by_name:
            message = f"{function}: parameter {f.name} is documented twice"
            diags.append(Diagnostic.at(f.line, Code.DUPLICATE_PARAM, message))
        elif f.name not in names and f.name not in other_phase and prototype:
            message = f"{function}: documented parameter {f.name} is not in the prototype"
            diags.append(Diagnostic.at(f.line, Code.UNKNOWN_PARAM, message))
        else:
            by_name[f.name] = f
    listed = _listed_dtypes(facts)
    aliases = _output_aliases(list(by_name.values()), names)
    return [
        _param(p, by_name.get(p.name), notes, names, inplace, fallback_line, execute, listed, aliases)
        for p in prototype
    ]


def _output_aliases(facts: list[ParamFacts], names: tuple[str, ...]) -> dict[str, str]:
    """The formula's names of outputs that the remarks may call them by (aclnnForeachAddListV2
    out: `对应公式中的`y``, then `入参`x1`、`x2`和出参`y`支持包含的最大Tensor个数均为50`): each
    symbol one output's row names, when it names no parameter and no other output's row names it."""
    found: dict[str, list[str]] = {}
    for f in facts:
        if f.direction and vocab.direction(f.direction) == "out":
            for sym in dict.fromkeys(m.group("sym") for s in f.description for m in FORMULA_NAME.finditer(s.text)):
                found.setdefault(sym, []).append(f.name)
    return {sym: outs[0] for sym, outs in found.items() if len(outs) == 1 and sym not in names}


# `出参`y``: the remark marks the name as an output's (the formula's name of it, see `_output_aliases`)
_OUTPUT_WORD = re.compile(r"(?<=出参)(\s*`?)(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])")


def _resolved(statement: Statement, aliases: dict[str, str]) -> Statement:
    """The remark with each output it names by the formula's name (`出参`y``) named by its parameter."""
    if not aliases or "出参" not in statement.text:
        return statement
    text = _OUTPUT_WORD.sub(lambda m: m.group(1) + aliases.get(m.group("name"), m.group("name")), statement.text)
    return statement if text == statement.text else Statement(text, statement.line)


def _listed_dtypes(facts: list[ParamFacts]) -> set[str]:
    """The dtypes the parameters' dtype cells list, all together."""
    return {d for f in facts if (cell := f.cells.get("dtype")) for d in cons.dtype_list(cell.text)[0]}


def _param(
    proto: CParam,
    facts: ParamFacts | None,
    notes: list[ProductNote],
    names: tuple[str, ...],
    inplace: bool,
    fallback_line: int,
    execute: bool,
    listed: set[str],
    aliases: dict[str, str] | None = None,
) -> Param:
    kind = (execute_kind if execute else param_kind)(proto.c_type, proto.name)
    line = facts.line if facts else fallback_line
    constraints: list[Constraint] = []
    description: list[str] = []
    if facts is not None:
        constraints, description = _facts_constraints(facts, names)
    constraints += _note_constraints(proto.name, constraints, notes, names, listed)
    constraints += _note_rules(proto.name, notes, names, aliases or {})
    if kind == "string":
        stated, description = stated_sets(description, line)
        constraints = held_sets(string_sets(constraints + stated), names)
    if kind in ("tensor", "tensor_list"):
        constraints = shape_lists(constraints)
    else:
        constraints = value_statements(kind, proto.name, constraints, names)
    written = facts.direction if facts else None
    optional = proto.name.endswith("Optional") or "可选" in (written or "") or any(_may_be_null(c) for c in constraints)
    all_text = [s.text for s in (facts.description + facts.statements) if facts] if facts else []
    all_text += [_noted(note, st) for note in (facts.notes if facts else []) for st in note.statements]
    return Param(
        name=proto.name,
        c_type=proto.c_type,
        kind=kind,  # type: ignore[arg-type]
        direction=param_direction(kind, proto.c_type, proto.name, written, inplace, execute),  # type: ignore[arg-type]
        optional=optional,
        description=_as_written(description, [s.text for s in facts.statements])
        if facts and facts.mixed_prose
        else _cell_description(facts, constraints)
        if facts
        else "",
        text="\n".join(all_text + [c.text for c in (facts.cells.values() if facts else [])]),
        constraints=tuple(_dedupe(constraints)),
        documented=facts is not None,
        line=line,
    )


# Words of a rule: a clause holding one is no description, whatever it opens with
# (`计算输出yOut的shape最后一维…`, `用户必须传参`).
_SENTENCE_END = re.compile(r"[。；;]")
_RULE_WORDS = re.compile(r"shape|维|数据类型|必须|需要|支持|仅|不能|取值|须|不生效")


def _bullet_sentences(text: str, ctx: cons.Context) -> tuple[list[Constraint], list[str]]:
    """A bullet's statement read as a bullet's lead (description where no rule is read yet),
    but for a later sentence's clauses: those continue the description only while they state
    no rule and every sentence before was description; a rule moved from a table's usage cell
    into the bullet (`x的最后一维需要为2的倍数`) is then no description, as it was none in the cell."""
    typed, description = cons.classify(text, ctx, descriptive_ok=True)
    # `…，默认为0，表示和query的head个数相等；numHeads与numKeyValueHeads的比值不能大于64。`: a
    # rule after a semicolon starts a sentence of its own
    first, _, rest = _SENTENCE_END.sub("。", text, count=1).partition("。")
    late = set(_late_rules(rest))
    kept = [c for c in description if c not in late or c in first]
    for clause in description:
        if clause not in kept:
            typed += cons.classify(clause, ctx)[0]
    return typed, kept


def _late_rules(rest: str) -> list[str]:
    """The clauses of the sentences after a bullet's first that are no description: from
    the first clause that states a rule (or does not read as description) on."""
    parts = cons.clauses(rest)
    for k, clause in enumerate(parts):
        if _RULE_WORDS.search(clause) or not cons.reads_as_description(clause):
            return parts[k:]
    return []


# `Device侧的aclTensor`, `Host侧的浮点类型`, `Host侧的int64_t`: the C type said again, which a
# table's description cell leaves to the name cell (`x（aclTensor*）`).
_TYPE_BOILERPLATE = re.compile(r"^(?:Device|Host)侧的\s*\S{1,24}$")


def _as_written(clauses: list[str], statements: list[str]) -> str:
    """The description clauses of a bullet but those restating its C type (unless nothing
    else describes it), each followed by the stop the bullet puts after it (`表示输入。公式中
    的x` stays two sentences, as the same words in a table cell are)."""
    written = "".join(statements)
    out, at = [], 0
    if all(_TYPE_BOILERPLATE.match(c) for c in clauses):
        return "，".join(clauses)
    for clause in clauses:
        found = written.find(clause, at)
        at = found + len(clause) if found >= 0 else at
        stop = written[at : at + 1] if found >= 0 and written[at : at + 1] in ("。", "；") else "，"
        if not _TYPE_BOILERPLATE.match(clause):
            out.append(clause + stop)
    return "".join(out).rstrip("，。；")


def _cell_description(facts: ParamFacts, constraints: list[Constraint]) -> str:
    """A table's description cell as written, less the requirements read from it as statements
    (`表示左矩阵是否参与运算，用户必须传参。`): the description a list's sentences give too."""
    lines = {s.line for s in facts.description}
    required = [c.text for c in constraints if c.kind == "text" and c.line in lines and cons.states_requirement(c.text)]
    text = " ".join(s.text for s in facts.description)
    for clause in required:
        text = re.sub(r"[，,；;]?\s*" + re.escape(clause) + r"\s*[。；;，,]?", "", text, count=1)
    return text.strip()


_CELL_READERS = {
    "dtype": cons.dtype_cell,
    "format": cons.format_cell,
    "shape": cons.shape_cell,
    "non_contiguous": cons.non_contiguous_cell,
}


def _facts_constraints(facts: ParamFacts, names: tuple[str, ...]) -> tuple[list[Constraint], list[str]]:
    contexts: dict[int, cons.Context] = {}  # by line: the cells and statements of a table row share one

    def at(line: int) -> cons.Context:
        if line not in contexts:
            contexts[line] = cons.Context(subject=facts.name, params=names, line=line)
        return contexts[line]

    found: list[Constraint] = []
    description: list[str] = []
    for statement in facts.statements:
        if facts.mixed_prose and not found:
            typed, descriptive = _bullet_sentences(statement.text, at(statement.line))
        else:
            typed, descriptive = cons.classify(statement.text, at(statement.line))
        found += typed
        description += descriptive
    if not facts.mixed_prose:  # a description cell may still state typed facts, and requirements
        for statement in facts.description:
            typed = cons.classify(statement.text, at(statement.line), descriptive_ok=True)[0]
            found += [c for c in typed if c.kind != "text" or cons.states_requirement(c.text)]
    for role, cell in facts.cells.items():
        found += cons.read(_CELL_READERS[role], cell.text, at(cell.line))
    for note in facts.notes:  # nested under this parameter: the product's own set
        for statement in note.statements:
            for c in cons.classify(statement.text, at(statement.line))[0]:
                found += [c.model_copy(update={"product": pid}) for pid in note.products]
    return found, description


_NOT_SUPPORTED_DTYPES = re.compile(
    r"不支持\s*(?P<a>[A-Z0-9_、，, 和]+?)\s*(?:数据类型|类型)?(?:[。；]|$)"
    r"|数据类型不支持\s*(?P<b>[A-Z0-9_、，, 和]+)"
)


def _note_constraints(
    name: str, own: list[Constraint], notes: list[ProductNote], names: tuple[str, ...], listed: set[str]
) -> list[Constraint]:
    """Section-level product notes restrict the parameter's general dtype set on a product (or
    extend it: `额外支持`, or dtypes no parameter's cell lists)."""
    general = [v for c in own if c.kind == "dtypes" and c.product is None for v in c.values]
    if not general:
        return []
    out = []
    for note in notes:
        for statement in note.statements:
            ctx = cons.Context(subject=None, params=names, line=statement.line)
            if (extended := _extended(name, general, statement.text, ctx)) is not None:
                allowed: list[Scalar] | None = extended
            elif (named := ctx.named(statement.text)) and name not in named:
                continue
            else:
                allowed = _restricted(general, _about(name, statement.text, ctx), ctx, listed)
            if allowed is None:  # a product's set equal to the general one is still said (and read)
                continue
            out += [
                Constraint(kind="dtypes", text=statement.text, line=statement.line, values=tuple(allowed), product=pid)
                for pid in note.products
            ]
    return out


# The sentences of a remark, and their clauses: a sentence holds unconditionally up to its first
# clause that states a condition (`当数据格式为NZ时`, `但当x1和x2的dtype为INT8`, `参数x、scale、offset的
# 数据格式为NZ时`: led by 当/若/如果 or ending in 时, not 同时); the words a sentence's subject is
# named in come before its first dtype verb.
_SENTENCE = re.compile(r"[^。；;]+")
_CLAUSE = re.compile(r"[^，,]+[，,]?")
_CONDITION = re.compile(r"^\s*(?:但|且|并且|而|另外|此外)?\s*(?:当|若|如果)|(?<!同)时\s*[，,]?\s*$")
_DTYPE_VERB = re.compile(r"数据类型|不支持|仅支持|只支持|支持")


def _unconditional(sentence: str) -> str:
    """The sentence up to its first clause that states a condition."""
    kept = ""
    for clause in _CLAUSE.findall(sentence):
        if _CONDITION.search(clause):
            break
        kept += clause
    return kept.rstrip("，, ")


def _about(name: str, text: str, ctx: cons.Context) -> str:
    """What a product remark states of `name`'s dtypes on its products: each sentence up to its
    first condition, where its subject names `name` or no parameter (aclnnRmsNormQuant, 910b:
    `入参x、gamma、beta、scale的数据类型仅支持FLOAT16，BFLOAT16，offset仅支持INT8` says nothing of
    offset's set in its first list; aclnnQuantize: `入参zeroPoints不支持FLOAT32。且当数据类型为
    BFLOAT16时，x、scales数据类型均为BFLOAT16` withdraws nothing from x; aclnnGemm, 950:
    `cubeMathType=4，当输入数据类型为FLOAT16/BFLOAT16时，gemm过程会升精度计算` and aclnnAscendQuant,
    A2/A3: `参数x、scale、offset的数据格式为NZ时，数据类型仅支持FLOAT32` restrict no input)."""
    kept = []
    for sentence in map(_unconditional, _SENTENCE.findall(text)):
        verb = _DTYPE_VERB.search(sentence)
        who = ctx.named(sentence[: verb.start()]) if verb else ()
        if sentence and (not who or name in who):
            kept.append(sentence)
    return "。".join(kept)


# A remark led by the one parameter it is about: `输入`dim`仅支持1000。`, `参数x仅支持false`.
_REMARK_LEAD = re.compile(r"^(?:输入|参数|入参)?\s*`?(?P<name>[A-Za-z_]\w*)`?\s*(?=仅|只|不|必须|取值)")
# What such a remark may hold of its parameter on its products (dtype sets are `_note_constraints`').
_REMARK_KINDS = ("enum", "range")


def _note_rules(
    name: str, notes: list[ProductNote], names: tuple[str, ...], aliases: dict[str, str]
) -> list[Constraint]:
    """The values a section-level product remark allows `name` (`输入`returnInverse`仅支持false`
    under `<term>Ascend 950PR/Ascend 950DT</term>：`), and the dtype equality it states of
    `name` and another parameter (`参数weight、gradBias的数据类型与gradOut的保持一致`): each
    held on the remark's products only."""
    out: list[Constraint] = []
    for note in notes:
        out += [c.model_copy(update={"product": pid}) for c in _pairings(name, note) for pid in note.products]
        for said in note.statements:
            statement = _resolved(said, aliases)
            found = (
                _remark_values(name, statement, names)
                + _remark_same_dtype(name, statement, names)
                + _remark_list_length(name, statement, names)
            )
            verbatim = {"text": said.text} if statement is not said else {}  # the remark as written
            out += [c.model_copy(update={"product": pid, **verbatim}) for c in found for pid in note.products]
    return out


# `参数`scalar`的数据类型与入参`x`的数据类型具有一定对应关系：`, then a case a line: `当`x`的数据类型为
# BFLOAT16时，数据类型支持FLOAT32。` (aclnnForeachMulScalarInplace, Ascend 950)
_PAIRING = re.compile(
    r"^(?:参数|入参|输入)?\s*`?(?P<name>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的?数据类型[^：:]*?)?与(?:输入参数|入参|输入|参数)?\s*"
    r"`?(?P<peer>[A-Za-z_][A-Za-z0-9_]*)`?\s*的?数据类型具有一定对应关系"
)


def _pairings(name: str, note: ProductNote) -> list[Constraint]:
    """A remark pairing `name`'s dtype with another parameter's, case by case, with its cases
    (`当x的数据类型为…时，…`) as one statement the validator lists unchecked: the cases speak of
    `name`'s dtypes, never of the peer's own set."""
    out: list[Constraint] = []
    for i, said in enumerate(note.statements):
        m = _PAIRING.match(said.text)
        if m is None or m.group("name") != name:
            continue
        cases = [s.text for s in itertools.takewhile(lambda s: s.text.startswith("当"), note.statements[i + 1 :])]
        out.append(
            Constraint(kind="text", text=" ".join([said.text, *cases]), line=said.line, params=(m.group("peer"),))
        )
    return out


def _remark_values(name: str, statement: Statement, names: tuple[str, ...]) -> list[Constraint]:
    lead = _REMARK_LEAD.match(statement.text)
    if lead is None or lead.group("name") != name:
        return []
    ctx = cons.Context(subject=name, params=names, line=statement.line)
    typed = cons.classify(statement.text[lead.end() :], ctx)[0]
    return [c.model_copy(update={"text": statement.text}) for c in typed if c.kind in _REMARK_KINDS]


# `参数`x`支持包含的最大Tensor个数为256`, `入参`x`和出参`out`支持包含的最大Tensor个数均为50`
_LIST_LENGTH = re.compile(r"支持包含的最大(?:Tensor|tensor)个数(?:均)?为\s*(?P<n>\d{1,6})")


def _remark_list_length(name: str, statement: Statement, names: tuple[str, ...]) -> list[Constraint]:
    """The most tensors a remark lets the lists it names hold, as their length bound."""
    m = _LIST_LENGTH.search(statement.text)
    if m is None or name not in cons.names_in(statement.text[: m.start()], names):
        return []
    return [Constraint(kind="length", text=statement.text, line=statement.line, max=int(m.group("n")))]


# The equality closes the statement: `…与gradOut的保持一致。`, `参数mean和gradOut的数据类型相同。`;
# a clause after it (`x1、x2、x3三者的数据类型完全一致，且同为BFLOAT16`, one of the conditions
# aclnnFusedMatmul lists for a mode) makes it no rule of its own.
_CLOSING_EQUALITY = re.compile(r"(?:一致|相同)\s*[。；;.]?$")


def _remark_same_dtype(name: str, statement: Statement, names: tuple[str, ...]) -> list[Constraint]:
    """`X、Y的数据类型与Z的保持一致` read as X's and Y's dtype equal to Z's (Z, named last, is
    the one the others follow)."""
    if not _CLOSING_EQUALITY.search(statement.text):
        return []
    ctx = cons.Context(subject=None, params=names, line=statement.line)
    typed = cons.classify(statement.text, ctx)[0]
    return [
        c.model_copy(update={"params": c.params[-1:]})
        for c in typed
        if c.kind == "same_dtype" and name in c.params[:-1]
    ]


# `self额外支持BFLOAT16`, `input数据类型额外支持FLOAT8_E4M3FN`, `额外支持 BFLOAT16` (every parameter)
_EXTRA_DTYPES = re.compile(r"额外支持\s*(?P<dtypes>[A-Z][A-Z0-9_]*(?:\s*[、，,和]\s*[A-Z][A-Z0-9_]*)*)")
_EXTRA_WHO = re.compile(r"(?P<who>[A-Za-z_][A-Za-z0-9_、和]*)(?:的)?(?:数据类型)?$")


def _extended(name: str, general: list[Scalar], text: str, ctx: cons.Context) -> list[Scalar] | None:
    """The general set plus the dtypes a footnote says `name` supports besides it on its
    products (`<term>A2</term>：self额外支持BFLOAT16，out额外支持BFLOAT16`); None when the
    statement says no such thing of it."""
    extra: list[Scalar] = []
    said = False
    for m in _EXTRA_DTYPES.finditer(text):
        said = True
        before = _EXTRA_WHO.search(text[max(0, m.start() - 60) : m.start()])  # the words just before
        who = ctx.named(before.group("who")) if before else ()
        if not who or name in who:
            extra += cons.dtype_list(m.group("dtypes"))[0]
    if not said:
        return None
    return general + [d for d in dict.fromkeys(extra) if d not in general]


def _restricted(general: list[Scalar], text: str, ctx: cons.Context, listed: set[str]) -> list[Scalar] | None:
    """The general set less what a footnote says the product does not support (`self和out的
    数据类型不支持BOOL、BFLOAT16`), or the product's own list; None when it shares no dtype with
    the general set (a footnote about other parameters' dtypes)."""
    if m := _NOT_SUPPORTED_DTYPES.search(text):
        removed, _ = cons.dtype_list(m.group("a") or m.group("b") or "")
        return [d for d in general if d not in removed] or None if removed else None
    typed = [c for c in cons.rule_dtypes(text, ctx) if c.product is None]
    if not typed:
        return None
    allowed = [d for d in general if d in typed[0].values]
    # the product's own list: a dtype no parameter's cell lists is supported there too
    # (`<term>A2</term>：数据类型支持FLOAT、FLOAT16、BFLOAT16、INT16` beside FLOAT/FLOAT16/BFLOAT16 cells)
    return allowed + [d for d in typed[0].values if d not in general and d not in listed] if allowed else None


def _dedupe(constraints: list[Constraint]) -> list[Constraint]:
    seen = set()
    out = []
    for c in constraints:
        key = (c.kind, c.text, c.line, c.params, c.values, c.product)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


# ---------------------------------------------------------------- errors


def _error_rules(errors: list[ErrorFacts], params: list[Param], diags: list[Diagnostic]) -> list[ErrorRule]:
    names = tuple(p.name for p in params)
    pointers = tuple(p.name for p in params if p.kind in POINTER_KINDS and not p.optional)
    # the required pointers read, and those written (an in-out one is both)
    sides = (
        tuple(p.name for p in params if p.name in pointers and p.direction != "out"),
        tuple(p.name for p in params if p.name in pointers and p.direction in ("out", "inout")),
    )
    tensors = tuple(p.name for p in params if p.kind in ("tensor", "tensor_list"))
    every_pointer = tuple(p.name for p in params if p.kind in POINTER_KINDS)
    flags = tuple(p.name for p in params if p.kind == "bool_array")
    bools = tuple(p.name for p in params if p.kind == "bool")
    names_by_code = {v: k for k, v in STATUS_CODES.items()}
    rules = []
    for e in errors:
        typos: dict[str, str] = {}
        named = tuple(cons.names_in(e.condition, names, typos))
        diags += [
            Diagnostic.at(e.line, Code.NAME_TYPO, f"error condition names {wrong!r}, read as parameter {right!r}")
            for wrong, right in typos.items()
        ]
        # its condition is the check's own: a bool array's element or a bool asks for the pointers
        mask = cons.masked_null(e.condition, every_pointer, flags)
        masked = (mask,) if mask else cons.flagged_null(e.condition, every_pointer, bools)
        rules.append(
            ErrorRule(
                code=e.code,
                name=e.name or names_by_code.get(e.code, ""),
                condition=e.condition,
                params=named,
                checks=masked if masked else tuple(cons.condition_checks(e.condition, named, pointers, tensors, sides)),
                conditional=not masked and cons.is_conditional(e.condition),
                line=e.line,
            )
        )
    return rules


def _may_be_null(c: Constraint) -> bool:
    """`可选`, or `目前仅支持nullptr` said of every product (a per-product one leaves the others)."""
    return c.kind == "optional" or (c.kind == "null" and c.product is None)
