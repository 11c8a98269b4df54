"""complement(L, axis, size): L's values plus the complement's cover [0, size) once."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.algebra.complement import complement, stride_gaps
from tilelayout.core.errors import AlgebraError


def _values(layout, axis):
    """Every value ``layout`` takes on ``axis`` (shard and replica digits), as a list."""
    iters = [it for it in layout.shard + layout.replica if it.axis == axis]
    return [sum(c * it.stride for c, it in zip(cs, iters, strict=True))
            for cs in itertools.product(*(range(it.extent) for it in iters))]


@pytest.mark.parametrize(("text", "axis", "size"), [
    ("S[4:2]", "m", 16), ("S[(2,4):(1,8)]", "m", 64), ("S[8:1]", "m", 8),
    ("S[(8,4):(4@laneid,1@laneid)] + R[2:32@laneid]", "laneid", 128),
    ("S[(2,2):(4,1)]", "m", 32), ("S[3:1]", "m", 12),
])
def test_layout_plus_complement_is_a_bijection_onto_the_range(text, axis, size):
    L = tl.parse(text)
    C = complement(L, axis, size)
    assert set(C.axes) <= {axis} and C.replica == ()
    sums = sorted(a + b for a in _values(L, axis) for b in _values(C, axis))
    assert sums == list(range(size))


def test_default_size_is_what_the_layout_spans():
    C = complement(tl.parse("S[4:2]"))
    assert sorted(a + b for a in (0, 2, 4, 6) for b in _values(C, "m")) == list(range(8))


@pytest.mark.parametrize(("text", "size"), [
    ("S[(2,2):(2,3)]", 16),      # interleaved iters: no strided fill exists
    ("S[4:1] + 1", 8),           # an offset on the axis
    ("S[4:-1]", 8),              # a negative stride
    ("S[4:2]", 12),              # the size is no multiple of what the layout spans
    ("ComposeLayout(Swizzle(1,1,1), S[4:1])", 8),
])
def test_refusals_are_algebra_errors(text, size):
    with pytest.raises(AlgebraError):
        complement(tl.parse(text), "m", size)


def test_stride_gaps_walks_runs_with_the_callers_rule():
    seen = []
    gaps, cover = stride_gaps([(1, 2), (4, 2), (24, 3)], lambda s, e, c: seen.append((s, e, c)))
    assert seen == [(1, 2, 1), (4, 2, 2), (24, 3, 8)]  # each run sees the cover below it
    assert (gaps, cover) == ([(2, 2), (3, 8)], 72)
    # CuTe's floor division: a stride that is no multiple of the cover leaves a hole
    assert stride_gaps([(1, 4), (6, 6)], lambda s, e, c: None) == ([], 36)

    def refuse(s, e, c):
        if s % c:
            raise AlgebraError(f"{s} is not a multiple of {c}")

    with pytest.raises(AlgebraError, match="6 is not a multiple of 4"):
        stride_gaps([(1, 4), (6, 6)], refuse)
