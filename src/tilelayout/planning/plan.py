"""Conversion plans: how a tile held in one layout gets to another, and what it costs.

``plan_conversion(src, dst, shape, dtype)`` compares where each element sits before and
after (:mod:`~tilelayout.planning.model.placement`). For every destination coordinate it finds
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

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import budget
from ..core.budget import Limits
from ..core.compose import Layout, tile_of
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError
from .code.cuda_staging import with_claimed_permutes
from .code.cuda_unit import cuda_unit
from .code.program import program_of
from .cost_model import cvt_instruction
from .delivery import delivered, dst_packing_of
from .lane_exchange import lane_exchange
from .machine import execute, source_values
from .mechanisms.collective import classify
from .mechanisms.staging.smem_choice import SmemChoice, tma_endpoint_choice
from .mechanisms.staging.tma import TmaBoxes, is_endpoint
from .model.k_order import match_k, relabel
from .model.placement import LEVELS, PlanError, place
from .model.routing import Route, route_between
from .on_bits import plan_on_bits
from .outcome import Outcome, between_warps, in_registers, over_devices
from .plan_stages import Stage
from .problem.operands import resolve
from .problem.targeting import TargetChoice
from .ranking import plan_key as _key


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
    _route_value: Route | None = field(default=None, repr=False, compare=False)
    #: a plan found on bits (:mod:`.on_bits`) builds its route only when executed
    _make_route: Callable[[], Route] | None = field(default=None, repr=False, compare=False)
    #: register values each source thread holds (a plan found on bits knows it unrouted)
    _values_per_thread: int | None = field(default=None, repr=False, compare=False)
    #: a plan found on bits: what it moves and how, as bits (:class:`.on_bits.BitProgram`),
    #: for code that computes addresses from lane and warp bits
    _bits: Any = field(default=None, repr=False, compare=False)
    #: with ``permute_k``: ``dst[.., k]`` holds ``src[.., k_order[k]]`` (None: K unpermuted)
    k_order: tuple[int, ...] | None = None
    #: the source's element type when the plan converts it first (a float32 accumulator
    #: stored as bfloat16); None: the planned ``dtype``
    held: str | None = None
    #: how the destination holds sub-word values (:mod:`.delivery`): ``"packed"`` four
    #: (two) to a register, ``"unpacked"`` one to a register
    dst_packing: str = "packed"

    @cached_property
    def _route(self) -> Route:
        """The machine model's route (built on first use for a plan found on bits)."""
        if self._route_value is not None:
            return self._route_value
        assert self._make_route is not None
        return self._make_route()

    @property
    def shuffle_rounds(self) -> int:
        return int(self.costs.get("shuffle_rounds", 0))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"src": str(self.src), "dst": str(self.dst), "shape": list(self.shape),
                "dtype": self.dtype, "target": self.target, "target_from": self.target_from,
                "dst_packing": self.dst_packing,
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

    @cached_property
    def _program(self) -> Any:
        """What the plan's code does (:mod:`.code.program`), built on first use."""
        return program_of(self)

    @property
    def threads(self) -> int:
        """Threads of the CTA the plan's code runs on (32 for one warp)."""
        return self._program.threads

    @property
    def src_slots(self) -> int:
        """Register slots per thread of the source (its ``m`` extent); for a shared-memory
        source, the tile's address span."""
        return self._program.src_slots

    @property
    def dst_slots(self) -> int:
        """Like :attr:`src_slots`, for the destination."""
        return self._program.dst_slots

    @property
    def smem_bytes(self) -> int:
        """Dynamic shared memory the plan's code needs (0 when none)."""
        return self._program.smem_bytes

    @property
    def smem_align(self) -> int:
        """The alignment of that shared memory, in bytes (0 when none)."""
        return self._program.smem_align

    def code(self, lang: str = "cuda", name: str = "convert", harness: bool = False,
             barrier: int = 1) -> str:
        """The plan as code (SPEC section 8): ``lang="cuda"``, one self-contained CUDA C++
        translation unit with ``__device__ void NAME(const SRC_T* src, DST_T* dst,
        unsigned char* smem)`` (``harness=True`` adds the test kernel ``NAME_kernel(in,
        out)``); ``lang="gluon"``, a ``@gluon.jit`` function ``NAME(x)`` (needs Triton).
        A plan between devices has no code (a :class:`~tilelayout.LayoutError`).
        ``barrier``: the named barrier (1-15) the CUDA code synchronizes the CTA's
        threads with where a staging or a TMA store needs it (``bar.sync barrier,
        threads``); the calling kernel must not use that barrier id meanwhile.

        >>> import tilelayout as tl
        >>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1",
        ...                        None, "float32")
        >>> p.threads, p.src_slots, p.smem_bytes
        (32, 2, 0)
        >>> print(p.code().splitlines()[1])
        // a 32x2 float32 tile on sm_90a; registers exchange by registers (planned by tilelayout):
        """
        if lang == "cuda":
            return cuda_unit(self, name, harness, barrier)
        if lang == "gluon":
            if harness:
                raise LayoutError("harness=True is for lang='cuda'; the Gluon function is "
                                  "called from your own @gluon.jit kernel")
            return importlib.import_module("tilelayout.interop.gluon_conversion") \
                .gluon_conversion(self, name)
        raise LayoutError(f"expected lang='cuda' or lang='gluon', got {lang!r}")

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
        route = self._route
        return execute(route, source_values(route.src, values))


