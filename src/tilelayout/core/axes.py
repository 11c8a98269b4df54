"""Axes: named physical resources, their kind, scope and fixed extent, as values.

An axis is where a layout puts a logical element: a memory address (``m``), a
tensor-memory lane (``TLane``), a GPU lane (``laneid``), a device (``pid``). An
:class:`AxisTable` is an immutable value holding the built-in axes (with the hardware
extents that are fixed: 32 lanes per warp, 128 TMEM lanes, ...) plus the axes a user
declares, such as the axes of a device mesh. Nothing here is process state: a table
is passed explicitly (``tl.parse(text, axes=...)``) or put in force for a block
through a context variable (``with tl.axes("data", model=4): ...``), like
:func:`tilelayout.limits`; concurrent threads and tasks never see each other's tables.

A layout refers to its axes by name (``Iter.axis`` is a string). Names a person writes
(layout text, ``tl.axis``, ``tl.laneid``) are checked against the table in force, so a
typo gets a "did you mean"; evaluation never needs the table. Analyses that need an
axis's kind or extent read the table in force; a name it does not know (a layout built
under other declarations) reads as a device axis with no fixed extent
(:func:`axis_of`).

>>> import tilelayout as tl
>>> tl.axis("laneid").extent
32
>>> mesh = tl.axes("data", model=4)          # the table in force plus two mesh axes
>>> mesh["model"].extent, tl.is_axis("data")  # a value: nothing else changed
(4, False)
>>> with mesh:
...     tl.parse("S[(2,4):(1@data,1@model)]").axes
('data', 'model')
"""

from __future__ import annotations

import contextvars
import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from .errors import LayoutError, UnknownAxisError, shown

AxisKind = Literal["memory", "thread", "device"]
KINDS: tuple[str, ...] = ("memory", "thread", "device")

#: scope levels, innermost first (cluster and kernel both sit above cta)
SCOPE_LEVEL = MappingProxyType(
    {"thread": 0, "warp": 1, "warpgroup": 2, "cta": 3, "cluster": 4, "kernel": 5})
#: the longest axis name accepted
MAX_NAME = 64


def check_name(name: object) -> str:
    """``name`` if it can name an axis (an identifier of at most 64 characters), else a
    :class:`LayoutError`. Which axes exist is the table's business, not the name's.

    >>> check_name("data")
    'data'
    """
    if not isinstance(name, str) or not name.isidentifier() or len(name) > MAX_NAME:
        raise LayoutError(f"an axis name is an identifier of at most {MAX_NAME} characters, "
                          f"got {shown(name)}")
    return name


@dataclass(frozen=True)
class Axis:
    """One named physical resource.

    ``scope`` is ``(subscope, scope)`` for thread axes, e.g. ``("thread", "warp")``
    for ``laneid``: the axis counts threads inside one warp. ``extent`` is the
    hardware-fixed number of values, or ``None`` when the hardware does not fix it.

    >>> Axis("data", "device", extent=4)
    Axis(name='data', kind='device', scope=None, extent=4, doc='')
    """

    name: str
    kind: AxisKind = "device"
    scope: tuple[str, str] | None = None
    extent: int | None = None
    doc: str = ""

    def __post_init__(self) -> None:
        check_name(self.name)
        if self.kind not in KINDS:
            raise LayoutError(f"axis kind must be one of {', '.join(KINDS)}, "
                              f"got {shown(self.kind)}")
        extent = self.extent
        if extent is not None and (not isinstance(extent, int) or isinstance(extent, bool)
                                   or not 1 <= extent < 1 << 62):
            raise LayoutError(f"axis extent must be a positive integer or None, "
                              f"got {shown(extent)}"[:200])
        scope = self.scope
        if scope is not None and (not isinstance(scope, tuple) or len(scope) != 2
                                  or not all(isinstance(s, str) for s in scope)):
            raise LayoutError(f"axis scope must be a pair of names like ('thread', 'warp'), "
                              f"got {shown(scope)}"[:200])
        if not isinstance(self.doc, str):
            raise LayoutError(f"axis doc must be a string, got {type(self.doc).__name__}")

    @property
    def plain(self) -> bool:
        """Whether this is a device axis with nothing else said (no extent, scope or doc):
        what a bare name declares.

        >>> Axis("x").plain, Axis("x", extent=2).plain
        (True, False)
        """
        return self.kind == "device" and self.scope is None and self.extent is None \
            and not self.doc


