"""Blackwell tensor memory (sm_100a): MMA accumulators and block-scale factors.

Tensor memory is 128 lanes x 512 columns of 32-bit cells per CTA (PTX 9.7.16.1).
Physical axes: ``TLane`` and ``TCol``; ``TCol`` counts elements of the stored type
(one f32 accumulator per cell, four 8-bit scale factors per cell).

>>> from tilelayout import presets
>>> str(presets.get("tmem.accumulator", datapath="F", n=64, align=16).layout)
'S[(4,16,64):(32@TLane,1@TLane,1@TCol)] + 16@TLane'

For cta_group::2 the accumulator rows are split over the two CTAs of a pair (``cbx``):

>>> str(presets.get("tmem.accumulator", datapath="B", n=64).layout)
'S[(2,64,2,32):(1@cbx,1@TLane,64@TLane,1@TCol)]'
"""

from __future__ import annotations

import math
from types import MappingProxyType

from .digits import Digit, digits_layout
from .registry import Param, PresetLayout, fail, register

ACC = "tmem.accumulator"
SF = "tmem.scale_factors"

#: logical rows M of the accumulator, by data-path layout (PTX 9.7.16.10.5 table)
_M = MappingProxyType({"A": 256, "B": 128, "C": 128, "D": 128, "E": 64, "F": 64, "G": 32})

#: what each layout is, as the PTX table names it
_WHAT = MappingProxyType({
    "A": "M=256, cta_group::2",
    "B": "M=128, cta_group::2, dense A",
    "C": "M=128, cta_group::2, sparse A",
    "D": "M=128, cta_group::1",
    "E": "M=64, .ws",
    "F": "M=64, non-.ws",
    "G": "M=32, .ws",
})

#: valid N by layout without .ws (PTX ISA 9.7.16.2.1, Table 39): cta_group::1 (D, F):
#: 8..256 step 8; cta_group::2 (A, B, C): 16..256 step 16
_N_ANY = tuple(range(8, 257, 8))
_N_PAIR = tuple(range(16, 257, 16))
_N = MappingProxyType({"A": _N_PAIR, "B": _N_PAIR, "C": _N_PAIR, "D": _N_ANY, "F": _N_ANY})
#: kind::i8 (Table 39): cta_group::1 8, 16, 24, 32 then step 16; cta_group::2 step 32
_N_I8 = MappingProxyType({"A": tuple(range(32, 257, 32)), "B": tuple(range(32, 257, 32)),
                          "C": tuple(range(32, 257, 32)), "D": (8, 16, 24) + tuple(range(32, 257, 16)),
                          "F": (8, 16, 24) + tuple(range(32, 257, 16))})
#: valid N with .ws (E and G always, D with ws=True), whatever the kind; sparse: 64, 128
_N_WS = (64, 128, 256)
_N_WS_SPARSE = (64, 128)
#: tcgen05.mma kinds; the block-scaled (mx) kinds take M = 128 only with cta_group::1
KINDS = (None, "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4")
_MX = ("mxf8f6f4", "mxf4", "mxf4nvf4")
TABLE_39 = "PTX ISA 9.7.16.2.1, Table 39"

#: layouts an MMA issued with .ws writes (cta_group::1, M = 128, 64, 32); E and G are
#: written only by .ws MMAs, D by both
_WS = ("D", "E", "G")
_ALWAYS_WS = ("E", "G")

#: layouts that use half the lanes and accept lane alignment 16 (PTX table: F and C)
_HALF = ("C", "F")


