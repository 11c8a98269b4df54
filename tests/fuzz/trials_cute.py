"""Trials of CuTe's algebra (``tilelayout.algebra.cute``) and the CuTe interop
(``tilelayout.interop.cute``, ``cute_text``, ``cute_tv``), compared with pycute (the
``nvidia-cutlass`` wheel) wherever both answer: the same function of the 1-D index."""

from __future__ import annotations

import random
from typing import Any

import pycute

import tilelayout as tl
from tests.fuzz.runner import expect
from tests.fuzz.values import junk, layout_input, maybe, shape_input
from tilelayout.algebra import cute as C
from tilelayout.core.errors import shown
from tilelayout.interop import cute as IC
from tilelayout.interop import cute_text, cute_tv

#: at most this many elements are compared element by element
COMPARED = 1 << 12


def int_tuple(rng: random.Random, depth: int = 0, top: int = 8) -> Any:
    if depth < 2 and rng.random() < 0.35:
        return tuple(int_tuple(rng, depth + 1, top) for _ in range(rng.randint(1, 3)))
    return rng.randint(1, top)


def stride_like(rng: random.Random, shape: Any) -> Any:
    if isinstance(shape, tuple):
        return tuple(stride_like(rng, s) for s in shape)
    return rng.choice((0, 1, 1, 2, 4, 8, 16, 3, rng.randint(0, 64)))


def cute_pair(rng: random.Random) -> tuple[Any, Any]:
    shape = int_tuple(rng)
    return shape, stride_like(rng, shape) if rng.random() < 0.8 else None


def compact(shape: Any) -> Any:
    """CuTe's default column-major stride."""
    return pycute.Layout(shape).stride


def cute_arg(rng: random.Random) -> Any:
    """A layout argument of CuTe's algebra: ours, a pair, text, pycute, or junk."""
    shape, stride = cute_pair(rng)
    stride = compact(shape) if stride is None else stride
    r = rng.random()
    if r < 0.45:
        return C.CuteLayout(shape, stride)
    if r < 0.6:
        return (shape, stride)
    if r < 0.7:
        return f"{C.modes.format_int_tuple(shape)}:{C.modes.format_int_tuple(stride)}"
    if r < 0.85:
        return pycute.Layout(shape, stride)
    return junk(rng)


def as_pycute(x: Any) -> Any:
    if isinstance(x, pycute.Layout):
        return x
    cl = C.as_cute(x)
    return pycute.Layout(cl.shape, cl.stride)


def values(layout: Any) -> list[int] | None:
    n = pycute.size(layout)
    return None if n > COMPARED else [layout(i) for i in range(n)]


def reference(fn: Any, *args: Any) -> Any:
    """pycute's answer, or None when pycute itself fails on the input (not ours to count)."""
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001
        return None


def same_function(ours: C.CuteLayout, theirs: Any, what: str) -> None:
    if theirs is None or not isinstance(theirs, pycute.Layout):
        return
    a, b = values(pycute.Layout(ours.shape, ours.stride)), values(theirs)
    expect(a == b, f"{what}: ours {ours} is not pycute's {theirs}")


OPS = ("coalesce", "composition", "complement", "left_inverse", "right_inverse", "logical_divide",
       "zipped_divide", "tiled_divide", "logical_product", "zipped_product", "tiled_product",
       "blocked_product", "raked_product", "make_layout", "CuteLayout", "as_cute")


def algebra_trial(rng: random.Random) -> None:
    op = rng.choice(OPS)
    a, b = cute_arg(rng), cute_arg(rng)
    if op == "CuteLayout":
        C.CuteLayout(maybe(rng, int_tuple(rng), 0.3), maybe(rng, int_tuple(rng), 0.3))
        return
    if op == "as_cute":
        C.as_cute(maybe(rng, layout_input(rng), 0.2), shape_input(rng))
        return
    if op == "make_layout":
        C.make_layout(*(maybe(rng, cute_arg(rng), 0.1) for _ in range(rng.randint(0, 3))))
        return
    if op == "complement":
        cot = maybe(rng, rng.choice((1, 8, 32, 64, 256)), 0.2)
        ours = C.complement(a, cot)
        same_function(ours, reference(lambda: pycute.complement(as_pycute(a), cot)),
                      f"complement({shown(a)}, {shown(cot)})")
        return
    if op == "coalesce":
        ours = C.coalesce(a)
        same_function(ours, reference(lambda: pycute.coalesce(as_pycute(a))), f"coalesce({shown(a)})")
        return
    if op in ("left_inverse", "right_inverse"):
        # an inverse is checked by its defining property, and against pycute's where pycute's
        # has it (on an injective layout's image a left inverse is unique; pycute's is not
        # always one: left_inverse of ((2),1,7):((8),1,1) is 7:2 there)
        ours = getattr(C, op)(a)
        pa = reference(lambda: as_pycute(a))
        image = values(pa) if isinstance(pa, pycute.Layout) else None
        if image is None:
            return
        mine = pycute.Layout(ours.shape, ours.stride)
        theirs = reference(lambda: getattr(pycute, op)(pa))
        if op == "left_inverse":
            if len(set(image)) != len(image):
                return  # no left inverse exists
            expect(all(mine(v) == i for i, v in enumerate(image)),
                   f"left_inverse({shown(a)}) = {ours} does not undo it")
        else:
            n = pycute.size(mine)
            expect(n <= len(image) and all(pa(mine(j)) == j for j in range(n)),
                   f"right_inverse({shown(a)}) = {ours} is not undone by it")
            if isinstance(theirs, pycute.Layout) and pycute.size(theirs) <= len(image) and \
                    all(pa(theirs(j)) == j for j in range(pycute.size(theirs))):
                expect(n >= pycute.size(theirs),
                       f"right_inverse({shown(a)}) = {ours} is smaller than pycute's {theirs}")
        return
    tiler = b if rng.random() < 0.8 else tuple(cute_arg(rng) for _ in range(rng.randint(1, 2)))
    ours = getattr(C, op)(a, tiler)

    def theirs() -> Any:
        pt = tuple(as_pycute(t) for t in tiler) if isinstance(tiler, tuple) and not \
            isinstance(tiler[0], int | tuple) else as_pycute(tiler)
        return getattr(pycute, op)(as_pycute(a), pt)

    same_function(ours, reference(theirs), f"{op}({shown(a)}, {shown(tiler)})")


