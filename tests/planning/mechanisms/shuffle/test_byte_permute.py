"""Register-only exchanges of packed sub-word values (planning/mechanisms/shuffle/byte_permute.py): whole-
register shuffles plus ``prmt`` byte permutes, checked on the machine model, against
CUDA's ``__byte_perm`` semantics and against FlashAttention-3's FP8 permute."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.conftest import expected
from tests.planning.scenarios.suite import DOT_A_FP8, MMA2, WGMMA_D
from tilelayout.planning.code.cuda_unit import code_counts
from tilelayout.planning.delivery import destination_permutes
from tilelayout.planning.mechanisms.shuffle.byte_permute import plan_byte_permute, prmt, run

LANES = np.arange(32)


def byte_perm(x: int, y: int, s: int) -> int:
    """CUDA ``__byte_perm(x, y, s)`` on 32-bit integers (CUDA Math API, integer
    intrinsics): byte ``i`` of the result is byte ``(s >> 4i) & 7`` of the 64-bit ``y:x``."""
    both = (y << 32) | x
    return sum(((both >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i) for i in range(4))


@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 0x7777))
@settings(max_examples=200, deadline=None)
def test_prmt_is_cuda_byte_perm(x, y, s):
    s = int("".join(c if c in "01234567" else "0" for c in f"{s:04x}"), 16)  # nibbles 0..7
    a = np.array([(x >> (8 * i)) & 0xFF for i in range(4)])
    b = np.array([(y >> (8 * i)) & 0xFF for i in range(4)])
    got = prmt(a, b, s, 8)
    assert sum(int(v) << (8 * i) for i, v in enumerate(got)) == byte_perm(x, y, s)


def test_sixteen_bit_halves_move_as_byte_pairs():
    # selector 0x5410: bytes 0,1 of a and 0,1 of b -> (a.lo, b.lo)
    assert prmt(np.array([10, 11]), np.array([20, 21]), 0x5410, 16).tolist() == [10, 20]
    assert prmt(np.array([10, 11]), np.array([20, 21]), 0x7632, 16).tolist() == [11, 21]


@pytest.mark.parametrize("src,target", [(WGMMA_D[64], "sm_90a"), (MMA2, "sm_89")])
def test_fp8_d_to_a_is_flashattention3s_permute(src, target):
    p = tl.plan_conversion(src, DOT_A_FP8, (64, 64), "e4m3", target=target)
    assert (p.kind, p.mechanism) == ("warp-shuffle", "warp-shuffle")
    c = p.costs
    # FA3 permute_Aregs_fp8 per warp: 8 shfl.sync, 8 selp, 8 prmt; no shared memory
    assert (c["shuffle_instructions"], c["shuffle_selects"], c["byte_permutes"]) == (8, 8, 8)
    assert "smem_bytes" not in c and p.smem is None
    assert p.execute() == expected(p.dst, p.shape)
    # packed 32-bit registers move whole: every lane reads a neighbour in its quad (the
    # transposition's lane bit and the lane permutation touch lane bits 0 and 1 only)
    shuffles = [s for s in p.stages if s.what == "shuffle"]
    assert shuffles and all(s.data.get("lane_bit", 0) < 2 for s in shuffles)
    assert all(list(s.data["lane_perm"])[2:] == [2, 3, 4] for s in shuffles if "lane_perm" in s.data)


def test_values_are_data_not_indices():
    p = tl.plan_conversion(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3")
    values = np.random.default_rng(0).integers(-128, 128, (64, 64))
    out = p.execute(values)
    want = expected(p.dst, p.shape)
    assert all(out[k] == values.reshape(-1)[e] for k, e in want.items())


def test_a_whole_register_from_one_lane_needs_no_permute():
    bp = plan_byte_permute(np.zeros(128, int), np.repeat(LANES ^ 1, 4), np.tile(np.arange(4), 32),
                           np.repeat(LANES, 4), np.tile(np.arange(4), 32), 1, 8)
    assert (bp.shuffles, bp.selects, bp.permutes) == (1, 0, 0)


def test_reordering_bytes_inside_a_lane_is_one_permute_per_register():
    rev = np.tile([3, 2, 1, 0, 7, 6, 5, 4], 32)
    bp = plan_byte_permute(np.zeros(256, int), np.repeat(LANES, 8), rev,
                           np.repeat(LANES, 8), np.tile(np.arange(8), 32), 1, 8)
    assert (bp.shuffles, bp.selects, bp.permutes) == (0, 0, 2)
    regs = np.arange(256).reshape(1, 32, 8)
    out = np.full_like(regs, -1)
    got = np.zeros(regs.shape, bool)
    run(bp, regs, np.ones(regs.shape, bool), out, got)
    assert got.all() and (out == regs[:, :, [3, 2, 1, 0, 7, 6, 5, 4]]).all()


def test_wider_values_are_not_byte_permuted():
    assert plan_byte_permute(np.zeros(32, int), LANES ^ 1, np.zeros(32, int), LANES,
                             np.zeros(32, int), 1, 32) is None


def test_a_limit_below_the_lower_bound_skips_the_search():
    # a one-warp transpose of 8-bit values: every lane needs a register from 31 lanes
    rows, cols = tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]")
    r, c = rows.map_all((32, 32)), cols.map_all((32, 32))
    e = np.arange(1024)
    args = (np.zeros(1024, int), np.asarray(r["laneid"]).reshape(-1)[e],
            np.asarray(r["m"]).reshape(-1)[e], np.asarray(c["laneid"]).reshape(-1)[e],
            np.asarray(c["m"]).reshape(-1)[e], 1, 8)
    assert plan_byte_permute(*args, limit=10) is None
    assert plan_byte_permute(*args).shuffles >= 31


@st.composite
def lane_exchange(draw, n: int = 8):
    """Two layouts of one warp's tile of ``2 ** n`` 8- or 16-bit values (16 x 16 by
    default): lanes and register slots drawn from the tile's bits in random orders."""
    bits = [1 << i for i in range(n)]
    out = []
    for _ in range(2):
        order = draw(st.permutations(range(n)))
        lane_bits = sorted(draw(st.permutations(order))[:5])
        strides, lane_stride, slot_stride = [], {}, 1
        for i, b in enumerate(lane_bits):
            lane_stride[b] = 1 << i
        for b in order:
            if b in lane_stride:
                strides.append(f"{lane_stride[b]}@laneid")
            else:
                strides.append(str(slot_stride))
                slot_stride *= 2
        # dims from the most significant bit of the flat index down
        by_bit = dict(zip(order, strides, strict=True))
        text = "S[(" + ",".join("2" for _ in bits) + "):(" + ",".join(
            by_bit[b] for b in reversed(range(n))) + ")]"
        out.append(text)
    return out[0], out[1], draw(st.sampled_from(["e4m3", "float16", "int8"]))