_BUILTIN: tuple[Axis, ...] = (
    Axis("m", "memory", doc="linear memory address or register slot, in elements"),
    Axis("TLane", "memory", extent=128, doc="Blackwell tensor-memory lane (row)"),
    Axis(
        "TCol",
        "memory",
        extent=512,
        doc="Blackwell tensor-memory column; layouts count it in elements of the stored type "
        "(four 8-bit values per 32-bit cell); the hardware has 512 32-bit columns",
    ),
    Axis("P", "memory", extent=128, doc="Trainium SBUF/PSUM partition"),
    Axis("F", "memory", doc="Trainium free (within-partition) offset"),
    Axis("Bank", "memory", extent=8, doc="Trainium PSUM bank (8 per partition)"),
    Axis("laneid", "thread", ("thread", "warp"), 32, "lane within a warp"),
    Axis("warpid", "thread", ("warp", "cta"), None, "warp within a CTA"),
    Axis("tx", "thread", ("thread", "cta"), None, "thread within a CTA (threadIdx.x)"),
    Axis("tid_in_wg", "thread", ("thread", "warpgroup"), 128, "thread within a warpgroup"),
    Axis("wid_in_wg", "thread", ("warp", "warpgroup"), 4, "warp within a warpgroup"),
    Axis("wgid", "thread", ("warpgroup", "cta"), None, "warpgroup within a CTA"),
    Axis("bx", "thread", ("cta", "kernel"), None, "CTA index x (blockIdx.x)"),
    Axis("by", "thread", ("cta", "kernel"), None, "CTA index y (blockIdx.y)"),
    Axis("bz", "thread", ("cta", "kernel"), None, "CTA index z (blockIdx.z)"),
    Axis("cbx", "thread", ("cta", "cluster"), None, "CTA index x within a cluster"),
    Axis("cby", "thread", ("cta", "cluster"), None, "CTA index y within a cluster"),
    Axis("cbz", "thread", ("cta", "cluster"), None, "CTA index z within a cluster"),
    Axis("pid", "device", doc="device (process) index"),
)
_BUILTIN_BY_NAME = MappingProxyType({a.name: a for a in _BUILTIN})

#: what declares an axis: a name (a plain device axis), an :class:`Axis`, or a table
#: (its declared axes)
Declaration = str | Axis


