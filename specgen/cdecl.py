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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pycparser import c_ast

# `aclnnStatus aclnnXxx(` where a documented prototype starts; the return type may be
# written on the previous line and may be preceded by export macros.
# No `\b` in front: a pattern beginning with a literal is searched for as a literal, twenty
# times faster over a whole document; the word start is checked apart (`_word_start`).
PROTOTYPE_START = re.compile(r"aclnn[Ss]tatus\s+(?:[A-Z_]+\s+)*(aclnn\w+)\s*\(")
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
    at = 0
    while match := PROTOTYPE_START.search(text, at):
        if not _word_start(text, match.start()):
            at = match.start() + 1  # a match may begin inside the one refused
            continue
        at = match.end()
        depth, end = 0, len(text)
        for paren in _PAREN.finditer(text, match.end() - 1):  # from the opening one
            depth += 1 if paren.group() == "(" else -1
            if depth == 0:
                end = paren.end()
                break
        spans.append((match.start(), end, match.group(1)))
    return spans


_PAREN = re.compile(r"[()]")


def _word_start(text: str, at: int) -> bool:
    """Whether `\b` holds before text[at] (a word character): no word character before it."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


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
    fast = _fast(source)
    return fast if fast is not None else _pycparser(source)


# The plain shape of most prototypes, read without pycparser by _fast(). The source is
# already cleaned (one space between words); anything outside this shape goes to pycparser.
_PLAIN = re.compile(r"aclnnStatus ([A-Za-z_][A-Za-z0-9_]*) ?\(([^()]*)\) ?;")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\*|\S")  # \S: any other character, refused
# pycparser's keywords (its "legacy" dialect; tests check the list against pycparser): they
# can be neither names nor typedef names.
_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if inline int long"
    " register offsetof restrict return short signed sizeof static struct switch typedef union unsigned void"
    " volatile while __builtin_va_arg __int128 _Bool _Complex _Generic _Noreturn _Thread_local _Static_assert"
    " _Atomic _Alignof _Alignas _Pragma".split()
)
# Builtin types accepted as written: pycparser keeps the words in order, so canonical_type
# spells them the same (each one is checked against pycparser by the tests).
_BUILTINS = frozenset(
    [
        "void",
        "_Bool",
        "char",
        "signed char",
        "unsigned char",
        "short",
        "unsigned short",
        "int",
        "unsigned",
        "unsigned int",
        "long",
        "unsigned long",
        "long long",
        "unsigned long long",
        "float",
        "double",
        "long double",
    ]
)


def _fast(source: str) -> Prototype | None:
    """The prototype pycparser would read from a plain `aclnnStatus name(params);`, or None.

    Each parameter must be `[const] type [* [const]]... name`, `type` a typedef name or one
    of _BUILTINS; `()` and `(void)` have none. Anything else (arrays, function pointers,
    missing names, keywords as names, ...) is None, left to pycparser and its errors.
    """
    match = _PLAIN.fullmatch(source)
    if match is None or not _is_word(match.group(1)):
        return None
    name, body = match.group(1), match.group(2).strip()
    params: list[CParam] = []
    typedefs = {"aclnnStatus"}
    for part in body.split(",") if body not in ("", "void") else ():
        read = _fast_param(part)
        if read is None:
            return None
        params.append(read[0])
        if read[1] is not None:
            typedefs.add(read[1])
    # A word used as a name anywhere is no type name to pycparser (_declared_names): it fails.
    if typedefs & {name, *(p.name for p in params)}:
        return None
    return Prototype(name=name, params=tuple(params))


def _fast_param(text: str) -> tuple[CParam, str | None] | None:
    """(parameter, its typedef name or None for a builtin) of one plain parameter, or None."""
    tokens = _TOKEN.findall(text)
    if len(tokens) < 2 or not _is_word(tokens[-1]):
        return None
    name = tokens.pop()
    stars = ""  # spelled as canonical_type does (`*`, `* const`), read right to left
    while tokens and tokens[-1] in ("*", "const"):
        if tokens.pop() == "*":
            stars = "*" + stars
        elif tokens and tokens.pop() == "*":
            stars = "* const" + stars
        else:
            return None  # a const that qualifies no pointer: `const const`, `int const`
    quals = "const " if tokens[:1] == ["const"] else ""
    base = tokens[1:] if quals else tokens
    if len(base) == 1 and _is_word(base[0]):
        typedef: str | None = base[0]
    elif " ".join(base) in _BUILTINS:
        typedef = None
    else:
        return None
    return CParam(name=name, c_type=quals + " ".join(base) + stars), typedef


def _is_word(token: str) -> bool:
    """An identifier that is not a C keyword: a name or a typedef name to pycparser."""
    return _IDENT.fullmatch(token) is not None and token not in _KEYWORDS


def _pycparser(source: str) -> Prototype:
    """The prototype pycparser reads from a cleaned declaration; PrototypeError if none."""
    from pycparser import c_ast  # imported when first needed: `_fast` reads most prototypes

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
    from pycparser import c_ast

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


@lru_cache(maxsize=1)
def _parser() -> Any:  # a pycparser CParser told the type names (its class made on first use)
    from pycparser import c_parser

    class DeclarationParser(c_parser.CParser):
        """pycparser told the type names up front, instead of reading a typedef for each."""

        type_names: frozenset[str] = frozenset()

        def _is_type_in_scope(self, name: str) -> bool:
            return name in self.type_names or super()._is_type_in_scope(name)

    return DeclarationParser()


def _short_reason(exc: Exception) -> str:
    return str(exc).split(": ", 1)[-1].strip() or type(exc).__name__
