"""An output's shape stated as equations in the constraints section: real bullets, read."""

from __future__ import annotations

from specgen.codegen.runtime import _shapes
from specgen.parse.classify.shape_equations import equations_reading

# aclnnDynamicMxQuant (ops-nn), 约束说明
MX_QUANT = [
    "- 关于x、mxscaleOut的shape约束说明如下：",
    "  - rank(mxscaleOut) = rank(x) + 1。",
    "  - axis_change = axis if axis >= 0 else axis + rank(x)。",
    "  - mxscaleOut.shape[axis_change] = (ceil(x.shape[axis] / blocksize) + 2 - 1) / 2。",
    "  - mxscaleOut.shape[-1] = 2。",
    "  - 其他维度与输入x一致。",
]
# aclnnDynamicMxQuantWithDualAxis (ops-nn), 约束说明
DUAL_AXIS = [
    "- 关于x、mxscale1Out、mxscale2Out的shape约束说明如下：",
    "   - rank(mxscale1Out) = rank(x) + 1。",
    "   - rank(mxscale2Out) = rank(x) + 1。",
    "   - mxscale1Out.shape[-2] = (ceil(x.shape[-1] / 32) + 2 - 1) / 2。",
    "   - mxscale2Out.shape[-3] = (ceil(x.shape[-2] / 32) + 2 - 1) / 2。",
    "   - mxscale1Out.shape[-1] = 2。",
    "   - mxscale2Out.shape[-1] = 2。",
    "   - 其他维度与输入x一致。",
]
NAMES = ("x", "axis", "blocksize", "mxscaleOut", "mxscale1Out", "mxscale2Out", "scale1Out")


def _shape(reading, shapes, values=None):
    return _shapes.output_shape({"kind": reading[0], "dims": list(reading[2])}, shapes, values or {})


def test_an_axis_the_section_names_by_an_alias_is_replaced_and_the_added_axis_comes_last():
    reading = equations_reading(MX_QUANT, "mxscaleOut", ("x",), NAMES)
    assert reading == (
        "explicit",
        (),
        (
            "*x.shape[:axis % rank(x)]",
            "(ceil(x.shape[axis] / blocksize) + 2 - 1) // 2",
            "*x.shape[axis % rank(x) + 1:]",
            "2",
        ),
    )
    # the document's call: x (1, 4), axis -1, blocksize 32 -> mxscaleOut (1, 1, 2)
    assert _shape(reading, {"x": (1, 4)}, {"axis": -1, "blocksize": 32}) == (1, 1, 2)
    assert _shape(reading, {"x": (64, 4)}, {"axis": 0, "blocksize": 32}) == (1, 4, 2)


def test_a_negative_axis_counts_from_the_added_axis():
    # the document's example: x [B, M, N] -> mxscale2 [B, (ceil(M/32)+2-1)/2, N, 2]
    reading = equations_reading(DUAL_AXIS, "mxscale2Out", ("x",), NAMES)
    assert _shape(reading, {"x": (3, 100, 7)}) == (3, 2, 7, 2)
    reading = equations_reading(DUAL_AXIS, "mxscale1Out", ("x",), NAMES)
    assert _shape(reading, {"x": (3, 100, 7)}) == (3, 100, 1, 2)


def test_the_formulas_names_name_the_outputs():
    # aclnnDynamicBlockMxQuant writes scale1 for its output scale1Out
    lines = [s.replace("mxscale1Out", "scale1") for s in DUAL_AXIS]
    assert equations_reading(lines, "scale1Out", ("x",), NAMES) == equations_reading(
        DUAL_AXIS, "mxscale1Out", ("x",), NAMES
    )


def test_equations_that_leave_dimensions_unsaid_are_not_read():
    without_rest = [s for s in MX_QUANT if "其他维度" not in s]
    assert equations_reading(without_rest, "mxscaleOut", ("x",), NAMES) is None
    without_added = [s for s in MX_QUANT if "shape[-1]" not in s]
    assert equations_reading(without_added, "mxscaleOut", ("x",), NAMES) is None  # the added axis's size
    # aclnnSwigluMxQuantWithDualAxis: a condition before the equation, no rank: not this output's plain rule
    lines = ["  - 当groupIndexOptional存在时，mxscale2Out.shape[0] = floor(M/64) + G。", "  - 其他维度与输入x一致。"]
    assert equations_reading(lines, "mxscale2Out", ("x",), NAMES) is None
    assert equations_reading(MX_QUANT, "yOut", ("x",), NAMES) is None  # another output
    # equations under a conditional head hold in that situation only
    headed = ["- 当axis为-1时：", *(f"  {s}" for s in MX_QUANT[1:])]
    assert equations_reading(headed, "mxscaleOut", ("x",), NAMES) is None


def test_an_axis_that_keeps_the_inputs_size_and_capitalised_rounding_are_read():
    # aclnnMxToBlockMxQuant (ops-nn), 约束说明
    lines = [
        "- 关于输出scale2的shape约束说明如下：",
        "  - rank(scale2) = rank(x) + 1。",
        "  - scale2.shape[-3] = ((Ceil(x.shape[-2] / 32) + 2 - 1) / 2) * 2 / 2。",
        "  - scale2.shape[-2] = x.shape[-1]。",
        "  - scale2.shape[-1] = 2。",
        "  - 其它维度和输入x保持一致。",
    ]
    reading = equations_reading(lines, "scale2", ("x",), ("x", "scale2"))
    assert _shape(reading, {"x": (3, 128, 6)}) == (3, 2, 6, 2)
