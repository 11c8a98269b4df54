"""Costing shared-memory candidates for a writer and a reader."""

import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutError
from tilelayout.planning.mechanisms.staging.costing import best, cost, lower_bound, prepare

ROWS = tl.parse("S[(32,8):(1@laneid,1)]")          # lane l holds row l (8 float16)


def test_a_row_per_lane_costs_the_row_major_tile_its_conflicts():
    sides = prepare(ROWS, ROWS, (32, 8), "float16")
    plain = cost(sides, "row-major", tl.parse("S[(32,8):(8,1)]"))
    assert plain.write.wavefronts == plain.read.wavefronts == 4
    assert plain.wavefronts == 8 and plain.bytes == 32 * 8 * 2
    assert lower_bound(sides.writer, 2) == 4  # 512 bytes: four 128-byte wavefronts
    assert plain.row()["wavefronts"] == 8 and plain.row()["layout"] == "S[(32,8):(8,1)]"


def test_best_orders_by_wavefronts_then_vectors_then_bytes():
    sides = prepare(ROWS, ROWS, (32, 8), "float16")
    row_major = cost(sides, "row-major", tl.parse("S[(32,8):(8,1)]"))
    column = cost(sides, "column", tl.parse("S[(32,8):(1,32)]"))
    padded = cost(sides, "padded", tl.parse("S[(32,8):(16,1)]"))
    order = best([padded, column, row_major])
    assert order[0] is row_major and order[-1] is column
    assert [c.key() for c in order] == sorted(c.key() for c in order)


@pytest.mark.parametrize(("writer", "reader", "shape", "dtype"), [
    (ROWS, tl.parse("S[(32,4):(1@laneid,1)]"), (32, 8), "float16"),     # different sizes
    (tl.parse("S[(32,8):(1@laneid,1)] + R[2:1@warpid]"), ROWS, (32, 8), "float16"),  # replicas
    (ROWS, ROWS, (32, 8), "complex256"),
])
def test_prepare_refuses_with_one_line(writer, reader, shape, dtype):
    with pytest.raises(LayoutError):
        prepare(writer, reader, shape, dtype)
