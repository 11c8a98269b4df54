"""How two plans compare (planning/ranking.py): wavefronts, then shared-memory bytes,
then instructions per warp, each mechanism's instructions counted as it issues them."""

from __future__ import annotations

import tilelayout as tl
from tilelayout.planning.ranking import plan_key


def test_a_staging_counts_requests_per_warp_barriers_and_permutes():
    p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                           "float32")
    c = p.costs
    assert p.mechanism == "shared-memory"
    assert plan_key(p) == (c["wavefronts"], c["smem_bytes"],
                           c["store_requests"] + c["load_requests"] + c["barriers"]
                           + c.get("byte_permutes", 0))


def test_a_shuffle_counts_shuffles_selects_permutes_and_packs():
    p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,), "int8")
    c = p.costs
    assert p.mechanism == "warp-shuffle"
    assert plan_key(p) == (0, 0, c["shuffle_instructions"] + c.get("shuffle_selects", 0)
                           + c["byte_permutes"] + c.get("shuffle_packs", 0)) == (0, 0, 3)


def test_moves_inside_registers_cost_their_selects_and_permutes_only():
    # a renaming of register slots: no selects, no byte permutes a warp must issue
    p = tl.plan_conversion("S[(2,2,32):(2,1,1@laneid)]", "S[(2,2,32):(1,2,1@laneid)]",
                           (128,), "int8")
    assert p.mechanism == "registers" and plan_key(p) == (0, 0, 0)


def test_wavefronts_rank_before_bytes_and_bytes_before_instructions():
    staged = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                                (32, 32), "float32")
    shuffled = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,),
                                  "int8")
    assert plan_key(shuffled) < plan_key(staged)  # no shared memory beats any
    assert plan_key(shuffled)[2] < plan_key(staged)[2]
