"""What one mechanism contributes to a conversion plan: its :class:`Outcome` (mechanism
name, the reason it was chosen, stages, costs, and the route filled in for the machine
model), and the outcomes of the mechanisms that need no search among alternatives:

* :func:`in_registers`: every thread already holds its elements, only register slots (and
  for packed sub-word values, bytes: ``prmt``) change;
* :func:`over_devices`: another device holds them, a collective moves them;
* :func:`through_smem` / :func:`between_warps`: a store, a barrier and a load through
  shared memory (:mod:`.staging`), the only way warps, CTAs or a shared-memory side
  exchange data.

The lane exchange, which compares shuffles with staging, is :mod:`.lane_exchange`.

>>> import tilelayout as tl          # two warps exchange columns: between_warps's outcome
>>> p = tl.plan_conversion("S[(4,8):(1@laneid,1)]", "S[(4,8):(1@laneid,1@warpid)]", None, "float32")
>>> p.mechanism, [s.what for s in p.stages]
('shared-memory', ['store', 'barrier', 'load'])
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..core.errors import LayoutError
from .cost_model import SELECT
from .mechanisms.collective import Collective
from .mechanisms.shuffle.byte_permute import plan_byte_permute
from .mechanisms.staging.smem_choice import SmemChoice
from .mechanisms.staging.staging import Staging, stage_through
from .model.placement import Placement, PlanError
from .model.routing import Route
from .plan_stages import Stage, collective_reason, staging_costs, staging_stages
from .problem.targeting import TargetChoice


@dataclass(frozen=True)
class Outcome:
    """What one mechanism contributes to a plan: its name, why, its stages and costs,
    the route with its schedule (None: the bare route) and the shared-memory layout it
    stages through.

    >>> Outcome("none", "every destination coordinate already holds its element").costs
    {}
    """

    mechanism: str
    reason: str
    stages: tuple[Stage, ...] = ()
    costs: Mapping[str, Any] = field(default_factory=dict)
    route: Route | None = None
    smem: SmemChoice | None = None


def in_registers(route: Route, moved: int) -> Outcome:
    """Every thread already holds the elements it needs: ``moved`` values change register
    slot (with the byte permutes of packed sub-word values, :func:`in_thread_permutes`).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> route = route_between(*place(tl.parse("S[(2,32):(1,1@laneid)]"),
    ...                              tl.parse("S[(2,32):(-1,1@laneid)] + 1"), None), 32)
    >>> out = in_registers(route, 64)
    >>> out.mechanism, dict(out.costs)
    ('registers', {'registers_moved': 64})
    """
    work = in_thread_permutes(route, moved)
    return Outcome("registers", "every thread already holds the elements it needs; only "
                   "register slots change",
                   (Stage("registers", f"permute registers inside each thread ({moved} "
                          f"values change slot{repacked(work)})", {"moved": moved}),),
                   {"registers_moved": moved, **work})


def repacked(work: dict[str, int]) -> str:
    """The words of a renaming that packed code builds, as a clause (or nothing).

    >>> repacked({"register_repacks": 8})
    ': a renaming; code that packs sub-word values builds 8 words with a prmt'
    """
    n = work.get("register_repacks", 0)
    return f": a renaming; code that packs sub-word values builds {n} words with a prmt" \
        if n else ""


def lane_selects(dst_slot: np.ndarray, src_slot: np.ndarray, bits: int) -> dict[str, int]:
    """The selects of whole-register moves inside threads (``dst_slot[i]`` takes
    ``src_slot[i]``, one entry per destination value of every thread): a destination
    register that different threads take from ``n`` different source registers costs a
    chain of ``n - 1`` selects (per 32-bit word of a wider value); none where every
    thread takes the same one (a renaming).

    >>> lane_selects(np.array([0, 0, 1, 1]), np.array([0, 2, 1, 1]), 32)
    {'shuffle_selects': 1}
    >>> lane_selects(np.array([0, 1]), np.array([1, 0]), 64)
    {}
    """
    d, s = np.asarray(dst_slot, dtype=np.int64), np.asarray(src_slot, dtype=np.int64)
    if not len(d):
        return {}
    pairs = np.unique(d * (int(s.max()) + 1) + s)
    per_dst = np.bincount(pairs // (int(s.max()) + 1))
    n = int(np.maximum(per_dst - 1, 0).sum()) * max(1, bits // 32)
    return {"shuffle_selects": n} if n else {}


def in_thread_permutes(route: Route, moved: int) -> dict[str, int]:
    """Values that change register (or byte) inside a thread: the byte permutes and
    selects of packed sub-word values, the selects of whole registers taken from
    lane-dependent slots (:func:`lane_selects`; none when the values are being
    converted from a wider type: the conversion packs in any order).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> ps, pd = place(tl.parse("S[(2,32):(1,1@laneid)]"), tl.parse("S[(2,32):(-1,1@laneid)] + 1"), None)
    >>> in_thread_permutes(route_between(ps, pd, 32), 64)      # 32-bit values: a renaming
    {}
    >>> in_thread_permutes(route_between(ps, pd, 16), 64)      # 16-bit: a renaming too
    {'register_repacks': 1}
    """
    if not moved:
        return {}
    ps, pd, rows, src = route.src, route.dst, route.dst_rows, route.source
    return slot_permutes(route.gwarp[1][rows], pd.lane[rows], pd.slot[rows], ps.slot[src],
                         route.warps, route.bits)


def slot_permutes(warp: np.ndarray, lane: np.ndarray, dst_slot: np.ndarray,
                  src_slot: np.ndarray, warps: int, bits: int, limit: float = math.inf
                  ) -> dict[str, int] | None:
    """The selects and byte permutes of destination values ``(warp, lane, dst_slot)``
    each taken from ``src_slot`` of the same thread (:func:`in_thread_permutes`): whole
    registers by :func:`lane_selects`, sub-word values by :mod:`.byte_permute` with no
    shuffle; None when sub-word values are sure to take more than ``limit`` of them.
    A permutation the same in every thread is a renaming at any width: free, as Triton
    holds sub-word values unpacked (docs/data-movement.md, *The cost model*); for
    sub-word values ``register_repacks`` says how many words code that keeps them packed
    builds with a ``prmt`` (not an instruction the plan is charged).

    >>> z, t = np.zeros(2, np.int64), np.array([0, 1])
    >>> slot_permutes(z, z, np.array([0, 1]), np.array([1, 0]), 1, 16)    # a renaming
    {'register_repacks': 1}
    >>> slot_permutes(z, t, np.array([0, 0]), np.array([0, 1]), 1, 16)    # lane 1 takes slot 1
    {'byte_permutes': 1, 'shuffle_selects': 0}
    """
    if bits >= 32:
        return lane_selects(dst_slot, src_slot, bits)
    if not lane_selects(dst_slot, src_slot, 32):
        return _repacks(dst_slot, src_slot, bits)
    # no shuffles: SELECT units per select or permute; half a select above the limit,
    # so a count of exactly ``limit`` is still searched
    bp = plan_byte_permute(warp, lane, src_slot, lane, dst_slot, warps, bits,
                           limit=(limit + 0.5) * SELECT)
    if bp is None:
        return None if limit < math.inf else {}
    return {"byte_permutes": bp.permutes, "shuffle_selects": bp.selects}


def _repacks(dst_slot: np.ndarray, src_slot: np.ndarray, bits: int) -> dict[str, int]:
    """Destination words of a renaming of ``bits``-bit values that are not one source
    word in place (``dst_slot[i]`` takes ``src_slot[i]`` in every thread)."""
    pw = 32 // bits
    d, s = np.asarray(dst_slot, dtype=np.int64), np.asarray(src_slot, dtype=np.int64)
    if not len(d):
        return {}
    word = d // pw
    moved = np.zeros(int(word.max()) + 1, dtype=bool)
    moved[word[s % pw != d % pw]] = True
    # a word whose values come from more than one source word
    first = np.full(len(moved), -1, dtype=np.int64)
    first[word[::-1]] = (s // pw)[::-1]
    moved |= np.bincount(word, weights=(s // pw != first[word]), minlength=len(moved)) > 0
    n = int(moved.sum())
    return {"register_repacks": n} if n else {}


def over_devices(coll: Collective, bits: int, route: Route) -> Outcome:
    """The collective ``coll`` moves ``bits``-bit elements between devices: its steps,
    and the bytes each device sends and receives.

    >>> import numpy as np
    >>> import tilelayout as tl
    >>> from tilelayout.planning.mechanisms.collective import classify
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> coll = classify(np.array([0, 0, 1, 1]), np.array([0, 1, 2, 3]),
    ...                 np.array([0, 0, 0, 0, 1, 1, 1, 1]), np.array([0, 1, 2, 3] * 2), 2)
    >>> route = route_between(*place(tl.parse("S[4:1@laneid]"), tl.parse("S[4:1@laneid]"), None), 16)
    >>> out = over_devices(coll, 16, route)    # the route carries the collective to the machine
    >>> coll.name, out.costs["bytes_received_per_device"], out.route.collective is coll
    ('all-gather', (4, 4), True)
    """
    b = max(bits // 8, 1) if bits >= 8 else bits / 8
    return Outcome(
        "collective", collective_reason(coll),
        tuple(Stage("collective", step, {"collective": step}) for step in coll.steps),
        {"bytes_sent_per_device": tuple(float(x * b) if b % 1 else int(x * b)
                                        for x in coll.sent),
         "bytes_received_per_device": tuple(float(x * b) if b % 1 else int(x * b)
                                            for x in coll.received),
         "bytes_sent": int(coll.sent.max(initial=0) * b),
         "bytes_received": int(coll.received.max(initial=0) * b),
         "total_bytes": int(coll.received.sum() * b)},
        replace(route, collective=coll))


def store_rows(ps: Placement) -> np.ndarray:
    """Source rows that store: one holder per element (its first replica).

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> ps, _ = place(tl.parse("S[4:1] + R[2:1@laneid]"), tl.parse("S[4:1]"), None)
    >>> ps.rows, store_rows(ps).tolist()      # lane 1's replicas do not store
    (8, [0, 2, 4, 6])
    """
    if ps.role == "shared":
        return np.arange(ps.rows)
    _, first = np.unique(ps.element, return_index=True)
    return np.sort(first)


def try_staging(route: Route, dtype: str, on: TargetChoice, max_bytes: int | None = None
                ) -> tuple[Staging | None, str]:
    """The staging of ``route`` through shared memory (:func:`~.staging.stage_through`,
    ``max_bytes`` its bound), or None and why shared memory cannot be planned.

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> from tilelayout.planning.problem.targeting import resolve_target
    >>> ctas = place(tl.parse("S[(2,32):(1@bx,1@laneid)]"), tl.parse("S[(2,32):(1@laneid,1@bx)]"), None)
    >>> staging, why_not = try_staging(route_between(*ctas, 32), "float32", resolve_target(None))
    >>> staging is None, why_not[:39]
    (True, 'the writer layout spreads the tile over')
    """
    try:
        return stage_through(route.src, route.dst, dtype, route.gwarp,
                             store_rows(route.src), on, max_bytes), ""
    except LayoutError as exc:
        return None, str(exc)


def between_warps(route: Route, dtype: str, on: TargetChoice, max_bytes: int | None = None
                  ) -> Outcome:
    """Warps (or a shared-memory side) exchange data: only shared memory connects them
    (``max_bytes``: :func:`~.staging.stage_through`'s bound). Raises
    :class:`~.placement.PlanError` when it cannot be planned (elements that cross CTAs,
    say why). Example: the module doc."""
    ps, pd = route.src, route.dst
    staging, why_not = try_staging(route, dtype, on, max_bytes)
    if staging is None:
        crossing = (pd.cta[route.dst_rows] != ps.cta[route.source]).any()
        raise PlanError(("elements move between CTAs; plan_conversion stages through one "
                         "CTA's shared memory (cluster shared memory and global memory are "
                         "not planned): " if crossing else "shared memory cannot be planned: ")
                        + why_not)
    if "shared" in (ps.role, pd.role):
        reason = ("the source is a shared-memory tile: each warp loads its fragment"
                  if ps.role == "shared" else
                  "the destination is a shared-memory tile: each warp stores its fragment")
    else:
        reason = ("warps (or CTAs) exchange data: only shared memory connects them "
                  "(a store, a barrier, a load)")
    return through_smem(route, staging, reason, warp_local=False)


def through_smem(route: Route, staging: Staging, reason: str, *, warp_local: bool
                 ) -> Outcome:
    """The outcome of moving ``route`` by ``staging``: its stages (``warp_local``: each
    warp exchanges only with itself, a ``__syncwarp`` for a barrier) and costs.

    >>> import tilelayout as tl
    >>> from tilelayout.planning.model.placement import place
    >>> from tilelayout.planning.model.routing import route_between
    >>> from tilelayout.planning.problem.targeting import resolve_target
    >>> route = route_between(*place(tl.parse("S[(32,32):(1@laneid,1)]"),
    ...                              tl.parse("S[(32,32):(1,1@laneid)]"), None), 32)
    >>> staging, _ = try_staging(route, "float32", resolve_target(None))
    >>> out = through_smem(route, staging, "a transpose", warp_local=True)
    >>> out.mechanism, out.route.staging is staging, out.smem is staging.choice
    ('shared-memory', True, True)
    """
    extra = [n for n in staging.choice.notes if n.startswith("staged with")]
    shared_side = "shared" in (route.src.role, route.dst.role)
    return Outcome(
        "shared-memory", reason + ("; " + extra[0] if extra else ""),
        tuple(staging_stages(staging, route.src.role, route.dst.role, warp_local)),
        staging_costs(staging, shared_side, warp_local), replace(route, staging=staging),
        staging.choice)
