"""The views templates print: frozen dataclasses built whole by `specgen.codegen.lower`.

Each view holds values prepared and checked beforehand; its properties spell them as
generated code needs them, so that templates hold no tables and cut no strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from specgen.codegen.names import function_snake
from specgen.codegen.runtime._tensor import TensorDesc
from specgen.codegen.runtime._validate import Role, Rule
from specgen.codegen.statements import Statement
from specgen.codegen.typemap import ARRAY_CREATORS, CTYPES_VALUE, DTYPE_HOST, SAMPLE_PRINTERS, Printer, annotation
from specgen.model import EXECUTE_KINDS, Function, OperatorDoc, Param, TextBlock

# ---------------------------------------------------------------- the sample program

# The first phase's trailing out-parameters as the sample passes them.
_FIRST_PHASE_OUT = {"workspace_size": "&workspaceSize", "executor": "&executor"}
# How the sample passes each parameter of the execute function.
_EXECUTE_ARGUMENTS = {
    "workspace": "workspace.get()",
    "workspace_size": "workspaceSize",
    "executor": "executor",
    "stream": "runtime.stream",
}

# How the sample makes an argument.
SampleKind = Literal[
    "tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array", "float_array",
    "string", "value", "null",
]  # fmt: skip

# Sample argument kinds held by an object of the sample support, passed as `var.get()`.
_HELD_KINDS = ("tensor", "tensor_list", "scalar", "scalar_list", "int_array", "bool_array", "float_array")
# The conversion of half-precision host data: the sample spells floats and converts them.
_HALF_CONVERSIONS = {"half": "FloatToHalf", "bfloat": "FloatToBfloat"}


@dataclass(frozen=True)
class SampleArg:
    """One argument of the sample's GetWorkspaceSize call and how the sample makes it."""

    name: str  # C parameter name
    kind: SampleKind
    cpp_type: str = ""  # host element type (tensors, arrays, scalars, values)
    acl_dtype: str = ""  # ACL_FLOAT, ...
    acl_format: str = "ACL_FORMAT_ND"
    shape: tuple[int, ...] = ()
    values: tuple[str, ...] = ()  # C++ literals of the host data; empty: `data_count` zeros
    data_count: int = 0  # host elements of a tensor's data
    printer: Printer = "real"  # how values print
    prints: bool = False  # copied back and printed after the call (outputs)
    comment: str = ""  # what the document says it is (escaped by the template)
    items: tuple[SampleArg, ...] = ()  # the tensors of a tensor list
    dtype: str = ""  # the aclnn dtype name (tensors, scalars)
    format: str = "ND"  # the aclnn format name (tensors)
    value: object = None  # the Python value of a scalar, plain value or string
    elements: tuple = ()  # the Python values of an array or scalar list
    var: str = ""  # the sample's variable: the parameter name unless that collides (see names.sample_variables)

    @property
    def data(self) -> tuple[str, ...]:
        """C++ initialisers of the host data, converted for half-precision types."""
        convert = _HALF_CONVERSIONS.get(self.printer)
        return tuple(f"{convert}({v}f)" for v in self.values) if convert else self.values

    @property
    def literal(self) -> str:
        """The one C++ literal of a scalar or plain value; the text of a string."""
        return self.values[0]

    @property
    def print_function(self) -> str:
        return SAMPLE_PRINTERS[self.printer]

    @property
    def is_array(self) -> bool:
        """An int, bool or float array (made with `array_creator`)."""
        return self.kind in ARRAY_CREATORS

    @property
    def array_creator(self) -> str:
        """The aclCreateXxxArray function of an array argument."""
        return ARRAY_CREATORS[self.kind][0]

    @property
    def array_holder(self) -> str:
        """The sample support's type holding an array argument."""
        return ARRAY_CREATORS[self.kind][1]

    @property
    def held(self) -> bool:
        """Made and released by an object of the sample support (passed as `var.get()`)."""
        return self.kind in _HELD_KINDS

    @property
    def expression(self) -> str:
        """The argument as the sample's call passes it."""
        return f"{self.var}.get()" if self.held else "nullptr" if self.kind == "null" else self.var


