"""What the explorer page shows, for :func:`~tilelayout.render.page_svg.page_svg` to draw.

The page's SVG export is drawn on the server from the page's view state, so that the
picture is the page's: for each view (:class:`GridView`) the geometry the page computed at
the current zoom (where each tile, row and column sits, the sub-cell size, the gaps
between cells, the label bands), the cell-text size and lines, which labels it thins out,
which tile headers it writes and what its selection rings; for the whole picture the
colour key's name, the two captions and the page's light theme (its colours by role).
Nothing about where things sit is computed twice: the server takes the page's positions
and draws its own cells, colours, texts and labels there.

>>> g = GridView.parse({"cell": [16, 16], "rows": [0, 16], "cols": [0, 16], "tiles": [[22, 16]],
...                     "size": [42, 36]}, "logical")
>>> g.cell, g.tiles, g.ring
((16.0, 16.0), ((22.0, 16.0),), ())
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core.errors import LayoutError, shown

#: coordinates, sizes and text sizes accepted from a page, in pixels
MAX_PX, MAX_FONT = 1e7, 64
#: the most rows, columns, tiles or ringed cells one view may list
MAX_ITEMS = 1 << 20
#: the colour roles of the page's theme (static/theme.js) a picture uses
THEME_ROLES = ("bg", "empty", "tileBg", "head", "label", "text", "dim", "ring", "primary", "mark")
#: a plain light theme for pictures drawn without a page (tests, docs)
PLAIN = MappingProxyType({
    "bg": "#ffffff", "empty": "#efedea", "tileBg": "#e7e5e4", "head": "#44403c",
    "label": "#57534e", "text": "#1c1917", "dim": "rgba(255,255,255,0.68)", "ring": "#111111",
    "primary": "#2563eb", "mark": "#b91c1c"})
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|rgba?\([0-9., ]{5,40}\)")


class PageViewError(LayoutError):
    """Page view state that is not the page's geometry, text sizes, captions and colours."""


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) \
        and -MAX_PX <= v <= MAX_PX


def expand_runs(v: Any) -> list[Any] | None:
    """A list sent as runs, ``{"start": x0, "runs": [[step, count], ...]}`` (``x0``, then
    ``count`` times ``step`` added, run after run: how the page sends its evenly spaced
    positions and cell keys), as a list; a plain list as it is; ``None`` when neither or
    longer than ``MAX_ITEMS``.

    >>> expand_runs({"start": 4, "runs": [[28, 2], [31, 1]]}), expand_runs([1, 2])
    ([4, 32, 60, 91], [1, 2])
    """
    if isinstance(v, list | tuple):
        return list(v) if len(v) <= MAX_ITEMS else None
    if not (isinstance(v, Mapping) and _number(v.get("start")) and isinstance(v.get("runs"), list)):
        return None
    runs = v["runs"]
    if not all(isinstance(r, list) and len(r) == 2 and _number(r[0]) and isinstance(r[1], int)
               and not isinstance(r[1], bool) and r[1] >= 1 for r in runs) \
            or sum(r[1] for r in runs) >= MAX_ITEMS:
        return None
    steps = np.repeat([r[0] for r in runs], [r[1] for r in runs])
    return np.concatenate([[v["start"]], steps]).cumsum().tolist()


def _numbers(part: Mapping[str, Any], side: str, key: str, count: int | None = None,
             default: Any = None) -> tuple[float, ...]:
    v = expand_runs(part.get(key, default))
    if not (v is not None and (count is None or len(v) == count) and all(_number(x) for x in v)):
        want = f"{count} numbers" if count else "a list of numbers (or runs)"
        raise PageViewError(f"view.{side}.{key} must be {want} (pixels), got "
                            f"{shown(part.get(key, default))}")
    return tuple(float(x) for x in v)


def _ints(part: Mapping[str, Any], side: str, key: str) -> tuple[int, ...]:
    v = expand_runs(part.get(key, []))
    if not (v is not None and all(isinstance(x, int | float) and not isinstance(x, bool)
                                  and float(x).is_integer() and 0 <= x for x in v)):
        raise PageViewError(f"view.{side}.{key} must be a list of whole numbers >= 0 (or "
                            f"runs), got {shown(part.get(key, []))}")
    return tuple(int(x) for x in v)


