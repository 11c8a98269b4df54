"""TIRx's ``apply`` on our layouts: the integer answers past the tile, the three forms,
``strict=True``, and symbolic apply evaluated equal to integer apply on random layouts
(swizzled ones too), every form."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout.tirx as T
from tests.strategies import layouts
from tilelayout import IndexOutOfRangeError, LayoutError


def test_an_index_past_the_tile_keeps_counting_as_in_tirx():
    sw = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(512,)]))
    assert sw.apply(512) == {"m": 512} and sw.apply(4095) == {"m": 4039}
    assert T.ComposeLayout(0, 2, 3, T.TileLayout(T.S[(32,)])).apply(33) == {"m": 33}
    L = T.TileLayout(T.S[(8, 8):(10, 1)])
    assert L.apply(65) == {"m": 81} and L.apply(-1) == {"m": -3}  # floor semantics
    assert L.apply(9, 3) == {"m": 93}  # per-iter indices are linear
    with pytest.raises(IndexOutOfRangeError):
        L.apply(65, strict=True)
    assert L.apply(63, strict=True) == {"m": 77}


def test_the_shaped_form_groups_then_splits_each_dimension():
    L = T.TileLayout(T.S[(2, 4, 8, 8):(256, 64, 8, 1)])
    x, y = T.Var("x"), T.Var("y")
    assert str(L.apply(x, y, shape=[8, 64])["m"]) == "x * 64 + y"
    assert str(L.apply(x, y, shape=[4, 128])["m"]) == "x * 128 + y"  # groups: (2,2)|(2,8,8)
    flat = T.TileLayout(T.S[(6, 4):(1, 6)]).apply(x, y, shape=[4, 6])["m"]  # does not group
    assert all(flat.evaluate({x: i, y: j}) == T.TileLayout(T.S[(6, 4):(1, 6)]).apply(i * 6 + j)["m"]
               for i in range(4) for j in range(6))


def _comps(L, flat):
    out = []
    for it in reversed(L.shard):
        flat, c = divmod(flat, it.extent)
        out.insert(0, c)
    return out


@given(layout=layouts(), data=st.data())
@settings(max_examples=120, deadline=None)
def test_symbolic_apply_evaluates_to_the_integer_apply(layout, data):
    L = T.wrap(layout)
    n = L.size()
    flat = data.draw(st.integers(0, n - 1))
    f = T.Var("f")
    got = L.apply(f)
    assert {a: v if isinstance(v, int) else v.evaluate({f: flat}) for a, v in got.items()} \
        == L.apply(flat)
    vs = [T.Var(f"c{k}") for k in range(len(L.shard))]
    comps = _comps(L, flat)
    got = L.apply(*vs) if vs else L.apply()
    env = dict(zip(vs, comps, strict=True))
    assert {a: v if isinstance(v, int) else v.evaluate(env) for a, v in got.items()} \
        == (L.apply(*comps) if comps else L.apply())
    dims = [math.prod(it.extent for it in L.shard[:1]), math.prod(it.extent for it in L.shard[1:])]
    ds = [T.Var("d0"), T.Var("d1")]
    point = divmod(flat, dims[1])
    got = L.apply(*ds, shape=dims)
    env = dict(zip(ds, point, strict=True))
    assert {a: v if isinstance(v, int) else v.evaluate(env) for a, v in got.items()} \
        == L.apply(*point, shape=dims)


def test_refusals():
    L = T.TileLayout(T.S[4, 8])
    for call, message in [(lambda: L.apply(1.5), "integer"), (lambda: L.apply(1, 2, 3), "3 indices"),
                          (lambda: L.apply(1, shape=[4, 8]), "sizes must be equal"),
                          (lambda: L.apply(T.Var("v"), strict=True), "symbolic"),
                          (lambda: L.apply(1, strict="yes"), "True or False"),
                          (lambda: L.apply(1, shape=[0]), ">= 1"), (lambda: L.apply(), "needs an index")]:
        with pytest.raises(LayoutError, match=message):
            call()
