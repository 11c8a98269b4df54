"""Benchmark the evaluation engine (issue: core).

Measures, in one run:
  1. map_all on a 128x128 tile with 4 shard iters and one replica iter,
  2. map_all on 2**24 elements vs numpy merely filling output arrays of the same size,
  3. for reference, a per-element Python loop over apply() on the same 128x128 tile,
     and single base()/apply() calls (the compiled hot path),
     and (when pycute from nvidia-cutlass is installed) pycute evaluating a layout of
     the same size element by element.

Run:  .venv/bin/python benchmarks/bench_map_all.py
Reports medians and ratios (absolute times drift on shared machines; ratios less so).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

import tilelayout as tl

TILE = tl.parse("S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]")
BIG = tl.parse("S[(64,64,64,64):(262144,1,4096,64)]")  # 2**24 elements, one axis
BIG2 = tl.parse("S[(4096,8,512):(1@pid,1@laneid,8)]")  # 2**24 elements, three axes


def timeit(fn: Callable[[], object], repeat: int = 7, number: int = 1) -> float:
    """Median seconds per call over ``repeat`` rounds of ``number`` calls."""
    fn()  # warm up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def fill_outputs(layout: tl.TileLayout) -> Callable[[], object]:
    """What numpy needs merely to produce the output arrays: one filled int64 array per axis."""
    n = layout.size()
    r = layout.replica_count
    axes = layout.axes

    def run() -> object:
        return {a: np.full((n, r), 7, dtype=np.int64) for a in axes}

    return run


def python_loop(layout: tl.TileLayout, shape: tuple[int, ...]) -> Callable[[], object]:
    def run() -> object:
        return [layout.apply(i, shape) for i in range(layout.size())]

    return run


def pycute_loop() -> Callable[[], object] | None:
    try:
        from pycute import Layout  # shipped in the nvidia-cutlass wheel
    except ImportError:
        return None
    layout = Layout((8, 16, 16, 8), (512, 32, 2, 1))

    def run() -> object:
        return [layout(i) for i in range(128 * 128)]

    return run


def main() -> None:
    rows = []
    t_tile = timeit(lambda: TILE.map_all((128, 128)), repeat=21, number=20)
    rows.append(("map_all 128x128, 4 shard + 1 replica iter", t_tile))
    t_loop = timeit(python_loop(TILE, (128, 128)), repeat=3)
    rows.append(("per-element apply() loop, same tile", t_loop))
    t_base = timeit(lambda: [TILE.base(i) for i in range(1000)], repeat=21)
    rows.append(("1000 base() calls, default shape", t_base))
    t_apply = timeit(lambda: [TILE.apply((i, 7), (128, 128)) for i in range(128)], repeat=21,
                     number=8)
    rows.append(("128 apply() calls, shape (128, 128)", t_apply))
    cute = pycute_loop()
    t_cute = timeit(cute, repeat=3) if cute else None
    if t_cute is not None:
        rows.append(("pycute per-element loop, 16384 elements", t_cute))
    with tl.limits(elements=1 << 24, output_bytes=1 << 29):  # 2**24 is over the defaults
        t_big = timeit(lambda: BIG.map_all(), repeat=5)
        t_fill = timeit(fill_outputs(BIG), repeat=5)
        t_big2 = timeit(lambda: BIG2.map_all(), repeat=5)
        t_fill2 = timeit(fill_outputs(BIG2), repeat=5)
    rows.append(("map_all 2**24 elements, 1 axis", t_big))
    rows.append(("numpy fill of the same outputs", t_fill))
    rows.append(("map_all 2**24 elements, 3 axes", t_big2))
    rows.append(("numpy fill of the same outputs (3 arrays)", t_fill2))

    width = max(len(r[0]) for r in rows)
    for name, t in rows:
        print(f"{name:<{width}}  {t * 1e3:10.3f} ms")
    print()
    print(f"128x128 tile: map_all is {t_loop / t_tile:,.0f}x faster than the apply() loop"
          + (f" and {t_cute / t_tile:,.0f}x faster than pycute's loop" if t_cute else "")
          + f"; {t_tile * 1e3:.3f} ms (target < 1 ms)")
    print(f"2**24, 1 axis: map_all / numpy fill = {t_big / t_fill:.2f} (target <= 4)")
    print(f"2**24, 3 axes: map_all / numpy fill = {t_big2 / t_fill2:.2f} (target <= 4)")


if __name__ == "__main__":
    main()
