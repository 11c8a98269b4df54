"""The 128B swizzle with 32-/64-byte atomicity and the 96B mode through the converters:
CuTe text (evaluated with pycute), TVM TIRx objects (TIRx's own apply) and Triton shared
linear layouts (offset bases back to our layout) all give the preset's addresses."""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout import presets
from tilelayout.interop.cute import parse_cute, to_cute
from tilelayout.interop.triton_shared import from_triton_shared_bases, to_triton_shared_bases

pycute = pytest.importorskip("pycute")
MODES = [("128B_atom32B", (8, 64)), ("128B_atom64B", (8, 64)), ("96B", (8, 32))]


def _addresses(layout, shape):
    return layout.map_all(shape)["m"][..., 0]


@pytest.mark.parametrize(("mode", "shape"), MODES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_cute_text_evaluates_to_the_same_addresses(mode, shape, dtype):
    rows, cols = shape[0], shape[1] * 2 // {"float16": 2, "float32": 4, "int8": 1}[dtype]
    p = presets.get("smem.tile", dtype=dtype, mode=mode, shape=(rows, cols))
    sw, sh, st = parse_cute(to_cute(p.layout))
    cute_sw = pycute.Swizzle(sw.swizzle_len, sw.per_element, sw.atom_len)
    plain = pycute.Layout(sh, st)
    got = np.array([[cute_sw(plain(i, j)) for j in range(cols)] for i in range(rows)])
    assert np.array_equal(got, _addresses(p.layout, p.shape))


@pytest.mark.parametrize(("mode", "shape"), MODES)
def test_tvm_compose_layout_applies_the_same_swizzle(mode, shape):
    T = pytest.importorskip("tvm_tirx.tirx.layout")
    from tilelayout.interop.tvm import from_tvm, to_tvm

    p = presets.get("smem.tile", dtype="float16", mode=mode, shape=shape)
    theirs = to_tvm(p.layout)
    assert isinstance(theirs, T.ComposeLayout) and from_tvm(theirs) == p.layout
    want = _addresses(p.layout, p.shape).ravel()
    assert [int(theirs.apply(f)["m"]) for f in range(want.size)] == want.tolist()


@pytest.mark.parametrize(("mode", "shape"), MODES)
def test_triton_shared_bases_round_trip(mode, shape):
    p = presets.get("smem.tile", dtype="float16", mode=mode, shape=shape)
    back = from_triton_shared_bases(to_triton_shared_bases(p.layout, p.shape), p.shape)
    assert np.array_equal(_addresses(back, p.shape), _addresses(p.layout, p.shape))