@register(
    ACC,
    summary="tcgen05.mma accumulator D in tensor memory: (M, n) -> TLane, TCol "
    "(+ cbx, the CTA of the pair, for cta_group::2)",
    source="PTX ISA 9.7.16.10.5 (#tcgen05-data-path-layout-organization: table, figures); "
    "closed forms from CuTe UMMA::tmem_frg / tmem_frg_2sm / tmem_frg_ws "
    "(include/cute/atom/mma_traits_sm100_frag.hpp) and the 2SM CLayout "
    "(include/cute/atom/mma_traits_sm100.hpp)",
    params=[
        Param("datapath", "choice", "D", tuple(_M),
              doc="data-path layout: A = M256 cta_group::2, B = M128 cta_group::2 dense, "
              "C = M128 cta_group::2 sparse, D = M128, E = M64 .ws, F = M64, G = M32 .ws"),
        Param("n", "choice", 128, _N_ANY,
              doc="N of the MMA (columns); A/B/C: multiple of 16; G: 64, 128 or 256"),
        Param("align", "choice", 0, (0, 16),
              doc="lane alignment of the half-datapath layouts C and F "
              "(16 = the second M=64 sub-slab)"),
        Param("kind", "choice", None, KINDS,
              doc="optional tcgen05.mma kind for its N rules (kind::i8: N 8,16,24,32 then "
              "step 16, step 32 with cta_group::2; mx kinds: M = 128 with cta_group::1)"),
        Param("ws", "bool", False, (False, True),
              doc="the MMA is issued with .ws (weight-stationary): D then takes N = 64, 128 "
              "or 256 only; E and G are .ws layouts already"),
        Param("sparse", "bool", False, (False, True),
              doc="the MMA is .sp (sparse A): with .ws, N = 64 or 128 only; C is the sparse "
              "cta_group::2 M=128 layout already, B the dense one"),
    ],
)
def accumulator(datapath: str = "D", n: int = 128, align: int = 0,
                kind: str | None = None, ws: bool = False, sparse: bool = False) -> PresetLayout:
    """``tcgen05.mma`` accumulator D in tensor memory, for data-path layouts A to G.

    Hardware object: where the f32 (or unpacked 16-bit) accumulator of one
    tcgen05.mma lives in tensor memory, relative to the allocation's base column.
    Logical shape (M, n), row-major; M = 256 (A), 128 (B, C, D), 64 (E, F), 32 (G).

    Formulas (m = row, c = column of D). For cta_group::2 (A, B, C) the M rows are
    split between the two CTAs of the pair, m = 0..M/2-1 in the CTA with
    ``cbx`` = 0 and M/2..M-1 in ``cbx`` = 1, and each CTA stores its M/2 rows in its own
    tensor memory; r = m % (M/2) is the row within that CTA:
      A (M=256, cta_group::2, 4x1):  cbx = m // 128, TLane = r, TCol = c
      B (M=128, cta_group::2, dense, 2x2):
                                     cbx = m // 64, TLane = r + 64 (c // (n/2)),
                                     TCol = c % (n/2)
      C (M=128, cta_group::2, sparse, 4x1 half datapath):
                                     cbx = m // 64,
                                     TLane = align + (r % 16) + 32 (r // 16), TCol = c
      D (M=128, cta_group::1, 4x1):  TLane = m, TCol = c
      E (M=64, .ws):                 TLane = m + 64 (c // (n/2)), TCol = c % (n/2)
      F (M=64, 4x1 half datapath):   TLane = align + (m % 16) + 32 (m // 16), TCol = c
      G (M=32, .ws, 1x4):            TLane = m + 32 (c // (n/4)), TCol = c % (n/4)
    align is 0 or 16 for C and F only (two half-datapath tiles interleave). Valid n
    (PTX ISA 9.7.16.2.1, Table 39): a multiple of 8 in 8..256 for D and F; a multiple of
    16 in 16..256 for A, B, C (cta_group::2); 64, 128 or 256 for E and G (.ws; D issued
    with .ws, ``ws=True``, takes only these too; a sparse .ws MMA, ``sparse=True``, only
    64 or 128). With ``kind="i8"``: 8, 16, 24, 32 then step 16 for D
    and F, step 32 from 32 for A, B, C; the block-scaled kinds (mxf8f6f4, mxf4,
    mxf4nvf4) need M = 128 with cta_group::1 (D), so E, F and G refuse them.

    Confidence: A, B, D, F high; E and G medium-high; **C's per-element map is
    inferred** (medium-low): PTX gives C only its organization (4x1, half the data path)
    and lane alignment, the same as F's, so C is F's atom in each CTA of the pair.

    ``cbx`` is the CTA's rank within its pair. CUTLASS computes it as the CTA's rank
    in the cluster modulo 2 (``cta_coord_v``; the peer is ``rank ^ 1``), which equals
    ``%cluster_ctaid.x`` mod 2 for the clusters its 2SM kernels use (x extent a
    multiple of 2). The preset describes one pair; pair p of a wider cluster adds
    ``2p@cbx``. The CTA is a thread-kind axis because a CTA's tensor memory is private
    to it: the axis says whose tensor memory holds the row.

    Source: PTX ISA 9.7.16.10.5 (#tcgen05-data-path-layout-organization): the table
    (M, cta_group, A-sparsity, .ws) -> layout, "datapath organization" (A 4x1, B 2x2,
    C 4x1 with 1/2 datapath utilized, G 1x4) and lane alignment (0, or 0/16 for C
    and F); the per-element pictures (figures 205-218) are images. Closed forms from
    CuTe (include/cute/atom/mma_traits_sm100_frag.hpp, virtual address dp + 128 col):
    tmem_frg_2sm with M/2 rows per CTA, "4x1" atom (128,N):(1,128) (A) and "2x2" atom
    (64,(N/2,2)):(1,(128,64)) (B); tmem_frg_ws "1x4" atom (32,(N/4,4)):(1,(128,32))
    (G); tmem_frg M=64 atom ((16,4),N):((1,32),128) (F, and C per CTA); D and E as
    before. The row split between the CTAs is the 2SM CLayout
    (2,(M/2,N)):(M/2,(1,M)) with ThrID = the CTA of the pair
    (include/cute/atom/mma_traits_sm100.hpp, e.g. SM100_MMA_F16BF16_2x1SM_SS).
    C: PTX gives it the same organization and alignment as F; CuTe has no atom for it
    (CUTLASS's sparse 2SM traits reuse tmem_frg_2sm, whose M=64-per-CTA atom is B's
    2x2 and so disagrees with the PTX table), so C is F's atom in each CTA, following
    the PTX table.
    """
    if kind in _MX and datapath in ("E", "F", "G"):
        raise fail(ACC, f"kind::{kind} needs M = 128 with cta_group::1 ({TABLE_39}); "
                   f"datapath {datapath} is {_WHAT[datapath]}")
    if ws and datapath not in _WS:
        raise fail(ACC, f"ws=True: .ws is cta_group::1 with M = 32, 64 or 128 (layouts G, E, D; "
                   f"{TABLE_39}); datapath {datapath} is {_WHAT[datapath]}")
    if sparse and datapath == "B":
        raise fail(ACC, "sparse=True: datapath B is M=128 cta_group::2 with dense A; the "
                   "sparse one is C (PTX ISA 9.7.16.10.5)")
    ws = ws or datapath in _ALWAYS_WS
    sparse = sparse or datapath == "C"
    n_ok = ((_N_WS_SPARSE if sparse else _N_WS) if ws
            else _N_I8[datapath] if kind == "i8" else _N[datapath])
    if n not in n_ok:
        shown = _ranges(n_ok)
        what = (f"{_WHAT[datapath]}" + (", .ws" if ws and datapath == "D" else "")
                + (", sparse" if sparse and datapath != "C" else "")
                + (", kind::i8" if kind == "i8" else ""))
        raise fail(ACC, f"n={n} is not a valid N for datapath {datapath} ({what}): "
                   f"N must be {shown} ({TABLE_39})")
    if align and datapath not in _HALF:
        raise fail(ACC, f"align={align} applies only to datapaths C and F (the half-datapath "
                   f"layouts; PTX ISA 9.7.16.10.5); datapath {datapath} takes align=0")
    row_digits, col_digits = datapath_digits(datapath, n)
    if datapath in _PAIR:  # the rows split over the CTA pair
        row_digits = [(2, 1, "cbx"), *row_digits]
    layout = digits_layout(row_digits, col_digits, offset={"TLane": align} if align else None)
    return PresetLayout(layout, (_M[datapath], n), dtype="float32")


