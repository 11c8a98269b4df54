"""Sums and digits: digit fusion is exact for every integer, and the structural key is
blind to term order and to shift / mask spelling."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tilelayout.tirx import symbolic as S
from tilelayout.tirx.linear import key

X = S.Var("x")


@st.composite
def digit_sums(draw):
    """A sum of digits ``c * (x // lo % n)`` of one value (some unbounded), built term by
    term, and the direct value of the same sum."""
    terms = []
    for _ in range(draw(st.integers(1, 5))):
        lo = draw(st.sampled_from([1, 2, 4, 8, 3, 6]))
        n = draw(st.sampled_from([None, 2, 4, 3]))
        coef = draw(st.sampled_from([1, 2, 4, 8, 16, 64, -8, 3, 6]))
        terms.append((lo, n, coef))
    built = 0
    for lo, n, coef in terms:
        d = S.floordiv(X, lo)
        built = S.add(built, S.mul(d if n is None else S.floormod(d, n), coef))

    def direct(x):
        return sum(coef * ((x // lo) if n is None else (x // lo) % n) for lo, n, coef in terms)
    return built, direct


@given(pair=digit_sums(), x=st.integers(-5000, 5000))
@settings(max_examples=300, deadline=None)
def test_fused_digit_sums_are_exact(pair, x):
    built, direct = pair
    got = built if isinstance(built, int) else built.evaluate({X: x})
    assert got == direct(x), built


def test_consecutive_digits_fuse_into_one():
    three = S.add(S.add(S.mul(S.floormod(S.floordiv(X, 16), 4), 16),
                        S.mul(S.floormod(S.floordiv(X, 4), 4), 4)), S.floormod(X, 4))
    assert str(three) == "x % 64"
    assert str(S.add(S.mul(S.floordiv(X, 64), 64), three)) == "x"


def test_keys_ignore_order_and_spelling():
    y = S.Var("y")
    assert key(S.add(X, y)) == key(S.add(y, X))
    assert key(S.shift(S.SHL, X, 3)) == key(S.mul(X, 8))
    assert key(S.shift(S.SHR, X, 3)) == key(S.floordiv(X, 8))
    assert key(S.bitwise(S.AND, X, 7)) == key(S.floormod(X, 8))
    left = S.bitwise(S.XOR, S.bitwise(S.XOR, X, y), 5)
    assert key(left) == key(S.bitwise(S.XOR, 5, S.bitwise(S.XOR, y, X)))
    assert key(S.bitwise(S.AND, X, 6)) != key(S.floormod(X, 7))
