"""Differential test against the reference implementation (apache-tvm-tirx).

canonicalize, group, tile and span run on hundreds of seeded random layouts (negative
strides, offsets and replicas on shard, replica and offset, outer offsets and replicas
included) and on the reference document's layouts. Every result is compared twice:

* element by element: TIRx's own ``apply`` of its result against our ``base`` for every
  sampled logical index, and the full coordinate sets (replicas included) of both results;
* structurally: the same shard iters, the same replica iters and the same offset. The
  one difference left is the order of the replica iters, which TIRx sorts by a
  structural-hash value (an implementation detail) and we by (axis, stride descending,
  extent); it is asserted here as such, so any other difference fails.

The keywords that depart from TIRx on request are tested against TIRx too:
``canonicalize(normalize_replicas=True)``, ``tile(step="disjoint")`` and
``span(covered=True)``.
"""

from __future__ import annotations

import math
import random

import pytest

import tilelayout as tl
from tilelayout.algebra.canonical import canonicalize
from tilelayout.algebra.span import value_range

T = pytest.importorskip(
    "tvm_tirx.tirx.layout",
    reason="apache-tvm-tirx is not installed (pip install -e '.[tvm]'; scripts/test.sh does)",
)

pytestmark = pytest.mark.interop

from tests.strategies import brute_equivalent  # noqa: E402
from tilelayout.interop.tvm import from_tvm, to_tvm  # noqa: E402

AXES = ("m", "laneid", "warpid")
REFERENCE_LAYOUTS = [  # the reference document's layouts, with a shape each groups by
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", (8, 16)),
    ("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]", (2, 128, 112)),
    ("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]", (32, 4)),
    ("S[(8,64):(64,1)]", (8, 64)),
    ("S[(8,64):(64,1)]", (8, 1, 64)),
]


def _iter(rng: random.Random, negative: bool) -> tl.Iter:
    return tl.Iter(rng.choice([1, 2, 2, 3, 4, 5, 6]), rng.randint(-6 if negative else 0, 9),
                   rng.choice(AXES))


def _layout(rng: random.Random, *, negative: bool = True, offset_low: int = -5,
            max_size: int = 64) -> tl.TileLayout:
    shard = [_iter(rng, negative) for _ in range(rng.randint(1, 4))]
    while len(shard) > 1 and math.prod(i.extent for i in shard) > max_size:
        shard.pop()
    replica = [_iter(rng, negative) for _ in range(rng.randint(0, 2))]
    offset = {rng.choice(AXES): rng.randint(offset_low, 5) for _ in range(rng.randint(0, 2))}
    return tl.TileLayout(shard, replica, offset)


def _shape(rng: random.Random, n: int, rank: int) -> tuple[int, ...]:
    dims, rest = [], n
    for _ in range(rank - 1):
        d = rng.choice([d for d in range(1, rest + 1) if rest % d == 0])
        dims.append(d)
        rest //= d
    return (*dims, rest)


def _same_elements(theirs, ours: tl.TileLayout) -> None:
    """For every index (48 sampled ones), TIRx's own apply of its result (its replica-free point) is one of
    our coordinates, and our base when the replicas need no normalization; and both
    results have equal coordinate sets (replicas included) under our evaluator."""
    exact_base = from_tvm(theirs).offset == ours.offset
    size = ours.size()
    for flat in sorted(random.Random(size).sample(range(size), min(size, 48))):
        got = {str(k): int(v) for k, v in theirs.apply(flat).items()}
        mine = ours.apply(flat)
        axes = set(got) | {a for c in mine for a in c}
        assert any(all(got.get(a, 0) == c.get(a, 0) for a in axes) for c in mine), (ours, flat)
        if exact_base:
            want = ours.base(flat)
            assert all(got.get(a, 0) == want.get(a, 0) for a in axes), (ours, flat)
    if size <= 4096:
        assert brute_equivalent(from_tvm(theirs), ours)
    else:  # large reference layouts: vectorized comparison of every coordinate set
        assert from_tvm(theirs).equivalent(ours)


def _replica_order(it: tl.Iter) -> tuple[str, int, int]:
    return (it.axis, -it.stride, it.extent)


def _same_structure(ref: tl.TileLayout, ours: tl.TileLayout) -> None:
    """Identical, except that TIRx orders the replica iters by a hash value."""
    assert ref.shard == ours.shard
    assert dict(ref.offset) == dict(ours.offset)
    assert sorted(ref.replica, key=_replica_order) == list(ours.replica)
    assert ref.replace(replica=sorted(ref.replica, key=_replica_order)) == ours