@dataclass(frozen=True)
class SamplePlan:
    args: tuple[SampleArg, ...]
    needs_complex: bool = False
    needs_half: bool = False
    from_document: bool = False  # the call of the document's own sample, argument for argument
    line: int = 0  # that call's line in the document
    note: str = ""  # why the document's call could not be used, when it could not


# ---------------------------------------------------------------- the Python wrapper


@dataclass(frozen=True)
class ParamCode:
    """A parameter as the header, the binding and the wrapper spell it."""

    param: Param
    py_name: str
    ctype: str  # ctypes argtype expression

    @property
    def name(self) -> str:
        return self.param.name


@dataclass(frozen=True)
class Allocation:
    """How the wrapper allocates an output left out: the model's shape and dtype rules, as
    plain data for aclnn_ops._shapes.allocate; or, when they derive nothing, why not."""

    shape: dict | None = None
    dtype: dict | None = None
    refusal: str = ""  # the TypeError's message when the output must be passed
    # a shape derived but a dtype the caller chooses (a quant output that lists several and
    # relates them to no input): the keyword that names it (`y_out_dtype="INT8"`)
    dtype_keyword: str = ""
    # the format: the followed input's (`follows`, sent by default in `follows_format`) when
    # the output allows it among several `formats`
    follows: str = ""
    follows_format: str = "ND"
    formats: tuple[str, ...] = ()


@dataclass(frozen=True)
class WrapperArg:
    """How the Python wrapper takes and passes one parameter."""

    code: ParamCode
    role: Role
    keyword: bool  # keyword-only with a None default (optional inputs and outputs)
    output: bool  # returned; allocated by the wrapper when not given, unless optional
    allocation: Allocation | None = None  # outputs: how the wrapper allocates one left out
    scalar_like: str = ""  # a scalar: the C name of the tensor whose dtype it takes
    scalar_like_py: str = ""  # and that tensor's Python name
    format: str = "ND"  # a tensor: the format a plain array is sent in
    # an optional output: the Python tests of the other arguments under which a checked null
    # rule asks for it (`当inputG为true时，sumDy…是空指针`: ("bool(input_g)",))
    asked_when: tuple[str, ...] = ()
    by_address = False  # see OutValue

    @property
    def py_name(self) -> str:
        return self.code.py_name

    @property
    def name(self) -> str:
        return self.code.name

    @property
    def is_tensor(self) -> bool:
        """A tensor or a tensor list."""
        return self.role in ("tensor", "tensor_list")

    @property
    def is_scalar(self) -> bool:
        """An aclScalar or a scalar list (its dtype chosen by `rt.scalar_dtype`)."""
        return self.role in ("scalar", "scalar_list")

    @property
    def allocated(self) -> bool:
        """An output the wrapper allocates when not given (an optional one is left null)."""
        return self.output and not self.code.param.optional

    @property
    def may_allocate(self) -> bool:
        """An output the wrapper makes when not given: always, or when the call asks for it."""
        return self.allocated or bool(self.asked_when)

    @property
    def direction(self) -> str:
        """As the validator sees it: an output the document lists as an input is an output."""
        return "out" if self.output and self.code.param.direction == "in" else self.code.param.direction

    @property
    def written(self) -> bool:
        """The library may write it (an output, an in-out or a non-const tensor): copied back."""
        non_const = self.is_tensor and not self.code.param.c_type.startswith("const")
        return self.direction in ("out", "inout") or non_const

    @property
    def annotation(self) -> str:
        """The Python type the validator takes (names of aclnn_ops._runtime as `rt`)."""
        base = annotation(self.role, self.code.param.c_type)
        return f"{base} | None" if self.keyword else base

    @property
    def run_annotation(self) -> str:
        """The Python type the wrapper takes: tensors as arrays or Tensor, not descriptions."""
        return self.annotation.replace("rt.ArrayLike", "rt.TensorArg")

    @property
    def return_annotation(self) -> str:
        """The type the wrapper returns for an output: arrays; None for an optional one not given."""
        base = "rt.Array" if self.role == "tensor" else "Sequence[rt.TensorArg]"
        return f"{base} | None" if self.code.param.optional else base


