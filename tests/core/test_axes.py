"""Axes are values: tables passed explicitly or put in force for a block, never a registry."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import threading

import pytest

import tilelayout as tl
from tilelayout.core.axes import BUILTIN, AxisTable, axis_of, current


def test_builtin_table_knows_the_hardware_axes():
    assert current() == BUILTIN == tl.axes() == AxisTable()
    assert [a.name for a in tl.axes()][:3] == ["m", "TLane", "TCol"]
    assert tl.axes()["laneid"].scope == ("thread", "warp") and len(BUILTIN.declared) == 0
    assert "pid" in BUILTIN and "data" not in BUILTIN and 7 not in BUILTIN


def test_a_table_is_an_immutable_value():
    t = AxisTable().with_axis("data").with_axes("model", stage=4)
    assert [a.name for a in t.declared] == ["data", "model", "stage"]
    assert t["stage"].extent == 4 and t.with_axes("data") is t  # nothing new: the same table
    assert t == AxisTable([tl.Axis("data"), tl.Axis("model"), tl.Axis("stage", extent=4)])
    assert hash(t) == hash(eval(repr(t), vars(tl))) and eval(repr(t), vars(tl)) == t
    assert "data" not in BUILTIN and not tl.is_axis("data")  # building tables changed nothing
    with pytest.raises(AttributeError):
        t._declared = ()  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(t)) == t and copy.deepcopy(t) == t
    with pytest.raises(tl.LayoutError, match="already declared as device with extent 4"):
        t.with_axis("stage", extent=8)
    with pytest.raises(tl.LayoutError, match="already declared as thread"):
        t.with_axes("laneid")
    with pytest.raises(tl.LayoutError, match="an axis declaration is a name"):
        t.with_axes(3)  # type: ignore[arg-type]


def test_with_blocks_nest_and_end():
    with tl.axes("data") as outer:
        assert current() is outer and tl.is_axis("data")
        with tl.axes(model=2):
            assert tl.is_axis("data") and tl.axis("model").extent == 2
        assert not tl.is_axis("model")
    assert current() == BUILTIN and not tl.is_axis("data")
    with pytest.raises(RuntimeError), tl.axes("boom"):
        raise RuntimeError
    assert current() == BUILTIN  # an exception leaves the block too


def test_threads_never_see_each_others_tables():
    seen: dict[str, bool] = {}
    entered, release = threading.Event(), threading.Event()

    def worker() -> None:
        with tl.axes("worker_axis"):
            entered.set()
            release.wait(10)
            seen["worker"] = tl.is_axis("worker_axis")

    t = threading.Thread(target=worker)
    t.start()
    entered.wait(10)
    seen["main"] = tl.is_axis("worker_axis")
    release.set()
    t.join()
    assert seen == {"worker": True, "main": False}


def test_parse_checks_names_against_the_table_given_or_in_force():
    with pytest.raises(tl.UnknownAxisError, match="did you mean 'laneid'"):
        tl.parse("S[4:1@lane]")
    with pytest.raises(tl.UnknownAxisError, match="did you mean 'data'"):
        tl.parse("S[4:1@dta]", axes=["data"])
    for axes in (["data"], "data", {"data": None}, tl.axes("data"), [tl.Axis("data")]):
        assert tl.parse("S[4:1@data]", axes=axes).axes == ("data",)
    with pytest.raises(tl.LayoutError, match="axes= takes"):
        tl.parse("S[4]", axes=3)  # type: ignore[arg-type]


def test_declare_axis_builds_a_value_and_registers_nothing():
    ax = tl.declare_axis("tp_extra", extent=4)
    assert ax == tl.Axis("tp_extra", "device", extent=4) and not tl.is_axis("tp_extra")
    assert tl.parse("S[4:1@tp_extra]", axes=[ax]).apply(3) == ({"tp_extra": 3},)
    with pytest.raises(tl.LayoutError, match="already declared as thread"):
        tl.declare_axis("laneid")


def test_layouts_outlive_the_block_that_declared_their_axes():
    with tl.axes(model=4):
        L = tl.parse("S[(4,2):(1@model,1)] + R[2:1@pid]")
    # evaluation and algebra need names only; analyses read an unknown name as a device axis
    assert L.canonicalize() == L and L.apply(5) == ({"model": 2, "m": 1, "pid": 0},
                                                    {"model": 2, "m": 1, "pid": 1})
    assert axis_of("model") == tl.Axis("model") and tl.legality(L).ok
    with tl.axes(model=2):
        assert not tl.legality(L).ok  # the table in force says model has 2 values


REPR_CASES = [
    ("S[(2,4):(1@data,1)] + R[2:1@model]", ["data", "model"]),
    ("ComposeLayout(Swizzle(3,3,3), S[(2,8,64):(1@pp,64,1)])", ["pp"]),
    ("S[(4,2):(1@stage,1)]", [tl.Axis("stage", extent=4)]),
]


@pytest.mark.parametrize(("text", "axes"), REPR_CASES)
def test_repr_and_str_round_trip_in_a_fresh_interpreter(text, axes):
    with tl.axes(*axes):
        L = tl.parse(text)
        shown = repr(L)
    code = f"from tilelayout import parse, Axis\nL = {shown}\nprint(str(L)); print(repr(L))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    printed, again = out.stdout.splitlines()
    assert printed == str(L) == text
    assert eval(again, vars(tl)) == L  # the fresh interpreter's repr rebuilds it too
    assert tl.parse(str(L), axes=axes) == L  # the text with its declarations


def test_the_builder_checks_names_against_the_table_in_force():
    with pytest.raises(AttributeError, match="did you mean the axis 'laneid'"):
        tl.lanied  # noqa: B018
    with tl.axes("data"):
        assert str(tl.S[(2, 4):(1 @ tl.data, 1)]) == "S[(2,4):(1@data,1)]"
    with pytest.raises(AttributeError):
        tl.data  # noqa: B018
