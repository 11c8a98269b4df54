"""Lanes of one warp exchange data: shuffles or shared memory, whichever costs less.

:func:`lane_exchange` plans the exchange three ways and keeps the fewest cost units
(:mod:`.cost_model`):

* ``shfl.sync`` rounds of packed 32-bit payloads (:mod:`.shuffle`): a round costs one
  ``shfl`` plus the selects that pick a lane-dependent register to send and to fill,
  and for sub-word values the ``prmt`` packs;
* for sub-word values, shuffles of whole registers plus byte permutes
  (:mod:`.byte_permute`), searched only when a lower bound on them beats what is known;
* a store / ``__syncwarp`` / load through shared memory (:mod:`.staging`, through
  :func:`~.outcome.try_staging`), planned only when a lower bound on it (the widest
  vectors on both sides) beats the shuffles.

The reason of the outcome names the winner, its cost and what it beat.

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> from tilelayout.planning.model.routing import route_between
>>> from tilelayout.planning.problem.targeting import resolve_target
>>> swap = place(tl.parse("S[(16,2):(2@laneid,1@laneid)]"),
...              tl.parse("S[(16,2):(1@laneid,16@laneid)]"), None)  # lane i+16j reads 2i+j
>>> out = lane_exchange(route_between(*swap, 32), "float32", 0, resolve_target(None))
>>> out.mechanism, out.costs["shuffle_rounds"], out.route.shuffle.rounds
('warp-shuffle', 1, 1)
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from ..algebra.distinct import unique_rows
from .cost_model import (
    payload_ops,
    shuffle_instructions,
    shuffle_units,
    staging_units,
)
from .mechanisms.shuffle.byte_permute import plan_byte_permute
from .mechanisms.shuffle.shuffle import degree, schedule
from .mechanisms.staging.bounds import vector_bound
from .mechanisms.staging.staging import Staging
from .model.placement import WARP, Placement
from .model.routing import Route
from .outcome import Outcome, store_rows, through_smem, try_staging
from .plan_stages import Stage, byte_permute_stages, lanes_text
from .problem.targeting import TargetChoice

#: why staging was not costed (the caller holds a plan with no shared memory)
NOT_COSTED = "not costed"


def lane_exchange(route: Route, dtype: str, moved: int, on: TargetChoice,
                  limit: float = math.inf, max_bytes: int | None = None,
                  unpacked: bool = False) -> Outcome:
    """Lanes of each warp exchange data: shuffle rounds (of packed payloads, or for
    sub-word values of whole registers plus byte permutes, :mod:`.byte_permute`) or
    staging, the fewest cost units (:mod:`.cost_model`; each warp exchanges only with
    itself, so a ``__syncwarp``). ``moved``: the values that stay in their thread but
    change register slot; ``limit``: byte permutes are searched only for plans under
    this many cost units (a caller's plan already costs that much); ``max_bytes``: the
    caller's plan uses that much shared memory (a staging over it cannot replace it; at
    0 none is costed); ``unpacked``: the destination will hold its values one to a
    register, so byte permutes are compared without those that only pack it (the costs
    still state them all, for :mod:`.delivery` to take off).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> from tilelayout.planning.problem.targeting import resolve_target
    >>> transpose = place(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"), None)
    >>> out = lane_exchange(route_between(*transpose, 32), "float32", 0, resolve_target(None))
    >>> out.mechanism, out.costs["shuffle_rounds"], out.costs["smem_cost_units"]
    ('shared-memory', 31, 67)
    """
    ps, pd, rows, bits = route.src, route.dst, route.dst_rows, route.bits

    def stage() -> tuple[Staging | None, str]:
        if max_bytes == 0:  # the caller's plan needs no shared memory: no staging can win
            return None, NOT_COSTED
        return try_staging(route, dtype, on, max_bytes)

    epw, wpe = max(1, 32 // bits), max(1, bits // 32)
    edges, _, _ = _shuffle_edges(ps, pd, rows, route.level == 2, route.source, route.gwarp, epw)
    rounds = degree(edges[:, 0], edges[:, 1], edges[:, 3]) * wpe
    costs: dict[str, Any] = {"shuffle_rounds": rounds, "registers_moved": moved}
    # the fewest units any staging could take: the widest vectors on both sides
    bound = vector_bound(ps, store_rows(ps), pd, rows, route.gwarp, route.warps, bits)
    staging, why_not = (None, "")

    copies: dict[str, bool] = {}  # whether a side's warps hold copies, found once

    def local(st: Staging) -> bool:
        """Whether the staging synchronizes one warp only: not where the source's warps
        hold copies (one copy stores each element, maybe another warp's than the one
        that loads it), nor where the destination's do and the buffer is reused in passes
        (a copy's next pass could overwrite what another copy still reads)."""
        for side, p in (("src", route.src), ("dst", route.dst)):
            if side not in copies and (side == "src" or st.passes > 1):
                copies[side] = _copies_across_warps(p)
        return not copies["src"] and (st.passes <= 1 or not copies["dst"])

    def smem() -> float:
        return bound if staging is None else staging_units(staging, local(staging),
                                                           route.warps)

    # the caller's plan costs ``limit`` instructions: no shuffles dearer than that can
    # replace it, so the staging is the answer wherever one can be planned
    hopeless = rounds > limit
    if rounds > bound or hopeless:
        staging, why_not = stage()
    sched = None
    # a lower bound on the payload shuffles' units (and so on their instructions): the
    # rounds, and for sub-word values the permutes that assemble registers -- worked
    # out only where it may spare the shuffles (a staging or the caller's plan is known)
    floor = float(rounds)
    if epw > 1 and not hopeless and not why_not and rounds <= smem() and \
            (staging is not None or limit < math.inf):
        floor = payload_floor(route, epw)
        hopeless = floor > limit
        if (floor > bound or hopeless) and staging is None:
            staging, why_not = stage()
    units = floor
    if why_not or not hopeless and floor <= smem():
        units, sched, counts, fill = payload_shuffles(route, epw, wpe)
        costs.update(zip(("shuffle_instructions", "shuffle_selects", "shuffle_packs"), counts,
                         strict=True), shuffle_rounds=sched.rounds * wpe)
    # sub-word values: whole registers plus byte permutes, searched when a lower bound
    # on them beats what is known
    known = min(units if sched is not None else math.inf,
                math.inf if staging is None else smem(), limit)
    bp = None if bits >= 32 else plan_byte_permute(
        route.gwarp[1][rows], ps.lane[route.source], ps.slot[route.source], pd.lane[rows],
        pd.slot[rows], route.warps, bits, limit=known)
    bp_units = None if bp is None else bp.loose_units if unpacked else bp.units
    if bp is not None and bp_units <= known:  # whole registers win ties (fewer packs)
        sched, units = None, bp_units
        costs.pop("shuffle_packs", None)
        costs.update(shuffle_instructions=bp.shuffles, shuffle_selects=bp.selects,
                     byte_permutes=bp.permutes)
    # shuffles that take more instructions than the caller's plan cannot replace it,
    # while a staging might: the staging then, where one can be planned
    unpacking = bp.permutes - bp.loose_permutes if unpacked and bp is not None and \
        "byte_permutes" in costs else 0  # (the byte permutes taken: their costs above)
    dear = limit < math.inf and (sched is not None or bp is not None) and \
        _instructions(costs) - unpacking > limit
    if ((sched is not None or bp is not None) and units > bound or dear) and \
            staging is None and not why_not:
        staging, why_not = stage()
    if dear and staging is not None:
        sched = bp = None
        costs.pop("byte_permutes", None)
    smem_units = math.inf if why_not else smem()
    costs["smem_cost_units"] = None if why_not else _number(smem_units)
    versus = ("(staging through shared memory not costed: a plan without it is in hand)"
              if why_not == NOT_COSTED else
              f"(shared memory cannot be planned: {why_not})" if why_not else
              f"cost no more than staging through shared memory "
              f"({'at least ' if staging is None else ''}{smem_units:g} units: "
              f"stores, a __syncwarp, loads)")
    if bp is not None and sched is None and "byte_permutes" in costs and units <= smem_units:
        kept = f"; {bp.loose_permutes} prmt with each value in a register of its own" \
            if unpacked else ""
        reason = (f"lanes of one warp exchange data: {bp.shuffles} shfl.sync of whole "
                  f"registers, {bp.selects} selects and {bp.permutes} prmt.b32 per warp "
                  f"({units:g} cost units{kept}) " + versus)
        return Outcome("warp-shuffle", reason, tuple(byte_permute_stages(bp)), costs,
                        replace(route, byte_permute=bp, epw=epw))
    if sched is not None and units <= smem_units:
        reason = (f"lanes of one warp exchange data: {costs['shuffle_rounds']} shfl.sync "
                  f"round(s) per warp, "
                  f"{costs['shuffle_selects']} register selects and {costs['shuffle_packs']} "
                  f"packs ({units:g} cost units) " + versus)
        stages = [Stage("registers", f"move {moved} values between register slots of the "
                        f"same thread", {"moved": moved})] if moved else []
        stages += [Stage("shuffle", f"round {k + 1}: shfl.sync.idx; warp 0's lanes read "
                         f"lanes [{lanes_text(sched.src_lane[k][0])}]",
                         {"round": k, "src_lane": sched.src_lane[k].tolist(),
                          "send_word": sched.send_word[k].tolist()})
                   for k in range(sched.rounds)]
        return Outcome("warp-shuffle", reason, tuple(stages), costs,
                        replace(route, shuffle=sched, epw=epw, shuffle_fill=fill))
    assert staging is not None
    shown = (f"{rounds} shfl.sync round(s) per warp" if "shuffle_instructions" not in costs
             else f"{costs['shuffle_instructions']} shfl.sync and "
                  f"{costs['shuffle_selects']} register selects ({units:g} units)")
    bars = 2 * staging.passes - 1
    warp_local = local(staging)
    reason = (f"lanes of one warp exchange data, but {shown} cost more than staging through "
              f"shared memory ({staging.store.per_warp} stores, {bars} "
              f"{'__syncwarp' if warp_local else 'bar.sync (warps hold copies)'}, "
              f"{staging.load.per_warp} loads: {smem_units:g} units)")
    out = through_smem(route, staging, reason, warp_local=warp_local)
    return replace(out, costs={**costs, **out.costs})


def _instructions(costs: dict[str, Any]) -> int:
    """A shuffle plan's instructions per warp: shuffles, selects, packs, byte permutes."""
    return sum(int(costs.get(k) or 0) for k in ("shuffle_instructions", "shuffle_selects",
                                                "shuffle_packs", "byte_permutes"))


def _copies_across_warps(p: Placement) -> bool:
    """Whether some element is held by more than one warp."""
    held = unique_rows(np.stack([p.element, p.warp], axis=1).astype(np.int64))
    return len(held) > len(np.unique(p.element))


def _number(x: float) -> float | int:
    """``x`` as an int when it is whole (costs print as the page shows them)."""
    return int(x) if float(x).is_integer() else float(x)


def payload_shuffles(route: Route, epw: int, wpe: int):
    """The payload shuffles of the route's rows that cross lanes (``epw`` values per
    32-bit word, ``wpe`` words per value): ``(cost units, schedule, (shuffles, selects,
    packs) per warp, what the machine model needs)``. For sub-word values a lane may also
    read its own values through a shuffle, so that a register it assembles takes the
    same rounds as in the other lanes (as Triton does): whichever costs fewer units."""
    variants = [route.level == 2]
    if epw > 1:
        mixed = own_values_beside_shuffled(route, epw)
        if mixed.any():
            variants.append((route.level == 2) | mixed)
    return min((_payload(route, through, epw, wpe) for through in variants),
               key=lambda v: v[0])


def payload_floor(route: Route, epw: int) -> float:
    """A lower bound on the cost units of :func:`payload_shuffles` (either variant) for
    sub-word values (``epw`` > 1): the shuffle rounds, plus per destination register the
    ``prmt`` that assemble it in the lane that draws on the most rounds. A lane receives
    one word a round, so a register it fills from ``k`` other lanes (and maybe its own
    values, kept or sent to itself) draws on at least that many rounds: ``k - 1`` permutes
    or more (:func:`~.cost_model.payload_ops`).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> t = route_between(*place(tl.parse("S[(32,32):(1@laneid,1)]"),
    ...                          tl.parse("S[(32,32):(1,1@laneid)]"), None), 16)
    >>> payload_floor(t, 2), payload_shuffles(t, 2, 1)[0]   # 16-bit transposition
    (39.0, 527.0)
    """
    ps, pd, rows = route.src, route.dst, route.dst_rows
    edges, _, _ = _shuffle_edges(ps, pd, rows, route.level == 2, route.source, route.gwarp, epw)
    floor = float(degree(edges[:, 0], edges[:, 1], edges[:, 3]))
    warp, lane = route.gwarp[1][rows], pd.lane[rows]
    reg = pd.slot[rows] // epw
    sender = np.where(route.level == 2, ps.lane[route.source], -1)  # -1: its own values
    owner = (warp * WARP + lane) * (int(reg.max(initial=0)) + 1) + reg
    receives = np.isin(owner, owner[route.level == 2])
    pairs = np.stack([owner[receives], sender[receives]], 1).astype(np.int64)
    if not len(pairs):
        return floor
    cells = pairs[unique_rows(pairs, return_index=True)[1]]
    per_owner = np.unique(cells[:, 0], return_counts=True)
    regs = per_owner[0] % (int(reg.max(initial=0)) + 1)
    most = np.zeros(int(regs.max()) + 1, np.int64)
    np.maximum.at(most, regs, per_owner[1])
    return shuffle_units(int(floor), int(np.maximum(most - 1, 0).sum()))


def own_values_beside_shuffled(route: Route, epw: int) -> np.ndarray:
    """Destination rows a lane holds itself (level <= 1) in a register that also receives
    values from other lanes (``epw`` values per 32-bit register), per row of
    ``route.dst_rows``."""
    pd, rows = route.dst, route.dst_rows
    reg = (route.gwarp[1][rows] * WARP + pd.lane[rows]) * (int(pd.slot.max()) // epw + 1) \
        + pd.slot[rows] // epw
    receives = np.isin(reg, reg[route.level == 2])
    return (route.level <= 1) & receives


def _payload(route: Route, through: np.ndarray, epw: int, wpe: int):
    """Payload shuffles of the destination rows ``through``: their cost units, schedule,
    (shuffles, selects, packs) per warp and what the machine model needs."""
    ps, pd, rows = route.src, route.dst, route.dst_rows
    edges, which, (w, lane, pos, s_slot, d_slot, s_lane) = _shuffle_edges(
        ps, pd, rows, through, route.source, route.gwarp, epw)
    sched = schedule(edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3])
    rnd = sched.edge_round[which]
    r_keep = rows[(route.level <= 1) & ~through]
    shfl, selects = shuffle_instructions(sched, rnd, s_slot, d_slot, kept=pd.slot[r_keep])
    packs = 0
    if epw > 1:  # sub-word payloads: registers picked and packed by prmt
        s_keep = route.source[(route.level <= 1) & ~through]
        local = set(zip(route.gwarp[1][r_keep].tolist(), pd.lane[r_keep].tolist(),
                        (pd.slot[r_keep] // epw).tolist(), (ps.slot[s_keep] // epw).tolist(),
                        strict=True))
        selects, packs = payload_ops(rnd, w, s_lane, lane, edges[which, 2], pos, s_slot,
                                     d_slot, epw, sched.rounds, local)
    units = shuffle_units(shfl * wpe, (selects + packs) * wpe)
    fill = (rnd, edges[which, 2], w, lane, pos, s_slot, d_slot, s_lane)
    return units, sched, (shfl * wpe, selects * wpe, packs * wpe), fill


def _shuffle_edges(ps: Placement, pd: Placement, rows: np.ndarray, through: np.ndarray,
                   source: np.ndarray, gwarp: tuple[np.ndarray, np.ndarray], epw: int):
    """The 32-bit payloads of the destination rows ``through`` (those that cross lanes,
    maybe with a lane's own values). The values one lane sends to one other lane (or
    itself) are packed ``epw`` to a 32-bit word (a ``prmt`` packs sub-word types).
    Returns the unique edges ``(warp, sender, payload id, receiver)`` and, per such
    destination row: its edge, warp, lane, position in the payload, source and
    destination slots."""
    lane_rows = through
    d = rows[lane_rows]
    s = source[lane_rows]
    w = gwarp[1][d]
    pair = np.stack([w, ps.lane[s], pd.lane[d], ps.slot[s], pd.slot[d]], 1)
    order = np.lexsort(pair.T[::-1])
    pair = pair[order]
    d, s, w = d[order], s[order], w[order]
    group = np.r_[True, (np.diff(pair[:, :3], axis=0) != 0).any(axis=1)] if len(pair) else \
        np.zeros(0, bool)
    starts = np.flatnonzero(group)
    rank = np.arange(len(pair)) - np.repeat(starts, np.diff(np.r_[starts, len(pair)]))
    word = rank // epw
    edges = np.stack([w, ps.lane[s], pd.lane[d], word], 1)
    if not len(edges):
        return np.zeros((0, 4), np.int64), np.zeros(0, np.int64), \
            (w, pd.lane[d], rank % epw, ps.slot[s], pd.slot[d], ps.lane[s])
    _, first, which = unique_rows(edges, return_index=True, return_inverse=True)
    which = which.reshape(-1)
    uniq = edges[first]
    out = np.stack([uniq[:, 0], uniq[:, 1], np.arange(len(uniq)), uniq[:, 2]], 1)
    return out, which, (w, pd.lane[d], rank % epw, ps.slot[s], pd.slot[d], ps.lane[s])