def _pycute_value(rng: random.Random) -> Any:
    """A pycute Layout, Swizzle or ComposedLayout (swizzle or layout outside)."""
    shape, stride = cute_pair(rng)
    inner = pycute.Layout(shape, compact(shape) if stride is None else stride)
    r = rng.random()
    if r < 0.4:
        return inner
    bits = rng.randint(0, 3)
    if r < 0.6:  # pycute's Swizzle asserts |shift| >= bits
        return pycute.Swizzle(bits, rng.randint(0, 4), rng.choice((1, -1)) * rng.randint(bits, 4))
    if r < 0.8:
        sw = pycute.Swizzle(bits, rng.randint(0, 3), rng.randint(max(bits, 1), 4))
        return pycute.ComposedLayout(sw, rng.choice((0, 0, 8)), inner)
    outer_shape, outer_stride = cute_pair(rng)
    outer = pycute.Layout(outer_shape, compact(outer_shape) if outer_stride is None else outer_stride)
    return pycute.ComposedLayout(outer, rng.choice((0, 0, 4)), inner)


def _compare_from_pycute(src: Any, got: tl.Layout) -> None:
    """from_cute(src) must give src(i) at each column-major 1-D index i."""
    if isinstance(src, pycute.Swizzle):
        return
    n = reference(lambda: pycute.size(src.layoutA if hasattr(src, "layoutA") else src))
    want = reference(lambda: [src(i) for i in range(n)]) if n is not None and n <= COMPARED else None
    if want is None:
        return
    dims = IC.cute_logical_shape(src)
    for i in range(n):
        coord, rest = [], i
        for d in dims:
            rest, c = divmod(rest, d)
            coord.append(c)
        mine = got.base(tuple(coord), shape=dims).get("m", 0)
        expect(mine == want[i], f"from_cute({src}) at {i}: ours {mine}, pycute {want[i]}")


def interop_trial(rng: random.Random) -> None:
    op = rng.choice(("from_cute", "from_cute", "from_pycute", "to_cute", "to_pycute", "to_cute_dsl",
                     "parse_cute", "read_cute", "cute_layout", "cute_logical_shape",
                     "cute_shape_stride", "to_cute_tv", "from_cute_tv", "thread_axes"))
    if op == "from_pycute":
        src = _pycute_value(rng)
        _compare_from_pycute(src, IC.from_cute(src))
    elif op == "from_cute":
        text = rng.choice((cute_arg(rng), junk(rng), "9" * 5000 + ":1", "(" * 5000 + "4" + ")" * 5000,
                           "Swizzle<3,3,3> o (8,64):(64,1)", "Sw<2,4,3> o 64 o (8,8):(8,1)"))
        IC.from_cute(text, maybe(rng, "m", 0.1))
    elif op == "to_cute":
        L = layout_input(rng)
        IC.to_cute(L, shape_input(rng))
    elif op == "to_pycute":
        L = layout_input(rng)
        got = IC.to_pycute(L, shape_input(rng))
        if isinstance(L, str) and not L.startswith("preset:"):
            L = tl.parse(L)
        if isinstance(got, pycute.Layout) and isinstance(L, tl.TileLayout) and got.size() <= COMPARED:
            # the pycute layout gives our values, in CuTe's column-major order of the dims
            back = IC.from_cute(got)
            mine = sorted(v for v in L.map_all().values() for v in v.reshape(-1).tolist()) \
                if len(L.axes) == 1 else None
            theirs = reference(lambda: sorted(got(i) for i in range(got.size())))
            expect(mine is None or theirs is None or mine == theirs,
                   f"to_pycute({L}) holds other values: {(theirs or [])[:8]}")
            expect(back.size() == L.size(), f"to_pycute({L}) has {back.size()} elements")
    elif op == "to_cute_dsl":
        IC.to_cute_dsl(layout_input(rng), shape_input(rng))
    elif op in ("parse_cute", "read_cute"):
        getattr(cute_text, op)(maybe(rng, str(C.CuteLayout(*cute_pair_full(rng))), 0.3))
    elif op in ("cute_layout", "cute_logical_shape"):
        getattr(IC, op)(cute_arg(rng))
    elif op == "cute_shape_stride":
        IC.cute_shape_stride(layout_input(rng), shape_input(rng))
    elif op == "to_cute_tv":
        cute_tv.to_cute_tv(layout_input(rng), shape_input(rng, (16, 8)),
                           maybe(rng, rng.choice((("laneid",), ("laneid", "warpid"))), 0.2))
    elif op == "from_cute_tv":
        cute_tv.from_cute_tv(cute_arg(rng), maybe(rng, (16, 8), 0.2),
                             maybe(rng, ("laneid",), 0.2))
    else:
        cute_tv.thread_axes(layout_input(rng))


def cute_pair_full(rng: random.Random) -> tuple[Any, Any]:
    shape, stride = cute_pair(rng)
    return shape, compact(shape) if stride is None else stride
