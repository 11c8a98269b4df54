"""Trials of the JAX interop, the notebook widget, GPU targets and the planning entry
points (``plan_conversion``, ``choose_smem_layout``, ``smem_access``, ``to_triton_bases``),
each taking layouts, text and ``preset:`` strings alike, with hostile arguments."""

from __future__ import annotations

import random
import urllib.parse
import warnings

import tilelayout as tl
from tests.fuzz.runner import expect
from tests.fuzz.values import junk, layout_input, maybe, shape_input
from tilelayout.explorer.widget import NotebookWarning, explorer_widget, widget
from tilelayout.interop import jax as J
from tilelayout.interop.triton import to_triton_bases

MESHES = ({"dp": 2, "tp": 4}, {"x": 2}, {"pid": 4}, "dp=2,tp=2", {}, {"dp": 0}, {"a b": 2})
SPECS = (("dp", None), ("dp",), (None, ("dp", "tp")), (), ("nope",), [["dp"]], "dp")


def jax_trial(rng: random.Random) -> None:
    op = rng.choice(("to_partition_spec", "from_partition_spec", "partition_spec_entries",
                     "to_named_sharding", "mesh_axes", "mesh_table", "round_trip"))
    mesh = maybe(rng, rng.choice(MESHES), 0.2)
    if op == "mesh_axes":
        J.mesh_axes(mesh)
    elif op == "mesh_table":
        J.mesh_table(mesh)
    elif op == "from_partition_spec":
        J.from_partition_spec(maybe(rng, rng.choice(SPECS), 0.2), mesh, shape_input(rng, (8, 16)))
    elif op == "to_named_sharding":
        J.to_named_sharding(layout_input(rng), junk(rng), shape_input(rng))
    elif op == "round_trip":
        mesh = {"dp": 2, "tp": 4}
        spec = rng.choice((("dp", None), (None, "tp"), (("dp", "tp"), None), ("tp", "dp")))
        shape = (8, 16)
        L = J.from_partition_spec(spec, mesh, shape)
        back = J.partition_spec_entries(L, mesh, shape)
        want = tuple(e for e in spec)
        while want and want[-1] is None:
            want = want[:-1]
        expect(tuple(back) == want or tuple(back)[:len(want)] == want,
               f"partition_spec_entries(from_partition_spec({spec})) = {back}")
    else:
        getattr(J, op)(layout_input(rng), mesh, shape_input(rng))


WIDGET_SOURCES = ("S[4:2]", "S[(8,16):(16,1)]", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
                  "mma.m16n8k16.C", "triton.blocked", "S[(4,32,4):(1@warpid,1@laneid,1)]")


def widget_trial(rng: random.Random) -> None:
    clean = rng.random() < 0.5  # half the trials well formed: their answers are checked
    source = rng.choice(WIDGET_SOURCES) if clean or rng.random() < 0.5 else layout_input(rng)
    default = {"S[4:2]": (4,), "S[(8,16):(16,1)]": (8, 16), "mma.m16n8k16.C": (16, 8),
               "triton.blocked": (32, 64)}.get(source) if isinstance(source, str) else None
    shape = (rng.choice((None, default, ",".join(map(str, default or ())) or None))
             if clean else maybe(rng, None, 0.4))
    dims = default if isinstance(source, str) and default else None
    select = (tuple(rng.randrange(d) for d in dims) if clean and dims else
              maybe(rng, (rng.randrange(4),), 0.5))
    color, height = maybe(rng, None, 0.2), maybe(rng, 640, 0.15)
    make = rng.choice((widget, explorer_widget))  # outside a notebook: the static view, the widget
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotebookWarning)
        w = make(source, shape, color=color, select=select, height=height)
    query = dict(urllib.parse.parse_qsl(w.query))
    if select is not None:  # exactly the integers given (or their text), never truncated
        given = tl.core.shape.int_tuple(select, "select") if isinstance(select, str) else \
            (select,) if isinstance(select, int) else tuple(select)
        expect(all(isinstance(i, int) and not isinstance(i, bool) for i in given) and
               query.get("select") == ",".join(map(str, given)),
               f"widget(select={select!r}) gave select={query.get('select')!r}")
    if shape is not None:  # admitted only as ints (or their text), never truncated
        want = ",".join(map(str, tl.core.shape.as_shape(shape)))
        got = query.get("shape", query.get("p.shape"))
        expect(got == want, f"widget(shape={shape!r}) gave shape={got!r}")
    if rng.random() < 0.3:
        if not hasattr(w, "answer_request"):  # tl.widget's static view: the widget answers
            w = explorer_widget(source, shape, color=color, select=select, height=height)
        reply = w.answer_request(maybe(rng, {"id": 1, "method": "POST", "path": "/api/explain",
                                             "body": {"layout": "S[4:2]", "index": [3]}}, 0.5))
        expect(isinstance(reply, dict) and "status" in reply, f"answer_request gave {reply!r}")


def target_trial(rng: random.Random) -> None:
    name = maybe(rng, rng.choice(("sm_80", "sm_90", "sm_90a", "sm_100a", 90, "sm90", "SM_80")), 0.4)
    t = tl.target(name)
    op = rng.choice(("has", "at_least", "features", "mma", "str"))
    arg = maybe(rng, rng.choice(("tma", "ldmatrix", "sm_80", 80)), 0.5)
    if op == "has":
        got = t.has(arg)
        expect(isinstance(got, bool), f"has({arg!r}) = {got!r}")
    elif op == "at_least":
        got = t.at_least(arg)
        expect(isinstance(got, bool), f"at_least({arg!r}) = {got!r}")
        if isinstance(arg, int) and not isinstance(arg, bool):
            expect(got == (t.sm >= arg), f"{t}.at_least({arg}) = {got}")
    else:
        str(getattr(t, op)) if op != "str" else str(t)


#: operand pairs that plan (distributed -> distributed, distributed -> shared memory)
PAIRS = (("preset:mma.m16n8k16.C", "S[(16,8):(1,1@laneid)]"),
         ("S[(16,8):(8@laneid,1)] + R[2:1@warpid]", "S[(16,8):(8,1)]"),
         ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(16,8):(8,1)]"),
         ("preset:mma.m16n8k16.C", "preset:smem.tile:dtype=float32:shape=16,8"))


def planning_trial(rng: random.Random) -> None:
    op = rng.choice(("plan_conversion", "choose_smem_layout", "smem_access", "to_triton_bases"))
    clean = rng.random() < 0.4
    a, b = rng.choice(PAIRS) if clean else (layout_input(rng), layout_input(rng))
    if op == "choose_smem_layout" and clean:
        b = a
    shape = rng.choice((None, (16, 8), "16,8")) if clean else shape_input(rng, (16, 8))
    dtype = rng.choice((None, "float32")) if clean else \
        maybe(rng, rng.choice((None, "float16", "float32", "int8")), 0.15)
    target = rng.choice((None, "sm_80", "sm_90")) if clean else maybe(rng, None, 0.15)
    if op == "plan_conversion":
        packing = rng.choice(("packed", "unpacked"))
        tl.plan_conversion(a, b, shape, dtype, target=target,
                           dst_packing=packing if clean else maybe(rng, packing, 0.15))
    elif op == "choose_smem_layout":
        tl.choose_smem_layout(a, b, shape, dtype, target=target)
    elif op == "smem_access":
        tl.smem_access(a, b, shape, dtype, maybe(rng, None, 0.2))
    else:
        to_triton_bases(a, shape)
