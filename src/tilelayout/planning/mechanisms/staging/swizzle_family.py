"""The shared-memory layouts the hardware's swizzle modes give, and who accepts each.

A candidate is a compact tile (one dim contiguous, the others in some order) composed
with one of the XOR swizzles TMA / wgmma / tcgen05 offer for the element size
(the swizzle-mode table, docs/hardware.md): none, 32B, 64B, 128B with 16-byte atomicity, on
sm_100 the 128B mode with 32-byte or 64-byte atomicity, and on sm_103a 96B (the 32B
pattern, so it adds no layout of its own). Two arrangements:

* ``rows``: the contiguous dim is stored whole (row-major for the usual order);
* ``atoms``: the contiguous dim is cut into swizzle-width chunks (the mode's span: 32,
  64 or 128 bytes; 16 bytes for ``none``), chunk index outermost — the box sequence TMA
  writes and the canonical layouts the wgmma / tcgen05 descriptors read.

>>> [c.name for c in swizzle_candidates((8, 64), "float16")][:3]
['rows(0,1) none', 'rows(0,1) 32B', 'rows(0,1) 64B']
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ....core.compose import ComposeLayout, Layout
from ....core.dtypes import dtype_bytes
from ....core.swizzle import Swizzle
from ....core.swizzle_modes import SWIZZLE_MODE_TABLE
from ....core.targets import Target
from ....core.tile import TileLayout


@dataclass(frozen=True)
class SwizzleMode:
    """One hardware swizzle: its name, element-unit :class:`Swizzle` (None = no swizzle),
    span (the bytes of one swizzled row), atomicity and descriptor / tensor-map names."""

    name: str
    swizzle: Swizzle | None
    span: int
    atomicity: int
    tma: str
    wgmma: str | None      # wgmma descriptor layout_type value, or None if not offered
    tcgen05: str | None    # tcgen05 descriptor layout type, or None


def hardware_modes(dtype: str) -> tuple[SwizzleMode, ...]:
    """The swizzle modes for ``dtype``, one per row of the swizzle-mode table
    (core/swizzle_modes.py; docs/hardware.md), in its order.

    >>> [(m.name, str(m.swizzle)) for m in hardware_modes("float16")][:4]
    [('none', 'None'), ('32B', 'Swizzle(3,1,3)'), ('64B', 'Swizzle(3,2,3)'), ('128B', 'Swizzle(3,3,3)')]
    >>> hardware_modes("float16")[4].tma
    'SWIZZLE_128B_ATOM_32B (sm_100+)'
    """
    out = []
    for info in SWIZZLE_MODE_TABLE.values():
        short = (info.tma_enum.removeprefix("CU_TENSOR_MAP_") if info.tma_enum
                 else f"swizzle_mode {info.tensormap_mode}")
        first = info.first_target
        tma = short if info.feature == "tma" else \
            f"{short} ({first.name}{'' if first.arch_specific else '+'})"
        note = f", {info.tcgen05_note.strip('()')}" if info.tcgen05_note else ""
        out.append(SwizzleMode(
            info.name, Swizzle.for_dtype(dtype, info.name) if info.swizzle_len else None,
            info.span_bytes, info.atomicity_bytes, tma,
            None if info.wgmma is None else f"{info.wgmma} ({short})",
            None if info.tcgen05 is None else f"{info.tcgen05} ({short}{note})"))
    return tuple(out)


#: element types the wgmma / tcgen05 shared-memory descriptors read (A/B operands)
MMA_OPERAND_DTYPES = ("float16", "bfloat16", "tfloat32", "float8")


@dataclass(frozen=True)
class Candidate:
    """One member of the swizzle family: ``layout`` over the tile, how it was built
    (``order``: dims outer to inner, the last contiguous; ``arrangement``; ``mode``) and
    the hardware that accepts it (``accepted_by``)."""

    name: str
    layout: Layout
    order: tuple[int, ...]
    arrangement: str
    mode: SwizzleMode
    accepted_by: tuple[str, ...]


def _orders(rank: int) -> list[tuple[int, ...]]:
    ident = tuple(range(rank))
    if rank <= 4:
        return [ident] + [p for p in itertools.permutations(ident) if p != ident]
    return [ident, ident[::-1]]


def _tile(shape: tuple[int, ...], order: tuple[int, ...], chunk: int | None) -> TileLayout:
    """Compact tile: ``order`` outer to inner; with ``chunk``, the contiguous dim is cut
    into chunks of ``chunk`` elements, chunk index outermost."""
    c = order[-1]
    strides: dict[int, int] = {}
    acc = chunk if chunk else 1
    if not chunk:
        strides[c] = 1
        acc = shape[c]
    for d in reversed(order[:-1]):
        strides[d] = acc
        acc *= shape[d]
    iters = []
    for d, e in enumerate(shape):
        if d == c and chunk:
            iters += [(e // chunk, acc, "m"), (chunk, 1, "m")]
        else:
            iters.append((e, strides[d], "m"))
    return TileLayout(iters)


def _offers(target: Target | None, feature: str) -> bool:
    """Whether ``target`` offers ``feature`` (None: every target's features count)."""
    return target is None or target.has(feature)


def _accepted(shape: tuple[int, ...], order: tuple[int, ...], arrangement: str,
              mode: SwizzleMode, dtype: str, target: Target | None = None
              ) -> tuple[str, ...]:
    nb = dtype_bytes(dtype)
    c = order[-1]
    inner = shape[c] * nb if arrangement == "rows" else mode.span
    boxes = 1 if arrangement == "rows" else shape[c] * nb // mode.span
    out = []
    other = [shape[d] for d in order[:-1]]
    fits = all(e <= 256 for e in other) and inner // nb <= 256 and inner % 16 == 0
    tma = _offers(target, "tma") and _offers(target, SWIZZLE_MODE_TABLE[mode.name].feature)
    if fits and tma and (inner == mode.span or (mode.swizzle is None and arrangement == "rows")):
        what = "one box" if boxes == 1 else f"{boxes} boxes of {inner // nb} along dim {c}"
        out.append(f"TMA {mode.tma} ({what})")
    if len(shape) == 2 and dtype in MMA_OPERAND_DTYPES and inner == mode.span:
        rows = shape[order[0]]
        if rows % 8 == 0:
            major = f"dim {c} contiguous: K-major if dim {c} is K, else MN-major"
            if mode.wgmma is not None and mode.atomicity == 16 and _offers(target, "wgmma"):
                out.append(f"wgmma descriptor layout_type {mode.wgmma}, {major}")
            if mode.tcgen05 is not None and _offers(target, "tcgen05"):
                out.append(f"tcgen05 descriptor layout_type {mode.tcgen05}, {major}")
    return tuple(out)


def swizzle_candidates(shape: tuple[int, ...], dtype: str, target: Target | None = None
                       ) -> list[Candidate]:
    """Every distinct member of the swizzle family for a tile of ``shape`` / ``dtype``:
    each dims' order x {rows, atoms} x hardware mode, skipping those the tile cannot hold
    (a swizzle needs whole swizzled blocks; atoms need whole chunks) and duplicates of an
    earlier candidate's layout object. Every candidate is a plain XOR layout that
    ``ld/st.shared`` can use on any target; with a ``target``, ``accepted_by`` lists only
    the paths it has (TMA on sm_90+, its 32- and 64-byte atomicity modes on sm_100+,
    wgmma on sm_90a, tcgen05 on sm_100a / sm_103a).

    >>> len(swizzle_candidates((128, 128), "float16"))
    24
    """
    nb = dtype_bytes(dtype)
    n = math.prod(shape)
    dims = [d for d, e in enumerate(shape) if e > 1] or [len(shape) - 1]
    seen: set = set()
    out: list[Candidate] = []
    for sub in _orders(len(dims)):
        rest = [d for d in range(len(shape)) if d not in dims]
        order = tuple(rest + [dims[i] for i in sub])
        c = order[-1]
        for arrangement in ("rows", "atoms"):
            for mode in hardware_modes(dtype):
                chunk = None
                if arrangement == "atoms":
                    if mode.span % nb or shape[c] % (mode.span // nb) \
                            or shape[c] == mode.span // nb:
                        continue
                    chunk = mode.span // nb
                sw = mode.swizzle
                if sw is not None:
                    block = 1 << (sw.per_element + sw.swizzle_len)
                    if n % block or sw.per_element < 0:
                        continue
                tile = _tile(shape, order, chunk)
                layout: Layout = tile if sw is None or sw.is_identity else ComposeLayout(sw, tile)
                if layout in seen:
                    continue
                seen.add(layout)
                label = ",".join(str(d) for d in order)
                out.append(Candidate(f"{arrangement}({label}) {mode.name}", layout, order,
                                     arrangement, mode,
                                     _accepted(shape, order, arrangement, mode, dtype,
                                               target)))
    return out
