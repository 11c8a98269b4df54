"""Gluon layout objects in and out, checked against Triton's own lowering (Gluon's
``to_linear_layout`` on the CPU): every Gluon layout class imports to the layout whose
bases are Triton's; every preset survives preset -> to_gluon -> from_triton unchanged; the
Python ``convert --to gluon`` writes runs in Triton and equals ours; zero bases are
broadcast on distributed layouts and padding on memory ones, both ways."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.convert import convert
from tilelayout.interop.triton import (
    from_triton,
    to_gluon,
    to_triton,
    to_triton_bases,
    triton_thread_axes,
)
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton.experimental.gluon import language as ttgl  # noqa: E402
from triton.experimental.gluon.language import amd  # noqa: E402
from triton.experimental.gluon.language.nvidia import blackwell  # noqa: E402

from ..triton_lowering import triton_bases  # noqa: E402


def our_bases(layout, shape):
    if isinstance(layout, tl.ComposeLayout) or tuple(layout.axes) == ("m",):
        return {"offset": to_triton_shared_bases(layout, shape)}
    return to_triton_bases(layout, shape)


MMA2 = ttgl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
MMA3 = ttgl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])
BLOCKED = ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0])
OBJECTS = [
    (BLOCKED, (64, 64)),
    (ttgl.BlockedLayout([2, 1], [8, 4], [1, 4], [0, 1]), (8, 256)),
    (ttgl.SliceLayout(0, BLOCKED), (64,)),
    (ttgl.SliceLayout(1, MMA2), (32,)),
    (MMA2, (64, 32)),
    (MMA3, (128, 64)),
    (ttgl.DotOperandLayout(0, MMA2, 2), (32, 32)),
    (ttgl.DotOperandLayout(1, MMA2, 8), (64, 16)),
    (ttgl.DotOperandLayout(0, MMA3, 4), (64, 64)),
    (ttgl.DotOperandLayout(0, BLOCKED, 0), (64, 16)),
    (amd.AMDMFMALayout(3, [32, 32, 8], True, [2, 2]), (64, 64)),
    (amd.AMDMFMALayout(4, [16, 16, 32], False, [1, 4]), (32, 64)),
    (amd.AMDWMMALayout(2, False, [[0, 1], [1, 0]]), (32, 32)),
    (ttgl.DistributedLinearLayout([[0, 1]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [], [], [8, 8]),
     (8, 8)),
    (ttgl.NVMMASharedLayout(128, 16), (64, 64)),
    (ttgl.NVMMASharedLayout(64, 8, transposed=True), (64, 64)),
    (ttgl.NVMMASharedLayout(128, 8, fp4_padded=True), (16, 64)),
    (ttgl.SwizzledSharedLayout(4, 2, 4, [1, 0]), (32, 64)),
    (ttgl.SharedLinearLayout([[0, 1], [0, 2], [1, 0], [2, 1]]), (4, 4)),
    (blackwell.TensorMemoryLayout((128, 64), 1), (128, 128)),
    (blackwell.TensorMemoryLayout((64, 64), 1), (128, 64)),
    (blackwell.TensorMemoryLayout((128, 32), 2), (128, 32)),
]


@pytest.mark.parametrize("obj, shape", OBJECTS, ids=lambda x: type(x).__name__ if not
                         isinstance(x, tuple) else "x".join(map(str, x)))
def test_every_gluon_class_imports_to_tritons_bases(obj, shape):
    ours = from_triton(obj, shape)
    assert our_bases(ours, shape) == triton_bases(obj, shape), str(ours)


def test_linear_layout_and_plain_swizzle():
    L = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    assert from_triton(to_triton(L, (16, 8))) == L
    # a plain Swizzle when one is equal (docs/interop/triton.md)
    got = from_triton(ttgl.SwizzledSharedLayout(2, 2, 4, [1, 0]), (32, 32))
    assert got == tl.ComposeLayout(tl.Swizzle(1, 2, 5), tl.parse("S[(32,32):(32,1)]"))


def test_a_tools_linear_layout_over_offset_reads_as_shared_memory():
    from triton.tools import LinearLayout

    ll = LinearLayout.from_bases([("offset", [[0, 1], [1, 1]])], ["dim0", "dim1"], [2, 2])
    assert from_triton(ll) == tl.ComposeLayout(tl.Swizzle(0, 1, 1), tl.parse("S[(2,2):(2,1)]"))
    mixed = LinearLayout.from_bases([("offset", [[0, 1]]), ("register", [[1, 0]])],
                                    ["dim0", "dim1"], [2, 2])
    with pytest.raises(InteropError, match="over 'offset' only"):
        from_triton(mixed)


def _round_trip_presets():
    for name in presets.names():
        p = presets.default(name)
        try:
            obj = to_gluon(p.layout, p.shape)
        except InteropError as exc:
            yield name, p, None, str(exc)
            continue
        yield name, p, obj, None


def test_every_preset_round_trips_through_gluon():
    """preset -> to_gluon -> from_triton gives the preset's layout back (equal as values),
    or to_gluon refuses with the reason; Triton's lowering of the object has our bases."""
    named, linear, refused = [], [], []
    for name, p, obj, why in _round_trip_presets():
        if obj is None:
            assert why, name
            refused.append(name)
            continue
        back = from_triton(obj, p.shape)
        want = triton_thread_axes(p.layout) if isinstance(p.layout, tl.TileLayout) else p.layout
        assert back == want or back.equivalent(want, p.shape), (name, str(back))
        assert our_bases(p.layout, p.shape) == triton_bases(obj, p.shape), name
        (linear if "Linear" in type(obj).__name__ else named).append(name)
    assert "triton.blocked" in named and "wgmma.m64nNk16.D" in named
    assert "tmem.accumulator" in named and "smem.tile" in named and "amd.mfma" in named
    assert "triton.tmem_scales" in named and "triton.dot_operand" in named
    assert "triton.slice" in named
    assert len(named) + len(linear) >= 25, (named, linear, refused)


