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
>>> a = tl.parse("S[(2,32,64):(1@warpid,1@laneid,1)]")           # a row per thread
>>> b = tl.parse("S[(64,2,32):(1,1@warpid,1@laneid)]")           # a column per thread
>>> out = plan_on_bits(a, b, (64, 64), "float32", resolve_target("sm_80"))
>>> out.kind, out.mechanism, out.costs["smem_bytes"] is not None
('shared-memory', 'shared-memory', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..core import budget
from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from .code.cuda_transpose import packing_permutes
from .code.transpose import packing_tables
from .cost_model import DESTINATION_PERMUTES, ROUND_TRIP, SMEM_INSTRUCTION, SYNCWARP
from .mechanisms.shuffle.warp_transpose import (
    Decomposition,
    WarpShuffle,
    counts,
    decompose,
    triton_shuffles,
)
from .mechanisms.staging.bit_choice import best, trusted
from .mechanisms.staging.bit_reports import execution_staging, smem_choice, stand_in
from .mechanisms.staging.bit_staging import BitStaging, candidates, floors, reaches_floors
from .mechanisms.staging.generic import coordinates, triton_order
from .mechanisms.staging.smem_choice import SmemChoice
from .model.bits import ThreadBits, exchange_level, thread_bits
from .model.placement import place
from .model.routing import Route, route_between
from .outcome import repacked, slot_permutes, store_rows
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
    #: a lane exchange: its bit transpositions (:mod:`.mechanisms.shuffle.warp_transpose`)
    shuffle: Decomposition | None = None

    @property
    def mechanism(self) -> str:
        """``registers``, ``warp-shuffle`` or ``shared-memory``."""
        if self.staging is not None:
            return "shared-memory"
        return "warp-shuffle" if self.shuffle is not None else "registers"


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
    #: the compiler's own choice for this conversion, as (shared-memory bytes,
    #: wavefronts, instructions per warp), as far as we reproduce it
    reference: tuple[int, int, int] = (0, 0, 0)
    #: the reproduction is exact in all three (the plan is no worse in any); else in its
    #: bytes only (the plan has no more bytes and no more wavefronts: :mod:`.bit_choice`)
    reference_exact: bool = True


def plan_on_bits(src: Layout, dst: Layout, shape: tuple[int, ...], dtype: str,
                 on: TargetChoice, smem_budget: int | None = None,
                 unpacked: bool = False) -> BitOutcome | None:
    """The plan of ``src -> dst`` when both are bit maps and the exchange is one this
    module plans; else None (see the module doc). ``unpacked``: the destination will
    hold its values one to a register (``dst_packing``), so candidates are compared
    without the byte permutes that only pack destination registers; the outcome still
    states them (:data:`~.cost_model.DESTINATION_PERMUTES`), for the delivery to drop."""
    s, d = thread_bits(src, shape), thread_bits(dst, shape)
    if s is None or d is None:
        return None
    level = exchange_level(s, d)
    if level == "registers":  # the one level that looks at every thread's slots
        budget.check("plan_conversion evaluates (threads x register slots)",
                     (1 << (len(s.lane) + len(s.warp))) * (1 << len(d.reg)), "elements")
    nbytes = dtype_bytes(dtype)
    if level is None or nbytes > 16 or nbytes & (nbytes - 1):
        return None
    def staging_options() -> list[BitStaging]:
        # (with no budget, a compiler's choice at both floors is the answer: no other
        # buffer is costed then)
        return candidates(s, d, nbytes, stmatrix=on.allows("stmatrix"),
                          ldmatrix=on.allows("ldmatrix"), order=triton_order(shape),
                          b8=(on.allows("stmatrix.b8"), on.allows("ldmatrix.b8")),
                          no_budget=smem_budget is None)

    def choose(options: list[BitStaging]) -> BitStaging:
        return _choose(options, smem_budget, unpacked)

    if level in ("none", "registers"):
        # the register a thread takes depends on its lane: where Triton stages and the
        # staging takes fewer instructions than those selects and permutes, stage (the
        # staging is costed first, so the permutes are searched only under it)
        # (a permutation the same in every thread is a renaming: free, nothing to stage)
        slots = thread_slots(s, d) if level == "registers" else None  # built once
        may_stage = slots is not None and smem_budget != 0 and \
            not _renaming(slots[1]) and not triton_shuffles(s, d)
        options = staging_options() if may_stage else []
        chosen = choose(options) if options else None
        issued = math.inf if chosen is None else _instructions(chosen, unpacked)
        out = _in_threads(level, s, d, src, dst, shape, dtype, issued, slots)
        work = 0 if out is None else _register_work(out.costs)
        if out is not None and (not work or chosen is None or issued >= work):
            return out
        assert chosen is not None
        staged = _staged(chosen, s, d, src, dst, shape, dtype, on, "registers")
        counted = str(work) if out is not None else f"more than {issued}"
        why = (f"each thread holds the elements it needs, but which register depends on "
               f"its lane: {counted} selects / permutes per warp cost more instructions than "
               f"staging through shared memory")
        return _held_to(replace(staged, reason=why + staged.reason[staged.reason.index(";"):]),
                        options)
    options = staging_options()
    if level == "warp-shuffle":
        return _in_warps(s, d, src, dst, shape, dtype, on, options, smem_budget, unpacked)
    if not options:
        return None
    return _held_to(_staged(choose(options), s, d, src, dst, shape, dtype, on, level),
                    options)


def _instructions(st: BitStaging, unpacked: bool) -> int:
    """``st``'s instructions per warp, without its load side's byte permutes (they only
    pack destination registers) for a destination held one value to a register."""
    return st.instructions - (st.load.permutes if unpacked else 0)


def _choose(options: list[BitStaging], smem_budget: int | None, unpacked: bool
            ) -> BitStaging:
    """:func:`.bit_choice.best` of ``options`` held to the first (the compiler's own),
    each costed as the destination will hold its values (:func:`_instructions`)."""
    if not unpacked:
        return best(options, reference=options[0], budget=smem_budget)
    loose = [replace(o, load=replace(o.load, permutes=0)) for o in options]
    pick = best(loose, reference=loose[0], budget=smem_budget)
    return options[next(i for i, o in enumerate(loose) if o is pick)]


def _triple(st: BitStaging) -> tuple[int, int, int]:
    return (st.bytes, st.wavefronts, st.instructions)


def _held_to(out: BitOutcome, options: Sequence[BitStaging]) -> BitOutcome:
    """``out`` with the compiler's choice it is held to: the first of ``options``."""
    return replace(out, reference=_triple(options[0]), reference_exact=trusted(options[0]))


def _in_threads(level: str, s: ThreadBits, d: ThreadBits, src: Layout, dst: Layout,
                shape: tuple[int, ...], dtype: str, limit: float = math.inf,
                slots: tuple[np.ndarray, np.ndarray] | None = None) -> BitOutcome | None:
    """Every thread holds what it needs: nothing moves, or only register slots change
    (renaming: no instruction). None when the selects and byte permutes are sure to
    take more than ``limit`` instructions (a staging that costs that much wins).
    ``slots``: :func:`thread_slots` of ``s, d`` when the caller built them."""
    coords = 1 << (len(d.reg) + len(d.lane) + len(d.warp))
    base = {"elements": 1 << s.bits, "destination_coordinates": coords}
    bits = 8 * dtype_bytes(dtype)

    def make_route() -> Route:
        return route_between(*place(src, dst, shape), bits)

    if level == "none":
        return BitOutcome("none", "none", "every destination coordinate already holds its "
                          "element", (Stage("none", "nothing to move: same coordinates up to "
                                                    "replicas"),), base, None, make_route,
                          1 << len(s.reg), True, BitProgram(s, d))
    dst_slot, src_slot = thread_slots(s, d) if slots is None else slots
    moved = int((src_slot != dst_slot).sum())
    # a renaming costs nothing; registers taken from lane-dependent slots (copies on the
    # source side) or sub-word values that change word cost selects / permutes, counted
    # per thread as the code writes them
    nl = len(s.lane)
    thread = np.broadcast_to(np.arange(len(src_slot))[:, None], src_slot.shape).reshape(-1)
    work = slot_permutes(thread >> nl, thread & ((1 << nl) - 1), dst_slot.reshape(-1),
                         src_slot.reshape(-1), 1 << len(s.warp), bits, limit) if moved else {}
    if work is None:
        return None
    how = repacked(work) if not _register_work(work) else \
        (f", with {work.get('shuffle_selects', 0)} selects and "
         f"{work.get('byte_permutes', 0)} byte permutes per warp")
    return BitOutcome("registers", "registers", "every thread already holds the elements it "
                      "needs; only register slots change" + how,
                      (Stage("registers", f"permute registers inside each thread ({moved} "
                             f"values change slot{how})", {"moved": moved}),),
                      {**base, "registers_moved": moved, **work}, None, make_route,
                      1 << len(s.reg), not _register_work(work), BitProgram(s, d))


def _renaming(src_slot: np.ndarray) -> bool:
    """Whether every thread takes each destination slot from the same source slot (a
    renaming, :func:`..outcome.slot_permutes`); ``src_slot``: :func:`thread_slots`'s."""
    return bool((src_slot == src_slot[:1]).all())


def _register_work(costs: Mapping[str, Any]) -> int:
    return int(costs.get("shuffle_selects", 0) or 0) + int(costs.get("byte_permutes", 0) or 0)


def thread_slots(s: ThreadBits, d: ThreadBits) -> tuple[np.ndarray, np.ndarray]:
    """Per thread (rows: the CTA thread id) and destination register slot (columns), the
    source register slot of the same thread that holds its element (the lowest of its
    copies), for a conversion where every thread holds what it needs.

    >>> thread_slots(ThreadBits((1, 2), (4,), (), 3), ThreadBits((2, 1), (4,), (), 3))[1]
    array([[0, 2, 1, 3],
           [0, 2, 1, 3]])
    """
    threads = np.arange(1 << (len(s.lane) + len(s.warp)), dtype=np.int64)
    slots = np.arange(1 << len(d.reg), dtype=np.int64)

    def combine(vectors: tuple[int, ...], index: np.ndarray) -> np.ndarray:
        out = np.zeros(index.shape, dtype=np.int64)
        for k, v in enumerate(vectors):
            out ^= np.where((index >> k) & 1 == 1, v, 0)
        return out

    need = combine(d.reg, slots)[None, :] ^ combine(d.threads, threads)[:, None]
    held = combine(s.threads, threads)[:, None]
    # the source slot of element e in thread t: the register bits that make e ^ held
    rel = need ^ held
    src_slot = np.zeros(rel.shape, dtype=np.int64)
    for k, v in enumerate(s.reg):
        if v:
            src_slot |= np.where(rel & v != 0, 1 << k, 0)
    return np.broadcast_to(slots, rel.shape), src_slot


def moved_registers(s: ThreadBits, d: ThreadBits) -> int:
    """Destination coordinates whose element sits in another register slot of the same
    thread on the source side.

    >>> moved_registers(ThreadBits((1, 2), (4,), (), 3), ThreadBits((2, 1), (4,), (), 3))
    4
    """
    dst_slot, src_slot = thread_slots(s, d)
    return int((src_slot != dst_slot).sum())


def _in_warps(s: ThreadBits, d: ThreadBits, src: Layout, dst: Layout, shape: tuple[int, ...],
              dtype: str, on: TargetChoice, options: list[BitStaging],
              smem_budget: int | None, unpacked: bool = False) -> BitOutcome | None:
    """Lanes of each warp exchange data: the bit transpositions (:mod:`.warp_transpose`)
    where Triton shuffles, or where they cost no more instructions than Triton's staging;
    else the staging."""
    bits = 8 * dtype_bytes(dtype)
    dec = decompose(s, d, bits)
    if dec is None:  # not one permutation in every warp (replicated warps): stage
        if not options:
            return None
        chosen = _choose(options, smem_budget, unpacked)
        return _held_to(_staged(chosen, s, d, src, dst, shape, dtype, on, "warp-shuffle"),
                        options)
    shuffled = counts(dec, bits)
    # ... and the byte permutes its code writes to pack and unpack sub-word values (none
    # where whole words, halves or shifts do it)
    packs, unpacking = packing_permutes(*packing_tables(dec, s, d, bits), bits) \
        if bits < 32 else (0, 0)
    if packs:
        shuffled = replace(shuffled, permutes=shuffled.permutes + packs)
    staged = _choose(options, smem_budget, unpacked) if options else None
    triton_stages = options and not triton_shuffles(s, d)
    units = None if staged is None else _units(staged, len(d.warp))
    # where Triton stages, the shuffles win when they take no more instructions than its
    # staging: they need no shared memory and no wavefronts at all (an unpacked
    # destination's shuffles without the permutes that only pack it)
    issued = shuffled.instructions - (unpacking if unpacked else 0)
    if staged is not None and triton_stages and \
            issued > _warp_local_instructions(options[0]):
        out = _staged(staged, s, d, src, dst, shape, dtype, on, "warp-shuffle")
        extra = {"shuffle_rounds": shuffled.shuffles, "smem_cost_units": units}
        why = (f"lanes of one warp exchange data, but {shuffled.shuffles} shfl.sync and "
               f"{shuffled.selects + shuffled.permutes} selects / permutes per warp cost more "
               f"instructions than staging through shared memory "
               f"({_warp_local_instructions(staged)} per warp, {units} units)")
        return _held_to(replace(out, costs={**out.costs, **extra},
                                reason=why + out.reason[out.reason.index(";"):]), options)
    costs = {"elements": 1 << s.bits,
             "destination_coordinates": 1 << (len(d.reg) + len(d.lane) + len(d.warp)),
             "shuffle_rounds": shuffled.shuffles, "registers_moved": 0,
             "shuffle_instructions": shuffled.shuffles, "shuffle_selects": shuffled.selects,
             "byte_permutes": shuffled.permutes, "smem_cost_units": units,
             DESTINATION_PERMUTES: unpacking}
    how = (f"{len(dec.mixed)} register-lane transposition(s)"
           + (" and a lane permutation" if dec.lanes_permuted else "")
           + (f", {1 << dec.pack} values packed per 32-bit register" if dec.pack else ""))
    reason = (f"lanes of one warp exchange data: {how}, {shuffled.shuffles} shfl.sync, "
              f"{shuffled.selects} selects and {shuffled.permutes} prmt per warp ({shuffled.form})")
    if staged is not None:
        reason += (f"; staging would take {staged.store.per_warp + staged.load.per_warp} "
                   f"shared-memory instructions, {staged.barriers} __syncwarp and "
                   f"{staged.bytes} bytes")
    stages = tuple(_shuffle_stages(dec, shuffled, s, d))
    width = 8 * dtype_bytes(dtype)

    def make_route() -> Route:
        ps, pd = place(src, dst, shape)
        return replace(route_between(ps, pd, width), warp_exchange=True)

    floor = _crossing_registers(s, d, bits)
    reference = (0, 0, shuffled.instructions) if not triton_stages else _triple(options[0])
    exact = not triton_stages or trusted(options[0])
    return BitOutcome("warp-shuffle", "warp-shuffle", reason, stages, costs, None, make_route,
                      1 << len(s.reg), shuffled.instructions <= floor,
                      BitProgram(s, d, None, dec), reference, exact)


def _crossing_registers(s: ThreadBits, d: ThreadBits, bits: int) -> int:
    """A lower bound on a lane exchange's instructions per warp: every destination
    32-bit register that receives a value from another lane takes a shuffle."""
    per_reg = max(1, 32 // bits)
    held = s.held(warp_local=False)
    crossing = sum(1 for v in d.without_broadcast_registers().reg if v not in held)
    regs = 1 << len(d.without_broadcast_registers().reg)
    return max(1, regs // per_reg) if crossing else 0


def _warp_local_instructions(st: BitStaging) -> int:
    return st.store.per_warp + st.load.per_warp + st.barriers


def _units(st: BitStaging, warp_bits: int) -> float:
    """The staging's cost units per warp (:func:`..cost_model.staging_units`)."""
    issued = (st.store.per_warp + st.load.per_warp) * SMEM_INSTRUCTION
    u = (max(issued, st.wavefronts / (1 << warp_bits)) + st.barriers * SYNCWARP
         + st.passes * ROUND_TRIP)
    return int(u) if float(u).is_integer() else u


def _shuffle_stages(dec: Decomposition, shuffled: WarpShuffle, s: ThreadBits,
                    d: ThreadBits) -> list[Stage]:
    """The exchange step by step: the selects (or byte permutes) before the shuffles,
    one stage per ``shfl.sync`` with the lanes warp 0's lanes read, the selects after
    (for the ``gather`` form, one stage per destination register: the lane each of warp
    0's lanes takes its value from)."""
    if shuffled.form == "gather":
        return _gather_stages(dec, shuffled, s, d)
    out = []
    what = ", ".join(f"register bit {t.reg} with lane bit {t.lane}" for t in dec.mixed)
    sel = [t for t in dec.mixed]
    pre = shuffled.selects + shuffled.permutes
    if dec.pack:
        out.append(Stage("pack", f"pack {1 << dec.pack} values per 32-bit register",
                         {"pack": dec.pack}))
    if sel and shuffled.form == "swap":
        out.append(Stage("select", f"before the shuffles: {pre // 2} selp/prmt exchange "
                         f"{what}", {"selectors": [[t.top_pre, t.bot_pre] for t in sel]}))
    mask = 0
    for t in dec.mixed:
        mask |= 1 << t.lane
    lanes = list(range(32))
    inverse = [0] * dec.lanes
    for i, j in enumerate(dec.lane_perm):
        inverse[j] = i

    def src_lane(lane: int) -> int:
        base = 0
        for j in range(dec.lanes):
            if lane >> j & 1:
                base |= 1 << inverse[j]
        return base ^ mask

    read = [src_lane(ln) for ln in lanes] if dec.lanes_permuted else [ln ^ mask for ln in lanes]
    op = "shfl.sync.idx" if dec.lanes_permuted else f"shfl.sync.bfly {mask}"
    for k in range(shuffled.shuffles):
        out.append(Stage("shuffle", f"shuffle {k + 1} of {shuffled.shuffles}: {op}; warp 0's "
                         f"lanes read lanes [{' '.join(map(str, read))}]",
                         {"round": k, "src_lane": [read], "lane_perm": list(dec.lane_perm)}))
    if sel:
        out.append(Stage("select", f"after the shuffles: {shuffled.selects} selp and "
                         f"{shuffled.permutes} prmt in all put every value in its slot "
                         f"({shuffled.form})",
                         {"selectors": [[t.top_post, t.bot_post] for t in sel],
                          "selects": shuffled.selects, "permutes": shuffled.permutes}))
    return out


def _gather_stages(dec: Decomposition, shuffled: WarpShuffle, s: ThreadBits,
                   d: ThreadBits) -> list[Stage]:
    """The ``gather`` form's stages: per destination register, the source lane each of
    warp 0's lanes reads (solved on the two layouts' bits), then its selects."""
    ways = 1 << len(dec.mixed)
    src_map = (s.reg, s.lane, s.warp)
    regs = 1 << len(d.reg)
    out = []
    for j in range(regs):
        slot = 0
        for k, v in enumerate(d.reg):
            if j >> k & 1:
                slot ^= v
        read = []
        for lane in range(32):
            e = slot
            for k, v in enumerate(d.lane):
                if lane >> k & 1:
                    e ^= v
            where = coordinates(src_map, e)
            read.append(where[1] if where is not None else lane)
        out.append(Stage("shuffle", f"register {j} of {regs}: {ways} shfl.sync.idx from its "
                         f"candidate source registers, {ways - 1} selp; warp 0's lanes take "
                         f"their value from lanes [{' '.join(map(str, read))}]",
                         {"round": j, "src_lane": [read], "lane_perm": list(dec.lane_perm)}))
    out.append(Stage("select", f"in all {shuffled.shuffles} shfl.sync and {shuffled.selects} "
                     f"selp (gather)", {"selectors": [], "selects": shuffled.selects,
                                        "permutes": 0}))
    return out


def _staged(chosen: BitStaging, s: ThreadBits, d: ThreadBits, src: Layout, dst: Layout,
            shape: tuple[int, ...], dtype: str, on: TargetChoice, level: str) -> BitOutcome:
    # each warp reads only what it stored itself -- unless the source's warps hold copies
    # (one copy stores each element, maybe from another warp than the one that loads it)
    # or warps hold copies and the buffer is reused in passes (a copy's next pass could
    # overwrite what another copy still reads): then the CTA synchronizes
    copies = 0 in s.warp or 0 in d.warp
    warp_local = level in ("warp-shuffle", "registers") and 0 not in s.warp and \
        not (copies and chosen.passes > 1)
    choice = smem_choice(chosen, s, d, src, dst, shape, dtype, on.name, on.why)
    staging = stand_in(choice, chosen)
    stages = tuple(staging_stages(staging, "registers", "registers", warp_local))
    costs = {"elements": 1 << s.bits,
             "destination_coordinates": 1 << (len(d.reg) + len(d.lane) + len(d.warp)),
             **staging_costs(staging, False, warp_local)}
    if chosen.permutes:  # 8-bit values repacked between registers and words
        costs["byte_permutes"] = chosen.permutes
        costs[DESTINATION_PERMUTES] = chosen.load.permutes
    why = ("lanes of one warp exchange data, and staging costs fewer instructions than "
           "shuffles (a store, a barrier, a load)" if level == "warp-shuffle" else
           "warps (or CTAs) exchange data: only shared memory connects them (a store, a "
           "barrier, a load)")
    reason = (f"{why}; staged through {choice.name}: {chosen.wavefronts} "
              f"wavefronts (ideal {chosen.ideal}), {chosen.bytes} bytes"
              + (f" in {chosen.passes} passes" if chosen.passes > 1 else ""))
    bits = 8 * dtype_bytes(dtype)

    def make_route() -> Route:
        ps, pd = place(src, dst, shape)
        route = route_between(ps, pd, bits)
        run = execution_staging(choice, chosen, ps, pd, store_rows(ps), route.gwarp,
                                route.warps)
        return replace(route, staging=run)

    return BitOutcome(level, "shared-memory", reason, stages, costs, choice,
                      make_route, 1 << len(s.reg), at_floor(chosen, s, d),
                      BitProgram(s, d, chosen))


def at_floor(chosen: BitStaging, s: ThreadBits, d: ThreadBits) -> bool:
    """Whether ``chosen`` reaches both lower bounds (:func:`.bit_staging.floors`): no
    staging moves fewer wavefronts or issues fewer shared-memory instructions."""
    return reaches_floors(chosen, floors(s, d, chosen.elem_bytes))


__all__ = ["BitOutcome", "BitProgram", "at_floor", "moved_registers", "plan_on_bits"]
