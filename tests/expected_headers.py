"""C headers written from the shared corpus's expected.json, laid out as an operator
repository keeps them: each document's operator folder gets `op_host/op_api/aclnn_<name>.h`
declaring what expected.json says its header declares, so that a mainline operator and its
`experimental/` copy each have their own. Used by tests/test_lint_verdicts.py and
benchmarks/lint_recall.py."""

from __future__ import annotations

from pathlib import Path

from specgen.codegen.names import snake_case

EXECUTE = "(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n"


def write_operator_headers(rows: list[dict], root: Path, prefix: str = "") -> int:
    """A header for each row of expected.json whose `doc` starts with `prefix`, in the operator
    folder of `root / doc-without-prefix` (the folder holding its docs/); returns how many files."""
    files: dict[Path, str] = {}
    for row in rows:
        if not row["functions"] or not row["doc"].startswith(prefix):
            continue
        text = '#include "aclnn/aclnn_base.h"\n'
        for name, params in row["functions"].items():
            declared = ",\n    ".join(f"{p['type']} {p['name']}" for p in params)
            text += f"aclnnStatus {name}GetWorkspaceSize(\n    {declared});\naclnnStatus {name}{EXECUTE}"
        first = sorted(row["functions"])[0].replace("Inplace", "")
        include = (root / row["doc"].removeprefix(prefix)).parent.parent / "op_host" / "op_api"
        path = include / f"aclnn_{snake_case(first)}.h"
        files[path] = files.get(path, "") + text
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return len(files)
