"""Conversion plans of two bit maps, found without looking at single elements.

When both register layouts are bit maps (:mod:`.model.bits`: Triton's linear layouts,
every mma / wgmma / blocked layout on a power-of-two tile), the level of the exchange,
the compiler's own staging and every cost follow from a few dozen word operations
(docs/data-movement.md, *Planning on bits*), so planning takes about a millisecond
whatever the tile's size. :func:`plan_on_bits` does it for the exchanges it covers and
returns None for the others, which the element-by-element planner takes; the machine
model's route (every element's holders, addresses and passes) is built only when the
plan is executed.

>>> import tilelayout as tl
>>> from tilelayout.planning.problem.targeting import resolve_target
>>> a = tl.parse("S[(64,64):(1@laneid,1)]")                     # a row per lane
>>> b = tl.parse("S[(2,32,64):(1@warpid,1,1@laneid)]")           # ... a column, 2 warps
>>> out = plan_on_bits(a, b, (64, 64), "float32", resolve_target("sm_80"))
>>> out.kind, out.mechanism, out.costs["smem_bytes"] is not None
('shared-memory', 'shared-memory', True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from .mechanisms.staging.bit_reports import execution_staging, smem_choice, stand_in
from .mechanisms.staging.bit_staging import BitStaging, best, candidates
from .mechanisms.staging.generic import triton_order
from .mechanisms.staging.smem_choice import SmemChoice
from .model.bits import ThreadBits, exchange_level, thread_bits
from .model.machine import Route
from .model.placement import place
from .model.routing import route_between
from .outcome import store_rows
from .plan_stages import Stage, staging_costs, staging_stages
from .problem.targeting import TargetChoice


@dataclass(frozen=True)
class BitProgram:
    """What a plan found on bits does, as bits: both register layouts' bit maps and the
    staging (buffer address and pass bits, each side's instruction), from which code
    computes every address as an XOR of lane and warp bits."""

    src: ThreadBits
    dst: ThreadBits
    staging: BitStaging | None = None


@dataclass(frozen=True)
class BitOutcome:
    """A plan found on bits: its kind and mechanism, why, stages, costs, the buffer it
    stages through, and how to build the machine model's route when it is executed."""

    kind: str
    mechanism: str
    reason: str
    stages: tuple[Stage, ...]
    costs: Mapping[str, Any]
    smem: SmemChoice | None
    make_route: Callable[[], Route]
    #: register values each source thread holds (for the dtype conversion's count)
    values_per_thread: int
    #: the plan reaches the lower bounds (no plan moves fewer wavefronts or issues
    #: fewer instructions): nothing else need be searched
    at_floor: bool
    program: BitProgram


def plan_on_bits(src: Layout, dst: Layout, shape: tuple[int, ...], dtype: str,
                 on: TargetChoice, smem_budget: int | None = None) -> BitOutcome | None:
    """The plan of ``src -> dst`` when both are bit maps and the exchange is one this
    module plans (between warps, through shared memory); else None."""
    s, d = thread_bits(src, shape), thread_bits(dst, shape)
    if s is None or d is None:
        return None
    level = exchange_level(s, d)
    if level != "shared-memory":
        return None
    nbytes = dtype_bytes(dtype)
    if nbytes > 16 or nbytes & (nbytes - 1):
        return None
    stm, ldm = on.allows("stmatrix"), on.allows("ldmatrix")
    options = candidates(s, d, nbytes, stmatrix=stm, ldmatrix=ldm, order=triton_order(shape))
    if not options:
        return None
    chosen = best(options, reference=options[0], budget=smem_budget)
    return _staged(chosen, s, d, src, dst, shape, dtype, on, level)


def _staged(chosen: BitStaging, s: ThreadBits, d: ThreadBits, src: Layout, dst: Layout,
            shape: tuple[int, ...], dtype: str, on: TargetChoice, level: str) -> BitOutcome:
    warp_local = level == "warp-shuffle"
    choice = smem_choice(chosen, s, d, src, dst, shape, dtype, on.name, on.why)
    staging = stand_in(choice, chosen)
    stages = tuple(staging_stages(staging, "registers", "registers", warp_local))
    costs = {"elements": 1 << s.bits,
             "destination_coordinates": 1 << (len(d.reg) + len(d.lane) + len(d.warp)),
             **staging_costs(staging, False, warp_local)}
    reason = ("warps (or CTAs) exchange data: only shared memory connects them (a store, a "
              f"barrier, a load); staged through {choice.name}: {chosen.wavefronts} "
              f"wavefronts (ideal {chosen.ideal}), {chosen.bytes} bytes"
              + (f" in {chosen.passes} passes" if chosen.passes > 1 else ""))
    bits = 8 * dtype_bytes(dtype)

    def make_route() -> Route:
        ps, pd = place(src, dst, shape)
        route = route_between(ps, pd, bits)
        run = execution_staging(choice, chosen, ps, pd, store_rows(ps), route.gwarp,
                                route.warps)
        return replace(route, staging=run)

    return BitOutcome("shared-memory", "shared-memory", reason, stages, costs, choice,
                      make_route, 1 << len(s.reg), at_floor(chosen, s, d),
                      BitProgram(s, d, chosen))


def at_floor(chosen: BitStaging, s: ThreadBits, d: ThreadBits) -> bool:
    """Whether ``chosen`` reaches both lower bounds: each side's wavefronts at one per
    128 bytes its warps move (broadcast lanes move nothing more), and its instructions at
    16 bytes per lane each (the widest access)."""
    nbytes = chosen.elem_bytes
    wave = instr = 0
    for side in (s.without_broadcast_registers(), d.without_broadcast_registers()):
        lanes = sum(1 for v in side.lane if v)
        per_warp = (1 << (len(side.reg) + lanes)) * nbytes
        wave += (1 << len(side.warp)) * max(1, -(-per_warp // 128))
        instr += max(1, -(-(1 << len(side.reg)) * nbytes // 16))
    return chosen.wavefronts <= wave and chosen.store.per_warp + chosen.load.per_warp <= instr


__all__ = ["BitOutcome", "BitProgram", "at_floor", "plan_on_bits"]
