"""Benchmark the F2 inverse (core/f2.py) that XorSwizzle, codegen and the planners share.

Measures, in one run, for maps on n = 10, 20, 40, 62 bits (a unitriangular map with
scattered low bits, and a dense random invertible one):
  1. ``f2.inverse`` (pivot on leading bits, then back-substitute: one XOR per set bit);
  2. the textbook alternative: Gauss-Jordan on the augmented matrix [A | I] stored as
     n row ints, with the result transposed back to images (what codegen and the planners
     each carried before core/f2.py);
and the end-to-end cost of ``XorSwizzle(images).inverse()`` (construction checks included).

Run:  .venv/bin/python benchmarks/bench_f2.py
Reports medians and ratios (absolute times drift on shared machines; ratios less so).
"""

from __future__ import annotations

import random

import tilelayout as tl
from bench_map_all import timeit  # the shared timing helper (median seconds per call)
from tilelayout.core import f2


def gauss_jordan(images: tuple[int, ...]) -> tuple[int, ...]:
    """The alternative: reduce [A | I] (row r = bit r of every image) to [I | A^-1]."""
    n = len(images)
    rows = [sum(((images[c] >> r) & 1) << c for c in range(n)) | (1 << (n + r))
            for r in range(n)]
    for c in range(n):
        p = next(r for r in range(c, n) if rows[r] >> c & 1)
        rows[c], rows[p] = rows[p], rows[c]
        for r in range(n):
            if r != c and rows[r] >> c & 1:
                rows[r] ^= rows[c]
    inv = [row >> n for row in rows]
    return tuple(sum(((inv[k] >> i) & 1) << k for k in range(n)) for i in range(n))


def unitriangular(n: int) -> tuple[int, ...]:
    return tuple((1 << k) | (k * 0x9E37 & ((1 << k) - 1)) for k in range(n))


def dense(n: int, seed: int = 0) -> tuple[int, ...]:
    rng = random.Random(seed)
    while True:
        images = tuple(rng.getrandbits(n) for _ in range(n))
        if f2.first_dependent(images) is None:
            return images


def main() -> None:
    print("| n | map | f2.inverse (us) | Gauss-Jordan [A|I] (us) | ratio | XorSwizzle(...).inverse() (us) |")
    print("|---|---|---|---|---|---|")
    for n in (10, 20, 40, 62):
        for kind, images in (("unitriangular", unitriangular(n)), ("dense", dense(n))):
            assert f2.inverse(images) == gauss_jordan(images)
            t_new = timeit(lambda images=images: f2.inverse(images), number=50)
            t_alt = timeit(lambda images=images: gauss_jordan(images), number=50)
            t_sw = timeit(lambda images=images: tl.XorSwizzle(images).inverse(), number=50)
            print(f"| {n} | {kind} | {t_new * 1e6:.1f} | {t_alt * 1e6:.1f} | "
                  f"{t_new / t_alt:.2f}x | {t_sw * 1e6:.1f} |")


if __name__ == "__main__":
    main()
