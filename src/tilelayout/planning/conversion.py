"""Conversion plans: how a tile held in one layout gets to another, and what it costs.

``plan_conversion(src, dst, shape, dtype)`` compares where each element sits before and
after (:mod:`~tilelayout.planning.placement`). For every destination coordinate it finds
the closest source holder of the same element: the same register (nothing to do), the
same thread (a register move), the same warp (a lane exchange), the same CTA or device
(through shared memory), or another device (a collective). ``kind`` is the coarsest of
these levels over the tile (docs/data-movement.md); ``mechanism`` is the cheapest way that works:

* ``registers`` never leaves the registers;
* a lane exchange is planned both as ``shfl.sync`` rounds (:mod:`.shuffle`) and as a
  store / barrier / load through shared memory (:mod:`.staging`); the plan takes the
  one with fewer instructions per warp (a shuffle round costs one ``shfl`` plus the
  selects that pick a lane-dependent register to send and to fill), and says why;
* a warp or CTA exchange goes through shared memory;
* a device exchange is the collective of :mod:`.collective`.

``plan.execute()`` runs the plan on a small numpy machine -- register files
``[warp, lane, slot]``, shuffle rounds, a shared-memory array, device buffers -- and
returns ``{dst coordinate (dst.axes order): value}``.

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32")
>>> p.kind, p.mechanism
('warp-shuffle', 'shared-memory')
>>> out = p.execute()
>>> out[(5, 7)]          # (m, laneid): register 5 of lane 7 now holds element (5, 7)
167
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import budget
from ..core.budget import Limits
from ..core.compose import Layout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError
from .byte_permute import plan_byte_permute
from .choose import SmemChoice, tma_endpoint_choice
from .collective import Collective, classify
from .cost_model import (
    cvt_instruction,
    payload_ops,
    shuffle_instructions,
    shuffle_units,
    staging_units,
    vector_bound,
)
from .k_order import match_k, relabel
from .machine import Route, execute, source_values
from .operands import resolve
from .placement import LEVELS, WARP, Placement, PlanError, dedupe, place, row_ids
from .plan_stages import (
    Stage,
    byte_permute_stages,
    collective_reason,
    lanes_text,
    staging_costs,
    staging_stages,
)
from .shuffle import degree, schedule
from .staging import Staging, joint_warps, stage_through
from .targeting import TargetChoice
from .tma import TmaBoxes, is_endpoint


@dataclass(frozen=True)
class ConversionPlan:
    """How to move a tile from layout ``src`` to layout ``dst`` (see the module doc)."""

    src: Layout
    dst: Layout
    shape: tuple[int, ...]
    dtype: str
    kind: str
    mechanism: str
    reason: str
    costs: Mapping[str, Any]
    stages: tuple[Stage, ...]
    smem: SmemChoice | None = None
    collective: str | None = None
    collective_steps: tuple[str, ...] = ()
    #: the GPU target planned for (:mod:`.targeting`) and why it was chosen
    target: str | None = None
    target_from: str = ""
    #: with a ``"tma"`` endpoint: how TMA moves the tile (:mod:`.tma`)
    tma: TmaBoxes | None = None
    _route: Route | None = field(default=None, repr=False, compare=False)
    #: with ``permute_k``: ``dst[.., k]`` holds ``src[.., k_order[k]]`` (None: K unpermuted)
    k_order: tuple[int, ...] | None = None

    @property
    def shuffle_rounds(self) -> int:
        return int(self.costs.get("shuffle_rounds", 0))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"src": str(self.src), "dst": str(self.dst), "shape": list(self.shape),
                "dtype": self.dtype, "target": self.target, "target_from": self.target_from,
                "k_order": None if self.k_order is None else list(self.k_order),
                "tma": None if self.tma is None else str(self.tma),
                "kind": self.kind, "mechanism": self.mechanism,
                "reason": self.reason,
                "costs": {k: list(v) if isinstance(v, tuple) else v
                          for k, v in self.costs.items()},
                "collective": self.collective, "collective_steps": list(self.collective_steps),
                "smem": None if self.smem is None else self.smem.to_dict(),
                "stages": [s.to_dict() for s in self.stages]}

    def __str__(self) -> str:
        lines = [f"{self.src}  ->  {self.dst}  ({'x'.join(map(str, self.shape))} {self.dtype})",
                 f"target: {self.target} ({self.target_from})",
                 f"kind: {self.kind}    mechanism: {self.mechanism}"
                 + (f" ({self.collective})" if self.collective else ""),
                 f"why: {self.reason}"]
        lines += [f"  {i + 1}. {s.text}" for i, s in enumerate(self.stages)]
        shown = {k: v for k, v in self.costs.items() if not isinstance(v, list | tuple)}
        lines.append("costs: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
        return "\n".join(lines)

    def execute(self, values: Any = None) -> dict[tuple[int, ...], Any]:
        """Run the plan on a numpy model of the machine.

        ``values``: ``None`` (every element carries its own flat logical index), an
        array of the logical shape (per-element values), or a mapping
        ``{src coordinate tuple (src.axes order): value}``. Returns
        ``{dst coordinate tuple (dst.axes order): value}``.

        >>> import tilelayout as tl
        >>> p = tl.plan_conversion("S[(4,8):(1@laneid,1)]", "S[(4,8):(1@laneid,1)]", (4, 8), "float32")
        >>> p.kind, p.execute()[(1, 2)]
        ('none', 10)
        """
        assert self._route is not None
        return execute(self._route, source_values(self._route.src, values))


def _levels(ps: Placement, pd: Placement) -> tuple[np.ndarray, np.ndarray]:
    """Per destination row: its level (index into LEVELS) and the chosen source row."""
    level = np.full(pd.rows, LEVELS.index("collective"), dtype=np.int64)
    source = np.full(pd.rows, -1, dtype=np.int64)
    todo = np.ones(pd.rows, dtype=bool)
    for k, lev in zip(range(5), (0, 1, 2, 3, 3), strict=True):
        both = np.concatenate([ps.key(k), pd.key(k)])
        _, first, inv = row_ids(both, return_index=True, return_inverse=True)
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


def _gwarps(ps: Placement, pd: Placement) -> tuple[tuple[np.ndarray, np.ndarray], int]:
    g = joint_warps(ps, pd)
    return g, int(max(g[0].max(initial=-1), g[1].max(initial=-1))) + 1


def plan_conversion(src: Layout | str, dst: Layout | str, shape: Sequence[int] | None = None,
                    dtype: str | None = None, *, target: Any = None,
                    permute_k: int | None = None,
                    limits: Limits | None = None) -> ConversionPlan:
    """Plan moving a tile from layout ``src`` to layout ``dst`` (see the module doc).

    Each side is a layout, layout text or ``"preset:NAME[:KEY=VALUE...]"``
    (:mod:`.operands`): ``shape`` and ``dtype`` default to the presets' (float32 when
    nothing says; different preset dtypes need ``dtype=``); ``plan.dtype`` is the one
    planned for. ``target`` (``"sm_80"``, ``"sm_90a"``, ...; default: sm_90a, or the one
    the presets need, :mod:`.targeting`) decides the instructions and swizzle modes;
    ``plan.target`` states it.

    Either side may be a shared-memory tile (only axis ``m``): then the plan is the
    store (or load) through it. Costs: registers moved, shuffle rounds, shared-memory
    bytes, wavefronts vs ideal, barriers; for collectives the elements and bytes each
    device sends and receives. The (element x replica) rows it evaluates count against
    the ``elements`` limit (``limits=`` or ``tl.limits``).

    ``permute_k=dim``: the destination is an MMA operand whose reduction index is tile
    dimension ``dim``, and the caller will permute the other operand's K the same way
    (:mod:`.k_order`); the plan may then deliver ``dst[.., k] = src[.., order[k]]`` with
    ``plan.k_order`` the order that keeps every element in its thread (else its warp).

    >>> import tilelayout as tl
    >>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,1)] + 0", None, "float32")
    >>> p.kind
    'none'
    >>> a, b = "S[(2,4,2):(2,1@laneid,1)]", "S[(2,2,4):(2,1,1@laneid)]"   # lane k // 2, lane k % 4
    >>> tl.plan_conversion(a, b, (2, 8), "float32").kind
    'warp-shuffle'
    >>> q = tl.plan_conversion(a, b, (2, 8), "float32", permute_k=1)
    >>> q.kind, q.k_order
    ('none', (0, 2, 4, 6, 1, 3, 5, 7))
    """
    if is_endpoint(src) or is_endpoint(dst):
        with budget.using(limits):
            return _with_tma(src, dst, shape, dtype, target)
    ops = resolve([(src, "src"), (dst, "dst")], shape, dtype, "float32", target)
    with budget.using(limits):
        return _converted(_plan(*ops.layouts, ops.shape, ops.dtype, ops.target, permute_k),
                          ops.operands[0].dtype)


def _converted(p: ConversionPlan, held: str | None) -> ConversionPlan:
    """``p`` with the conversion of the source's element type (its preset's, e.g. a
    float32 accumulator) to the planned one before the move: ``cvt`` instructions per
    warp, two values packed into one register where PTX has the ``x2`` form."""
    if held is None or held.lower() == p.dtype.lower() or p._route is None:
        return p
    name, pack = cvt_instruction(held, p.dtype)
    ps = p._route.src
    per_lane = int(np.unique(np.stack([p._route.gwarp[0], ps.lane], 1), axis=0,
                             return_counts=True)[1].max(initial=0))
    count = -(-per_lane // pack)
    step = Stage("convert", f"convert {held} -> {p.dtype} in registers: {count} {name} per "
                 f"thread ({pack} value(s) each)", {"instruction": name, "count": count})
    return replace(p, stages=(step,) + p.stages,
                   costs=MappingProxyType({**p.costs, "conversions": count,
                                           "conversion_instruction": name}))


def _with_tma(src: Any, dst: Any, shape: Sequence[int] | None, dtype: str | None,
              target: Any) -> ConversionPlan:
    """A plan with ``"tma"`` as one side: the threads store (load) the shared-memory tile
    TMA then moves (:func:`~tilelayout.planning.choose.tma_endpoint_choice`)."""
    store = is_endpoint(dst)
    choice = tma_endpoint_choice(src, dst, shape, dtype, target)
    assert choice.tma is not None
    thread = dst if not store else src
    ops = resolve([(thread, "src" if store else "dst")], choice.shape, choice.dtype,
                  "float32", target)
    layout, on = ops.layouts[0], ops.target
    pair = (layout, choice.layout) if store else (choice.layout, layout)
    p = _plan(*pair, choice.shape, choice.dtype, on)
    if store:
        p = _converted(p, ops.operands[0].dtype)
    step = Stage("tma", f"{choice.tma} (cp.async.bulk.tensor, "
                 f"{'after a fence.proxy.async' if store else 'then an mbarrier wait'})",
                 {"boxes": choice.tma.boxes, "box": list(choice.tma.box),
                  "swizzle": choice.tma.swizzle})
    stages = p.stages + (step,) if store else (step,) + p.stages
    reason = (f"{p.reason}; TMA then {'stores' if store else 'loaded'} it: {choice.tma}")
    return replace(p, reason=reason, stages=stages, smem=choice, tma=choice.tma,
                   costs=MappingProxyType({**p.costs, "tma_boxes": choice.tma.boxes,
                                           "tma_inner_bytes": choice.tma.inner_bytes}))


@dataclass(frozen=True)
class _Outcome:
    """What one mechanism contributes to a plan (internal)."""

    mechanism: str
    reason: str
    stages: tuple[Stage, ...] = ()
    costs: Mapping[str, Any] = field(default_factory=dict)
    route: Route | None = None
    smem: SmemChoice | None = None


def _plan(src_l: Layout, dst_l: Layout, shape: Sequence[int] | None, dtype: str,
          on: TargetChoice, permute_k: int | None = None) -> ConversionPlan:
    bits = dtype_bits(dtype)
    ps, pd = place(src_l, dst_l, shape)
    k_order = None
    if permute_k is not None:
        order = match_k(ps, pd, permute_k)
        if order is not None and (order != np.arange(len(order))).any():
            k_order = tuple(int(x) for x in order)
            pd = relabel(pd, permute_k, order)
    rows = dedupe(pd)
    level_all, source_all = _levels(ps, pd)
    level, source = level_all[rows], source_all[rows]
    gwarp, warps = _gwarps(ps, pd)
    coll = None
    if any(d.max(initial=0) > 0 for d in (ps.device, pd.device)):
        coll = classify(ps.device, ps.element, pd.device[rows], pd.element[rows],
                        int(max(ps.device.max(), pd.device.max())) + 1)
    shared_side = "shared" in (ps.role, pd.role)
    if coll is not None and coll.name != "none":
        kind = "collective"
    elif shared_side:
        kind = "shared-memory"
    else:
        kind = LEVELS[int(level.max(initial=0))]
    route = Route(ps, pd, rows, gwarp, warps, level, source, bits=bits)
    moved = int(((level == 1) & (ps.slot[source] != pd.slot[rows])).sum()) if not shared_side else 0
    if kind == "none":
        out = _Outcome("none", "every destination coordinate already holds its element",
                       (Stage("none", "nothing to move: same coordinates up to replicas"),))
    elif kind == "registers":
        out = _Outcome("registers", "every thread already holds the elements it needs; only "
                       "register slots change",
                       (Stage("registers", f"permute registers inside each thread ({moved} "
                              f"values change slot)", {"moved": moved}),),
                       {"registers_moved": moved, **_in_thread_permutes(route, moved)})
    elif kind == "collective":
        assert coll is not None
        out = _collective(coll, bits, route)
    elif kind == "warp-shuffle":
        out = _lane_exchange(route, dtype, moved, on)
    else:
        out = _staged(route, dtype, kind, on)
    costs = {"elements": int(len(np.unique(pd.element))),
             "destination_coordinates": int(len(rows)), **out.costs}
    plan = ConversionPlan(src_l, dst_l, ps.shape, dtype, kind, out.mechanism, out.reason,
                          MappingProxyType(costs), out.stages, out.smem,
                          None if kind != "collective" or coll is None else coll.name,
                          () if kind != "collective" or coll is None else coll.steps,
                          on.name, on.why, _route=out.route or route, k_order=k_order)
    if k_order is not None:
        plan = replace(plan, reason=f"with K (dimension {permute_k}) taken in the order "
                                    f"{list(k_order)}: {plan.reason}")
    return plan


def _in_thread_permutes(route: Route, moved: int) -> dict[str, int]:
    """Packed sub-word values that change register or byte inside a thread: the byte
    permutes (and selects) that does (none when the values are being converted from a
    wider type: the conversion packs in any order)."""
    if route.bits >= 32 or not moved:
        return {}
    ps, pd, rows, src = route.src, route.dst, route.dst_rows, route.source
    bp = plan_byte_permute(route.gwarp[1][rows], ps.lane[src], ps.slot[src], pd.lane[rows],
                           pd.slot[rows], route.warps, route.bits)
    return {} if bp is None else {"byte_permutes": bp.permutes, "shuffle_selects": bp.selects}


def _collective(coll: Collective, bits: int, route: Route) -> _Outcome:
    b = max(bits // 8, 1) if bits >= 8 else bits / 8
    return _Outcome(
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


def _try_staging(route: Route, dtype: str, on: TargetChoice) -> tuple[Staging | None, str]:
    """The staging, or None and why shared memory cannot be planned."""
    try:
        return stage_through(route.src, route.dst, dtype, route.gwarp,
                             _store_rows(route.src), on), ""
    except LayoutError as exc:
        return None, str(exc)


def _staged(route: Route, dtype: str, kind: str, on: TargetChoice) -> _Outcome:
    """Warps (or a shared-memory side) exchange data: only shared memory connects them."""
    ps, pd = route.src, route.dst
    staging, why_not = _try_staging(route, dtype, on)
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
    return _through_smem(route, staging, reason, warp_local=False)


def _through_smem(route: Route, staging: Staging, reason: str, *, warp_local: bool
                  ) -> _Outcome:
    extra = [n for n in staging.choice.notes if n.startswith("staged with")]
    shared_side = "shared" in (route.src.role, route.dst.role)
    return _Outcome(
        "shared-memory", reason + ("; " + extra[0] if extra else ""),
        tuple(staging_stages(staging, route.src.role, route.dst.role, warp_local)),
        staging_costs(staging, shared_side, warp_local), replace(route, staging=staging),
        staging.choice)


def _lane_exchange(route: Route, dtype: str, moved: int, on: TargetChoice) -> _Outcome:
    """Lanes of each warp exchange data: shuffle rounds (of packed payloads, or for
    sub-word values of whole registers plus byte permutes, :mod:`.byte_permute`) or
    staging, the fewest cost units (:mod:`.cost_model`; each warp exchanges only with
    itself, so a ``__syncwarp``)."""
    ps, pd, rows, bits = route.src, route.dst, route.dst_rows, route.bits
    epw, wpe = max(1, 32 // bits), max(1, bits // 32)
    edges, _, _ = _shuffle_edges(ps, pd, rows, route.level == 2, route.source, route.gwarp, epw)
    rounds = degree(edges[:, 0], edges[:, 1], edges[:, 3]) * wpe
    costs: dict[str, Any] = {"shuffle_rounds": rounds, "registers_moved": moved}
    # the fewest units any staging could take: the widest vectors on both sides
    bound = vector_bound(ps, _store_rows(ps), pd, rows, route.gwarp, route.warps, bits)
    staging, why_not = (None, "")

    def smem() -> float:
        return bound if staging is None else staging_units(staging, True, route.warps)

    if rounds > bound:
        staging, why_not = _try_staging(route, dtype, on)
    sched = None
    units = float(rounds)
    if why_not or rounds <= smem():
        # sub-word values: a lane may also read its own values through a shuffle, so a
        # register it assembles takes the same rounds as in the other lanes (as Triton does)
        variants = [route.level == 2]
        if epw > 1:
            mixed = _mixed(route, epw)
            if mixed.any():
                variants.append((route.level == 2) | mixed)
        units, sched, counts, fill = min(
            (_payload(route, through, epw, wpe) for through in variants), key=lambda v: v[0])
        costs.update(zip(("shuffle_instructions", "shuffle_selects", "shuffle_packs"), counts,
                         strict=True), shuffle_rounds=sched.rounds * wpe)
    # sub-word values: whole registers plus byte permutes, searched when a lower bound
    # on them beats what is known
    known = min(units if sched is not None else math.inf,
                math.inf if staging is None else smem())
    bp = None if bits >= 32 else plan_byte_permute(
        route.gwarp[1][rows], ps.lane[route.source], ps.slot[route.source], pd.lane[rows],
        pd.slot[rows], route.warps, bits, limit=known)
    if bp is not None and bp.units <= known:  # whole registers win ties (fewer packs)
        sched, units = None, bp.units
        costs.pop("shuffle_packs", None)
        costs.update(shuffle_instructions=bp.shuffles, shuffle_selects=bp.selects,
                     byte_permutes=bp.permutes)
    if (sched is not None or bp is not None) and units > bound and staging is None \
            and not why_not:
        staging, why_not = _try_staging(route, dtype, on)
    smem_units = math.inf if why_not else smem()
    costs["smem_cost_units"] = None if why_not else _number(smem_units)
    versus = (f"(shared memory cannot be planned: {why_not})" if why_not else
              f"cost no more than staging through shared memory "
              f"({'at least ' if staging is None else ''}{smem_units:g} units: "
              f"stores, a __syncwarp, loads)")
    if sched is None and "byte_permutes" in costs and units <= smem_units:
        assert bp is not None
        reason = (f"lanes of one warp exchange data: {bp.shuffles} shfl.sync of whole "
                  f"registers, {bp.selects} selects and {bp.permutes} prmt.b32 per warp "
                  f"({units:g} cost units) " + versus)
        return _Outcome("warp-shuffle", reason, tuple(byte_permute_stages(bp)), costs,
                        replace(route, byte_permute=bp, epw=epw))
    if sched is not None and units <= smem_units:
        reason = (f"lanes of one warp exchange data: {costs['shuffle_rounds']} shfl.sync "
                  f"round(s) per warp, "
                  f"{costs['shuffle_selects']} register selects and {costs['shuffle_packs']} "
                  f"packs ({units:g} cost units) " + versus)
        stages = [Stage("registers", f"move {moved} values between register slots of the "
                        f"same thread", {"moved": moved})] if moved else []
        stages += [Stage("shuffle", f"round {k + 1}: shfl.sync.idx; warp 0's lanes read "
                         f"lanes [{lanes_text(sched.src_lane[k][0])}]",
                         {"round": k, "src_lane": sched.src_lane[k].tolist(),
                          "send_word": sched.send_word[k].tolist()})
                   for k in range(sched.rounds)]
        return _Outcome("warp-shuffle", reason, tuple(stages), costs,
                        replace(route, shuffle=sched, epw=epw, shuffle_fill=fill))
    assert staging is not None
    shown = (f"{rounds} shfl.sync round(s) per warp" if "shuffle_instructions" not in costs
             else f"{costs['shuffle_instructions']} shfl.sync and "
                  f"{costs['shuffle_selects']} register selects ({units:g} units)")
    bars = 2 * staging.passes - 1
    reason = (f"lanes of one warp exchange data, but {shown} cost more than staging through "
              f"shared memory ({staging.store.per_warp} stores, {bars} __syncwarp, "
              f"{staging.load.per_warp} loads: {smem_units:g} units)")
    out = _through_smem(route, staging, reason, warp_local=True)
    return replace(out, costs={**costs, **out.costs})


def _number(x: float) -> float | int:
    """``x`` as an int when it is whole (costs print as the page shows them)."""
    return int(x) if float(x).is_integer() else float(x)


def _store_rows(ps: Placement) -> np.ndarray:
    """Source rows that store: one holder per element (its first replica)."""
    if ps.role == "shared":
        return np.arange(ps.rows)
    _, first = np.unique(ps.element, return_index=True)
    return np.sort(first)


def _mixed(route: Route, epw: int) -> np.ndarray:
    """Destination rows a lane holds itself (level <= 1) in a register that also receives
    values from other lanes."""
    pd, rows = route.dst, route.dst_rows
    reg = (route.gwarp[1][rows] * WARP + pd.lane[rows]) * (int(pd.slot.max()) // epw + 1) \
        + pd.slot[rows] // epw
    receives = np.isin(reg, reg[route.level == 2])
    return (route.level <= 1) & receives


def _payload(route: Route, through: np.ndarray, epw: int, wpe: int):
    """Payload shuffles of the destination rows ``through``: their cost units, schedule,
    (shuffles, selects, packs) per warp and what the machine model needs."""
    ps, pd, rows = route.src, route.dst, route.dst_rows
    edges, which, (w, lane, pos, s_slot, d_slot, s_lane) = _shuffle_edges(
        ps, pd, rows, through, route.source, route.gwarp, epw)
    sched = schedule(edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3])
    rnd = sched.edge_round[which]
    shfl, selects = shuffle_instructions(sched, rnd, s_slot, d_slot)
    packs = 0
    if epw > 1:  # sub-word payloads: registers picked and packed by prmt
        r_keep = rows[(route.level <= 1) & ~through]
        local = set(zip(route.gwarp[1][r_keep].tolist(), pd.lane[r_keep].tolist(),
                        (pd.slot[r_keep] // epw).tolist(), strict=True))
        selects, packs = payload_ops(rnd, w, s_lane, lane, edges[which, 2], pos, s_slot,
                                     d_slot, epw, sched.rounds, local)
    units = shuffle_units(shfl * wpe, (selects + packs) * wpe)
    fill = (rnd, edges[which, 2], w, lane, pos, s_slot, d_slot, s_lane)
    return units, sched, (shfl * wpe, selects * wpe, packs * wpe), fill


def _shuffle_edges(ps: Placement, pd: Placement, rows: np.ndarray, through: np.ndarray,
                   source: np.ndarray, gwarp: tuple[np.ndarray, np.ndarray], epw: int):
    """The 32-bit payloads of the destination rows ``through`` (those that cross lanes,
    maybe with a lane's own values). The values one lane sends to one other lane (or
    itself) are packed ``epw`` to a 32-bit word (a ``prmt`` packs sub-word types).
    Returns the unique edges ``(warp, sender, payload id, receiver)`` and, per such
    destination row: its edge, warp, lane, position in the payload, source and
    destination slots."""
    lane_rows = through
    d = rows[lane_rows]
    s = source[lane_rows]
    w = gwarp[1][d]
    pair = np.stack([w, ps.lane[s], pd.lane[d], ps.slot[s], pd.slot[d]], 1)
    order = np.lexsort(pair.T[::-1])
    pair = pair[order]
    d, s, w = d[order], s[order], w[order]
    group = np.r_[True, (np.diff(pair[:, :3], axis=0) != 0).any(axis=1)] if len(pair) else \
        np.zeros(0, bool)
    starts = np.flatnonzero(group)
    rank = np.arange(len(pair)) - np.repeat(starts, np.diff(np.r_[starts, len(pair)]))
    word = rank // epw
    edges = np.stack([w, ps.lane[s], pd.lane[d], word], 1)
    if not len(edges):
        return np.zeros((0, 4), np.int64), np.zeros(0, np.int64), \
            (w, pd.lane[d], rank % epw, ps.slot[s], pd.slot[d], ps.lane[s])
    _, first, which = row_ids(edges, return_index=True, return_inverse=True)
    which = which.reshape(-1)
    uniq = edges[first]
    out = np.stack([uniq[:, 0], uniq[:, 1], np.arange(len(uniq)), uniq[:, 2]], 1)
    return out, which, (w, pd.lane[d], rank % epw, ps.slot[s], pd.slot[d], ps.lane[s])



