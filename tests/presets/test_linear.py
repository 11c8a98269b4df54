"""Triton's linear-layout arithmetic: XOR of basis vectors, products, grow and shrink."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.core.errors import AlgebraError
from tilelayout.presets.linear import (
    Linear,
    cga_layout,
    identity,
    identity_nd,
    product,
    zeros,
)


def _apply(lin: Linear, inputs: dict[str, int]) -> tuple[int, ...]:
    """The output coordinate (in ``lin.outs`` order): XOR of the bases of the set input bits."""
    out = [0] * len(lin.outs)
    for name, vecs in lin.bases:
        for k, v in enumerate(vecs):
            if inputs.get(name, 0) >> k & 1:
                out = [a ^ b for a, b in zip(out, v, strict=True)]
    return tuple(out)


def _sizes(lin: Linear) -> dict[str, int]:
    return {name: 1 << len(vecs) for name, vecs in lin.bases}


def test_identity_and_zeros():
    lane = identity(8, "lane", 0)
    assert [_apply(lane, {"lane": i}) for i in range(8)] == [(i,) for i in range(8)]
    assert {_apply(zeros(4, "warp", 0), {"warp": w}) for w in range(4)} == {(0,)}
    with pytest.raises(AlgebraError):
        identity(6, "lane", 0)


def test_a_product_puts_the_second_factor_above_the_first():
    a, b = identity(4, "register", 0), identity(8, "lane", 0)
    ab = a * b
    assert ab.outs == ((0, 32),)
    for r, lane in itertools.product(range(4), range(8)):
        assert _apply(ab, {"register": r, "lane": lane}) == (r + 4 * lane,)
    two_d = identity(4, "lane", 1) * identity(2, "warp", 0)
    assert two_d.outs == ((1, 4), (0, 2)) and product(identity(4, "lane", 1), identity(2, "warp", 0)) == two_d


def test_grow_repeats_along_the_first_input_and_shrink_broadcasts():
    base = identity(2, "register", 1) * identity(32, "lane", 1) * identity(4, "warp", 0)
    grown = base.grow((4, 128))
    assert dict(grown.outs) == {1: 128, 0: 4} and _sizes(grown)["register"] == 4
    shrunk = base.shrink((2, 64))
    assert dict(shrunk.outs) == {1: 64, 0: 2}
    values = {_apply(shrunk, {"register": r, "lane": lane, "warp": w})
              for r, lane, w in itertools.product(range(2), range(32), range(4))}
    assert values == {(col, row) for col in range(64) for row in range(2)}
    dropped = identity(4, "register", 0).shrink((2,))
    assert _sizes(dropped)["register"] == 2  # register bases beyond the shape are dropped


def test_layout_names_our_axes():
    L = (identity(2, "register", 1) * identity(32, "lane", 1) * identity(4, "warp", 0)).grow((4, 64))
    assert L.layout((4, 64)) == tl.parse("S[(4,32,2):(1@warpid,1@laneid,1)]")
    assert identity_nd("lane", (4, 8), (1, 0)).outs == ((1, 8), (0, 4))


def test_cga_layout_splits_and_broadcasts_ctas():
    assert cga_layout((2, 1), (2, 1), (1, 0)).standard(2) == {"block": [[1, 0]]}
    assert cga_layout((4, 1), (2, 1), (1, 0)).standard(2) == {"block": [[1, 0], [0, 0]]}
