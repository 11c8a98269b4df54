"""Local names in generated code: an axis keeps its name only where it is safe in every
target language and cannot clash with the generator's own names."""

import keyword

import pytest

from tilelayout.eval.names import C_WORDS, local_names


def test_local_names_are_safe_in_every_language():
    assert local_names(("laneid", "m", "for", "int", "out", "i0", "r")) == (
        "laneid", "m", "axis2", "axis3", "axis4", "axis5", "axis6")


@pytest.mark.parametrize("word", sorted(C_WORDS | set(keyword.kwlist)))
def test_no_keyword_of_any_target_survives(word):
    assert local_names(("m", word)) == ("m", "axis1")


def test_a_name_that_is_not_an_identifier_is_replaced_by_its_position():
    assert local_names(("a-b", "1x", "ok_name", "x.y")) == ("axis0", "axis1", "ok_name", "axis3")
