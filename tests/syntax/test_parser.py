"""The parser: positioned errors on odd or huge text."""

import pytest

import tilelayout as tl


# -- text form ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, column, words",
    [
        ("S[(4,0):(1,1)]", 6, "extent must be >= 1"),  # the bad extent, not the '('
        ("S[4] + R[(2,-1):(1,1)]", 13, "extent must be >= 1"),
        ("S[(4,2@m):(1,1)]", 6, "extents carry no axis"),  # '@m' on an extent is not text
        ("S[2@m:1]", 3, "extents carry no axis"),
        ("S[４]", 3, "unexpected character"),  # only ASCII digits are integers
        ("S[4:" + "9" * 5000 + "]", 5, "too long"),  # beyond Python's int-from-str limit
        ("ComposeLayout(Swizzle(3,3,3), S[4]) + 5", 37, "put replicas and offsets on the tile"),
    ],
)
def test_parse_errors_point_at_the_offending_token(text, column, words):
    with pytest.raises(tl.LayoutParseError) as info:
        tl.parse(text)
    assert info.value.column == column and words in str(info.value)