def plan_conversion(src: Layout | str, dst: Layout | str, shape: Sequence[int] | None = None,
                    dtype: str | None = None, *, target: Any = None,
                    permute_k: int | None = None, smem_budget: int | None = None,
                    limits: Limits | None = None, dst_packing: str = "packed"
                    ) -> ConversionPlan:
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

    ``smem_budget``: bytes of shared memory the plan may use at once. Without one, a
    plan never uses more than the compiler's own choice nor more than the smallest buffer
    that reaches its wavefronts (docs/data-movement.md, *The choice*); with one, any plan
    within it may be chosen (fewest wavefronts, then instructions, then bytes), in more
    passes through a smaller buffer where that fits; over the budget for every mechanism
    is a :class:`~tilelayout.LayoutError` naming both.

    ``dst_packing``: ``"packed"`` (the default) delivers sub-word values four (8-bit)
    or two (16-bit) to a 32-bit register, as an MMA operand takes them; ``"unpacked"``
    one to a register, as a compiler's values are (Triton's): the plan then writes no
    byte permutes that only pack destination registers (:mod:`.delivery`).

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
    smem_budget, packing = _budget(smem_budget), dst_packing_of(dst_packing)
    if is_endpoint(src) or is_endpoint(dst):
        with budget.using(limits):
            return _within(_with_tma(src, dst, shape, dtype, target, packing), smem_budget)
    ops = resolve([(src, "src"), (dst, "dst")], shape, dtype, "float32", target)
    with budget.using(limits):
        return _within(_converted(_plan(*ops.layouts, ops.shape, ops.dtype, ops.target,
                                        permute_k, smem_budget, packing),
                                  ops.operands[0].dtype), smem_budget)


