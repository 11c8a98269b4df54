"""Coord: an immutable, hashable mapping axis -> int in the layout's axis order."""

import pytest

from tilelayout.core.coord import Coord, make_coord
from tilelayout.core.errors import LayoutError


def test_a_mapping_in_the_given_order():
    c = Coord({"laneid": 3, "m": 7})
    assert list(c) == ["laneid", "m"] and len(c) == 2
    assert (c["m"], c.get("pid"), "laneid" in c) == (7, None, True)
    with pytest.raises(KeyError):
        c["pid"]
    assert repr(c) == "{laneid: 3, m: 7}"


def test_equality_and_hash_ignore_order_and_match_dicts():
    a, b = Coord({"m": 1, "pid": 0}), Coord((("pid", 0), ("m", 1)))
    assert a == b and hash(a) == hash(b) and a == {"pid": 0, "m": 1}
    assert a != Coord({"m": 1, "pid": 1}) and a != {"m": 1}
    assert len({a, b, make_coord((("m", 1), ("pid", 0)))}) == 1
    assert (a == 3) is False


def test_values_are_converted_and_checked():
    import numpy as np

    c = Coord({"m": np.int64(5)})
    assert type(c["m"]) is int
    for bad in ({"m": 1.5}, {"m": True}, [("m",)], [(3, 1)], "m"):
        with pytest.raises(LayoutError):
            Coord(bad)  # type: ignore[arg-type]


def test_immutable():
    c = Coord({"m": 1})
    with pytest.raises(TypeError):
        c["m"] = 2  # type: ignore[index]
    with pytest.raises(AttributeError):
        c.extra = 1  # type: ignore[attr-defined]


def test_make_coord_takes_pairs_as_they_are():
    items = (("m", 3), ("pid", 1))
    c = make_coord(items)
    assert c == Coord(items) and list(c.items()) == list(items)
