"""TIRx's ``apply``: a layout evaluated at integer or symbolic coordinates, as TIRx does.

Three forms, as in TIRx: ``apply(flat)`` splits one index over the shard extents (the
outermost iter takes the whole quotient, so an index past the tile keeps counting:
``S[(8,8):(8,1)]`` at 200 is ``{m: 200}``); ``apply(c0, c1, ...)`` takes one index per
shard iter and sums ``c_k * stride_k`` per axis; ``apply(*coord, shape=s)`` splits each
coordinate over the iters its dimension groups (the layout regrouped by ``s``), or,
when the layout does not group by ``s``, flattens the coordinate first.

A ``ComposeLayout`` swizzles the tile's ``m``. With per-iter or shaped coordinates TIRx
writes the address in a bounded normal form when it can prove it carry-free
(``m = B + D + K``: an atom-aligned part, a dynamic part inside one atom, a constant):
``(B + (D ^ (phase << per_element))) ^ K_low``; otherwise it binds the address once,
``Let(m, ..., Let(q, m // 2**per_element, swizzle(q) << per_element + m % ...))``. A
flat index is swizzled in one expression. The same rules are followed here (the
constants are exact integers; a negative constant takes the full swizzle), so symbolic
results have TIRx's structure and integer results TIRx's values.

>>> from tilelayout import parse
>>> from tilelayout.tirx.symbolic import Var
>>> x, y = Var("x"), Var("y")
>>> tirx_apply(parse("S[(8,8):(64,1)] + 72"), (x, y))
{'m': x * 64 + y + 72}
>>> tirx_apply(parse("ComposeLayout(Swizzle(3,3,3), S[(8,8):(64,1)] + 72)"), (x, y))["m"]
(x * 64 + (y ^ (((x + 1) & 7) << 3)) + 64) ^ 8
>>> tirx_apply(parse("ComposeLayout(Swizzle(3,3,3), S[512:1])"), (4095,))
{'m': 4039}
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ..algebra import group as _group
from ..core import compose as _compose
from ..core import tile as _tile
from ..core.errors import LayoutError, ShapeError, shown
from ..core.iter import Iter
from ..core.swizzle import swizzle_shift
from ..eval.expressions import xor_images
from .errors import check_ints
from .spelling import fresh_var
from .symbolic import AND, SHL, SHR, XOR, Let, Mul, add, bitwise, floordiv, floormod, mul, node, shift

Value = Any  # an int or a symbolic expression


# -- TileLayout ---------------------------------------------------------------------------
def split_coord(coord: Value, extents: Sequence[int]) -> list[Value]:
    """TIRx's ``SplitCoord``: ``coord`` over ``extents`` (outermost first), the first
    entry taking the whole remaining quotient.

    >>> split_coord(200, [8, 8]), split_coord(-1, [4, 2])
    ([25, 0], [-1, 1])
    """
    out: list[Value] = [0] * len(extents)
    rest = coord
    if isinstance(rest, int):  # the integer fast path (the same arithmetic)
        for i in range(len(extents) - 1, 0, -1):
            rest, out[i] = divmod(rest, extents[i])
        if extents:
            out[0] = rest
        return out
    for i in range(len(extents) - 1, -1, -1):
        if i == 0:
            out[0] = rest
        else:
            out[i] = floormod(rest, extents[i])
            rest = floordiv(rest, extents[i])
    return out


def flatten_coord(coord: Sequence[Value], shape: Sequence[int]) -> Value:
    """TIRx's ``FlattenCoord``: ``coord`` row-major over ``shape``.

    >>> flatten_coord([1, 2, 3], [2, 3, 4])
    23
    """
    flat: Value = 0
    for c, s in zip(coord, shape, strict=True):
        flat = add(mul(flat, s), c)
    return flat


@functools.lru_cache(maxsize=4096)
def _plan(tile: _tile.TileLayout) -> tuple[tuple[int, ...], tuple[tuple[int, str], ...],
                                           tuple[tuple[str, int], ...]]:
    """The shard extents, (stride, axis name) per shard iter and the offset of ``tile``,
    as plain tuples: what every ``apply`` of the layout reads (cached per layout value)."""
    return (tuple(it.extent for it in tile.shard),
            tuple((it.stride, str.__str__(it.axis)) for it in tile.shard),
            tuple((str.__str__(a), v) for a, v in tile.offset.items()))


def apply_iters(tile: _tile.TileLayout, coord: Sequence[Value]) -> dict[str, Value]:
    """One index per shard iter: ``sum(c_k * stride_k)`` per axis, plus the offset.

    >>> from tilelayout import parse
    >>> apply_iters(parse("S[(8,4):(4@laneid,1)] + 2@warpid"), [9, 1])
    {'laneid': 36, 'm': 1, 'warpid': 2}
    """
    _, iters, offset = _plan(tile)
    if len(coord) != len(iters):
        raise ShapeError(f"{len(coord)} indices for a layout of {len(iters)} shard iters")
    out: dict[str, Value] = {}
    if all(type(c) is int for c in coord):  # the integer fast path
        for (stride, a), c in zip(iters, coord):  # noqa: B905 - lengths checked above
            out[a] = out.get(a, 0) + c * stride
        for a, v in offset:
            out[a] = out.get(a, 0) + v
        return out
    for (stride, a), c in zip(iters, coord):  # noqa: B905
        term = mul(c, stride)
        out[a] = add(out[a], term) if a in out else term
    for a, v in offset:
        out[a] = add(out[a], v) if a in out else v
    return out


@functools.lru_cache(maxsize=4096)
def try_group(tile: _tile.TileLayout, shape: tuple[int, ...]
              ) -> tuple[_tile.TileLayout, tuple[int, ...]] | None:
    """TIRx's ``TryGroup``: ``tile`` grouped by ``shape``, or None when it does not group.

    >>> from tilelayout import parse
    >>> try_group(parse("S[(2,4,8,8):(256,64,8,1)]"), (8, 64))[1], try_group(parse("S[6:1]"), (4,))
    ((0, 2, 4), None)

    Cached per (layout value, shape), LRU: the shaped form of ``apply`` asks it per call.
    """
    if not tile.shard:  # TIRx's Group places no dimension on an empty shard
        return None
    try:
        grouped, seps = _group.group(tile, tuple(shape))
    except LayoutError:
        return None
    assert isinstance(grouped, _tile.TileLayout)
    return grouped, seps


def _grouped_coord(grouped: _tile.TileLayout, seps: Sequence[int],
                   coord: Sequence[Value]) -> list[Value]:
    per_iter: list[Value] = [0] * len(grouped.shard)
    for d, c in enumerate(coord):
        lo, hi = seps[d], seps[d + 1]
        if lo == hi:
            continue
        part = split_coord(c, [it.extent for it in grouped.shard[lo:hi]])
        per_iter[lo:hi] = part
    return per_iter


def apply_tile(tile: _tile.TileLayout, coord: Sequence[Value],
               shape: Sequence[int] | None) -> dict[str, Value]:
    """TIRx's ``TileLayout.apply`` in its three forms (see the module docstring).

    >>> from tilelayout import parse
    >>> L = parse("S[(8,8):(8,1)]")
    >>> apply_tile(L, [200], None), apply_tile(L, [9, 3], (8, 8)), apply_tile(L, [1, 2], None)
    ({'m': 200}, {'m': 75}, {'m': 10})
    """
    if shape is not None:
        found = try_group(tile, shape)
        if found is None:
            return apply_iters(tile, split_coord(flatten_coord(coord, shape),
                                                 [it.extent for it in tile.shard]))
        grouped, seps = found
        return apply_iters(grouped, _grouped_coord(grouped, seps, coord))
    if len(coord) == 1:
        return apply_iters(tile, split_coord(coord[0], _plan(tile)[0]))
    return apply_iters(tile, coord)


# -- swizzles -----------------------------------------------------------------------------
def _tirx_params(sw: object) -> tuple[int, int, int, bool] | None:
    params = swizzle_shift(sw)  # type: ignore[arg-type]
    if params is None:
        return None
    m, b, s = params
    return m, b, abs(s), s >= 0


def _swizzle_q(q: Value, params: tuple[int, int, int, bool]) -> Value:
    _, b, s, inner = params
    mask = (1 << b) - 1
    if inner:
        return bitwise(XOR, q, shift(SHR, bitwise(AND, q, mask << s), s))
    return bitwise(XOR, q, shift(SHL, bitwise(AND, q, mask), s))


def _swizzled(m: Value, params: tuple[int, int, int, bool]) -> Value:
    """TIRx's one-expression swizzle of ``m``: ``(f(m // 2**M) << M) + m % 2**M``."""
    pe, b, s, inner = params
    if isinstance(m, int):  # the integer fast path
        q, mask = m >> pe, (1 << b) - 1
        q ^= ((q & (mask << s)) >> s) if inner else ((q & mask) << s)
        return (q << pe) + (m & ((1 << pe) - 1))
    return add(shift(SHL, _swizzle_q(floordiv(m, 1 << pe), params), pe), floormod(m, 1 << pe))


