"""plan_conversion on the hardware pairs engineers meet, every plan executed on the
numpy machine model with each element carrying its own flat index."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout import presets

from .conftest import expected

TRANSPOSE = ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")
# two m16n8 accumulators side by side, the second n-tile in registers 4..7
C_16x16 = "S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]"


def run(src, dst, shape, dtype):
    p = tl.plan_conversion(src, dst, shape, dtype)
    assert p.execute() == expected(p.dst, p.shape)
    return p


def test_mma_accumulator_to_next_mma_A_stays_in_registers():
    A = presets.get("mma.m16n8k16.A", dtype="float16").layout
    p = run(C_16x16, A, (16, 16), "float16")
    assert (p.kind, p.mechanism, p.smem) == ("none", "none", None)


def test_mma_accumulator_as_B_operand_is_a_lane_exchange():
    C = presets.get("mma.m16n8k16.C").layout
    B = presets.get("mma.m16n8k16.B", dtype="float16").layout
    p = run(C, B, (16, 8), "float16")
    assert p.kind == "warp-shuffle"
    # each lane needs 4 halves from 2 other lanes: packed two to a word, 2 rounds (as
    # Triton's generated code: 2 shfl)
    assert p.costs["shuffle_rounds"] == 2
    assert p.mechanism == "warp-shuffle" and p.smem is None
    assert p.reason


def test_wgmma_accumulator_to_128B_swizzled_smem_for_tma_store():
    D = presets.get("wgmma.m64nNk16.D", n=64).layout
    sw = presets.get("smem.tile", dtype="float16", mode="128B", shape=(64, 64)).layout
    p = run(D, sw, (64, 64), "float16")
    assert (p.kind, p.mechanism) == ("shared-memory", "shared-memory")
    assert p.costs["store_wavefronts"] == p.costs["ideal_wavefronts"] == 64
    assert p.costs["smem_bytes"] == 64 * 64 * 2
    assert [s.what for s in p.stages] == ["store"]
    plain = run(D, "S[(64,64):(64,1)]", (64, 64), "float16")
    assert plain.costs["store_wavefronts"] == 8 * plain.costs["ideal_wavefronts"]


def test_transpose_through_shared_memory_is_cheaper_than_shuffles():
    p = run(*TRANSPOSE, (32, 32), "float32")
    assert (p.kind, p.mechanism) == ("warp-shuffle", "shared-memory")
    assert p.costs["shuffle_rounds"] == 31
    assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"] == 64
    assert p.costs["smem_bytes"] == 4096 and p.costs["barriers"] == 1
    assert "shared memory" in p.reason and "31" in p.reason
    assert [s.what for s in p.stages] == ["store", "barrier", "load"]


def test_one_register_lane_swap_uses_a_shuffle():
    p = run("S[(16,2):(2@laneid,1@laneid)]", "S[(16,2):(1@laneid,16@laneid)]", (16, 2), "float32")
    assert (p.kind, p.mechanism) == ("warp-shuffle", "warp-shuffle")
    assert p.costs["shuffle_rounds"] == 1 and p.smem is None
    shuffles = [s for s in p.stages if s.what == "shuffle"]
    assert len(shuffles) == 1
    lanes = shuffles[0].data["src_lane"][0]
    assert p.execute() == expected(p.dst, p.shape)
    assert sorted(lanes) == list(range(32))  # a permutation of the warp's lanes


def test_shuffle_rounds_reach_the_lower_bound():
    # each lane sends 2 and receives 2 words of a 4-register fragment
    p = run("S[(16,2,4):(2@laneid,1@laneid,1)]", "S[(16,2,2,2):(1@laneid,2,16@laneid,1)]",
            (16, 2, 4), "float32")
    assert p.kind == "warp-shuffle"
    if p.mechanism == "warp-shuffle":
        assert p.costs["shuffle_rounds"] == sum(s.what == "shuffle" for s in p.stages)


def test_register_permutation_never_leaves_registers():
    p = run("S[(32,32):(1@laneid,1)]", "S[(32,2,16):(1@laneid,1,2)]", (32, 32), "float32")
    assert (p.kind, p.mechanism, p.smem) == ("registers", "registers", None)
    assert p.costs["registers_moved"] == 32 * 30  # slots 0 and 31 stay


def test_tcgen05_fragments():
    C = presets.get("mma.m16n8k16.C").layout
    assert run(presets.get("tcgen05.ld.16x256b").layout, C, (16, 8), "float32").kind == "none"
    col = presets.get("tcgen05.ld.32x32b", num=32).layout  # lane = TMEM lane = row
    p = run(col, TRANSPOSE[1], (32, 32), "float32")
    assert p.kind == "warp-shuffle"
    p = run(presets.get("tcgen05.ld.16x128b", num=2).layout, C, (16, 8), "float32")
    assert p.kind in ("registers", "warp-shuffle")


def test_ldmatrix_fragments():
    # ldmatrix.x2 delivers the m16n8k8 A fragment: (2, 8, 8) matrices = a 16 x 8 tile
    x2 = presets.get("ldmatrix.x2").layout
    A = presets.get("mma.m16n8k8.A", dtype="float16").layout
    assert run(x2, A, (2, 8, 8), "float16").kind == "none"
    # loading it from a shared-memory tile: one 4-byte word per lane per matrix
    p = run("S[(16,8):(8,1)]", x2, (16, 8), "float16")
    assert (p.kind, [s.what for s in p.stages]) == ("shared-memory", ["load"])
    assert p.costs["load_wavefronts"] == p.costs["ideal_wavefronts"]


def test_warps_exchange_through_shared_memory():
    D = presets.get("wgmma.m64nNk16.D", n=32).layout
    by_rows = "S[(4,16,32):(1@wid_in_wg,2@laneid,1)] + R[2:1@laneid]"
    p = tl.plan_conversion(D, "S[(2,32,4,8):(8,1@laneid,1@wid_in_wg,1)]", (64, 32), "float16")
    assert p.kind == "shared-memory" and p.costs["barriers"] == 1
    assert p.execute() == expected(p.dst, p.shape)
    q = run(D, by_rows, (64, 32), "float16")  # same warps' rows, replicated over lanes
    assert q.kind == "warp-shuffle"
    assert q.costs["destination_coordinates"] == 2 * 64 * 32


def test_replicated_source_and_destination():
    src = TRANSPOSE[0] + " + R[2:1@warpid]"
    dst = TRANSPOSE[1] + " + R[2:1@warpid]"
    p = run(src, dst, (32, 32), "float32")
    assert p.kind == "warp-shuffle"
    # a replica already in the right place is enough: nothing to do
    assert run(src, TRANSPOSE[0], (32, 32), "float32").kind == "none"
    # a destination replica on another warp must be fetched through shared memory
    assert run(TRANSPOSE[0], src, (32, 32), "float32").kind == "shared-memory"


def test_execute_with_values():
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32")
    vals = np.arange(1024.0).reshape(32, 32) * 0.5
    out = p.execute(vals)
    assert out[(3, 9)] == vals[3, 9]
    by_coord = {c: -e for c, e in expected(p.src, p.shape).items()}
    assert p.execute(by_coord)[(3, 9)] == -(3 * 32 + 9)
    with pytest.raises(tl.LayoutError, match="one value per element"):
        p.execute(np.zeros(5))
    with pytest.raises(tl.LayoutError, match="no entry"):
        p.execute({(0, 0): 1})


def test_plan_to_dict_and_text():
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32")
    d = p.to_dict()
    assert d["kind"] == "warp-shuffle" and d["costs"]["smem_bytes"] == 4096
    assert 16 in (d["smem"]["write"]["vector_bytes"], d["smem"]["read"]["vector_bytes"])
    assert "ComposeLayout" in d["smem"]["layout"]
    assert "mechanism: shared-memory" in str(p)


@pytest.mark.parametrize("src, dst, shape, message", [
    ("S[(32,4):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]", None, "different tiles"),
    ("S[(128,4):(1@TLane,1@TCol)]", "S[(128,4):(1@laneid,1)]", None, "TLane"),
    ("S[64:1]", "S[(8,8):(8,1)]", None, "both layouts are shared-memory"),
    ("S[(64,4):(1@laneid,1)]", "S[(64,4):(1,1@laneid)]", None, "laneid reaches 63"),
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1,1@laneid)]", (3, 3), "source layout"),
    ("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,0)]", None, "elements 0 and 1 at one place"),
    ("S[(32,2):(1@laneid,0)]", "S[(32,2):(1@laneid,1)]", None, "source layout puts"),
])
def test_bad_input_is_one_line(src, dst, shape, message):
    with pytest.raises(tl.LayoutError, match=message) as info:
        tl.plan_conversion(src, dst, shape, "float32")
    assert "\n" not in str(info.value)


def test_limits_and_dtype():
    # the element planner evaluates every element x replica row: refused over the limit
    six = ("S[(6,32):(1,1@laneid)]", "S[(6,32):(-1,1@laneid)] + 5")   # not bit maps
    with pytest.raises(tl.LayoutError, match="384 elements, over the limit of 100"):
        tl.plan_conversion(*six, (6, 32), "float32", limits=tl.Limits(elements=100))
    with tl.limits(elements=100), pytest.raises(tl.LayoutError, match="--max-elements"):
        tl.plan_conversion(*six, (6, 32), "float32")
    # planning on bits looks at no element: the transpose is planned, and executing it
    # (which routes all 2,048 rows) is what the limit refuses
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32", limits=tl.Limits(elements=100))
    assert p._bits is not None
    with tl.limits(elements=100), pytest.raises(tl.LayoutError, match="2,048 elements"):
        p.execute()
    with pytest.raises(tl.LayoutError):
        tl.plan_conversion(*TRANSPOSE, (32, 32), "float17")
    with pytest.raises(tl.LayoutError, match="layout"):
        tl.plan_conversion(3, TRANSPOSE[1], None)


def test_warp_local_exchange_in_passes_through_a_smaller_buffer():
    # wgmma D -> each lane half a row: column blocks move only register slots on both
    # sides, so the tile goes through shared memory in 4 passes of 2 KB (as Triton does)
    D = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"
    rows = "S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]"
    p = run(D, rows, (64, 64), "float16")
    assert (p.kind, p.mechanism) == ("warp-shuffle", "shared-memory")
    assert (p.costs["passes"], p.costs["smem_bytes"], p.costs["barriers"]) == (4, 2048, 7)
    assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"] == 128
    assert [s.what for s in p.stages[:5]] == ["store", "barrier", "load", "barrier", "store"]
    assert p.stages[-1].text.startswith("pass 4 of 4: load")
    assert p.costs["smem_bytes"] < 64 * 64 * 2  # one pass's buffer


def test_ctas():
    # each CTA converts its own tile: shuffles work, shared memory spans one CTA only
    p = run("S[(2,32,4):(1@bx,1@laneid,1)]", "S[(2,32,4):(1@bx,1,1@laneid)]", None, "float32")
    assert (p.kind, p.mechanism) == ("warp-shuffle", "warp-shuffle")
    assert "shared memory cannot be planned" in p.reason
    assert run("S[(2,32,4):(1@bx,1@laneid,1)]", "S[(2,32,4):(1@bx,1@laneid,1)] + 0", None,
               "float32").kind == "none"
    with pytest.raises(tl.LayoutError, match="elements move between CTAs") as info:
        tl.plan_conversion("S[(2,32,4):(1@bx,1@laneid,1)]", "S[(2,32,4):(1,1@laneid,1@bx)]",
                           None, "float32")
    assert "\n" not in str(info.value)


def _on_warps(text: str, n: int) -> str:
    """``text`` (one warp's layout) on ``n`` warps, each doing the same exchange."""
    shape, strides = text[2:text.index("]")].split(":")
    return f"S[({n},{shape[1:-1]}):(1@warpid,{strides[1:-1]})]"


@pytest.mark.parametrize("src,dst,dtype", [
    # found by a random search: staged on one warp, shuffled on four (passes)
    ("S[(2,2,2,2,2,2,2,2,2,2):(1@laneid,8@laneid,8,16,4@laneid,2,4,2@laneid,16@laneid,1)]",
     "S[(2,2,2,2,2,2,2,2,2,2):(1@laneid,8@laneid,8,16,4@laneid,2,4,2@laneid,1,16@laneid)]",
     "float16"),
    ("S[(2,2,2,2,2,2,2,2,2,2):(1@laneid,8@laneid,8,16,4@laneid,2,4,2@laneid,16@laneid,1)]",
     "S[(2,2,2,2,2,2,2,2,2,2):(1@laneid,8@laneid,8,16,4@laneid,2,4,2@laneid,1,16@laneid)]",
     "e4m3"),
    ("S[(2,2,2,2,2,2,2,2,2,2):(1,2,2@laneid,8@laneid,16,4@laneid,1@laneid,4,8,16@laneid)]",
     "S[(2,2,2,2,2,2,2,2,2,2):(8@laneid,2,2@laneid,16@laneid,16,4@laneid,1@laneid,4,8,1)]",
     "e4m3"),
])
def test_random_per_warp_exchanges_are_decided_as_on_one_warp(src, dst, dtype):
    one = tl.plan_conversion(src, dst, None, dtype)
    four = tl.plan_conversion(_on_warps(src, 4), _on_warps(dst, 4), None, dtype)
    assert one.kind == four.kind == "warp-shuffle"
    assert one.mechanism == four.mechanism
    keys = ("shuffle_instructions", "shuffle_selects", "byte_permutes", "smem_cost_units",
            "passes", "barriers", "barrier_instruction", "store_instruction")
    assert {k: one.costs.get(k) for k in keys} == {k: four.costs.get(k) for k in keys}
    assert four.execute() == expected(tl.parse(_on_warps(dst, 4)), four.shape)


@pytest.mark.parametrize("src,dst", [
    # small one-warp stagings in passes: a pass's packed slot order numbers the pass's
    # slots, and its vectors must stay contiguous in the tile
    ("S[(2,2,2,2,2,2,2,2,2):(8,4,2,1,16@laneid,8@laneid,4@laneid,2@laneid,1@laneid)]",
     "S[(2,2,2,2,2,2,2,2,2):(4,8,16@laneid,2@laneid,2,8@laneid,4@laneid,1,1@laneid)]"),
    ("S[(2,2,2,2,2,2,2,2):(2,1,4,16@laneid,8@laneid,2@laneid,4@laneid,1@laneid)]",
     "S[(2,2,2,2,2,2,2,2):(4,16@laneid,1,2,8@laneid,4@laneid,2@laneid,1@laneid)]"),
])
def test_small_one_warp_stagings_in_passes_deliver(src, dst):
    run(src, dst, None, "float16")


def test_a_budget_trades_bytes_for_barriers_and_refuses_below_the_smallest_buffer():
    mma = [presets.get("triton.nvmma_distributed", version=2, warps_per_cta=w,
                       shape=(256, 256)).layout for w in ((1, 4), (4, 1))]
    default = tl.plan_conversion(*mma, (256, 256), "float16", target="sm_80")
    assert (default.costs["smem_bytes"], default.costs["passes"]) == (8192, 16)
    roomy = tl.plan_conversion(*mma, (256, 256), "float16", target="sm_80", smem_budget=1 << 20)
    assert roomy.costs["wavefronts"] == default.costs["wavefronts"]
    assert roomy.costs["barriers"] < default.costs["barriers"] and roomy.costs["smem_bytes"] > 8192
    assert roomy.execute() == expected(roomy.dst, roomy.shape)
    tight = tl.plan_conversion(*mma, (256, 256), "float16", target="sm_80", smem_budget=4096)
    assert tight.costs["smem_bytes"] <= 4096 and tight.costs["passes"] > 16
    assert tight.execute() == expected(tight.dst, tight.shape)
    with pytest.raises(tl.LayoutError, match=r"needs \d+ bytes.*smem_budget=256"):
        tl.plan_conversion(*mma, (256, 256), "float16", target="sm_80", smem_budget=256)
    for bad in (-1, 1.5, True, "8k"):
        with pytest.raises(tl.LayoutError, match="smem_budget"):
            tl.plan_conversion(*mma, (256, 256), "float16", smem_budget=bad)
    # a plan that needs no shared memory fits any budget
    assert tl.plan_conversion("S[(16,2):(2@laneid,1@laneid)]", "S[(16,2):(1@laneid,16@laneid)]",
                              (16, 2), "float32", smem_budget=0).mechanism == "warp-shuffle"


def test_tma_endpoints_keep_the_global_tensors_contiguous_dimension_innermost():
    row = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                             target="sm_90a")
    col = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma:order=col",
                             dtype="bfloat16", target="sm_90a")
    assert row.smem.layout.map_all((64, 128))["m"][0, 1, 0] % 64 == 1   # n contiguous
    assert col.smem.layout.map_all((64, 128))["m"][1, 0, 0] % 64 == 1   # m contiguous
    assert row.costs["store_instruction"] == "stmatrix.x4" and row.costs["store_requests"] == 32
    assert "order=row" in row.reason and "order=col" in col.reason
    with pytest.raises(tl.LayoutError, match="order is row"):
        tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma:order=diag", dtype="bfloat16")