def test_round_trip_through_reference():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid]")
    assert from_tvm(to_tvm(L)) == L


def test_canonicalize_matches_reference():
    rng, compared, with_replicas = random.Random(20260), 0, 0
    for _ in range(400):
        L = _layout(rng)
        theirs = to_tvm(L).canonicalize()
        ref, ours = from_tvm(theirs), L.canonicalize()
        _same_structure(ref, ours)
        _same_elements(theirs, ours)
        assert canonicalize(ref) == ours  # ours is a fixed point of theirs
        # the normal form on request: the same mapping, replica set normalized
        normal = L.canonicalize(normalize_replicas=True)
        assert normal.shard == ref.shard and brute_equivalent(normal, ref)
        assert normal == canonicalize(ref, normalize_replicas=True)
        compared += 1
        with_replicas += bool(L.replica)
    assert compared >= 300 and with_replicas >= 200


def test_group_matches_reference():
    rng, compared, refused = random.Random(20261), 0, 0
    while compared < 320:
        L = _layout(rng)
        shape = _shape(rng, L.size(), rng.randint(1, 4))
        try:
            ours, seps = L.group(shape)
        except tl.AlgebraError:
            with pytest.raises(Exception):  # noqa: B017 - the reference raises a RuntimeError
                to_tvm(L).group(list(shape))
            refused += 1
            continue
        theirs, ref_seps = to_tvm(L).group(list(shape))
        assert from_tvm(theirs) == ours  # exact: shard, replicas, offset
        assert tuple(int(s) for s in ref_seps) == seps
        assert all(a < b for a, b in zip(seps, seps[1:]))  # no empty group
        _same_elements(theirs, ours)
        compared += 1
    assert refused > 10  # the refusals were exercised too


def test_group_examples_from_the_issue():
    assert tl.parse("S[(14,4):(4,1)]").group((14, 1, 4)) == (
        tl.parse("S[(14,1,4):(4,4,1)]"), (0, 1, 2, 3))
    assert tl.parse("S[(8,5,1):(5,1,1)]").group((40,)) == (tl.parse("S[(8,5):(5,1)]"), (0, 2))


def _tirx_span(inner: tl.TileLayout, axis: str) -> int:
    return 1 + inner.offset.get(axis, 0) + sum(
        (i.extent - 1) * i.stride for i in inner.shard + inner.replica if i.axis == axis)


def _overlapping_axes(inner: tl.TileLayout, outer: tl.TileLayout) -> set[str]:
    """Axes the outer's shard moves and the inner's shard extends along, where TIRx's
    span is below the covered extent (the tiles overlap there)."""
    moving = [i for i in inner.shard if i.extent > 1] or list(inner.shard[:1])
    extends = {i.axis for i in moving}
    moved = {i.axis for i in outer.shard if i.extent > 1 and i.stride}
    return {a for a in moved & extends if _tirx_span(inner, a) < inner.span(a, covered=True)}


def _compare_tile(inner, outer, outs, ins) -> str:
    try:
        ours = inner.tile(outer, outs, ins)
    except tl.AlgebraError:
        with pytest.raises(Exception):  # noqa: B017 - the reference raises a RuntimeError
            to_tvm(inner).tile(to_tvm(outer), list(outs), list(ins))
        return "refused"
    theirs = to_tvm(inner).tile(to_tvm(outer), list(outs), list(ins))
    _same_structure(from_tvm(theirs), ours)
    _same_elements(theirs, ours)
    if _overlapping_axes(inner, outer):
        # on request, step by the covered extent: the same tile where TIRx's span already
        # reaches it, a wider step (never overlapping) where it does not
        disjoint = inner.tile(outer, outs, ins, step="disjoint")
        assert disjoint.shard != ours.shard and disjoint.replica == ours.replica
        return "overlapping"
    assert inner.tile(outer, outs, ins, step="disjoint") == ours
    return "same"


def test_tile_matches_reference():
    """Inner strides and offset >= 0 (where TIRx's span is one past the largest value);
    the outer anything: negative strides, offsets and replicas included."""
    rng = random.Random(20262)
    counts = {"same": 0, "refused": 0, "overlapping": 0}
    with_outer_extras = 0
    while counts["same"] < 320:
        inner = _layout(rng, negative=False, offset_low=0, max_size=24)
        outer = _layout(rng, max_size=12)
        rank = rng.randint(1, 3)
        ins, outs = _shape(rng, inner.size(), rank), _shape(rng, outer.size(), rank)
        result = _compare_tile(inner, outer, outs, ins)
        counts[result] += 1
        if result == "same" and (outer.replica or outer.offset):
            with_outer_extras += 1
    assert counts["overlapping"] == 0
    assert with_outer_extras >= 150 and counts["refused"] > 0


