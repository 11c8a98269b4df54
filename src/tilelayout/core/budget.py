"""The resource model: what every operation costs, known before it runs, and the limits.

Each public entry point computes its cost from the layout's structure (never by trying)
and calls :func:`check` before it enumerates or allocates anything. Over a limit it
raises :class:`~tilelayout.BudgetError` naming the cost and the limit. The limits
are a :class:`Limits` value read from a context variable, so a caller raises them for
one block (``with tl.limits(replicas=1 << 24): ...``), one call (``limits=`` keyword),
one command (``--max-replicas``) or one server (``tilelayout serve --max-elements``),
and concurrent requests of a server never see each other's limits.

The model itself is bounded too (:data:`MAX_INT_BITS`): every integer of a layout,
its element count and every coordinate value fit in 256 bits, so no operation meets
Python's 4,300-digit limit; int64 work is checked separately where it happens.

>>> import tilelayout as tl
>>> L = tl.parse("S[4] + R[1048576:1@pid]")
>>> L.base(0)
{m: 0, pid: 0}
>>> L.apply(0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tilelayout.core.errors.BudgetError: apply enumerates 1,048,576 replica combinations, over ...
>>> with tl.limits(replicas=1 << 20):
...     len(L.apply(0))
1048576
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import MappingProxyType

from .errors import BudgetError, LayoutError, shown

#: every integer in a layout (extent, stride, offset), its element count and every
#: coordinate value it can produce have fewer bits than this (in magnitude)
MAX_INT_BITS = 256

#: how each limit is raised, for the messages (library keyword, CLI flag)
_FLAGS = MappingProxyType({
    "elements": "--max-elements",
    "replicas": "--max-replicas",
    "output_bytes": "--max-output-bytes",
    "text": "--max-text",
    "search": "--max-search",
    "cells": "--max-cells",
    "seconds": "--max-seconds",
})
_UNITS = MappingProxyType({"elements": "elements", "replicas": "replica combinations",
                           "output_bytes": "bytes", "text": "characters", "search": "candidates",
                           "cells": "cells", "seconds": "seconds"})


@dataclass(frozen=True)
class Limits:
    """How much one operation may do. Every field is raised the same ways (see module doc).

    * ``elements``: logical elements (or element x replica pairs) one operation evaluates
      or scans at once (``map_all``, tables, pictures, inverse-query scans).
    * ``replicas``: replica combinations enumerated for one element (``apply``,
      ``explain``); ``base`` never enumerates them.
    * ``output_bytes``: bytes of the arrays or text an operation builds for its answer.
    * ``text``: characters of layout text the parser reads.
    * ``search``: candidates an inverse query or an algebra search may try.
    * ``cells``: elements formatted one by one (text tables, pictures), slower per
      element than the vectorized work ``elements`` counts.
    * ``seconds``: wall-clock budget of the block (``None``: none). Long loops check
      it and stop with a :class:`~tilelayout.BudgetError` once it has passed.

    >>> Limits().replicas, Limits(replicas=8).replace(text=100).text
    (16384, 100)
    """

    elements: int = 1 << 22
    replicas: int = 1 << 14
    output_bytes: int = 1 << 27
    text: int = 1 << 18
    search: int = 1 << 22
    cells: int = 1 << 17
    seconds: float | None = None

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "seconds":
                if value is not None and (isinstance(value, bool)
                                          or not isinstance(value, int | float)
                                          or not 0 < value < 1e9):
                    raise LayoutError(f"limit seconds must be a positive number or None, "
                                      f"got {shown(value)}")
            elif isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 1 << 62:
                raise LayoutError(f"limit {f.name} must be a positive integer below 2**62, "
                                  f"got {shown(value)}")

    def replace(self, **changes: int | float | None) -> Limits:
        """A copy with some limits changed (unknown names are refused).

        >>> Limits().replace(elements=10).elements
        10
        """
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise LayoutError(f"unknown limit {key!r}; the limits are {', '.join(sorted(names))}")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


#: the names of the limits (the fields of :class:`Limits`)
NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Limits))


def changed(base: Limits, values: dict[str, int | float | None]) -> Limits:
    """``base`` with the limits in ``values`` that are not ``None`` changed (how the
    ``--max-*`` options of the CLI and of ``tilelayout serve`` are applied).

    >>> changed(Limits(), {"replicas": 8, "elements": None}).replicas
    8
    """
    return base.replace(**{k: v for k, v in values.items() if v is not None})


_current: contextvars.ContextVar[Limits] = contextvars.ContextVar("tilelayout_limits",
                                                                 default=Limits())  # noqa: B039
_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("tilelayout_deadline",
                                                                        default=None)


def current() -> Limits:
    """The limits in force here (the defaults unless a caller raised or lowered them).

    >>> current().text
    262144
    """
    return _current.get()


@contextlib.contextmanager
def limits(base: Limits | None = None, **changes: int | float | None) -> Iterator[Limits]:
    """Use other limits inside a ``with`` block (this thread / task only).

    ``base`` replaces the limits in force, ``changes`` adjust single fields. A
    ``seconds`` limit starts its clock when the block is entered.

    >>> import tilelayout as tl
    >>> with tl.limits(elements=8):
    ...     tl.parse("S[16:1]").map_all()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.BudgetError: map_all evaluates 16 elements, over the limit of 8 ...
    """
    new = (base or current()).replace(**changes) if changes else (base or current())
    token = _current.set(new)
    deadline = None
    if new.seconds is not None:
        deadline = time.monotonic() + new.seconds
        old = _deadline.get()
        if old is not None:
            deadline = min(deadline, old)
    dtoken = _deadline.set(deadline)
    try:
        yield new
    finally:
        _deadline.reset(dtoken)
        _current.reset(token)


def using(given: Limits | None) -> contextlib.AbstractContextManager[Limits]:
    """The context for a ``limits=`` keyword: ``given`` if set, else the limits in force."""
    return limits(given) if given is not None else contextlib.nullcontext(current())


def refuse(what: str, cost: int | float, name: str) -> BudgetError:
    """The error for ``what`` costing ``cost`` against limit ``name``."""
    limit = getattr(current(), name)
    unit = _UNITS[name]
    shown = f"{cost:,}" if cost < 10 ** 30 else f"about 2**{int(cost).bit_length()}"
    return BudgetError(
        f"{what} {shown} {unit}, over the limit of {limit:,} "
        f"(raise it: tl.limits({name}=...), limits= keyword, or {_FLAGS[name]})",
        name=name, cost=cost, limit=limit)


def check(what: str, cost: int, name: str) -> None:
    """Refuse ``what`` (e.g. ``"map_all evaluates"``) if ``cost`` exceeds limit ``name``.

    >>> check("this costs", 3, "elements")
    >>> with limits(elements=2):
    ...     check("this costs", 3, "elements")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tilelayout.core.errors.BudgetError: this costs 3 elements, over the limit of 2 (raise ...
    """
    if cost > getattr(current(), name):
        raise refuse(what, cost, name)
    checkpoint()


def checkpoint() -> None:
    """Stop with a :class:`~tilelayout.BudgetError` if the ``seconds`` budget has passed.

    Long loops call it every few thousand steps; it costs one context-variable read.
    """
    deadline = _deadline.get()
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetError(f"the work took longer than its budget of {current().seconds} "
                          f"seconds (raise it: tl.limits(seconds=...) or --max-seconds)",
                          name="seconds", cost=current().seconds or 0,
                          limit=current().seconds or 0)


def product(values: Iterable[int], cap: int) -> int:
    """``math.prod(values)``, but stops at the first partial product above ``cap``
    (then returns that partial product): cheap even for many huge factors.

    >>> product([2, 3, 4], 100), product([10**9] * 1000, 10**20) < 10**30
    (24, True)
    """
    out = 1
    for v in values:
        out *= v
        if out > cap:
            return out
    return out


def bounded_int(value: int, what: str) -> int:
    """``value`` if its magnitude is below ``2**MAX_INT_BITS``, else a LayoutError that
    does not print it (printing a huge int can itself fail).

    >>> bounded_int(-5, "stride")
    -5
    """
    if value.bit_length() >= MAX_INT_BITS:
        raise LayoutError(f"{what} has {value.bit_length()} bits; layouts hold integers below "
                          f"2**{MAX_INT_BITS}")
    return value


def replica_cost(layout: object) -> int:
    """Replica combinations that ``apply`` enumerates: those of replica iters that move
    (a stride-0 replica only repeats coordinates and costs nothing).

    >>> import tilelayout as tl
    >>> replica_cost(tl.parse("S[4] + R[(8,1024):(1@pid,0)]"))
    8
    """
    return math.prod(it.extent for it in layout.replica if it.stride != 0)  # type: ignore[attr-defined]


def array_cost(layout: object, shape_size: int | None = None) -> tuple[int, int]:
    """``(element x replica pairs, bytes)`` of ``map_all``: one int64 per pair and axis.

    >>> import tilelayout as tl
    >>> array_cost(tl.parse("S[(8,16):(16@laneid,1)] + R[2:1@pid]"))
    (256, 6144)
    """
    size = layout.size() if shape_size is None else shape_size  # type: ignore[attr-defined]
    pairs = size * layout.replica_count  # type: ignore[attr-defined]
    return pairs, pairs * 8 * max(1, len(layout.axes))  # type: ignore[attr-defined]


def check_arrays(what: str, layout: object) -> None:
    """Refuse a full evaluation of ``layout`` over the ``elements`` or ``output_bytes`` limit."""
    pairs, nbytes = array_cost(layout)
    check(what, pairs, "elements")
    check(what.replace("evaluates", "allocates"), nbytes, "output_bytes")
