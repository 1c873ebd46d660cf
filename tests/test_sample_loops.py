"""Lists a sample builds in a counted loop: `for (int i = 0; i < size; i++)` whose bound is
known where the list is read is followed iteration by iteration (the CANN samples'
CreateAclTensorList helper); other loops leave the list unresolved with the reason."""

from __future__ import annotations

from pathlib import Path

from specgen.parse import parse_file
from tests.test_sample_call import HELPER, call

LIST_HELPER = (
    HELPER
    + """
int CreateAclTensorList(const std::vector<std::vector<int64_t>>& shapes, void** deviceAddr,
                        aclDataType dataType, aclTensorList** tensor) {
  int size = shapes.size();
  aclTensor* tensors[size];
  for (int i = 0; i < size; i++) {
    std::vector<float> hostData(GetShapeSize(shapes[i]), 1);
    int ret = CreateAclTensor(hostData, shapes[i], deviceAddr + i, dataType, tensors + i);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
  }
  *tensor = aclCreateTensorList(tensors, size);
  return ACL_SUCCESS;
}
"""
)
KINDS = ("tensor_list", "workspace_size", "executor")


def _list_arg(body: str):
    found = call(body, {"aclnnDemo": KINDS}, LIST_HELPER)
    return found["aclnnDemo"].args[0]


def test_grouped_matmul_sample_lists_come_out_element_by_element(corpus: Path):
    """legacy GroupedMatmul.md builds x, weight and y with the helper above (line 230)."""
    path = corpus / "docs" / "legacy" / "GroupedMatmul.md"
    text = path.read_text(encoding="utf-8")
    assert "std::vector<std::vector<int64_t>> xShape = {{1, 16}, {4, 32}};" in text
    assert "ret = CreateAclTensorList(xShape, xDeviceAddr, aclDataType::ACL_FLOAT16, &x);" in text
    function = parse_file(path).function("aclnnGroupedMatmul")
    assert function is not None and function.sample_call is not None
    by_text = {a.text: a for a in function.sample_call.args}
    x, weight, y = by_text["x"], by_text["weight"], by_text["y"]
    assert [(i.shape, i.dtype) for i in x.items] == [((1, 16), "FLOAT16"), ((4, 32), "FLOAT16")]
    assert [i.shape for i in weight.items] == [(16, 24), (32, 16)]  # weightShape= {{16, 24}, {32, 16}}
    assert [i.shape for i in y.items] == [(1, 24), (4, 16)]  # yShape = {{1, 24}, {4, 16}}
    assert x.resolved and weight.resolved and y.resolved


def test_a_literal_bound_is_unrolled_whatever_writes_the_elements():
    body = """\
  std::vector<std::vector<int64_t>> shapes = {{2, 1}, {3, 4}, {5, 6, 7}};
  std::vector<float> data = {1};
  void* addr[3];
  aclTensor* viaOffset[3];
  aclTensor* viaAddress[3];
  std::vector<aclTensor*> viaPush = {};
  for (int i = 0; i < 3; ++i) {
    CreateAclTensor(data, shapes[i], addr + i, aclDataType::ACL_FLOAT, viaOffset + i);
    CreateAclTensor(data, shapes[i], &addr[i], aclDataType::ACL_FLOAT16, &viaAddress[i]);
  }
  for (int64_t k = 2; k >= 0; k -= 2) {
    viaPush.push_back(aclCreateTensor(shapes[k].data(), shapes[k].size(), aclDataType::ACL_INT32, nullptr, 0,
                                      aclFormat::ACL_FORMAT_ND, shapes[k].data(), shapes[k].size(), addr[k]));
  }
  aclTensorList* a = aclCreateTensorList(viaOffset, 3);
  aclTensorList* b = aclCreateTensorList(viaAddress, 3);
  aclTensorList* c = aclCreateTensorList(viaPush.data(), viaPush.size());
  aclnnDemoGetWorkspaceSize(a, b, c, &workspaceSize, &executor);"""
    kinds = ("tensor_list", "tensor_list", "tensor_list", "workspace_size", "executor")
    a, b, c, *_ = call(body, {"aclnnDemo": kinds})["aclnnDemo"].args
    assert [(i.shape, i.dtype) for i in a.items] == [((2, 1), "FLOAT"), ((3, 4), "FLOAT"), ((5, 6, 7), "FLOAT")]
    assert [i.shape for i in b.items] == [(2, 1), (3, 4), (5, 6, 7)]
    assert {i.dtype for i in b.items} == {"FLOAT16"}
    assert [(i.shape, i.dtype) for i in c.items] == [((5, 6, 7), "INT32"), ((2, 1), "INT32")]  # k = 2, then 0


def test_the_helper_bound_comes_from_the_callers_vector():
    x = _list_arg("""\
  std::vector<std::vector<int64_t>> xShape = {{1, 16}, {4, 32}};
  void* xDeviceAddr[2];
  aclTensorList* x = nullptr;
  auto ret = CreateAclTensorList(xShape, xDeviceAddr, aclDataType::ACL_BF16, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  aclnnDemoGetWorkspaceSize(x, &workspaceSize, &executor);""")
    assert [(i.shape, i.dtype) for i in x.items] == [((1, 16), "BFLOAT16"), ((4, 32), "BFLOAT16")]


