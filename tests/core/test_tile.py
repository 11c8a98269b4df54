"""TileLayout: construction from iters, structure, value semantics, shapes."""

import copy
import pickle

import pytest

import tilelayout as tl
from tilelayout.core.budget import MAX_INT_BITS
from tilelayout.core.errors import LayoutError
from tilelayout.core.iter import Iter
from tilelayout.core.tile import TileLayout
from tilelayout.eval.compiled import PLANS


def test_built_from_iters_or_tuples_alike():
    a = TileLayout([Iter(8, 4, "laneid"), Iter(4, 1, "laneid")], [(2, 1, "pid")], {"m": 3})
    b = TileLayout([(8, 4, "laneid"), [4, 1, "laneid"]], [Iter(2, 1, "pid")], 3)
    assert a == b and hash(a) == hash(b)
    assert a == tl.parse("S[(8,4):(4@laneid,1@laneid)] + R[2:1@pid] + 3")


def test_structure_reads_back():
    L = tl.parse("S[(8,2):(4@laneid,1)] + R[2:1@pid] + 5@warpid")
    assert L.shard == (Iter(8, 4, "laneid"), Iter(2, 1, "m"))
    assert L.replica == (Iter(2, 1, "pid"),)
    assert dict(L.offset) == {"warpid": 5}
    assert L.axes == ("laneid", "m", "pid", "warpid")
    assert (L.size(), L.size("laneid"), L.size("pid"), L.replica_count) == (16, 8, 1, 2)
    assert L.default_shape == (8, 2)


def test_offset_is_read_only_and_terms_on_one_axis_add_up():
    L = TileLayout([(4, 1)], [], {"m": 2})
    with pytest.raises(TypeError):
        L.offset["m"] = 7  # type: ignore[index]
    assert dict(L.offset) == {"m": 2}
    assert TileLayout([(4, 1)], [], {"pid": 0}).axes == ("m", "pid")


def test_equality_ignores_offset_order_but_not_replica_order():
    a = tl.parse("S[8:1] + 1@pid + 2@warpid")
    b = tl.parse("S[8:1] + 2@warpid + 1@pid")
    assert a == b and hash(a) == hash(b) and a.axes != b.axes
    r1 = tl.parse("S[4:1] + R[(2,2):(1@pid,2@pid)]")
    r2 = tl.parse("S[4:1] + R[(2,2):(2@pid,1@pid)]")
    assert r1 != r2
    assert (a == "S[8:1]") is False


def test_shapes_admitted_and_refused():
    L = tl.parse("S[(8,16):(16,1)]")
    assert L.check_shape(None) == (8, 16) and L.check_shape(128) == (128,)
    assert L.admits((4, 32)) and not L.admits((3, 3))
    with pytest.raises(LayoutError):
        L.check_shape((3, 3))


def test_replace_keeps_what_is_not_given():
    L = tl.parse("S[4:1] + R[2:1@pid] + 2@warpid")
    assert L.replace(offset={"warpid": 5}) == tl.parse("S[4:1] + R[2:1@pid] + 5@warpid")
    assert L.replace(replica=[]) == tl.parse("S[4:1] + 2@warpid")
    assert L.replace(shard=[(8, 2)]).shard == (Iter(8, 2),)


def test_copies_and_pickles_are_equal_values():
    L = tl.parse("S[(8,4):(4@laneid,1@laneid)] + R[2:1@pid] + 3")
    for other in (copy.copy(L), copy.deepcopy(L), pickle.loads(pickle.dumps(L))):
        assert other == L and other.axes == L.axes and other.apply(5) == L.apply(5)


def test_immutable():
    L = tl.parse("S[4:1]")
    with pytest.raises(AttributeError):
        L.extra = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", ["S", 5, [(0, 1)], [(4, 1.5)], [(4, 1, "not an axis")]])
def test_bad_shards_are_layout_errors(bad):
    with pytest.raises(LayoutError):
        TileLayout(bad)


def test_values_beyond_the_integer_bound_are_refused():
    bits = MAX_INT_BITS
    TileLayout([(2, 1 << (bits - 2))])  # just inside
    with pytest.raises(LayoutError, match="values on axis 'm'"):
        TileLayout([(2, 1 << (bits - 2))] * 4)
    with pytest.raises(LayoutError, match="element count"):
        TileLayout([(1 << (bits // 2), 0), (1 << (bits // 2), 0)])


def test_tile_method_is_tl_tile():
    inner, outer = tl.parse("S[2:1]"), tl.parse("S[3:1]")
    assert inner.tile(outer, (3,), (2,)) == tl.tile(inner, outer, (3,), (2,)) == tl.parse("S[6:1]")


def test_the_fast_constructor_sets_every_field_the_full_one_does():
    fast = TileLayout.of_shard((Iter(4, 8, "laneid"), Iter(8, 1)))
    full = TileLayout([(4, 8, "laneid"), (8, 1)])
    assert fast == full and hash(fast) == hash(full) and fast.axes == full.axes
    slots = [s for s in TileLayout.__slots__ if s != "__weakref__"]
    assert all(hasattr(fast, s) for s in slots)  # _ref too: the hot path's plan key
    assert fast._ref() is fast and fast.base(9) == full.base(9)
    assert fast._ref in PLANS  # found by its key, not through the general path
