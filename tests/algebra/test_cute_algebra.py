"""CuTe's algebra (tilelayout.algebra.cute) against the installed pycute, on CUTLASS's
pycute unit-test cases (tests/algebra/cute_cases.py, transcribed from
NVIDIA/cutlass test/python/pycute/*.py) and on random layouts.

Every case checks the post-condition the CUTLASS test checks, that our result is the
same function as pycute's (and, for coalesce, the same layout), and that our
``TileLayout`` for the result (``.layout`` over ``.dims``) gives the same values at
CuTe's column-major 1-D index."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.algebra import cute as C
from tilelayout.algebra.cute.modes import of_tile
from tilelayout.core.errors import AlgebraError

from .cute_cases import COALESCE, COMPLEMENT, COMPOSITION, LEFT_INVERSE, RIGHT_INVERSE

pycute = pytest.importorskip("pycute", reason="pycute ships in the optional 'cute' extra (nvidia-cutlass)")


def _pl(case):
    shape, stride = case
    return pycute.Layout(shape) if stride is None else pycute.Layout(shape, stride)


def _values(layout) -> list[int]:
    """A pycute layout as a function of its 1-D index."""
    return [layout(i) for i in range(pycute.size(layout))]


def _ours_values(r: C.CuteLayout) -> list[int]:
    """Our TileLayout for ``r`` evaluated at CuTe's 1-D index: column-major over dims."""
    m = r.layout.map_all(r.dims)
    arr = m["m"][..., 0] if "m" in m else np.zeros(r.dims, dtype=np.int64)
    return arr.transpose().reshape(-1).tolist()


def _check(r: C.CuteLayout, want) -> None:
    assert isinstance(r, C.CuteLayout)
    got = _values(pycute.Layout(r.shape, r.stride))
    assert got == _values(want), (r, want)
    assert _ours_values(r) == got, r


def _as_ours(pl):
    """The same CuTe layout given as our TileLayout over its nested shape."""
    cl = C.as_cute(pl)
    return cl.layout, cl.shape


@pytest.mark.parametrize("case", COALESCE, ids=str)
def test_coalesce_cases(case):
    a = _pl(case)
    r = C.coalesce(a)
    assert _values(pycute.Layout(r.shape, r.stride)) == _values(a)   # the CUTLASS test's check
    assert (r.shape, r.stride) == (pycute.coalesce(a).shape, pycute.coalesce(a).stride)
    _check(r, pycute.coalesce(a))
    tile, shape = _as_ours(a)
    assert C.coalesce(of_tile(tile, shape)) == r


@pytest.mark.parametrize("case", COMPLEMENT, ids=str)
def test_complement_cases(case):
    a = _pl(case)
    r = C.complement(a)
    rv = _values(pycute.Layout(r.shape, r.stride))
    for x, y in itertools.product(_values(a), rv):   # the CUTLASS test's check: disjoint
        assert x != y or x == y == 0
    _check(r, pycute.complement(a))
    for cotarget in (1, 7, 64, 100):
        _check(C.complement(a, cotarget), pycute.complement(a, cotarget))


@pytest.mark.parametrize("case", COMPOSITION, ids=str)
def test_composition_cases(case):
    a, b = _pl(case[0]), _pl(case[1])
    r = C.composition(a, b)
    rl = pycute.Layout(r.shape, r.stride)
    assert pycute.size(rl) == pycute.size(b)
    for i in range(pycute.size(rl)):   # the CUTLASS test's check: R(i) == A(B(i))
        assert rl(i) == a(b(i))
    _check(r, pycute.composition(a, b))
    assert C.composition(*(of_tile(*_as_ours(x)) for x in (a, b))) == r


