"""CuTe's layout algebra: tilelayout.algebra.cute against pycute, in the same run.

Times every CUTLASS pycute unit-test case (tests/algebra/cute_cases.py: coalesce,
complement, composition, left and right inverse) per call in both libraries; the
divides and products on block x tiler pairs; and ``logical_product``, which CuTe builds
from three calls (complement, composition, make_layout). Reports our time / pycute's
(below 1 is faster) as the geometric mean and the worst case per operation. Also: the
same product with our layouts in and out (``TileLayout`` operands, ``.layout`` of the
result, conversion uncached), against pycute on its own objects; and our model's native
``tl.compose(..., unbounded=True)`` on ``CuteLayout.index_layout()`` operands (our
row-major flat index is then CuTe's 1-D index) against pycute's composition.

Run: .venv/bin/python benchmarks/bench_cute.py
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "algebra"))

import pycute  # noqa: E402  (the optional 'cute' extra)
from cute_cases import COALESCE, COMPLEMENT, COMPOSITION, LEFT_INVERSE, RIGHT_INVERSE  # noqa: E402

import tilelayout as tl  # noqa: E402
from tilelayout.algebra import cute as C  # noqa: E402
from tilelayout.algebra.cute import modes  # noqa: E402


def pair(ours_fn: Callable[[], object], theirs_fn: Callable[[], object], number: int = 200,
         repeat: int = 9) -> tuple[float, float]:
    """Best seconds per call of each, rounds interleaved (ours, theirs, ours, ...) so that
    load from other jobs on this shared machine hits both alike."""
    ours_fn()
    theirs_fn()
    best = [math.inf, math.inf]
    for _ in range(repeat):
        for k, fn in enumerate((ours_fn, theirs_fn)):
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            best[k] = min(best[k], (time.perf_counter() - t0) / number)
    return best[0], best[1]


def pl(case) -> pycute.Layout:
    shape, stride = case
    return pycute.Layout(shape) if stride is None else pycute.Layout(shape, stride)


def ours(layout: pycute.Layout) -> C.CuteLayout:
    return C.CuteLayout(layout.shape, layout.stride)


def ratios(rows: list[tuple[str, float, float]]) -> str:
    rs = [o / p for _, o, p in rows]
    geo = math.exp(sum(map(math.log, rs)) / len(rs))
    worst = max(rows, key=lambda r: r[1] / r[2])
    return (f"{len(rs):>3} cases  ours {statistics.median(r[1] for r in rows) * 1e6:6.2f}us  "
            f"pycute {statistics.median(r[2] for r in rows) * 1e6:6.2f}us  ratio geo-mean "
            f"{geo:.2f}x  worst {worst[1] / worst[2]:.2f}x ({worst[0]})")


def main() -> None:
    table: dict[str, list[tuple[str, float, float]]] = {}
    for name, cases, mine, theirs in [
        ("coalesce", COALESCE, C.coalesce, pycute.coalesce),
        ("complement", COMPLEMENT, C.complement, pycute.complement),
        ("left_inverse", LEFT_INVERSE, C.left_inverse, pycute.left_inverse),
        ("right_inverse", RIGHT_INVERSE, C.right_inverse, pycute.right_inverse),
    ]:
        for case in cases:
            p = pl(case)
            o = ours(p)
            table.setdefault(name, []).append(
                (str(p), *pair(lambda o=o, f=mine: f(o), lambda p=p, f=theirs: f(p))))
    for a, b in COMPOSITION:
        pa, pb = pl(a), pl(b)
        oa, ob = ours(pa), ours(pb)
        table.setdefault("composition", []).append(
            (f"{pa} o {pb}", *pair(lambda oa=oa, ob=ob: C.composition(oa, ob),
                                   lambda pa=pa, pb=pb: pycute.composition(pa, pb))))
    for a, b in COMPOSITION:   # our model's native compose, reading CuTe's 1-D index
        pa, pb = pl(a), pl(b)
        ia, ib = ours(pa).index_layout(), ours(pb).index_layout()
        table.setdefault("tl.compose", []).append(
            (f"{pa} o {pb}", *pair(lambda ia=ia, ib=ib: tl.compose(ia, ib, unbounded=True),
                                   lambda pa=pa, pb=pb: pycute.composition(pa, pb))))
    blocks = [pycute.Layout((2, 5), (5, 1)), pycute.Layout((4, 3), (3, 1)),
              pycute.Layout((8, 8), (8, 1)), pycute.Layout(((2, 2), 4), ((1, 8), 2)),
              pycute.Layout((4, 8, 2), (2, 8, 1))]
    tilers = [pycute.Layout((3, 4), (1, 3)), pycute.Layout(2, 1), pycute.Layout((2, 2), (1, 4)),
              pycute.Layout(4, 2)]
    for name in ("logical_divide", "zipped_divide", "tiled_divide", "logical_product",
                 "zipped_product", "tiled_product"):
        mine, theirs = getattr(C, name), getattr(pycute, name)
        for a in blocks:
            for t in tilers:
                oa, ot = ours(a), ours(t)
                try:
                    mine(oa, ot)
                    theirs(a, t)
                except Exception:  # refused (ours: not exact; pycute: its assertion)
                    continue
                table.setdefault(name, []).append(
                    (f"{a} / {t}", *pair(lambda m=mine, x=oa, y=ot: m(x, y),
                                         lambda f=theirs, x=a, y=t: f(x, y))))
    print("per call, ours / pycute (below 1: ours is faster)")
    for name, rows in table.items():
        print(f"  {name:<16} {ratios(rows)}")

    # our layouts in and out: TileLayout operands, .layout of the result, conversion uncached
    build = modes._tile.__wrapped__
    rows = []
    for a in blocks:
        for t in tilers:
            ta, tt = C.as_cute(a).layout, C.as_cute(t).layout
            sa, st = a.shape, t.shape

            def with_ours(ta=ta, tt=tt, sa=sa, st=st):
                r = C.logical_product(modes.of_tile(ta, sa), modes.of_tile(tt, st))
                return build(r.shape, r.stride)

            rows.append((f"{a} x {t}", *pair(with_ours, lambda a=a, t=t: pycute.logical_product(a, t),
                                             repeat=15)))
    print(f"  {'logical_product, TileLayout in and out':<16}\n  {'':<16} {ratios(rows)}")


if __name__ == "__main__":
    main()