def _images_swizzled(m: Value, images: Sequence[int]) -> Value:
    """A general XOR-linear swizzle of ``m``'s low bits (an ``XorSwizzle`` that is not
    one of TIRx's two forms): ``m ^ ((m & mask) >> s) ^ ...``."""
    groups: dict[int, int] = {}
    out = m
    for k, img in enumerate(images):
        extra = img ^ (1 << k)
        for j in range(extra.bit_length()):
            if extra >> j & 1:
                groups[k - j] = groups.get(k - j, 0) | (1 << k)
    for s, mask in sorted(groups.items(), reverse=True):
        moved = bitwise(AND, m, mask)
        out = bitwise(XOR, out, shift(SHR, moved, s) if s >= 0 else shift(SHL, moved, -s))
    return out


def _full_swizzle(layout: _compose.ComposeLayout, m: Value, coords: Sequence[Value]) -> Value:
    """TIRx's fallback: the address bound once (``Let``), then swizzled whole."""
    params = _tirx_params(layout.swizzle)
    if isinstance(m, int):
        return layout.swizzle.apply(m) if params is None else _swizzled(m, params)
    if params is None:
        images = xor_images(layout) or ()
        m_once = fresh_var("compose_m", m)
        return Let(m_once, m, _images_swizzled(m_once, images))
    pe = params[0]
    m_once = fresh_var("compose_m", m)
    quotient = floordiv(m_once, 1 << pe)
    q_once = fresh_var("compose_q", m)
    body = add(shift(SHL, _swizzle_q(q_once, params), pe), floormod(m_once, 1 << pe))
    return Let(m_once, m, Let(q_once, quotient, body))


