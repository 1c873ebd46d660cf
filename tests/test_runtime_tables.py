"""The dtype record table (the generated package's runtime carries it; specgen reads the same
table) checked against truths it was not derived from: the aclDataType enum of the headers
the samples compile against, and NumPy's own dtypes."""

import re
from typing import get_args

import numpy as np
import pytest

from specgen import vocab
from specgen.codegen.runtime import _tensor, _validate
from specgen.codegen.runtime._tensor import DTYPE_TABLE
from specgen.codegen.typemap import VALUE_RANGE, Printer
from specgen.model import Direction
from tests.conftest import ROOT

ACL_BASE = ROOT / "tests" / "standin" / "include" / "acl" / "acl_base.h"


def _enum(name: str) -> dict[str, int]:
    body = re.search(r"typedef enum \{([^}]*)\} " + name + ";", ACL_BASE.read_text()).group(1)
    return {k: int(v) for k, v in re.findall(r"(\w+) = (-?\d+)", body) if int(v) >= 0}


def test_every_dtype_is_the_headers_enumerator_and_value():
    assert {d.enumerator: d.acl for d in DTYPE_TABLE} == _enum("aclDataType")


def test_numpy_names_are_numpys_with_the_same_width():
    for d in DTYPE_TABLE:
        if d.numpy and d.numpy not in _tensor.ML_DTYPES:
            assert np.dtype(d.numpy).itemsize * 8 == d.bits, d.name


def test_ml_dtypes_names_hold_an_element_as_aclnn_does():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for d in DTYPE_TABLE:
        if d.numpy in _tensor.ML_DTYPES:
            assert np.dtype(getattr(ml_dtypes, d.numpy)).itemsize * 8 == d.bits, d.name


def test_integer_ranges_are_numpys_but_the_lowest_value():
    for d in DTYPE_TABLE:
        if d.printer == "integer" and d.name != "BOOL":
            info = np.iinfo(d.numpy)
            assert d.range == (info.min, info.max)
            assert VALUE_RANGE[d.name] == (info.min + (1 if info.min else 0), info.max)  # -2**63: no C literal


def test_vocab_reads_the_runtimes_tables():
    assert vocab.DTYPES is _tensor.ACL_DTYPES and vocab.FORMATS is _tensor.ACL_FORMATS
    assert {f"ACL_FORMAT_{k}" if k != "FRACTAL_Z_3D" else "ACL_FRACTAL_Z_3D": v for k, v in vocab.FORMATS.items()} == (
        _enum("aclFormat")
    )


def test_printers_and_directions_are_the_vocabularies_specgen_types():
    assert {d.printer for d in DTYPE_TABLE if d.host} <= set(get_args(Printer))
    assert get_args(_validate.Direction) == get_args(Direction)
