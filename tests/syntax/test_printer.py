"""Printed text parses back to the same layout (property-based)."""

from hypothesis import given

import tilelayout as tl
from tests.strategies import layouts


@given(layouts())
def test_text_round_trip(L):
    text = str(L)
    assert tl.parse(text) == L
    assert str(tl.parse(text)) == text
    assert hash(tl.parse(text)) == hash(L)


@given(layouts())
def test_text_round_trip_with_free_whitespace(L):
    spaced = str(L).replace(",", " , ").replace("[", " [ ").replace("+", "  +  ")
    assert tl.parse(spaced) == L
