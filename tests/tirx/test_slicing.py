"""TIRx's ``slice`` on random layouts and regions: a sliced layout maps every element of
the region where the layout maps it; a region no strided layout describes is None."""

from __future__ import annotations

import itertools
import math
import random

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError


def test_slices_map_the_region_where_the_layout_does():
    rng, found = random.Random(11), {"sliced": 0, "none": 0}
    for _ in range(300):
        ext = [rng.choice([2, 3, 4]) for _ in range(rng.randint(2, 4))]
        L = T.TileLayout.from_iters([T.Iter(e, rng.choice([1, 2, 3, 4, 8, 16, 64]),
                                            rng.choice(["m", "m", "laneid"])) for e in ext])
        cut = rng.randint(1, len(ext) - 1)
        shape = [math.prod(ext[:cut]), math.prod(ext[cut:])]
        region = []
        for n in shape:
            lo = rng.randrange(n)
            region.append((lo, rng.randint(lo + 1, n)))
        sliced = L.slice(shape, region)
        if sliced is None:
            found["none"] += 1
            continue
        found["sliced"] += 1
        sizes = [b - a for a, b in region]
        for r in itertools.product(*(range(s) for s in sizes)):
            outer = [a + i for (a, _), i in zip(region, r)]
            assert sliced.apply(*r, shape=sizes) == {
                k: v for k, v in L.apply(*outer, shape=shape).items() if k in sliced.axes} | {
                k: 0 for k in sliced.axes if k not in L.apply(*outer, shape=shape)}, (L, region)
    assert found["sliced"] >= 150 and found["none"] >= 10, found


def test_the_midpoint_case_and_swizzles():
    L = T.TileLayout(T.S[(4, 4, 4, 4):(64, 4, 16, 1)])
    assert str(L.slice([16, 16], [(2, 3), (6, 10)])) == "S[(1,2,2):(4,14,1)] + 26"
    assert L.slice([16, 16], [(2, 3), (5, 10)]) is None
    carry = T.TileLayout.from_iters([T.Iter(3, 1), T.Iter(2, 16, "laneid"), T.Iter(4, 8, "laneid")])
    assert carry.slice([24], [(15, 17)]) is None  # TIRx returns a layout that maps 16 wrongly
    sw = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(512,)]))
    assert sw.slice([512], [(64, 128)]) == T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[64:1] + 64))


@pytest.mark.parametrize("region,message", [
    ([(0, 65)], "inside"), ([(3, 3)], "non-empty"), ([(0, 1), (0, 1)], "same length"),
    ([(0, "a")], "integer"), ([5], "begin, end"),
])
def test_refusals(region, message):
    with pytest.raises(LayoutError, match=message):
        T.TileLayout(T.S[64]).slice([64], region)
