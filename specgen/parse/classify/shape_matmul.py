"""Matrix products the phrase readers do not take, and the cases where a matmul rule holds
(the formula's own `@`, an operand wrapped in a function it defines elementwise included, is
`shape_phrases.read_matmul`'s).

Shapes are the tensors' views: a FRACTAL_NZ operand whose document writes its stored shape
(`(batch, n, k)`) either does not multiply (unchecked) or, where its sizes coincide, gives the
same shape; what the documents leave unsettled (a packed operand's view, an operand only an
NZ layout describes, a transposition no letters show) is not read.

- Packed operands: an operand that may be a 32-bit tensor holding eight 4-bit values is
  multiplied as the values, not as the tensor (see `unpacked`).
- Products given by letters across the constraints' statements (aclnnQuantMatmulV5's
  `（batch, m, k）`, `（batch，k，n）`, `（batch，m，n）`, see `lettered_product_rule`).
- Products of operands that integer arrays permute, given case by case in the description
  (aclnnTransposeBatchMatMul's perms, see `permuted_product_rule`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from specgen.model import Param, ShapeRule
from specgen.parse.classify.shape_alternatives import presence
from specgen.parse.classify.shape_gradients import Said
from specgen.parse.classify.shape_phrases import ShapeContext, substituted, top_level_split, transposers
from specgen.parse.classify.text import IDENT

# A 4-bit dtype and the 32-bit one documents pack eight of it in: aclnnQuantMatmulV3
# `数据类型为INT32时，每个INT32数据存放8个INT4数据，…shape形如（k，n // 8）`; aclnnWeightQuantBatchMatmulV2
# `若weight数据类型为INT32/FLOAT时，必须配合aclnnConvertWeightToINT4Pack接口完成从INT32/FLOAT到紧密排布的
# INT4/FLOAT4_E2M1的转换` (its sample: a FLOAT weight of (k, n / 8) for y (m, n))
PACKINGS = (("INT4", "INT32"), ("FLOAT4_E2M1", "FLOAT"))


def unpacked(rule: ShapeRule, params: Sequence[Param]) -> ShapeRule:
    """A matrix product whose operand may hold packed 4-bit values multiplies the unpacked
    shapes, not the tensors': the rule holds, is checked and allocates by, only where no such
    operand is of the packing dtype (an operand allowing the 4-bit dtype and its packing alike)."""
    if rule.kind != "matmul" or (rule.when and len(rule.when) % 4):
        return rule
    allowed = {q.name: set(q.dtypes) for q in params}
    when = [
        (name, "dtype", packing, "false")
        for name in rule.params
        for bits, packing in PACKINGS
        if {bits, packing} <= allowed.get(name, set())
    ]
    if not when:
        return rule
    return rule.model_copy(update={"when": (*rule.when, *(x for w in when for x in w))})


# ---------------------------------------------------------------- products of permuted operands

_N = IDENT.pattern
# `permX1代表张量x1的转置序列`: an integer array that permutes a tensor's dimensions
_PERM_OF = re.compile(rf"(?P<perm>{_N})代表张量\s*`?(?P<t>{_N})`?\s*的转置序列")
# the row of the array that permutes the product: `表示矩阵乘输出矩阵的转置序列`
_OUT_PERM = re.compile(r"输出矩阵的转置序列")
# `x1的shape是(B, M, K)，x2的shape是(B, K, N)，scale为None，batchSplitFactor等于1时，计算输出out的shape是(M, B, N)`
_CASE = re.compile(
    rf"(?P<a>{_N})的shape是\s*(?P<at>\([^()]*\))\s*[，,]\s*(?P<b>{_N})的shape是\s*(?P<bt>\([^()]*\))\s*[，,]"
    rf"(?P<cond>[^。]*?)时\s*[，,]\s*计算输出\s*(?P<o>{_N})\s*的shape是\s*(?P<ot>\([^()（）]*(?:\([^()]*\)[^()]*)*\))"
)
_PERM_VALUE = re.compile(r"\[\s*\d+(?:\s*,\s*\d+)*\s*\]")
# a case's conditions: `scale为None`, `x1Scale和x2Scale不为None`, `batchSplitFactor等于1`, `…大于1`
_EQUALS = re.compile(rf"^(?P<name>{_N})\s*(?P<op>等于|大于)\s*(?P<v>\d+)$")


def permuted_product_rule(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> ShapeRule | None:
    """The output of a batch matrix product of operands that integer arrays permute, as the
    description gives it case by case (aclnnTransposeBatchMatMul: `permX1代表张量x1的转置序列，
    permX2代表张量x2的转置序列，序列值为0的是batch维度，其余两个维度做矩阵乘法`, then `x1的shape是
    (B, M, K)，x2的shape是(B, K, N)，scale为None，batchSplitFactor等于1时，计算输出out的shape是
    (M, B, N)`). The letters are read as the product's: the batch (shared, in the output), the
    reduced one (shared, not in it), the first operand's rows and the second's columns, each the
    dimension of the permuted operand (`x1.shape[permX1[1]]` for M), so the rule holds whatever
    the arrays, as long as the output's array has one documented value (`permY`: `支持[1, 0, 2]`)
    and each operand's statement is a documented permutation of its product's letters. Each case
    holds where its conditions do (`scale为None`: scale null) and both operands have three
    dimensions (an NZ operand's stored shape has more: the cases speak of its ND view); a case
    whose conditions no check reads is left out (unchecked there)."""
    perms = _perms(p, params, summary)
    if p.name not in perms:
        return None
    by_name = {q.name: q for q in params}
    cases = [
        case
        for s in summary
        for m in _CASE.finditer(s.text)
        if (case := _case(m, p, by_name, perms, s.line)) is not None
    ]
    if not cases:
        return None
    if len(cases) == 1:
        return cases[0]
    operands = tuple(dict.fromkeys(n for c in cases for n in c.params))
    text = " ".join(c.text for c in cases)
    return ShapeRule(kind="one_of", params=operands, alternatives=tuple(cases), text=text, line=cases[0].line)


def _perms(p: Param, params: Sequence[Param], summary: Sequence[Said]) -> dict[str, str]:
    """Each tensor an integer array permutes, with that array (the output's: the one array
    whose row says it permutes the product's output)."""
    arrays = {q.name for q in params if q.kind == "int_array"}
    tensors = {q.name for q in params if q.kind == "tensor"}
    found = {m.group("t"): m.group("perm") for s in summary for m in _PERM_OF.finditer(s.text)}
    found = {t: a for t, a in found.items() if t in tensors and a in arrays}
    outputs = [q for q in params if q.kind == "tensor" and q.direction == "out"]
    of_output = [q.name for q in params if q.name in arrays and _OUT_PERM.search(q.description)]
    if outputs == [p] and len(of_output) == 1:
        found[p.name] = of_output[0]
    return found


def _case(m: re.Match[str], p: Param, by_name: dict[str, Param], perms: dict[str, str], line: int) -> ShapeRule | None:
    a, b = m.group("a"), m.group("b")
    if m.group("o") != p.name or a not in perms or b not in perms or a == b:
        return None
    at, bt = _letters(m.group("at")), _letters(m.group("bt"))
    out = top_level_split(m.group("ot")[1:-1])
    if at is None or bt is None or len(at) != 3 or len(bt) != 3 or not all(out):
        return None
    roles = _roles(at, bt, out)
    when = _conditions(m.group("cond"), by_name)
    if (
        roles is None
        or when is None
        or not _documented(roles, at, bt, out, [by_name[perms[n]] for n in (a, b, p.name)])
    ):
        return None
    batch, rows, reduced, cols = roles
    pa, pb = perms[a], perms[b]
    sizes = {
        batch: f"{a}.shape[{pa}[0]]",
        rows: f"{a}.shape[{pa}[1]]",
        reduced: f"{a}.shape[{pa}[2]]",
        cols: f"{b}.shape[{pb}[2]]",
    }
    try:
        dims = substituted(out, sizes)
    except SyntaxError:
        return None
    ints = {q.name for q in by_name.values() if q.kind == "int"}
    if not _names_in(dims) <= {a, b, pa, pb, *ints}:
        return None
    ranks = (a, "rank", "3", "true", b, "rank", "3", "true")
    return ShapeRule(kind="explicit", params=(a, b), dims=dims, when=(*when, *ranks), text=m.group(0), line=line)


def _letters(listed: str) -> list[str] | None:
    parts = top_level_split(listed[1:-1])
    return parts if all(IDENT.fullmatch(x) for x in parts) and len(set(parts)) == len(parts) else None


def _roles(at: list[str], bt: list[str], out: list[str]) -> tuple[str, str, str, str] | None:
    """(batch, rows, reduced, columns): the two letters the operands share, the one the output
    names being the batch, and each operand's own."""
    shared = [x for x in at if x in bt]
    named = _names_in(out)
    batch = [x for x in shared if x in named]
    reduced = [x for x in shared if x not in named]
    rows, cols = [x for x in at if x not in bt], [x for x in bt if x not in at]
    if len(batch) != 1 or len(reduced) != 1 or len(rows) != 1 or len(cols) != 1:
        return None
    return batch[0], rows[0], reduced[0], cols[0]


def _documented(
    roles: tuple[str, str, str, str], at: list[str], bt: list[str], out: list[str], arrays: list[Param]
) -> bool:
    """Whether each operand's letters are its product's (batch, rows, reduced) and (batch,
    reduced, columns) under a value its array's row allows, and the output's array allows one
    value, which orders (batch, rows, columns) as the output's letters (when it gives them bare)."""
    batch, rows, reduced, cols = roles
    values = [[ast.literal_eval(v) for v in _PERM_VALUE.findall(q.description + " " + q.text)] for q in arrays]
    permuted = any(sorted(v) == [0, 1, 2] and [at[i] for i in v] == [batch, rows, reduced] for v in values[0]) and any(
        sorted(v) == [0, 1, 2] and [bt[i] for i in v] == [batch, reduced, cols] for v in values[1]
    )
    if not permuted or len({tuple(v) for v in values[2]}) != 1:
        return False
    [order] = {tuple(v) for v in values[2]}
    product = (batch, rows, cols)
    bare = all(IDENT.fullmatch(x) for x in out)
    return sorted(order) == [0, 1, 2] and (not bare or [product[i] for i in order] == out)


def _conditions(text: str, by_name: dict[str, Param]) -> tuple[str, ...] | None:
    """A case's conditions as `ShapeRule.when` parts; None when one is not read. `大于v` is read
    as `不等于v` only where the integer's row bounds it below by v (`取值范围为[1, B]`)."""
    when: list[str] = []
    tensors = [n for n, q in by_name.items() if q.kind == "tensor"]
    for clause in (c.strip() for c in re.split(r"[，,]", text) if c.strip()):
        if (given := presence(clause, tensors)) is not None:
            when += given
        elif (m := _EQUALS.match(clause)) and (q := by_name.get(m.group("name"))) and q.kind == "int":
            v = m.group("v")
            if m.group("op") == "大于" and not re.search(rf"取值范围为\s*\[\s*{v}\s*,", q.description + q.text):
                return None
            when += (q.name, "value", v, "true" if m.group("op") == "等于" else "false")
        else:
            return None
    return tuple(when)


def _names_in(dims: Sequence[str]) -> set[str]:
    tree = ast.parse("[" + ", ".join(dims) + "]", mode="eval")
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


# ---------------------------------------------------------------- products given by letters

# a list of letters: `（batch, m, k）`, `(k, n)`
_LETTER_TUPLE = re.compile(r"[（(]\s*[A-Za-z_]\w*(?:\s*[,，]\s*[A-Za-z_]\w*)+\s*[）)]")


def lettered_product_rule(p: Param, params: Sequence[Param], notes: Sequence[Said]) -> ShapeRule | None:
    """The output of a matrix product the constraints give by letters alone, binding them across
    statements (aclnnQuantMatmulV5: `transposeX1为false情况下X1各个维度表示：（batch, m, k）。
    transposeX1为true情况下X1各个维度表示：（batch, k, m）`, `ND格式下，为false时X2维度为：（batch，k，n），
    为true时维度为：（batch，n，k）`, `out的shape支持2~6维，（batch，m，n），batch可不存在`): the product of
    the input whose letters end in the output's rows and a shared letter, by the input whose
    letters end in that letter and the output's columns, both with the output's leading letters.
    A parameter that transposes an operand (transposeX1) is read only where the document also
    gives that operand's letters swapped. A list belongs to the tensor named last before it on
    its line; None unless exactly one pair of inputs fits."""
    tensors = {q.name: q for q in params if q.kind == "tensor"}
    said = _letters_by_tensor(notes, list(tensors))
    inputs = [n for n, q in tensors.items() if q.direction == "in"]
    found: dict[tuple[str, str, str, str, str], Said] = {}
    for letters, s in said.get(p.name, []):
        for product in _operands(letters, said, inputs):
            found.setdefault(product, s)
    if len(found) != 1:
        return None
    [((a, b, rows, reduced, cols), s)] = found.items()
    flags = _documented_flags(a, b, ((rows, reduced), (reduced, cols)), said, params)
    if flags is None:
        return None
    return ShapeRule(kind="matmul", params=(a, b, *flags) if any(flags) else (a, b), text=s.text, line=s.line)


def _letters_by_tensor(notes: Sequence[Said], tensors: list[str]) -> dict[str, list[tuple[tuple[str, ...], Said]]]:
    """Each tensor's letter lists, with their statements: a list is the tensor's named last
    before it on its line (`X1` for x1: the documents write either case)."""
    lower = {t.lower(): t for t in tensors}
    if len(lower) != len(tensors):
        return {}
    named = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(re.escape(t) for t in lower) + r")(?![A-Za-z0-9_])", re.I)
    out: dict[str, list[tuple[tuple[str, ...], Said]]] = {}
    for s in notes:
        for m in _LETTER_TUPLE.finditer(s.text):
            before = named.findall(s.text[: m.start()])
            if before:
                letters = tuple(x.strip() for x in re.split(r"[,，]", m.group(0)[1:-1]))
                out.setdefault(lower[before[-1].lower()], []).append((letters, s))
    return out


def _operands(
    letters: tuple[str, ...], said: dict[str, list[tuple[tuple[str, ...], Said]]], inputs: list[str]
) -> list[tuple[str, str, str, str, str]]:
    """(a, b, rows, reduced, columns) for each pair of inputs whose lists multiply to `letters`."""
    if len(letters) < 2 or len(set(letters)) != len(letters):
        return []
    *batch, rows, cols = letters
    lefts = {
        (n, ls[-1]) for n in inputs for ls, _ in said.get(n, []) if list(ls[:-2]) == batch and ls[-2:-1] == (rows,)
    }
    rights = {(n, ls[-2]) for n in inputs for ls, _ in said.get(n, []) if list(ls[:-2]) == batch and ls[-1] == cols}
    return [(a, b, rows, k, cols) for a, k in lefts for b, k2 in rights if a != b and k == k2 and k not in (rows, cols)]


def _documented_flags(
    a: str,
    b: str,
    products: tuple[tuple[str, str], tuple[str, str]],
    said: dict[str, list[tuple[tuple[str, ...], Said]]],
    params: Sequence[Param],
) -> tuple[str, str] | None:
    """The parameters that transpose a and b ("" none), each read only where the document gives
    its operand's product letters (`products`: a's (m, k), b's (k, n)) swapped too; None when
    one is not."""
    ctx = ShapeContext(tuple(q.name for q in params), tensors=tuple(q.name for q in params if q.kind == "tensor"))
    flags = transposers(a, b, ctx)
    if flags is None:
        return None
    for name, flag, (first, second) in zip((a, b), flags, products, strict=True):
        if flag and (second, first) not in {ls[-2:] for ls, _ in said.get(name, [])}:
            return None
    return flags


# `(batch, m, n/32, 2)`: a list of sizes, letters among them
_SIZE_LIST = re.compile(r"[（(]([^（）()]*[A-Za-z_][^（）()]*[,，][^（）()]*)[）)]")
_IDENT = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*")
# `n与x2的n一致`: a letter tied to the same letter of a tensor
_TIED_LETTER = re.compile(
    r"(?<![A-Za-z0-9_])(?P<letter>[A-Za-z_]\w*)\s*与\s*(?P<tensor>[A-Za-z_]\w*)\s*的\s*(?P=letter)\s*一致"
)


def unlettered_reason(p: Param, params: Sequence[Param], own: Sequence[Said], notes: Sequence[Said]) -> str:
    """Why an output the document gives by letters (aclnnQuantMatmulActivationQuantWeightNz yOut:
    `shape和矩阵乘计算结果一致，(batch, m, n)`) has no rule, where a statement ties one of its letters
    to a tensor's (`n与x2的n一致`) whose documented letters lack it (x2, an NZ weight:
    `（batch, n1, k1, k0, n0）`): "" otherwise."""
    tensors = [q.name for q in params if q.kind == "tensor"]
    theirs = _letters_by_tensor([*notes, *own], tensors)
    for m in (m for s in own for m in _SIZE_LIST.finditer(s.text)):
        letters = set(_IDENT.findall(m.group(1)))
        for said in [*own, *notes]:
            for tie in _TIED_LETTER.finditer(said.text):
                letter, tensor = tie.group("letter"), tie.group("tensor")
                lists = [ls for ls, _ in theirs.get(tensor, [])]
                if letter in letters and lists and not any(letter in ls for ls in lists):
                    shapes = ", ".join(dict.fromkeys(f"({', '.join(ls)})" for ls in lists))
                    return (
                        f"its shape is ({m.group(1).strip()}) and `{tie.group(0)}` (line {said.line}) ties {letter} "
                        f"to {tensor}, but {letter} is not a dimension of {tensor}'s documented shape ({shapes}), "
                        f"so {letter} cannot be read from the inputs"
                    )
    return ""
