"""Regression tests for defects found in review (each failed before its fix)."""

from __future__ import annotations

import pytest

import tilelayout as tl

from .strategies import brute_equivalent

RECOVERY = [
    # tiled inner_of where the outer has replicas: the inner's span must include its own
    # replicas before the outer's replica strides can be matched in L
    ("S[4:-9@pid] + R[(2,3):(9@laneid,-5@laneid)] + 1@warpid",
     "S[(2,3):(-8@laneid,-7@pid)] + -3@warpid", (4, 1), (2, 3), True),
    ("S[3:7@pid] + R[(2,3):(-7@warpid,-9@laneid)] + 4 + 5@pid",
     "S[(2,4):(6@warpid,7@warpid)] + R[3:-2@warpid] + -1@laneid + 2@warpid", (3,), (8,), True),
    # the inner's replicas fuse on their own (R[6:2]) but sit apart in L
    ("S[(3,2):(5,-3@warpid)] + R[3:-3] + 5@warpid",
     "S[(2,3):(-3@pid,-6)] + R[(3,2):(-2,-6)] + 1", (6,), (6,), False),
    # the outer's replica is the middle digit of a fused replica of L
    ("S[()] + R[2:2]", "S[3:-7] + R[(2,2):(4,1)]", (1, 1), (1, 3), False),
]


@pytest.mark.parametrize(("outer", "inner", "outs", "ins", "tiled"), RECOVERY)
def test_recover_operands_with_replicas(outer, inner, outs, ins, tiled):
    O, I = tl.parse(outer), tl.parse(inner)
    L = I.tile(O, outs, ins) if tiled else tl.direct_sum(O, I, outs, ins)
    for built in (L, L.canonicalize()):
        o = tl.outer_of(built, I, outs, ins, tiled=tiled)
        i = tl.inner_of(built, O, outs, ins, tiled=tiled)
        for rebuilt in ((I.tile(o, outs, ins), i.tile(O, outs, ins)) if tiled else
                        (tl.direct_sum(o, I, outs, ins), tl.direct_sum(O, i, outs, ins))):
            assert brute_equivalent(rebuilt, L)


@pytest.mark.parametrize("bad", [[-1] * 32, [4.5] * 32, ["8"] * 32, [True] * 32])
def test_smem_wavefronts_rejects_bad_addresses(bad):
    with pytest.raises(tl.LayoutError, match="lane 0"):
        tl.smem_wavefronts(bad, 4)


def test_smem_wavefronts_rejects_float_access_bytes():
    with pytest.raises(tl.LayoutError, match="access_bytes"):
        tl.smem_wavefronts([0] * 32, 4.0)


@pytest.mark.parametrize(("first", "n", "match"), [(1, 8, "aligned"), (1, 2, "aligned"),
                                                   (0, 3, "6 bytes")])
def test_bank_conflicts_rejects_misaligned_or_odd_vectors(first, n, match):
    L = tl.parse("S[(8,64):(64,1)]")
    lanes = [[(r, j) for j in range(first, first + n)] for r in range(8)]
    with pytest.raises(tl.LayoutError, match=match):
        tl.bank_conflicts(L, "float16", lanes)


def test_bank_conflicts_narrow_aligned_vectors_still_count_as_words():
    L = tl.parse("S[(8,64):(64,1)]")
    r = tl.bank_conflicts(L, "float16", [[(0, 2 * k + 1)] for k in range(32)])  # 2 bytes each
    assert (r.wavefronts, r.ideal) == (1, 1)


def test_tile_conflicts_partial_access_ideal():
    # 4 rows x one 16-byte vector: a single access with 4 active lanes in one phase
    r = tl.tile_conflicts(tl.parse("S[32:1]"), "float16", (4, 8))
    assert (r["wavefronts"], r["ideal"], r["conflict_free"]) == (1, 1, True)


@pytest.mark.parametrize(("dtype", "shape", "access"), [("float64", (8, 64), 4),
                                                        ("float16", (8, 8, 8), 16)])
def test_tile_conflicts_bad_inputs(dtype, shape, access):
    import math

    L = tl.TileLayout([(math.prod(shape), 1, "m")])
    with pytest.raises(tl.LayoutError):
        tl.tile_conflicts(L, dtype, shape, access)


def test_legality_unused_counts_swizzled_addresses():
    # m = 0, 1, 2 swizzles to 0, 1, 3: the box is [0, 3] with one hole
    L = tl.ComposeLayout(tl.Swizzle(0, 1, 1), tl.parse("S[3:1]"))
    assert sorted(c["m"] for x in range(3) for c in L.apply(x)) == [0, 1, 3]
    unused = [f for f in tl.legality(L).findings if f.kind == "unused"]
    assert [f.count for f in unused] == [1]


@pytest.mark.parametrize("value", [10**30, -(10**30), 2**63])
def test_elements_at_huge_query_value_matches_nothing(value):
    M = tl.parse("S[(8,64):(64,1)] + R[2:1@pid]")
    assert M.elements_at({"m": value}) == ()
    assert tl.count_at(M, {"m": value, "pid": 1}) == 0
    C = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert C.elements_at({"m": value}) == ()


@pytest.mark.parametrize(("tile", "dropped"), [("S[64:1]", True), ("S[8:8] + 7", True),
                                               ("S[65:1]", False), ("S[64:1] + -1", False)])
def test_canonicalize_drops_a_swizzle_that_changes_nothing(tile, dropped):
    T = tl.parse(tile)
    C = tl.ComposeLayout(tl.Swizzle(3, 3, 3), T)
    assert (C.canonicalize() == T.canonicalize()) is dropped
    assert brute_equivalent(C.canonicalize(), C)


def test_pack_and_unpack_by_one_are_the_identity():
    import tilelayout as tl

    for text in ["S[(4,2):(1@laneid,3)] + R[2:1@pid] + 2", "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"]:
        L = tl.parse(text)
        assert L.unpack(1) == L and L.pack(1) == L
        assert L.unpack(1, "laneid") == L
