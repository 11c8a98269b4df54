"""The colours used for axis values everywhere (SVG pictures and the explorer page).

Every picture gives each distinct value of the colouring axis its own colour, by rank
(:func:`rank_colours`), from ``colour_scale(MAX_COLOURS)`` (``GET /api/options`` sends it to
the page): the 16-colour categorical ``PALETTE`` first, then light hues, repeating only
beyond ``MAX_COLOURS`` values. ``color(v)`` is the palette's colour of value ``v``.

>>> color(0), color(len(PALETTE))
('#6f9fd8', '#6f9fd8')
"""

from __future__ import annotations

import math

import numpy as np

from ..core.errors import LayoutError

#: 16 categorical colours (Tableau-like), each light enough for dark text on it (contrast
#: at least 4.5:1 with #1c1917)
PALETTE: tuple[str, ...] = (
    "#6f9fd8", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#b58b72", "#bab0ac", "#4fc1d6", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
)


def color(value: int) -> str:
    """The colour of integer ``value`` (negative values wrap like Python's modulo)."""
    return PALETTE[int(value) % len(PALETTE)]


#: the most distinct colours of one picture in the explorer; more values cycle through them
MAX_COLOURS = 512

# the extension's lightness and saturation cycles (percent) and its hue step (degrees: the
# golden angle, so that consecutive hues are far apart)
_LIGHTNESS = (80, 70, 86, 75)
_SATURATION = (60, 78, 45)
_GOLDEN_ANGLE = 137.508


class PaletteError(LayoutError):
    """A colour count outside 0..MAX_COLOURS."""


def _hsl_hex(hue: float, sat: float, light: float) -> str:
    """The CSS hex colour of HSL (hue in degrees, saturation and lightness in percent)."""
    s, lum = sat / 100, light / 100

    def channel(n: int) -> str:
        k = (n + hue / 30) % 12
        c = lum - s * min(lum, 1 - lum) * max(-1, min(k - 3, 9 - k, 1))
        return f"{math.floor(255 * c + 0.5):02x}"  # rounded half up

    return f"#{channel(0)}{channel(8)}{channel(4)}"


def colour_scale(k: int) -> tuple[str, ...]:
    """``k`` different colours (``k <= MAX_COLOURS``): ``PALETTE`` first, then light hues
    spread by the golden angle, each light enough for dark text. A shorter scale is a
    prefix of a longer one.

    >>> colour_scale(3)
    ('#6f9fd8', '#f28e2b', '#e15759')
    >>> len(set(colour_scale(MAX_COLOURS))), colour_scale(17)[16]
    (512, '#ebadad')
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= MAX_COLOURS:
        raise PaletteError(f"colour_scale: expected a count 0..{MAX_COLOURS}, got {k!r}")
    out = list(PALETTE[:k])
    seen = set(out)
    i = 0
    while len(out) < k and i < 50 * k:
        c = _hsl_hex((i * _GOLDEN_ANGLE) % 360, _SATURATION[(i // 4) % 3], _LIGHTNESS[i % 4])
        if c not in seen:
            seen.add(c)
            out.append(c)
        i += 1
    return tuple(out)


def rank_colours(values: np.ndarray) -> tuple[np.ndarray, tuple[str, ...]]:
    """The colouring of every picture (the explorer page, its export, ``tilelayout
    render``, ``L._repr_svg_``): each distinct value its rank (in sorted order), cycling
    through a colour scale of at most ``MAX_COLOURS`` colours; ``(index, scale)``.

    >>> idx, scale = rank_colours(np.array([7, 3, 7, 40]))
    >>> idx.tolist(), len(scale)
    ([1, 0, 1, 2], 3)
    """
    distinct, rank = np.unique(values, return_inverse=True)
    scale = colour_scale(min(distinct.size, MAX_COLOURS))
    return (rank.reshape(-1) % max(1, len(scale))).astype(np.int64), scale
