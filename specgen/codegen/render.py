"""Models to file contents through Jinja2 templates.

One environment (StrictUndefined), one context object per template (`op`, plus `fn` for
per-function parts), templates named after what they produce. The escaping filters are the
only way document text reaches generated code.
"""

from __future__ import annotations

import json
import re
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.bccache
import jinja2.sandbox

import specgen
from specgen import __version__
from specgen.codegen.errors import LowerError, TemplateFault
from specgen.codegen.layout import (
    BUILTIN_TEMPLATES,
    OPERATOR_FILES,
    SHARED_FILES,
    SPEC_FILE,
    STATIC_FILES,
    USER_FILES,
    display_path,
    file_stem,
    names_of,
    runtime_source,
)
from specgen.codegen.lower import operator_code
from specgen.codegen.views import FunctionCode, OperatorCode, RenamedOperatorCode
from specgen.diagnostics import Code
from specgen.model import Diagnostic, OperatorDoc
from specgen.text import UNSAFE, code_point, escape_unsafe, json_escape, markdown_cell

# ---------------------------------------------------------------- escaping filters

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


def c_comment(text: object) -> str:
    """Text safe inside a C/C++ comment, on one line: no `*/`, no line splice, no trigraph, no
    bidi or invisible character (written as `<U+202E>`: g++ -Werror rejects unpaired ones)."""
    flat = escape_unsafe(" ".join(_CONTROL.sub(" ", str(text)).split()), code_point)
    flat = flat.replace("*/", "* /").replace("/*", "/ *").replace("??", "? ?")
    return flat.rstrip("\\ ")  # a trailing backslash would splice the next line into the comment


def c_string(text: object) -> str:
    """A C string literal with the same bytes (UTF-8 kept; controls, bidi and invisible
    characters as octal escapes of their bytes, so that the source shows none of them)."""
    out = []
    for ch in str(text):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "?":
            out.append("\\?")  # no trigraphs
        elif ord(ch) < 0x20 or ord(ch) == 0x7F or UNSAFE.match(ch):
            out.append("".join(f"\\{byte:03o}" for byte in ch.encode("utf-8")))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_PLAIN = (str, int, float, bool, type(None), tuple, list, dict)


def py_literal(value: object) -> str:
    """A Python literal for plain data (str, numbers, bool, None, lists, tuples, dicts).

    `repr` of plain data is a valid literal with every string escaped (non-printable
    characters, bidi controls among them, as `\\u` escapes); the invisible characters repr
    leaves raw can only be inside a string there, and are escaped too. Anything else (an
    object of ours by mistake) is refused rather than printed as `<object ...>`.
    """
    if not isinstance(value, _PLAIN):
        raise TypeError(f"not plain data: {type(value).__name__}")
    return escape_unsafe(repr(value))


def py_docstring(text: object) -> str:
    """Text safe inside a triple-quoted docstring, on one line; bidi and invisible characters
    as `\\u` escapes (the docstring's value keeps them, its source shows none)."""
    flat = " ".join(_CONTROL.sub(" ", str(text)).split())
    return escape_unsafe(flat.replace("\\", "\\\\").replace('"', '\\"'))


def md_cell(text: object) -> str:
    return markdown_cell(str(text))


# ---------------------------------------------------------------- environment


def load_templates(override: Path | None = None) -> None:
    """Compile every template now: worker processes forked afterwards share them, where each
    would compile them (about 0.15 s) on its first operator."""
    env = environment(override)
    try:
        for template, _ in (*OPERATOR_FILES, *SHARED_FILES, *USER_FILES):
            env.get_template(template)
    except jinja2.TemplateError as exc:  # a user's --templates override is broken: say where
        raise TemplateFault(f"{_template_location(exc)}: {exc}") from exc


def environment(override: Path | None = None) -> jinja2.Environment:
    """The one environment; a folder given with --templates overrides templates by name.

    With an override, every template renders in Jinja's sandbox: a pull request can change the
    configuration that names the folder, and the templates in it, so they must not reach
    Python (`cycler.__init__.__globals__.os`...). The sandbox refuses such an attribute with
    a SecurityError (a TemplateError, said with the template's file and line)."""
    return _environment(str(override) if override else None)


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between runs (a tenth of a second a run), each under its
    source's checksum and Jinja2's and Python's versions; a cache that cannot be read or
    written is no cache, never an error."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with suppress(OSError):
            super().dump_bytecode(bucket)


def _template_cache() -> jinja2.BytecodeCache | None:
    folder = specgen.user_cache_folder() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return None
    return _TemplateCache(str(folder))