@given(lane_exchange())
@settings(max_examples=25, deadline=None)
def test_random_sub_word_lane_exchanges_deliver(case):
    src, dst, dtype = case
    p = tl.plan_conversion(src, dst, (256,), dtype)
    assert p.execute() == expected(p.dst, p.shape)
    a, b = tl.parse(src).map_all((256,)), tl.parse(dst).map_all((256,))
    # the byte permute itself, forced, delivers too
    e = np.arange(256)
    bp = plan_byte_permute(np.zeros(256, int), np.asarray(a["laneid"]).reshape(-1),
                           np.asarray(a["m"]).reshape(-1), np.asarray(b["laneid"]).reshape(-1),
                           np.asarray(b["m"]).reshape(-1), 1, 8 if dtype != "float16" else 16)
    regs = np.full((1, 32, 8), -1)
    regs[0, np.asarray(a["laneid"]).reshape(-1), np.asarray(a["m"]).reshape(-1)] = e
    out = np.full_like(regs, -1)
    got = np.zeros(regs.shape, bool)
    run(bp, regs, regs >= 0, out, got)
    lanes, slots = np.asarray(b["laneid"]).reshape(-1), np.asarray(b["m"]).reshape(-1)
    assert got[0, lanes, slots].all() and (out[0, lanes, slots] == e).all()


