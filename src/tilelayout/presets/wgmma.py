"""``wgmma.mma_async`` m64nNk16 accumulator D (sm_90): thread and register of each element.

Logical shape ``(64, n)``; physical ``wid_in_wg`` (warp of the warpgroup), ``laneid``
and ``m`` (register index i of d_i). Each warp owns a 16-row slab holding the m16n8 C
pattern repeated every 8 columns.

>>> from tilelayout import presets
>>> str(presets.get("wgmma.m64nNk16.D", n=16).layout)
'S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]'
"""

from __future__ import annotations

from .digits import digits_layout
from .registry import Built, Param, fail, register

NAME = "wgmma.m64nNk16.D"
N_CHOICES = tuple(range(8, 257, 8))


@register(
    NAME,
    summary="wgmma m64nNk16 f32 accumulator: (64, n) -> wid_in_wg, laneid, m",
    source="PTX ISA 9.7.15.5.1.1.1 (#wgmma-64n16-d, figure only); closed form from "
    "CuTe SM90::GMMA::CLayout_64xN (include/cute/atom/mma_traits_sm90_gmma.hpp)",
    params=[Param("n", "choice", 64, N_CHOICES, doc="N of the instruction (8..256, step 8)")],
)
def build(n: int = 64) -> Built:
    """``wgmma.mma_async.sync.aligned.m64nNk16.f32`` accumulator D over a warpgroup.

    Hardware object: the N/2 f32 registers d_i of each of the 128 threads of the
    warpgroup. Logical shape (64, n) = (M, N), row-major. ``wid_in_wg`` = tid_in_wg / 32,
    ``laneid`` = tid_in_wg % 32, ``m`` = register index i.

    Formula (warp w, lane l, register i):
      row = 16 w + (l >> 2) + 8 ((i >> 1) & 1);  col = 8 (i >> 2) + 2 (l % 4) + (i & 1)

    Source: PTX ISA 9.7.15.5.1.1.1 (#wgmma-64n16-d) gives this mapping only as a
    figure (Figure 149); the closed form is CuTe's
    SM90::GMMA::CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)), index = m + 64 n
    (include/cute/atom/mma_traits_sm90_gmma.hpp). Tests evaluate both forms.
    """
    if n % 8 or not 8 <= n <= 256:
        raise fail(NAME, f"n must be a multiple of 8 in [8, 256], got {n}")
    rows = [(4, 1, "wid_in_wg"), (2, 2, "m"), (8, 4, "laneid")]
    cols = [(n // 8, 4, "m"), (4, 1, "laneid"), (2, 1, "m")]
    return Built(digits_layout(rows, cols), (64, n), dtype="float32")
