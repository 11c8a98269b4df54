"""A lane exchange found on bits as code sees it: Triton's register-lane transpositions
(:mod:`~tilelayout.planning.mechanisms.shuffle.warp_transpose`), step by step on the
thread's 32-bit registers.

The thread's values are first *packed* in the decomposition's order: the register
permutation applied, ``2**pack`` values to a 32-bit register (16-bit pairs, 8-bit quads;
a 64-bit value is one register of two words). Then, for ``swap``, every mixed
transposition ``(r_i l_j)`` selects (``r_i ^= l_j``: in the lanes whose bit is set,
register ``r`` trades values with register ``r ^ 2**i``, or both are rebuilt by two
byte permutes where the packing order changes), every register is shuffled once from
the lane that holds what it needs (``shfl.bfly`` when that is ``lane ^ c``, else
``shfl.idx``), and the selects run again after the shuffles; for ``ship`` (a single
transposition, the lanes in place), each pair of registers ships one built value
across the lane bit and rebuilds both from it. The destination registers are then the
packed registers, unpacked in the destination's order.

:class:`LaneTranspose` holds those steps as data, what both the CUDA writer
(:mod:`.cuda_transpose`) and :func:`run` (the emitter's self-check on element numbers)
read. Packing and unpacking are register renaming where the packed registers are the
thread's own words in another order; elsewhere each built register costs byte
permutes (``gather`` / ``scatter``).

>>> from tilelayout.planning.model.bits import ThreadBits
>>> from tilelayout.planning.mechanisms.shuffle.warp_transpose import decompose
>>> src = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 1
>>> dst = ThreadBits((2,), (1, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 2
>>> units = lambda tb: np.array([[tb.element(r, t, 0) for r in range(2)] for t in range(32)])
>>> tr = lane_transpose(decompose(src, dst, 32), src, dst, 32, units(src), units(dst))
>>> tr.form, tr.regs, (run(tr, units(src)) == units(dst)).all()
('ship', 2, np.True_)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...core.frozen import freeze_fields
from ..mechanisms.shuffle.warp_transpose import (
    Decomposition,
    Transposition,
    counts,
    shippable,
)
from ..model.bits import ThreadBits
from .transpose_steps import (
    OPERANDS,
    Select,
    Ship,
    byte_pair_selector,
    byte_perm,
    partner,
    select_stage,
    ship_selectors,
    shuffled,
)

WARP = 32
#: a byte that holds zero (an 8-bit value zero-extended to a 16-bit half)
ZERO = -2
#: a byte no destination reads
ANY = -1


@dataclass(frozen=True, eq=False)
class LaneTranspose:
    """See the module doc. ``gather[q, b]``: the byte of the thread's source words
    (word * 4 + byte) byte ``b`` of packed register ``q`` holds (:data:`ZERO`: zero);
    ``scatter[k, b]``: the byte of the packed registers (register * bytes + byte)
    destination word ``k`` takes (:data:`ANY`: none). ``form``: ``swap`` (``pre``
    selects, one shuffle per register from ``src_lane[q, t]``, -1: not shuffled,
    ``post`` selects) or ``ship`` (:class:`Ship`)."""

    bits: int
    pack: int
    form: str
    gather: np.ndarray
    pre: tuple[Select, ...]
    src_lane: np.ndarray
    post: tuple[Select, ...]
    ship: Ship | None
    scatter: np.ndarray
    #: the ``gather`` form: ``cand[q, c]`` the source register candidate ``c`` of packed
    #: register ``q`` is shuffled from (-1: none), ``cand_lane[q, c, t]`` the lane thread
    #: ``t`` reads it from (:data:`ANY`: any), ``choose[q, t]`` the candidate thread ``t``
    #: keeps (:data:`ANY`: none)
    cand: np.ndarray | None = None
    cand_lane: np.ndarray | None = None
    choose: np.ndarray | None = None

    def __post_init__(self) -> None:
        freeze_fields(self)

    @property
    def regs(self) -> int:
        """Packed registers per thread."""
        return self.gather.shape[0]

    @property
    def reg_bytes(self) -> int:
        """Bytes of one packed register (8 for 64-bit values, else 4)."""
        return self.gather.shape[1]

    @property
    def threads(self) -> int:
        return self.src_lane.shape[1]


def _compact(tb: ThreadBits) -> list[int]:
    """The register bits that move an element (the others only repeat values)."""
    return [k for k, v in enumerate(tb.reg) if v]


def _spread(i: int, at: list[int]) -> int:
    """The register slot whose bits ``at`` hold the bits of the compact index ``i``."""
    return sum(((i >> b) & 1) << a for b, a in enumerate(at))


def _permute_bits(i: int, perm: tuple[int, ...]) -> int:
    return sum(((i >> b) & 1) << p for b, p in enumerate(perm))


def lane_transpose(dec: Decomposition, src: ThreadBits, dst: ThreadBits, bits: int,
                   src_units: np.ndarray, dst_units: np.ndarray) -> LaneTranspose | None:
    """The steps of ``dec`` (:func:`~.warp_transpose.decompose` of ``src -> dst`` for
    ``bits``-bit values) for the threads of ``src_units`` / ``dst_units`` (the element
    of every unit of every thread, as :mod:`.program` reads them); None when no code of
    the decomposition's shape delivers every element (one shuffle per packed register
    cannot fill a register whose values sit in two lanes)."""
    unit = min(bits, 32)
    nb = 8 if bits > 32 else 4
    # Triton holds an 8-bit pair in 16-bit halves; here it is two adjacent bytes
    sel = byte_pair_selector if bits == 8 and dec.pack == 1 else (lambda x: x)
    gather = _gather(dec, src, bits, unit, nb)
    d_slots = dst_units.shape[1] // (2 if bits > 32 else 1)
    scatter = _scatter(dec, _compact(dst), bits, unit, nb, d_slots)
    threads = src_units.shape[0]
    lane = np.arange(threads) % WARP
    lane_inv = [0] * dec.lanes
    for j, k in enumerate(dec.lane_perm):
        lane_inv[k] = j
    if counts(dec, bits).form == "gather":
        return _gather_form(dec, bits, gather, scatter, src_units, dst_units)
    if len(dec.mixed) == 1 and not dec.lanes_permuted and shippable(dec.mixed[0]):
        return LaneTranspose(bits, dec.pack, "ship", gather, (), np.full((0, threads), -1),
                             (), _ship_of(dec.mixed[0], dec.pack, sel), scatter)
    pre = [Select(t.reg - dec.pack, sel(t.top_pre), sel(t.bot_pre), sel(t.bot_pre),
                  sel(t.top_pre), lane >> lane_inv[t.lane] & 1) for t in dec.mixed]
    post = [Select(t.reg - dec.pack, sel(t.top_post), sel(t.bot_post),
                   sel(t.top_post ^ OPERANDS), sel(t.bot_post ^ OPERANDS), lane >> t.lane & 1)
            for t in dec.mixed]
    tr = LaneTranspose(bits, dec.pack, "swap", gather, tuple(pre), np.full((0, threads), -1),
                       tuple(post), None, scatter)
    packed = _bytes(tr, src_units, gather)
    need = _needed(tr, dst_units)
    lanes = _triton_lanes(dec, lane_inv, lane, gather.shape[0])
    if not _delivers(_selected(packed, pre), lanes, need):
        if len(pre) > 1:
            return None
        solved = _solve(packed, pre[0] if pre else None, need)
        if solved is None:
            return None
        pre[:], lanes = solved
    pre = [x for x in pre if (x.trade == 1).any()]  # a stage where no thread trades: none
    post = [x for x in post if (x.trade == 1).any()]
    cares = (need != ANY).any(axis=2).T  # [register, thread]
    lanes = np.where(cares, lanes, -1)
    if not dec.lanes_permuted:  # registers that stay in their lane are not shuffled
        lanes[(lanes == lane[None, :]).all(axis=1) | ~cares.any(axis=1)] = -1
    return LaneTranspose(bits, dec.pack, "swap", gather, tuple(pre), lanes, tuple(post), None,
                         scatter)


def packing_tables(dec: Decomposition, src: ThreadBits, dst: ThreadBits, bits: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The ``gather`` and ``scatter`` tables of :func:`lane_transpose` (the packed
    registers' bytes from the source words, the destination words' bytes from them),
    from the bits alone."""
    unit, nb = min(bits, 32), 8 if bits > 32 else 4
    return (_gather(dec, src, bits, unit, nb),
            _scatter(dec, _compact(dst), bits, unit, nb, 1 << len(dst.reg)))


