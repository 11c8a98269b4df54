"""Shared-memory banks: which 4-byte bank word, bank and line each element lands in.

Shared memory has 32 banks of 4 bytes. For a (swizzled) element address ``a`` of an
element of ``b`` bytes: ``bankword = a*b // 4``, ``bank = bankword % 32``,
``line = bankword // 32``.

>>> import tilelayout as tl
>>> L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
>>> bank_map(L, "float16")["bank"][:, 0, 0].tolist()
[0, 4, 8, 12, 16, 20, 24, 28]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import budget
from ..core.axes import is_thread_axis
from ..core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ..core.compose import ComposeLayout
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError, LayoutOverflowError
from ..core.tile import TileLayout


def bank_of(address: int, dtype: str) -> tuple[int, int, int]:
    """``(bankword, bank, line)`` of element address ``address`` (already swizzled).

    >>> bank_of(72, "float16")
    (36, 4, 1)
    """
    word = address * dtype_bytes(dtype) // SMEM_BANK_BYTES
    return word, word % SMEM_BANKS, word // SMEM_BANKS


def is_shared_memory(layout: TileLayout | ComposeLayout) -> bool:
    """Whether banks apply: the layout has an address ``m`` and no thread axis (with a
    thread axis, ``m`` is a register slot, which has no bank).

    >>> import tilelayout as tl
    >>> is_shared_memory(tl.parse("S[(8,64):(64,1)]")), is_shared_memory(tl.parse("S[(32,2):(1@laneid,1)]"))
    (True, False)
    """
    return "m" in layout.axes and not any(
        is_thread_axis(a) for a in layout.axes
    )


def bank_map(
    layout: TileLayout | ComposeLayout, dtype: str, shape: Sequence[int] | None = None
) -> dict[str, np.ndarray]:
    """For every element: ``address`` (swizzled, elements), ``byte``, ``bankword``,
    ``bank`` and ``line``, each an int64 array of shape ``(*shape, R)`` like ``map_all``.

    Elements smaller than 4 bytes share a bank word (``4 // dtype_bytes`` per word).
    Byte addresses beyond int64 raise :class:`~tilelayout.LayoutOverflowError`.

    >>> import tilelayout as tl
    >>> bank_map(tl.parse("S[(8,64):(64,1)]"), "float16")["bank"][:, 0, 0].tolist()
    [0, 0, 0, 0, 0, 0, 0, 0]
    """
    if "m" not in layout.axes:
        raise LayoutError(f"bank analysis needs a shared-memory address on axis 'm'; {layout} has none")
    nbytes = dtype_bytes(dtype)
    pairs = layout.size() * layout.replica_count
    # map_all of every axis, then four more arrays: counted as six evaluations of the pairs
    budget.check("bank_map evaluates", pairs * (len(layout.axes) + 4), "elements")
    address = layout.map_all(shape)["m"]
    if address.size:
        low, high = int(address.min()) * nbytes, int(address.max()) * nbytes
        if low < -(1 << 63) or high >= 1 << 63:
            raise LayoutOverflowError(
                f"byte addresses of {layout} reach {high if high >= 1 << 63 else low} "
                f"({dtype}), beyond int64; "
                f"use bank_of() on the exact addresses from apply()"
            )
    byte = address * nbytes
    word = byte // SMEM_BANK_BYTES
    return {
        "address": address,
        "byte": byte,
        "bankword": word,
        "bank": word % SMEM_BANKS,
        "line": word // SMEM_BANKS,
    }


@dataclass(frozen=True)
class BankAccess:
    """The bank words one request touches: ``words`` and ``banks`` (sorted), ``per_bank``
    (bank -> its distinct words, read-only) and ``ways``, the worst number of distinct
    words asked of one bank (1 = conflict-free, k = a k-way conflict)."""

    words: tuple[int, ...]
    per_bank: Mapping[int, tuple[int, ...]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "per_bank", MappingProxyType(dict(self.per_bank)))

    @property
    def banks(self) -> tuple[int, ...]:
        """The banks touched, in order."""
        return tuple(self.per_bank)

    @property
    def ways(self) -> int:
        """The most distinct words asked of one bank."""
        return max((len(v) for v in self.per_bank.values()), default=0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``POST /api/access`` sends)."""
        return {"words": list(self.words), "banks": list(self.banks), "ways": self.ways,
                "per_bank": {str(b): list(v) for b, v in self.per_bank.items()}}


def bank_access(layout: TileLayout | ComposeLayout, dtype: str, shape: Sequence[int],
                elements: Sequence[int]) -> BankAccess:
    """The bank words read when the elements with flat indices ``elements`` (of a tile of
    ``shape``) are read together (every replica, every word of a wide element).

    >>> import tilelayout as tl
    >>> a = bank_access(tl.parse("S[(8,64):(64,1)]"), "float16", (8, 64), [0, 64, 128, 192])
    >>> a.banks, a.ways, a.words
    ((0,), 4, (0, 32, 64, 96))
    """
    n = math.prod(shape)
    idx = np.asarray(elements, dtype=np.int64)
    if idx.ndim != 1 or np.any((idx < 0) | (idx >= n)):
        raise LayoutError(f"elements must be flat indices in [0, {n})")
    words = bank_map(layout, dtype, shape)["bankword"].reshape(n, -1)[idx].reshape(-1)
    banks = words % SMEM_BANKS
    per_bank = {int(b): tuple(sorted({int(w) for w in words[banks == b]}))
                for b in np.unique(banks)}
    return BankAccess(tuple(sorted({int(w) for w in words})), per_bank)