@pytest.mark.parametrize("name, params, cls", [
    ("wgmma.m64nNk16.D", {"n": 64}, "NVMMADistributedLayout"),
    ("tmem.accumulator", {}, "TensorMemoryLayout"),
    ("smem.tile", {}, "NVMMASharedLayout"),
    ("triton.blocked", {}, "BlockedLayout"),
    ("mma.m16n8k16.A", {"dtype": "float16"}, "NVMMADistributedLayout"),
    ("triton.slice", {"dim": 1, "order": (0, 1)}, "SliceLayout"),
    ("triton.dot_operand", {"operand_index": 1, "k_width": 8}, "DotOperandLayout"),
    ("amd.mfma", {}, "AMDMFMALayout"),
    ("tcgen05.ld.16x64b", {}, "DistributedLinearLayout"),
])
def test_convert_to_gluon_code_runs_in_triton(name, params, cls):
    p = presets.get(name, **params)
    r = convert(p.layout, p.shape, "gluon")
    namespace: dict = {}
    exec(r["text"], namespace)  # the code a user pastes
    obj = namespace["layout"]
    assert type(obj).__name__ == cls == r["value"]["class"]
    assert our_bases(p.layout, p.shape) == triton_bases(obj, p.shape)
    want = triton_thread_axes(p.layout) if isinstance(p.layout, tl.TileLayout) else p.layout
    assert from_triton(obj, p.shape).equivalent(want, p.shape)


def test_wgmma_is_a_v3_layout_and_warpgroup_axes_map_to_warps():
    p = presets.get("wgmma.m64nNk16.D", n=128)
    obj = to_gluon(p.layout, p.shape)
    assert obj == ttgl.NVMMADistributedLayout([3, 0], [4, 1], [16, 128, 16])
    assert to_triton_bases(p.layout, p.shape)["warp"] == [[16, 0], [32, 0]]  # wid_in_wg bits
    two = tl.parse("S[(2,128):(1@wgid,1@tid_in_wg)]")  # warp = wid_in_wg + 4*wgid
    assert to_triton_bases(two, (2, 128)) == {
        "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], "warp": [[0, 32], [0, 64], [1, 0]]}


def test_zero_bases_broadcast_on_distributed_padding_on_memory():
    # distributed: a zero lane basis is a replica, both ways
    L = tl.parse("S[16:1@laneid] + R[2:16@laneid]")
    assert to_triton_bases(L, (16,))["lane"][-1] == [0]
    assert from_triton(to_triton(L, (16,))) == L
    # shared: a zero offset basis is padding: no element at those offsets
    shared = ttgl.SharedLinearLayout([[0, 1], [0, 0], [1, 0]])
    got = from_triton(shared, (2, 2))
    assert got == tl.parse("S[(2,2):(4,1)]")
    assert to_triton_shared_bases(got, (2, 2)) == [[0, 1], [0, 0], [1, 0]]
    # tensor memory: an unpacked column stride leaves every other column empty
    tm = from_triton(blackwell.TensorMemoryLayout((128, 32), 2), (128, 32))
    assert tm == tl.parse("S[(128,32):(1@TLane,2@TCol)]")
    with pytest.raises(InteropError, match="padding"):
        to_triton_bases(tl.parse("S[8:2@laneid]"))
    with pytest.raises(InteropError, match="padding, not a broadcast"):
        to_triton_shared_bases(tl.parse("S[8:1] + R[2:8]"))


def test_refusals_say_why():
    with pytest.raises(InteropError, match="expected a Gluon layout object"):
        from_triton(object())
    with pytest.raises(InteropError, match="give the tensor shape"):
        from_triton(BLOCKED)
    with pytest.raises(InteropError, match="power-of-two shapes"):
        from_triton(BLOCKED, (64, 48))  # Triton would abort the process here
    with pytest.raises(InteropError, match="size_per_thread=.1, 3.: expected 2 powers of two"):
        from_triton(ttgl.SliceLayout(0, ttgl.BlockedLayout([1, 3], [4, 8], [2, 2], [1, 0])), (64,))
    with pytest.raises(InteropError, match="has rank 2; shape .4, 64, 64. has rank 3"):
        from_triton(MMA2, (4, 64, 64))
    with pytest.raises(InteropError, match="needs 64 contiguous elements along dimension 1"):
        from_triton(ttgl.NVMMASharedLayout(128, 16), (8, 32))
    with pytest.raises(InteropError, match="XOR pattern"):
        from_triton(ttgl.PaddedSharedLayout([[4, 1]], [[0, 1], [1, 1]], [], [2, 2]))
    with pytest.raises(InteropError, match="no TensorMemoryLayout"):
        to_gluon(tl.parse("S[(128,8,4):(1@TLane,1@TCol,8@TCol)]"), (128, 32))
    with pytest.raises(InteropError, match="power-of-two shapes"):
        to_gluon(tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"))


def test_docs_python_examples_run():
    """docs/interop/triton.md's Python blocks run as written, and the printed values are
    the ones its comments show."""
    import contextlib
    import io
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "interop" / "triton.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/interop/triton.md", "exec"), {})
        shown = [line.split("# ", 1)[1] for line in block.splitlines() if line.startswith("print(")]
        assert out.getvalue().splitlines() == shown