@pytest.mark.parametrize("case", LEFT_INVERSE, ids=str)
def test_left_inverse_cases(case):
    a = _pl(case)
    r = C.left_inverse(a)
    rl = pycute.Layout(r.shape, r.stride)
    for i in range(pycute.size(a)):    # the CUTLASS test's check
        assert rl(a(i)) == i
    # pycute's left inverse is right_inverse((L, complement(L))); CUTLASS's C++ one (which
    # we follow, see tests/interop/test_cute_dsl.py) may differ off L's image, never on it
    theirs = pycute.left_inverse(a)
    assert [rl(a(i)) for i in range(pycute.size(a))] == [theirs(a(i)) for i in range(pycute.size(a))]
    assert _ours_values(r) == _values(rl)


@pytest.mark.parametrize("case", RIGHT_INVERSE, ids=str)
def test_right_inverse_cases(case):
    a = _pl(case)
    r = C.right_inverse(a)
    rl = pycute.Layout(r.shape, r.stride)
    for i in range(pycute.size(rl)):   # the CUTLASS test's check
        assert a(rl(i)) == i
    _check(r, pycute.right_inverse(a))


def test_every_cutlass_case_is_answered():
    """No refusal is left among CUTLASS's cases (84 layouts in five files)."""
    answered = 0
    for case in COALESCE:
        C.coalesce(_pl(case))
        answered += 1
    for case in COMPLEMENT:
        C.complement(_pl(case))
        answered += 1
    for a, b in COMPOSITION:
        C.composition(_pl(a), _pl(b))
        answered += 1
    for case in LEFT_INVERSE:
        C.left_inverse(_pl(case))
        answered += 1
    for case in RIGHT_INVERSE:
        C.right_inverse(_pl(case))
        answered += 1
    assert answered == 84


# -- divides and products against pycute -------------------------------------------------
_LAYOUTS = [_pl(c) for c in COALESCE + COMPLEMENT + [x for ab in COMPOSITION for x in ab]]
_TILERS = [pycute.Layout(2), pycute.Layout(4, 2), pycute.Layout((2, 2), (1, 4)), pycute.Layout(3)]


def _pycute(f, *args):
    """pycute's answer, or None where pycute's own assertion refuses the input."""
    try:
        return f(*args)
    except AssertionError:
        return None


def _pairs():
    seen = set()
    for a in _LAYOUTS:
        for t in _TILERS:
            key = (str(a), str(t))
            if key not in seen:
                seen.add(key)
                yield a, t


def _exact(a, b, r) -> bool:
    """``r`` is A o B: R(i) == A(B(i)) wherever B(i) is inside A's domain (past it, CuTe's
    answer follows A's coalesced last mode, which is its definition, not a check)."""
    rl = pycute.Layout(r.shape, r.stride) if isinstance(r, C.CuteLayout) else r
    n = pycute.size(a)
    return pycute.size(rl) == pycute.size(b) and all(
        rl(i) == a(b(i)) for i in range(pycute.size(b)) if b(i) < n)


def _post_divide(a, t, r) -> bool:
    return _exact(a, pycute.make_layout(t, pycute.complement(t, pycute.size(a))), r)


def test_divides_match_pycute_or_refuse_only_where_pycute_is_wrong():
    agreed = refused = 0
    for a, t in _pairs():
        want = _pycute(pycute.logical_divide, a, t)
        try:
            got = C.logical_divide(a, t)
        except AlgebraError:
            # refused only where pycute refuses too or its answer is not A(I(i))
            assert want is None or not _post_divide(a, t, want), (a, t)
            refused += 1
            continue
        assert _post_divide(a, t, got), (a, t, got)
        if want is None:
            continue
        _check(got, want)
        _check(C.zipped_divide(a, t), pycute.zipped_divide(a, t))
        _check(C.tiled_divide(a, t), pycute.tiled_divide(a, t))
        agreed += 1
    assert agreed > 60 and refused < agreed


def test_products_match_pycute():
    checked = 0
    for a, t in _pairs():
        try:
            got = C.logical_product(a, t)
        except AlgebraError:
            continue
        if _pycute(pycute.logical_product, a, t) is None:
            continue
        _check(got, pycute.logical_product(a, t))
        _check(C.zipped_product(a, t), pycute.zipped_product(a, t))
        _check(C.tiled_product(a, t), pycute.tiled_product(a, t))
        checked += 1
    assert checked > 60


