"""An independent, scalar reference for shared-memory access costs (tests only).

Walks every element with the exact scalar ``apply`` / ``base``, groups registers per
(warp, lane) in Python dicts and costs each request with the scalar
``tl.smem_wavefronts`` — none of the vectorized planning code.
"""

from __future__ import annotations

import math

import numpy as np

import tilelayout as tl

THREAD_LEVEL = ("laneid", "tx", "tid_in_wg")


def registers(dist, shape):
    """{(warp key, lane): {slot: flat index}}."""
    regs: dict = {}
    for flat in range(math.prod(shape)):
        idx = tuple(int(c) for c in np.unravel_index(flat, shape))
        for c in dist.apply(idx, shape):
            lane_axis = next((a for a in THREAD_LEVEL if a in c), None)
            thread = c[lane_axis] if lane_axis else 0
            warp = tuple(sorted((a, v) for a, v in c.items()
                                if a not in ("m",) + THREAD_LEVEL))
            warp += ((("thread//32", thread // 32),) if lane_axis not in (None, "laneid")
                     else ())
            regs.setdefault((warp, thread % 32), {})[c.get("m", 0)] = flat
    return regs


def vector_fits(regs, addr, k):
    for slots in regs.values():
        for v in {s // k for s in slots}:
            group = [slots.get(v * k + j) for j in range(k)]
            if any(g is None for g in group):
                return False
            a = [addr[g] for g in group]
            if a != list(range(a[0], a[0] + k)) or a[0] % k:
                return False
    return True


def reference_cost(dist, smem, shape, dtype, vector_bytes=None):
    """(vector_bytes, requests, wavefronts, ideal) by brute force."""
    nb = tl.dtype_bytes(dtype)
    regs = registers(dist, shape)
    addr = {f: smem.base(tuple(int(c) for c in np.unravel_index(f, shape)), shape)["m"]
            for f in range(math.prod(shape))}
    if vector_bytes is None:
        k = max(k for k in (1, 2, 4, 8, 16) if k * nb <= 16 and vector_fits(regs, addr, k))
    else:
        k = vector_bytes // nb
    access = max(k * nb, 4)
    per_phase = 128 // access
    warps = sorted({w for w, _ in regs})
    top = max(s for slots in regs.values() for s in slots)
    requests = waves = ideal = 0
    for w in warps:
        for v in range(top // k + 1):
            lanes = []
            for lane in range(32):
                first = regs.get((w, lane), {}).get(v * k)
                if first is None:
                    lanes.append(None)
                else:
                    b = addr[first] * nb
                    lanes.append(b - b % access)
            if all(a is None for a in lanes):
                continue
            requests += 1
            waves += tl.smem_wavefronts(lanes, access)
            ideal += sum(any(a is not None for a in lanes[p:p + per_phase])
                         for p in range(0, 32, per_phase))
    return k * nb, requests, waves, ideal
