"""The generated wrappers' arguments typed from the C types: refused before any call when
wrong, scalars made with the dtype the document gives, tensors in the documented format."""

from __future__ import annotations

import numpy as np
import pytest

from specgen.codegen.runtime import _validate as validator
from specgen.codegen.runtime._tensor import Scalar, Tensor, describe, scalar_dtype
from specgen.codegen.typemap import annotation, value_dtype

X = np.zeros((2, 2), dtype=np.float32)


@pytest.mark.parametrize(
    "bad, problem",
    [
        ("x", "not a number"),
        (2**70, "outside INT64"),
        (1.5, "not an integer"),
        (2.0, "not an integer"),  # ctypes would refuse a float for an int64_t
    ],
)
def test_an_int64_t_takes_ints_only(aclnn_ops, bad, problem):
    # aclnnSoftMarginLossBackward(gradOutput, self, target, int64_t reduction, gradInput)
    with pytest.raises(TypeError, match=problem):
        aclnn_ops.soft_margin_loss_backward.validate(X, X, X, bad, grad_input=X)
    aclnn_ops.soft_margin_loss_backward.validate(X, X, X, np.int64(1), grad_input=X)
    # A bool is an int, in Python as in C: aclnnDequantBias's own call passes `true` for its
    # int64_t outputDtype, and a validator must accept the document's call.
    aclnn_ops.soft_margin_loss_backward.validate(X, X, X, True, grad_input=X)


def test_a_scalar_takes_numbers(aclnn_ops):
    validate = aclnn_ops.hardshrink_backward.validate
    validate(X, X, 1, grad_input=X)  # an int for a FLOAT-only aclScalar becomes FLOAT 1.0
    for bad in ("x", 1j, [0.5]):
        with pytest.raises(TypeError, match="lambd"):
            validate(X, X, bad, grad_input=X)


def test_unknown_product_is_refused_with_the_known_ones(aclnn_ops):
    validate = aclnn_ops.soft_margin_loss_backward.validate
    with pytest.raises(ValueError, match="'Atlas910'.*910b"):
        validate(X, X, X, 1, grad_input=X, product="Atlas910")
    validate(X, X, X, 1, grad_input=X, product="910B")  # ids in any case
    # the wrapper takes it too, before it allocates an output or calls the library
    wrapper = aclnn_ops.soft_margin_loss_backward.soft_margin_loss_backward
    with pytest.raises(ValueError, match="'Atlas910'.*910b"):
        wrapper(X, X, X, 1, product="Atlas910")
    with pytest.raises(ValueError, match="'Atlas910'.*910b"):
        wrapper(X, X, X, 1, grad_input=X, product="Atlas910")
    assert wrapper(X, X, X, 1, product="910b").shape == X.shape


def test_missing_required_argument_by_name(aclnn_ops):
    with pytest.raises(TypeError, match="missing required argument.*reduction, gradInput"):
        aclnn_ops.validate("aclnnSoftMarginLossBackward", gradOutput=X, self=X, target=X)


def test_bool_and_array_parameters():
    spec = validator.Spec(
        "aclnnDemoGetWorkspaceSize",
        params=(
            validator.ParamSpec("keepdim", "value", "in", value_dtype="BOOL"),
            validator.ParamSpec("dims", "int_array", "in"),
            validator.ParamSpec("dtype", "dtype", "in"),
        ),
        rules=(),
    )
    validator.check(spec, {"keepdim": False, "dims": (0, -1), "dtype": "FLOAT16"})
    validator.check(spec, {"keepdim": 1, "dims": np.array([0, 1]), "dtype": np.float32})
    for args in ({"keepdim": 0.7}, {"dims": (0, 1.5)}, {"dims": "01"}, {"dtype": 3}):
        with pytest.raises(TypeError):
            validator.check(spec, args)


@pytest.mark.parametrize(
    "value, allowed, like, dtype",
    [
        (3, ("FLOAT", "INT64", "INT32"), None, "INT64"),  # an int: INT64 where allowed
        (3, ("FLOAT", "INT32"), None, "INT32"),
        (3, ("FLOAT", "DOUBLE"), None, "FLOAT"),  # no integer dtype: a float one
        (11.1, ("INT64", "DOUBLE", "FLOAT"), None, "FLOAT"),
        (11.1, ("DOUBLE", "INT64"), None, "DOUBLE"),
        (True, ("BOOL", "FLOAT"), None, "BOOL"),
        (3, ("INT64",), None, "INT64"),
        (3.0, ("INT64",), None, "INT64"),  # the one dtype the document allows
        (3, ("FLOAT16", "FLOAT", "INT64"), "FLOAT16", "FLOAT16"),  # same dtype as a tensor
        (Scalar(3, "int32"), ("FLOAT",), None, "INT32"),  # given explicitly
        ([1, 2.5], ("FLOAT", "INT64"), None, "FLOAT"),  # a list: its widest kind
        (None, ("FLOAT",), None, ""),  # a null scalar
    ],
)
def test_scalar_dtype(value, allowed, like, dtype):
    assert scalar_dtype(value, allowed, like) == dtype


def test_scalar_dtype_refuses_what_no_allowed_dtype_holds():
    with pytest.raises(TypeError, match="INT32, INT64"):
        scalar_dtype(2.5, ("INT32", "INT64"))


