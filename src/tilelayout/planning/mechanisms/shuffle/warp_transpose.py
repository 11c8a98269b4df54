"""Lanes of a warp exchange registers by bit transpositions: Triton's warp-shuffle
lowering, on bits (docs/hardware.md, *Triton's warp shuffles*; docs/data-movement.md).

When each warp already holds what it needs and both register layouts are bit maps
(:mod:`...model.bits`), the conversion is a permutation ``P`` of the register and lane
index bits (Triton's ``getWarpLayoutConvertDecomposition``). Walking its cycles splits it
into a register permutation (free: renaming), a lane permutation, and *mixed
transpositions* ``(r_i l_j)`` -- a 2 x 2 block transpose of registers against lanes --
each done as ``select, shuffle, select`` over GF(2)::

    r_i ^= l_j (selp)   l_j ^= r_i (shfl)   r_i ^= l_j (selp)

Sub-word values are first packed ``2**pack`` to a 32-bit register (16-bit pairs, 8-bit
quads), so one shuffle moves several; where the packing order changes, the selects
become byte permutes (``prmt``). :func:`decompose` computes the factors and
:func:`counts` the instructions Triton's code issues per warp for them (its ``Swap`` and
``Ship`` forms, ``transferWithinWarp`` in ``ConvertLayoutOpToLLVM.cpp``): with ``m``
transpositions over ``R`` packed registers, ``Swap`` takes ``2 m R`` selects or permutes
and ``R`` shuffles (``(1 - 2**-m) R`` when the lanes are not permuted); a single
transposition with the lanes in place ships half the registers: ``R / 2`` shuffles and
``3 R / 2`` selects. Where the destination needs only ``D < R`` of those registers (the
source holds copies it does not need), ``Gather`` fills each one from its ``2**m``
candidates: ``2**m D`` indexed shuffles and ``(2**m - 1) D`` selects. Triton shuffles
when there is at most one transposition (``cvtNeedsWarpShuffle``) and stages through
shared memory otherwise.

>>> from tilelayout.planning.model.bits import ThreadBits
>>> src = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 1
>>> dst = ThreadBits((2,), (1, 4, 8, 16, 32), (), 6)            # lane 0 holds 0, 2
>>> d = decompose(src, dst, 32)
>>> d.transpositions, counts(d, 32)
(((0, 0),), WarpShuffle(shuffles=1, selects=3, permutes=0, form='ship'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....core.f2 import Subspace
from ...model.bits import ThreadBits

#: the identity byte selectors of ``prmt`` (low word, high word of the pair)
TOP, BOT = 0x3210, 0x7654


@dataclass(frozen=True)
class Transposition:
    """One mixed transposition ``(r_reg l_lane)`` with the byte selectors of the permutes
    before and after the shuffle (the identity pair means plain selects)."""

    reg: int
    lane: int
    top_pre: int = TOP
    bot_pre: int = BOT
    top_post: int = TOP
    bot_post: int = BOT

    @property
    def plain_pre(self) -> bool:
        return self.top_pre == TOP and self.bot_pre == BOT

    @property
    def plain_post(self) -> bool:
        return self.top_post == TOP and self.bot_post == BOT


@dataclass(frozen=True)
class Decomposition:
    """``P = mixed o lane_perm o reg_perm`` over ``regs`` register bits and ``lanes`` lane
    bits: ``reg_perm[i]`` / ``lane_perm[j]`` are the bits the register / lane bit goes to,
    ``transpositions`` the mixed factors with their selectors, ``pack`` the register bits
    packed into one 32-bit register."""

    regs: int
    lanes: int
    reg_perm: tuple[int, ...]
    lane_perm: tuple[int, ...]
    mixed: tuple[Transposition, ...]
    pack: int
    #: the lane a value comes from also depends on the warp (warps that hold copies on
    #: one side need different elements on the other): every shuffle is an indexed one
    warp_lanes: bool = False
    #: one-sided transpositions: a source register bit that holds copies (the source
    #: has fewer registers) goes to a lane; each destination register then reads its own
    #: lane (every shuffle an indexed one) and no select is needed
    one_sided: int = 0
    #: the destination's register bits that are not copies (None: ``regs``): the
    #: selects after the shuffles fill only its distinct registers (the copies are the
    #: same values, as Triton's PTX shows)
    dst_regs: int | None = None

    @property
    def transpositions(self) -> tuple[tuple[int, int], ...]:
        return tuple((t.reg, t.lane) for t in self.mixed)

    @property
    def lanes_permuted(self) -> bool:
        return self.warp_lanes or self.one_sided or self.lane_perm != tuple(range(self.lanes))


@dataclass(frozen=True)
class WarpShuffle:
    """Instructions per warp of the exchange (``form``: ``ship`` or ``swap``)."""

    shuffles: int
    selects: int
    permutes: int
    form: str

    @property
    def instructions(self) -> int:
        return self.shuffles + self.selects + self.permutes


def decompose(src: ThreadBits, dst: ThreadBits, bits: int) -> Decomposition | None:
    """The factors of the warp-local conversion ``src -> dst`` for ``bits``-bit values, or
    None when it is not a permutation of register and lane bits (a side's bits are not
    unit vectors, or a warp needs elements its source warp holds in other registers)."""
    s, d = src.without_broadcast_registers(), dst.without_broadcast_registers()
    warp_lanes = False
    if s.warp != d.warp:
        # a warp that needs other elements than its source warp holds them in other
        # lanes: the lane a value comes from then also depends on the warp (shfl.idx)
        lanes = Subspace(s.lane)
        if len(s.warp) != len(d.warp) or any((a ^ b) not in lanes for a, b in
                                             zip(s.warp, d.warp, strict=True)):
            return None
        warp_lanes = True
    n_reg = max(len(s.reg), len(d.reg))
    n_lane = max(len(s.lane), len(d.lane))
    sides = []
    for tb in (s, d):
        sides.append(((tuple(tb.reg) + (0,) * (n_reg - len(tb.reg))),
                      (tuple(tb.lane) + (0,) * (n_lane - len(tb.lane)))))
    where = {}  # dst vector -> (dim, index): dim 0 = register, 1 = lane
    for dim in (0, 1):
        for i, v in enumerate(sides[1][dim]):
            if v:
                if v & (v - 1) or v in where:
                    return None
                where[v] = (dim, i)
    perm: dict[tuple[int, int], tuple[int, int]] = {}
    src_free, dst_free = [], []
    for dim, size in ((0, n_reg), (1, n_lane)):
        for i in range(size):
            sv, tv = sides[0][dim][i], sides[1][dim][i]
            if sv and sv & (sv - 1):
                return None
            if sv and sv not in where:
                if not warp_lanes:
                    return None
                sv = 0  # the destination holds it in another warp: a free source bit
            if sv:
                perm[(dim, i)] = where[sv]
            if not sv and not tv:
                perm[(dim, i)] = (dim, i)
            elif not sv:
                src_free.append((dim, i))
            elif not tv:
                dst_free.append((dim, i))
    for a, b in zip(src_free, dst_free, strict=False):
        perm[a] = b
    free = set(src_free)
    one_sided = 0
    one_sided_to: list[int] = []  # their destination register bits
    if len(perm) != n_reg + n_lane or len(set(perm.values())) != len(perm):
        return None
    reg_perm = list(range(n_reg))
    lane_perm = list(range(n_lane))
    mixed: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for dim, size in ((0, n_reg), (1, n_lane)):
        for i in range(size):
            if (dim, i) in seen:
                continue
            entry = cur = (dim, i)
            reg_start = lane_start = lane_end = reg_end = -1
            while True:
                seen.add(cur)
                nxt = perm[cur]
                if cur[0] == 0 and nxt[0] == 0:
                    reg_perm[cur[1]] = nxt[1]
                elif cur[0] == 1 and nxt[0] == 1:
                    lane_perm[cur[1]] = nxt[1]
                elif cur[0] == 0:
                    reg_start, lane_start = cur[1], nxt[1]
                else:
                    reg_end, lane_end = nxt[1], cur[1]
                if reg_end >= 0:
                    reg_perm[reg_start] = reg_end
                    lane_perm[lane_end] = lane_start
                    if (0, reg_start) in free:
                        # the source register bit holds copies: the exchange is one-sided,
                        # each destination register reads its own lane (shfl.idx), no select
                        one_sided += 1
                        one_sided_to.append(reg_end)
                    else:
                        mixed.append((reg_end, lane_start))
                    reg_start = lane_start = lane_end = reg_end = -1
                cur = nxt
                if cur == entry:
                    break
    m = len(mixed)
    pack = min((min(max(32 // bits, 1), 4)).bit_length() - 1, n_reg - m)
    # a one-sided transposition into a register bit that would be packed puts values of
    # two lanes in one register, which one shuffle cannot fill: those values stay one to
    # a register, as Triton holds them (it shuffles each, no permute)
    pack = max(min([pack, *one_sided_to]), 0)
    processed = _selectors(mixed, reg_perm, pack)
    return Decomposition(n_reg, n_lane, tuple(reg_perm), tuple(lane_perm), tuple(processed),
                         pack, warp_lanes, one_sided, len(d.reg))


def _permute_selector(sel: int, bit: int, pack: int) -> int:
    lo = bit + (2 - pack)
    hi_mask, lo_mask = 0x4444, 0x1111 << lo
    fixed = sel & ~hi_mask & ~lo_mask & 0xFFFF
    shift = 2 - lo
    return fixed | ((hi_mask & sel) >> shift) | (((lo_mask & sel) << shift) & 0xFFFF)


def _selectors(mixed: list[tuple[int, int]], reg_perm: list[int], pack: int
               ) -> list[Transposition]:
    """Fold the permutations of the packed ('low') register bits into the transpositions'
    byte selectors (Triton's ``getTranspositionSelectors``): after this no low register
    bit appears in a transposition, and the permutes replace selects where the packing
    order changes."""
    if pack == 0:
        return [Transposition(r, ln) for r, ln in mixed]
    out: list[Transposition] = []
    paired = {r for r, _ in mixed}

    def nxt(b: int) -> int:
        return reg_perm[b]

    def next_high_free(p: tuple[int, int]) -> bool:
        cur = p[0]
        while True:
            if cur >= pack:
                return cur == p[0] or cur not in paired
            cur = nxt(cur)
            if cur == p[0]:
                return False

    mixed = [p for p in mixed if next_high_free(p)] + [p for p in mixed if not next_high_free(p)]

    def prev(b: int) -> int:
        tail, cur = b, nxt(b)
        while cur != b:
            tail, cur = cur, nxt(cur)
        return tail

    def find_partner(low: int, pre: list[int]) -> int:
        if pack == 2:
            other = 1 - low
            b = nxt(other)
            if nxt(low) == low and b >= pack and b not in paired and other not in paired:
                pre.append(other)
                reg_perm[prev(other)] = b
                paired.add(b)
                return b
        cand = pack
        while cand in paired:
            cand += 1
        paired.add(cand)
        return cand

    def generate(head: int, tail: int, lows: Sequence[int]) -> tuple[int, int]:
        top, bot = TOP, BOT
        for low in lows:
            top, bot = _permute_selector(top, low, pack), _permute_selector(bot, low, pack)
            if low not in (head, tail):
                reg_perm[low] = low
        return top, bot

    for r_bit, l_bit in mixed:
        cycle = [r_bit]
        cur = nxt(r_bit)
        while cur != r_bit:
            cycle.append(cur)
            cur = nxt(cur)

        def boundary(bit: int, r: int = r_bit) -> bool:
            return bit >= pack or (bit in paired and bit != r)

        fwd = next((k for k, b in enumerate(cycle) if boundary(b)), len(cycle))
        rev = list(reversed(cycle))
        bwd = next((k for k, b in enumerate(rev) if boundary(b)), len(rev))
        post = cycle[:fwd]
        pre = rev[:bwd]
        partner = -1
        if fwd != len(cycle):
            end = cycle[fwd]
            if end == r_bit or end not in paired:
                head = partner = end
            else:
                head = post[0]
                pre.append(head)
                post = post[:1]
                paired.discard(head)
            tail = rev[bwd]
            if tail < pack and tail in paired:
                pre.insert(0, tail)
        else:
            if nxt(r_bit) != r_bit and nxt(r_bit) in paired:
                pre = pre[1:]
                post = post[:-1]
                paired.discard(post[0])
                head, tail = r_bit, nxt(r_bit)
            else:
                if len(post) == 2:
                    post = post[:-1]
                head = tail = pre[0]
        if partner < 0:
            partner = find_partner(head, pre)
        top_post, bot_post = generate(head, tail, list(reversed(post)))
        top_pre, bot_pre = generate(head, tail, pre)
        reg_perm[tail] = head
        info = Transposition(partner, l_bit, top_pre, bot_pre, top_post, bot_post)
        if pre:
            sel = 0x6240 if pack - pre[-1] == 2 else 0x5410
            at = next((k for k, t in enumerate(out) if t.top_post == sel), len(out))
            out.insert(at, info)
        else:
            out.append(info)
    if pack == 2 and reg_perm[0] == 1 and reg_perm[1] == 0 and out:
        t = out[-1]
        out[-1] = Transposition(t.reg, t.lane, t.top_pre, t.bot_pre, 0x3120, 0x7564)
    return out


def shippable(t: Transposition) -> bool:
    """Whether Triton moves ``t`` by its ``ship`` form (when it is the only transposition
    and the lanes stay in place): a cycle that does not use both high and low register
    bits (``isShippable`` in ``ConvertLayoutOpToLLVM.cpp``).

    >>> shippable(Transposition(0, 0)), shippable(Transposition(2, 1, top_post=0x5410))
    (True, False)
    """
    return t.top_pre == t.top_post or (t.top_pre, t.top_post) in (
        (0x5140, 0x6240), (0x6420, 0x5410), (0x3210, 0x3120))


def counts(d: Decomposition, bits: int) -> WarpShuffle:
    """Shuffles, selects and byte permutes per warp of Triton's code for ``d``
    (:mod:`module doc <.warp_transpose>`) over ``R`` packed registers; a 64-bit value is
    shuffled as two 32-bit words and selected whole (``selp.b64``), as Triton's PTX
    shows."""
    regs = (1 << d.regs) >> d.pack
    words = max(1, bits // 32)  # a 64-bit value is shuffled as two words, selected as one
    m = len(d.mixed)
    pairs = regs // 2
    if m == 1 and not d.lanes_permuted and shippable(d.mixed[0]):
        t = d.mixed[0]
        if t.top_pre == TOP and t.top_post == TOP:
            return WarpShuffle(pairs * words, 3 * pairs, 0, "ship")
        return WarpShuffle(pairs * words, 0, 3 * pairs, "ship")
    selects = permutes = 0
    out_regs = regs if d.dst_regs is None else max(1, (1 << d.dst_regs) >> d.pack)
    for t in d.mixed:
        for plain, n in ((t.plain_pre, regs), (t.plain_post, min(regs, out_regs))):
            if plain:
                selects += n
            else:
                permutes += n
    if d.lanes_permuted:
        shuffles = regs
    else:
        shuffles = sum(1 for r in range(regs) if any(r >> (t.reg - d.pack) & 1 for t in d.mixed))
    swap = WarpShuffle(shuffles * words, selects, permutes, "swap")
    # where the destination holds fewer registers than the source (its copies of the
    # source's registers are not all needed), each destination register can gather its
    # value: one indexed shuffle from each of its 2**m candidate source registers, then
    # 2**m - 1 selects -- as Triton's PTX does on such pairs (64 shfl.sync.idx + 32 selp
    # for 32 destination registers of one transposition)
    # (packed sub-word values gather whole registers when the packing is the same on
    # both sides: plain selects, the packed register bits in place)
    whole = d.pack == 0 or (all(t.plain_pre and t.plain_post for t in d.mixed)
                            and all(d.reg_perm[i] == i for i in range(d.pack)))
    if whole and out_regs < regs:
        ways = 1 << m
        gather = WarpShuffle(out_regs * ways * words, out_regs * (ways - 1), 0, "gather")
        if gather.instructions < swap.instructions:
            return gather
    return swap


def triton_shuffles(src: ThreadBits, dst: ThreadBits) -> bool:
    """Whether Triton converts ``src -> dst`` with warp shuffles rather than through
    shared memory: at most one transposition of a register bit with a lane bit, the
    one-sided ones (a source register bit holding copies) included, counted on 32-bit
    values (``cvtNeedsWarpShuffle``; the rule Triton 3.9's code follows on every pair of
    the differential harness, docs/data-movement.md)."""
    d = decompose(src, dst, 32)
    return d is not None and len(d.mixed) + d.one_sided < 2


__all__ = ["Decomposition", "Transposition", "WarpShuffle", "counts", "decompose",
           "shippable", "triton_shuffles"]
