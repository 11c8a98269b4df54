"""The byte permutes a staging of 8-bit values costs in registers.

A thread holds its 8-bit slots four to a 32-bit register, in slot order (slots
``4w .. 4w+3`` in register ``w``: the convention of the emitted code, docs/data-movement.md
*Plans as code*). A shared-memory instruction moves 32-bit words whose bytes are
consecutive addresses, so a word whose four bytes are not one register's four slots in
order is built with ``prmt`` (a store) or taken apart with ``prmt`` into the
destination's registers (a load): one permute per further register it draws on, one
where a single register's bytes are reordered (PTX ISA, *prmt*). A 2-byte store whose
bytes are not one half of a register in order is ``st.shared.v2.b8`` instead, each byte
the low bits of its own operand, no permute (:data:`.bit_access.BYTE_PAIR_STORE`). Whole 16-bit halves --
16-bit values, or pairs of bytes in order -- are moved by ``mov.b32 {lo, hi}`` packs and
unpacks instead, register moves on both sides of the comparison with Triton (its PTX
packs 16-bit values the same way) that cost nothing here.

On bits (:mod:`.bit_staging`): ``slots`` gives, per register slot bit of a side, its part
of the buffer address (None: a pass bit; 0: a broadcast bit, whose slots repeat others),
and a vector access of ``2**j`` bytes covers
address bits ``0 .. j-1``. A word's bytes are address bits 0-1; the register slot bits
that give them decide the permutes.

>>> byte_permutes([1, 2, 4, 8], 16, 1, store=True)     # slot bits 0, 1 -> bytes 0, 1
0
>>> byte_permutes([4, 1, 2, 8], 16, 1, store=True)     # bytes from slot bits 1, 2: two registers
4
"""

from __future__ import annotations

from collections.abc import Sequence

#: slots in a 32-bit register, as address bits: four bytes
_WORD_BITS = 2


def _cost(bits_in_order: bool, registers: int) -> int:
    """Permutes for one word drawn from ``registers`` registers."""
    if bits_in_order:
        return 0
    return 1 if registers == 1 else registers - 1


def byte_permutes(slots: Sequence[int | None], vector_bytes: int, per_thread: int, *,
                  store: bool) -> int:
    """Byte permutes per thread of a side moving 8-bit values with a vector access of
    ``vector_bytes`` bytes, issued ``per_thread`` times (module doc).

    >>> byte_permutes([2, 1], 4, 1, store=True)            # one register, bytes swapped
    1
    >>> byte_permutes([1, None, 2, 4], 8, 2, store=False)  # pass bit 1: halves, mov.b32
    0
    >>> byte_permutes([2, None, 1, 4], 8, 2, store=False)  # and bytes swapped: prmt
    4
    """
    j = vector_bytes.bit_length() - 1
    m = min(j, _WORD_BITS)  # address bits one word of the access covers
    if store:
        if m == 0:
            return 0  # one byte: a shift of its register
        reg_bit = [slots.index(1 << i) for i in range(m)]
        apart = sum(1 for r in reg_bit if r >= _WORD_BITS)
        # in order, or two aligned halves of registers (byte pairs in order: mov.b32)
        in_order = reg_bit == list(range(m)) or (m == 2 and reg_bit[0] == 0)
        words = per_thread * max(1, vector_bytes // 4)
        return words * _cost(in_order, 1 << apart)
    # a load: each destination register of four slots is built from the loaded words
    # (a broadcast slot bit, address part 0, repeats the word's bytes or a whole word,
    # which is built once)
    q = min(_WORD_BITS, len(slots))
    within = {1 << i for i in range(m)}
    apart = sum(1 for b in range(q) if slots[b] not in within and slots[b] != 0)
    in_order = m >= q and all(slots[b] == 1 << b for b in range(q)) or \
        (q == 2 and m >= 1 and slots[0] == 1)  # byte pairs in order: halves, mov.b32
    words = 1 << sum(1 for a in slots[q:] if a != 0)
    return words * _cost(in_order, 1 << apart)


__all__ = ["byte_permutes"]
