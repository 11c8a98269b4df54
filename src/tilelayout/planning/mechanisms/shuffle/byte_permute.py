"""Register-only exchanges of packed sub-word values: whole-register shuffles plus byte
permutes.

Elements narrower than 32 bits sit packed in 32-bit registers: register ``r`` of a lane
holds slots ``r*epw .. r*epw+epw-1`` (``epw = 32 / bits``; byte ``b`` of an 8-bit
register is slot ``r*4+b``, half ``h`` of a 16-bit one slot ``r*2+h``). When every
element moves inside one warp, a destination register can be built without shared
memory:

1. **shuffles** (``shfl.sync.idx``) of *whole* source registers: in a round every lane
   offers one of its registers (a ``selp`` picks it when lanes offer different ones) and
   reads the register another lane offers into a temporary;
2. **byte permutes** (``prmt.b32``, CUDA ``__byte_perm``): each destination register is
   assembled from the registers holding its bytes -- ``prmt(a, b, s)`` takes byte
   ``s >> 4i & 7`` of the 8-byte pair ``b:a`` as its byte ``i`` (PTX ISA, "prmt"), the
   selector ``s`` a per-lane register -- ``m`` source registers cost ``m - 1`` permutes
   (one when a single register's bytes are reordered; none when one register is taken
   as it is).

Destination registers that need the same source registers in every lane (FA3's two
words of one 64-bit chunk) share their shuffles. A lane may also read its *own*
register through a shuffle, which costs a round only when it raises the busiest lane's
count but keeps the temporaries' names uniform across lanes (no ``selp`` to pick the
operand): :func:`plan_byte_permute` tries both and keeps the cheaper. Cost units are
those of the one cost model (:mod:`.cost_model`): a shuffle 1, a ``selp`` or ``prmt``
:data:`~tilelayout.planning.cost_model.SELECT`.

This is FlashAttention-3's FP8 P permute (``permute_Aregs_fp8``, hopper/utils.h) found
by search: for the wgmma accumulator -> 8-bit A operand it finds 8 shuffles, 8 selects
and 8 permutes per warp.

>>> import numpy as np
>>> lanes = np.arange(32)
>>> # 4 bytes per lane; lane l wants byte b of lane l ^ 1 in position b
>>> bp = plan_byte_permute(np.zeros(128, int), np.repeat(lanes ^ 1, 4), np.tile(np.arange(4), 32),
...                        np.repeat(lanes, 4), np.tile(np.arange(4), 32), 1, 8)
>>> bp.shuffles, bp.selects, bp.permutes
(1, 0, 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....core.frozen import freeze_fields
from ...cost_model import SELECT
from ...cost_model import selects as lane_selects
from ...model.placement import WARP
from .shuffle import ShuffleSchedule, schedule


@dataclass(frozen=True, eq=False)
class BytePermute:
    """A register-only exchange of ``bits``-bit values packed ``epw`` to a register.

    ``offered[k, w, l]`` is the source register lane ``l`` of warp ``w`` offers in
    shuffle ``k`` and ``src_lane[k, w, l]`` the lane whose offer it reads (-1: none).
    Registers are named: ``0 .. words-1`` the lane's own source registers, ``words + k``
    the temporary filled by shuffle ``k``. Destination register ``j`` takes position
    ``i`` from operand ``where[j][w, l, i, 0]`` (an index into ``names[j][w, l]``), its
    position ``where[j][w, l, i, 1]``; -1 where the position holds nothing."""

    bits: int
    epw: int
    words: int
    offered: np.ndarray
    src_lane: np.ndarray
    names: tuple[np.ndarray, ...]
    where: tuple[np.ndarray, ...]
    shuffles: int
    selects: int
    permutes: int
    #: the permutes left where the destination holds its values one to a register
    #: (``dst_packing="unpacked"``): none for a register whose every position comes from
    #: the same operand (by its rank among the lane's operands) in every lane, or from one
    #: operand -- each value is shifted out of it -- else those that build the word
    loose_permutes: int = 0

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only views

    @property
    def units(self) -> float:
        """Cost units: a shuffle 1, a select or byte permute ``SELECT``."""
        return self.shuffles + SELECT * (self.selects + self.permutes)

    @property
    def loose_units(self) -> float:
        """:attr:`units` for a destination held one value to a register."""
        return self.shuffles + SELECT * (self.selects + self.loose_permutes)

    def selector(self, j: int, step: int, warp: int, lane: int) -> int:
        """The ``prmt.b32`` selector of permute ``step`` building destination register
        ``j`` in one lane (step 0 combines operands 0 and 1; step ``t`` the result so far
        with operand ``t + 1``)."""
        w = self.where[j][warp, lane]
        nb = self.bits // 8
        sel = 0
        for i in range(self.epw):
            p, pos = int(w[i, 0]), int(w[i, 1])
            if p < 0:
                src = i
            elif step == 0:
                src = pos + (self.epw if p == 1 else 0)
            else:
                src = i if p <= step else self.epw + pos
            for b in range(nb):
                sel |= (src * nb + b) << (4 * (i * nb + b))
        return sel


def prmt(a: np.ndarray, b: np.ndarray, selector: int, bits: int) -> np.ndarray:
    """``prmt.b32`` on packed values: the result's value ``i`` is value ``k`` of the pair
    ``b:a`` where ``k`` is the selector's byte index for value ``i``'s first byte divided
    by the bytes per value (``a``, ``b``: arrays of ``32 // bits`` values).

    >>> prmt(np.array([0, 1, 2, 3]), np.array([4, 5, 6, 7]), 0x5410, 8).tolist()
    [0, 1, 4, 5]
    """
    nb, epw = bits // 8, 32 // bits
    both = np.concatenate([a, b])
    return np.array([both[((selector >> (4 * i * nb)) & 7) // nb] for i in range(epw)],
                    dtype=both.dtype)


def plan_byte_permute(warp: np.ndarray, s_lane: np.ndarray, s_slot: np.ndarray,
                      lane: np.ndarray, slot: np.ndarray, warps: int, bits: int,
                      limit: float = math.inf) -> BytePermute | None:
    """Plan the exchange of destination values ``(warp, lane, slot)`` from source
    ``(warp, s_lane, s_slot)`` (one entry per destination value, all inside one warp) as
    whole-register shuffles plus byte permutes; None for 32-bit or wider values, or when
    a lower bound on its units (each group's busiest lane, the permutes) exceeds
    ``limit``."""
    if bits >= 32 or 32 % bits:
        return None
    arrays = [np.asarray(a, dtype=np.int64) for a in (warp, s_lane, s_slot, lane, slot)]
    # fetching a lane's own values matters only where some value crosses lanes
    crossing = bool((arrays[1] != arrays[3]).any())
    options = [o for o in (_plan(*arrays, warps, bits, own, limit)
                           for own in ((True, False) if crossing else (False,)))
               if o is not None]
    return min(options, key=lambda b: (b.units, b.shuffles)) if options else None


def operands(reg: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Per lane (all axes but the last), its distinct register names in order (``-1``
    padding), each position's operand index (-1 where ``reg`` is), and the most operands
    any lane needs: the operand lists a word is assembled from.

    >>> names, idx, m = operands(np.array([[5, 3, -1], [4, 4, 4]]))
    >>> names.tolist(), idx.tolist(), m
    ([[3, 5], [4, -1]], [[1, 0, -1], [0, 0, 0]], 2)
    """
    big = np.iinfo(np.int64).max
    r = np.sort(np.where(reg < 0, big, reg), axis=-1)
    r[..., 1:][r[..., 1:] == r[..., :-1]] = big
    r = np.sort(r, axis=-1)
    m = int((r < big).sum(axis=-1).max(initial=0))
    idx = (r[..., None, :] < reg[..., :, None]).sum(axis=-1)
    return np.where(r < big, r, -1)[..., :max(m, 1)], np.where(reg >= 0, idx, -1), m


def same_operand_per_position(idx: np.ndarray) -> bool:
    """Whether at each position of a word (the last axis) every lane that takes a value
    takes it from the same operand of its list (``idx``: :func:`operands`'s): then a
    destination held one value to a register shifts each value out of its operand, and
    no byte permute builds the word.

    >>> same_operand_per_position(np.array([[1, 0, -1], [1, 0, 0]]))
    True
    >>> same_operand_per_position(np.array([[1, 0], [0, 1]]))
    False
    """
    flat = idx.reshape(-1, idx.shape[-1])
    return all(len(np.unique(flat[flat[:, q] >= 0, q])) <= 1 for q in range(flat.shape[1]))


def _distinct(cell: np.ndarray, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells (nonnegative ints) present, and how many distinct ``value`` s each has.

    >>> [x.tolist() for x in _distinct(np.array([0, 0, 0, 3]), np.array([5, 5, -1, 2]))]
    [[0, 3], [2, 1]]
    """
    low = int(value.min())
    span = int(value.max()) - low + 1
    return np.unique(np.unique(cell * span + (value - low)) // span, return_counts=True)


def _most_fetched(thread: np.ndarray, register: np.ndarray) -> int:
    """The most distinct source ``register`` s one ``thread`` (warp * 32 + lane)
    receives.

    >>> _most_fetched(np.array([0, 0, 1]), np.array([4, 5, 4]))
    2
    """
    return int(_distinct(thread, register)[1].max()) if len(thread) else 0


def _permute_floor(d_word: np.ndarray, thread: np.ndarray, operand: np.ndarray,
                   threads: int, d_words: int) -> int:
    """The fewest permutes building every destination register: per register ``j``, the
    most distinct ``operand`` registers one ``thread`` (of ``threads``) combines into it,
    less one.

    >>> one = np.zeros(4, np.int64)
    >>> _permute_floor(one, one, np.array([5, 5, 6, 7]), 32, 1)  # three registers: 2
    2
    """
    if not len(d_word):
        return 0
    cells, counts = _distinct(d_word * threads + thread, operand)
    most = np.zeros(max(d_words, 1), np.int64)
    np.maximum.at(most, cells // threads, counts)
    return int(np.maximum(most - 1, 0).sum())


def _plan(warp, s_lane, s_slot, lane, slot, warps, bits, fetch_own: bool,
          limit: float) -> BytePermute | None:
    epw = 32 // bits
    s_word, s_pos = np.divmod(s_slot, epw)
    d_word, d_pos = np.divmod(slot, epw)
    words = int(max(s_word.max(initial=0), d_word.max(initial=0))) + 1
    d_words = int(d_word.max(initial=-1)) + 1
    cross = s_lane != lane
    remote_word = np.zeros((warps, WARP, max(d_words, 1)), bool)
    remote_word[warp[cross], lane[cross], d_word[cross]] = True
    fetched = remote_word[warp, lane, d_word] & (cross | fetch_own)
    src_reg = s_lane * words + s_word  # a source register by (lane, word)
    # first a floor known without scheduling: a lane receives one register a shuffle, so
    # it takes as many as the distinct registers it fetches; and a destination register
    # built from m registers (its own, or fetched) takes m - 1 permutes
    thread = warp * WARP + lane
    floor = _permute_floor(d_word, thread, np.where(fetched, 1 + src_reg, -1 - s_word),
                           warps * WARP, d_words)
    # and over all threads: a destination register whose values come from ``U``
    # registers across the warps (its own source words, at least one received one)
    # takes at least ``U - 1`` selects and permutes, whatever the operand order
    if len(d_word):
        floor = max(floor, int((_distinct(d_word, np.where(fetched, -1, s_word))[1] - 1).sum()))
    if _most_fetched(thread[fetched], src_reg[fetched]) + SELECT * floor > limit:
        return None
    # per destination register: which (warp, lane) fetches which source register
    need = np.zeros((max(d_words, 1), warps, WARP, WARP * words), bool)
    need[d_word[fetched], warp[fetched], lane[fetched], src_reg[fetched]] = True
    groups: dict[bytes, list[int]] = {}
    for j in np.flatnonzero(need.reshape(len(need), -1).any(axis=1)).tolist():
        groups.setdefault(need[j].tobytes(), []).append(j)
    # a lower bound: a group takes at least as many shuffles as its busiest receiver
    # fetches and as distinct registers its busiest sender offers
    lower = sum(max(int(need[js[0]].sum(axis=2).max()), int(need[js[0]].reshape(
        warps, WARP, WARP, words).any(axis=1).sum(axis=2).max())) for js in groups.values())
    if lower + SELECT * floor > limit:
        return None
    offered, src_lane = [], []
    temp = np.full((warps, WARP, WARP * words), -1, np.int64)  # the temporary of a fetch
    selects = 0
    for js in groups.values():
        ew, er, src = np.nonzero(need[js[0]])
        es, eword = np.divmod(src, words)
        sched = schedule(ew, es, eword, er)
        # a register fetched for the same destination position in every lane, in the
        # same round, lets a destination that holds its values one to a register take
        # each value as it arrives (docs/data-movement.md, *Destination packing*)
        served = np.isin(d_word, js) & fetched
        label = np.full((warps, WARP, WARP * words), epw, np.int64)
        np.minimum.at(label, (warp[served], lane[served], src_reg[served]), d_pos[served])
        sched = _aligned(sched, ew, es, eword, er, label[ew, er, src], warps)
        base = len(offered)
        for k in range(sched.rounds):
            o = np.full((warps, WARP), -1, np.int64)
            o[:sched.send_word.shape[1]] = sched.send_word[k]
            s = np.full((warps, WARP), -1, np.int64)
            s[:sched.src_lane.shape[1]] = sched.src_lane[k]
            offered.append(o)
            src_lane.append(s)
            selects += lane_selects(o)
        temp[ew, er, src] = words + base + sched.edge_round
        if len(offered) + SELECT * (selects + floor) > limit:  # already past what is known
            return None
    rounds = len(offered)
    names, where, permutes, loose = [], [], 0, 0
    for j in range(d_words):
        at = d_word == j
        reg = np.full((warps, WARP, epw), -1, np.int64)  # register name per position
        pos = np.full((warps, WARP, epw), -1, np.int64)
        w, ln, p = warp[at], lane[at], d_pos[at]
        reg[w, ln, p] = np.where(fetched[at], temp[w, ln, src_reg[at]],
                                 s_word[at])
        pos[w, ln, p] = s_pos[at]
        nm, idx, m = operands(reg)
        selects += sum(lane_selects(nm[:, :, q]) for q in range(m))
        wh = np.stack([idx, np.where(idx >= 0, pos, -1)], axis=-1)
        identity = ((pos == np.arange(epw)) | (reg < 0)).all()
        permutes += m - 1 if m > 1 else (0 if identity or m == 0 else 1)
        loose += m - 1 if m > 1 and not same_operand_per_position(idx) else 0
        if rounds + SELECT * (selects + permutes) > limit:  # counts only grow from here
            return None
        names.append(nm)
        where.append(wh)
    empty = np.zeros((0, warps, WARP), np.int64)
    return BytePermute(bits, epw, words, np.stack(offered) if offered else empty,
                       np.stack(src_lane) if src_lane else empty, tuple(names),
                       tuple(where), rounds, selects, permutes, loose)


def _aligned(sched: ShuffleSchedule, ew: np.ndarray, es: np.ndarray, eword: np.ndarray,
             er: np.ndarray, label: np.ndarray, warps: int) -> ShuffleSchedule:
    """``sched``, or the schedule whose round ``k`` carries the fetches labelled with the
    ``k``-th smallest ``label`` (the destination position they serve) where that is a
    schedule -- each lane reads one register a round and offers one -- of no more
    rounds, and no lane offers different registers in one round where ``sched`` does
    not."""
    labels, edge_round = np.unique(label, return_inverse=True)
    n = len(labels)
    if n > sched.rounds or not len(ew):
        return sched
    key = (edge_round * warps + ew) * WARP
    if len(np.unique(key + er)) != len(er):
        return sched  # a lane would read two registers in one round
    offer = np.full((n, warps, WARP), -1, np.int64)
    offer[edge_round, ew, es] = eword
    if (offer[edge_round, ew, es] != eword).any():
        return sched  # a lane would offer two registers in one round
    if any(lane_selects(offer[k]) > lane_selects(sched.send_word[k]) if k < sched.rounds
           else True for k in range(n)):
        return sched
    src_lane = np.full((n, warps, WARP), -1, np.int64)
    src_lane[edge_round, ew, er] = es
    return ShuffleSchedule(n, src_lane, offer, edge_round, sched.lower_bound)


def run(bp: BytePermute, regs: np.ndarray, have: np.ndarray, out_regs: np.ndarray,
        got: np.ndarray) -> None:
    """The machine model: shuffle whole packed registers, then build every destination
    register with ``prmt`` (selectors per lane); ``regs[w, l, slot]`` are the source
    values (``have``: present), written into ``out_regs`` / ``got`` per destination slot."""
    warps, _, slots = regs.shape
    epw = bp.epw
    pad = bp.words * epw - slots
    if pad > 0:
        regs = np.concatenate([regs, np.zeros((warps, WARP, pad), regs.dtype)], axis=2)
        have = np.concatenate([have, np.zeros((warps, WARP, pad), bool)], axis=2)
    own = regs[:, :, :bp.words * epw].reshape(warps, WARP, bp.words, epw)
    own_ok = have[:, :, :bp.words * epw].reshape(warps, WARP, bp.words, epw)
    temps, temps_ok = [], []
    w_idx = np.arange(warps)[:, None]
    for k in range(bp.shuffles):
        o = np.maximum(bp.offered[k], 0)
        offer = own[w_idx, np.arange(WARP), o]
        offer_ok = own_ok[w_idx, np.arange(WARP), o] & (bp.offered[k] >= 0)[..., None]
        s = bp.src_lane[k]
        temps.append(offer[w_idx, np.maximum(s, 0)])
        temps_ok.append(offer_ok[w_idx, np.maximum(s, 0)] & (s >= 0)[..., None])
    file = np.concatenate([own] + [t[:, :, None] for t in temps], axis=2)
    file_ok = np.concatenate([own_ok] + [t[:, :, None] for t in temps_ok], axis=2)
    for j, (nm, wh) in enumerate(zip(bp.names, bp.where, strict=True)):
        for w in range(warps):
            for ln in range(WARP):
                if (wh[w, ln, :, 0] < 0).all():
                    continue
                ops = [file[w, ln, n] for n in nm[w, ln] if n >= 0]
                oks = [file_ok[w, ln, n] for n in nm[w, ln] if n >= 0]
                acc = ops[0]
                ok = oks[0]
                for step in range(max(1, len(ops) - 1)):
                    b = ops[min(step + 1, len(ops) - 1)]
                    bk = oks[min(step + 1, len(ops) - 1)]
                    sel = bp.selector(j, step, w, ln)
                    acc, ok = (prmt(acc, b, sel, bp.bits),
                               prmt(ok, bk, sel, bp.bits).astype(bool))
                live = wh[w, ln, :, 0] >= 0
                idx = j * epw + np.flatnonzero(live)
                out_regs[w, ln, idx] = acc[live]
                got[w, ln, idx] = ok[live]
