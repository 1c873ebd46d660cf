"""C and C++ as markup: each token escaped on its own and wrapped in a class the page's
stylesheet colours. Document text goes through `markupsafe.escape` and nothing else."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

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
_TYPES = re.compile(r"^(?:acl[A-Z]\w*|u?int\d+_t|size_t|aclnnStatus)$")


def c_markup(code: str) -> Markup:
    """`code` escaped, its comments, preprocessor lines, strings, numbers, keywords and ACL
    types in spans (`c`, `p`, `s`, `n`, `k`, `t`)."""
    out: list[str] = []
    end = 0
    for match in _TOKEN.finditer(code):
        out.append(str(escape(code[end : match.start()])))
        out.append(_span(match.lastgroup or "", match.group()))
        end = match.end()
    out.append(str(escape(code[end:])))
    return Markup("".join(out))


def _span(group: str, text: str) -> str:
    if group == "word":
        kind = "k" if text in _KEYWORDS else "t" if _TYPES.match(text) else ""
    else:
        kind = {"comment": "c", "pre": "p", "string": "s", "number": "n"}[group]
    return f'<span class="{kind}">{escape(text)}</span>' if kind else str(escape(text))
