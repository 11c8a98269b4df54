"""Where each destination element comes from: the first step of a conversion plan.

For every (deduplicated) destination row, :func:`route_between` finds the closest source
holder of the same element and its level (:data:`~tilelayout.planning.model.placement.LEVELS`):
the same register (``none``), the same thread (``registers``), the same warp
(``warp-shuffle``), the same CTA or device (``shared-memory``), or another device
(``collective``, where any holder will do: the collective picks). The result is the bare
:class:`~tilelayout.planning.model.machine.Route` the mechanisms then fill in (shuffle
rounds, a staging, a collective).

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> ps, pd = place(tl.parse("S[(32,2):(1@laneid,1)]"), tl.parse("S[(32,2):(1,1@laneid)]"), None)
>>> r = route_between(ps, pd, 32)
>>> len(r.dst_rows), r.warps, int(r.level.max())    # 64 elements, one warp, lanes exchange
(64, 1, 2)
"""

from __future__ import annotations

import numpy as np

from ...algebra.distinct import unique_rows
from ..mechanisms.staging.staging import joint_warps
from .machine import Route
from .placement import LEVELS, Placement, dedupe


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
    sides (:func:`~tilelayout.planning.mechanisms.staging.staging.joint_warps`).

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
