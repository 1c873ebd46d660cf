"""NumPy reference of tanh_backward, used by tests/test_tanh_backward.py.

specgen created this file once and never overwrites it.
"""

import numpy as np


def tanh_backward(grad_output, output):
    """gradOutput * (1 - output^2)."""
    grad = np.asarray(grad_output).astype(np.float64)
    out = np.asarray(output).astype(np.float64)
    return (grad * (1.0 - out * out)).astype(np.asarray(grad_output).dtype)
