"""Outputs a document says are the gradient of one of the inputs, which have that input's
shape (the gradient of a loss by a tensor has one element per element of the tensor). Read
only where the document ties both ends to parameters in words; never from the names alone:

- the description names the forward tensors and the gradient outputs by their symbols
  (aclnnConvolutionBackward): `卷积正向的输入张量 $x$（对应函数原型中的input）`, then
  `对于 $x$ 的梯度 $\\frac{\\partial L}{\\partial x}$（对应函数原型中的gradInput参数）`;
- the output's row says it is the gradient of the input the document calls the leaf node
  (aclnnAdaptiveAvgPool2dBackward): out `对应了输入叶子节点的梯度。`, self `叶子节点。`; or names
  it (aclnnFusedLinearCrossEntropyLossGrad): `对应叶子节点input的梯度`;
- the output's row names the input by the word that input's row (and no other's) calls itself
  (aclnnSoftmaxCrossEntropyWithLogits): backprop `表示输入logits的反向梯度`, features
  `表示模型的输出logits，公式中x_i`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from specgen.model import Param, ShapeRule
from specgen.parse.classify.text import IDENT

_NAME = IDENT.pattern
# `输入张量 $x$（对应函数原型中的input）`
_CORRESPONDS = re.compile(rf"\$\s*(?P<sym>{_NAME})\s*\$\s*[（(]\s*对应函数原型中的\s*(?P<param>{_NAME})\s*[）)]")
# `对于 $x$ 的梯度 $\frac{\partial L}{\partial x}$（对应函数原型中的gradInput参数）`
_GRADIENT_OF = re.compile(
    rf"对于\s*\$\s*(?P<sym>{_NAME})\s*\$\s*的梯度[^（()）]*[（(]\s*对应函数原型中的\s*(?P<out>{_NAME})\s*参数\s*[）)]"
)
# an output's row: `对应了输入叶子节点的梯度`, `对应叶子节点input的梯度`
_LEAF_GRADIENT = re.compile(rf"对应了?(?:输入)?叶子节点\s*(?P<name>{_NAME})?\s*的梯度")
_LEAF = re.compile(r"叶子节点。?")
# an output's description: `表示输入logits的反向梯度` (the word another input's row calls itself by)
_WORD_GRADIENT = re.compile(rf"^表示输入\s*(?P<word>{_NAME})\s*的(?:反向)?梯度")


class Said(Protocol):
    """A line of the description (shapes.Statement; read only)."""

    @property
    def text(self) -> str: ...

    @property
    def line(self) -> int: ...


def gradient_rule(p: Param, params: Sequence[Param], prose: Sequence[Said]) -> ShapeRule | None:
    """`p` has the shape of the input it is the gradient of, by the description (`prose`,
    line by line) or by its own row; None when neither says."""
    return _by_description(p, params, prose) or _by_row(p, params)


def _by_description(p: Param, params: Sequence[Param], prose: Sequence[Said]) -> ShapeRule | None:
    tensors = _inputs(params)
    symbols: dict[str, set[str]] = {}
    for s in prose:
        for m in _CORRESPONDS.finditer(s.text):
            symbols.setdefault(m.group("sym"), set()).add(m.group("param"))
    for s in prose:
        for m in _GRADIENT_OF.finditer(s.text):
            named = symbols.get(m.group("sym"), set())
            if m.group("out") == p.name and len(named) == 1 and (source := next(iter(named))) in tensors:
                return ShapeRule(kind="same", params=(source,), text=m.group(0), line=s.line)
    return None


def _by_row(p: Param, params: Sequence[Param]) -> ShapeRule | None:
    m = _LEAF_GRADIENT.search(p.description + p.text)
    if m is None:
        return _by_word(p, params)
    tensors = _inputs(params)
    named = m.group("name")
    leaves = [named] if named else [q.name for q in params if q.name in tensors and _LEAF.fullmatch(q.description)]
    if len(leaves) != 1 or leaves[0] not in tensors:
        return None
    return ShapeRule(kind="same", params=(leaves[0],), text=m.group(0), line=p.line)


def _inputs(params: Sequence[Param]) -> set[str]:
    return {q.name for q in params if q.kind == "tensor" and q.direction == "in"}


def _by_word(p: Param, params: Sequence[Param]) -> ShapeRule | None:
    """The output is the gradient of the input its description names by a word that input's
    description, and no other's, calls it (aclnnSoftmaxCrossEntropyWithLogits: backprop
    `表示输入logits的反向梯度`, features `表示模型的输出logits，公式中x_i`)."""
    m = _WORD_GRADIENT.match(p.description)
    if m is None:
        return None
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(m.group('word'))}(?![A-Za-z0-9_])")
    tensors = _inputs(params)
    called = [q.name for q in params if q.name in tensors and (q.name == m.group("word") or word.search(q.description))]
    if len(called) != 1:
        return None
    return ShapeRule(kind="same", params=(called[0],), text=m.group(0), line=p.line)