@dataclass(frozen=True)
class OutValue:
    """A plain value a function writes through a pointer (`uint64_t* weightTensorSize`): the
    sample declares and prints it, the wrapper returns it."""

    code: ParamCode
    var: str  # the sample's variable

    by_address = True  # passed by address and returned (a WrapperArg is passed as given)

    @property
    def name(self) -> str:
        return self.code.name

    @property
    def py_name(self) -> str:
        return self.code.py_name

    @property
    def c_type(self) -> str:
        """The C type of the value (the parameter's, without its pointer)."""
        return self.code.param.c_type.removesuffix("*")

    @property
    def ctypes_type(self) -> str:
        """The ctypes type of the value, the binding's buffer for it."""
        return CTYPES_VALUE[self.c_type]

    @property
    def py_type(self) -> str:
        return "float" if self.c_type in ("float", "double") else "bool" if self.c_type == "bool" else "int"

    @property
    def print_call(self) -> str:
        """The sample's statement printing it after the call."""
        spelled = {"float": ("%.9g", "double"), "bool": ("%d", "int")}
        unsigned = self.c_type.startswith("u") or self.c_type == "size_t"
        fmt, cast = spelled.get(self.py_type, ("%llu", "unsigned long long") if unsigned else ("%lld", "long long"))
        return f'std::printf("{self.name} = {fmt}\\n", static_cast<{cast}>({self.var}));'


# ---------------------------------------------------------------- test-case arguments
# Each argument of a generated test case, and `literal`: the plain data the generated test
# file holds for it, which aclnn_ops._testing.build turns back into an argument.


@dataclass(frozen=True)
class NullArg:
    """A null pointer (None)."""

    @property
    def literal(self) -> tuple:
        return ("none",)

    def host_value(self) -> object:
        return None


@dataclass(frozen=True)
class ArrayTensor:
    """A tensor the test builds as a NumPy array of deterministic data (ND, contiguous)."""

    shape: tuple[int, ...]
    dtype: str

    @property
    def format(self) -> str:
        return "ND"

    @property
    def strides(self) -> tuple[int, ...] | None:
        return None

    @property
    def literal(self) -> tuple:
        return ("array", self.shape, self.dtype)

    def host_value(self) -> object:
        return TensorDesc(self.shape, self.dtype)


@dataclass(frozen=True)
class DescTensor:
    """A tensor only described (TensorDesc): a format, dtype, size or strides an array cannot carry."""

    shape: tuple[int, ...]
    dtype: str
    strides: tuple[int, ...] | None
    format: str

    @property
    def literal(self) -> tuple:
        return ("desc", self.shape, self.dtype, self.strides, self.format)

    def host_value(self) -> object:
        return TensorDesc(self.shape, self.dtype, self.strides, self.format)


TensorArg = ArrayTensor | DescTensor


@dataclass(frozen=True)
class TensorListArg:
    """A list of tensors."""

    items: tuple[TensorArg, ...]

    @property
    def literal(self) -> tuple:
        return ("list", tuple(item.literal for item in self.items))

    def host_value(self) -> object:
        return [item.host_value() for item in self.items]


@dataclass(frozen=True)
class ValueArg:
    """A Python value: a number, a string, or a tuple of them (arrays, scalar lists)."""

    value: object

    @property
    def literal(self) -> tuple:
        return ("value", self.value)

    def host_value(self) -> object:
        return self.value


CaseArg = NullArg | ArrayTensor | DescTensor | TensorListArg | ValueArg


# ---------------------------------------------------------------- validator rules and test cases


@dataclass(frozen=True)
class Case:
    """Arguments (by C name) for one generated test, and what must happen."""

    id: str
    args: dict[str, CaseArg]
    code: int = 0  # 0: must pass
    condition: str = ""
    rule: str = ""  # the id of the rule that must reject it
    library: bool = True  # also run against the library (False: needs a TensorDesc)
    skip: str = ""
    product: str | None = None  # the product the case runs with (an unsupported one, or a remark's)

    @property
    def literal_args(self) -> dict[str, tuple]:
        """The arguments as the generated test file holds them."""
        return {name: arg.literal for name, arg in self.args.items()}


