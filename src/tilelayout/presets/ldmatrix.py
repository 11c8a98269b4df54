"""``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16``: who receives which element.

Logical shape ``(matrices, 8, 8)``: element ``(j, row, col)`` is 16-bit element
``col`` of the memory row whose address lane ``8j + row`` supplied. Physical:
``laneid`` = receiving lane, ``m`` = element index in its destination registers
(``2 * register + half``, low half first); matrix j lands in register j.

>>> from tilelayout import presets
>>> str(presets.get("ldmatrix.x4", trans=True).layout)
'S[(4,4,2,8):(2,1@laneid,1,4@laneid)]'
"""

from __future__ import annotations

from .digits import digits_layout
from .registry import Param, PresetLayout, register

_SOURCE = "PTX ISA 9.7.14.5.15 (#warp-level-matrix-instructions-ldmatrix)"

_DOC = """\
``ldmatrix.sync.aligned.m8n8.{x}[.trans].shared.b16``: the destination fragment.

Hardware object: the registers of the 32 lanes of a warp after ldmatrix loads {k}
8x8 matrices of 16-bit elements from shared memory. Logical shape ({k}, 8, 8) =
(matrix j, row, col), where row r of matrix j is the row whose address lane 8j + r
supplied and col is the 16-bit element within that row. ``laneid`` is the receiving
lane, ``m`` = 2 * (destination register j) + (16-bit half h, low = 0).

Formula (lane l, register j, half h), PTX text "each thread receives fragments of a
row ... a group of four threads loads an entire row":
  trans=False: element (j, row = l // 4, col = 2 (l % 4) + h)
  trans=True:  element (j, row = 2 (l % 4) + h, col = l // 4)   (column-major load)
Only threads 0..{last} supply addresses for .{x}; every lane receives data.

Source: {src}. Cross-check: CuTe Copy_Traits<SM75_U32x{n32}_LDSM_N> /
<SM75_U16x{n16}_LDSM_T> DstLayouts (include/cute/atom/copy_traits_sm75.hpp), in a bit
space bit = 1024 j + 128 row + 16 col + b (tests evaluate both)."""


def _make(x: str, k: int) -> None:
    def build(trans: bool = False) -> PresetLayout:
        if trans:  # row = 2(l%4) + h, col = l//4
            layout = digits_layout([(k, 2, "m")], [(4, 1, "laneid"), (2, 1, "m")],
                                   [(8, 4, "laneid")])
        else:  # row = l//4, col = 2(l%4) + h
            layout = digits_layout([(k, 2, "m")], [(8, 4, "laneid")],
                                   [(4, 1, "laneid"), (2, 1, "m")])
        return PresetLayout(layout, (k, 8, 8), dtype="float16")

    register(
        f"ldmatrix.{x}",
        summary=f"ldmatrix .m8n8.{x}.b16 destination fragment: ({k}, 8, 8) -> laneid, m",
        source=_SOURCE,
        params=[Param("trans", "bool", False, (False, True),
                      doc="the .trans qualifier (matrix loaded column-major)")],
        doc=_DOC.format(x=x, k=k, last=8 * k - 1, src=_SOURCE, n32=k, n16=2 * k),
    )(build)


for _x, _k in (("x1", 1), ("x2", 2), ("x4", 4)):
    _make(_x, _k)


# -- sm_100a families: .m16n16 (.trans, 8-bit) and .m8n16 (6-/4-bit unpacked to 8-bit) -----
M16N16_DTYPES = ("b8", "b6x16_p32", "b4x16_p64")
M8N16_DTYPES = ("b6x16_p32", "b4x16_p64")

_SOURCE_SM100 = (
    "PTX ISA 9.7.14.5.15 (#warp-level-matrix-instructions-ldmatrix: .m16n16 / .m8n16 text; "
    "per-lane pictures are figures only); closed forms decoded from CuTe "
    "Copy_Traits<SM100_U8x8_LDSM_T>, <SM100_U8x16_LDSM_T>, <SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N> "
    "(include/cute/atom/copy_traits_sm100.hpp)"
)


