"""Staging in passes: the common digits of two layouts and the ones that chunk the tile."""

import math

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.chunking import chunk_digits, common_digits

WGMMA_D = tl.parse("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")
ROW_PER_LANE = tl.parse("S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]")


def test_the_common_refinement_multiplies_to_the_size_and_refines_both():
    digits = common_digits(WGMMA_D, ROW_PER_LANE)
    assert digits == (4, 2, 8, 2, 4, 4, 2) and math.prod(digits) == WGMMA_D.size()
    places = {math.prod(digits[i:]) for i in range(len(digits) + 1)}
    for L in (WGMMA_D, ROW_PER_LANE):
        extents = [it.extent for it in L.shard]
        assert {math.prod(extents[i:]) for i in range(len(extents) + 1)} <= places


def test_splits_that_do_not_nest_have_no_common_digits():
    assert common_digits(tl.parse("S[(3,4):(4,1)]"), tl.parse("S[(2,6):(6,1)]")) is None


def test_only_digits_on_register_slots_of_both_sides_by_whole_vectors_chunk():
    digits = common_digits(WGMMA_D, ROW_PER_LANE)
    assert chunk_digits(WGMMA_D, ROW_PER_LANE, digits, 2, 8) == (4,)
    assert chunk_digits(WGMMA_D, ROW_PER_LANE, digits, 2, 16) == ()  # dst moves 8 at a time
    same = common_digits(WGMMA_D, WGMMA_D)
    # against itself: the digits on m are 1 (slot stride 2), 3 (stride 4) and 5 (stride 1)
    assert chunk_digits(WGMMA_D, WGMMA_D, same, 1, 1) == (1, 3, 5)
    assert chunk_digits(WGMMA_D, WGMMA_D, same, 2, 2) == (1, 3)
    assert chunk_digits(WGMMA_D, WGMMA_D, same, 4, 4) == (3,)
