"""A register layout as a bit map: which element bits each register, lane and warp bit moves.

Most GPU register layouts are linear over GF(2) (Triton's linear layouts): every bit of
the register slot ``m``, of the lane and of the warp either moves one bit of the
element's flat (row-major) index or none (a broadcast: the element is held on both
sides of that bit). :class:`ThreadBits` holds that map as ints -- ``reg[k]`` is the
flat-index vector register bit ``k`` moves, 0 for a broadcast -- so that the planner can
reason about a whole tile with a few dozen word operations instead of one row per
element (docs/data-movement.md, *Planning on bits*).

:func:`thread_bits` reads it off a layout, or returns None where the layout is not a bit
map (an offset, an extent or stride that is not a power of two, two iters on one bit,
idle register slots or threads, CTA or device axes): those layouts are planned element
by element.

>>> import tilelayout as tl
>>> tb = thread_bits(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))  # mma C
>>> tb.reg, tb.lane, tb.warp, tb.bits
((1, 64), (2, 4, 8, 16, 32), (), 7)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ...algebra.bits import dim_bits, layout_bases
from ...core.compose import ComposeLayout, Layout
from ...core.errors import LayoutError
from ...core.f2 import Subspace

#: lanes per warp, as bits
LANE_BITS = 5
#: thread axes -> the bit of the CTA thread id their bit 0 is
#: (``tid = laneid + tid_in_wg + tx + 32*(warpid + wid_in_wg) + 128*wgid``)
THREAD_SHIFT = MappingProxyType({"laneid": 0, "tid_in_wg": 0, "tx": 0,
                                 "warpid": 5, "wid_in_wg": 5, "wgid": 7})
#: thread axes with a hardware extent, in bits (32 lanes, 128 threads and 4 warps of a
#: warpgroup): a layout past it is left to the element planner, which refuses it
THREAD_BITS = MappingProxyType({"laneid": 5, "tid_in_wg": 7, "wid_in_wg": 2})


@dataclass(frozen=True)
class ThreadBits:
    """The bit map of a register layout over a tile of ``2**bits`` elements.

    ``reg`` / ``lane`` / ``warp``: per bit of the register slot, of the lane id and of
    the warp id, the flat element-index vector it moves (0: a broadcast). ``lane`` has
    fewer than 5 entries only for a single-warp layout that leaves upper lanes idle.
    """

    reg: tuple[int, ...]
    lane: tuple[int, ...]
    warp: tuple[int, ...]
    bits: int

    @property
    def threads(self) -> tuple[int, ...]:
        """Lane bits then warp bits: the CTA thread id's bits."""
        return self.lane + self.warp

    def held(self, warp_local: bool = True) -> Subspace:
        """The elements one warp holds (``warp_local=True``), or one thread (``False``),
        as a subspace of flat-index vectors (the other warps / threads hold translates)."""
        return Subspace(self.reg + (self.lane if warp_local else ()))

    def without_broadcast_registers(self) -> ThreadBits:
        """The same map with the register bits that move nothing removed (those slots
        only repeat others)."""
        return ThreadBits(tuple(v for v in self.reg if v), self.lane, self.warp, self.bits)

    def element(self, reg: int, lane: int, warp: int) -> int:
        """The flat element index register slot ``reg`` of lane ``lane`` of warp
        ``warp`` holds.

        >>> ThreadBits((1,), (2,), (4,), 3).element(1, 0, 1)
        5
        """
        out = 0
        for vectors, value in ((self.reg, reg), (self.lane, lane), (self.warp, warp)):
            for k, v in enumerate(vectors):
                if value >> k & 1:
                    out ^= v
        return out


