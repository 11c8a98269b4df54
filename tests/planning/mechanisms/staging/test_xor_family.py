"""family="any": every bijective XOR-linear layout of a 2^n tile. The synthesis must never
lose to the hardware swizzles, reach the ideal where the vectors allow it, and beat
every one of thousands of random members of the family (GL(n, 2) itself is far too large
to enumerate beyond n = 4)."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.core.f2 import Subspace
from tilelayout.planning.mechanisms.staging.costing import cost, prepare
from tilelayout.planning.mechanisms.staging.swizzle_family import swizzle_candidates
from tilelayout.planning.mechanisms.staging.xor_family import (
    _max_vector,
    inverse_columns,
    linear_side,
    synthesize,
    xor_candidates,
)

C_F32 = presets.get("mma.m16n8k16.C", dtype="float32")
C_T = tl.parse("S[(8,2,4,2):(4@laneid,1,1@laneid,2)]")
C2 = tl.parse("S[(2,2,8,4,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")
LDSM2 = tl.parse("S[(2,16,2,2,8):(1@warpid,1@laneid,8,16@laneid,1)]")
ROWS = tl.parse("S[(2,32,32):(1@warpid,1@laneid,1)]")
COLS = tl.parse("S[(64,32):(1,1@laneid)]")
# bit-scrambled register layouts of a 32x32 float32 tile (found by the random search
# below): every hardware swizzle conflicts (3x the ideal), an XOR layout does not
ODD = tl.parse("S[(2,2,2,2,2,2,2,2,2,2):(8@laneid,2,16,1,4@laneid,2@laneid,1@laneid,4,16@laneid,8)]")
ODD_T = tl.parse("S[(2,2,2,2,2,2,2,2,2,2):(16@laneid,8@laneid,4@laneid,16,4,1,2,8,2@laneid,1@laneid)]")

PAIRS = [
    pytest.param(C_F32.layout, C_T, (16, 8), "float32", id="mmaC-transposed-f32"),
    pytest.param(C2, LDSM2, (32, 32), "float16", id="mmaC-ldmatrix-rows-f16"),
    pytest.param(ROWS, COLS, (64, 32), "float16", id="rows-columns-f16"),
    pytest.param(C2, C2, (32, 32), "float32", id="mmaC-roundtrip-f32"),
    pytest.param(ODD, ODD_T, (32, 32), "float32", id="scrambled-f32"),
]


def _random_invertible(n, rng):
    while True:
        cols = [int(v) for v in rng.integers(1, 1 << n, size=n)]
        if Subspace(cols).dim == n:
            return cols


def _addresses(images, size):
    flat = np.arange(size)
    addr = np.zeros(size, dtype=np.int64)
    for k, v in enumerate(images):
        addr ^= np.where((flat >> k) & 1 == 1, v, 0)
    return addr


@pytest.mark.parametrize("writer, reader, shape, dtype", PAIRS)
def test_never_worse_than_the_swizzle_family(writer, reader, shape, dtype):
    s = tl.choose_smem_layout(writer, reader, shape, dtype, "swizzle")
    a = tl.choose_smem_layout(writer, reader, shape, dtype, "any")
    assert (a.wavefronts, -(a.write.vector_bytes + a.read.vector_bytes)) <= \
        (s.wavefronts, -(s.write.vector_bytes + s.read.vector_bytes))
    assert a.ideal == s.ideal and a.wavefronts >= a.ideal
    # the chosen layout really is an XOR layout of the tile, costed as reported
    again = tl.smem_access(writer, a.layout, shape, dtype)
    assert (again.wavefronts, again.vector_bytes) == (a.write.wavefronts, a.write.vector_bytes)


@pytest.mark.parametrize("writer, reader, shape, dtype", PAIRS)
def test_no_random_member_of_the_family_beats_the_choice(writer, reader, shape, dtype):
    a = tl.choose_smem_layout(writer, reader, shape, dtype, "any")
    sides = prepare(writer, reader, shape, dtype)
    size = int(np.prod(shape))
    n = size.bit_length() - 1
    rng = np.random.default_rng(n)
    base = tl.parse(f"S[{size}:1]")
    for _ in range(150):
        addr = _addresses(inverse_columns(_random_invertible(n, rng), n), size)
        x = cost(sides, "random", base, addresses=addr)
        assert (x.wavefronts, -(x.write.vector_bytes + x.read.vector_bytes)) >= \
            (a.wavefronts, -(a.write.vector_bytes + a.read.vector_bytes))


def test_beats_every_hardware_swizzle_where_they_conflict():
    s = tl.choose_smem_layout(ODD, ODD_T, (32, 32), "float32", "swizzle")
    a = tl.choose_smem_layout(ODD, ODD_T, (32, 32), "float32", "any")
    assert (s.wavefronts, a.wavefronts, a.ideal) == (192, 64, 64)
    assert a.name.startswith("xor") and isinstance(a.layout.swizzle, tl.XorSwizzle)
    assert tl.parse(str(a.layout)) == a.layout          # the answer is ordinary layout text
    assert a.accepted_by == ()


def _scrambled(rng):
    """A random F2-linear register layout of a 32x32 tile on one warp: each of the 10
    index bits goes to a lane bit or a register bit."""
    hw = [f"{1 << b}@laneid" for b in range(5)] + [str(1 << b) for b in range(5)]
    rng.shuffle(hw)
    return tl.parse(f"S[({','.join('2' * 10)}):({','.join(hw)})]")


def test_random_linear_pairs_any_never_loses():
    rng = np.random.default_rng(3)
    reached = 0
    for _ in range(12):
        w, r = _scrambled(rng), _scrambled(rng)
        s = tl.choose_smem_layout(w, r, (32, 32), "float32", "swizzle")
        a = tl.choose_smem_layout(w, r, (32, 32), "float32", "any")
        assert a.wavefronts <= s.wavefronts and a.wavefronts >= a.ideal
        reached += a.distance == 0
    assert reached >= 8


def test_ideal_reached_for_mma_accumulator_to_ldmatrix_rows():
    W = tl.parse("S[(4,2,2,8,16,4,2):(1@warpid,4,2,4@laneid,8,1@laneid,1)]")
    R = tl.parse("S[(4,2,16,8,2,8):(1@warpid,64,1@laneid,8,16@laneid,1)]")
    a = tl.choose_smem_layout(W, R, (128, 128), "float16", "any")
    assert a.distance == 0 and a.notes


def test_transpose_distance_is_the_vector_trade_off():
    # writer rows of 16 B, reader columns: the low address bits serve one side only, so
    # one side moves 2-byte vectors; both splits cost 96, the ideal (both 16 B) 64
    a = tl.choose_smem_layout(ROWS, COLS, (64, 32), "float16", "any")
    assert (a.wavefronts, a.ideal, a.distance) == (96, 64, 32)
    assert sorted((a.write.vector_bytes, a.read.vector_bytes)) == [2, 16]


@pytest.mark.parametrize("writer, reader, shape, n", [
    ("S[(2,4):(1@laneid,1)]", "S[(2,2,2):(2,1@laneid,1)]", (2, 4), 3),
    ("S[(2,2,4):(1@laneid,4,1)]", "S[(2,2,2,2):(4,2,1@laneid,1)]", (4, 4), 4),
])
def test_exhaustive_gl3_and_sampled_gl4(writer, reader, shape, n):
    # a tile of one line: the cost is the requests the vectors allow; every invertible
    # 3 x 3 matrix over F2 (168) is costed, and every 7th of the 20160 4 x 4 ones
    W, R = tl.parse(writer), tl.parse(reader)
    a = tl.choose_smem_layout(W, R, shape, "float16", "any")
    sides = prepare(W, R, shape, "float16")
    base = tl.parse(f"S[{2 ** n}:1]")
    keys = set()
    matrices = list(_all_invertible(n))
    assert len(matrices) == {3: 168, 4: 20160}[n]
    step = 1 if n == 3 else 7        # n = 4: every 7th matrix (2880) keeps the test short
    for cols in matrices[::step]:
        x = cost(sides, "m", base, addresses=_addresses(inverse_columns(cols, n), 2 ** n))
        keys.add((x.wavefronts, -(x.write.vector_bytes + x.read.vector_bytes)))
    assert (a.wavefronts, -(a.write.vector_bytes + a.read.vector_bytes)) <= min(keys)


def _all_invertible(n):
    def rec(prefix, span):
        if len(prefix) == n:
            yield list(prefix)
            return
        for v in range(1, 1 << n):
            if v not in span:
                yield from rec(prefix + [v], Subspace(prefix + [v]))
    yield from rec([], Subspace())


def test_linear_side_reads_hardware_vectors():
    sides = prepare(C_F32.layout, C_T, (16, 8), "float32")
    w = linear_side(sides.writer, "writer")
    assert w.slots == (1, 64) and w.lanes == (2, 4, 8, 16, 32) and w.warps == ()
    cols = synthesize(w, linear_side(sides.reader, "reader"), 1, 0, 7, 4)
    assert cols is not None and Subspace(cols).dim == 7 and cols[0] == 1


@pytest.mark.parametrize("writer, reader, shape, words", [
    (tl.parse("S[(3,8,4,2):(8,4@laneid,1@laneid,1)]"),
     tl.parse("S[(3,8,4,2):(8,4@laneid,1@laneid,1)]"), (24, 8), "a tile of 2"),
    (tl.parse("S[(8,4,2):(4@laneid,1@laneid,3)]"), tl.parse("S[(8,4,2):(4@laneid,1@laneid,1)]"),
     (8, 8), "F2-linear"),
])
def test_bad_input(writer, reader, shape, words):
    with pytest.raises(tl.LayoutError, match=words) as e:
        tl.choose_smem_layout(writer, reader, shape, "float32", "any")
    assert "\n" not in str(e.value)


def test_a_plans_quick_search_lists_the_hardware_family_only_when_it_costs_it():
    sides = prepare(ROWS, COLS, (64, 32), "float16")
    family = swizzle_candidates(sides.shape, "float16")
    full, notes = xor_candidates(sides)
    synthesized = len(full) - len(family)
    assert notes[0].endswith(f"{len(family)} hardware swizzles") and synthesized >= 1
    quick, notes = xor_candidates(sides, None, lambda c: True)  # a synthesized one is enough
    assert [c.name for c in quick] == [c.name for c in full[:synthesized]]
    assert notes[0].endswith(" 0 hardware swizzles")
    none_enough, _ = xor_candidates(sides, None, lambda c: False)
    assert [c.name for c in none_enough] == [c.name for c in full]
    # the search limit counts what may be costed (every vector split, and the hardware
    # family only when it is costed)
    splits = (_max_vector(sides.writer, 2) + 1) * (_max_vector(sides.reader, 2) + 1)
    with tl.limits(search=splits):
        assert len(xor_candidates(sides, None, lambda c: True)[0]) == synthesized
        with pytest.raises(tl.BudgetError, match=f"family='any' costs {splits + len(family)} "):
            xor_candidates(sides, None, lambda c: False)
