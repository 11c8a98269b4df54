"""The machine model a conversion plan runs on: register files ``[warp, lane, slot]``,
shuffle rounds, a shared-memory array, device buffers.

:func:`execute` moves every source value the way the plan says -- each shuffle round's
sender packs its payload and each receiver unpacks the payload of the lane it names;
each store / load (vector, packed, ``ldmatrix`` / ``stmatrix``) moves the registers and
addresses its instruction gives; a collective's messages go device to device -- and
returns ``{dst coordinate: value}``; a destination left empty is an error.

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1,1@laneid)]", None, "float32")
>>> execute(p._route, source_values(p._route.src, None))[(5, 1)]    # (m, laneid)
11
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.errors import LayoutError
from .mechanisms.shuffle.byte_permute import run as run_byte_permute
from .mechanisms.staging.instructions import MatrixAccess
from .mechanisms.staging.staging import Side, Staging
from .model.placement import WARP, Placement
from .model.routing import Route


def source_values(ps: Placement, values: Any) -> np.ndarray:
    if values is None:
        return ps.element.copy()
    if isinstance(values, Mapping):
        out = np.empty(ps.rows, dtype=object)
        for i, c in enumerate(map(tuple, ps.coords.tolist())):
            if c not in values:
                raise LayoutError(f"values has no entry for source coordinate {c} "
                                  f"(axes {', '.join(ps.axes)})")
            out[i] = values[c]
        return out
    arr = np.asarray(values)
    if arr.size != int(np.prod(ps.shape)):
        raise LayoutError(f"values must hold one value per element of the {ps.shape} tile, "
                          f"got {arr.size}")
    return arr.reshape(-1)[ps.element]


def execute(r: Route, vals: np.ndarray) -> dict[tuple[int, ...], Any]:
    ps, pd, rows = r.src, r.dst, r.dst_rows
    slots = int(max(ps.slot.max(initial=0), pd.slot.max(initial=0))) + 1
    dtype = vals.dtype
    # the source register files (for a shared-memory source: the shared-memory array)
    regs = np.zeros((r.warps, WARP, slots), dtype=dtype)
    have = np.zeros(regs.shape, dtype=bool)
    out_regs = np.zeros_like(regs)
    got = np.zeros(regs.shape, dtype=bool)
    gs, gd = r.gwarp
    if ps.role == "registers":
        regs[gs, ps.lane, ps.slot] = vals
        have[gs, ps.lane, ps.slot] = True
    d_idx = (gd[rows], pd.lane[rows], pd.slot[rows])
    if r.collective is not None:
        _run_collective(r, regs, out_regs, got, vals)
    elif r.staging is None:
        local = r.level <= 1
        s = r.source[local]
        out_regs[d_idx[0][local], d_idx[1][local], d_idx[2][local]] = regs[gs[s], ps.lane[s],
                                                                           ps.slot[s]]
        got[d_idx[0][local], d_idx[1][local], d_idx[2][local]] = have[gs[s], ps.lane[s],
                                                                      ps.slot[s]]
        if r.warp_exchange:
            _run_warp_exchange(r, regs, have, out_regs, got)
        if r.shuffle is not None:
            _run_shuffles(r, regs, have, out_regs, got)
        if r.byte_permute is not None:
            run_byte_permute(r.byte_permute, regs, have, out_regs, got)
    else:
        _run_staging(r, r.staging, regs, have, out_regs, got, vals)
    if not got[d_idx].all():
        bad = int(np.flatnonzero(~got[d_idx])[0])
        raise LayoutError(f"internal: the plan left destination coordinate "
                          f"{tuple(pd.coords[rows[bad]])} empty")
    result = out_regs[d_idx]
    return {tuple(c): (v.item() if hasattr(v, "item") else v)
            for c, v in zip(pd.coords[rows].tolist(), result, strict=True)}


def _run_warp_exchange(r: Route, regs, have, out_regs, got) -> None:
    """Destination rows of a warp exchange read their element's holder in the same warp
    (the exchange's shuffles are proven where its code runs: tests/ptx)."""
    ps, pd, rows = r.src, r.dst, r.dst_rows
    cross = r.level == 2
    if not cross.any():
        return
    if (r.gwarp[0][r.source[cross]] != r.gwarp[1][rows[cross]]).any():
        raise LayoutError("internal: a warp exchange reads another warp's registers")
    s, d = r.source[cross], rows[cross]
    gs, gd = r.gwarp
    out_regs[gd[d], pd.lane[d], pd.slot[d]] = regs[gs[s], ps.lane[s], ps.slot[s]]
    got[gd[d], pd.lane[d], pd.slot[d]] = have[gs[s], ps.lane[s], ps.slot[s]]


def _run_shuffles(r: Route, regs, have, out_regs, got) -> None:
    """Round by round: every lane offers one packed payload, every lane reads the
    payload of lane ``src_lane`` and unpacks it into its destination slots."""
    sched, epw = r.shuffle, r.epw
    rnd, edge, w, lane, pos, s_slot, d_slot, s_lane = r.shuffle_fill
    for k in range(sched.rounds):
        offered = np.zeros((r.warps, WARP, epw), dtype=regs.dtype)
        ok = np.zeros((r.warps, WARP, epw), dtype=bool)
        # the sender packs the payload it offers this round
        mine = sched.send_word[k][w, s_lane] == edge
        offered[w[mine], s_lane[mine], pos[mine]] = regs[w[mine], s_lane[mine], s_slot[mine]]
        ok[w[mine], s_lane[mine], pos[mine]] = have[w[mine], s_lane[mine], s_slot[mine]]
        src = sched.src_lane[k]
        warps = np.arange(r.warps)[:, None]
        received = offered[warps, np.maximum(src, 0)]  # shfl: read lane src_lane[lane]
        rec_ok = ok[warps, np.maximum(src, 0)] & (src >= 0)[..., None]
        at = rnd == k
        out_regs[w[at], lane[at], d_slot[at]] = received[w[at], lane[at], pos[at]]
        got[w[at], lane[at], d_slot[at]] = rec_ok[w[at], lane[at], pos[at]]


def _run_staging(r: Route, s: Staging, regs, have, out_regs, got, vals) -> None:
    """Stores, a barrier, loads -- pass by pass through one buffer when staged in passes
    (a barrier before each pass reuses the buffer)."""
    ps, pd = r.src, r.dst
    smem = np.zeros(s.bytes * 8 // r.bits + 1, dtype=regs.dtype)
    filled = np.zeros(len(smem), dtype=bool)
    if ps.role == "shared":  # the source tile is shared memory already
        smem[ps.slot] = vals
        filled[ps.slot] = True
    for k in range(s.passes):
        if ps.role == "registers":
            _move(s.store, k, regs, have, smem, filled, store=True)
        # barrier: all stores above complete before the loads below
        _move(s.load, k, out_regs, got, smem, filled, store=False)
        if k + 1 < s.passes:
            filled[:] = False  # barrier: the next pass overwrites the buffer
    if pd.role == "shared":
        rows = r.dst_rows
        out_regs[r.gwarp[1][rows], pd.lane[rows], pd.slot[rows]] = smem[pd.slot[rows]]
        got[r.gwarp[1][rows], pd.lane[rows], pd.slot[rows]] = filled[pd.slot[rows]]


def _move(side: Side, k_pass: int, regs, mask, smem, filled, *, store: bool) -> None:
    """Each (warp, lane, vector v) of pass ``k_pass`` moves slots [v*k, (v+1)*k) <->
    smem[start + 0..k-1]."""
    if side.matrix is not None:
        if k_pass < len(side.matrix):
            _move_matrix(side.matrix[k_pass], regs, mask, smem, filled, store=store)
        return
    live = side.start >= 0
    if side.pass_of is not None:
        live &= side.pass_of == k_pass
    elif k_pass:
        return
    w, lane, v = np.nonzero(live)
    base = side.start[w, lane, v]
    order = None if side.order is None else np.asarray(side.order)
    for j in range(side.k):
        slot = v * side.k + j
        if order is not None:
            slot = order[slot]
        if store:
            smem[base + j] = regs[w, lane, slot]
            filled[base + j] = mask[w, lane, slot]
        else:
            regs[w, lane, slot] = smem[base + j]
            mask[w, lane, slot] = filled[base + j]


def _move_matrix(m: MatrixAccess, regs, mask, smem, filled, *, store: bool) -> None:
    """ldmatrix / stmatrix, instruction by instruction: lane ``t`` moves half ``e`` of
    matrix ``j`` between its register slot ``m.slots[q, j, e]`` and the address the
    instruction's semantics give it from the row addresses its lanes supplied."""
    for q, count in enumerate(m.counts):
        for j in range(count):
            for e in range(m.slots.shape[2]):
                slot = int(m.slots[q, j, e])
                if slot < 0:
                    continue  # 32-bit pairs: one value per lane and matrix
                a = m.lane_addresses(q, j, e)
                w, t = np.nonzero(a >= 0)
                at = a[w, t]
                if store:
                    smem[at] = regs[w, t, slot]
                    filled[at] = mask[w, t, slot]
                else:
                    regs[w, t, slot] = smem[at]
                    mask[w, t, slot] = filled[at]


def _run_collective(r: Route, regs, out_regs, got, vals) -> None:
    ps, pd, rows, c = r.src, r.dst, r.dst_rows, r.collective
    gs, gd = r.gwarp
    n = int(max(ps.element.max(initial=0), pd.element.max(initial=0))) + 1
    # where each (device, element) sits on the source side
    key = ps.device * n + ps.element
    order = np.argsort(key, kind="stable")
    skey = key[order]

    def locate(dev: np.ndarray, elem: np.ndarray) -> np.ndarray:
        i = np.searchsorted(skey, dev * n + elem)
        i = np.minimum(i, len(skey) - 1)
        hit = skey[i] == dev * n + elem
        return np.where(hit, order[i], -1)

    # 1. the messages: each needed (device, element) read from its sender's buffer
    at = locate(c.sender, c.need_element)
    assert (at >= 0).all()
    message = {(int(d), int(e)): regs[gs[a], ps.lane[a], ps.slot[a]]
               for d, e, a in zip(c.need_device, c.need_element, at, strict=True)}
    # 2. each destination coordinate: a local copy or the received message
    dev, elem = pd.device[rows], pd.element[rows]
    local = locate(dev, elem)
    tgt = (gd[rows], pd.lane[rows], pd.slot[rows])
    for i in range(len(rows)):
        a = local[i]
        v = regs[gs[a], ps.lane[a], ps.slot[a]] if a >= 0 else message[int(dev[i]), int(elem[i])]
        out_regs[tgt[0][i], tgt[1][i], tgt[2][i]] = v
        got[tgt[0][i], tgt[1][i], tgt[2][i]] = True