def _budget(value: Any) -> int | None:
    """``smem_budget`` checked: None or a non-negative whole number of bytes."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise LayoutError(f"smem_budget is a number of bytes (a non-negative integer) or None, "
                          f"got {value!r}")
    return int(value)


def _within(p: ConversionPlan, smem_budget: int | None) -> ConversionPlan:
    """``p``, or a one-line error when it needs more shared memory than the budget."""
    need = int(p.costs.get("smem_bytes", 0) or 0)
    if smem_budget is not None and need > smem_budget:
        raise PlanError(f"this conversion needs {need} bytes of shared memory at once (its "
                        f"smallest staging; no shuffle or register plan moves it), over "
                        f"smem_budget={smem_budget}")
    return p


def _converted(p: ConversionPlan, held: str | None) -> ConversionPlan:
    """``p`` with the conversion of the source's element type (its preset's, e.g. a
    float32 accumulator) to the planned one before the move: ``cvt`` instructions per
    warp, two values packed into one register where PTX has the ``x2`` form."""
    if held is None or held.lower() == p.dtype.lower():
        return p
    name, pack = cvt_instruction(held, p.dtype)
    if p._values_per_thread is not None:
        per_lane = p._values_per_thread
    elif p._route_value is None:
        return p
    else:
        ps = p._route_value.src
        per_lane = int(np.unique(np.stack([p._route_value.gwarp[0], ps.lane], 1), axis=0,
                                 return_counts=True)[1].max(initial=0))
    count = -(-per_lane // pack)
    step = Stage("convert", f"convert {held} -> {p.dtype} in registers: {count} {name} per "
                 f"thread ({pack} value(s) each)", {"instruction": name, "count": count})
    return replace(p, stages=(step,) + p.stages, held=held,
                   costs=MappingProxyType({**p.costs, "conversions": count,
                                           "conversion_instruction": name}))


def _with_tma(src: Any, dst: Any, shape: Sequence[int] | None, dtype: str | None,
              target: Any, packing: str = "packed") -> ConversionPlan:
    """A plan with ``"tma"`` as one side: the threads store (load) the shared-memory tile
    TMA then moves (:func:`~tilelayout.planning.mechanisms.staging.smem_choice.tma_endpoint_choice`)."""
    store = is_endpoint(dst)
    choice = tma_endpoint_choice(src, dst, shape, dtype, target)
    assert choice.tma is not None
    thread = dst if not store else src
    ops = resolve([(thread, "src" if store else "dst")], choice.shape, choice.dtype,
                  "float32", target)
    layout, on = ops.layouts[0], ops.target
    pair = (layout, choice.layout) if store else (choice.layout, layout)
    p = _plan(*pair, choice.shape, choice.dtype, on, packing=packing)
    if store:
        p = _converted(p, ops.operands[0].dtype)
    step = Stage("tma", f"{choice.tma} (cp.async.bulk.tensor, "
                 f"{'after a fence.proxy.async' if store else 'then an mbarrier wait'})",
                 {"boxes": choice.tma.boxes, "box": list(choice.tma.box),
                  "swizzle": choice.tma.swizzle})
    stages = p.stages + (step,) if store else (step,) + p.stages
    why = [n for n in choice.notes[1:] if n]
    reason = (f"{p.reason}; TMA then {'stores' if store else 'loaded'} it: {choice.tma}"
              + (f" ({'; '.join(why)})" if why else ""))
    return replace(p, reason=reason, stages=stages, smem=choice, tma=choice.tma,
                   costs=MappingProxyType({**p.costs, "tma_boxes": choice.tma.boxes,
                                           "tma_inner_bytes": choice.tma.inner_bytes}))


def _plan(src_l: Layout, dst_l: Layout, shape: Sequence[int] | None, dtype: str,
          on: TargetChoice, permute_k: int | None = None,
          smem_budget: int | None = None, packing: str = "packed") -> ConversionPlan:
    """The plan: on bits when both layouts are bit maps (:mod:`.on_bits`); element by
    element otherwise, and also when the bit plan does not provably reach the lower
    bounds, keeping the cheaper of the two (:func:`_key`), each delivering its
    destination as ``packing`` says (:mod:`.delivery`)."""

    def deliver(p: ConversionPlan) -> ConversionPlan:
        return delivered(p, packing)

    bit = None
    if permute_k is None:
        try:
            dims = src_l.check_shape(shape)
        except LayoutError as exc:
            raise PlanError(f"source layout: {exc}") from None
        found = plan_on_bits(src_l, dst_l, dims, dtype, on, smem_budget,
                             packing == "unpacked") \
            if dst_l.size() == src_l.size() else None
        if found is not None:
            bit = ConversionPlan(src_l, dst_l, dims, dtype, found.kind, found.mechanism,
                                 found.reason, MappingProxyType(dict(found.costs)),
                                 found.stages, found.smem, None, (), on.name, on.why,
                                 _make_route=found.make_route,
                                 _values_per_thread=found.values_per_thread,
                                 _bits=found.program)
            if found.at_floor or not _searchable(found, dims, dtype, src_l, dst_l):
                return deliver(bit)
    # beside a bit plan (as delivered), byte permutes are searched only under its
    # instruction count (each costs at least its cost units): nothing dearer replaces it
    bit = None if bit is None else deliver(bit)
    limit = math.inf if bit is None else _key(bit)[2]
    # ... and no buffer larger than the bit plan's (or the budget) could replace it
    caps = [c for c in (None if bit is None else int(_key(bit)[1]), smem_budget)
            if c is not None]
    plan = deliver(_plan_elements(src_l, dst_l, shape, dtype, on, permute_k, limit,
                                  min(caps) if caps else None, packing == "unpacked"))
    if bit is None:
        return plan
    # the element search's plan replaces the bit plan only where it is cheaper in one
    # count and no worse in any (docs/data-movement.md, *The choice*): the bit plan is
    # already no worse than the compiler's own choice, and so stays whatever replaces it
    k, b = _key(plan), _key(bit)
    if smem_budget is not None and b[1] > smem_budget >= k[1]:
        return plan
    if smem_budget is not None and k[1] > smem_budget:
        return bit
    return plan if all(x <= y for x, y in zip(k, b, strict=True)) and k < b else bit


#: tiles up to this many elements are also searched element by element when their plan
#: on bits is not at its floors: that search costs milliseconds there, and finds layouts
#: outside the bit families (XOR syntheses of the element families)
SEARCH_ELEMENTS = 1024

#: sub-word lane exchanges up to this many elements are searched too: the element
#: search's byte permutes may send whole registers and pick their bytes on receipt,
#: which the bit transpositions (packed before they are sent, as Triton does) do not
SEARCH_SHUFFLE_ELEMENTS = 1024


#: ... and when both layouts together place at most this many values (register slots of
#: all threads, replicas included): the element search's work grows with them
SEARCH_POSITIONS = 1 << 15


def _searchable(found: Any, dims: tuple[int, ...], dtype: str, src: Layout, dst: Layout
                ) -> bool:
    """Whether the element search may still find a cheaper plan than ``found`` within the
    planning time a compiler can spend: a staging of a small tile, or a lane exchange of
    sub-word values in a tiny one, placed on few enough register slots (the plan on bits
    is already no worse than the compiler's own choice; this search only finds plans
    better than it)."""
    elements = int(np.prod(dims, dtype=np.int64))
    if _positions(src) + _positions(dst) > SEARCH_POSITIONS:
        return False
    if found.mechanism != "shared-memory":
        return dtype_bits(dtype) < 32 and elements <= SEARCH_SHUFFLE_ELEMENTS
    return elements <= SEARCH_ELEMENTS


def _positions(layout: Layout) -> int:
    """The values ``layout`` places: the product of its iterators' extents (shard and
    replica)."""
    t = tile_of(layout)
    return math.prod(it.extent for it in (*t.shard, *t.replica))


def _plan_elements(src_l: Layout, dst_l: Layout, shape: Sequence[int] | None, dtype: str,
                   on: TargetChoice, permute_k: int | None = None,
                   limit: float = math.inf, max_bytes: int | None = None,
                   unpacked: bool = False) -> ConversionPlan:
    bits = dtype_bits(dtype)
    ps, pd = place(src_l, dst_l, shape)
    k_order = None
    if permute_k is not None:
        order = match_k(ps, pd, permute_k)
        if order is not None and (order != np.arange(len(order))).any():
            k_order = tuple(int(x) for x in order)
            pd = relabel(pd, permute_k, order)
    route = route_between(ps, pd, bits)
    rows, level, source = route.dst_rows, route.level, route.source
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
    moved = int(((level == 1) & (ps.slot[source] != pd.slot[rows])).sum()) if not shared_side else 0
    if kind == "none":
        out = Outcome("none", "every destination coordinate already holds its element",
                      (Stage("none", "nothing to move: same coordinates up to replicas"),))
    elif kind == "registers":
        out = in_registers(route, moved)
    elif kind == "collective":
        assert coll is not None
        out = over_devices(coll, bits, route)
    elif kind == "warp-shuffle":
        out = lane_exchange(route, dtype, moved, on, limit, max_bytes, unpacked)
    else:
        out = between_warps(route, dtype, on, max_bytes)
    costs = {"elements": int(len(np.unique(pd.element))),
             "destination_coordinates": int(len(rows)), **out.costs}
    plan = ConversionPlan(src_l, dst_l, ps.shape, dtype, kind, out.mechanism, out.reason,
                          MappingProxyType(costs), out.stages, out.smem,
                          None if kind != "collective" or coll is None else coll.name,
                          () if kind != "collective" or coll is None else coll.steps,
                          on.name, on.why, _route_value=out.route or route, k_order=k_order)
    if k_order is not None:
        plan = replace(plan, reason=f"with K (dimension {permute_k}) taken in the order "
                                    f"{list(k_order)}: {plan.reason}")
    return with_claimed_permutes(plan)

