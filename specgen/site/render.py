"""The site's views as HTML: one autoescaping Jinja2 environment over `templates/site/`.

Every page is self-contained: its stylesheet and script are inlined, and a Content Security
Policy lets the page load nothing and run only that script and style (by their hashes), so
that no request leaves it and nothing a document holds could run even if it got through.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

import jinja2
from markupsafe import Markup

from specgen import __version__
from specgen.codegen.layout import BUILTIN_TEMPLATES

SITE_TEMPLATES = BUILTIN_TEMPLATES / "site"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(SITE_TEMPLATES)),
        autoescape=True,  # documents are untrusted: every text they give is escaped
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    style, script = (_asset(name) for name in ("site.css", "site.js"))
    env.globals.update(
        version=__version__,
        style=Markup(style),
        script=Markup(script),
        policy=f"default-src 'none'; style-src {_hash(style)}; script-src {_hash(script)}; "
        "img-src data:; base-uri 'none'; form-action 'none'",
    )
    return env


def _asset(name: str) -> str:
    text = (SITE_TEMPLATES / name).read_text(encoding="utf-8")
    if "</" in text:  # would close the <style> or <script> element it is inlined in
        raise ValueError(f"{name}: '</' cannot appear in an inlined asset")
    return text


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