def test_by_mode_tilers_match_pycute():
    a = pycute.Layout((8, 12), (12, 1))
    for tiler in [(pycute.Layout(2), pycute.Layout(3)), (pycute.Layout(4, 2), None),
                  (pycute.Layout((2, 2), (1, 4)), pycute.Layout(2, 3))]:
        _check(C.logical_divide(a, tiler), pycute.logical_divide(a, tiler))
        _check(C.zipped_divide(a, tiler), pycute.zipped_divide(a, tiler))
        _check(C.tiled_divide(a, tiler), pycute.tiled_divide(a, tiler))
        _check(C.composition(a, tiler), pycute.composition(a, tiler))
    b = pycute.Layout((2, 3), (1, 2))
    tiler = (pycute.Layout(4), pycute.Layout(2))
    _check(C.logical_product(b, tiler), pycute.logical_product(b, tiler))
    _check(C.zipped_product(b, tiler), pycute.zipped_product(b, tiler))
    by_ints = C.logical_divide(a, (4, 6))
    assert by_ints == C.logical_divide(a, (C.CuteLayout(4, 1), C.CuteLayout(6, 1)))


def _zip_reference(block, tiler, raked: bool):
    """CuTe's blocked/raked product (include/cute/layout.hpp: pad both to rank R with 1:0
    modes, logical_product, zip the two halves mode by mode) in pycute's primitives."""
    rank = max(len(block), len(tiler))
    pad = [pycute.Layout(1, 0)] * rank
    bl = pycute.make_layout(*([block[i] for i in range(len(block))] + pad)[:rank]) if rank > 1 else block
    tl_ = pycute.make_layout(*([tiler[i] for i in range(len(tiler))] + pad)[:rank]) if rank > 1 else tiler
    r = pycute.make_layout(bl, pycute.composition(
        pycute.complement(bl, pycute.size(bl) * pycute.cosize(tl_)), tl_))
    if rank == 1:
        parts = (r[1], r[0]) if raked else (r[0], r[1])
        return pycute.make_layout(*parts)
    modes = [(r[1][i], r[0][i]) if raked else (r[0][i], r[1][i]) for i in range(rank)]
    return pycute.make_layout(*(pycute.make_layout(*m) for m in modes))


def test_blocked_and_raked_products():
    # CuTe's documentation example (media/docs/cpp/cute/02_layout_algebra.md)
    assert str(C.blocked_product(C.CuteLayout((2, 5), (5, 1)), C.CuteLayout((3, 4), (1, 3)))) \
        == "((2,3),(5,4)):((5,10),(1,30))"
    assert str(C.raked_product(C.CuteLayout((2, 5), (5, 1)), C.CuteLayout((3, 4), (1, 3)))) \
        == "((3,2),(4,5)):((10,5),(30,1))"
    rng = random.Random(3)
    checked = 0
    for a, t in _pairs():
        if rng.random() < 0.5:
            continue
        for raked, f in ((False, C.blocked_product), (True, C.raked_product)):
            try:
                got = f(a, t)
            except AlgebraError:
                continue
            _check(got, _zip_reference(a, t, raked))
            checked += 1
    assert checked > 40


# -- random layouts: agree with pycute wherever pycute's answer is R(i) = A(B(i)) --------------
def _random_layout(rng: random.Random, max_size: int = 256):
    while True:
        n = rng.randint(1, 4)
        shape = tuple(rng.choice([1, 2, 3, 4, 6, 8]) for _ in range(n))
        stride = tuple(rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16, 32]) for _ in range(n))
        if n > 2 and rng.random() < 0.3:
            shape, stride = (shape[:2], *shape[2:]), (stride[:2], *stride[2:])
        lay = pycute.Layout(shape if n > 1 else shape[0], stride if n > 1 else stride[0])
        if pycute.size(lay) <= max_size:
            return lay


