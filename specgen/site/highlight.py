"""C and C++ as markup: the code escaped, its tokens wrapped in classes the page's stylesheet
colours. Every character of the code is escaped (`&`, `<`, `>`): it is printed inside
`<pre><code>` only, never in an attribute."""

from __future__ import annotations

import re

from markupsafe import Markup

_TOKEN = re.compile(
    r"(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))"
    r"|(?P<pre>^[ \t]*#[^\n]*)"
    r'|(?P<string>"(?:[^"\\\n]|\\.)*"?|\'(?:[^\'\\\n]|\\.)*\'?)'
    r"|(?P<number>\b\d[\w.]*)"
    r"|(?P<word>[A-Za-z_]\w*)",
    re.S | re.M,
)
_KEYWORDS = frozenset(
    """auto bool break case char const continue default do double else enum extern false float for if
    inline int long nullptr return short signed sizeof static struct switch true typedef unsigned void
    while class namespace template using new delete std""".split()
)
# Element content needs only these escaped (no attribute value is ever made from code).
_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_TYPES = re.compile(r"^(?:acl[A-Z]\w*|u?int\d+_t|size_t|aclnnStatus)$")


def c_markup(code: str) -> Markup:
    """`code` escaped for element content, its comments, preprocessor lines, strings, numbers,
    keywords and ACL types in spans (`c`, `p`, `s`, `n`, `k`, `t`)."""
    out: list[str] = []
    end = 0
    for match in _TOKEN.finditer(code):
        text = match.group()
        kind = _kind(match.lastgroup or "", text)
        if kind:  # plain words stay in the run of plain text around them
            out.append(code[end : match.start()].translate(_ESCAPE))
            out.append(f'<span class="{kind}">{text.translate(_ESCAPE)}</span>')
            end = match.end()
    out.append(code[end:].translate(_ESCAPE))
    return Markup("".join(out))


def _kind(group: str, text: str) -> str:
    if group == "word":
        return "k" if text in _KEYWORDS else "t" if _TYPES.match(text) else ""
    return {"comment": "c", "pre": "p", "string": "s", "number": "n"}[group]
