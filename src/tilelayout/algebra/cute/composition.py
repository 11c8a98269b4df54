"""CuTe's ``coalesce`` and ``composition`` (CUTLASS ``include/cute/layout.hpp``), exact.

``composition(A, B)`` is ``c -> A(B(c))`` where ``B``'s values are read as CuTe 1-D
indices of ``A`` (column-major, :mod:`~tilelayout.algebra.cute.modes`). As in CuTe:

* ``A`` is coalesced first (``(6,4):(1,6)`` is ``24:1``), so a ``B`` that crosses ``A``'s
  mode boundaries contiguously composes;
* ``A``'s last mode is **unbounded**: values of ``B`` past ``size(A)`` continue along it
  (CuTe's "rest" mode). ``tl.compose(..., unbounded=True)`` is the same rule on our
  native, row-major composition;
* the result has ``B``'s nested shape, each leaf of ``B`` becoming one leaf or a tuple;
* a tuple ``B`` composes by mode (``A``'s mode ``i`` with ``B[i]``; ``None`` keeps a mode;
  an integer ``n`` is ``n:1``).

Exact: where CuTe's shape or stride divisibility condition fails (so ``A(B(c))`` would
carry between modes of ``A`` in a way no stride expresses; CuTe's static assertion, or a
wrong layout in pycute), or where B's leaves, each fine alone, together carry from one
mode of ``A`` into the next (CuTe composes leaf by leaf and returns a layout that is not
``A o B`` there), :class:`AlgebraError` says which leaf and why. A negative stride
in ``B`` is refused too. Cost: O(leaves of A x leaves of B), never elements.

>>> from tilelayout.algebra.cute.modes import CuteLayout
>>> str(composition(CuteLayout((6, 4), (4, 1)), CuteLayout(6, 1)))  # A(i) = 4*(i % 6) + i // 6
'6:4'
>>> str(composition(CuteLayout((4, 6, 8, 10), (2, 3, 5, 7)), CuteLayout(6, 12)))
'(2,3):(9,5)'
"""

from __future__ import annotations

from typing import Any

from ...core.errors import AlgebraError, shown
from .modes import CuteLayout, IntTuple, as_cute, leaves, make_layout, rebuild, trusted, unwrap
from .swizzled import swizzle_outside


def coalesce_leaves(shapes: list[int], strides: list[int]) -> tuple[list[int], list[int]]:
    """CuTe's coalesce on flat leaves (colexicographic order): drop extent-1 leaves, merge
    ``(s0, d0), (s1, d1)`` into ``s0*s1 : d0`` when ``s0 * d0 == d1``.

    >>> coalesce_leaves([2, 1, 6], [1, 7, 2])
    ([12], [1])
    """
    out_s = [1]
    out_d = [0]
    for s, d in zip(shapes, strides, strict=True):
        if s == 1:
            continue
        if out_s[-1] == 1:
            out_s[-1], out_d[-1] = s, d
        elif out_s[-1] * out_d[-1] == d:
            out_s[-1] *= s
        else:
            out_s.append(s)
            out_d.append(d)
    return out_s, out_d


def coalesce(layout: Any, profile: Any = None) -> CuteLayout:
    """The same function with the fewest leaves (CuTe's ``coalesce``); a tuple ``profile``
    coalesces each top-level mode separately.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(coalesce(CuteLayout((2, (1, 6)), (1, (7, 2)))))
    '12:1'
    >>> str(coalesce(CuteLayout(((2, 2), (2, 2)), ((1, 2), (8, 16))), (1, 1)))
    '(4,4):(1,8)'
    """
    a = as_cute(layout)
    if isinstance(profile, tuple):
        modes = a.modes()
        if len(profile) > len(modes):
            raise AlgebraError(f"profile {profile} has more modes than {a}")
        done = [coalesce(m, p) for m, p in zip(modes, profile, strict=False)]
        return make_layout(*done, *modes[len(profile):])
    return trusted(*unwrap(*coalesce_leaves(leaves(a.shape), leaves(a.stride))))


