"""``wgmma.mma_async`` m64nNk16 accumulator D (sm_90): thread and register of each element.

Logical shape ``(64, n)``; physical ``wid_in_wg`` (warp of the warpgroup), ``laneid``
and ``m`` (register index i of d_i). Each warp owns a 16-row slab holding the m16n8 C
pattern repeated every 8 columns.

>>> from tilelayout import presets
>>> str(presets.get("wgmma.m64nNk16.D", n=16).layout)
'S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]'
"""

from __future__ import annotations

from types import MappingProxyType

from .digits import digits_layout
from .registry import Param, PresetLayout, fail, register

NAME = "wgmma.m64nNk16.D"
N_CHOICES = tuple(range(8, 257, 8))


@register(
    NAME,
    summary="wgmma m64nNk16 f32 accumulator: (64, n) -> wid_in_wg, laneid, m",
    source="PTX ISA 9.7.15.5.1.1.1 (#wgmma-64n16-d, figure only); closed form from "
    "CuTe SM90::GMMA::CLayout_64xN (include/cute/atom/mma_traits_sm90_gmma.hpp)",
    params=[Param("n", "choice", 64, N_CHOICES, doc="N of the instruction (8..256, step 8)")],
)
def build(n: int = 64) -> PresetLayout:
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
    return PresetLayout(digits_layout(rows, cols), (64, n), dtype="float32")


A_NAME = "wgmma.m64nNkK.A"
#: register-A element type -> K of the instruction (PTX 9.7.15.5.1.1 register lists)
A_K = MappingProxyType({"float16": 16, "bfloat16": 16, "tfloat32": 8, "int8": 32, "uint8": 32, "e4m3": 32,
                        "e5m2": 32})


@register(
    A_NAME,
    summary="wgmma m64nNkK register-sourced A fragment: (64, K) -> wid_in_wg, laneid, m "
    "(K = 16 for 16-bit, 8 for tf32, 32 for 8-bit types)",
    source="PTX ISA 9.7.15.5.1.1 (register lists; Figure 148 is image-only); closed forms "
    "from CuTe SM90::GMMA::ALayout_64x8 / 64x16 / 64x32 "
    "(include/cute/atom/mma_traits_sm90_gmma.hpp)",
    params=[Param("dtype", "choice", "float16", tuple(A_K),
                  doc="element type of A: float16/bfloat16 (K=16), tfloat32 (K=8), "
                  "int8/uint8/e4m3/e5m2 (K=32)")],
)
def register_a(dtype: str = "float16") -> PresetLayout:
    """``wgmma.mma_async`` m64nNkK with A in registers: the A fragment over a warpgroup.

    Hardware object: the A operand registers a_i of the 128 threads of a warpgroup
    (.f16/.bf16: a0..a7 in 4 x .f16x2; .tf32: a0..a3 in 4 x .b32; .s8/.u8/.e4m3/.e5m2:
    a0..a15 in 4 x .b32). Logical shape (64, K) = (M, K), row-major, K from the dtype.
    ``wid_in_wg`` = warp w of the warpgroup, ``laneid`` = lane, ``m`` = element index i
    (elements low to high inside each 32-bit register).

    Formulas (g = lane >> 2, q = lane & 3), docs/hardware-facts.md#wgmma:
      k16 (16-bit): row = 16 w + g + 8 ((i >> 1) & 1), col = 2 q + (i & 1) + 8 (i >> 2)
      k8  (tf32):   row = 16 w + g + 8 (i & 1),        col = q + 4 (i >> 1)
      k32 (8-bit):  row = 16 w + g + 8 ((i >> 2) & 1), col = 4 q + (i & 3) + 16 (i >> 3)
    i.e. the mma.m16n8kK A pattern per warp, warps stacked along M.

    Source: PTX ISA 9.7.15.5.1.1 lists the registers; the mapping is only a figure
    (Figure 148). Closed forms from CuTe ALayout_64x8 ((4,8,4),(2,2)):((64,1,16),(8,256)),
    ALayout_64x16 ((4,8,4),(2,2,2)):((128,1,16),(64,8,512)) and ALayout_64x32
    ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024)), index = m + 64 k (tests evaluate both).
    """
    k = A_K[dtype]
    warps: list = [(4, 1, "wid_in_wg")]
    if k == 16:
        rows, cols = [(2, 2, "m"), (8, 4, "laneid")], [(2, 4, "m"), (4, 1, "laneid"), (2, 1, "m")]
    elif k == 8:
        rows, cols = [(2, 1, "m"), (8, 4, "laneid")], [(2, 2, "m"), (4, 1, "laneid")]
    else:
        rows, cols = [(2, 4, "m"), (8, 4, "laneid")], [(2, 8, "m"), (4, 1, "laneid"), (4, 1, "m")]
    return PresetLayout(digits_layout(warps + rows, cols), (64, k), dtype=dtype)