@dataclass(frozen=True)
class GridView:
    """One view's grid as the page lays it out, in the view's content pixels.

    ``cell`` is a (sub-)cell's ``(width, height)``; ``rows`` / ``cols`` the top / left of
    each row / column inside a tile (one more entry: the tile's far edge; sent as a list or
    as runs, see :func:`expand_runs`, like ``ring``); ``tiles`` each
    tile's top-left corner; ``size`` the view's content size; ``margin`` the row- and
    column-label bands; ``header`` the room above a tile for its name; ``gaps`` the blank
    between cells and between sub-cells; ``font`` / ``lines`` the cell text (0: none);
    ``steps`` every how many rows / columns a label is written; ``heads`` per tile: 0 no
    name, 1 its name, 2 its short name; ``ring`` the cell keys the selection rings,
    ``primary`` the one ringed more strongly (-1: none), ``whole`` whether a ring takes a
    whole cell (all its sub-cells).

    >>> GridView((8.0, 8.0), rows=(0.0, 8.0), cols=(0.0, 8.0), tiles=((2.0, 2.0),)).gaps
    (1.0, 0.0)
    """

    cell: tuple[float, float]
    rows: tuple[float, ...]
    cols: tuple[float, ...]
    tiles: tuple[tuple[float, float], ...]
    size: tuple[float, float] = (0.0, 0.0)
    margin: tuple[float, float] = (22.0, 16.0)
    header: float = 0.0
    gaps: tuple[float, float] = (1.0, 0.0)
    font: int = 0
    lines: int = 1
    steps: tuple[int, int] = (1, 1)
    heads: tuple[int, ...] = ()
    ring: tuple[int, ...] = ()
    primary: int = -1
    whole: bool = False

    @classmethod
    def parse(cls, part: Any, side: str) -> GridView:
        """One view's grid from its JSON form (keys as the fields; ``cell``, ``rows``,
        ``cols``, ``tiles`` and ``size`` required).

        >>> GridView.parse({"cell": [0, 5]}, "logical")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tilelayout.render.page_view.PageViewError: view.logical.cell must be [width, height] ...
        """
        if not isinstance(part, Mapping):
            raise PageViewError(f"view.{side} must be an object, got {type(part).__name__}")
        cell = part.get("cell")
        if not (isinstance(cell, list) and len(cell) == 2 and all(_number(v) and v > 0 for v in cell)):
            raise PageViewError(f"view.{side}.cell must be [width, height] in pixels > 0, "
                                f"got {shown(cell)}")
        tiles = part.get("tiles")
        if not (isinstance(tiles, list) and 0 < len(tiles) <= MAX_ITEMS
                and all(isinstance(t, list) and len(t) == 2 and all(map(_number, t)) for t in tiles)):
            raise PageViewError(f"view.{side}.tiles must be a list of [x, y] corners, "
                                f"got {shown(tiles)}")
        font, lines, primary = part.get("font", 0), part.get("lines", 1), part.get("primary", -1)
        if not (isinstance(font, int) and not isinstance(font, bool) and 0 <= font <= MAX_FONT):
            raise PageViewError(f"view.{side}.font must be a text size in [0, {MAX_FONT}], "
                                f"got {shown(font)}")
        if lines not in (1, 2) or isinstance(lines, bool):
            raise PageViewError(f"view.{side}.lines must be 1 or 2, got {shown(lines)}")
        if not (isinstance(primary, int) and not isinstance(primary, bool) and primary >= -1):
            raise PageViewError(f"view.{side}.primary must be a cell key or -1, got {shown(primary)}")
        steps = _ints(part, side, "steps") or (1, 1)
        heads = _ints(part, side, "heads")
        if len(steps) != 2 or min(steps) < 1 or any(h > 2 for h in heads):
            raise PageViewError(f"view.{side}.steps must be two whole numbers >= 1 and heads "
                                f"0, 1 or 2; got {shown(list(steps))} and {shown(list(heads[:4]))}")
        size, margin = _numbers(part, side, "size", 2), _numbers(part, side, "margin", 2, [22, 16])
        return cls(
            (float(cell[0]), float(cell[1])), _numbers(part, side, "rows"),
            _numbers(part, side, "cols"), tuple((float(x), float(y)) for x, y in tiles),
            (size[0], size[1]), (margin[0], margin[1]), _scalar(part, side, "header"),
            _pair(_numbers(part, side, "gaps", 2, [1, 0])), font, lines, (steps[0], steps[1]),
            heads, _ints(part, side, "ring"), primary, part.get("whole") is True)


def _scalar(part: Mapping[str, Any], side: str, key: str) -> float:
    v = part.get(key, 0)
    if not _number(v) or v < 0:
        raise PageViewError(f"view.{side}.{key} must be pixels >= 0, got {shown(v)}")
    return float(v)


def _pair(v: tuple[float, ...]) -> tuple[float, float]:
    return (v[0], v[1])


@dataclass(frozen=True)
class PageView:
    """The page's view state: both views' grids (:class:`GridView`), the colour key's
    name ``what``, the ``captions`` and the page's light ``theme`` (colour per role of
    ``THEME_ROLES``).

    >>> g = GridView((10.0, 10.0), (0.0, 10.0), (0.0, 10.0), ((22.0, 16.0),))
    >>> PageView(g, g, "bank").theme["ring"]
    '#111111'
    """

    logical: GridView
    physical: GridView
    what: str
    captions: tuple[str, ...] = ()
    theme: Mapping[str, str] = field(default_factory=lambda: PLAIN)

    @classmethod
    def parse(cls, data: Any) -> PageView:
        """A page view from its JSON form: ``{"logical": grid, "physical": grid, "what",
        "captions", "theme"}`` (see :meth:`GridView.parse`).

        >>> PageView.parse({"logical": 1})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tilelayout.render.page_view.PageViewError: view.logical must be an object, got int
        """
        if not isinstance(data, Mapping):
            raise PageViewError(f"view must be an object, got {type(data).__name__}")
        grids = [GridView.parse(data.get(side), side) for side in ("logical", "physical")]
        what, captions = data.get("what", ""), data.get("captions", [])
        if not isinstance(what, str) or len(what) > 200:
            raise PageViewError(f"view.what must be a short string, got {shown(what)}")
        if not (isinstance(captions, list) and len(captions) <= 4
                and all(isinstance(c, str) and len(c) <= 2000 for c in captions)):
            raise PageViewError("view.captions must be a list of at most 4 strings")
        theme = data.get("theme", PLAIN)
        if not (isinstance(theme, Mapping) and all(
                isinstance(theme.get(k), str) and _COLOUR.fullmatch(theme[k]) for k in THEME_ROLES)):
            raise PageViewError(f"view.theme must give a colour (#rgb or rgba()) for each of "
                                f"{', '.join(THEME_ROLES)}")
        return cls(grids[0], grids[1], what, tuple(captions),
                   MappingProxyType({k: theme[k] for k in THEME_ROLES}))
