"""SVG pictures of a layout: the logical grid and the physical view, side by side.

Same conventions as the web explorer (one source of truth: the physical grid comes
from :func:`~tilelayout.render.physical.physical_view`, which the explorer uses too):

* logical view: the shape folded to 2-D (:func:`~tilelayout.render.table.fold_shape`),
  each element coloured by the value of the *colour key* (default: the thread-level
  thread axis, else a device axis, else the shared-memory bank when a dtype is given,
  else logical dimension 0) using :mod:`tilelayout.render.palette`;
* physical view by axis kind: warps (and devices) as tiles of lanes x registers,
  line x bank for shared memory with a dtype, ``TLane x TCol``, ``P x F``, a device
  grid; each physical cell takes the colour of the element it holds, so matching
  colours connect the two views.

Pure Python, no third-party dependency. The markup stays compact for big tiles
(128 x 256 and more): cells of one colour are drawn as one ``<path>`` with
horizontal runs merged, grid lines as one path, and labels only when cells are big.

>>> import tilelayout as tl
>>> svg = layout_svg(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
>>> svg.startswith("<svg") and "laneid" in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

import numpy as np

from ..analysis.banks import is_shared_memory
from ..core import budget
from ..core.axes import axis_of as lookup_axis
from ..core.compose import Layout
from ..core.errors import LayoutError, shown
from ..core.shape import format_shape
from .palette import MAX_COLOURS, rank_colours
from .physical import PhysicalView, physical_view
from .table import fold_shape

#: the most logical elements a picture draws (an SVG, or the explorer's page, which uses
#: this cap too); above it a picture would be neither readable nor small
MAX_ELEMENTS = 1 << 17
#: picture widths accepted, in pixels
MIN_WIDTH, MAX_WIDTH = 200, 20000
_EMPTY = "#eeeeee"
_FONT = "font-family:ui-monospace,Menlo,Consolas,monospace"


class RenderError(LayoutError):
    """A picture that cannot be drawn (too large, unknown colour key, no rasterizer)."""


def default_color_key(layout: Layout, dtype: str | None, shape: Sequence[int]) -> str:
    """The colour key the explorer picks by default for this layout.

    >>> import tilelayout as tl
    >>> default_color_key(tl.parse("S[(4,8):(1@warpid,1@laneid)]"), None, (4, 8))
    'laneid'
    """
    axes = list(layout.axes)
    for a in axes:
        ax = lookup_axis(a)
        if ax.kind == "thread" and ax.scope and ax.scope[0] == "thread":
            return a
    for a in axes:
        if lookup_axis(a).kind == "device":
            return a
    if dtype and is_shared_memory(layout):
        return "bank"
    if len(shape) > 1:
        return "dim:0"
    return layout.axes[0] if layout.axes else "dim:0"


def color_values(key: str, shape: tuple[int, ...], first: Mapping[str, np.ndarray],
                 banks: Mapping[str, np.ndarray] | None) -> np.ndarray:
    """Each element's value under colour key ``key``: an axis (``first``: each element's
    first coordinate per axis), ``"dim:K"`` (its index along dimension K) or ``"bank"``.

    >>> color_values("dim:1", (2, 3), {}, None).tolist()
    [0, 1, 2, 0, 1, 2]
    """
    n = math.prod(shape)
    if key == "bank":
        if banks is None:
            raise RenderError("colour key 'bank' needs --dtype and a shared-memory layout on 'm'")
        return banks["bank"]
    if key.startswith("dim:"):
        d = int(key[4:]) if key[4:].isdigit() and len(key) < 12 else -1
        if not 0 <= d < len(shape):
            raise RenderError(f"colour key {shown(key)}: the shape {format_shape(shape)} has "
                              f"{len(shape)} dims")
        return np.unravel_index(np.arange(n), shape)[d].astype(np.int64)
    if key not in first:
        raise RenderError(
            f"unknown colour key {shown(key)}; use an axis of the layout ({', '.join(first)}), "
            f"'dim:K' for logical dimension K, or 'bank'"
        )
    return first[key]


def element_colours(layout: Layout, dims: tuple[int, ...], dtype: str | None, color: str | None,
                    view: PhysicalView) -> tuple[dict[str, np.ndarray], str, np.ndarray]:
    """What colours the elements of ``layout`` over ``dims``, from its physical ``view``:
    each element's first coordinate per axis, the colour key (``color``, else
    :func:`default_color_key`) and each element's value under it (:func:`color_values`).

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(4,8):(1@warpid,1@laneid)]")
    >>> first, key, values = element_colours(L, (4, 8), None, None, physical_view(L, (4, 8)))
    >>> key, values[:9].tolist()
    ('laneid', [0, 1, 2, 3, 4, 5, 6, 7, 0])
    """
    r = view.replicas
    first = {a: v[::r] for a, v in view.coords.items()}
    key = color or default_color_key(layout, dtype, dims)
    banks = {k: v[::r] for k, v in view.banks.items()} if view.banks else None
    return first, key, color_values(key, dims, first, banks)


def _fill_paths(x: np.ndarray, y: np.ndarray, w: float, h: float, colour: np.ndarray,
                scale: float, colours: Sequence[str]) -> list[str]:
    """One ``<path>`` per colour; runs of equal colour along a row merge into one rectangle."""
    if x.size == 0:
        return []
    order = np.lexsort((x, y))
    x, y, colour = x[order], y[order], colour[order]
    start = np.ones(x.size, dtype=bool)
    start[1:] = ~((y[1:] == y[:-1]) & (np.abs(x[1:] - x[:-1] - w) < 1e-9) & (colour[1:] == colour[:-1]))
    begins = np.flatnonzero(start)
    ends = np.append(begins[1:], x.size)
    by_colour: dict[int, list[str]] = {}
    for b, e in zip(begins.tolist(), ends.tolist(), strict=True):
        width = (e - b) * w
        by_colour.setdefault(int(colour[b]), []).append(
            f"M{_n(x[b] * scale)} {_n(y[b] * scale)}h{_n(width * scale)}v{_n(h * scale)}"
            f"h-{_n(width * scale)}z"
        )
    return [f'<path fill="{colours[c] if c >= 0 else _EMPTY}" d="{"".join(d)}"/>'
            for c, d in sorted(by_colour.items())]


def _n(v: float) -> str:
    r = round(float(v), 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def _grid_lines(x0: float, y0: float, nrows: int, ncols: int, cell: float) -> str:
    d = "".join(f"M{_n(x0)} {_n(y0 + r * cell)}h{_n(ncols * cell)}" for r in range(nrows + 1))
    d += "".join(f"M{_n(x0 + c * cell)} {_n(y0)}v{_n(nrows * cell)}" for c in range(ncols + 1))
    return f'<path d="{d}" stroke="#fff" stroke-width="{_n(max(0.5, cell / 14))}" fill="none"/>'


#: smallest cell edge in pixels: a (128, 1024) tile still fits a half-width panel
MIN_CELL = 0.25


def _cell_size(nrows: int, ncols: int, width: float, height: float) -> float:
    return max(MIN_CELL, min(28.0, width / max(ncols, 1), height / max(nrows, 1)))


def _text(x: float, y: float, s: str, size: float, anchor: str = "middle", weight: str = "") -> str:
    w = f' font-weight="{weight}"' if weight else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{w}>'
            f"{html.escape(s)}</text>")


def layout_svg(
    layout: Layout,
    shape: Sequence[int] | None = None,
    dtype: str | None = None,
    color: str | None = None,
    views: str = "both",
    width: int = 1100,
    *,
    highlight: Sequence[int] = (),
    selected: int | None = None,
    dim: bool = False,
    tiles_per_row: int | None = None,
    order: Sequence[str] | None = None,
) -> str:
    """The picture of ``layout`` over ``shape`` as SVG text.

    ``dtype`` turns a shared-memory layout's physical view into line x bank; ``color``
    is the colour key (an axis name, ``"dim:K"`` or ``"bank"``); ``views`` is
    ``"both"``, ``"logical"`` or ``"physical"``; ``width`` is the picture width in pixels.

    A selection, as the explorer shows it: ``highlight`` (flat element indices) rings
    those elements' cells in both views, ``selected`` (one flat index) rings its logical
    cell in blue and, with both views drawn, joins it to each cell holding it; ``dim``
    pales everything else. ``tiles_per_row`` fixes how many physical tiles sit in a row
    (a mesh keeps its grid); ``order`` names the axes the physical tiles follow (a device
    mesh's axis order, as :func:`~tilelayout.render.physical.physical_view` takes it).
    (The explorer page's own picture, its SVG export, is
    :func:`~tilelayout.render.page_svg.page_svg`.)

    >>> import tilelayout as tl
    >>> svg = layout_svg(tl.parse("S[(4,8):(8@laneid,1@laneid)] + R[2:1@warpid]"), (4, 8),
    ...                  selected=5, tiles_per_row=1)
    >>> svg.count('class="connector"'), svg.count('class="ring"')
    (2, 3)

    >>> import tilelayout as tl
    >>> L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    >>> "line x bank" in layout_svg(L, dtype="float16")
    True
    """
    if views not in ("both", "logical", "physical"):
        raise RenderError(f"views must be both, logical or physical; got {shown(views)}")
    if isinstance(width, bool) or not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise RenderError(f"width must be a whole number of pixels in [{MIN_WIDTH}, {MAX_WIDTH}], "
                          f"got {shown(width)}")
    if color is not None and (not isinstance(color, str) or not color or len(color) > 64):
        raise RenderError(f"colour key must be an axis name, dim:K or bank; got {shown(color)}")
    if tiles_per_row is not None and (isinstance(tiles_per_row, bool)
                                      or not isinstance(tiles_per_row, int) or tiles_per_row < 1):
        raise RenderError(f"tiles_per_row must be a whole number >= 1, got {shown(tiles_per_row)}")
    dims = layout.check_shape(shape)
    n = math.prod(dims)
    marked = _selection(highlight, selected, n)
    if n > MAX_ELEMENTS:
        raise RenderError(
            f"{n:,} elements is more than a picture can show ({MAX_ELEMENTS:,} at most); "
            f"render a smaller shape or use `tilelayout map`"
        )
    r = layout.replica_count
    budget.check("a picture draws", n * layout.replica_count, "cells")
    # one evaluation serves both panels: the physical view keeps the flat arrays
    view = physical_view(layout, dims, dtype or None, order)
    first, key, cval = element_colours(layout, dims, dtype, color, view)
    # the explorer's colouring (one palette source): each value its own colour, by rank
    cidx, colours = rank_colours(cval)

    parts: list[str] = []
    pad, head = 12.0, 52.0
    show_logical = views in ("both", "logical")
    show_physical = views in ("both", "physical")
    panel_w = (width - 3 * pad) / 2 if (show_logical and show_physical) else width - 2 * pad
    height = head
    x_panel = pad
    right = 0.0  # rightmost drawn pixel: the picture widens rather than clip or overlap

    fold = fold_shape(dims)
    # the selection's cells per view: element -> (x, y, w, h) or, physical, a list of them
    ring_at: dict[str, dict[int, tuple[float, float, float, float]]] = {}
    owners_at: dict[int, list[tuple[float, float, float, float]]] = {}
    if show_logical:
        cell = _cell_size(fold.nrows, fold.ncols, panel_w - 24, 900)
        x0, y0 = x_panel + 24, head + 28
        parts.append(_text(x_panel, head + 8, f"logical {format_shape(dims)}", 11, "start", "bold"))
        parts.append(f'<g transform="translate({_n(x0)},{_n(y0)})">')
        parts.extend(_fill_paths(fold.col.astype(float), fold.row.astype(float), 1.0, 1.0, cidx,
                                 cell, colours))
        parts.append("</g>")
        if cell >= 5:
            parts.append(_grid_lines(x0, y0, fold.nrows, fold.ncols, cell))
        if cell >= 14:
            fs = cell * 0.36
            others = [a for a in layout.axes if a != key]
            label_axes = others[:2] if len(layout.axes) > 1 else list(layout.axes)
            lab = [first[a] for a in ([key] if key in first else []) + label_axes][:2]
            for e in range(n):
                s = "/".join(str(int(v[e])) for v in lab)
                parts.append(_text(x0 + (fold.col[e] + 0.5) * cell, y0 + (fold.row[e] + 0.62) * cell,
                                   s, fs))
        if cell >= 8:
            step = max(1, int(math.ceil(12 / cell)))
            for c in range(0, fold.ncols, step):
                parts.append(_text(x0 + (c + 0.5) * cell, y0 - 3, fold.col_label[c], min(9, cell * 0.6)))
            for rr in range(0, fold.nrows, step):
                parts.append(_text(x0 - 3, y0 + (rr + 0.7) * cell, fold.row_label[rr], min(9, cell * 0.6),
                                   "end"))
        height = max(height, y0 + fold.nrows * cell + pad)
        right = max(right, x0 + fold.ncols * cell)
        x_panel = max(x_panel + panel_w, right) + pad
        ring_at["logical"] = {e: (x0 + fold.col[e] * cell, y0 + fold.row[e] * cell, cell, cell)
                              for e in marked}

    if show_physical:
        tiles = view.tiles
        nrows, ncols = view.nrows, view.ncols
        # each tile is a rectangle, a label and its grid lines: counted like cells
        budget.check("the physical view's tiles draw", len(tiles) * (4 + nrows + ncols),
                     "cells")
        sub = max(1, view.sub)
        span = max(1, view.span)
        mesh = view.mesh
        if mesh:
            tr, tc = len(mesh["rows"]), len(mesh["cols"])
            ta = view.tile_axes
            tile_pos = [(mesh["rows"].index(t[ta[0]]), mesh["cols"].index(t[ta[1]])) for t in tiles]
        elif tiles_per_row is not None:
            tc = min(tiles_per_row, len(tiles))
            tr = math.ceil(len(tiles) / tc)
            tile_pos = [(i // tc, i % tc) for i in range(len(tiles))]
        else:
            tc = max(1, min(len(tiles), int((panel_w + 8) // max(1, ncols * 3 + 8))))
            tc = min(tc, max(1, math.ceil(math.sqrt(len(tiles) * nrows / max(ncols, 1)))), len(tiles))
            # like the explorer: prefer a count per row that divides the number of tiles
            even = max(d for d in range(1, tc + 1) if len(tiles) % d == 0)
            tc = even if 2 * even >= tc else tc
            tr = math.ceil(len(tiles) / tc)
            tile_pos = [(i // tc, i % tc) for i in range(len(tiles))]
        gap_cells = 1.5 if len(tiles) > 1 else 0.0
        label_room = 14.0 if len(tiles) > 1 else 0.0
        cell = _cell_size(tr * (nrows + gap_cells), tc * (ncols + gap_cells), panel_w - 24,
                             900 - label_room * tr)
        x0 = x_panel + 24
        y0 = head + 28
        parts.append(_text(x_panel, head + 8, view.title, 11, "start", "bold"))
        tw, th = (ncols + gap_cells) * cell, (nrows + gap_cells) * cell + label_room
        tile, prow, pcol = view.tile, view.row, view.col
        psub = view.subpos if view.subpos is not None else np.zeros(n * r, dtype=np.int64)
        tpos = np.asarray(tile_pos, dtype=np.int64).reshape(-1, 2)
        gx = tpos[tile, 1] * (tw / cell) + pcol + psub / sub
        gy = tpos[tile, 0] * (th / cell) + prow + label_room / cell
        colour = np.repeat(cidx, r)
        # first (element, replica) pair per physical slot wins, like the explorer
        slot = ((tile * nrows + prow) * ncols + pcol) * sub + psub
        _, keep = np.unique(slot, return_index=True)
        parts.append(f'<g transform="translate({_n(x0)},{_n(y0)})">')
        for i, (a, b) in enumerate(tile_pos):
            tx, ty = b * tw, a * th + label_room
            parts.append(f'<rect x="{_n(tx)}" y="{_n(ty)}" width="{_n(ncols * cell)}" '
                         f'height="{_n(nrows * cell)}" fill="{_EMPTY}"/>')
            if len(tiles) > 1:
                label = ", ".join(f"{k}={v}" for k, v in tiles[i].items())
                parts.append(_text(tx, ty - 4, label, 10, "start"))
        parts.extend(_fill_paths(gx[keep], gy[keep], span / sub, 1.0, colour[keep], cell, colours))
        parts.append("</g>")
        if cell >= 5:
            for a, b in tile_pos:
                parts.append(_grid_lines(x0 + b * tw, y0 + a * th + label_room, nrows, ncols, cell))
        if cell / sub >= 14 and n * r <= 4096:
            fs = min(cell / sub * 0.32, cell * 0.36)
            for p in keep.tolist():
                parts.append(_text(x0 + (gx[p] + span / sub / 2) * cell, y0 + (gy[p] + 0.62) * cell,
                                   _index_text(p // r, dims), fs))
        height = max(height, y0 + tr * th + pad)
        right = max(right, x0 + tc * tw, x_panel + 7 * len(view.title))
        for p in np.flatnonzero(np.isin(np.arange(n * r) // r, list(marked))).tolist():
            owners_at.setdefault(p // r, []).append(
                (x0 + gx[p] * cell, y0 + gy[p] * cell, span / sub * cell, cell))

    parts.extend(_selection_svg(ring_at.get("logical", {}), owners_at, selected, dim,
                                (head, right + pad, height)))
    values, first_at = np.unique(cval, return_index=True)
    title = str(layout)
    legend_y = height + 4
    key_label = f"colour = {key.replace('dim:', 'logical dim ')}"
    parts.append(_text(pad, legend_y + 10, key_label, 11, "start", "bold"))
    lx = pad + max(150, 7 * len(key_label) + 12)
    for v, at in zip(values[:16].tolist(), first_at[:16].tolist(), strict=True):
        parts.append(f'<rect x="{_n(lx)}" y="{_n(legend_y)}" width="12" height="12" '
                     f'fill="{colours[cidx[at]]}"/>')
        parts.append(_text(lx + 15, legend_y + 10, str(v), 10, "start"))
        lx += 22 + 7 * len(str(v))
    if values.size > 16:
        # as the page's legend says it
        more = (f"colours repeat every {len(colours)}" if values.size > MAX_COLOURS
                else "each its own colour")
        parts.append(_text(lx, legend_y + 10, f"... {values.size} values in all, {more}", 10, "start"))
    height = legend_y + 24
    width = max(int(width), int(math.ceil(max(right, lx) + pad)))
    sub_title = (f"shape {format_shape(dims)} · {n:,} elements · {r} replica{'s' if r != 1 else ''}"
                 + (f" · dtype {dtype}" if dtype else ""))
    top = [_text(pad, 20, title, 13, "start", "bold"), _text(pad, 38, sub_title, 11, "start")]
    return _svg_text(width, height, top, parts)


def _svg_text(width: float, height: float, top: list[str], parts: list[str]) -> str:
    w, h = int(width), int(math.ceil(height))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" style="{_FONT}">'
        f'<rect width="100%" height="100%" fill="#fff"/><g fill="#222">'
        + "".join(top) + "</g>" + "".join(parts) + "</svg>"
    )


def _index_text(e: int, dims: tuple[int, ...]) -> str:
    """Element ``e``'s logical index as the page writes it (``7,15``)."""
    return ",".join(str(int(v)) for v in np.unravel_index(e, dims))


def _selection(highlight: Sequence[int], selected: int | None, n: int) -> set[int]:
    """The flat indices a selection marks, checked against the ``n`` elements drawn."""
    given = [*highlight, *([] if selected is None else [selected])]
    if not all(isinstance(e, int | np.integer) and not isinstance(e, bool) and 0 <= e < n
               for e in given):
        raise RenderError(f"highlight and selected must be flat element indices in [0, {n}); "
                          f"got {shown(given[:8])}")
    budget.check("a highlight draws", len(given), "cells")
    return {int(e) for e in given}


def _ring(rect: tuple[float, float, float, float], colour: str, width: float) -> str:
    x, y, w, h = rect
    return (f'<rect class="ring" x="{_n(x - width / 2)}" y="{_n(y - width / 2)}" width="{_n(w + width)}" '
            f'height="{_n(h + width)}" fill="none" stroke="{colour}" stroke-width="{_n(width)}"/>')


def _selection_svg(logical: dict[int, tuple[float, float, float, float]],
                   physical: dict[int, list[tuple[float, float, float, float]]],
                   selected: int | None, dim: bool, box: tuple[float, float, float]) -> list[str]:
    """Rings around the marked cells (the selected element's logical cell in blue), the
    connectors from it to the cells holding it, and, when ``dim``, a pale veil below them."""
    if not logical and not physical:
        return []
    top, right, bottom = box
    out = ([f'<rect y="{_n(top)}" width="{_n(right)}" height="{_n(bottom - top)}" fill="#fff" '
            f'fill-opacity="0.68"/>'] if dim else [])
    for e, rect in logical.items():
        out.append(_ring(rect, "#2563eb" if e == selected else "#111", 2 if e == selected else 1))
    for rects in physical.values():
        out.extend(_ring(rect, "#111", 1) for rect in rects)
    if selected is not None and selected in logical:
        lx, ly, lw, lh = logical[selected]
        for px, py, _, ph in physical.get(selected, []):
            x1, y1, x2, y2 = lx + lw, ly + lh / 2, px - 1, py + ph / 2
            mx = (x1 + x2) / 2
            out.append(f'<path class="connector" d="M{_n(x1)} {_n(y1)}C{_n(mx)} {_n(y1)} {_n(mx)} '
                       f'{_n(y2)} {_n(x2)} {_n(y2)}" fill="none" stroke="#2563eb" '
                       f'stroke-opacity="0.75" stroke-width="1.5"/>')
    return out


def notebook_svg(layout: Layout) -> str | None:
    """The picture a notebook shows for ``layout`` (``L._repr_svg_()``); ``None`` (plain
    text instead) when it cannot be drawn, e.g. more elements than a picture holds.

    >>> import tilelayout as tl
    >>> notebook_svg(tl.parse("S[(4096,4096):(4096,1)]")) is None
    True
    """
    try:
        return layout_svg(layout)
    except LayoutError:
        return None