@lru_cache(maxsize=4)
def _environment(override: str | None) -> jinja2.Environment:
    search = ([override] if override else []) + [str(BUILTIN_TEMPLATES)]
    kind = jinja2.sandbox.SandboxedEnvironment if override else jinja2.Environment
    env = kind(
        loader=jinja2.FileSystemLoader(search),
        bytecode_cache=_template_cache(),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(c_comment=c_comment, c_string=c_string, py=py_literal, py_doc=py_docstring, md_cell=md_cell)
    env.globals.update(version=__version__)
    return env


# ---------------------------------------------------------------- rendering


@dataclass(frozen=True)
class Rendered:
    """What one operator (or the shared support) produces: path -> content."""

    files: dict[str, str]
    user_files: dict[str, str]
    diagnostics: tuple[tuple[str, Diagnostic], ...] = ()  # (source, diagnostic)


def render_operator(docs: list[OperatorDoc], root: Path | None, override: Path | None = None) -> Rendered:
    """All files of one operator. A document that cannot become code is left out with a
    located error; the operator is generated from the others."""
    env = environment(override)
    errors: list[tuple[str, Diagnostic]] = []
    code = _operator_code(docs, root, errors)
    if code is None:
        return Rendered({}, {}, tuple(errors))
    try:
        names, view = names_of(code.snake), _template_view(code)
        files = {path.format(**names): env.get_template(t).render(op=view) for t, path in OPERATOR_FILES}
        files[SPEC_FILE.format(**names)] = spec_json(code)
        user = {path.format(**names): env.get_template(t).render(op=view) for t, path in USER_FILES}
    except jinja2.TemplateError as exc:  # a user's --templates override is broken: say where
        raise TemplateFault(f"{_template_location(exc)}: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - one operator must not stop the others
        if specgen.debugging():
            raise
        errors.append((docs[0].source, _internal_error(exc)))
        return Rendered({}, {}, tuple(errors))
    return Rendered(files, user, tuple(errors))


def _template_view(code: OperatorCode) -> OperatorCode:
    stem = file_stem(code.snake)
    if stem == code.snake:
        return code
    return RenamedOperatorCode(stem, code.docs, code.sources, code.functions, cann_snake=code.snake)


def _template_location(exc: jinja2.TemplateError) -> str:
    """`file:line` of the template at fault: syntax errors carry it, runtime errors leave it
    in the traceback, where Jinja puts the template's own file and line."""
    if filename := getattr(exc, "filename", None):  # a syntax error
        return f"{filename}:{getattr(exc, 'lineno', '?')}"
    where = "a template"
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".jinja"):
            where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


def _internal_error(exc: Exception) -> Diagnostic:
    message = specgen.internal_error_message(exc, "generating from")
    return Diagnostic(line=1, severity="error", code=Code.INTERNAL_ERROR, message=message)


def render_shared(override: Path | None = None) -> dict[str, str]:
    env = environment(override)
    files = {path: runtime_source(source) for source, path in STATIC_FILES}
    return files | {path: env.get_template(template).render() for template, path in SHARED_FILES}


def _operator_code(docs: list[OperatorDoc], root: Path | None, errors: list) -> OperatorCode | None:
    """The operator's code, merging its documents; duplicates of a function keep the first."""
    merged: OperatorCode | None = None
    for doc in docs:
        try:
            code = operator_code(doc, display_path(doc.source, root))
            errors.extend((doc.source, d) for f in code.functions for d in sample_warnings(f))
        except LowerError as exc:
            errors.append((doc.source, Diagnostic(line=exc.line, severity="error", code=Code.LOWER, message=str(exc))))
            continue
        except Exception as exc:  # noqa: BLE001 - one document must not stop the others
            if specgen.debugging():
                raise
            errors.append((doc.source, _internal_error(exc)))
            continue
        if merged is None:
            merged = code
            continue
        names = {f.name for f in merged.functions}
        extra = tuple(f for f in code.functions if f.name not in names)
        for f in code.functions:
            if f.name in names:
                errors.append(
                    (
                        doc.source,
                        Diagnostic(
                            line=f.function.line,
                            severity="warning",
                            code=Code.DUPLICATE_FUNCTION,
                            message=f"{f.name} is also documented in {merged.sources[0]}; generated from that one",
                        ),
                    )
                )
        merged = OperatorCode(
            snake=merged.snake,
            docs=merged.docs + code.docs,
            sources=merged.sources + code.sources,
            functions=merged.functions + extra,
        )
    return merged


def sample_warnings(fn: FunctionCode) -> list[Diagnostic]:
    """A derived sample call that breaks a documented rule: said in the sample and here."""
    return [
        Diagnostic(
            line=fn.function.line,
            severity="warning",
            code=Code.SAMPLE_UNMET_RULE,
            message=f"{fn.name}: no sample call was found that meets every documented rule; the generated "
            f"sample breaks {unmet}",
        )
        for unmet in fn.cases.unmet
    ]


def _with_source(dumped: str, old: str, new: str) -> str:
    """A model's JSON with its first field, `source`, replaced (cheaper than copying the model)."""
    head = f'{{\n  "source": {json.dumps(old, ensure_ascii=False)},'
    assert dumped.startswith(head), "source is the model's first field"
    return f'{{\n  "source": {json.dumps(new, ensure_ascii=False)},' + dumped[len(head) :]


def spec_json(code: OperatorCode) -> str:
    """The models of the operator's documents, each with its source as generated files name it;
    bidi, invisible and control characters as `\\u` escapes."""
    documents = [
        _with_source(doc.model_dump_json(indent=2), doc.source, source)
        for doc, source in zip(code.docs, code.sources, strict=True)
    ]
    body = ",\n".join("    " + d.replace("\n", "\n    ") for d in documents)  # JSON has no blank lines
    text = f'{{\n  "operator": {json.dumps(code.snake)},\n  "documents": [\n{body}\n  ]\n}}\n'
    return escape_unsafe(text, json_escape)  # JSON's structure is ASCII: only strings hold them
