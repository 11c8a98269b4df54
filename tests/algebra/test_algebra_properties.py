"""Every algebra operation compared element by element with brute-force evaluation of
its inputs (scalar apply), on random layouts with replicas, offsets, zero and negative
strides and non-power-of-two extents."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.core.shape import unflatten

from .strategies import AXES, brute_equivalent, coord_sets, factor_shapes, tile_layouts


def cset(layout, index, shape, axes):
    return frozenset(tuple(c.get(a, 0) for a in axes) for c in layout.apply(index, shape))


# -- span / size -----------------------------------------------------------------------
@given(tile_layouts(), st.sampled_from(AXES))
def test_span_is_covered_extent(L, axis):
    values = [c.get(axis, 0) for f in range(L.size()) for c in L.apply(f)]
    assert L.span(axis) == max(values) - min(values) + 1
    assert tl.value_range(L, axis) == (min(values), max(values))


# -- canonicalize ----------------------------------------------------------------------
@given(tile_layouts())
def test_canonicalize_preserves_mapping(L):
    C = L.canonicalize()
    assert brute_equivalent(L, C)
    assert C.canonicalize() == C
    assert all(it.extent > 1 for it in C.replica)
    # a layout of size 1 keeps one 1:1 iter on its first axis (as TIRx does)
    assert all(it.extent > 1 for it in C.shard) or C.shard == (tl.Iter(1, 1, L.shard[0].axis),)
    assert all(v != 0 for v in C.offset.values())


@given(st.data())
def test_rewrites_canonicalize_to_same_value(data):
    L = data.draw(tile_layouts())
    shard = []
    for it in L.shard:
        divs = [d for d in range(2, it.extent) if it.extent % d == 0]
        if divs and data.draw(st.booleans()):
            d = data.draw(st.sampled_from(divs))
            shard += [(it.extent // d, it.stride * d, it.axis), (d, it.stride, it.axis)]
        else:
            shard.append((it.extent, it.stride, it.axis))
        if data.draw(st.booleans()):
            shard.append((1, data.draw(st.integers(-5, 5)), data.draw(st.sampled_from(AXES))))
    replica = [(i.extent, i.stride, i.axis) for i in L.replica]
    offset = dict(L.offset)
    for k, (e, s, a) in enumerate(replica):
        if data.draw(st.booleans()):
            replica[k] = (e, -s, a)
            offset[a] = offset.get(a, 0) + (e - 1) * s
    replica = list(data.draw(st.permutations(replica)))
    if data.draw(st.booleans()):
        replica.append((1, 3, "pid"))
    zero_axis = data.draw(st.sampled_from(AXES))
    offset.setdefault(zero_axis, 0)
    M = tl.TileLayout(shard, replica, offset)
    assert brute_equivalent(L, M)
    assert M.canonicalize() == L.canonicalize()


@given(st.integers(2, 8), st.integers(2, 4), st.integers(0, 3))
def test_fuse_threads(lanes, warps, off):
    L = tl.TileLayout([(warps, 1, "warpid"), (lanes, 4, "laneid"), (2, 1, "m")],
                      offset={"laneid": off})
    F = L.canonicalize(fuse_threads=True)
    assert "laneid" not in F.axes and "warpid" not in F.axes
    for f in range(L.size()):
        c, d = L.base(f), F.base(f)
        assert d.get("tx", 0) == c["laneid"] + 32 * c["warpid"] and d["m"] == c["m"]
    # lane values that do not fit a warp are not fused (it would not be a bijection)
    bad = tl.parse("S[(2,40):(1@warpid,1@laneid)]").canonicalize(fuse_threads=True)
    assert set(bad.axes) == {"warpid", "laneid"}


# -- group -----------------------------------------------------------------------------
@given(st.data())
def test_group_splits_by_shape(data):
    L = data.draw(tile_layouts())
    shape = data.draw(factor_shapes(L.size()))
    try:
        G, seps = L.group(shape)
    except tl.AlgebraError:
        # impossible only when a boundary cuts an iter at a non-divisor
        return
    assert brute_equivalent(L, G)
    assert seps[0] == 0 and seps[-1] == len(G.shard) and len(seps) == len(shape) + 1
    for d, n in enumerate(shape):
        assert math.prod(i.extent for i in G.shard[seps[d]:seps[d + 1]]) == n


def test_group_errors_and_examples():
    assert tl.parse("S[6:1]").group((2, 3)) == (tl.parse("S[(2,3):(3,1)]"), (0, 1, 2))
    with pytest.raises(tl.AlgebraError, match="neither divides"):
        tl.parse("S[(6,2):(1,7)]").group((4, 3))
    with pytest.raises(tl.ShapeError):
        tl.parse("S[6:1]").group((4,))


# -- tile / direct_sum / tile_to -------------------------------------------------------
@st.composite
def operand_pair(draw):
    inner = draw(tile_layouts(max_size=24))
    outer = draw(tile_layouts(max_size=12))
    rank = draw(st.integers(1, 2))
    ins = draw(factor_shapes(inner.size(), max_rank=rank))
    outs = draw(factor_shapes(outer.size(), max_rank=rank))
    assume(len(ins) == len(outs))
    return outer, inner, outs, ins


def _brute_sum(outer, inner, outs, ins, factors, I, shape, axes):
    J = tuple(i // n for i, n in zip(I, ins, strict=True))
    K = tuple(i % n for i, n in zip(I, ins, strict=True))
    # the outer's shard strides count tiles (scaled); its replicas and offset are absolute
    scaled = tl.TileLayout([(i.extent, i.stride * factors.get(i.axis, 1), i.axis)
                            for i in outer.shard], outer.replica, outer.offset)
    out = set()
    for o in scaled.apply(J, outs):
        for c in inner.apply(K, ins):
            out.add(tuple(o.get(a, 0) + c.get(a, 0) for a in axes))
    return frozenset(out)


def _brute_tile_span(inner, axis):
    # 1 where the inner's shard does not extend along the axis; else TIRx's
    # 1 + O + sum((e-1)*s), raised to the covered extent of the values (brute force)
    moving = [i for i in inner.shard if i.extent > 1] or list(inner.shard[:1])
    if axis not in {i.axis for i in moving}:
        return 1
    values = [c.get(axis, 0) for f in range(inner.size()) for c in inner.apply(f)]
    reference = 1 + inner.offset.get(axis, 0) + sum(
        (i.extent - 1) * i.stride for i in inner.shard + inner.replica if i.axis == axis)
    return max(reference, max(values) - min(values) + 1)


@given(operand_pair(), st.booleans())
def test_direct_sum_and_tile_match_brute_force(ops, tiled):
    outer, inner, outs, ins = ops
    shape = tuple(o * i for o, i in zip(outs, ins, strict=True))
    try:
        R = inner.tile(outer, outs, ins) if tiled else tl.direct_sum(outer, inner, outs, ins)
    except tl.AlgebraError:
        # only grouping can fail: check that one of the operands really cannot be grouped
        failures = 0
        for layout, shp in ((outer, outs), (inner, ins)):
            try:
                layout.group(shp)
            except tl.AlgebraError:
                failures += 1
        assert failures
        return
    axes = tuple(dict.fromkeys(outer.axes + inner.axes + R.axes))
    factors = {a: _brute_tile_span(inner, a) for a in inner.axes} if tiled else {}
    for f in range(R.size()):
        I = unflatten(f, shape)
        assert cset(R, I, shape, axes) == _brute_sum(outer, inner, outs, ins, factors, I, shape,
                                                     axes)


@given(operand_pair(), st.booleans())
def test_recover_operands(ops, tiled):
    outer, inner, outs, ins = ops
    try:
        R = inner.tile(outer, outs, ins) if tiled else tl.direct_sum(outer, inner, outs, ins)
    except tl.AlgebraError:
        return
    O = tl.outer_of(R, inner, outs, ins, tiled=tiled)
    rebuilt = inner.tile(O, outs, ins) if tiled else tl.direct_sum(O, inner, outs, ins)
    assert brute_equivalent(rebuilt, R)
    I = tl.inner_of(R, outer, outs, ins, tiled=tiled)  # also when the outer has replicas
    rebuilt = I.tile(outer, outs, ins) if tiled else tl.direct_sum(outer, I, outs, ins)
    assert brute_equivalent(rebuilt, R)


def test_direct_sum_example_and_not_a_sum():
    outer, inner = tl.parse("S[(2,2):(8,2)]"), tl.parse("S[(2,2):(4,1)]")
    assert tl.direct_sum(outer, inner, (2, 2), (2, 2)).canonicalize() == tl.parse("S[16:1]")
    assert tl.outer_of(tl.parse("S[16:1]"), inner, (2, 2), (2, 2)) == outer
    with pytest.raises(tl.AlgebraError, match="not a direct sum"):
        tl.outer_of(tl.parse("S[16:2]"), inner, (2, 2), (2, 2))


def test_scale_factor_atom_direct_sum():
    # SF atom (32 rows on TLane, 4 SFs on TCol, warpx4 replica) direct-summed with an
    # outer over (M rows, K groups): 2 row blocks on TCol, 3 K groups on TCol
    atom = tl.parse("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]")
    outer = tl.parse("S[(2,3):(12@TCol,4@TCol)]")
    L = tl.direct_sum(outer, atom, (2, 3), (32, 4))
    for i in range(64):
        for j in range(12):
            got = {(c["TLane"], c["TCol"]) for c in L.apply((i, j), (64, 12))}
            want = {(i % 32 + 32 * r, 12 * (i // 32) + 4 * (j // 4) + j % 4) for r in range(4)}
            assert got == want
    assert tl.outer_of(L, atom, (2, 3), (32, 4)) == outer


@given(tile_layouts(max_size=16), st.data())
def test_tile_to(L, data):
    cur = data.draw(factor_shapes(L.size(), max_rank=2))
    to = tuple(c * data.draw(st.integers(1, 3)) for c in cur)
    try:
        L.group(cur)
    except tl.AlgebraError:  # an inner that cannot be grouped by its shape cannot be tiled
        with pytest.raises(tl.AlgebraError):
            L.tile_to(to, cur)
        return
    T = L.tile_to(to, cur)
    reps = tuple(t // c for t, c in zip(to, cur, strict=True))
    outer = tl.TileLayout([(r, math.prod(reps[d + 1:]), "m") for d, r in enumerate(reps)])
    assert T == L.tile(outer, reps, cur)
    if any(c > 1 for c in cur):
        bad = tuple(t + 1 if c > 1 else t for t, c in zip(to, cur, strict=True))
        with pytest.raises(tl.AlgebraError, match="not a multiple"):
            L.tile_to(bad, cur)


def test_negative_stride_span_tiles_disjointly():
    inner = tl.parse("S[4:-1] + 3")
    T = inner.tile(tl.parse("S[3:1]"), (3,), (4,))
    values = sorted(T.base(f)["m"] for f in range(12))
    assert values == list(range(0, 12))


# -- slice / permute -------------------------------------------------------------------
@given(st.data())
def test_slice_matches_brute_force(data):
    L = data.draw(tile_layouts())
    shape = data.draw(factor_shapes(L.size()))
    region = []
    for n in shape:
        a = data.draw(st.integers(0, n - 1))
        b = data.draw(st.integers(a + 1, n))
        region.append((a, b))
    try:
        S = L.slice(shape, region)
    except tl.AlgebraError:
        assume(False)
    sub = tuple(b - a for a, b in region)
    axes = tuple(dict.fromkeys(L.axes + S.axes))
    for f in range(math.prod(sub)):
        y = unflatten(f, sub)
        x = tuple(a + yy for (a, _), yy in zip(region, y, strict=True))
        assert cset(S, y, sub, axes) == cset(L, x, shape, axes)


def test_slice_unaligned_region_is_refused():
    with pytest.raises(tl.AlgebraError, match="not a strided layout"):
        tl.parse("S[(3,4):(1,3)]").slice((12,), ((2, 7),))


@given(st.data())
def test_permute_dims_matches_brute_force(data):
    L = data.draw(tile_layouts())
    shape = data.draw(factor_shapes(L.size()))
    perm = tuple(data.draw(st.permutations(range(len(shape)))))
    try:
        P = L.permute_dims(perm, shape)
    except tl.AlgebraError:
        assume(False)
    new = tuple(shape[p] for p in perm)
    axes = L.axes
    for f in range(L.size()):
        y = unflatten(f, new)
        x = [0] * len(shape)
        for j, p in enumerate(perm):
            x[p] = y[j]
        assert cset(P, y, new, axes) == cset(L, tuple(x), shape, axes)


# -- pack / unpack / storage -----------------------------------------------------------
@given(tile_layouts(max_size=64), st.integers(1, 4), st.sampled_from(["m", "TCol"]))
def test_unpack_then_pack(L, n, axis):
    U = L.unpack(n, axis)
    axes = tuple(dict.fromkeys(L.axes + (axis,)))
    for f in range(U.size()):
        x, j = divmod(f, n)
        want = {tuple(c.get(a, 0) * n + j if a == axis else c.get(a, 0) for a in axes)
                for c in L.apply(x)}
        assert cset(U, f, None, axes) == want
    assert brute_equivalent(U.pack(n, axis), L)


def test_pack_scale_factors_and_refusals():
    L = tl.parse("S[(32,16):(1@TLane,1@TCol)] + R[4:32@TLane]")
    P = L.pack(4, "TCol")
    assert P == tl.parse("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]")
    for f in range(P.size()):
        for j in range(4):  # element 4f+j sits in cell TCol//4 of packed element f
            assert {(c["TLane"], c["TCol"] // 4) for c in L.apply(4 * f + j)} == {
                (c["TLane"], c["TCol"]) for c in P.apply(f)}
    with pytest.raises(tl.AlgebraError, match="consecutive"):
        tl.parse("S[(4,2):(1,4)]").pack(2)
    with pytest.raises(tl.AlgebraError, match="offset"):
        tl.parse("S[4:1] + 1").pack(2)


@given(st.sampled_from(["float8", "float16", "float32"]), st.sampled_from(["32B", "64B", "128B"]),
       st.sampled_from([2, 4]))
def test_pack_compose_adjusts_swizzle(dtype, mode, n):
    sw = tl.Swizzle.for_dtype(dtype, mode)
    assume(sw.per_element >= n.bit_length() - 1)
    L = tl.ComposeLayout(sw, tl.parse("S[(8,128):(128,1)]"))
    P = L.pack(n)
    assert P.swizzle.per_element == sw.per_element - (n.bit_length() - 1)
    for f in range(P.size()):
        assert P.base(f)["m"] * n == L.base(f * n)["m"]
    U = P.unpack(n)
    assert U.swizzle == sw
    assert U.equivalent(L)


@given(tile_layouts())
def test_storage_drops_thread_axes(L):
    S = L.storage()
    mem = [a for a in L.axes if tl.axis(a).kind != "thread"]
    assert not any(tl.axis(a).kind == "thread" for a in S.axes)
    for f in range(L.size()):
        want = {tuple(c.get(a, 0) for a in mem) for c in L.apply(f)}
        assert {tuple(c.get(a, 0) for a in mem) for c in S.apply(f)} == want


# -- equivalence -----------------------------------------------------------------------
@given(tile_layouts(), tile_layouts())
def test_equivalent_matches_brute_force(a, b):
    if a.size() != b.size():
        assert not a.equivalent(b)
        return
    assert a.equivalent(b) == brute_equivalent(a, b)
    assert a.equivalent(a.canonicalize())


# -- compose layouts -------------------------------------------------------------------
def test_compose_slice_permute_group_keep_swizzle():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    S = L.slice((8, 64), ((0, 8), (8, 16)))
    assert [S.base((i, 0), (8, 8))["m"] for i in range(8)] == [L.base((i, 8))["m"]
                                                               for i in range(8)]
    P = L.permute_dims((1, 0), (8, 64))
    assert all(P.base((j, i), (64, 8)) == L.base((i, j)) for i in range(8) for j in range(64))
    G, seps = L.group((8, 64))
    assert isinstance(G, tl.ComposeLayout) and seps == (0, 1, 2)


def test_compose_tile_needs_atom_aligned_outer():
    atom = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    T = atom.tile_to((16, 128), (8, 64))
    for i in range(16):
        for j in range(128):
            want = 512 * (2 * (i // 8) + j // 64) + atom.base((i % 8, j % 64))["m"]
            assert T.base((i, j), (16, 128))["m"] == want
    with pytest.raises(tl.AlgebraError, match="swizzle atom"):
        tl.direct_sum(tl.parse("S[2:8]"), atom, (2,), (512,))


def test_coord_sets_helper_is_not_trivial():
    # guards the oracle itself: two different layouts must differ under it
    assert coord_sets(tl.parse("S[4:1]")) != coord_sets(tl.parse("S[4:2]"))
