"""tile, direct_sum, tile_to and operand recovery, against brute force."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import brute_equivalent, shapes_for, tile_layouts
from tilelayout.core.shape import unflatten


def cset(layout, index, shape, axes):
    return frozenset(tuple(c.get(a, 0) for a in axes) for c in layout.apply(index, shape))


# -- tile / direct_sum / tile_to -------------------------------------------------------
@st.composite
def operand_pair(draw):
    inner = draw(tile_layouts(max_size=24))
    outer = draw(tile_layouts(max_size=12))
    rank = draw(st.integers(1, 2))
    ins = draw(shapes_for(inner.size(), max_rank=rank))
    outs = draw(shapes_for(outer.size(), max_rank=rank))
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


def _brute_tile_span(inner, axis, step):
    # 1 where the inner's shard does not extend along the axis; else TIRx's
    # 1 + O + sum((e-1)*s), for step="disjoint" raised to the covered extent of the
    # values (brute force)
    moving = [i for i in inner.shard if i.extent > 1] or list(inner.shard[:1])
    if axis not in {i.axis for i in moving}:
        return 1
    values = [c.get(axis, 0) for f in range(inner.size()) for c in inner.apply(f)]
    reference = 1 + inner.offset.get(axis, 0) + sum(
        (i.extent - 1) * i.stride for i in inner.shard + inner.replica if i.axis == axis)
    if step == "disjoint":
        return max(reference, max(values) - min(values) + 1)
    return reference


STEPS = st.sampled_from(["span", "disjoint"])


@given(operand_pair(), st.booleans(), STEPS)
def test_direct_sum_and_tile_match_brute_force(ops, tiled, step):
    outer, inner, outs, ins = ops
    shape = tuple(o * i for o, i in zip(outs, ins, strict=True))
    try:
        R = (inner.tile(outer, outs, ins, step=step) if tiled
             else tl.direct_sum(outer, inner, outs, ins))
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
    factors = {a: _brute_tile_span(inner, a, step) for a in inner.axes} if tiled else {}
    for f in range(R.size()):
        I = unflatten(f, shape)
        assert cset(R, I, shape, axes) == _brute_sum(outer, inner, outs, ins, factors, I, shape,
                                                     axes)


@given(operand_pair(), st.booleans(), STEPS)
def test_recover_operands(ops, tiled, step):
    outer, inner, outs, ins = ops
    try:
        R = (inner.tile(outer, outs, ins, step=step) if tiled
             else tl.direct_sum(outer, inner, outs, ins))
    except tl.AlgebraError:
        return
    try:
        O = tl.outer_of(R, inner, outs, ins, tiled=tiled, step=step)
    except tl.AlgebraError as exc:
        # TIRx's span can be 0 on an axis (negative strides): the outer's strides there
        # were multiplied by 0 and cannot be recovered
        assert tiled and step == "span" and "span" in str(exc) and any(
            tl.tile_span(inner, i.axis) == 0 for i in outer.shard if i.extent > 1)
    else:
        rebuilt = (inner.tile(O, outs, ins, step=step) if tiled
                   else tl.direct_sum(O, inner, outs, ins))
        assert brute_equivalent(rebuilt, R)
    I = tl.inner_of(R, outer, outs, ins, tiled=tiled, step=step)  # outer replicas too
    rebuilt = (I.tile(outer, outs, ins, step=step) if tiled
               else tl.direct_sum(outer, I, outs, ins))
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
    cur = data.draw(shapes_for(L.size(), max_rank=2))
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


def test_negative_stride_span_tiles():
    inner = tl.parse("S[4:-1] + 3")
    # TIRx's span 1 + 3 - 3 = 1: the three tiles overlap (12 elements on 6 addresses)
    T = inner.tile(tl.parse("S[3:1]"), (3,), (4,))
    assert sorted({T.base(f)["m"] for f in range(12)}) == list(range(6))
    # step="disjoint" steps by the covered extent 4: every address once
    D = inner.tile(tl.parse("S[3:1]"), (3,), (4,), step="disjoint")
    assert sorted(D.base(f)["m"] for f in range(12)) == list(range(12))
    assert D == inner.tile_to((12,), (4,), step="disjoint")
    with pytest.raises(tl.AlgebraError, match="'span': TIRx's span"):
        inner.tile(tl.parse("S[3:1]"), (3,), (4,), step="covered")


def test_compose_tile_needs_atom_aligned_outer():
    atom = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    T = atom.tile_to((16, 128), (8, 64))
    for i in range(16):
        for j in range(128):
            want = 512 * (2 * (i // 8) + j // 64) + atom.base((i % 8, j % 64))["m"]
            assert T.base((i, j), (16, 128))["m"] == want
    with pytest.raises(tl.AlgebraError, match="swizzle atom"):
        tl.direct_sum(tl.parse("S[2:8]"), atom, (2,), (512,))
    # a one-tile outer never moves: its canonical 1:1 iter is not an unaligned step
    assert atom.tile_to((8, 64), (8, 64)) == atom.canonicalize()
    assert tl.direct_sum(tl.parse("S[1:1]"), atom, (1,), (512,)).equivalent(atom)


RECOVERY = [
    # tiled inner_of where the outer has replicas: the inner's span must include its own
    # replicas before the outer's replica strides can be matched in L
    ("S[4:-9@pid] + R[(2,3):(9@laneid,-5@laneid)] + 1@warpid",
     "S[(2,3):(-8@laneid,-7@pid)] + -3@warpid", (4, 1), (2, 3), True),
    ("S[3:7@pid] + R[(2,3):(-7@warpid,-9@laneid)] + 4 + 5@pid",
     "S[(2,4):(6@warpid,7@warpid)] + R[3:-2@warpid] + -1@laneid + 2@warpid", (3,), (8,), True),
    # the inner's replicas fuse on their own (R[6:2]) but sit apart in L
    ("S[(3,2):(5,-3@warpid)] + R[3:-3] + 5@warpid",
     "S[(2,3):(-3@pid,-6)] + R[(3,2):(-2,-6)] + 1", (6,), (6,), False),
    # the outer's replica is the middle digit of a fused replica of L
    ("S[()] + R[2:2]", "S[3:-7] + R[(2,2):(4,1)]", (1, 1), (1, 3), False),
    # found by Hypothesis: the two replica sets only add up as written (both hold 1@warpid)
    ("S[()] + R[(2,2):(1@warpid,6@warpid)]", "S[()] + R[(2,3):(1@warpid,2@warpid)]", (1,),
     (1,), False),
]


@pytest.mark.parametrize(("outer", "inner", "outs", "ins", "tiled"), RECOVERY)
def test_recover_operands_with_replicas(outer, inner, outs, ins, tiled):
    O, I = tl.parse(outer), tl.parse(inner)
    L = I.tile(O, outs, ins) if tiled else tl.direct_sum(O, I, outs, ins)
    for built in (L, L.canonicalize()):
        o = tl.outer_of(built, I, outs, ins, tiled=tiled)
        i = tl.inner_of(built, O, outs, ins, tiled=tiled)
        for rebuilt in ((I.tile(o, outs, ins), i.tile(O, outs, ins)) if tiled else
                        (tl.direct_sum(o, I, outs, ins), tl.direct_sum(O, i, outs, ins))):
            assert brute_equivalent(rebuilt, L)


def test_inner_of_a_size_one_inner_finds_the_axis_its_replicas_count_on():
    # the inner S[1:0] + R[2:1] has span 2 on m (its lone iter's axis), so the outer's
    # S[2:1] steps by 2; recognition must put the candidate's 1:1 iter on m to rebuild it
    inner, outer = tl.parse("S[1:0] + R[(2,1):(1,0)]"), tl.parse("S[2:1]")
    R = inner.tile(outer, (2,), (1,))
    assert R == tl.parse("S[2:2] + R[(2,1):(1,0)]")
    I = tl.inner_of(R, outer, (2,), (1,), tiled=True)
    assert brute_equivalent(I.tile(outer, (2,), (1,)), R)


def test_inner_of_keeps_the_inner_replicas_as_written_in_a_tile():
    # R[2:-1] and R[2:1] + -1 are the same replica set, but TIRx's span counts them as
    # written (0 and 1 on m): recognition takes them from L as the tile wrote them
    inner, outer = tl.parse("S[1:0] + R[(2,1):(-1,0)]"), tl.parse("S[2:1]")
    R = inner.tile(outer, (2,), (1,))
    assert R.shard == (tl.Iter(2, 0),)
    I = tl.inner_of(R, outer, (2,), (1,), tiled=True)
    assert brute_equivalent(I.tile(outer, (2,), (1,)), R)
