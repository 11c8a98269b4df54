"""tl.codegen / L.codegen: arguments, refusals, limits and the simplified form of the
expressions (the CLI: tests/commands/test_codegen.py; the API:
tests/explorer/test_api_codegen.py)."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.eval.expressions import forward_program

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_reference_tile_reads_like_the_reference_formulas():
    src = tl.codegen(tl.parse(REF), (8, 16))
    # laneid = 4i + floor(j/2) mod 4, warpid = floor(j/8) + 5 (+ 4 per replica), m = j mod 2
    assert "laneid = (i0 << 2) + ((i1 >> 1) & 3)" in src
    assert "warpid = (i1 >> 3) + (r << 2) + 5" in src
    assert "m = i1 & 1" in src
    assert "# layout: " + REF in src and "# shape: (8, 16)" in src


def test_signatures_per_language():
    L = tl.parse(REF)
    assert "def layout_fn(i0, i1, r):" in L.codegen((8, 16))
    assert ("static inline void f(long long i0, long long i1, long long r, long long *out) {"
            in L.codegen((8, 16), lang="c", name="f"))
    assert "static inline void" in L.codegen((8, 16), lang="cpp")
    assert "__host__ __device__ inline void" in L.codegen((8, 16), lang="cuda")
    assert "@triton.jit" in L.codegen((8, 16), lang="triton")
    inv = L.codegen((8, 16), lang="cuda", inverse=True)
    assert "__host__ __device__ inline long long layout_fn(long long laneid, long long warpid, " \
           "long long m) {" in inv
    # no r without replicas; one value per axis in L.axes order
    assert "def layout_fn(i0):" in tl.codegen(tl.parse("S[8:1@laneid] + 2@warpid"))
    assert "return laneid, warpid" in tl.codegen(tl.parse("S[8:1@laneid] + 2@warpid"))


def test_simplification_rules():
    def exprs(text, shape=None):
        L = tl.parse(text)
        return [repr(e) for e in forward_program(L, L.check_shape(shape)).outputs]

    assert exprs("S[(4,8):(8,1)]") == ["(i0 << 3) + i1"]              # fused: one run
    assert exprs("S[(4,8):(8,1)]", (32,)) == ["i0"]                   # no div / mod at all
    assert exprs("S[(6,5):(5,1)]", (30,)) == ["i0"]
    assert exprs("S[(6,5):(1,6)]", (30,)) == ["i0 // 5 + i0 % 5 * 6"]
    assert exprs("S[(4,8):(-8,-1)] + 3") == ["3 - ((i0 << 3) + i1)"]  # one fused run
    assert exprs("S[(4,8):(-8,-1)] + -3") == ["-((i0 << 3) + i1) - 3"]
    assert exprs("S[16:1] + 2 + 3") == ["i0 + 5"]                     # constants combined
    assert exprs("S[(2,8):(0,1)]") == ["i1"]                          # stride 0 dropped
    inv = tl.presets.get("mma.m16n8k16.A", dtype="float16").layout.codegen(inverse=True)
    assert "c4 = m & 1\n" in inv and "c2 = m >> 2\n" in inv         # no nested masks


def test_refusals_are_one_line_layout_errors():
    L = tl.parse("S[(2,2):(0,1)]")
    with pytest.raises(tl.NotInvertibleError, match=r"elements \(0, 0\) and \(1, 0\) share"):
        L.codegen(inverse=True)
    with pytest.raises(tl.CodegenError, match="unknown language"):
        L.codegen(lang="rust")
    with pytest.raises(tl.CodegenError, match="identifier"):
        L.codegen(name="1bad")
    with pytest.raises(tl.CodegenError, match="identifier"):
        L.codegen(name="int", lang="c")
    with pytest.raises(tl.ShapeError):
        L.codegen((3,))
    with pytest.raises(tl.BudgetError, match="scans 256 elements, over the limit of 100"):
        tl.parse("S[(16,16):(16,1)]").codegen(inverse=True, limits=tl.Limits(elements=100))
    with tl.limits(elements=100), pytest.raises(tl.BudgetError):
        tl.parse("S[(16,16):(16,1)]").codegen(inverse=True)
    assert "return flat if ok else -1" in tl.parse("S[(16,16):(16,1)]").codegen(inverse=True)
    with pytest.raises(tl.LayoutOverflowError, match="64-bit"):
        tl.parse(f"S[4:{2**62}]").codegen(lang="c")
    assert str(2**62) in tl.parse(f"S[4:{2**62}]").codegen()  # Python is exact
    assert f"{3 * 2**40}LL" in tl.parse(f"S[4:{3 * 2**40}]").codegen(lang="c")
