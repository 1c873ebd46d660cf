"""Models, their lowered code and their lint findings → the views of the site's pages.

Nothing here reads prose: the validator rules come from `codegen.lower.operator_code` (the
rules the generated validator holds, enforced or unchecked with the reason), the typed
constraints from the model, the findings from `review.lint`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

import specgen
from specgen.codegen.errors import LowerError
from specgen.codegen.lower import operator_code
from specgen.codegen.render import environment, sample_warnings
from specgen.codegen.runtime._validate import Rule
from specgen.codegen.views import FunctionCode, OperatorCode, SampleArg
from specgen.diagnostics import Code
from specgen.model import CallArg, Constraint, Diagnostic, ErrorRule, Function, OperatorDoc, Param, single_phase_gap
from specgen.review.findings import Finding
from specgen.review.report import problem_code
from specgen.site.highlight import c_markup
from specgen.site.views import (
    CallRow,
    CheckRow,
    ConstraintRow,
    ErrorRow,
    FindingRow,
    FunctionView,
    IndexRow,
    Matrix,
    MatrixRow,
    OperatorPage,
    ParamRow,
    Source,
)

YES, NO, NONE = "yes", "no", "n/a"  # a cell of the dtype × product matrix
GENERAL = ("any", "every product the document does not single out")
MAX_SUMMARY = 160  # characters of the summary the index shows


@dataclass(frozen=True)
class Linker:
    """Links to one document's lines: `url` is a template with `{path}` and `{line}` (a
    repository's web view); without it, a relative link from the page to the file."""

    shown: str  # the document's path as the site names it
    relative: str  # from the page's folder to the document
    url: str | None = None

    def at(self, line: int) -> Source:
        return Source.of(self.shown, line, self.url, self.relative)


def linker(source: str, shown: str, page_folder: str, url: str | None) -> Linker:
    relative = os.path.relpath(os.path.abspath(source), os.path.abspath(page_folder))
    return Linker(shown, relative.replace(os.sep, "/"), url)


# ---------------------------------------------------------------- the operator page


@dataclass
class Lowered:
    """What codegen makes of a document: each function's code, or why it could not."""

    functions: dict[str, FunctionCode]
    failures: dict[str, str]  # function name -> the lowering error
    diagnostics: list[Diagnostic]
    program: str  # the generated sample program; empty when none


def lower(doc: OperatorDoc, shown: str) -> Lowered:
    """The document lowered whole, as generate does; when that fails, each function alone,
    so that one function's fault leaves the others' rules on the page."""
    try:
        code = operator_code(doc, shown)
    except LowerError as exc:
        return _lower_each(doc, shown, exc)
    except Exception as exc:  # noqa: BLE001 - one document must not stop the others (as in generate)
        if specgen.debugging():
            raise
        message = specgen.internal_error_message(exc, "generating from")
        failures = {fn.name: message for fn in doc.functions}
        return Lowered({}, failures, [Diagnostic.at(1, Code.INTERNAL_ERROR, message)], "")
    return Lowered(
        {f.name: f for f in code.functions},
        {},
        [d for f in code.functions for d in sample_warnings(f)],
        _program(code),
    )


def _lower_each(doc: OperatorDoc, shown: str, whole: LowerError) -> Lowered:
    functions: dict[str, FunctionCode] = {}
    failures: dict[str, str] = {}
    for fn in doc.functions:
        try:
            code = operator_code(doc.model_copy(update={"functions": (fn,)}), shown)
            functions[fn.name] = code.functions[0]
        except LowerError as exc:
            failures[fn.name] = str(exc)
    if not failures:  # the fault is the operator's own (its name), not a function's
        failures = {fn.name: str(whole) for fn in doc.functions}
        functions = {}
    return Lowered(functions, failures, [Diagnostic.at(whole.line, Code.LOWER, str(whole))], "")


def _program(code: OperatorCode) -> str:
    try:
        return environment().get_template("sample.cpp.jinja").render(op=code)
    except Exception:  # noqa: BLE001 - the page is shown without it; generate reports the fault
        if specgen.debugging():
            raise
        return ""


def operator_page(
    doc: OperatorDoc, page: str, link: Linker, lowered: Lowered, findings: Sequence[Finding]
) -> OperatorPage:
    diagnostics = [*doc.diagnostics, *lowered.diagnostics]
    return OperatorPage(
        name=doc.name,
        page=page,
        summary=doc.summary.text if doc.summary else "",
        products=tuple((p.id, p.name, p.supported) for p in doc.products),
        functions=tuple(_function(doc, fn, link, lowered) for fn in (*doc.functions, *doc.single_phase)),
        findings=tuple(_finding(f, link) for f in findings),
        diagnostics=tuple(_diagnostic(d, link) for d in sorted(diagnostics, key=lambda d: (d.line, d.code))),
        sample_program=c_markup(lowered.program) if lowered.program else "",
        document_samples=tuple((c_markup(s.code), link.at(s.line)) for s in doc.samples),
        source=link.at(1),
    )


