"""Triton shared linear layouts: what we export, Triton itself evaluates at every offset to
the element we place there; Triton's own NVMMA / swizzled shared layouts, lowered by
Triton, import to layouts that agree with Triton at every offset (and with our Swizzle
presets for NVMMA); round trips; refusals say why."""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.interop import InteropError
from tilelayout.interop.triton_shared import (
    from_triton_shared,
    from_triton_shared_bases,
    to_triton_shared,
    to_triton_shared_bases,
)

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton._C.libtriton import gluon_ir  # noqa: E402
from triton.experimental.gluon import language as ttgl  # noqa: E402

_OFFSET = re.compile(r"Offset:\s*(\d+)\s*->\s*\(([^)]*)\)")


def triton_offsets(shared, shape) -> dict[int, tuple[int, ...]]:
    """Triton's own evaluation: shared-memory offset -> logical coordinate."""
    view = gluon_ir.get_layout_view(shared, list(shape), True)
    return {int(k): tuple(int(v) for v in c.split(",")) for k, c in _OFFSET.findall(view)}


def ours(layout, shape) -> dict[int, tuple[int, ...]]:
    """Our evaluation, inverted: address -> logical coordinate (each element once)."""
    m = layout.map_all(shape)["m"]
    assert m.shape[-1] == 1
    out: dict[int, tuple[int, ...]] = {}
    for idx in np.ndindex(*shape):
        a = int(m[idx + (0,)])
        assert a not in out, f"two elements at address {a}"
        out[a] = tuple(int(i) for i in idx)
    return out


def _random_xor(rng: random.Random, n: int) -> tl.XorSwizzle:
    images = [1 << k for k in range(n)]
    for _ in range(3 * n):
        i, j = rng.randrange(n), rng.randrange(n)
        if i != j:
            images[i] ^= images[j]
    rng.shuffle(images)
    return tl.XorSwizzle(images)


def _random_tile(rng: random.Random) -> tuple[tl.TileLayout, tuple[int, ...]]:
    """A power-of-two tile on m that is a permutation of [0, 2**N) (bits shuffled)."""
    bits = rng.randint(1, 9)
    cut = rng.randint(0, bits)
    shape = tuple(1 << b for b in (cut, bits - cut) if b) or (2,)
    order = list(range(sum(s.bit_length() - 1 for s in shape)))
    rng.shuffle(order)
    shard = [tl.Iter(2, 1 << k, "m") for k in order]
    return tl.TileLayout(shard), shape


