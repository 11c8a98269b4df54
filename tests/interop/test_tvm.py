"""TVM TIRx objects: differential test on random layouts (TIRx's own apply against ours),
and round trips through to_tvm / from_tvm."""

from __future__ import annotations

import math
import random

import pytest

import tilelayout as tl
from tilelayout.interop import InteropError
from tilelayout.interop.tvm import from_tvm, to_tvm

T = pytest.importorskip("tvm_tirx.tirx.layout", reason="TVM TIRx is the optional 'tvm' extra")

AXES = ["m", "laneid", "warpid", "TLane", "TCol", "P", "F", "pid"]


def _random_layout(rng: random.Random) -> tl.TileLayout | tl.ComposeLayout:
    def it():
        return tl.Iter(rng.choice([1, 2, 3, 4, 5, 8, 7]), rng.choice([-3, -1, 0, 1, 2, 4, 6, 16]),
                       rng.choice(AXES))
    shard = [it() for _ in range(rng.randint(1, 4))]
    replica = [it() for _ in range(rng.randint(0, 2))]
    offset = {rng.choice(AXES): rng.randint(-5, 9) for _ in range(rng.randint(0, 2))}
    tile = tl.TileLayout(shard, replica, offset)
    if rng.random() < 0.25:
        tile = tl.TileLayout([tl.Iter(8, 64), tl.Iter(rng.choice([64, 32]), 1)], replica=[],
                             offset={})
        return tl.ComposeLayout(tl.Swizzle(rng.randint(0, 3), rng.randint(0, 3), 3), tile)
    return tile


def test_tirx_apply_agrees_with_ours_on_random_layouts():
    rng = random.Random(11)
    checked = 0
    for _ in range(120):
        ours = _random_layout(rng)
        theirs = to_tvm(ours)
        assert from_tvm(theirs) == ours
        size = ours.size()
        for flat in rng.sample(range(size), min(size, 12)):
            want = ours.base(flat)
            got = {str(k): int(v) for k, v in theirs.apply(flat).items()}
            for axis in set(want) | set(got):
                assert got.get(axis, 0) == want.get(axis, 0), (str(ours), flat, got, dict(want))
            checked += 1
        # and over a reshaped logical shape (the flatten / split step)
        if size % 2 == 0 and size > 2:
            shape = (2, size // 2)
            idx = (1, rng.randrange(size // 2))
            got = {str(k): int(v) for k, v in theirs.apply(*idx, shape=list(shape)).items()}
            want = ours.base(idx, shape=shape)
            assert all(got.get(a, 0) == want.get(a, 0) for a in set(want) | set(got))
    assert checked > 500


def test_reference_tile_converts_exactly():
    text = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
    theirs = to_tvm(tl.parse(text))
    assert {str(k): int(v) for k, v in theirs.apply(7, 15, shape=[8, 16]).items()} == {
        "laneid": 31, "warpid": 6, "m": 1}
    assert str(from_tvm(theirs)) == text
    built = T.TileLayout.from_iters([T.Iter(2, 112, "TCol"), T.Iter(128, 1, "TLane"),
                                     T.Iter(112, 1, "TCol")])
    assert str(from_tvm(built)) == "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"
    assert math.prod(from_tvm(built).default_shape) == 2 * 128 * 112


def test_swizzle_inner_false_is_an_xor_swizzle():
    """TIRx's 'lower group into higher group' swizzle: TIRx's own apply at every element
    equals ours; it round-trips as swizzle_inner=False."""
    tile = tl.parse("S[(8,64):(64,1)]")
    for m, b, s in ((3, 3, 3), (0, 2, 3), (1, 1, 4), (2, 3, 3)):
        theirs = T.ComposeLayout(m, b, s, to_tvm(tile), swizzle_inner=False)
        ours = from_tvm(theirs)
        assert isinstance(ours.swizzle, tl.XorSwizzle) and tl.Swizzle.from_xor(ours.swizzle) is None
        addresses = ours.map_all()["m"][..., 0]
        for flat in range(512):
            assert int(theirs.apply(flat)["m"]) == addresses.reshape(-1)[flat], (m, b, s, flat)
        again = to_tvm(ours)
        assert not bool(again.swizzle_inner) and from_tvm(again) == ours
    with pytest.raises(InteropError, match="not a TIRx swizzle"):
        to_tvm(tl.ComposeLayout(tl.XorSwizzle(2, 1), tl.parse("S[4:1]")))


def test_refusals():
    strange = T.TileLayout.from_iters([T.Iter(4, 1, "not_an_axis_here")])
    with pytest.raises(InteropError, match="declare it first"):
        from_tvm(strange)
    with pytest.raises(InteropError, match="expected a tvm_tirx"):
        from_tvm(object())


@pytest.mark.parametrize("text", [
    "ComposeLayout(Swizzle(1,2,3), S[(4,64):(1@laneid,1)])",
    "ComposeLayout(Swizzle(1,2,3), S[(4,64):(64,1)] + 3@laneid)",
])
def test_swizzle_over_a_tile_with_other_axes_is_refused(text):
    # TIRx's ComposeLayout applies only to a tile on 'm': exporting this would build an
    # object TIRx cannot apply, so the conversion refuses it up front.
    with pytest.raises(InteropError, match="maps only to 'm'"):
        to_tvm(tl.parse(text))
    swizzled_memory = tl.parse("ComposeLayout(Swizzle(1,2,3), S[(4,64):(64,1)] + R[2:512] + 5)")
    theirs = to_tvm(swizzled_memory)
    for flat in range(256):
        assert int(theirs.apply(flat)["m"]) == swizzled_memory.base(flat)["m"]
