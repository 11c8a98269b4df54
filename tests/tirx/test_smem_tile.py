"""``smem.tile`` against TIRx's ``mma_shared_layout`` at every element: one box per
swizzle span of K, rows first (the order TMA boxes, TIRx and CUTLASS's tile_to_shape of
the GMMA atom use), for every dtype x 32B/64B/128B x (rows, cols) up to 256 x 256."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tilelayout import presets
from tilelayout.interop.tvm import from_tvm

TX = pytest.importorskip(
    "tvm_tirx.backend.cuda.layout",
    reason="apache-tvm-tirx is not installed (pip install -e '.[tvm]'; scripts/test.sh does)",
)

pytestmark = pytest.mark.interop

MODE = {"32B": 1, "64B": 2, "128B": 3}
TVM_DTYPE = {"float16": "float16", "bfloat16": "bfloat16", "float32": "float32",
             "float8": "float8_e4m3fn", "int8": "int8"}


def test_every_tile_matches_tirx():
    compared = wider = 0
    sides = (8, 16, 32, 64, 128, 256)
    for dtype, mode, rows, cols in itertools.product(TVM_DTYPE, MODE, sides, sides):
        bytes_ = presets.smem.dtype_bytes(dtype)
        width = presets.smem.box_bytes(mode) // bytes_
        if cols % width:
            continue  # not whole boxes: both refuse (tests/tirx/test_constructors.py)
        ours = presets.get("smem.tile", dtype=dtype, mode=mode, shape=(rows, cols)).layout
        theirs = TX.mma_shared_layout(TVM_DTYPE[dtype], MODE[mode], [rows, cols])
        a = ours.map_all((rows, cols))["m"]
        b = from_tvm(theirs).map_all((rows, cols))["m"]
        assert np.array_equal(a, b), (dtype, mode, rows, cols)
        for r, c in ((0, cols - 1), (rows - 1, 0), (rows // 2, cols // 2)):
            assert int(theirs.apply(r, c, shape=[rows, cols])["m"]) == int(a[r, c, 0])
        compared += 1
        wider += cols > width
    assert (compared, wider) == (342, 252)