def _function(doc: OperatorDoc, fn: Function, link: Linker, lowered: Lowered) -> FunctionView:
    code = lowered.functions.get(fn.name)
    single = fn in doc.single_phase
    call_name = fn.name if single else fn.workspace_name
    rules = list(code.cases.rules) if code else []
    errors = tuple(_error_rows(fn, rules, link))
    implied = tuple(_check(r) for r in rules if r.id.startswith("implied_"))
    return FunctionView(
        name=fn.name,
        anchor=fn.name,
        call_name=call_name,
        prototypes=tuple(c_markup(p) for p in prototypes(fn, single=single)),
        params=tuple(_param(doc, p, link) for p in fn.params),
        errors=errors,
        implied=implied,
        document_call=_document_call(fn, link),
        generated_call=tuple(_generated_arg(a) for a in code.sample.args) if code else (),
        calls=_calls(fn, code, call_name),
        sample_note=_sample_note(code),
        enforced=sum(r.host for r in rules),
        unchecked=sum(not r.host for r in rules),
        lowered=lowered.failures.get(fn.name, "") or (_not_generated(fn) if single else ""),
        source=link.at(fn.line),
    )


def prototypes(fn: Function, single: bool = False) -> list[str]:
    """The C prototypes as the generated header declares them: two, or one for a single-phase API."""
    out = []
    phases = ((fn.name, fn.params),) if single else ((fn.workspace_name, fn.params), (fn.name, fn.execute_params))
    for name, params in phases:
        if params:
            args = ",\n".join(f"    {_declarator(p)}" for p in params)
            out.append(f"aclnnStatus {name}(\n{args});")
    return out


def _not_generated(fn: Function) -> str:
    """Why a single-phase API has no generated code ("" when it has)."""
    gap = single_phase_gap(fn)
    return f"not generated: {gap}" if gap else ""


def _declarator(p: Param) -> str:
    return f"{p.c_type} {p.name}"


# ---------------------------------------------------------------- parameters


def _param(doc: OperatorDoc, p: Param, link: Linker) -> ParamRow:
    return ParamRow(
        name=p.name,
        direction=p.direction,
        c_type=p.c_type,
        kind=p.kind,
        optional=p.optional,
        description=p.description,
        formats=", ".join(p.formats),
        rank=_rank(p),
        shape=shape_rule(p),
        matrix=dtype_matrix(doc, p),
        constraints=tuple(_constraint(c, link) for c in p.constraints),
        source=link.at(p.line),
    )


def _rank(p: Param) -> str:
    rank = p.rank
    if rank is None:
        return ""
    if rank.max == rank.min:
        return str(rank.min)
    return f"{rank.min}..{rank.max if rank.max is not None else ''}"


def shape_rule(p: Param) -> str:
    """An output's shape rule as typed, with the statement it is read from (or why none is)."""
    rule = p.shape_rule
    if rule is None:
        return ""
    if not rule.derived:
        return f"not derivable: {rule.reason}"
    typed = f"{rule.kind}({', '.join(rule.params or rule.dims)})"
    return f"{typed}: {rule.text}" if rule.text else typed


def dtype_matrix(doc: OperatorDoc, p: Param) -> Matrix | None:
    """Each documented dtype against each product: allowed, not allowed, or not a product the
    operator runs on. Without documented products, one column for the general set and one for
    each product a dtype set is restricted to."""
    if not p.dtypes:
        return None
    columns = [(pr.id, pr.name) for pr in doc.products]
    known = {pr.id for pr in doc.products}
    columns += [(pid, pid) for pid in p.product_dtypes if pid not in known]
    if not doc.products:
        columns.insert(0, GENERAL)
    unsupported = {pr.id for pr in doc.products if not pr.supported}
    # a product the document does not single out takes the general set (GENERAL is not one)
    allowed = {pid: {str(d) for d in p.dtypes_on(pid)} for pid, _ in columns}
    rows = tuple(
        MatrixRow(
            str(dtype),
            tuple(NONE if pid in unsupported else YES if dtype in allowed[pid] else NO for pid, _ in columns),
        )
        for dtype in p.dtypes
    )
    return Matrix(tuple(columns), rows)


def _constraint(c: Constraint, link: Linker) -> ConstraintRow:
    return ConstraintRow(c.kind, typed(c), c.text, link.at(c.line))


