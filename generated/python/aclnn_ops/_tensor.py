"""Tensor descriptions and the error type of the generated aclnn bindings.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
Pure Python: NumPy is imported only when a NumPy array or dtype is described.
"""

from __future__ import annotations

import enum
import math
import numbers
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
    DType("FLOAT8_E5M2", 35, "ACL_FLOAT8_E5M2", 8, "float8_e5m2"),
    DType("FLOAT8_E4M3FN", 36, "ACL_FLOAT8_E4M3FN", 8, "float8_e4m3fn"),
    DType("FLOAT8_E8M0", 37, "ACL_FLOAT8_E8M0", 8, "float8_e8m0fnu"),
    DType("FLOAT6_E3M2", 38, "ACL_FLOAT6_E3M2", 8, "float6_e3m2fn"),  # a byte each
    DType("FLOAT6_E2M3", 39, "ACL_FLOAT6_E2M3", 8, "float6_e2m3fn"),
    DType("FLOAT4_E2M1", 40, "ACL_FLOAT4_E2M1", 4),
    DType("FLOAT4_E1M2", 41, "ACL_FLOAT4_E1M2", 4),
)
# fmt: on
DTYPES = {d.name: d for d in DTYPE_TABLE}
ACL_DTYPES = {d.name: d.acl for d in DTYPE_TABLE}
# NumPy dtype names and the aclnn dtype each stands for.
NUMPY_NAMES = {d.numpy: d.name for d in DTYPE_TABLE if d.numpy}
# Those of the ml_dtypes package (one byte or two an element, as aclnn stores them; 4-bit
# dtypes are left out: ml_dtypes gives them a byte each where aclnn packs two).
ML_DTYPES = (
    "bfloat16",
    "float8_e5m2",
    "float8_e4m3fn",
    "float8_e8m0fnu",
    "float6_e3m2fn",
    "float6_e2m3fn",
)
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
# Formats whose data the documents describe by their storage layout (blocks of 16, C0...).
# Samples and example programs pass such data as ND tensors of the logical shape, so a rule
# stated for the private layout says nothing about the rank or format of an ND tensor.
ND_FAMILY = frozenset({"ND", "NCHW", "NHWC", "NCDHW", "NDHWC", "HWCN", "NC", "NCL"})
PRIVATE_FORMATS = frozenset(
    {"NC1HWC0", "NC1HWC0_C04", "FRACTAL_Z", "FRACTAL_NZ", "NDC1HWC0", "FRACTAL_Z_3D"}
)


def format_allowed(fmt: str, formats: Sequence[str]) -> bool:
    """Whether a parameter documented in `formats` may be a tensor in `fmt`: one listed, or a
    plain layout (NCHW, NCL...) where the rows list ND (plain ND data to the operator, as the
    validators read it) or list no format at all."""
    return fmt in formats or (fmt in ND_FAMILY and (not formats or "ND" in formats))


# The aclDataType enumeration, for parameters of that C type (`DataType.FLOAT16`).
DataType = enum.IntEnum("DataType", {d.name: d.acl for d in DTYPE_TABLE})  # type: ignore[misc]
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
    if isinstance(dtype, DataType):
        return dtype.name
    if isinstance(dtype, str):
        upper = _ALIASES.get(dtype.upper(), dtype.upper())
        if upper in ACL_DTYPES:
            return upper
    import numpy as np

    try:
        name = np.dtype(dtype).name  # type: ignore[call-overload]
    except TypeError:
        name = ""
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


@dataclass(frozen=True, eq=False)  # arrays do not compare to one truth value
class Tensor:
    """A tensor argument with its format given: `Tensor(array, "NCHW")`. A plain array is
    sent in the format the document gives the parameter when it allows one only, else ND.

    A 4-bit dtype (INT4, FLOAT4_E2M1, FLOAT4_E1M2), which NumPy has not, is given with its
    bytes: `Tensor(packed, dtype="FLOAT4_E2M1")`, `packed` a uint8 array holding two elements
    a byte along the last dimension, as aclnn stores them (shape (m, n // 2) for (m, n))."""

    array: object  # a NumPy array (ml_dtypes for BFLOAT16)
    format: str = "ND"
    dtype: str | None = None  # a packed 4-bit dtype; None: the array's own

    def __post_init__(self) -> None:
        fmt = str(self.format).upper()
        if fmt not in ACL_FORMATS:
            known = ", ".join(ACL_FORMATS)
            raise ValueError(f"unknown tensor format {self.format!r}; known: {known}")
        object.__setattr__(self, "format", fmt)
        if self.dtype is not None:
            object.__setattr__(self, "dtype", _packed_dtype(self.dtype, self.array))

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape aclnn sees: a packed array's last dimension holds two elements a byte."""
        import numpy as np

        shape = tuple(int(d) for d in np.shape(self.array))  # type: ignore[call-overload]
        return (
            (*shape[:-1], shape[-1] * 2) if self.dtype is not None and shape else shape
        )