#: the cta_group::2 layouts, whose M rows split over the two CTAs of a pair
_PAIR = ("A", "B", "C")


def datapath_digits(datapath: str, n: int) -> tuple[list[Digit], list[Digit]]:
    """One CTA's part of datapath ``datapath``'s accumulator, ``n`` columns: the row digits
    and the column digits (outermost first; PTX ISA 9.7.16.10.5, see :func:`accumulator`).

    >>> datapath_digits("B", 16)
    ([(64, 1, 'TLane')], [(2, 64, 'TLane'), (8, 1, 'TCol')])
    """
    quarters: list[Digit] = [(4, 32, "TLane"), (16, 1, "TLane")]  # C, F: 16 lanes per quarter
    rows: dict[str, list[Digit]] = {"A": [(128, 1, "TLane")], "B": [(64, 1, "TLane")],
                                    "C": quarters, "D": [(128, 1, "TLane")],
                                    "E": [(64, 1, "TLane")], "F": quarters,
                                    "G": [(32, 1, "TLane")]}
    halves: list[Digit] = [(2, 64, "TLane"), (n // 2, 1, "TCol")]  # B, E: column halves
    cols = (halves if datapath in "BE" else [(4, 32, "TLane"), (n // 4, 1, "TCol")]
            if datapath == "G" else [(n, 1, "TCol")])
    return rows[datapath], cols


def _ranges(values: tuple[int, ...]) -> str:
    """``8, 16, 24, 32, 48..256 step 16``: a readable list of valid N."""
    if len(values) <= 4:
        return ", ".join(map(str, values))
    step = values[-1] - values[-2]
    start = len(values) - 1
    while start > 0 and values[start] - values[start - 1] == step:
        start -= 1
    head = ", ".join(map(str, values[:start]))
    run = f"{values[start]}..{values[-1]} step {step}"
    return f"{head}, {run}" if head else run


#: 32-bit columns of tensor memory per CTA (PTX 9.7.16.1)
TMEM_COLUMNS = 512

#: scale factors per 32-bit TMEM cell, by scale-factor type
SF_PER_CELL = MappingProxyType({"e8m0": 4, "e4m3": 4})


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
                  reuse: int = 1, pipe_depth: int = 1) -> PresetLayout:
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
    tilelayout's choice (the atom fixes only one group of four). All stages together
    must fit tensor memory's 512 32-bit columns: pipe_depth * rows/32 * ceil(sf_per_row/4)
    <= 512 (PTX 9.7.16.1), else the preset refuses.

    Source: PTX ISA 9.7.16.10.7 (#tcgen05-block-scaling), 9.7.16.9.2 (tcgen05.cp
    .32x128b.warpx4 multicasts into all 4 warps); CuTe tmem_sf_frg
    (include/cute/atom/mma_traits_sm100.hpp) as recorded in docs/hardware-facts.md#tensor-memory.
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
    cells = pipe_depth * groups * math.ceil(sf_per_row / epc)  # 32-bit columns used
    if cells > TMEM_COLUMNS:
        raise fail(SF, f"{pipe_depth} stage(s) x {groups} row group(s) x "
                   f"{math.ceil(sf_per_row / epc)} cell(s) of {epc} factors need {cells} "
                   f"32-bit columns, but tensor memory has {TMEM_COLUMNS}; use fewer rows, "
                   f"factors per row or pipeline stages")
    row_digits: list[Digit] = [(groups, epc, "TCol"), (32, 1, "TLane")]
    if sf_per_row > epc:
        sf_digits: list[Digit] = [(sf_per_row // epc, epc * groups, "TCol"), (epc, 1, "TCol")]
    else:
        sf_digits = [(sf_per_row, 1, "TCol")]
    stage_cols = epc * groups * math.ceil(sf_per_row / epc)
    outer: list[Digit] = [(pipe_depth, stage_cols, "TCol"), (reuse, 0, "TCol")]
    layout = digits_layout(outer, row_digits, sf_digits, replica=[(4, 32, "TLane")])
    shape = tuple(d for d in (pipe_depth, reuse) if d != 1) + (rows, sf_per_row)
    return PresetLayout(layout, shape, dtype=sf_dtype)
