"""Static Python of the generated `aclnn_ops` package, copied into it as-is.

These modules are real Python, linted and type-checked with specgen, and used by specgen
itself: `_validate` decides at generation time which documented rules a document's own
sample call would break (such rules are not enforced). They import nothing from specgen
and need NumPy only when given NumPy arrays.
"""
