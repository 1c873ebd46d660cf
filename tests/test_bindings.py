"""The generated Python package end to end against the stand-in, checked against NumPy."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import GENERATED


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def test_hardshrink_backward_broadcasts(aclnn_ops):
    op = aclnn_ops.hardshrink_backward
    grad = np.array([1.0, -2.0, 3.0], dtype=np.float32)  # broadcast over the rows of self
    x = np.array([[0.1, -0.8, 0.5], [2.0, 0.3, -0.6]], dtype=np.float32)
    out = op.hardshrink_backward(grad, x, 0.5)
    assert out.shape == (2, 3) and out.dtype == np.float32
    np.testing.assert_array_equal(out, np.where(np.abs(x) > 0.5, np.broadcast_to(grad, (2, 3)), 0.0))
    # lambda < 0 counts as 0: every non-zero input passes its gradient through.
    np.testing.assert_array_equal(op.hardshrink_backward(grad, x, -1.0), np.broadcast_to(grad, (2, 3)))


def test_tanh_backward_float16(aclnn_ops):
    grad = np.linspace(-2, 2, 12, dtype=np.float16).reshape(3, 4)
    y = np.linspace(-0.9, 0.9, 12, dtype=np.float16).reshape(3, 4)
    out = aclnn_ops.tanh_backward.tanh_backward(grad, y)
    assert out.dtype == np.float16
    expected = (grad.astype(np.float64) * (1 - y.astype(np.float64) ** 2)).astype(np.float16)
    np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("reduction", [0, 1, 2])
def test_soft_margin_loss_backward_reductions(aclnn_ops, reduction):
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype=np.float32)
    y = np.array([[1.0, -1.0, 1.0]], dtype=np.float32)  # broadcast target
    grad = np.array(0.5, dtype=np.float32)  # a 0-d gradient broadcasts too
    out = aclnn_ops.soft_margin_loss_backward.soft_margin_loss_backward(grad, x, y, reduction)
    expected = -y * grad * sigmoid(-y * x)
    if reduction == 1:
        expected = expected / x.size
    np.testing.assert_allclose(out, np.broadcast_to(expected, (2, 3)), rtol=1e-6)


def test_an_error_status_from_the_library(aclnn_ops):
    op = aclnn_ops.soft_margin_loss_backward
    x = np.zeros((2, 2), dtype=np.float32)
    with pytest.raises(aclnn_ops.AclnnError) as info:
        op._run_soft_margin_loss_backward(x, x, x, 5, np.zeros((2, 2), dtype=np.float32))
    assert info.value.status == 161002
    assert info.value.function == "aclnnSoftMarginLossBackwardGetWorkspaceSize"
    # The wrapper stops at the validator first, with the documented condition.
    with pytest.raises(aclnn_ops.AclnnError) as info:
        op.soft_margin_loss_backward(x, x, x, 5)
    assert info.value.status == 161002 and "取0时为'none'" in info.value.condition
    assert "reduction is 5" in str(info.value)


def test_null_pointer_status(aclnn_ops):
    x = np.zeros((2, 2), dtype=np.float32)
    with pytest.raises(aclnn_ops.AclnnError) as info:
        aclnn_ops.tanh_backward._run_tanh_backward(x, None, x)
    assert info.value.status == 161001
    with pytest.raises(aclnn_ops.AclnnError) as info:
        aclnn_ops.tanh_backward.validate(x, None, grad_input=x)
    assert info.value.status == 161001 and "output is None" in str(info.value)


def test_validator_applies_product_rules(aclnn_ops):
    desc = aclnn_ops.TensorDesc((2, 3), "BFLOAT16")
    validate = aclnn_ops.tanh_backward.validate
    validate(desc, desc, grad_input=desc, product="910b")  # BFLOAT16 only on Atlas A2
    with pytest.raises(aclnn_ops.AclnnError, match="allows FLOAT, FLOAT16, DOUBLE on product 910"):
        validate(desc, desc, grad_input=desc, product="910")


def test_missing_library_names_what_was_looked_for(tmp_path):
    code = (
        "import aclnn_ops\n"
        "try:\n    aclnn_ops.load()\nexcept aclnn_ops.LibraryNotFoundError as e:\n    print(e)\n"
        "print(aclnn_ops.available())\n"
    )
    env = {"ASCEND_HOME_PATH": str(tmp_path), "PYTHONPATH": str(GENERATED / "python")}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert "libascendcl.so" in result.stdout and str(tmp_path / "lib64") in result.stdout
    assert result.stdout.strip().endswith("False")


def test_generated_tests_pass_against_the_standin(standin):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(GENERATED / "tests")],
        capture_output=True,
        text=True,
        env={"ASCEND_HOME_PATH": str(standin), "PATH": "/usr/bin:/bin"},
        check=False,
        cwd=GENERATED,
    )
    assert result.returncode == 0, result.stdout[-4000:]
    assert "skipped" not in result.stdout.splitlines()[-1], result.stdout[-2000:]


def test_generated_tests_skip_the_library_part_without_one(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(GENERATED / "tests")],
        capture_output=True,
        text=True,
        env={"ASCEND_HOME_PATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        check=False,
        cwd=GENERATED,
    )
    assert result.returncode == 0, result.stdout[-4000:]
    summary = result.stdout.splitlines()[-1]
    assert "passed" in summary and "skipped" in summary
    assert "no CANN library found" in result.stdout