class _Structured:
    """TIRx's bounded normal form ``m = B + D + K`` (``ApplyStructured``)."""

    def __init__(self, atom: int) -> None:
        self.atom = atom
        self.high: Value = 0
        self.high_atoms: Value = 0
        self.low: Value = 0
        self.low_max = 0
        self.constant = 0

    def add_high(self, term: Value, quotient: Value) -> None:
        self.high = add(self.high, term)
        self.high_atoms = add(self.high_atoms, quotient)

    def add_low(self, term: Value, term_max: int) -> bool:
        if term_max < 0 or term_max >= self.atom or self.low_max + term_max >= self.atom:
            return False
        self.low_max += term_max
        self.low = add(self.low, term)
        return True


def _divide_exact(term: Value, divisor: int) -> Value | None:
    """TIRx's ``DivideExactTerm``: ``term / divisor`` when provably exact, else None."""
    if isinstance(term, int):
        return term // divisor if term % divisor == 0 else None
    if isinstance(term, Mul):
        for factor, value in ((term.b, term.a), (term.a, term.b)):
            f = getattr(factor, "value", None)
            if isinstance(f, int) and f >= 0 and f % divisor == 0:
                return mul(value, f // divisor)
    if floormod(term, divisor) == 0:
        return floordiv(term, divisor)
    return None


def _structured(layout: _compose.ComposeLayout, tile: _tile.TileLayout,
                coord: Sequence[Value]) -> dict[str, Value]:
    coord = [0 if it.extent == 1 else c for it, c in zip(tile.shard, coord, strict=True)]
    mapped = apply_iters(tile, coord)
    if "m" not in mapped:
        return mapped
    m = mapped["m"]
    params = _tirx_params(layout.swizzle)
    if params is not None and params[1] == 0:
        return mapped
    if isinstance(m, int) or params is None or not params[3] \
            or params[0] + params[2] >= 62:
        mapped["m"] = _full_swizzle(layout, m, coord)
        return mapped
    pe, b, s, _ = params
    form = _Structured(1 << (pe + s))
    for it, c in zip(tile.shard, coord, strict=True):
        if it.axis != "m" or it.extent == 1:
            continue
        if not _classify(form, it, c):
            mapped["m"] = _full_swizzle(layout, m, coord)
            return mapped
    form.constant += tile.offset.get("m", 0)
    out = _assemble(form, pe, (1 << b) - 1)
    mapped["m"] = _full_swizzle(layout, m, coord) if out is None else out
    return mapped


def _classify(form: _Structured, it: Iter, c: Value) -> bool:
    """Put one iter's term ``c * stride`` into the high, low or constant part."""
    atom, stride = form.atom, it.stride
    if stride < 0:
        return False
    term = mul(c, stride)
    if isinstance(term, int):
        if term < 0:
            return False
        form.constant += term
        return True
    quotient = _divide_exact(term, atom)
    if quotient is not None:
        form.add_high(term, quotient)
        return True
    term_max = (it.extent - 1) * stride
    if term_max >= atom and 0 < stride < atom and atom % stride == 0:
        # one coordinate spanning atoms: its high part is atom-aligned, its low part
        # stays inside one atom
        n = atom // stride
        high_coord, low_coord = floordiv(c, n), floormod(c, n)
        form.add_high(mul(high_coord, atom), high_coord)
        return form.add_low(mul(low_coord, stride), (min(it.extent, n) - 1) * stride)
    return form.add_low(term, term_max)


def _assemble(form: _Structured, pe: int, mask: int) -> Value | None:
    atom, constant = form.atom, form.constant
    if constant < 0:
        return None
    constant_low = constant % atom
    constant_high = constant - constant_low
    if constant_high:
        form.high = add(form.high, constant_high)
        phase = (constant_high // atom) & mask
        if phase:
            form.high_atoms = add(form.high_atoms, phase)
    if form.low_max + constant_low >= atom:
        return None
    if constant_low and form.low_max and form.low_max >= constant_low & -constant_low:
        return None
    phase_expr = bitwise(AND, form.high_atoms, mask)
    permuted = bitwise(XOR, form.low, shift(SHL, phase_expr, pe))
    base = add(form.high, permuted)
    return base if constant_low == 0 else bitwise(XOR, base, constant_low)


def apply_compose(layout: _compose.ComposeLayout, coord: Sequence[Value],
                  shape: Sequence[int] | None) -> dict[str, Value]:
    """TIRx's ``ComposeLayout.apply``: the tile's coordinate with ``m`` swizzled.

    >>> from tilelayout import parse
    >>> C = parse("ComposeLayout(Swizzle(0,2,3), S[32:1])")
    >>> apply_compose(C, [33], None), apply_compose(C, [1, 2], (4, 8))
    ({'m': 33}, {'m': 11})
    """
    tile = layout.tile_layout
    if shape is not None:
        found = try_group(tile, shape)
        if found is None:
            mapped = apply_tile(tile, coord, shape)
            if "m" in mapped:
                mapped["m"] = _full_swizzle(layout, mapped["m"], coord)
            return mapped
        grouped, seps = found
        return _structured(layout, grouped, _grouped_coord(grouped, seps, coord))
    if len(coord) == 1:
        mapped = apply_tile(tile, coord, None)
        if "m" not in mapped:
            return mapped
        m = mapped["m"]
        params = _tirx_params(layout.swizzle)
        if params is None:
            mapped["m"] = (layout.swizzle.apply(m) if isinstance(m, int)
                           else _images_swizzled(m, xor_images(layout) or ()))
        else:
            mapped["m"] = _swizzled(m, params)
        return mapped
    return _structured(layout, tile, coord)


# -- the entry point ----------------------------------------------------------------------
def check_coord(layout: _compose.Layout, coord: Sequence[object],
                shape: Sequence[int] | None) -> tuple[list[Value], tuple[int, ...] | None]:
    """The coordinate (ints or symbolic indices) and shape, checked against ``layout``."""
    tile = _compose.tile_of(layout)
    if len(coord) == 1 and isinstance(coord[0], tuple | list) and shape is None:
        coord = tuple(coord[0])
    if len(coord) > 64:
        raise ShapeError(f"a coordinate of {len(coord)} indices; at most 64 are taken")
    values = [node(c) for c in coord]
    if shape is not None:
        dims = check_ints(list(shape) if isinstance(shape, tuple | list) else shape,
                          "shape", low=1)
        if len(values) != len(dims):
            raise ShapeError(f"a coordinate of {len(values)} indices for a shape of "
                             f"{len(dims)} dims {dims} (TIRx: the sizes must be equal)")
        return values, dims
    if not values and tile.shard:
        raise ShapeError("apply needs an index: a flat index, one per shard iter, or a "
                         "coordinate with shape=")
    if len(values) != 1 and len(values) != len(tile.shard):
        raise ShapeError(f"{len(values)} indices for a layout of {len(tile.shard)} shard iters "
                         f"(TIRx: one index per shard iter, or a flat index)")
    return values, None


def tirx_apply(layout: _compose.Layout, coord: Sequence[object],
               shape: Sequence[int] | None = None) -> dict[str, Value]:
    """TIRx's ``apply`` of ``layout`` (ours, either kind) at ``coord``.

    >>> from tilelayout import parse
    >>> tirx_apply(parse("S[(8,1,4,2):(4@laneid,2,1@laneid,1)]"), (3, 5), (8, 8))
    {'laneid': 14, 'm': 1}
    """
    values, dims = check_coord(layout, coord, shape)
    if isinstance(layout, _compose.ComposeLayout):
        return apply_compose(layout, values, dims)
    if not isinstance(layout, _tile.TileLayout):
        raise LayoutError(f"expected a layout, got {shown(layout)}")
    return apply_tile(layout, values, dims)


__all__ = ["apply_compose", "apply_iters", "apply_tile", "check_coord", "flatten_coord",
           "split_coord", "tirx_apply", "try_group"]
