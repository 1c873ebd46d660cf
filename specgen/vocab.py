"""The fixed vocabularies documents draw from: dtypes, formats, products, directions."""

from __future__ import annotations

import re

from specgen.codegen.runtime._tensor import ACL_DTYPES, ACL_FORMATS

# Canonical dtype and format names and their aclDataType / aclFormat values: one table, the
# one the generated package carries (its runtime cannot import specgen).
DTYPES: dict[str, int] = ACL_DTYPES
_DTYPE_ALIASES = {
    "FLOAT32": "FLOAT",
    "FP32": "FLOAT",
    "FP16": "FLOAT16",
    "HALF": "FLOAT16",
    "FLOAT_16": "FLOAT16",
    "BF16": "BFLOAT16",
    "FLOAT64": "DOUBLE",
    "FP64": "DOUBLE",
    "HIF8": "HIFLOAT8",
    "FLOAT8_E4M3": "FLOAT8_E4M3FN",
    "FLOAT_E5M2": "FLOAT8_E5M2",
    "FLOAT_E4M3FN": "FLOAT8_E4M3FN",
    "FP8_E5M2": "FLOAT8_E5M2",
    "FP8_E4M3FN": "FLOAT8_E4M3FN",
    "INT": "INT32",
    "INT64_T": "INT64",
    "INT32_T": "INT32",
    "INT8_T": "INT8",
    "UINT8_T": "UINT8",
    "CHAR": "STRING",
}


def dtype(token: str) -> str | None:
    """Canonical dtype name for a token as documents write it, or None if it is not one."""
    key = token.strip().upper()
    key = _DTYPE_ALIASES.get(key, key)
    return key if key in DTYPES else None


FORMATS: dict[str, int] = ACL_FORMATS
_FORMAT_ALIASES = {"NZ": "FRACTAL_NZ", "FRACTAL_Z_3D": "FRACTAL_Z_3D", "FRACTALNZ": "FRACTAL_NZ"}


def data_format(token: str) -> str | None:
    key = token.strip().upper()
    key = _FORMAT_ALIASES.get(key, key)
    return key if key in FORMATS else None


# Products, by the ids of the documents' `<!-- npu="..." -->` comments. Order matters:
# the first pattern that matches a product name wins.
_PRODUCTS: list[tuple[str, re.Pattern[str]]] = [
    ("950", re.compile(r"950|910_95")),
    ("A3", re.compile(r"A3|910_93")),
    ("310b", re.compile(r"200I/500\s*A2|310B", re.I)),
    ("910b", re.compile(r"A2|910B", re.I)),
    ("310p", re.compile(r"推理系列(?:加速卡)?产品|310P", re.I)),
    ("910", re.compile(r"训练系列产品|910")),
]
PRODUCT_NAMES = {
    "950": "Ascend 950PR/Ascend 950DT",
    "A3": "Atlas A3 训练系列产品/Atlas A3 推理系列产品",
    "910b": "Atlas A2 训练系列产品/Atlas A2 推理系列产品",
    "310b": "Atlas 200I/500 A2 推理产品",
    "310p": "Atlas 推理系列产品",
    "910": "Atlas 训练系列产品",
}


def product_id(name: str) -> str | None:
    """The product id for a product name as documents write it, or None if unknown."""
    compact = re.sub(r"\s+", "", name)
    for pid, pattern in _PRODUCTS:
        if pattern.search(compact):
            return pid
    return None


# The training line's generations, oldest first: `Ascend910B 及后续同代 SoC` is 910B, the A3
# products of its generation (910_93) and the 950 that came later. 310P and 310B are inference
# parts off this line: which products follow them is not written anywhere.
_GENERATIONS: tuple[tuple[str, ...], ...] = (("910",), ("910b", "A3"), ("950",))
_AND_LATER = re.compile(r"及(?:后续|以后|之后)")


def products_named(text: str) -> tuple[str, ...] | None:
    """The product ids a product phrase names: one product (`Atlas A2训练系列产品`), or a
    product and its generation and the later ones (`Ascend910B 及后续同代 SoC`: 910b, A3, 950).
    None when no product is named, or for `及后续` after a product off the training line (which
    products follow it is unknown)."""
    pid = product_id(text)
    if pid is None or not _AND_LATER.search(text):
        return (pid,) if pid else None
    for i, generation in enumerate(_GENERATIONS):
        if pid in generation:
            return tuple(p for later in _GENERATIONS[i:] for p in later)
    return None


def generation_of(pid: str) -> tuple[str, ...]:
    """The products of pid's generation (A3 for 910b), pid alone off the training line."""
    return next((g for g in _GENERATIONS if pid in g), (pid,))


def direction(text: str) -> str | None:
    """in/out/inout for a direction cell or bullet word (输入, 计算输出, 出参, 输入/输出, ...)."""
    t = re.sub(r"[\s（()）]", "", text)
    has_in = any(w in t for w in ("输入", "入参", "属性"))
    has_out = any(w in t for w in ("输出", "出参"))
    if has_in and has_out:
        return "inout"
    if has_out:
        return "out"
    if has_in:
        return "in"
    return None


# The aclnn object types of C parameters and the argument kind each stands for.
TYPE_KINDS = {
    "aclTensor": "tensor",
    "aclTensorList": "tensor_list",
    "aclScalar": "scalar",
    "aclScalarList": "scalar_list",
    "aclIntArray": "int_array",
    "aclFloatArray": "float_array",
    "aclBoolArray": "bool_array",
}
