"""stage_through: a tile stored to shared memory by one side and loaded by the other."""

import tilelayout as tl
from tilelayout.planning.placement import place
from tilelayout.planning.staging import stage_through, writer_of

ROWS = tl.parse("S[(32,32):(1@laneid,1)]")
COLS = tl.parse("S[(32,32):(1,1@laneid)]")


def test_a_transpose_stages_conflict_free_with_wide_vectors():
    src, dst = place(ROWS, COLS, None)
    s = stage_through(src, dst, "float32")
    assert s.wavefronts == s.ideal and s.passes == 1
    assert (s.choice.write.vector_bytes, s.choice.read.vector_bytes) == (16, 4)
    addresses = {s.layout.base(i, (32, 32))["m"] for i in range(32 * 32)}
    assert len(addresses) == 32 * 32 and s.bytes >= 32 * 32 * 4


def test_every_address_is_stored_once_and_loaded_once():
    src, dst = place(ROWS, COLS, None)
    s = stage_through(src, dst, "float32")
    for side in (s.store, s.load):
        starts = side.start[side.start >= 0].reshape(-1)
        covered = sorted(int(a) + j for a in starts for j in range(side.k))
        assert covered == sorted(s.layout.base(i, (32, 32))["m"] for i in range(32 * 32))
    assert (s.store.k, s.load.k) == (4, 1) and s.store.per_warp == 8 and s.load.per_warp == 32


def test_writer_of_drops_replicas_only():
    L = tl.parse("S[(32,4):(1@laneid,1)] + R[2:1@warpid]")
    assert writer_of(L) == tl.parse("S[(32,4):(1@laneid,1)]")
    assert writer_of(ROWS) is ROWS
    sw = tl.ComposeLayout(tl.Swizzle(1, 1, 1), tl.parse("S[(32,4):(4,1)] + R[2:1@warpid]"))
    assert writer_of(sw) == tl.ComposeLayout(tl.Swizzle(1, 1, 1), tl.parse("S[(32,4):(4,1)]"))
