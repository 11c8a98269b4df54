"""Choosing the shared-memory layout a tile goes through between two distributed layouts.

``choose_smem_layout(writer, reader, shape, dtype)`` costs every candidate layout with
:func:`~tilelayout.planning.mechanisms.staging.access.smem_access` for the stores (``writer``'s registers
-> shared memory) and the loads (shared memory -> ``reader``'s registers) and returns
the one with the fewest write + read wavefronts, ties broken by fewer instructions, wider vectors, then
fewer bytes, then the hardware that accepts it (TMA / wgmma / tcgen05), then the
simpler candidate. Families:

* ``"swizzle"``: compact tiles in every dims' order composed with every swizzle mode
  the hardware offers for the dtype (:mod:`tilelayout.planning.mechanisms.staging.swizzle_family`);
* ``"any"``: every bijective XOR-linear layout of a 2^n-element tile
  (:mod:`tilelayout.planning.mechanisms.staging.xor_family`).

``ideal`` is the wavefront model's lower bound: each side's requests at the widest
vector its own registers allow, one wavefront per phase with an active lane.

>>> import tilelayout as tl
>>> C = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")          # mma.m16n8k16 C
>>> T = tl.parse("S[(8,2,4,2):(4@laneid,1,1@laneid,2)]")          # C transposed: lane owns columns
>>> c = choose_smem_layout(C, T, (16, 8), "float32")
>>> c.write.wavefronts + c.read.wavefronts, c.ideal
(8, 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ....core import budget
from ....core.compose import Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.shape import Shape
from ...problem.operands import resolve
from ...problem.targeting import TargetChoice
from .access import AccessReport, check_tile, no_access
from .costing import Costed, Sides, best, cost, lower_bound, prepare
from .swizzle_family import swizzle_candidates
from .tma import (
    TmaBoxes,
    TmaCandidate,
    TmaEndpoint,
    endpoint,
    is_endpoint,
    thread_side,
    tma_candidates,
    worst_of,
)
from .xor_family import xor_candidates

FAMILIES = ("swizzle", "any")


@dataclass(frozen=True)
class SmemChoice:
    """The chosen shared-memory layout and why.

    ``layout`` (on ``m``), ``write`` / ``read`` (:class:`AccessReport`), ``ideal`` (the
    lower bound on write + read wavefronts), ``accepted_by`` (hardware modes that accept
    ``layout``), ``candidates`` (every costed candidate, best first: the runners-up),
    ``searched`` (how many layouts were costed) and ``family``.
    """

    layout: Layout
    name: str
    write: AccessReport
    read: AccessReport
    ideal: int
    accepted_by: tuple[str, ...]
    family: str
    shape: Shape
    dtype: str
    candidates: tuple[Costed, ...] = field(repr=False)
    searched: int = 0
    notes: tuple[str, ...] = ()
    #: the GPU target planned for (:mod:`.targeting`), and why it was chosen
    target: str | None = None
    target_from: str = ""
    #: with a ``"tma"`` endpoint: how TMA moves the tile (:mod:`.tma`)
    tma: TmaBoxes | None = None

    @property
    def wavefronts(self) -> int:
        """Write + read wavefronts of the chosen layout."""
        return self.write.wavefronts + self.read.wavefronts

    @property
    def distance(self) -> int:
        """Wavefronts above the ideal (0: the lower bound is reached)."""
        return self.wavefronts - self.ideal

    def to_dict(self, *, per_request: bool = False) -> dict[str, Any]:
        """Plain JSON-ready data (the candidates as table rows)."""
        return {"layout": str(self.layout), "name": self.name, "family": self.family,
                "shape": list(self.shape), "dtype": self.dtype,
                "wavefronts": self.wavefronts, "ideal": self.ideal, "distance": self.distance,
                "write": self.write.to_dict(per_request=per_request),
                "read": self.read.to_dict(per_request=per_request),
                "accepted_by": list(self.accepted_by), "searched": self.searched,
                "target": self.target, "target_from": self.target_from,
                "tma": None if self.tma is None else str(self.tma),
                "notes": list(self.notes),
                "candidates": [c.row() for c in self.candidates]}

    def __str__(self) -> str:
        return (f"{self.layout}  [{self.name}; {'x'.join(map(str, self.shape))} "
                f"{self.dtype}; {self.target or 'any target'}]\n  write: {self.write}\n  read:  {self.read}\n"
                f"  total {self.wavefronts} wavefronts, ideal {self.ideal} "
                f"(+{self.distance})")


def choose_smem_layout(
    writer: Layout | str, reader: Layout | str, shape: Sequence[int] | None = None,
    dtype: str | None = None, family: str = "swizzle", *, target: Any = None,
    limits: budget.Limits | None = None,
) -> SmemChoice:
    """The shared-memory layout for a tile stored through ``writer`` and loaded through
    ``reader`` that minimises write + read wavefronts (see the module doc). Each side is a
    layout, layout text or ``"preset:NAME[:KEY=VALUE...]"`` (:mod:`.operands`: ``shape``
    and ``dtype`` default to the presets'). ``target`` (``"sm_90a"``, ...; default: the
    one the presets need, else sm_90a, :mod:`.targeting`) decides the hardware swizzle
    modes and paths; ``c.target`` states it. The register files are bounded by the
    ``elements`` limit, the candidates costed by ``search`` (``limits=`` or ``tl.limits``).

    >>> import tilelayout as tl
    >>> rows = tl.parse("S[(2,32,32):(1@warpid,1@laneid,1)]")     # lane owns a row
    >>> cols = tl.parse("S[(64,32):(1,1@laneid)]")                 # lane owns a column
    >>> c = choose_smem_layout(rows, cols, (64, 32), "float16")
    >>> c.name, c.write.vector_bytes, c.read.vector_bytes, c.wavefronts, c.ideal
    ('rows(0,1) 64B', 16, 2, 96, 64)
    """
    if family not in FAMILIES:
        raise LayoutError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    if is_endpoint(writer) or is_endpoint(reader):
        with budget.using(limits):
            return tma_endpoint_choice(writer, reader, shape, dtype, target)
    ops = resolve([(writer, "writer"), (reader, "reader")], shape, dtype, None, target)
    w, r = ops.layouts
    with budget.using(limits):
        return _choose(w, r, ops.shape, ops.dtype, family, ops.target)


def widest_choice(writer: Layout, reader: Layout, shape: Sequence[int] | None, dtype: str,
                  on: TargetChoice | None = None, *, sides: Sides | None = None) -> SmemChoice:
    """The best layout of every family that applies: ``"any"`` (which also costs the
    hardware swizzles) for F2-linear sides of a 2^n-element tile, else ``"swizzle"``.
    Conversion plans stage through this choice. ``sides``: the caller's
    ``prepare(writer, reader, shape, dtype)``, when it has it (:mod:`.costing`)."""
    try:
        return _choose(writer, reader, shape, dtype, "any", on, quick=True, sides=sides)
    except LayoutError:
        return _choose(writer, reader, shape, dtype, "swizzle", on, sides=sides)


def _choose(writer: Layout, reader: Layout, shape: Sequence[int] | None, dtype: str,
            family: str, on: TargetChoice | None = None, *, quick: bool = False,
            sides: Sides | None = None) -> SmemChoice:
    hw = None if on is None else on.target
    if sides is None:
        sides = prepare(writer, reader, shape, dtype)
    nbytes = dtype_bytes(dtype)
    ideal = lower_bound(sides.writer, nbytes) + lower_bound(sides.reader, nbytes)
    notes: list[str] = []
    if family == "swizzle":
        cands = swizzle_candidates(sides.shape, dtype, hw)
        budget.check("the swizzle family costs", len(cands), "search")
        costed = [cost(sides, c.name, c.layout, c.accepted_by) for c in cands]
    else:
        # quick (a plan's staging): the synthesized layouts only, the hardware family
        # when none was synthesized (test_exhaustive holds the result to the optimum)
        costed, notes = xor_candidates(sides, hw, (lambda c: True) if quick else None)
    if not costed:
        raise LayoutError(f"no {family} layout fits the tile {sides.shape} of {dtype}")
    ranked = best(costed)
    top = cost(sides, ranked[0].name, ranked[0].layout, ranked[0].accepted_by, worst=True)
    ranked[0] = top
    return SmemChoice(top.layout, top.name, top.write, top.read, ideal, top.accepted_by,
                      family, sides.shape, dtype, tuple(ranked), len(costed), tuple(notes),
                      None if on is None else on.name, "" if on is None else on.why)


def tma_endpoint_choice(writer: Any, reader: Any, shape: Sequence[int] | None,
                        dtype: str | None, target: Any) -> SmemChoice:
    """:func:`choose_smem_layout` with ``"tma"`` as one side (:mod:`.tma`): the layouts a
    TMA tensor map writes, ranked by the threads' wavefronts, then instructions, then
    fewer boxes, then wider inner rows."""
    if is_endpoint(writer) and is_endpoint(reader):
        raise LayoutError("both sides are TMA; one side must be threads' registers")
    store = is_endpoint(reader)
    text, thread = (reader, writer) if store else (writer, reader)
    ops = resolve([(thread, "writer" if store else "reader")], shape, dtype, None, target)
    layout, on = ops.layouts[0], ops.target
    s = check_tile(layout, ops.shape, "writer" if store else "reader")
    options = endpoint(text)
    rf = thread_side(layout, s, store, on)
    ranked = tma_candidates(rf, s, ops.dtype, store, options, on)
    none = no_access(ops.dtype)
    rows = tuple(Costed(c.candidate.name, c.candidate.layout,
                        c.access if store else none, none if store else c.access, c.bytes,
                        c.candidate.accepted_by) for c in ranked)
    top = ranked[0]
    access = worst_of(top, rf, s, ops.dtype, store, on)
    ideal = lower_bound(rf, dtype_bytes(ops.dtype))
    notes = (str(top.boxes),) + _fewer_boxes(top, ranked, options)
    return SmemChoice(top.candidate.layout, top.candidate.name, access if store else none,
                      none if store else access, ideal, top.candidate.accepted_by, "tma", s,
                      ops.dtype, rows, len(rows), notes, on.name, on.why,
                      top.boxes)


def _fewer_boxes(top: TmaCandidate, ranked: list[TmaCandidate], options: TmaEndpoint
                 ) -> tuple[str, ...]:
    """Why the chosen tensor map over one with fewer boxes (a wider swizzle), by the
    cost model's units: wavefronts plus one unit per box issued."""
    fewer = [c for c in ranked if c.boxes.boxes < top.boxes.boxes]
    order = f"order={options.order}: dimension contiguous in global memory innermost"
    if not fewer:
        return (order,)
    alt = min(fewer, key=TmaCandidate.key)
    mine, theirs = top.key()[0], alt.key()[0]
    return (order, f"{top.boxes.swizzle} in {top.boxes.boxes} boxes costs "
            f"{top.access.wavefronts} wavefronts + {top.boxes.boxes} box issues = {mine:g} units; "
            f"{alt.boxes.swizzle} in {alt.boxes.boxes} boxes would cost "
            f"{alt.access.wavefronts} + {alt.boxes.boxes} = {theirs:g}")
