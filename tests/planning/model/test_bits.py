"""Register layouts as bit maps: the map agrees with the layout's own evaluation, and
the exchange level read off bits is the one the element-by-element router finds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.mechanisms.staging.test_instructions import linear_pair
from tilelayout.planning.model.bits import ThreadBits, exchange_level, thread_bits
from tilelayout.planning.model.placement import LEVELS, place
from tilelayout.planning.model.routing import route_between

PRESETS = [("mma.m16n8k16.C", {}), ("mma.m16n8k16.A", {"dtype": "float16"}),
           ("wgmma.m64nNk16.D", {"n": 64}),
           ("triton.blocked", {"size_per_thread": (1, 4), "threads_per_warp": (8, 4),
                               "warps_per_cta": (2, 2), "order": (1, 0), "shape": (64, 64)}),
           ("triton.nvmma_distributed", {"version": 3, "warps_per_cta": (4, 1),
                                         "shape": (64, 128)})]


@pytest.mark.parametrize("name,params", PRESETS)
def test_the_bit_map_is_the_layout(name, params):
    """Every (slot, lane, warp) holds the element map_all puts there."""
    p = tl.presets.get(name, **params)
    tb = thread_bits(p.layout, p.shape)
    assert tb is not None
    coords = p.layout.map_all(p.shape)
    n = int(np.prod(p.shape))
    tid = sum(coords.get(a, 0) * k for a, k in (("laneid", 1), ("tid_in_wg", 1), ("warpid", 32),
                                                 ("wid_in_wg", 32), ("wgid", 128)))
    tid = np.broadcast_to(tid, coords["m"].shape).reshape(n, -1)
    slot = coords["m"].reshape(n, -1)
    for e in range(0, n, max(1, n // 97)):
        for r in range(slot.shape[1]):
            t = int(tid[e, r])
            assert tb.element(int(slot[e, r]), t % 32, t // 32) == e


@pytest.mark.parametrize("text,shape", [
    ("S[(4,32):(1@warpid,1@laneid)] + 1@warpid", (4, 32)),   # an offset
    ("S[(3,32):(1@warpid,1@laneid)]", (3, 32)),               # not a power of two
    ("S[(2,32):(1@bx,1@laneid)]", (2, 32)),                   # a CTA axis
    ("S[(2,16):(1@warpid,1@laneid)]", (2, 16)),               # idle lanes in 2 warps
    ("S[(8,8):(8,1)]", (8, 8)),                               # a shared-memory tile
])
def test_what_is_not_a_bit_map(text, shape):
    assert thread_bits(tl.parse(text), shape) is None


@settings(max_examples=60, deadline=None)
@given(linear_pair())
def test_the_level_is_the_routers(p):
    src, dst, n = p
    a, b = tl.parse(src), tl.parse(dst)
    shape = (1 << n,)
    level = exchange_level(thread_bits(a, shape), thread_bits(b, shape))
    route = route_between(*place(a, b, shape), 32)
    assert level == LEVELS[int(route.level.max())]


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(7)), st.integers(0, 2), st.booleans())
def test_the_level_of_register_shuffles_and_broadcasts(perm, broadcast, swap):
    """Registers only reordered -> registers; a broadcast register -> registers; lanes
    swapped with registers -> warp-shuffle; identical maps -> none."""
    vec = [1 << b for b in perm]
    src = ThreadBits(tuple(vec[:2]), tuple(vec[2:7]), (), 7)
    assert exchange_level(src, src) == "none"
    regs = tuple(reversed(vec[:2])) + (0,) * broadcast
    assert exchange_level(src, ThreadBits(regs, src.lane, (), 7)) == "registers"
    if swap:
        dst = ThreadBits((vec[2], vec[1]), (vec[0],) + tuple(vec[3:7]), (), 7)
        assert exchange_level(src, dst) == "warp-shuffle"


def test_different_thread_counts_are_not_compared():
    a = ThreadBits((1,), (2, 4, 8, 16, 32), (64,), 7)
    b = ThreadBits((1, 64), (2, 4, 8, 16, 32), (), 7)
    assert exchange_level(a, b) is None
