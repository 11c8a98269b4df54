"""CuteComposed: a swizzle outside CuTe's layout; the algebra acts on the inner layout."""

import tilelayout as tl
from tilelayout.algebra.cute.composition import composition
from tilelayout.algebra.cute.modes import CuteLayout
from tilelayout.algebra.cute.swizzled import CuteComposed, as_composed, swizzle_outside


def test_evaluation_swizzles_the_inner_offset():
    sw = tl.Swizzle(3, 3, 3)
    A = CuteComposed(sw, 0, CuteLayout((8, 64), (64, 1)))
    for i in range(0, 512, 37):
        assert A(i) == sw.apply(A.inner(i))
    assert A.dims == (8, 64)


def test_our_compose_layout_reads_back():
    C = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    A = as_composed(C)
    assert A is not None and A.inner == CuteLayout((8, 64), (64, 1))
    assert as_composed(tl.parse("S[8:1]")) is None


def test_operations_keep_the_swizzle_outside():
    A = CuteComposed(tl.Swizzle(3, 3, 3), 0, CuteLayout((8, 64), (64, 1)))
    R = composition(A, (CuteLayout(8, 1), CuteLayout(8, 1)))
    assert R.swizzle == A.swizzle
    assert all(R(i) == A.swizzle.apply(R.inner(i)) for i in range(R.inner.size))
    assert R.dims == (8, 8)


def test_swizzle_outside_runs_on_the_inner_layout_only_when_swizzled():
    seen = []

    @swizzle_outside
    def op(a, k):
        """Records what it was given."""
        seen.append(a)
        return CuteLayout(k, 1)

    A = CuteComposed(tl.Swizzle(2, 0, 3), 4, CuteLayout(32, 1))
    R = op(A, 8)
    assert (R.swizzle, R.offset, R.inner) == (A.swizzle, 4, CuteLayout(8, 1))
    assert seen == [A.inner]
    assert op(CuteLayout(4, 1), 2) == CuteLayout(2, 1) and seen[-1] == CuteLayout(4, 1)
    assert op.__name__ == "op" and op.__doc__ == "Records what it was given."
