"""Cross-checking shared-memory wavefronts with Triton's own bank-conflict counter.

Gluon (``triton.experimental.gluon.language``) has ``bank_conflicts(distributed_type,
shared_memory_descriptor_type)``, evaluated when a kernel is compiled — on the CPU, for
an sm_90 target, with no GPU. It returns the *excess wavefronts per wavefront* of the
ld.shared / st.shared instructions Triton would emit: 0 when conflict-free, ``n - 1``
for an n-way conflict. For an F2-linear register layout and shared layout every
request has the same conflict degree, so our
:func:`~tilelayout.planning.mechanisms.staging.access.smem_access` must give
``wavefronts == (triton + 1) * ideal``. :func:`compare_bank_conflicts` checks that.

Our layouts reach Triton as a ``DistributedLinearLayout`` (register / lane / warp bases
from :func:`tilelayout.interop.triton.to_triton_bases`) and a ``SharedLinearLayout``
(:func:`tilelayout.interop.triton_shared.to_triton_shared`).

>>> import tilelayout as tl
>>> rows = tl.parse("S[(32,8,8):(1@laneid,8,1)]")                 # lane l: row l, 16 B x 8
>>> gluon_bank_conflicts(rows, tl.parse("S[(32,64):(64,1)]"), (32, 64), "float16")
7
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..core.compose import Layout
from ..planning.mechanisms.staging.access import AccessReport, smem_access
from . import InteropError, require
from .triton import to_triton_bases
from .triton_shared import to_triton_shared

#: our dtype -> the name of Triton's (gluon's) dtype object
TRITON_DTYPES = MappingProxyType({"float16": "float16", "bfloat16": "bfloat16", "float32": "float32",
                                  "tfloat32": "float32", "float8": "float8e4nv", "float64": "float64"})


def gluon_bank_conflicts(dist: Layout, smem: Layout, shape: Sequence[int], dtype: str,
                         arch: int = 90) -> int:
    """Triton's ``ttgl.bank_conflicts`` for our distributed and shared-memory layouts,
    evaluated by compiling a Gluon kernel for ``sm_<arch>`` on the CPU (needs the
    ``triton`` extra). Excess wavefronts per wavefront: 0 = conflict-free."""
    if dtype not in TRITON_DTYPES:
        raise InteropError(f"no Triton dtype for {dtype!r}; known: {', '.join(TRITON_DTYPES)}")
    s = tuple(dist.check_shape(shape))
    kernels = require("tilelayout.interop.triton_gluon", "triton", "Triton's bank-conflict count")
    ttgl = require("triton.experimental.gluon.language", "triton", "Triton's bank-conflict count")
    b = to_triton_bases(dist, s)  # type: ignore[arg-type]
    layout = ttgl.DistributedLinearLayout(
        reg_bases=b.get("register", []), lane_bases=b.get("lane", []),
        warp_bases=b.get("warp", []), block_bases=[], shape=list(s))
    shared = to_triton_shared(smem, s)
    return int(kernels.bank_conflicts(layout, shared, list(s), getattr(ttgl, TRITON_DTYPES[dtype]),
                                      arch))


def compare_bank_conflicts(dist: Layout, smem: Layout, shape: Sequence[int],
                           dtype: str) -> dict[str, Any]:
    """Our :func:`~tilelayout.planning.mechanisms.staging.access.smem_access` next to Triton's count:
    ``{"wavefronts", "ideal", "vector_bytes", "ours" (excess per wavefront, or None when
    requests differ in cost), "triton", "agree"}``."""
    r: AccessReport = smem_access(dist, smem, shape, dtype)
    triton = gluon_bank_conflicts(dist, smem, shape, dtype)
    uniform = len(set(r.per_request)) == 1 and r.ideal and r.wavefronts % r.ideal == 0
    ours = r.wavefronts // r.ideal - 1 if uniform else None
    return {"wavefronts": r.wavefronts, "ideal": r.ideal, "vector_bytes": r.vector_bytes,
            "ours": ours, "triton": triton,
            "agree": ours == triton and r.wavefronts == (triton + 1) * r.ideal}