def test_tensor_format_and_0d():
    assert describe(Tensor(X, "nchw")).format == "NCHW"
    assert describe(X, "NCL").format == "NCL"  # a plain array in the documented format
    assert describe(np.float32(1.0)).shape == ()
    with pytest.raises(ValueError, match="unknown tensor format"):
        Tensor(X, "NCWH")


def test_a_4_bit_tensor_is_given_by_its_packed_bytes():
    from specgen.codegen.runtime import _runtime as rt
    from specgen.codegen.runtime._shapes import allocate

    packed = Tensor(np.zeros((3, 8), np.uint8), dtype="float4_e2m1")  # two elements a byte
    assert (describe(packed).shape, describe(packed).dtype) == ((3, 16), "FLOAT4_E2M1")
    assert (rt.shape_of(packed), rt.dtype_of(packed)) == ((3, 16), "FLOAT4_E2M1")
    assert rt.array_of(packed) is packed  # returned as a Tensor: its bytes alone do not say the dtype
    with pytest.raises(TypeError, match="uint8 array"):
        Tensor(np.zeros((3, 8), np.float32), dtype="INT4")
    with pytest.raises(ValueError, match="4-bit"):
        Tensor(np.zeros((3, 8), np.uint8), dtype="INT8")
    # aclnnDynamicMxQuant: yOut in x's shape, of the dtype dstType=40 names
    y = allocate(
        "yOut",
        {"kind": "same", "params": ["x"]},
        {"kind": "given", "params": ["dstType"]},
        {"x": np.zeros((2, 6), np.float16), "dstType": 40},
    )
    assert (y.array.shape, y.array.dtype, describe(y).shape, y.dtype) == ((2, 3), np.uint8, (2, 6), "FLOAT4_E2M1")


@pytest.mark.parametrize(
    "role, c_type, expected",
    [
        ("value", "int64_t", "int"),
        ("value", "int8_t", "int"),
        ("value", "bool", "bool"),
        ("value", "double", "float"),
        ("value", "float", "float"),
        ("int_array", "const aclIntArray*", "Sequence[int]"),
        ("bool_array", "const aclBoolArray*", "Sequence[bool]"),
        ("float_array", "const aclFloatArray*", "Sequence[float]"),
        ("string", "const char*", "str"),
        ("dtype", "aclDataType", "rt.DataType | str"),
        ("scalar", "const aclScalar*", "rt.ScalarLike"),
    ],
)
def test_annotations_follow_the_c_type(role, c_type, expected):
    assert annotation(role, c_type) == expected


def test_value_dtypes():
    assert [value_dtype(t) for t in ("int64_t", "bool", "double", "uint8_t", "aclDataType")] == [
        "INT64",
        "BOOL",
        "DOUBLE",
        "UINT8",
        "",
    ]


def test_a_dtype_name_is_an_aclnn_dtype_or_a_clear_type_error():
    from specgen.codegen.runtime._tensor import dtype_name

    assert [dtype_name(d) for d in ("INT8", "int8", "float32", np.float16)] == ["INT8", "INT8", "FLOAT", "FLOAT16"]
    with pytest.raises(TypeError, match="'NOPE' has no aclnn equivalent"):
        dtype_name("NOPE")  # NumPy's own message ("data type not understood") said nothing of aclnn


def test_product_ids_are_the_vocabulary():
    from specgen.codegen.runtime._shapes import PRODUCTS
    from specgen.vocab import PRODUCT_NAMES

    assert set(PRODUCTS) == set(PRODUCT_NAMES)


def test_generated_tests_skip_without_ml_dtypes(monkeypatch):
    from specgen.codegen.runtime import _testing

    monkeypatch.setitem(__import__("sys").modules, "ml_dtypes", None)  # import ml_dtypes fails
    with pytest.raises(pytest.skip.Exception, match="ml_dtypes"):
        _testing.sample_array("x", (2,), "BFLOAT16")
    assert _testing.sample_array("x", (2,), "FLOAT").dtype == np.float32


def test_an_output_the_document_lists_as_an_input_is_returned():
    # tril's document lists its `aclTensor* out` as 输入; here the seed's gradInput, renamed.
    from specgen.codegen.lower import operator_code
    from specgen.parse import parse_document
    from tests.conftest import SPECS

    seed = (SPECS / "aclnnTanhBackward.md").read_text(encoding="utf-8")
    text = seed.replace("gradInput", "yOut").replace("  - yOut：", "  - yOut（aclTensor*，计算输入）：")
    doc = parse_document("aclnnTanhBackward.md", text.encode("utf-8"))
    assert doc.functions[0].param("yOut").direction == "in"
    (code,) = operator_code(doc, doc.source).functions
    (out,) = code.outputs
    assert (out.name, out.keyword, out.direction, out.written) == ("yOut", True, "out", True)
    # a writable input that is no output by name (BatchNorm's runningMean) is copied back only
    assert [a.output for a in code.wrapper] == [False, False, True]


def test_a_validator_needs_every_required_argument(aclnn_ops):
    validate = aclnn_ops.soft_margin_loss_backward.validate
    with pytest.raises(TypeError, match="grad_input"):
        validate(X, X, X, 1)  # an output left out is no null pointer: the C call has one
    with pytest.raises(aclnn_ops.AclnnError) as info:
        validate(X, X, X, 1, grad_input=None)  # None is
    assert info.value.status == 161001
