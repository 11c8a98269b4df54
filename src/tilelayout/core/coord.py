"""A physical coordinate: an immutable, hashable mapping axis name -> integer.

>>> c = Coord({"laneid": 0, "warpid": 6, "m": 0})
>>> c["warpid"], c == {"laneid": 0, "warpid": 6, "m": 0}
(6, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .errors import LayoutError
from .iter import as_int


class Coord(Mapping[str, int]):
    """One point in the physical space: axis name -> integer, in the layout's axis order.

    Equality and hashing ignore the order; a Coord equals a dict with the same items.

    >>> Coord({"m": 1, "pid": 0}) == Coord({"pid": 0, "m": 1}) == {"m": 1, "pid": 0}
    True
    """

    __slots__ = ("_items", "_hash")

    def __init__(self, items: Mapping[str, int] | tuple[tuple[str, int], ...] = ()) -> None:
        try:
            pairs = tuple(items.items()) if isinstance(items, Mapping) else tuple(items)
            if not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                       for p in pairs):
                raise TypeError
        except TypeError:
            raise LayoutError("a Coord is a mapping axis name -> integer, or (name, value) "
                              "pairs") from None
        self._items = tuple((a, as_int(v, f"coordinate on {a}")) for a, v in pairs)
        self._hash: int | None = None

    def __getitem__(self, axis: str) -> int:
        for a, v in self._items:
            if a == axis:
                return v
        raise KeyError(axis)

    def __iter__(self) -> Iterator[str]:
        return (a for a, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:  # computed on first use: most coordinates are only read
            h = self._hash = hash(frozenset(self._items))
        return h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Coord):
            if self._items == other._items:
                return True
            return hash(self) == hash(other) and dict(self._items) == dict(other._items)
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{a}: {v}" for a, v in self._items) + "}"


_new = object.__new__


def make_coord(items: tuple[tuple[str, int], ...]) -> Coord:
    """A Coord from ``((axis, int), ...)`` pairs as they are (no conversion, no copy): the
    constructor of the compiled evaluation plans.

    >>> make_coord((("m", 3),))
    {m: 3}
    """
    c = _new(Coord)
    c._items = items
    c._hash = None
    return c
