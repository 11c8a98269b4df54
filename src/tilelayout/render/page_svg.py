"""The explorer page's picture as SVG: its SVG export, drawn on the server.

:func:`page_svg` draws both views where the page draws them (the page sends its geometry
as a :class:`~tilelayout.render.page_view.PageView`), with what the page draws in them,
computed here from the library: each cell's colour (every distinct colour value its own
colour by rank, :func:`~tilelayout.render.palette.rank_colours`), the colour value in
each logical cell and the element's index (``7,15``) in each physical cell, the mark of a
slot several elements share, row and column labels (a physical row of several axes reads
``1·3``, as on the page), tile names, the selection's rings (what the page rings: the
selected slot, or every cell of the selected elements) and the connectors from the
selected element to the cells holding it. Above the views sits the band of the page's
PNG export: the layout, the captions and the legend; the two pictures are laid out alike.

>>> import tilelayout as tl
>>> L = tl.parse("S[(4,8):(8@laneid,1@laneid)]")
>>> svg = page_svg(L, (4, 8), page=simple_view(L, (4, 8), font=7))
>>> svg.startswith("<svg") and ">3,7</text>" in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core import budget
from ..core.compose import Layout
from ..core.errors import shown
from .page_view import PLAIN, GridView, PageView
from .palette import rank_colours
from .physical import PhysicalView, physical_view
from .svg import MAX_ELEMENTS, RenderError, _index_text, _n, element_colours
from .table import fold_shape

#: the band above the views (layout line, captions, legend) and the views' titles below it
BAND, TITLES = 76, 28
#: the page's label font (gridtext.js LABEL_PX) and its monospace advance, in font sizes
LABEL_PX, MONO = 10, 0.602
#: the advances of the page's sans-serif text (legend, titles), in font sizes, as Chromium
#: measures its default sans-serif (DejaVu Sans); capitals 0.7 on average
_SANS = MappingProxyType({ch: w for group, w in (
    ("ijl", 0.278), ("IJ", 0.295), (" .,·", 0.318), (":;", 0.337), ("f", 0.352), ("-", 0.361),
    ("()[]", 0.39), ("t", 0.392), ("r", 0.411), ("s", 0.521), ("z", 0.525), ("c", 0.55),
    ("k", 0.579), ("vxy", 0.592), ("o", 0.612), ("a", 0.613), ("e", 0.615), ("hnu", 0.634),
    ("bdgpq", 0.635), ("0123456789", 0.636), ("w", 0.818), ("=", 0.838), ("m", 0.974),
    ("@…", 1.0)) for ch in group})
_BOLD = 1.1
#: the width the page's PNG export allows a caption per character, in pixels
CAPTION_CHAR = 6.2
_MONO_FONT = "ui-monospace, monospace"
_SANS_FONT = "system-ui, sans-serif"
_LINE_HEIGHT = 1.15  # two-line cell texts, in font sizes (gridtext.js LINE_HEIGHT)
#: where a canvas text's alphabetic baseline sits below (above) the point it is drawn at
#: with textBaseline "middle" ("bottom"), in font sizes: measured in Chromium, the page's
#: fonts at 7-16 px; an SVG text is placed by its alphabetic baseline
MIDDLE, BOTTOM = 0.25, -0.1875


def sans_width(s: str, px: float) -> float:
    """About how wide the page's sans-serif text ``s`` is at ``px`` pixels.

    >>> sans_width("10", 11)
    13.992
    """
    return px * sum(_SANS.get(ch, 0.7 if ch.isupper() else 0.61) for ch in s)


def _esc(s: str) -> str:
    return html.escape(s, quote=True)


class _Grid:
    """One view: the page's geometry plus what its cells hold (per cell key)."""

    def __init__(self, g: GridView, side: str, counts: tuple[int, int, int, int],
                 fill: np.ndarray, text: Callable[[int], str], rows: Sequence[str],
                 cols: Sequence[str], heads: Sequence[tuple[str, str]],
                 mark: np.ndarray | None = None) -> None:
        ntiles, nrows, ncols, sub = counts
        if (len(g.rows), len(g.cols), len(g.tiles)) != (nrows + 1, ncols + 1, ntiles):
            raise RenderError(
                f"view.{side} lays out {len(g.rows) - 1} rows, {len(g.cols) - 1} columns and "
                f"{len(g.tiles)} tiles; the {side} view has {nrows}, {ncols} and {ntiles}")
        ncells = ntiles * nrows * ncols * sub
        if any(k >= ncells for k in g.ring) or g.primary >= ncells:
            raise RenderError(f"view.{side}.ring and primary must be cell keys below {ncells}, "
                              f"got {shown([*g.ring[:4], g.primary])}")
        self.g, self.counts, self.fill, self.text = g, counts, fill, text
        self.row_labels, self.col_labels, self.heads, self.mark = rows, cols, heads, mark
        self.sw, self.ch = g.cell
        self.sub = sub

    def unkey(self, key: np.ndarray) -> tuple[np.ndarray, ...]:
        _, nrows, ncols, sub = self.counts
        s = key % sub
        c = (key // sub) % ncols
        r = (key // (sub * ncols)) % nrows
        return key // (sub * ncols * nrows), r, c, s

    def xy(self, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each key's (sub-)cell corner, in content pixels."""
        t, r, c, s = self.unkey(key)
        tiles, rows, cols = (np.asarray(a, dtype=float) for a in (self.g.tiles, self.g.rows, self.g.cols))
        return tiles[t, 0] + cols[c] + s * self.sw, tiles[t, 1] + rows[r]

    def rect(self, key: int, whole: bool = False) -> tuple[float, float, float, float]:
        """A cell's rectangle: a sub-cell, or with ``whole`` all of its cell."""
        t, r, c, s = (int(v) for v in self.unkey(np.array(key)))
        x = self.g.tiles[t][0] + self.g.cols[c]
        y = self.g.tiles[t][1] + self.g.rows[r]
        if whole or self.sub == 1:
            return x, y, self.sw * self.sub, self.ch
        return x + s * self.sw, y, self.sw, self.ch


def _cell_text(x: float, y: float, s: str, px: int, lines: int) -> str:
    """A cell's text centred on ``(x, y)`` (the page's ``_label``), two lines broken after
    the last comma when ``lines`` is 2."""
    k = s.rfind(",")
    if lines == 2 and k >= 0:
        dy = px * _LINE_HEIGHT / 2
        return _cell_text(x, y - dy, s[:k + 1], px, 1) + _cell_text(x, y + dy, s[k + 1:], px, 1)
    return f'<text x="{_n(x)}" y="{_n(y + 0.5 + px * MIDDLE)}">{_esc(s)}</text>'


def _texts(px: int, colour: str, body: list[str]) -> list[str]:
    if not body:
        return []
    return [f'<g font-size="{px}" font-family="{_MONO_FONT}" fill="{colour}" text-anchor="middle">',
            *body, "</g>"]


def _cells(v: _Grid, scale: Sequence[str], th: Mapping[str, str]) -> list[str]:
    """The cells (runs of one colour merged), the blank between them, the shared-slot marks
    and the cell texts, as the page paints them (gridpaint.js ``render``)."""
    g, (ntiles, nrows, ncols, sub) = v.g, v.counts
    gap, subgap = g.gaps
    out = [f'<rect width="{_n(g.size[0])}" height="{_n(g.size[1])}" fill="{th["bg"]}"/>']
    tile_w, tile_h = g.cols[-1], g.rows[-1]
    if not gap:
        out += [f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(tile_w)}" height="{_n(tile_h)}" '
                f'fill="{th["tileBg"]}"/>' for x, y in g.tiles]
    keys = np.arange(ntiles * nrows * ncols * sub)
    x, y = v.xy(keys)
    colour = v.fill
    start = np.ones(keys.size, dtype=bool)
    start[1:] = ~((y[1:] == y[:-1]) & (np.abs(x[1:] - x[:-1] - v.sw) < 1e-6)
                  & (colour[1:] == colour[:-1]))
    begins = np.flatnonzero(start)
    ends = np.append(begins[1:], keys.size) - 1
    paths: dict[int, list[str]] = {}
    for b, e in zip(begins.tolist(), ends.tolist(), strict=True):
        w = x[e] + v.sw - x[b]
        paths.setdefault(int(colour[b]), []).append(
            f"M{_n(x[b])} {_n(y[b])}h{_n(w)}v{_n(v.ch)}h{_n(-w)}z")
    out += [f'<path fill="{scale[c] if c >= 0 else th["empty"]}" d="{"".join(d)}"/>'
            for c, d in sorted(paths.items())]
    blank = []
    for tx, ty in g.tiles:
        for c in range(ncols):
            for s in range(sub):
                w = gap if s == sub - 1 else subgap
                if w:
                    blank.append(f"M{_n(tx + g.cols[c] + (s + 1) * v.sw - w)} {_n(ty)}"
                                 f"h{_n(w)}v{_n(tile_h)}h{_n(-w)}z")
        if gap:
            blank += [f"M{_n(tx)} {_n(ty + g.rows[r] + v.ch - gap)}h{_n(tile_w)}v{_n(gap)}"
                      f"h{_n(-tile_w)}z" for r in range(nrows)]
    if blank:
        out.append(f'<path fill="{th["bg"]}" d="{"".join(blank)}"/>')
    if v.mark is not None and v.mark.any():
        mk = np.flatnonzero(v.mark)
        mx, my = v.xy(mk)
        a, b = max(3.0, v.sw / 3), max(3.0, v.ch / 3)
        d = "".join(f"M{_n(px + v.sw - gap - a)} {_n(py)}h{_n(a)}v{_n(b)}z"
                    for px, py in zip(mx.tolist(), my.tolist(), strict=True))
        out.append(f'<path class="shared" fill="{th["mark"]}" d="{d}"/>')
    if g.font:
        filled = np.flatnonzero(colour >= 0)
        fx, fy = v.xy(filled)
        out += _texts(g.font, th["text"], [
            _cell_text(px + v.sw / 2, py + v.ch / 2, v.text(k), g.font, g.lines)
            for k, px, py in zip(filled.tolist(), fx.tolist(), fy.tolist(), strict=True)])
    return out


def _heads(v: _Grid, th: Mapping[str, str]) -> list[str]:
    """The tile names the page writes (its name or its short name) above their tiles."""
    g = v.g
    names = [(x, y, v.heads[t][h - 1]) for t, ((x, y), h) in
             enumerate(zip(g.tiles, g.heads, strict=False)) if h and t < len(v.heads)]
    if not (g.header and names):
        return []
    return [f'<g font-size="11" font-weight="600" font-family="{_SANS_FONT}" fill="{th["head"]}">',
            *(f'<text x="{_n(x)}" y="{_n(y - 8 + 11 * MIDDLE)}">{_esc(s)}</text>' for x, y, s in names),
            "</g>"]


def _labels(v: _Grid, th: Mapping[str, str]) -> list[str]:
    """Row labels left of each tile row, column labels above each tile column
    (gridpaint.js ``_labels``, painted over a dimmed selection): thinned as the page thins
    them, and a label that does not fit its band is left out."""
    g = v.g
    out = []
    (ml, mt), (w, h) = g.margin, g.size
    half, body = LABEL_PX / 2, []
    first_of_row: dict[float, tuple[float, int]] = {}
    for t, (x, y) in enumerate(g.tiles):
        if y not in first_of_row or x < first_of_row[y][0]:
            first_of_row[y] = (x, t)
    for ty in sorted(first_of_row):
        for r in range(0, len(v.row_labels), g.steps[0]):
            yy = ty + g.rows[r] + v.ch / 2
            s = v.row_labels[r]
            if s and half + mt <= yy <= h - half and LABEL_PX * MONO * len(s) <= ml - 6:
                body.append(f'<text x="{_n(ml - 4)}" y="{_n(yy + LABEL_PX * MIDDLE)}" '
                            f'text-anchor="end">{_esc(s)}</text>')
    cw = v.sw * v.sub
    for tx in sorted({x for x, _ in g.tiles}):
        for c in range(0, len(v.col_labels), g.steps[1]):
            xx, s = tx + g.cols[c] + cw / 2, v.col_labels[c]
            lw = LABEL_PX * MONO * len(s)
            if s and xx - lw / 2 >= ml and xx + lw / 2 <= w:
                body.append(f'<text x="{_n(xx)}" y="{_n(mt - 2 + LABEL_PX * BOTTOM)}" '
                            f'text-anchor="middle">{_esc(s)}</text>')
    if body:
        out += [f'<g class="labels" font-size="{LABEL_PX}" font-family="{_MONO_FONT}" '
                f'fill="{th["label"]}">', *body, "</g>"]
    return out


def _ring(x: float, y: float, w: float, h: float, colour: str, width: float) -> str:
    return (f'<rect class="ring" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            f'fill="none" stroke="{colour}" stroke-width="{_n(width)}"/>')


def _highlight(v: _Grid, scale: Sequence[str], th: Mapping[str, str], dim: bool) -> list[str]:
    """The selection as the page overlays it (gridoverlay.js ``_highlight``): the rest
    paled when ``dim``, each ringed cell ringed and redrawn, the primary one ringed in the
    primary colour."""
    g = v.g
    if not g.ring:
        return []
    out = [f'<rect width="{_n(g.size[0])}" height="{_n(g.size[1])}" fill="{th["dim"]}"/>'] if dim else []
    gap, subgap = g.gaps
    rects = [(k, *v.rect(k, g.whole)) for k in g.ring]
    out += [_ring(x - 0.5, y - 0.5, w + 1 - gap, h + 1 - gap, th["ring"], 1) for _, x, y, w, h in rects]
    texts = []
    for k, x, y, w, h in rects:
        parts = ([(k + s, x + s * v.sw, v.sw - (gap if s == v.sub - 1 else subgap)) for s in range(v.sub)]
                 if g.whole and v.sub > 1 else [(k, x, w - gap)])
        for key, px, pw in parts:
            c = int(v.fill[key])
            out.append(f'<rect x="{_n(px)}" y="{_n(y)}" width="{_n(pw)}" height="{_n(h - gap)}" '
                       f'fill="{scale[c] if c >= 0 else th["empty"]}"/>')
            if g.font and c >= 0:
                texts.append(_cell_text(px + (v.sw if g.whole and v.sub > 1 else w) / 2, y + v.ch / 2,
                                        v.text(key), g.font, g.lines))
    out += _texts(g.font, th["text"], texts)
    if g.primary >= 0:
        x, y, w, h = v.rect(g.primary)
        out.append(_ring(x - 1.5, y - 1.5, w + 2, h + 2, th["primary"], 2))
    return out


def _connectors(lv: _Grid, pv: _Grid, dl: tuple[float, float], dp: tuple[float, float],
                colour: str) -> list[str]:
    """From the selected element's logical cell to each cell holding it (at most 64, the
    rest counted), as the page draws them (selection.js ``connectorsSvg``)."""
    if lv.g.primary < 0 or not pv.g.ring:
        return []
    lx, ly, lw, lh = lv.rect(lv.g.primary)
    x1, y1 = dl[0] + lx + lw, dl[1] + ly + lh / 2
    out = []
    for k in pv.g.ring[:64]:
        px, py, _, ph = pv.rect(k)
        x2, y2 = dp[0] + px - 1, dp[1] + py + ph / 2
        mx = (x1 + x2) / 2
        out.append(f'<path class="connector" d="M{_n(x1)},{_n(y1)} C{_n(mx)},{_n(y1)} {_n(mx)},'
                   f'{_n(y2)} {_n(x2)},{_n(y2)}" fill="none" stroke="{colour}" stroke-width="1.5" '
                   f'stroke-opacity="0.75"/><circle cx="{_n(x2)}" cy="{_n(y2)}" r="2.5" fill="{colour}"/>')
    out.append(f'<circle cx="{_n(x1)}" cy="{_n(y1)}" r="2.5" fill="{colour}"/>')
    if len(pv.g.ring) > 64:
        out.append(f'<text x="{_n(x1 + 6)}" y="{_n(y1 - 6)}" font-size="11" font-family="{_SANS_FONT}" '
                   f'fill="{colour}">'
                   f"+{len(pv.g.ring) - 64} more owners</text>")
    return out


def _band(page: PageView, head: str, values: np.ndarray, scale: Sequence[str], width: float) -> list[str]:
    """The layout line, the captions and the legend (at most 24 swatches, as many as fit),
    as the page's PNG export writes them."""
    muted = f'font-size="11" font-family="{_SANS_FONT}" fill="{page.theme["head"]}"'
    out = [f'<text x="10" y="16" font-size="12" font-family="{_MONO_FONT}" '
           f'fill="{page.theme["text"]}">{_esc(head)}</text>']
    out += [f'<text x="10" y="{32 + 13 * i}" {muted}>{_esc(c)}</text>'
            for i, c in enumerate(page.captions[:2])]
    key = f"colour = {page.what}:"
    out.append(f'<text x="10" y="66" {muted}>{_esc(key)}</text>')
    lx = 10 + sans_width(key, 11) + 8
    shown_values = values[:24].tolist()
    for i, v in enumerate(shown_values):
        if lx > width - 40:
            break
        out.append(f'<rect x="{_n(lx)}" y="57" width="10" height="10" fill="{scale[i % len(scale)]}"/>'
                   f'<text x="{_n(lx + 13)}" y="66" {muted}>{v}</text>')
        lx += 20 + sans_width(str(v), 11)
    if values.size > len(shown_values):
        more = f"… {values.size} values" + (f", colours repeat every {len(scale)}"
                                            if values.size > len(scale) else ", each its own colour")
        out.append(f'<text x="{_n(lx)}" y="66" {muted}>{_esc(more)}</text>')
    return out


def _part_labels(parts: Sequence[Mapping[str, Any]], count: int) -> list[str]:
    """A physical row's (column's) label: its axes' values joined by ``·`` (model.js)."""
    if not parts:
        return [""] * count
    out = []
    for i in range(count):
        vals = []
        for p in reversed(parts):
            vs = p["values"]
            vals.append(str(vs[i % len(vs)]))
            i //= len(vs)
        out.append("·".join(reversed(vals)))
    return out


def _physical(view: PhysicalView, g: GridView, cidx: np.ndarray, dims: tuple[int, ...]) -> _Grid:
    """The physical view's cells: the first pair drawn in each (sub-)cell (a pair spans
    ``span`` cells), the cells different elements share, labels and tile names."""
    r, n = view.replicas, int(np.prod(dims))
    sub, span, nt = max(1, view.sub), max(1, view.span), len(view.tiles)
    ncells = nt * view.nrows * view.ncols * sub
    psub = view.subpos if view.subpos is not None else np.zeros(n * r, dtype=np.int64)
    base = (view.tile * view.nrows + view.row) * view.ncols + view.col
    keys = np.stack([(base + k) * sub + psub for k in range(span)], axis=1).reshape(-1)
    pairs = np.repeat(np.arange(n * r), span)
    first = np.full(ncells, -1, dtype=np.int64)
    first[keys[::-1]] = pairs[::-1]  # the lowest pair of each cell is written last
    elem = pairs // r
    lo = np.full(ncells, n, dtype=np.int64)
    hi = np.full(ncells, -1, dtype=np.int64)
    np.minimum.at(lo, keys, elem)
    np.maximum.at(hi, keys, elem)
    fill = np.where(first >= 0, cidx[np.maximum(first, 0) // r], -1)
    if view.rows:
        rows = _part_labels(view.rows, view.nrows)
    else:
        fold = view.fold
        rows = [str(fold["values"][i * fold["width"]]) if i * fold["width"] < len(fold["values"])
                else "" for i in range(view.nrows)] if fold else [""] * view.nrows
    cols = (_part_labels(view.cols, view.ncols) if view.cols
            else [f"+{c}" for c in range(view.ncols)] if view.fold else [""] * view.ncols)
    heads = [(" · ".join(f"{a} {v}" for a, v in t.items()), "·".join(str(v) for v in t.values()))
             if view.tile_axes else ("", "") for t in view.tiles]
    return _Grid(g, "physical", (nt, view.nrows, view.ncols, sub), fill,
                 lambda k: _index_text(int(first[k] // r), dims), rows, cols, heads,
                 mark=(hi > lo) & (first >= 0))


def page_svg(layout: Layout, shape: Sequence[int] | None = None, dtype: str | None = None,
             color: str | None = None, *, page: PageView, dim: bool = False,
             order: Sequence[str] | None = None) -> str:
    """Both views of ``layout`` over ``shape`` as the explorer page shows them (``page``),
    in light colours, with the band of layout line, captions and legend above; SVG text.

    ``color`` is the colour key (default: the page's default), ``dim`` pales what the
    selection does not mark, ``order`` orders the physical tiles (as for
    :func:`~tilelayout.render.physical.physical_view`).

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(4,8):(8@laneid,1@laneid)] + R[2:1@warpid]")
    >>> v = simple_view(L, (4, 8), ring={"logical": [5], "physical": [5, 37]}, primary=5)
    >>> svg = page_svg(L, (4, 8), page=v)
    >>> svg.count('class="connector"'), svg.count('class="ring"')
    (2, 4)
    """
    dims = layout.check_shape(shape)
    n = math.prod(dims)
    if n > MAX_ELEMENTS:
        raise RenderError(f"{n:,} elements is more than a picture can show ({MAX_ELEMENTS:,} at most)")
    budget.check("a picture draws", n * layout.replica_count, "cells")
    budget.check("a highlight draws", len(page.logical.ring) + len(page.physical.ring), "cells")
    view = physical_view(layout, dims, dtype or None, order)
    _, _, cval = element_colours(layout, dims, dtype, color, view)
    cidx, scale = rank_colours(cval)
    fold = fold_shape(dims)
    lkey = fold.row * fold.ncols + fold.col
    lfill = np.full(fold.nrows * fold.ncols, -1, dtype=np.int64)
    lflat = np.full(fold.nrows * fold.ncols, -1, dtype=np.int64)
    lfill[lkey], lflat[lkey] = cidx, np.arange(n)
    rows = list(fold.row_label) if fold.row_dims or fold.wrap else [""] * fold.nrows
    lv = _Grid(page.logical, "logical", (1, fold.nrows, fold.ncols, 1), lfill,
               lambda k: str(int(cval[lflat[k]])), rows, list(fold.col_label), [("", "")])
    pv = _physical(view, page.physical, cidx, dims)
    th = page.theme
    top = BAND + TITLES
    (lw, lh), (pw, ph) = page.logical.size, page.physical.size
    dl, dp = (10.0, float(top)), (30.0 + lw, float(top))
    head = f"{layout} shape ({', '.join(map(str, dims))})"
    width = math.ceil(max(lw + pw + 40, math.ceil(max(
        12 * MONO * len(head), *(CAPTION_CHAR * len(c) for c in page.captions))) + 20))
    height = math.ceil(max(lh, ph) + top + 10)
    parts = [f'<rect width="100%" height="100%" fill="{th["bg"]}"/>',
             *_band(page, head, np.unique(cval), scale, width)]
    title = f"physical: {view.title}"
    squeeze = _BOLD * sans_width(title, 12) > max(60, pw)
    parts.append(f'<g font-size="12" font-weight="bold" font-family="{_SANS_FONT}" fill="{th["text"]}">'
                 f'<text x="10" y="{top - 6}">logical</text><text x="{_n(dp[0])}" y="{top - 6}"'
                 + (f' textLength="{_n(max(60, pw))}" lengthAdjust="spacingAndGlyphs"' if squeeze else "")
                 + f">{_esc(title)}</text></g>")
    for v, (ox, oy), side in ((lv, dl, "logical"), (pv, dp, "physical")):
        parts.append(f'<g class="{side}" transform="translate({_n(ox)},{_n(oy)})">')
        parts += _cells(v, scale, th) + _heads(v, th) + _highlight(v, scale, th, dim) + _labels(v, th)
        parts.append("</g>")
    parts += _connectors(lv, pv, dl, dp, th["primary"])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>")


def simple_view(layout: Layout, shape: Sequence[int] | None = None, dtype: str | None = None,
                *, cell: tuple[float, float] = (24.0, 24.0), font: int = 0,
                ring: Mapping[str, Sequence[int]] | None = None, primary: int = -1,
                order: Sequence[str] | None = None) -> PageView:
    """A page view for pictures drawn without a page (tests, docs): cells of ``cell``
    pixels with 1 px between them (from 6 px up), no group gaps, the physical tiles in one row, text of
    size ``font`` in both views, ``ring`` the ringed cell keys per view and ``primary``
    the logical key ringed strongly (the selected element).

    >>> import tilelayout as tl
    >>> simple_view(tl.parse("S[(4,8):(8@laneid,1@laneid)]"), (4, 8)).logical.size
    (226.0, 116.0)
    """
    dims = layout.check_shape(shape)
    fold = fold_shape(dims)
    view = physical_view(layout, dims, dtype or None, order)
    sw, ch = cell
    ring = ring or {}

    def grid(nrows: int, ncols: int, ntiles: int, sub: int, side: str) -> GridView:
        header = 16.0 if ntiles > 1 else 0.0
        tw, th = ncols * sub * sw, nrows * ch
        tiles = tuple((30.0 + t * (tw + 10), 16.0 + header) for t in range(ntiles))
        return GridView((sw, ch), tuple(r * ch for r in range(nrows + 1)),
                        tuple(c * sub * sw for c in range(ncols + 1)), tiles,
                        (30.0 + ntiles * (tw + 10) - 6, 16.0 + header + th + 4), (30.0, 16.0),
                        header, (1.0 if ch >= 6 else 0.0, 1.0 if sw >= 10 else 0.0), font, 1, (1, 1),
                        tuple(1 for _ in range(ntiles)) if ntiles > 1 else (),
                        tuple(ring.get(side, ())), primary if side == "logical" else -1)

    return PageView(grid(fold.nrows, fold.ncols, 1, 1, "logical"),
                    grid(view.nrows, view.ncols, len(view.tiles), max(1, view.sub), "physical"),
                    "colour", ("logical", "physical"), PLAIN)
