"""The generated package's static runtime cannot import specgen, so the few facts it shares
with specgen's own tables must agree with them."""

from specgen import vocab
from specgen.codegen.lower import DTYPE_HOST
from specgen.codegen.runtime import _tensor


def test_numpy_names_agree_with_the_sample_dtype_table():
    assert {numpy: dtype for dtype, (_, _, numpy, _) in DTYPE_HOST.items()} == _tensor.NUMPY_NAMES


def test_dtype_and_format_tables_are_the_runtimes():
    assert vocab.DTYPES is _tensor.ACL_DTYPES and vocab.FORMATS is _tensor.ACL_FORMATS
    assert all(acl == f"ACL_{'BF16' if d == 'BFLOAT16' else d}" for d, (_, acl, _, _) in DTYPE_HOST.items())
