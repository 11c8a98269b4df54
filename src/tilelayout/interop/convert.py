"""The layout in other tools' notations: one function the CLI and the explorer share.

:func:`convert` writes a layout over a shape as

* ``cute``: CuTe ``shape:stride`` text of a single-axis (memory) layout
  (:func:`tilelayout.interop.cute.to_cute`), ``Swizzle<B,M,S> o ...`` when swizzled;
* ``cute-tv``: CuTe thread-value text ((thread, value) -> column-major tile index) of a
  register fragment (:func:`tilelayout.interop.cute.to_cute_tv`); the thread axes are the
  layout's own (``thread_axes``), outermost first, unless ``thread_axis`` says;
* ``jax``: the ``PartitionSpec``, printed as JAX does (``P('dp', None)``), from
  :func:`tilelayout.interop.jax.partition_spec_entries` (no JAX needed) for a given mesh
  or, without one, a mesh whose axes are the layout's device axes with the sizes the
  layout spans (said in the notes);
* ``triton``: linear-layout basis vectors (:func:`tilelayout.interop.triton.to_triton_bases`);
  for a swizzled shared-memory layout the ``SharedLinearLayout`` offset bases
  (:func:`tilelayout.interop.triton_shared.to_triton_shared_bases`);
* ``gluon``: Python that builds the simplest equal Gluon layout object
  (:func:`tilelayout.interop.gluon.to_gluon`: a named layout where one is equal, checked by
  Triton's own lowering, else the linear one; needs the ``triton`` extra);
* ``tvm``: the ``tvm_tirx`` object's text (needs the ``tvm`` extra).

A layout the other notation cannot express raises the converter's
:class:`~tilelayout.interop.InteropError`. ``tilelayout convert`` prints it;
``POST /api/convert`` lists every target's answer or refusal. ``gluon`` and ``tvm`` run
native code (Triton's lowering, TVM) that can end the process on inputs it does not
accept: with ``isolate=True`` (the CLI and the explorer pass it) they run in a child
process of :func:`tilelayout.interop.isolation.default_pool`, and a child that dies is one
:class:`~tilelayout.interop.isolation.ChildDied` naming the layout.

>>> import tilelayout as tl
>>> convert(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8), "cute-tv")["text"]
'((4,8),(2,2)):((32,1),(16,8))'
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..core.axes import axis_of as lookup_axis
from ..core.compose import Layout, tile_of
from ..core.errors import LayoutError
from ..core.jsonable import jsonable
from ..core.mesh import format_mesh
from ..core.shape import format_shape
from ..core.swizzle import swizzle_shift
from ..core.tile import TileLayout
from . import InteropError, present, require
from .cute import parse_cute, thread_axes, to_cute, to_cute_tv
from .isolation import isolated
from .jax import partition_spec_entries
from .triton import default_in_dims, to_triton_bases
from .triton_shared import to_triton_shared_bases
from .tvm import to_tvm

#: the notations ``convert`` writes
TARGETS = ("cute", "cute-tv", "jax", "triton", "gluon", "tvm")
#: the notations the explorer's "in other tools" panel lists, in its order (the page asks
#: the server for them: ``POST /api/convert`` without ``targets``)
PANEL_TARGETS = ("cute", "cute-tv", "jax", "triton", "gluon")
#: the notations whose converters call native code that can abort (run isolated): the
#: extra each needs and the feature a missing one is named by
NATIVE_TARGETS = MappingProxyType({"gluon": ("triton", "the Gluon conversion"),
                                   "tvm": ("tvm", "a TVM TIRx layout")})


def assumed_mesh(layout: Layout) -> dict[str, int]:
    """The mesh a layout implies: each device axis it uses, sized by the values it spans.

    >>> import tilelayout as tl
    >>> assumed_mesh(tl.parse("S[(4,4):(1@pid,1)]"))
    {'pid': 4}
    """
    tile = tile_of(layout)
    out: dict[str, int] = {}
    for a in tile.axes:
        if lookup_axis(a).kind != "device":
            continue
        span = sum((it.extent - 1) * abs(it.stride) for it in (*tile.shard, *tile.replica)
                   if it.axis == a)
        out[a] = span + 1
    return out


def convert(layout: Layout, shape: Sequence[int], target: str, *,
            mesh: Mapping[str, int] | None = None,
            thread_axis: str | Sequence[str] | None = None,
            permute: Sequence[int] | None = None, isolate: bool = False) -> dict[str, Any]:
    """``layout`` over ``shape`` in ``target``'s notation: ``{"text", "value", "notes"}``.

    ``text`` is what a user pastes, ``value`` the same as JSON data (nested lists), and
    ``notes`` what the conversion assumed. Raises :class:`~tilelayout.interop.InteropError`
    (the converter's reason) when the notation cannot express the layout. ``isolate``
    runs a native converter (:data:`NATIVE_TARGETS`) in a child process.

    >>> import tilelayout as tl
    >>> convert(tl.parse("S[(2,8):(1@pid,1)]"), (16,), "jax")["text"]
    "P('pid',)"
    >>> convert(tl.parse("S[(4,8):(8,1)]"), (4, 8), "cute")["text"]
    '(4,8):(8,1)'
    """
    dims = tuple(int(d) for d in shape)
    if isolate and target in NATIVE_TARGETS:
        present(*NATIVE_TARGETS[target])
        return isolated("tilelayout.interop.convert:convert", layout, dims, target, mesh=mesh,
                        thread_axis=thread_axis, permute=permute,
                        what=f"converting {layout} over {format_shape(dims)} to {target}")
    if target == "cute":
        text = to_cute(layout, dims)
        sw, sh, st = parse_cute(text)
        bms = None if sw is None else swizzle_shift(sw)  # (M, B, signed S): CuTe's <B,M,S>
        value = {"shape": jsonable(sh), "stride": jsonable(st),
                 "swizzle": None if bms is None else [bms[1], bms[0], bms[2]]}
        first = tile_of(layout).axes[0] if tile_of(layout).axes else "m"
        notes = [f"a CuTe Layout over the logical shape {format_shape(dims)}: coordinate -> "
                 f"offset on {first}; one top-level mode per dimension"]
        return {"text": text, "value": value, "notes": notes}
    if target == "cute-tv":
        threads = thread_axis or thread_axes(layout) or ("laneid",)
        threads = (threads,) if isinstance(threads, str) else tuple(threads)
        text = to_cute_tv(layout, dims, threads, permute=permute)
        _, sh, st = parse_cute(text)
        cute_dims = list(dims)
        if permute:
            for i, p in enumerate(permute):
                cute_dims[p] = dims[i]
        index = " + ".join(["i0", *(f"i{d}*{math.prod(cute_dims[:d])}" for d in range(1, len(dims)))])
        who = threads[0]
        for k, a in enumerate(threads[1:]):
            who = f"{f'({who})' if k else who} * {lookup_axis(a).extent} + {a}"
        notes = [f"(thread, value) -> column-major index {index} of the "
                 f"{format_shape(tuple(cute_dims))} tile; thread = {who}, value = m"]
        if permute:
            notes.append(f"CuTe's tile is ours with the dimensions permuted by {list(permute)}")
        return {"text": text, "value": {"shape": jsonable(sh), "stride": jsonable(st),
                                        "thread_axes": list(threads)}, "notes": notes}
    if target == "jax":
        if not isinstance(layout, TileLayout):
            partition_spec_entries(layout, {}, dims)  # refuses a swizzle with its reason
        given = mesh is not None
        use = dict(mesh) if given else assumed_mesh(layout)
        if not use:
            raise InteropError(
                f"{layout} uses no device (mesh) axis: nothing is split over devices, so there is "
                f"no sharding to write (give a mesh, e.g. dp=2,tp=2, to ask about one)"
            )
        entries = partition_spec_entries(layout, use, dims)
        how = "given" if given else "assumed: the layout's device axes, sized by the values it spans"
        notes = [f"P = jax.sharding.PartitionSpec; mesh {format_mesh(use)} ({how}); "
                 f"array shape {format_shape(dims)}"]
        return {"text": f"P{tuple(entries)!r}", "value": {"spec": jsonable(entries),
                                                            "mesh": use}, "notes": notes}
    if target == "triton":
        outs = ", ".join(f"dim{d}={n}" for d, n in enumerate(dims))
        if not isinstance(layout, TileLayout):  # swizzled shared memory
            offset = to_triton_shared_bases(layout, dims)
            return {"text": f"offset: {json.dumps(offset, separators=(',', ':'))}",
                    "value": {"offset_bases": offset, "out_dims": list(dims)},
                    "notes": [f"gluon SharedLinearLayout offset_bases (shared-memory element "
                              f"offset bit -> logical coordinate); out dims {outs}"]}
        bases = to_triton_bases(layout, dims)
        text = "\n".join(f"{k}: {json.dumps(v, separators=(',', ':'))}" for k, v in bases.items())
        names = default_in_dims(tile_of(layout).axes)
        ins = ", ".join(f"{k}->{a}" for k, a in names.items() if k in bases)
        if set(layout.axes) & {"wid_in_wg", "wgid", "tid_in_wg", "tx"}:
            ins += " (warp = wid_in_wg + 4*wgid, lane + 32*warp = tid_in_wg + 128*wgid = tx)"
        return {"text": text, "value": {"bases": bases, "out_dims": list(dims)},
                "notes": [f"LinearLayout bases; out dims {outs}; in dims {ins}"]}
    if target == "gluon":
        gluon = require("tilelayout.interop.gluon", "triton", "the Gluon conversion")
        obj = gluon.to_gluon(layout, dims)
        kind = type(obj).__name__
        named = "a linear layout (no named Gluon layout equals it)" if "Linear" in kind else \
            "the named Gluon layout equal to it (Triton's own lowering checked)"
        return {"text": gluon.gluon_code(obj), "value": {"class": kind},
                "notes": [f"{kind}: {named}; from_triton(layout, shape={list(dims)}) reads it "
                          f"back"]}
    if target == "tvm":
        return {"text": str(to_tvm(layout)), "value": None,
                "notes": ["tvm_tirx object text (T = tvm_tirx.tirx.layout)"]}
    raise LayoutError(f"unknown target {target!r}; expected one of {', '.join(TARGETS)}")