@given(st.integers(6, 8).flatmap(lambda n: lane_exchange(n).map(lambda c: (*c, n))))
@settings(max_examples=40, deadline=None)
def test_the_unpacked_count_is_what_the_unpacked_code_leaves(case):
    # loose_permutes (how lane_exchange compares an unpacked destination) is the count
    # the code's own program leaves (what delivery claims): never a guess of it
    src, dst, dtype, n = case
    p = tl.plan_conversion(src, dst, (1 << n,), dtype)
    bp = getattr(p._route, "byte_permute", None) if p._bits is None else None
    if bp is not None:
        assert destination_permutes(p) == bp.permutes - bp.loose_permutes
        assert bp.loose_units <= bp.units
    q = tl.plan_conversion(src, dst, (1 << n,), dtype, dst_packing="unpacked")
    assert q.execute() == expected(q.dst, q.shape)
    if getattr(q._route, "byte_permute", None) is not None and q._bits is None:
        # ... and the unpacked plan claims what its code writes
        assert code_counts(q).get("prmt", 0) == q.costs["byte_permutes"]


@pytest.mark.parametrize("warps", [1, 2, 8])
def test_fp8_permute_does_not_depend_on_the_number_of_warps(warps):
    src, dst = (t.replace("(4,", f"({warps},", 1) for t in (WGMMA_D[64], DOT_A_FP8))
    p = tl.plan_conversion(src, dst, (16 * warps, 64), "e4m3")
    c = p.costs
    assert p.mechanism == "warp-shuffle"
    assert (c["shuffle_instructions"], c["shuffle_selects"], c["byte_permutes"]) == (8, 8, 8)
    assert c["smem_cost_units"] == 19.0  # 16 wavefronts per warp, a __syncwarp, a round trip
    assert p.execute() == expected(p.dst, p.shape)


def test_packed_payloads_carry_a_lanes_own_values_as_triton_does():
    # mma C (fp16) -> B: Triton 3.9 emits 2 shfl.sync.idx + 4 prmt.b32 (its PTX); so does
    # the plan, once lanes read the half they keep through a shuffle of their own
    C, B = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]"
    p = tl.plan_conversion(C, B, (16, 8), "float16")
    c = p.costs
    assert (c["shuffle_instructions"], c["shuffle_selects"], c["byte_permutes"]) == (2, 0, 4)
    # packed pairs: two registers of two halves each, read through shfl.sync.idx
    assert sum(s.what == "shuffle" for s in p.stages) == 2
    assert p.execute() == expected(p.dst, p.shape)


def test_round_k_carries_the_kth_destination_value_in_every_lane():
    # 8-bit pairs across lanes: round k fills destination byte k in every lane, so a
    # destination holding its values one to a register shifts each out of the register
    # it arrived in (docs/data-movement.md, *Destination packing*)
    a = tl.parse("S[(32,2):(1@laneid,1)]").map_all((64,))
    b = tl.parse("S[(2,32):(1,1@laneid)]").map_all((64,))
    flat = [np.asarray(m[k]).reshape(-1) for m, k in ((a, "laneid"), (a, "m"),
                                                        (b, "laneid"), (b, "m"))]
    bp = plan_byte_permute(np.zeros(64, int), *flat, 1, 8)
    assert (bp.shuffles, bp.selects, bp.permutes) == (2, 0, 1)
    for lane in range(32):
        where, names = bp.where[0][0, lane], bp.names[0][0, lane]
        assert [int(names[where[i, 0]]) for i in range(2)] == [bp.words, bp.words + 1]
    regs = np.full((1, 32, 4), -1)
    regs[0, flat[0], flat[1]] = np.arange(64)
    out, got = np.full_like(regs, -1), np.zeros(regs.shape, bool)
    run(bp, regs, regs >= 0, out, got)
    assert (out[0, flat[2], flat[3]] == np.arange(64)).all()
