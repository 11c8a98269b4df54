"""POST /api/elements_at: the logical elements at (partial) coordinates, the union over a
list of coordinates, and refusals that name the field."""

import pytest

import tilelayout as tl
from tilelayout.explorer.request import MAX_QUERY, ApiError
from tilelayout.explorer.views.elements_at import elements_at_view

LANES = "S[(8,4):(4@laneid,1@laneid)]"


def test_one_coordinate_and_a_union():
    assert elements_at_view({"layout": LANES, "coords": {"laneid": 5}}) == {
        "elements": [[1, 1]], "flat": [5]}
    r = elements_at_view({"layout": LANES, "coords": [{"laneid": 5}, {"laneid": 0}]})
    assert r == {"elements": [[0, 0], [1, 1]], "flat": [0, 5]}


def test_partial_coordinates_match_the_library():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]")
    r = elements_at_view({"layout": str(L), "shape": "8,16", "coords": {"warpid": 1}})
    want = sorted(tl.elements_at(L, {"warpid": 1}, (8, 16)))
    assert [tuple(e) for e in r["elements"]] == want and len(want) == 64


@pytest.mark.parametrize("coords", [None, [], {"pid": 0}, {"laneid": "5"}, [{}],
                                    [{"laneid": 0}] * (MAX_QUERY + 1)])
def test_bad_coordinates_are_refused(coords):
    with pytest.raises(ApiError) as e:
        elements_at_view({"layout": LANES, "coords": coords})
    assert e.value.field == "coords" and e.value.status in (400, 413)
