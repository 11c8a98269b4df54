"""F2 linear algebra (core/f2.py): properties against brute force on small bit matrices."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.core import f2


@st.composite
def maps(draw, max_bits=8):
    """(n, images): any linear map on n bits, images below 2**n."""
    n = draw(st.integers(0, max_bits))
    return n, tuple(draw(st.lists(st.integers(0, (1 << n) - 1), min_size=n, max_size=n)))


@st.composite
def invertible(draw, max_bits=10):
    """(n, images) of an invertible map: a random product of elementary column operations
    on a permutation, so every invertible map can be drawn."""
    n = draw(st.integers(0, max_bits))
    images = [1 << p for p in draw(st.permutations(range(n)))]
    for i, j in draw(st.lists(st.tuples(st.integers(0, max(n - 1, 0)),
                                        st.integers(0, max(n - 1, 0))), max_size=3 * n)):
        if n and i != j:
            images[i] ^= images[j]
    return n, tuple(images)


def brute_span(vectors):
    out = {0}
    for v in vectors:
        out |= {x ^ v for x in out}
    return out


@given(maps())
def test_dim_is_the_log_of_the_span(m):
    n, images = m
    assert 1 << f2.Subspace(images).dim == len(brute_span(images))


@given(maps())
def test_the_basis_spans_the_same_space_and_is_reduced(m):
    _, images = m
    basis = f2.Subspace(images).basis()
    assert brute_span(basis) == brute_span(images) and len(basis) == f2.Subspace(images).dim
    tops = [v.bit_length() - 1 for v in basis]
    assert tops == sorted(set(tops))
    for v in basis:   # no basis vector has another's leading bit
        assert all(not (v >> t & 1) for t in tops if t != v.bit_length() - 1)


@given(maps())
def test_subspace_membership_and_reduce(m):
    n, images = m
    s = f2.Subspace(images)
    span = brute_span(images)
    for x in range(1 << n):
        assert (x in s) == (x in span)
        assert s.reduce(x) ^ x in span and (s.reduce(x) == 0) == (x in span)


@given(maps())
def test_first_dependent(m):
    _, images = m
    k = f2.first_dependent(images)
    if k is None:
        assert f2.Subspace(images).dim == len(images)
    else:
        assert f2.Subspace(images[:k]).dim == k and images[k] in brute_span(images[:k])


@given(invertible())
def test_inverse_undoes_the_map(m):
    n, images = m
    inv = f2.inverse(images)
    for x in range(1 << n):
        assert f2.apply(inv, f2.apply(images, x)) == x
        assert f2.apply(images, f2.apply(inv, x)) == x
    assert f2.inverse(inv) == images


@given(maps())
def test_a_preimage_maps_back_and_exists_exactly_on_the_span(m):
    n, images = m
    span = brute_span(images)
    for v in range(1 << n):
        x = f2.preimage(images, v)
        assert (x is not None) == (v in span)
        if x is not None:
            assert f2.apply(images, x) == v and x < 1 << len(images)


@given(maps())
def test_singular_maps_have_no_inverse(m):
    n, images = m
    if f2.Subspace(images).dim < n:
        with pytest.raises(tl.AlgebraError, match="not invertible"):
            f2.inverse(images)


def test_every_invertible_2_bit_map():
    found = [ims for ims in itertools.product(range(4), repeat=2) if f2.Subspace(ims).dim == 2]
    assert len(found) == 6    # |GL(2, F2)|
    for ims in found:
        assert f2.apply(f2.inverse(ims), f2.apply(ims, 3)) == 3


def test_callers_share_it():
    sw = tl.XorSwizzle(2, 4, 1)
    assert sw.inverse().images == f2.inverse(sw.images)
    with pytest.raises(tl.SwizzleError, match="image 3 of bit 2 is the XOR"):
        tl.XorSwizzle(1, 2, 3)