def test_exported_layouts_evaluate_the_same_in_triton():
    rng = random.Random(9)
    cases = [(tl.ComposeLayout(tl.Swizzle.for_dtype(dt, mode), tl.parse(f"S[(8,{w}):({w},1)]")),
              (8, w))
             for dt, bits in (("int8", 8), ("float16", 16), ("float32", 32))
             for mode, w in (("32B", 256 // bits), ("64B", 512 // bits), ("128B", 1024 // bits))]
    for _ in range(25):
        tile, shape = _random_tile(rng)
        n = sum(s.bit_length() - 1 for s in shape)
        cases.append((tl.ComposeLayout(_random_xor(rng, rng.randint(0, n)), tile), shape))
        cases.append((tile, shape))
    for layout, shape in cases:
        shared = to_triton_shared(layout, shape)
        assert isinstance(shared, ttgl.SharedLinearLayout)
        assert triton_offsets(shared, shape) == ours(layout, shape), str(layout)
        back = from_triton_shared(shared, shape)
        assert back.equivalent(layout, shape), (str(layout), str(back))


@pytest.mark.parametrize("width, bits, transposed", [
    (w, b, t) for w in (0, 32, 64, 128) for b in (8, 16, 32) for t in (False, True)
])
def test_nvmma_shared_layouts_lowered_by_triton(width, bits, transposed):
    dtype = {8: "int8", 16: "float16", 32: "float32"}[bits]
    contiguous = max(width, 16) * 8 // bits  # one swizzle row of elements
    shape = (contiguous, 16) if transposed else (16, contiguous)
    shared = ttgl.NVMMASharedLayout(width, bits, transposed=transposed)
    layout = from_triton_shared(shared, shape)
    lowered = triton_offsets(to_triton_shared(layout, shape), shape)
    assert lowered == ours(layout, shape)
    # what Triton's NVMMA layout is, in our terms: the mode's Swizzle over the tile with the
    # contiguous dim innermost
    mode = {0: "none", 32: "32B", 64: "64B", 128: "128B"}[width]
    tile = tl.parse(f"S[({shape[0]},{shape[1]}):(1,{shape[0]})]" if transposed
                    else f"S[({shape[0]},{shape[1]}):({shape[1]},1)]")
    expect = tl.ComposeLayout(tl.Swizzle.for_dtype(dtype, mode), tile)
    assert layout.equivalent(expect, shape), (str(layout), str(expect))
    if width:
        assert isinstance(layout, tl.ComposeLayout)
        assert layout.swizzle == tl.Swizzle.for_dtype(dtype, mode)  # import gives the plain Swizzle


@pytest.mark.parametrize("vec, per_phase, max_phase, order", [
    (1, 1, 8, [1, 0]), (2, 2, 4, [1, 0]), (4, 1, 8, [0, 1]), (8, 4, 2, [1, 0]), (1, 1, 1, [0, 1]),
])
def test_swizzled_shared_layouts_lowered_by_triton(vec, per_phase, max_phase, order):
    shape = (32, 64)
    shared = ttgl.SwizzledSharedLayout(vec, per_phase, max_phase, order)
    layout = from_triton_shared(shared, shape)
    # the lowering Triton did, evaluated by Triton, equals ours at every offset
    from tilelayout.interop.triton_shared import _lower

    assert triton_offsets(_lower(shared, list(shape)), shape) == ours(layout, shape)
    if max_phase > 1:
        assert isinstance(layout, tl.ComposeLayout)


def test_tools_linear_layout_import():
    from triton.tools import LinearLayout

    ll = LinearLayout.from_bases([("offset", [[0, 1], [1, 1]])], ["dim0", "dim1"], [2, 2])
    assert from_triton_shared(ll) == from_triton_shared_bases([[0, 1], [1, 1]], (2, 2))
    assert from_triton_shared(ll).apply((1, 0))[0]["m"] == 3


def test_bases_round_trip_random():
    rng = random.Random(4)
    for _ in range(60):
        dims = tuple(1 << rng.randint(0, 4) for _ in range(rng.randint(1, 3)))
        n = sum(d.bit_length() - 1 for d in dims)
        if n == 0:
            continue
        # random invertible offset -> flat matrix, written as logical vectors
        flat_of = _random_xor(rng, n).images
        bases = []
        for f in flat_of:
            vec, shift = [0] * len(dims), 0
            for d in reversed(range(len(dims))):
                w = dims[d].bit_length() - 1
                vec[d] = (f >> shift) & ((1 << w) - 1)
                shift += w
            bases.append(vec)
        layout = from_triton_shared_bases(bases, dims)
        assert to_triton_shared_bases(layout, dims) == bases
        # the definition: offset sum_k 2**k holds XOR of the bases
        addr = ours(layout, dims)
        for off in range(1 << n):
            want = [0] * len(dims)
            for k in range(n):
                if off >> k & 1:
                    want = [a ^ b for a, b in zip(want, bases[k], strict=True)]
            assert addr[off] == tuple(want)


@pytest.mark.parametrize("text, shape, reason", [
    ("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)] + R[2:512])", None, "stores each element 2"),
    ("S[(8,64):(64,1)] + 3", None, "offset"),
    ("S[(8,4):(4,1@laneid)]", None, "laneid"),
    ("S[(3,4):(4,1)]", None, "not a power of two"),
    ("ComposeLayout(Swizzle(2,1,1), S[(4,4):(8,1)])", None, "moves padding"),
    ("ComposeLayout(XorSwizzle(1,2,4,8,48,32), S[(4,8):(8,1)])", None, "outside the tile"),
    ("S[1:1]", None, "single element"),
])
def test_export_refusals(text, shape, reason):
    with pytest.raises(InteropError, match=reason):
        to_triton_shared_bases(tl.parse(text), shape)


@pytest.mark.parametrize("bases, shape, reason", [
    ([[0, 1], [0, 1]], (2, 2), "linearly dependent"),
    ([[0, 1], [0, 0]], (2, 2), "exactly 2 .zero bases are padding"),
    ([[0, 1]], (2, 2), "exactly 2"),
    ([[0, 4], [1, 0]], (2, 2), "outside shape"),
    ([[0, 1, 0]], (2, 2), "needs 2 entries"),
    ([[0, 1], [1, 0]], (3, 2), "not a power of two"),
    ([], None, "at least one"),
    ([[0, 1 << k] for k in range(64)], (1, 1 << 64), "at most 2"),
])
def test_import_refusals(bases, shape, reason):
    with pytest.raises(InteropError, match=reason):
        from_triton_shared_bases(bases, shape)


def test_block_bases_and_foreign_objects_refused():
    shared = ttgl.SharedLinearLayout(offset_bases=[[0, 1], [1, 0]], block_bases=[[0, 0]])
    with pytest.raises(InteropError, match="block_bases"):
        from_triton_shared(shared, (2, 2))
    with pytest.raises(InteropError, match="needs the tensor shape"):
        from_triton_shared(ttgl.NVMMASharedLayout(128, 16))
    with pytest.raises(InteropError, match="Gluon shared layout"):
        from_triton_shared(ttgl.BlockedLayout([1, 1], [1, 32], [1, 1], [1, 0]), (2, 2))


def test_swizzle_family_all_parameters_through_triton():
    """Every Swizzle(M, B, S) over an 8-bit-wide tile: the XorSwizzle we export evaluates in
    Triton to the Swizzle's own addresses."""
    for m_, b, s in itertools.product(range(3), range(1, 4), range(1, 4)):
        if s < b or m_ + b + s > 8:
            continue
        sw = tl.Swizzle(m_, b, s)
        layout = tl.ComposeLayout(sw, tl.parse("S[(16,16):(16,1)]"))
        assert triton_offsets(to_triton_shared(layout), (16, 16)) == ours(layout, (16, 16)), sw
