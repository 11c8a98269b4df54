"""The plans the emitted code is proven on: the scenario suite, the preset pairs the
planner accepts (as ``benchmarks/bench_plan.py`` enumerates them), the float32
accumulators converted to 16- and 8-bit types, TMA endpoints (stores of the converted
accumulators, loads into every register preset), and seeded random pairs of register
layouts on 1, 4 and 8 warps."""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

import tilelayout as tl

ROOT = Path(__file__).resolve().parents[3]
#: the dtypes of the preset pairs and random pairs (8, 16, 32 and 64 bits)
DTYPES = ("int8", "float16", "float32", "float64")
#: accumulator presets whose float32 values are converted before the move
ACCUMULATORS = ("mma.m16n8k16.C", "wgmma.m64nNk16.D", "tcgen05.ld.32x32b", "tcgen05.ld.16x256b")
CONVERTED = ("bfloat16", "float16", "e4m3")
#: the TMA loads: both global orders, into every register preset, as these types
TMA_SOURCES = ("tma", "tma:order=col")
TMA_DTYPES = ("int8", "float16", "bfloat16", "float32", "float64")
EXTENTS = (2, 3, 4, 2, 2, 5, 2)


def preset_layouts() -> list[tuple[str, tl.Layout, tuple[int, ...]]]:
    """The presets of ``benchmarks/bench_plan.py`` (each with its defaults and a few
    common parameter choices)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_plan import layouts  # noqa: PLC0415 (the benchmark's own enumeration)

    return layouts()


def preset_pairs() -> list[tuple[str, tl.Layout, tl.Layout, tuple[int, ...]]]:
    built = preset_layouts()
    return [(f"{a[0]} -> {b[0]}", a[1], b[1], a[2]) for a, b in itertools.permutations(built, 2)
            if a[1].size() == b[1].size() and ("@" in str(a[1]) or "@" in str(b[1]))]


def _layout(rng: np.random.Generator, extents: tuple[int, ...], warps: int) -> str | None:
    """A bijective register layout of ``extents`` (one flat dimension): each iter on
    laneid, warpid or m, warpid's extents multiplying to ``warps``; maybe a replica."""
    order = rng.permutation(len(extents))
    used = {"laneid": 1, "warpid": 1, "m": 1}
    axis_of: dict[int, tuple[str, int]] = {}
    for i in order.tolist():
        e = extents[i]
        choices = [a for a in ("laneid", "m") if a != "laneid" or used[a] * e <= 32]
        if used["warpid"] * e <= warps and warps % (used["warpid"] * e) == 0:
            choices.append("warpid")
        a = choices[int(rng.integers(len(choices)))]
        axis_of[i] = (a, used[a])
        used[a] *= e
    if used["warpid"] != warps or used["laneid"] * used["warpid"] <= 1:
        return None
    iters = ",".join(str(e) for e in extents)
    strides = ",".join(f"{s}@{a}" if a != "m" else str(s)
                       for a, s in (axis_of[i] for i in range(len(extents))))
    text = f"S[({iters}):({strides})]"
    if used["laneid"] <= 16 and rng.integers(2):
        text += f" + R[2:{used['laneid']}@laneid]"
    return text


def random_pairs(n: int, seed: int = 27) -> Iterator[tuple[str, str, str, tuple[int, ...], str]]:
    """``n`` seeded random pairs ``(name, src, dst, shape, dtype)`` of register layouts
    on 1, 4 and 8 warps (power-of-two and odd extents, replicas), over :data:`DTYPES`."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < n:
        warps = (1, 4, 8)[made % 3]
        k = int(rng.integers(2, 6))
        extents = tuple(int(x) for x in rng.permutation(EXTENTS)[:k])
        extents += (2,) * (int(math.log2(warps)) if warps > 1 else 0)
        a, b = _layout(rng, extents, warps), _layout(rng, extents, warps)
        if a is None or b is None:
            continue
        dtype = DTYPES[int(rng.integers(len(DTYPES)))]
        yield f"random {made}", a, b, (math.prod(extents),), dtype
        made += 1


def converted_pairs() -> list[tuple[str, str, str, str]]:
    """``(name, src preset, dst, dtype)``: a float32 accumulator preset converted to
    bf16 / fp16 / e4m3 into every preset of as many elements, and into TMA."""
    built = preset_layouts()
    out = []
    for acc in ACCUMULATORS:
        a = tl.presets.get(acc, **tl.presets.info(acc).defaults)
        for dtype in CONVERTED:
            out.append((f"{acc} -> tma ({dtype})", f"preset:{acc}", "tma", dtype))
            for name, layout, _shape in built:
                if layout.size() == a.layout.size() and name != acc:
                    out.append((f"{acc} -> {name} ({dtype})", f"preset:{acc}", str(layout),
                                dtype))
    return out


def tma_source_pairs() -> list[tuple[str, str, tl.Layout, tuple[int, ...], str]]:
    """``(name, TMA source, register preset, shape, dtype)``: a TMA load of the tile
    into every register preset of :func:`preset_layouts` (the planner refuses the pairs
    no tensor map moves)."""
    return [(f"{src} -> {name} ({dtype})", src, layout, shape, dtype)
            for name, layout, shape in preset_layouts() if "@" in str(layout)
            for dtype in TMA_DTYPES for src in TMA_SOURCES]
