"""Resharding between device-mesh layouts: which collective, and the bytes it moves.

Per device ``d`` let ``S_d`` be the elements it holds before and ``D_d`` after. The
names follow what XLA's SPMD partitioner emits for the same resharding (checked in
``tests/planning/mesh`` against the compiled HLO of a real ``jax.jit`` reshard):

* ``D_d ⊆ S_d`` for every device: a **local slice** (each device keeps part of what it
  has; no bytes move);
* each device that lacks data holds none of what it wants and finds all of it on one
  other device, no device serving two: a **collective-permute** (after a local slice
  when devices hold more than they keep);
* devices that want the same data each hold a part of it and together all of it: an
  **all-gather** among them (after a local slice if needed);
* otherwise an **all-to-all** (then a local slice when less data remains, or an
  all-gather when more is needed).

Each element a device lacks is received once from one holder; holders share the
sending in turn (the ``i``-th receiver of an element reads from holder ``i mod h``).

>>> import numpy as np
>>> c = classify(np.array([0, 1]), np.array([0, 1]), np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]), 2)
>>> c.name, c.steps
('all-gather', ('all-gather',))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.frozen import freeze_fields


@dataclass(frozen=True)
class Collective:
    """The device-level exchange of a resharding.

    ``sender[i]`` is the device each needed (device, element) pair
    ``(need_device[i], need_element[i])`` is read from.
    """

    name: str
    steps: tuple[str, ...]
    sent: np.ndarray  # elements each device sends
    received: np.ndarray  # elements each device receives
    need_device: np.ndarray
    need_element: np.ndarray
    sender: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only views


def _pairs(device: np.ndarray, element: np.ndarray, n: int) -> np.ndarray:
    return np.unique(device * n + element)


def classify(src_device: np.ndarray, src_element: np.ndarray, dst_device: np.ndarray,
             dst_element: np.ndarray, devices: int) -> Collective:
    """The collective that takes the (device, element) pairs of the source to those of
    the destination (see the module docstring)."""
    n = int(max(src_element.max(initial=-1), dst_element.max(initial=-1))) + 1
    have = _pairs(src_device, src_element, n)
    want = _pairs(dst_device, dst_element, n)
    need = np.setdiff1d(want, have, assume_unique=True)
    need_device, need_element = need // n, need % n
    # holders of each needed element, in device order; receivers take turns
    hd, he = have // n, have % n
    order = np.lexsort((hd, he))
    hd, he = hd[order], he[order]
    first = np.searchsorted(he, need_element, side="left")
    count = np.searchsorted(he, need_element, side="right") - first
    if need.size and (count == 0).any():
        raise ValueError("an element the destination needs is held by no device")
    rank = np.zeros(len(need), dtype=np.int64)
    if need.size:
        o = np.argsort(need_element, kind="stable")
        e_sorted = need_element[o]
        starts = np.r_[0, np.flatnonzero(np.diff(e_sorted)) + 1]
        pos = np.arange(len(o)) - np.repeat(starts, np.diff(np.r_[starts, len(o)]))
        rank[o] = pos
    sender = hd[first + rank % np.maximum(count, 1)] if need.size else need_device
    sent = np.bincount(sender, minlength=devices)
    received = np.bincount(need_device, minlength=devices)
    name, steps = _name(have, want, n, devices)
    return Collective(name, steps, sent, received, need_device, need_element, sender)


def _name(have: np.ndarray, want: np.ndarray, n: int, devices: int) -> tuple[str, tuple[str, ...]]:
    held = [set((have[have // n == d] % n).tolist()) for d in range(devices)]
    wanted = [set((want[want // n == d] % n).tolist()) for d in range(devices)]
    lacking = [wanted[d] - held[d] for d in range(devices)]
    if not any(lacking):
        if held == wanted:
            return "none", ()
        return "local slice", ("local slice",)
    slice_first = any(held[d] & wanted[d] and not held[d] <= wanted[d] for d in range(devices))
    pre = ("local slice",) if slice_first else ()
    # collective-permute: each device that lacks data holds none of what it wants and
    # finds all of it on one other device; no device serves two
    needy = [d for d in range(devices) if lacking[d]]
    if all(not (held[d] & wanted[d]) for d in needy):
        used: set[int] = set()
        for d in needy:
            free = [e for e in range(devices) if e != d and e not in used
                    and wanted[d] <= held[e]]
            if not free:
                break
            used.add(free[0])
        else:
            return "collective-permute", pre + ("collective-permute",)
    # all-gather: devices that want the same data each hold a part of it, and together
    # all of it
    groups: dict[frozenset, list[int]] = {}
    for d in range(devices):
        groups.setdefault(frozenset(wanted[d]), []).append(d)
    if all(all(held[e] & want_set for e in members)
           and set(want_set) <= set().union(*(held[e] for e in members))
           for want_set, members in groups.items()):
        return "all-gather", pre + ("all-gather",)
    sizes_after = [len(w) for w in wanted]
    sizes_before = [len(h) for h in held]
    if sizes_after == sizes_before:
        return "all-to-all", ("all-to-all",)
    if all(a <= b for a, b in zip(sizes_after, sizes_before, strict=True)):
        return "all-to-all", ("all-to-all", "local slice")
    return "all-to-all + all-gather", ("all-to-all", "all-gather")
