"""Tensor descriptions and the error type of the generated aclnn bindings.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
Pure Python: NumPy is imported only when a NumPy array or dtype is described.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class DType:
    """One aclnn dtype, every fact specgen and this package know about it: its name (as
    documents and aclnn spell it), aclDataType value and C enumerator, bits an element
    takes, NumPy's name (ml_dtypes' for bfloat16), the C++ type a sample holds it in (None:
    raw bytes), how a sample prints it (real, half, bfloat, integer, complex), and the
    values it holds where samples need them."""

    name: str
    acl: int
    enumerator: str
    bits: int
    numpy: str | None = None
    host: str | None = None
    printer: str | None = None
    range: tuple[float, float] | None = None


def _int(name: str, acl: int, bits: int, signed: bool) -> DType:
    low, high = (
        (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    )
    c_type = f"{'' if signed else 'u'}int{bits}_t"
    return DType(
        name, acl, f"ACL_{name}", bits, name.lower(), c_type, "integer", (low, high)
    )


# fmt: off
DTYPE_TABLE = (
    DType("FLOAT", 0, "ACL_FLOAT", 32, "float32", "float", "real", (-3.4e38, 3.4e38)),
    DType("FLOAT16", 1, "ACL_FLOAT16", 16, "float16", "uint16_t", "half", (-65504.0, 65504.0)),
    _int("INT8", 2, 8, signed=True),
    _int("INT32", 3, 32, signed=True),
    _int("UINT8", 4, 8, signed=False),
    _int("INT16", 6, 16, signed=True),
    _int("UINT16", 7, 16, signed=False),
    _int("UINT32", 8, 32, signed=False),
    _int("INT64", 9, 64, signed=True),
    _int("UINT64", 10, 64, signed=False),
    DType("DOUBLE", 11, "ACL_DOUBLE", 64, "float64", "double", "real", (-1.7e308, 1.7e308)),
    DType("BOOL", 12, "ACL_BOOL", 8, "bool", "uint8_t", "integer", (0, 1)),
    DType("STRING", 13, "ACL_STRING", 8),
    DType("COMPLEX64", 16, "ACL_COMPLEX64", 64, "complex64", "std::complex<float>", "complex"),
    DType("COMPLEX128", 17, "ACL_COMPLEX128", 128, "complex128", "std::complex<double>", "complex"),
    DType("BFLOAT16", 27, "ACL_BF16", 16, "bfloat16", "uint16_t", "bfloat", (-3.38e38, 3.38e38)),
    DType("INT4", 29, "ACL_INT4", 4),
    DType("UINT1", 30, "ACL_UINT1", 1),
    DType("COMPLEX32", 33, "ACL_COMPLEX32", 32),
    DType("HIFLOAT8", 34, "ACL_HIFLOAT8", 8),
    DType("FLOAT8_E5M2", 35, "ACL_FLOAT8_E5M2", 8),
    DType("FLOAT8_E4M3FN", 36, "ACL_FLOAT8_E4M3FN", 8),
    DType("FLOAT8_E8M0", 37, "ACL_FLOAT8_E8M0", 8),
    DType("FLOAT6_E3M2", 38, "ACL_FLOAT6_E3M2", 8),  # held in a byte each
    DType("FLOAT6_E2M3", 39, "ACL_FLOAT6_E2M3", 8),
    DType("FLOAT4_E2M1", 40, "ACL_FLOAT4_E2M1", 4),
    DType("FLOAT4_E1M2", 41, "ACL_FLOAT4_E1M2", 4),
)
# fmt: on
DTYPES = {d.name: d for d in DTYPE_TABLE}
ACL_DTYPES = {d.name: d.acl for d in DTYPE_TABLE}
# NumPy dtype names and the aclnn dtype each stands for.
NUMPY_NAMES = {d.numpy: d.name for d in DTYPE_TABLE if d.numpy}
# aclFormat values (CANN's aclnn headers); specgen.vocab reads the same table.
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