class AxisTable:
    """An immutable table of axes: the built-ins plus ``declared`` (user axes, e.g. the
    axes of a device mesh), by name. Equal tables declare the same axes.

    ``with table:`` makes it the table in force for the block (this thread / task);
    :meth:`with_axis` and :meth:`with_axes` return new tables.

    >>> t = AxisTable().with_axis("stage", extent=4)
    >>> t
    AxisTable((Axis(name='stage', kind='device', scope=None, extent=4, doc=''),))
    >>> "stage" in t, "stage" in AxisTable(), t["laneid"].extent
    (True, False, 32)
    """

    __slots__ = ("_declared", "_by_name", "_hash")
    _declared: tuple[Axis, ...]
    _by_name: Mapping[str, Axis]
    _hash: int

    def __init__(self, declared: Iterable[Axis] = ()) -> None:
        by_name = dict(_BUILTIN_BY_NAME)
        mine: list[Axis] = []
        for ax in declared:
            if not isinstance(ax, Axis):
                raise LayoutError(f"an AxisTable holds Axis values, got {shown(ax)}")
            old = by_name.get(ax.name)
            if old is not None:
                if old != ax:
                    raise _clash(old, ax)
                continue
            by_name[ax.name] = ax
            mine.append(ax)
        object.__setattr__(self, "_declared", tuple(mine))
        object.__setattr__(self, "_by_name", MappingProxyType(by_name))
        object.__setattr__(self, "_hash", hash(self._declared))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an AxisTable is immutable; with_axes(...) returns a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("an AxisTable is immutable")

    # -- reading ------------------------------------------------------------------------
    @property
    def declared(self) -> tuple[Axis, ...]:
        """The user axes (not the built-ins), in declaration order."""
        return self._declared

    def __iter__(self) -> Iterator[Axis]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._by_name

    def get(self, name: str) -> Axis | None:
        """The axis called ``name``, or ``None``."""
        return self._by_name.get(name) if isinstance(name, str) else None

    def __getitem__(self, name: str) -> Axis:
        found = self.get(name)
        if found is None:
            if not isinstance(name, str):
                raise UnknownAxisError(f"an axis name is a string, got {type(name).__name__}")
            raise UnknownAxisError(self.unknown_message(name))
        return found

    def unknown_message(self, name: str) -> str:
        """Why ``name`` is refused: the nearest known name, and how to declare it.

        >>> AxisTable().unknown_message("lane").split("?")[0]
        "unknown axis 'lane'; did you mean 'laneid'"
        """
        if len(name) > MAX_NAME:
            return f"unknown axis '{name[:40]}...' ({len(name)} characters; axis names are short)"
        names = list(self._by_name)
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
        if not close:
            lowered = {k.lower(): k for k in names}
            if name.lower() in lowered:
                close = [lowered[name.lower()]]
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return (f"unknown axis '{name}'{hint} (declare your own axes: "
                f"tilelayout.parse(text, axes=['{name}']) or with tilelayout.axes('{name}'))")

    # -- new tables ---------------------------------------------------------------------
    def with_axis(self, name: str, kind: AxisKind = "device", *, extent: int | None = None,
                  scope: tuple[str, str] | None = None, doc: str = "") -> AxisTable:
        """This table plus one axis. Declaring a name again with the same properties, or
        with only the same kind (no extent, scope or doc), changes nothing; a different
        kind, extent or scope is an error.

        >>> AxisTable().with_axis("laneid", "thread") == AxisTable()
        True
        """
        return self.with_axes(Axis(name, kind, scope, extent, doc))  # checked there (_declared)

    def with_axes(self, *declared: Declaration | AxisTable,
                  **extents: int | None) -> AxisTable:
        """This table plus ``declared`` (names: plain device axes; :class:`Axis` values;
        tables: their declared axes) and ``extents`` (``name=size``: a device axis of
        that extent, ``name=None``: of none).

        >>> [a.name for a in AxisTable().with_axes("x", y=2).declared]
        ['x', 'y']
        """
        new = [_declared(self, ax) for ax in _axes_of(declared, extents)]
        fresh = [ax for ax in dict.fromkeys(new) if ax.name not in self._by_name]
        return AxisTable(self._declared + tuple(fresh)) if fresh else self

    # -- the table in force ---------------------------------------------------------------
    def __enter__(self) -> AxisTable:
        _stack.set((*_stack.get(), self))
        return self

    def __exit__(self, *exc: object) -> None:
        _stack.set(_stack.get()[:-1])

    # -- value semantics ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AxisTable):
            return NotImplemented
        return self._declared == other._declared

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (AxisTable, (self._declared,))

    def __repr__(self) -> str:
        return f"AxisTable({self._declared!r})" if self._declared else "AxisTable()"


def _clash(old: Axis, new: Axis) -> LayoutError:
    return LayoutError(
        f"axis '{new.name}' is already declared as {old.kind}"
        f"{'' if old.extent is None else f' with extent {old.extent}'}"
        f"{'' if old.scope is None else f' (scope {old.scope[0]} in {old.scope[1]})'}")


def _declared(table: AxisTable, ax: Axis) -> Axis:
    """``ax`` as ``table`` would hold it: the existing axis when ``ax`` says nothing more
    than its kind, ``ax`` when new, an error when it contradicts the existing one."""
    old = table.get(ax.name)
    if old is None or old == ax:
        return ax if old is None else old
    loose = ax.extent is None and ax.scope is None and not ax.doc and old.kind == ax.kind
    if not loose and (old.kind, old.scope, old.extent) != (ax.kind, ax.scope, ax.extent):
        raise _clash(old, ax)
    return old


def _axes_of(declared: Iterable[object], extents: Mapping[str, object]) -> list[Axis]:
    out: list[Axis] = []
    for item in declared:
        if isinstance(item, AxisTable):
            out += item.declared
        elif isinstance(item, Axis):
            out.append(item)
        elif isinstance(item, str):
            out.append(Axis(item))  # the name checked by Axis
        else:
            raise LayoutError(f"an axis declaration is a name, an Axis or an AxisTable, "
                              f"got {shown(item)}")
    for name, extent in extents.items():
        out.append(Axis(name, "device", extent=extent))  # type: ignore[arg-type]
    return out


#: the built-in axes alone
BUILTIN = AxisTable()

#: the tables put in force by ``with`` blocks, innermost last (a tuple: never mutated)
_stack: contextvars.ContextVar[tuple[AxisTable, ...]] = contextvars.ContextVar(
    "tilelayout_axes", default=())


