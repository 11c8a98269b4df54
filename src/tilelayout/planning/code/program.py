"""What a conversion plan's code does, in the emitter's terms: the adapter between the
planner's data (a route, a bit program) and the code writers.

:func:`program_of` reads a :class:`~tilelayout.planning.plan.ConversionPlan` into a
:class:`ConversionProgram`: the threads and slots of the SPEC's function, the element
types, the conversion of a wider source type, and one mechanism -- a register exchange
(:mod:`.exchange`: nothing, register moves, shuffle rounds, byte permutes) or a staging
through shared memory (:mod:`.staging`; a plan found on bits through
:mod:`.bit_staging_program`), with a TMA store or load beside it (:mod:`.tma_program`).
Before any code is written the program is executed on element numbers
(:func:`check`): every destination slot must receive its element, else the plan has no
code (an internal error, never silent).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1", None, "float32")
>>> prog = program_of(p)
>>> prog.threads, prog.src_slots, prog.dst_slots, prog.mechanism
(32, 2, 2, 'registers')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...core.dtypes import dtype_bits
from ...core.errors import LayoutError
from ...core.frozen import freeze_fields
from ..lane_exchange import payload_shuffles
from ..mechanisms.shuffle.byte_permute import plan_byte_permute
from ..model.placement import WARP, Placement, place
from ..model.routing import Route
from . import exchange as exchange_mod
from . import staging as staging_mod
from .bit_staging_program import from_bits
from .cuda_types import Conversion, conversion
from .exchange import Exchange
from .staging import StagingProgram
from .tma_program import TmaProgram, tma_program
from .transpose import LaneTranspose, lane_transpose
from .transpose import run as run_transpose


class NoCodeError(LayoutError):
    """A plan that has no code (between devices or CTAs; see the message)."""


@dataclass(frozen=True, eq=False)
class ConversionProgram:
    """A plan as code (see the module doc). ``src_units`` / ``dst_units``: the element
    each unit of each thread holds (-1: none; for a shared-memory side, one row of the
    tile's units by address), what the code is checked against."""

    dtype: str
    held: str
    bits: int
    threads: int
    src_slots: int
    dst_slots: int
    src_shared: bool
    dst_shared: bool
    mechanism: str
    conversion: Conversion | None
    exchange: Exchange | None
    transpose: LaneTranspose | None
    staging: StagingProgram | None
    tma: TmaProgram | None
    smem_bytes: int
    smem_align: int
    src_units: np.ndarray
    dst_units: np.ndarray
    #: the destination holds its sub-word values one to a register (``dst_packing``)
    unpacked: bool = False

    def __post_init__(self) -> None:
        freeze_fields(self)


def _refuse(plan) -> None:
    if plan.kind == "collective" or plan.mechanism == "collective":
        raise NoCodeError(f"this plan moves data between devices ({plan.collective}): a "
                          f"collective has no CUDA code here (use NCCL or your framework's "
                          f"collective)")


def _units(p: Placement, rows: np.ndarray, threads: int, bits: int, slots: int) -> np.ndarray:
    """``[t, u]`` element of every unit (64-bit values: both units carry the element)."""
    per = 2 if bits > 32 else 1
    out = np.full((threads if p.role == "registers" else 1, slots * per), -1, dtype=np.int64)
    t = (p.warp * WARP + p.lane)[rows] if p.role == "registers" else np.zeros(len(rows), int)
    for h in range(per):
        out[t, p.slot[rows] * per + h] = p.element[rows]
    return out


def program_of(plan) -> ConversionProgram:
    """The :class:`ConversionProgram` of ``plan``; a :class:`NoCodeError` (a
    :class:`~tilelayout.LayoutError`) for plans between devices or CTAs."""
    _refuse(plan)
    ps, pd = place(plan.src, plan.dst, plan.shape)
    if plan.k_order is not None:  # dst[.., k] holds src[.., k_order[k]]: the route's ask
        ps, pd = plan._route.src, plan._route.dst
    if (ps.cta.max(initial=0) > 0) or (pd.cta.max(initial=0) > 0) or \
            ps.device.max(initial=0) > 0 or pd.device.max(initial=0) > 0:
        raise NoCodeError("this plan moves data between CTAs or devices: its code would need "
                          "cluster shared memory or a collective, which are not emitted")
    bits = dtype_bits(plan.dtype)
    threads = WARP * (int(max(ps.warp.max(initial=0), pd.warp.max(initial=0))) + 1)
    src_slots = int(ps.slot.max(initial=0)) + 1
    dst_slots = int(pd.slot.max(initial=0)) + 1
    held = plan.held or plan.dtype
    conv = conversion(held, plan.dtype) if held.lower() != plan.dtype.lower() else None
    src_units = _units(ps, np.arange(ps.rows), threads, bits, src_slots)
    dst_units = _units(pd, np.arange(pd.rows), threads, bits, dst_slots)
    ex = st = tr = None
    tma = tma_program(plan) if plan.tma is not None else None
    bit_program = getattr(plan, "_bits", None)
    if bit_program is not None and bit_program.shuffle is not None and \
            plan.mechanism == "warp-shuffle" and bit_program.staging is None:
        tr = lane_transpose(bit_program.shuffle, bit_program.src, bit_program.dst, bits,
                            src_units, dst_units)
    if tr is not None:
        mechanism = "warp-shuffle"
    elif bit_program is not None and bit_program.staging is not None:
        st = from_bits(bit_program, plan, threads)
        mechanism = "shared-memory"
    elif plan.mechanism == "shared-memory":
        st = staging_mod.from_route(plan._route, threads,
                                    warp_local=plan.costs.get("barrier_instruction")
                                    == "bar.warp.sync")
        mechanism = "shared-memory"
    else:
        route = plan._route
        if getattr(route, "warp_exchange", False):
            route = scheduled(route)
        ex = exchange_mod.from_route(route, threads)
        mechanism = plan.mechanism if plan.mechanism != "warp-shuffle" or ex.rounds \
            else "registers"
        if plan.kind == "none":
            mechanism = "none"
    smem = 0 if st is None else max(st.bytes, 0)
    if ps.role == "shared" or pd.role == "shared":
        span = (src_slots if ps.role == "shared" else dst_slots) * (bits // 8)
        smem = max(smem, span)
    align = 1024 if tma is not None else (128 if smem else 0)
    prog = ConversionProgram(plan.dtype, held, bits, threads, src_slots, dst_slots,
                             ps.role == "shared", pd.role == "shared", mechanism, conv, ex,
                             tr, st, tma, smem, align, src_units, dst_units,
                             getattr(plan, "dst_packing", "packed") == "unpacked" and bits < 32
                             and pd.role != "shared")
    check(prog)
    return prog


def scheduled(route: Route) -> Route:
    """A lane exchange found on bits whose transpositions no code meets (a one-sided
    transposition on a packed register bit: :func:`~.transpose.lane_transpose` returns
    None), with the shuffle rounds the element planner finds for the same exchange:
    payload shuffles (:func:`~tilelayout.planning.lane_exchange.payload_shuffles`) or, for
    sub-word values, whole-register shuffles plus byte permutes, whichever costs fewer
    units."""
    bits = route.bits
    epw, wpe = max(1, 32 // bits), max(1, bits // 32)
    units, sched, _counts, fill = payload_shuffles(route, epw, wpe)
    best = (units, replace(route, shuffle=sched, epw=epw, shuffle_fill=fill))
    if bits < 32:
        ps, pd, rows = route.src, route.dst, route.dst_rows
        bp = plan_byte_permute(route.gwarp[1][rows], ps.lane[route.source],
                               ps.slot[route.source], pd.lane[rows], pd.slot[rows],
                               route.warps, bits)
        if bp is not None and bp.units < best[0]:
            best = (bp.units, replace(route, byte_permute=bp, epw=epw))
    return best[1]


def run(prog: ConversionProgram, src_units: np.ndarray) -> np.ndarray:
    """The destination units ``[t, u]`` the program delivers from ``src_units`` (one row
    by address for a shared-memory source)."""
    if prog.exchange is not None:
        return exchange_mod.run(prog.exchange, src_units)
    if prog.transpose is not None:
        return run_transpose(prog.transpose, src_units)
    assert prog.staging is not None
    if prog.src_shared:
        out, buf = staging_mod.run(prog.staging, None, src_units[0])
    else:
        out, buf = staging_mod.run(prog.staging, src_units)
    if prog.dst_shared:
        tile = np.full((1, prog.dst_units.shape[1]), -1, dtype=np.int64)
        n = min(len(buf), tile.shape[1])
        tile[0, :n] = buf[:n]
        return tile
    return out


def check(prog: ConversionProgram) -> None:
    """Execute the program on element numbers: every destination unit must receive its
    element (an internal error naming the first wrong one otherwise)."""
    got = run(prog, prog.src_units)
    want = prog.dst_units
    bad = np.argwhere((want >= 0) & (got[:, :want.shape[1]] != want))
    if len(bad):
        t, u = (int(x) for x in bad[0])
        raise LayoutError(f"internal: the code of this plan would put element "
                          f"{int(got[t, u])} where thread {t} expects element "
                          f"{int(want[t, u])} (unit {u}); please report it")


__all__ = ["ConversionProgram", "NoCodeError", "check", "program_of", "run"]
