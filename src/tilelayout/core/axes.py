"""The axis registry: named physical resources, their kind, scope and fixed extent.

An axis is where a layout puts a logical element: a memory address (``m``), a
tensor-memory lane (``TLane``), a GPU lane (``laneid``), a device (``pid``). The
registry knows the hardware extents that are fixed (32 lanes per warp, 128 TMEM
lanes, ...), so analyses can say "lane 40 does not exist"; evaluation never checks
them.

>>> import tilelayout as tl
>>> tl.axis("laneid").extent
32
>>> tl.declare_axis("data", kind="device").kind
'device'
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from .errors import LayoutError, UnknownAxisError, shown

AxisKind = Literal["memory", "thread", "device"]
KINDS: tuple[str, ...] = ("memory", "thread", "device")

#: Shared memory has 32 banks of 4 bytes (CUDA programming guide, CC 5.x+).
#: scope levels, innermost first (cluster and kernel both sit above cta)
SCOPE_LEVEL = MappingProxyType(
    {"thread": 0, "warp": 1, "warpgroup": 2, "cta": 3, "cluster": 4, "kernel": 5})
SMEM_BANKS = 32
SMEM_BANK_BYTES = 4


@dataclass(frozen=True)
class Axis:
    """One named physical resource.

    ``scope`` is ``(subscope, scope)`` for thread axes, e.g. ``("thread", "warp")``
    for ``laneid``: the axis counts threads inside one warp. ``extent`` is the
    hardware-fixed number of values, or ``None`` when the hardware does not fix it.
    """

    name: str
    kind: AxisKind
    scope: tuple[str, str] | None = None
    extent: int | None = None
    doc: str = ""


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

_lock = threading.Lock()
_registry: dict[str, Axis] = {a.name: a for a in _BUILTIN}
#: axes declared inside a :func:`scoped_axes` block (one dict per block, never global)
_scoped: contextvars.ContextVar[dict[str, Axis] | None] = contextvars.ContextVar(
    "tilelayout_scoped_axes", default=None)


def _lookup(name: str) -> Axis | None:
    found = _registry.get(name)
    if found is None:
        local = _scoped.get()
        if local is not None:
            found = local.get(name)
    return found


def in_scoped_axes() -> bool:
    """Whether the caller runs inside a :func:`scoped_axes` block (declarations made now
    stay local to it).

    >>> in_scoped_axes()
    False
    """
    return _scoped.get() is not None


def scoped_axis_names() -> frozenset[str]:
    """The names of the axes declared in the current :func:`scoped_axes` block (empty
    outside one): what a text parsed here may name beyond the global registry.

    >>> with scoped_axes():
    ...     _ = declare_axis("scratch_tp", kind="device")
    ...     sorted(scoped_axis_names())
    ['scratch_tp']
    """
    return frozenset(_scoped.get() or ())


@contextlib.contextmanager
def scoped_axes() -> Iterator[dict[str, Axis]]:
    """Axes declared inside this block exist only inside it (this thread / task); a
    block inside another sees the outer block's axes, and its own vanish at its end.

    The explorer serves each request in such a block, so a request that declares mesh
    axes never grows the global registry.

    >>> with scoped_axes():
    ...     _ = declare_axis("scratch_dp", kind="device")
    ...     is_axis("scratch_dp")
    True
    >>> is_axis("scratch_dp")
    False
    """
    local: dict[str, Axis] = dict(_scoped.get() or {})  # a nested block sees the outer's
    token = _scoped.set(local)
    try:
        yield local  # the live dict (an empty one too)
    finally:
        _scoped.reset(token)


def _is_identifier(name: str) -> bool:
    return name.isidentifier()


def axis(name: str) -> Axis:
    """The registered axis called ``name``; unknown names suggest the nearest one.

    >>> axis("TLane").extent
    128
    """
    if not isinstance(name, str):
        raise UnknownAxisError(f"an axis name is a string, got {type(name).__name__}")
    found = _lookup(name)
    if found is None:
        raise UnknownAxisError(_unknown_message(name))
    return found


def _unknown_message(name: str) -> str:
    if len(name) > 64:
        return f"unknown axis '{name[:40]}...' ({len(name)} characters; axis names are short)"
    close = difflib.get_close_matches(name, list(_registry), n=1, cutoff=0.5)
    if not close:
        lowered = {k.lower(): k for k in _registry}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return (
        f"unknown axis '{name}'{hint} (declare your own with "
        f"tilelayout.declare_axis('{name}', kind='device'))"
    )


def is_axis(name: str) -> bool:
    """Whether ``name`` is a registered axis.

    >>> is_axis("laneid"), is_axis("lane")
    (True, False)
    """
    return isinstance(name, str) and _lookup(name) is not None


def is_thread_axis(name: str) -> bool:
    """Whether ``name`` is a registered thread axis (a lane, warp, CTA... index): the one
    test of "is this a thread axis" every layer uses.

    >>> is_thread_axis("laneid"), is_thread_axis("m"), is_thread_axis("lane")
    (True, False, False)
    """
    found = _lookup(name) if isinstance(name, str) else None
    return found is not None and found.kind == "thread"


def axes() -> tuple[Axis, ...]:
    """Every registered axis, built-in first, in registration order.

    >>> [a.name for a in axes()][:3]
    ['m', 'TLane', 'TCol']
    """
    local = _scoped.get() or {}
    return tuple(_registry.values()) + tuple(a for n, a in local.items() if n not in _registry)


def declare_axis(
    name: str,
    kind: AxisKind = "device",
    *,
    extent: int | None = None,
    scope: tuple[str, str] | None = None,
    doc: str = "",
) -> Axis:
    """Register a user axis (e.g. a mesh axis) and return it.

    Declaring the same axis again with the same properties, or with only the same
    kind (no extent, no scope), is a no-op that returns the registered axis; declaring an
    existing name with a different kind, extent or scope is an error.

    >>> declare_axis("stage", kind="device", extent=4).extent
    4
    """
    if not isinstance(name, str) or not _is_identifier(name) or len(name) > 64:
        raise LayoutError(f"axis name must be an identifier of at most 64 characters, "
                          f"got {shown(name)}")
    if kind not in KINDS:
        raise LayoutError(f"axis kind must be one of {', '.join(KINDS)}, got {shown(kind)}")
    if extent is not None and (not isinstance(extent, int) or isinstance(extent, bool)
                               or not 1 <= extent < 1 << 62):
        raise LayoutError(f"axis extent must be a positive integer or None, got {shown(extent)}"[:200])
    if scope is not None and (not isinstance(scope, tuple) or len(scope) != 2
                              or not all(isinstance(s, str) for s in scope)):
        raise LayoutError(f"axis scope must be a pair of names like ('thread', 'warp'), "
                          f"got {shown(scope)}"[:200])
    if not isinstance(doc, str):
        raise LayoutError(f"axis doc must be a string, got {type(doc).__name__}")
    new = Axis(name, kind, scope, extent, doc)
    local = _scoped.get()
    with _lock:
        old = _lookup(name)
        if old is not None:
            loose = extent is None and scope is None and old.kind == kind
            if not loose and (old.kind, old.scope, old.extent) != (kind, scope, extent):
                raise LayoutError(
                    f"axis '{name}' is already declared as {old.kind}"
                    f"{'' if old.extent is None else f' with extent {old.extent}'}"
                )
            return old
        (_registry if local is None else local)[name] = new
    return new


def check_axis(name: str) -> str:
    """Return ``name`` if it is registered, else raise :class:`UnknownAxisError`."""
    if not isinstance(name, str):
        raise LayoutError(f"axis name must be a string, got {type(name).__name__}")
    if _lookup(name) is None:
        raise UnknownAxisError(_unknown_message(name))
    return name
