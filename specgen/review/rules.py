"""The registry of `specgen lint` rules (`Rule`), and the parse diagnostics every command
prints under a rule's name. A module of its own, light to import: every command prints
diagnostics, and only `lint` needs the linter.
"""

from __future__ import annotations

from collections.abc import Mapping

from specgen.diagnostics import ERROR, INFO, WARNING, Catalogued, Code, Severity

SEVERITY_ORDER: dict[str, int] = {INFO: 0, WARNING: 1, ERROR: 2}


class Rule(Catalogued):
    """Every lint rule, its default severity and what it finds. A finding may carry a lower
    severity of its own (`Finding.level`) where the README says so, e.g. a qualifier the C
    caller cannot see. The value is the rule id as printed and configured."""

    severity: Severity

    # against the C headers
    HEADER_FUNCTION_MISSING = "header-function-missing", ERROR, "a documented function is declared in no header"
    HEADER_FUNCTION_UNDOCUMENTED = (
        "header-function-undocumented",
        WARNING,
        "a function of the operator's header is not documented",
    )
    HEADER_PARAM_COUNT = (
        "header-param-count",
        ERROR,
        "the document and the header have different numbers of parameters",
    )
    HEADER_PARAM_NAME = "header-param-name", WARNING, "a parameter's name differs from the header"
    HEADER_PARAM_TYPE = "header-param-type", ERROR, "a parameter's C type differs from the header"
    HEADER_PARAM_CONST = "header-param-const", ERROR, "a parameter's constness differs from the header"
    HEADER_PARAM_ORDER = "header-param-order", ERROR, "the parameters are in another order than in the header"
    # inside the document
    DOC_NO_API = "doc-no-api", INFO, "not an operator page: no API declared (a placeholder, a guide)"
    DOC_PROTOTYPE_SYNTAX = "doc-prototype-syntax", ERROR, "a prototype is not valid C"
    DOC_PROTOTYPE_MISMATCH = "doc-prototype-mismatch", WARNING, "two copies of a prototype differ"
    DOC_CONFLICT_MARKER = "doc-conflict-marker", ERROR, "a merge-conflict marker is left in the document"
    DOC_UNCLOSED_FENCE = "doc-unclosed-fence", WARNING, "a code fence is never closed"
    DOC_PARAM_UNKNOWN = "doc-param-unknown", ERROR, "a documented parameter is not in the prototype"
    DOC_PARAM_UNDOCUMENTED = "doc-param-undocumented", WARNING, "a prototype parameter is not documented"
    DOC_PARAM_DUPLICATE = "doc-param-duplicate", WARNING, "a parameter is documented twice"
    DOC_DIRECTION_CONST = (
        "doc-direction-const",
        WARNING,
        "a parameter documented as an input is written by the operator",
    )
    DOC_ERROR_UNKNOWN_NAME = (
        "doc-error-unknown-name",
        WARNING,
        "an error rule names a parameter that does not exist",
    )
    DOC_DTYPE_CONTRADICTION = (
        "doc-dtype-contradiction",
        WARNING,
        "parameters that must share a dtype list disjoint dtypes",
    )
    DOC_NULL_CONTRADICTION = (
        "doc-null-contradiction",
        WARNING,
        "an error row rejects a null pointer that the parameter's own row makes optional",
    )
    # in the sample
    SAMPLE_ARITY = (
        "sample-arity",
        ERROR,
        "the sample calls a documented function with another number of arguments",
    )
    SAMPLE_OUTPUT_RULE = (
        "sample-output-rule",
        WARNING,
        "the sample's call gives an output another shape or dtype than the document's rule for it",
    )
    SAMPLE_HEADER = "sample-header", WARNING, "the sample does not include the operator's header"
    SAMPLE_COPIES_INPUT = "sample-copies-input", ERROR, "the sample copies back an input buffer as the result"
    SAMPLE_NO_OUTPUT = "sample-no-output", WARNING, "the sample never copies anything back to the host"
    SAMPLE_LEAK_MEMORY = "sample-leak-memory", WARNING, "device memory allocated by the sample is never freed"
    SAMPLE_LEAK_OBJECT = (
        "sample-leak-object",
        WARNING,
        "a tensor, scalar or array created by the sample is never destroyed",
    )
    SAMPLE_DOUBLE_RELEASE = (
        "sample-double-release",
        WARNING,
        "an object is released twice (a holder and an explicit call)",
    )


# rule -> (default severity, what it finds), in catalogue order: for SARIF and configuration.
RULES: dict[str, tuple[str, str]] = {rule: (rule.severity, rule.meaning) for rule in Rule}

# One code per problem: a parse diagnostic that lint reports as a rule is printed under the
# rule's name by every command (`specgen generate` says `doc-no-api` as `specgen lint` does).
PROBLEM_CODES: Mapping[str, Rule] = {
    Code.NO_API: Rule.DOC_NO_API,
    Code.PROTOTYPE_SYNTAX: Rule.DOC_PROTOTYPE_SYNTAX,
    Code.PROTOTYPE_MISMATCH: Rule.DOC_PROTOTYPE_MISMATCH,
    Code.CONFLICT_MARKER: Rule.DOC_CONFLICT_MARKER,
    Code.DUPLICATE_PARAM: Rule.DOC_PARAM_DUPLICATE,
    Code.UNKNOWN_PARAM: Rule.DOC_PARAM_UNKNOWN,
    Code.UNCLOSED_FENCE: Rule.DOC_UNCLOSED_FENCE,
}
