"""The type tables: how each aclnn dtype, C type and wrapper role is spelled in generated code
(C++ host types, aclDataType enumerators, NumPy dtypes, ctypes, Python annotations)."""

from __future__ import annotations

from typing import Literal, NamedTuple, cast

from specgen.codegen.errors import LowerError
from specgen.codegen.runtime._tensor import DTYPE_TABLE
from specgen.model import Param

Printer = Literal["real", "half", "bfloat", "integer", "complex"]  # how a sample prints a dtype's values


class HostType(NamedTuple):
    """How a sample holds and prints the elements of one dtype."""

    cpp: str  # the C++ host type
    acl: str  # the aclDataType enumerator
    numpy: str  # the NumPy dtype name
    printer: Printer


DTYPE_HOST: dict[str, HostType] = {
    d.name: HostType(d.host, d.enumerator, d.numpy or "", cast(Printer, d.printer)) for d in DTYPE_TABLE if d.host
}
# Bits per element of the dtypes a sample holds as raw bytes (no C++ host type).
RAW_BITS = {d.name: d.bits for d in DTYPE_TABLE if not d.host and d.name != "STRING"}
ACL_ENUM = {dtype: host.acl for dtype, host in DTYPE_HOST.items()}
# Sample and scalar dtype preference: the simplest host type the parameter allows.
PREFERRED_DTYPES = (
    "FLOAT",
    "FLOAT16",
    "INT32",
    "INT64",
    "DOUBLE",
    "BFLOAT16",
    "INT8",
    "UINT8",
    "BOOL",
    "INT16",
    "UINT16",
    "UINT32",
    "UINT64",
    "COMPLEX64",
    "COMPLEX128",
)
# The C types of plain values, and the range of values each dtype holds.
VALUE_DTYPES = {
    "int8_t": "INT8",
    "int16_t": "INT16",
    "int32_t": "INT32",
    "int": "INT32",
    "int64_t": "INT64",
    "uint8_t": "UINT8",
    "uint16_t": "UINT16",
    "uint32_t": "UINT32",
    "uint64_t": "UINT64",
    "size_t": "UINT64",
    "float": "FLOAT",
    "double": "DOUBLE",
}
# -2**63 is no C literal: signed integers' lowest value is left out.
VALUE_RANGE: dict[str, tuple[float, float]] = {
    d.name: (d.range[0] + 1 if d.printer == "integer" and d.range[0] < 0 else d.range[0], d.range[1])
    for d in DTYPE_TABLE
    if d.range
}
# The sample support's print function of each printer.
SAMPLE_PRINTERS = {
    "real": "PrintReal",
    "half": "PrintHalf",
    "bfloat": "PrintBfloat",
    "integer": "PrintInteger",
    "complex": "PrintComplex",
}
# The sample's aclCreateXxxArray and holder type of each array kind.
ARRAY_CREATORS = {
    "int_array": ("aclCreateIntArray", "IntArray"),
    "bool_array": ("aclCreateBoolArray", "BoolArray"),
    "float_array": ("aclCreateFloatArray", "FloatArray"),
}
# Python types of the wrapper arguments by role; tensors may be TensorDesc for validators.
ANNOTATIONS = {
    "tensor": "rt.ArrayLike",
    "tensor_list": "Sequence[rt.ArrayLike]",
    "scalar": "rt.ScalarLike",
    "scalar_list": "Sequence[rt.ScalarLike]",
    "int_array": "Sequence[int]",
    "bool_array": "Sequence[bool]",
    "float_array": "Sequence[float]",
    "string": "str",
    "dtype": "rt.DataType | str",
}
# Plain C values: the Python type of each C type's values.
VALUE_ANNOTATIONS = {"bool": "bool", "float": "float", "double": "float"}


def value_dtype(c_type: str) -> str:
    """The dtype whose values a plain C value holds (int64_t: INT64, bool: BOOL); "" if none."""
    base = c_type.replace("const", "").strip()
    return "BOOL" if base == "bool" else VALUE_DTYPES.get(base, "")


def annotation(role: str, c_type: str) -> str:
    """The Python type a wrapper takes for a parameter of `role` and C type `c_type`."""
    if role != "value":
        return ANNOTATIONS[role]
    base = c_type.replace("const", "").strip()
    return VALUE_ANNOTATIONS.get(base, "int")


CTYPES_VALUE = {
    "bool": "ctypes.c_bool",
    "int": "ctypes.c_int",
    "int8_t": "ctypes.c_int8",
    "int16_t": "ctypes.c_int16",
    "int32_t": "ctypes.c_int32",
    "int64_t": "ctypes.c_int64",
    "uint8_t": "ctypes.c_uint8",
    "uint16_t": "ctypes.c_uint16",
    "uint32_t": "ctypes.c_uint32",
    "uint64_t": "ctypes.c_uint64",
    "size_t": "ctypes.c_size_t",
    "float": "ctypes.c_float",
    "double": "ctypes.c_double",
    "aclDataType": "ctypes.c_int",
}


def ctypes_type(param: Param) -> str:
    """The ctypes argtype of a C parameter type."""
    stars = param.c_type.count("*")
    base = param.c_type.replace("const", "").replace("*", "").strip()
    if param.kind == "workspace_size" and stars:
        return "ctypes.POINTER(ctypes.c_uint64)"
    if param.kind == "executor" and stars == 2:
        return "ctypes.POINTER(ctypes.c_void_p)"
    if param.kind == "string":
        return "ctypes.c_char_p"
    if param.out_value:
        return f"ctypes.POINTER({CTYPES_VALUE[base]})"
    if stars:
        return "ctypes.c_void_p"
    if param.kind == "stream":
        return "ctypes.c_void_p"
    if base in CTYPES_VALUE:
        return CTYPES_VALUE[base]
    raise LowerError(param.line, f"parameter {param.name}: no ctypes mapping for C type {param.c_type!r}")


def dtype_numpy(dtype: str) -> str | None:
    host = DTYPE_HOST.get(dtype)
    return host.numpy if host else None