@dataclass(frozen=True)
class FunctionCases:
    params: tuple[dict, ...]  # ParamSpec keyword arguments
    rules: tuple[Rule, ...]
    valid: Case
    cases: tuple[Case, ...] = field(default_factory=tuple)
    unsupported_products: tuple[str, ...] = ()
    unmet: tuple[str, ...] = ()  # rules a derived sample call breaks (no valid call was found)
    statements: tuple[Statement, ...] = ()  # each parameter constraint and the rule covering it

    @property
    def unchecked(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if not r.host)

    @property
    def product_only(self) -> tuple[Rule, ...]:
        """The checked rules a per-product remark holds on some products only."""
        return tuple(r for r in self.rules if r.host and r.products)


# ---------------------------------------------------------------- the operator as code


@dataclass(frozen=True)
class FunctionCode:
    function: Function
    source: str  # the document it comes from
    params: tuple[ParamCode, ...]
    execute_params: tuple[ParamCode, ...]
    sample: SamplePlan
    wrapper: tuple[WrapperArg, ...]
    cases: FunctionCases  # validator rules and test cases (specgen.codegen.cases)
    notes: TextBlock | None = None  # the operator's constraints section (约束说明), named in cases
    summary: TextBlock | None = None  # the function section (功能说明): its formulas' shape relations, named in cases
    single_phase: bool = False  # one call, no GetWorkspaceSize/execute pair
    out_values: tuple[OutValue, ...] = ()  # plain values written through pointers, returned

    @property
    def name(self) -> str:
        return self.function.name

    @property
    def checks_product_first(self) -> bool:
        """The wrapper refuses an unsupported product before it allocates an output (whose
        per-product rules might otherwise refuse it less clearly)."""
        return bool(self.cases.unsupported_products) and any(a.may_allocate for a in self.wrapper)

    @property
    def call_name(self) -> str:
        """The function the arguments are passed to (and checked for): the first phase, or a
        single-phase API itself."""
        return self.function.name if self.single_phase else self.function.workspace_name

    @property
    def call_arguments(self) -> tuple[str, ...]:
        """The sample's arguments of the (first-phase or single) call, in prototype order."""
        made = {a.name: a.expression for a in self.sample.args}
        made |= {o.name: "&" + o.var for o in self.out_values}
        made |= {p.name: _FIRST_PHASE_OUT[p.kind] for p in self.function.params if p.kind in _FIRST_PHASE_OUT}
        return tuple(made[p.name] for p in self.function.params)

    @property
    def call_items(self) -> tuple[WrapperArg | OutValue, ...]:
        """What the binding passes to the (first-phase or single) call, in prototype order; the
        runtime adds the workspace size and executor of a first phase."""
        items: dict[str, WrapperArg | OutValue] = {a.name: a for a in self.wrapper}
        items |= {o.name: o for o in self.out_values}
        return tuple(items[p.name] for p in self.function.params if p.name in items)

    @property
    def execute_arguments(self) -> tuple[str, ...]:
        """The sample's arguments of the execute call, in the documented order."""
        return tuple(_EXECUTE_ARGUMENTS[p.param.kind] for p in self.execute_params)

    @property
    def execute_order(self) -> tuple[str, ...] | None:
        """The execute parameters' kinds when not in the convention's order (else None)."""
        kinds = tuple(p.param.kind for p in self.execute_params)
        return None if self.single_phase or kinds == EXECUTE_KINDS else kinds

    @property
    def dtype_group(self) -> dict[str, tuple[str, ...]]:
        """Input and output tensors with their documented dtypes (the tests vary them together)."""
        return {a.name: tuple(a.code.param.dtypes) for a in self.wrapper if a.is_tensor}

    @property
    def test_dtypes(self) -> tuple[str, ...]:
        """The dtypes the reference test runs with: those of the first tensor input."""
        first = next((a for a in self.wrapper if a.role == "tensor" and not a.output), None)
        return tuple(d for d in (first.code.param.dtypes if first else ()) if d in DTYPE_HOST) or ("FLOAT",)

    @property
    def snake(self) -> str:
        """The Python name of the wrapper (`validate_<snake>` is its validator): never a keyword."""
        return function_snake(self.function.name)

    @property
    def run_name(self) -> str:
        """The sample's function running this one: `RunAdd` for aclnnAdd."""
        return "Run" + self.function.name.removeprefix("aclnn")

    @property
    def outputs(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if a.output or a.code.param.direction == "inout")

    @property
    def positional(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if not a.keyword)

    @property
    def keywords(self) -> tuple[WrapperArg, ...]:
        return tuple(a for a in self.wrapper if a.keyword)

    @property
    def result_names(self) -> tuple[str, ...]:
        """The Python names of what the wrapper returns: its outputs, then its out-values."""
        return tuple(a.py_name for a in self.outputs) + tuple(o.py_name for o in self.out_values)

    @property
    def returned(self) -> tuple[str, ...]:
        """The wrapper's return values, in order: its outputs, then its out-values."""
        return tuple(f"rt.array_of({a.py_name})" for a in self.outputs) + tuple(o.py_name for o in self.out_values)

    @property
    def returns(self) -> str:
        """The wrapper's return annotation: its outputs, then its out-values."""
        # an allocated output is always there; an optional one may be None
        outputs = [a.return_annotation for a in self.outputs] + [o.py_type for o in self.out_values]
        if not outputs:
            return "None"
        return outputs[0] if len(outputs) == 1 else f"tuple[{', '.join(outputs)}]"


