"""XOR swizzles of linear memory addresses (the shared-memory bank-conflict cure).

``Swizzle(M, B, S)`` keeps the low ``M`` bits of an element address, and in the rest
XORs the ``B`` bits at positions ``[S, S+B)`` into the bits ``[0, B)``:

    addr(m) = f(m >> M) * 2**M + (m mod 2**M),   f(x) = x ^ ((x & ((2**B - 1) << S)) >> S)

>>> sw = Swizzle.for_dtype("float16", "128B")
>>> sw, sw.apply(64 * 1 + 0)           # row 1, column 0 of an (8, 64) float16 tile
(Swizzle(3, 3, 3), 72)
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from . import budget
from .budget import MAX_INT_BITS
from .dtypes import dtype_bits
from .errors import DtypeError, LayoutOverflowError, SwizzleError, shown
from .iter import as_int
from .swizzle_modes import SWIZZLE_MODE_TABLE, mode_info
from .xor_swizzle import MAX_XOR_BITS, XorSwizzle

#: swizzle mode name -> CuTe ``Swizzle<B, M, S>`` on **byte** addresses, as (M, B, S), and
#: -> B (swizzle_len): views of the one swizzle-mode table (core/swizzle_modes.py,
#: docs/hardware.md)
SWIZZLE_MODE_BYTES: MappingProxyType[str, tuple[int, int, int]] = MappingProxyType(
    {k: v.byte_swizzle for k, v in SWIZZLE_MODE_TABLE.items()})
SWIZZLE_MODES: MappingProxyType[str, int] = MappingProxyType(
    {k: v.swizzle_len for k, v in SWIZZLE_MODE_TABLE.items()})

T = TypeVar("T")


@dataclass(frozen=True)
class Swizzle:
    """``Swizzle(per_element M, swizzle_len B, atom_len S)``; well-formed iff M, B >= 0, S >= B
    and ``M + B + S <= 256`` (no address reaches higher bits; see ``core/budget.py``).

    >>> sw = Swizzle(3, 3, 3)
    >>> [sw(64 * i) for i in range(4)]   # column 0 of an (8, 64) float16 tile
    [0, 72, 144, 216]
    """

    per_element: int
    swizzle_len: int
    atom_len: int

    def __post_init__(self) -> None:
        m = as_int(self.per_element, "swizzle per_element (M)")
        b = as_int(self.swizzle_len, "swizzle swizzle_len (B)")
        s = as_int(self.atom_len, "swizzle atom_len (S)")
        if m < 0 or b < 0:
            raise SwizzleError(f"Swizzle({m}, {b}, {s}): M and B must be >= 0")
        if s < b:
            raise SwizzleError(
                f"Swizzle({m}, {b}, {s}): atom_len S must be >= swizzle_len B "
                f"(otherwise the XOR-ed bit groups overlap and it is not a permutation)"
            )
        if m + b + s > MAX_INT_BITS:
            raise SwizzleError(
                f"Swizzle({m}, {b}, {s}) reaches bit {m + b + s}; addresses have fewer than "
                f"{MAX_INT_BITS} bits, so M + B + S must be at most {MAX_INT_BITS}"
            )
        object.__setattr__(self, "per_element", m)
        object.__setattr__(self, "swizzle_len", b)
        object.__setattr__(self, "atom_len", s)

    @classmethod
    def for_dtype(cls, dtype: str, mode: str) -> Swizzle:
        """The shared-memory swizzle for an element type and a mode.

        Modes with 16-byte atomicity (none/32B/64B/128B, and 96B, which has the 32B
        pattern): ``M = bitlen(128 / bits) - 1`` keeps one 16-byte vector unswizzled,
        ``B = 0/1/2/3`` (96B: 1), ``S = 3``. The 128B mode with 32-byte atomicity
        (``128B_atom32B``, CuTe ``Swizzle<2,5,2>`` on bytes) and with 64-byte atomicity
        (``128B_atom64B``, ``Swizzle<1,6,1>`` on bytes) keep a 32-/64-byte unit whole.
        In elements, ``M`` is the byte-level M minus ``log2(bytes)``.

        >>> Swizzle.for_dtype("float32", "64B"), Swizzle.for_dtype("float16", "128B_atom32B")
        (Swizzle(2, 2, 3), Swizzle(4, 2, 2))
        """
        bits = dtype_bits(dtype)
        if bits > 128:
            raise DtypeError(f"dtype {shown(dtype)} is wider than a 16-byte swizzle unit")
        m_bytes, b, s = SWIZZLE_MODE_BYTES[mode_name(mode)]
        return cls((128 // bits).bit_length() - 1 + m_bytes - 4, b, s)

    @property
    def atom_size(self) -> int:
        """Number of element addresses after which the pattern repeats: 2**(M+S+B).

        >>> Swizzle(3, 3, 3).atom_size
        512
        """
        return 1 << (self.per_element + self.atom_len + self.swizzle_len)

    @property
    def is_identity(self) -> bool:
        """True when ``B == 0`` (no bit is changed).

        >>> Swizzle.for_dtype("float16", "none").is_identity
        True
        """
        return self.swizzle_len == 0

    @property
    def fixed_bits(self) -> int:
        """The largest ``k`` such that every address below ``2**k`` maps to itself.

        >>> Swizzle(3, 3, 3).fixed_bits
        6
        """
        return MAX_XOR_BITS + 1 if self.swizzle_len == 0 else self.per_element + self.atom_len

    @property
    def vector_bits(self) -> int:
        """The largest ``k`` such that aligned runs of ``2**k`` addresses stay consecutive
        and in order: ``M`` (the unswizzled run), unbounded for the identity.

        >>> Swizzle(3, 3, 3).vector_bits
        3
        """
        return MAX_XOR_BITS + 1 if self.swizzle_len == 0 else self.per_element

    def to_xor(self) -> XorSwizzle:
        """The equivalent :class:`XorSwizzle`: bit ``k`` in ``[M+S, M+S+B)`` has image
        ``2**k | 2**(k-S)``, every other bit below ``M+S+B`` maps to itself. A swizzle of
        more than 62 bits (``M+S+B``) has none (:class:`SwizzleError`).

        >>> Swizzle(0, 2, 3).to_xor()
        XorSwizzle(1, 2, 4, 9, 18)
        """
        low = self.per_element + self.atom_len
        n = low + self.swizzle_len
        if n > MAX_XOR_BITS:
            raise SwizzleError(
                f"{self!r} permutes {n} address bits; an XorSwizzle holds at most {MAX_XOR_BITS}"
            )
        return XorSwizzle(
            tuple((1 << k) | (1 << (k - self.atom_len) if k >= low else 0) for k in range(n))
        )

    @classmethod
    def from_xor(cls, xor: XorSwizzle) -> Swizzle | None:
        """The ``Swizzle(M, B, S)`` equal to ``xor`` as a map, or None when there is none
        (the identity gives ``Swizzle(0, 0, 0)``).

        >>> Swizzle.from_xor(XorSwizzle(1, 2, 4, 9, 18)), Swizzle.from_xor(XorSwizzle(2, 1))
        (Swizzle(0, 2, 3), None)
        """
        moved = [(k, v) for k, v in enumerate(xor.images) if v != 1 << k]
        if not moved:
            return cls(0, 0, 0)
        lo, b = moved[0][0], len(moved)
        s = lo + 1 - (moved[0][1] ^ (1 << lo)).bit_length()  # the bit lo also flips: lo - S
        for j, (k, v) in enumerate(moved):
            if k != lo + j or s <= 0 or k < s or v != (1 << k) | (1 << (k - s)):
                return None
        if s < b or lo < s:
            return None
        return cls(lo - s, b, s)

    def inverse(self) -> Swizzle:
        """The swizzle that undoes this one: itself (a Swizzle is an involution).

        >>> Swizzle(3, 3, 3).inverse()
        Swizzle(3, 3, 3)
        """
        return self

    def apply(self, m: T) -> T:
        """Swizzled address of ``m``; works on Python ints and on numpy integer arrays.

        Negative addresses use two's-complement bits, the same for ints and arrays.
        An array result that would not fit its dtype raises :class:`LayoutOverflowError`.

        >>> Swizzle(3, 3, 3).apply(64), Swizzle(3, 3, 3).apply(-1)
        (72, -57)
        """
        if not isinstance(m, int) and self.per_element + self.atom_len + self.swizzle_len > 62:
            return self._apply_wide(m)
        return self._apply(m)

    def _apply_wide(self, m: T) -> T:
        arr = m  # a numpy integer array whose masks do not fit its dtype
        dt = arr.dtype  # type: ignore[attr-defined]
        if arr.size and dt.kind == "i" and dt.itemsize == 8 and int(arr.min()) >= 0:  # type: ignore[attr-defined]
            # bits 63 and up of a non-negative int64 are 0: only the mask bits below 63 can
            # change anything, so the same formula runs on int64 with the mask clipped
            mm, s = self.per_element, self.atom_len
            keep = 63 - mm
            if keep <= s:
                return arr.copy()  # type: ignore[attr-defined,no-any-return]
            mask = (((1 << self.swizzle_len) - 1) << s) & ((1 << keep) - 1)
            x = arr >> mm  # type: ignore[operator]
            x = x ^ ((x & mask) >> s)
            return (x << mm) | (arr & ((1 << mm) - 1))  # type: ignore[operator,return-value]
        # negative addresses: compute exactly on Python ints (one object per address, so
        # counted against the cells limit), then convert back
        budget.check("a wide swizzle of negative addresses computes", arr.size, "cells")  # type: ignore[attr-defined]
        exact = self._apply(m.astype(object))  # type: ignore[attr-defined]
        try:
            return exact.astype(m.dtype)  # type: ignore[attr-defined,no-any-return]
        except OverflowError:
            raise LayoutOverflowError(
                f"{self} takes some of these addresses beyond {m.dtype}; "  # type: ignore[attr-defined]
                f"use the exact scalar apply() on Python ints"
            ) from None

    def _apply(self, m: T) -> T:
        mask = ((1 << self.swizzle_len) - 1) << self.atom_len
        x = m >> self.per_element  # type: ignore[operator]
        x = x ^ ((x & mask) >> self.atom_len)
        low = m & ((1 << self.per_element) - 1)  # type: ignore[operator]
        return (x << self.per_element) | low  # type: ignore[return-value]

    __call__ = apply
    unapply = apply  # an involution: the address -> linear m map is the same

    def __str__(self) -> str:
        return f"Swizzle({self.per_element},{self.swizzle_len},{self.atom_len})"

    def __repr__(self) -> str:
        return f"Swizzle({self.per_element}, {self.swizzle_len}, {self.atom_len})"


def as_plain_swizzle(sw: Swizzle | XorSwizzle) -> Swizzle | None:
    """``sw`` as a ``Swizzle(M, B, S)`` (what CuTe and TIRx take), or None if it is not one.

    >>> as_plain_swizzle(Swizzle(3, 3, 3)), as_plain_swizzle(XorSwizzle(2, 1))
    (Swizzle(3, 3, 3), None)
    """
    return sw if isinstance(sw, Swizzle) else Swizzle.from_xor(sw)


def mode_name(mode: str) -> str:
    """The canonical name of a swizzle mode (case-insensitive; "128" and "128b" are
    accepted for "128B").

    >>> mode_name("128"), mode_name("128b_atom32b"), mode_name("none")
    ('128B', '128B_atom32B', 'none')
    """
    return mode_info(mode).name


def signed_swizzle(per_element: int, swizzle_len: int, shift: int) -> Swizzle | XorSwizzle:
    """CuTe's ``Swizzle<B, M, S>`` with a signed shift (TIRx's ``swizzle_inner`` flag).

    ``S >= 0`` XORs the higher bit group into the lower one: our ``Swizzle(M, B, S)``.
    ``S < 0`` XORs the lower group into the higher one (bit ``k`` in ``[M, M+B)`` also
    flips bit ``k+|S|``), which no ``Swizzle`` says: the equal :class:`XorSwizzle`.

    >>> signed_swizzle(3, 3, 3), signed_swizzle(0, 2, -3)
    (Swizzle(3, 3, 3), XorSwizzle(9, 18, 4, 8, 16))
    """
    m = as_int(per_element, "swizzle per_element (M)")
    b = as_int(swizzle_len, "swizzle swizzle_len (B)")
    s = as_int(shift, "swizzle shift (S)")
    if s >= 0 or b == 0:
        return Swizzle(m, b, abs(s))
    if m < 0 or b < 0 or -s < b:
        raise SwizzleError(f"Swizzle({shown(m)}, {shown(b)}, {shown(s)}): expected M, B >= 0 and "
                           f"|S| >= B")
    if m - s + b > MAX_XOR_BITS:  # checked before the images are listed
        raise SwizzleError(f"Swizzle({shown(m)}, {shown(b)}, {shown(s)}) XORs bits up to "
                           f"{shown(m - s + b)}; an XorSwizzle permutes at most {MAX_XOR_BITS}")
    return XorSwizzle([(1 << k) | ((1 << (k - s)) if m <= k < m + b else 0)
                       for k in range(m - s + b)])


def swizzle_shift(sw: Swizzle | XorSwizzle) -> tuple[int, int, int] | None:
    """``(M, B, signed S)`` with ``signed_swizzle(M, B, S) == sw`` as a map, or None.

    >>> swizzle_shift(Swizzle(3, 3, 3)), swizzle_shift(XorSwizzle(9, 18, 4, 8, 16))
    ((3, 3, 3), (0, 2, -3))
    >>> swizzle_shift(XorSwizzle(2, 1)) is None
    True
    """
    plain = as_plain_swizzle(sw)
    if plain is not None:
        return plain.per_element, plain.swizzle_len, plain.atom_len
    assert isinstance(sw, XorSwizzle)
    moved = [k for k, v in enumerate(sw.images) if v != 1 << k]
    lo, b = moved[0], len(moved)
    s = (sw.images[lo] ^ (1 << lo)).bit_length() - 1 - lo
    if s < b or moved != list(range(lo, lo + b)):
        return None
    if any(sw.images[k] != (1 << k) | (1 << (k + s)) for k in moved):
        return None
    return lo, b, -s


def mode_length(mode: str) -> int:
    """B for a swizzle mode name (case-insensitive; "128" and "128b" are accepted).

    >>> mode_length("128B"), mode_length("64b"), mode_length("none"), mode_length("96B")
    (3, 2, 0, 1)
    """
    return SWIZZLE_MODES[mode_name(mode)]
