"""Where every element of a tile sits, level by level: device, CTA, warp, lane, slot.

A conversion plan compares two layouts of one tile. Both are evaluated once
(``map_all``) and every (element, replica) becomes a *holder row*: the element's flat
logical index and its position in the machine hierarchy

* ``device``: the device-axis values (mesh axes, ``pid``), one id per combination;
* ``cta``: the CTA (``bx``/``by``/``bz``, cluster ``cbx``/``cby``/``cbz``);
* ``warp`` and ``lane``: from the thread id in the CTA,
  ``tx + laneid + tid_in_wg + 32*(warpid + wid_in_wg) + 128*wgid``;
* ``slot``: axis ``m`` -- the register slot of a thread (or, for a device-mesh layout,
  the position in the device's local block).

A layout with no thread or device axis and only ``m`` is a *shared-memory* layout (the
tile stored in shared memory); TMEM (``TLane``/``TCol``) and Trainium axes are refused:
their data reach registers through ``tcgen05.ld`` / DMA, whose fragments the
``tcgen05.ld.*`` presets describe.

>>> import tilelayout as tl
>>> src, dst = place(tl.parse("S[(2,32):(1,1@laneid)]"), tl.parse("S[(2,32):(1@laneid,1)]"), (2, 32))
>>> src.role, int(src.lane[3]), int(dst.lane[3])
('registers', 3, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ...algebra.distinct import unique_rows
from ...core import budget
from ...core.axes import axis_of as lookup_axis
from ...core.compose import Layout
from ...core.errors import LayoutError
from ...core.frozen import freeze_fields

#: levels, finest first; a conversion's kind is the coarsest one that exchanges data
LEVELS = ("none", "registers", "warp-shuffle", "shared-memory", "collective")
WARP = 32
#: thread axes -> (multiplier into the CTA thread id, hardware extent or None)
THREAD_TERMS = MappingProxyType({"tx": (1, None), "laneid": (1, 32), "tid_in_wg": (1, 128),
                                 "warpid": (WARP, None), "wid_in_wg": (WARP, 4), "wgid": (128, None)})
CTA_AXES = ("bx", "by", "bz", "cbx", "cby", "cbz")


class PlanError(LayoutError):
    """Two layouts that cannot be planned as one conversion (see the message)."""


@dataclass(frozen=True)
class Placement:
    """Holder rows of one layout (one row per element and replica).

    ``coords`` holds each row's coordinate in ``axes`` order (the layout's own axes).
    """

    layout: Layout
    shape: tuple[int, ...]
    role: str  # "registers" (threads / devices hold it) or "shared" (a shared-memory tile)
    axes: tuple[str, ...]
    element: np.ndarray
    device: np.ndarray
    cta: np.ndarray
    warp: np.ndarray
    lane: np.ndarray
    slot: np.ndarray
    coords: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only through it

    def key(self, level: int) -> np.ndarray:
        """``(rows, k)`` columns that name the holder down to ``level``: 0 = the whole
        coordinate, 1 = the thread, 2 = the warp, 3 = the CTA, 4 = the device."""
        cols = [self.element, self.device, self.cta, self.warp, self.lane, self.slot]
        return np.stack(cols[: 6 - level], axis=1)

    @property
    def rows(self) -> int:
        return len(self.element)


def _role(layout: Layout, which: str) -> str:
    kinds = {a: lookup_axis(a).kind for a in layout.axes}
    other = [a for a, k in kinds.items() if k == "memory" and a != "m"]
    if other:
        raise PlanError(
            f"{which} layout uses memory axis {other[0]!r}; conversions move values held in "
            f"registers, shared memory ('m') or on devices (read TMEM through a tcgen05.ld.* "
            f"register fragment preset first)")
    if any(k != "memory" for k in kinds.values()):
        return "registers"
    if "m" not in kinds:
        raise PlanError(f"{which} layout {layout} places nothing (no axis)")
    return "shared"


def _radix(columns: list[np.ndarray]) -> np.ndarray:
    """Mixed-radix id of several non-negative columns (sizes from their maxima)."""
    out = np.zeros(len(columns[0]) if columns else 0, dtype=np.int64)
    for c in columns:
        out = out * (int(c.max(initial=0)) + 1) + c
    return out


def place(src: Layout, dst: Layout, shape: Sequence[int] | None) -> tuple[Placement, Placement]:
    """Holder rows of ``src`` and ``dst`` over one logical ``shape``, with device and
    CTA ids numbered the same way in both. Refuses layouts of different shapes, and
    (:mod:`tilelayout.core.budget`) more element x replica rows than the ``elements``
    limit."""
    try:
        s_shape = src.check_shape(shape)
    except LayoutError as exc:
        raise PlanError(f"source layout: {exc}") from None
    try:
        d_shape = dst.check_shape(s_shape)
    except LayoutError:
        raise PlanError(
            f"the layouts hold different tiles: source {src} holds {src.size()} elements "
            f"({'x'.join(map(str, s_shape))}), destination {dst} holds {dst.size()}; "
            f"give two layouts of the same shape") from None
    rows = (src.replica_count + dst.replica_count) * int(np.prod(d_shape, dtype=np.int64))
    budget.check("plan_conversion evaluates (element x replica rows of both layouts)",
                 rows, "elements")
    roles = (_role(src, "source"), _role(dst, "destination"))
    if roles == ("shared", "shared"):
        raise PlanError("both layouts are shared-memory tiles (only 'm'); a conversion moves "
                        "values held by threads or devices on at least one side")
    maps = [src.map_all(s_shape), dst.map_all(s_shape)]
    n = int(np.prod(s_shape, dtype=np.int64))
    dev_axes: list[str] = []
    for L in (src, dst):
        dev_axes += [a for a in L.axes if lookup_axis(a).kind == "device" and a not in dev_axes]
    out = []
    for L, mp, role in zip((src, dst), maps, roles, strict=True):
        r = L.replica_count
        flat = {a: np.asarray(v, dtype=np.int64).reshape(n * r) for a, v in mp.items()}
        zero = np.zeros(n * r, dtype=np.int64)
        for a, v in flat.items():
            if lookup_axis(a).kind != "memory" and v.size and v.min() < 0:
                raise PlanError(f"axis {a} takes the negative value {int(v.min())} in {L}; "
                                f"threads and devices are numbered from 0")
        tid = zero.copy()
        for a, (mult, extent) in THREAD_TERMS.items():
            if a in flat:
                if extent is not None and flat[a].max(initial=0) >= extent:
                    raise PlanError(f"{a} reaches {int(flat[a].max())} in {L}; the hardware "
                                    f"has {extent}")
                tid = tid + mult * flat[a]
        out.append(dict(
            layout=L, shape=tuple(s_shape), role=role, axes=tuple(L.axes),
            element=np.repeat(np.arange(n, dtype=np.int64), r),
            dev_cols=[flat.get(a, zero) for a in dev_axes],
            cta_cols=[flat.get(a, zero) for a in CTA_AXES],
            warp=tid // WARP, lane=tid % WARP, slot=flat.get("m", zero),
            coords=np.stack([flat[a] for a in L.axes], axis=1)))
    # one numbering of devices and CTAs for both sides
    ids = {}
    for name in ("dev_cols", "cta_cols"):
        joint = [np.concatenate([o[name][i] for o in out]) for i in range(len(out[0][name]))]
        both = _radix(joint) if joint else np.zeros(sum(len(o["element"]) for o in out), np.int64)
        ids[name] = np.split(both, [len(out[0]["element"])])
    result = []
    for i, o in enumerate(out):
        result.append(Placement(o["layout"], o["shape"], o["role"], o["axes"], o["element"],
                                ids["dev_cols"][i], ids["cta_cols"][i], o["warp"], o["lane"],
                                o["slot"], o["coords"]))
    for p, which in zip(result, ("source", "destination"), strict=True):
        _one_element_per_place(p, which)
    return result[0], result[1]


def _one_element_per_place(p: Placement, which: str) -> None:
    """Refuse two different elements at one coordinate (a register or an address holds
    one value)."""
    place_cols = np.stack([p.device, p.cta, p.warp, p.lane, p.slot], axis=1)
    _, ids = unique_rows(place_cols, return_inverse=True)
    ids = ids.reshape(-1)
    order = np.lexsort((p.element, ids))
    same = ids[order][1:] == ids[order][:-1]
    clash = same & (p.element[order][1:] != p.element[order][:-1])
    if clash.any():
        i = int(np.flatnonzero(clash)[0])
        a, b = order[i], order[i + 1]
        where = ", ".join(f"{ax}={int(v)}" for ax, v in zip(p.axes, p.coords[a], strict=True))
        raise PlanError(f"the {which} layout puts elements {int(p.element[a])} and "
                        f"{int(p.element[b])} at one place ({where}); a register or an "
                        f"address holds one value")


def dedupe(p: Placement) -> np.ndarray:
    """Row indices of ``p`` keeping one row per distinct full coordinate (a replica that
    lands on the same coordinate twice is one holder)."""
    _, first = unique_rows(p.key(0), return_index=True)
    return np.sort(first)


def joint_warps(src: Placement, dst: Placement) -> tuple[np.ndarray, np.ndarray]:
    """One warp numbering for both sides: ``(src rows' warp, dst rows' warp)``."""
    both = np.concatenate([np.stack([src.device, src.cta, src.warp], 1),
                           np.stack([dst.device, dst.cta, dst.warp], 1)])
    _, inv = unique_rows(both, return_inverse=True)
    inv = inv.reshape(-1)
    return inv[: src.rows], inv[src.rows:]
