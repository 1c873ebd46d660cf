"""A small reader of the C++ sample programs: tokens (`tokens`), their statement structure
(`program`), values (`values`) and the evaluation of expressions (`evaluator`).
`specgen.parse.sample_call` is its entry point. Names with a leading underscore are private
to this package, shared between its modules."""
