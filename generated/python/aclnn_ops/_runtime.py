"""Runtime support of the generated aclnn bindings: CANN libraries, device memory, tensors.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
Needs only NumPy (and ml_dtypes for BFLOAT16).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Self, TypeAlias

import numpy as np

from ._tensor import (
    ACL_DTYPES,
    ACL_FORMATS,
    DTYPES,
    ML_DTYPES,
    NUMPY_NAMES,
    AclnnError,
    DataType,
    Scalar,
    Tensor,
    TensorDesc,
    contiguous_strides,
    dtype_name,
    packed_bytes,
    scalar_dtype,
)

__all__ = ["DataType", "Scalar", "Tensor", "TensorDesc", "scalar_dtype"]

# A tensor argument of a wrapper: a NumPy array (ml_dtypes for BFLOAT16), or a Tensor giving
# its format; validators also take a TensorDesc. A tensor result is an array.
TensorArg: TypeAlias = "np.ndarray | Tensor"
ArrayLike: TypeAlias = "np.ndarray | Tensor | TensorDesc"
Array: TypeAlias = np.ndarray
# A dtype a caller chooses: its aclnn name ("INT8"), a DataType, or a NumPy dtype.
DtypeArg: TypeAlias = "str | DataType | np.dtype"
# An aclScalar argument: a Python number, or a Scalar giving its dtype.
ScalarLike: TypeAlias = "bool | int | float | Scalar"

ROOT_VARIABLES = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
LIBRARY_DIRS = ("lib64", "lib", ".")
RUNTIME_LIBRARIES = ("libascendcl.so", "libnnopbase.so")
OPERATOR_LIBRARIES = ("libopapi.so", "libopapi_*.so")

MEMCPY_HOST_TO_DEVICE = 1
MEMCPY_DEVICE_TO_HOST = 2
MALLOC_HUGE_FIRST = 0


class LibraryNotFoundError(OSError):
    """The CANN libraries are not where they were looked for."""


# ---------------------------------------------------------------- dtypes and tensor descriptions


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype of an aclnn dtype name; BFLOAT16 and the FLOAT8/FLOAT6 dtypes need the
    ml_dtypes package."""
    name = dtype_name(name)
    for numpy_name, acl_name in NUMPY_NAMES.items():
        if acl_name != name:
            continue
        if numpy_name not in ML_DTYPES:
            return np.dtype(numpy_name)
        try:
            import ml_dtypes
        except ImportError as exc:
            raise TypeError(f"{name} arrays need the ml_dtypes package") from exc
        return np.dtype(getattr(ml_dtypes, numpy_name))
    raise TypeError(f"aclnn dtype {name} has no NumPy equivalent")


def array_of(value: Any) -> Any:
    """The data of a tensor argument (a Tensor's array; a packed 4-bit Tensor stays one, as
    its bytes alone do not say their dtype)."""
    return value.array if isinstance(value, Tensor) and value.dtype is None else value


def broadcast_shape(*values: Any) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(*(shape_of(v) for v in values if v is not None)))


def shape_of(value: Any) -> tuple[int, ...]:
    return value.shape if isinstance(value, Tensor) else tuple(np.shape(value))


def dtype_of(value: object) -> str:
    if isinstance(value, Tensor) and value.dtype is not None:
        return value.dtype
    return dtype_name(np.asarray(array_of(value)).dtype)


def dtype_or_none(value: object) -> str | None:
    """The dtype of a tensor argument; None for a null one."""
    return None if value is None else dtype_of(value)


def element_is_true(values: Sequence[bool] | None, index: int) -> bool:
    """A bool array's element that asks for an output (`outputMask[0]为true`); an array too
    short to hold it asks for nothing, as the validator reads it."""
    return values is not None and index < len(values) and bool(values[index])


def empty(shape: Sequence[int], dtype: str) -> np.ndarray | Tensor:
    """A zeroed tensor: an array, or for a 4-bit dtype a Tensor of its packed bytes."""
    name = dtype_name(dtype)
    if DTYPES[name].bits == 4:
        return Tensor(np.zeros(packed_bytes(shape), dtype=np.uint8), dtype=name)
    return np.zeros(tuple(shape), dtype=numpy_dtype(name))


# ---------------------------------------------------------------- the libraries


def _candidate_dirs(path: str | os.PathLike[str] | None) -> list[Path]:
    roots = (
        [Path(path)]
        if path
        else [Path(os.environ[v]) for v in ROOT_VARIABLES if os.environ.get(v)]
    )
    return [root / sub for root in roots for sub in LIBRARY_DIRS]


