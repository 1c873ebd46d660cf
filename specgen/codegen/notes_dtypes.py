"""Dtypes the constraints section (约束说明) allows a parameter beyond its own set.

Legacy PromptFlashAttentionV2.md gives quantScale2 `数据类型支持FLOAT32` in the parameter list,
and its 约束说明 `入参 quantOffset2 和 quantScale2 支持 per-tensor/per-channel 两种格式和
FLOAT32/BFLOAT16 两种数据类型。…当输入为BFLOAT16时，同时支持 FLOAT32和BFLOAT16`: the document
disagrees with itself, and refusing a BFLOAT16 quantScale2 would refuse a call it documents.
The validator's sets are widened with such dtypes (the condition it may hold under is not read).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from specgen import vocab
from specgen.text import names_taken_out

_SENTENCE = re.compile(r"[^。；;\n]+")
# `<names> 支持 … <dtypes> 两种数据类型`: what the parameters named first support
_SUPPORTS = re.compile(r"支持(?P<said>[^。；;]*?)数据类型")
_HEAD_GLUE = re.compile(r"(?:[-*]|入参|参数|、|,|，|和|及|与|\s)*")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def stated_dtypes(notes: str, names: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The dtypes each parameter is said to support where a sentence of `notes` opens with
    the parameters' names alone and goes on `支持…<dtypes>…数据类型`."""
    names = list(names)
    found: dict[str, tuple[str, ...]] = {}
    for sentence in _SENTENCE.findall(notes):
        said = _SUPPORTS.search(sentence)
        if said is None:
            continue
        named = _names_alone(sentence[: said.start()], names)
        dtypes = tuple(dict.fromkeys(d for t in _TOKEN.findall(said["said"]) if (d := vocab.dtype(t))))
        for name in named if dtypes else ():
            found[name] = tuple(dict.fromkeys((*found.get(name, ()), *dtypes)))
    return found


def _names_alone(head: str, names: list[str]) -> list[str]:
    """The parameters `head` names, when it holds nothing else."""
    named, rest = names_taken_out(head, names)
    return named if named and _HEAD_GLUE.fullmatch(rest) else []


def widened(spec: dict, allowed: tuple[str, ...]) -> dict:
    """A parameter's spec with `allowed` added to each of its dtype sets (none is made)."""
    if not allowed or not spec.get("dtypes"):
        return spec

    def wider(dtypes: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys((*dtypes, *allowed)))

    out = {**spec, "dtypes": wider(spec["dtypes"])}
    if spec.get("general_dtypes"):
        out["general_dtypes"] = wider(spec["general_dtypes"])
    if spec.get("product_dtypes"):
        out["product_dtypes"] = {k: wider(v) for k, v in spec["product_dtypes"].items()}
    return out
