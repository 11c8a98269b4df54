"""Legality findings and the bank-conflict model, checked against brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.analysis.conflicts import wavefronts_batch

from .strategies import tile_layouts


def brute_wavefronts(addrs, access):
    per = 32 * 4 // access
    total = 0
    for p in range(0, 32, per):
        words = {a // 4 + j for a in addrs[p:p + per] if a is not None for j in range(access // 4)}
        banks = {}
        for w in words:
            banks.setdefault(w % 32, set()).add(w)
        total += max((len(v) for v in banks.values()), default=0)
    return total


@given(st.sampled_from([4, 8, 16]), st.data())
def test_wavefronts_match_brute_force(access, data):
    addrs = [data.draw(st.one_of(st.none(), st.integers(0, 63).map(lambda x: x * access)))
             for _ in range(32)]
    assert tl.smem_wavefronts(addrs, access) == brute_wavefronts(addrs, access)


def test_wavefront_model_examples():
    assert tl.smem_wavefronts([0] * 32, 4) == 1  # broadcast of one word
    assert tl.smem_wavefronts([4 * i for i in range(32)], 4) == 1
    assert tl.smem_wavefronts([256 * i for i in range(32)], 4) == 32
    assert tl.smem_wavefronts([8 * i for i in range(32)], 8) == 2
    assert tl.smem_wavefronts([16 * i for i in range(32)], 16) == 4
    with pytest.raises(tl.LayoutError, match="4, 8 or 16"):
        tl.smem_wavefronts([0] * 32, 2)
    with pytest.raises(tl.LayoutError, match="aligned"):
        tl.smem_wavefronts([2] * 32, 4)
    assert wavefronts_batch([[0] * 32, [128 * i for i in range(32)]], 4).tolist() == [1, 32]


@pytest.mark.parametrize("dtype", ["float8", "float16", "float32", "float64"])
@pytest.mark.parametrize("mode", ["32B", "64B", "128B"])
def test_swizzled_16byte_columns_are_conflict_free(dtype, mode):
    width = {"32B": 32, "64B": 64, "128B": 128}[mode]
    nb = tl.dtype_bytes(dtype)
    cols = width // nb
    L = tl.ComposeLayout(tl.Swizzle.for_dtype(dtype, mode), tl.parse(f"S[(8,{cols}):({cols},1)]"))
    per = 16 // nb
    for c in range(cols // per):
        lanes = [[(r, c * per + k) for k in range(per)] for r in range(8)]
        rep = tl.bank_conflicts(L, dtype, lanes)
        assert rep.wavefronts == rep.ideal == 1 and not rep.conflicting_banks


def test_unswizzled_column_hits_one_bank():
    L = tl.parse("S[(8,64):(64,1)]")
    rep = tl.bank_conflicts(L, "float16", [[(r, 0)] for r in range(8)])  # one element per lane
    assert rep.wavefronts == 8 and rep.ideal == 1 and list(rep.conflicting_banks) == [0]
    sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), L)
    assert tl.bank_conflicts(sw, "float16", [[(r, 0)] for r in range(8)]).wavefronts == 1
    with pytest.raises(tl.LayoutError, match="contiguous"):
        tl.bank_conflicts(L, "float16", [[(0, 0), (1, 0)]])


def test_tile_conflicts_whole_tile():
    plain = tl.parse("S[(128,128):(128,1)]")
    sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), plain)
    a = tl.tile_conflicts(plain, "float16", (128, 128))
    b = tl.tile_conflicts(sw, "float16", (128, 128))
    # per access: 32 rows of 256 bytes -> every 8-lane phase asks 4 banks for 8 words
    assert a["per_access"] == [32] * a["accesses"] and a["ideal"] == 4 * a["accesses"]
    # 128B swizzle repeats every 8 rows of 128 bytes; rows are 256 bytes, so lanes
    # r and r+4 collide: the analysis must find the residual 2-way conflict
    assert b["wavefronts"] == 2 * b["ideal"]
    tight = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(64,64):(64,1)]"))
    assert tl.tile_conflicts(tight, "float16", (64, 64))["conflict_free"]


def test_tile_conflicts_matches_single_access():
    L = tl.ComposeLayout(tl.Swizzle(3, 2, 3), tl.parse("S[(64,32):(32,1)]"))
    r = tl.tile_conflicts(L, "float16", (64, 32))
    k = 0
    for c in range(4):
        for b in range(2):
            lanes = [[(32 * b + l, 8 * c + j) for j in range(8)] for l in range(32)]
            assert tl.bank_conflicts(L, "float16", lanes).wavefronts == r["per_access"][k]
            k += 1


# -- legality --------------------------------------------------------------------------
def test_legality_findings():
    r = tl.legality(tl.parse("S[(2,32):(1@wgid,2@laneid)]"))
    kinds = {f.kind: f for f in r.findings}
    assert set(kinds) == {"out_of_range", "scope_gap", "unused"}
    assert kinds["out_of_range"].count == 32 and (0, 16) in kinds["out_of_range"].examples
    assert "wid_in_wg" in kinds["scope_gap"].message
    assert kinds["unused"].count == 2 * 63 - 64  # box: 2 wgids x lanes 0..62, 64 used
    assert tl.legality(tl.parse("S[(4,32):(1@warpid,1@laneid)]")).ok
    over = tl.legality(tl.parse("S[(4,32):(1@warpid,1@laneid)] + R[2:1@tx]"))
    assert {f.kind for f in over.findings} == {"scope_overlap"}
    dup = tl.legality(tl.parse("S[(4,8):(0,1@laneid)]"))
    d = next(f for f in dup.findings if f.kind == "duplicate")
    assert d.count == 32 and d.examples[0] == (0, 0)


@given(tile_layouts(max_size=64))
def test_legality_duplicates_and_range_match_brute_force(L):
    r = tl.legality(L)
    kinds = {f.kind: f for f in r.findings}
    owners = {}
    for f in range(L.size()):
        for c in L.apply(f):
            owners.setdefault(tuple(c.get(a, 0) for a in L.axes), set()).add(f)
    dup_elems = set().union(*(s for s in owners.values() if len(s) > 1)) if owners else set()
    assert ("duplicate" in kinds) == bool(dup_elems)
    if dup_elems:
        assert kinds["duplicate"].count == len(dup_elems)
    bad = {f for f in range(L.size()) for c in L.apply(f)
           if any(tl.axis(a).extent is not None and not 0 <= c[a] < tl.axis(a).extent
                  for a in L.axes)}
    got = sum(f.count for f in r.findings if f.kind == "out_of_range")
    assert (got > 0) == bool(bad)
    box = 1
    for a in L.axes:
        lo, hi = tl.value_range(L, a)
        ext = tl.axis(a).extent
        if tl.axis(a).kind == "thread" and ext is not None and lo >= 0 and hi < ext:
            lo, hi = 0, ext - 1
        box *= hi - lo + 1
    unused = box - len(owners)
    assert (kinds["unused"].count if "unused" in kinds else 0) == max(unused, 0) if L.axes else True


def test_report_serialises():
    r = tl.legality(tl.parse("S[40:1@laneid]"))
    d = r.to_dict()
    assert d["ok"] is False and d["findings"][0]["kind"] == "out_of_range"
    assert "laneid 39 does not exist" in str(r)
    assert list(itertools.chain(*d["findings"][0]["examples"]))[0] == 32
