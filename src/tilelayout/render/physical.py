"""The physical view: where each (element, replica) pair is drawn, chosen by axis kinds.

Shared by the SVG pictures (:mod:`tilelayout.render.svg`) and the web explorer's API,
so both draw the same grid: device axes and warp/warpgroup/CTA-level thread axes make
owner *tiles*, thread-level axes, ``TLane`` and ``P`` are *rows*, ``m``, ``TCol`` and
``F`` are *columns*; memory-only layouts fold ``m`` into an address grid or, with a
dtype, the shared-memory line x bank grid.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> v = physical_view(L, (8, 16))
>>> [t["warpid"] for t in v.tiles], v.nrows, v.ncols, v.kind
([5, 6, 9, 10], 32, 2, 'threads')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from ..analysis.banks import bank_map, is_shared_memory
from ..core.axes import SMEM_BANK_BYTES, SMEM_BANKS, is_thread_axis
from ..core.axes import axis_of as lookup_axis
from ..core.compose import Layout
from ..core.dtypes import dtype_bytes

#: largest number of physical cells a view lays out
MAX_CELLS = 1 << 20

_ROW_MEMORY = ("TLane", "P")
_OUTER_MEMORY = ("Bank",)


def _role(name: str) -> str:
    """Where an axis goes in the physical view: tiles ('outer'), rows or columns."""
    ax = lookup_axis(name)
    if ax.kind == "device":
        return "outer"
    if ax.kind == "thread":
        return "rows" if ax.scope and ax.scope[0] == "thread" else "outer"
    if name in _ROW_MEMORY:
        return "rows"
    if name in _OUTER_MEMORY:
        return "outer"
    return "cols"


def _values(name: str, v: np.ndarray, budget: int) -> tuple[np.ndarray, bool]:
    """The values one grid axis shows: the full range (extended to a small hardware extent
    so idle lanes are visible) or, when that is too sparse or too big, only the used ones."""
    used = np.unique(v)
    lo, hi = int(used[0]), int(used[-1])
    ext = lookup_axis(name).extent
    if ext is not None and ext <= 128 and lo >= 0 and hi < ext:
        lo, hi = 0, ext - 1
    elif lo > 0 and hi < 4 * used.size:
        lo = 0
    span = hi - lo + 1
    if span <= budget and span <= max(4 * used.size, used.size + 64):
        return np.arange(lo, hi + 1, dtype=np.int64), False
    return used, True


def _mixed(names: list[str], flat: Mapping[str, np.ndarray], budget: int
           ) -> tuple[np.ndarray, list[dict[str, Any]], int]:
    """Grid position along one direction from several axes (first axis outermost)."""
    pos = np.zeros(next(iter(flat.values())).shape, dtype=np.int64)
    parts = []
    size = 1
    for name in names:
        values, compressed = _values(name, flat[name], budget)
        pos = pos * values.size + np.searchsorted(values, flat[name])
        size *= values.size
        parts.append({"axis": name, "values": values.tolist(), "compressed": compressed})
    return pos, parts, size


def _fold_width(count: int, shape: tuple[int, ...], tiled: bool) -> int:
    if not tiled and shape and 4 <= shape[-1] <= 128:
        return shape[-1]
    w = 1
    while w * w < count:
        w *= 2
    return max(4, min(w, 128))


def _ordered(outer: list[str], order: Sequence[str] | None) -> list[str]:
    """The tile axes in the order the user expects: ``order`` first (e.g. a device mesh's
    axis order), the others after them in their layout order.

    >>> _ordered(["tp", "dp"], ["dp", "tp"]), _ordered(["tp", "dp"], None)
    (['dp', 'tp'], ['tp', 'dp'])
    """
    if not order:
        return outer
    rank = {a: i for i, a in enumerate(order)}
    return sorted(outer, key=lambda a: (rank.get(a, len(rank)), outer.index(a)))


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True, eq=False)
class PhysicalView:
    """Where each (element, replica) pair of a layout is drawn (:func:`physical_view`).

    ``coords`` and ``banks`` are the flat (``size * R``) arrays the grid was built from
    (entry ``e*R + r`` is replica ``r`` of element ``e``; ``banks`` has ``bankword``,
    ``bank`` and ``line`` for a shared-memory layout with a dtype, else None). Pair ``p``
    sits in tile ``tile[p]``, row ``row[p]``, column ``col[p]`` and, when ``sub > 1``
    elements share a cell, slot ``subpos[p]``. Arrays are read-only; :meth:`to_dict` is
    the JSON the explorer sends.
    """

    shape: tuple[int, ...]
    replicas: int
    coords: Mapping[str, np.ndarray]
    banks: Mapping[str, np.ndarray] | None
    kind: str
    title: str
    tile_axes: tuple[str, ...]
    tiles: tuple[Mapping[str, int], ...]
    mesh: Mapping[str, tuple[int, ...]] | None
    rows: tuple[Mapping[str, Any], ...]
    cols: tuple[Mapping[str, Any], ...]
    nrows: int
    ncols: int
    sub: int
    span: int
    fold: Mapping[str, Any] | None
    tile: np.ndarray
    row: np.ndarray
    col: np.ndarray
    subpos: np.ndarray | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: the grid (``tile``/``row``/``col`` as lists)."""
        part = lambda p: {"axis": p["axis"], "values": list(p["values"]),  # noqa: E731
                          "compressed": p["compressed"]}
        out: dict[str, Any] = {
            "tile_axes": list(self.tile_axes), "tiles": [dict(t) for t in self.tiles],
            "sub": self.sub, "span": self.span,
            "fold": None if self.fold is None else {**self.fold,
                                                    "values": list(self.fold["values"])},
            "mesh": None if self.mesh is None else {k: list(v) for k, v in self.mesh.items()},
            "kind": self.kind, "rows": [part(p) for p in self.rows],
            "cols": [part(p) for p in self.cols], "title": self.title,
            "nrows": self.nrows, "ncols": self.ncols, "tile": self.tile.tolist(),
            "row": self.row.tolist(), "col": self.col.tolist(),
        }
        if self.subpos is not None:
            out["subpos"] = self.subpos.tolist()
        return out