def thread_bits(layout: Layout, shape: Sequence[int] | None = None) -> ThreadBits | None:
    """``layout`` over ``shape`` as a :class:`ThreadBits`, or None when it is not a bit
    map of registers, lanes and warps (see the module doc).

    >>> import tilelayout as tl
    >>> thread_bits(tl.parse("S[(4,32):(1@warpid,1@laneid)] + R[2:1]"), (4, 32)).reg
    (0,)
    >>> thread_bits(tl.parse("S[(4,32):(1@warpid,1@laneid)] + 1@warpid"), (4, 32)) is None
    True
    """
    if isinstance(layout, ComposeLayout):
        return None
    axes = set(layout.axes)
    if not axes - {"m"} or not axes <= set(THREAD_SHIFT) | {"m"}:
        return None  # a shared-memory tile, or CTA / device / other memory axes
    try:
        dims = layout.check_shape(shape)
        bases = layout_bases(layout, dims)
    except LayoutError:
        return None
    flat = {db: 1 << p for p, db in enumerate(dim_bits(dims))}

    def vector(vec: Sequence[int]) -> int:
        out = 0
        for d, v in enumerate(vec):
            b = 0
            while v:
                if v & 1:
                    out |= flat[(d, b)]
                v >>= 1
                b += 1
        return out

    reg = tuple(vector(v) for v in bases.get("m", []))
    tid: dict[int, int] = {}
    for axis, vectors in bases.items():
        if axis == "m":
            continue
        if len(vectors) > THREAD_BITS.get(axis, len(vectors)):
            return None
        for k, vec in enumerate(vectors):
            bit = THREAD_SHIFT[axis] + k
            if bit in tid:
                return None  # two thread axes on one thread-id bit: their sum carries
            tid[bit] = vector(vec)
    lanes = sorted(b for b in tid if b < LANE_BITS)
    warps = sorted(b for b in tid if b >= LANE_BITS)
    if lanes != list(range(len(lanes))) or warps != list(range(LANE_BITS, LANE_BITS + len(warps))):
        return None  # idle threads between others
    if warps and len(lanes) != LANE_BITS:
        return None  # idle lanes inside warps that hold data
    return ThreadBits(reg, tuple(tid[b] for b in lanes), tuple(tid[b] for b in warps), len(flat))


def spans(vectors: Iterable[int], inside: Subspace) -> bool:
    """Every vector lies in ``inside``.

    >>> spans([3], Subspace([1, 2])), spans([4], Subspace([1, 2]))
    (True, False)
    """
    return all(v in inside for v in vectors)


def exchange_level(src: ThreadBits, dst: ThreadBits) -> str | None:
    """The coarsest level at which the conversion ``src -> dst`` exchanges data:
    ``"none"``, ``"registers"`` (each thread has what it needs), ``"warp-shuffle"``
    (each warp does), ``"shared-memory"``; None when the two maps are not comparable
    (different lane or warp counts: some threads idle on one side only).

    A destination thread needs ``span(dst.reg)`` translated by its lane and warp bits'
    vectors; a source thread holds the same for ``src``: each thread has what it needs
    iff ``dst.reg`` lies in ``span(src.reg)`` and every lane and warp bit moves the same
    elements on both sides up to ``span(src.reg)``. Likewise per warp with
    ``span(reg + lane)``.

    >>> a = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)
    >>> exchange_level(a, ThreadBits((2,), (1, 4, 8, 16, 32), (), 6))
    'warp-shuffle'
    >>> exchange_level(a, ThreadBits((1, 0), (2, 4, 8, 16, 32), (), 6))
    'registers'
    """
    if len(src.lane) != len(dst.lane) or len(src.warp) != len(dst.warp):
        return None
    thread = src.held(warp_local=False)
    pairs = zip(dst.threads, src.threads, strict=True)
    if spans(dst.reg, thread) and all(d ^ s in thread for d, s in pairs):
        same = dst.threads == src.threads and dst.reg == src.reg[: len(dst.reg)]
        return "none" if same else "registers"
    warp = src.held(warp_local=True)
    if spans(dst.reg + dst.lane, warp) and all(d ^ s in warp for d, s in
                                               zip(dst.warp, src.warp, strict=True)):
        return "warp-shuffle"
    return "shared-memory"


__all__ = ["LANE_BITS", "ThreadBits", "exchange_level", "spans", "thread_bits"]
