"""Text clean-up shared by the readers: decoding, inline Markdown/HTML to plain text."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
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
# terminal. The whole of Unicode's classes Cc (controls), Cf (format characters: bidi, zero
# width, Arabic number signs U+0600-0605, Egyptian hieroglyph controls...), Zl and Zp, plus the
# invisible fillers and variation selectors; a frozen table of Unicode 15 rather than a
# lookup of `unicodedata` at run time, so that output does not change with the Python running
# specgen (tests/test_untrusted_pr.py checks it holds every such character of this Python's
# Unicode database). Tab and newline are not in it.
UNSAFE = re.compile(
    "["
    "\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2"
    "\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164"
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    "\ud800-\udfff"  # lone surrogates: the bytes of a file name that is not UTF-8
    "]"
)
# A line a GitHub Actions runner would run as a workflow command (`::error ...`, `::stop-commands::`).
_COMMAND = re.compile(r"^([ \t]*):(?=:)", re.M)


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


def is_utf8(name: str) -> bool:
    """A file name that was valid UTF-8 (os.fsdecode makes other bytes lone surrogates)."""
    return name.isascii() or not _SURROGATE.search(name)


_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str, *, multiline: bool = False) -> str:
    r"""Text safe to print anywhere specgen prints (terminal, text reports, TOML comments,
    Markdown, annotations): every unsafe character escaped as Python writes it (`\x1b`,
    `\u202e`), newlines and tabs too unless `multiline` (a file name is one line: a newline
    in it must not start a line of its own), and no line starting with `::`, which a GitHub
    Actions runner would run as a workflow command (its first colon as `\x3a`)."""
    safe = escape_unsafe(text, _shown)
    if not multiline and ("\n" in safe or "\t" in safe):
        safe = safe.replace("\n", "\\n").replace("\t", "\\t")
    return _COMMAND.sub(r"\1\\x3a", safe) if "::" in safe else safe


def _shown(ch: str) -> str:
    """`python_escape`, but a byte of a file name that is not UTF-8 (os.fsdecode made it a lone
    surrogate, U+DC80-DCFF) as that byte: `\\xff`, as `ls -b` shows it."""
    code = ord(ch)
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else python_escape(ch)


def markdown_cell(text: str) -> str:
    """Text inside one cell of a Markdown table, shown as written: on one line, no `|` ending
    the cell, no HTML, no entity (`&#91;x&#93;&#40;url&#41;` would render as a live link), no
    link or image (`[x](url)`), no @mention (the `@` in a code span: GitHub mentions nobody
    from code)."""
    flat = printable(" ".join(text.split()))
    for raw, escaped in (("&", "&amp;"), ("<", "&lt;"), ("|", "\\|"), ("[", "\\["), ("]", "\\]"), ("@", "`@`")):
        flat = flat.replace(raw, escaped)
    return flat


def code_point(ch: str) -> str:
    """One character named by its code point, `<U+202E>`: for comments, where no escape is read."""
    return f"<U+{ord(ch):04X}>"


_IF = re.compile(r"若|当|如果|否则")


def value_condition(statements: Iterable[str], values: Iterable[str]) -> str:
    """The first of `values` (parameter names) that a conditional statement names: an output
    row such as "若reduction取值为'none'，则shape需要与…一致，否则out为scalar" makes the
    output's shape depend on `reduction`. Empty when none does."""
    names = [v for v in values if len(v) > 2]  # `x`, `y`: names this short match inside words
    for text in statements:
        if _IF.search(text) and (found := next((v for v in names if v in text), "")):
            return found
    return ""


def names_taken_out(text: str, names: Iterable[str]) -> tuple[list[str], str]:
    """The parameter names `text` holds as whole words (the longest tried first, so `x1Scale` is
    not read as `x1`), and what is left of `text` with each taken out."""
    found = []
    for name in sorted(names, key=len, reverse=True):
        pattern = rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"
        if re.search(pattern, text):
            found.append(name)
            text = re.sub(pattern, " ", text)
    return found, text