def test_random_compositions_against_pycute():
    rng = random.Random(20)
    agreed = refused = 0
    for _ in range(1500):
        a, b = _random_layout(rng), _random_layout(rng, 64)
        want = _pycute(pycute.composition, a, b)
        try:
            got = C.composition(a, b)
        except AlgebraError:
            # refused only where pycute refuses too or its answer is not A o B
            assert want is None or not _exact(a, b, want), (a, b, want)
            refused += 1
            continue
        assert _exact(a, b, got), (a, b, got)
        if want is not None:
            _check(got, want)
        agreed += 1
    assert agreed > 500 and refused > 50


def test_random_complements_against_pycute():
    rng = random.Random(21)
    checked = 0
    for _ in range(1500):
        a = _random_layout(rng)
        cot = rng.choice([1, 16, 100, 512])
        try:
            got = C.complement(a, cot)
        except AlgebraError:
            continue
        _check(got, pycute.complement(a, cot))
        checked += 1
    assert checked > 500


# -- our layouts in, the documented mapping --------------------------------------------
def test_our_layouts_follow_the_documented_mapping():
    # a bare TileLayout: one top-level CuTe mode per shard iter, in order
    assert C.as_cute(tl.parse("S[(4,8):(8,1)]")) == C.CuteLayout((4, 8), (8, 1))
    # a nested shape: each mode's leaves are its iters reversed (extent-1 strides kept)
    L = tl.parse("S[(8,4,1,2):(1,32,7,16)]")
    assert C.as_cute(L, ((4, 8), (2, 1))) == C.CuteLayout(((4, 8), (2, 1)), ((32, 1), (16, 7)))
    assert C.as_cute(L, ((4, 8), (2, 1))).layout == L
    # flat dims group the iters
    assert C.as_cute(tl.parse("S[32:1]"), (4, 8)) == C.CuteLayout((4, 8), (8, 1))
    r = C.zipped_divide(tl.parse("S[(8,8):(8,1)]"), (2, 4))
    assert r.dims == (8, 8) and str(r.layout) == "S[(4,2,2,4):(1,8,4,16)]"


