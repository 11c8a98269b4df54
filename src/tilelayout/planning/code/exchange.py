"""A register exchange as code sees it: every destination register built from the
thread's own 32-bit words and the words it received in shuffle rounds.

Values are held in 32-bit words (a register each): sub-word values packed ``32 / bits``
to a word, slot ``s`` in word ``s // per_word`` at position ``s % per_word``; a 64-bit
value is two words (low first). A *unit* is one position of one word: a slot for 8- to
32-bit values, half a slot for 64-bit ones (:func:`units_of`).

An :class:`Exchange` holds, for ``rounds`` shuffle rounds, what each thread offers
(``payload``: the own unit at each position of the offered word) and which lane it
reads (``src_lane``); and for every destination unit of every thread the register name
and position it takes (``take``): names ``0 .. words-1`` are the thread's own words,
``words + k`` the word received in round ``k``. Every mechanism that stays in registers
is one: ``none`` and ``registers`` (no rounds), the shuffle rounds of
:mod:`~tilelayout.planning.mechanisms.shuffle.shuffle` and the whole-register shuffles
plus byte permutes of :mod:`~tilelayout.planning.mechanisms.shuffle.byte_permute`.
:func:`run` executes it on values (the emitter's self-check).

>>> import numpy as np
>>> ex = Exchange(32, 2, np.zeros((0, 32, 1), np.int64), np.zeros((0, 32), np.int64),
...               np.array([[[1, 0], [0, 0]]] * 32))   # unit 0 <- word 1, unit 1 <- word 0
>>> run(ex, np.arange(64).reshape(32, 2))[0].tolist()    # a register swap
[1, 0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.frozen import freeze_fields
from ..mechanisms.shuffle.byte_permute import BytePermute
from ..model.placement import WARP
from ..model.routing import Route


def per_word(bits: int) -> int:
    """Units in one 32-bit word: ``32 // bits`` for sub-word values, else 1.

    >>> per_word(8), per_word(32), per_word(64)
    (4, 1, 1)
    """
    return max(1, 32 // bits)


def units_of(slot: int | np.ndarray, bits: int) -> list:
    """The units of register slot ``slot`` (one, or two for a 64-bit value).

    >>> units_of(3, 16), units_of(3, 64)
    ([3], [6, 7])
    """
    if bits <= 32:
        return [slot]
    return [slot * 2, slot * 2 + 1]


def unit_bits(bits: int) -> int:
    """Bits of one unit: the value's, or 32 for 64-bit values."""
    return min(bits, 32)


@dataclass(frozen=True, eq=False)
class Exchange:
    """See the module doc. ``payload[k, t, p]``: the own unit thread ``t`` offers at
    position ``p`` of its word in round ``k`` (-1: none); ``src_lane[k, t]``: the lane it
    reads (-1: any); ``take[t, u]``: (register name, position) destination unit ``u`` of
    thread ``t`` takes, (-1, -1) where it takes nothing."""

    bits: int
    words: int
    payload: np.ndarray
    src_lane: np.ndarray
    take: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)

    @property
    def rounds(self) -> int:
        return len(self.src_lane)

    @property
    def threads(self) -> int:
        return self.take.shape[0]


