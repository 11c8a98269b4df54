"""Legality findings, checked against brute force."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given

import tilelayout as tl
from tests.strategies import tile_layouts


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


def test_legality_unused_counts_swizzled_addresses():
    # m = 0, 1, 2 swizzles to 0, 1, 3: the box is [0, 3] with one hole
    L = tl.ComposeLayout(tl.Swizzle(0, 1, 1), tl.parse("S[3:1]"))
    assert sorted(c["m"] for x in range(3) for c in L.apply(x)) == [0, 1, 3]
    unused = [f for f in tl.legality(L).findings if f.kind == "unused"]
    assert [f.count for f in unused] == [1]


# -- register file: at most 255 32-bit registers per thread, counting packing ---------------
@pytest.mark.parametrize(("text", "dtype", "flagged"), [
    ("S[(32,255):(1@laneid,1)]", "float32", False),
    ("S[(32,256):(1@laneid,1)]", "float32", True),
    ("S[(32,256):(1@laneid,1)]", None, True),          # no dtype: one 32-bit register per slot
    ("S[(32,510):(1@laneid,1)]", "float16", False),    # two 16-bit values per register
    ("S[(32,512):(1@laneid,1)]", "float16", True),
    ("S[(32,1020):(1@laneid,1)]", "int8", False),
    ("S[(32,128):(1@laneid,1)]", "float64", True),     # 256 registers
    ("S[(4,300):(1@warpid,1)]", "float32", False),  # no thread-level axis: m is memory
    ("ComposeLayout(Swizzle(3,3,3), S[(32,1024):(1@laneid,1)])", "float16", False),  # smem
])
def test_register_slots_over_255_are_flagged(text, dtype, flagged):
    kinds = [f.kind for f in tl.legality(tl.parse(text), dtype=dtype).findings]
    assert ("registers" in kinds) is flagged, kinds


def _why(text):
    (f,) = [f for f in tl.legality(tl.parse(text)).findings if f.kind == "unused"]
    assert f.why.endswith(".") and ". " not in f.why  # one plain sentence
    return f


def test_an_unused_finding_says_why_it_matters_and_whether_it_is_normal():
    # the reference case study: the offset and the replica put the tile on warps 5, 6, 9, 10
    tc = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
    f = _why(tc)
    assert f.why.startswith("warpid 7, 8 hold no element") and "5, 6, 9, 10 only" in f.why
    assert "normal for this layout" in f.why and f.to_dict()["why"] == f.why
    assert f.why in str(tl.legality(tl.parse(tc)))  # `tilelayout check` prints it
    # lanes a small tile leaves idle, and holes between addresses
    idle = _why("S[(4,4):(1@laneid,1)]").why
    assert idle.startswith("laneid 4-31 hold no element, so those threads sit idle")
    assert "padded or strided" in _why("S[(4,4):(8,1)]").why
