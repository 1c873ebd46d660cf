"""Helpers of the generated tests: arguments from plain data, comparisons, expected statuses.

Part of the generated `aclnn_ops` package (copied from specgen as-is; do not edit there).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping

import numpy as np

from ._runtime import numpy_dtype
from ._tensor import AclnnError, TensorDesc

TOLERANCE = {"FLOAT16": 2e-3, "BFLOAT16": 2e-2, "FLOAT": 1e-5, "DOUBLE": 1e-12}


def sample_array(name: str, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Deterministic small values, exact in every floating dtype."""
    size = int(np.prod(shape, dtype=np.int64))
    i = np.arange(size) + zlib.crc32(name.encode()) % 11
    if dtype == "BOOL":
        data: np.ndarray = i % 2
    elif dtype.startswith("UINT"):
        data = i % 7
    elif dtype.startswith("INT"):
        data = (i * 5) % 9 - 4
    else:
        data = ((i * 7) % 13 - 6) * 0.25
    return data.astype(_numpy_dtype_or_skip(dtype)).reshape(shape)


def _numpy_dtype_or_skip(dtype: str) -> np.dtype:
    """The NumPy dtype of `dtype`; the test is skipped when it needs a package not installed
    (ml_dtypes for BFLOAT16)."""
    try:
        return numpy_dtype(dtype)
    except TypeError as exc:
        if isinstance(exc.__cause__, ImportError):
            import pytest

            pytest.skip(str(exc))
        raise


def build(args: Mapping[str, tuple]) -> dict[str, object]:
    """Arguments (by C name) from their plain-data description."""
    return {name: _value(name, spec) for name, spec in args.items()}


def _value(name: str, spec: tuple) -> object:
    kind = spec[0]
    if kind == "none":
        return None
    if kind == "array":
        return sample_array(name, tuple(spec[1]), spec[2])
    if kind == "desc":
        return TensorDesc(tuple(spec[1]), spec[2], spec[3], spec[4])
    if kind == "list":
        return [_value(f"{name}{k}", item) for k, item in enumerate(spec[1])]
    return spec[1]


def uses_desc(args: Mapping[str, tuple]) -> bool:
    return any(spec[0] == "desc" for spec in args.values())


def with_dtype(
    args: Mapping[str, tuple], dtype: str, group: Mapping[str, Iterable[str]]
) -> dict[str, tuple]:
    """The same arguments with every tensor that allows `dtype` made of it."""
    try:
        numpy_dtype(dtype)
    except TypeError as exc:
        import pytest

        pytest.skip(str(exc))
    out = dict(args)
    for name, allowed in group.items():
        spec = out.get(name)
        if spec and spec[0] == "array" and dtype in allowed:
            out[name] = ("array", spec[1], dtype)
    return out


def keywords(
    values: Mapping[str, object], names: Mapping[str, str], outputs: Iterable[str] = ()
) -> dict[str, object]:
    """Python keyword arguments from values by C name; `outputs` are left for the wrapper."""
    skip = set(outputs)
    return {
        names[c_name]: value for c_name, value in values.items() if c_name not in skip
    }


def assert_close(got: object, want: object, dtype: str) -> None:
    got_items = got if isinstance(got, tuple) else (got,)
    want_items = want if isinstance(want, tuple) else (want,)
    assert len(got_items) == len(want_items)
    tolerance = TOLERANCE.get(dtype, 1e-6)
    for g, w in zip(got_items, want_items, strict=True):
        g = np.asarray(g)
        assert g.shape == np.shape(w), f"shape {g.shape} != reference {np.shape(w)}"
        np.testing.assert_allclose(
            g.astype(np.float64),
            np.asarray(w, dtype=np.float64),
            rtol=tolerance,
            atol=tolerance,
        )


def expect_status(
    call: Callable[..., object],
    kwargs: Mapping[str, object],
    status: int,
    rule: str | None,
) -> None:
    """`call` must fail with `status`; a validator (`rule` given) must also name that rule.

    The library may apply another documented rule first, so against it only the status counts.
    """
    try:
        call(**kwargs)
    except AclnnError as exc:
        assert exc.status == status, f"status {exc.status} ({exc}), expected {status}"
        if rule is not None:
            assert exc.rule == rule, (
                f"rejected by rule {exc.rule} ({exc}), expected rule {rule}"
            )
            assert exc.condition, f"no documented condition in {exc}"
        return
    raise AssertionError(
        f"accepted; expected status {status}" + (f" from rule {rule}" if rule else "")
    )
