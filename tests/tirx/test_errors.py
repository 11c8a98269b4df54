"""TIRx's error kinds are LayoutErrors too, and the argument checks refuse what TIRx's
Python would turn into a raw exception (a list for an int, a float, a bool, a huge int)."""

from __future__ import annotations

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError, LayoutTypeError
from tilelayout.tirx.errors import check_int, check_ints


def test_kinds():
    for cls, builtin in ((T.TirxAssertionError, AssertionError), (T.TirxInternalError, RuntimeError),
                         (T.TirxTypeError, TypeError), (T.TmemLayoutError, ValueError)):
        assert issubclass(cls, LayoutError) and issubclass(cls, builtin)


@pytest.mark.parametrize("value,message", [(True, "int"), (1.0, "int"), ("3", "int"), ([3], "int"),
                                           (1 << 70, "64 bits"), (-1, ">= 0")])
def test_check_int_refuses(value, message):
    with pytest.raises(LayoutError, match=message):
        check_int(value, "n", low=0)


def test_check_ints():
    assert check_ints((1, 2), "shape", low=1, length=2) == (1, 2)
    with pytest.raises(LayoutTypeError):
        check_ints(5, "shape")
    with pytest.raises(LayoutError, match="2 entries"):
        check_ints([1], "shape", length=2)
    with pytest.raises(LayoutError, match="at most 64"):
        check_ints([1] * 65, "shape")


@pytest.mark.parametrize("call", [
    lambda: T.mma_shared_layout("float16", 3, [64]), lambda: T.mma_shared_layout("float16", 3, 64),
    lambda: T.mma_shared_layout("float99999", 1, [8, 16]),
    lambda: T.tmem_datapath_layout(["A"], 128, 64), lambda: T.tmem_datapath_layout("E", 64, "abc"),
    lambda: T.tmem_datapath_layout("A", 128, [8]),
    lambda: T.tmem_mma_operand_layout("D", 64, "float16", M=64, cta_group=1),
    lambda: T.tmem_mma_operand_layout("D", (64, 64), "float16", M=64, cta_group=[1]),
    lambda: T.tcgen05_atom_layout("32x32b", -1, "float32"), lambda: T.SwizzleLayout("a", 1, 1),
    lambda: T.TileLayout(T.S[2, 3]).permute_dims(None),
    lambda: T.TileLayout(T.S[2, 3]).permute_dims([0.0]),
    lambda: T.TileLayout(T.S[2, 3]).permute_by_groups([0, 1, 2], 5),
    lambda: T.TileLayout(T.S[4]).tile(None, [1], [4]),
])
def test_issue_29_raw_exceptions_are_layout_errors(call):
    with pytest.raises(LayoutError):
        call()


def test_issue_29_swizzle_inner_as_given():
    C = T.ComposeLayout(0, 0, 3, T.TileLayout(T.S[64]), swizzle_inner=False)
    assert C.swizzle_inner is False  # TIRx reports False; the swizzle is the identity either way
