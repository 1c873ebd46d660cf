"""Error rules of a function region: from error tables, or from prose and code blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from specgen import text as textmod
from specgen.parse.document import Document
from specgen.parse.tables import Table

# aclnn status codes by name (public CANN headers).
STATUS_CODES = {
    "ACLNN_SUCCESS": 0,
    "ACLNN_ERR_PARAM_NULLPTR": 161001,
    "ACLNN_ERR_PARAM_INVALID": 161002,
    "ACLNN_ERR_RUNTIME_ERROR": 361001,
    "ACLNN_ERR_INNER": 561000,
    "ACLNN_ERR_INNER_INFERSHAPE_ERROR": 561001,
    "ACLNN_ERR_INNER_TILING_ERROR": 561002,
    "ACLNN_ERR_INNER_FIND_KERNEL_ERROR": 561003,
    "ACLNN_ERR_INNER_CREATE_EXECUTOR": 561101,
    "ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR": 561102,
    "ACLNN_ERR_INNER_NULLPTR": 561103,
}

_CODE = re.compile(r"(?<!\d)([1-5]6\d{4})(?!\d)")
_NAME = re.compile(r"ACLNN_[A-Z0-9_]+")
# `返回161002（ACLNN_ERR_PARAM_INVALID）：`. The match starts at the code (a pattern starting
# with optional `返回 **` would rescan a long run of `*` from every position); the prefix is
# found by looking back from it.
_HEAD = re.compile(
    r"(?<!\d)(?P<code>[1-5]6\d{4})\s*+[（(]\s*+(?P<name>ACLNN_[A-Z0-9_]+)\s*+[）)]\s*+\**+\s*+[:：]\s*+\**+"
)
_HEAD_PREFIX = re.compile(r"(?:返回)?[\s*]*$")
_BODY_END = re.compile(r"\n[ \t]*\n(?=\S)|\n[ \t]*(?:```|~~~)|\n#|\n[ \t]*[-*][ \t]+\**(?:返回值|参数说明)")
_NUMBERED = re.compile(r"(?:^|\n|\s)\d+\s*[.、．](?!\d)")
_SENTENCES = re.compile(r"[。；;]\s*")
# "- a。 - b。": bullet items flattened into one cell; not an operator between two operands
# (`(min(num_rows, activateNum) * k, H)`, MoeInitRoutingQuant's error rows)
_ITEM = re.compile(r"(?:^|(?<![A-Za-z0-9_)\]）])\s)[-*•]\s+(?=\S)")


@dataclass(frozen=True, slots=True)
class ErrorFacts:
    code: int
    name: str
    condition: str
    line: int


def is_error_table(table: Table) -> bool:
    return any(("错误码" in h or "返回码" in h or h.startswith("返回值")) for h in table.header)


def errors_from_table(table: Table) -> list[ErrorFacts]:
    """Rows are grouped by the row that names a code; declared rowspans are not trusted."""
    out: list[ErrorFacts] = []
    code, name = 0, ""
    for raw, line in zip(table.raw_rows, table.lines, strict=True):
        texts = [textmod.lines(c) for c in raw]
        flat = [" ".join(t) for t in texts]
        heads = [i for i, t in enumerate(flat) if _is_head(t)]
        if heads:
            joined = " ".join(flat[i] for i in heads)
            name_match, code_match = _NAME.search(joined), _CODE.search(joined)
            name = name_match.group(0) if name_match else ""
            code = int(code_match.group(1)) if code_match else STATUS_CODES.get(name, 0)
        descriptions = [texts[i] for i in range(len(texts)) if i not in heads]
        for lines in descriptions:
            for condition in _conditions("\n".join(lines)):
                if code:
                    out.append(ErrorFacts(code, name, condition, line))
    return out


def _is_head(cell: str) -> bool:
    """A cell naming a status: `161002`, `ACLNN_ERR_PARAM_INVALID`, `161002/561103`, ..."""
    if not (_CODE.search(cell) or _NAME.search(cell)):
        return False
    rest = _NAME.sub("", _CODE.sub("", cell))
    return not rest.strip(" /、,，()（）")


def errors_from_text(doc: Document, start: int, end: int, skip: list[tuple[int, int]]) -> list[ErrorFacts]:
    """`返回161001（ACLNN_ERR_PARAM_NULLPTR）：...` heads in prose, bullets or code blocks."""
    kept = [line if not any(a <= i < b for a, b in skip) else "" for i, line in enumerate(doc.lines[start:end], start)]
    region = "\n".join(kept)
    heads = list(_HEAD.finditer(region))
    out = []
    for k, head in enumerate(heads):
        stop = _head_start(region, heads[k + 1].start()) if k + 1 < len(heads) else len(region)
        body = region[head.end() : stop]
        if cut := _BODY_END.search(body):
            body = body[: cut.start()]
        base = start + 1 + region.count("\n", 0, head.start())
        for condition, offset in _located_conditions(body):
            out.append(ErrorFacts(int(head.group("code")), head.group("name"), condition, base + offset))
    return out


def _head_start(region: str, code_at: int) -> int:
    """Where the head whose code is at `code_at` starts: before `返回` and `**` (bounded look-back)."""
    window = region[max(0, code_at - 16) : code_at]
    prefix = _HEAD_PREFIX.search(window)
    return code_at - (len(window) - prefix.start()) if prefix else code_at


@lru_cache(maxsize=4096)  # error tables repeat the same conditions from document to document
def _conditions(text: str) -> tuple[str, ...]:
    return tuple(c for c, _ in _located_conditions(text))


def _located_conditions(body: str) -> list[tuple[str, int]]:
    """Split a condition list into conditions, each with its line offset in `body`.

    Numbered lists (`1. ... 2. ...`) split at the numbers, and may wrap lines; otherwise
    each line is a condition. Either way `。` and `；` end a condition.
    """
    numbered = list(_NUMBERED.finditer(body))
    if numbered:
        bounds = [0] + [m.start() for m in numbered] + [len(body)]
        pieces = [(body[a:b], a) for a, b in zip(bounds, bounds[1:], strict=False)]
        pieces = [(_NUMBERED.sub(" ", p, count=1) if k else p, a) for k, (p, a) in enumerate(pieces)]
    else:
        pieces, pos = [], 0
        for part in body.split("\n"):
            pieces.append((part, pos))
            pos += len(part) + 1
    out = []
    for piece, at in pieces:
        for part in (p for item in _ITEM.split(piece) for p in _SENTENCES.split(item)):
            condition = textmod.plain(part).strip(" 。.;；、").lstrip("-*•· ")
            if condition and condition not in ("-", "/", "无") and not _HEAD.match(condition):
                out.append((condition, body.count("\n", 0, at)))
    return out
