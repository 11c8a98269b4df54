"""The reference document's worked examples (``reference/layout.rst``), as presets.

These are the layouts the reference document teaches with, written in its exact
text form, so the explorer and the CLI can show them and the tests can reproduce
its tables.

>>> from tilelayout import presets
>>> presets.get("case.tensor_core_tile").layout.apply((7, 15), shape=(8, 16))
({laneid: 31, warpid: 6, m: 1}, {laneid: 31, warpid: 10, m: 1})
"""

from __future__ import annotations

from ..syntax.parser import parse
from .registry import Param, PresetLayout, fail, register

_REF = "reference/layout.rst"


@register(
    "case.tensor_core_tile",
    summary="reference case study: (8, 16) tile on 2 warps, replicated to 2 more warps",
    source=f"{_REF}, 'Case study: NVIDIA tensor-core tile'",
)
def tensor_core_tile() -> PresetLayout:
    """The reference document's tensor-core tile: an (8, 16) register tile on two warps.

    Hardware object: a teaching example, not one instruction's fragment: 64 lanes of
    warps 5 and 6 hold an (8, 16) tile two elements per lane (``m`` = register slot),
    and the replica copies it to warps 9 and 10.

    Formula: laneid = 4 i + (j // 2) % 4, warpid = j // 8 + 5 + 4 r (r in {0, 1}),
    m = j % 2.

    Source: reference/layout.rst, "Case study: NVIDIA tensor-core tile".
    """
    layout = parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    return PresetLayout(layout, (8, 16), dtype="float16")


@register(
    "case.tmem_2x128x112",
    summary="reference case study: (2, 128, 112) tile in tensor memory, 224 columns",
    source=f"{_REF}, 'Case study: Blackwell tensor memory'",
)
def tmem_tile() -> PresetLayout:
    """The reference document's Blackwell tensor-memory tile: (2, 128, 112) over 224 columns.

    Hardware object: two 128 x 112 accumulator tiles side by side in tensor memory
    (a block-scaled FP8 GEMM's 224-column budget): a pure placement on TLane x TCol.

    Formula: element (a, l, c) -> TLane = l, TCol = 112 a + c.

    Source: reference/layout.rst, "Case study: Blackwell tensor memory".
    """
    return PresetLayout(parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"), (2, 128, 112),
                 dtype="float32")


@register(
    "case.scale_factor_atom",
    summary="reference case study: scale-factor atom (32, sf_per_mma) with R[4:32@TLane]",
    source=f"{_REF}, 'Scale factors (SFA / SFB)'",
    params=[Param("sf_per_mma", "int", 4, doc="scale factors per row per MMA (TCol extent)")],
)
def scale_factor_atom(sf_per_mma: int = 4) -> PresetLayout:
    """The reference document's scale-factor atom, replicated over the 4 lane quarters.

    Hardware object: one 32-row group of block-scale factors in tensor memory, routed
    to all four warps of a warpgroup by the replica R[4:32@TLane] (tcgen05.cp
    .32x128b.warpx4). ``tmem.scale_factors`` is the full preset (rows, packing,
    reuse, pipelining); with rows=32 it equals this atom.

    Formula: element (l, s) -> TLane = l + 32 r (r = 0..3), TCol = s.

    Source: reference/layout.rst, "Scale factors (SFA / SFB)".
    """
    if sf_per_mma < 1:
        raise fail("case.scale_factor_atom", f"sf_per_mma must be >= 1, got {sf_per_mma}")
    layout = parse(f"S[(32,{sf_per_mma}):(1@TLane,1@TCol)] + R[4:32@TLane]")
    return PresetLayout(layout, (32, sf_per_mma), dtype="e8m0")


@register(
    "case.swizzle_8x64_float16",
    summary="reference worked example: (8, 64) float16 tile with the 128B swizzle",
    source=f"{_REF}, 'Worked example: 128B swizzle, float16, (8, 64) tile'",
    example_at=(7, 0),
)
def swizzle_example() -> PresetLayout:
    """The reference document's swizzle example: an (8, 64) float16 tile, 128B swizzle.

    Hardware object: one 1024-byte 128B-swizzle atom of float16 in shared memory;
    reading column 0 down the 8 rows touches banks 0, 4, .., 28 (no conflict).

    Formula: addr(i, j) = 64 i + 8 ((j // 8) XOR i) + j % 8.

    Source: reference/layout.rst, "Worked example: 128B swizzle, float16, (8, 64) tile";
    the same layout as ``smem.tile`` with its defaults.
    """
    return PresetLayout(parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"), (8, 64),
                 dtype="float16", swizzle_mode="128B")
