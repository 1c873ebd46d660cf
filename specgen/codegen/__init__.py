"""Models to generated files: lowering, cases, rendering, formatting, writing."""