def test_tile_with_any_inner_matches_reference():
    """Inners with negative strides and offsets too: identical to TIRx, including the
    tiles that overlap because TIRx's span is below the covered extent."""
    rng = random.Random(20263)
    counts = {"same": 0, "refused": 0, "overlapping": 0}
    for _ in range(330):
        inner, outer = _layout(rng, max_size=24), _layout(rng, max_size=12)
        rank = rng.randint(1, 3)
        ins, outs = _shape(rng, inner.size(), rank), _shape(rng, outer.size(), rank)
        counts[_compare_tile(inner, outer, outs, ins)] += 1
    assert counts["same"] + counts["overlapping"] >= 280
    assert counts["overlapping"] > 30 and counts["refused"] > 10


def test_tile_examples_from_the_issue():
    inner = tl.parse("S[(2,2):(1,2)] + 4")
    T1 = inner.tile(tl.parse("S[(2,2,5):(10,1,2)] + 1"), (2, 10), (2, 2))
    assert T1.offset == {"m": 5}
    T2 = inner.tile(tl.parse("S[2:10] + R[2:8@warpid]"), (2, 1), (2, 2))
    assert T2.replica == (tl.Iter(2, 8, "warpid"),)
    for ours, outer, outs in ((T1, "S[(2,2,5):(10,1,2)] + 1", (2, 10)),
                              (T2, "S[2:10] + R[2:8@warpid]", (2, 1))):
        theirs = to_tvm(inner).tile(to_tvm(tl.parse(outer)), list(outs), [2, 2])
        assert from_tvm(theirs) == ours
        _same_elements(theirs, ours)


def test_negative_inner_tiles_overlap_as_in_tirx_unless_disjoint():
    # TIRx steps S[4:-1] + 3 by its span 1 - 3 + 3 = 1 and the tiles overlap, as ours do;
    # step="disjoint" steps by the covered extent 4
    inner, outer = tl.parse("S[4:-1] + 3"), tl.parse("S[3:1]")
    theirs = to_tvm(inner).tile(to_tvm(outer), [3], [4])
    ours = inner.tile(outer, (3,), (4,))
    assert from_tvm(theirs) == ours
    assert {int(theirs.apply(f)["m"]) for f in range(12)} == {ours.base(f)["m"] for f in range(12)}
    assert len({ours.base(f)["m"] for f in range(12)}) == 6
    disjoint = inner.tile(outer, (3,), (4,), step="disjoint")
    assert sorted(disjoint.base(f)["m"] for f in range(12)) == list(range(12))


@pytest.mark.parametrize(("text", "shape"), REFERENCE_LAYOUTS)
def test_reference_document_layouts(text, shape):
    L = tl.parse(text)
    theirs = to_tvm(L).canonicalize()
    _same_structure(from_tvm(theirs), L.canonicalize())
    _same_elements(theirs, L.canonicalize())
    grouped, seps = to_tvm(L).group(list(shape))
    assert (from_tvm(grouped), tuple(int(s) for s in seps)) == L.group(shape)
    outer = tl.parse("S[(2,2):(1@warpid,4)] + R[2:2@laneid] + 3")
    assert _compare_tile(L, outer, (2, 2) + (1,) * (len(shape) - 2),
                         (shape[0], math.prod(shape[1:])) + (1,) * (len(shape) - 2)) == "same"


def test_span_matches_reference():
    """Equal on every axis of every layout (offsets and negative strides included); the
    covered extent on request equals TIRx's where TIRx's is one past the largest value."""
    rng, compared, covered = random.Random(20264), 0, 0
    for _ in range(500):
        L = _layout(rng)
        T = to_tvm(L)
        assert int(T.span()) == L.span() == L.span(None) == L.span("m")
        for a in (*L.axes, "pid"):
            assert int(T.span(a)) == L.span(a)
            compared += 1
            lo, _ = value_range(L, a)
            if lo == 0 and L.offset.get(a, 0) == 0 and all(
                    i.stride >= 0 for i in L.shard + L.replica if i.axis == a):
                assert L.span(a, covered=True) == L.span(a)
                covered += 1
    assert compared >= 1000 and covered >= 300
    assert int(to_tvm(tl.parse("S[4:-1]")).span("m")) == -2 == tl.parse("S[4:-1]").span("m")
    assert tl.parse("S[4:-1]").span("m", covered=True) == 4
