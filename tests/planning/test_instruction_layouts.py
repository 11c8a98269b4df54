"""Packed and ldmatrix/stmatrix shared-memory layouts for a conversion's staging."""

import tilelayout as tl
from tilelayout.planning.costing import cost, lower_bound, prepare
from tilelayout.planning.instruction_layouts import instruction_candidates

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
