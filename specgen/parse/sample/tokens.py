"""Tokens of a sample program and the brackets that pair them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Slice = tuple[int, int]  # tokens [start, end) of the program


@dataclass
class _Tokens:
    """Tokens by column, token i being kinds[i], texts[i], ...: a sample has a thousand or
    more, and an object each would cost more to make and to garbage-collect than the rest of
    the reading. An operator's or a keyword's text tells its kind: `texts[i] == "("` is enough."""

    kinds: list[str] = field(default_factory=list)  # id, num, str, chr, op
    texts: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # offsets in the code (macro bodies: in their directive)

    def add(self, kind: str, text: str, line: int, start: int) -> None:
        self.kinds.append(kind)
        self.texts.append(text)
        self.lines.append(line)
        self.starts.append(start)

    def extend(self, other: _Tokens) -> None:
        self.kinds += other.kinds
        self.texts += other.texts
        self.lines += other.lines
        self.starts += other.starts


# Each match is a token and the blanks before it (blanks matched on their own would double
# the matches); comments and preprocessor lines are matched to be dropped. `findall` gives
# (blanks, token) pairs, the fastest way through the code: a token's offset follows from the
# lengths, and its kind from its first character.
_TOKEN = re.compile(
    r"([ \t\r\f\v\n]*+)("
    r"//[^\n]*|/\*.*?(?:\*/|\Z)"  # a comment
    r"|\#(?:[^\n\\]|\\.)*"  # a preprocessor line
    r"|[A-Za-z_]\w*"  # a name
    r"|\.?\d(?:[eEpP][+-]|[\w.'])*"  # a number
    r'|"(?:[^"\\\n]|\\.)*"'  # a string
    r"|'(?:[^'\\\n]|\\.)*'"  # a character
    r"|::|->|\+\+|--|<<=|>>=|<<|>>|&&|\|\||[-+*/%&|^!=<>]=|.)",  # an operator
    re.S | re.A,
)
_KIND_OF_FIRST = (
    {c: "id" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"}
    | {c: "num" for c in "0123456789"}
    | {c: "?" for c in "./#\"'"}  # see `_odd_kind`
)  # other first characters: an operator
_DEFINE = re.compile(r"\#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])(.*)", re.S | re.A)


def _lex(code: str, first_line: int, directives: bool = True) -> tuple[_Tokens, list[tuple[str, _Tokens]]]:
    """Tokens without comments and preprocessor lines; object-like #defines aside."""
    toks = _Tokens()
    kinds, texts, lines, starts = toks.kinds, toks.texts, toks.lines, toks.starts
    macros: list[tuple[str, _Tokens]] = []
    line, end = first_line, 0
    for blanks, text in _TOKEN.findall(code.rstrip()):  # rstrip: trailing blanks would be rescanned
        start = end + len(blanks)
        end = start + len(text)
        if "\n" in blanks:
            line += blanks.count("\n")
        kind = _KIND_OF_FIRST.get(text[0], "op")
        newlines = 0
        if kind == "?":
            kind = _odd_kind(text)
            newlines = text.count("\n")  # comments, continued lines, strings with an escaped line end
            if kind == "com" or kind == "pp":
                if kind == "pp" and directives and (d := _DEFINE.match(text)):
                    body = d.group(2).replace("\\\n", " \n")
                    macros.append((d.group(1), _lex(body, line, directives=False)[0]))
                line += newlines
                continue
        kinds.append(kind)
        texts.append(text)
        lines.append(line)
        starts.append(start)
        line += newlines
    return toks, macros


def _odd_kind(text: str) -> str:
    """The kind of a token whose first character does not tell it alone: `.5` is a number
    and `.` an operator, `//` a comment and `/=` an operator, a quote left open an operator."""
    first = text[0]
    if first == "#":
        return "pp"
    if len(text) == 1:
        return "op"
    if first == ".":
        return "num"
    if first == "/":
        return "com" if text[1] in "/*" else "op"
    return "str" if first == '"' else "chr"


_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_BRACKETS_AND_AMPERSAND = {*_OPENERS, *_CLOSERS, "&"}


def _brackets(texts: list[str], a: int, b: int, match: list[int], enclosing: dict[int, int]) -> None:
    """Pair brackets of tokens [a, b) (braces win over parentheses left open) and note for
    each `&` its innermost open bracket."""
    stack: list[int] = []
    for i in [k for k in range(a, b) if texts[k] in _BRACKETS_AND_AMPERSAND]:  # the few tokens to look at
        text = texts[i]
        if text == "&":
            enclosing[i] = stack[-1] if stack else -1
        elif text in _OPENERS:
            stack.append(i)
        else:
            want = _CLOSERS[text]
            while stack and want != texts[stack[-1]] and (want == "{" or texts[stack[-1]] == "["):
                stack.pop()
            if stack and texts[stack[-1]] == want:
                o = stack.pop()
                match[o], match[i] = i, o
