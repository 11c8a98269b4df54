"""Staging through shared memory, planned and costed on bits (docs/data-movement.md,
*Planning on bits*).

When both register layouts are bit maps (:mod:`..model.bits`), a shared-memory buffer
is one too: address bit ``i`` holds element vector ``address[i]``, and the element bits
``reps`` are moved in passes through it. Every cost then follows from a few dozen
word operations, whatever the tile's size:

* a side's **instruction** (:func:`side_access`): ``st`` / ``ld.shared`` vectors over
  the register bits that make up the lowest address bits (up to 16 bytes), or
  ``stmatrix`` / ``ldmatrix`` (``.trans`` for 16-bit elements) when the lanes sit where
  those instructions put them;
* its **wavefronts**: each request's lanes hit XOR-linear addresses, so its cost is the
  closed form :func:`~tilelayout.analysis.conflicts.linear_wavefronts`, and every request
  costs the same (they differ by a constant XOR);
* the **buffer**: ``2**len(address)`` elements; ``2**len(reps)`` passes, with
  ``2 * passes - 1`` barriers.

:func:`candidates` builds the buffers worth costing -- Triton's own synthesis for every
instruction pair (:mod:`.generic`) first -- and :func:`.bit_choice.best` picks one.

>>> from tilelayout.planning.model.bits import ThreadBits
>>> rows = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (), 8)    # 8 elements per lane along a row
>>> cols = ThreadBits((32, 64, 128), (1, 2, 4, 8, 16), (), 8)
>>> s = min(candidates(rows, cols, 2, stmatrix=False, ldmatrix=True), key=BitStaging.key)
>>> s.store.instruction, s.load.instruction, s.wavefronts, s.bytes
('st.shared.b32', 'ldmatrix.x4.trans', 8, 512)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ...model.bits import ThreadBits
from .bit_access import WIDEST, BitAccess, BitBuffer, side_access, with_permutes
from .generic import Swizzled, fewest_conflicts, pair_options, permute_bits, plain, synthesize

#: names of the compiler's own buffer: synthesized for an instruction pair (reproduced
#: exactly on the harness), or Triton's plain ld / st synthesis (bytes exact only)
TRITON_PAIR, TRITON_PLAIN = "triton", "triton (ld/st)"


@dataclass(frozen=True)
class BitStaging:
    """A staging costed on bits: the buffer, both sides' accesses, bytes and passes."""

    buffer: BitBuffer
    store: BitAccess
    load: BitAccess
    elem_bytes: int

    @property
    def passes(self) -> int:
        return 1 << len(self.buffer.reps)

    @property
    def bytes(self) -> int:
        return (1 << len(self.buffer.address)) * self.elem_bytes

    @property
    def barriers(self) -> int:
        return 2 * self.passes - 1

    @property
    def wavefronts(self) -> int:
        return self.store.wavefronts + self.load.wavefronts

    @property
    def ideal(self) -> int:
        return self.store.ideal + self.load.ideal

    @property
    def instructions(self) -> int:
        """Shared-memory instructions, byte permutes and barriers per warp."""
        return self.store.per_warp + self.load.per_warp + self.permutes + self.barriers

    @property
    def permutes(self) -> int:
        return self.store.permutes + self.load.permutes

    def key(self) -> tuple[int, int, int, int]:
        """The order of preference: wavefronts, bytes, instructions per warp, barriers."""
        return (self.wavefronts, self.bytes, self.instructions, self.barriers)


def _b8_vectors(side: ThreadBits, other: ThreadBits, store: bool) -> list[tuple[int, ...]]:
    """Vector bases that put ``side``'s lanes 2-4 and the slot bit its 8-bit matrix
    fragment puts at row byte 8 (:func:`_matrix_b8`) at address bits 0-3, where ``other``
    holds those lanes in registers (so it moves them as one vector: 16 bytes when it
    holds that bit in a register too, else 8 packed ones)."""
    col_slot = 1 if store else 2
    if len(side.lane) < 5 or len(side.reg) <= col_slot:
        return []
    row = list(side.lane[2:5])
    regs = set(other.reg)
    if not all(v and v in regs for v in row) or not side.reg[col_slot]:
        return []
    return [tuple(row) + (side.reg[col_slot],)]


