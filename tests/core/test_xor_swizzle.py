"""XorSwizzle: validation, bijectivity and inverse vs brute force, equality with Swizzle on
all of Swizzle's parameters, text round trip, evaluation through ComposeLayout, banks,
explain, algebra and the explorer API."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.core.swizzle import as_plain_swizzle
from tilelayout.eval.forward import swizzle_array
from tilelayout.explorer.views.explain import explain_view
from tilelayout.explorer.views.layout import layout_view


@st.composite
def xor_swizzles(draw, max_bits: int = 10) -> tl.XorSwizzle:
    """A random invertible F2 matrix: unit vectors, random row additions, a permutation."""
    n = draw(st.integers(0, max_bits))
    images = [1 << k for k in range(n)]
    if n > 1:
        for i, j in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                                  max_size=3 * n)):
            if i != j:
                images[i] ^= images[j]
        images = draw(st.permutations(images))
    return tl.XorSwizzle(images)


def brute(sw: tl.XorSwizzle, m: int) -> int:
    """The definition, bit by bit."""
    out = (m >> sw.bits) << sw.bits
    for k, v in enumerate(sw.images):
        if (m >> k) & 1:
            out ^= v
    return out


# -- the value type ---------------------------------------------------------------------
@pytest.mark.parametrize("images, reason", [
    ((0,), "is 0"),
    ((1, 4), r"not below 2\*\*2"),
    ((1, -2), "negative"),
    ((1, 2, 3), "linearly"),
    ((3, 3), "linearly"),
    ((1 << 63,) * 63, "at most 62"),
    ((True,), "integer"),
    ((1.0,), "integer"),
])
def test_refused(images, reason):
    with pytest.raises(tl.SwizzleError, match=reason):
        tl.XorSwizzle(images)


def test_value_type():
    a, b = tl.XorSwizzle(1, 2, 4, 9, 18), tl.XorSwizzle([1, 2, 4, 9, 18])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != tl.XorSwizzle(1, 2, 4, 9) and a != tl.Swizzle(0, 2, 3)
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a._images = (1,)  # type: ignore[misc]
    assert str(a) == "XorSwizzle(1,2,4,9,18)" and repr(a) == "XorSwizzle(1, 2, 4, 9, 18)"
    assert tl.XorSwizzle().is_identity and tl.XorSwizzle().apply(12345) == 12345
    assert tl.XorSwizzle(np.int64(1), np.int32(2)).images == (1, 2)


@settings(max_examples=40)
@given(xor_swizzles())
def test_bijective_and_inverse_vs_brute_force(sw):
    n = sw.bits
    addresses = [brute(sw, m) for m in range(1 << n)]
    assert sorted(addresses) == list(range(1 << n))  # a permutation of [0, 2**n)
    for m in (0, 1, (1 << n) - 1, 5 << n, (3 << n) + 1, -1, -(1 << n) - 3):
        assert sw.apply(m) == brute(sw, m)
        assert sw.unapply(sw.apply(m)) == m and sw.inverse().inverse() == sw
    arr = np.arange(-(1 << n) - 5, (2 << n) + 5, dtype=np.int64)
    expect = [brute(sw, int(m)) for m in arr]
    assert sw.apply(arr).tolist() == expect
    assert swizzle_array(sw, arr).tolist() == expect
    assert sw.unapply(sw.apply(arr)).tolist() == arr.tolist()
    k = sw.fixed_bits
    assert all(sw.apply(m) == m for m in range(min(1 << min(k, 12), 1 << 12)))
    if k < n:
        assert sw.apply(1 << k) != 1 << k


def test_wide_swizzle_exact_and_vectorized():
    images = [1 << k for k in range(62)]
    images[61] |= 1  # bit 61 also flips bit 0
    sw = tl.XorSwizzle(images)
    m = (1 << 61) + 6
    assert sw.apply(m) == m ^ 1 and sw.unapply(m ^ 1) == m
    assert swizzle_array(sw, np.array([m, 6], dtype=np.int64)).tolist() == [m ^ 1, 6]
    assert sw.apply(1 << 70) == 1 << 70  # Python ints: exact at any size


def test_other_integer_dtypes_keep_their_dtype_or_refuse_overflow():
    sw = tl.XorSwizzle(2, 1)
    for dtype in (np.int8, np.int32, np.uint16, np.uint64):
        arr = np.arange(8, dtype=dtype)
        got = sw.apply(arr)
        assert got.dtype == dtype and got.tolist() == [brute(sw, m) for m in range(8)]
    assert sw.apply(np.uint8(1)) == 2 and isinstance(sw.apply(np.uint8(1)), np.uint8)
    swap = tl.XorSwizzle([256] + [1 << k for k in range(1, 8)] + [1])  # bits 0 and 8 trade
    with pytest.raises(tl.LayoutOverflowError, match="uint8"):
        swap.apply(np.arange(4, dtype=np.uint8))
    assert swap.apply(np.arange(4, dtype=np.uint16)).tolist() == [0, 256, 2, 258]


def test_equal_to_swizzle_on_every_parameter():
    for m_, b, s in itertools.product(range(5), range(5), range(7)):
        if s < b:
            continue
        sw = tl.Swizzle(m_, b, s)
        x = sw.to_xor()
        span = 1 << (m_ + b + s + 1)
        addresses = np.arange(-span, span, dtype=np.int64)
        assert x.apply(addresses).tolist() == sw.apply(addresses).tolist(), sw
        assert swizzle_array(x, addresses).tolist() == sw.apply(addresses).tolist(), sw
        assert x.atom_size == sw.atom_size and x.is_identity == sw.is_identity
        if b:
            assert x.fixed_bits == sw.fixed_bits
            assert tl.Swizzle.from_xor(x) == sw and as_plain_swizzle(x) == sw
        else:
            assert tl.Swizzle.from_xor(x) == tl.Swizzle(0, 0, 0)


def test_wide_swizzle_has_no_xor_form():
    with pytest.raises(tl.SwizzleError, match="permutes 72 address bits"):
        tl.Swizzle(40, 2, 30).to_xor()


@settings(max_examples=40)
@given(xor_swizzles(max_bits=8))
def test_from_xor_is_exact(sw):
    plain = tl.Swizzle.from_xor(sw)
    if plain is not None:  # it claims the same map: check every address
        assert all(plain.apply(m) == sw.apply(m) for m in range(-4, 2 << sw.bits))
    else:  # no Swizzle(M, B, S) with these parameters equals it
        for m_, b, s in itertools.product(range(sw.bits + 1), range(1, sw.bits + 1),
                                          range(1, sw.bits + 1)):
            if s >= b and m_ + b + s <= sw.bits + 1:
                sp = tl.Swizzle(m_, b, s)
                assert any(sp.apply(m) != sw.apply(m) for m in range(2 << sw.bits))


# -- text form ----------------------------------------------------------------------------
@settings(max_examples=30)
@given(xor_swizzles())
def test_text_round_trip(sw):
    L = tl.ComposeLayout(sw, tl.parse("S[(8,4):(4,1)] + R[2:128@pid] + 3"))
    assert tl.parse(str(L)) == L
    assert tl.parse(str(L).replace(",", " , ")) == L


@pytest.mark.parametrize("text, column, fragment", [
    ("ComposeLayout(XorSwizzle(1,1), S[4:1])", 15, "linearly independent"),
    ("ComposeLayout(XorSwizzle(1,2,), S[4:1])", 30, "image of address bit 2"),
    ("ComposeLayout(XorSwizzle(1 2), S[4:1])", 28, "',' or ')'"),
    ("ComposeLayout(XorSwizzle(1,2), S[4:1@laneid])", 32, "no 'm' axis"),
    ("ComposeLayout(Xor(1), S[4:1])", 15, "XorSwizzle(image"),
])
def test_parse_errors(text, column, fragment):
    with pytest.raises(tl.LayoutParseError) as err:
        tl.parse(text)
    assert err.value.column == column and fragment in str(err.value)


# -- evaluation through ComposeLayout --------------------------------------------------------
TILES = ["S[(8,64):(64,1)]", "S[(16,8):(1,16)] + R[2:1@pid] + 4", "S[(4,2,8):(16,8,1)]",
         "S[(8,4):(4,1@laneid)] + 32"]


@settings(max_examples=30)
@given(xor_swizzles(max_bits=9), st.sampled_from(TILES))
def test_evaluation_vs_brute_force(sw, text):
    tile = tl.parse(text)
    L = tl.ComposeLayout(sw, tile)
    shape = tile.default_shape
    got, plain = L.map_all(), tile.map_all()
    assert set(got) == set(plain)
    for a in got:
        want = [brute(sw, int(v)) for v in plain[a].reshape(-1)] if a == "m" else plain[a]
        assert np.array_equal(got[a].reshape(-1), np.asarray(want).reshape(-1))
    for flat in (0, 1, 7, tile.size() - 1):
        coords = L.apply(flat, shape)
        base_tile = tile.apply(flat, shape)
        assert [dict(c) for c in coords] == [
            {**dict(c), "m": brute(sw, c["m"])} for c in base_tile
        ]
        assert L.base(flat, shape)["m"] == brute(sw, tile.base(flat, shape)["m"])
        c = coords[0]
        idx = np.unravel_index(flat, shape)
        assert tuple(int(i) for i in idx) in L.elements_at(dict(c), shape)


def test_compose_with_swizzle_equals_compose_with_its_xor():
    tile = tl.parse("S[(64,64):(64,1)]")
    for mode in ("32B", "64B", "128B"):
        sw = tl.Swizzle.for_dtype("float16", mode)
        a, b = tl.ComposeLayout(sw, tile), tl.ComposeLayout(sw.to_xor(), tile)
        assert a.equivalent(b)
        assert np.array_equal(a.map_all()["m"], b.map_all()["m"])
        for key, arr in tl.bank_map(a, "float16").items():
            assert np.array_equal(arr, tl.bank_map(b, "float16")[key]), key
        lanes = [[(r, c) for c in range(8)] for r in range(32)]  # 16-byte row vectors
        ra = tl.bank_conflicts(a, "float16", lanes)
        assert ra == tl.bank_conflicts(b, "float16", lanes)
        assert tl.tile_conflicts(a, "float16", (64, 64)) == tl.tile_conflicts(b, "float16", (64, 64))


def test_banks_of_a_generic_xor_swizzle_vs_brute_force():
    # a swizzle that is no Swizzle(M, B, S): row bits 0..2 flip column-vector bits 2..0
    sw = tl.XorSwizzle(1, 2, 4, 8, 16, 32, 64 | 32, 128 | 16, 256 | 8)
    assert tl.Swizzle.from_xor(sw) is None
    L = tl.ComposeLayout(sw, tl.parse("S[(8,64):(64,1)]"))
    bm = tl.bank_map(L, "float16")
    for r, c in itertools.product(range(8), range(64)):
        addr = brute(sw, 64 * r + c)
        assert bm["address"][r, c, 0] == addr
        assert bm["bank"][r, c, 0] == (addr * 2 // 4) % 32
    # column 0 read by 8 threads: 8 different 16-byte chunks, all in distinct banks
    column = {int(b) for b in bm["bank"][:, 0, 0]}
    assert len(column) == 8


def test_explain_shows_the_xor_terms():
    L = tl.parse("ComposeLayout(XorSwizzle(1,2,4,9,18), S[(16,8):(8,1)] + R[2:32])")
    e = tl.explain(L, (3, 3), dtype="float16")
    assert [(s.m, s.address, s.terms, s.high) for s in e.swizzle] == [
        (27, 24, ((0, 1), (1, 2), (3, 9), (4, 18)), 0),
        (59, 56, ((0, 1), (1, 2), (3, 9), (4, 18)), 32),
    ]
    text = str(e)
    assert "m=27 = 1 (bit 0) ^ 2 (bit 1) ^ 9 (bit 3) ^ 18 (bit 4) -> address 24" in text
    assert "^ 32 (high) -> address 56" in text
    assert e.to_dict()["swizzle"][0]["terms"] == [[0, 1], [1, 2], [3, 9], [4, 18]]


# -- algebra ----------------------------------------------------------------------------------
def _m_values(L, shape=None):
    return L.map_all(shape)["m"].reshape(-1).tolist()


@settings(max_examples=25)
@given(xor_swizzles(max_bits=7), st.sampled_from([2, 4]))
def test_unpack_pack_vs_brute_force(sw, n):
    L = tl.ComposeLayout(sw, tl.parse("S[(8,16):(16,1)]"))
    U = tl.unpack(L, n)
    # element x*n + j sits at byte-equivalent address addr(x)*n + j
    want = [a * n + j for a in _m_values(L) for j in range(n)]
    assert _m_values(U) == want
    assert tl.pack(U, n) == L
    k = n.bit_length() - 1
    if sw.fixed_bits < k or any(v & ((1 << k) - 1) for v in sw.images[k:]):
        with pytest.raises(tl.AlgebraError, match="runs of"):
            tl.pack(L, n)
    else:
        P = tl.pack(L, n)
        assert _m_values(P) == [a // n for a in _m_values(L)[::n]]


def test_canonicalize_drops_a_swizzle_that_changes_nothing():
    tile = tl.parse("S[8:1]")
    assert tl.canonicalize(tl.ComposeLayout(tl.XorSwizzle(1, 2, 4, 9, 18), tile)) == tile
    big = tl.parse("S[32:1]")
    L = tl.ComposeLayout(tl.XorSwizzle(1, 2, 4, 9, 18), big)
    assert tl.canonicalize(L) == L
    assert tl.canonicalize(tl.ComposeLayout(tl.XorSwizzle(1, 2), big)) == big


def test_tile_to_repeats_the_swizzle_atom():
    inner = tl.ComposeLayout(tl.XorSwizzle(2, 1, 4, 8), tl.parse("S[(4,4):(4,1)]"))
    outer = tl.parse("S[(2,2):(32,16)]")
    T = tl.direct_sum(outer, inner, (2, 2), (4, 4))
    assert isinstance(T, tl.ComposeLayout) and T.swizzle == inner.swizzle
    with pytest.raises(tl.AlgebraError, match="atom"):
        tl.direct_sum(tl.parse("S[(2,2):(8,4)]"), inner, (2, 2), (4, 4))


def test_interop_exports_only_a_plain_swizzle():
    from tilelayout.interop import InteropError
    from tilelayout.interop.cute import to_cute

    tile = tl.parse("S[(8,64):(64,1)]")
    as_xor = tl.ComposeLayout(tl.Swizzle(3, 3, 3).to_xor(), tile)
    assert to_cute(as_xor) == to_cute(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tile))
    with pytest.raises(InteropError, match="not a CuTe Swizzle"):
        to_cute(tl.ComposeLayout(tl.XorSwizzle(2, 1), tile))


# -- explorer API (the line x bank view is drawn from these arrays) ----------------------------
def test_explorer_layout_view_and_explain():
    text = "ComposeLayout(XorSwizzle(1,2,4,8,16,32,96,144,264), S[(8,64):(64,1)])"
    view = layout_view({"layout": text, "dtype": "float16"})
    L = tl.parse(text)
    bm = tl.bank_map(L, "float16")
    assert view["swizzle"] == "XorSwizzle(1,2,4,8,16,32,96,144,264)"
    assert view["banks"]["bank"] == bm["bank"].reshape(-1).tolist()
    assert view["banks"]["line"] == bm["line"].reshape(-1).tolist()
    e = explain_view({"layout": text, "dtype": "float16", "index": [1, 0]})
    assert e["swizzle"][0]["m"] == 64 and e["swizzle"][0]["address"] == 96
    assert e["swizzle"][0]["terms"] == [[6, 96]]


def test_explorer_example_of_a_bit_linear_swizzle_is_conflict_free():
    from tilelayout.explorer import examples

    e = examples.get("smem 8x64 float16, bit-linear XOR swizzle")
    L = tl.parse(e.layout)
    assert isinstance(L, tl.ComposeLayout) and tl.Swizzle.from_xor(L.swizzle) is None
    view = layout_view({"layout": e.layout, "dtype": e.dtype, "shape": list(e.shape)})
    banks = view["banks"]["bank"]
    column0 = [banks[64 * r] // 4 for r in range(8)]  # 16-byte bank groups of column 0
    assert sorted(column0) == list(range(8))