def run(ex: Exchange, units: np.ndarray) -> np.ndarray:
    """The destination units of every thread (``-1`` where none) from its own source
    units ``units[t, u]``, executing the rounds as ``shfl.sync`` does."""
    threads = ex.threads
    pw = per_word(ex.bits)
    own = np.full((threads, ex.words * pw), -1, dtype=np.int64)
    own[:, :units.shape[1]] = units[:, :ex.words * pw]
    own = own.reshape(threads, ex.words, pw)
    regs = [own[:, i] for i in range(ex.words)]
    t = np.arange(threads)
    for k in range(ex.rounds):
        pay = ex.payload[k]
        offered = np.where(pay >= 0, own.reshape(threads, -1)[t[:, None], np.maximum(pay, 0)],
                           -1)
        lane = np.where(ex.src_lane[k] >= 0, ex.src_lane[k], t % WARP)
        regs.append(offered[t // WARP * WARP + lane])
    file = np.stack(regs, axis=1)  # (threads, names, pw)
    name, pos = ex.take[..., 0], ex.take[..., 1]
    got = file[t[:, None], np.maximum(name, 0), np.maximum(pos, 0)]
    return np.where(name >= 0, got, -1)


def fetch_own(ex: Exchange) -> Exchange:
    """``ex`` with lanes that keep their own value in a register that other lanes fill
    from a shuffle reading it through a round where they receive nothing: a lane idle in
    round ``k`` reads itself and gets what it offers -- the value it keeps, when it
    already offers it or when nobody reads it in that round (then it offers the register
    holding that value, one its warp's mux already picks from) -- so the register is
    the round's word in every lane and needs no select between its own value and the
    received one. Applied per destination word when it removes the own registers from
    the word's candidates in every thread."""
    if not ex.rounds:
        return ex
    pw = per_word(ex.bits)
    take, src_lane, payload = ex.take.copy(), ex.src_lane.copy(), ex.payload.copy()
    lane = np.arange(ex.threads) % WARP
    for j in range(-(-take.shape[1] // pw)):
        units = range(j * pw, min((j + 1) * pw, take.shape[1]))
        names = take[:, list(units), 0]
        own = (names >= 0) & (names < ex.words)
        if not own.any() or not (names >= ex.words).any():
            continue
        trial = (take.copy(), src_lane.copy(), payload.copy())
        if all(_fetch(trial, ex.words, pw, int(t), units[i], int(lane[t]))
               for t, i in zip(*np.nonzero(own), strict=True)):
            take, src_lane, payload = trial
    return Exchange(ex.bits, ex.words, payload, src_lane, take)


def _fetch(trial, words: int, pw: int, t: int, u: int, lane: int) -> bool:
    """Deliver thread ``t``'s own destination unit ``u`` through a round it idles in
    (see :func:`fetch_own`), updating ``trial`` = (take, src_lane, payload)."""
    take, src_lane, payload = trial
    word, pos = int(take[t, u, 0]), int(take[t, u, 1])
    want = word * pw + pos
    for k in range(len(src_lane)):
        if src_lane[k, t] not in (-1, lane):
            continue
        hit = np.flatnonzero(payload[k, t] == want)
        if not len(hit) and (payload[k, t] < 0).all() and src_lane[k, t] == -1:
            offered = payload[k][:, 0]
            if word * pw in set(offered[offered >= 0].tolist()) or pw == 1 and \
                    want in set(offered[offered >= 0].tolist()):
                payload[k, t] = word * pw + np.arange(pw)
                hit = np.array([pos])
        if len(hit):
            take[t, u] = (words + k, int(hit[0]))
            src_lane[k, t] = lane
            return True
    return False


def joint_to_real(route: Route) -> np.ndarray:
    """The real warp (``threadIdx.x / 32``) of each joint warp number of the route."""
    out = np.full(route.warps, -1, dtype=np.int64)
    for gw, p in zip(route.gwarp, (route.src, route.dst), strict=True):
        out[gw] = p.warp
    return out


def from_route(route: Route, threads: int) -> Exchange:
    """The exchange of a plan that stays in registers (``none``, ``registers``, shuffle
    rounds, byte permutes), from its route."""
    bits, ps, pd, rows = route.bits, route.src, route.dst, route.dst_rows
    pw = per_word(bits)
    units = max(1, int(pd.slot.max(initial=0)) + 1) * (2 if bits > 32 else 1)
    src_units = (int(ps.slot.max(initial=0)) + 1) * (2 if bits > 32 else 1)
    words = -(-src_units // pw)
    take = np.full((threads, units, 2), -1, dtype=np.int64)
    real = joint_to_real(route)
    d_tid = (real[route.gwarp[1]] * WARP + pd.lane)[rows]
    d_slot = pd.slot[rows]
    s_slot = ps.slot[route.source]
    if route.byte_permute is not None:
        return _from_byte_permute(route.byte_permute, real, threads, units, take)
    local = route.level <= 1
    shuffled = np.zeros(len(rows), dtype=bool)
    payload = np.zeros((0, threads, pw), dtype=np.int64)
    src_lane = np.zeros((0, threads), dtype=np.int64)
    if route.shuffle is not None:
        payload, src_lane, shuffled = _rounds(route, real, threads, words, take)
    keep = local & ~shuffled
    for h in range(2 if bits > 32 else 1):
        du = d_slot[keep] * (2 if bits > 32 else 1) + h
        su = s_slot[keep] * (2 if bits > 32 else 1) + h
        take[d_tid[keep], du, 0] = su // pw
        take[d_tid[keep], du, 1] = su % pw
    return fetch_own(Exchange(bits, words, payload, src_lane, take))


def _rounds(route: Route, real: np.ndarray, threads: int, words: int, take: np.ndarray):
    """Payloads and source lanes of the route's shuffle rounds (64-bit values: two word
    rounds per round), filling ``take`` for the rows they deliver."""
    bits = route.bits
    pw, wpe = per_word(bits), (2 if bits > 32 else 1)
    sched = route.shuffle
    rnd, _edge, w, lane, pos, s_slot, d_slot, s_lane = route.shuffle_fill
    base = real[w] * WARP
    payload = np.full((sched.rounds * wpe, threads, pw), -1, dtype=np.int64)
    src_lane = np.full((sched.rounds * wpe, threads), -1, dtype=np.int64)
    for h in range(wpe):
        k = rnd * wpe + h
        payload[k, base + s_lane, pos] = s_slot * wpe + h
        src_lane[k, base + lane] = s_lane
        take[base + lane, d_slot * wpe + h, 0] = words + k
        take[base + lane, d_slot * wpe + h, 1] = pos
    # the rows the rounds deliver (in route.dst_rows order)
    delivered = np.zeros(len(route.dst_rows), dtype=bool)
    pd = route.dst
    key = (real[route.gwarp[1][route.dst_rows]] * WARP + pd.lane[route.dst_rows]) * \
        (int(pd.slot.max(initial=0)) + 1) + pd.slot[route.dst_rows]
    got = (base + lane) * (int(pd.slot.max(initial=0)) + 1) + d_slot
    delivered[np.isin(key, got)] = True
    return payload, src_lane, delivered


def _from_byte_permute(bp: BytePermute, real: np.ndarray, threads: int, units: int,
                       take: np.ndarray) -> Exchange:
    """A :class:`~.byte_permute.BytePermute` as an exchange: whole words offered, and
    each destination register's positions from its operands."""
    pw = bp.epw
    payload = np.full((bp.shuffles, threads, pw), -1, dtype=np.int64)
    src_lane = np.full((bp.shuffles, threads), -1, dtype=np.int64)
    warps = bp.offered.shape[1] if bp.shuffles else len(real)
    for gw in range(warps):
        t = real[gw] * WARP + np.arange(WARP)
        for k in range(bp.shuffles):
            o = bp.offered[k, gw]
            payload[k, t] = np.where(o[:, None] >= 0, o[:, None] * pw + np.arange(pw), -1)
            src_lane[k, t] = bp.src_lane[k, gw]
        for j, (nm, wh) in enumerate(zip(bp.names, bp.where, strict=True)):
            idx, pos = wh[gw, :, :, 0], wh[gw, :, :, 1]
            name = np.where(idx >= 0, np.take_along_axis(nm[gw], np.maximum(idx, 0), axis=1), -1)
            n = min(pw, units - j * pw)
            u = j * pw + np.arange(n)
            take[t[:, None], u[None, :], 0] = name[:, :n]
            take[t[:, None], u[None, :], 1] = np.where(idx >= 0, pos, -1)[:, :n]
    return fetch_own(Exchange(bp.bits, bp.words, payload, src_lane, take))


__all__ = ["Exchange", "fetch_own", "from_route", "joint_to_real", "per_word", "run",
           "unit_bits", "units_of"]
