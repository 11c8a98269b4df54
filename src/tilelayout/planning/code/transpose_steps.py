"""The steps of a lane exchange by bit transpositions, one at a time on byte labels: a
select stage (:class:`Select`), the ``ship`` form's data (:class:`Ship`), ``prmt``'s byte
selection (:func:`byte_perm`, PTX ISA "prmt": docs/data-movement.md, *Facts the code
relies on*), and one round of indexed shuffles. :mod:`.transpose` composes them into a
whole exchange.

>>> a, b = np.array([[0, 1, 2, 3]]), np.array([[4, 5, 6, 7]])
>>> byte_perm(a, b, 0x5410).tolist()     # low halves of a and b
[[0, 1, 4, 5]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.frozen import freeze_fields
from ..mechanisms.shuffle.warp_transpose import BOT, TOP

WARP = 32
#: the prmt selector bits that swap the two operands of every byte
OPERANDS = 0x4444


@dataclass(frozen=True, eq=False)
class Select:
    """One select stage of a transposition: in every pair of registers ``(r, r | 1 <<
    reg)``, the threads where ``trade`` is 0 keep their order and the others trade
    (selects, ``top`` / ``bot`` = :data:`TOP` / :data:`BOT`), or both registers are
    rebuilt by byte permutes with the selectors ``(top, bot)`` and, where ``trade`` is
    1, ``(alt_top, alt_bot)``. ``trade``: one value per thread (Triton's: one lane bit)."""

    reg: int
    top: int
    bot: int
    alt_top: int
    alt_bot: int
    trade: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)

    @property
    def plain(self) -> bool:
        return self.top == TOP and self.bot == BOT


@dataclass(frozen=True)
class Ship:
    """The ``ship`` form of one transposition: every pair ``(r, r | 1 << reg)`` sends
    one value to ``lane ^ 1 << lane`` and rebuilds both registers from it. ``plain``:
    by selects (the high register leaves where the lane bit is clear, the low one
    where it is set); else by byte permutes: ``send`` builds the sent value, ``low`` /
    ``high`` rebuild the pair from it, each selector pair (lane bit clear, set)."""

    reg: int
    lane: int
    plain: bool
    send: tuple[int, int] = (TOP, TOP)
    low: tuple[int, int] = (TOP, TOP)
    high: tuple[int, int] = (TOP, TOP)


def byte_pair_selector(selector: int) -> int:
    """A ``prmt`` selector on 16-bit halves that each hold one 8-bit value (Triton's
    packing of an 8-bit pair) as the selector on the two low bytes that hold them.

    >>> hex(byte_pair_selector(0x5410))
    '0x3240'
    """
    out = 0x3200  # the two high bytes hold nothing
    for p in range(2):
        nibble = selector >> (8 * p) & 0xF
        out |= ((nibble & 4) | (nibble & 3) >> 1) << (4 * p)
    return out


def select_stage(vals: np.ndarray, s: Select) -> np.ndarray:
    """One select stage on the byte labels ``vals[t, q, b]`` (a thread whose ``trade``
    is any keeps its order)."""
    out = vals.copy()
    half = 1 << s.reg
    low = [q for q in range(vals.shape[1]) if not q & half]
    high = [q | half for q in low]
    keep = (s.trade != 1)[:, None, None]
    a, b = vals[:, low], vals[:, high]
    if s.plain:
        out[:, low] = np.where(keep, a, b)
        out[:, high] = np.where(keep, b, a)
        return out
    out[:, low] = np.where(keep, byte_perm(a, b, s.top), byte_perm(a, b, s.alt_top))
    out[:, high] = np.where(keep, byte_perm(a, b, s.bot), byte_perm(a, b, s.alt_bot))
    return out


def byte_perm(a: np.ndarray, b: np.ndarray, selector: int) -> np.ndarray:
    """``__byte_perm(a, b, selector)`` (PTX ``prmt.b32``) on byte labels: byte ``k`` of
    the result is byte ``selector >> 4k & 7`` of ``b:a`` (``a`` the low four).

    >>> byte_perm(np.array([0, 1, 2, 3]), np.array([4, 5, 6, 7]), 0x5410).tolist()
    [0, 1, 4, 5]
    """
    both = np.concatenate([a, b], axis=-1)
    pick = [(selector >> (4 * k)) & 7 for k in range(4)]
    return both[..., pick]


def ship_selectors(top_post: int) -> tuple[int, int]:
    """The selectors that rebuild, from the shipped value, the high register where the
    lane bit is clear and the low one where it is set (Triton's ``shipDiagSels``).

    >>> [hex(x) for x in ship_selectors(0x3120)]
    ['0x7564', '0x7564']
    """
    if top_post == 0x3120:
        return 0x7564, 0x7564
    high = (top_post & OPERANDS) >> 2
    lo = top_post ^ (high << 1 if top_post & 0x1000 else high)
    return lo, lo ^ OPERANDS


def partner(lane: np.ndarray, mask: int) -> np.ndarray:
    """The thread ``lane ^ mask`` of the same warp, per thread."""
    t = np.arange(len(lane))
    return t - lane + (lane ^ mask)


def shuffled(vals: np.ndarray, src_lane: np.ndarray) -> np.ndarray:
    out = vals.copy()
    t = np.arange(vals.shape[0])
    for q in range(vals.shape[1]):
        reads = src_lane[q] >= 0
        if reads.any():
            src = np.where(reads, t // WARP * WARP + src_lane[q], t)
            out[:, q] = vals[src, q]
    return out


__all__ = ["OPERANDS", "Select", "Ship", "byte_pair_selector", "byte_perm", "partner",
           "select_stage", "ship_selectors", "shuffled"]