@register(
    "ldmatrix.m16n16",
    summary="ldmatrix .m16n16.x{1,2}.trans.b8 destination fragment: (num, 16, 16) bytes "
    "-> laneid, m (sm_100a)",
    source=_SOURCE_SM100,
    params=[Param("num", "choice", 1, (1, 2), doc=".num: x1 or x2 16x16 matrices",
                  refused={4: ".m16n16 takes .num x1 or x2 only (PTX ISA 9.7.14.5.15)"}),
            Param("dtype", "choice", "b8", M16N16_DTYPES,
                  doc="b8, or 6-/4-bit data in 8-bit containers (b6x16_p32, b4x16_p64)")],
)
def m16n16(num: int = 1, dtype: str = "b8") -> PresetLayout:
    """``ldmatrix.sync.aligned.m16n16.x{num}.trans.shared.{dtype}`` (sm_100a/110a/120a).

    Hardware object: the registers of a warp after loading ``num`` 16x16 matrices of
    8-bit elements (b8, or 6-/4-bit values in 8-bit containers) from shared memory;
    ``.trans`` is mandatory, ``.num`` is x1 or x2, two 32-bit registers per matrix.
    Logical shape (num, 16, 16) = (matrix j, memory row i, byte in that row), where
    memory row i of matrix j is the row whose address lane 16 j + i supplied.
    ``laneid`` is the receiving lane t; ``m`` = 4 R + B (register R, byte B, low first).

    Formula (docs/hardware-facts.md#ldmatrix): byte B of register R of lane t holds
      matrix j = R // 2,  memory row 4 (t % 4) + B,  byte t // 4 + 8 (R % 2)
    i.e. in the transposed (logical) view row t // 4 + 8 (R % 2), column 4 (t % 4) + B:
    the mma.m16n8k32 A-fragment pattern. Confidence: medium-high (decoded from CuTe).

    Source: PTX ISA 9.7.14.5.15 states the shape, .num and the mandatory .trans ("each
    thread ... loads 4 consecutive columns across 2 rows"); the per-lane figure is an
    image. CuTe's SM100_U8x8_LDSM_T / SM100_U8x16_LDSM_T DstLayouts describe the
    registers after CuTe reorders bytes (dst0 = {tmp0.x, tmp0.y, tmp1.x, tmp1.y}, dst1 =
    {tmp0.z, tmp0.w, tmp1.z, tmp1.w}, include/cute/arch/copy_sm100.hpp); the tests undo
    that shuffle and compare every element with pycute.
    """
    layout = digits_layout([(num, 8, "m")], [(4, 1, "laneid"), (4, 1, "m")],
                           [(2, 4, "m"), (8, 4, "laneid")])
    return PresetLayout(layout, (num, 16, 16), dtype="int8")


@register(
    "ldmatrix.m8n16",
    summary="ldmatrix .m8n16.x{1,2,4}.b8x16.{b6x16_p32,b4x16_p64} destination fragment: "
    "(num, 8, 16) bytes -> laneid, m (sm_100a)",
    source=_SOURCE_SM100,
    params=[Param("num", "choice", 1, (1, 2, 4), doc=".num: x1, x2 or x4 8x16 matrices"),
            Param("dtype", "choice", "b6x16_p32", M8N16_DTYPES,
                  doc="source packing: 16 six-bit (+32 pad) or four-bit (+64 pad) values per row",
                  refused={"b8": ".m8n16 loads only .b6x16_p32 / .b4x16_p64 sources "
                                 "(PTX ISA 9.7.14.5.15; b8 is .m16n16 or .m8n8)"})],
)
def m8n16(num: int = 1, dtype: str = "b6x16_p32") -> PresetLayout:
    """``ldmatrix.sync.aligned.m8n16.x{num}.shared.b8x16.{dtype}`` (sm_100a/110a/120a).

    Hardware object: the registers of a warp after loading ``num`` 8x16 matrices whose
    rows hold 16 six- or four-bit values (plus 32 / 64 padding bits: one 128-bit row),
    each value unpacked into an 8-bit container; no ``.trans``; one 32-bit register per
    matrix. Logical shape (num, 8, 16) = (matrix j, memory row i, element in the row),
    memory row i of matrix j being the row whose address lane 8 j + i supplied.
    ``laneid`` is the receiving lane t; ``m`` = 4 R + B (register R, byte B, low first).

    Formula (docs/hardware-facts.md#ldmatrix): byte B of register R of lane t holds
      matrix j = R,  memory row t // 4,  element 4 (t % 4) + B
    Confidence: medium-high (decoded from CuTe).

    Source: PTX ISA 9.7.14.5.15 (.m8n16 with .b8x16.b6x16_p32 / .b8x16.b4x16_p64 only,
    x1/x2/x4, no .trans); CuTe SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N DstLayouts (tests
    compare every element with pycute).
    """
    layout = digits_layout([(num, 4, "m")], [(8, 4, "laneid")],
                           [(4, 1, "laneid"), (4, 1, "m")])
    return PresetLayout(layout, (num, 8, 16), dtype="int8")
