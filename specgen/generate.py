"""`specgen generate`: documents to the generated tree (parse, group, render, format, write)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from specgen import render, writer
from specgen.formatting import format_sources
from specgen.model import Diagnostic, OperatorDoc
from specgen.parse import discover, parse_paths


@dataclass
class GenerateResult:
    docs: list[OperatorDoc]
    plan: writer.Plan
    operators: list[str] = field(default_factory=list)
    diagnostics: list[tuple[str, Diagnostic]] = field(default_factory=list)  # (source, diagnostic)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for _, d in self.diagnostics)


def display_root(paths: Sequence[str | Path]) -> Path:
    """Generated files name documents relative to the parent of the first input folder, so
    that the output does not depend on the working directory or the checkout's location."""
    first = Path(paths[0]).resolve()
    return first.parent if first.is_dir() else first.parent.parent


def generate(
    paths: Sequence[str | Path], out: Path, *, templates: Path | None = None, check: bool = False, force: bool = False
) -> GenerateResult:
    docs = parse_paths(paths)
    diagnostics = [(d.source, diag) for d in docs for diag in d.diagnostics]
    usable = [d for d in docs if not d.has_errors]
    root = display_root(paths)
    files: dict[str, str] = render.render_shared(templates)
    user_files: dict[str, str] = {}
    operators = []
    for snake, group in render.group_by_operator(usable).items():
        rendered = render.render_operator(group, root, templates)
        diagnostics += list(rendered.diagnostics)
        if rendered.files:
            operators.append(snake)
        files.update(rendered.files)
        user_files.update(rendered.user_files)
    style = render.template_path("clang-format.yaml", templates)
    files = format_sources(files, style)
    user_files = format_sources(user_files, style)
    plan = writer.plan(out, files, user_files, force=force)
    if not check:
        writer.apply(plan)
    return GenerateResult(docs=docs, plan=plan, operators=operators, diagnostics=diagnostics)


def inputs_exist(paths: Sequence[str]) -> list[str]:
    return [p for p in paths if not Path(p).exists()]


__all__ = ["GenerateResult", "discover", "generate"]
