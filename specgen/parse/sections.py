"""What each heading of a document is for, and which sections document which function."""

from __future__ import annotations

import re
from dataclasses import dataclass

from specgen.parse.document import Document, Section

_SUMMARY = re.compile(r"功能说明|功能描述")
_PRODUCTS = re.compile(r"产品支持情况|支持的产品型号")
_NOTES = re.compile(r"约束说明")
_SAMPLE = re.compile(r"调用示例|使用示例")
_PARAMS = re.compile(r"参数说明")
_RETURNS = re.compile(r"返回值")


def is_sample_section(title: str) -> bool:
    return bool(_SAMPLE.search(title))


def first_titled(doc: Document, pattern: re.Pattern[str]) -> Section | None:
    return next((s for s in doc.sections if pattern.search(s.title)), None)


def summary_section(doc: Document) -> Section | None:
    return first_titled(doc, _SUMMARY)


def products_section(doc: Document) -> Section | None:
    return first_titled(doc, _PRODUCTS)


def notes_section(doc: Document) -> Section | None:
    return first_titled(doc, _NOTES)


def sample_sections(doc: Document) -> list[Section]:
    return [s for s in doc.sections if _SAMPLE.search(s.title)]


@dataclass(frozen=True, slots=True)
class Region:
    """Lines documenting one phase of a function: a section, or a fallback stretch."""

    start: int
    end: int
    line: int  # 1-based line of its heading


def function_regions(doc: Document, name: str, n_functions: int) -> tuple[Region | None, Region | None]:
    """(GetWorkspaceSize region, execute region) of function `name` (`aclnnXxx`)."""
    usable = [s for s in doc.sections if not _inside_sample(doc, s)]
    gws = _innermost([s for s in usable if _names(s.title, name + "GetWorkspaceSize")])
    # The execute section is headed with the bare name; so may be the whole document (H1).
    exe = _innermost([s for s in usable if _names(s.title, name)] + gws)
    exe = [s for s in exe if s not in gws]
    if not gws and len(exe) >= 2:  # both phases headed with the bare name
        gws, exe = exe[:1], exe[1:]
    if not gws and n_functions == 1:
        gws = [s for s in usable if _PARAMS.fullmatch(s.title.strip("*: ："))][:1]
        if gws:
            returns = [s for s in usable if _RETURNS.fullmatch(s.title.strip("*: ："))]
            end = returns[0].end if returns else gws[0].end
            region = Region(gws[0].start, max(end, gws[0].end), gws[0].line)
            return region, _region([s for s in exe if not s.start <= region.line - 1 < s.end])
    return _region(gws), _region(exe)


def _innermost(sections: list[Section]) -> list[Section]:
    """Drop sections that enclose another one of the list."""
    return [s for s in sections if not any(t is not s and s.start <= t.line - 1 < s.end for t in sections)]


def _region(sections: list[Section]) -> Region | None:
    return Region(sections[0].start, sections[0].end, sections[0].line) if sections else None


def _names(title: str, function: str) -> bool:
    """The heading is `function`, possibly followed by words such as 参数说明."""
    t = title.strip().strip("`*").strip()
    if not t.lower().startswith(function.lower()):
        return False
    rest = t[len(function) :]
    return not rest or not (rest[0].isalnum() or rest[0] == "_")


def _inside_sample(doc: Document, section: Section) -> bool:
    return any(is_sample_section(s.title) for s in doc.enclosing(section.line - 1) if s is not section)
