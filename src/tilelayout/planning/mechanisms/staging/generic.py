"""Triton's own shared-memory choice for a register-to-register conversion, on bits.

When a conversion crosses warps, Triton (``transferWithinBlockSwizzling``) stages the
tile through a swizzled shared-memory buffer that it synthesizes from the two layouts'
bit maps (``optimalSwizzling`` in ``lib/Tools/GenericSwizzling.cpp``; docs/hardware.md,
*Triton's generic swizzle*). This module is that synthesis, written here from its
published behaviour, so that the compiler's own choice is always one of our
candidates (docs/data-movement.md):

* the **vector** bases: element bits both layouts keep in registers (16 bytes at most),
  so both sides move whole vectors;
* for each pair of instructions the target has (``st.shared`` / ``stmatrix`` /
  ``stmatrix.trans`` for the store, the ``ld`` forms for the load: :func:`tiles`), the
  **tile** whose addresses one wavefront carries;
* the **segment** bases (:func:`segment`): the address bits above one 128-byte line,
  chosen outside both sides' tiles where possible and otherwise as XORs of the two
  sides' differing bases, which is what removes bank conflicts; the **bank** bases
  complete the space;
* the **reps**: segment bases both layouts hold in registers are taken out of the
  buffer -- the tile is moved in passes through a buffer that size (a barrier between
  passes) -- keeping two for the matrix instructions' ``.x4``.

The pair with the fewest estimated conflicts (then the most passes) wins, as in Triton.
Every vector here is a flat element index in Triton's bit order (dimension 0 lowest:
callers convert with :func:`triton_order`), because the synthesis breaks ties by bit
position.

>>> src = ((1, 2, 4), (8, 16, 32, 64, 128), ())           # 8 elements per lane in a row
>>> dst = ((32, 64, 128), (1, 2, 4, 8, 16), ())           # ... in a column
>>> s = swizzle(src, dst, 16, 8)
>>> s.reps, (s.store, s.load), len(s.address)
((), ('shared', 'shared'), 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....core.f2 import preimage

Map = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # (reg, lane, warp) vectors


@dataclass(frozen=True)
class InstructionTile:
    """What one warp-wide shared-memory instruction needs of a layout (Triton's
    ``LocalMemOpTile``): ``lane_contig`` -- the lane bits whose elements sit side by side
    in one 16-byte row (the rest of the row are register bits); ``lane_addr`` -- the lane
    bits that give the row addresses one wavefront carries (with ``3 - len`` register
    bits first)."""

    name: str
    lane_contig: tuple[int, ...]
    lane_addr: tuple[int, ...]


#: ld.shared / st.shared (.v4 at most), stmatrix / ldmatrix (.x4), and the .trans forms
SHARED = InstructionTile("shared", (), (0, 1, 2))
MATRIX = InstructionTile("matrix", (0, 1), (2, 3, 4))
MATRIX_TRANS = InstructionTile("matrix.trans", (2, 3, 4), (0, 1))


def tiles(bits: int, stmatrix: bool, ldmatrix: bool
          ) -> tuple[tuple[InstructionTile, ...], tuple[InstructionTile, ...]]:
    """The instruction tiles the target offers the store side and the load side for
    ``bits``-bit elements (Triton's ``getSrcDstTiles``): the shared forms always, the
    matrix forms for elements of at most 32 bits, their ``.trans`` forms for 16 bits.

    >>> [t.name for t in tiles(16, True, True)[0]]
    ['shared', 'matrix', 'matrix.trans']
    """
    src, dst = [SHARED], [SHARED]
    if bits <= 32:
        if stmatrix:
            src.append(MATRIX)
        if ldmatrix:
            dst.append(MATRIX)
    if bits == 16:
        if stmatrix:
            src.append(MATRIX_TRANS)
        if ldmatrix:
            dst.append(MATRIX_TRANS)
    return tuple(src), tuple(dst)


# -- F2 helpers in Triton's conventions (pivots are the lowest set bits) ------------------

def _low(v: int) -> int:
    return (v & -v).bit_length() - 1


def _rref(vectors: Sequence[int]) -> list[int]:
    """The reduced row echelon form of ``vectors`` (columns = bits, lowest first): each
    nonzero row's lowest set bit is its pivot, and no other row has that bit."""
    rows: list[int] = []
    for v in vectors:
        for r in rows:
            if v >> _low(r) & 1:
                v ^= r
        if v:
            p = _low(v)
            rows = [r ^ v if r >> p & 1 else r for r in rows]
            rows.append(v)
    return rows


def orthogonal(vectors: Sequence[int], dim: int) -> list[int]:
    """A basis of the vectors orthogonal (dot product over F2) to all of ``vectors``
    (Triton's ``nullspaceBasis``).

    >>> orthogonal([0b011], 3)
    [3, 4]
    """
    piv = {_low(r): r for r in _rref(vectors)}
    out = []
    for f in range(dim):
        if f in piv:
            continue
        v = 1 << f
        for p, r in piv.items():
            if r >> f & 1:
                v ^= 1 << p
        out.append(v)
    return out


def complement(vectors: Sequence[int], dim: int) -> list[int]:
    """Unit vectors completing ``vectors`` to the whole space: the bits that are not
    pivots (Triton's ``complementBasis``).

    >>> complement([0b011], 3)
    [2, 4]
    """
    piv = {_low(r) for r in _rref(vectors)}
    return [1 << i for i in range(dim) if i not in piv]


def intersection(b1: Sequence[int], b2: Sequence[int], dim: int) -> list[int]:
    """A basis of ``span(b1) & span(b2)``; when both are unit vectors, the common ones in
    ``b1``'s order (Triton's ``intersectionBasis``).

    >>> intersection([4, 1, 2], [2, 4], 3)
    [4, 2]
    """
    if all(v & (v - 1) == 0 for v in (*b1, *b2)):
        other = set(b2)
        return [v for v in b1 if v and v in other]
    return orthogonal(orthogonal(b1, dim) + orthogonal(b2, dim), dim)


def segment(bank_src: Sequence[int], bank_dst: Sequence[int], dim: int, length: int
            ) -> list[int]:
    """``length`` segment bases (the address bits above one bank line): first unit
    vectors neither side's bank tile uses, then the XORs ``a ^ b`` of the sides'
    differing tile bases (neither side conflicts on those), then -- only when there are
    not enough -- the differing bases themselves (each one a 2-way conflict on one
    side). Triton's ``computeSegment``.

    >>> segment([1, 2], [4, 8], 4, 2)
    [5, 10]
    """
    s, d = set(bank_src) - {0}, set(bank_dst) - {0}
    out = [1 << b for b in range(dim) if (1 << b) not in s and (1 << b) not in d]
    if len(out) >= length:
        return out[:length]
    a = sorted(v for v in s if v not in d)
    b = sorted(v for v in d if v not in s)
    if len(a) > len(b):
        a, b = b, a
    conflicts = min(max(0, length - len(a) - len(out)), len(a))
    out += [a[i] ^ b[i] for i in range(conflicts, len(a))]
    out += a[:conflicts] + b[:conflicts]
    return out[:length]


@dataclass(frozen=True)
class Swizzled:
    """The shared-memory buffer Triton synthesizes: element-index vectors of the
    address bits, lowest first -- ``vector`` (inside one vector), ``bank`` (inside one
    128-byte line), ``segment`` (the lines) -- and ``reps``, the element bits moved in
    passes (outside the buffer). ``store`` / ``load``: the instruction tiles chosen
    (``shared``, ``matrix`` or ``matrix.trans``)."""

    vector: tuple[int, ...]
    bank: tuple[int, ...]
    segment: tuple[int, ...]
    reps: tuple[int, ...]
    store: str
    load: str

    @property
    def address(self) -> tuple[int, ...]:
        """The buffer's address bits, lowest first: vector, bank, segment."""
        return self.vector + self.bank + self.segment


def synthesize(src: Map, dst: Map, bits: int, vector: Sequence[int], tile_src: Sequence[int],
                tile_dst: Sequence[int], dim: int, keep: int = 0
                ) -> tuple[tuple[int, ...], ...]:
    """(vector, bank, segment, reps) for the given vector bases and sides' tiles
    (Triton's ``optimalSwizzling`` with ``buildReps``)."""
    vector = list(vector)
    bank_bits = min(max(0, (1024 // ((1 << len(vector)) * bits)).bit_length() - 1),
                    dim - len(vector))
    seg = segment(vector + list(tile_src), vector + list(tile_dst), dim,
                  dim - bank_bits - len(vector))
    bank = complement(vector + seg, dim)
    both = set(src[0]) & set(dst[0])
    kept, reps = [], []
    for v in seg:
        if v in both:
            if keep > 0:
                keep -= 1
                kept.append(v)
            else:
                reps.append(v)
        else:
            kept.append(v)
    return tuple(vector), tuple(bank), tuple(kept), tuple(reps)


def _vector_bases(src: Map, dst: Map, bits: int, dim: int) -> tuple[list[int], bool | None]:
    """The vector bases of the plain ``ld`` / ``st.shared`` synthesis (Triton 3.9's
    ``getVecBasisLdSt``), and which side filled them up (None: neither did): the
    registers both sides share (16 bytes at most); under 32 bits, filled up towards a
    word with one side's further registers that are warp bits of the other side -- the
    side with more of them, on a tie the one holding the lowest -- then with warp bits
    both sides share, then with each side's warp bits in turn, cut at one word.

    >>> _vector_bases(((1, 2), (4,), ()), ((1, 4), (2,), ()), 16, 3)  # two fp16: a word
    ([1], None)
    >>> _vector_bases(((1,), (), (2,)), ((2,), (), (1,)), 8, 2)       # each other's warps
    ([1, 2], True)
    """
    reg_s, reg_d = list(src[0]), list(dst[0])
    vb = intersection(reg_s, reg_d, dim)[: max(0, (128 // bits).bit_length() - 1)]
    if (1 << len(vb)) * bits >= 32:
        return vb, None
    per_word = (32 // bits).bit_length() - 1
    warp_s, warp_d = [w for w in src[2] if w], [w for w in dst[2] if w]
    from_s = intersection([r for r in reg_s if r not in vb], warp_d, dim)
    from_d = intersection([r for r in reg_d if r not in vb], warp_s, dim)
    if from_s and len(from_s) == len(from_d):
        src_fills = min(from_s) < min(from_d)
    else:
        src_fills = len(from_s) > len(from_d)
    vb = vb + (from_s if src_fills else from_d)
    if len(vb) < per_word:
        vb += intersection(warp_s, warp_d, dim)
    for i in range(max(len(warp_s), len(warp_d))):
        for side in (warp_s, warp_d):
            if len(vb) < per_word and i < len(side) and side[i] not in vb:
                vb.append(side[i])
    return vb[:per_word], src_fills


def _plain(src: Map, dst: Map, bits: int, dim: int) -> Swizzled:
    """The ``ld`` / ``st.shared`` synthesis (Triton 3.9's ``optimalSwizzlingLdSt``):
    each side's wavefront tile is its lanes but the top ones a vector of several words
    spreads over more phases; under four words a vector, the bank bases that are
    registers of the side that filled the vector (else of the side with more) come
    first, so that side moves wider vectors."""
    vb, src_fills = _vector_bases(src, dst, bits, dim)
    words = max(0, ((1 << len(vb)) * bits // 32).bit_length() - 1)  # log2 words

    def tile(side: Map) -> list[int]:
        return list(side[1][: len(side[1]) - words])

    v, b, s, r = synthesize(src, dst, bits, vb, tile(src), tile(dst), dim)
    if words < 2:
        in_s = [x for x in b if x in src[0]]
        in_d = [x for x in b if x in dst[0]]
        first = in_s if src_fills or src_fills is None and len(in_s) > len(in_d) else in_d
        b = tuple(first) + tuple(x for x in b if x not in first)
    return Swizzled(v, b, s, r, "shared", "shared")


def coordinates(side: Map, vector: int) -> tuple[int, int, int] | None:
    """``vector`` as (register bits, lane bits, warp bits) of ``side``: the hardware
    position that holds it (its nonzero bases are independent), or None when none does.

    >>> coordinates(((1, 2), (4,), (8,)), 0b1101)
    (1, 1, 1)
    """
    basis = [(v, k, w) for w, vs in enumerate(side) for k, v in enumerate(vs) if v]
    x = preimage([v for v, _, _ in basis], vector)
    if x is None:
        return None
    out = [0, 0, 0]
    for i, (_, k, w) in enumerate(basis):
        if x >> i & 1:
            out[w] |= 1 << k
    return out[0], out[1], out[2]


def _tile_vector(a: Map, b: Map, reg_a: int, reg_b: int, contig_a: Sequence[int],
                 contig_b: Sequence[int], dim: int) -> list[int] | None:
    """The vector bases for an instruction pair, or None when the two layouts cannot
    both use it (Triton's ``optimalSwizzlingTile``): registers both share, then the
    lanes of the side with fewer registers per row, which must be registers (its first
    ones) or the same lanes (the rest) of the other side."""
    if reg_a < reg_b:
        return _tile_vector(b, a, reg_b, reg_a, contig_b, contig_a, dim)
    vb = intersection(a[0], b[0], dim)
    if len(vb) < reg_b:
        return None
    vb = vb[:reg_b]
    lane_a = [a[1][i] if i < len(a[1]) else 0 for i in contig_a]
    lane_b = [b[1][i] if i < len(b[1]) else 0 for i in contig_b]
    if 0 in lane_a or 0 in lane_b:
        return None
    where = [coordinates(a, v) for v in lane_b]
    if any(c is None for c in where):
        return None
    for i in range(reg_a - reg_b):
        if where[i][0] == 0:  # type: ignore[index]
            return None
    for ia, c in zip(contig_a, where[len(where) - len(contig_a):], strict=True):
        if c[1] != 1 << ia:  # type: ignore[index]
            return None
    return vb + lane_b


def _side_tile(t: InstructionTile, side: Map, vb: Sequence[int]) -> list[int] | None:
    """The element bases one wavefront's addresses vary over on this side: the first
    registers outside the vector, then the address lanes (Triton's ``getTile``)."""
    need = 3 - len(t.lane_addr)
    out = [r for r in side[0] if r not in vb][:need]
    if len(out) < need or any(i >= len(side[1]) for i in t.lane_addr):
        return None
    return out + [side[1][i] for i in t.lane_addr]


def _conflicts(seg: Sequence[int], tile_src: Sequence[int], tile_dst: Sequence[int],
               dim: int) -> int:
    """Triton's estimate of the bank conflicts: ``2**dim(segment & tile) - 1`` per side."""
    return (2 ** len(intersection(seg, tile_src, dim)) - 1) + \
        (2 ** len(intersection(seg, tile_dst, dim)) - 1)


def pair_options(src: Map, dst: Map, bits: int, dim: int, *, stmatrix: bool = False,
                 ldmatrix: bool = False) -> list[tuple[tuple[int, int], Swizzled]]:
    """Every instruction pair both layouts can use, with the buffer Triton synthesizes
    for it and Triton's ranking key (estimated conflicts, then minus the passes)."""
    total = max(0, (128 // bits).bit_length() - 1)
    src_tiles, dst_tiles = tiles(bits, stmatrix, ldmatrix)
    out = []
    for ts in src_tiles:
        for td in dst_tiles:
            vb = _tile_vector(src, dst, total - len(ts.lane_contig), total - len(td.lane_contig),
                              ts.lane_contig, td.lane_contig, dim)
            if vb is None:
                continue
            tile_s, tile_d = _side_tile(ts, src, vb), _side_tile(td, dst, vb)
            if tile_s is None or tile_d is None:
                continue
            keep = min(len(ts.lane_contig) + len(ts.lane_addr) - 3,
                       len(td.lane_contig) + len(td.lane_addr) - 3)
            v, b, s, r = synthesize(src, dst, bits, vb, tile_s, tile_d, dim, keep)
            out.append(((_conflicts(s, tile_s, tile_d, dim), -len(r)),
                        Swizzled(v, b, s, r, ts.name, td.name)))
    return out


def plain(src: Map, dst: Map, bits: int, dim: int) -> Swizzled:
    """The ``ld`` / ``st.shared`` synthesis (Triton's ``optimalSwizzlingLdSt``), which
    Triton uses when no instruction pair fits both layouts."""
    return _plain(src, dst, bits, dim)


def swizzle(src: Map, dst: Map, bits: int, dim: int, *, stmatrix: bool = False,
            ldmatrix: bool = False) -> Swizzled:
    """The buffer Triton synthesizes to stage ``src -> dst`` (both without broadcast
    registers, vectors in Triton's bit order, over a tile of ``2**dim`` elements) for
    ``bits``-bit elements (its ``optimalSwizzling``): among the instruction pairs both
    layouts can use -- ``stmatrix`` / ``ldmatrix``: whether the target has them -- the
    one with the fewest estimated conflicts, then the most passes; the plain ``ld`` /
    ``st.shared`` synthesis when no pair fits."""
    options = pair_options(src, dst, bits, dim, stmatrix=stmatrix, ldmatrix=ldmatrix)
    return fewest_conflicts(options) or _plain(src, dst, bits, dim)


def fewest_conflicts(options: Sequence[tuple[tuple[int, int], Swizzled]]) -> Swizzled | None:
    """Triton's pick among :func:`pair_options`: the fewest estimated conflicts, then the
    most passes, the first of equals; None when no pair fits.

    >>> fewest_conflicts([]) is None
    True
    """
    return min(options, key=lambda o: o[0])[1] if options else None


def triton_order(shape: Sequence[int]) -> tuple[int, ...]:
    """For each bit of our row-major flat index, the bit of Triton's flat index (its
    dimension 0 lowest) it is.

    >>> triton_order((2, 4))     # row-major bits: col 0, col 1, row 0
    (1, 2, 0)
    """
    logs = [int(s).bit_length() - 1 for s in shape]
    start = [sum(logs[:d]) for d in range(len(shape))]
    out: list[int] = []
    for d in reversed(range(len(shape))):
        out.extend(start[d] + b for b in range(logs[d]))
    return tuple(out)


def permute_bits(v: int, order: Sequence[int]) -> int:
    """``v`` with bit ``i`` moved to bit ``order[i]``.

    >>> permute_bits(0b011, (1, 2, 0))
    6
    """
    out = 0
    for i, o in enumerate(order):
        if v >> i & 1:
            out |= 1 << o
    return out


__all__ = ["InstructionTile", "MATRIX", "MATRIX_TRANS", "SHARED", "Swizzled", "complement",
           "coordinates", "fewest_conflicts", "intersection", "orthogonal", "pair_options",
           "permute_bits", "plain", "segment", "swizzle", "synthesize", "tiles",
           "triton_order"]
