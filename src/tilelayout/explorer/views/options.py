"""``GET /api/options``: what the page's controls offer, from the library's tables.

>>> o = options()
>>> o["swizzles"][:2], o["max_pairs"]
(['none', '32B'], 262144)
"""

from __future__ import annotations

from typing import Any

from ...codegen.languages import LANGUAGES
from ...core.dtypes import DTYPES
from ...core.swizzle import SWIZZLE_MODES
from ...core.swizzle_modes import SWIZZLE_MODE_TABLE
from ...core.targets import TARGETS as TARGETS_TABLE
from ...render.palette import MAX_COLOURS, PALETTE, colour_scale
from ...render.svg import MAX_ELEMENTS
from ..request import MAX_PAIRS

#: the page's colour scale, computed once when the server's views are imported (about
#: 2 ms: 512 colours converted from HSL), not on every request
COLOUR_SCALE: tuple[str, ...] = colour_scale(MAX_COLOURS)


def options() -> dict[str, Any]:
    """``GET /api/options``: dtypes, swizzle modes (names, and each with its one-line
    description from the swizzle-mode table), GPU targets (the "move data" panel's
    target select), the index-code languages, the colours (the palette, and the page's
    scale of MAX_COLOURS distinct colours that starts with it) and size caps for the
    page's controls."""
    return {"dtypes": list(DTYPES), "swizzles": list(SWIZZLE_MODES),
            "targets": list(TARGETS_TABLE),
            "swizzle_modes": [{"name": m.name, "doc": m.describe()}
                              for m in SWIZZLE_MODE_TABLE.values()],
            "palette": list(PALETTE), "colour_scale": list(COLOUR_SCALE),
            "code_languages": list(LANGUAGES),
            "max_elements": MAX_ELEMENTS, "max_pairs": MAX_PAIRS}
