"""Conversion plans: how a tile held in one layout gets to another, and what it costs.

``plan_conversion(src, dst, shape, dtype)`` compares where each element sits before and
after (:mod:`~tilelayout.planning.placement`). For every destination coordinate it finds
the closest source holder of the same element: the same register (nothing to do), the
same thread (a register move), the same warp (a lane exchange), the same CTA or device
(through shared memory), or another device (a collective). ``kind`` is the coarsest of
these levels over the tile (SPEC §6); ``mechanism`` is the cheapest way that works:

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

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import budget
from ..core.budget import Limits
from ..core.compose import Layout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError
from .access import AccessReport
from .byte_permute import BytePermute, plan_byte_permute
from .byte_permute import run as run_byte_permute
from .choose import SmemChoice
from .collective import Collective, classify
from .k_order import match_k, relabel
from .mechanisms import MatrixAccess
from .operands import resolve
from .placement import LEVELS, WARP, Placement, PlanError, dedupe, place, row_ids
from .shuffle import ShuffleSchedule, degree, schedule
from .staging import Side, Staging, joint_warps, slot_grid, stage_through
from .targeting import TargetChoice
from .units import BAR_WARP_SYNC, ROUND_TRIP, barrier, shuffle_units, staging_units


@dataclass(frozen=True)
class Stage:
    """One step of a plan, for display and stepping (``what`` is a short verb)."""

    what: str
    text: str
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"what": self.what, "text": self.text, **self.data}


@dataclass(frozen=True)
class _Route:
    """Everything :meth:`ConversionPlan.execute` needs (internal)."""

    src: Placement
    dst: Placement
    dst_rows: np.ndarray  # deduped destination rows
    gwarp: tuple[np.ndarray, np.ndarray]
    warps: int
    level: np.ndarray  # per destination row
    source: np.ndarray  # per destination row: the chosen source row
    shuffle: ShuffleSchedule | None = None
    shuffle_fill: tuple[np.ndarray, ...] | None = None  # per lane-crossing row, see _shuffle_edges
    collective: Collective | None = None
    epw: int = 1
    staging: Staging | None = None
    bits: int = 32
    byte_permute: BytePermute | None = None


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
    costs: dict[str, Any]
    stages: tuple[Stage, ...]
    smem: SmemChoice | None = None
    collective: str | None = None
    collective_steps: tuple[str, ...] = ()
    #: the GPU target planned for (:mod:`.targeting`) and why it was chosen
    target: str | None = None
    target_from: str = ""
    _route: _Route | None = field(default=None, repr=False, compare=False)
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
                "kind": self.kind, "mechanism": self.mechanism,
                "reason": self.reason, "costs": self.costs,
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
        shown = {k: v for k, v in self.costs.items() if not isinstance(v, list)}
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
        return _execute(self._route, _source_values(self._route.src, values))


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


def _selects(values: np.ndarray) -> int:
    """Selects to pick a lane-dependent register out of the distinct ``values``."""
    distinct = len(np.unique(values[values >= 0]))
    return math.ceil(math.log2(distinct)) if distinct > 1 else 0


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
    ops = resolve([(src, "src"), (dst, "dst")], shape, dtype, "float32", target)
    with budget.using(limits):
        return _plan(*ops.layouts, ops.shape, ops.dtype, ops.target, permute_k)


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
    nbytes = bits / 8
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
    route: dict[str, Any] = dict(src=ps, dst=pd, dst_rows=rows, gwarp=gwarp, warps=warps,
                                 level=level, source=source, bits=bits)
    costs: dict[str, Any] = {"elements": int(len(np.unique(pd.element))),
                             "destination_coordinates": int(len(rows))}
    stages: list[Stage] = []
    smem = None
    moved = int(((level == 1) & (ps.slot[source] != pd.slot[rows])).sum()) if not shared_side else 0
    if kind == "none":
        mechanism, reason = "none", "every destination coordinate already holds its element"
        stages.append(Stage("none", "nothing to move: same coordinates up to replicas"))
    elif kind == "registers":
        mechanism = "registers"
        reason = "every thread already holds the elements it needs; only register slots change"
        costs["registers_moved"] = moved
        if bits < 32 and moved:
            # packed sub-word values change register or byte: prmt (free when the values
            # are being converted from a wider type: the conversion packs in any order)
            bp = plan_byte_permute(gwarp[1][rows], ps.lane[source], ps.slot[source],
                                   pd.lane[rows], pd.slot[rows], warps, bits)
            if bp is not None:
                costs.update(byte_permutes=bp.permutes, shuffle_selects=bp.selects)
        stages.append(Stage("registers", f"permute registers inside each thread "
                            f"({moved} values change slot)", {"moved": moved}))
    elif kind == "collective":
        assert coll is not None
        mechanism = "collective"
        reason = _collective_reason(coll)
        route["collective"] = coll
        b = max(bits // 8, 1) if bits >= 8 else nbytes
        costs.update(
            bytes_sent_per_device=[float(x * b) if b % 1 else int(x * b) for x in coll.sent],
            bytes_received_per_device=[float(x * b) if b % 1 else int(x * b) for x in coll.received],
            bytes_sent=int(coll.sent.max(initial=0) * b),
            bytes_received=int(coll.received.max(initial=0) * b),
            total_bytes=int(coll.received.sum() * b))
        for step in coll.steps:
            stages.append(Stage("collective", step, {"collective": step}))
    else:
        # shared memory always works; a lane exchange may also be shuffles
        src_rows = _store_rows(ps)
        staging: Staging | None = None
        mechanism, reason = "shared-memory", ""
        if kind == "warp-shuffle":
            epw, wpe = max(1, 32 // bits), max(1, bits // 32)
            edges, which, (w, lane, pos, s_slot, d_slot, s_lane) = _shuffle_edges(
                ps, pd, rows, level, source, gwarp, epw)
            rounds = degree(edges[:, 0], edges[:, 1], edges[:, 3]) * wpe
            costs.update(shuffle_rounds=rounds, registers_moved=moved)
            # the fewest instructions staging could take: 16-byte vectors on both sides
            bound = _vector_bound(ps, src_rows, pd, rows, gwarp, warps, bits)
            sched = None
            cost_units = float(rounds)
            no_smem = ""  # why staging cannot be planned (e.g. the tile spans CTAs)

            def stage() -> Staging | None:
                nonlocal no_smem
                try:
                    return stage_through(ps, pd, dtype, gwarp, src_rows, on, warp_local=True)
                except LayoutError as exc:
                    no_smem = str(exc)
                    return None

            if rounds > bound:
                staging = stage()
            if no_smem or rounds <= (bound if staging is None else _units(staging, warps)):
                sched = schedule(edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3])
                rnd = sched.edge_round[which]
                # selects pick registers: packed sub-word slots share one
                shuffle_instr, selects = _shuffle_instructions(sched, rnd, s_slot // epw,
                                                               d_slot // epw)
                packs = _packs(sched, rnd, edges[which, 2], pos, s_slot, d_slot, epw)
                cost_units = shuffle_units(shuffle_instr * wpe, (selects + packs) * wpe)
                costs.update(shuffle_instructions=shuffle_instr * wpe,
                             shuffle_selects=selects * wpe, shuffle_packs=packs * wpe)
            # sub-word values: whole-register shuffles plus byte permutes (:mod:`.byte_permute`),
            # planned when a lower bound on them beats what is known
            known = min(cost_units if sched is not None else math.inf,
                        math.inf if staging is None else _units(staging, warps))
            bp = None if bits >= 32 else plan_byte_permute(
                gwarp[1][rows], ps.lane[source], ps.slot[source], pd.lane[rows],
                pd.slot[rows], warps, bits, limit=known)
            if bp is not None and bp.units < known:
                sched, cost_units = None, bp.units
                route["byte_permute"] = bp
                costs.update(shuffle_instructions=bp.shuffles, shuffle_selects=bp.selects,
                             byte_permutes=bp.permutes)
                costs.pop("shuffle_packs", None)
            if cost_units > bound and staging is None and not no_smem:
                staging = stage()
            smem_units = bound if staging is None else _units(staging, warps)
            if no_smem:
                smem_units = math.inf
            costs["smem_cost_units"] = None if no_smem else smem_units
            use_bp = "byte_permute" in route
            if (sched is not None or use_bp) and cost_units <= smem_units:
                mechanism = "warp-shuffle"
                n_shfl = costs["shuffle_instructions"]
                what = (f"{n_shfl} shfl.sync of whole registers, {costs['shuffle_selects']} "
                        f"selects and {costs['byte_permutes']} prmt.b32 per warp" if use_bp
                        else f"{n_shfl} shfl.sync round(s) per warp, "
                             f"{costs['shuffle_selects']} register selects and "
                             f"{costs.get('shuffle_packs', 0)} packs")
                reason = (f"lanes of one warp exchange data: {what} ({cost_units:g} cost "
                          f"units) " + (f"(shared memory cannot be planned: {no_smem})"
                                        if no_smem else
                                        f"cost no more than staging through shared memory "
                                        f"({'at least ' if staging is None else ''}"
                                        f"{smem_units:g} units: stores, __syncwarp, loads)"))
                if use_bp:
                    route["epw"] = epw
                    stages += _byte_permute_stages(route["byte_permute"])
                else:
                    assert sched is not None
                    route.update(shuffle=sched, epw=epw, shuffle_fill=(
                        rnd, edges[which, 2], w, lane, pos, s_slot, d_slot, s_lane))
                    if moved:
                        stages.append(Stage("registers", f"move {moved} values between "
                                            f"register slots of the same thread",
                                            {"moved": moved}))
                    stages += [Stage("shuffle", f"round {k + 1}: shfl.sync.idx; warp 0's "
                                     f"lanes read lanes [{_lanes_text(sched.src_lane[k][0])}]",
                                     {"round": k, "src_lane": sched.src_lane[k].tolist(),
                                      "send_word": sched.send_word[k].tolist()})
                               for k in range(sched.rounds)]
            else:
                route.pop("byte_permute", None)
                shown = (f"{rounds} shfl.sync round(s) per warp" if sched is None and not use_bp
                         else f"{costs['shuffle_instructions']} shfl.sync and "
                              f"{costs['shuffle_selects']} register selects "
                              f"({cost_units:g} units)")
                assert staging is not None
                reason = (f"lanes of one warp exchange data, but {shown} cost more than "
                          f"staging through shared memory ({staging.store.per_warp} stores, "
                          f"__syncwarp, {staging.load.per_warp} loads: {smem_units:g} units)")
        else:
            try:
                staging = stage_through(ps, pd, dtype, gwarp, src_rows, on)
            except LayoutError as exc:
                crossing = (pd.cta[rows] != ps.cta[source]).any()
                raise PlanError(
                    ("elements move between CTAs; plan_conversion stages through one CTA's "
                     "shared memory (cluster shared memory and global memory are not "
                     "planned): " if crossing else "shared memory cannot be planned: ")
                    + str(exc)) from None
        if kind != "warp-shuffle" and shared_side:
            reason = ("the source is a shared-memory tile: each warp loads its fragment"
                      if ps.role == "shared" else
                      "the destination is a shared-memory tile: each warp stores its fragment")
        elif kind != "warp-shuffle":
            reason = ("warps (or CTAs) exchange data: only shared memory connects them "
                      "(a store, a barrier, a load)")
        if mechanism == "shared-memory":
            assert staging is not None
            smem = staging.choice
            extra = [n for n in smem.notes if n.startswith("staged with")]
            if extra:
                reason += "; " + extra[0]
            route["staging"] = staging
            costs.update(_staging_costs(staging, shared_side, kind == "warp-shuffle"))
            stages += _staging_stages(staging, ps.role, pd.role, kind == "warp-shuffle")
    plan = ConversionPlan(src_l, dst_l, ps.shape, dtype, kind, mechanism, reason, costs,
                          tuple(stages), smem,
                          None if kind != "collective" or coll is None else coll.name,
                          () if kind != "collective" or coll is None else coll.steps,
                          on.name, on.why, _Route(**route), k_order)
    if k_order is not None:
        plan = dataclasses.replace(plan, reason=f"with K (dimension {permute_k}) taken in the "
                                   f"order {list(k_order)}: {plan.reason}")
    return plan


def _collective_reason(c: Collective) -> str:
    if c.name == "local slice":
        return "every device already holds what it keeps: a local slice, no bytes move"
    return (f"devices exchange data: {c.name} "
            f"(at most {int(c.received.max(initial=0))} elements received per device)")


def _store_rows(ps: Placement) -> np.ndarray:
    """Source rows that store: one holder per element (its first replica)."""
    if ps.role == "shared":
        return np.arange(ps.rows)
    _, first = np.unique(ps.element, return_index=True)
    return np.sort(first)


def _lanes_text(src: np.ndarray) -> str:
    return " ".join("-" if x < 0 else str(int(x)) for x in src)


def _units(s: Staging, warps: int) -> float:
    """Cost units of a warp's own exchange staged through shared memory (:mod:`.units`):
    its instructions' wavefronts, ``__syncwarp`` between stores and loads, a round trip
    per pass."""
    return staging_units(s.store.per_warp + s.load.per_warp, s.wavefronts / max(warps, 1),
                         s.passes, warp_local=True)


def _packs(sched: ShuffleSchedule, rnd: np.ndarray, edge: np.ndarray, pos: np.ndarray,
           s_slot: np.ndarray, d_slot: np.ndarray, epw: int) -> int:
    """Per warp, the packs and unpacks payload shuffles of sub-word values need: per
    round, one on the sending side unless every payload is a whole source register in
    order, one on the receiving side unless every payload lands as a whole destination
    register in order."""
    if epw == 1:
        return 0
    full = np.bincount(edge, minlength=int(edge.max(initial=-1)) + 1)[edge] == epw
    n = 0
    for k in range(sched.rounds):
        at = rnd == k
        for slot in (s_slot, d_slot):
            word = slot[at] // epw
            first = np.full(int(edge.max(initial=-1)) + 1, -1, np.int64)
            first[edge[at]] = word
            whole = full[at] & (slot[at] % epw == pos[at]) & (first[edge[at]] == word)
            n += int(not whole.all())
    return n


def _byte_permute_stages(bp: BytePermute) -> list[Stage]:
    out = [Stage("shuffle", f"shuffle {k + 1}: shfl.sync.idx of whole registers; warp 0's "
                 f"lanes read lanes [{_lanes_text(bp.src_lane[k][0])}], offering registers "
                 f"[{_lanes_text(bp.offered[k][0])}]",
                 {"round": k, "src_lane": bp.src_lane[k].tolist(),
                  "send_word": bp.offered[k].tolist()}) for k in range(bp.shuffles)]
    out.append(Stage("permute", f"assemble {len(bp.names)} registers per lane with "
                     f"{bp.permutes} prmt.b32 (and {bp.selects} selp in all) per warp",
                     {"permutes": bp.permutes, "selects": bp.selects}))
    return out


def _per_warp(grid: np.ndarray, k: int) -> int:
    """Requests the busiest warp issues moving its slots in ``k``-slot vectors."""
    warps, lanes, slots = grid.shape
    g = np.concatenate([grid, np.full((warps, lanes, (-slots) % k), -1, np.int64)], axis=2)
    live = (g.reshape(warps, lanes, -1, k) >= 0).any(axis=(1, 3))
    return int(live.sum(axis=1).max(initial=0))


def _groups(grid: np.ndarray, k: int) -> np.ndarray | None:
    """Per element, its ``k``-slot vector group (``-1`` if absent), or None when some lane
    fills a group only partly (no ``k``-wide vectors on that side)."""
    warps, lanes, slots = grid.shape
    g = np.concatenate([grid, np.full((warps, lanes, (-slots) % k), -1, np.int64)], axis=2)
    g = g.reshape(warps * lanes, -1, k)
    present = g >= 0
    if not (present.all(axis=2) | ~present.any(axis=2)).all():
        return None
    gid = np.full(int(grid.max(initial=-1)) + 1, -1, dtype=np.int64)
    ids = np.broadcast_to(np.arange(g.shape[0] * g.shape[1]).reshape(g.shape[:2])[..., None],
                          g.shape)
    gid[g[present]] = ids[present]
    return gid


def _vector_bound(ps: Placement, src_rows: np.ndarray, pd: Placement, rows: np.ndarray,
                  gwarp: tuple[np.ndarray, np.ndarray], warps: int, bits: int) -> int:
    """A lower bound on the staging cost units over every shared-memory layout: the
    fewest stores + loads per warp with vectors both register files allow and that can
    both be contiguous (one side's vectors nest inside the other's) -- or, when fewer,
    16 bytes per lane per instruction (packed registers, ldmatrix / stmatrix) -- +
    barrier + round trip."""
    grids = (slot_grid(ps, src_rows, gwarp[0], warps), slot_grid(pd, rows, gwarp[1], warps))
    widths = [k for k in (16, 8, 4, 2, 1) if k * bits <= 128]
    best = None
    sides = [[(k, _groups(g, k)) for k in widths] for g in grids]
    for ks, gs in sides[0]:
        for kd, gd in sides[1]:
            if gs is None or gd is None:
                continue
            fine, coarse = (gs, gd) if ks <= kd else (gd, gs)
            # every fine group inside one coarse group
            order = np.argsort(fine, kind="stable")
            f, c = fine[order], coarse[order]
            if not (c[1:][f[1:] == f[:-1]] == c[:-1][f[1:] == f[:-1]]).all():
                continue
            n = _per_warp(grids[0], ks) + _per_warp(grids[1], kd)
            best = n if best is None else min(best, n)
    # packed registers and ldmatrix / stmatrix move up to 16 bytes per lane whatever the
    # slot order: no staging issues fewer instructions than that either
    wide = sum(_per_warp_bytes(g, bits) for g in grids)
    return min(best if best is not None else wide, wide) + BAR_WARP_SYNC + ROUND_TRIP


def _per_warp_bytes(grid: np.ndarray, bits: int) -> int:
    """Instructions the busiest warp needs at 16 bytes per lane per instruction."""
    held = (grid >= 0).sum(axis=2).max(initial=0)
    return math.ceil(int(held) * bits / 128)


def _staging_costs(s: Staging, shared_side: bool, warp_local: bool) -> dict[str, Any]:
    w, r, n = s.choice.write, s.choice.read, s.passes
    return {"smem_bytes": s.bytes, "passes": n, "store_wavefronts": n * w.wavefronts,
            "load_wavefronts": n * r.wavefronts, "wavefronts": s.wavefronts,
            "ideal_wavefronts": s.ideal, "store_vector_bytes": w.vector_bytes,
            "load_vector_bytes": r.vector_bytes, "store_requests": n * w.requests,
            "load_requests": n * r.requests, "barriers": 0 if shared_side else 2 * n - 1,
            "barrier_instruction": "none" if shared_side else barrier(warp_local)[0],
            "store_instruction": _instruction(w, store=True),
            "load_instruction": _instruction(r, store=False)}


def _instruction(r: AccessReport, *, store: bool) -> str:
    """The instruction a side issues, PTX-named: ``st/ld.shared.<width>`` (``+packed``: of
    registers reordered by address), ``ldmatrix`` / ``stmatrix``, or ``none``."""
    if r.matrix is not None:
        return r.mechanism
    if not r.requests:
        return "none"
    op = "st.shared" if store else "ld.shared"
    width = {16: "v4.b32", 8: "v2.b32", 4: "b32", 2: "b16", 1: "b8"}[r.vector_bytes]
    return f"{op}.{width}" + ("+packed" if r.mechanism == "packed" else "")


def _staging_stages(s: Staging, src_role: str, dst_role: str,
                    warp_local: bool = False) -> list[Stage]:
    out = []
    n = s.passes
    bar = ("barrier (__syncwarp, bar.warp.sync: each warp exchanges only with itself)"
           if warp_local else "barrier (bar.sync)")
    for k in range(n):
        tag = f"pass {k + 1} of {n}: " if n > 1 else ""
        if k:
            out.append(Stage("barrier", f"{tag}{bar}: every load of the previous pass is "
                             f"done before the buffer is reused"))
        for side, role, what in ((s.choice.write, src_role, "store"),
                                 (s.choice.read, dst_role, "load")):
            if role != "registers":
                continue
            if what == "load" and src_role == "registers":
                out.append(Stage("barrier", f"{tag}{bar}: every store lands before any load"))
            out.append(Stage(what, f"{tag}{what} {'to' if what == 'store' else 'from'} shared "
                             f"memory {s.layout}: {side.requests} request(s) of "
                             f"{_instruction(side, store=what == 'store')}, {side.wavefronts} "
                             f"wavefront(s) (ideal {side.ideal})",
                             {"side": "write" if what == "store" else "read", "pass": k,
                              **side.to_dict(per_request=False)}))
    return out


def _shuffle_edges(ps: Placement, pd: Placement, rows: np.ndarray, level: np.ndarray,
                   source: np.ndarray, gwarp: tuple[np.ndarray, np.ndarray], epw: int):
    """The 32-bit payloads that cross lanes. The values one lane sends to one other lane
    are packed ``epw`` to a 32-bit word (a ``prmt`` packs sub-word types). Returns the
    unique edges ``(warp, sender, payload id, receiver)`` and, per lane-crossing
    destination row: its edge, warp, lane, position in the payload, source and
    destination slots."""
    lane_rows = level == 2
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


def _shuffle_instructions(sched: ShuffleSchedule, rnd: np.ndarray, src_slot: np.ndarray,
                          dst_slot: np.ndarray) -> tuple[int, int]:
    """Per warp: one shfl per round, and the selects that pick lane-dependent registers
    to send and to fill (``ceil(log2(distinct slots))`` each side per round)."""
    selects = 0
    for k in range(sched.rounds):
        at = rnd == k
        selects += _selects(src_slot[at]) + _selects(dst_slot[at])
    return sched.rounds, selects


# -- the machine model --------------------------------------------------------------------

def _source_values(ps: Placement, values: Any) -> np.ndarray:
    if values is None:
        return ps.element.copy()
    if isinstance(values, Mapping):
        out = np.empty(ps.rows, dtype=object)
        for i, c in enumerate(map(tuple, ps.coords.tolist())):
            if c not in values:
                raise LayoutError(f"values has no entry for source coordinate {c} "
                                  f"(axes {', '.join(ps.axes)})")
            out[i] = values[c]
        return out
    arr = np.asarray(values)
    if arr.size != int(np.prod(ps.shape)):
        raise LayoutError(f"values must hold one value per element of the {ps.shape} tile, "
                          f"got {arr.size}")
    return arr.reshape(-1)[ps.element]


def _execute(r: _Route, vals: np.ndarray) -> dict[tuple[int, ...], Any]:
    ps, pd, rows = r.src, r.dst, r.dst_rows
    slots = int(max(ps.slot.max(initial=0), pd.slot.max(initial=0))) + 1
    dtype = vals.dtype
    # the source register files (for a shared-memory source: the shared-memory array)
    regs = np.zeros((r.warps, WARP, slots), dtype=dtype)
    have = np.zeros(regs.shape, dtype=bool)
    out_regs = np.zeros_like(regs)
    got = np.zeros(regs.shape, dtype=bool)
    gs, gd = r.gwarp
    if ps.role == "registers":
        regs[gs, ps.lane, ps.slot] = vals
        have[gs, ps.lane, ps.slot] = True
    d_idx = (gd[rows], pd.lane[rows], pd.slot[rows])
    if r.collective is not None:
        _run_collective(r, regs, out_regs, got, vals)
    elif r.staging is None:
        local = r.level <= 1
        s = r.source[local]
        out_regs[d_idx[0][local], d_idx[1][local], d_idx[2][local]] = regs[gs[s], ps.lane[s],
                                                                           ps.slot[s]]
        got[d_idx[0][local], d_idx[1][local], d_idx[2][local]] = have[gs[s], ps.lane[s],
                                                                      ps.slot[s]]
        if r.shuffle is not None:
            _run_shuffles(r, regs, have, out_regs, got)
        if r.byte_permute is not None:
            run_byte_permute(r.byte_permute, regs, have, out_regs, got)
    else:
        _run_staging(r, r.staging, regs, have, out_regs, got, vals)
    if not got[d_idx].all():
        bad = int(np.flatnonzero(~got[d_idx])[0])
        raise LayoutError(f"internal: the plan left destination coordinate "
                          f"{tuple(pd.coords[rows[bad]])} empty")
    result = out_regs[d_idx]
    return {tuple(c): (v.item() if hasattr(v, "item") else v)
            for c, v in zip(pd.coords[rows].tolist(), result, strict=True)}


def _run_shuffles(r: _Route, regs, have, out_regs, got) -> None:
    """Round by round: every lane offers one packed payload, every lane reads the
    payload of lane ``src_lane`` and unpacks it into its destination slots."""
    sched, epw = r.shuffle, r.epw
    rnd, edge, w, lane, pos, s_slot, d_slot, s_lane = r.shuffle_fill
    for k in range(sched.rounds):
        offered = np.zeros((r.warps, WARP, epw), dtype=regs.dtype)
        ok = np.zeros((r.warps, WARP, epw), dtype=bool)
        # the sender packs the payload it offers this round
        mine = sched.send_word[k][w, s_lane] == edge
        offered[w[mine], s_lane[mine], pos[mine]] = regs[w[mine], s_lane[mine], s_slot[mine]]
        ok[w[mine], s_lane[mine], pos[mine]] = have[w[mine], s_lane[mine], s_slot[mine]]
        src = sched.src_lane[k]
        warps = np.arange(r.warps)[:, None]
        received = offered[warps, np.maximum(src, 0)]  # shfl: read lane src_lane[lane]
        rec_ok = ok[warps, np.maximum(src, 0)] & (src >= 0)[..., None]
        at = rnd == k
        out_regs[w[at], lane[at], d_slot[at]] = received[w[at], lane[at], pos[at]]
        got[w[at], lane[at], d_slot[at]] = rec_ok[w[at], lane[at], pos[at]]


def _run_staging(r: _Route, s: Staging, regs, have, out_regs, got, vals) -> None:
    """Stores, a barrier, loads -- pass by pass through one buffer when staged in passes
    (a barrier before each pass reuses the buffer)."""
    ps, pd = r.src, r.dst
    smem = np.zeros(s.bytes * 8 // r.bits + 1, dtype=regs.dtype)
    filled = np.zeros(len(smem), dtype=bool)
    if ps.role == "shared":  # the source tile is shared memory already
        smem[ps.slot] = vals
        filled[ps.slot] = True
    for k in range(s.passes):
        if ps.role == "registers":
            _move(s.store, k, regs, have, smem, filled, store=True)
        # barrier: all stores above complete before the loads below
        _move(s.load, k, out_regs, got, smem, filled, store=False)
        if k + 1 < s.passes:
            filled[:] = False  # barrier: the next pass overwrites the buffer
    if pd.role == "shared":
        rows = r.dst_rows
        out_regs[r.gwarp[1][rows], pd.lane[rows], pd.slot[rows]] = smem[pd.slot[rows]]
        got[r.gwarp[1][rows], pd.lane[rows], pd.slot[rows]] = filled[pd.slot[rows]]


def _move(side: Side, k_pass: int, regs, mask, smem, filled, *, store: bool) -> None:
    """Each (warp, lane, vector v) of pass ``k_pass`` moves slots [v*k, (v+1)*k) <->
    smem[start + 0..k-1]."""
    if side.matrix is not None:
        if k_pass < len(side.matrix):
            _move_matrix(side.matrix[k_pass], regs, mask, smem, filled, store=store)
        return
    live = side.start >= 0
    if side.pass_of is not None:
        live &= side.pass_of == k_pass
    elif k_pass:
        return
    w, lane, v = np.nonzero(live)
    base = side.start[w, lane, v]
    order = None if side.order is None else np.asarray(side.order)
    for j in range(side.k):
        slot = v * side.k + j
        if order is not None:
            slot = order[slot]
        if store:
            smem[base + j] = regs[w, lane, slot]
            filled[base + j] = mask[w, lane, slot]
        else:
            regs[w, lane, slot] = smem[base + j]
            mask[w, lane, slot] = filled[base + j]


def _move_matrix(m: MatrixAccess, regs, mask, smem, filled, *, store: bool) -> None:
    """ldmatrix / stmatrix, instruction by instruction: lane ``t`` moves half ``e`` of
    matrix ``j`` between its register slot ``m.slots[q, j, e]`` and the address the
    instruction's semantics give it from the row addresses its lanes supplied."""
    for q, count in enumerate(m.counts):
        for j in range(count):
            for e in (0, 1):
                slot = int(m.slots[q, j, e])
                if slot < 0:
                    continue  # 32-bit pairs: one value per lane and matrix
                a = m.lane_addresses(q, j, e)
                w, t = np.nonzero(a >= 0)
                at = a[w, t]
                if store:
                    smem[at] = regs[w, t, slot]
                    filled[at] = mask[w, t, slot]
                else:
                    regs[w, t, slot] = smem[at]
                    mask[w, t, slot] = filled[at]