def _gather_form(dec: Decomposition, bits: int, gather: np.ndarray, scatter: np.ndarray,
                 src_units: np.ndarray, dst_units: np.ndarray) -> LaneTranspose | None:
    """The ``gather`` form (:func:`~.warp_transpose.counts`): every packed register the
    destination reads takes its value from one of its ``2**m`` candidate source registers
    (itself with any of the transpositions' register bits flipped), each shuffled from
    the lane that holds the value there; None when a needed value is in none of them."""
    threads = src_units.shape[0]
    empty = np.full((0, threads), -1)
    plain = LaneTranspose(bits, dec.pack, "swap", gather, (), empty, (), None, scatter)
    packed = _bytes(plain, src_units, gather)  # [t, q, bytes]
    need = _needed(plain, dst_units)
    regs, nb = packed.shape[1], packed.shape[2]
    flips = [0]
    for t in dec.mixed:
        flips = flips + [f | 1 << (t.reg - dec.pack) for f in flips]
    ways = len(flips)
    cand = np.full((regs, ways), -1, dtype=np.int64)
    cand_lane = np.full((regs, ways, threads), ANY, dtype=np.int64)
    choose = np.full((regs, threads), ANY, dtype=np.int64)
    warps = threads // WARP
    for q in range(regs):
        want = need[:, q]  # [t, bytes]
        cares = (want != ANY).any(axis=1)
        if not cares.any():
            continue
        open_ = cares.copy()
        for c, f in enumerate(flips):
            held = packed[:, q ^ f].reshape(warps, WARP, nb)  # the warp's lanes' values
            lanes_of = held[np.arange(threads) // WARP]  # [t, lane, bytes]
            match = ((want[:, None, :] == ANY) | (lanes_of == want[:, None, :])).all(axis=2)
            take = open_ & match.any(axis=1)
            if take.any():
                cand[q, c] = q ^ f
                cand_lane[q, c] = np.where(take, match.argmax(axis=1), ANY)
                choose[q] = np.where(take, c, choose[q])
                open_ &= ~take
        if open_.any():
            return None
    return LaneTranspose(bits, dec.pack, "gather", gather, (), empty, (), None, scatter,
                         cand, cand_lane, choose)


def _ship_of(t: Transposition, pack: int, sel) -> Ship:
    """Triton's ``ship`` selectors for ``t`` (its ``transferWithinWarpShipImpl``)."""
    if t.plain_pre and t.plain_post:
        return Ship(t.reg - pack, t.lane, True)
    diag_lo, diag_hi = ship_selectors(t.top_post)
    return Ship(t.reg - pack, t.lane, False, (sel(t.bot_pre), sel(t.top_pre)),
                (sel(t.top_post), sel(diag_hi)), (sel(diag_lo), sel(t.bot_post ^ OPERANDS)))


def _gather(dec: Decomposition, src: ThreadBits, bits: int, unit: int, nb: int) -> np.ndarray:
    """Each packed register's bytes from the thread's source words (Triton's order: the
    register permutation applied, then ``2**pack`` consecutive values to a register; a
    source with fewer registers repeats its values)."""
    s_at = _compact(src)
    inverse = {_permute_bits(i, dec.reg_perm): i for i in range(1 << dec.regs)}
    epr = 1 << dec.pack
    out = np.full(((1 << dec.regs) >> dec.pack, nb), ZERO, dtype=np.int64)
    for x in range(1 << dec.regs):
        slot = _spread(inverse[x] % (1 << len(s_at)), s_at)
        q, p = divmod(x, epr)
        for b in range(max(1, bits // 8)):
            out[q, p * unit // 8 + b] = slot * bits // 8 + b  # the slot's memory bytes
    return out


def _triton_lanes(dec: Decomposition, lane_inv: list[int], lane: np.ndarray, regs: int
                  ) -> np.ndarray:
    """Triton's source lane of every packed register: ``pLaneInv(lane) ^ mask(r)``, the
    mask the lane bits of the transpositions whose register bit ``r`` has."""
    perm = lane & ~((1 << dec.lanes) - 1)
    for k, j in enumerate(lane_inv):
        perm = perm | ((lane >> k) & 1) << j
    out = np.zeros((regs, len(lane)), dtype=np.int64)
    for q in range(regs):
        mask = 0
        for t in dec.mixed:
            if q >> (t.reg - dec.pack) & 1:
                mask |= 1 << lane_inv[t.lane]
        out[q] = perm ^ mask
    return out


def _selected(vals: np.ndarray, stages: list[Select]) -> np.ndarray:
    for s in stages:
        vals = select_stage(vals, s)
    return vals


def _delivers(vals: np.ndarray, lanes: np.ndarray, need: np.ndarray) -> bool:
    """Whether every register reading lane ``lanes[q, t]`` gets what it needs."""
    base = np.arange(vals.shape[0]) // WARP * WARP
    for q in range(vals.shape[1]):
        got = vals[base + lanes[q], q]
        if not ((need[:, q] == ANY) | (got == need[:, q])).all():
            return False
    return True


def _solve(packed: np.ndarray, s: Select | None, need: np.ndarray
           ) -> tuple[list[Select], np.ndarray] | None:
    """At most one transposition where the source lane is not Triton's (it also depends
    on the warp, or a register bit of copies went to a lane): which threads trade before
    the shuffles, and the lane every register reads, found thread by thread (the first
    lane that holds what a register needs, consistent with the trades chosen so far);
    None when no choice delivers everything."""
    threads, regs = packed.shape[:2]
    variants = [packed] if s is None else \
        [select_stage(packed, replace(s, trade=np.full(threads, v))) for v in (0, 1)]
    trade = np.full(threads, ANY, dtype=np.int64)
    lanes = np.zeros((regs, threads), dtype=np.int64)
    for q in range(regs):
        for t in range(threads):
            want = need[t, q]
            if (want == ANY).all():
                continue
            base = t // WARP * WARP
            pick = None
            for ln in range(WARP):
                for v in range(len(variants)):
                    held = variants[v][base + ln, q]
                    if trade[base + ln] in (ANY, v) and ((want == ANY) | (held == want)).all():
                        pick = (ln, v)
                        break
                if pick is not None:
                    break
            if pick is None:
                return None
            lanes[q, t] = pick[0]
            trade[base + pick[0]] = pick[1]
    return ([] if s is None else [replace(s, trade=trade)]), lanes


def _scatter(dec: Decomposition, d_at: list[int], bits: int, unit: int, nb: int,
             d_slots: int) -> np.ndarray:
    """Each destination word's bytes from the packed registers (see :class:`LaneTranspose`)."""
    per = max(1, 32 // bits)
    epr = 1 << dec.pack
    words = -(-d_slots // per) * (2 if bits > 32 else 1)
    out = np.full((words, 4), ANY, dtype=np.int64)
    for slot in range(d_slots):
        j = sum(((slot >> a) & 1) << b for b, a in enumerate(d_at))
        q, p = divmod(j, epr)
        for b in range(max(1, bits // 8)):
            mem = slot * bits // 8 + b
            out[mem // 4, mem % 4] = q * nb + p * unit // 8 + b
    return out


def _bytes(tr: LaneTranspose, units: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The byte labels (element * 8 + byte of the element) ``table``'s bytes hold, from
    the threads' units (``table``: word * 4 + byte, or :data:`ZERO`)."""
    eb = max(1, tr.bits // 8)
    ub = min(eb, 4)
    threads = units.shape[0]
    flat = np.full((threads, units.shape[1] * ub), ANY, dtype=np.int64)
    for u in range(units.shape[1]):
        for b in range(ub):
            e = units[:, u]
            half = (u % 2) * 4 if tr.bits > 32 else 0
            flat[:, u * ub + b] = np.where(e >= 0, e * 8 + half + b, ANY)
    safe = np.clip(table, 0, flat.shape[1] - 1)
    got = flat[:, safe.reshape(-1)].reshape((threads,) + table.shape)
    got = np.where(table.reshape((1,) + table.shape) >= flat.shape[1], ANY, got)
    return np.where(table.reshape((1,) + table.shape) == ZERO, ZERO, got)


def _ship(vals: np.ndarray, tr: LaneTranspose, lane: np.ndarray) -> np.ndarray:
    """The ``ship`` form on byte labels (:func:`run`)."""
    t = tr.ship
    assert t is not None
    half = 1 << t.reg
    low = [q for q in range(vals.shape[1]) if not q & half]
    high = [q | half for q in low]
    up = ((lane >> t.lane) & 1 == 1)[:, None, None]
    a, b = vals[:, low], vals[:, high]
    other = partner(lane, 1 << t.lane)
    out = vals.copy()
    if t.plain:
        got = np.where(up, a, b)[other]
        out[:, low] = np.where(up, got, a)
        out[:, high] = np.where(up, b, got)
        return out

    def pick(x, y, pair):
        return np.where(up, byte_perm(x, y, pair[1]), byte_perm(x, y, pair[0]))

    got = pick(a, b, t.send)[other]
    out[:, low] = pick(a, got, t.low)
    out[:, high] = pick(b, got, t.high)
    return out


def _through(tr: LaneTranspose, vals: np.ndarray) -> np.ndarray:
    """The packed registers after the transpositions, from the packed source ``vals``."""
    lane = np.arange(vals.shape[0]) % WARP
    if tr.form == "ship":
        return _ship(vals, tr, lane)
    if tr.form == "gather":
        return _gathered(vals, tr)
    vals = shuffled(_selected(vals, list(tr.pre)), tr.src_lane)
    return _selected(vals, list(tr.post))


def _gathered(vals: np.ndarray, tr: LaneTranspose) -> np.ndarray:
    """The ``gather`` form on byte labels (:func:`run`): every candidate shuffled, then
    each thread keeps its chosen one."""
    assert tr.cand is not None and tr.cand_lane is not None and tr.choose is not None
    out = vals.copy()
    t = np.arange(vals.shape[0])
    base = t // WARP * WARP
    for q in range(vals.shape[1]):
        for c in range(tr.cand.shape[1]):
            if tr.cand[q, c] < 0:
                continue
            src = base + np.maximum(tr.cand_lane[q, c], 0)
            got = vals[src, tr.cand[q, c]]
            out[:, q] = np.where((tr.choose[q] == c)[:, None], got, out[:, q])
    return out


def _needed(tr: LaneTranspose, dst_units: np.ndarray) -> np.ndarray:
    """What each packed register must hold after its shuffle (byte labels, :data:`ANY`
    where nothing reads it): the destination bytes traced back through the selects
    after the shuffles."""
    threads = dst_units.shape[0]
    nb = tr.reg_bytes
    out_bytes = np.full((threads, tr.regs * nb), ANY, dtype=np.int64)
    want = _bytes(tr, dst_units, _word_bytes(tr.scatter.shape[0]))  # [t, words, 4]
    flat = want.reshape(threads, -1)
    src = tr.scatter.reshape(-1)
    for k in np.flatnonzero(src >= 0).tolist():
        out_bytes[:, src[k]] = np.where(flat[:, k] != ANY, flat[:, k], out_bytes[:, src[k]])
    labels = np.broadcast_to(np.arange(tr.regs * nb).reshape(1, tr.regs, nb),
                             (threads, tr.regs, nb)).copy()
    labels = _selected(labels, list(tr.post))
    need = np.full((threads, tr.regs * nb), ANY, dtype=np.int64)
    t = np.repeat(np.arange(threads), tr.regs * nb)
    lab = labels.reshape(-1)
    got = out_bytes.reshape(-1)
    keep = got != ANY
    need[t[keep], lab[keep]] = got[keep]
    return need.reshape(threads, tr.regs, nb)


def _word_bytes(words: int) -> np.ndarray:
    return np.arange(words * 4).reshape(words, 4)


def run(tr: LaneTranspose, src_units: np.ndarray) -> np.ndarray:
    """The destination units ``[t, u]`` of every thread from its source units (``-1``
    where a unit receives nothing), executing the steps on element numbers."""
    vals = _through(tr, _bytes(tr, src_units, tr.gather))
    threads = vals.shape[0]
    flat = vals.reshape(threads, -1)
    src = tr.scatter.reshape(-1)
    got = np.where(src >= 0, flat[:, np.maximum(src, 0)], ANY)  # [t, dst bytes]
    eb = max(1, tr.bits // 8)
    ub = min(eb, 4)
    units = got.shape[1] // ub
    first = got.reshape(threads, units, ub)[:, :, 0]
    return np.where(first >= 0, first // 8, -1)


__all__ = ["ANY", "LaneTranspose", "Select", "Ship", "ZERO", "byte_perm", "lane_transpose",
           "packing_tables", "run", "ship_selectors"]
