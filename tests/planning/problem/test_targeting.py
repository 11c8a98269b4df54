"""``target=``: the GPU a plan is made for decides its instructions and the hardware
paths that accept its layout; the default is stated, presets raise it, a target too old
for an operand is a one-line error naming both (planning/problem/targeting.py)."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tests.helpers import run

D = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"      # wgmma D, written out
ROWS = "S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]"


def test_the_default_is_stated():
    p = tl.plan_conversion(D, ROWS, (64, 64), "float16")
    assert (p.target, p.target_from) == ("sm_90a", "the default")
    assert "target: sm_90a (the default)" in str(p) and p.to_dict()["target"] == "sm_90a"


def test_stmatrix_only_where_the_target_has_it():
    hopper = tl.plan_conversion(D, ROWS, (64, 64), "float16", target="sm_90")
    ampere = tl.plan_conversion(D, ROWS, (64, 64), "float16", target="sm_80")
    assert hopper.costs["store_instruction"] == "stmatrix.x4"
    assert not ampere.costs["store_instruction"].startswith("stmatrix")
    assert ampere.target == "sm_80"
    for p in (hopper, ampere):
        out = p.execute()
        r = p._route.dst
        assert all(out[tuple(c)] == e for c, e in zip(r.coords.tolist(), r.element.tolist(),
                                                       strict=True))


def test_ldmatrix_needs_sm_75():
    T = "S[(32,2,4,16):(1,16@laneid,1@warpid,1@laneid)]"
    assert tl.plan_conversion(D, T, (64, 64), "float16").costs["load_instruction"] \
        .startswith("ldmatrix")
    assert not tl.plan_conversion(D, T, (64, 64), "float16", target="sm_80").costs[
        "store_instruction"].startswith("stmatrix")


def test_presets_raise_the_default_target():
    p = tl.plan_conversion("preset:tcgen05.ld.32x32b:num=8", "preset:tcgen05.ld.32x32b:num=8")
    assert (p.target, p.target_from) == ("sm_100a", "tcgen05.ld.32x32b needs tcgen05")


def test_a_target_too_old_is_one_line_naming_both():
    with pytest.raises(tl.LayoutError) as e:
        tl.plan_conversion("preset:wgmma.m64nNk16.D", ROWS, dtype="float16", target="sm_80")
    msg = str(e.value)
    assert "wgmma.m64nNk16.D needs sm_90a" in msg and "the target given is sm_80" in msg
    assert "\n" not in msg
    with pytest.raises(tl.LayoutError, match="needs sm_100a or sm_103a"):
        tl.choose_smem_layout("preset:tcgen05.ld.32x32b:num=8", "preset:tcgen05.ld.32x32b:num=8",
                              target="sm_90a")
    with pytest.raises(tl.LayoutError, match="no target runs every operand"):
        tl.plan_conversion("preset:wgmma.m64nNk16.D:n=8", "preset:tcgen05.ld.16x256b",
                           dtype="float32")


def test_unknown_target_is_one_line():
    with pytest.raises(tl.LayoutError, match="unknown target 'sm_91'"):
        tl.plan_conversion(D, ROWS, (64, 64), "float16", target="sm_91")


def test_accepting_paths_follow_the_target():
    W = "S[(4,2,2,8,16,4,2):(1@warpid,4,2,4@laneid,8,1@laneid,1)]"
    R = "S[(4,2,16,8,2,8):(1@warpid,64,1@laneid,8,16@laneid,1)]"
    paths = {t: {m.split()[0] for c in tl.choose_smem_layout(W, R, (128, 128), "float16",
                                                            target=t).candidates
                 for m in c.accepted_by}
             for t in ("sm_80", "sm_90a", "sm_100a")}
    assert paths["sm_80"] == set()
    assert paths["sm_90a"] == {"TMA", "wgmma"}
    assert paths["sm_100a"] == {"TMA", "tcgen05"}
    atom32 = [c for c in tl.choose_smem_layout(W, R, (128, 128), "float16",
                                               target="sm_90a").candidates
              if "atom32B" in c.name]
    assert atom32 and all(not c.accepted_by for c in atom32)   # a plain XOR layout there
    c = tl.choose_smem_layout(W, R, (128, 128), "float16", target="sm_100a")
    assert c.target == "sm_100a" and "sm_100a" in str(c)


def test_cli_target():
    p = run("plan", "preset:wgmma.m64nNk16.D", ROWS, "--dtype", "float16", "--target", "sm_80")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "sm_90a" in p.stderr and "sm_80" in p.stderr
    p = run("plan", D, ROWS, "--shape", "64,64", "--dtype", "float16", "--target", "sm_80")
    assert p.returncode == 0 and "target: sm_80 (given)" in p.stdout
    p = run("smem", D, ROWS, "--shape", "64,64", "--dtype", "float16", "--target", "sm_100a")
    assert p.returncode == 0 and "target   sm_100a (given)" in p.stdout


def test_explorer_takes_and_states_the_target():
    from tilelayout.explorer.request import ApiError
    from tilelayout.explorer.views.plan import plan_view
    from tilelayout.explorer.views.smem import smem_view
    req = {"src": D, "dst": ROWS, "shape": [64, 64], "dtype": "float16"}
    assert plan_view(req)["target"] == "sm_90a"
    r = plan_view({**req, "target": "sm_80"})
    assert r["target"] == "sm_80" and not r["costs"]["store_instruction"].startswith("stmatrix")
    tc = {"preset": "tcgen05.ld.32x32b", "params": {"num": 8}}
    assert smem_view({"writer": tc, "reader": tc})["target"] == "sm_100a"
    for bad in ("sm_91", "sm_90a"):
        with pytest.raises(ApiError) as e:
            smem_view({"writer": tc, "reader": tc, "target": bad})
        assert e.value.field == "target"