def physical_view(layout: Layout, shape: Sequence[int] | None = None, dtype: str | None = None,
                  order: Sequence[str] | None = None) -> PhysicalView:
    """The grid the physical view of ``layout`` over ``shape`` draws (one ``map_all``,
    plus the bank map for a shared-memory layout with a ``dtype``).

    Axes are placed by kind: device axes and warp/warpgroup/CTA-level thread axes
    enumerate *tiles* (only the used combinations); thread-level axes (``laneid``,
    ``tid_in_wg``, ``tx``), ``TLane`` and ``P`` are rows; ``m``, ``TCol``, ``F`` are
    columns. Memory-only layouts fold the address ``m`` into rows of ``width``, or,
    with a dtype, into the shared-memory line x bank grid (``sub`` elements per
    4-byte bank word). Every (element, replica) pair ``p = e*R + r`` has a cell
    ``(tile[p], row[p], col[p], sub[p])``.

    Tile axes keep the layout's axis order (the order of ``flat``, i.e. ``layout.axes``)
    unless ``order`` names a preferred one (a device mesh's axis order). Exactly two tile
    axes, of any kind, make a 2-D ``mesh`` of tiles: the first axis down, the second
    across (``mesh["rows"]``, ``mesh["cols"]``: their used values); otherwise ``mesh`` is
    None and the tiles wrap in ``tiles`` order.
    """
    dims = layout.check_shape(shape)
    n, r = math.prod(dims), layout.replica_count
    flat = {a: _frozen(v.reshape(n * r)) for a, v in layout.map_all(dims).items()}
    banks = None
    if dtype is not None and is_shared_memory(layout):
        bm = bank_map(layout, dtype, dims)
        banks = {k: _frozen(bm[k].reshape(n * r)) for k in ("bankword", "bank", "line")}
    view = _grid(flat, n, r, banks, dtype, dims, order)
    freeze = lambda parts: tuple(MappingProxyType({**p, "values": tuple(p["values"])})  # noqa: E731
                                 for p in parts)
    fold = view["fold"]
    return PhysicalView(
        dims, r, MappingProxyType(flat), None if banks is None else MappingProxyType(banks),
        view["kind"], view["title"], tuple(view["tile_axes"]),
        tuple(MappingProxyType(t) for t in view["tiles"]),
        None if view["mesh"] is None else MappingProxyType(
            {k: tuple(v) for k, v in view["mesh"].items()}),
        freeze(view["rows"]), freeze(view["cols"]), view["nrows"], view["ncols"], view["sub"],
        view["span"],
        None if fold is None else MappingProxyType({**fold, "values": tuple(fold["values"])}),
        _frozen(view["tile"]), _frozen(view["row"]), _frozen(view["col"]),
        None if view["sub"] <= 1 else _frozen(view["subpos"]))


