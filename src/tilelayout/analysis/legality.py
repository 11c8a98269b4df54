"""Legality report: is a layout realisable on the hardware the axis table in force describes?

Findings (each with a message, a count and example elements):

* ``out_of_range`` — values outside a hardware-fixed extent (lane 40, TMEM lane 130);
  the range comes from the iters in O(iters), the elements from a vectorized scan.
* ``scope_gap`` / ``scope_overlap`` — thread axes must chain their scopes
  (thread -> warp -> warpgroup -> cta -> cluster/kernel): ``laneid`` with ``wgid`` and
  nothing between leaves warp -> warpgroup unnamed; ``tx`` with ``laneid`` names the
  thread -> warp step twice.
* ``duplicate`` — two logical elements share a whole coordinate (not injective).
* ``unused`` — coordinates inside the covered box (per axis ``[min, max]``; ``[0,
  extent)`` for hardware-fixed thread axes) that no element uses.
* ``registers`` — a thread-distributed layout (an axis scoped from ``thread``, e.g.
  ``laneid``, with ``m`` = the register slot) whose slots need more than 255 32-bit
  registers per thread, counting the dtype's packing (two 16-bit values per register).
* ``capacity`` — a Trainium SBUF tile (axes ``P``, ``F``) needing more bytes per partition
  than the generation has (192/224/256 KiB), or a PSUM tile (with ``Bank``) wider than a
  bank's 512 32-bit values.

Evaluation never rejects such layouts; this report is where they are named.

>>> import tilelayout as tl
>>> r = legality(tl.parse("S[(2,32):(1@wgid,2@laneid)]"))
>>> [f.kind for f in r.findings]
['out_of_range', 'scope_gap', 'unused']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..algebra.distinct import distinct_rows
from ..core import budget
from ..core.axes import SCOPE_LEVEL
from ..core.axes import axis_of as lookup_axis
from ..core.capacity import (
    MAX_REGISTERS_PER_THREAD,
    PSUM_BANK_BYTES,
    SBUF_SOURCE,
    sbuf_bytes,
)
from ..core.compose import ComposeLayout, Layout, tile_of, value_range
from ..core.dtypes import dtype_bits
from ..core.shape import unflatten
from ..core.tile import TileLayout

#: how many elements a report lists per finding
EXAMPLES = 8
#: largest N*R the element-level checks scan (beyond, findings give counts from ranges);
#: also at most an eighth of the ``elements`` limit (see core/budget.py)
SCAN_LIMIT = 1 << 24


@dataclass(frozen=True)
class Finding:
    """One problem: what, how many elements, a few of them (logical indices), and -- for
    element-level findings that were scanned -- the flat indices of all of them.

    ``axis`` names the axis of an ``out_of_range`` finding; ``elements`` is empty for
    findings about the layout as a whole (scope, unused) and beyond the scan limit.
    """

    kind: str
    message: str
    count: int | None = None
    examples: tuple[tuple[int, ...], ...] = ()
    axis: str | None = None
    elements: tuple[int, ...] = ()
    #: one plain sentence: why the finding matters and whether it is normal for this layout
    why: str = ""

    @property
    def element_level(self) -> bool:
        """True for findings about particular elements (``out_of_range``, ``duplicate``);
        the others are about the layout as a whole."""
        return self.kind in ("out_of_range", "duplicate")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"kind": self.kind, "message": self.message, "count": self.count,
                "examples": [list(e) for e in self.examples], "axis": self.axis,
                "elements": list(self.elements), "why": self.why}


@dataclass(frozen=True)
class LegalityReport:
    """Every finding for one layout and shape; ``ok`` when there are none."""

    layout: str
    shape: tuple[int, ...]
    findings: tuple[Finding, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when nothing was found."""
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"layout": self.layout, "shape": list(self.shape), "ok": self.ok,
                "findings": [f.to_dict() for f in self.findings]}

    def __str__(self) -> str:
        if self.ok:
            return f"{self.layout}: legal"
        lines = [f"{self.layout}: {len(self.findings)} finding(s)"]
        for f in self.findings:
            ex = ", ".join(str(e) for e in f.examples)
            lines.append(f"  [{f.kind}] {f.message}" + (f" e.g. {ex}" if ex else ""))
            if f.why:
                lines.append(f"    {f.why}")
        return "\n".join(lines)


def _ranges(tile: TileLayout) -> dict[str, tuple[int, int]]:
    return {a: value_range(tile, a) for a in tile.axes}