def _run_collective(r: _Route, regs, out_regs, got, vals) -> None:
    ps, pd, rows, c = r.src, r.dst, r.dst_rows, r.collective
    gs, gd = r.gwarp
    n = int(max(ps.element.max(initial=0), pd.element.max(initial=0))) + 1
    # where each (device, element) sits on the source side
    key = ps.device * n + ps.element
    order = np.argsort(key, kind="stable")
    skey = key[order]

    def locate(dev: np.ndarray, elem: np.ndarray) -> np.ndarray:
        i = np.searchsorted(skey, dev * n + elem)
        i = np.minimum(i, len(skey) - 1)
        hit = skey[i] == dev * n + elem
        return np.where(hit, order[i], -1)

    # 1. the messages: each needed (device, element) read from its sender's buffer
    at = locate(c.sender, c.need_element)
    assert (at >= 0).all()
    message = {(int(d), int(e)): regs[gs[a], ps.lane[a], ps.slot[a]]
               for d, e, a in zip(c.need_device, c.need_element, at, strict=True)}
    # 2. each destination coordinate: a local copy or the received message
    dev, elem = pd.device[rows], pd.element[rows]
    local = locate(dev, elem)
    tgt = (gd[rows], pd.lane[rows], pd.slot[rows])
    for i in range(len(rows)):
        a = local[i]
        v = regs[gs[a], ps.lane[a], ps.slot[a]] if a >= 0 else message[int(dev[i]), int(elem[i])]
        out_regs[tgt[0][i], tgt[1][i], tgt[2][i]] = v
        got[tgt[0][i], tgt[1][i], tgt[2][i]] = True

