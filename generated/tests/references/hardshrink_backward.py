"""NumPy reference of hardshrink_backward, used by tests/test_hardshrink_backward.py.

specgen created this file once and never overwrites it.
"""

import numpy as np


def hardshrink_backward(grad_output, self, lambd):
    """gradOutput where |self| > lambda (a negative lambda counts as 0), else 0."""
    grad_output, self = np.asarray(grad_output), np.asarray(self)
    threshold = max(float(lambd), 0.0)
    keep = np.abs(self.astype(np.float64)) > threshold
    result = np.where(keep, grad_output.astype(np.float64), 0.0)
    return np.broadcast_to(
        result, np.broadcast_shapes(grad_output.shape, self.shape)
    ).astype(grad_output.dtype)
