"""Preset parameters: kinds, validation (check) and text forms (parse)."""

import pytest

from tilelayout.presets.params import PARAM_KINDS, Param, PresetError


def test_parse_reads_each_kind_from_text_and_json():
    assert Param("n", "int", 64).parse("128") == 128
    assert Param("t", "bool", False).parse("yes") is True
    assert Param("t", "bool", False).parse("0") is False
    assert Param("s", "shape", (8, 64)).parse("8,16") == (8, 16)
    assert Param("s", "shape", (8, 64)).parse("[8, 16]") == (8, 16)
    assert Param("m", "mesh", {"x": 2}).parse("x=2,y=4") == {"x": 2, "y": 4}
    assert Param("p", "spec", ()).parse("(x,y),None") == (("x", "y"), None)
    assert Param("p", "spec", ()).parse("x") == ("x",)
    assert Param("c", "choice", "128B").parse("64B") == "64B"
    assert Param("opt", "int", None).parse("auto") is None


def test_check_normalizes_and_refuses_with_the_preset_and_parameter_named():
    assert Param("s", "shape", (8,)).check("p", 8) == (8,)
    assert Param("p", "spec", ()).check("p", ["x", ("y",), None]) == ("x", "y", None)
    with pytest.raises(PresetError, match="p: parameter n must be an integer"):
        Param("n", "int", 1).check("p", True)
    with pytest.raises(PresetError, match="must be one of 1, 2"):
        Param("n", "int", 1, choices=(1, 2)).check("p", 3)
    with pytest.raises(PresetError, match="True or False"):
        Param("t", "bool", False).check("p", 1)
    with pytest.raises(PresetError, match="positive integers"):
        Param("s", "shape", (8,)).check("p", (8, 0))
    with pytest.raises(PresetError, match="p: parameter m: the size of mesh axis 'x'"):
        Param("m", "mesh", {"x": 2}).check("p", {"x": 0})
    with pytest.raises(PresetError, match="entry 3"):
        Param("p", "spec", ()).check("p", ("x", 3))


def test_refused_values_say_why():
    p = Param("mode", "choice", "a", choices=("a", "b"), refused={"b": "not sourced"})
    with pytest.raises(PresetError, match="mode='b' is not available: not sourced"):
        p.check("x", "b")
    with pytest.raises(TypeError):
        p.refused["c"] = "no"  # type: ignore[index]


def test_to_dict_is_json_ready_and_every_kind_is_listed():
    d = Param("s", "shape", (8, 64), choices=((8, 64), (16, 32)), doc="tile").to_dict()
    assert d == {"name": "s", "kind": "shape", "default": [8, 64],
                 "choices": [[8, 64], [16, 32]], "required": False, "doc": "tile"}
    assert PARAM_KINDS == ("choice", "int", "bool", "shape", "mesh", "spec", "order")


def test_order_is_a_permutation():
    assert Param("o", "order", (1, 0)).parse("1,0") == (1, 0)
    assert Param("o", "order", (0,)).parse("0") == (0,)
    assert Param("o", "order", (1, 0)).check("p", [0, 1]) == (0, 1)
    with pytest.raises(PresetError, match="permutation"):
        Param("o", "order", (1, 0)).check("p", (1, 1))


def test_an_int_parameter_refuses_words():
    with pytest.raises(PresetError, match="must be an integer"):
        Param("n", "int", 64).parse("many")
