"""The colours used for axis values everywhere (SVG pictures and the explorer page).

Value ``v`` of the colouring axis gets ``color(v)``: a categorical palette that keeps
neighbouring values distinguishable and repeats every ``len(PALETTE)`` values.

>>> color(0), color(len(PALETTE))
('#6f9fd8', '#6f9fd8')
"""

from __future__ import annotations

#: 16 categorical colours (Tableau-like), each light enough for dark text on it (contrast
#: at least 4.5:1 with #1c1917)
PALETTE: tuple[str, ...] = (
    "#6f9fd8", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#b58b72", "#bab0ac", "#4fc1d6", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
)


def color(value: int) -> str:
    """The colour of integer ``value`` (negative values wrap like Python's modulo)."""
    return PALETTE[int(value) % len(PALETTE)]
