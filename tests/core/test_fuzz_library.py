"""Seeded fuzzing of the parser and every public operation (issue 13).

20,000+ generated inputs: each raises nothing but ``LayoutError`` and none takes more
than a second. The operations run under modest limits (the resource model is what
keeps them bounded; the same refusals happen at the default limits, only later).
"""

from __future__ import annotations

import random
import time

import tilelayout as tl
from tests.fuzzgen import AXES, index_for, layout_text, mutated_text, shape_for
from tilelayout.render.svg import layout_svg

SEED = 13
LIMITS = tl.Limits(elements=1 << 16, replicas=1 << 12, output_bytes=1 << 24, search=1 << 16,
                   cells=1 << 12)
#: operations that format or analyse every element: sampled less often to keep the test fast
SLOW = {"svg", "table", "legality", "explain", "equivalent"}


def _operations(rng: random.Random, L):
    """(name, thunk) pairs covering the public operations on layout ``L``."""
    size = L.size()
    shape = shape_for(rng, size)
    index = index_for(rng, size)
    axis = rng.choice(L.axes or AXES)
    value = rng.choice((0, 1, 5, -3, 1 << 40, 1 << 70))
    other = tl.parse(rng.choice(("S[4:1]", "S[(2,2):(1,2)]", "S[8:1@laneid]")))
    n = rng.choice((1, 2, 4, 0, -2, 1 << 70))
    ops = [
        ("str", lambda: tl.parse(str(L)) == L or _fail("round trip", L)),
        ("repr", lambda: repr(L)),
        ("hash", lambda: hash(L)),
        ("apply", lambda: L.apply(index, shape)),
        ("base", lambda: L.base(index, shape)),
        ("map_all", lambda: L.map_all(shape)),
        ("elements_at", lambda: L.elements_at({axis: value}, shape)),
        ("count_at", lambda: tl.count_at(L, {axis: value})),
        ("canonicalize", lambda: L.canonicalize(fuse_threads=rng.random() < 0.5)),
        ("group", lambda: L.group(shape if shape is not None else size)),
        ("tile_to", lambda: L.tile_to((size * 2,), (size,))),
        ("slice", lambda: L.slice((size,), ((0, max(1, size // 2)),))),
        ("permute_dims", lambda: L.permute_dims((0,), shape)),
        ("pack", lambda: L.pack(n, axis)),
        ("unpack", lambda: L.unpack(n, axis)),
        ("storage", lambda: L.storage()),
        ("equivalent", lambda: L.equivalent(other)),
        ("span", lambda: L.span(axis)),
        ("value_range", lambda: tl.value_range(L, axis)),
        ("explain", lambda: tl.explain(L, index, shape, dtype=rng.choice((None, "float16")))),
        ("legality", lambda: tl.legality(L, shape, rng.choice((None, "float16")))),
        ("bank_map", lambda: tl.bank_map(L, rng.choice(("float16", "int8", "float64")), shape)),
        ("table", lambda: L.table(shape)),
        ("svg", lambda: layout_svg(L, shape)),
        ("tile", lambda: L.tile(other, (4,), (size,)) if isinstance(L, tl.TileLayout) else None),
        ("direct_sum", lambda: tl.direct_sum(other, L, (4,), shape or (size,))),
    ]
    return ops


def _fail(what, value):
    raise AssertionError(f"{what} failed for {value!r}")


def _constructors(rng: random.Random):
    """Public constructors called with hostile arguments."""
    junk = rng.choice((None, "x", 1.5, True, [], {}, object(), -1, 1 << 300, 10 ** 5000, (1,),
                       [(1, 2, "nope")], [(0, 1)], "S[4]", b"m", {"m": "1"}))
    return [
        ("TileLayout", lambda: tl.TileLayout(junk)),
        ("TileLayout.replica", lambda: tl.TileLayout([(4, 1)], junk)),
        ("TileLayout.offset", lambda: tl.TileLayout([(4, 1)], (), junk)),
        ("Iter", lambda: tl.Iter(junk, 1)),
        ("Iter.stride", lambda: tl.Iter(4, junk)),
        ("Iter.axis", lambda: tl.Iter(4, 1, junk)),
        ("Swizzle", lambda: tl.Swizzle(junk, 1, 1)),
        ("ComposeLayout", lambda: tl.ComposeLayout(junk, tl.parse("S[4:1]"))),
        ("Coord", lambda: tl.Coord(junk)),
        ("axis", lambda: tl.axis(junk)),
        ("declare_axis", lambda: tl.declare_axis(junk, kind="device")),
        ("parse", lambda: tl.parse(junk)),
        ("dtype_bits", lambda: tl.dtype_bits(junk)),
        ("Limits", lambda: tl.Limits(elements=junk)),
    ]


def _run(name: str, thunk, slowest: list, failures: dict) -> None:
    # CPU time of this thread: what the input costs, not how loaded the machine is
    start = time.thread_time()
    try:
        thunk()
    except tl.LayoutError:
        pass
    except Exception as exc:  # noqa: BLE001 (the point: anything else is a bug)
        key = (name.split(" ")[0], type(exc).__name__)
        failures.setdefault(key, f"{name}: {str(exc)[:200]}")
    took = time.thread_time() - start
    if took > slowest[0]:
        slowest[:] = [took, name, thunk]


def test_parser_and_every_operation_raise_only_layout_errors_quickly():
    rng = random.Random(SEED)
    slowest = [0.0, "", None]
    failures: dict = {}
    inputs = 0
    with tl.limits(LIMITS):
        while inputs < 20_000:
            text = mutated_text(rng) if rng.random() < 0.5 else layout_text(rng)
            inputs += 1
            try:
                L = tl.parse(text)
            except tl.LayoutError:
                continue
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"parse({text[:200]!r}) raised {type(exc).__name__}") from exc
            ops = _operations(rng, L)
            fast = [op for op in ops if op[0] not in SLOW]
            chosen = rng.sample(fast, 6)
            if rng.random() < 0.15:
                chosen.append(rng.choice([op for op in ops if op[0] in SLOW]))
            for name, thunk in chosen:
                inputs += 1
                _run(f"{name} on {text[:120]!r}", thunk, slowest, failures)
            if rng.random() < 0.3:
                name, thunk = rng.choice(_constructors(rng))
                inputs += 1
                _run(name, thunk, slowest, failures)
    assert inputs >= 20_000
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())
    if slowest[0] >= 1.0:  # measured once more, alone, before it counts as slow
        again = [0.0, "", None]
        with tl.limits(LIMITS):
            _run(slowest[1], slowest[2], again, {})
        slowest[0] = min(slowest[0], again[0])
    assert slowest[0] < 1.0, f"slowest input took {slowest[0]:.2f} s of CPU: {slowest[1]}"