def compose_leaf(a_s: list[int], a_d: list[int], e: int, d: int,
                 load: list[int]) -> tuple[IntTuple, IntTuple]:
    """One leaf ``e:d`` of B through coalesced A (flat leaves ``a_s:a_d``, last unbounded);
    ``load[j]`` collects the largest digit each leaf puts in A's mode ``j``.

    >>> compose_leaf([4, 6], [1, 100], 8, 1, [0, 0])      # 8 values: 4 in mode 0, 2 in mode 1
    ((4, 2), (1, 100))
    """
    if d == 0:
        return e, 0
    if d < 0:
        raise AlgebraError(f"B leaf {e}:{d} has stride {d}: a negative index step is not supported "
                           f"(compose the reversed layout instead)")
    last = len(a_s) - 1
    res_s: list[int] = []
    res_d: list[int] = []
    rest_s, rest_d = e, d
    for j in range(last):
        cs = a_s[j]
        if rest_d % cs and rest_d > cs:
            raise AlgebraError(
                f"B leaf {e}:{d}: index step {rest_d} is neither a multiple of nor below A's mode "
                f"{cs}:{a_d[j]}, so its values straddle that mode (CuTe's stride divisibility "
                f"condition)")
        nxt_s = -(-cs // rest_d)
        nxt_d = -(-rest_d // cs)
        if nxt_s == 1 or rest_s == 1:
            rest_d = nxt_d
            continue
        new = min(nxt_s, rest_s)
        if rest_s > nxt_s and (rest_s % nxt_s or cs % rest_d):
            raise AlgebraError(
                f"B leaf {e}:{d}: {rest_s} values at step {rest_d} do not split evenly over A's mode "
                f"{cs}:{a_d[j]}; the index would carry into the next mode part way (CuTe's "
                f"shape divisibility condition)")
        res_s.append(new)
        res_d.append(rest_d * a_d[j])
        load[j] += (new - 1) * rest_d
        rest_s //= new
        rest_d = nxt_d
    if not res_s:
        return rest_s, rest_d * a_d[last]
    if rest_s != 1:
        res_s.append(rest_s)
        res_d.append(rest_d * a_d[last])
    if len(res_s) == 1:
        return res_s[0], res_d[0]
    return tuple(res_s), tuple(res_d)


def compose_flat(a_s: list[int], a_d: list[int], b: CuteLayout) -> CuteLayout:
    """:func:`composition` of A, given as coalesced flat leaves ``a_s:a_d``, with ``b``.

    >>> str(compose_flat([6, 4], [4, 1], CuteLayout(6, 1)))
    '6:4'
    """
    load = [0] * len(a_s)
    if isinstance(b.shape, int):
        return trusted(*compose_leaf(a_s, a_d, b.shape, b.stride, load))  # type: ignore[arg-type]
    parts = [compose_leaf(a_s, a_d, e, d, load)
             for e, d in zip(leaves(b.shape), leaves(b.stride), strict=True)]
    for j in range(len(a_s) - 1):
        if load[j] >= a_s[j]:
            raise AlgebraError(
                f"B {b}: its leaves together reach digit {load[j]} in A's mode "
                f"{a_s[j]}:{a_d[j]} (extent {a_s[j]}), so B's sum carries into the next mode, "
                f"which composing leaf by leaf (CuTe's right-distributivity) does not express")
    return trusted(rebuild(b.shape, iter(p[0] for p in parts)),
                      rebuild(b.stride, iter(p[1] for p in parts)))


def by_mode(op: Any, a: CuteLayout, tiler: tuple, name: str) -> CuteLayout:
    """``op`` applied to ``a``'s top-level mode ``i`` and ``tiler[i]`` (CuTe's by-mode
    tiler; ``None`` keeps a mode); ``a``'s modes past the tiler are kept.

    >>> str(by_mode(composition, CuteLayout((8, 8), (8, 1)), (CuteLayout(2, 2), None), "c"))
    '(2,8):(16,1)'
    """
    modes = a.modes()
    if len(tiler) > len(modes):
        raise AlgebraError(f"{name}: tiler {shown(tiler)} has {len(tiler)} modes, {a} only {len(modes)}")
    done = [m if t is None else op(m, t) for m, t in zip(modes, tiler, strict=False)]
    return make_layout(*done, *modes[len(tiler):])


@swizzle_outside  # Sw o o o (L o B): the swizzle stays outside
def composition(a: Any, b: Any) -> Any:
    """``c -> a(b(c))`` with CuTe's semantics (see the module docstring).

    ``a`` and ``b`` are :class:`CuteLayout`, our ``TileLayout`` (one mode per shard iter)
    or pycute layouts; ``b`` may also be a tuple tiler, an integer or ``None``. A swizzled
    ``a`` (our ComposeLayout, a pycute ComposedLayout, a
    :class:`~tilelayout.algebra.cute.swizzled.CuteComposed`) keeps its swizzle outside:
    the result is a CuteComposed.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(composition(CuteLayout((4, 3), (3, 1)), CuteLayout((6, 2), (2, 1))))
    '((2,3),2):((6,1),3)'
    >>> str(composition(CuteLayout((8, 8), (8, 1)), (4, None)))
    '(4,8):(8,1)'
    """
    a = as_cute(a, what="A")
    if b is None:
        return a
    if isinstance(b, tuple) and not isinstance(b, CuteLayout):
        return by_mode(composition, a, b, "composition")
    b = as_cute(b, what="B")
    if b.stride == 0:  # CuTe's shortcut: a stride-0 B reads A's value at 0 only
        return b
    a_s, a_d = coalesce_leaves(leaves(a.shape), leaves(a.stride))
    return compose_flat(a_s, a_d, b)


__all__ = ["coalesce", "coalesce_leaves", "compose_flat", "compose_leaf", "composition"]
