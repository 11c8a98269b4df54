"""Triton linear layouts: exported bases evaluated by Triton's own LinearLayout agree with
our evaluation at every hardware point; import inverts export; refusals say why."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.factor import first_difference
from tilelayout.interop.triton import (
    from_triton,
    from_triton_bases,
    to_triton,
    to_triton_bases,
)

triton_tools = pytest.importorskip("triton.tools", reason="Triton is the optional 'triton' extra")


def _random_layout(rng: random.Random) -> tuple[tl.TileLayout, tuple[int, ...]]:
    """A random power-of-two distributed layout: each logical bit on a distinct hardware bit,
    leftover hardware bits broadcast (replicas)."""
    widths = {"m": rng.randint(0, 3), "laneid": rng.randint(2, 5), "warpid": rng.randint(0, 2)}
    hw = [(a, b) for a, w in widths.items() for b in range(w)]
    rng.shuffle(hw)
    n_logical = rng.randint(max(1, len(hw) - 3), len(hw))
    shard = [tl.Iter(2, 1 << b, a) for a, b in hw[:n_logical]]
    replica = [tl.Iter(2, 1 << b, a) for a, b in hw[n_logical:]]
    cut = rng.randint(0, n_logical)
    shape = tuple(s for s in (1 << (n_logical - cut), 1 << cut) if s > 1) or (1,)
    if shape == (1,):
        shape = (2,) if n_logical else (1,)
    return tl.TileLayout(shard, replica), shape


def _hardware_points(ll):
    dims = [(name, len(vecs)) for name, vecs in ll.bases]
    for values in itertools.product(*(range(1 << k) for _, k in dims)):
        yield dict(zip((n for n, _ in dims), values, strict=True))


AXIS = {"register": "m", "lane": "laneid", "warp": "warpid"}


def _check_against_triton(layout: tl.TileLayout, shape) -> int:
    ll = to_triton(layout, shape)
    arrays = layout.map_all(shape)
    n, r = math.prod(shape), layout.replica_count
    owners: dict[tuple, set[int]] = {}
    for e in range(n):
        for k in range(r):
            owners.setdefault(
                tuple(sorted((a, int(arrays[a].reshape(n, r)[e, k])) for a in arrays)), set()
            ).add(e)
    ours = set(owners)
    count = 0
    for point in _hardware_points(ll):
        logical = ll.apply(point)
        flat = int(np.ravel_multi_index(tuple(logical[f"dim{d}"] for d in range(len(shape))), shape))
        key = tuple(sorted((AXIS[name], v) for name, v in point.items()))
        assert key in ours, (str(layout), point)
        assert owners[key] == {flat}, (str(layout), point, logical)
        count += 1
    assert count == len(ours)  # Triton's hardware points are exactly our coordinates
    return count


def test_random_layouts_agree_with_triton_at_every_hardware_point():
    rng = random.Random(3)
    points = 0
    for _ in range(60):
        layout, shape = _random_layout(rng)
        points += _check_against_triton(layout, shape)
        back = from_triton(to_triton(layout, shape))
        assert first_difference(back, layout, shape) is None, (str(layout), str(back))
        assert from_triton_bases(to_triton_bases(layout, shape), shape) == back
    assert points > 1000


@pytest.mark.parametrize("name", ["mma.m16n8k16.A", "mma.m16n8k16.B", "mma.m16n8k16.C",
                                  "mma.m16n8k32.A"])
def test_mma_presets_round_trip_through_triton(name):
    dtype = "int8" if "k32" in name else "float16"
    preset = presets.get(name, dtype=dtype)
    _check_against_triton(preset.layout, preset.shape)
    assert from_triton(to_triton(preset.layout, preset.shape)) == preset.layout


def test_refusals_say_why():
    with pytest.raises(InteropError, match="not a power of two"):
        to_triton_bases(tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"),
                        in_dims={"register": "TCol", "lane": "TLane"})
    with pytest.raises(InteropError, match="stride of iter 4:3@laneid"):
        to_triton_bases(tl.parse("S[4:3@laneid]"))
    with pytest.raises(InteropError, match="maps 0 to 0"):
        to_triton_bases(tl.parse("S[32:1@laneid] + 1@warpid"))
    with pytest.raises(InteropError, match="carries"):
        to_triton_bases(tl.parse("S[(2,4):(2@laneid,1@laneid)]"))
    with pytest.raises(InteropError, match="hold no element"):
        to_triton_bases(tl.parse("S[8:2@laneid]"))
    with pytest.raises(InteropError, match="several elements"):
        to_triton_bases(tl.parse("S[(4,2):(1@laneid,0@laneid)]"))
    with pytest.raises(InteropError, match="XOR pattern"):
        from_triton_bases({"lane": [[1, 1], [2, 0], [0, 2]]}, (4, 4))
    with pytest.raises(InteropError, match="not surjective"):
        from_triton_bases({"lane": [[1, 0], [2, 0], [0, 1]]}, (4, 4))
    with pytest.raises(InteropError, match="swizzled"):
        to_triton_bases(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")))
