"""Our wavefront counts next to Triton's own counter (Gluon's ttgl.bank_conflicts)."""

import pytest

import tilelayout as tl

pytest.importorskip("triton.experimental.gluon")

from tilelayout.interop.triton_banks import (  # noqa: E402 (after the Triton check)
    TRITON_DTYPES,
    compare_bank_conflicts,
    gluon_bank_conflicts,
)

ROWS = tl.parse("S[(32,8,8):(1@laneid,8,1)]")       # lane l: row l, eight 16-byte vectors
ROW_MAJOR = tl.parse("S[(32,64):(64,1)]")


def test_an_unswizzled_row_per_lane_conflicts_seven_times_over():
    assert gluon_bank_conflicts(ROWS, ROW_MAJOR, (32, 64), "float16") == 7


def test_the_128b_swizzle_removes_the_conflict_and_both_counts_agree():
    swizzled = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), ROW_MAJOR)
    r = compare_bank_conflicts(ROWS, swizzled, (32, 64), "float16")
    assert r["triton"] == 0 and r["ours"] == 0 and r["agree"]
    plain = compare_bank_conflicts(ROWS, ROW_MAJOR, (32, 64), "float16")
    assert plain["agree"] and plain["wavefronts"] == 8 * plain["ideal"]


def test_every_listed_dtype_names_a_gluon_type():
    from triton.experimental.gluon import language as ttgl

    assert all(hasattr(ttgl, name) for name in TRITON_DTYPES.values())
