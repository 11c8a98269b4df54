"""The move-data views' shared reading (operands, shape, dtype, target) and drawing (the
line x bank grid, the worst request's cells)."""

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.core.targets import UnknownTargetError
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views import movement
from tilelayout.planning.mechanisms.staging.access import smem_addresses

ROWS, COLS = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"


def test_text_and_preset_operands():
    L, shape, dtype = movement.operand({"a": ROWS}, "a")
    assert L == tl.parse(ROWS) and shape is None and dtype is None
    p, shape, dtype = movement.operand({"a": {"preset": "wgmma.m64nNk16.D",
                                              "params": {"n": "16"}}}, "a")
    want = presets.get("wgmma.m64nNk16.D", n=16)
    assert movement.layout_of(p) == want.layout and shape == (64, 16) and dtype == "float32"


@pytest.mark.parametrize("value", [{"preset": ""}, {"preset": "no.such"}, {"params": {}}])
def test_a_bad_preset_operand_names_its_field(value):
    with pytest.raises(ApiError) as e:
        movement.operand({"a": value}, "a")
    assert e.value.field == "a"


def test_a_pair_takes_its_shape_and_dtype_from_the_request_or_the_layouts():
    a, b, shape, dtype = movement.pair({"w": ROWS, "r": COLS, "dtype": "float16"}, "w", "r")
    assert (shape, dtype) == ((32, 32), "float16")
    _, _, shape, _ = movement.pair({"w": ROWS, "r": COLS, "shape": "32,32",
                                    "dtype": "float32"}, "w", "r")
    assert shape == (32, 32)
    with pytest.raises(ApiError) as e:
        movement.pair({"w": ROWS, "r": COLS, "dtype": "float13"}, "w", "r")
    assert e.value.status == 400


def test_the_grid_is_line_and_bank_of_each_byte():
    g = movement.grid(tl.parse("S[(4,64):(64,1)]"), (4, 64), "float32")
    assert (g["lines"], g["banks"]) == (8, 32)
    assert g["byte"][:3] == [0, 4, 8] and g["bank"][:3] == [0, 1, 2]
    assert g["line"][64] == 2 and g["bank"][64] == 0  # row 1 starts at byte 256


def test_worst_cells_mark_the_conflicting_lanes():
    # lane i owns row i: one request reads a column, which a row-major float32 tile puts
    # in one bank (32 wavefronts); a lane-per-column layout reads a row, conflict-free
    smem = tl.parse("S[(32,32):(32,1)]")
    r = tl.smem_access(ROWS, smem, (32, 32), "float32")
    addr = smem_addresses(smem, (32, 32))
    cells = movement.worst_cells(r, addr, (32, 32))
    assert {c["lane"] for c in cells} == set(range(32)) and r.worst.wavefronts == 32
    assert all(c["conflict"] for c in cells)
    # each lane reads one 16-byte vector: 4 cells of its row, the same 4 columns for all
    k = r.vector_bytes // 4
    assert len(cells) == 32 * k and {c["element"] % 32 for c in cells} == set(range(k))
    ok = tl.smem_access(COLS, smem, (32, 32), "float32")
    assert not any(c["conflict"] for c in movement.worst_cells(ok, addr, (32, 32)))


def test_target_refusals_name_the_target_field():
    assert movement.target({"target": "sm_90a"}) == "sm_90a" and movement.target({}) is None
    assert movement.refusal(UnknownTargetError("unknown target 'x'")).field == "target"
    assert movement.refusal(tl.LayoutError("no plan")).field is None
