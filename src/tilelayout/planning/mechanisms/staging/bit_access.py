"""How one side of a staging on bits moves its registers to or from the buffer: the
buffer as bits (:class:`BitBuffer`), and per side the cheapest instruction that fits it
(:func:`side_access`) -- ``st`` / ``ld.shared`` vectors, ``stmatrix`` / ``ldmatrix``
(``.trans`` for 16-bit elements, the 8-bit forms) -- with its wavefronts in closed form
and, for 8-bit values, its byte permutes (:mod:`.byte_packing`). :mod:`.bit_staging`
builds buffers and stagings from them.

>>> from tilelayout.planning.model.bits import ThreadBits
>>> s = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (), 8)
>>> side_access(s, BitBuffer((1, 2, 4, 8, 16, 32, 64, 128), ()), 4, True).instruction
'st.shared.v4.b32'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from ....analysis.conflicts import linear_wavefronts
from ....core.f2 import Preimages
from ...model.bits import ThreadBits
from .byte_packing import byte_permutes

#: the widest single access of one lane in bytes (LDS.128 / STS.128, ldmatrix .x4)
WIDEST = 16

#: a store of two bytes, each the low byte of its own operand (PTX ISA 9.4.1, operands
#: wider than the instruction type; docs/hardware.md, *Byte stores from 32-bit registers*)
BYTE_PAIR_STORE = "st.shared.v2.b8"


@dataclass(frozen=True)
class BitBuffer:
    """A shared-memory buffer as bits: ``address[i]`` is the element vector at address
    bit ``i`` (element units), ``reps`` the element bits moved in passes."""

    address: tuple[int, ...]
    reps: tuple[int, ...]
    name: str = "triton"

    @cached_property
    def _solver(self) -> Preimages:
        return Preimages(self.address + self.reps)

    def split(self, vector: int) -> tuple[int, int] | None:
        """``vector`` as (address bits, pass bits), or None outside the buffer's span.

        >>> BitBuffer((1, 6), (8,)).split(0b1111)
        (3, 1)
        """
        x = self._solver(vector)
        if x is None:
            return None
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
    permutes: int = 0  #: byte permutes per thread of 8-bit values (:mod:`.byte_packing`)

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


@lru_cache(maxsize=1 << 14)
def _wavefronts(lane_bytes: tuple[int, ...], access_bytes: int) -> tuple[int, int]:
    """:func:`~tilelayout.analysis.conflicts.linear_wavefronts`, remembered: the same
    lane addresses recur across a conversion's candidate buffers."""
    return linear_wavefronts(lane_bytes, access_bytes)


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
    solve, top = buf._solver, 1 << len(buf.address)  # (buf.split, inlined: hot)
    for v in side.reg:
        x = solve(v)
        if x is None or (x >= top and x & (top - 1)):  # outside, or partly both
            return None
        if x >= top:
            pass_regs += 1
            slots.append(None)
        else:
            regs.append(x)
            slots.append(x)
    threads = []
    for v in side.threads:
        x = solve(v)
        if x is None or x >= top:
            return None
        threads.append(x)
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


def with_permutes(acc: BitAccess, side: ThreadBits, buf: BitBuffer, elem_bytes: int,
                  store: bool) -> BitAccess:
    """``acc`` with the byte permutes of 8-bit values it costs (:mod:`.byte_packing`;
    ``side`` with its broadcast registers, whose slots repeat others in the registers).

    >>> from tilelayout.planning.model.bits import ThreadBits
    >>> s = ThreadBits((2, 1), (4, 8, 16, 32, 64), (), 7)
    >>> buf = BitBuffer((1, 2, 4, 8, 16, 32, 64), ())
    >>> with_permutes(side_access(s, buf, 1, True), s, buf, 1, True).permutes
    1
    """
    if elem_bytes != 1:
        return acc
    if acc.kind != "vector" and acc.instruction.endswith(".b8"):
        # the 8-bit forms' fragments are the slots' own order, but a destination's
        # broadcast slot bit 0 repeats a word's bytes: a permute a word
        low, high = side.reg[:2], side.reg[2:]
        dup = not store and low[:1] == (0,)
        return replace(acc, permutes=(1 << sum(1 for v in high if v)) if dup else 0)
    # a vector, or an m8n8 matrix, whose 32-bit registers are address bits 0-1 of a row
    # as a vector's words are (its registers need the same permutes)
    slots = []
    for v in side.reg:
        parts = buf.split(v) if v else (0, 0)
        slots.append(None if parts is None or parts[1] else parts[0])
    permutes = byte_permutes(slots, acc.vector_bytes, acc.per_warp, store=store)
    if store and permutes and acc.vector_bytes == 2:
        # two bytes not one half of a register in order: st.shared.v2.b8 takes each
        # from the low bits of its own operand (a shift of its register, as st.shared.b8
        # takes one), with no permute -- as Triton stores byte pairs
        return replace(acc, instruction=BYTE_PAIR_STORE, permutes=0)
    return replace(acc, permutes=permutes)


def _vector(regs: Sequence[int], lanes: Sequence[int], threads: Sequence[int],
            elem_bytes: int, store: bool, passes: int, warps: int) -> BitAccess:
    """``st`` / ``ld.shared``: the registers at address bits 0, 1, 2... make up a vector
    (at most 16 bytes) when nothing else touches those bits."""
    k = 0
    held = set(regs)
    touched = 0  # the address bits the threads touch
    for t in threads:
        touched |= t
    while (2 << k) * elem_bytes <= WIDEST and (1 << k) in held:
        low = (2 << k) - 1  # the vector's address bits 0 .. k: no other register or thread
        if touched & low or any(a & low and a & (a - 1) | (a > low) for a in regs):
            break
        k += 1
    # the widest vector, or a narrower one where that takes fewer wavefronts (a narrower
    # access spreads its lanes over more phases: Triton's 8-byte 8-bit stores)
    found = None
    for j in range(k, -1, -1):
        nbytes = (1 << j) * elem_bytes
        w, ideal = _wavefronts(tuple(a * elem_bytes for a in lanes), nbytes)
        per_thread = (1 << (len(regs) - j)) * passes
        if found is None or w * per_thread < found[0] * found[1]:
            found = (w, per_thread, ideal, nbytes, j)
        if w == ideal:  # conflict-free: a narrower vector moves the bytes in no fewer
            break
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
    w, _ = _wavefronts(tuple(a * elem_bytes for a in lanes[2:5]), WIDEST)
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
        w, _ = _wavefronts((row * 2, lanes[0] * 2, lanes[1] * 2), WIDEST)
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
    w, _ = _wavefronts(tuple(varying), WIDEST)  # type: ignore[arg-type]
    phases = 1 if store else 2
    more = sum(1 for i, a in enumerate(slots) if a is not None and i > col_slot)
    n = min(most, 1 << more)
    per_thread = (1 << more) // n * passes
    name = (f"stmatrix.m16n8.x{n}.trans.b8" if store else f"ldmatrix.m16n16.x{n}.trans.b8")
    per_lane = 4 if store else 8  # bytes of one matrix in a lane
    return BitAccess(name, "matrix", per_lane * n, per_thread, n * phases * w, n * phases,
                     warps)


__all__ = ["BYTE_PAIR_STORE", "WIDEST", "BitAccess", "BitBuffer", "side_access", "with_permutes"]
