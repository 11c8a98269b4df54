"""The resource model (core/budget.py) and the model's bounds, on the issue's examples."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core import budget


def test_base_never_touches_replicas_and_apply_is_refused_over_the_limit():
    L = tl.parse("S[4] + R[16777216:1@pid]")
    assert L.base(3) == {"m": 3, "pid": 0}
    with pytest.raises(tl.BudgetError) as info:
        L.apply(0)
    err = info.value
    assert (err.name, err.cost, err.limit) == ("replicas", 1 << 24, 1 << 14)
    assert "16,777,216 replica combinations" in str(err) and "16,384" in str(err)


def test_limits_are_raised_by_keyword_and_by_block_and_stay_in_their_thread():
    L = tl.parse("S[4] + R[100000:1@pid]")
    assert len(L.apply(1, limits=tl.Limits(replicas=1 << 17))) == 100000
    seen = []

    def other_thread():
        try:
            L.apply(1)
        except tl.BudgetError:
            seen.append("refused")

    with tl.limits(replicas=1 << 17):
        assert len(L.apply(2)) == 100000
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
    assert seen == ["refused"]  # a raised limit is not global
    with pytest.raises(tl.BudgetError):
        L.apply(0)


def test_huge_replica_counts_are_refused_not_overflowed():
    L = tl.parse(f"S[4] + R[{2 ** 63}:1@pid]")
    assert L.base(0) == {"m": 0, "pid": 0}
    with pytest.raises(tl.BudgetError):
        L.apply(0)
    with pytest.raises(tl.BudgetError):
        tl.explain(L, 0)


@pytest.mark.parametrize("text", ["S[1099511627776:1]", "S[2147483648:1]"])
def test_map_all_is_refused_before_allocating(text):
    with pytest.raises(tl.BudgetError, match="map_all evaluates"):
        tl.parse(text).map_all()


def test_output_bytes_limit():
    L = tl.parse("S[(64,64):(64@laneid,1)]")
    with pytest.raises(tl.BudgetError, match="bytes"), tl.limits(output_bytes=1000):
        L.map_all()
    assert L.map_all(limits=tl.Limits(output_bytes=1 << 20))["m"].shape == (64, 64, 1)


def test_inverse_query_prunes_before_enumerating():
    # the answer is empty and known from value ranges: no 2**28-element range is built
    assert tl.parse("S[(2,134217728)] + 1@laneid").elements_at({"laneid": 7}) == ()
    # a million replica sums, one of which can match: found without listing the others
    assert tl.parse("S[4] + R[1048576:1@pid]").elements_at({"pid": 77}) == ((0,), (1,), (2,), (3,))
    assert tl.count_at(tl.parse("S[4:1] + R[(1024,1024):(1,1)]"), {"m": 1500}) == 4


def test_inverse_query_search_limit():
    L = tl.parse("S[8:1] + R[(1024,1024):(1,1)]")
    with pytest.raises(tl.BudgetError, match="inverse query tries"), tl.limits(search=100):
        L.elements_at({"m": 1500})


def test_inverse_query_beyond_int64_is_a_layout_error():
    with pytest.raises(tl.LayoutOverflowError):
        tl.parse(f"S[4:{2 ** 70}]").elements_at({"m": 2 ** 71})


def test_model_bounds_integers_and_sizes_before_the_digit_limit():
    with pytest.raises(tl.LayoutError, match="2\\*\\*256"):
        tl.parse("S[(" + "128," * 2100 + "1)]")
    with pytest.raises(tl.LayoutError, match="digits"):
        tl.parse("S[4:" + "9" * 5000 + "]")
    with pytest.raises(tl.LayoutError, match="bits"):
        tl.Iter(4, 10 ** 5000)
    with pytest.raises(tl.LayoutError):
        tl.parse("S[4:1]").base(10 ** 5000)
    L = tl.parse(f"S[(2,2):({2 ** 200},{2 ** 200})]")  # big but bounded: exact
    assert str(L) == f"S[(2,2):({2 ** 200},{2 ** 200})]"
    assert L.apply(3)[0]["m"] == 2 ** 201


@pytest.mark.parametrize("params", [(2 ** 70, 0, 0), (2 ** 40, 0, 0), (100, 100, 100)])
def test_swizzle_parameters_are_bounded(params):
    with pytest.raises(tl.SwizzleError, match="at most 256"):
        tl.Swizzle(*params)


def test_wide_swizzle_on_non_negative_int64_stays_vectorized_and_exact():
    sw = tl.Swizzle(20, 30, 40)
    values = np.arange(0, 1 << 62, (1 << 62) // 1000, dtype=np.int64)
    assert sw.apply(values).dtype == np.int64
    assert sw.apply(values).tolist() == [sw.apply(int(v)) for v in values]


@pytest.mark.parametrize("call", [
    lambda: tl.axis(None), lambda: tl.TileLayout(None), lambda: tl.TileLayout([(4, 1)], 5),
    lambda: tl.TileLayout("S[4]"), lambda: tl.Coord(None), lambda: tl.Coord({"m": "1"}),
    lambda: tl.dtype_bits(10 ** 5000), lambda: tl.declare_axis(10 ** 5000),
    lambda: tl.Limits(elements=0), lambda: tl.Limits(seconds="1"),
    lambda: tl.declare_axis("x_scope", scope="thread"),
])
def test_public_constructors_are_type_checked(call):
    with pytest.raises(tl.LayoutError):
        call()


def test_parser_length_limit_and_linear_time_on_long_text():
    long = "S[(" + ",".join(["1"] * 60000) + ")]"  # 120 KB without strides: linear now
    assert tl.parse(long).size() == 1
    with pytest.raises(tl.BudgetError, match="characters"):
        tl.parse(long, limits=tl.Limits(text=1000))


def test_seconds_budget_cuts_long_work_off():
    L = tl.parse("S[4] + R[(1024,1024):(1@pid,1024@pid)]")
    with pytest.raises(tl.BudgetError, match="longer than its budget"), \
            tl.limits(replicas=1 << 21, seconds=0.05):
        L.apply(0)


def test_text_tables_are_bounded_by_the_cells_limit():
    with pytest.raises(tl.BudgetError, match="cells"), tl.limits(cells=100):
        tl.parse("S[(16,16):(16,1)]").table()


def test_axes_in_force_do_not_leak():
    with tl.axes(tl.declare_axis("fuzz_dp", kind="device")):
        assert tl.parse("S[4:1@fuzz_dp]").size() == 4
    assert "fuzz_dp" not in [a.name for a in tl.axes()]
    with pytest.raises(tl.UnknownAxisError):
        tl.parse("S[4:1@fuzz_dp]")


def test_refusal_message_names_cost_limit_and_how_to_raise_it():
    err = budget.refuse("x costs", 10, "elements")
    assert "10 elements" in str(err) and "tl.limits(elements=...)" in str(err)
    assert "--max-elements" in str(err)
