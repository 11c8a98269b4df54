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
from .registry import Built, Param, register

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
    def build(trans: bool = False) -> Built:
        if trans:  # row = 2(l%4) + h, col = l//4
            layout = digits_layout([(k, 2, "m")], [(4, 1, "laneid"), (2, 1, "m")],
                                   [(8, 4, "laneid")])
        else:  # row = l//4, col = 2(l%4) + h
            layout = digits_layout([(k, 2, "m")], [(8, 4, "laneid")],
                                   [(4, 1, "laneid"), (2, 1, "m")])
        return Built(layout, (k, 8, 8), dtype="float16")

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