def test_padded_shared_layouts_are_affine_tiles():
    """Gluon's PaddedSharedLayout, by the examples of its docstring
    (triton/experimental/gluon/language/_layouts.py): element -> address, padding skipped.
    Triton has no linear layout for these (its toLinearLayout refuses them); ours is exact."""
    P = ttgl.PaddedSharedLayout
    cases = [
        # [e0, e1, p0, e2, e3, p1, p2, p3, e4, ...] for pairs [[2, 1], [4, 2]] over 8 elements
        (P.with_identity_for([[2, 1], [4, 2]], [8], [0]), (8,), [0, 1, 3, 4, 8, 9, 11, 12]),
        # [x0, x2, p0, p1, x1, x3]
        (P([[2, 2]], [[2], [1]], [], [4]), (4,), [0, 4, 1, 5]),
        # rows x0, x2, p0, x4, x6, p1, x1, x3, p2, x5, x7 of 4 elements each
        (P([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4]), (8, 4),
         [0, 18, 4, 22, 9, 27, 13, 31]),
    ]
    for obj, shape, starts in cases:
        m = from_triton(obj).map_all(shape)["m"][..., 0]
        firsts = m.reshape(shape[0], -1)[:, 0].tolist()
        assert firsts == starts, (obj, firsts)
        if len(shape) == 2:  # each row of 4 is contiguous
            assert (m - m[:, :1] == [[0, 1, 2, 3]]).all()


def test_slices_come_back_as_slice_layouts():
    """to_gluon names a slice of a blocked layout (the sliced dimension's lanes and warps
    are our broadcasts); every one reads back equal."""
    import itertools

    named = 0
    grid = list(itertools.product((0, 1), [(1, 4), (2, 1)], [(4, 8), (32, 1)], [(2, 2), (1, 4)],
                                  [(1, 0), (0, 1)], [(64,), (8,), (256,)]))
    for dim, spt, tpw, warps, order, shape in grid:
        p = presets.get("triton.slice", dim=dim, size_per_thread=spt, threads_per_warp=tpw,
                        warps_per_cta=warps, order=order, shape=shape)
        obj = to_gluon(p.layout, shape)
        assert from_triton(obj, shape) == p.layout
        named += type(obj).__name__ in ("SliceLayout", "BlockedLayout")
    assert len(grid) == 96 and named >= 90


def test_convert_to_gluon_runs_for_every_preset():
    """The code `convert --to gluon` writes, for every preset it does not refuse, runs in
    Triton's Python and lowers to our bases (nested parents qualified, imports included)."""
    ran = 0
    for name, p, obj, _ in _round_trip_presets():
        if obj is None:
            continue
        namespace: dict = {}
        exec(convert(p.layout, p.shape, "gluon")["text"], namespace)
        assert namespace["layout"] == obj, name
        assert our_bases(p.layout, p.shape) == triton_bases(namespace["layout"], p.shape), name
        ran += 1
    assert ran >= 30
