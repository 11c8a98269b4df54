"""Algebra cost grows with iters, not elements: layouts of 2**10 and 2**40 elements.

Measures canonicalize, tile and an inverse query (elements_at) on a small and a huge
layout with the same iter structure, and reports the ratio (should be within 2x);
as the alternative measured in the same run, the brute-force inverse query (map_all
plus a mask) on the small layout. Also times the bank-conflict analysis of a 128x128
float16 tile (every 16-byte column read), against the scalar per-access path.

Run: .venv/bin/python benchmarks/bench_algebra.py
"""

from __future__ import annotations

import timeit

import numpy as np

import tilelayout as tl


def best(fn, number=200, repeat=5) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def layouts(scale: int) -> tuple[tl.TileLayout, tl.TileLayout, tuple[int, ...]]:
    # same structure: (a, 4 warps, 8 rows, b, 4 lanes, 2 regs) with a*b = 2**scale
    a = b = 1 << scale
    L = tl.parse(f"S[({a},4,8,{b},4,2):({2 * b},1@warpid,4@laneid,2,1@laneid,1)] + R[2:4@warpid]")
    outer = tl.parse("S[(2,2):(2,1)]")
    return L, outer, (a * 4 * 8, b * 4 * 2)


def main() -> None:
    rows = []
    for scale in (1, 16):
        L, outer, shape = layouts(scale)
        query = {"laneid": 5, "warpid": 6, "m": 2 * 3 + 1}
        t_can = best(lambda L=L: L.canonicalize())
        t_tile = best(lambda L=L, o=outer, s=shape: L.tile(o, (2, 2), s))
        t_inv = best(lambda L=L, q=query, s=shape: L.elements_at(q, s), number=100)
        rows.append((L.size(), t_can, t_tile, t_inv))
    print(f"{'elements':>16} {'canonicalize':>14} {'tile':>12} {'elements_at':>12}")
    for n, *ts in rows:
        print(f"{'2**' + str(n.bit_length() - 1):>16} " + " ".join(f"{t * 1e6:>11.1f}us" for t in ts))
    ratios = [big / small for small, big in zip(rows[0][1:], rows[1][1:], strict=True)]
    print("ratio 2**40 / 2**10: " + ", ".join(f"{r:.2f}x" for r in ratios)
          + ("  (within 2x)" if max(ratios) <= 2 else "  (NOT within 2x)"))

    L, _, shape = layouts(1)
    query = {"laneid": 5, "warpid": 6, "m": 7}

    def brute():
        c = L.map_all(shape)
        hit = np.ones(c["m"].shape, dtype=bool)
        for a, v in query.items():
            hit &= c[a] == v
        return np.argwhere(hit.any(axis=-1))

    t_brute, t_solve = best(brute, number=100), best(lambda: L.elements_at(query, shape), 100)
    print(f"inverse query on 2**10 elements: solve {t_solve * 1e6:.1f}us, brute-force scan "
          f"{t_brute * 1e6:.1f}us ({t_brute / t_solve:.1f}x)")

    sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(128,128):(128,1)]"))
    t_bank = best(lambda: tl.tile_conflicts(sw, "float16", (128, 128)), number=20)
    r = tl.tile_conflicts(sw, "float16", (128, 128))

    def scalar():
        for c in range(16):
            for b in range(4):
                tl.bank_conflicts(sw, "float16",
                                  [[(32 * b + lane, 8 * c + j) for j in range(8)] for lane in range(32)])

    t_scalar = best(scalar, number=1, repeat=3)
    print(f"bank conflicts, 128x128 float16 (128B swizzle, {r['accesses']} column reads): "
          f"{t_bank * 1e3:.2f} ms vectorized ({'under' if t_bank < 0.01 else 'OVER'} 10 ms), "
          f"{t_scalar * 1e3:.1f} ms per-access scalar ({t_scalar / t_bank:.0f}x); "
          f"{r['wavefronts']} wavefronts vs ideal {r['ideal']}")


if __name__ == "__main__":
    main()
