"""One side's instruction on bits: vectors, matrices, and the byte permutes of 8-bit
values with the broadcast registers of the side."""

from __future__ import annotations

from tilelayout.planning.mechanisms.staging.bit_access import BitBuffer, side_access, with_permutes
from tilelayout.planning.model.bits import ThreadBits

FLAT = BitBuffer(tuple(1 << i for i in range(8)), ())


def test_the_widest_vector_over_the_low_address_bits():
    s = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (), 8)
    a = side_access(s, FLAT, 4, True)
    assert (a.instruction, a.per_warp, a.permutes) == ("st.shared.v4.b32", 2, 0)
    assert side_access(s, FLAT, 2, True).instruction == "st.shared.v4.b32"


def test_bytes_out_of_register_order_cost_permutes_only_for_8_bit_values():
    s = ThreadBits((2, 1, 4), (8, 16, 32, 64, 128), (), 8)
    a = side_access(s, FLAT, 1, True)
    assert a.instruction == "st.shared.v2.b32" and a.packed
    assert with_permutes(a, s, FLAT, 1, True).permutes == 2   # two words, each reordered
    b = side_access(s, FLAT, 2, True)
    assert with_permutes(b, s, FLAT, 2, True).permutes == 0   # halves: register moves


def test_a_broadcast_destination_bit_repeats_a_words_bytes():
    pairs = ThreadBits((1, 0, 2), (4, 8, 16, 32, 64), (), 7)       # byte pairs repeated
    buf = BitBuffer(tuple(1 << i for i in range(7)), ())
    a = side_access(pairs.without_broadcast_registers(), buf, 1, False)
    assert with_permutes(a, pairs, buf, 1, False).permutes == 0  # halves: mov.b32
    d = ThreadBits((0, 1, 2), (4, 8, 16, 32, 64), (), 7)
    buf = BitBuffer(tuple(1 << i for i in range(7)), ())
    a = side_access(d.without_broadcast_registers(), buf, 1, False)
    assert a.instruction == "ld.shared.b32"      # 4 distinct bytes a thread
    assert with_permutes(a, d, buf, 1, False).permutes == 2   # two words, one prmt each
