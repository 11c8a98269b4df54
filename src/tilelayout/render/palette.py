"""The colours used for axis values everywhere (SVG pictures and the explorer page).

Value ``v`` of the colouring axis gets ``color(v)``: a categorical palette that keeps
neighbouring values distinguishable and repeats every ``len(PALETTE)`` values.

>>> color(0), color(len(PALETTE))
('#4e79a7', '#4e79a7')
"""

from __future__ import annotations

#: 16 categorical colours (Tableau-like, light and dark alternating)
PALETTE: tuple[str, ...] = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac", "#1f77b4", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
)


def color(value: int) -> str:
    """The colour of integer ``value`` (negative values wrap like Python's modulo)."""
    return PALETTE[int(value) % len(PALETTE)]
