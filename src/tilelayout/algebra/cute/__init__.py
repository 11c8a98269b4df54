"""CuTe's layout algebra with CuTe's semantics (CUTLASS ``include/cute/layout.hpp``, the
reference ``pycute``), exact, on leaves (never elements). See ``docs/algebra.md``.

One concept per module: ``modes`` (:class:`CuteLayout`, CuTe's nested modes, and the
mapping from CuTe's column-major 1-D index to our row-major one), ``composition``
(``coalesce``, ``composition``), ``complement`` (``complement``, ``right_inverse``,
``left_inverse``), ``tiling`` (the divides and products), ``swizzled``
(:class:`CuteComposed`, CuTe's swizzle-outside ``ComposedLayout``).

>>> from tilelayout.algebra.cute import CuteLayout, zipped_divide
>>> R = zipped_divide(CuteLayout((8, 8), (8, 1)), (2, 4))
>>> str(R), R.dims
('((2,4),(4,2)):((8,1),(16,4))', (8, 8))
"""

from .complement import complement, left_inverse, right_inverse
from .composition import coalesce, composition
from .modes import CuteLayout, as_cute, make_layout
from .swizzled import CuteComposed
from .tiling import (
    blocked_product,
    logical_divide,
    logical_product,
    raked_product,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)

__all__ = [
    "CuteComposed",
    "CuteLayout",
    "as_cute",
    "blocked_product",
    "coalesce",
    "complement",
    "composition",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "make_layout",
    "raked_product",
    "right_inverse",
    "tiled_divide",
    "tiled_product",
    "zipped_divide",
    "zipped_product",
]