@dataclass(frozen=True)
class OperatorCode:
    snake: str
    docs: tuple[OperatorDoc, ...]
    sources: tuple[str, ...]  # document paths as generated files show them
    functions: tuple[FunctionCode, ...]

    @property
    def doc(self) -> OperatorDoc:
        return self.docs[0]

    @property
    def source(self) -> str:
        return ", ".join(self.sources)

    @property
    def header(self) -> str:
        return f"aclnnop/aclnn_{self.snake}.h"

    @property
    def guard(self) -> str:
        return f"ACLNN_{self.snake.upper()}_H_"

    @property
    def public_names(self) -> list[str]:
        """The binding module's `__all__`, sorted as isort does (constants, classes, functions)."""
        names = ["SPECS"] + [n for f in self.functions for n in (f.snake, "validate_" + f.snake)]
        if self.primary.snake != "validate":
            names.append("validate")
        return sorted(set(names), key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))

    @property
    def binding_imports(self) -> tuple[str, ...]:
        """The imports the binding module's annotations need."""
        spelled = " ".join(
            [a.annotation for f in self.functions for a in f.wrapper] + [f.returns for f in self.functions]
        )
        return ("from collections.abc import Sequence",) if "Sequence[" in spelled else ()

    @property
    def allocates(self) -> bool:
        """Some wrapper allocates an output by the model's rules (the module imports _shapes)."""
        return any(a.may_allocate and a.allocation and a.allocation.shape for f in self.functions for a in f.wrapper)

    @property
    def checks_products(self) -> bool:
        """Some wrapper refuses an unsupported product before it allocates an output."""
        return any(f.checks_product_first for f in self.functions)

    @property
    def primary(self) -> FunctionCode:
        """The function named like the module, else the first one."""
        return next((f for f in self.functions if f.snake == self.snake), self.functions[0])

    @property
    def sample_needs_half(self) -> bool:
        """Some sample converts half-precision data (the program includes <cstring>)."""
        return any(f.sample.needs_half for f in self.functions)

    @property
    def sample_needs_complex(self) -> bool:
        """Some sample holds complex data (the program includes <complex>)."""
        return any(f.sample.needs_complex for f in self.functions)


@dataclass(frozen=True)
class RenamedOperatorCode(OperatorCode):
    """An operator as templates see it when its files take another stem than its header
    (`layout.file_stem`): `snake` names the files and the Python module, `header` and `guard`
    keep the CANN name."""

    cann_snake: str = ""

    @property
    def header(self) -> str:
        return f"aclnnop/aclnn_{self.cann_snake}.h"

    @property
    def guard(self) -> str:
        return f"ACLNN_{self.cann_snake.upper()}_H_"

    @property
    def primary(self) -> FunctionCode:
        return next((f for f in self.functions if f.snake == self.cann_snake), self.functions[0])
