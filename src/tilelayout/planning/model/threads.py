"""A distributed layout as a register file: which element each (warp, lane, slot) holds.

A *distributed* layout places a tile on threads and register slots: its thread axes
name the thread (``laneid`` + ``warpid``, ``tid_in_wg`` + ``wgid``, ``tx`` ...) and ``m``
is the register slot, as the mma / wgmma / ldmatrix presets do. Shared-memory access
planning needs the reverse view, a dense table ``element[warp, lane, slot]`` (-1 where a
register holds nothing), built here once per layout and shape, vectorized.

Lanes come from the thread-level axis (``laneid``, or ``tx`` / ``tid_in_wg`` modulo 32);
every other thread axis inside a CTA (``warpid``, ``wid_in_wg``, ``wgid``, and the
thread-level value divided by 32) names the warp. Axes at CTA level or above (``bx``,
``cbx``), device and other memory axes are refused: shared memory belongs to one CTA.

>>> import tilelayout as tl
>>> t = register_file(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
>>> t.table.shape, t.table[0, 5].tolist()     # (warps, lanes, slots); lane 5's registers
((1, 32, 4), [10, 11, 74, 75])
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...core import budget
from ...core.axes import axis as axis_info
from ...core.axes import is_axis
from ...core.compose import ComposeLayout, Layout, tile_of
from ...core.errors import LayoutError
from ...core.frozen import freeze_fields

WARP = 32

_WARP_SCOPES = ("warp", "warpgroup")

#: a warp named by its thread-axis values: ``(("warpid", 1),)`` (frozen data, not a dict)
WarpName = tuple[tuple[str, int], ...]


@dataclass(frozen=True, eq=False)
class RegisterFile:
    """``table[w, l, s]``: the flat logical index held by slot ``s`` of lane ``l`` of warp
    ``w`` (-1: nothing). ``warps[w]`` names warp ``w`` by its thread-axis values, as
    ``(axis, value)`` pairs (``dict(warps[w])`` reads them as a mapping).

    An immutable value: ``table`` is made read-only, and the derived views
    (:meth:`groups`, :meth:`requests`) are kept outside it, in bounded caches keyed by
    the object (``eq=False``: its identity), so it holds no lazily filled state.
    """

    table: np.ndarray
    warps: tuple[WarpName, ...]
    shape: tuple[int, ...]
    replicated: bool

    def __post_init__(self) -> None:
        freeze_fields(self)  # read-only through this value; the caller's array unchanged

    @property
    def slots(self) -> int:
        """Register slots per lane (the table's last extent)."""
        return int(self.table.shape[2])

    def groups(self, k: int) -> np.ndarray | None:
        """The elements of every filled group of slots ``[v*k, (v+1)*k)``, shape ``(G, k)``,
        or None when some lane fills a group only partly (no ``k``-wide vectors). Cached
        (read-only).

        >>> import tilelayout as tl
        >>> rf = register_file(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
        >>> rf.groups(2)[:2].tolist(), rf.groups(2) is rf.groups(2)
        ([[0, 1], [64, 65]], True)
        """
        return _groups(self, k)

    def requests(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """One warp-wide request per (warp, vector index ``v``) with an active lane: the
        first element each lane moves (``(n, 32)``, -1: inactive) and the request ids
        ``(n, 2)`` = (warp number, v). Cached (read-only).

        >>> import tilelayout as tl
        >>> rf = register_file(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
        >>> first, ids = rf.requests(2)
        >>> first.shape, ids.tolist()
        ((2, 32), [[0, 0], [0, 1]])
        """
        return _requests(self, k)


def slot_vectors(table: np.ndarray, k: int) -> np.ndarray:
    """A ``(warps, lanes, slots)`` table as ``(warps, lanes, vectors, k)``: vector ``v``
    of a lane is its slots ``[v*k, (v+1)*k)``, the slots padded (-1) to a multiple of ``k``.

    >>> slot_vectors(np.arange(3).reshape(1, 1, 3), 2).tolist()
    [[[[0, 1], [2, -1]]]]
    """
    pad = (-table.shape[2]) % k
    padded = np.pad(table, ((0, 0), (0, 0), (0, pad)), constant_values=-1) if pad else table
    return padded.reshape(*table.shape[:2], -1, k)


def wide_instructions(table: np.ndarray, bits: int) -> np.ndarray:
    """Per warp of a ``(warps, lanes, slots)`` table of ``bits``-bit elements: the
    shared-memory instructions its busiest lane needs at 16 bytes per lane each, the most
    any instruction moves (a 16-byte vector, packed registers, ldmatrix / stmatrix).

    >>> wide_instructions(np.array([[[0, 1, 2, -1]], [[3, -1, -1, -1]]]), 64)
    array([2, 1])
    """
    held = (table >= 0).sum(axis=2).max(axis=1, initial=0)
    return -(-held * bits // 128)


# Caches, not state: pure functions of an immutable register file (keyed by identity), bounded.
@functools.lru_cache(maxsize=16)
def _groups(rf: RegisterFile, k: int) -> np.ndarray | None:
    g = slot_vectors(rf.table, k).reshape(-1, k)
    full = g >= 0
    any_, all_ = full.any(axis=1), full.all(axis=1)
    if not np.array_equal(any_, all_):
        return None
    out = g[all_]
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=16)
def _requests(rf: RegisterFile, k: int) -> tuple[np.ndarray, np.ndarray]:
    w, l, _ = rf.table.shape
    first = slot_vectors(rf.table, k)[..., 0].transpose(0, 2, 1).reshape(-1, l)
    nvec = first.shape[0] // max(w, 1)
    ids = np.stack(np.divmod(np.arange(first.shape[0]), max(nvec, 1)), axis=1)
    keep = (first >= 0).any(axis=1)
    out = first[keep], ids[keep]
    for a in out:
        a.setflags(write=False)
    return out


def _lane_axis(layout: Layout, what: str) -> tuple[str | None, list[str]]:
    lane: str | None = None
    warps: list[str] = []
    for name in layout.axes:
        if name == "m":
            continue
        info = axis_info(name) if is_axis(name) else None
        if info is None or info.kind != "thread" or info.scope is None:
            raise LayoutError(
                f"the {what} layout must place the tile on threads and register slots "
                f"(thread axes + m); axis '{name}' is not a thread axis")
        unit, within = info.scope
        if unit == "thread":
            if lane is not None:
                raise LayoutError(f"the {what} layout uses two thread-level axes ('{lane}' "
                                  f"and '{name}'); give the thread by one of them")
            lane = name
        elif unit in _WARP_SCOPES:
            warps.append(name)
        else:
            raise LayoutError(
                f"the {what} layout spreads the tile over '{name}' ({unit}s), but shared "
                f"memory belongs to one CTA; plan one CTA's tile")
    return lane, warps


def register_file(layout: Layout, shape: Sequence[int], what: str = "distributed"
                  ) -> RegisterFile:
    """The register file of a distributed layout over ``shape`` (see the module doc).

    Refuses (``LayoutError``) non-thread axes, lane values outside ``[0, 32)``, negative
    slots and two elements in one register; the elements evaluated and the table's cells
    (warps x 32 x slots) are checked against the ``elements`` limit (``tl.limits``).

    >>> import tilelayout as tl
    >>> rf = register_file(tl.parse("S[(2,32):(1@warpid,1@laneid)]"), (2, 32))
    >>> rf.table.shape, rf.warps
    ((2, 32, 1), ((('warpid', 0),), (('warpid', 1),)))
    """
    s = layout.check_shape(shape)
    lane_name, warp_names = _lane_axis(layout, what)
    size = math.prod(s)
    reps = layout.replica_count
    budget.check(f"the {what} layout's register file evaluates", size * reps, "elements")
    coords = layout.map_all(s)
    n = size * reps
    elem = np.repeat(np.arange(size, dtype=np.int64), reps)
    slot = coords["m"].reshape(n) if "m" in coords else np.zeros(n, dtype=np.int64)
    if n and int(slot.min()) < 0:
        raise LayoutError(f"the {what} layout gives a negative register slot m "
                          f"({int(slot.min())})")
    keys = []
    if lane_name is not None:
        thread = coords[lane_name].reshape(n)
        if n and int(thread.min()) < 0:
            raise LayoutError(f"the {what} layout gives a negative {lane_name} "
                              f"({int(thread.min())})")
        if lane_name == "laneid" and n and int(thread.max()) >= WARP:
            raise LayoutError(f"the {what} layout gives laneid {int(thread.max())}; a warp "
                              f"has lanes 0..{WARP - 1}")
        lane = thread % WARP
        warp_of_thread = thread // WARP
    else:
        lane = np.zeros(n, dtype=np.int64)
        warp_of_thread = np.zeros(n, dtype=np.int64)
    for name in warp_names:
        keys.append(coords[name].reshape(n))
    if lane_name is not None and lane_name != "laneid":
        keys.append(warp_of_thread)
    if len(keys) == 1:
        values, warp = np.unique(keys[0], return_inverse=True)
        uniq, warp = values[:, None], warp.reshape(n)
    elif keys:
        uniq, warp = np.unique(np.stack(keys, axis=1), axis=0, return_inverse=True)
        warp = warp.reshape(n)
    else:
        uniq, warp = np.zeros((1, 0), dtype=np.int64), np.zeros(n, dtype=np.int64)
    names = warp_names + ([f"{lane_name}//32"] if lane_name not in (None, "laneid") else [])
    warps = tuple(tuple((k, int(v)) for k, v in zip(names, row, strict=True)) for row in uniq)
    nslots = int(slot.max()) + 1 if n else 0
    cells = len(warps) * WARP * nslots
    budget.check(f"the {what} layout's register file ({len(warps)} warps x {WARP} lanes x "
                 f"{nslots} slots) holds", cells, "elements")
    table = np.full((len(warps), WARP, nslots), -1, dtype=np.int64)
    cell = (warp * WARP + lane) * nslots + slot
    pair = np.sort(cell * max(size, 1) + elem)  # a stride-0 replica repeats a pair: one copy
    pair = pair[np.r_[True, pair[1:] != pair[:-1]]] if pair.size else pair
    cell, elem = pair // max(size, 1), pair % max(size, 1)
    if np.any(cell[1:] == cell[:-1]):
        _, first, counts = np.unique(cell, return_index=True, return_counts=True)
        c = int(cell[first[np.argmax(counts > 1)]])
        w, rest = divmod(c, WARP * nslots)
        ln, sl = divmod(rest, nslots)
        raise LayoutError(f"the {what} layout puts two elements in one register (warp "
                          f"{dict(warps[w])}, lane {ln}, slot {sl})")
    table.reshape(-1)[cell] = elem
    return RegisterFile(table, warps, s, reps > 1)


def writer_of(layout: Layout) -> Layout:
    """``layout`` without its replicas: a tile is stored once, by its first holders.

    >>> import tilelayout as tl
    >>> str(writer_of(tl.parse("S[(32):(1@laneid)] + R[2:1@warpid]")))
    'S[32:1@laneid]'
    """
    if layout.replica_count == 1:
        return layout
    tile = tile_of(layout).replace(replica=())
    return ComposeLayout(layout.swizzle, tile) if isinstance(layout, ComposeLayout) else tile
