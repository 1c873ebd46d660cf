"""C prototypes of aclnn functions, read with pycparser.

Used for the prototypes quoted in documents and for the declarations of real headers
(`specgen lint --headers`). The text is first cut down to plain C: comments, Markdown
escapes, export macros and C++ default arguments are removed, and every unknown type name
is declared as a typedef so that pycparser accepts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pycparser import c_ast, c_parser

# `aclnnStatus aclnnXxx(` where a documented prototype starts; the return type may be
# written on the previous line and may be preceded by export macros.
PROTOTYPE_START = re.compile(r"\baclnn[Ss]tatus\s+(?:[A-Z_]+\s+)*(aclnn\w+)\s*\(")
_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)|//[^\n]*", re.S)  # unclosed: to the end, scanned once
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!<>|])")
_EXPORT_MACRO = re.compile(r"\b(?:ACLNN_API|ACL_FUNC_VISIBILITY|__attribute__\s*\(\(.*?\)\))\s*")
_DEFAULT_ARG = re.compile(r"=[^,)]+")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_C_WORDS = frozenset(
    [
        "const",
        "volatile",
        "restrict",
        "unsigned",
        "signed",
        "int",
        "long",
        "short",
        "char",
        "float",
        "double",
        "void",
        "struct",
        "enum",
        "union",
        "_Bool",
    ]
)


class PrototypeError(ValueError):
    """A prototype pycparser cannot read, with the reason."""


@dataclass(frozen=True, slots=True)
class CParam:
    name: str
    c_type: str  # canonical form, see canonical_type()


@dataclass(frozen=True, slots=True)
class Prototype:
    name: str
    params: tuple[CParam, ...]


def find_prototype_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, function name) of each `aclnnStatus aclnnXxx(...)` in `text`.

    The span ends after the parenthesis that closes the parameter list, or at the end of
    the text when it never closes (the caller reports that).
    """
    spans = []
    for match in PROTOTYPE_START.finditer(text):
        depth, end = 0, len(text)
        for paren in _PAREN.finditer(text, match.end() - 1):  # from the opening one
            depth += 1 if paren.group() == "(" else -1
            if depth == 0:
                end = paren.end()
                break
        spans.append((match.start(), end, match.group(1)))
    return spans


_PAREN = re.compile(r"[()]")


def clean_declaration(text: str) -> str:
    """Plain C from a prototype as documents and headers write it."""
    text = _COMMENT.sub(" ", text)
    text = _MD_ESCAPE.sub(r"\1", text)
    text = _EXPORT_MACRO.sub("", text)
    text = text.replace("（", "(").replace("）", ")").replace("，", ",")
    text = _DEFAULT_ARG.sub("", text)
    return " ".join(text.split())


_FUNCTION_NAME = re.compile(r"\b(aclnn\w+)\s*\(")


def parse_prototype(declaration: str) -> Prototype:
    """Read one `aclnnStatus name(params)` declaration (cleaned or not)."""
    source = clean_declaration(declaration).rstrip(";") + ";"
    name = _FUNCTION_NAME.search(source)
    if name is None:
        return _parse(source)
    # The parameter list decides the work; execute functions share theirs, so cache on it.
    proto = _parse(source[: name.start()] + "aclnnF(" + source[name.end() :])
    return Prototype(name=name.group(1), params=proto.params)


@lru_cache(maxsize=8192)
def _parse(source: str) -> Prototype:
    parser = _parser()
    # Every identifier that is not a declared name is a type name (aclTensor, int64_t, ...).
    parser.type_names = frozenset({w for w in _IDENT.findall(source) if w not in _C_WORDS} - _declared_names(source))
    try:
        ast = parser.parse(source)
    except Exception as exc:  # pycparser raises ParseError and, on odd input, others
        raise PrototypeError(f"not a C declaration ({_short_reason(exc)}): {_quote(source)}") from exc
    decl = ast.ext[-1]
    if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
        raise PrototypeError(f"not a function declaration: {_quote(source)}")
    params = []
    for i, node in enumerate(decl.type.args.params if decl.type.args else ()):
        if isinstance(node, c_ast.EllipsisParam):
            raise PrototypeError(f"variadic parameter in {decl.name}")
        if canonical_type(node.type) == "void" and not node.name:
            continue  # f(void)
        params.append(CParam(name=node.name or f"arg{i}", c_type=canonical_type(node.type)))
    return Prototype(name=decl.name, params=tuple(params))


def _quote(source: str, limit: int = 200) -> str:
    """A declaration as an error message quotes it: whole unless it is very long."""
    return source if len(source) <= limit else f"{source[:limit]}... ({len(source)} characters)"


_STARS = re.compile(r"(?<!\s)\s*(\*+)\s*")  # (?<!\s): one scan per whitespace run


def read_leniently(declaration: str) -> Prototype:
    """A best-effort reading of a declaration pycparser rejects (typos such as `onst`).

    Parameters split at top-level commas; the last word is the name, the rest the type.
    """
    source = clean_declaration(declaration)
    head, _, rest = source.partition("(")
    body = rest.rsplit(")", 1)[0]
    params = []
    for i, part in enumerate(p for p in body.split(",") if p.strip()):
        words = _IDENT.findall(part)
        name = words[-1] if len(words) > 1 else f"arg{i}"
        type_text = part.strip()[: part.strip().rfind(name)] if len(words) > 1 else part
        params.append(CParam(name=name, c_type=_STARS.sub(r"\1 ", type_text).strip().replace(" *", "*")))
    return Prototype(name=(_IDENT.findall(head) or ["?"])[-1], params=tuple(params))


def _declared_names(source: str) -> set[str]:
    """Identifiers used as names, not types: the function and each parameter's last word."""
    head, _, rest = source.partition("(")
    names = set(_IDENT.findall(head)[-1:])
    for part in rest.rsplit(")", 1)[0].split(","):
        words = _IDENT.findall(part.split("[")[0])
        if len(words) > 1:
            names.add(words[-1])
    return names


def canonical_type(node: c_ast.Node) -> str:
    """`const aclTensor*`, `aclOpExecutor**`, `const aclTensor* const*`, `const aclrtStream`.

    Qualifiers and base type separated by one space, stars attached; an array parameter
    is the pointer it decays to.
    """
    stars = ""
    while isinstance(node, c_ast.PtrDecl | c_ast.ArrayDecl):
        quals = node.quals if isinstance(node, c_ast.PtrDecl) else node.dim_quals
        stars = "*" + "".join(" " + q for q in quals) + stars
        node = node.type
    if not isinstance(node, c_ast.TypeDecl):
        raise PrototypeError("function pointer parameters are not supported")
    quals = " ".join(node.quals)
    base = " ".join(getattr(node.type, "names", None) or [getattr(node.type, "name", "?")])
    return (f"{quals} {base}" if quals else base) + stars


class _DeclarationParser(c_parser.CParser):
    """pycparser told the type names up front, instead of reading a typedef for each."""

    type_names: frozenset[str] = frozenset()

    def _is_type_in_scope(self, name: str) -> bool:
        return name in self.type_names or super()._is_type_in_scope(name)


@lru_cache(maxsize=1)
def _parser() -> _DeclarationParser:
    return _DeclarationParser()


def _short_reason(exc: Exception) -> str:
    return str(exc).split(": ", 1)[-1].strip() or type(exc).__name__
