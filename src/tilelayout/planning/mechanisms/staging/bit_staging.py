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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ....analysis.conflicts import linear_wavefronts
from ...model.bits import ThreadBits
from .generic import Swizzled, fewest_conflicts, pair_options, permute_bits, plain, synthesize

#: the widest single access of one lane in bytes (LDS.128 / STS.128, ldmatrix .x4)
WIDEST = 16
#: names of the compiler's own buffer: synthesized for an instruction pair (reproduced
#: exactly on the harness), or Triton's plain ld / st synthesis (bytes exact only)
TRITON_PAIR, TRITON_PLAIN = "triton", "triton (ld/st)"


@dataclass(frozen=True)
class BitBuffer:
    """A shared-memory buffer as bits: ``address[i]`` is the element vector at address
    bit ``i`` (element units), ``reps`` the element bits moved in passes."""

    address: tuple[int, ...]
    reps: tuple[int, ...]
    name: str = "triton"

    def split(self, vector: int) -> tuple[int, int] | None:
        """``vector`` as (address bits, pass bits), or None outside the buffer's span.

        >>> BitBuffer((1, 6), (8,)).split(0b1111)
        (3, 1)
        """
        basis = list(self.address) + list(self.reps)
        rows: dict[int, tuple[int, int]] = {}
        for i, v in enumerate(basis):
            x = 1 << i
            while v:
                top = v.bit_length() - 1
                if top not in rows:
                    rows[top] = (v, x)
                    break
                v ^= rows[top][0]
                x ^= rows[top][1]
        x = 0
        while vector:
            top = vector.bit_length() - 1
            if top not in rows:
                return None
            vector ^= rows[top][0]
            x ^= rows[top][1]
        n = len(self.address)
        return x & ((1 << n) - 1), x >> n


@dataclass(frozen=True)
class BitAccess:
    """How one side moves its registers to (from) the buffer: ``instruction`` (e.g.
    ``st.shared.v4.b32``, ``stmatrix.x4.trans``), its kind (``vector`` / ``matrix``),
    bytes per lane per instruction, instructions per warp (all passes), and each
    request's wavefronts and ideal; ``warps`` warps issue the same."""

    instruction: str
    kind: str
    vector_bytes: int
    per_warp: int
    request_wavefronts: int
    request_ideal: int
    warps: int
    #: a vector of registers that are not the lowest register slots in order (packed by
    #: address: the instruction takes them reordered)
    packed: bool = False

    @property
    def wavefronts(self) -> int:
        return self.per_warp * self.warps * self.request_wavefronts

    @property
    def ideal(self) -> int:
        return self.per_warp * self.warps * self.request_ideal

    @property
    def tile(self) -> str:
        """The instruction tile it is (:mod:`.generic`'s names): ``shared`` (``st`` /
        ``ld.shared``), ``matrix``, ``matrix.trans``, or ``b8`` (the 8-bit matrix forms).

        >>> BitAccess("ldmatrix.x4.trans", "matrix", 16, 1, 4, 4, 1).tile
        'matrix.trans'
        """
        if self.kind == "vector":
            return "shared"
        if self.instruction.endswith(".b8"):
            return "b8"
        return "matrix.trans" if self.instruction.endswith(".trans") else "matrix"


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
        """Shared-memory instructions and barriers per warp."""
        return self.store.per_warp + self.load.per_warp + self.barriers

    def key(self) -> tuple[int, int, int, int]:
        """The order of preference: wavefronts, bytes, instructions per warp, barriers."""
        return (self.wavefronts, self.bytes, self.instructions, self.barriers)


def _name(store: bool, nbytes: int) -> str:
    op = "st" if store else "ld"
    if nbytes < 4:
        return f"{op}.shared.b{8 * nbytes}"
    n = nbytes // 4
    return f"{op}.shared{'.v' + str(n) if n > 1 else ''}.b32"


def _low_free(addresses: Iterable[int], k: int) -> bool:
    low = (1 << k) - 1
    return all(a & low == 0 for a in addresses)


