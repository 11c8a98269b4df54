"""Benchmark the XorSwizzle evaluation paths (issue 9, foundations).

Measures, in one run, on 2**22 int64 addresses:
  1. Swizzle(3,3,3).apply (the shift/mask formula of the special case),
  2. the same map as an XorSwizzle, through map_all's table path (swizzle_array: one
     256-entry lookup per 8 permuted bits),
  3. the same XorSwizzle through its generic bit loop (XorSwizzle.apply: one pass per bit),
  4. a 20-bit generic XorSwizzle (no Swizzle equals it) through both XorSwizzle paths,
and map_all of a 256x256 float16 tile composed with Swizzle(3,3,3) vs its XorSwizzle.

Run:  .venv/bin/python benchmarks/bench_xor_swizzle.py
Reports medians and ratios (absolute times drift on shared machines; ratios less so).
"""

from __future__ import annotations

import numpy as np

import tilelayout as tl
from bench_map_all import timeit  # the shared timing helper (median seconds per call)
from tilelayout.eval.forward import swizzle_array


def generic(bits: int) -> tl.XorSwizzle:
    """A unitriangular (so invertible) bit matrix with scattered low bits in every image."""
    return tl.XorSwizzle([(1 << k) | (k * 0x9E37 & ((1 << k) - 1)) for k in range(bits)])


def main() -> None:
    m = np.arange(1 << 22, dtype=np.int64)
    sw = tl.Swizzle(3, 3, 3)
    x = sw.to_xor()
    g = generic(20)
    assert tl.Swizzle.from_xor(g) is None
    assert np.array_equal(swizzle_array(x, m), sw.apply(m))
    assert np.array_equal(swizzle_array(g, m[:4096]), g.apply(m[:4096]))

    t_formula = timeit(lambda: sw.apply(m))
    t_table = timeit(lambda: swizzle_array(x, m))
    t_loop = timeit(lambda: x.apply(m))
    t_gtable = timeit(lambda: swizzle_array(g, m))
    t_gloop = timeit(lambda: g.apply(m))
    print(f"2**22 addresses, Swizzle(3,3,3) formula:        {t_formula * 1e3:7.2f} ms")
    print(f"  same map as XorSwizzle, table path (map_all): {t_table * 1e3:7.2f} ms "
          f"({t_table / t_formula:.2f}x the formula)")
    print(f"  same map as XorSwizzle, bit loop (apply):     {t_loop * 1e3:7.2f} ms "
          f"({t_loop / t_table:.2f}x the table path)")
    print(f"20-bit generic XorSwizzle, table path:          {t_gtable * 1e3:7.2f} ms "
          f"({t_gtable / t_formula:.2f}x the 9-bit formula)")
    print(f"  bit loop:                                     {t_gloop * 1e3:7.2f} ms "
          f"({t_gloop / t_gtable:.2f}x the table path)")

    tile = tl.parse("S[(256,256):(256,1)]")
    a, b = tl.ComposeLayout(sw, tile), tl.ComposeLayout(x, tile)
    t_a = timeit(lambda: a.map_all())
    t_b = timeit(lambda: b.map_all())
    print(f"map_all 256x256 with Swizzle(3,3,3): {t_a * 1e3:.2f} ms; with its XorSwizzle: "
          f"{t_b * 1e3:.2f} ms ({t_b / t_a:.2f}x)")


if __name__ == "__main__":
    main()
