"""The 8-bit ldmatrix .m16n16 / stmatrix .m16n8 forms: their fragment rule against the
ldmatrix.m16n16 preset and CuTe's stmatrix source layout, their schedules, their cost,
and plans that use them executing on the machine model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import tilelayout as tl
from tests.planning.conftest import expected
from tests.planning.mechanisms.staging.test_instructions import linear_pair
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.byte_matrix import byte_schedule
from tilelayout.planning.mechanisms.staging.instructions import best_access, byte_matrix_access, matrix_report
from tilelayout.planning.model.threads import register_file
from tilelayout.planning.problem.targeting import kinds_for, resolve_target

#: the stmatrix .m16n8.x1.trans.b8 fragment as a layout of the stored 8x16 bytes: lane t,
#: byte e at row 2 (t % 4) + e % 2, column t // 4 + 8 (e // 2) (CuTe Copy_Traits
#: <SM100_U8x4_STSM_T> SrcLayout ((4,8),(8,2,2)):((256,8),(1,128,64)) in bits)
STSM_B8 = "S[(4,2,2,8):(1@laneid,1,2,4@laneid)]"
ROWS = "S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]"
COLS = "S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]"


@pytest.mark.parametrize("num", [1, 2])
def test_the_ldmatrix_m16n16_preset_is_one_instruction(num):
    p = presets.get("ldmatrix.m16n16", num=num, dtype="b8")
    rf = register_file(p.layout, p.shape)
    addr = np.arange(int(np.prod(p.shape)))  # row i of matrix j at 16 (16 j + i)
    m = byte_matrix_access(rf, addr, store=False)
    r = matrix_report(rf, addr, "int8", m, store=False)
    assert r.mechanism == f"ldmatrix.m16n16.x{num}.trans.b8"
    assert (r.requests, r.wavefronts, r.ideal) == (1, 2 * num, 2 * num)
    assert m.rows[0, 0, :16 * num].tolist() == list(range(0, 256 * num, 16))
    for j in range(num):
        for e in range(8):  # byte e = 4 (R % 2) + B of matrix j = R // 2
            got = m.lane_addresses(0, j, e)[0]
            assert got.tolist() == addr[rf.table[0, :, m.slots[0, j, e]]].tolist()


def test_the_stmatrix_m16n8_rule_is_cutes_source_layout():
    rf = register_file(tl.parse(STSM_B8), (8, 16))
    addr = np.arange(128)
    m = byte_matrix_access(rf, addr, store=True)
    r = matrix_report(rf, addr, "int8", m, store=True)
    assert (r.mechanism, r.requests, r.wavefronts) == ("stmatrix.m16n8.x1.trans.b8", 1, 1)
    t = np.arange(32)
    for e in range(4):
        bit = 256 * (t % 4) + 8 * (t // 4) + 128 * (e % 2) + 64 * (e // 2)  # CuTe, in bits
        assert m.lane_addresses(0, 0, e)[0].tolist() == (bit // 8).tolist()
        assert rf.table[0, :, m.slots[0, 0, e]].tolist() == (bit // 8).tolist()
    # four such tiles, one 32-bit register each: one x4
    four = register_file(tl.parse("S[(4,4,2,2,8):(4,1@laneid,1,2,4@laneid)]"), (32, 16))
    m4 = byte_matrix_access(four, np.arange(512), store=True)
    assert m4.counts == (4,)
    assert best_access(four, np.arange(512), "int8", store=True).mechanism == \
        "stmatrix.m16n8.x4.trans.b8"


def test_rows_the_lane_pattern_does_not_serve_are_refused():
    rf = register_file(tl.parse(STSM_B8), (8, 16))
    assert byte_matrix_access(rf, np.arange(128)[::-1].copy(), store=True) is None
    # four tiles whose registers each hold one byte of every tile: the instruction fills
    # whole registers in byte order, so these would need byte permutes: refused
    mixed = register_file(tl.parse("S[(4,4,2,2,8):(1,1@laneid,4,8,4@laneid)]"), (32, 16))
    assert byte_matrix_access(mixed, np.arange(512), store=True) is None
    assert byte_schedule(rf.table, np.arange(128), "m16n16") is None  # 4 bytes a lane


def test_only_targets_with_the_8_bit_forms_use_them():
    assert "matrix.b8" in kinds_for(resolve_target("sm_100a"), store=False)
    assert "matrix.b8" in kinds_for(resolve_target("sm_120a"), store=True)
    assert "matrix.b8" not in kinds_for(resolve_target("sm_90a"), store=False)
    assert "matrix.b8" not in kinds_for(resolve_target("sm_100"), store=False)
    assert resolve_target("sm_90a").matrix_sides(b8=True) == ()
    assert resolve_target("sm_120a").matrix_sides(b8=True) == ("reader", "writer")


@pytest.mark.parametrize("src,dst,shape", [("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                                            (32, 32)), (ROWS, COLS, (64, 64))])
def test_8_bit_transposes_use_them_where_the_target_has_them(src, dst, shape):
    """An int8 transpose: ldmatrix.m16n16 on sm_100a, with its fragment exactly (each
    register's four bytes in order); sm_90a has only byte loads. The 32x32 tile reaches
    the wavefront floor (one per 128 bytes a side); in the 64x64 one the writer's 8-byte
    stores keep a warp bit at row byte 8, so the floor is out of reach there."""
    new = tl.plan_conversion(src, dst, shape, "int8", target="sm_100a")
    old = tl.plan_conversion(src, dst, shape, "int8", target="sm_90a")
    floor = 2 * int(np.prod(shape)) // 128
    assert floor <= new.costs["wavefronts"] < old.costs["wavefronts"]
    assert (new.costs["wavefronts"] == floor) == (shape == (32, 32))
    assert new.costs["load_instruction"].startswith("ldmatrix.m16n16.")
    assert "matrix" not in str(old.costs["load_instruction"])
    for p in (new, old):
        assert p.execute() == expected(p.dst, p.shape)


@settings(max_examples=25, deadline=None)
@given(linear_pair())
def test_random_8_bit_conversions_deliver_on_a_target_with_the_forms(p):
    """Random F2-linear int8 conversions planned for sm_100a (every instruction kind,
    the 8-bit forms among them) execute correctly on the machine model, and never cost
    more wavefronts than the plan for sm_90a, which lacks the forms."""
    src, dst, n = p
    new = tl.plan_conversion(src, dst, (1 << n,), "int8", target="sm_100a")
    assert new.execute() == expected(new.dst, new.shape)
    old = tl.plan_conversion(src, dst, (1 << n,), "int8", target="sm_90a")
    if new.mechanism == old.mechanism == "shared-memory":
        assert new.costs["wavefronts"] <= old.costs["wavefronts"]