def typed(c: Constraint) -> str:
    """The constraint as the model types it: `rank 1..8`, `dtypes {FLOAT, INT32} on 910b`."""
    parts = [c.kind + (f"({', '.join(c.params)})" if c.params else "")]
    if c.values:
        parts.append("{" + ", ".join(str(v) for v in c.values) + "}")
    if c.min is not None or c.max is not None:
        low = "[" if c.min_inclusive else "("
        high = "]" if c.max_inclusive else ")"
        parts.append(f"{low}{_number(c.min)}, {_number(c.max)}{high}")
    if c.supported is not None:
        parts.append("supported" if c.supported else "not supported")
    if c.product:
        parts.append(f"on {c.product}")
    return " ".join(parts)


def _number(value: float | None) -> str:
    if value is None:
        return "∞"
    return str(int(value)) if float(value).is_integer() else str(value)


# ---------------------------------------------------------------- error rules


def _error_rows(fn: Function, rules: list[Rule], link: Linker) -> list[ErrorRow]:
    """Each documented error rule with the validator rules made of it (one per typed check,
    or one unclassified), in the order `codegen.cases` makes them."""
    documented = [r for r in rules if not r.id.startswith("implied_")]
    rows = []
    at = 0
    for error in fn.errors:
        count = max(1, len(error.checks)) if documented else 0
        mine = documented[at : at + count]
        at += count
        rows.append(_error_row(error, mine, link))
    return rows


def _error_row(error: ErrorRule, rules: list[Rule], link: Linker) -> ErrorRow:
    return ErrorRow(
        code=error.code,
        name=error.name,
        condition=error.condition,
        conditional=error.conditional,
        checks=tuple(_check(r) for r in rules),
        source=link.at(error.line),
    )


def _check(rule: Rule) -> CheckRow:
    return CheckRow(rule.kind, ", ".join(rule.params), rule.host, rule.reason)


# ---------------------------------------------------------------- samples


def _document_call(fn: Function, link: Linker) -> tuple[CallRow, ...]:
    call = fn.sample_call
    if call is None:
        return ()
    names = [p.name for p in fn.params] + [""] * max(0, len(call.args) - len(fn.params))
    return tuple(
        CallRow(name, a.text, _call_facts(a), link.at(a.line)) for name, a in zip(names, call.args, strict=True)
    )


def _calls(fn: Function, code: FunctionCode | None, call_name: str) -> tuple[str, str]:
    """The document's call and the generated sample's, as C code."""
    written = [a.text for a in fn.sample_call.args] if fn.sample_call else []
    made = list(code.call_arguments) if code else []
    return tuple(  # type: ignore[return-value]
        c_markup(f"{call_name}({', '.join(args)});") if args else "" for args in (written, made)
    )


def _call_facts(a: CallArg) -> str:
    if a.unresolved:
        return f"not read: {a.unresolved}"
    facts: list[str] = [a.kind]
    if a.shape is not None:
        facts.append(f"shape [{', '.join(map(str, a.shape))}]")
    facts += [x for x in (a.dtype, a.format) if x]
    if a.value is not None:
        facts.append(f"= {a.value}")
    if a.elements is not None:
        facts.append("{" + ", ".join(map(str, a.elements)) + "}")
    if a.items:
        facts.append(f"{len(a.items)} tensors")
    return " ".join(facts)


def _generated_arg(a: SampleArg) -> CallRow:
    facts: list[str] = [a.kind]
    if a.kind in ("tensor",):
        facts += [f"shape [{', '.join(map(str, a.shape))}]", a.dtype, a.format]
    elif a.items:
        facts.append(f"{len(a.items)} tensors")
    if a.value is not None:
        facts.append(f"= {a.value}")
    if a.elements:
        facts.append("{" + ", ".join(map(str, a.elements)) + "}")
    return CallRow(a.name, a.var or a.name, " ".join(f for f in facts if f))


def _sample_note(code: FunctionCode | None) -> str:
    if code is None:
        return ""
    if code.sample.from_document:
        return f"the document's own call (line {code.sample.line}), argument for argument"
    return "derived from the documented rules" + (f": {code.sample.note}" if code.sample.note else "")


# ---------------------------------------------------------------- findings and the index


def _finding(f: Finding, link: Linker) -> FindingRow:
    return FindingRow(f.rule.value, f.severity, f.message, f.suppressed, link.at(f.line))


def _diagnostic(d: Diagnostic, link: Linker) -> FindingRow:
    return FindingRow(problem_code(d.code), d.severity, d.message, False, link.at(d.line))


def index_row(page: OperatorPage) -> IndexRow:
    summary = " ".join(page.summary.split())
    return IndexRow(
        name=page.name,
        page=page.page,
        summary=summary if len(summary) <= MAX_SUMMARY else summary[: MAX_SUMMARY - 1] + "…",
        products=", ".join(pid for pid, _, supported in page.products if supported),
        functions=tuple(f.name for f in page.functions),
        findings=page.live_findings,
        enforced=page.enforced,
        unchecked=page.unchecked,
        errors=sum(d.severity == "error" for d in page.diagnostics),
    )
