"""CuTe interop: our own parser against pycute (from the nvidia-cutlass wheel), round
trips, thread-value layouts and the CUTLASS SM80 mma atoms against our mma presets.

to_cute_tv (ours -> CuTe thread-value text) is checked against pycute's evaluation of the
produced text at every (thread, value), against the CUTLASS layouts (the SM80 mma atoms
of include/cute/atom/mma_traits_sm80.hpp and mma_traits_sm89.hpp, the wgmma accumulator
of mma_traits_sm90_gmma.hpp), and by the round trip through from_cute_tv."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.cute import (
    cute_logical_shape,
    from_cute,
    from_cute_tv,
    parse_cute,
    thread_axes,
    to_cute,
    to_cute_tv,
    to_pycute,
)

pycute = pytest.importorskip("pycute", reason="pycute ships in the optional 'cute' extra (nvidia-cutlass)")


def _random_mode(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.5:
        return rng.choice([1, 2, 3, 4, 5, 8]), rng.choice([0, 1, 2, 3, 7, 16, -1, -5])
    parts = [_random_mode(rng, depth - 1) for _ in range(rng.randint(1, 3))]
    return tuple(p[0] for p in parts), tuple(p[1] for p in parts)


def _random_layout(rng: random.Random):
    modes = [_random_mode(rng, 2) for _ in range(rng.randint(1, 3))]
    if len(modes) == 1 and rng.random() < 0.5:
        return modes[0]
    return tuple(m[0] for m in modes), tuple(m[1] for m in modes)


def _random_layouts(seed: int, cap: int):
    """Random nested CuTe ``(shape, stride)`` pairs of at most ``cap`` elements, endless."""
    rng = random.Random(seed)
    while True:
        shape, stride = _random_layout(rng)
        if math.prod(cute_logical_shape((shape, stride))) <= cap:
            yield shape, stride


def _fmt(t):
    return f"({','.join(_fmt(x) for x in t)})" if isinstance(t, tuple) else str(t)


def test_every_coordinate_matches_pycute_on_random_nested_layouts():
    checked = 0
    for shape, stride in _random_layouts(6, 2048):
        if checked >= 20000:
            break
        text = f"{_fmt(shape)}:{_fmt(stride)}"
        ref = pycute.Layout(shape, stride)
        ours = from_cute(text)
        dims = cute_logical_shape(text)
        m = ours.map_all(dims)["m"][..., 0] if ours.axes else np.zeros(dims, dtype=np.int64)
        for coord in itertools.product(*(range(d) for d in dims)):
            want = ref(*coord) if len(dims) > 1 else ref(coord[0])
            assert m[coord] == want, (text, coord)
            checked += 1
        # and back: the CuTe text we print is the same function in pycute
        back = to_cute(ours, dims)
        _, sh, st = parse_cute(back)
        again = pycute.Layout(sh, st)
        for k in range(math.prod(dims)):
            assert again(k) == ref(k), (text, back, k)


def test_text_forms():
    assert parse_cute("(_4,_8):(_8,_1)") == (None, (4, 8), (8, 1))
    assert parse_cute("8") == (None, 8, 1)
    sw, sh, st = parse_cute("Swizzle<3,3,3> o ((8,8),64):((64,512),1)")
    assert sw == tl.Swizzle(3, 3, 3) and sh == ((8, 8), 64)
    with pytest.raises(tl.LayoutParseError, match="column 10"):
        parse_cute("(4,8):(8,)")
    with pytest.raises(InteropError, match="not congruent"):
        parse_cute("(4,8):8")


def test_swizzle_matches_pycute():
    text = "Swizzle<3,3,3> o (8,64):(64,1)"
    ours = from_cute(text)
    assert isinstance(ours, tl.ComposeLayout) and ours.swizzle == tl.Swizzle.for_dtype("float16", "128B")
    sw = pycute.Swizzle(3, 3, 3)
    base = pycute.Layout((8, 64), (64, 1))
    m = ours.map_all((8, 64))["m"][..., 0]
    for i in range(8):
        for j in range(64):
            assert m[i, j] == sw(base(i, j))
    assert to_cute(ours) == text


@pytest.mark.parametrize("b, m, s", [(3, 3, 3), (3, 3, -3), (2, 0, -3), (1, 2, -4), (2, 1, -2)])
def test_signed_swizzle_shift_matches_pycute(b, m, s):
    """A negative S (the lower bit group XORed into the higher one) is an XorSwizzle; both
    signs evaluate like pycute's Swizzle at every address and print back unchanged."""
    text = f"Swizzle<{b},{m},{s}> o (8,64):(64,1)"
    ours = from_cute(text)
    assert isinstance(ours.swizzle, tl.XorSwizzle if s < 0 else tl.Swizzle)
    sw, base = pycute.Swizzle(b, m, s), pycute.Layout((8, 64), (64, 1))
    got = ours.map_all((8, 64))["m"][..., 0]
    assert [[int(v) for v in row] for row in got] == \
        [[sw(base(i, j)) for j in range(64)] for i in range(8)]
    assert to_cute(ours) == text


