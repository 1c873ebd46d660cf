"""Keyword arguments of `specgen.model.Param` for the parameter kinds the readers' unit tests
build by hand: `Param(name="x", **TENSOR)`."""

TENSOR = {"c_type": "const aclTensor*", "kind": "tensor", "direction": "in", "line": 1}
OUT = {"c_type": "aclTensor*", "kind": "tensor", "direction": "out", "line": 1}
INT_ARRAY = {"c_type": "const aclIntArray*", "kind": "int_array", "direction": "in", "line": 1}
BOOL = {"c_type": "bool", "kind": "bool", "direction": "in", "line": 1}
INT = {"c_type": "int64_t", "kind": "int", "direction": "in", "line": 1}
FLOAT = {"c_type": "float", "kind": "float", "direction": "in", "line": 1}
