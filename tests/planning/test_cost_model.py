"""The cost model (planning/cost_model.py): per-warp units, bar.sync vs __syncwarp, and
decisions that do not depend on how many warps do the same exchange."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.cost_model import (
    BAR_SYNC,
    ROUND_TRIP,
    SYNCWARP,
    shuffle_units,
    staging_units,
)

#: per-warp exchanges, written for one warp: (src, dst, shape, dtype)
ONE_WARP = [
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32"),
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float16"),
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]", (16, 8),
     "float16"),
    ("S[(2,8,8,4,2):(2,4,4@laneid,1@laneid,1)]", "S[(16,2,32):(1@laneid,16@laneid,1)]",
     (16, 64), "float16"),
]


def _four_warps(text: str) -> str:
    extents, strides = text[2:-1].split("):(")
    return f"S[(4,{extents[1:]}):(1@warpid,{strides[:-1]})]"


@pytest.mark.parametrize(("src", "dst", "shape", "dtype"), ONE_WARP)
def test_the_same_exchange_on_every_warp_is_decided_as_on_one(src, dst, shape, dtype):
    one = tl.plan_conversion(src, dst, shape, dtype)
    four = tl.plan_conversion(_four_warps(src), _four_warps(dst), (4 * shape[0], *shape[1:]),
                              dtype)
    assert (one.kind, one.mechanism) == (four.kind, four.mechanism)
    for key in ("shuffle_rounds", "shuffle_instructions", "shuffle_selects", "passes",
                "barriers", "barrier_instruction", "store_instruction", "load_instruction"):
        assert one.costs.get(key) == four.costs.get(key), key
    for key in ("store_requests", "load_requests", "wavefronts", "smem_bytes"):
        if key in one.costs:
            assert four.costs[key] == 4 * one.costs[key], key


def test_a_lane_exchange_waits_with_syncwarp_and_a_warp_exchange_with_bar_sync():
    lanes = tl.plan_conversion(*ONE_WARP[0])
    assert lanes.costs["barrier_instruction"] == "bar.warp.sync"
    assert any("__syncwarp" in s.text for s in lanes.stages)
    warps = tl.plan_conversion("S[(2,32,32):(1@warpid,1@laneid,1)]",
                               "S[(32,2,32):(1,1@warpid,1@laneid)]", (64, 32), "float32")
    assert warps.kind == "shared-memory"
    assert warps.costs["barrier_instruction"] == "bar.sync"


def test_units():
    assert shuffle_units(2, 8) == 6.0
    p = tl.plan_conversion(*ONE_WARP[0])
    s = p._route.staging
    # a shared-memory instruction costs its wavefronts (at least one each)
    n = max(s.store.per_warp + s.load.per_warp, s.wavefronts)
    assert s.wavefronts > s.store.per_warp + s.load.per_warp
    assert staging_units(s, True) == n + SYNCWARP + ROUND_TRIP
    assert staging_units(s, False) == n + BAR_SYNC + ROUND_TRIP


def test_conversions_of_the_source_type_are_counted():
    # a float32 accumulator stored as bfloat16: one cvt.rn.bf16x2.f32 per two values
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma:box=64,64", dtype="bfloat16")
    assert (p.costs["conversions"], p.costs["conversion_instruction"]) == \
        (64 // 2, "cvt.rn.bf16x2.f32")                  # 64 accumulators per thread
    assert p.stages[0].what == "convert"
    same = tl.plan_conversion("preset:mma.m16n8k16.C", "S[(16,8):(1,1@laneid)]")
    assert "conversions" not in same.costs               # float32 planned as float32


def _payload_ops_one_by_one(rnd, warp, sender, receiver, edge, pos, src_slot, dst_slot, epw,
                            rounds, local=frozenset()):
    """The count of :func:`payload_ops` written as its doc reads: a loop over rounds and
    over destination registers (the vectorized count must equal it)."""
    import numpy as np

    def operand_lists(key, name):
        lists: dict[int, list[int]] = {}
        for k_, n_ in sorted(set(zip(key.tolist(), name.tolist(), strict=True))):
            lists.setdefault(k_, []).append(n_)
        longest = max(len(v) for v in lists.values())
        sel = sum(len({v[p] for v in lists.values() if len(v) > p}) - 1 for p in range(longest))
        return longest, sel

    full = np.bincount(edge, minlength=int(edge.max(initial=-1)) + 1)[edge] == epw
    sel = perm = 0
    lane_key = warp * 64 + sender
    for k in range(rounds):
        at = rnd == k
        if not at.any():
            continue
        m, s = operand_lists(lane_key[at], src_slot[at] // epw)
        sel += s
        whole = bool((full[at] & (src_slot[at] % epw == pos[at])).all()) and m == 1
        if not whole:
            perm += max(m - 1, 1)
    reg = dst_slot // epw
    for j in sorted(set(reg.tolist())):
        keys = (warp * 64 + receiver)[reg == j].tolist() + [w * 64 + ln for w, ln, r, _ in local
                                                             if r == j]
        names = rnd[reg == j].tolist() + [-1 - s for *_, r, s in local if r == j]
        m, s = operand_lists(np.array(keys), np.array(names))
        sel += s
        in_place = (full & (dst_slot % epw == pos))[reg == j]
        perm += m - 1 if m > 1 else (0 if in_place.all() else 1)
    return sel, perm


@pytest.mark.parametrize("seed", range(40))
def test_payload_ops_counts_as_its_doc_reads_on_random_rounds(seed):
    import numpy as np

    from tilelayout.planning.cost_model import payload_ops

    rng = np.random.default_rng(seed)
    n, epw = int(rng.integers(1, 200)), int(rng.choice([2, 4]))
    rounds = int(rng.integers(1, 8))
    warp, sender, receiver = (rng.integers(0, hi, n) for hi in (3, 32, 32))
    rnd = rng.integers(0, rounds, n)
    edge = rng.integers(0, max(1, n // epw), n)
    pos = rng.integers(0, epw, n)
    src_slot, dst_slot = rng.integers(0, 4 * epw, n), rng.integers(0, 4 * epw, n)
    local = {(int(w), int(ln), int(r), int(s)) for w, ln, r, s in zip(
        rng.integers(0, 3, 10), rng.integers(0, 32, 10), rng.integers(0, 6, 10),
        rng.integers(0, 3, 10), strict=True)}
    args = (rnd, warp, sender, receiver, edge, pos, src_slot, dst_slot, epw, rounds)
    assert payload_ops(*args, local=local) == _payload_ops_one_by_one(*args, local=local)