def test_to_cute_groups_by_shape_and_refuses_what_cute_cannot_say():
    L = tl.parse("S[(8,4,2):(1,32,16)]")
    assert to_cute(L, (32, 2)) == "((4,8),2):((32,1),16)"
    assert to_cute(tl.parse("S[64:1]"), (8, 8)) == "(8,8):(8,1)"  # an iter split at the boundary
    with pytest.raises(InteropError, match="replicas"):
        to_cute(tl.parse("S[4:1] + R[2:4]"))
    with pytest.raises(InteropError, match="offset"):
        to_cute(tl.parse("S[4:1] + 3"))
    with pytest.raises(InteropError, match="one integer codomain"):
        to_cute(tl.parse("S[(4,8):(1@laneid,1)]"))
    with pytest.raises(InteropError, match="no per-dimension form"):
        to_cute(tl.parse("S[(6,4):(4,1)]"), (4, 6))


def _pycute_tv(text):
    _, sh, st = parse_cute(text)
    return pycute.Layout(sh, st)


def test_tv_layout_inverts_pycute_exactly():
    # every (thread, value) CuTe names lands on the element our layout gives it, and back
    text, shape = "((4,8,4),(2,2,4)):((128,1,16),(64,8,512))", (64, 32)  # wgmma 64x32 D
    ours = from_cute_tv(text, shape, thread_axis="tid_in_wg")
    ref = _pycute_tv(text)
    arrays = ours.map_all(shape)
    for t in range(128):
        for v in range(16):
            idx = ref(t, v)
            row, col = idx % shape[0], idx // shape[0]
            assert arrays["tid_in_wg"][row, col, 0] == t and arrays["m"][row, col, 0] == v


