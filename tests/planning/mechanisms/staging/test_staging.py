"""Staging through shared memory: the whole layout space (staging.py,
smem_choice.py ``widest_choice``), instruction kinds into given tiles and in passes."""

from __future__ import annotations

import tilelayout as tl
from tests.planning.conftest import expected
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.staging import stage_through, writer_of
from tilelayout.planning.model.placement import place
from tilelayout.planning.outcome import store_rows

#: two Triton blocked layouts of a 64x64 tile over 4 warps, order [1, 0] and [0, 1]
BLOCKED_ROWS = "S[(4,4,4,2,8,4):(8,1@warpid,8@laneid,4,1@laneid,1)]"
BLOCKED_COLS = "S[(2,8,4,4,4,4):(4,1@laneid,1,8,1@warpid,8@laneid)]"
#: a lane per row and a lane per column of a 32x32 tile
ROWS = tl.parse("S[(32,32):(1@laneid,1)]")
COLS = tl.parse("S[(32,32):(1,1@laneid)]")



def test_plans_search_the_xor_family_too():
    p = tl.plan_conversion(BLOCKED_ROWS, BLOCKED_COLS, (64, 64), "float32")
    c = tl.choose_smem_layout(BLOCKED_ROWS, BLOCKED_COLS, (64, 64), "float32", "any")
    assert p.costs["wavefronts"] <= c.wavefronts == 256
    assert p.execute() == expected(p.dst, p.shape)


def test_the_wgmma_accumulator_stores_with_stmatrix_into_a_given_tile():
    D = presets.get("wgmma.m64nNk16.D", n=128).layout
    tile = tl.ComposeLayout(tl.Swizzle.for_dtype("bfloat16", "128B"),
                            tl.parse("S[(64,2,64):(64,4096,1)]"))   # two 128 B atoms
    p = tl.plan_conversion(D, tile, (64, 128), "bfloat16")
    assert p.costs["store_instruction"] == "stmatrix.x4"
    assert p.costs["store_requests"] == 4 * 8                        # 8 per warp
    assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"] == 128
    assert p.execute() == expected(p.dst, p.shape)


def test_passes_combine_with_stmatrix():
    # wgmma D -> lane per half row: 4 passes of 2 KB, each warp 4 stmatrix.x4 and
    # 4 ld.shared.v4 in all (Triton's code for it)
    D = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"
    rows = "S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]"
    p = tl.plan_conversion(D, rows, (64, 64), "float16")
    assert (p.costs["passes"], p.costs["smem_bytes"]) == (4, 2048)
    assert p.costs["store_instruction"] == "stmatrix.x4"
    assert p.costs["store_requests"] + p.costs["load_requests"] == 4 * 8
    assert p.execute() == expected(p.dst, p.shape)


def test_at_the_wavefront_floor_fewer_instructions_still_win():
    # wgmma D -> transposed lanes: conflict-free either way; packed stores + ldmatrix
    # loads take 12 instructions per warp where consecutive-slot vectors take 36
    D = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"
    T = "S[(32,2,4,16):(1,16@laneid,1@warpid,1@laneid)]"
    p = tl.plan_conversion(D, T, (64, 64), "float16")
    assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"]
    assert p.costs["store_requests"] + p.costs["load_requests"] == 4 * 12
    assert p.execute() == expected(p.dst, p.shape)


def test_a_transpose_stages_conflict_free_with_wide_vectors():
    src, dst = place(ROWS, COLS, None)
    s = stage_through(src, dst, "float32")
    assert s.wavefronts == s.ideal and s.passes == 1
    assert s.choice.write.vector_bytes == 16 and s.choice.read.vector_bytes >= 4
    addresses = {s.layout.base(i, (32, 32))["m"] for i in range(32 * 32)}
    assert len(addresses) == 32 * 32 and s.bytes >= 32 * 32 * 4


def test_every_address_is_moved_once_by_the_vector_side():
    src, dst = place(ROWS, COLS, None)
    s = stage_through(src, dst, "float32")
    vector_sides = [side for side in (s.store, s.load) if side.matrix is None]
    assert vector_sides  # (a side using ldmatrix / stmatrix lists row addresses instead)
    for side in vector_sides:
        starts = side.start[side.start >= 0].reshape(-1)
        covered = sorted(int(a) + j for a in starts for j in range(side.k))
        assert covered == sorted(s.layout.base(i, (32, 32))["m"] for i in range(32 * 32))
        assert side.per_warp * side.k * 32 == 32 * 32  # one warp moves the whole tile


def test_writer_of_drops_replicas_only():
    L = tl.parse("S[(32,4):(1@laneid,1)] + R[2:1@warpid]")
    assert writer_of(L) == tl.parse("S[(32,4):(1@laneid,1)]")
    assert writer_of(ROWS) is ROWS
    sw = tl.ComposeLayout(tl.Swizzle(1, 1, 1), tl.parse("S[(32,4):(4,1)] + R[2:1@warpid]"))
    assert writer_of(sw) == tl.ComposeLayout(tl.Swizzle(1, 1, 1), tl.parse("S[(32,4):(4,1)]"))


def test_a_byte_bound_keeps_the_staging_within_it():
    # seed 28's harness pair 25 (int64, 2 warps): unbounded, the whole 8 KB tile in one
    # pass ranks first; a caller holding a plan in 4 KB (max_bytes) gets the staging in
    # passes within it, and the whole tile's instruction search is not run
    src = tl.parse("S[(2,2,2,2,2,2,2,2,2,2):(16,8@laneid,1@warpid,2@laneid,4@laneid,"
                   "16@laneid,8,1@laneid,4,1)] + R[2:2]")
    dst = tl.parse("S[(128,8):(1,4@laneid)] + R[(4,2):(1@laneid,1@warpid)]")
    ps, pd = place(src, dst, (128, 8))
    free = stage_through(ps, pd, "int64", src_rows=store_rows(ps))
    bound = stage_through(ps, pd, "int64", src_rows=store_rows(ps), max_bytes=4096)
    assert (free.bytes, free.passes) == (8192, 1)
    assert bound.bytes <= 4096 and bound.passes > 1
    assert bound.wavefronts == free.wavefronts
