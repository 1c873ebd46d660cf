"""Raw facts the readers extract before they are typed: located statements and notes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Statement:
    text: str  # plain text, as the document says it
    line: int


@dataclass
class ProductNote:
    """A per-product remark (`<term>Atlas 训练系列产品</term>：数据类型支持FLOAT16、FLOAT`)."""

    products: tuple[str, ...]  # product ids
    statements: list[Statement]
    line: int


@dataclass
class ParamFacts:
    """What a parameter table row or parameter bullet says about one parameter."""

    name: str
    line: int
    type_hint: str | None = None  # the C type the row or bullet writes, if any
    direction: str | None = None  # the direction words as written
    description: list[Statement] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)  # prose to classify
    cells: dict[str, Statement] = field(default_factory=dict)  # dtype/format/shape/... column
    notes: list[ProductNote] = field(default_factory=list)
    mixed_prose: bool = False  # description and constraints share one text (bullet dialect)