class Library:
    """The CANN runtime and operator libraries, loaded once."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        searched = _candidate_dirs(path)
        directory = next(
            (
                d
                for d in searched
                if all((d / name).is_file() for name in RUNTIME_LIBRARIES)
            ),
            None,
        )
        if directory is None:
            where = (
                ", ".join(str(d) for d in searched)
                or "nowhere: set ASCEND_HOME_PATH or ASCEND_TOOLKIT_HOME"
            )
            raise LibraryNotFoundError(
                f"CANN libraries not found: looked for {', '.join(RUNTIME_LIBRARIES)} and "
                f"{' or '.join(OPERATOR_LIBRARIES)} in {where}; "
                "install the CANN toolkit or call aclnn_ops.load(path)"
            )
        self.directory = directory
        self._handles = [
            ctypes.CDLL(str(directory / name), mode=ctypes.RTLD_GLOBAL)
            for name in RUNTIME_LIBRARIES
        ]
        operators = sorted(
            {p for pattern in OPERATOR_LIBRARIES for p in directory.glob(pattern)}
        )
        if not operators:
            raise LibraryNotFoundError(
                f"no operator library ({' or '.join(OPERATOR_LIBRARIES)}) in {directory}"
            )
        self._handles += [
            ctypes.CDLL(str(p), mode=ctypes.RTLD_GLOBAL) for p in operators
        ]
        self._declare_runtime()

    def function(
        self, name: str, argtypes: Sequence[object], restype: object = ctypes.c_int
    ) -> Callable:
        """A C function of any of the libraries, with its argument and result types set."""
        for handle in self._handles:
            try:
                fn = getattr(handle, name)
            except AttributeError:
                continue
            fn.argtypes = list(argtypes)
            fn.restype = restype
            return fn
        raise LibraryNotFoundError(
            f"{name} is not in the CANN libraries of {self.directory}"
        )

    def _declare_runtime(self) -> None:
        i64p, vp, c_int = ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p, ctypes.c_int
        declare = self.function
        self.aclInit = declare("aclInit", [ctypes.c_char_p])
        self.aclFinalize = declare("aclFinalize", [])
        self.aclrtSetDevice = declare("aclrtSetDevice", [ctypes.c_int32])
        self.aclrtResetDevice = declare("aclrtResetDevice", [ctypes.c_int32])
        self.aclrtCreateStream = declare("aclrtCreateStream", [ctypes.POINTER(vp)])
        self.aclrtDestroyStream = declare("aclrtDestroyStream", [vp])
        self.aclrtSynchronizeStream = declare("aclrtSynchronizeStream", [vp])
        self.aclrtMalloc = declare(
            "aclrtMalloc", [ctypes.POINTER(vp), ctypes.c_size_t, c_int]
        )
        self.aclrtFree = declare("aclrtFree", [vp])
        self.aclrtMemcpy = declare(
            "aclrtMemcpy", [vp, ctypes.c_size_t, vp, ctypes.c_size_t, c_int]
        )
        self.aclCreateTensor = declare(
            "aclCreateTensor",
            [
                i64p,
                ctypes.c_uint64,
                c_int,
                i64p,
                ctypes.c_int64,
                c_int,
                i64p,
                ctypes.c_uint64,
                vp,
            ],
            vp,
        )
        self.aclDestroyTensor = declare("aclDestroyTensor", [vp])
        self.aclCreateScalar = declare("aclCreateScalar", [vp, c_int], vp)
        self.aclDestroyScalar = declare("aclDestroyScalar", [vp])
        self.aclCreateIntArray = declare(
            "aclCreateIntArray", [i64p, ctypes.c_uint64], vp
        )
        self.aclDestroyIntArray = declare("aclDestroyIntArray", [vp])
        self.aclCreateFloatArray = declare(
            "aclCreateFloatArray", [ctypes.POINTER(ctypes.c_float), ctypes.c_uint64], vp
        )
        self.aclDestroyFloatArray = declare("aclDestroyFloatArray", [vp])
        self.aclCreateBoolArray = declare(
            "aclCreateBoolArray", [ctypes.POINTER(ctypes.c_bool), ctypes.c_uint64], vp
        )
        self.aclDestroyBoolArray = declare("aclDestroyBoolArray", [vp])
        self.aclCreateTensorList = declare(
            "aclCreateTensorList", [ctypes.POINTER(vp), ctypes.c_uint64], vp
        )
        self.aclDestroyTensorList = declare("aclDestroyTensorList", [vp])
        self.aclCreateScalarList = declare(
            "aclCreateScalarList", [ctypes.POINTER(vp), ctypes.c_uint64], vp
        )
        self.aclDestroyScalarList = declare("aclDestroyScalarList", [vp])


_lock = threading.Lock()
_library: Library | None = None
_session: Session | None = None


def load(path: str | os.PathLike[str] | None = None) -> Library:
    """Load the CANN libraries (once): from `path` (a CANN root or library folder) or from
    $ASCEND_HOME_PATH / $ASCEND_TOOLKIT_HOME."""
    global _library
    with _lock:
        if _library is None or path is not None:
            _library = Library(path)
        return _library


def available() -> bool:
    """True when the CANN libraries can be loaded."""
    try:
        load()
    except (LibraryNotFoundError, OSError):
        return False
    return True


def _check(status: int, function: str) -> None:
    if status != 0:
        raise AclnnError(int(status), function)


class Session:
    """The process's device and stream, set up on first use and released at exit."""

    def __init__(self, library: Library, device: int) -> None:
        self.library = library
        self.device = device
        _check(library.aclInit(None), "aclInit")
        _check(library.aclrtSetDevice(device), "aclrtSetDevice")
        stream = ctypes.c_void_p()
        _check(library.aclrtCreateStream(ctypes.byref(stream)), "aclrtCreateStream")
        self.stream: ctypes.c_void_p | None = stream
        atexit.register(self.close)

    def close(self) -> None:
        if self.stream is not None:
            self.library.aclrtDestroyStream(self.stream)
            self.library.aclrtResetDevice(self.device)
            self.library.aclFinalize()
            self.stream = None