def _grid(flat: Mapping[str, np.ndarray], n: int, r: int,
          banks: Mapping[str, np.ndarray] | None, dtype: str | None, shape: tuple[int, ...],
          order: Sequence[str] | None) -> dict[str, Any]:
    """The physical grid as plain data (arrays for the per-pair positions)."""
    names = list(flat)
    pairs = n * r
    roles = {a: _role(a) for a in names}
    outer = _ordered([a for a in names if roles[a] == "outer"], order)
    rows = [a for a in names if roles[a] == "rows"]
    cols = [a for a in names if roles[a] == "cols"]
    budget = MAX_CELLS
    # tiles: the used combinations of the outer axes
    if outer:
        stacked = np.stack([flat[a] for a in outer], axis=-1)
        combos, tile = np.unique(stacked, axis=0, return_inverse=True)
        tile = tile.reshape(pairs)
        tiles = [dict(zip(outer, map(int, c), strict=True)) for c in combos]
    else:
        tile = np.zeros(pairs, dtype=np.int64)
        tiles = [{}]
    view: dict[str, Any] = {"tile_axes": outer, "tiles": tiles, "sub": 1, "span": 1,
                            "fold": None}
    sub = np.zeros(pairs, dtype=np.int64)
    mesh = None
    if len(outer) == 2:
        ys = sorted({t[outer[0]] for t in tiles})
        xs = sorted({t[outer[1]] for t in tiles})
        if len(ys) * len(xs) <= 4096:
            mesh = {"rows": ys, "cols": xs}
    view["mesh"] = mesh
    if not rows and cols == ["m"] and banks is not None:
        # shared memory: line x bank, 4/dtype_bytes elements side by side in one bank word
        nbytes = dtype_bytes(dtype or "float32")
        per_word = max(1, SMEM_BANK_BYTES // nbytes)
        line_values, compressed = _values("line", banks["line"], budget // SMEM_BANKS)
        row = np.searchsorted(line_values, banks["line"])
        col = banks["bank"]
        sub = flat["m"] % per_word if per_word > 1 else sub
        view.update(kind="smem", sub=per_word, span=max(1, nbytes // SMEM_BANK_BYTES),
                    rows=[{"axis": "line", "values": line_values.tolist(),
                           "compressed": compressed}],
                    cols=[{"axis": "bank", "values": list(range(SMEM_BANKS)),
                           "compressed": False}],
                    title=f"shared memory: line x bank ({SMEM_BANKS} banks of "
                          f"{SMEM_BANK_BYTES} bytes; {per_word} {dtype} per bank word)")
        nrows, ncols = line_values.size, SMEM_BANKS
    elif not rows and cols == ["m"]:
        m_values, compressed = _values("m", flat["m"], budget)
        width = _fold_width(m_values.size, shape, bool(outer))
        pos = np.searchsorted(m_values, flat["m"])
        row, col = pos // width, pos % width
        title = (f"memory addresses m, {width} per row"
                 + (" (only used addresses)" if compressed else ""))
        devices = [a for a in outer if lookup_axis(a).kind == "device"]
        if devices:
            title = f"devices ({' x '.join(devices)}); local {title}"
        view.update(kind="devices" if devices else "memory", rows=[], cols=[], title=title,
                    fold={"width": width, "values": m_values.tolist(), "compressed": compressed})
        nrows, ncols = -(-m_values.size // width), width
    else:
        row, row_parts, nrows = (_mixed(rows, flat, budget) if rows
                                 else (np.zeros(pairs, dtype=np.int64), [], 1))
        col, col_parts, ncols = (_mixed(cols, flat, budget) if cols
                                 else (np.zeros(pairs, dtype=np.int64), [], 1))
        if nrows * ncols * len(tiles) > budget:
            # too sparse to draw as a grid: compress every axis to the used values
            row, row_parts, nrows = _mixed(rows, flat, 0) if rows else (row, row_parts, nrows)
            col, col_parts, ncols = _mixed(cols, flat, 0) if cols else (col, col_parts, ncols)
        kinds = {lookup_axis(a).kind for a in names}
        inner = rows + cols
        inner_threads = any(is_thread_axis(a) for a in inner)
        tiles_title = " x ".join(outer) + " tiles; " if outer else ""
        if any(a in ("TLane", "TCol") for a in inner) and not inner_threads:
            kind, title = "tmem", tiles_title + "tensor memory: TLane x TCol"
        elif any(a in ("P", "F") for a in inner) and not inner_threads:
            kind = "trainium"
            store = "PSUM" if "Bank" in outer else "scratchpad"
            title = tiles_title + f"Trainium {store}: partition P x free F"
        elif "thread" in kinds:
            kind = "threads"
            slots = "register slots" if cols == ["m"] else "columns"
            title = tiles_title + (" x ".join(rows) or "one row") + " rows" + (
                f"; {slots} " + " x ".join(cols) if cols else "")
        elif "device" in kinds:
            kind = "devices"
            title = "devices (" + " x ".join(outer) + ")" + (
                "; local " + " x ".join(cols) if cols else "")
        else:
            kind, title = "memory", " x ".join(rows + cols)
        view.update(kind=kind, rows=row_parts, cols=col_parts, title=title)
    view.update(nrows=int(nrows), ncols=int(ncols), tile=np.asarray(tile, dtype=np.int64),
                row=np.asarray(row, dtype=np.int64), col=np.asarray(col, dtype=np.int64),
                subpos=np.asarray(sub, dtype=np.int64))
    return view
