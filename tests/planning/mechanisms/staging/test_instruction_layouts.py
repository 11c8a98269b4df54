"""Packed and ldmatrix/stmatrix shared-memory layouts for a conversion's staging."""

import tilelayout as tl
from tests.planning.conftest import expected
from tilelayout.planning.mechanisms.staging.costing import cost, lower_bound, prepare
from tilelayout.planning.mechanisms.staging.instruction_layouts import instruction_candidates
from tilelayout.planning.mechanisms.staging.instructions import best_access

ROWS = tl.parse("S[(32,32):(1@laneid,1)]")
COLS = tl.parse("S[(32,32):(1,1@laneid)]")


def test_candidates_are_permutations_of_the_tile_s_addresses():
    sides = prepare(ROWS, COLS, (32, 32), "float16")
    found = instruction_candidates(sides)
    names = [name for name, *_ in found]
    assert "ldmatrix.trans(reader) none" in names
    for name, layout, addresses, side in found:
        assert sorted(addresses.reshape(-1).tolist()) == list(range(32 * 32)), name
        assert [layout.base(i, (32, 32))["m"] for i in range(8)] == addresses.reshape(-1)[:8].tolist()
        assert side in (None, "reader", "writer")
        c = cost(sides, name, layout, addresses=addresses)
        assert c.write.wavefronts >= lower_bound(sides.writer, 2)


def test_matrix_layouts_only_for_the_asked_sides():
    sides = prepare(ROWS, COLS, (32, 32), "float16")
    assert all(side in (None, "writer") for *_, side in instruction_candidates(sides, ("writer",)))


def test_no_candidates_for_a_tile_that_is_not_a_power_of_two():
    sides = prepare(tl.parse("S[(32,3):(1@laneid,1)]"), tl.parse("S[(32,3):(1@laneid,1)]"),
                    (32, 3), "float16")
    assert instruction_candidates(sides) == []


def test_the_other_side_s_phase_is_swizzled_onto_distinct_rows():
    """A 64x64 float16 transpose between Triton blocked layouts on 4 warps: ldmatrix.trans
    wants each 16-byte row to hold (row r, row r+32) pairs of 4 columns, and the writer's
    8-lane phase sits at address bits above the 128-byte line. Only the swizzle built for
    that phase ("rows^phase") makes the writer's packed 16-byte stores conflict-free: both
    sides at their floor, 4 + 4 instructions per warp, as Triton 3.9 compiles it."""
    rows = tl.parse("S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]")
    cols = tl.parse("S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]")
    sides = prepare(rows, cols, (64, 64), "float16")
    best = {}
    for name, _layout, addresses, _side in instruction_candidates(sides, ("reader",)):
        if name.startswith("ldmatrix.trans"):
            w = best_access(sides.writer, addresses, "float16", True, worst=False,
                            kinds=("vector", "packed"))
            best[name.split(" ")[1]] = w.wavefronts
    assert best["rows^phase"] == 64 and min(v for k, v in best.items() if k != "rows^phase") > 64
    p = tl.plan_conversion(rows, cols, (64, 64), "float16", target="sm_90")
    c = p.costs
    assert (c["wavefronts"], c["store_requests"], c["load_requests"], c["smem_bytes"]) == \
        (128, 16, 16, 8192)
    assert c["load_instruction"] == "ldmatrix.x4.trans"
    assert p.execute() == expected(p.dst, p.shape)
