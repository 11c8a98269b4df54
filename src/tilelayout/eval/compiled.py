"""Compiled scalar evaluation: one Python function per layout and shape, built once.

``base`` and ``apply`` on Python ints are the hot path of every per-element loop. For
each (layout, shape) this module renders the layout's simplified forward expressions
(:mod:`tilelayout.eval.expressions`) as small Python functions, each compiled when it is
called the second time (:class:`Lazy`: the first call is answered step by step,
:mod:`tilelayout.eval.stepwise`, and a program that only calls ``base`` never compiles
``apply``), and keeps them in a bounded least-recently-used cache keyed by the layout *value* and the
shape (:func:`plan_for`; layouts are immutable and hold no cache themselves). The hot path
(:func:`tilelayout.eval.forward.base` / ``apply``, through :data:`PLANS`) finds a layout
object's plan by the key the layout made of itself when
it was built (:class:`~tilelayout.core.operations.LayoutKey`, a weak reference whose hash
CPython computes once): no Python-level ``__hash__`` per call. The function validates the index
inline (tuples of in-range ints, or an in-range flat int) and hands anything else
(numpy integers, lists, out-of-range or malformed indices) to the general path, which
converts it or raises the usual one-line error. Arithmetic stays on exact Python ints.
The source is generated as a template with its integers as placeholders: layouts whose code
differs only in those integers share one compiled code (:mod:`.shared_code`).

Safety: the source text compiled for ``exec`` is produced only by this library's own code
generator from validated integers (extents, strides, offsets, shape entries; or the
placeholder integers a template is compiled with) and axis
names (identifiers, :func:`~tilelayout.core.axes.check_name`), which appear only as
``repr()`` string literals or, after a strict identifier check
(:func:`~tilelayout.eval.names.local_names`), as local variable names.
No user-supplied text ever reaches it.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> plan_for(L, (8, 16)).apply((0, 8))
({laneid: 0, warpid: 6, m: 0}, {laneid: 0, warpid: 10, m: 0})
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import budget
from ..core.compose import Layout, tile_of
from ..core.coord import Coord, make_coord
from ..core.operations import LayoutKey
from ..core.shape import Shape, flat_index, unflatten
from .expressions import Expr, binary, const, forward_program, render, var, xor_expr, xor_images
from .shared_code import Literals, code_of, source_of
from .stepwise import evaluators, first_apply, first_base, replica_deltas

#: a generated function's source: its template and the integers of its placeholders (.shared_code)
Template = tuple[str, tuple[int, ...]]
#: replica combinations unrolled into straight-line code; beyond this a loop
_UNROLL = 16
#: (layout, shape) plans kept (least recently used dropped first)
PLAN_CACHE_SIZE = 256
#: replica combinations up to which a plan keeps its compiled ``apply`` (and the replica
#: deltas it holds); beyond, each call lists them again (step by step), at a cost of the
#: same order as the answer's size, so the cache's memory stays bounded
KEEP_APPLY_REPLICAS = 1024


class Lazy:
    """A compiled evaluator made when it is needed, then kept: a memo of a pure function
    (the generated source depends only on the layout value and the shape), so a plan
    compiles only what is called -- ``base`` alone costs no ``apply``, and the reverse.

    Calling it answers the first call step by step (``first``, :mod:`.stepwise`: no
    compiling, so a layout evaluated once never pays it) and compiles on the second;
    :meth:`function` gives the compiled function itself (compiling it now), which the
    per-object entries (:class:`Entry`) call directly once it exists.
    """

    __slots__ = ("_make", "_first", "_text", "_fn")

    def __init__(self, make: Callable[[], tuple[Template, Callable[[Any], Any]]],
                 first: Callable[[Any], Any] | None = None) -> None:
        self._make = make
        self._first = first
        self._text: Template | None = None
        self._fn: Callable[[Any], Any] | None = None

    def function(self) -> Callable[[Any], Any]:
        """The compiled function (compiled now if it was not yet)."""
        fn = self._fn
        if fn is None:  # two threads may both compile: equal functions, either is kept
            self._text, fn = self._make()
            self._fn = fn
        return fn

    @property
    def compiled(self) -> bool:
        """Whether the function has been compiled (it is on its first call)."""
        return self._fn is not None

    def text(self) -> str:
        """The function's generated source (compiling it)."""
        return source_of(*self.template())

    def template(self) -> Template:
        """The function's generated source as a template and the integers of its placeholders
        (:mod:`.shared_code`; compiling it)."""
        self.function()
        assert self._text is not None
        return self._text

    def __call__(self, index: Any) -> Any:
        fn = self._fn
        if fn is None:
            first, self._first = self._first, None
            if first is not None:  # the first call: step by step; the next one compiles
                return first(index)
            fn = self.function()
        return fn(index)


