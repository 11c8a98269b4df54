"""What the explorer page shows, for :func:`~tilelayout.render.svg.layout_svg` to draw.

The page's SVG export is drawn here, on the server, from the page's view state: each
view's cell size at the current zoom (cells may be rectangular) and cell-text size, the
colour key's name, and the two captions. With a :class:`PageView`, ``layout_svg`` draws
what the page draws: every distinct colour value its own colour by rank from
:func:`~tilelayout.render.palette.colour_scale`, the colour value in each logical cell and
the element's index (``7,15``) in each physical cell, row and column labels on both
views, and a band above them with the layout, the captions and the legend.

>>> v = PageView.parse({"logical": {"cell": [16, 16], "font": 7},
...                     "physical": {"cell": [24, 16], "font": 0}, "what": "laneid"})
>>> v.logical_cell, v.physical_font, v.what
((16.0, 16.0), 0, 'laneid')
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import LayoutError, shown
from .palette import MAX_COLOURS, colour_scale

#: cell edges and text sizes accepted from a page, in pixels
MAX_CELL, MAX_FONT = 400.0, 64
#: the height of the band above the views (layout line, two captions, legend)
BAND = 76
#: the line height of a two-line cell text, in text sizes (the page's)
_LINE_HEIGHT = 1.15
_LABEL = 'font-size="10" fill="#78716c"'
_MUTED = 'font-size="11" fill="#44403c"'


class PageViewError(LayoutError):
    """Page view state that is not cell sizes, text sizes and caption strings."""


@dataclass(frozen=True)
class PageView:
    """The page's view state: ``(width, height)`` of a cell and the cell-text size (0: no
    text) per view, the colour key's name ``what``, the ``captions`` and, per view, the
    lines a cell's text takes (2: ``7,15`` breaks after its last comma, as the page does).

    >>> PageView((10.0, 10.0), 0, (12.0, 10.0), 7, "bank", ("a", "b")).physical_cell
    (12.0, 10.0)
    """

    logical_cell: tuple[float, float]
    logical_font: int
    physical_cell: tuple[float, float]
    physical_font: int
    what: str
    captions: tuple[str, ...] = ()
    lines: tuple[int, int] = (1, 1)

    @classmethod
    def parse(cls, data: Any) -> PageView:
        """A page view from its JSON form (see the module docstring).

        >>> PageView.parse({"logical": {"cell": [1, 2]}})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tilelayout.render.page_view.PageViewError: view.logical.cell must be [width, height] ...
        """
        if not isinstance(data, Mapping):
            raise PageViewError(f"view must be an object, got {type(data).__name__}")
        got, lines = {}, []
        for side in ("logical", "physical"):
            part = data.get(side)
            cell = part.get("cell") if isinstance(part, Mapping) else None
            font = part.get("font") if isinstance(part, Mapping) else None
            if not (isinstance(cell, list) and len(cell) == 2
                    and all(isinstance(v, int | float) and not isinstance(v, bool)
                            and 0 < v <= MAX_CELL for v in cell)
                    and isinstance(font, int) and not isinstance(font, bool)
                    and 0 <= font <= MAX_FONT):
                raise PageViewError(f"view.{side}.cell must be [width, height] in (0, {MAX_CELL:g}] "
                                    f"pixels; got {shown(cell)} and a font")
            got[side] = ((float(cell[0]), float(cell[1])), font)
            lines.append(part.get("lines", 1))
            if lines[-1] not in (1, 2) or isinstance(lines[-1], bool):
                raise PageViewError(f"view.{side}.lines must be 1 or 2, got {shown(lines[-1])}")
        what, captions = data.get("what", ""), data.get("captions", [])
        if not isinstance(what, str) or len(what) > 200:
            raise PageViewError(f"view.what must be a short string, got {shown(what)}")
        if not (isinstance(captions, list) and len(captions) <= 4
                and all(isinstance(c, str) and len(c) <= 2000 for c in captions)):
            raise PageViewError("view.captions must be a list of at most 4 strings")
        return cls(*got["logical"], *got["physical"], what, tuple(captions), (lines[0], lines[1]))


def rank_colours(values: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    """The page's colouring: each distinct value its rank (in sorted order), cycling
    through a colour scale of at most ``MAX_COLOURS`` colours; ``(index, scale)``.

    >>> idx, scale = rank_colours(np.array([7, 3, 7, 40]))
    >>> idx.tolist(), len(scale)
    ([1, 0, 1, 2], 3)
    """
    distinct, rank = np.unique(values, return_inverse=True)
    scale = colour_scale(min(distinct.size, MAX_COLOURS))
    return (rank.reshape(-1) % max(1, len(scale))).astype(np.int64), scale


def label(x: float, y: float, s: str, anchor: str) -> str:
    """A row or column label in the page's label colour.

    >>> label(1, 2, "7", "end")
    '<text x="1" y="2" text-anchor="end" font-size="10" fill="#78716c">7</text>'
    """
    return (f'<text x="{x:g}" y="{y:g}" text-anchor="{anchor}" {_LABEL}>'
            f"{html.escape(s)}</text>")


def cell_text(x: float, y: float, s: str, px: int, lines: int = 1) -> str:
    """A cell's text centred on ``(x, y)`` at the page's size ``px``; with ``lines=2``
    broken after its last comma onto two lines (the page's line height: 1.15 sizes).

    >>> cell_text(5, 5, "7,15", 7, lines=2).count("<text")
    2

    >>> cell_text(5, 5, "7,15", 7)  # doctest: +ELLIPSIS
    '<text x="5" y="5.5" font-size="7" text-anchor="middle" ... fill="#1c1917">7,15</text>'
    """
    k = s.rfind(",")
    if lines == 2 and k >= 0:
        dy = px * _LINE_HEIGHT / 2
        return cell_text(x, y - dy, s[:k + 1], px) + cell_text(x, y + dy, s[k + 1:], px)
    return (f'<text x="{round(x, 1):g}" y="{round(y + 0.5, 1):g}" font-size="{px}" '
            f'text-anchor="middle" dominant-baseline="middle" fill="#1c1917">{html.escape(s)}</text>')


def band(view: PageView, head: str, values: np.ndarray, scale: tuple[str, ...],
         width: float) -> list[str]:
    """The band above the views: the layout line, the captions, the legend (at most 24
    swatches, as many as fit ``width``).

    >>> "colour = bank:" in "".join(band(PageView((1, 1), 0, (1, 1), 0, "bank"), "L",
    ...                                  np.array([0, 1]), ("#000000", "#ffffff"), 400))
    True
    """
    out = [f'<text x="10" y="16" font-size="12">{html.escape(head)}</text>']
    out += [f'<text x="10" y="{32 + 13 * i}" {_MUTED}>{html.escape(c)}</text>'
            for i, c in enumerate(view.captions[:2])]
    out.append(f'<text x="10" y="66" {_MUTED}>colour = {html.escape(view.what)}:</text>')
    lx = 10 + 7 * (10 + len(view.what))
    shown_values = values[:24].tolist()
    for i, v in enumerate(shown_values):
        if lx > width - 40:
            break
        out.append(f'<rect x="{lx:g}" y="57" width="10" height="10" fill="{scale[i % len(scale)]}" '
                   f'stroke="#00000026"/><text x="{lx + 13:g}" y="66" {_MUTED}>{v}</text>')
        lx += 20 + 7 * len(str(v))
    if values.size > len(shown_values):
        more = f"… {values.size} values" + (f", colours repeat every {len(scale)}"
                                            if values.size > len(scale) else ", each its own colour")
        out.append(f'<text x="{lx:g}" y="66" {_MUTED}>{more}</text>')
    return out
