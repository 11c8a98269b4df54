"""Limits of Triton's layouts that the presets and the Gluon interop both respect (one table;
the facts and their sources are in docs/interop/triton.md, "What Triton's lowering accepts").

* :data:`MAX_LOG2`: Triton's linear layouts hold sizes, bases and in-dim sizes in int32
  (``lib/Tools/LinearLayout.cpp``): a dimension, an element count or a register / lane /
  warp index space of 2**31 overflows (an assertion ends the process), so at most 2**30.
* :data:`WARP_SIZES`: the lanes of a warp (NVIDIA: 32) or a wavefront (AMD: 64 on CDNA,
  32 on RDNA). A layout's threads per warp must multiply to the module's
  ``ttg.threads-per-warp`` (the TritonGPU verifier;
  ``test/TritonGPU/verify-blocked-layout.mlir`` expects "threads per warp" refused).

>>> 1 << MAX_LOG2, WARP_SIZES
(1073741824, (32, 64))
"""

from __future__ import annotations

#: the largest power of two Triton's int32 linear layouts hold as a size, basis or index space
MAX_LOG2 = 30
#: threads of one warp / wavefront (Triton's ttg.threads-per-warp on NVIDIA and AMD)
WARP_SIZES = (32, 64)
