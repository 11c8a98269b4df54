"""Shared-memory planning on a 128x128 float16 tile: an mma.sync accumulator over 4 warps
(the writer) and an ldmatrix-style reader (each lane reads 16 contiguous bytes of one
row, 16 rows x 2 column halves per warp step).

Measures, in one run:

* ``choose_smem_layout(..., family="swizzle")`` (target < 100 ms);
* ``choose_smem_layout(..., family="any")`` (target < 2 s);
* ``smem_access`` of one candidate (the 128B swizzle) for both sides, against the same
  requests costed one by one with the scalar ``tl.smem_wavefronts`` (the per-request
  Python path), with the ratio.

Run: .venv/bin/python benchmarks/bench_smem.py
"""

from __future__ import annotations

import time

import numpy as np

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.access import request_addresses, smem_addresses
from tilelayout.planning.model.threads import register_file

WRITER = tl.parse("S[(4,2,2,8,16,4,2):(1@warpid,4,2,4@laneid,8,1@laneid,1)]")  # mma C, 4 warps
READER = tl.parse("S[(4,2,16,8,2,8):(1@warpid,64,1@laneid,8,16@laneid,1)]")   # ldmatrix rows
SHAPE = (128, 128)
DTYPE = "float16"
SMEM = tl.ComposeLayout(tl.Swizzle.for_dtype(DTYPE, "128B"), tl.parse("S[(128,2,64):(64,8192,1)]"))


def best(fn, repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs (CPU time: the machine is shared)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def scalar_path() -> int:
    """Every request of both sides costed one at a time with tl.smem_wavefronts."""
    total = 0
    addr = smem_addresses(SMEM, SHAPE)
    for dist in (WRITER, READER):
        rf = register_file(dist, SHAPE)
        r = tl.smem_access(dist, SMEM, SHAPE, DTYPE)
        k = r.vector_bytes // 2
        byte, _, _, access = request_addresses(rf, addr, k, 2)
        for row in byte.tolist():
            total += tl.smem_wavefronts([None if a < 0 else a for a in row], access)
    return total


def vector_path() -> int:
    return sum(tl.smem_access(d, SMEM, SHAPE, DTYPE).wavefronts for d in (WRITER, READER))


def main() -> None:
    c = tl.choose_smem_layout(WRITER, READER, SHAPE, DTYPE)
    t_swizzle = best(lambda: tl.choose_smem_layout(WRITER, READER, SHAPE, DTYPE))
    print(f"swizzle family: {t_swizzle * 1e3:7.1f} ms for {c.searched} candidates "
          f"-> {c.name}: {c.wavefronts} wavefronts, ideal {c.ideal}"
          f"  ({'under' if t_swizzle < 0.1 else 'OVER'} the 100 ms target)")

    a = tl.choose_smem_layout(WRITER, READER, SHAPE, DTYPE, "any")
    t_any = best(lambda: tl.choose_smem_layout(WRITER, READER, SHAPE, DTYPE, "any"))
    print(f"any family:     {t_any * 1e3:7.1f} ms for {a.searched} candidates "
          f"-> {a.name}: {a.wavefronts} wavefronts, ideal {a.ideal}"
          f"  ({'under' if t_any < 2 else 'OVER'} the 2 s target; {t_any / t_swizzle:.1f}x the "
          f"swizzle family)")

    assert scalar_path() == vector_path()
    t_vec = best(vector_path)
    t_scalar = best(scalar_path, repeat=2)
    print(f"smem_access, both sides of one candidate: {t_vec * 1e3:6.2f} ms vectorized, "
          f"{t_scalar * 1e3:7.1f} ms per request in Python ({t_scalar / t_vec:.0f}x)")
    print(f"ratio swizzle-family choice / one candidate: {t_swizzle / t_vec:.1f}x "
          f"({c.searched} candidates)")
    np.testing.assert_equal(c.distance, 0)


if __name__ == "__main__":
    main()
