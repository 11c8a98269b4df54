"""Block-scale factors of scaled MMAs as Triton lays them out: sm_100's shared-memory chunk
that ``tcgen05.cp`` reads, sm_120's ``mma.sync ... block_scale`` registers, and the
registers of AMD's scaled MFMA (CDNA4) and scaled WMMA (gfx1250).

A scale tensor has shape ``(rows, groups)``: ``rows`` = M for A's scales, N for B's;
``groups`` = K / the scale-vector size (32 elements share one scale). Axes as for Triton's
layouts (``m`` = register or, in shared memory, element offset; ``laneid``, ``warpid``).

Sources (triton-lang/triton): getSM120DotScaledScaleLayout, chooseScaledMfmaScaleLayout
and chooseScaledWmmaScaleLayout in lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp;
the shared-memory chunk of python/tutorials/10-block-scaled-matmul.py (``UseShmemForScales``
in OptimizeDotOperands.cpp), which is CUTLASS's ``Sm1xxBlockScaledConfig`` scale-factor
atom (include/cutlass/detail/sm100_blockscaled_layout.hpp). Every preset is checked
against Triton's own lowering (tests/presets/test_triton_scales.py); the facts are in
docs/interop/triton.md ("Scale factors").

>>> from tilelayout import presets
>>> str(presets.get("triton.tcgen05_scales_shared", shape=(128, 4)).layout)
'S[(4,32,4):(4,16,1)]'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.iter import Iter
from ..core.tile import TileLayout
from .amd import WAVE, _pair
from .linear import Linear, combine_cta_cga, identity, product, zeros_along
from .registry import Param, PresetLayout, fail, register
from .triton import SOURCE, _built, _check_rank

#: whose scales a layout holds
SCALES_OF = Param("operand_index", "choice", 0, (0, 1),
                  doc="0 = A's scales (M rows), 1 = B's (N rows)")

#: rows of one scale-factor chunk: the 128 TMEM lanes an MMA's M spans
CHUNK_ROWS = 128
#: scale factors per row in one chunk (one 32-bit TMEM column holds four 8-bit ones)
CHUNK_GROUPS = 4
#: bytes of one chunk row (4 groups of 32 rows x 4 scale factors: 16 bytes)
CHUNK_ROW_BYTES = 16


def _scale_shape(name: str, shape: Sequence[int]) -> None:
    if len(shape) != 2:
        raise fail(name, f"shape {tuple(shape)}: a scale tensor is (rows, K groups)")
    _check_rank(name, shape)


SMEM = "triton.tcgen05_scales_shared"


@register(
    SMEM,
    summary="sm_100 block-scale factors in shared memory as tcgen05.cp .32x128b.warpx4 reads "
    "them: 128 x 4 chunks of 512 bytes (32 rows x 16 bytes), K chunks inner",
    source="Triton python/tutorials/10-block-scaled-matmul.py (5-D scales (M/128, K/4, 32, 4, "
    "4)) and UseShmemForScales (lib/Dialect/TritonGPU/Transforms/OptimizeDotOperands.cpp); "
    "CUTLASS include/cutlass/detail/sm100_blockscaled_layout.hpp (SfAtom); PTX ISA "
    "9.7.16.10.7 (scale factor layouts)",
    params=[Param("shape", "shape", (128, 4), doc="(rows, K groups): rows a multiple of 128, "
                  "groups of 4")],
)
def tcgen05_scales_shared(shape=(128, 4)) -> PresetLayout:
    """Block-scale factors in shared memory, the chunked layout ``tcgen05.cp`` copies to
    tensor memory (``TensorMemoryScalesLayout``).

    Row ``r`` = 128 a + 32 b + c and group ``g`` = 4 d + e are stored at byte
    ``512 (a * groups/4 + d) + 16 c + 4 b + e``: each 512-byte chunk holds 128 rows x 4
    groups as 32 lines of 16 bytes (line ``c`` holds rows c, c+32, c+64, c+96), chunks
    along K first, then along M. It is the 5-D tensor (M/128, K/4, 32, 4, 4) of Triton's
    block-scaled tutorial permuted (0, 3, 2, 1, 4) to (rows, groups); Gluon lowers that
    permute + reshape to these offsets (checked in the tests), and it is CUTLASS's sm100
    scale-factor atom ``((32,4),(SFVec,4)):((16,4),(0,1))`` tiled K first.

    Source: Triton tutorial 10-block-scaled-matmul.py and UseShmemForScales; CUTLASS
    sm100_blockscaled_layout.hpp; PTX ISA 9.7.16.10.7.
    """
    _scale_shape(SMEM, shape)
    rows, groups = shape
    if rows % CHUNK_ROWS or groups % CHUNK_GROUPS:
        raise fail(SMEM, f"shape {tuple(shape)}: rows a multiple of {CHUNK_ROWS} and groups a "
                   f"multiple of {CHUNK_GROUPS} (one chunk is 128 x 4)")
    chunk = CHUNK_ROWS * CHUNK_GROUPS
    k_chunks = groups // CHUNK_GROUPS
    shard = [Iter(rows // CHUNK_ROWS, k_chunks * chunk), Iter(4, CHUNK_GROUPS),
             Iter(32, CHUNK_ROW_BYTES), Iter(k_chunks, chunk), Iter(CHUNK_GROUPS, 1)]
    layout = TileLayout([it for it in shard if it.extent > 1] or [Iter(1, 1)])
    return PresetLayout(layout, tuple(shape), dtype="uint8")


SM120 = "triton.sm120_scale"


@register(
    SM120,
    summary="sm_120 mma.sync block_scale scale registers (Triton's dot_scaled on sm_120): "
    "one scale per row per K group, held by lane 0 of each quad",
    source=SOURCE + " (getSM120DotScaledScaleLayout); PTX ISA 9.7.14.5.x warp-level MMA block "
    "scaling (#warp-level-block-scaling)",
    params=[
        SCALES_OF,
        Param("warps_per_cta", "shape", (2, 2), doc="the MMA parent's warps (M, N)"),
        Param("shape", "shape", (128, 2), doc="(rows, K / 32)"),
    ],
)
def sm120_scale(operand_index=0, warps_per_cta=(2, 2), shape=(128, 2)) -> PresetLayout:
    """The scale operand of ``tt.dot_scaled`` on sm_120 (``mma.sync.aligned.m16n8k32 ...
    block_scale.scale_vec::1X``), as Triton's accelerate-matmul pass converts it.

    Each thread holds all of its row's K groups in registers. A's scales: lane bits 2..4
    pick rows 1, 2, 4, lane bit 0 row 8 and lane bit 1 is a copy (each lane of a quad
    holds the same scale; PTX reads thread-id 0's); B's scales: lane bits 2..4 pick rows
    1, 2, 4, lane bits 0 and 1 copies. Warps tile the rows as the MMA's warps do along M
    (A) or N (B) and hold copies along the other; registers repeat to the shape.

    Source: getSM120DotScaledScaleLayout (LinearLayoutConversions.cpp), used by
    AccelerateMatmul.cpp for sm_120; PTX ISA warp-level MMA block scaling. Checked against
    Triton's accelerate-matmul pass for sm_120.
    """
    if operand_index not in (0, 1):
        raise fail(SM120, f"operand_index 0 (A) or 1 (B); got {operand_index}")
    _scale_shape(SM120, shape)
    _check_rank(SM120, shape, warps_per_cta=warps_per_cta)
    rows_lane = ((8, 0), (0, 0), (1, 0), (2, 0), (4, 0)) if operand_index == 0 else (
        (0, 0), (0, 0), (1, 0), (2, 0), (4, 0))
    lanes = Linear((("lane", tuple((k, r) for r, k in rows_lane)),),
                   ((1, 1), (0, 16 if operand_index == 0 else 8)))
    if operand_index == 0:
        warps = zeros_along("warp", (warps_per_cta[0], warps_per_cta[1]), (1, 0), 1)
    else:
        warps = zeros_along("warp", (warps_per_cta[1], warps_per_cta[0]), (0, 1), 1)
    cta = product(identity(shape[1], "register", 1), lanes, warps.transpose_outs((1, 0)))
    return _built(combine_cta_cga(cta, Linear((), ()), shape), shape)


MFMA_SCALE = "amd.mfma_scale"


@register(
    MFMA_SCALE,
    summary="AMD CDNA4 scaled MFMA (mfma_scale_f32_32x32x64 / 16x16x128_f8f6f4) scale "
    "registers: each lane's 32 K elements share one scale",
    source=SOURCE + " (chooseScaledMfmaScaleLayout); Gluon amd.cdna4.get_mfma_scale_layout",
    params=[
        SCALES_OF,
        Param("instr_m", "choice", 32, (32, 16), doc="the MFMA's M = N (32 or 16)"),
        Param("tiles_per_warp", "shape", (1, 1), doc="the MFMA parent's tiles per wavefront"),
        Param("warps_per_cta", "shape", (2, 2), doc="the MFMA parent's wavefronts (M, N)"),
        Param("shape", "shape", (64, 4), doc="(rows, K / 32)"),
    ],
)
def mfma_scale(operand_index=0, instr_m=32, tiles_per_warp=(1, 1), warps_per_cta=(2, 2),
               shape=(64, 4)) -> PresetLayout:
    """The scale operand of AMD's scaled MFMA (``get_mfma_scale_layout`` in Gluon).

    Lanes run along the rows (32 for a 32x32 MFMA, 16 for 16x16); the remaining lane bits
    step the K group (the lane's 32 K elements share one scale); further K groups in
    registers, then the parent's extra tiles along M (A) or N (B). Wavefronts: A's along M
    then K, B's along N then K (wavefronts along K hold copies when K is covered);
    registers repeat to the shape.

    Source: chooseScaledMfmaScaleLayout (LinearLayoutConversions.cpp); Gluon
    ``amd.cdna4.get_mfma_scale_layout``. Checked against Triton.
    """
    if operand_index not in (0, 1) or instr_m not in (16, 32):
        raise fail(MFMA_SCALE, f"operand_index 0/1 and instr_m 16/32; got {operand_index}, {instr_m}")
    _scale_shape(MFMA_SCALE, shape)
    _check_rank(MFMA_SCALE, shape, warps_per_cta=warps_per_cta, tiles_per_warp=tiles_per_warp)
    k_lanes = WAVE // instr_m
    tiles = tiles_per_warp[0 if operand_index == 0 else 1]
    regs = [(0, 1 << b) for b in range(k_lanes.bit_length() - 1, max(1, shape[1]).bit_length() - 1)]
    regs += [(instr_m << b, 0) for b in range(tiles.bit_length() - 1)]
    lanes = [(1 << b, 0) for b in range(instr_m.bit_length() - 1)]
    lanes += [(0, 1 << b) for b in range(k_lanes.bit_length() - 1)]
    size = (instr_m * tiles, max(k_lanes, shape[1]))
    tile = Linear((("register", tuple(regs)), ("lane", tuple(lanes))), ((0, size[0]), (1, size[1])))
    wm, wn = warps_per_cta
    warps = (identity(wn, "warp", 1) * identity(wm, "warp", 0) if operand_index == 0
             else identity(wn, "warp", 0) * identity(wm, "warp", 1)).transpose_outs((0, 1))
    linear = combine_cta_cga(tile * warps, Linear((), ()), shape, broadcast_registers=True)
    return _built(linear, shape)


WMMA_SCALE = "amd.wmma_scale"
#: WMMA tile rows (M = N = 16 on gfx1250) and the lanes that span them
WMMA_ROWS = 16
#: K elements whose scales one lane holds in one WMMA tile: the K of gfx1250's scaled WMMA
#: (a version-3 K of the WMMA shape table, docs/hardware.md "AMD WMMA shapes")
WMMA_K_ELEMENTS = 128


@register(
    WMMA_SCALE,
    summary="AMD gfx1250 scaled WMMA scale registers: 16 lanes along the rows, the scales of 128 "
    "K elements per lane, the parent's tiles and warps along M (A) or N (B)",
    source=SOURCE + " (chooseScaledWmmaScaleLayout); Gluon amd.gfx1250 get_wmma_scale_layout",
    params=[
        SCALES_OF,
        Param("warp_bases", "spec", (("0", "1"), ("1", "0")), doc="the WMMA parent's warp bases, "
              "16 x 16 tiles as (i,j)"),
        Param("reg_bases", "spec", None, doc="the WMMA parent's register bases, tiles as (i,j)"),
        Param("scale_factor", "choice", 32, (32, 16), doc="K elements per scale (scale vector)"),
        Param("shape", "shape", (32, 4), doc="(rows, K / scale_factor)"),
    ],
)
def wmma_scale(operand_index=0, warp_bases=(("0", "1"), ("1", "0")), reg_bases=None,
               scale_factor=32, shape=(32, 4)) -> PresetLayout:
    """The scale operand of AMD's scaled WMMA (``get_wmma_scale_layout`` in Gluon, gfx1250).

    Lanes 0..15 take the 16 rows of a tile; each lane holds the scales of 128 K elements
    in registers (4 with 32 elements per scale, 8 with 16; the rest of K in further
    registers). The parent's register and warp bases that move along
    M (A's scales) or N (B's) move the rows by 16; the ones along the other dimension
    are dropped (registers) or copies (warps). Registers repeat to the shape, rows after
    K; then the first register bit along the rows is handed to lane bit 4 (lanes 16..31
    take the next rows; with no such bit they hold copies).

    Source: chooseScaledWmmaScaleLayout (LinearLayoutConversions.cpp); Gluon
    ``get_wmma_scale_layout``. Read from Triton's lowering and checked against it over a
    grid of parents and shapes (tests/presets/test_triton_scales.py).
    """
    if operand_index not in (0, 1) or scale_factor not in (16, 32):
        raise fail(WMMA_SCALE, f"operand_index 0 (A) or 1 (B) and scale_factor 16 or 32; got "
                   f"{operand_index}, {scale_factor}")
    _scale_shape(WMMA_SCALE, shape)
    along = 0 if operand_index == 0 else 1

    def rows_of(entries, what):
        out = []
        for e in entries or ():
            v = _pair(e)
            if len(v) != 2 or any(x < 0 or x & (x - 1) for x in v) or (v[0] and v[1]):
                raise fail(WMMA_SCALE, f"{what} basis {list(v)}: expected (i,0) or (0,j), powers of two")
            out.append(v[along] * WMMA_ROWS)
        return out

    regs = [r for r in rows_of(reg_bases, "register") if r]
    warps = rows_of(warp_bases, "warp")
    k = max(WMMA_K_ELEMENTS // scale_factor, shape[1])
    top = max([WMMA_ROWS, *(2 * r for r in regs + warps)])
    bases = {"register": [(0, 1 << b) for b in range(k.bit_length() - 1)] + [(r, 0) for r in regs],
             "lane": [(1 << b, 0) for b in range(WMMA_ROWS.bit_length() - 1)],
             "warp": [(r, 0) for r in warps]}
    cta = Linear(tuple((n, tuple(bs)) for n, bs in bases.items()), ((0, top), (1, k)))
    grown = cta.grow(shape)
    out = grown.standard(2)
    moved = next((i for i, v in enumerate(out["register"]) if v[0]), None)
    out["lane"].append(out["register"].pop(moved) if moved is not None else [0, 0])
    lin = Linear(tuple((n, tuple(tuple(v) for v in vs)) for n, vs in out.items()),
                 ((0, grown.size(0)), (1, grown.size(1))))
    return _built(lin.shrink(shape, broadcast_registers=True), shape)


__all__ = ["mfma_scale", "sm120_scale", "tcgen05_scales_shared", "wmma_scale"]
