"""The TMA side of a plan: the tensor map's parameters and every box's offset and
coordinates, read from the tile the plan chose."""

from __future__ import annotations

import numpy as np

import tilelayout as tl
from tilelayout.planning.code.tma_program import tma_program
from tilelayout.planning.mechanisms.staging.access import smem_addresses


def _plan(endpoint: str) -> tl.ConversionPlan:
    return tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", endpoint, dtype="bfloat16",
                              target="sm_90a")


def test_boxes_of_the_tile_in_the_tensors_order():
    t = tma_program(_plan("tma"))  # order=row: the last dimension contiguous, innermost
    assert (t.direction, t.dims, t.box, t.swizzle, t.data_type) == \
        ("store", (1, 0), (64, 64), "CU_TENSOR_MAP_SWIZZLE_128B",
         "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16")
    assert [(b.offset, b.coords) for b in t.boxes] == [(0, (0, 0)), (8192, (0, 64))]
    assert t.align == 1024 and t.box_bytes == 8192
    col = tma_program(_plan("tma:order=col"))  # the first dimension contiguous: one box
    assert (col.dims, col.box, [(b.offset, b.coords) for b in col.boxes]) == \
        ((0, 1), (64, 128), [(0, (0, 0))])


def test_each_box_is_one_contiguous_run_of_the_tile():
    for endpoint, want in (("tma:box=64,64", [(0, (0, 0)), (8192, (0, 64))]),
                           ("tma:swizzle=64B", [(0, (0, 0)), (4096, (0, 32)), (8192, (0, 64)),
                                                (12288, (0, 96))])):
        p = _plan(endpoint)
        t = tma_program(p)
        assert [(b.offset, b.coords) for b in t.boxes] == want
        addr = smem_addresses(p.smem.layout, p.shape).reshape(p.shape)
        for b in t.boxes:
            box = addr[tuple(slice(c, c + e) for c, e in zip(b.coords, t.box, strict=True))]
            assert int(box.min()) * 2 == b.offset and box.size * 2 == t.box_bytes
            assert len(np.unique(box)) == box.size


def test_a_tma_load_is_read_from_the_same_tile():
    p = tl.plan_conversion("tma", "preset:wgmma.m64nNk16.D:n=128", dtype="bfloat16",
                           target="sm_90a")
    assert tma_program(p).direction == "load"
