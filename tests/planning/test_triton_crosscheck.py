"""Our wavefront counts against Triton's own counter: Gluon's ``ttgl.bank_conflicts``,
evaluated while compiling a kernel for sm_90 on the CPU (needs the triton extra, which
scripts/test.sh installs; TILELAYOUT_STRICT makes a skip fail CI).

For F2-linear layouts every request has the same conflict degree, so
``wavefronts == (triton + 1) * ideal`` must hold exactly."""

from __future__ import annotations

import doctest

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.planning.mechanisms.staging.swizzle_family import swizzle_candidates

pytest.importorskip("triton.experimental.gluon.language")
from tilelayout.interop import triton_banks  # noqa: E402
from tilelayout.interop.triton_banks import (  # noqa: E402
    compare_bank_conflicts,
    gluon_bank_conflicts,
)

MMA_C_4W = tl.parse("S[(4,2,2,8,16,4,2):(1@warpid,4,2,4@laneid,8,1@laneid,1)]")
LDSM_4W = tl.parse("S[(4,2,16,8,2,8):(1@warpid,64,1@laneid,8,16@laneid,1)]")
WGMMA_D = presets.get("wgmma.m64nNk16.D", n=64)


def _cases():
    out = []
    for dtype in ("float16", "float32"):
        for c in swizzle_candidates((128, 128), dtype)[::2]:
            for name, dist in (("mmaC", MMA_C_4W), ("ldsm", LDSM_4W)):
                out.append(pytest.param(dist, c.layout, (128, 128), dtype,
                                        id=f"{name}-{dtype}-{c.name}"))
    for c in swizzle_candidates((64, 64), "float16")[::3]:
        # wgmma's warps are wid_in_wg: rename to warpid for Triton's "warp" dimension
        dist = tl.parse(str(WGMMA_D.layout).replace("wid_in_wg", "warpid"))
        out.append(pytest.param(dist, c.layout, (64, 64), "float16", id=f"wgmmaD-{c.name}"))
    return out


@pytest.mark.parametrize("dist, smem, shape, dtype", _cases())
def test_wavefronts_agree_with_triton(dist, smem, shape, dtype):
    r = compare_bank_conflicts(dist, smem, shape, dtype)
    assert r["agree"], r


def test_triton_sees_the_conflict_we_see():
    rowmajor = tl.parse("S[(32,64):(64,1)]")
    wide = tl.parse("S[(32,8,8):(1@laneid,8,1)]")                       # lane: 8 x 16 B of a row
    assert gluon_bank_conflicts(wide, rowmajor, (32, 64), "float16") == 7  # 8 lanes, one bank
    assert tl.smem_access(wide, rowmajor, (32, 64), "float16").wavefronts == 8 * 32
    fixed = tl.ComposeLayout(tl.Swizzle(3, 3, 3), rowmajor)
    assert gluon_bank_conflicts(wide, fixed, (32, 64), "float16") == 0
    assert tl.smem_access(wide, fixed, (32, 64), "float16").conflict_free


def test_docstring_examples():
    assert doctest.testmod(triton_banks).failed == 0


def test_synthesized_xor_layouts_agree_with_triton():
    # the family="any" answers are general XOR swizzles (Triton SharedLinearLayouts)
    w = tl.parse("S[(2,2,2,2,2,2,2,2,2,2):(8@laneid,2,16,1,4@laneid,2@laneid,1@laneid,4,16@laneid,8)]")
    r = tl.parse("S[(2,2,2,2,2,2,2,2,2,2):(16@laneid,8@laneid,4@laneid,16,4,1,2,8,2@laneid,1@laneid)]")
    checked = 0
    for c in tl.choose_smem_layout(w, r, (32, 32), "float32", "any").candidates:
        if not c.name.startswith("xor"):
            continue
        for dist in (w, r):
            assert compare_bank_conflicts(dist, c.layout, (32, 32), "float32")["agree"]
            checked += 1
    assert checked >= 2
