"""Trials of the Triton interop: linear-layout bases (``interop.triton``, ``triton_shared``)
and Gluon objects in and out (``from_triton`` / ``to_gluon``), compared with Triton's own
lowering wherever ours answers (the lowering then runs on an input our checks admitted)."""

from __future__ import annotations

import random
from typing import Any

from triton.experimental.gluon import language as ttgl

import tilelayout as tl
from tests.fuzz.gluon_objects import gluon_case
from tests.fuzz.runner import expect
from tests.fuzz.values import junk, layout_input, maybe, shape_input
from tilelayout.interop import gluon, triton, triton_shared
from tilelayout.interop.gluon_checks import check_lowering
from tilelayout.interop.triton import from_triton, to_gluon, to_triton_bases


def _bases_of(layout: Any, shape: tuple[int, ...], shared: bool | None = None) -> dict[str, Any]:
    """Our bases for ``layout``: offset bases for a shared-memory one (``shared``; default:
    a ComposeLayout or a layout on m alone), Triton's in dims otherwise."""
    if shared is None:
        shared = isinstance(layout, tl.ComposeLayout) or tuple(layout.axes) == ("m",)
    if shared:
        return {"offset": triton_shared.to_triton_shared_bases(layout, shape)}
    names = triton.default_in_dims(layout.axes)
    return triton.to_triton_bases(layout, shape, names if "row" in names else None)


def _tritons(obj: Any, shape: list[int]) -> dict[str, Any]:
    """Triton's bases for ``obj`` (non-empty dims; trailing zero memory bases trimmed)."""
    raw = gluon.triton_bases(obj, shape)
    out = {}
    for k, v in raw.items():
        if k in ("offset", "col"):
            while v and not any(v[-1]):
                v = v[:-1]
        if v:
            out[k] = [list(x) for x in v]
    return out


def triton_trial(rng: random.Random) -> None:
    op = rng.choice(("to_triton_bases", "to_triton_bases", "from_triton_bases", "to_triton",
                     "triton_thread_axes", "default_in_dims", "to_triton_shared_bases",
                     "from_triton_shared_bases", "round_trip"))
    L = layout_input(rng)
    shape = shape_input(rng)
    in_dims = maybe(rng, None, 0.2)
    if op == "to_triton_bases":
        triton.to_triton_bases(L, shape, in_dims)
    elif op == "to_triton":
        triton.to_triton(L, shape, in_dims)
    elif op == "triton_thread_axes":
        triton.triton_thread_axes(L)
    elif op == "default_in_dims":
        triton.default_in_dims(maybe(rng, ["TLane", "TCol"], 0.5))
    elif op == "to_triton_shared_bases":
        triton_shared.to_triton_shared_bases(L, shape)
    elif op == "from_triton_bases":
        bases = maybe(rng, {"register": [[0, 1]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]},
                      0.4)
        triton.from_triton_bases(bases, maybe(rng, (8, 8), 0.3), in_dims)
    elif op == "from_triton_shared_bases":
        triton_shared.from_triton_shared_bases(
            maybe(rng, [[0, 1], [0, 2], [1, 0], [2, 1]], 0.4), maybe(rng, (4, 4), 0.3))
    else:
        layout = tl.parse(rng.choice(("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
                                      "S[(4,32,4):(1@warpid,1@laneid,1)]",
                                      "S[(8,4):(1@TLane,2@TCol)]")))
        bases = to_triton_bases(layout)
        names = triton.default_in_dims(layout.axes)
        back = triton.from_triton_bases(bases, layout.check_shape(None),
                                        names if "row" in names else None)
        expect(back == layout, f"from_triton_bases(to_triton_bases({layout})) is {back}")


def gluon_trial(rng: random.Random) -> None:
    r = rng.random()
    if r < 0.55:
        case = gluon_case(rng)
        if case is None:
            return
        obj, shape = case
        ours = from_triton(obj, maybe(rng, shape, 0.08), maybe(rng, None, 0.05))
        if isinstance(obj, ttgl.PaddedSharedLayout):
            return  # Triton has no linear layout for it (its lowering aborts): ours is affine
        # ours answered, so Triton's lowering of the same input is safe to run
        dims = tuple(shape)
        theirs = _tritons(obj, shape)
        mine = _bases_of(ours, dims, shared="offset" in theirs)
        expect({k: v for k, v in mine.items() if v} == theirs,
               f"from_triton({obj!r}, {shape}) = {ours}: bases {mine}, Triton's {theirs}")
        return
    if r < 0.85:
        L = layout_input(rng)
        shape = shape_input(rng)
        obj = to_gluon(L, shape)
        layout = tl.parse(L) if isinstance(L, str) and not L.startswith("preset:") else L
        if isinstance(layout, tl.TileLayout | tl.ComposeLayout) and not \
                type(obj).__name__.endswith("LinearLayout"):
            dims = list(layout.check_shape(None if isinstance(shape, str) or shape is None
                                           else shape))
            check_lowering(obj, dims)
            expect(_bases_of(layout, tuple(dims)) == _tritons(obj, dims),
                   f"to_gluon({layout}, {dims}) = {obj!r} lowers to other bases")
        return
    # the hostile calls
    rng.choice((
        lambda: from_triton(some_gluon(rng) if rng.random() < 0.5 else junk(rng), junk(rng)),
        lambda: from_triton(junk(rng), (64, 64)),
        lambda: to_gluon(junk(rng)),
        lambda: to_gluon("S[4]"),
        lambda: to_gluon(tl.parse("S[():()] + R[2:1@warpid]")),
        lambda: from_triton(some_gluon(rng), (64, 64), junk(rng)),
        lambda: gluon.gluon_code(junk(rng)),
    ))()


def some_gluon(rng: random.Random) -> Any:
    """A Gluon object Gluon lets a user build."""
    for _ in range(20):
        case = gluon_case(rng)
        if case is not None:
            return case[0]
    return None
