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
  `表示模型的输出logits，公式中x_i`;
- a clause of the output's row names the input parameter itself (FlashAttentionScoreGradV2,
  doc-site dialect): dqOut `公式中的dQ，表示query的梯度，计算输出` (not dpseOut's `表示pse的梯度`:
  pse is the formula's symbol, no parameter);
- the description calls the symbol by a word (`偏置 $b$`) and an integer array's row says it is
  the shape of the forward pass's tensor of that word (aclnnConvolutionBackward's biasSizes
  `卷积正向过程中偏差(bias)的shape`): the gradient has the array's values as its shape. 偏置 and 偏差
  are one word (both "bias"; that document uses both of one tensor, and glosses 偏差 as bias);
- the description says the function computes the forward pass's input gradient, and one input's
  row (no other's) says it is the forward pass's input; the function's one output tensor is
  that gradient (aclnnAvgPool2dBackward): `计算二维平均池化正向传播的输入梯度`, self `正向过程中的输入。`.
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


# the description: `计算二维平均池化正向传播的输入梯度`
_FORWARD_INPUT_GRADIENT = re.compile(r"计算[^。；;]*?正向(?:传播|过程|计算)?(?:中)?的输入(?:的)?梯度")
# an input's row: `正向过程中的输入。`, `正向过程中的输入，对应公式中的input。`
_FORWARD_INPUT = re.compile(r"^正向(?:传播|过程|计算)?(?:中)?的输入(?:数据|张量|Tensor)?(?:[。，,；;]|$)")


def gradient_rule(p: Param, params: Sequence[Param], prose: Sequence[Said]) -> ShapeRule | None:
    """`p` has the shape of the input it is the gradient of, by the description (`prose`,
    line by line) or by its own row; None when neither says."""
    return _by_description(p, params, prose) or _by_row(p, params) or _of_forward_input(p, params, prose)


def _of_forward_input(p: Param, params: Sequence[Param], prose: Sequence[Said]) -> ShapeRule | None:
    """The one output tensor of a function whose description says it computes the forward
    pass's input gradient, where one input's row says it is the forward pass's input."""
    outputs = [q.name for q in params if q.direction != "in" and q.kind in ("tensor", "tensor_list")]
    said = next(((m, s.line) for s in prose if (m := _FORWARD_INPUT_GRADIENT.search(s.text))), None)
    if outputs != [p.name] or said is None:
        return None
    tensors = _inputs(params)
    forward = [q.name for q in params if q.name in tensors and _FORWARD_INPUT.match(q.description.strip())]
    if len(forward) != 1:
        return None
    return ShapeRule(kind="same", params=(forward[0],), text=said[0].group(0), line=said[1])


def _by_description(p: Param, params: Sequence[Param], prose: Sequence[Said]) -> ShapeRule | None:
    tensors = _inputs(params)
    symbols: dict[str, set[str]] = {}
    for s in prose:
        for m in _CORRESPONDS.finditer(s.text):
            symbols.setdefault(m.group("sym"), set()).add(m.group("param"))
    for s in prose:
        for m in _GRADIENT_OF.finditer(s.text):
            if m.group("out") != p.name:
                continue
            named = symbols.get(m.group("sym"), set())
            if len(named) == 1 and (source := next(iter(named))) in tensors:
                return ShapeRule(kind="same", params=(source,), text=m.group(0), line=s.line)
            if not named and (array := _sizes_of(m.group("sym"), params, prose)):
                return ShapeRule(kind="explicit", dims=(f"*{array}",), text=m.group(0), line=s.line)
    return None


# the description's word for a symbol: `偏置 $b$`
_WORD_OF_SYMBOL = r"(?P<word>[\u4e00-\u9fff]{{2}})\s*\$\s*{}\s*\$"
# an integer array's row: `卷积正向过程中偏差(bias)的shape。`
_SHAPE_OF_FORWARD = re.compile(
    r"正向(?:过程|传播|计算)?中的?[\u4e00-\u9fff]*?(?P<word>[\u4e00-\u9fff]{2})\s*(?:[（(][A-Za-z]+[）)])?\s*的\s*shape[。]?$"
)
# words documents use of one tensor (both translate "bias")
_ONE_WORD = {"偏差": "偏置"}
# words before a symbol that do not name it: `对于 $b$ 的梯度`
_NO_NAME = frozenset({"对于", "关于", "其中", "表示", "计算", "输入", "输出"})


def _sizes_of(symbol: str, params: Sequence[Param], prose: Sequence[Said]) -> str | None:
    """The one integer array whose row says it is the shape of the forward pass's tensor the
    description calls `symbol` by a word (`偏置 $b$`; biasSizes `卷积正向过程中偏差(bias)的shape`)."""
    said = re.compile(_WORD_OF_SYMBOL.format(re.escape(symbol)))
    found = (m.group("word") for s in prose for m in said.finditer(s.text))
    words = {_ONE_WORD.get(w, w) for w in found if w not in _NO_NAME}
    if len(words) != 1:
        return None
    arrays = [
        q.name
        for q in params
        if q.kind == "int_array"
        and (m := _SHAPE_OF_FORWARD.search(q.description.strip()))
        and _ONE_WORD.get(m.group("word"), m.group("word")) in words
    ]
    return arrays[0] if len(arrays) == 1 else None


def _by_row(p: Param, params: Sequence[Param]) -> ShapeRule | None:
    m = _LEAF_GRADIENT.search(p.description + p.text)
    if m is None:
        return _by_word(p, params) or _by_param(p, params)
    tensors = _inputs(params)
    named = m.group("name")
    leaves = [named] if named else [q.name for q in params if q.name in tensors and _LEAF.fullmatch(q.description)]
    if len(leaves) != 1 or leaves[0] not in tensors:
        return None
    return ShapeRule(kind="same", params=(leaves[0],), text=m.group(0), line=p.line)


def _inputs(params: Sequence[Param]) -> set[str]:
    return {q.name for q in params if q.kind == "tensor" and q.direction == "in"}


# a clause of an output's row: `公式中的dQ，表示query的梯度，计算输出`
_PARAM_GRADIENT = re.compile(
    rf"(?:^|[，,。；;])\s*表示(?:输入)?\s*`?(?P<name>{_NAME})`?\s*的(?:反向)?梯度\s*(?=[，,。；;]|$)"
)


def _by_param(p: Param, params: Sequence[Param]) -> ShapeRule | None:
    """The output is the gradient of the input tensor a clause of its row names
    (`表示query的梯度`); None when the name is no input tensor (`表示pse的梯度`)."""
    m = _PARAM_GRADIENT.search(p.description)
    if m is None or m.group("name") not in _inputs(params):
        return None
    return ShapeRule(kind="same", params=(m.group("name"),), text=m.group(0).lstrip("，,。；; "), line=p.line)


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
