"""The inverse map as code: one value per axis -> the logical flat index, or -1.

Only a layout where no two logical elements share a coordinate has an inverse; that is
checked first (vectorized over every element and replica, refused over the ``elements``
limit of :mod:`tilelayout.core.budget`).
Then each axis is solved on its own: its value minus the folded constants is a sum of
``digit * stride`` over the iters on that axis (shard digits wanted, replica digits
existential). Negative strides are mirrored (``c -> e - 1 - c``) so every stride is
positive; digits are read largest stride first, each with one division and one modulo
(shifts and masks for powers of two) and only the range checks that are not implied.
A digit whose stride does not dominate the smaller ones (the greedy reading could pick
the wrong digit) is searched by a loop over its values instead. Because every element
sits at a distinct coordinate, each axis has at most one solution, so the per-axis
answers combine into the one flat index ``sum(c_k * weight_k)``.

>>> import tilelayout as tl
>>> from tilelayout.codegen.generate import codegen
>>> print(codegen(tl.parse("S[(4,8):(1,4)]"), inverse=True))  # doctest: +NORMALIZE_WHITESPACE
def layout_fn(m):
    # layout: S[(4,8):(1,4)]
    # shape: (4, 8); arguments: m; returns the flat index, or -1 where no element sits
    c1 = m >> 2
    c0 = m & 3
    ok = (m >= 0) and (m < 32)
    flat = (c0 << 3) + c1
    return flat if ok else -1
<BLANKLINE>
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import budget, f2
from ..core.compose import Layout, tile_of
from ..core.errors import LayoutError
from ..core.shape import Shape, unflatten
from ..eval.expressions import (
    Expr,
    binary,
    const,
    digits,
    floordiv,
    linear,
    local_names,
    modulo,
    var,
    xor_expr,
    xor_images,
)
from .languages import Language


class NotInvertibleError(LayoutError):
    """The layout has no inverse: two logical elements share a coordinate."""


def shared_coordinate(layout: Layout, shape: Shape) -> tuple[int, int] | None:
    """Two logical flat indices that share a coordinate, or None when there are none.

    Scans every element and replica (vectorized); refused (``BudgetError``) when they
    exceed the ``elements`` limit in force.
    """
    tile = tile_of(layout)
    budget.check("proving the layout invertible scans", tile.size() * tile.replica_count,
                 "elements")
    if not tile.axes:
        return (0, 1) if tile.size() > 1 else None
    coords = layout.map_all(shape)
    reps = tile.replica_count
    rows = np.stack([coords[a].reshape(-1) for a in tile.axes], axis=0)
    elem = np.repeat(np.arange(tile.size(), dtype=np.int64), reps)
    order = np.lexsort(tuple(rows[::-1]))
    rows, elem = rows[:, order], elem[order]
    same = np.all(rows[:, 1:] == rows[:, :-1], axis=0) & (elem[1:] != elem[:-1])
    hit = np.nonzero(same)[0]
    if len(hit) == 0:
        return None
    k = int(hit[0])
    return int(elem[k]), int(elem[k + 1])


@dataclass
class _Term:
    digit: int | None  # shard digit position (None for a replica digit)
    extent: int
    stride: int  # > 0 after mirroring
    mirrored: bool


class _Writer:
    def __init__(self, lang: Language) -> None:
        self.lang = lang
        self.lines: list[str] = []
        self.depth = 1
        self.declared: set[str] = set()

    def put(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def let(self, name: str, text: str, boolean: bool = False) -> None:
        declare = name not in self.declared
        self.declared.add(name)
        self.put(self.lang.assign(name, text, declare, boolean))


def _cmp(lang: Language, e: Expr, op: str, rhs: int) -> str:
    text = lang.expr(e)
    if e.op not in ("var", "const"):
        text = f"({text})"
    return f"{text} {op} {lang.constant(rhs)}"


def _greedy(w: _Writer, rem: Expr, terms: list[_Term], names: list[str | None]) -> list[str]:
    """Read ``terms`` (largest stride first) from ``rem``, into locals where ``names`` has
    one; return the conditions that must hold."""
    lang = w.lang
    if not terms:
        return [_cmp(lang, rem, "==", 0)]
    conds = [_cmp(lang, rem, ">=", 0)]
    prev: int | None = None
    for k, (t, name) in enumerate(zip(terms, names, strict=True)):
        d = floordiv(rem, t.stride)
        if name is not None:
            w.let(name, lang.expr(d))
        if k == 0:
            conds.append(_cmp(lang, rem, "<", t.stride * t.extent))
        elif prev is not None and prev > t.stride * t.extent:
            conds.append(_cmp(lang, var(name) if name else d, "<", t.extent))
        prev = t.stride
        rem = modulo(rem, t.stride)
    if terms[-1].stride != 1 and rem.op != "const":
        conds.append(_cmp(lang, rem, "==", 0))
    return conds


def inverse_body(layout: Layout, shape: Shape, lang: Language) -> tuple[list[str], list[str]]:
    """(arguments, body lines) of the inverse function in ``lang``."""
    tile = tile_of(layout)
    args = list(local_names(tile.axes))
    w = _Writer(lang)
    shard = digits(tile.shard)
    per_axis: dict[str, list[_Term]] = {a: [] for a in tile.axes}
    shift: dict[str, int] = {a: tile.offset.get(a, 0) for a in tile.axes}
    for k, d in enumerate(shard):
        if d.stride == 0:
            continue  # only an extent-1 run can be stride 0 in an invertible layout
        per_axis[d.axis].append(_Term(k, d.extent, abs(d.stride), d.stride < 0))
        if d.stride < 0:
            shift[d.axis] += (d.extent - 1) * d.stride
    for d in digits(tile.replica):
        if d.stride == 0:
            continue
        per_axis[d.axis].append(_Term(None, d.extent, abs(d.stride), d.stride < 0))
        if d.stride < 0:
            shift[d.axis] += (d.extent - 1) * d.stride
    images = xor_images(layout)
    conds: list[str] = []
    found_digit: dict[int, str] = {}
    for j, (a, arg) in enumerate(zip(tile.axes, args, strict=True)):
        value = var(arg)
        if a == "m" and images:
            value = xor_expr(value, f2.inverse(images))
        u = linear([(value, 1)], -shift[a])
        if u.op not in ("var", "const"):
            w.let(f"u{j}", lang.expr(u))
            u = var(f"u{j}")
        terms = sorted(per_axis[a], key=lambda t: t.stride)
        greedy, searched = [], []
        reach = 0
        for t in terms:
            if t.stride > reach:
                greedy.append(t)
                reach += (t.extent - 1) * t.stride
            else:
                searched.append(t)
        greedy.reverse()
        if not searched:
            names = [f"c{t.digit}" if t.digit is not None else None for t in greedy]
            conds += _greedy(w, u, greedy, names)
            for t, n in zip(greedy, names, strict=True):
                if t.digit is not None and n is not None:
                    found_digit[t.digit] = n
            continue
        conds.append(_search(w, j, u, greedy, searched, found_digit))
    flat_terms: list[tuple[Expr, int]] = []
    constant = 0
    for k, d in enumerate(shard):
        if k not in found_digit:
            continue
        mirrored = any(t.mirrored for t in per_axis[d.axis] if t.digit == k)
        if mirrored:
            constant += (d.extent - 1) * d.weight
            flat_terms.append((var(found_digit[k]), -d.weight))
        else:
            flat_terms.append((var(found_digit[k]), d.weight))
    w.let("ok", lang.both(conds), boolean=True)
    w.let("flat", lang.expr(linear(flat_terms, constant)))
    return args, w.lines


def _search(w: _Writer, j: int, u: Expr, greedy: list[_Term], searched: list[_Term],
            found_digit: dict[int, str]) -> str:
    """A loop over the values of the non-dominant digits of axis ``j``; returns the
    name of its "found" flag."""
    lang = w.lang
    found = f"found{j}"
    zero = lang.expr(binary("*", u, const(0))) if lang.family == "triton" else "0"
    w.let(found, f"{lang.expr(u)} < {lang.expr(u)}" if lang.family == "triton" else
          ("False" if lang.family == "python" else "0"), boolean=True)
    wanted = [t for t in searched + greedy if t.digit is not None]
    for t in wanted:
        w.let(f"c{t.digit}", zero)
        found_digit[t.digit] = f"c{t.digit}"  # type: ignore[index]
    count = 1
    for t in searched:
        count *= t.extent
    q = f"q{j}"
    w.put(lang.loop(q, count))
    w.depth += 1
    rest = var(q)
    cand: dict[int, str] = {}
    terms: list[tuple[Expr, int]] = [(u, 1)]
    for n, t in enumerate(searched):
        name = f"e{j}_{n}" if t.digit is None else f"t{t.digit}"
        last = n == len(searched) - 1
        w.let(name, lang.expr(rest if last else modulo(rest, t.extent)))
        rest = floordiv(rest, t.extent)
        terms.append((var(name), -t.stride))
        if t.digit is not None:
            cand[t.digit] = name
    w.let(f"w{j}", lang.expr(linear(terms)))
    names = [f"t{t.digit}" if t.digit is not None else None for t in greedy]
    conds = _greedy(w, var(f"w{j}"), greedy, names)
    for t, n in zip(greedy, names, strict=True):
        if t.digit is not None and n is not None:
            cand[t.digit] = n
    hit = f"take{j}"
    w.let(hit, lang.both(conds + [lang.negate(found)]), boolean=True)
    for t in wanted:
        w.let(f"c{t.digit}", lang.select(hit, cand[t.digit], f"c{t.digit}"))  # type: ignore[index]
    w.let(found, lang.either(found, hit), boolean=True)
    w.depth -= 1
    end = lang.end_loop()
    if end:
        w.put(end)
    return found


def check_invertible(layout: Layout, shape: Shape) -> None:
    """Raise :class:`NotInvertibleError` when two elements share a coordinate."""
    pair = shared_coordinate(layout, shape)
    if pair is not None:
        x, y = (unflatten(p, shape) for p in pair)
        raise NotInvertibleError(
            f"{layout} has no inverse over shape {shape}: elements {x} and {y} share a "
            f"coordinate (an inverse needs every element at a distinct coordinate)"
        )