def side_access(side: ThreadBits, buf: BitBuffer, elem_bytes: int, store: bool, *,
                matrix: bool = False, trans: bool = False, b8: bool = False,
                only: str | None = None) -> BitAccess | None:
    """The cheapest way ``side`` (without broadcast registers) moves its registers to
    (``store``) or from the buffer -- ``st``/``ld.shared`` vectors, or with ``matrix``
    ``stmatrix``/``ldmatrix``, with ``trans`` also their ``.trans`` forms, with ``b8`` the
    8-bit forms (``ldmatrix.m16n16`` / ``stmatrix.m16n8``, :func:`_matrix_b8`) -- fewest
    wavefronts, then fewest instructions; None when the buffer does not fit the side
    (a lane or warp bit crosses passes, or a register bit is partly both). ``only``
    (``"shared"``, ``"matrix"`` or ``"matrix.trans"``, :data:`.generic.SHARED` ...) takes
    that instruction kind where it fits, as the compiler's lowering does for the
    instruction tile it synthesized the buffer for.

    >>> s = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (), 8)
    >>> side_access(s, BitBuffer((1, 2, 4, 8, 16, 32, 64, 128), ()), 2, True).instruction
    'st.shared.v4.b32'
    """
    regs: list[int] = []  # address part of each address register
    slots: list[int | None] = []  # per register slot bit: its address part (None: a pass)
    pass_regs = 0
    for v in side.reg:
        parts = buf.split(v)
        if parts is None or (parts[0] and parts[1]):
            return None
        if parts[1]:
            pass_regs += 1
            slots.append(None)
        else:
            regs.append(parts[0])
            slots.append(parts[0])
    threads = []
    for v in side.threads:
        parts = buf.split(v)
        if parts is None or parts[1]:
            return None
        threads.append(parts[0])
    lanes = threads[: len(side.lane)]
    passes = 1 << pass_regs
    warps = 1 << len(side.warp)
    options = [_vector(regs, lanes, threads, elem_bytes, store, passes, warps)]
    if matrix and elem_bytes <= 4:
        options.append(_matrix(regs, lanes, threads, elem_bytes, store, passes, warps))
    if trans and elem_bytes == 2:
        options.append(_matrix_trans(regs, lanes, threads, store, passes, warps))
    if b8 and elem_bytes == 1:
        options.append(_matrix_b8(slots, lanes, threads, store, passes, warps))
    found = [o for o in options if o is not None]
    found = [o for o in found if o.tile == only] or found
    return min(found, key=lambda a: (a.wavefronts, a.per_warp)) if found else None


def _vector(regs: Sequence[int], lanes: Sequence[int], threads: Sequence[int],
            elem_bytes: int, store: bool, passes: int, warps: int) -> BitAccess:
    """``st`` / ``ld.shared``: the registers at address bits 0, 1, 2... make up a vector
    (at most 16 bytes) when nothing else touches those bits."""
    k = 0
    while (2 << k) * elem_bytes <= WIDEST and (1 << k) in regs:
        chosen = [1 << i for i in range(k + 1)]
        others = [a for a in regs if a not in chosen] + list(threads)
        if not _low_free(others, k + 1):
            break
        k += 1
    # the widest vector, or a narrower one where that takes fewer wavefronts (a narrower
    # access spreads its lanes over more phases: Triton's 8-byte 8-bit stores)
    found = None
    for j in range(k, -1, -1):
        nbytes = (1 << j) * elem_bytes
        w, ideal = linear_wavefronts([a * elem_bytes for a in lanes], nbytes)
        per_thread = (1 << (len(regs) - j)) * passes
        if found is None or w * per_thread < found[0] * found[1]:
            found = (w, per_thread, ideal, nbytes, j)
    w, per_thread, ideal, nbytes, j = found
    packed = list(regs[:j]) != [1 << i for i in range(j)]
    return BitAccess(_name(store, nbytes), "vector", nbytes, per_thread, w, ideal, warps, packed)


