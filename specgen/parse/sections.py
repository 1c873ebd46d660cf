"""What each heading of a document is for, and which sections document which function."""

from __future__ import annotations

import re
from dataclasses import dataclass

from specgen.parse.document import Document, Section

_SUMMARY = re.compile(r"功能说明|功能描述")
_PRODUCTS = re.compile(r"产品支持情况|支持的产品型号")
_NOTES = re.compile(r"约束(?:与)?说明|约束与限制")
_SAMPLE = re.compile(r"调用示例|使用示例")
_PARAMS = re.compile(r"参数说明|参数|Parameters?", re.I)
# `### 4.2 aclnnXxx`, `4. 参数说明`: section numbers written into the heading
_SECTION_NUMBER = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+")
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
    samples = sample_sections(doc)
    usable = [s for s in doc.sections if not _inside_sample(s, samples)]
    gws = _innermost([s for s in usable if _names(s.title, name + "GetWorkspaceSize")])
    # The execute section is headed with the bare name; so may be the whole document (H1).
    exe = _innermost([s for s in usable if _names(s.title, name)] + gws)
    exe = [s for s in exe if s not in gws]
    if not gws and len(exe) >= 2:  # both phases headed with the bare name
        gws, exe = exe[:1], exe[1:]
    if not gws and n_functions == 1:
        gws = [s for s in usable if _PARAMS.fullmatch(_bare_title(s.title))][:1]
        if gws:
            returns = [s for s in usable if _RETURNS.fullmatch(_bare_title(s.title))]
            end = returns[0].end if returns else gws[0].end
            region = Region(gws[0].start, max(end, gws[0].end), gws[0].line)
            return region, _region([s for s in exe if not s.start <= region.line - 1 < s.end])
    return _cut_before(_region(gws), _region(exe)), _region(exe)


def _cut_before(region: Region | None, inner: Region | None) -> Region | None:
    """A second-phase heading one level below the first phase's (`## ...GetWorkspaceSize`
    then `### aclnnXxx`) nests inside it: the first phase's region stops where it starts."""
    if region is None or inner is None or not region.start < inner.line - 1 < region.end:
        return region
    return Region(region.start, inner.line - 1, region.line)


def _bare_title(title: str) -> str:
    return _SECTION_NUMBER.sub("", title).strip("*: ：")


def _innermost(sections: list[Section]) -> list[Section]:
    """Drop sections that enclose another one of the list."""
    return [s for s in sections if not any(t is not s and s.start <= t.line - 1 < s.end for t in sections)]


def _region(sections: list[Section]) -> Region | None:
    return Region(sections[0].start, sections[0].end, sections[0].line) if sections else None


def _names(title: str, function: str) -> bool:
    """The heading is `function`, possibly followed by words such as 参数说明."""
    t = _SECTION_NUMBER.sub("", title.strip()).strip("`*").strip()
    if not t.lower().startswith(function.lower()):
        return False
    rest = t[len(function) :]
    return not rest or not (rest[0].isalnum() or rest[0] == "_")


def _inside_sample(section: Section, samples: list[Section]) -> bool:
    """Whether another section of `samples` (the document's sample sections) holds it."""
    return any(s is not section and s.start - 1 <= section.line - 1 < s.end for s in samples)
