"""The cost model of data-movement plans, in one place (docs/data-movement.md, *The cost
model*).

Per warp, a plan is charged in **cost units**:

* a ``shfl.sync`` is :data:`SHFL` (1); a select (``selp``) or byte permute (``prmt``) that
  picks a lane-dependent register, packs or unpacks sub-word values or assembles a
  register from bytes is :data:`SELECT` (1/2: an SM issues 32-bit integer operations
  for 64 threads per clock and warp shuffles for 32 -- CUDA C++ Programming Guide,
  "Arithmetic Instructions", throughput table);
* a shared-memory instruction (``st/ld.shared`` of any width, ``stmatrix`` / ``ldmatrix``
  of any ``.xN``) costs its wavefronts, at least :data:`SMEM_INSTRUCTION` (1): shuffles
  and shared-memory accesses share one crossbar, a shuffle moving 128 bytes per warp
  like a wavefront, so a warp's 16-byte vector store (4 wavefronts) costs 4 shuffles;
  each store -> load round trip through shared memory is :data:`ROUND_TRIP` (2 3/4: the
  latency of a store and a load beside their issue slots) more;
* a conversion of the source's element type to the planned one (a float32
  accumulator stored as bfloat16) is counted apart (``conversions``): one ``cvt`` per
  value, or per two values where PTX packs them (:func:`cvt_instruction`); it is the same
  for every mechanism, so it decides nothing;
* a barrier is :data:`BAR_SYNC` (1) when warps exchange data (``bar.sync``) and
  :data:`SYNCWARP` (1/4) when every warp exchanges only with itself (``__syncwarp``);
* a TMA box is :data:`TMA_BOX` (1): one ``cp.async.bulk.tensor`` copies one box and one
  thread issues it (PTX ISA 9.7.9.25.5.2, cp.async.bulk.tensor; docs/hardware.md), like
  one shared-memory instruction of the warp that issues it.

A lane exchange takes shuffles or staging, whichever costs fewer units (shuffles win
ties). A staging is chosen among layouts and passes by wavefronts, then instructions,
then shared-memory bytes, then passes (:func:`.staging.rank`). Every count is per warp,
so the same exchange done by every warp of a CTA is decided as it is for one warp.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Protocol

import numpy as np

#: cost units (see the module doc)
SHFL = 1.0
SELECT = 0.5
SMEM_INSTRUCTION = 1.0
ROUND_TRIP = 2.75
BAR_SYNC = 1.0
SYNCWARP = 0.25
TMA_BOX = 1.0

#: the cost key of the byte permutes (counted in ``byte_permutes``) that only pack
#: sub-word values into destination registers: a plan whose destination holds its values
#: one to a register (``dst_packing="unpacked"``) writes none of them
DESTINATION_PERMUTES = "destination_permutes"


def selects(values: np.ndarray) -> int:
    """Selects to pick a lane-dependent register out of the distinct ``values``: a chain
    of ``selp``, one fewer than the registers."""
    return max(len(np.unique(values[values >= 0])) - 1, 0)


def barrier_cost(warp_local: bool) -> float:
    """One barrier: ``__syncwarp`` (``bar.warp.sync``) when every warp exchanges data only
    with itself, else ``bar.sync`` (the CTA's warps wait for each other)."""
    return SYNCWARP if warp_local else BAR_SYNC


class _Side(Protocol):
    per_warp: int


class StagingCounts(Protocol):
    """What the cost model reads of a staging (any mechanism's): instructions per warp of
    each side, wavefronts, passes."""

    store: _Side
    load: _Side
    wavefronts: int
    passes: int


class Rounds(Protocol):
    rounds: int


def staging_units(s: StagingCounts, warp_local: bool, warps: int = 1) -> float:
    """Cost units of a staging per warp (of ``warps`` doing it): its shared-memory
    instructions' wavefronts (at least one each), ``2 x passes - 1`` barriers and a
    store -> load round trip per pass.

    >>> import tilelayout as tl
    >>> p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
    ...                        (32, 32), "float32")
    >>> staging_units(p._route.staging, warp_local=True)     # 64 wavefronts + 1/4 + 2 3/4
    67.0
    """
    issued = (s.store.per_warp + s.load.per_warp) * SMEM_INSTRUCTION
    return (max(issued, s.wavefronts / max(warps, 1))
            + (2 * s.passes - 1) * barrier_cost(warp_local) + s.passes * ROUND_TRIP)


def shuffle_units(shuffles: int, select_count: int) -> float:
    """Cost units of shuffle rounds per warp: each ``shfl.sync`` and each select / ``prmt``
    that picks a lane-dependent register.

    >>> shuffle_units(2, 8)
    6.0
    """
    return shuffles * SHFL + select_count * SELECT


def shuffle_instructions(sched: Rounds, rnd: np.ndarray, src_slot: np.ndarray,
                         dst_slot: np.ndarray, kept: np.ndarray | None = None) -> tuple[int, int]:
    """Per warp: one shfl per round, and the ``selp`` that pick lane-dependent registers:
    to send, ``m - 1`` per round whose lanes send ``m`` distinct registers (a chain of
    selects); to fill, ``n - 1`` per destination register that ``n`` distinct sources
    fill in different lanes (rounds, and its own value where ``kept``: the destination
    slots some lane fills from its own registers) -- the count of Triton's PTX.

    Two lanes swap one of two registers (lane 0 sends its slot 1 into lane 1's slot 0,
    lane 1 its slot 0 into lane 0's slot 1; each keeps the other slot):

    >>> from types import SimpleNamespace
    >>> one_round = SimpleNamespace(rounds=1)
    >>> shuffle_instructions(one_round, np.array([0, 0]), np.array([1, 0]), np.array([0, 1]),
    ...                      kept=np.array([1, 0]))
    (1, 3)
    """
    count = 0
    for k in range(sched.rounds):
        at = rnd == k
        count += max(len(np.unique(src_slot[at])) - 1, 0)
    kept = np.zeros(0, np.int64) if kept is None else np.asarray(kept)
    for j in np.unique(dst_slot).tolist():
        n = len(np.unique(rnd[dst_slot == j])) + int(j in kept)
        count += n - 1
    return sched.rounds, count


def payload_ops(rnd: np.ndarray, warp: np.ndarray, sender: np.ndarray, receiver: np.ndarray,
                edge: np.ndarray, pos: np.ndarray, src_slot: np.ndarray,
                dst_slot: np.ndarray, epw: int, rounds: int,
                local: set[tuple[int, int, int, int]] = frozenset()) -> tuple[int, int]:
    """Per warp, the selects and byte permutes payload shuffles of sub-word values need
    (``epw`` values per 32-bit register; ``local``: the (warp, lane, register, source
    register)s where a destination register also keeps values of its own lane, from that
    source register of the lane). Sending: per round, each lane packs its payload from
    ``m`` registers with ``m - 1`` ``prmt`` (a per-lane selector picks and packs at once;
    one when a single register is not sent whole and in place). Receiving: each
    destination register is assembled from the rounds it receives from (and the source
    registers its own values come from) with one ``prmt`` fewer than those. A register
    name that differs between lanes at one position of such an operand list takes one
    ``selp`` fewer than the distinct names (a register received in some lanes and kept
    in others takes one).
    Every round and register is counted at once (:func:`_position_selects`).

    Two lanes of one warp each send the other one 16-bit value of their register 0 in
    one round; each keeps its own other half beside what it receives:

    >>> z = np.zeros(2, np.int64)
    >>> payload_ops(z, z, np.array([0, 1]), np.array([1, 0]), np.array([0, 1]), z,
    ...             z, z, 2, 1, local={(0, 0, 0, 0), (0, 1, 0, 0)})
    (0, 2)
    """
    if not len(rnd):
        return 0, 0
    full = np.bincount(edge, minlength=int(edge.max(initial=-1)) + 1)[edge] == epw
    lane_key = warp.astype(np.int64) * 64 + sender
    # sending: per round, the lanes' operand lists of registers
    rounds_at, m, sel_send = _position_selects(rnd, lane_key, src_slot // epw)
    whole = np.bincount(rnd, weights=~(full & (src_slot % epw == pos)),
                        minlength=rounds)[rounds_at] == 0
    perm = int(np.where(m > 1, m - 1, np.where(whole, 0, 1)).sum())
    # receiving: destination register -> per lane, the rounds (and -1 - r: its own values
    # from source register r)
    reg = dst_slot // epw
    lanes = warp.astype(np.int64) * 64 + receiver
    kept = np.array(sorted(local), dtype=np.int64).reshape(-1, 4)
    group = np.concatenate([reg, kept[:, 2]])
    who = np.concatenate([lanes, kept[:, 0] * 64 + kept[:, 1]])
    value = np.concatenate([rnd, -1 - kept[:, 3]])  # an own source register: one operand
    # the registers that receive in some lane: where another lane keeps its own value
    # there instead, a select picks between them
    mine = np.isin(group, reg)
    regs, m, sel_recv = _position_selects(group[mine], who[mine], value[mine])
    in_place = full & (dst_slot % epw == pos)
    placed = np.bincount(np.searchsorted(regs, reg), weights=~in_place,
                         minlength=len(regs)) == 0
    perm += int(np.where(m > 1, m - 1, np.where(placed, 0, 1)).sum())
    return int(sel_send.sum() + sel_recv.sum()), perm


def _dense(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values, ids = np.unique(x, return_inverse=True)
    return values, ids.reshape(-1).astype(np.int64)


def _position_selects(group: np.ndarray, key: np.ndarray, name: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per ``group`` and ``key`` (a lane), its distinct ``name`` s in order form an
    operand list. Per group (its distinct values, sorted): the longest list's length and
    the selects that pick, at each position, a name that differs between lanes (one
    ``selp`` fewer than the distinct names at that position).

    >>> _position_selects(np.array([0, 0, 0, 7]), np.array([0, 0, 1, 0]),
    ...                   np.array([3, 4, 5, 3]))
    (array([0, 7]), array([2, 1]), array([1, 0]))
    """
    groups, g = _dense(group)
    _, k = _dense(key)
    _, n = _dense(name)
    keys, names = int(k.max()) + 1, int(n.max()) + 1
    code = np.unique((g * keys + k) * names + n)  # sorted by group, key, name
    gk, nn = code // names, code % names
    gg = gk // keys
    starts = np.r_[0, np.flatnonzero(np.diff(gk)) + 1]
    rank = np.arange(len(code)) - np.repeat(starts, np.diff(np.r_[starts, len(code)]))
    longest = np.zeros(len(groups), np.int64)
    np.maximum.at(longest, gg, rank + 1)
    places = int(rank.max()) + 1
    at = gg * places + rank  # (group, position)
    distinct = np.unique(at * names + nn) // names  # one per distinct name at a position
    sel = np.bincount(distinct // places, minlength=len(groups)) - \
        np.bincount(np.unique(at) // places, minlength=len(groups))
    return groups, longest, sel


#: element type -> PTX type name of its cvt forms
_PTX_TYPE = MappingProxyType({"float32": "f32", "float": "f32", "fp32": "f32", "float16": "f16",
                              "half": "f16", "fp16": "f16", "bfloat16": "bf16", "bf16": "bf16",
                              "e4m3": "e4m3", "float8_e4m3": "e4m3", "float8": "e4m3", "e5m2": "e5m2",
                              "float8_e5m2": "e5m2", "tfloat32": "tf32", "tf32": "tf32"})


def cvt_instruction(held: str, planned: str) -> tuple[str, int]:
    """The ``cvt`` that turns ``held`` values into ``planned`` ones, and how many values
    one instruction converts (PTX ISA 9.7.9.21 cvt: ``.f16x2`` / ``.bf16x2`` and the FP8
    ``.e4m3x2`` / ``.e5m2x2`` forms pack two results into one register).

    >>> cvt_instruction("float32", "bfloat16"), cvt_instruction("float16", "float32")
    (('cvt.rn.bf16x2.f32', 2), ('cvt.f32.f16', 1))
    """
    a = _PTX_TYPE.get(held.lower(), held.lower())
    b = _PTX_TYPE.get(planned.lower(), planned.lower())
    if a == "f32" and b in ("f16", "bf16"):
        return f"cvt.rn.{b}x2.f32", 2
    if a == "f32" and b in ("e4m3", "e5m2"):
        return f"cvt.rn.satfinite.{b}x2.f32", 2
    return f"cvt.{b}.{a}", 1
