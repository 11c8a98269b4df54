"""An iter: ``(extent, stride, axis)``, one strided run on one named axis.

>>> Iter(8, 4, "laneid")
Iter(extent=8, stride=4, axis='laneid')
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from .axes import check_name
from .budget import bounded_int
from .errors import LayoutError, shown


def as_int(value: object, what: str) -> int:
    """``value`` as a Python int (numpy integers accepted, bools and floats refused), below
    ``2**MAX_INT_BITS`` in magnitude (see :mod:`tilelayout.core.budget`).

    >>> as_int(7, "extent")
    7
    """
    if isinstance(value, bool):
        raise LayoutError(f"{what} must be an integer, got {shown(value)}")
    try:
        out = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise LayoutError(f"{what} must be an integer, got {shown(value)}") from None
    return bounded_int(out, what)


@dataclass(frozen=True)
class Iter:
    """A linear, strided run: component ``c`` in ``[0, extent)`` adds ``c * stride`` to ``axis``.

    ``extent >= 1``; ``stride`` is any integer (0 broadcasts, negative runs backwards).

    >>> it = Iter(8, -1)
    >>> it.extent, it.stride, it.axis
    (8, -1, 'm')
    """

    extent: int
    stride: int
    axis: str = "m"

    def __post_init__(self) -> None:
        extent = as_int(self.extent, "iter extent")
        if extent < 1:
            raise LayoutError(f"iter extent must be >= 1, got {extent}")
        object.__setattr__(self, "extent", extent)
        object.__setattr__(self, "stride", as_int(self.stride, "iter stride"))
        object.__setattr__(self, "axis", check_name(self.axis))

    @classmethod
    def shared(cls, extent: int, stride: int, axis: str = "m") -> Iter:
        """An ``Iter(extent, stride, axis)``, reused from a bounded table when one was
        made before (iters are immutable): the algebra's fast path for its results.

        >>> Iter.shared(4, 2) is Iter.shared(4, 2)
        True
        """
        key = (extent, stride, axis)
        it = _SHARED.get(key)
        if it is None:
            if len(_SHARED) >= 8192:
                _SHARED.clear()
            it = _SHARED[key] = cls(extent, stride, axis)
        return it

    @classmethod
    def of(cls, spec: Iter | tuple[int, int] | tuple[int, int, str]) -> Iter:
        """Coerce an ``Iter`` or a tuple (or list) ``(extent, stride[, axis])``.

        >>> Iter.of((8, 4, "laneid")) == Iter.of([8, 4, "laneid"]) == Iter(8, 4, "laneid")
        True
        """
        if isinstance(spec, Iter):
            return spec
        if isinstance(spec, tuple | list) and len(spec) in (2, 3):
            return cls(*spec)
        raise LayoutError(f"expected an Iter or (extent, stride, axis), got {shown(spec)}")


_SHARED: dict[tuple[int, int, str], Iter] = {}
