"""Chinese constraint prose and table cells to typed constraints and checks.

A table of named rules: each rule reads one clause and returns the constraints it recognises;
a clause no rule recognises is kept verbatim as kind "text". Error-rule conditions go through
a parallel table of rules that return `Check`s. Every rule carries phrases of real documents
it must read (tests/test_classify.py reads them all).

- text: the words of a clause (parameter names, dtype and format lists) and the `Context`
- statements: statements and error conditions split into clauses; situations (当…时)
- properties, relations, dims, values: the parameter rules, by what they read
- params: the phrase-rule tables and `classify`
- cells: table cells (数据类型, 数据格式, shape, 非连续Tensor columns)
- condition_rules: the error-condition rule tables
- conditions: `condition_checks`, an error condition read statement by statement
"""

from specgen.parse.classify.cells import dtype_cell, format_cell, non_contiguous_cell, shape_cell
from specgen.parse.classify.condition_rules import (
    CONDITION_RULES,
    PROSE_RULES,
    ConditionExample,
    ConditionReader,
    ConditionRule,
    ConditionStatement,
)
from specgen.parse.classify.conditions import condition_checks, flagged_null, masked_null, read_statement
from specgen.parse.classify.dims import axis_interval, rule_axis, rule_rank
from specgen.parse.classify.params import (
    CONDITIONAL_RULES,
    PARAM_RULES,
    Example,
    PhraseRule,
    classify,
    normalize_spacing,
    reads_as_description,
    states_requirement,
)
from specgen.parse.classify.properties import rule_dtypes, rule_empty, rule_formats, rule_non_contiguous, rule_optional
from specgen.parse.classify.relations import rule_broadcast, rule_castable, rule_same
from specgen.parse.classify.statements import clauses, condition_clauses, is_conditional
from specgen.parse.classify.text import Context, Rule, dtype_list, format_list, names_in, read
from specgen.parse.classify.values import (
    rule_clamp,
    rule_enum,
    rule_enum_general,
    rule_enum_item,
    rule_range,
    rule_value_product,
)

__all__ = [
    "CONDITIONAL_RULES",
    "CONDITION_RULES",
    "PARAM_RULES",
    "PROSE_RULES",
    "ConditionExample",
    "ConditionReader",
    "ConditionRule",
    "ConditionStatement",
    "Context",
    "Example",
    "PhraseRule",
    "Rule",
    "axis_interval",
    "classify",
    "clauses",
    "condition_checks",
    "condition_clauses",
    "dtype_cell",
    "dtype_list",
    "flagged_null",
    "format_cell",
    "format_list",
    "is_conditional",
    "masked_null",
    "names_in",
    "non_contiguous_cell",
    "normalize_spacing",
    "reads_as_description",
    "states_requirement",
    "read",
    "read_statement",
    "rule_axis",
    "rule_broadcast",
    "rule_castable",
    "rule_clamp",
    "rule_dtypes",
    "rule_empty",
    "rule_enum",
    "rule_enum_general",
    "rule_enum_item",
    "rule_formats",
    "rule_non_contiguous",
    "rule_optional",
    "rule_range",
    "rule_rank",
    "rule_same",
    "rule_value_product",
    "shape_cell",
]