def _packed_dtype(dtype: object, array: object) -> str:
    import numpy as np

    name = dtype_name(dtype)
    if DTYPES[name].bits != 4:
        raise ValueError(
            f"dtype= is for packed 4-bit dtypes; {name} arrays carry their own dtype"
        )
    if np.asarray(array).dtype != np.uint8:
        raise TypeError(
            f"a packed {name} tensor is given as a uint8 array of its bytes"
        )
    return name


def packed_bytes(shape: Sequence[int]) -> tuple[int, ...]:
    """The shape of the uint8 array holding a 4-bit tensor of `shape` (two elements a byte)."""
    return (*shape[:-1], (int(shape[-1]) + 1) // 2) if shape else ()


@dataclass(frozen=True)
class Scalar:
    """An aclScalar argument with its dtype given: `Scalar(3, "INT32")`. A plain Python
    number takes the dtype the document gives the parameter, else one from its type."""

    value: bool | int | float | complex
    dtype: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", dtype_name(self.dtype))


def describe(value: object, default_format: str = "ND") -> TensorDesc | None:
    """The description of a tensor argument: a NumPy array (or array-like, in
    `default_format`), a Tensor, a TensorDesc, or None."""
    if value is None or isinstance(value, TensorDesc):
        return value
    if isinstance(value, Tensor) and value.dtype is not None:
        return TensorDesc(value.shape, value.dtype, None, value.format)
    if isinstance(value, Tensor):
        default_format, value = value.format, value.array
    import numpy as np

    array = np.asarray(value)
    strides = (
        tuple(s // array.itemsize for s in array.strides) if array.itemsize else None
    )
    return TensorDesc(array.shape, dtype_name(array.dtype), strides, default_format)


# ---------------------------------------------------------------- scalar dtypes

# The dtypes a Python number takes, most preferred first, by its kind.
_KIND_DTYPES = {
    "bool": ("BOOL",),
    "int": ("INT64", "INT32", "INT16", "INT8", "UINT8", "UINT16", "UINT32", "UINT64"),
    "float": ("FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16"),
    "complex": ("COMPLEX64", "COMPLEX128"),
}
# A number of one kind may be held in the dtypes of the kinds after it.
_WIDER = {
    "bool": ("bool",),
    "int": ("int", "float", "complex"),
    "float": ("float", "complex"),
    "complex": ("complex",),
}


def number_kind(value: object) -> str:
    """bool, int, float or complex; TypeError for anything else."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "bool"
    for kind, base in (
        ("int", numbers.Integral),
        ("float", numbers.Real),
        ("complex", numbers.Complex),
    ):
        if isinstance(value, base):
            return kind
    raise TypeError(f"{value!r} is not a number")


def _list_kind(values: Sequence[object]) -> str:
    kinds = [number_kind(v) for v in values]
    order = tuple(_KIND_DTYPES)
    return max(kinds, key=order.index) if kinds else "float"


def scalar_dtype(
    value: object, allowed: Sequence[str] = (), like: str | None = None
) -> str:
    """The dtype an aclScalar (or a scalar list) is made with: given explicitly (Scalar),
    the dtype of the tensor the document says it follows (`like`), the one dtype the
    document allows, else the first allowed dtype of the Python value's kind (int: INT64,
    float: FLOAT, bool: BOOL), an int taking a float dtype when no integer one is allowed.
    TypeError when the value is not a number or no allowed dtype holds it; "" for None (a
    null pointer has no dtype)."""
    if value is None:
        return ""
    if isinstance(value, str | bytes):
        raise TypeError(f"{value!r} is not a number")
    values = list(value) if isinstance(value, Sequence) else [value]
    given = {v.dtype for v in values if isinstance(v, Scalar)}
    if given:
        return min(given)
    kind = _list_kind(values)
    if like and (not allowed or like in allowed):
        return like
    if len(allowed) == 1:
        return allowed[0]
    for wider in _WIDER[kind]:
        fits = [d for d in _KIND_DTYPES[wider] if not allowed or d in allowed]
        if fits:
            return fits[0]
    raise TypeError(
        f"{value!r} is a {kind}; the document allows {', '.join(allowed)} (pass Scalar(value, dtype))"
    )


def number_problem(value: object, dtype: str, strict: bool = False) -> str:
    """Why `value` cannot be held in `dtype` exactly ("" when it can): integer dtypes take
    integral numbers in their range (ints only when `strict`, as a C integer parameter
    does; a bool is an int, as in C: documents pass `true` for an int64_t), BOOL true/false
    or 0/1, float dtypes real numbers."""
    if isinstance(value, Scalar):
        value = value.value
    kind = number_kind(value)
    info = DTYPES[dtype]
    if dtype == "BOOL":
        return "" if kind == "bool" or value in (0, 1) else f"{value!r} is not a bool"
    if info.printer == "integer":
        integral = kind == "float" and not strict and float(value).is_integer()  # type: ignore[arg-type]
        if kind not in ("int", "bool") and not integral:
            return f"{value!r} is not an integer"
        low, high = info.range or (-math.inf, math.inf)
        inside = low <= int(value) <= high  # type: ignore[call-overload]
        return "" if inside else f"{value!r} is outside {dtype} [{low}, {high}]"
    if info.printer == "complex":
        return ""
    return f"{value!r} is a complex number" if kind == "complex" else ""
