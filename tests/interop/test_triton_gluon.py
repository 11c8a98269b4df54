"""The Gluon kernel that reads Triton's bank-conflict count at compile time (CPU only)."""

import pytest

pytest.importorskip("triton.experimental.gluon")

from triton.experimental.gluon import language as ttgl  # noqa: E402

from tilelayout.interop import triton_gluon  # noqa: E402

#: lane l holds row l of a 32 x 64 float16 tile, read in 16-byte vectors
ROW_PER_LANE = ttgl.BlockedLayout([1, 8], [32, 1], [1, 1], [1, 0])


def test_rows_of_a_plain_shared_tile_conflict_seven_times_over():
    plain = ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0])
    assert triton_gluon.bank_conflicts(ROW_PER_LANE, plain, [32, 64], ttgl.float16) == 7


def test_a_swizzled_shared_tile_does_not():
    swizzled = ttgl.SwizzledSharedLayout(8, 1, 8, [1, 0])
    assert triton_gluon.bank_conflicts(ROW_PER_LANE, swizzled, [32, 64], ttgl.float16) == 0


def test_lanes_along_a_row_do_not_conflict_without_a_swizzle():
    along = ttgl.BlockedLayout([1, 8], [4, 8], [1, 1], [1, 0])
    plain = ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0])
    assert triton_gluon.bank_conflicts(along, plain, [32, 64], ttgl.float16) == 0
