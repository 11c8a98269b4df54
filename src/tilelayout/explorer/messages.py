"""Error messages in the explorer page's language.

The library's messages are written for Python users (they may suggest a call such as
``tilelayout.axes(...)``); the page has no Python prompt, so the server rewrites those
hints into what the page offers before answering.

>>> print(for_page("unknown axis 'lane' (declare your own axes: tilelayout.parse(text, "
...                "axes=['lane']) or with tilelayout.axes('lane'))"))
unknown axis 'lane' (the explorer knows the hardware axes and the device axes of the mesh presets)
"""

from __future__ import annotations

import re

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(declare your own axes: tilelayout\.parse\(text, axes=\[[^\]]*\]\) "
                r"or with tilelayout\.axes\([^)]*\)\)"),
     "(the explorer knows the hardware axes and the device axes of the mesh presets)"),
    (re.compile(r"; use the library \(tilelayout\.[a-z_.]+\) directly"),
     "; pick a smaller shape to analyse it here"),
)


def for_page(message: str) -> str:
    """``message`` with its Python-only hints replaced by what the page offers."""
    for pattern, text in _REWRITES:
        message = pattern.sub(text, message)
    return message