def current() -> AxisTable:
    """The table in force here: the innermost ``with table:`` block's, else the built-ins.

    >>> current() == BUILTIN
    True
    """
    stack = _stack.get()
    return stack[-1] if stack else BUILTIN


AxesSpec = AxisTable | Declaration | Iterable[Declaration] | Mapping[str, int | None] | None


def table_of(spec: AxesSpec) -> AxisTable:
    """The table an ``axes=`` keyword means: ``None`` the table in force, a table itself,
    anything else (a name, an :class:`Axis`, a list of them, a mapping name -> extent)
    the table in force plus those declarations.

    >>> [a.name for a in table_of(["x", "y"]).declared], table_of(None) is current()
    (['x', 'y'], True)
    """
    if spec is None:
        return current()
    if isinstance(spec, AxisTable):
        return spec
    if isinstance(spec, str | Axis):
        return current().with_axes(spec)
    if isinstance(spec, Mapping):
        return current().with_axes(**{check_name(k): v for k, v in spec.items()})
    if isinstance(spec, Iterable):
        return current().with_axes(*spec)
    raise LayoutError(f"axes= takes an AxisTable, names or Axis values, or a mapping "
                      f"name -> extent; got {shown(spec)}")


def axes(*declared: Declaration | AxisTable, **extents: int | None) -> AxisTable:
    """The table in force plus ``declared`` and ``extents`` (see
    :meth:`AxisTable.with_axes`); in a ``with`` statement it is in force for the block.

    ``tl.axes()`` is the table in force: iterate it for every axis, built-in first.

    >>> [a.name for a in axes()][:3]
    ['m', 'TLane', 'TCol']
    >>> with axes("data", model=4):
    ...     is_axis("model"), axis("model").extent
    (True, 4)
    >>> is_axis("model")
    False
    """
    return current().with_axes(*declared, **extents)


def axis(name: str, axes: AxesSpec = None) -> Axis:
    """The axis called ``name`` in ``axes`` (the table in force by default); an unknown
    name suggests the nearest one.

    >>> axis("TLane").extent
    128
    """
    return table_of(axes)[name]


def axis_of(name: str, axes: AxesSpec = None) -> Axis:
    """What ``name`` means to an analysis of a layout: its axis in ``axes`` (the table in
    force by default), or a plain device axis for a name the table does not know (the
    layout was built under other declarations; evaluation never needs them).

    >>> axis_of("laneid").kind, axis_of("data")
    ('thread', Axis(name='data', kind='device', scope=None, extent=None, doc=''))
    """
    return table_of(axes).get(name) or Axis(name)  # the name checked by Axis


def is_axis(name: str, axes: AxesSpec = None) -> bool:
    """Whether ``name`` is an axis of ``axes`` (the table in force by default).

    >>> is_axis("laneid"), is_axis("lane")
    (True, False)
    """
    return name in table_of(axes)


def is_thread_axis(name: str, axes: AxesSpec = None) -> bool:
    """Whether ``name`` is a thread axis (a lane, warp, CTA... index) in ``axes`` (the
    table in force by default): the one test of "is this a thread axis" every layer uses.

    >>> is_thread_axis("laneid"), is_thread_axis("m"), is_thread_axis("lane")
    (True, False, False)
    """
    found = table_of(axes).get(name)
    return found is not None and found.kind == "thread"


def declare_axis(
    name: str,
    kind: AxisKind = "device",
    *,
    extent: int | None = None,
    scope: tuple[str, str] | None = None,
    doc: str = "",
) -> Axis:
    """A user axis (e.g. a mesh axis), checked against the table in force, as a value.

    It registers nothing: use it with ``tl.parse(text, axes=[ax])`` or in force for a
    block, ``with tl.axes(ax): ...``. Declaring a name the table already has with the
    same properties, or with only the same kind, returns the existing axis; a different
    kind, extent or scope is an error.

    >>> ax = declare_axis("stage", kind="device", extent=4)
    >>> ax.extent, is_axis("stage"), is_axis("stage", [ax])
    (4, False, True)
    """
    return _declared(current(), Axis(name, kind, scope, extent, doc))


def check_axis(name: str, axes: AxesSpec = None) -> str:
    """``name`` if ``axes`` (the table in force by default) has it, else an
    :class:`UnknownAxisError` with the nearest name: for names a person writes.

    >>> check_axis("warpid")
    'warpid'
    """
    return table_of(axes)[name].name
