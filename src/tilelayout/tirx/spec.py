"""TIRx's layout spelling: axis objects, ``value @ axis`` terms and ``S[...] + R[...] + offset``.

A TIRx user writes a layout as a Python expression: ``S[(8, 4):(4 @ laneid, 1)]`` for the
shard iters, ``R[2:4 @ warpid]`` for the replica iters, and ``5 @ warpid`` (or a bare
``5``, meaning ``m``) for the offset, summed with ``+``; ``TileLayout(spec)`` builds it.
Strides may also be written as an axis name (stride 1 on it) or a ``(stride, axis)`` pair,
and ``S[8, 4]`` (extents only) is row-major on ``m``, as in TIRx.

>>> from tilelayout.tirx.spec import Axis, R, S
>>> laneid, warpid = Axis.get("laneid"), Axis.get("warpid")
>>> spec = S[(8, 4):(4 @ laneid, 1)] + R[2:4 @ warpid] + 5 @ warpid + 3
>>> spec.shard[0], dict(spec.offset)
(Iter(extent=8, stride=4, axis='laneid'), {'warpid': 5, 'm': 3})
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..core.axes import SCOPE_LEVEL, axis, check_axis
from ..core.errors import LayoutError, LayoutTypeError, shown
from ..core.iter import Iter, as_int
from ..core.tile import TileLayout
from ..syntax.builder import AxisRef, Term
from .expr import is_symbolic

#: the built-in axes TIRx kernels name as attributes (``T.laneid``, ``T.TLane``, ...)
AXIS_NAMES: tuple[str, ...] = (
    "m", "TLane", "TCol", "P", "F", "Bank", "laneid", "warpid", "tx", "tid_in_wg",
    "wid_in_wg", "wgid", "bx", "by", "bz", "cbx", "cby", "cbz", "pid",
)


class _AxisClass(type):
    """``Axis.laneid`` is ``Axis.get("laneid")`` (TIRx's class attributes)."""

    def __getattr__(cls, name: str) -> Axis:
        if name in AXIS_NAMES:
            return Axis(name)
        raise AttributeError(f"type object 'Axis' has no attribute {name!r}")


#: the backend TIRx files each built-in axis under (``Axis.backend``)
_BACKEND = MappingProxyType({"TLane": "cuda", "TCol": "cuda", "P": "trn", "F": "trn",
                             "Bank": "trn"})
#: apache/tvm main registers the grid axes with scope "thread" and subscope "cta" (its
#: ExecScope has no kernel level); every other axis reports the scope of our axis table
_MAIN_SCOPES = MappingProxyType({"bx": ("cta", "thread"), "by": ("cta", "thread"),
                                 "bz": ("cta", "thread")})


class ScopeName(str):
    """A scope as TIRx's ``ExecScope``: the name (``"warp"``), with ``.name`` as TIRx
    spells it; it compares and hashes as the plain name.

    >>> s = ScopeName("warp")
    >>> s.name, s == "warp"
    ('warp', True)
    """

    __slots__ = ()

    @property
    def name(self) -> str:
        """The scope's name (TIRx's ``ExecScope.name``)."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return repr(str.__str__(self))


class Axis(str, metaclass=_AxisClass):
    """A registered axis as TIRx's ``Axis`` object: ``4 @ axis`` is a stride or offset term.

    It is the axis name (a ``str`` that compares and hashes as the name, so
    ``{T.laneid: 1} == {"laneid": 1}``), with TIRx's attributes and queries.

    >>> Axis.get("laneid").get_scope().name, Axis.laneid.get_subscope(), Axis.m.is_memory()
    ('warp', 'thread', True)
    >>> Axis.laneid == "laneid", Axis.get("TLane").name, Axis.get("P").backend
    (True, 'TLane', 'trn')
    """

    __slots__ = ()

    def __new__(cls, name: str) -> Axis:
        if isinstance(name, Axis):
            return name
        return super().__new__(cls, check_axis(name))

    def __repr__(self) -> str:
        return repr(str.__str__(self))

    def __reduce__(self) -> tuple:
        return (Axis, (str.__str__(self),))

    @property
    def name(self) -> str:
        """The canonical axis name."""
        return str.__str__(self)

    @staticmethod
    def get(name: str) -> Axis:
        """The axis called ``name`` (a built-in axis or one in force through
        ``tilelayout.axes(...)``; TIRx registers unknown names on the fly, we refuse them).

        >>> Axis.get("TLane")
        'TLane'
        """
        return Axis(name)

    @property
    def backend(self) -> str | None:
        """The backend owning the axis (``"cuda"`` for threads and tensor memory,
        ``"trn"`` for Trainium's), None for a generic one (``m``, a device axis).

        >>> Axis.get("warpid").backend, Axis.get("m").backend
        ('cuda', None)
        """
        name = self.name
        if name in _BACKEND:
            return _BACKEND[name]
        return "cuda" if axis(name).kind == "thread" else None

    def is_thread(self) -> bool:
        """Whether this is a thread axis (lane, warp, CTA ...).

        >>> Axis.get("warpid").is_thread()
        True
        """
        return axis(self.name).kind == "thread"

    def is_memory(self) -> bool:
        """Whether this is a memory axis (``m``, ``TLane``, ``TCol``, ``P``, ``F``, ``Bank``).

        >>> Axis.get("TCol").is_memory()
        True
        """
        return axis(self.name).kind == "memory"

    def _scopes(self) -> tuple[str, str] | None:
        return _MAIN_SCOPES.get(self.name) or axis(self.name).scope

    def get_scope(self) -> ScopeName | None:
        """The scope a thread axis counts inside (``"warp"`` for ``laneid``); None otherwise.

        >>> Axis.get("wid_in_wg").get_scope()
        'warpgroup'
        """
        scope = self._scopes()
        return None if scope is None else ScopeName(scope[1])

    def get_subscope(self) -> ScopeName | None:
        """The unit a thread axis counts (``"thread"`` for ``laneid``); None otherwise.

        >>> Axis.get("wgid").get_subscope().name
        'warpgroup'
        """
        scope = self._scopes()
        return None if scope is None else ScopeName(scope[0])

    def __rmatmul__(self, value: int) -> OnAxis:
        return OnAxis(_offset_value(value), self.name)



def _offset_value(value: object) -> int:
    """An int for ``value @ axis``; a symbolic TIRx expression is refused (our layouts
    hold integers)."""
    if is_symbolic(value):
        raise LayoutTypeError(f"'{shown(value)} @ axis': strides and offsets are integers here "
                              f"(symbolic layouts are not supported); bind the variable first")
    return as_int(value, "stride or offset")


class OnAxis(Term):
    """``value @ axis``; summed with ``+`` it makes an offset (a bare int is on ``m``).

    >>> dict((1 @ Axis.laneid + 2 @ Axis.warpid + 512).terms)
    {'laneid': 1, 'warpid': 2, 'm': 512}
    """

    def __add__(self, other: object) -> Offset:
        return Offset.of(self) + other

    def __radd__(self, other: object) -> Offset:
        if isinstance(other, int):
            return Offset.of(other) + self
        return NotImplemented


@dataclass(frozen=True)
class Offset:
    """A sum of ``value @ axis`` terms: axis name -> value, in first-appearance order."""

    terms: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(value: object) -> Offset:
        """An int (on ``m``), a term or an offset as an :class:`Offset`.

        >>> Offset.of(3)
        Offset(terms=(('m', 3),))
        """
        if isinstance(value, Offset):
            return value
        if isinstance(value, Term):
            return Offset(((value.axis, value.value),))
        if isinstance(value, int) and not isinstance(value, bool):
            return Offset((("m", value),))
        raise LayoutError(f"an offset is an int (on m), 'value @ axis' or a sum of them, "
                          f"got {shown(value)}")

    def __add__(self, other: object) -> Offset:
        merged = dict(self.terms)
        for a, v in Offset.of(other).terms:
            merged[a] = merged.get(a, 0) + v
        return Offset(tuple(merged.items()))

    __radd__ = __add__


def _stride(value: object) -> tuple[int, str]:
    if isinstance(value, Term):
        return value.value, Axis(value.axis)
    if isinstance(value, str):
        return 1, Axis(value)
    if isinstance(value, tuple) and len(value) == 2:
        name = value[1].name if isinstance(value[1], AxisRef) else value[1]
        return _offset_value(value[0]), Axis(name)
    return _offset_value(value), Axis("m")


def _as_tuple(x: object) -> tuple:
    return tuple(x) if isinstance(x, tuple | list) else (x,)


def spec_iters(key: object) -> tuple[Iter, ...]:
    """The iters of ``S[key]`` / ``R[key]``: ``extents : strides``, or extents alone
    (row-major on ``m``).

    >>> spec_iters(slice((2, 4), (1, (8, "laneid"))))
    (Iter(extent=2, stride=1, axis='m'), Iter(extent=4, stride=8, axis='laneid'))
    """
    if isinstance(key, slice):
        if key.step is not None or key.start is None or key.stop is None:
            raise LayoutError("write S[extents:strides] with one colon and both sides, or "
                              "S[extents] for row-major strides on m")
        extents, strides = _as_tuple(key.start), _as_tuple(key.stop)
    else:
        extents, strides = _as_tuple(key), None
    ext = tuple(as_int(e, "extent") for e in extents)
    if strides is None:
        strides = tuple(math.prod(ext[k + 1:]) for k in range(len(ext)))
    if len(strides) != len(ext):
        raise LayoutError(f"{len(ext)} extents but {len(strides)} strides in "
                          f"S[extents:strides]")
    return tuple(Iter(e, *_stride(s)) for e, s in zip(ext, strides, strict=True))


@dataclass(frozen=True)
class Spec:
    """``S[...] + R[...] + offset``, the argument of ``TileLayout(spec)``.

    TIRx keeps the first ``S`` and the last ``R`` of a sum that has several; we refuse a
    second one instead (it is dropped silently there).

    >>> (S[4] + 2).offset
    (('m', 2),)
    """

    shard: tuple[Iter, ...] | None = None
    replica: tuple[Iter, ...] | None = None
    offset: tuple[tuple[str, int], ...] = ()

    def __add__(self, other: object) -> Spec:
        if isinstance(other, Spec):
            for part in ("shard", "replica"):
                if getattr(self, part) is not None and getattr(other, part) is not None:
                    letter = "S" if part == "shard" else "R"
                    raise LayoutError(f"a layout has one {letter}[...]; this sum has two")
            return Spec(self.shard if other.shard is None else other.shard,
                        self.replica if other.replica is None else other.replica,
                        (Offset(self.offset) + Offset(other.offset)).terms)
        if isinstance(other, Offset | Term | int) and not isinstance(other, bool):
            return Spec(self.shard, self.replica, (Offset(self.offset) + other).terms)
        if is_symbolic(other):
            raise LayoutTypeError(f"a symbolic offset ({shown(other)}): strides and offsets are "
                                  f"integers here (symbolic layouts are not supported)")
        raise LayoutTypeError(f"a layout spec adds S[...], R[...] and offsets (an int on m, "
                              f"'value @ axis'), got {shown(other)}")

    __radd__ = __add__

    def offset_map(self) -> Mapping[str, int]:
        """The offset as a dict.

        >>> (S[4] + 1 @ Axis.warpid).offset_map()
        {'warpid': 1}
        """
        return dict(self.offset)


class _Builder:
    __slots__ = ("_part",)

    def __init__(self, part: str) -> None:
        self._part = part

    def __getitem__(self, key: object) -> Spec:
        iters = spec_iters(key)
        return Spec(shard=iters) if self._part == "shard" else Spec(replica=iters)

    def __repr__(self) -> str:
        return "S" if self._part == "shard" else "R"


#: ``S[extents:strides]``: the shard iters of a TIRx spec
S = _Builder("shard")
#: ``R[extents:strides]``: the replica iters of a TIRx spec
R = _Builder("replica")


def scope_pair(tile: TileLayout) -> tuple[str, str] | None:
    """TIRx's ``get_scope``: None when no shard iter is on a thread axis; otherwise the
    (lowest subscope, highest scope) of every thread axis of the layout (shard, replica
    and offset), which must chain (``laneid`` thread->warp, ``warpid`` warp->cta).
    Refused, as in TIRx: a device axis, two axes with one subscope and different scopes,
    and a chain with a gap.

    >>> scope_pair(TileLayout([(8, 1, "laneid"), (4, 1, "wid_in_wg")]))
    ('thread', 'warpgroup')
    >>> scope_pair(TileLayout([(8, 1)], offset={"warpid": 1})) is None
    True
    """
    if all(axis(it.axis).kind == "memory" for it in tile.shard):
        return None
    links: dict[str, str] = {}
    for name in tile.axes:
        ax = axis(name)
        if ax.kind == "memory":
            continue
        if ax.scope is None:
            raise LayoutError(f"axis '{name}' is a {ax.kind} axis, not a thread axis: "
                              f"it has no scope (TIRx refuses it too)")
        sub, top = ax.scope
        if links.setdefault(sub, top) != top:
            raise LayoutError(f"axes counting {sub}s inside both {links[sub]} and {top}: "
                              f"conflicting scopes (TIRx refuses this layout)")
    if not links:
        return None
    start = min(links, key=SCOPE_LEVEL.__getitem__)
    at, steps = start, 0
    while at in links:
        at, steps = links[at], steps + 1
    if steps != len(links):
        chain = ", ".join(f"{s}->{t}" for s, t in links.items())
        raise LayoutError(f"the thread axes' scopes {chain} do not form one chain "
                          f"(TIRx: disconnected scope chain)")
    return start, at


__all__ = ["AXIS_NAMES", "Axis", "OnAxis", "Offset", "R", "S", "Spec", "scope_pair",
           "spec_iters"]
