"""Bit-linear (XOR) swizzles: any F2-linear permutation of the low bits of an address.

``XorSwizzle(images)`` says, for each bit ``k`` of the element address ``m``, which
address bits it sets: ``images[k]`` is the address bit k contributes. With
``n = len(images)``, bits of ``m`` at and above ``n`` pass through unchanged:

    addr(m) = (XOR of images[k] over the set bits k < n of m)  |  (m >> n) << n

It is refused unless it is a permutation of ``[0, 2**n)``: every image below ``2**n``
and the images linearly independent over F2. This is the family Triton's shared linear
layouts and its generic swizzle synthesis live in; ``Swizzle(M, B, S)`` is the special
case where bit ``k`` in ``[M+S, M+S+B)`` has image ``2**k | 2**(k-S)``
(:meth:`tilelayout.Swizzle.to_xor`).

>>> sw = XorSwizzle(1, 2, 4, 9, 18)     # bits 3, 4 also flip bits 0, 1
>>> [sw(m) for m in (8, 16, 24, 27, 32)]
[9, 18, 27, 24, 32]
>>> sw.inverse()(27)
24
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from . import f2
from .errors import LayoutError, LayoutOverflowError, SwizzleError
from .iter import as_int

T = TypeVar("T")

#: the most address bits an XorSwizzle may permute (its addresses stay inside int64)
MAX_XOR_BITS = 62


class XorSwizzle:
    """An F2-linear permutation of the low ``n`` bits of ``m``. Immutable, hashable.

    Written ``XorSwizzle(images)`` or ``XorSwizzle(*images)``; text form
    ``XorSwizzle(1,2,4,9,18)``.

    >>> XorSwizzle([1, 2, 4, 9, 18]) == XorSwizzle(1, 2, 4, 9, 18)
    True
    >>> XorSwizzle(1, 4)
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.SwizzleError: XorSwizzle(1,4): image 4 of bit 1 is not below 2**2 ...
    """

    __slots__ = ("_images", "_inverse")

    def __init__(self, *images: int | Iterable[int]) -> None:
        if len(images) == 1 and not isinstance(images[0], int) and hasattr(images[0], "__iter__"):
            images = tuple(images[0])  # type: ignore[arg-type]
        try:
            values = tuple(as_int(v, f"XorSwizzle image of bit {k}") for k, v in enumerate(images))
        except LayoutError as exc:
            raise SwizzleError(str(exc)) from None
        n = len(values)
        text = f"XorSwizzle({','.join(map(str, values))})"
        if n > MAX_XOR_BITS:
            raise SwizzleError(
                f"{text[:40]}...: {n} images; an XorSwizzle permutes at most {MAX_XOR_BITS} "
                f"address bits"
            )
        for k, v in enumerate(values):
            if v <= 0 or v >> n:
                why = "is 0 (the bit would be lost)" if v == 0 else (
                    "is negative" if v < 0 else f"is not below 2**{n}")
                raise SwizzleError(
                    f"{text}: image {v} of bit {k} {why} (a permutation of [0, {1 << n}) "
                    f"maps every address below {1 << n})"
                )
        dependent = f2.first_dependent(values)
        if dependent is not None:
            raise SwizzleError(
                f"{text}: image {values[dependent]} of bit {dependent} is the XOR of images of "
                f"lower bits, so two addresses would collide (the images must be linearly "
                f"independent over F2)"
            )
        object.__setattr__(self, "_images", values)
        object.__setattr__(self, "_inverse", None)

    # -- structure ------------------------------------------------------------------
    @property
    def images(self) -> tuple[int, ...]:
        """``images[k]``: the address bits that bit ``k`` of ``m`` sets."""
        return self._images

    @property
    def bits(self) -> int:
        """``n``: the number of low address bits permuted (bits at and above pass through)."""
        return len(self._images)

    @property
    def atom_size(self) -> int:
        """Number of addresses after which the pattern repeats: ``2**n``.

        >>> XorSwizzle(1, 2, 4, 9, 18).atom_size
        32
        """
        return 1 << len(self._images)

    @property
    def is_identity(self) -> bool:
        """True when every bit maps to itself.

        >>> XorSwizzle(1, 2, 4).is_identity, XorSwizzle(2, 1).is_identity
        (True, False)
        """
        return all(v == 1 << k for k, v in enumerate(self._images))

    @property
    def fixed_bits(self) -> int:
        """The largest ``k`` such that every address below ``2**k`` maps to itself.

        >>> XorSwizzle(1, 2, 4, 9, 18).fixed_bits
        3
        """
        for k, v in enumerate(self._images):
            if v != 1 << k:
                return k
        return MAX_XOR_BITS + 1  # the identity fixes every address of int64

    @property
    def vector_bits(self) -> int:
        """The largest ``k`` such that every aligned run of ``2**k`` addresses maps to an
        aligned run of ``2**k`` consecutive addresses, in order (the low ``k`` bits map to
        themselves and no other bit sets them): the widest vector the swizzle keeps whole.

        >>> XorSwizzle(1, 2, 4, 9, 18).vector_bits, XorSwizzle(1, 2, 4, 8, 16, 36).vector_bits
        (0, 2)
        """
        k = min(self.fixed_bits, len(self._images))
        while k and any(v & ((1 << k) - 1) for v in self._images[k:]):
            k -= 1
        return MAX_XOR_BITS + 1 if self.is_identity else k

    def inverse(self) -> XorSwizzle:
        """The XorSwizzle that undoes this one (:func:`tilelayout.core.f2.inverse`, O(n^2)).

        >>> XorSwizzle(1, 2, 4, 9, 18).inverse()
        XorSwizzle(1, 2, 4, 9, 18)
        >>> XorSwizzle(2, 4, 1).inverse()
        XorSwizzle(4, 1, 2)
        """
        if self._inverse is None:
            inv = XorSwizzle(f2.inverse(self._images))
            object.__setattr__(inv, "_inverse", self)
            object.__setattr__(self, "_inverse", inv)
        return self._inverse

    # -- evaluation -----------------------------------------------------------------
    def terms(self, m: int) -> tuple[tuple[int, int], ...]:
        """``(bit, image)`` for each set bit ``k < n`` of ``m``: what ``addr(m)`` XORs.

        >>> XorSwizzle(1, 2, 4, 9, 18).terms(27)
        ((0, 1), (1, 2), (3, 9), (4, 18))
        """
        m = as_int(m, "address")
        return tuple((k, v) for k, v in enumerate(self._images) if m >> k & 1)

    def apply(self, m: T) -> T:
        """Swizzled address of ``m``; works on Python ints (exact, any size) and on numpy
        integer arrays and scalars (one pass per permuted bit; map_all uses a faster table
        path). A result that does not fit the input's dtype is a
        :class:`~tilelayout.LayoutOverflowError`.

        Negative addresses use two's-complement bits, the same for ints and arrays.

        >>> XorSwizzle(2, 1).apply(1), XorSwizzle(2, 1).apply(-3)
        (2, -2)
        """
        if isinstance(m, int):  # the low n bits through the images, the rest unchanged
            return (m & ~((1 << len(self._images)) - 1)) ^ f2.apply(self._images, m)  # type: ignore[return-value]
        dtype = getattr(m, "dtype", None)
        if dtype is None or (dtype.kind == "i" and dtype.itemsize == 8):
            return self._apply(m)  # int64: every image and result fits (n <= 62)
        # another width or unsigned: exact on Python ints, then back to the input's dtype
        exact = self._apply(m.astype(object))  # type: ignore[attr-defined]
        try:
            if isinstance(exact, int):
                return dtype.type(exact)  # type: ignore[no-any-return]
            return exact.astype(dtype)  # type: ignore[no-any-return]
        except (OverflowError, ValueError):
            raise LayoutOverflowError(
                f"{self} takes some of these addresses beyond {dtype}; use int64 arrays or "
                f"Python ints"
            ) from None

    def _apply(self, m: T) -> T:  # an array (or an object array of Python ints)
        out = m & ~((1 << len(self._images)) - 1)  # type: ignore[operator]
        for k, v in enumerate(self._images):
            out = out ^ ((m >> k) & 1) * v  # type: ignore[operator]
        return out  # type: ignore[no-any-return]

    __call__ = apply

    def unapply(self, address: T) -> T:
        """The linear ``m`` whose swizzled address is ``address`` (the inverse permutation).

        >>> XorSwizzle(2, 4, 1).unapply(XorSwizzle(2, 4, 1).apply(5))
        5
        """
        return self.inverse().apply(address)

    # -- identity -------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, XorSwizzle):
            return NotImplemented
        return self._images == other._images

    def __hash__(self) -> int:
        return hash(("XorSwizzle", self._images))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"XorSwizzle is immutable (cannot set {name!r})")

    def __reduce__(self) -> tuple:
        return (XorSwizzle, (self._images,))

    def __str__(self) -> str:
        return f"XorSwizzle({','.join(map(str, self._images))})"

    def __repr__(self) -> str:
        return f"XorSwizzle({', '.join(map(str, self._images))})"