def test_tv_stride_zero_modes_become_replicas():
    # 2 lanes hold every element (a broadcast mode of extent 2 with stride 0)
    text = "((2,4),2):((0,1),4)"
    ours = from_cute_tv(text, (4, 2))
    assert ours.replica == (tl.Iter(2, 1, "laneid"),)
    ref = _pycute_tv(text)
    for t in range(8):
        for v in range(2):
            idx = ref(t, v)
            coords = ours.apply((idx % 4, idx // 4), shape=(4, 2))
            assert {"laneid": t, "m": v} in [dict(c) for c in coords]


@pytest.mark.parametrize(("text", "shape", "missing"), [
    ("(32,1):(1,0)", (32,), "m"),            # one value per thread (e.g. a 32dp32b1x load)
    ("(1,(4,8)):(0,(1,4))", (4, 8), "laneid"),  # a single thread holds the tile
])
def test_tv_size_one_mode_keeps_its_axis(text, shape, missing):
    # the axis of a size-1 mode must still be in every coordinate (at 0), like pycute's
    # (thread, value) pair, instead of vanishing from the layout
    ours = from_cute_tv(text, shape)
    ref = _pycute_tv(text)
    assert missing in ours.axes
    for index in np.ndindex(*shape):
        (coord,) = ours.apply(index, shape=shape)
        t, v = coord["laneid"], coord["m"]
        flat = sum(i * math.prod(shape[:k]) for k, i in enumerate(index))  # column-major
        assert ref(t, v) == flat


def test_tv_refuses_layouts_that_do_not_tile():
    with pytest.raises(InteropError, match="exactly once"):
        from_cute_tv("(4,2):(1,8)", (4, 2))
    with pytest.raises(InteropError, match="two top-level modes"):
        from_cute_tv("8:1", (8,))


# CUTLASS include/cute/atom/mma_traits_sm80.hpp and mma_traits_sm89.hpp.
# (preset, dtype, CuTe layout, CuTe tile shape, permute to our orientation)
SM80_ATOMS = [
    ("mma.m16n8k16.A", "float16", "((4,8),(2,2,2)):((32,1),(16,8,128))", (16, 16), None),
    ("mma.m16n8k16.B", "float16", "((4,8),(2,2)):((16,1),(8,64))", (8, 16), (1, 0)),
    ("mma.m16n8k16.C", None, "((4,8),(2,2)):((32,1),(16,8))", (16, 8), None),
    ("mma.m16n8k16.A", "bfloat16", "((4,8),(2,2,2)):((32,1),(16,8,128))", (16, 16), None),
    ("mma.m16n8k8.A", "float16", "((4,8),(2,2)):((32,1),(16,8))", (16, 8), None),
    ("mma.m16n8k8.B", "float16", "((4,8),2):((16,1),8)", (8, 8), (1, 0)),
    ("mma.m16n8k8.C", None, "((4,8),(2,2)):((32,1),(16,8))", (16, 8), None),
    ("mma.m16n8k8.A", "tfloat32", "((4,8),(2,2)):((16,1),(8,64))", (16, 8), None),
    ("mma.m16n8k8.B", "tfloat32", "((4,8),2):((8,1),32)", (8, 8), (1, 0)),
    ("mma.m16n8k32.A", "int8", "((4,8),(4,2,2)):((64,1),(16,8,256))", (16, 32), None),
    ("mma.m16n8k32.B", "int8", "((4,8),(4,2)):((32,1),(8,128))", (8, 32), (1, 0)),
    ("mma.m16n8k32.A", "e4m3", "((4,8),(4,2,2)):((64,1),(16,8,256))", (16, 32), None),
    ("mma.m16n8k32.C", None, "((4,8),(2,2)):((32,1),(16,8))", (16, 8), None),
    ("mma.m16n8k16.A", "int8", "((4,8),(4,2)):((64,1),(16,8))", (16, 16), None),
    ("mma.m16n8k16.B", "int8", "((4,8),4):((32,1),8)", (8, 16), (1, 0)),
]


@pytest.mark.parametrize(("name", "dtype", "text", "shape", "permute"), SM80_ATOMS,
                         ids=[f"{a[0]}-{a[1]}" for a in SM80_ATOMS])
def test_cutlass_sm80_mma_atoms_are_exactly_our_presets(name, dtype, text, shape, permute):
    preset = presets.get(name, **({"dtype": dtype} if dtype else {}))
    ours = from_cute_tv(text, shape, permute=permute)
    assert ours == preset.layout, f"{name}: {ours} != {preset.layout}"
    # and the preset agrees with pycute's own evaluation of the CUTLASS atom
    ref = _pycute_tv(text)
    arrays = preset.layout.map_all(preset.shape)
    for t in range(32):
        for v in range(math.prod(shape) // 32):
            idx = ref(t, v)
            a, b = idx % shape[0], idx // shape[0]
            at = (b, a) if permute else (a, b)
            assert (arrays["laneid"][at][0], arrays["m"][at][0]) == (t, v)


# -- to_cute_tv: ours -> CuTe thread-value layouts -------------------------------------------
# every register-fragment / copy preset a TV layout applies to: (name, params)
TV_PRESETS = (
    [(f"mma.m16n8k{k}.{op}", {"dtype": dt}) for k, dts in
     ((16, ("float16", "bfloat16", "int8")), (8, ("float16", "tfloat32")), (32, ("int8", "e4m3")))
     for dt in dts for op in ("A", "B")]
    + [(f"mma.m16n8k{k}.C", {}) for k in (16, 8, 32)]
    + [(f"ldmatrix.x{x}", {"trans": t}) for x in (1, 2, 4) for t in (False, True)]
    + [("wgmma.m64nNk16.D", {"n": n}) for n in (8, 16, 64, 256)]
    + [(f"tcgen05.ld.{s}", {"num": n}) for s in ("32x32b", "16x64b", "16x128b", "16x256b")
       for n in (1, 2, 4)]
)


def _setup(name, params):
    p = presets.get(name, **params)
    permute = (1, 0) if name.startswith("mma.") and name.endswith(".B") else None
    cute_shape = tuple(reversed(p.shape)) if permute else p.shape
    return p, permute, cute_shape


def _thread_index(arrays, threads, at):
    """The combined thread index (outermost axis first, inner radix = hardware extent)."""
    t = 0
    for a in threads:
        t = t * tl.axis(a).extent + int(arrays[a][at][0]) if a in arrays else t * tl.axis(a).extent
    return t


@pytest.mark.parametrize(("name", "params"), TV_PRESETS, ids=[f"{n}-{p}" for n, p in TV_PRESETS])
def test_every_tv_preset_agrees_with_pycute_and_round_trips(name, params):
    p, permute, cute_shape = _setup(name, params)
    L = p.layout
    threads = thread_axes(L)
    text = to_cute_tv(L, p.shape, threads, permute=permute)
    ref = _pycute_tv(text)
    nthreads, nvalues = _mode_sizes(ref)
    assert nthreads * nvalues == math.prod(p.shape)
    # pycute's evaluation of our text at every (t, v) is the element our preset puts there
    arrays = L.map_all(p.shape)
    seen = set()
    for t in range(nthreads):
        for v in range(nvalues):
            idx = ref(t, v)
            cute_coord = np.unravel_index(idx, cute_shape, order="F")
            ours = tuple(int(cute_coord[q]) for q in permute) if permute else tuple(map(int, cute_coord))
            assert _thread_index(arrays, threads, ours) == t, (text, t, v)
            assert (int(arrays["m"][ours][0]) if "m" in arrays else 0) == v, (text, t, v)
            seen.add(idx)
    assert len(seen) == math.prod(p.shape)  # a bijection onto the tile
    # and back: from_cute_tv of the text is the preset (wgmma: thread = tid_in_wg)
    if len(threads) == 1:
        back = from_cute_tv(text, cute_shape, thread_axis=threads[0], permute=permute)
        assert back == L or back.equivalent(L, p.shape), (text, back, L)
    else:
        back = from_cute_tv(text, cute_shape, thread_axis="tid_in_wg", permute=permute)
        renamed = tl.TileLayout([tl.Iter(it.extent, it.stride * (32 if it.axis == "wid_in_wg" else 1),
                                         "tid_in_wg" if it.axis in threads else it.axis)
                                 for it in L.shard])
        assert back.equivalent(renamed, p.shape), (text, back, renamed)


def _same_function(a, b):
    """Same (thread count, value count) and the same index at every flat (t, v)."""
    la, lb = _pycute_tv(a), _pycute_tv(b)
    if _mode_sizes(la) != _mode_sizes(lb):
        return False
    return all(la(k) == lb(k) for k in range(math.prod(_mode_sizes(lb))))


def _flat(t):
    return [x for s in t for x in _flat(s)] if isinstance(t, tuple) else [t]


def _mode_sizes(layout):
    return tuple(math.prod(_flat(s)) for s in layout.shape)


@pytest.mark.parametrize(("name", "dtype", "text", "shape", "permute"), SM80_ATOMS,
                         ids=[f"{a[0]}-{a[1]}" for a in SM80_ATOMS])
def test_equals_the_cutlass_sm80_atoms_as_functions(name, dtype, text, shape, permute):
    p = presets.get(name, **({"dtype": dtype} if dtype else {}))
    ours = to_cute_tv(p.layout, p.shape, permute=permute)
    assert _same_function(ours, text), (ours, text)


@pytest.mark.parametrize("n", [8, 16, 64, 256])
def test_wgmma_accumulator_equals_cute_clayout_64xn(n):
    # CUTLASS mma_traits_sm90_gmma.hpp:
    # SM90::GMMA::CLayout_64xN<N> = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))
    p = presets.get("wgmma.m64nNk16.D", n=n)
    ours = to_cute_tv(p.layout, p.shape, ("wid_in_wg", "laneid"))
    assert _same_function(ours, f"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"), ours


def test_the_documented_example_prints_cutlass_text():
    p = presets.get("mma.m16n8k16.A", dtype="float16")
    assert to_cute_tv(p.layout, p.shape) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    b = presets.get("mma.m16n8k16.B", dtype="float16")
    assert to_cute_tv(b.layout, b.shape, permute=(1, 0)) == "((4,8),(2,2)):((16,1),(8,64))"
    assert thread_axes(presets.get("wgmma.m64nNk16.D", n=16).layout) == ("wid_in_wg", "laneid")


def _random_tv(rng):
    """A random TV layout text: the tile index digits dealt to thread and value modes."""
    extents = [rng.choice([2, 2, 3, 4]) for _ in range(rng.randint(1, 5))]
    strides, acc = [], 1
    for e in extents:
        strides.append(acc)
        acc *= e
    order = list(range(len(extents)))
    rng.shuffle(order)
    cut = rng.randint(1, len(order))
    modes = [order[:cut], order[cut:]]
    sh = tuple(tuple(extents[i] for i in m) if m else 1 for m in modes)
    st = tuple(tuple(strides[i] for i in m) if m else 0 for m in modes)
    fmt = lambda t: f"({','.join(fmt(x) for x in t)})" if isinstance(t, tuple) else str(t)  # noqa: E731
    # a tile shape whose dims are products of leading digits (so no digit straddles)
    k = rng.randint(0, len(extents))
    dims = (math.prod(extents[:k]), math.prod(extents[k:])) if 0 < k < len(extents) else (acc,)
    return f"{fmt(sh)}:{fmt(st)}", dims


def test_random_tv_layouts_round_trip_as_functions():
    rng = random.Random(11)
    for _ in range(300):
        text, dims = _random_tv(rng)
        ours = from_cute_tv(text, dims)
        back = to_cute_tv(ours, dims)
        assert _same_function(back, text), (text, dims, str(ours), back)


@pytest.mark.parametrize(("text", "kwargs", "match"), [
    ("S[(8,64):(64,1)]", {}, "uses no thread axis"),
    ("S[4:1@laneid] + R[2:1@warpid]", {}, "replicas"),
    ("S[4:1@laneid] + 1", {}, "offset"),
    ("S[(2,4):(1@warpid,1@laneid)]", {}, r"uses axes \['warpid'\]"),
    ("S[16:2@laneid]", {}, "a gap"),
    ("S[(2,2):(1@laneid,1@laneid)]", {}, "an overlap"),
    ("S[4:-1@laneid]", {}, "not positive"),
    ("S[(2,16):(1@warpid,1@laneid)]", {"thread_axis": ("warpid", "laneid")}, "covers 16 of its 32"),
    ("S[4:1@laneid]", {"thread_axis": "m"}, "distinct"),
    ("S[(2,2):(1@laneid,1)]", {"permute": (0, 0)}, "permutation"),
])
def test_refusals_say_why(text, kwargs, match):
    with pytest.raises(InteropError, match=match):
        to_cute_tv(tl.parse(text), **kwargs)


def test_swizzled_layout_is_refused():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    with pytest.raises(InteropError, match="swizzles"):
        to_cute_tv(L)


# -- pycute objects and round trips (nesting, extent-1 strides) ----------------------------
def test_round_trips_keep_nesting_and_extent_one_strides():
    from tilelayout.interop.cute import cute_layout, to_pycute

    for shape, stride in itertools.islice(_random_layouts(11, 4096), 300):
        if isinstance(shape, tuple) and len(shape) == 1 and isinstance(shape[0], int):
            shape, stride = shape[0], stride[0]   # flat dims (n,) print as n:d (same function)
        text = f"{_fmt(shape)}:{_fmt(stride)}"
        ours = from_cute(text)
        assert to_cute(ours, shape=shape) == text                     # text, nested, exact
        pl = pycute.Layout(shape, stride)
        back = to_pycute(from_cute(pl), shape=pl.shape)
        assert (back.shape, back.stride) == (pl.shape, pl.stride)     # pycute object, exact
        assert cute_layout(pl).layout == ours and to_cute(cute_layout(text)) == text
        assert to_cute(pl) == text
    # the cases the issue names: extent-1 strides and nested modes
    assert to_cute(from_cute("((4,1),2):((8,5),1)"), shape=((4, 1), 2)) == "((4,1),2):((8,5),1)"
    assert to_cute(from_cute("(3,1):(1,7)")) == "(3,1):(1,7)"


def test_pycute_swizzle_and_composed_layout():
    from tilelayout.interop.cute import to_pycute

    for b, m, s in [(3, 3, 3), (2, 4, 3), (3, 4, -3), (1, 0, 1)]:
        sw = pycute.Swizzle(b, m, s)
        ours = from_cute(sw)
        assert isinstance(ours, tl.ComposeLayout)
        m_all = ours.map_all()["m"].reshape(-1)
        assert m_all.tolist() == [sw(i) for i in range(sw.size())]
        assert repr(to_pycute(ours.swizzle)) == repr(sw)
        inner = pycute.Layout((8, (4, 2)), (64, (1, 4)))
        composed = pycute.ComposedLayout(sw, 5, inner)
        got = from_cute(composed)
        dims = cute_logical_shape(composed)
        vals = got.map_all(dims)["m"][..., 0]
        for c in itertools.product(*(range(d) for d in dims)):
            assert vals[c] == composed(*c)
        again = to_pycute(got, shape=inner.shape)
        assert repr(again) == repr(composed)
    # a Layout as the outer function of a ComposedLayout is CuTe's composition
    outer, inner = pycute.Layout((8, 8), (8, 1)), pycute.Layout((4, 2), (2, 16))
    got = from_cute(pycute.ComposedLayout(outer, 0, inner))
    want = pycute.composition(outer, inner)
    vals = got.map_all(cute_logical_shape(inner))["m"][..., 0].transpose().reshape(-1)
    assert vals.tolist() == [want(i) for i in range(pycute.size(want))]
    with pytest.raises(InteropError, match="nonzero offset"):
        from_cute(pycute.ComposedLayout(outer, 3, inner))


def test_composed_text_with_an_offset_round_trips():
    from tilelayout.algebra.cute import CuteComposed, CuteLayout
    from tilelayout.interop.cute import read_cute

    cases = [("Sw<3,4,3> o _0 o (8,64):(64,1)", (3, 4, 3)),
             ("S<3,3,3> o 512 o (8,64):(64,1)", (3, 3, 3)),
             ("Swizzle<2,4,-3> o 64 o ((8,8),8):((8,64),1)", (2, 4, -3))]
    for text, bms in cases:
        got = from_cute(text)
        sw, offset, shape, stride = read_cute(text)
        ref = pycute.ComposedLayout(pycute.Swizzle(*bms), offset, pycute.Layout(shape, stride))
        dims = cute_logical_shape((shape, stride))
        vals = got.map_all(dims)["m"][..., 0]
        for c in itertools.product(*(range(d) for d in dims)):
            assert vals[c] == ref(*c), (text, c)
        printed = str(CuteComposed(sw, offset, CuteLayout(shape, stride)))   # prints what reads back
        assert read_cute(printed) == (sw, offset, shape, stride)
    with pytest.raises(InteropError, match="read_cute"):
        parse_cute("S<3,3,3> o 512 o (8,64):(64,1)")
    with pytest.raises(tl.LayoutParseError, match="offset is >= 0"):
        from_cute("S<3,3,3> o -4 o (8,64):(64,1)")


def test_a_composed_layout_of_a_rank_1_inner_layout_is_pycutes_function():
    """issue 29: from_cute(ComposedLayout(Layout((2,8),(1,4)), 0, Layout(4,1))) gave
    [0,4,1,5] (the composition's two modes read as two dimensions); pycute gives [0,1,4,5]."""
    for outer, inner in [(pycute.Layout((2, 8), (1, 4)), pycute.Layout(4, 1)),
                         (pycute.Layout((2, 8), (1, 4)), pycute.Layout((2, 2), (2, 1))),
                         (pycute.Layout((4, 8), (8, 1)), pycute.Layout(16, 2)),
                         (pycute.Layout((4, 8), (8, 1)), pycute.Layout((4, 2), (1, 4)))]:
        src = pycute.ComposedLayout(outer, 0, inner)
        dims = cute_logical_shape(src)
        vals = from_cute(src).map_all(dims)["m"][..., 0].transpose().reshape(-1)
        assert vals.tolist() == [src(i) for i in range(pycute.size(inner))], (outer, inner)
    past = pycute.ComposedLayout(pycute.Layout(1, 16), 0, pycute.Layout(8, 3))  # 48 i in pycute
    with pytest.raises(InteropError, match="past the outer layout's 1 elements"):
        from_cute(past)


def test_hostile_cute_text_is_one_line():
    for text, words in [("9" * 5000 + ":1", "an integer of 5000 digits"),
                        ("(" * 5000 + "4" + ")" * 5000, "at most 32 nested parentheses"),
                        (None, "expected CuTe text"), (["(4,8)"], "expected CuTe text")]:
        with pytest.raises(tl.LayoutError, match=words) as info:
            from_cute(text)
        assert "\n" not in str(info.value)
    with pytest.raises(tl.LayoutError, match="an axis name is a string"):
        from_cute("(4,8):(8,1)", ["m"])
    for bad in [None, "S[4]" + "]", 5]:
        with pytest.raises(tl.LayoutError):
            to_pycute(bad)
    assert to_pycute("S[(4,8):(8,1)]")(1, 2) == 10  # layout text, as every entry point takes
