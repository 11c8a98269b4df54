"""Linear algebra over F2 (GF(2)) on Python ints: bit ``i`` of an int is coordinate ``i``.

A linear map on ``n`` bits is written as its **images**: ``images[k]`` is where bit ``k``
goes (column ``k`` of its matrix), as :class:`~tilelayout.XorSwizzle` stores it. A subspace
is kept in echelon form by :class:`Subspace`. Every XOR swizzle, the inverse map codegen
writes and the planners' XOR synthesis use these functions; all cost O(n^2) word operations.

>>> images = (2, 3, 4)                  # bit 0 -> 0b10, bit 1 -> 0b11, bit 2 -> 0b100
>>> apply(images, 0b011), inverse(images), Subspace(images).dim
(1, (3, 1, 4), 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import AlgebraError


class Subspace:
    """A subspace of F2^n, built vector by vector and kept in echelon form (leading bit ->
    basis vector). A working value of the algorithms: ``add`` changes it, ``copy`` forks it.

    >>> s = Subspace([0b011, 0b110])
    >>> s.dim, 0b101 in s, 0b001 in s, s.reduce(0b111)
    (2, True, False, 1)
    """

    __slots__ = ("rows",)

    def __init__(self, vectors: Iterable[int] = ()) -> None:
        self.rows: dict[int, int] = {}
        for v in vectors:
            self.add(v)

    def reduce(self, v: int) -> int:
        """``v`` reduced by the basis: 0 iff ``v`` is in the subspace.

        >>> Subspace([4]).reduce(5)
        1
        """
        rows = self.rows
        while v:
            top = v.bit_length() - 1
            row = rows.get(top)
            if row is None:
                return v
            v ^= row
        return 0

    def add(self, v: int) -> bool:
        """Add ``v`` to the subspace; False when it was already in it.

        >>> s = Subspace([1]); s.add(3), s.add(2)
        (True, False)
        """
        r = self.reduce(v)
        if r:
            self.rows[r.bit_length() - 1] = r
        return bool(r)

    def __contains__(self, v: int) -> bool:
        return self.reduce(v) == 0

    @property
    def dim(self) -> int:
        """The dimension (how many basis vectors).

        >>> Subspace([1, 2, 3]).dim
        2
        """
        return len(self.rows)

    def basis(self) -> tuple[int, ...]:
        """The reduced echelon basis, leading bits ascending: no basis vector has another's
        leading bit set.

        >>> Subspace([0b111, 0b011]).basis()
        (3, 4)
        """
        out: dict[int, int] = {}
        for top in sorted(self.rows):
            v = self.rows[top]
            low = v ^ (1 << top)
            while low:  # clear the lower leading bits, which already have reduced rows
                bit = low.bit_length() - 1
                if bit in out:
                    v ^= out[bit]
                low &= ~(1 << bit)
            out[top] = v
        return tuple(out.values())

    def __repr__(self) -> str:
        return f"Subspace({list(self.basis())})"


def first_dependent(vectors: Iterable[int]) -> int | None:
    """The index of the first vector in the span of the earlier ones (0 counts), else None.

    >>> first_dependent([1, 2, 3]), first_dependent([1, 2, 4]), first_dependent([0])
    (2, None, 0)
    """
    rows: dict[int, int] = {}  # leading bit -> reduced vector (Subspace's loop, inlined: hot)
    for k, v in enumerate(vectors):
        while v:
            top = v.bit_length() - 1
            row = rows.get(top)
            if row is None:
                rows[top] = v
                break
            v ^= row
        else:
            return k
    return None


def apply(images: Sequence[int], x: int) -> int:
    """The map with these images at ``x``: the XOR of ``images[k]`` over the set bits
    ``k`` of ``x`` (bits at and above ``len(images)`` are ignored).

    >>> apply((2, 3, 4), 0b101)
    6
    """
    out = 0
    for k, v in enumerate(images):
        if x >> k & 1:
            out ^= v
    return out


def _eliminate(images: Sequence[int]) -> tuple[dict[int, tuple[int, int]], list[int]]:
    """(leading bit -> ``(v, x)`` with ``apply(images, x) == v``, one per independent image;
    the ``x`` the map sends to 0, one per dependent image)."""
    rows: dict[int, tuple[int, int]] = {}
    null = []
    for k, v in enumerate(images):
        x = 1 << k
        while v:
            top = v.bit_length() - 1
            row = rows.get(top)
            if row is None:
                rows[top] = (v, x)
                break
            v ^= row[0]
            x ^= row[1]
        else:
            null.append(x)
    return rows, null


def preimage(images: Sequence[int], v: int) -> int | None:
    """An ``x`` with ``apply(images, x) == v`` -- which images XOR to ``v``, using only
    images independent of the earlier ones -- or None when ``v`` is outside their span.

    >>> preimage((1, 6, 2), 0b111), preimage((1, 6), 0b010)
    (3, None)
    """
    return _solve(_eliminate(images)[0], v)


class Preimages:
    """:func:`preimage` of many vectors under one map, eliminated once.

    >>> solve = Preimages((1, 6, 2))
    >>> solve(0b111), solve(0b1000)
    (3, None)
    """

    __slots__ = ("_inv", "_n", "_rows")

    def __init__(self, images: Sequence[int]) -> None:
        self._rows = _eliminate(images)[0]
        self._n = n = len(images)
        # an invertible map: each unit vector's preimage, once (then a vector's is the
        # XOR of its bits')
        square = len(self._rows) == n and all(top < n for top in self._rows)
        self._inv = _inverted(self._rows, n) if square else None

    def __call__(self, v: int) -> int | None:
        inv = self._inv
        if inv is None:
            return _solve(self._rows, v)
        if v >> self._n:
            return None
        x = 0
        while v:
            bit = v.bit_length() - 1
            x ^= inv[bit]
            v ^= 1 << bit
        return x


def _solve(rows: dict[int, tuple[int, int]], v: int) -> int | None:
    x = 0
    while v:
        row = rows.get(v.bit_length() - 1)
        if row is None:
            return None
        v ^= row[0]
        x ^= row[1]
    return x


def inverse(images: Sequence[int]) -> tuple[int, ...]:
    """The images of the inverse of an invertible map on ``n = len(images)`` bits (every
    image below ``2**n``); a singular map is an :class:`~tilelayout.AlgebraError`.

    >>> inverse((2, 4, 1)), inverse(())
    ((4, 1, 2), ())
    >>> inverse((1, 1))
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.AlgebraError: the F2 map with images (1, 1) is not invertible (rank 1 of 2)
    """
    n = len(images)
    rows, _ = _eliminate(images)
    if len(rows) != n or any(top >= n for top in rows):
        raise AlgebraError(f"the F2 map with images {tuple(images)} is not invertible "
                           f"(rank {len(rows)} of {n})")
    return _inverted(rows, n)


def _inverted(rows: dict[int, tuple[int, int]], n: int) -> tuple[int, ...]:
    """The inverse's images from the elimination rows of an invertible map on ``n`` bits."""
    out = [0] * n
    for b in range(n):  # pivots ascending: lower bits are already solved
        v, x = rows[b]
        low = v ^ (1 << b)
        while low:
            bit = low.bit_length() - 1
            x ^= out[bit]
            low ^= 1 << bit
        out[b] = x
    return tuple(out)
