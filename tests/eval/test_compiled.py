"""The compiled scalar plans behind apply / base keep every documented behaviour:
N-D and flat indices, numpy integers and arrays, lists, refusals, exact big integers,
many replicas, swizzles on negative addresses, per-object axis order, pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core.operations import LayoutKey
from tilelayout.eval import compiled
from tilelayout.eval.compiled import plan_for

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_index_spellings_agree():
    L = tl.parse(REF)
    want = L.apply((7, 15), (8, 16))
    for index in [(7, 15), [7, 15], 127, np.int64(127), np.array([7, 15]),
                  (np.int32(7), np.int64(15)), np.array(127)]:
        assert L.apply(index, (8, 16)) == want
    assert L.base(127, [8, 16]) == L.base((7, 15), np.array([8, 16])) == want[0]
    assert [c["warpid"] for c in want] == [6, 10]


@pytest.mark.parametrize("index", [(8, 0), (0, 16), (-1, 0), 128, -1, (1, 2, 3), (1,), True,
                                   (True, 1), "7,1", (1.0, 2), None])
def test_bad_indices_are_refused_with_one_line_errors(index):
    L = tl.parse(REF)
    with pytest.raises(tl.LayoutError) as err:
        L.apply(index, (8, 16))
    assert "\n" not in str(err.value)
    with pytest.raises(tl.LayoutError):
        L.base(index, (8, 16))


def test_bad_shapes_are_refused():
    L = tl.parse(REF)
    for shape in [(8, 15), (8, "16"), (0, 128), "8,15", "8,x", ([8], 16)]:
        with pytest.raises(tl.LayoutError):
            L.base(0, shape)


def test_a_shape_as_text_is_read_as_the_ints():
    L = tl.parse(REF)
    assert L.base(5, "8,16") == L.base(5, (8, 16))


def test_exact_python_ints_beyond_int64():
    L = tl.parse(f"S[(4,3):({2**70},-{2**65})] + {2**80}")
    assert L.base((3, 2)) == {"m": 3 * 2**70 - 2 * 2**65 + 2**80}
    assert isinstance(L.base(5)["m"], int)


def test_many_replicas_use_the_loop_and_keep_order_and_dedup():
    L = tl.parse("S[4:1] + R[(9,4,2):(1@pid,0@pid,16@pid)] + 3@pid")
    got = L.apply(2)
    # row-major replica order (the stride-0 iter only repeats), duplicates removed
    order = [3 + a + 16 * c for a in range(9) for c in range(2)]
    assert [c["pid"] for c in got] == order and len(got) == 18
    assert all(c["m"] == 2 for c in got)
    assert "for d0, d1 in _deltas" in plan_for(L, None).source


def test_plans_keep_apply_only_for_few_replicas():
    few = tl.parse("S[4:1] + R[1024:1@pid]")
    many = tl.parse("S[4:1] + R[1025:1@pid]")
    with tl.limits(replicas=1 << 12):
        assert few.apply(1)[-1] == {"m": 1, "pid": 1023}
        assert many.apply(1)[-1] == {"m": 1, "pid": 1024} == many.apply(1)[-1]
    assert "_deltas" in plan_for(few, None).source
    assert "_deltas" not in plan_for(many, None).source  # rebuilt per call: bounded memory


def test_swizzle_on_negative_addresses_matches_swizzle_apply():
    sw = tl.Swizzle(3, 3, 3)
    L = tl.ComposeLayout(sw, tl.parse("S[(8,64):(-64,1)] + R[3:-512] + -100"))
    for flat in range(0, 512, 7):
        i, j = divmod(flat, 64)
        lin = [-64 * i + j - 100 - 512 * r for r in range(3)]
        assert [c["m"] for c in L.apply(flat)] == [sw.apply(v) for v in lin]


def test_each_equal_layout_keeps_its_own_axis_order():
    a = tl.TileLayout([(4, 1)], offset={"pid": 1, "warpid": 2})
    b = tl.TileLayout([(4, 1)], offset={"warpid": 2, "pid": 1})
    assert a == b
    assert list(a.base(1)) == ["m", "pid", "warpid"]
    assert list(b.base(1)) == ["m", "warpid", "pid"]


def test_layouts_hold_no_plans_the_cache_is_keyed_by_value():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)] + R[2:1@pid]"))
    L.apply(5)
    frozen = (int, str, tuple, tl.TileLayout, tl.Swizzle, tl.XorSwizzle, LayoutKey)
    for layout in (L, L.tile_layout):  # every slot holds immutable data only
        slots = [s for c in type(layout).__mro__ for s in getattr(c, "__slots__", ())
                 if s != "__weakref__"]
        assert slots and all(isinstance(getattr(layout, s), frozen) for s in slots), slots
        assert layout._ref() is layout  # the plan key: a weak reference to itself
    M = pickle.loads(pickle.dumps(L))
    assert M == L and M.apply(5) == L.apply(5)
    assert compiled.plan_for(M, None) is compiled.plan_for(L, None)  # equal values share
    # the per-object plans share the compiled functions and name their own layout
    pm, pl = compiled.plan_entry(M, None).plan, compiled.plan_entry(L, None).plan
    assert pm.layout is M and pl.layout is L and pm.base is pl.base


def test_a_layout_s_plan_follows_its_own_axis_order_and_dies_with_it():
    a = tl.parse("S[8:1] + 1@pid + 2@warpid")
    b = tl.parse("S[8:1] + 2@warpid + 1@pid")  # equal to a, other coordinate order
    assert list(a.base(3)) == ["m", "pid", "warpid"] and list(b.base(3)) == ["m", "warpid", "pid"]
    assert list(a.apply(3)[0]) == ["m", "pid", "warpid"]
    assert list(b.apply(3)[0]) == ["m", "warpid", "pid"]
    # many layouts: the per-object cache stays bounded, old layouts are released
    for k in range(2 * compiled.PLAN_CACHE_SIZE):
        last = tl.parse(f"S[(4,4):(4,{k + 1})]")
        last.base(0)
    assert len(compiled.PLANS) <= compiled.PLAN_CACHE_SIZE
    assert last._ref in compiled.PLANS and a._ref not in compiled.PLANS  # the oldest dropped
    assert list(a.base(3)) == ["m", "pid", "warpid"]  # and made again when asked
    # many shapes of one layout: bounded per layout too
    L = tl.parse("S[(4,4):(4,1)]")
    for k in range(2 * compiled.SHAPES_PER_LAYOUT):
        assert L.base(5, (1,) * k + (16,)) == {"m": 5}
    assert len(compiled.PLANS[L._ref]) <= compiled.SHAPES_PER_LAYOUT
    assert L.base(5, [1, 16]) == {"m": 5}  # a list shape: answered, not kept
    assert all(type(s) is tuple for s in compiled.PLANS[L._ref])


def test_shapes_are_cached_per_spelling_and_bounded():
    L = tl.parse("S[(4,4):(4,1)]")
    assert L.base((1, 2), (2, 8)) == L.base((1, 2), [2, 8]) == {"m": 10}
    for k in range(2 * compiled.PLAN_CACHE_SIZE):
        tl.parse(f"S[(4,4):(4,{k + 1})]").base(0)
    info = compiled.cached_plan.cache_info()
    assert info.maxsize == compiled.PLAN_CACHE_SIZE and info.currsize <= info.maxsize


def test_coordinates_hash_and_compare_like_before():
    L = tl.parse(REF)
    c = L.base(127)
    assert c == {"laneid": 31, "warpid": 6, "m": 1} and hash(c) == hash(tl.Coord(dict(c)))
    assert len({L.base(5), L.base((0, 5), (8, 16)), tl.Coord(dict(L.base(5)))}) == 1


def test_a_float_shape_never_finds_the_plan_of_its_int_twin():
    # (8.0, 16) == (8, 16) as a key: after a call with the int shape, the float one is
    # still refused, through base, apply and the value-keyed plan_for alike
    L = tl.parse("S[(8,16):(16,1)]")
    assert L.base(0, (8, 16)) == {"m": 0} and L.apply(0, (8, 16))
    for call in (lambda: L.base(0, (8.0, 16)), lambda: L.apply(0, (8.0, 16)),
                 lambda: plan_for(L, (8.0, 16)), lambda: L.base(0, (True, 128))):
        with pytest.raises(tl.ShapeError, match="shape entries must be integers"):
            call()


def test_plans_are_frozen_values_and_check_the_replica_limit_per_call():
    L = tl.parse("S[4:1] + R[8:1@pid]")
    plan = plan_for(L, None)
    with pytest.raises(AttributeError):
        plan.apply = plan.base  # type: ignore[misc]
    assert "def _apply" in plan.source and plan.replica_cost == 8
    assert len(L.apply(1)) == 8
    with tl.limits(replicas=4), pytest.raises(tl.BudgetError, match="replica"):
        L.apply(1)  # the same kept plan, refused under the tighter limit
    with pytest.raises(tl.BudgetError, match="replica"):
        L.apply(1, limits=tl.Limits(replicas=4))
    assert plan_for(L, None) is plan and len(L.apply(2)) == 8


def test_each_function_is_answered_step_by_step_once_then_compiled():
    L = tl.parse("S[(4,8):(8@laneid,1)] + R[2:1@warpid] + 7")
    plan = compiled.plan_for(L, None)
    assert not plan.base.compiled and not plan.apply.compiled
    two = ({"laneid": 8, "m": 8, "warpid": 0}, {"laneid": 8, "m": 8, "warpid": 1})
    assert L.base(9) == two[0] and not plan.base.compiled  # the first call compiles nothing
    assert L.base(9) == two[0] and plan.base.compiled  # the second compiles base ...
    assert not plan.apply.compiled  # ... and not apply
    assert L.apply(9) == two and not plan.apply.compiled
    assert L.apply(9) == two and plan.apply.compiled
    # the per-object entry calls the compiled functions themselves from then on
    assert L.base(9) == two[0] and L.apply(9) == two
    entry = compiled.PLANS[L._ref][None]
    assert entry.base is plan.base.function() and entry.apply is plan.apply.function()