def _from_triton(s: Swizzled, back: Sequence[int], name: str) -> BitBuffer:
    def conv(v: int) -> int:
        return permute_bits(v, back)
    return BitBuffer(tuple(conv(v) for v in s.address), tuple(conv(v) for v in s.reps), name)


def _phase_lanes(nbytes: int) -> int:
    """Lane bits of one phase for an access of ``nbytes`` per lane (32 / 16 / 8 lanes)."""
    return 5 - (max(nbytes, 4) // 4).bit_length() + 1


def vector_choices(src: ThreadBits, dst: ThreadBits, elem_bytes: int) -> list[tuple[int, ...]]:
    """The vector bases worth trying, widest first: element bits both sides hold in
    registers (the common vector), optionally extended by one side's registers that
    are the other side's lanes or warps (that side's vector grows; the other side's
    lanes or warps then move consecutive parts of it). At most 16 bytes per side."""
    cap = (WIDEST // elem_bytes).bit_length() - 1
    common = [r for r in src.reg if r and r in set(dst.reg)]

    def grow(side: ThreadBits, other: ThreadBits) -> list[int]:
        lanes = [r for r in side.reg if r and r not in common and r in set(other.lane)]
        warps = [r for r in side.reg if r and r not in common and r in set(other.warp)]
        return lanes + warps

    grow_src, grow_dst = grow(src, dst), grow(dst, src)
    out: list[tuple[int, ...]] = []
    for j in range(min(len(common), cap), -1, -1):
        base = tuple(common[:j])
        for extra in (grow_src, grow_dst):
            for e in range(min(len(extra), cap - j), 0, -1):
                out.append(base + tuple(extra[:e]))
        out.append(base)
    seen: set[tuple[int, ...]] = set()
    return [v for v in out if not (v in seen or seen.add(v))]  # type: ignore[func-returns-value]


def _side_tile(side: ThreadBits, vector: Sequence[int], elem_bytes: int) -> list[int]:
    """The element bases one wavefront's lane addresses vary over when ``side`` moves
    the longest prefix of ``vector`` it holds in registers per instruction."""
    regs = set(side.reg)
    j = 0
    while j < len(vector) and vector[j] in regs:
        j += 1
    lanes = side.lane[: _phase_lanes((1 << j) * elem_bytes)]
    return [v for v in lanes if v not in vector]


def _synthesized(src: ThreadBits, dst: ThreadBits, elem_bytes: int, b8: bool = False
                 ) -> list[BitBuffer]:
    """Our synthesis: for every vector choice, the segment and bank bases of
    :func:`.generic.synthesize` with each side's tile taken from the vector it really
    moves (Triton's reads the registers in their slot order), no passes."""
    out = []
    n = src.bits
    maps = [tuple(x for x in (tb.reg, tb.lane, tb.warp)) for tb in (src, dst)]
    tries: list[tuple[Sequence[int], list[int], list[int]]] = []
    if b8 and elem_bytes == 1:  # one side's 8-bit matrix form: its phase rows are its tile
        for vector in _b8_vectors(dst, src, False):
            tries.append((vector, _side_tile(src, vector, elem_bytes),
                          [dst.reg[0], dst.reg[1], dst.lane[0]]))
        for vector in _b8_vectors(src, dst, True):
            tries.append((vector, [src.reg[0], src.lane[0], src.lane[1]],
                          _side_tile(dst, vector, elem_bytes)))
    tries += [(vector, _side_tile(src, vector, elem_bytes), _side_tile(dst, vector, elem_bytes))
              for vector in vector_choices(src, dst, elem_bytes)]
    for vector, tile_src, tile_dst in tries:
        v, b, s, _ = synthesize(maps[0], maps[1], 8 * elem_bytes, vector, tile_src, tile_dst,
                                n, keep=n)
        out.append(BitBuffer(v + b + s, (), "synthesized"))
    return out


def in_passes(buf: BitBuffer, src: ThreadBits, dst: ThreadBits) -> list[BitBuffer]:
    """``buf`` moved in more passes through a smaller buffer: its highest address bits
    that both sides hold in registers become pass bits, one at a time (each halves the
    buffer and adds two barriers; every instruction and wavefront stays the same, as
    each pass moves the same registers of every thread)."""
    both = set(src.reg) & set(dst.reg)
    address = list(buf.address)
    reps = list(buf.reps)
    out = []
    for i in reversed(range(len(address))):
        if address[i] not in both or i < len(address) - 1 and address[i + 1:] and \
                any(a not in both for a in address[i + 1:]):
            continue  # only the top bits: the buffer stays one contiguous block
        reps = [address[i]] + reps
        address = address[:i]
        out.append(BitBuffer(tuple(address), tuple(reps), buf.name + " in passes"))
    return out


def floors(src: ThreadBits, dst: ThreadBits, elem_bytes: int) -> tuple[int, int]:
    """Lower bounds on any staging of ``src -> dst``: its wavefronts (each side's warps at
    one per 128 bytes they move; broadcast lanes move nothing more) and its shared-memory
    instructions per warp (16 bytes per lane each, the widest access).

    >>> rows = ThreadBits((1, 2), (4, 8, 16, 32, 64), (), 7)       # 4 values a lane
    >>> floors(rows, ThreadBits((32, 64), (1, 2, 4, 8, 16), (), 7), 4)
    (8, 2)
    """
    wave = instr = 0
    for side in (src.without_broadcast_registers(), dst.without_broadcast_registers()):
        lanes = sum(1 for v in side.lane if v)
        per_warp = (1 << (len(side.reg) + lanes)) * elem_bytes
        wave += (1 << len(side.warp)) * max(1, -(-per_warp // 128))
        instr += max(1, -(-(1 << len(side.reg)) * elem_bytes // 16))
    return wave, instr


def reaches_floors(st: BitStaging, at: tuple[int, int]) -> bool:
    """Whether ``st`` moves no more wavefronts and issues no more shared-memory
    instructions than the floors ``at`` (:func:`floors`)."""
    return st.wavefronts <= at[0] and st.store.per_warp + st.load.per_warp <= at[1]


def candidates(src: ThreadBits, dst: ThreadBits, elem_bytes: int, *, stmatrix: bool,
               ldmatrix: bool, order: Sequence[int] | None = None, b8: tuple[bool, bool] = (False, False),
               no_budget: bool = False) -> list[BitStaging]:
    """The stagings worth costing for ``src -> dst`` (register layouts, any broadcast
    registers), each costed exactly; the first is Triton's own choice
    (:func:`.generic.swizzle`, which the compiler would use), then Triton's other
    instruction pairs and its plain synthesis, then ours (:func:`_synthesized`).
    ``order``: our flat bits in Triton's bit order (:func:`.generic.triton_order`;
    default: the same). ``no_budget``: the caller chooses with no byte budget
    (:func:`.bit_choice.best` held to the first candidate), so what that choice cannot
    take is not costed: a buffer larger than the compiler's choice, and every other
    buffer when that choice reaches both :func:`floors` in one pass with no byte permute
    (the others tie it at best, and one pass holds the whole tile in as many bytes)."""
    s, d = src.without_broadcast_registers(), dst.without_broadcast_registers()
    n = s.bits
    fwd = tuple(order) if order is not None else tuple(range(n))
    back = [0] * n
    for i, o in enumerate(fwd):
        back[o] = i

    def tri(tb: ThreadBits) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(permute_bits(v, fwd) for v in vs) for vs in (tb.reg, tb.lane, tb.warp))

    ts, td = tri(s), tri(d)
    pairs = pair_options(ts, td, 8 * elem_bytes, n, stmatrix=stmatrix, ldmatrix=ldmatrix)
    ldst = plain(ts, td, 8 * elem_bytes, n)
    # Triton's choice (generic.swizzle): the pair of fewest estimated conflicts, else its
    # plain ld / st synthesis (named apart: the instructions differ)
    picked = fewest_conflicts(pairs)
    chosen = picked or ldst
    buffers = [_from_triton(chosen, back, TRITON_PAIR if picked else TRITON_PLAIN)]
    # the compiler's choice first, with the instructions its lowering uses for it (the
    # tile pair it was synthesized for; ld / st.shared when no pair fits), then every
    # buffer with the cheapest instructions each side has
    raw = cost(s, d, buffers[0], elem_bytes, stmatrix=stmatrix, ldmatrix=ldmatrix, b8=b8,
               only=(chosen.store, chosen.load))
    # 8-bit values: each staging with its byte permutes (the broadcast registers' slots
    # included), computed once per staging
    reference = _permuted(raw, src, dst) if raw is not None and elem_bytes == 1 else raw
    out, seen = [reference] if reference is not None else [], set()
    if not (no_budget and reference is not None and reference.passes == 1 and
            not (reference.store.permutes + reference.load.permutes) and
            reaches_floors(reference, floors(src, dst, elem_bytes))):
        buffers += [_from_triton(sw, back, f"triton {sw.store}/{sw.load}") for _, sw in pairs]
        buffers.append(_from_triton(ldst, back, "triton ld/st"))
        buffers += _synthesized(s, d, elem_bytes, any(b8))
        buffers += [v for buf in list(buffers) for v in in_passes(buf, s, d)]
    cap = reference.bytes if no_budget and reference is not None else None
    for buf in buffers:
        if (buf.address, buf.reps) in seen or \
                cap is not None and (1 << len(buf.address)) * elem_bytes > cap:
            continue
        seen.add((buf.address, buf.reps))
        staged = cost(s, d, buf, elem_bytes, stmatrix=stmatrix, ldmatrix=ldmatrix, b8=b8)
        if staged is not None and staged != raw:
            out.append(_permuted(staged, src, dst) if elem_bytes == 1 else staged)
    return out


def _permuted(st: BitStaging, src: ThreadBits, dst: ThreadBits) -> BitStaging:
    """An 8-bit staging with the byte permutes it costs (:func:`.bit_access.with_permutes`)."""
    return replace(st, store=with_permutes(st.store, src, st.buffer, 1, True),
                   load=with_permutes(st.load, dst, st.buffer, 1, False))


def cost(src: ThreadBits, dst: ThreadBits, buf: BitBuffer, elem_bytes: int, *,
         stmatrix: bool, ldmatrix: bool, b8: tuple[bool, bool] = (False, False),
         only: tuple[str, str] | None = None) -> BitStaging | None:
    """``buf`` costed for both sides (None when a side cannot use it); ``b8``: whether
    the target has the 8-bit stmatrix / ldmatrix forms; ``only``: the instruction kinds
    of the store and the load where they fit (:func:`side_access`)."""
    trans = elem_bytes == 2
    st = side_access(src, buf, elem_bytes, True, matrix=stmatrix, trans=stmatrix and trans,
                     b8=b8[0], only=only and only[0])
    ld = side_access(dst, buf, elem_bytes, False, matrix=ldmatrix, trans=ldmatrix and trans,
                     b8=b8[1], only=only and only[1])
    if st is None or ld is None:
        return None
    return BitStaging(buf, st, ld, elem_bytes)


__all__ = ["TRITON_PAIR", "TRITON_PLAIN", "BitAccess", "BitBuffer", "BitStaging", "candidates",
           "cost", "floors", "in_passes", "reaches_floors", "side_access", "vector_choices"]
