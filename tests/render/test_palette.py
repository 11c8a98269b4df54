"""The shared colours: the 16-colour palette and the explorer's colour scale (the palette,
then light hues by the golden angle)."""

from __future__ import annotations

import pytest

from tilelayout.core.errors import LayoutError
from tilelayout.render.palette import MAX_COLOURS, PALETTE, PaletteError, color, colour_scale


def _luminance(hex_colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_scale_starts_with_the_palette_and_every_colour_is_distinct():
    full = colour_scale(MAX_COLOURS)
    assert full[:len(PALETTE)] == PALETTE and len(set(full)) == MAX_COLOURS
    # a shorter scale is a prefix of a longer one (the page slices the server's scale)
    for k in (0, 1, 15, 16, 17, 33, 200):
        assert colour_scale(k) == full[:k]
    assert color(3) == full[3] and color(len(PALETTE)) == full[0]


def test_scale_colours_are_light_enough_for_dark_text():
    text = _luminance("#1c1917")  # the cell text colour
    worst = min((_luminance(c) + 0.05) / (text + 0.05) for c in colour_scale(MAX_COLOURS))
    assert worst >= 4.5, worst


@pytest.mark.parametrize("k", [-1, MAX_COLOURS + 1, 2.0, True, "8"])
def test_scale_refuses_counts_outside_its_range(k):
    with pytest.raises(PaletteError, match="expected a count 0..512") as e:
        colour_scale(k)
    assert isinstance(e.value, LayoutError)
