"""Blackwell tensor memory (sm_100a): MMA accumulators and block-scale factors.

Tensor memory is 128 lanes x 512 columns of 32-bit cells per CTA (PTX 9.7.16.1).
Physical axes: ``TLane`` and ``TCol``; ``TCol`` counts elements of the stored type
(one f32 accumulator per cell, four 8-bit scale factors per cell).

>>> from tilelayout import presets
>>> str(presets.get("tmem.accumulator", datapath="F", n=64, align=16).layout)
'S[(4,16,64):(32@TLane,1@TLane,1@TCol)] + 16@TLane'
"""

from __future__ import annotations

import math

from .digits import Digit, digits_layout
from .registry import Built, Param, fail, register

ACC = "tmem.accumulator"
SF = "tmem.scale_factors"

_NO_CLOSED_FORM = (
    "PTX 9.7.16.10.5 shows data-path layout {dp} ({what}) only as a figure and "
    "hardware-facts.md records no closed form for it, so tilelayout does not guess; "
    "use datapath D (M=128), E (M=64 .ws) or F (M=64)"
)
_REFUSED = {
    "A": _NO_CLOSED_FORM.format(dp="A", what="M=256, cta_group::2"),
    "B": _NO_CLOSED_FORM.format(dp="B", what="M=128, cta_group::2, dense"),
    "C": _NO_CLOSED_FORM.format(dp="C", what="M=128, cta_group::2, sparse"),
    "G": _NO_CLOSED_FORM.format(dp="G", what="M=32, .ws"),
}

_M = {"D": 128, "E": 64, "F": 64}


