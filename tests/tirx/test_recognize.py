"""TIRx's tiling recognizers on random tiles: ``is_tile_inner`` finds an outer that tiles
the inner back into the tiled layout, ``is_tile_outer`` an inner that does, and the
direct-sum recognizers the other addend; a swizzled inner keeps its one swizzle."""

from __future__ import annotations

import random

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError


def _random_tile(rng, axes=("m", "m", "laneid")):
    n = rng.randint(1, 3)
    ext = [rng.choice([1, 2, 4]) for _ in range(n)]
    strides = [rng.choice([1, 2, 4, 8]) for _ in range(n)]
    return T.TileLayout.from_iters([T.Iter(e, s, rng.choice(axes)) for e, s in zip(ext, strides)]), ext


def _pairs(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        inner, ie = _random_tile(rng)
        outer, oe = _random_tile(rng, ("m", "warpid"))
        rank = min(len(ie), len(oe))
        ishape = [*([1] * (rank - 1)), 1]
        oshape = [*([1] * (rank - 1)), 1]
        ishape[-1], oshape[-1] = inner.size(), outer.size()
        yield inner, outer, oshape, ishape


def test_recognizers_invert_tile_on_random_tiles():
    found = {"inner": 0, "outer": 0}
    for inner, outer, oshape, ishape in _pairs(7, 150):
        try:
            tiled = inner.tile(outer, oshape, ishape)
        except LayoutError:
            continue
        tshape = [o * i for o, i in zip(oshape, ishape)]
        rec = inner.is_tile_inner(tiled, tshape, ishape)
        if rec is not None:
            found["inner"] += 1
            assert inner.tile(rec, oshape, ishape).canonicalize() == tiled.canonicalize()
        rec = outer.is_tile_outer(tiled, tshape, oshape)
        if rec is not None:
            found["outer"] += 1
            assert rec.tile(outer, oshape, ishape).canonicalize() == tiled.canonicalize()
    assert found["inner"] >= 80 and found["outer"] >= 80, found


def test_a_swizzled_tile_is_recognized_with_its_swizzle():
    sw = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(512,)]))
    outer = T.TileLayout(T.S[(8, 4):(1, 8)])
    tiled = sw.tile(outer, (8, 4), (8, 64))
    assert tiled.canonicalize() == T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 4, 64):(64, 4096, 1)]))
    assert sw.is_tile_inner(tiled, (64, 256), (8, 64)).canonicalize() == outer.canonicalize()
    assert outer.is_tile_outer(tiled, (64, 256), (8, 4)).canonicalize() == sw.canonicalize()
    assert sw.is_tile_outer(tiled, (64, 256), (8, 4)) is None  # a swizzle is never an outer
    other = T.ComposeLayout(3, 2, 3, T.TileLayout(T.S[(256,)]))
    assert other.is_tile_inner(tiled, (64, 256), (8, 64)) is None  # a different swizzle


def test_direct_sum_and_its_recognizers():
    A, B = T.TileLayout(T.S[(2, 2):(8, 2)]), T.TileLayout(T.S[(2, 2):(4, 1)])
    total = B.direct_sum(A, [2, 2], [2, 2])
    assert total == T.TileLayout(T.S[16:1])
    assert B.is_direct_sum_right(total, [2, 2, 2, 2], [2, 2]).canonicalize() == A.canonicalize()
    assert A.is_direct_sum_left(total, [2, 2, 2, 2], [2, 2]).canonicalize() == B.canonicalize()
    assert T.TileLayout(T.S[(2, 2):(4, 2)]).is_direct_sum_right(total, [2, 2, 2, 2], [2, 2]) is None


@pytest.mark.parametrize("call,message", [
    (lambda: T.TileLayout(T.S[4]).tile(None, [1], [4]), "outer layout must be a TileLayout"),
    (lambda: T.TileLayout(T.S[4]).tile(T.TileLayout(T.S[2]), [2, 1], [4]), "same rank"),
    (lambda: T.TileLayout(T.S[8]).is_tile_inner(T.TileLayout(T.S[24]), [24], [16]), "divisible"),
    (lambda: T.TileLayout(T.S[4]).is_direct_sum_right(T.TileLayout(T.S[8]), [2, 4], [4, 1]),
     "twice the rank"),
])
def test_refusals(call, message):
    with pytest.raises(LayoutError, match=message):
        call()
