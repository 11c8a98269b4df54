"""TMA as an endpoint (planning/mechanisms/staging/tma.py): "tma" as the reader (a TMA store) or writer (a
TMA load) of choose_smem_layout and as dst / src of plan_conversion."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tests.planning.conftest import expected
from tilelayout.planning.mechanisms.staging.tma import endpoint, is_endpoint

TC = "preset:tcgen05.ld.32x32b:num=128"
D = "preset:wgmma.m64nNk16.D:n=128"



def test_tcgen05_epilogue_takes_the_128b_swizzle_in_two_boxes():
    # CUTLASS's choice for a 32x128 bf16 tcgen05.ld 32x32b fragment: SWIZZLE_128B, 2 boxes
    c = tl.choose_smem_layout(TC, "tma", dtype="bfloat16")
    assert c.family == "tma" and c.tma is not None
    assert (c.tma.swizzle, c.tma.boxes, c.tma.inner_bytes) == ("128B", 2, 128)
    assert c.wavefronts == c.ideal and c.read.requests == 0   # TMA issues no thread loads
    keys = [(r.write.wavefronts, r.write.requests) for r in c.candidates]
    assert keys == sorted(keys)


def test_plan_to_tma_stores_then_names_the_boxes():
    p = tl.plan_conversion(D, "tma:box=64,64", dtype="bfloat16")
    assert p.tma is not None and p.tma.boxes == 2 and p.tma.box == (64, 64)
    assert p.costs["store_instruction"] == "stmatrix.x4" and p.costs["store_requests"] == 32
    assert p.costs["wavefronts"] == p.costs["ideal_wavefronts"]
    assert p.stages[-1].what == "tma" and "TMA store SWIZZLE_128B" in p.reason
    assert p.to_dict()["tma"].startswith("TMA store")
    assert p.execute() == expected(p.dst, p.shape)


def test_tma_load_then_registers():
    p = tl.plan_conversion("tma:swizzle=32B", "preset:mma.m16n8k16.A:dtype=float16")
    assert p.tma is not None and p.tma.direction == "load" and p.tma.swizzle == "32B"
    assert p.stages[0].what == "tma" and p.costs["load_instruction"].startswith("ldmatrix")
    assert p.execute() == expected(p.dst, p.shape)


def test_box_never_wider_than_the_swizzle_span():
    for c in tl.choose_smem_layout(D, "tma", dtype="bfloat16").candidates:
        tma = [m for m in c.accepted_by if m.startswith("TMA")]
        assert tma
    with pytest.raises(tl.LayoutError, match="no TMA tensor map .* swizzle=64B"):
        tl.choose_smem_layout("tma:swizzle=64B", "preset:mma.m16n8k16.A:dtype=float16")


def test_bad_tma_input_is_one_line():
    assert is_endpoint("tma") and is_endpoint(" TMA:box=8,8") and not is_endpoint("tmaX")
    assert endpoint("tma:box=8,64").box == (8, 64)
    with pytest.raises(tl.LayoutError, match="box=E0,E1"):
        endpoint("tma:boxes=8")
    with pytest.raises(tl.LayoutError, match="one side must be threads"):
        tl.choose_smem_layout("tma", "tma", (64, 64), "float16")
    with pytest.raises(tl.LayoutError, match="TMA needs sm_90 or newer; the target is sm_80"):
        tl.plan_conversion("S[(32,8):(1@laneid,1)]", "tma", (32, 8), "float16", target="sm_80")


def test_cli_takes_tma():
    from tests.helpers import run
    p = run("plan", TC, "tma", "--dtype", "bfloat16")
    assert p.returncode == 0, p.stderr
    assert "TMA store SWIZZLE_128B: 2 box(es) of 32x64" in p.stdout
    p = run("smem", "tma:swizzle=128B", "S[(32,8,8):(1@laneid,8,1)]", "--shape", "32,64",
            "--dtype", "float16")
    assert p.returncode == 0, p.stderr
    assert "tma family" in p.stdout and "TMA load SWIZZLE_128B" in p.stdout
