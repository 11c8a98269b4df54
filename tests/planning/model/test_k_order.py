"""``permute_k``: both operands' K order permuted together (planning/model/k_order.py), as
FlashAttention-3 does for its FP8 P operand with row-major V."""

from __future__ import annotations

import json

import numpy as np
import pytest

import tilelayout as tl
from tests.helpers import run
from tests.planning.scenarios.suite import DOT_A_FP8, WGMMA_D
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.plan import plan_view


def test_fp8_d_to_a_stays_in_each_thread():
    p = tl.plan_conversion(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3", permute_k=1)
    plain = tl.plan_conversion(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3")
    assert plain.kind == "warp-shuffle"
    assert (p.kind, p.mechanism) == ("registers", "registers")
    # FA3's order (permute_Cregs_fp8): in each 16-wide k block, pairs of the two 8-wide
    # accumulator column blocks interleave
    block = [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]
    assert list(p.k_order) == [16 * b + k for b in range(4) for k in block]
    assert "order" in p.reason and p.to_dict()["k_order"] == list(p.k_order)
    # no value crosses lanes: bytes are renamed inside each thread's registers (code
    # that keeps four to a word rebuilds 8 words with a prmt)
    assert "shuffle_instructions" not in p.costs and "byte_permutes" not in p.costs
    assert p.costs["register_repacks"] == 8


def test_the_product_is_unchanged_when_the_other_operand_follows():
    rng = np.random.default_rng(1)
    P, V = rng.integers(-4, 5, (64, 64)), rng.integers(-4, 5, (64, 32))
    p = tl.plan_conversion(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3", permute_k=1)
    out = p.execute(P)
    # the A operand by logical coordinate: where the destination layout puts each one
    where = tl.parse(DOT_A_FP8).map_all((64, 64))
    holder = np.stack([np.asarray(where[a]).reshape(-1) for a in p._route.dst.axes], axis=1)
    A = np.array([out[tuple(h)] for h in holder.tolist()]).reshape(64, 64)
    assert (A == P[:, list(p.k_order)]).all()
    assert (A @ V[list(p.k_order)] == P @ V).all()
    assert not (A == P).all()


def test_no_order_when_none_keeps_elements_local():
    rows, cols = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"
    p = tl.plan_conversion(rows, cols, (32, 32), "float32", permute_k=1)
    assert p.k_order is None
    assert p.mechanism == tl.plan_conversion(rows, cols, (32, 32), "float32").mechanism


def test_threads_are_named_alike_on_both_sides():
    # the source's replicas use lanes 4..7, the destination only lanes 0..3: one thread
    # (warp 1, lane 0) must still be one holder on both sides, so the order is found
    a = "S[(2,2,4,2):(1@warpid,2,1@laneid,1)] + R[2:4@laneid]"
    b = "S[(2,2,2,4):(1@warpid,2,1,1@laneid)]"
    p = tl.plan_conversion(a, b, (4, 8), "float32", permute_k=1)
    assert p.kind == "none" and p.k_order == (0, 2, 4, 6, 1, 3, 5, 7)
    assert tl.plan_conversion(a, b, (4, 8), "float32").kind == "warp-shuffle"


def test_the_dimension_must_exist():
    with pytest.raises(tl.LayoutError, match="permute_k"):
        tl.plan_conversion(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3", permute_k=2)


def test_the_command_line_takes_permute_k():
    out = run("plan", "S[(2,4,2):(2,1@laneid,1)]", "S[(2,2,4):(2,1,1@laneid)]", "--shape",
              "2,8", "--dtype", "float32", "--permute-k", "1", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert (got["kind"], got["k_order"]) == ("none", [0, 2, 4, 6, 1, 3, 5, 7])


def test_the_explorer_takes_permute_k():
    req = {"src": "S[(2,4,2):(2,1@laneid,1)]", "dst": "S[(2,2,4):(2,1,1@laneid)]",
           "shape": [2, 8], "dtype": "float32"}
    assert plan_view(req)["k_order"] is None
    r = plan_view({**req, "permute_k": 1})
    assert (r["kind"], r["k_order"]) == ("none", [0, 2, 4, 6, 1, 3, 5, 7])
    with pytest.raises(ApiError, match="permute_k"):
        plan_view({**req, "permute_k": "k"})
    with pytest.raises(ApiError, match="permute_k"):
        plan_view({**req, "permute_k": 5})
