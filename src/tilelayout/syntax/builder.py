"""A Python builder that mirrors the text form.

>>> import tilelayout as tl
>>> L = tl.S[(8, 2, 4, 2):(4 @ tl.laneid, 1 @ tl.warpid, 1 @ tl.laneid, 1)] \\
...     + tl.R[2:4 @ tl.warpid] + 5 @ tl.warpid
>>> L == tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
True

``n @ tl.<axis>`` is a stride or offset on that axis (every axis of the table in force
is an attribute of the package, the ones a ``with tl.axes(...)`` block declares too); a
bare integer stride is on ``m``.
An offset on ``m`` is written ``5 @ tl.m`` (Python cannot add a bare int to a layout).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.axes import check_axis
from ..core.errors import LayoutError
from ..core.iter import Iter, as_int
from ..core.tile import TileLayout


@dataclass(frozen=True)
class AxisRef:
    """An axis of the table in force, used as ``4 @ ref`` to make a stride or offset term.

    >>> import tilelayout as tl
    >>> 4 @ tl.laneid
    Term(value=4, axis='laneid')
    """

    name: str

    def __rmatmul__(self, value: int) -> Term:
        return Term(as_int(value, "stride"), self.name)


@dataclass(frozen=True)
class Term:
    """``value @ axis``: a stride inside ``S[...]``/``R[...]``, or an offset added to
    (or subtracted from) a layout, as in the text ``S[4] + 5@warpid`` / ``S[4] - 5@warpid``.

    >>> import tilelayout as tl
    >>> tl.S[4] - 3 @ tl.warpid
    parse('S[4:1] + -3@warpid')
    """

    value: int
    axis: str

    def __radd__(self, layout: object) -> TileLayout:
        if not isinstance(layout, TileLayout):
            return NotImplemented
        offset = dict(layout.offset)
        offset[self.axis] = offset.get(self.axis, 0) + self.value
        return layout.replace(offset=offset)

    def __rsub__(self, layout: object) -> TileLayout:
        if not isinstance(layout, TileLayout):
            return NotImplemented
        return layout + Term(-self.value, self.axis)

    def __neg__(self) -> Term:
        return Term(-self.value, self.axis)


@dataclass(frozen=True)
class Replica:
    """The iters of ``R[...]``, added to a layout with ``+``.

    >>> import tilelayout as tl
    >>> tl.S[4] + tl.R[2:1 @ tl.pid]
    parse('S[4:1] + R[2:1@pid]')
    """

    iters: tuple[Iter, ...]

    def __radd__(self, layout: object) -> TileLayout:
        if not isinstance(layout, TileLayout):
            return NotImplemented
        if layout.replica:
            raise LayoutError("a layout has at most one R[...]")
        return layout.replace(replica=self.iters)


def _iters(key: object) -> tuple[Iter, ...]:
    if isinstance(key, slice):
        if key.step is not None:
            raise LayoutError("write S[extents:strides] with one colon")
        if key.start is None or key.stop is None:
            raise LayoutError(
                "write S[extents:strides] with both sides of the colon, or S[extents] "
                "for row-major strides on m"
            )
        extents, strides = key.start, key.stop
    else:
        extents, strides = key, None
    ext = tuple(extents) if isinstance(extents, tuple | list) else (extents,)
    ext = tuple(as_int(e, "extent") for e in ext)
    if strides is None:
        st: tuple[object, ...] = tuple(math.prod(ext[k + 1 :]) for k in range(len(ext)))
    else:
        st = tuple(strides) if isinstance(strides, tuple | list) else (strides,)
    if len(st) != len(ext):
        raise LayoutError(
            f"{len(ext)} extent{'s' if len(ext) != 1 else ''} but "
            f"{len(st)} stride{'s' if len(st) != 1 else ''}"
        )
    out = []
    for e, s in zip(ext, st, strict=True):
        term = s if isinstance(s, Term) else Term(as_int(s, "stride"), "m")
        out.append(Iter(e, term.value, term.axis))
    return tuple(out)


class _ShardBuilder:
    def __getitem__(self, key: object) -> TileLayout:
        return TileLayout(_iters(key))

    def __repr__(self) -> str:
        return "S"


class _ReplicaBuilder:
    def __getitem__(self, key: object) -> Replica:
        return Replica(_iters(key))

    def __repr__(self) -> str:
        return "R"


S = _ShardBuilder()
R = _ReplicaBuilder()


def axis_ref(name: str) -> AxisRef:
    """An :class:`AxisRef` for an axis of the table in force (``tl.laneid`` is
    ``axis_ref("laneid")``).

    >>> axis_ref("TCol")
    AxisRef(name='TCol')
    """
    return AxisRef(check_axis(name))
