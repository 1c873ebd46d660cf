"""NumPy reference of soft_margin_loss_backward, used by tests/test_soft_margin_loss_backward.py.

specgen created this file once and never overwrites it.
"""

import numpy as np


def soft_margin_loss_backward(grad_output, self, target, reduction):
    """-target * gradOutput * sigmoid(-target * self); divided by the element count for mean (1)."""
    dtype = np.asarray(self).dtype
    grad, x, y = (np.asarray(a).astype(np.float64) for a in (grad_output, self, target))
    z = -y * x
    result = -y * grad / (1.0 + np.exp(-z))
    result = np.broadcast_to(result, np.broadcast_shapes(grad.shape, x.shape, y.shape))
    if reduction == 1:
        result = result / result.size
    return result.astype(dtype)
