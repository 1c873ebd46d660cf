"""Matrix products the phrase readers do not take, and the cases where a matmul rule holds.

- Packed operands: an operand that may be a 32-bit tensor holding eight 4-bit values is
  multiplied as the values, not as the tensor (see `unpacked`).
"""

from __future__ import annotations

from collections.abc import Sequence

from specgen.model import Param, ShapeRule

# A 4-bit dtype and the 32-bit one documents pack eight of it in: aclnnQuantMatmulV3
# `数据类型为INT32时，每个INT32数据存放8个INT4数据，…shape形如（k，n // 8）`; aclnnWeightQuantBatchMatmulV2
# `若weight数据类型为INT32/FLOAT时，必须配合aclnnConvertWeightToINT4Pack接口完成从INT32/FLOAT到紧密排布的
# INT4/FLOAT4_E2M1的转换` (its sample: a FLOAT weight of (k, n / 8) for y (m, n))
PACKINGS = (("INT4", "INT32"), ("FLOAT4_E2M1", "FLOAT"))


def unpacked(rule: ShapeRule, params: Sequence[Param]) -> ShapeRule:
    """A matrix product whose operand may hold packed 4-bit values multiplies the unpacked
    shapes, not the tensors': the rule holds, is checked and allocates by, only where no such
    operand is of the packing dtype (an operand allowing the 4-bit dtype and its packing alike)."""
    if rule.kind != "matmul" or (rule.when and len(rule.when) % 4):
        return rule
    allowed = {q.name: set(q.dtypes) for q in params}
    when = [
        (name, "dtype", packing, "false")
        for name in rule.params
        for bits, packing in PACKINGS
        if {bits, packing} <= allowed.get(name, set())
    ]
    if not when:
        return rule
    return rule.model_copy(update={"when": (*rule.when, *(x for w in when for x in w))})