def test_a_loop_beyond_the_cap_stays_unresolved():
    x = _list_arg("""\
  std::vector<std::vector<int64_t>> shapes(65, std::vector<int64_t>{2});
  void* addr[65];
  aclTensorList* x = nullptr;
  CreateAclTensorList(shapes, addr, aclDataType::ACL_FLOAT, &x);
  aclnnDemoGetWorkspaceSize(x, &workspaceSize, &executor);""")
    assert not x.resolved and not x.items
    assert "more than 64 iterations are not followed" in x.unresolved


def test_a_loop_reading_what_it_writes_stays_unresolved():
    """An iteration would read the list as the one before left it: not followed."""
    body = """\
  std::vector<int64_t> dims = {1};
  for (int i = 0; i < 3; i++) {
    dims.push_back(dims[i] * 2);
  }
  aclIntArray* d = aclCreateIntArray(dims.data(), dims.size());
  aclnnDemoGetWorkspaceSize(d, &workspaceSize, &executor);"""
    d, *_ = call(body, {"aclnnDemo": ("int_array", "workspace_size", "executor")})["aclnnDemo"].args
    assert d.elements is None
    assert "'dims' is carried from one iteration to the next" in d.unresolved


def test_one_size_shapes_in_a_list_of_shapes_stay_lists(corpus: Path):
    """`{{24}, {16}}` declared as a vector of vectors holds two one-size shapes, not the
    numbers 24 and 16 (the braces around a number are dropped only where a number is stored)."""
    path = corpus / "docs" / "legacy" / "GroupedMatmul.md"
    assert "std::vector<std::vector<int64_t>> biasShape = {{24}, {16}};" in path.read_text(encoding="utf-8")
    function = parse_file(path).function("aclnnGroupedMatmul")
    assert function is not None and function.sample_call is not None
    bias = next(a for a in function.sample_call.args if a.text == "bias")
    assert [(i.shape, i.dtype) for i in bias.items] == [((24,), "FLOAT16"), ((16,), "FLOAT16")]
    assert function.sample_call.resolved


def test_braces_around_a_stored_number_are_still_dropped():
    body = """\
  std::vector<std::vector<int64_t>> shapes = {{2}, {3}};
  std::vector<int64_t> sizes = {{4}};
  void* addr[2];
  aclTensorList* x = nullptr;
  CreateAclTensorList(shapes, addr, aclDataType::ACL_FLOAT, &x);
  aclIntArray* s = aclCreateIntArray(sizes.data(), sizes.size());
  aclnnDemoGetWorkspaceSize(x, s, &workspaceSize, &executor);"""
    kinds = ("tensor_list", "int_array", "workspace_size", "executor")
    x, s, *_ = call(body, {"aclnnDemo": kinds}, LIST_HELPER)["aclnnDemo"].args
    assert [i.shape for i in x.items] == [(2,), (3,)]
    assert s.elements == (4,)  # as GroupedMatmulV3's `std::vector<int64_t> groupListShape = {{2}};`


def test_a_vector_declared_without_a_value_starts_empty(corpus: Path):
    """ops-nn GRU: `std::vector<std::vector<int64_t>> rOutListShape;` then, with isTraining
    true and ldScale = numLayers * dScale = 1, one push_back of {timeStep, batchSize,
    hiddenSize} = {2, 3, 5} in `for (int64_t i = 0; i < ldScale; i++)`."""
    path = corpus / "docs" / "ops-nn" / "rnn" / "gru" / "docs" / "aclnnGRU.md"
    text = path.read_text(encoding="utf-8")
    for line in (
        "std::vector<std::vector<int64_t>> rOutListShape;",
        "rOutListShape.push_back({timeStep, batchSize, hiddenSize});",
        "int64_t timeStep = 2;",
        "int64_t batchSize = 3;",
        "int64_t hiddenSize = 5;",
    ):
        assert line in text
    function = parse_file(path).function("aclnnGRU")
    assert function is not None and function.sample_call is not None
    r_out = next(a for a in function.sample_call.args if a.text == "isTraining ? rOut : nullptr")
    assert [(i.shape, i.dtype) for i in r_out.items] == [((2, 3, 5), "FLOAT")]


def test_only_a_vector_itself_starts_empty():
    body = """\
  std::vector<int64_t> dims;
  std::vector<int64_t>* elsewhere;
  dims.push_back(3);
  aclIntArray* d = aclCreateIntArray(dims.data(), dims.size());
  aclnnDemoGetWorkspaceSize(d, elsewhere, &workspaceSize, &executor);"""
    d, elsewhere, *_ = call(body, {"aclnnDemo": ("int_array", "int_array", "workspace_size", "executor")})[
        "aclnnDemo"
    ].args
    assert d.elements == (3,)
    assert "'elsewhere' is declared without a value" in elsewhere.unresolved