def _examples(flat: np.ndarray, shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The first few of ``flat`` (sorted, distinct flat indices) as logical indices."""
    return tuple(unflatten(int(f), shape) for f in flat[:EXAMPLES])


def _scope_findings(axes: tuple[str, ...]) -> list[Finding]:
    scoped = sorted(
        ((SCOPE_LEVEL[s[0]], SCOPE_LEVEL[s[1]], a) for a in axes
         if (s := lookup_axis(a).scope) is not None),
    )
    out = []
    for (_lo1, hi1, a1), (lo2, _hi2, a2) in zip(scoped, scoped[1:], strict=False):
        if lo2 < hi1:
            out.append(Finding("scope_overlap",
                               f"'{a1}' and '{a2}' both count the same scope step; one thread "
                               f"would be named twice (use one of them)"))
        elif lo2 > hi1:
            names = [k for k, v in SCOPE_LEVEL.items() if v in (hi1, lo2)]
            out.append(Finding("scope_gap",
                               f"'{a1}' ends at {names[0]} but '{a2}' starts at {names[-1]}: "
                               f"nothing names the step between (add an axis such as "
                               f"{'wid_in_wg' if names == ['warp', 'warpgroup'] else 'one for it'})"))
    return out


def hardware_extent(axis: str, dtype: str | None = None) -> int | None:
    """The number of values the hardware has on ``axis`` (``None``: not fixed).

    ``TCol`` counts elements of the stored type (docs/model.md, "Axes"): 512 32-bit columns hold
    2048 8-bit or 1024 16-bit values, so with a narrower ``dtype`` the extent grows.

    >>> hardware_extent("laneid"), hardware_extent("TCol"), hardware_extent("TCol", "e8m0")
    (32, 512, 2048)
    """
    ext = lookup_axis(axis).extent
    if axis == "TCol" and ext is not None and dtype is not None:
        bits = dtype_bits(dtype)
        if bits < 32:
            ext = ext * (32 // bits)
    return ext


def _register_findings(layout: Layout, ranges: dict[str, tuple[int, int]],
                       dtype: str | None) -> list[Finding]:
    threaded = [a for a in ranges if (sc := lookup_axis(a).scope) is not None and sc[0] == "thread"]
    if isinstance(layout, ComposeLayout) or not threaded or "m" not in ranges:
        return []
    lo, hi = ranges["m"]
    bits = dtype_bits(dtype) if dtype else 32
    registers = -(-(hi + 1) * bits // 32)
    if lo < 0 or registers <= MAX_REGISTERS_PER_THREAD:
        return []
    packing = f"{hi + 1} {dtype or '32-bit'} slots" + (
        f", {32 // bits} per register" if bits < 32 else "")
    return [Finding("registers",
                    f"each thread ('{threaded[0]}') holds register slots m = 0..{hi} ({packing}): "
                    f"{registers} 32-bit registers, but a thread has at most "
                    f"{MAX_REGISTERS_PER_THREAD} (CUDA C++ Programming Guide, compute "
                    f"capabilities)", axis="m")]


def _capacity_findings(ranges: dict[str, tuple[int, int]], dtype: str | None,
                       generation: str) -> list[Finding]:
    if "P" not in ranges or "F" not in ranges:
        return []
    lo, hi = ranges["F"]
    if "Bank" in ranges:  # PSUM: F indexes 32-bit values within one bank
        width = PSUM_BANK_BYTES // 4
        if hi < width:
            return []
        return [Finding("capacity", f"'F' reaches {hi} but a PSUM bank holds {width} 32-bit "
                        f"values (8 banks x 2 KiB per partition; NKI docs)", axis="F")]
    kind = dtype or "bfloat16"
    need = (hi + 1) * dtype_bits(kind) // 8
    have = sbuf_bytes(generation)
    if need <= have:
        return []
    return [Finding("capacity", f"the free offset reaches F = {hi}: {need} bytes of {kind} per "
                    f"partition, over a {generation} SBUF partition's {have // 1024} KiB "
                    f"({SBUF_SOURCE[generation]})", axis="F")]


def _value_text(values: np.ndarray) -> str:
    """``"7, 8"`` or ``"16-31"`` for sorted integers (runs shortened), the first few."""
    runs, start = [], 0
    for i in range(1, len(values) + 1):
        if i == len(values) or values[i] != values[i - 1] + 1:
            a, b = int(values[start]), int(values[i - 1])
            runs.append(f"{a}-{b}" if b > a + 1 else f"{a}, {b}" if b > a else f"{a}")
            start = i
    return ", ".join(runs[:4]) + (", ..." if len(runs) > 4 else "")


def _unused_why(tile: TileLayout, coords: dict[str, np.ndarray],
                spans: dict[str, tuple[int, int]]) -> str:
    """The one sentence a reader of an ``unused`` finding needs: which threads idle (or
    that it is holes between addresses), why that matters, and whether it is normal here."""
    placed = {a for a, _ in tile.offset.items()} | {it.axis for it in tile.replica}
    for a, (lo, hi) in spans.items():
        if lookup_axis(a).kind != "thread" or hi - lo >= 1 << 20:
            continue
        idle = np.setdiff1d(np.arange(lo, hi + 1), coords[a])
        if not len(idle):
            continue
        who = f"{a} {_value_text(idle)}"
        if a in placed:
            used = _value_text(np.unique(coords[a]))
            return (f"{who} hold no element because the layout's offset or replica places it on "
                    f"{a} {used} only: normal for this layout, and it matters only if the "
                    f"threads of {who} were meant to share this tile's work.")
        return (f"{who} hold no element, so those threads sit idle on this tile: normal for a "
                f"tile smaller than the threads that run it, worth a look if every thread "
                f"should hold data.")
    if all(lookup_axis(a).kind != "thread" for a in spans):
        return ("The layout skips places inside the range it spans (padding or a strided "
                "placement): normal for padded or strided layouts, wasted space if the tile "
                "was meant to be dense.")
    return ("Every thread holds data but not in every slot of the box (uneven register or "
            "address use across threads): normal for uneven splits, worth a look if the work "
            "should be balanced.")


def legality(
    layout: Layout, shape: tuple[int, ...] | None = None, dtype: str | None = None,
    *, generation: str = "trn2",
) -> LegalityReport:
    """Check ``layout`` against the axis table in force (see the module docstring).

    ``dtype`` is the stored element type; it matters for ``TCol``, which counts elements
    (see :func:`hardware_extent`), for register packing and SBUF bytes. ``generation``
    (trn1/trn2/trn3) sets the SBUF partition size for Trainium tiles.

    >>> import tilelayout as tl
    >>> legality(tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid]")).ok
    False
    >>> legality(tl.parse("S[(128,1024):(1@TLane,1@TCol)]"), dtype="e4m3").ok
    True
    >>> [f.kind for f in legality(tl.parse("S[(32,512):(1@laneid,1)]"), dtype="float32").findings]
    ['registers']
    """
    tile = tile_of(layout)
    s = layout.check_shape(shape)
    ranges = _ranges(tile)
    findings: list[Finding] = []
    # the exact scan sorts one key per (element, replica) pair: about 8x the work of
    # evaluating them, so it runs up to an eighth of the elements limit (and SCAN_LIMIT)
    small = layout.size() * layout.replica_count <= min(SCAN_LIMIT,
                                                         budget.current().elements // 8)
    coords = layout.map_all(s) if small else None
    n = layout.size()
    for a, (lo, hi) in ranges.items():
        ext = hardware_extent(a, dtype)
        if ext is None or (lo >= 0 and hi < ext):
            continue
        count, ex, elements = None, (), ()
        if coords is not None:
            bad = (coords[a] < 0) | (coords[a] >= ext)
            flat = np.nonzero(bad.reshape(n, -1).any(axis=1))[0]
            count, ex, elements = len(flat), _examples(flat, s), tuple(flat.tolist())
        findings.append(Finding("out_of_range",
                                f"'{a}' takes values in [{lo}, {hi}] but the hardware has "
                                f"{ext} ({a} {hi if hi >= ext else lo} does not exist)", count, ex,
                                axis=a, elements=elements))
    findings += _scope_findings(tile.axes)
    findings += _register_findings(layout, ranges, dtype)
    findings += _capacity_findings(ranges, dtype, generation)
    if coords is not None and tile.axes:
        axes = tile.axes
        r = next(iter(coords.values())).shape[-1]
        elem = np.repeat(np.arange(n, dtype=np.int64), r)
        # distinct (coordinate, element) pairs; a coordinate with two elements is a duplicate
        uniq_key = distinct_rows([coords[a].reshape(-1) for a in axes] + [elem])
        if uniq_key.ndim == 1:  # one int64 per row, the element fastest
            coord_key = uniq_key // n
            cu, cinv, ccount = np.unique(coord_key, return_inverse=True, return_counts=True)
            pair_elem = uniq_key % n
        else:  # the ranges multiply beyond int64: distinct rows, compared row-wise
            cu, cinv, ccount = np.unique(uniq_key[:, :-1], axis=0, return_inverse=True,
                                         return_counts=True)
            pair_elem = uniq_key[:, -1]
        dup = ccount[cinv.reshape(-1)] > 1
        if dup.any():
            flat = np.unique(pair_elem[dup])
            findings.append(Finding("duplicate",
                                    f"{int((ccount > 1).sum())} coordinate(s) hold more than one "
                                    f"logical element (the layout is not injective)",
                                    len(flat), _examples(flat, s), elements=tuple(flat.tolist())))
        box, spans = 1, {}
        for a in axes:
            # from the values themselves: a swizzle moves 'm' outside the tile's range
            lo, hi = int(coords[a].min()), int(coords[a].max())
            info = lookup_axis(a)
            if info.kind == "thread" and info.extent is not None and lo >= 0 and hi < info.extent:
                lo, hi = 0, info.extent - 1
            box *= hi - lo + 1
            spans[a] = (lo, hi)
        unused = box - len(cu)
        if unused > 0:
            findings.append(Finding("unused",
                                    f"{unused} of the {box} coordinates in the covered box of "
                                    f"({', '.join(axes)}) hold no element (idle threads or holes)",
                                    unused, why=_unused_why(tile, coords, spans)))
    return LegalityReport(str(layout), s, tuple(findings))


__all__ = ["Finding", "LegalityReport", "legality"]
