"""``tcgen05_atom_layout`` and ``wg_local_layout`` (TIRx kernels' helpers, not in the
apache-tvm-tirx wheel) against our own ``tcgen05.ld.*`` presets, at every element.

Each warp ``w`` of the warpgroup reads its own 32-lane quarter of tensor memory, so row
``r`` of a 64-row fragment is row ``r % 16`` of warp ``r // 16``'s preset fragment; a
128-row fragment issues the atom twice (row ``16 h + rr`` of quarter ``w`` is register
block ``h``); a 16-bit element sits in half ``c % 2`` of 32-bit register column ``c // 2``.
"""

from __future__ import annotations

import itertools

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError, presets
from tilelayout.presets.tcgen05 import NUM_CAP

SHAPES = ("16x64b", "16x128b", "16x256b")


def _expected(shape: str, num: int, rows: int, per_reg: int):
    warp = presets.get(f"tcgen05.ld.{shape}", num=num)
    lanes, slab = warp.shape  # (16, 32-bit columns of one issue)
    regs = {"16x64b": 1, "16x128b": 2, "16x256b": 4}[shape] * num  # registers per slab

    def at(r: int, c: int) -> dict[str, int]:
        quarter = 16 if rows == 64 else 32
        w, rr = divmod(r, quarter)
        h, rr = divmod(rr, 16)
        point = warp.layout.base((rr, c // per_reg), shape=(lanes, slab))
        return {"wid_in_wg": w, "laneid": point["laneid"],
                "m": (point["m"] + h * regs) * per_reg + c % per_reg}
    return at


@pytest.mark.parametrize("shape,rows,dtype", list(itertools.product(SHAPES, (64, 128),
                                                                    ("float32", "float16"))))
def test_sixteen_lane_shapes_match_the_presets(shape, rows, dtype):
    per_reg = 2 if dtype == "float16" else 1
    checked = 0
    for num in (n for n in (1, 2, 4, 8, 16, 32, 64, 128) if n <= NUM_CAP[shape]):
        cols = T.registers.COLUMNS_PER_REP[shape] * num * per_reg
        L = T.tcgen05_atom_layout(shape, (rows, cols), dtype)
        want = _expected(shape, num, rows, per_reg)
        got = L.map_all((rows, cols))
        for r in range(rows):
            for c in range(0, cols, max(1, cols // 16)):
                assert {a: int(got[a][r, c, 0]) for a in got} == want(r, c), (shape, num, r, c)
                checked += 1
        assert L.size() == rows * cols
    assert checked > 0


def test_thirty_two_lane_shape_and_the_datapath_b_image():
    L = T.tcgen05_atom_layout("32x32b", (128, 8), "float32")
    assert all(L.apply(r, c, shape=[128, 8]) == {"tid_in_wg": r, "m": c}
               for r in range(128) for c in range(8))
    # the (64, N) fp32 image of a datapath-B accumulator: column half -> lanes 64..127
    B = T.tcgen05_atom_layout("32x32b", (64, 16), "float32")
    D = T.tmem_datapath_layout("B", 64, 16)
    for r, c in itertools.product(range(64), range(16)):
        lane = D.apply(r, c, shape=[64, 16])
        assert B.apply(r, c, shape=[64, 16]) == {"tid_in_wg": lane["TLane"], "m": lane["TCol"]}


@pytest.mark.parametrize("args", [
    ("16x32b", (64, 8), "float32"),       # not a shape
    ("16x64b", (64, 8), "float8_e4m3fn"), # 8-bit
    ("16x64b", (32, 8), "float32"),       # rows
    ("16x64b", (64, 3), "float32"),       # not whole repetitions
    ("16x256b", (64, 8 * 64), "float32"), # x64 is over the .num cap of 16x256b
    ("32x32b", (64, 16), "float16"),      # the B image is fp32
    ("32x32b", (64, 6), "float32"),       # N/2 = 3 is not a .num
    ("16x64b", (64,), "float32"),
])
def test_refusals(args):
    with pytest.raises(LayoutError):
        T.tcgen05_atom_layout(*args)


def test_wg_local_layout():
    L = T.wg_local_layout(8)
    assert L.size() == 1024 and L.apply(127, 7, shape=[128, 8]) == {"tid_in_wg": 127, "m": 7}
    assert T.wg_local_layout(4, rows=64).get_scope() == ("thread", "warpgroup")
