"""Where each destination element comes from: the first step of a conversion plan.

For every (deduplicated) destination row, :func:`route_between` finds the closest source
holder of the same element and its level (:data:`~tilelayout.planning.model.placement.LEVELS`):
the same register (``none``), the same thread (``registers``), the same warp
(``warp-shuffle``), the same CTA or device (``shared-memory``), or another device
(``collective``, where any holder will do: the collective picks). The result is the bare
:class:`Route` the mechanisms then fill in (shuffle
rounds, a staging, a collective).

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> ps, pd = place(tl.parse("S[(32,2):(1@laneid,1)]"), tl.parse("S[(32,2):(1,1@laneid)]"), None)
>>> r = route_between(ps, pd, 32)
>>> len(r.dst_rows), r.warps, int(r.level.max())    # 64 elements, one warp, lanes exchange
(64, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...algebra.distinct import unique_rows
from ...core.frozen import freeze_fields
from .placement import LEVELS, Placement, dedupe, joint_warps


@dataclass(frozen=True)
class Route:
    """Everything :func:`~tilelayout.planning.machine.execute` needs: both placements, the
    destination rows with their source rows and levels, the warp numbering, and the
    mechanism's schedule (shuffle rounds, a staging or a collective)."""

    src: Placement
    dst: Placement
    dst_rows: np.ndarray  # deduped destination rows
    gwarp: tuple[np.ndarray, np.ndarray]
    warps: int
    level: np.ndarray  # per destination row
    source: np.ndarray  # per destination row: the chosen source row
    shuffle: Any = None  # mechanisms.shuffle.shuffle.ShuffleSchedule
    shuffle_fill: tuple[np.ndarray, ...] | None = None  # per lane-crossing row (lane_exchange)
    collective: Any = None  # mechanisms.collective.Collective
    epw: int = 1
    staging: Any = None  # mechanisms.staging.staging.Staging
    bits: int = 32
    #: sub-word values exchanged as whole registers plus byte permutes
    byte_permute: Any = None  # mechanisms.shuffle.byte_permute.BytePermute
    #: a lane exchange planned on bits: every destination row reads the holder of its
    #: element in its own warp (``route.source``), as the exchange's shuffles deliver it
    warp_exchange: bool = False

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only through it





def levels(ps: Placement, pd: Placement) -> tuple[np.ndarray, np.ndarray]:
    """Per destination row: its level (index into LEVELS) and the chosen source row.

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> ps, pd = place(tl.parse("S[(4,8):(1@laneid,1)]"), tl.parse("S[(4,8):(1,1@laneid)]"), None)
    >>> level, source = levels(ps, pd)
    >>> sorted(set(level.tolist())), bool((ps.element[source] == pd.element).all())
    ([0, 2], True)
    """
    level = np.full(pd.rows, LEVELS.index("collective"), dtype=np.int64)
    source = np.full(pd.rows, -1, dtype=np.int64)
    todo = np.ones(pd.rows, dtype=bool)
    for k, lev in zip(range(5), (0, 1, 2, 3, 3), strict=True):
        both = np.concatenate([ps.key(k), pd.key(k)])
        _, first, inv = unique_rows(both, return_index=True, return_inverse=True)
        inv = inv.reshape(-1)
        rep = np.full(len(first), -1, dtype=np.int64)
        s_ids = inv[: ps.rows]
        rep[s_ids[::-1]] = np.arange(ps.rows)[::-1]  # first source row per key
        hit = todo & (rep[inv[ps.rows:]] >= 0)
        level[hit] = lev
        source[hit] = rep[inv[ps.rows:]][hit]
        todo &= ~hit
    if todo.any():  # another device: any holder of the element (the collective picks)
        _, first_src = np.unique(ps.element, return_index=True)
        source[todo] = first_src[pd.element[todo]] if len(first_src) == ps.element.max() + 1 \
            else first_src[np.searchsorted(np.unique(ps.element), pd.element[todo])]
    return level, source


def route_between(ps: Placement, pd: Placement, bits: int) -> Route:
    """The bare route from ``ps`` to ``pd`` for ``bits``-bit elements: the deduplicated
    destination rows with their levels and source rows, and one warp numbering for both
    sides (:func:`~.placement.joint_warps`).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> ps, pd = place(tl.parse("S[(2,64):(1,1@tx)]"), tl.parse("S[(2,64):(1,1@tx)]"), None)
    >>> r = route_between(ps, pd, 16)
    >>> r.warps, r.bits, int(r.level.max())           # two warps, nothing moves
    (2, 16, 0)
    """
    rows = dedupe(pd)
    level, source = levels(ps, pd)
    gwarp = joint_warps(ps, pd)
    warps = int(max(gwarp[0].max(initial=-1), gwarp[1].max(initial=-1))) + 1
    return Route(ps, pd, rows, gwarp, warps, level[rows], source[rows], bits=bits)
