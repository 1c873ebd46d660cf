"""Text clean-up shared by the readers: decoding, inline Markdown/HTML to plain text."""

from __future__ import annotations

import html
import re
from functools import lru_cache

# Characters that are invisible in the documents but break matching.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad\x00]")
_SPACES = re.compile("[\u00a0\u202f\u3000\t]")

_BR = re.compile(r"<br\s*/?>", re.I)
# A superscript must not run into the word before it: after a word it is a footnote mark
# (INT4<sup>1、3</sup>: "INT41、3" would be no dtype) and is dropped; after a number it is an
# exponent (2<sup>31</sup>: not "231").
_SUP = re.compile(r"(?P<word>[0-9A-Za-z_]{1,64})?<sup>(?P<text>[^<>]{0,40})</sup>", re.I)
_SUP_TAG = re.compile("<sup>", re.I)  # begins with a literal: found fast, where _SUP tries every position


def _superscript(match: re.Match[str]) -> str:
    word = match.group("word") or ""
    return f"{word}^({match.group('text')})" if word.isdigit() else word


_LI = re.compile(r"</?(?:li|ul|ol|p|div)\b[^>]*>", re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>|<!--.*?(?:-->|\Z)", re.S)  # unclosed comment: to the end, scanned once
# No `[`/`(` inside: a long run of them is scanned once, not once per bracket.
_IMAGE = re.compile(r"!\[[^\[\]]*\]\([^()]*\)")
_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!<>|$])")
# Emphasis markers come in pairs; a lone `*` (a pointer, `(*, N)`) is text.
_STRONG = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_EM = re.compile(r"(?<![\w*])\*(?![\s*])([^*\n]*?[^\s*])\*(?![\w*])")
_CODE = re.compile(r"`+")
_BLANKS = re.compile(r"[ ]+")


def decode(data: bytes) -> tuple[str, str | None]:
    """Document bytes to text with LF line ends; also a warning when they were not UTF-8.

    Line count is preserved, so every later line number is a line of the original file.
    """
    warning = None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # saved as UTF-16 by a Windows editor
        try:
            return decode(data.decode("utf-16").encode("utf-8"))[0], "UTF-16; read as such"
        except UnicodeDecodeError:
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        try:
            text = data.decode("gb18030")
            warning = "not UTF-8; read as GB18030"
        except UnicodeDecodeError:
            text = data.decode("utf-8", errors="replace")
            warning = f"not UTF-8 (invalid byte at offset {exc.start}); undecodable bytes replaced"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _SPACES.sub(" ", _INVISIBLE.sub("", text)), warning


def plain(fragment: str) -> str:
    """Inline Markdown or HTML as the reader sees it, on one line."""
    return " ".join(lines(fragment))


@lru_cache(maxsize=65536)
def lines(fragment: str) -> tuple[str, ...]:
    """Inline Markdown or HTML to plain text, split where `<br>`, `<li>` or a newline break it.

    Each substitution runs only when its marker character is there: most fragments are short
    plain text, and this runs on every cell and clause.
    """
    text = fragment
    if "<" in text:
        if _SUP_TAG.search(text):
            text = _SUP.sub(_superscript, text)
        text = _TAG.sub("", _LI.sub("\n", _BR.sub("\n", text)))
    if "[" in text:
        text = _LINK.sub(r"\1", _IMAGE.sub("", text))
    if "\\" in text:
        text = _MD_ESCAPE.sub(r"\1", text)
    if "*" in text or "_" in text:
        text = _EM.sub(r"\1", _STRONG.sub(lambda m: m.group(1) or m.group(2), text))
    if "`" in text:
        text = _CODE.sub("", text)
    if "&" in text:
        text = _SPACES.sub(" ", html.unescape(text))
    return tuple(line for line in (_BLANKS.sub(" ", part).strip() for part in text.split("\n")) if line)


# ---------------------------------------------------------------- text that leaves specgen

# Characters that are invisible or reorder the text on screen (Trojan Source, CVE-2021-42574:
# bidi embeddings, overrides and isolates, marks), and control characters (terminal escape
# sequences start with ESC or C1 CSI/OSC). Never written raw into generated files or to a
# terminal. A fixed list, not `unicodedata` categories, so output does not depend on the
# Unicode version of the Python running specgen. Tab and newline are not in it.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def python_escape(ch: str) -> str:
    r"""One character as Python (and readers) write it: `\x1b`, `\u202e`, `\U000e0041`."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def json_escape(ch: str) -> str:
    r"""One character as a JSON escape: `\u202e`, a surrogate pair above U+FFFF."""
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_unsafe(text: str, escape=python_escape) -> str:
    """`text` with every unsafe character escaped (by default as Python writes it)."""
    if text.isascii() and text.isprintable():  # the common case (every repr of ASCII data): nothing to escape
        return text
    return UNSAFE.sub(lambda m: escape(m.group()), text) if UNSAFE.search(text) else text


def code_point(ch: str) -> str:
    """One character named by its code point, `<U+202E>`: for comments, where no escape is read."""
    return f"<U+{ord(ch):04X}>"