@register(
    ACC,
    summary="tcgen05.mma accumulator D in tensor memory: (M, n) -> TLane, TCol",
    source="PTX ISA 9.7.16.10.5 (#tcgen05-data-path-layout-organization, figures); closed "
    "forms from CuTe UMMA::tmem_frg / tmem_frg_ws (include/cute/atom/mma_traits_sm100_frag.hpp)",
    params=[
        Param("datapath", "choice", "D", ("D", "E", "F"), refused=_REFUSED,
              doc="data-path layout: D = M128 cta_group::1, E = M64 .ws, F = M64 "
              "(A, B, C, G: no sourced closed form)"),
        Param("n", "choice", 128, tuple(range(8, 257, 8)), doc="N of the MMA (columns)"),
        Param("align", "choice", 0, (0, 16),
              doc="lane alignment of layout F (16 = the second M=64 sub-slab)"),
    ],
)
def accumulator(datapath: str = "D", n: int = 128, align: int = 0) -> Built:
    """``tcgen05.mma`` accumulator D in tensor memory, for data-path layouts D, E, F.

    Hardware object: where the f32 (or unpacked 16-bit) accumulator of one
    tcgen05.mma lives in the CTA's tensor memory, relative to the allocation's base
    column. Logical shape (M, n), row-major; M = 128 (D) or 64 (E, F).

    Formulas (m = row, c = column of D):
      D (M=128, cta_group::1): TLane = m, TCol = c
      E (M=64, .ws):           TLane = m + 64 (c // (n/2)), TCol = c % (n/2)
      F (M=64, non-.ws):       TLane = align + (m % 16) + 32 (m // 16), TCol = c
                               (align 0 or 16: two M=64 tiles interleave)
    Layouts A, B, C (cta_group::2) and G (M=32 .ws) are refused: PTX shows them only
    as figures and no closed form is recorded in hardware-facts.md.

    Source: PTX ISA 9.7.16.10.5 (#tcgen05-data-path-layout-organization) names the
    layouts; the per-element closed forms are CuTe's UMMA::tmem_frg / tmem_frg_ws atoms
    (F: ((16,4),N):((1,32),128); E: (64,(N/2,2)):(1,(128,64)); virtual address
    dp + 128 col), include/cute/atom/mma_traits_sm100_frag.hpp.
    """
    if datapath != "F" and align:
        raise fail(ACC, f"align={align} applies only to datapath F (M=64); use align=0")
    m = _M[datapath]
    if datapath == "D":
        layout = digits_layout([(128, 1, "TLane")], [(n, 1, "TCol")])
    elif datapath == "E":
        layout = digits_layout([(64, 1, "TLane")], [(2, 64, "TLane"), (n // 2, 1, "TCol")])
    else:
        layout = digits_layout([(4, 32, "TLane"), (16, 1, "TLane")], [(n, 1, "TCol")],
                               offset={"TLane": align} if align else None)
    return Built(layout, (m, n), dtype="float32")


#: scale factors per 32-bit TMEM cell, by scale-factor type
SF_PER_CELL = {"e8m0": 4, "e4m3": 4}


@register(
    SF,
    summary="block-scale factors in tensor memory (tcgen05.cp .32x128b.warpx4): "
    "(rows, sfs) -> TLane, TCol, replicated over 4 lane quarters",
    source="PTX ISA 9.7.16.10.7 (#tcgen05-block-scaling) and 9.7.16.9.2 (tcgen05.cp); "
    "closed form from CuTe tmem_sf_frg (ScaleFactorDuplicated4by1)",
    params=[
        Param("rows", "int", 128, doc="rows of the scaled operand (M for SFA, N for SFB); "
              "a multiple of 32"),
        Param("sf_per_row", "int", 4, doc="scale factors per row (K / scale-vector size); "
              "1..4, or a multiple of 4"),
        Param("sf_dtype", "choice", "e8m0", ("e8m0", "e4m3"), doc="scale-factor type (8-bit)"),
        Param("reuse", "int", 1, doc="stride-0 reuse: this many MMAs read the same factors"),
        Param("pipe_depth", "int", 1, doc="pipeline stages (buffers placed side by side)"),
    ],
    example_at=(37, 2),
)
def scale_factors(rows: int = 128, sf_per_row: int = 4, sf_dtype: str = "e8m0",
                  reuse: int = 1, pipe_depth: int = 1) -> Built:
    """Block-scale factors (SFA / SFB) of a block-scaled ``tcgen05.mma`` in tensor memory.

    Hardware object: the UE8M0 / UE4M3 scale factors after
    ``tcgen05.cp.cta_group::1.32x128b.warpx4``: PTX requires them "duplicated to all 32
    lane partitions", i.e. each 32-row group is multicast into the 4 lane quarters (one
    per warp of the warpgroup): the replica R[4:32@TLane]. Four 8-bit factors share one
    32-bit cell; TCol counts factors (element units).

    Logical shape ([pipe_depth,] [reuse,] rows, sf_per_row), row-major. Formula
    (row, sf; q = replica 0..3; c = sf // 4 for sf_per_row > 4, else 0):
      TLane = row % 32 + 32 q
      TCol  = 4 (row // 32) + sf % 4 + 4 (rows // 32) c
              + stage * (columns of one stage),   the reuse index adds nothing
    i.e. 32-bit column row // 32, byte sf % 4, as CuTe's tmem_sf_frg atom
    (((32,MN/32),4),(VS,NSF)):(((1,512),32),(0,128)) (virtual address dp + 128 element
    column). Groups of four factors beyond the first (sf_per_row > 4) are placed after
    all rows/32 columns, and pipeline stages after that: this tiling order is
    tilelayout's choice (the atom fixes only one group of four).

    Source: PTX ISA 9.7.16.10.7 (#tcgen05-block-scaling), 9.7.16.9.2 (tcgen05.cp
    .32x128b.warpx4 multicasts into all 4 warps); CuTe tmem_sf_frg
    (include/cute/atom/mma_traits_sm100.hpp) as recorded in hardware-facts.md §5.
    """
    epc = SF_PER_CELL[sf_dtype]
    for name, value in (("rows", rows), ("sf_per_row", sf_per_row), ("reuse", reuse),
                        ("pipe_depth", pipe_depth)):
        if value < 1:
            raise fail(SF, f"{name} must be >= 1, got {value}")
    if rows % 32:
        raise fail(SF, f"rows must be a multiple of 32 (one lane per row of a 32-row "
                   f"group), got {rows}")
    if sf_per_row > epc and sf_per_row % epc:
        raise fail(SF, f"sf_per_row must be 1..{epc} or a multiple of {epc} ({epc} "
                   f"{sf_dtype} factors per 32-bit cell), got {sf_per_row}")
    groups = rows // 32
    row_digits: list[Digit] = [(groups, epc, "TCol"), (32, 1, "TLane")]
    if sf_per_row > epc:
        sf_digits: list[Digit] = [(sf_per_row // epc, epc * groups, "TCol"), (epc, 1, "TCol")]
    else:
        sf_digits = [(sf_per_row, 1, "TCol")]
    stage_cols = epc * groups * math.ceil(sf_per_row / epc)
    outer: list[Digit] = [(pipe_depth, stage_cols, "TCol"), (reuse, 0, "TCol")]
    layout = digits_layout(outer, row_digits, sf_digits, replica=[(4, 32, "TLane")])
    shape = tuple(d for d in (pipe_depth, reuse) if d != 1) + (rows, sf_per_row)
    return Built(layout, shape, dtype=sf_dtype)