def _matrix(regs: Sequence[int], lanes: Sequence[int], threads: Sequence[int],
            elem_bytes: int, store: bool, passes: int, warps: int) -> BitAccess | None:
    """``stmatrix`` / ``ldmatrix`` (m8n8, 16-byte rows): per 32-bit register the
    elements of address bits ``0 .. c-1``, lanes 0 and 1 the next two address bits,
    lanes 2-4 the eight rows (PTX ISA, ldmatrix / stmatrix fragments); up to four
    matrices per instruction from further registers."""
    c = (4 // elem_bytes).bit_length() - 1
    if len(lanes) < 5 or any((1 << i) not in regs for i in range(c)):
        return None
    if lanes[0] != 1 << c or lanes[1] != 2 << c:
        return None
    contig = [1 << i for i in range(c)]
    others = [a for a in regs if a not in contig] + [t for i, t in enumerate(threads) if i > 1]
    if not _low_free(others, c + 2):
        return None
    more = len(regs) - c
    n = min(4, 1 << more)
    w, _ = linear_wavefronts([a * elem_bytes for a in lanes[2:5]], WIDEST)
    per_thread = (1 << more) // n * passes
    name = f"{'st' if store else 'ld'}matrix.x{n}"
    return BitAccess(name, "matrix", 4 * n, per_thread, n * w, n, warps)


def _matrix_trans(regs: Sequence[int], lanes: Sequence[int], threads: Sequence[int],
                  store: bool, passes: int, warps: int) -> BitAccess | None:
    """``stmatrix`` / ``ldmatrix`` ``.trans`` for 16-bit elements: lanes 2-4 are one
    16-byte row (address bits 0-2), a register and lanes 0, 1 the eight rows; the row
    register is chosen to spread the rows over the banks."""
    if len(lanes) < 5 or list(lanes[2:5]) != [1, 2, 4]:
        return None
    others = list(regs) + [t for i, t in enumerate(threads) if i not in (2, 3, 4)]
    if not _low_free(others, 3) or not regs:
        return None
    best = None
    for row in regs:
        w, _ = linear_wavefronts([a * 2 for a in (row, lanes[0], lanes[1])], WIDEST)
        if best is None or w < best:
            best = w
    more = len(regs) - 1
    n = min(4, 1 << more)
    per_thread = (1 << more) // n * passes
    name = f"{'st' if store else 'ld'}matrix.x{n}.trans"
    return BitAccess(name, "matrix", 4 * n, per_thread, n * best, n, warps)  # type: ignore[operator]


def _matrix_b8(slots: Sequence[int | None], lanes: Sequence[int], threads: Sequence[int],
               store: bool, passes: int, warps: int) -> BitAccess | None:
    """The 8-bit matrix forms (docs/hardware.md, *8-bit matrix forms*), their fragments
    exactly (``slots``: per register slot bit its address part, None for a pass bit). A
    row is 16 bytes: lanes 2-4 are its address bits 0-2 and one slot bit its bit 3 (slot
    bit 2 for ``ldmatrix.m16n16``, 1 for ``stmatrix.m16n8``); the row index is slot bits
    0-1 and lanes 0-1 (``.m16n16``: 16 rows a matrix, two phases) or slot bit 0 and lanes
    0-1 (``.m16n8``: 8 rows); further slot bits pick the matrix. The rows of eight
    consecutive addressing lanes are one wavefront's."""
    row_slots, col_slot, most = ((0,), 1, 4) if store else ((0, 1), 2, 2)
    if len(lanes) < 5 or list(lanes[2:5]) != [1, 2, 4] or len(slots) <= col_slot:
        return None
    if slots[col_slot] != 8 or any(slots[i] is None for i in row_slots):
        return None
    rows = [slots[i] for i in row_slots]
    others = [a for i, a in enumerate(slots) if a is not None and i != col_slot] + \
        [t for i, t in enumerate(threads) if i not in (2, 3, 4)]
    if not _low_free(others, 4):  # type: ignore[arg-type]
        return None
    # one phase: ldmatrix's 8 rows of slot bits 0-1 and lane 0; stmatrix's whole matrix
    varying = rows + [lanes[0]] + ([lanes[1]] if store else [])
    w, _ = linear_wavefronts(list(varying), WIDEST)  # type: ignore[arg-type]
    phases = 1 if store else 2
    more = sum(1 for i, a in enumerate(slots) if a is not None and i > col_slot)
    n = min(most, 1 << more)
    per_thread = (1 << more) // n * passes
    name = (f"stmatrix.m16n8.x{n}.trans.b8" if store else f"ldmatrix.m16n16.x{n}.trans.b8")
    per_lane = 4 if store else 8  # bytes of one matrix in a lane
    return BitAccess(name, "matrix", per_lane * n, per_thread, n * phases * w, n * phases,
                     warps)


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


def candidates(src: ThreadBits, dst: ThreadBits, elem_bytes: int, *, stmatrix: bool,
               ldmatrix: bool, order: Sequence[int] | None = None, b8: tuple[bool, bool] = (False, False)
               ) -> list[BitStaging]:
    """The stagings worth costing for ``src -> dst`` (register layouts, any broadcast
    registers), each costed exactly; the first is Triton's own choice
    (:func:`.generic.swizzle`, which the compiler would use), then Triton's other
    instruction pairs and its plain synthesis, then ours (:func:`_synthesized`).
    ``order``: our flat bits in Triton's bit order (:func:`.generic.triton_order`;
    default: the same)."""
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
    # plain ld / st synthesis -- named apart, as only the first is reproduced exactly
    picked = fewest_conflicts(pairs)
    chosen = picked or ldst
    buffers = [_from_triton(chosen, back, TRITON_PAIR if picked else TRITON_PLAIN)]
    buffers += [_from_triton(sw, back, f"triton {sw.store}/{sw.load}") for _, sw in pairs]
    buffers.append(_from_triton(ldst, back, "triton ld/st"))
    buffers += _synthesized(s, d, elem_bytes, any(b8))
    buffers += [v for buf in list(buffers) for v in in_passes(buf, s, d)]
    # the compiler's choice first, with the instructions its lowering uses for it (the
    # tile pair it was synthesized for; ld / st.shared when no pair fits), then every
    # buffer with the cheapest instructions each side has
    reference = cost(s, d, buffers[0], elem_bytes, stmatrix=stmatrix, ldmatrix=ldmatrix, b8=b8,
                     only=(chosen.store, chosen.load))
    out, seen = [reference] if reference is not None else [], set()
    for buf in buffers:
        if (buf.address, buf.reps) in seen:
            continue
        seen.add((buf.address, buf.reps))
        staged = cost(s, d, buf, elem_bytes, stmatrix=stmatrix, ldmatrix=ldmatrix, b8=b8)
        if staged is not None and staged != reference:
            out.append(staged)
    return out


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
           "cost", "in_passes", "side_access", "vector_choices"]
