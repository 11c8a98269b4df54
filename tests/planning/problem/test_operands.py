"""Every planning entry point takes what the others take -- layouts, layout text and
``preset:`` strings -- and plans for one stated element type: operands that hold
different ones are refused until ``dtype=`` says which (planning/problem/operands.py)."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tests.helpers import run
from tilelayout import presets
from tilelayout.planning.problem.operands import operand, resolve

ROWS, COLS = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"
WGMMA = "preset:wgmma.m64nNk16.D:n=128"
TILE_BF16 = "preset:smem.tile:dtype=bfloat16:mode=128B:shape=64,128"


def test_smem_access_takes_text_like_layouts():
    by_text = tl.smem_access(ROWS, "S[(32,32):(32,1)]", (32, 32), "float32")
    by_object = tl.smem_access(tl.parse(ROWS), tl.parse("S[(32,32):(32,1)]"), (32, 32),
                               "float32")
    assert by_text == by_object and (by_text.wavefronts, by_text.ideal) == (256, 32)


def test_choose_smem_layout_takes_text_and_presets():
    by_text = tl.choose_smem_layout(ROWS, COLS, (32, 32), "float16")
    by_object = tl.choose_smem_layout(tl.parse(ROWS), tl.parse(COLS), (32, 32), "float16")
    assert (by_text.layout, by_text.wavefronts) == (by_object.layout, by_object.wavefronts)
    c = tl.choose_smem_layout("preset:mma.m16n8k16.C", "S[(16,8):(1,1@laneid)]")
    assert (c.shape, c.dtype) == ((16, 8), "float32")       # both from the preset


def test_preset_strings_and_objects_resolve_alike():
    p = presets.get("wgmma.m64nNk16.D", n=128)
    a, b = operand(WGMMA, "src"), operand(p, "src")
    assert a == b and (a.shape, a.dtype, a.preset) == ((64, 128), "float32", p.name)


def test_different_preset_dtypes_are_refused_by_every_entry_point():
    calls = [lambda: tl.plan_conversion(WGMMA, TILE_BF16),
             lambda: tl.smem_access(WGMMA, TILE_BF16),
             lambda: tl.choose_smem_layout(WGMMA, "preset:wgmma.m64nNk16.D:n=128")]
    for call in calls[:2]:
        with pytest.raises(tl.LayoutError, match=r"different element types \(.*float32.*"
                           r"bfloat16\); say which one to plan for with dtype="):
            call()
    assert calls[2]().dtype == "float32"      # the same dtype on both sides is no conflict


def test_dtype_given_wins_and_is_stated():
    p = tl.plan_conversion(WGMMA, TILE_BF16, dtype="bfloat16")
    assert p.dtype == "bfloat16" and "64x128 bfloat16" in str(p)
    assert p.costs["smem_bytes"] == 64 * 128 * 2
    r = tl.smem_access(WGMMA, TILE_BF16, dtype="bfloat16")
    assert r.dtype == "bfloat16" and r.vector_bytes == 4


def test_nothing_says_the_dtype():
    assert tl.plan_conversion(ROWS, COLS).dtype == "float32"           # the stated default
    with pytest.raises(tl.LayoutError, match="give dtype="):
        tl.choose_smem_layout(ROWS, COLS, (32, 32))


@pytest.mark.parametrize("bad", [3, None, ["S[(4):(1)]"]])
def test_other_operands_are_one_line_errors(bad):
    with pytest.raises(tl.LayoutError, match="must be a layout, layout text or 'preset:") as e:
        tl.smem_access(bad, "S[(4):(1)]", (4,), "float32")
    assert "\n" not in str(e.value)


def test_bad_text_names_the_side():
    with pytest.raises(tl.LayoutError, match="^reader: "):
        tl.choose_smem_layout(ROWS, "S[(32,32):(1,", (32, 32), "float16")
    with pytest.raises(tl.LayoutError, match="preset"):
        resolve([("preset:no.such.preset", "src")])


def test_cli_refuses_mixed_dtypes_and_states_the_one_planned():
    p = run("plan", WGMMA, TILE_BF16)
    assert p.returncode == 2 and "--dtype" in p.stderr and "bfloat16" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    p = run("plan", WGMMA, TILE_BF16, "--dtype", "bfloat16")
    assert p.returncode == 0, p.stderr
    assert "(64x128 bfloat16)" in p.stdout.splitlines()[0]


def test_explorer_refuses_mixed_dtypes_on_the_dtype_field():
    from tilelayout.explorer.request import ApiError
    from tilelayout.explorer.views.plan import plan_view
    req = {"src": {"preset": "wgmma.m64nNk16.D", "params": {"n": 64}},
           "dst": {"preset": "smem.tile", "params": {"dtype": "bfloat16", "shape": [64, 64]}}}
    with pytest.raises(ApiError, match="different element types") as e:
        plan_view(req)
    assert e.value.field == "dtype"
    assert plan_view({**req, "dtype": "bfloat16"})["dtype"] == "bfloat16"


def test_a_shape_given_as_text_is_read_or_refused_in_one_line():
    """issue 26: smem_access and choose_smem_layout raised TypeError on a shape as text."""
    src, smem = "preset:mma.m16n8k16.C", "preset:smem.tile:dtype=float32:shape=16,8"
    assert tl.smem_access(src, smem, "16,8").to_dict() == tl.smem_access(src, smem, (16, 8)).to_dict()
    assert tl.choose_smem_layout(src, src, "16x8").layout == tl.choose_smem_layout(src, src, (16, 8)).layout
    for bad in ["16,x", (True, 8), (16.0, 8), "9" * 5000]:
        with pytest.raises(tl.LayoutError) as info:
            tl.smem_access(src, smem, bad)
        assert "\n" not in str(info.value)
