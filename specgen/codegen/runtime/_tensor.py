"""Tensor descriptions and the error type of the generated aclnn bindings.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
Pure Python: NumPy is imported only when a NumPy array or dtype is described.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# aclDataType and aclFormat values (CANN's aclnn headers); a test keeps them equal to specgen.vocab.
ACL_DTYPES = {
    "FLOAT": 0,
    "FLOAT16": 1,
    "INT8": 2,
    "INT32": 3,
    "UINT8": 4,
    "INT16": 6,
    "UINT16": 7,
    "UINT32": 8,
    "INT64": 9,
    "UINT64": 10,
    "DOUBLE": 11,
    "BOOL": 12,
    "STRING": 13,
    "COMPLEX64": 16,
    "COMPLEX128": 17,
    "BFLOAT16": 27,
    "INT4": 29,
    "UINT1": 30,
    "COMPLEX32": 33,
    "HIFLOAT8": 34,
    "FLOAT8_E5M2": 35,
    "FLOAT8_E4M3FN": 36,
    "FLOAT8_E8M0": 37,
    "FLOAT6_E3M2": 38,
    "FLOAT6_E2M3": 39,
    "FLOAT4_E2M1": 40,
    "FLOAT4_E1M2": 41,
}
ACL_FORMATS = {
    "NCHW": 0,
    "NHWC": 1,
    "ND": 2,
    "NC1HWC0": 3,
    "FRACTAL_Z": 4,
    "NC1HWC0_C04": 12,
    "HWCN": 16,
    "NDHWC": 27,
    "FRACTAL_NZ": 29,
    "NCDHW": 30,
    "NDC1HWC0": 32,
    "FRACTAL_Z_3D": 33,
    "NC": 35,
    "NCL": 47,
}
# NumPy dtype names (ml_dtypes' for bfloat16) and the aclnn dtype each stands for.
NUMPY_NAMES = {
    "float32": "FLOAT",
    "float16": "FLOAT16",
    "bfloat16": "BFLOAT16",
    "float64": "DOUBLE",
    "int8": "INT8",
    "int16": "INT16",
    "int32": "INT32",
    "int64": "INT64",
    "uint8": "UINT8",
    "uint16": "UINT16",
    "uint32": "UINT32",
    "uint64": "UINT64",
    "bool": "BOOL",
    "complex64": "COMPLEX64",
    "complex128": "COMPLEX128",
}
# Names users write for dtypes (not the documents' spellings: "INT" here is NumPy's, not INT32).
_ALIASES = {
    "FLOAT32": "FLOAT",
    "FP32": "FLOAT",
    "FP16": "FLOAT16",
    "BF16": "BFLOAT16",
    "FLOAT64": "DOUBLE",
}


class AclnnError(RuntimeError):
    """A non-zero aclnn status, returned by the library or predicted by a validator.

    A validator's error names the documented rule that rejected the call: `rule` is its id
    (as the generated tests name it) and `condition` the document's text of it.
    """

    def __init__(
        self,
        status: int,
        function: str,
        message: str = "",
        condition: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.status = status
        self.function = function
        self.message = message
        self.condition = condition
        self.rule = rule
        text = f"{function} failed with status {status}"
        if message:
            text += f": {message}"
        if rule:
            text += f" [rule {rule}]"
        if condition:
            text += f" [documented condition: {condition}]"
        super().__init__(text)


def dtype_name(dtype: object) -> str:
    """The aclnn dtype name of a dtype name (FLOAT32 -> FLOAT) or of a NumPy dtype."""
    if isinstance(dtype, str):
        upper = _ALIASES.get(dtype.upper(), dtype.upper())
        if upper in ACL_DTYPES:
            return upper
    import numpy as np

    name = np.dtype(dtype).name  # type: ignore[call-overload]
    if name in NUMPY_NAMES:
        return NUMPY_NAMES[name]
    raise TypeError(f"dtype {dtype!r} has no aclnn equivalent")


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(int(shape[i + 1]), 1)
    return tuple(strides)


@dataclass(frozen=True)
class TensorDesc:
    """A tensor without data, for validators: shape, dtype, strides (in elements), format."""

    shape: tuple[int, ...]
    dtype: str
    strides: tuple[int, ...] | None = None
    format: str = "ND"

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(int(d) for d in self.shape))
        object.__setattr__(self, "dtype", dtype_name(self.dtype))
        if self.strides is not None:
            object.__setattr__(self, "strides", tuple(int(s) for s in self.strides))
        object.__setattr__(self, "format", str(self.format).upper())

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def contiguous(self) -> bool:
        if self.strides is None or self.size == 0:
            return True
        expected = contiguous_strides(self.shape)
        return all(
            d == 1 or s == e
            for d, s, e in zip(self.shape, self.strides, expected, strict=True)
        )


def describe(value: object) -> TensorDesc | None:
    """The description of a tensor argument: a NumPy array (or array-like), a TensorDesc, or None."""
    if value is None or isinstance(value, TensorDesc):
        return value
    import numpy as np

    array = np.asarray(value)
    strides = (
        tuple(s // array.itemsize for s in array.strides) if array.itemsize else None
    )
    return TensorDesc(array.shape, dtype_name(array.dtype), strides)
