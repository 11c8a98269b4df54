"""POST /api/table: the layout's text table, or why not above the size limit."""

import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views import table as tv


def test_the_text_is_layout_table():
    L = tl.parse("S[(8,4):(4@laneid,1@laneid)] + R[2:1@pid]")
    r = tv.table_view({"layout": str(L), "shape": "8,4"})
    assert r == {"text": L.table((8, 4))}
    assert "laneid" in r["text"].splitlines()[0]


def test_a_large_layout_says_why_there_is_no_table():
    n = tv.MAX_TABLE_ELEMENTS * 2
    r = tv.table_view({"layout": f"S[{n}:1]"})
    assert r["text"] is None and f"{n:,} elements" in r["too_large"]


def test_bad_requests_are_api_errors():
    with pytest.raises(ApiError):
        tv.table_view({"layout": "S[4:"})
