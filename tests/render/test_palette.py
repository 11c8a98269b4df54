"""The axis-value palette: 16 readable colours, repeating."""

import re

from tilelayout.render.palette import PALETTE, color


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def test_sixteen_distinct_hex_colours():
    assert len(PALETTE) == len(set(PALETTE)) == 16
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in PALETTE)


def test_dark_text_is_readable_on_every_colour():
    text = _luminance("#1c1917")
    assert all((_luminance(c) + 0.05) / (text + 0.05) >= 4.5 for c in PALETTE)


def test_values_wrap_like_python_modulo():
    assert [color(v) for v in range(16)] == list(PALETTE)
    assert color(16) == color(0) and color(-1) == PALETTE[-1]
    assert color(5) != color(6)
