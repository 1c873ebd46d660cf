"""Identifiers of generated code: every name taken from a document is checked here, and the
names derived from it (snake_case, Python parameters, sample variables) are made here."""

from __future__ import annotations

import keyword
import re

from specgen.codegen.errors import LowerError
from specgen.model import OperatorDoc

_C_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
_HEADER = re.compile(r"^aclnnop/(?:level2/)?aclnn_([a-z0-9_]+)\.h$")
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
C_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
    char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
    co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
    extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
    nullptr operator or or_eq private protected public register reinterpret_cast requires return
    short signed sizeof static static_assert static_cast struct switch template this thread_local
    throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
    xor xor_eq main""".split()
)
# Names the generated Python wrapper itself uses; a parameter may not shadow them.
RESERVED = frozenset(
    {"rt", "np", "ctypes", "runtime", "workspace", "stream", "product", "status", "check", "shape", "call"}
)
# Names the binding module imports (templates/binding.py.jinja): a function wrapper of such a
# name would replace them for the whole module (`def check` breaks every validator).
MODULE_NAMES = frozenset({"annotations", "ctypes", "rt", "check", "Sequence", "ParamSpec", "Rule", "Spec"})
# Names the generated sample program uses besides its parameters' variables (and `acl*`).
SAMPLE_RESERVED = frozenset(
    """runtime workspaceSize executor workspace itemShape itemData Runtime DeviceMemory DeviceTensor DeviceTensorList
    Scalar ScalarList IntArray BoolArray FloatArray Check ElementCount ContiguousStrides HalfToFloat
    FloatToHalf BfloatToFloat FloatToBfloat PrintHalf PrintBfloat PrintReal PrintInteger PrintComplex
    std main""".split()
)
# A sample variable `x` comes with `xShape`, `xData`, `xValue` and `xValues`.
_SAMPLE_SUFFIXES = ("", "Shape", "Data", "Value", "Values")
MAX_NAME = 100  # an operator's snake name becomes file names; real ones are under 50 characters


def snake_case(name: str) -> str:
    """`aclnnSoftMarginLossBackward` -> `soft_margin_loss_backward`, `gradOutput` -> `grad_output`."""
    core = name[5:] if name.startswith("aclnn") else name
    return _WORD_BREAK.sub("_", core).lower()


def c_identifier(name: str, line: int, what: str) -> str:
    """`name` if generated C, C++ and Python code may use it as an identifier."""
    if not _C_IDENT.match(name):
        raise LowerError(
            line, f"{what} {name!r} is not an identifier: expected letters, digits and '_', not starting with a digit"
        )
    if name in C_KEYWORDS:
        raise LowerError(line, f"{what} {name!r} is a C/C++ keyword: expected a name a C++ header can declare")
    return name


def python_name(c_name: str, taken: set[str]) -> str:
    """A snake_case Python parameter name, not a keyword or a name the wrapper uses."""
    name = snake_case(c_name)
    if keyword.iskeyword(name) or name in RESERVED or not name.isidentifier():
        name += "_"
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def function_snake(function_name: str) -> str:
    """The Python name of a function's wrapper (`validate_<snake>` is its validator): never a
    keyword, nor a name the binding module imports."""
    name = snake_case(function_name)
    return name + "_" if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name in MODULE_NAMES else name


def operator_snake(doc: OperatorDoc) -> str:
    """The header stem: from the sample's `#include "aclnnop/aclnn_<snake>.h"` when it has one
    that matches the operator, else derived from the first function's name."""
    derived = [snake_case(f.name.replace("Inplace", "")) for f in (*doc.functions, *doc.single_phase)]
    includes = [m.group(1) for s in doc.samples for inc in s.includes if (m := _HEADER.match(inc))]
    for stem in includes:
        if stem in derived:
            return stem
    if len(set(includes)) == 1:
        return includes[0]
    return derived[0] if derived else snake_case(doc.name)


def checked_operator_snake(doc: OperatorDoc) -> str:
    """`operator_snake(doc)` if it can name the operator's files."""
    snake = operator_snake(doc)
    if not _SNAKE.match(snake):
        raise LowerError(1, f"operator name {snake!r} (from the sample's include) is not a valid file name")
    if len(snake) > MAX_NAME:
        raise LowerError(
            1, f"operator name {snake[:40]}... has {len(snake)} characters: expected at most {MAX_NAME} in a file name"
        )
    return snake


def sample_variables(names: list[str]) -> dict[str, str]:
    """Each parameter's variable in the sample: its own name, with `_` appended while it or one
    of its derived names (`xShape`, ...) would collide with another's or with the program's own."""
    taken: set[str] = set()
    out = {}
    for name in names:
        var = name
        while var in SAMPLE_RESERVED or var.startswith("acl") or any(var + s in taken for s in _SAMPLE_SUFFIXES):
            var += "_"
        taken.update(var + s for s in _SAMPLE_SUFFIXES)
        out[name] = var
    return out
