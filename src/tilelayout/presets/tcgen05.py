"""``tcgen05.ld`` / ``tcgen05.st`` shapes (sm_100a): which lane and register hold which cell.

Logical shape ``(lanes, columns)``: the tensor-memory region one warp accesses, in
TMEM lanes (relative to the warp's 32-lane quarter) and 32-bit columns (relative to
the column in ``taddr``), row-major. Physical: ``laneid`` and ``m`` (the 32-bit
destination register index r).

>>> from tilelayout import presets
>>> str(presets.get("tcgen05.ld.16x64b", num=2).layout)
'S[(2,8,2,2):(1@laneid,4@laneid,1,2@laneid)]'
"""

from __future__ import annotations

from types import MappingProxyType

from .digits import Digit, digits_layout
from .registry import Param, PresetLayout, fail, register

NUM_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128)
#: largest .num per shape (PTX ISA 9.7.16.2.3, Table 49): each cap is 128 32-bit
#: registers per thread; a larger num would also run past tensor memory's 512 columns
NUM_CAP = MappingProxyType({"32x32b": 128, "16x64b": 128, "16x128b": 64, "16x256b": 32, "16x32bx2": 128})
TMEM_COLUMNS = 512
TABLE_49 = "PTX ISA 9.7.16.2.3, Table 49"


def _num_param(shape: str) -> Param:
    cap = NUM_CAP[shape]
    return Param(
        "num", "choice", 1, tuple(n for n in NUM_CHOICES if n <= cap),
        doc=f".num repetitions (x1..x{cap}, {TABLE_49})",
        refused={n: f".{shape} takes .num up to x{cap} ({TABLE_49}: at most 128 32-bit "
                    f"registers per thread)" for n in NUM_CHOICES if n > cap},
    )

_SOURCE = ("PTX ISA 9.7.16.2.3 (#tcgen05-memory-layout, figures only); closed forms from "
           "CuTe Copy_Traits<SM100_TMEM_LOAD_*> (include/cute/atom/copy_traits_sm100.hpp)")


def fragment_digits(shape: str, num: int) -> tuple[list[Digit], list[Digit], tuple[int, int]]:
    """One warp's ``tcgen05.ld .{shape}.x{num}`` fragment: the row (lane offset dp) digits,
    the 32-bit column digits (outermost first, on ``laneid`` and register ``m``) and the
    logical (rows, columns).

    >>> fragment_digits("16x64b", 2)
    ([(2, 1, 'laneid'), (8, 4, 'laneid')], [(2, 1, 'm'), (2, 2, 'laneid')], (16, 4))
    """
    if shape == "32x32b":  # dp = t, col = r
        return [(32, 1, "laneid")], [(num, 1, "m")], (32, num)
    if shape == "16x64b":  # dp = t/4 + 8(t%2), col = 2r + (t/2)%2
        return ([(2, 1, "laneid"), (8, 4, "laneid")],
                [(num, 1, "m"), (2, 2, "laneid")], (16, 2 * num))
    if shape == "16x128b":  # dp = t/4 + 8(r%2), col = t%4 + 4(r/2)
        return ([(2, 1, "m"), (8, 4, "laneid")],
                [(num, 2, "m"), (4, 1, "laneid")], (16, 4 * num))
    # 16x256b: dp = t/4 + 8((r/2)%2), col = 2(t%4) + r%2 + 8(r/4)
    return ([(2, 2, "m"), (8, 4, "laneid")],
            [(num, 4, "m"), (4, 1, "laneid"), (2, 1, "m")], (16, 8 * num))


_FORMULA = MappingProxyType({
    "32x32b": ("dp = t, col = r", 1, "32dp32b"),
    "16x64b": ("dp = t/4 + 8 (t%2), col = 2r + (t/2)%2", 1, "16dp64b"),
    "16x128b": ("dp = t/4 + 8 (r%2), col = t%4 + 4 (r/2)", 2, "16dp128b"),
    "16x256b": ("dp = t/4 + 8 ((r/2)%2), col = 2 (t%4) + r%2 + 8 (r/4)", 4, "16dp256b"),
})