def session() -> Session:
    global _session
    library = load()
    with _lock:
        if _session is None or _session.library is not library:
            _session = Session(library, int(os.environ.get("ASCEND_DEVICE_ID", "0")))
        return _session


# ---------------------------------------------------------------- one call of an operator


# The execute function's parameters in the convention's order.
EXECUTE_ORDER = ("workspace", "workspace_size", "executor", "stream")


class Call:
    """Arguments of one two-phase call, released when the `with` block ends."""

    def __init__(self, function: str) -> None:
        self.function = function
        self._release: list[Callable[[], object]] = []
        self._outputs: list[tuple[ctypes.c_void_p, np.ndarray, np.ndarray]] = []
        self._keep: list[object] = []

    def __enter__(self) -> Self:
        self.session = session()
        self.library = self.session.library
        return self

    def __exit__(self, *exc_info: object) -> None:
        while self._release:
            self._release.pop()()

    def _device_copy(self, array: np.ndarray) -> ctypes.c_void_p:
        lib = self.library
        pointer = ctypes.c_void_p()
        _check(
            lib.aclrtMalloc(
                ctypes.byref(pointer), max(array.nbytes, 1), MALLOC_HUGE_FIRST
            ),
            "aclrtMalloc",
        )
        self._release.append(lambda: lib.aclrtFree(pointer))
        if array.nbytes:
            _check(
                lib.aclrtMemcpy(
                    pointer,
                    array.nbytes,
                    array.ctypes.data,
                    array.nbytes,
                    MEMCPY_HOST_TO_DEVICE,
                ),
                "aclrtMemcpy",
            )
        return pointer

    def tensor(
        self,
        value: object,
        *,
        output: bool = False,
        owned: bool = True,
        format: str = "ND",
    ) -> ctypes.c_void_p | None:
        """A device tensor holding `value` (an array in `format`, or a Tensor with its own); an
        output is copied back into the array after the call. A 0-d array stays 0-d. A
        tensor put in a list is not `owned`: aclDestroyTensorList destroys it."""
        if value is None:
            return None
        dims, dtype = (
            shape_of(value),
            dtype_of(value),
        )  # a packed Tensor's, not its bytes'
        if isinstance(value, Tensor):
            format, value = value.format, value.array
        if not isinstance(value, np.ndarray):
            value = np.asarray(value)
        host = np.asarray(value, order="C")  # ascontiguousarray would make 0-d (1,)
        pointer = self._device_copy(host)
        shape = (ctypes.c_int64 * max(len(dims), 1))(*dims)
        strides = (ctypes.c_int64 * max(len(dims), 1))(*contiguous_strides(dims))
        handle = self.library.aclCreateTensor(
            shape,
            len(dims),
            ACL_DTYPES[dtype],
            strides,
            0,
            ACL_FORMATS[format],
            shape,
            len(dims),
            pointer,
        )
        if not handle:
            raise AclnnError(
                -1, self.function, "aclCreateTensor returned a null tensor"
            )
        if owned:
            self._release.append(lambda: self.library.aclDestroyTensor(handle))
        if output:
            self._outputs.append((pointer, host, value))
        return ctypes.c_void_p(handle)

    def tensor_list(
        self,
        values: Iterable[object] | None,
        *,
        output: bool = False,
        format: str = "ND",
    ) -> ctypes.c_void_p | None:
        if values is None:
            return None
        handles = [
            self.tensor(v, output=output, owned=False, format=format) for v in values
        ]
        array = (ctypes.c_void_p * max(len(handles), 1))(
            *(h.value if h else None for h in handles)
        )
        handle = self.library.aclCreateTensorList(array, len(handles))
        self._release.append(lambda: self.library.aclDestroyTensorList(handle))
        return ctypes.c_void_p(handle)

    def scalar(
        self, value: object, dtype: str, *, owned: bool = True
    ) -> ctypes.c_void_p | None:
        if value is None:
            return None
        if isinstance(value, Scalar):
            value = value.value
        buffer = np.array(value, dtype=numpy_dtype(dtype))
        self._keep.append(buffer)
        handle = self.library.aclCreateScalar(buffer.ctypes.data, ACL_DTYPES[dtype])
        if not handle:
            raise AclnnError(
                -1,
                self.function,
                f"aclCreateScalar returned null for {value!r} as {dtype}",
            )
        if owned:
            self._release.append(lambda: self.library.aclDestroyScalar(handle))
        return ctypes.c_void_p(handle)

    def scalar_list(
        self, values: Iterable[object] | None, dtype: str
    ) -> ctypes.c_void_p | None:
        if values is None:
            return None
        handles = [self.scalar(v, dtype, owned=False) for v in values]
        array = (ctypes.c_void_p * max(len(handles), 1))(
            *(h.value if h else None for h in handles)
        )
        handle = self.library.aclCreateScalarList(array, len(handles))
        self._release.append(lambda: self.library.aclDestroyScalarList(handle))
        return ctypes.c_void_p(handle)

    def _array(
        self, values: Iterable[object] | None, ctype: Any, create: str, destroy: str
    ) -> ctypes.c_void_p | None:
        if values is None:
            return None
        items = list(values)
        data = (ctype * max(len(items), 1))(*items)
        self._keep.append(data)
        handle = getattr(self.library, create)(data, len(items))
        self._release.append(lambda: getattr(self.library, destroy)(handle))
        return ctypes.c_void_p(handle)

    def int_array(self, values: Iterable[int] | None) -> ctypes.c_void_p | None:
        return self._array(
            values, ctypes.c_int64, "aclCreateIntArray", "aclDestroyIntArray"
        )

    def float_array(self, values: Iterable[float] | None) -> ctypes.c_void_p | None:
        return self._array(
            values, ctypes.c_float, "aclCreateFloatArray", "aclDestroyFloatArray"
        )

    def bool_array(self, values: Iterable[bool] | None) -> ctypes.c_void_p | None:
        return self._array(
            values, ctypes.c_bool, "aclCreateBoolArray", "aclDestroyBoolArray"
        )

    @staticmethod
    def string(value: str | None) -> bytes | None:
        return None if value is None else str(value).encode("utf-8")

    @staticmethod
    def dtype(value: object) -> int:
        return ACL_DTYPES[dtype_name(value)]

    def run(
        self,
        first: tuple[str, Sequence[object]],
        second: tuple[str, Sequence[object]],
        args: list[object],
        order: Sequence[str] = EXECUTE_ORDER,
    ) -> None:
        """Both phases, the stream synchronised, outputs copied back to their arrays. `order`:
        the execute function's parameters as its document declares them."""
        lib = self.library
        get_workspace = lib.function(*first)
        execute = lib.function(*second)
        size, executor = ctypes.c_uint64(0), ctypes.c_void_p()
        _check(
            get_workspace(*args, ctypes.byref(size), ctypes.byref(executor)), first[0]
        )
        workspace = ctypes.c_void_p()
        if size.value:
            _check(
                lib.aclrtMalloc(ctypes.byref(workspace), size.value, MALLOC_HUGE_FIRST),
                "aclrtMalloc",
            )
            self._release.append(lambda: lib.aclrtFree(workspace))
        passed = {
            "workspace": workspace,
            "workspace_size": size.value,
            "executor": executor,
            "stream": self.session.stream,
        }
        _check(execute(*(passed[kind] for kind in order)), second[0])
        _check(
            lib.aclrtSynchronizeStream(self.session.stream), "aclrtSynchronizeStream"
        )
        self._copy_back()

    def run_single(
        self, function: tuple[str, Sequence[object]], args: list[object]
    ) -> None:
        """A single-phase API: one call (no workspace, executor or stream), outputs copied
        back to their arrays."""
        _check(self.library.function(*function)(*args), function[0])
        self._copy_back()

    def _copy_back(self) -> None:
        lib = self.library
        for pointer, host, target in self._outputs:
            if host.nbytes:
                _check(
                    lib.aclrtMemcpy(
                        host.ctypes.data,
                        host.nbytes,
                        pointer,
                        host.nbytes,
                        MEMCPY_DEVICE_TO_HOST,
                    ),
                    "aclrtMemcpy",
                )
            if target is not host:
                target[...] = host
