"""What the explorer page needs to draw a layout besides its coordinates.

The page only draws: how the logical shape folds into rows and columns, which colourings
it offers (and which one it starts with), the names of the logical dimensions and the
captions that say what a cell's text and colour mean all come from here (from the same
functions the SVG pictures use), not from the page.

>>> import tilelayout as tl
>>> f = logical_fold((2, 3, 4))
>>> f["nrows"], f["ncols"], f["cell"][:6]
(3, 8, [0, 1, 2, 3, 8, 9])
>>> colours(tl.parse("S[(4,8):(1@warpid,1@laneid)]"), None, (4, 8), banks=False)["default"]
'laneid'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.compose import Layout
from ..core.shape import format_shape
from ..render.svg import default_color_key
from ..render.table import fold_shape

#: names of logical dimensions 0, 1, 2, ... (the index of an element is (i, j, ...))
DIM_NAMES: tuple[str, ...] = ("i", "j", "k", "l", "p", "q", "u", "v")


def dim_name(d: int) -> str:
    """The name of logical dimension ``d``: ``i``, ``j``, ... then ``d8``, ``d9``, ...

    >>> dim_name(1), dim_name(9)
    ('j', 'd9')
    """
    return DIM_NAMES[d] if d < len(DIM_NAMES) else f"d{d}"


def logical_fold(shape: Sequence[int]) -> dict[str, Any]:
    """The logical view's grid as JSON: each element's cell ``row * ncols + col``
    (``fold_shape``),
    the row and column labels, which logical dims go down and across (and their extents,
    outer first: ``row_radix``, ``col_radix``), and a title.

    ``row_name`` / ``col_name`` name the dim a whole row / column stands for (None when a
    row mixes several dims or a 1-D shape is wrapped).

    >>> f = logical_fold((256,))
    >>> f["nrows"], f["ncols"], f["wrap"], f["row_labels"][:3], f["title"]
    (4, 64, 64, ['0', '64', '128'], 'shape (256,), wrapped 64 per row')
    """
    f = fold_shape(shape)
    title = f"shape {format_shape(tuple(shape))}"
    if f.wrap:
        title += f", wrapped {f.wrap} per row"
    if len(shape) > 2:
        down = "·".join(dim_name(d) for d in f.row_dims)
        across = "·".join(dim_name(d) for d in f.col_dims)
        title += f" — dims {down} down, {across} across"

    def single(dims: tuple[int, ...]) -> str | None:
        return dim_name(dims[0]) if len(dims) == 1 and not f.wrap else None

    return {
        "nrows": f.nrows, "ncols": f.ncols, "cell": (f.row * f.ncols + f.col).tolist(),
        "row_labels": list(f.row_label), "col_labels": list(f.col_label),
        "row_dims": list(f.row_dims), "col_dims": list(f.col_dims), "wrap": f.wrap,
        "row_radix": [f.dims[d] for d in f.row_dims], "col_radix": [f.dims[d] for d in f.col_dims],
        "row_name": single(f.row_dims), "col_name": single(f.col_dims), "title": title,
    }


def colours(layout: Layout, dtype: str | None, shape: Sequence[int], *, banks: bool
            ) -> dict[str, Any]:
    """The colourings the page offers and the default one (``default_color_key``, as the
    SVG pictures use). Each choice: ``key`` (an axis name, ``dim:K`` or ``bank``), ``label``
    (for the picker) and ``what`` (for the captions: "laneid", "logical i", "bank").

    >>> import tilelayout as tl
    >>> c = colours(tl.parse("S[(8,64):(64,1)]"), "float16", (8, 64), banks=True)
    >>> c["default"], [x["key"] for x in c["choices"]]
    ('bank', ['m', 'dim:0', 'dim:1', 'bank'])
    """
    choices = [{"key": a, "label": f"axis {a}", "what": a} for a in layout.axes]
    for d in range(len(shape)):
        choices.append({"key": f"dim:{d}", "label": f"logical {dim_name(d)}",
                        "what": f"logical {dim_name(d)}"})
    if banks:
        choices.append({"key": "bank", "label": "shared-memory bank", "what": "bank"})
    default = default_color_key(layout, dtype, shape)
    if default not in {c["key"] for c in choices}:
        default = choices[0]["key"] if choices else "dim:0"
    return {"default": default, "choices": choices}


def drawing(layout: Layout, dtype: str | None, shape: Sequence[int], *, banks: bool
            ) -> dict[str, Any]:
    """The fields of ``POST /api/layout`` that tell the page how to draw: ``fold``,
    ``colours`` and ``dim_names`` (one per logical dimension)."""
    return {"fold": logical_fold(shape), "colours": colours(layout, dtype, shape, banks=banks),
            "dim_names": [dim_name(d) for d in range(len(shape))]}
