"""The Python builder (tl.S[...] + tl.R[...]) mirrors the text form."""

import pytest

import tilelayout as tl


# -- the Python builder ----------------------------------------------------------------------
def test_builder_mirrors_the_text_for_subtraction_lists_and_missing_strides():
    assert tl.S[4] - 3 @ tl.warpid == tl.parse("S[4] - 3@warpid")
    assert tl.S[[8, 2]:[2, 1]] == tl.parse("S[(8,2):(2,1)]")
    assert tl.TileLayout([[4, 1, "laneid"]]) == tl.parse("S[4:1@laneid]")
    for bad in (lambda: tl.S[8:], lambda: tl.S[:1]):  # the text S[8:] is an error too
        with pytest.raises(tl.LayoutError, match="both sides of the colon"):
            bad()
    with pytest.raises(tl.LayoutError, match="2 extents but 1 stride$"):
        tl.S[(8, 2):(1,)]
