"""explain(): the four steps for one element, as data and as text."""

import tilelayout as tl

TC = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_explain_data_matches_reference_walkthrough():
    e = tl.explain(tl.parse(TC), (7, 15), (8, 16))
    assert e.flat == 127 and e.index == (7, 15) and e.shape == (8, 16)
    assert e.extents == (8, 2, 4, 2) and e.components == (7, 1, 3, 1)
    sums = {s.axis: s for s in e.sums}
    assert sums["laneid"].terms == ((7, 4), (3, 1)) and sums["laneid"].value == 31
    assert sums["warpid"].terms == ((1, 1),) and sums["warpid"].offset == 5
    assert sums["warpid"].value == 6 and sums["m"].value == 1
    assert [r.combination for r in e.replicas] == [(0,), (1,)]
    assert [dict(r.added) for r in e.replicas] == [
        {"laneid": 0, "warpid": 0, "m": 0}, {"laneid": 0, "warpid": 4, "m": 0}]
    assert [c["warpid"] for c in e.coords] == [6, 10]
    d = e.to_dict()
    assert d["flat"] == 127 and d["coords"][1] == {"laneid": 31, "warpid": 10, "m": 1}


def test_explain_text_shows_four_steps():
    text = str(tl.explain(tl.parse(TC), (7, 15), (8, 16)))
    assert "1. flatten   flat = 7*16 + 15*1 = 127" in text
    assert "2. split     by (8, 2, 4, 2): c = (7, 1, 3, 1)" in text
    assert "laneid    = 7*4 + 3*1 = 31" in text
    assert "warpid    = 1*1 + 5 (offset) = 6" in text
    assert "r=(1,)  +4@warpid" in text
    assert text.endswith("L(x) = {(31@laneid, 6@warpid, 1@m), (31@laneid, 10@warpid, 1@m)}")


def test_explain_swizzle_bank_chain():
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    e = tl.explain(L, (3, 0), dtype="float16")
    (sw,) = e.swizzle
    assert (sw.m, sw.address, sw.byte, sw.bankword, sw.bank, sw.line) == (192, 216, 432, 108, 12, 3)
    assert e.coords == ({"m": 216},)
    assert "m=192 -> address 216 -> byte 432 -> word 108: bank 12, line 3" in str(e)


def test_explain_without_replica():
    text = str(tl.explain(tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"), (1, 127, 111)))
    assert "4. replica   none" in text and "L(x) = {(223@TCol, 127@TLane)}" in text


def test_negative_replica_offsets_print_with_one_sign():
    text = str(tl.explain(tl.parse("S[4:1] + R[2:-1@pid]"), 3))
    assert "-1@pid" in text and "+-1" not in text
