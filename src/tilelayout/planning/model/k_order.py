"""Permuting the reduction (K) order of both operands together, as FlashAttention-3 does.

A product ``sum_k A[.., k] B[k, ..]`` does not change when both operands' K index is
permuted the same way. A conversion into an MMA operand may therefore deliver
``A[.., k] = src[.., order[k]]`` instead of ``src[.., k]`` -- if the caller permutes the
other operand the same way (``B'[k, ..] = B[order[k], ..]``, for attention: V's rows,
which FA3 does in its V transpose). FlashAttention-3 does this for its FP8 P operand with
row-major V (``permute_Cregs_fp8``, hopper/utils.h): the accumulator's registers are
reordered inside each thread and no value crosses lanes.

:func:`match_k` finds such an order: one that keeps every element in the thread that
holds it (a perfect matching between destination and source K indices, the identity
preferred), else in its warp; :func:`relabel` makes the destination ask for the permuted
elements. ``plan_conversion(..., permute_k=dim)`` uses both; it is an explicit option
because it changes the other operand too.

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> ps, pd = place(tl.parse("S[(8,4):(4@laneid,1)]"), tl.parse("S[(8,4):(4@laneid,1)]"), (8, 4))
>>> match_k(ps, pd, 1).tolist()
[0, 1, 2, 3]
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...algebra.distinct import unique_rows
from ...core.errors import LayoutError
from .placement import Placement


def _holders(ps: Placement, pd: Placement, level: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's holder id on both sides, numbered alike: thread (level 0) or warp
    (level 1)."""
    def cols(p: Placement) -> np.ndarray:
        return np.stack([p.device, p.cta, p.warp] + ([p.lane] if level == 0 else []), 1)

    _, ids = unique_rows(np.concatenate([cols(ps), cols(pd)]), return_inverse=True)
    ids = ids.reshape(-1)
    return ids[: ps.rows], ids[ps.rows:]


def _matching(ok: np.ndarray) -> np.ndarray | None:
    """A perfect matching of destination K to source K on ``ok[k, k']``: each ``k`` in
    turn takes the smallest free ``k'`` (which keeps runs of K in order), augmenting
    paths where that fails; None when there is none."""
    n = len(ok)
    owner = np.full(n, -1, dtype=np.int64)  # source k' -> destination k
    match = np.full(n, -1, dtype=np.int64)
    for k in range(n):
        free = np.flatnonzero(ok[k] & (owner < 0))
        if len(free):
            owner[free[0]], match[k] = k, free[0]
    adj = [np.flatnonzero(ok[k]).tolist() for k in range(n)]

    def augment(k: int, seen: set[int]) -> bool:
        for j in adj[k]:
            if j not in seen:
                seen.add(j)
                if owner[j] < 0 or augment(int(owner[j]), seen):
                    owner[j], match[k] = k, j
                    return True
        return False

    for k in range(n):
        if match[k] < 0 and not augment(k, set()):
            return None
    return match


def match_k(ps: Placement, pd: Placement, dim: int) -> np.ndarray | None:
    """``order`` with ``order[k]`` the source K index destination K index ``k`` takes so
    that every element stays in its thread (else in its warp); None when neither works."""
    shape = ps.shape
    if not 0 <= dim < len(shape):
        raise LayoutError(f"permute_k must name a dimension of the {len(shape)}-d tile "
                          f"(0..{len(shape) - 1}), got {dim}")
    n, k_ext = int(np.prod(shape)), shape[dim]
    d_coords = np.unravel_index(pd.element, shape)
    for level in (0, 1):
        t_s, t_d = _holders(ps, pd, level)
        held = np.unique(t_s * n + ps.element)
        ok = np.zeros((k_ext, k_ext), dtype=bool)
        for kp in range(k_ext):
            coords = list(d_coords)
            coords[dim] = np.full(pd.rows, kp)
            want = t_d * n + np.ravel_multi_index(tuple(coords), shape)
            hit = np.isin(want, held)
            bad = np.bincount(d_coords[dim][~hit], minlength=k_ext)
            ok[:, kp] = bad == 0
        order = _matching(ok)
        if order is not None:
            return order
    return None


def relabel(pd: Placement, dim: int, order: np.ndarray) -> Placement:
    """``pd`` asking, at each coordinate with K index ``k``, for the element with K index
    ``order[k]``."""
    coords = list(np.unravel_index(pd.element, pd.shape))
    coords[dim] = order[coords[dim]]
    return dataclasses.replace(pd, element=np.ravel_multi_index(tuple(coords), pd.shape))