def test_the_fp32_epilogue_argues_its_swizzle_by_the_cost_model():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="float32",
                           target="sm_90a")
    assert "box issues" in p.reason and "would cost" in p.reason


def test_own_plans_compare_by_instructions_per_warp_of_each_side():
    """Seed 28's harness pair 10 (bfloat16, 8 x 16, 8 warps, the source's warps all
    copies): the element search's staging stores from one warp's worth of copies and
    loads in every warp. Counted per warp on each side (4 stores, 1 load, 1 barrier) it
    ties the compiler's 6 instructions at 12 wavefronts against 136, and replaces it."""
    src = "S[(8,4,4):(4,1@laneid,1)] + R[(8,8):(4@laneid,1@warpid)]"
    dst = ("S[(2,2,2,2,2,2,2):(8@laneid,1@laneid,4@laneid,1@warpid,2@laneid,16@laneid,"
           "2@warpid)] + R[2:4@warpid]")
    p = tl.plan_conversion(src, dst, (8, 16), "bfloat16", target="sm_80")
    assert (p.costs["smem_bytes"], p.costs["wavefronts"]) == (256, 12)   # Triton: 136
    from tests.planning.scenarios.suite import our_cost
    from tilelayout.planning.plan import _key
    assert _key(p)[2] == our_cost(p).instructions == 6
    assert p.execute() == expected(p.dst, p.shape)