def _function(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return fn.function() if type(fn) is Lazy else fn


@dataclass(frozen=True, slots=True)
class Plan:
    """The evaluators of one layout over one shape (an immutable value).

    ``base`` and ``apply`` are each compiled when called a second time (:class:`Lazy`).
    ``apply`` is compiled and kept when the layout has at most :data:`KEEP_APPLY_REPLICAS`
    moving replica combinations; beyond, it is evaluated step by step on each call
    (:mod:`.stepwise`), at a cost of the same order as the answer's size, so a kept plan's
    memory stays bounded. An ``apply`` over more
    than one combination checks the ``replicas`` limit on every call before any work
    (:func:`~tilelayout.core.budget.check`).
    """

    layout: Layout  # the value it was compiled from (its axis order is the coordinates')
    shape: Shape
    base: Callable[[Any], Coord]
    apply: Callable[[Any], tuple[Coord, ...]]
    replica_cost: int

    def for_layout(self, layout: Layout) -> Plan:
        """This plan for ``layout``, a layout equal to ``self.layout`` with the same axis
        order: the evaluators are shared, nothing is compiled."""
        return Plan(layout, self.shape, self.base, self.apply, self.replica_cost)

    @property
    def source(self) -> str:
        """The generated source of ``base`` and, when kept, ``apply`` (compiling them)."""
        texts = [f.text() for f in (self.base, self.apply) if type(f) is Lazy]
        return "\n".join(texts)


class Entry:
    """A layout object's plan over one shape as the hot path reads it
    (:func:`tilelayout.eval.forward.base` / ``apply``): ``base`` and ``apply`` are the
    plan's compiled functions themselves (each looked up on its first call, when it is
    compiled if no equal layout compiled it before), ``first`` the shape object the entry
    was made for. A record of the :data:`PLANS` cache, not a value.
    """

    __slots__ = ("plan", "first", "base", "apply")

    def __init__(self, plan: Plan, first: object) -> None:
        self.plan, self.first = plan, first
        self.base: Callable[[Any], Coord] = self._first_base
        self.apply: Callable[[Any], tuple[Coord, ...]] = self._first_apply

    def _first_base(self, index: Any) -> Coord:
        lazy = self.plan.base
        if type(lazy) is Lazy and not lazy.compiled:
            return lazy(index)  # answered step by step the first time, compiled the next
        self.base = fn = _function(lazy)
        return fn(index)

    def _first_apply(self, index: Any) -> tuple[Coord, ...]:
        lazy = self.plan.apply
        if type(lazy) is Lazy and not lazy.compiled:
            return lazy(index)
        self.apply = fn = _function(lazy)
        return fn(index)


def plan_for(layout: Layout, shape: Sequence[int] | None) -> Plan:
    """The plan of ``layout`` over ``shape`` (``None``: the default shape), compiled once
    per layout value and shape (:func:`cached_plan`).

    Equal layouts may list their offset-only axes in different orders, and a plan's
    coordinates follow the order of the layout it was compiled from: such a layout gets
    its own plan (:func:`_plan_in_order`).

    >>> import tilelayout as tl
    >>> plan_for(tl.parse("S[8:1] + 1@pid + 2@warpid"), None).base(3)
    {m: 3, pid: 1, warpid: 2}
    >>> plan_for(tl.parse("S[8:1] + 2@warpid + 1@pid"), None).base(3)  # an equal layout
    {m: 3, warpid: 2, pid: 1}
    """
    # (8.0, 16) equals (8, 16) as a key: only a tuple of exact ints is looked up unchecked
    if not (shape is None or type(shape) is tuple and all(type(x) is int for x in shape)):
        shape = layout.check_shape(shape)
    plan = cached_plan(layout, shape)
    if plan.layout is layout or plan.layout.axes == layout.axes:
        return plan
    return _plan_in_order(layout, layout.axes, shape)


# Caches, not state: pure functions of their (immutable, hashable) arguments, bounded.
@functools.lru_cache(maxsize=PLAN_CACHE_SIZE)
def cached_plan(layout: Layout, shape: Sequence[int] | int | None) -> Plan:
    """The plan of the layout value ``layout`` over ``shape`` as spelled (hashable);
    its ``layout`` may be another object equal to the one given (see :func:`plan_for`).

    >>> import tilelayout as tl
    >>> cached_plan(tl.parse("S[8:1]"), (8,)) is cached_plan(tl.parse("S[8:1]"), (8,))
    True
    """
    return _compile(layout, layout.check_shape(shape))


#: shapes per layout object whose plans :data:`PLANS` keeps (oldest dropped first; most
#: layouts are evaluated over one or two), so it holds at most 4 x PLAN_CACHE_SIZE plans
SHAPES_PER_LAYOUT = 4

# A cache, not state: bounded, and what it returns never depends on what was cached before.
#: ``{L._ref: {shape: entry}}``: per layout object (keyed by the key it holds of itself,
#: so a lookup hashes no layout) and per shape (hashable), the :class:`Entry` of the plan
#: whose ``layout`` is that very object, with the shape object it was first asked for
#: with. Two plain dictionary lookups on the hot path (:func:`tilelayout.eval.forward.base`);
#: a miss fills it (:func:`plan_entry`). At most :data:`PLAN_CACHE_SIZE` layouts x
#: :data:`SHAPES_PER_LAYOUT` shapes.
PLANS: dict[LayoutKey, dict[object, Entry]] = {}


def plan_entry(layout: Layout, shape: Sequence[int] | int | None) -> Entry:
    """The :class:`Entry` of ``layout`` over ``shape``: the plan whose ``layout`` is that
    very object, and the shape object it was first asked for with (``first``), kept in
    :data:`PLANS` (a shape that cannot be a key is not kept). The compiled functions come
    from :func:`plan_for` (compiled once per value, shared by equal layouts). ``(8.0, 16)``
    equals ``(8, 16)`` as a key, so a caller holding another shape object than ``first``
    checks its entries are ints (:func:`exact_shape`).

    >>> import tilelayout as tl
    >>> L, s = tl.parse("S[8:1] + 1@pid"), (8,)
    >>> entry = plan_entry(L, s)
    >>> entry.plan.layout is L, entry.first is s, entry.base(3), PLANS[L._ref][s] is entry
    (True, True, {m: 3, pid: 1}, True)
    """
    ref = layout._ref
    plan = plan_for(layout, shape)
    entry = Entry(plan if plan.layout is layout else plan.for_layout(layout), shape)
    shapes = PLANS.get(ref)
    if shapes is None:
        while len(PLANS) >= PLAN_CACHE_SIZE:  # drop the oldest (another thread may have)
            PLANS.pop(next(iter(PLANS), None), None)
        shapes = PLANS.setdefault(ref, {})
    while len(shapes) >= SHAPES_PER_LAYOUT:
        shapes.pop(next(iter(shapes), None), None)
    with contextlib.suppress(TypeError):  # an unhashable shape (a list): answered, not kept
        shapes[shape] = entry
    return entry


def exact_shape(shape: object) -> bool:
    """Whether ``shape`` is None, an int or a tuple of ints (no float, bool or numpy
    entries): a shape a cached plan may be used for without checking it again.

    >>> exact_shape((8, 16)), exact_shape((8.0, 16)), exact_shape((True, 16))
    (True, False, False)
    """
    if type(shape) is tuple:  # (forward.base / apply test a pair of ints inline first)
        return not [x for x in shape if type(x) is not int]
    return shape is None or type(shape) is int


@functools.lru_cache(maxsize=PLAN_CACHE_SIZE // 8)
def _plan_in_order(layout: Layout, axes: tuple[str, ...], shape: Sequence[int] | None) -> Plan:
    return _compile(layout, layout.check_shape(shape))


def _coord_text(axes: Sequence[str], values: Sequence[str]) -> str:
    pairs = "".join(f"({a!r}, {v}), " for a, v in zip(axes, values, strict=True))
    return f"_make(({pairs}))"


def _head(shape: Shape, spell: Literals) -> list[str]:
    """The generated function's first lines: ``index`` -> ``i0..i{d-1}`` by the fast
    inline checks, else by the general (converting, raising) path ``_dims``."""
    d = len(shape)
    args = [f"i{k}" for k in range(d)]
    size = 1
    for s in shape:
        size *= s
    head = ["def _entry(index):"]
    unpack = ", ".join(args) + ("," if d == 1 else "")
    if d:
        length = spell(d)
        checks = " and ".join(
            [f"type({a}) is int" for a in args]
            + [f"{spell(0)} <= {a} < {spell(s)}" for a, s in zip(args, shape, strict=True)])
        head += [
            f"    if type(index) is tuple and len(index) == {length}:",
            f"        {unpack} = index",
            f"        if not ({checks}):",
            f"            {unpack} = _dims(index)",
            f"    elif type(index) is int and {spell(0)} <= index < {spell(size)}:",
        ]
        flat, rest = [], "index"  # the flat index's digits, innermost first
        for k in range(d - 1, 0, -1):
            quotient = args[0] if k == 1 else "f"
            flat.append(f"        {quotient}, {args[k]} = divmod({rest}, {spell(shape[k])})")
            rest = "f"
        head += flat or [f"        {args[0]} = index"]
        head += ["    else:", f"        {unpack} = _dims(index)"]
    else:
        head += ["    _dims(index)"]
    return head


# A cache, not state: a pure function of its argument (a rank), bounded.
@functools.lru_cache(maxsize=16)
def head_lines(d: int) -> tuple[str, ...]:
    """:func:`_head` of any shape of rank ``d``, its integers the placeholders of
    :func:`head_values` (the text depends only on the rank).

    >>> from tilelayout.eval.shared_code import source_of
    >>> source_of(head_lines(2)[6], tuple(head_values((8, 16))))
    '        i0, i1 = divmod(index, 16)'
    """
    return tuple(_head((1,) * d, Literals()))


def head_values(shape: Shape) -> list[int]:
    """The integers of :func:`_head` of ``shape``, in text order: the rank, each
    dimension's bounds, the flat index's bounds, the extents its digits are read by.

    >>> spell = Literals()
    >>> _ = _head((2, 3, 4), spell)
    >>> head_values((2, 3, 4)) == spell.values
    True
    """
    if not shape:
        return []
    size = 1
    out = [len(shape)]
    for s in shape:
        out += (0, s)
        size *= s
    out += (0, size)
    out += shape[:0:-1]
    return out


class _Source:
    """The generated sources of one layout over one shape, each built when first asked
    for (a plan answered only step by step generates nothing). Each is generated as a
    template, its integers written as placeholders (:class:`~.shared_code.Literals`), so that
    sources differing only in their integers share one compiled code (:mod:`.shared_code`).
    """

    def __init__(self, layout: Layout, shape: Shape) -> None:
        self.layout, self.shape = layout, shape
        self.tile = tile_of(layout)
        self._lines: list[str] | None = None
        self._values: tuple[int, ...] = ()

    def lines(self) -> Literals:
        """The function's lines up to its return (the index checks and the axis values,
        in ``self._lines``), and the integers of their placeholders (a new :class:`Literals`
        to write the rest of the function with)."""
        if self._lines is None:
            args = [f"i{k}" for k in range(len(self.shape))]
            prog = forward_program(self.layout, self.shape, args, replicas=False, swizzle=False)
            self.names = prog.names
            self.images = xor_images(self.layout)
            self.m_pos = self.tile.axes.index("m") if self.images else -1
            self.outputs = prog.outputs
            spell = Literals(head_values(self.shape))
            head = list(head_lines(len(self.shape)))
            self._lines = head + [f"    {name} = {render(e, spell)}" for name, e in prog.locals_.items()]
            self._values = tuple(spell.values)
        return Literals(self._values)

    def assignments(self, spell: Literals, inline: bool) -> tuple[list[str], list[Expr]]:
        """The lines assigning the axes' values (only the swizzled ``m`` when ``inline``:
        each other value is written where it is used, once) and what each axis's value
        is then (its name, or its expression when inlined)."""
        lines, out = [], []
        for k, (name, e) in enumerate(zip(self.names, self.outputs, strict=True)):
            if (inline and k != self.m_pos) or (e.op == "var" and e.value == name):
                out.append(e)
                continue
            lines.append(f"    {name} = {render(e, spell)}")
            out.append(var(name))
        return lines, out

    def values(self, delta: Sequence[int], spell: Literals, axes: Sequence[Expr]) -> list[str]:
        """Each axis's value expression (``axes``) plus ``delta`` (swizzled on ``m``)."""
        out = []
        for k, (value, dk) in enumerate(zip(axes, delta, strict=True)):
            e = binary("+", value, const(dk)) if dk else value
            if k == self.m_pos:
                e = xor_expr(e, self.images)  # type: ignore[arg-type]
            out.append(render(e, spell))
        return out

    def run(self, lines: list[str], spell: Literals, name: str, **extra: Any) -> tuple[Template, Any]:
        """The template of ``lines`` (the function ``_entry`` renamed ``name``) with the
        integers of ``spell``, and that function compiled."""
        shape = self.shape

        def _dims(index: Any) -> tuple[int, ...]:
            return unflatten(flat_index(index, shape), shape)

        template = "\n".join(lines).replace("def _entry", f"def {name}", 1) + "\n"
        values = tuple(spell.values)
        namespace: dict[str, Any] = {"_make": make_coord, "_dims": _dims, **extra}
        # the template is generated here from identifier axis names only, its placeholders stand for
        # validated ints; its code is shared with sources differing only in their ints
        exec(code_of(template, values), namespace)  # noqa: S102
        return (template, values), namespace[name]

    def base(self) -> tuple[Template, Callable[[Any], Coord]]:
        """``base``'s source and compiled function."""
        spell = self.lines()
        assert self._lines is not None
        assigned, axes = self.assignments(spell, inline=True)
        ret = f"    return {_coord_text(self.tile.axes, self.values((0,) * len(axes), spell, axes))}"
        return self.run([*self._lines, *assigned, ret], spell, "_base")

    def apply(self, cost: int) -> tuple[Template, Callable[[Any], tuple[Coord, ...]]]:
        """``apply``'s source and compiled function (behind the ``replicas`` limit when
        there are ``cost`` > 1 combinations)."""
        spell = self.lines()
        assert self._lines is not None
        deltas = replica_deltas(self.layout)
        assigned, values = self.assignments(spell, inline=len(deltas) == 1)
        lines = [*self._lines, *assigned]
        axes = self.tile.axes
        if len(deltas) <= _UNROLL:
            coords = ", ".join(_coord_text(axes, self.values(dl, spell, values)) for dl in deltas)
            lines.append(f"    return ({coords},)")
        else:
            loop_vars = [f"d{k}" for k in range(len(self.names))]
            exprs = []
            for k, (value, dv) in enumerate(zip(values, loop_vars, strict=True)):
                e = binary("+", value, var(dv))
                e = xor_expr(e, self.images) if k == self.m_pos else e  # type: ignore[arg-type]
                exprs.append(render(e, spell))
            unpack_d = ", ".join(loop_vars) + ("," if len(loop_vars) == 1 else "")
            lines.append(f"    return tuple({_coord_text(axes, exprs)} for {unpack_d} in _deltas)")
        text, fn = self.run(lines, spell, "_apply", _deltas=tuple(deltas))
        return text, (fn if cost <= 1 else _checked(fn, cost))


def _compile(layout: Layout, shape: Shape) -> Plan:
    source = _Source(layout, shape)
    cost = budget.replica_cost(source.tile)
    base = Lazy(source.base, functools.partial(first_base, layout, shape))
    if cost > KEEP_APPLY_REPLICAS:  # many combinations: listed on each call, nothing kept
        return Plan(layout, shape, base, evaluators(layout, shape)[1], cost)
    apply = Lazy(functools.partial(source.apply, cost), functools.partial(first_apply, layout, shape))
    return Plan(layout, shape, base, apply, cost)


def _checked(fn: Callable[[Any], tuple[Coord, ...]], cost: int) -> Callable[[Any], tuple[Coord, ...]]:
    """``fn`` behind the ``replicas`` limit (checked on each call: limits change)."""

    def apply(index: Any) -> tuple[Coord, ...]:
        budget.check("apply enumerates", cost, "replicas")
        return fn(index)

    return apply