def test_refusals_name_the_reason():
    with pytest.raises(AlgebraError, match="shape divisibility"):
        C.composition(C.CuteLayout((4, 3), (1, 100)), C.CuteLayout(6, 1))
    with pytest.raises(AlgebraError, match="stride divisibility"):
        C.composition(C.CuteLayout((4, 3), (1, 100)), C.CuteLayout(2, 6))
    with pytest.raises(AlgebraError, match="not injective"):
        C.complement(C.CuteLayout((4, 2), (1, 2)))
    with pytest.raises(AlgebraError, match="negative"):
        C.composition(C.CuteLayout(8, 1), C.CuteLayout(4, -1))
    with pytest.raises(AlgebraError, match="replicas or an offset"):
        C.as_cute(tl.parse("S[4:1] + R[2:4]"))
    with pytest.raises(AlgebraError, match="swizzled"):
        C.as_cute(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")))
    with pytest.raises(AlgebraError, match="tiler"):
        C.logical_divide(C.CuteLayout(8, 1), (2, 2))
    # bad input: one-line AlgebraErrors, never a raw TypeError / ValueError
    for shape, stride, match in [((4, 8), (1,), "not congruent"), ("a", 1, "expected integers"),
                                 (0, 1, ">= 1"), ((4, True), (1, 1), "expected integers")]:
        with pytest.raises(AlgebraError, match=match):
            C.CuteLayout(shape, stride)
    with pytest.raises(AlgebraError, match="expected a CuteLayout"):
        C.composition(C.CuteLayout(8, 1), "8:1")
    assert C.CuteLayout([4, np.int64(8)], [8, 1]) == C.CuteLayout((4, 8), (8, 1))


# -- our native model ops on the same cases ------------------------------------------------
def test_native_compose_and_complement_on_cutlass_cases():
    """tl.compose(unbounded=True) and tl.complement(rounded=True) read CuTe's 1-D index
    through CuteLayout.index_layout (every leaf reversed): all 38 composition cases agree
    with A(B(i)); the complement's values equal CuTe's on 9 of 11 cases, and the other two
    are refused because CuTe's complement leaves holes there (docs/algebra.md)."""
    for a, b in COMPOSITION:
        pa, pb = _pl(a), _pl(b)
        got = tl.compose(C.as_cute(pa).index_layout(), C.as_cute(pb).index_layout(), unbounded=True)
        n = pycute.size(pb)
        assert [got.base(i).get("m", 0) for i in range(n)] == [pa(pb(i)) for i in range(n)], (pa, pb)
    refused = []
    for case in COMPLEMENT:
        pa = _pl(case)
        try:
            got = tl.complement(C.as_cute(pa).index_layout(), "m", 1, rounded=True)
        except AlgebraError as err:
            assert "not a multiple" in str(err)
            refused.append(str(pa))
            continue
        assert sorted(got.base(i).get("m", 0) for i in range(got.size())) == \
            sorted(_values(pycute.complement(pa)))
    assert refused == ["(4, 6):(1, 6)", "(4, 10):(1, 10)"]


def test_evaluation_is_cutes():
    rng = random.Random(5)
    for _ in range(200):
        p = _random_layout(rng, 128)
        ours = C.CuteLayout(p.shape, p.stride)
        n = pycute.size(p)
        assert [ours(i) for i in range(n + 7)] == [p(i) for i in range(n + 7)]   # last leaf unbounded
        dims = ours.dims
        if len(dims) > 1:
            for c in itertools.product(*(range(d) for d in dims)):
                assert ours(*c) == p(*c)
    with pytest.raises(AlgebraError, match="mode coordinates"):
        C.CuteLayout((4, 8), (8, 1))(1, 2, 3)


# -- a swizzle outside: CuTe's ComposedLayout ----------------------------------------------
def test_swizzled_layouts_compose_and_divide_with_the_swizzle_outside():
    from tilelayout.algebra.cute.swizzled import CuteComposed

    for bits, base, shift, offset in [(3, 3, 3, 0), (2, 4, 3, 0), (3, 4, -3, 0), (3, 3, 3, 64)]:
        inner = pycute.Layout((8, 64), (64, 1))
        theirs = pycute.ComposedLayout(pycute.Swizzle(bits, base, shift), offset, inner)
        n = pycute.size(inner)
        for b in [pycute.Layout((8, 8), (64, 1)), pycute.Layout(64, 8), pycute.Layout((4, 2), (1, 128))]:
            got = C.composition(theirs, b)
            assert isinstance(got, CuteComposed)
            assert [got(i) for i in range(pycute.size(b))] == \
                [theirs(b(i)) for i in range(pycute.size(b))], (bits, base, shift, b)
            # our ComposeLayout for the result, at CuTe's 1-D index
            m = got.layout.map_all(got.dims)["m"][..., 0].transpose().reshape(-1).tolist()
            assert m == [got(i) for i in range(pycute.size(b))]
        for tiler in [pycute.Layout(8, 1), pycute.Layout(4, 2)]:
            idx = pycute.make_layout(tiler, pycute.complement(tiler, n))
            for op in (C.logical_divide, C.zipped_divide, C.tiled_divide):
                got = op(theirs, tiler)
                assert [got(i) for i in range(n)] == [theirs(idx(i)) for i in range(n)], op
        # our ComposeLayout in, the swizzle kept
        ours = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
        r = C.zipped_divide(ours, (pycute.Layout(8, 1), pycute.Layout(8, 1)))
        assert str(r) == "Swizzle<3,3,3> o ((8,8),(1,8)):((64,1),(0,8))"
    with pytest.raises(AlgebraError, match="products do not"):
        C.logical_product(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")), 2)
    with pytest.raises(AlgebraError, match="Swizzle outside"):
        C.composition(pycute.ComposedLayout(pycute.Layout(8, 1), 0, pycute.Layout(8, 1)), 4)
    with pytest.raises(AlgebraError, match="CuTe swizzle"):
        CuteComposed(tl.XorSwizzle(2, 1), 0, C.CuteLayout(8, 1))
