"""POST /api/analysis and /api/access: legality findings with their elements, and the
bank conflicts of reading a shared-memory layout; refusals say why."""

import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.analysis import access_view, analysis_view

SMEM = "S[(8,64):(64,1)]"


def test_findings_list_their_elements():
    a = analysis_view({"layout": "S[64:1@laneid]"})
    (f,) = a["legality"]["findings"]
    assert a["legality"]["ok"] is False and f["kind"] == "out_of_range"
    assert f["elements"] == list(range(32, 64)) and a["conflicts"] is None


def test_conflicts_are_the_librarys_tile_reads():
    c = analysis_view({"layout": SMEM, "dtype": "float16"})["conflicts"]
    assert c == tl.tile_reads(tl.parse(SMEM), (8, 64), "float16").to_dict()
    assert [(r["order"], r["worst"]["ways"]) for r in c["reads"]] == [("column", 8), ("row", 1)]


def test_access_counts_the_ways_of_one_request():
    a = access_view({"layout": SMEM, "dtype": "float16", "elements": [0, 64, 128, 192]})
    assert (a["banks"], a["ways"]) == ([0], 4)
    b = access_view({"layout": SMEM, "dtype": "float16", "elements": [0, 2, 4, 6]})
    assert b["ways"] == 1 and len(b["banks"]) == 4


@pytest.mark.parametrize("req,field", [
    ({"layout": SMEM, "elements": [0]}, "dtype"),
    ({"layout": "S[32:1@laneid]", "dtype": "float16", "elements": [0]}, "dtype"),
    ({"layout": SMEM, "dtype": "float16", "elements": [512]}, "elements"),
    ({"layout": SMEM, "dtype": "float16", "elements": []}, "elements"),
    ({"layout": SMEM, "dtype": "float16", "elements": [True]}, "elements"),
])
def test_access_refusals_name_the_field(req, field):
    with pytest.raises(ApiError) as e:
        access_view(req)
    assert e.value.field == field


def test_too_large_analysis_is_413():
    with pytest.raises(ApiError) as e:
        analysis_view({"layout": f"S[{1 << 22}:1]"})
    assert e.value.status == 413
