"""Cross-checking shared-memory wavefronts with Triton's own bank-conflict counter.

Gluon (``triton.experimental.gluon.language``) has ``bank_conflicts(distributed_type,
shared_memory_descriptor_type)``, evaluated when a kernel is compiled — on the CPU, for
an sm_90 target, with no GPU. It returns the *excess wavefronts per wavefront* of the
ld.shared / st.shared instructions Triton would emit: 0 when conflict-free, ``n - 1``
for an n-way conflict. For an F2-linear register layout and shared layout every
request has the same conflict degree, so our
:func:`~tilelayout.planning.access.smem_access` must give
``wavefronts == (triton + 1) * ideal``. :func:`compare_bank_conflicts` checks that.

Our layouts reach Triton as a ``DistributedLinearLayout`` (register / lane / warp bases
from :func:`tilelayout.interop.triton.to_triton_bases`) and a ``SharedLinearLayout``
(the logical coordinate of each address bit, :func:`shared_offset_bases`).

>>> import tilelayout as tl
>>> shared_offset_bases(tl.parse("S[(4,8):(1,4)]"), (4, 8))   # column-major 4x8
[[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.compose import Layout
from ..planning.access import AccessReport, smem_access, smem_addresses
from . import InteropError, require
from .triton import to_triton_bases

#: our dtype -> the name of Triton's (gluon's) dtype object
TRITON_DTYPES = {"float16": "float16", "bfloat16": "bfloat16", "float32": "float32",
                 "tfloat32": "float32", "float8": "float8e4nv", "float64": "float64"}


def shared_offset_bases(smem: Layout, shape: Sequence[int]) -> list[list[int]]:
    """Triton ``SharedLinearLayout`` offset bases of an F2-linear shared-memory layout:
    entry ``k`` is the logical coordinate stored at address ``2**k``. Refuses layouts
    that are not a bijective XOR-linear map of a power-of-two tile.

    >>> import tilelayout as tl
    >>> L = tl.ComposeLayout(tl.Swizzle(1, 1, 1), tl.parse("S[(2,4):(4,1)]"))
    >>> shared_offset_bases(L, (2, 4))
    [[0, 1], [0, 2], [1, 2]]
    """
    s = smem.check_shape(shape)
    n = math.prod(s)
    if n & (n - 1):
        raise InteropError(f"a Triton shared linear layout needs a power-of-two tile; "
                           f"{tuple(s)} has {n} elements")
    addr = smem_addresses(smem, s)
    if int(addr.max()) != n - 1:
        raise InteropError(f"{smem} does not fill [0, {n}) exactly (addresses up to "
                           f"{int(addr.max())}); a shared linear layout is a bijection")
    where = np.empty(n, dtype=np.int64)
    where[addr] = np.arange(n)
    coords = np.stack(np.unravel_index(where, s), axis=1)  # address -> coordinate
    bits = n.bit_length() - 1
    bases = coords[[1 << k for k in range(bits)]]
    # linear: the coordinate of every address is the XOR of its bits' coordinates
    expect = np.zeros_like(coords)
    for k in range(bits):
        expect ^= np.where(((np.arange(n) >> k) & 1)[:, None] == 1, bases[k], 0)
    if not np.array_equal(expect, coords):
        raise InteropError(f"{smem} is not XOR-linear over {tuple(s)}: a Triton shared "
                           f"linear layout cannot express it")
    return bases.tolist()


def gluon_bank_conflicts(dist: Layout, smem: Layout, shape: Sequence[int], dtype: str,
                         arch: int = 90) -> int:
    """Triton's ``ttgl.bank_conflicts`` for our distributed and shared-memory layouts,
    evaluated by compiling a Gluon kernel for ``sm_<arch>`` on the CPU (needs the
    ``triton`` extra). Excess wavefronts per wavefront: 0 = conflict-free."""
    if dtype not in TRITON_DTYPES:
        raise InteropError(f"no Triton dtype for {dtype!r}; known: {', '.join(TRITON_DTYPES)}")
    s = tuple(dist.check_shape(shape))
    kernels = require("tilelayout.interop.triton_gluon", "triton")
    ttgl = require("triton.experimental.gluon.language", "triton")
    b = to_triton_bases(dist, s)  # type: ignore[arg-type]
    layout = ttgl.DistributedLinearLayout(
        reg_bases=b.get("register", []), lane_bases=b.get("lane", []),
        warp_bases=b.get("warp", []), block_bases=[], shape=list(s))
    shared = ttgl.SharedLinearLayout(offset_bases=shared_offset_bases(smem, s))
    return int(kernels.bank_conflicts(layout, shared, list(s), getattr(ttgl, TRITON_DTYPES[dtype]),
                                      arch))


def compare_bank_conflicts(dist: Layout, smem: Layout, shape: Sequence[int],
                           dtype: str) -> dict[str, Any]:
    """Our :func:`~tilelayout.planning.access.smem_access` next to Triton's count:
    ``{"wavefronts", "ideal", "vector_bytes", "ours" (excess per wavefront, or None when
    requests differ in cost), "triton", "agree"}``."""
    r: AccessReport = smem_access(dist, smem, shape, dtype)
    triton = gluon_bank_conflicts(dist, smem, shape, dtype)
    uniform = len(set(r.per_request)) == 1 and r.ideal and r.wavefronts % r.ideal == 0
    ours = r.wavefronts // r.ideal - 1 if uniform else None
    return {"wavefronts": r.wavefronts, "ideal": r.ideal, "vector_bytes": r.vector_bytes,
            "ours": ours, "triton": triton,
            "agree": ours == triton and r.wavefronts == (triton + 1) * r.ideal}

