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


def test_which_sides_fit_a_buffer_is_what_its_split_says():
    # side_access inlines BitBuffer.split (a hot path): a side fits exactly when every
    # register bit splits into an address part or a pass part (not both) and every lane
    # and warp bit into an address part alone
    import random

    rng = random.Random(7)
    seen = set()
    for _ in range(300):
        n = 8
        perm = rng.sample([1 << i for i in range(n)], n)
        cut = rng.randrange(4, n + 1)
        buf = BitBuffer(tuple(perm[:cut]), tuple(perm[cut:]))
        # a random invertible mixing of the flat bits, so splits are not single bits
        vecs = [1 << i for i in range(n)]
        for _ in range(4):
            i, j = rng.sample(range(n), 2)
            vecs[i] ^= vecs[j]
        rng.shuffle(vecs)
        nreg = rng.randrange(1, 4)
        s = ThreadBits(tuple(vecs[:nreg]), tuple(vecs[nreg:nreg + 5]), tuple(vecs[nreg + 5:]), n)

        def fits(v: int, thread: bool, buf: BitBuffer = buf) -> bool:
            sp = buf.split(v)
            return sp is not None and (sp[1] == 0 if thread else not (sp[0] and sp[1]))

        expect = all(fits(v, False) for v in s.reg) and all(fits(v, True) for v in s.threads)
        assert (side_access(s, buf, 2, True) is not None) == expect
        seen.add(expect)
    assert seen == {True, False}