_DOC = """\
``tcgen05.ld.sync.aligned.{shape}.x{{num}}.b32`` (and ``tcgen05.st``): the per-thread fragment.

Hardware object: one warp's registers after loading a {lanes}-lane x (32-bit) column
region of Blackwell tensor memory. Logical shape ({lanes}, {cols} * num) = (lane offset
dp from the warp's lane quarter, 32-bit column offset from taddr), row-major. ``laneid``
is the thread, ``m`` the 32-bit destination register r ({regs} per repetition, num
repetitions along the columns). A warp w of a warpgroup may only access lanes
32 (w % 4) .. 32 (w % 4) + 31 (PTX 9.7.16.8.1).

Formula (t = laneid, r = register): {formula}

Source: PTX ISA 9.7.16.2.3 (#tcgen05-memory-layout) shows this only as figures
(183-187); the closed form is CuTe's Copy_Traits<SM100_TMEM_LOAD_{cute}1x> DstLayout
(include/cute/atom/copy_traits_sm100.hpp), as recorded in docs/hardware-facts.md#tensor-memory."""


def _make(shape: str) -> None:
    formula, regs, cute = _FORMULA[shape]
    _, _, (lanes, cols) = fragment_digits(shape, 1)

    def build(num: int = 1) -> PresetLayout:
        rows, columns, logical = fragment_digits(shape, num)
        return PresetLayout(digits_layout(rows, columns), logical, dtype="float32")

    register(
        f"tcgen05.ld.{shape}",
        summary=f"tcgen05.ld .{shape}: ({lanes}, {cols}*num) TMEM lanes x 32-bit columns "
        "-> laneid, m",
        source=_SOURCE,
        params=[_num_param(shape)],
        doc=_DOC.format(shape=shape, lanes=lanes, cols=cols, regs=regs, formula=formula,
                        cute=cute),
    )(build)


for _shape in _FORMULA:
    _make(_shape)


X2 = "tcgen05.ld.16x32bx2"


@register(
    X2,
    summary="tcgen05.ld .16x32bx2: (16, 2*num) TMEM lanes x 32-bit columns (two half-split "
    "accesses) -> laneid, m",
    source=_SOURCE,
    params=[_num_param("16x32bx2"),
            Param("imm", "int", None,
                  doc="immHalfSplitoff: TMEM column of the second access relative to taddr "
                  "(default num, CuTe's choice; 2*num with .pack::16b)")],
)
def x2(num: int = 1, imm: int | None = None) -> PresetLayout:
    """``tcgen05.ld.sync.aligned.16x32bx2.x{num}.b32 r, [taddr], immHalfSplitoff``.

    Hardware object: one warp's registers after two accesses of shape .16x32b: lanes
    0-15 read TMEM columns taddr .. taddr+num-1 of lanes dp = 0..15 (relative to the
    warp's lane quarter), lanes 16-31 read the same TMEM lanes at columns
    taddr+imm .. taddr+imm+num-1. Logical shape (16, 2 num) = (lane offset dp, column
    slot c): c < num is the first access (TMEM column c), c >= num the second (TMEM
    column imm + c - num). ``laneid`` = thread t, ``m`` = 32-bit register r (num per
    thread). ``imm`` does not change which register holds which slot; it says where
    the second half lives.

    Formula (t = laneid, r = register): dp = t % 16, c = r + num (t // 16),
    TMEM column = r + imm (t // 16).

    Source: PTX ISA 9.7.16.2.3 ("two accesses into Tensor Memory of the shape .16x32b",
    the second at taddr + immHalfSplitoff; .num up to x128 by Table 49; per-lane figure
    only); CuTe SM100_TMEM_LOAD_16dp32b{N}x DstLayout ((16,2),32N):((64N,32N),1), which
    passes imm = num (include/cute/atom/copy_traits_sm100.hpp). Confidence: medium-high.
    """
    split = num if imm is None else imm
    if split < 0 or split + num > TMEM_COLUMNS:
        raise fail(X2, f"imm={split}: the second access covers TMEM columns {split}.."
                   f"{split + num - 1}, outside tensor memory's {TMEM_COLUMNS} columns "
                   f"(PTX ISA 9.7.16.1); use 0 <= imm <= {TMEM_COLUMNS - num}")
    layout = digits_layout([(16, 1, "laneid")], [(2, 16, "laneid"), (num, 1, "m")])
    return PresetLayout(layout, (16, 2 * num), dtype="float32")
