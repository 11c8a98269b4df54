"""AMD matrix-core layouts as Triton lowers them: the MFMA accumulator (CDNA) and WMMA (RDNA).

A wavefront here has 64 lanes (MFMA) or 32 (WMMA); axes as for Triton's layouts: ``m`` =
register, ``laneid``, ``warpid`` (wavefront of the workgroup). PresetLayout with Triton's
linear-layout arithmetic (:mod:`.linear`) following AMDMfmaEncodingAttr::toLinearLayout
and AMDWmmaEncodingAttr::toLinearLayout (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
triton-lang/triton); the per-lane placement of one instruction is the one ROCm's
amd_matrix_instruction_calculator prints. Checked against Triton's lowering
(tests/presets/test_amd.py).

>>> from tilelayout import presets
>>> str(presets.get("amd.mfma", instr_shape=(16, 16, 16), warps_per_cta=(1, 1),
...                 shape=(16, 16)).layout)
'S[(4,4,16):(16@laneid,1,1@laneid)]'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.wmma_shapes import WMMA_K
from .linear import Linear, combine_cta_cga, from_standard, identity, product
from .registry import Param, PresetLayout, fail, register
from .triton import CGA_PARAMS, SOURCE, _built, _cga, _check_rank, rep_order

MFMA = "amd.mfma"
#: lanes of a CDNA wavefront
WAVE = 64


def _identity(size: int, in_dim: str, out: int) -> Linear:
    """identity1D, where a size below 1 (a shape smaller than the tile) adds nothing."""
    return identity(max(1, size), in_dim, out)


@register(
    MFMA,
    summary="Triton/Gluon AMDMFMALayout: the MFMA accumulator (32x32 or 16x16, transposed or "
    "not) tiled over wavefronts and repeated to the tile shape",
    source=SOURCE + " (AMDMfmaEncodingAttr::toLinearLayout); ROCm amd_matrix_instruction_calculator",
    params=[
        Param("version", "choice", 3, (1, 2, 3, 4), doc="1 gfx908, 2 gfx90a, 3 gfx942, 4 gfx950"),
        Param("instr_shape", "shape", (32, 32, 8), doc="(M, N, K) of the MFMA: M x N = 32x32 or "
              "16x16"),
        Param("transposed", "bool", False, doc="each lane holds consecutive elements of a row "
              "(isTransposed)"),
        Param("warps_per_cta", "shape", (2, 2), doc="wavefronts per dim (warpsPerCTA)"),
        Param("element_bitwidth", "choice", 32, (32, 64), doc="accumulator element bits"),
        Param("tiles_per_warp", "shape", (1, 1), doc="MFMA tiles per wavefront per dim"),
        Param("shape", "shape", (64, 64), doc="the tensor (tile) shape"),
        *CGA_PARAMS,
    ],
)
def mfma(version=3, instr_shape=(32, 32, 8), transposed=False, warps_per_cta=(2, 2),
         element_bitwidth=32, tiles_per_warp=(1, 1), shape=(64, 64), ctas_per_cga=(1, 1),
         cta_split_num=(1, 1), cta_order=(1, 0)) -> PresetLayout:
    """Triton's ``#ttg.amd_mfma`` / Gluon's ``AMDMFMALayout`` over a rank-2 (or batched
    rank-3) tile.

    One MFMA's M x N result over a 64-lane wavefront: each lane holds 4 consecutive rows
    (1 for 64-bit results) of one column; lanes run along N first, then M; the 4-row
    groups repeat along M in registers (32x32: 4 times, rows 8 apart). ``transposed`` swaps
    the roles of M and N (each lane holds consecutive elements of a row). Then tiles per
    wavefront and wavefronts along N, the rest of N in registers, tiles and wavefronts
    along M (rank 3: then wavefronts along the batch dimension, which comes first); a
    larger shape repeats in registers, a smaller one broadcasts.

    Source: AMDMfmaEncodingAttr (TritonGPUAttrDefs.td) and its toLinearLayout
    (LinearLayoutConversions.cpp); Gluon ``AMDMFMALayout``. Checked against Triton.
    """
    m_dim, n_dim = (instr_shape[0], instr_shape[1]) if len(instr_shape) == 3 else (0, 0)
    if (m_dim, n_dim) not in ((32, 32), (16, 16)):
        raise fail(MFMA, f"instr_shape (M, N, K) with M x N = 32x32 or 16x16; got {tuple(instr_shape)}")
    _check_rank(MFMA, shape, warps_per_cta=warps_per_cta, tiles_per_warp=tiles_per_warp)
    rank = len(shape)
    if rank not in (2, 3) or (rank == 3 and tiles_per_warp[0] != 1):
        raise fail(MFMA, f"shape {tuple(shape)}: the MFMA layouts are rank 2, or rank 3 with a "
                   f"batch dimension first (one tile per wavefront along it)")
    dim_m, dim_n = rank - 2, rank - 1
    height = 1 if element_bitwidth == 64 else 4
    tiles = m_dim * n_dim // (WAVE * height)
    if not transposed:
        tile = product(identity(height, "register", dim_m), identity(n_dim, "lane", dim_n),
                       identity(WAVE // n_dim, "lane", dim_m), _identity(tiles, "register", dim_m))
    else:
        tile = product(identity(height, "register", dim_n), identity(m_dim, "lane", dim_m),
                       identity(WAVE // m_dim, "lane", dim_n), _identity(tiles, "register", dim_n))
    tile = tile.transpose_outs((dim_n, dim_m))
    rest_n = shape[dim_n] // (n_dim * warps_per_cta[dim_n] * tiles_per_warp[dim_n])
    cta = product(tile, identity(tiles_per_warp[dim_n], "register", dim_n),
                  identity(warps_per_cta[dim_n], "warp", dim_n),
                  _identity(rest_n, "register", dim_n),
                  identity(tiles_per_warp[dim_m], "register", dim_m),
                  identity(warps_per_cta[dim_m], "warp", dim_m),
                  *(identity(warps_per_cta[0], "warp", 0) for _ in range(rank - 2)))
    cga = _cga(MFMA, rank, ctas_per_cga, cta_split_num, cta_order)
    linear = combine_cta_cga(cta, cga, shape, broadcast_registers=True)
    return _built(linear, shape)


WMMA = "amd.wmma"
# the WMMA parameters its dot operand (presets/amd_dot.py) takes as well
WMMA_VERSION = Param("version", "choice", 2, (1, 2, 3), doc="1 RDNA3, 2 RDNA4, 3 gfx1250")
WMMA_INSTR_K = Param("k", "int", None, doc="K of the instruction (instr_shape (16, 16, K)); "
                     "default 16 (v1, v2) or 32 (v3)")


def _pair(entry: object) -> tuple[int, ...]:
    """A basis written 'i,j' (or as a pair): the explorer's and the CLI's spelling."""
    parts = entry if isinstance(entry, tuple | list) else str(entry).split(",")
    try:
        return tuple(int(v) for v in parts)
    except ValueError:
        raise fail(WMMA, f"basis {entry!r}: expected 'i,j' with integers") from None


def _scaled(bases: Sequence[Sequence[int]], what: str, rank: int) -> list[tuple[int, ...]]:
    """Tile bases (one nonzero power-of-two entry, batch first when rank 3) in elements:
    M and N entries count 16 x 16 tiles, a batch entry counts batch indices."""
    out = []
    for b in bases:
        if len(b) != rank or any(v < 0 or v & (v - 1) for v in b) or sum(1 for v in b if v) > 1:
            raise fail(WMMA, f"{what} basis {list(b)}: expected {rank} entries, one a power of two "
                       f"and the rest 0 (M, N in 16 x 16 tiles{', batch first' if rank > 2 else ''})")
        out.append(tuple(v * (16 if d >= rank - 2 else 1) for d, v in enumerate(b)))
    return out


@register(
    WMMA,
    summary="Triton/Gluon AMDWMMALayout: the 16x16 WMMA accumulator over a 32-lane wavefront, "
    "tiles placed by explicit register and warp bases",
    source=SOURCE + " (AMDWmmaEncodingAttr::toLinearLayout)",
    params=[
        WMMA_VERSION,
        Param("transposed", "bool", False, doc="the result is transposed"),
        Param("warp_bases", "spec", (("0", "1"), ("1", "0")), doc="per warp bit, the 16x16 "
              "tile it moves to, as (i,j) (warp_bases)"),
        Param("reg_bases", "spec", None, doc="extra register bits, tiles as (i,j) (reg_bases)"),
        WMMA_INSTR_K,
        Param("shape", "shape", (32, 32), doc="the tensor (tile) shape"),
        *CGA_PARAMS,
    ],
)
def wmma(version=2, transposed=False, warp_bases=(("0", "1"), ("1", "0")), reg_bases=None,
         k=None, shape=(32, 32), ctas_per_cga=(1, 1), cta_split_num=(1, 1),
         cta_order=(1, 0)) -> PresetLayout:
    """Triton's ``#ttg.amd_wmma`` / Gluon's ``AMDWMMALayout`` over a rank-2 (or batched
    rank-3) tile.

    One 16 x 16 result over 32 lanes. Version 1 (RDNA3): lanes 0..15 take the 16 columns,
    lane bit 4 the odd rows, 8 registers the even rows. Versions 2 and 3: lanes 0..15 take
    the columns, 8 registers rows 0..7, lanes 16..31 rows 8..15. ``transposed`` swaps rows
    and columns. ``reg_bases`` and ``warp_bases`` then place further 16 x 16 tiles (rank 3:
    written (b, i, j), a batch entry in batch indices); a larger shape repeats in
    registers (N, M, then batch), a smaller one broadcasts.

    Source: AMDWmmaEncodingAttr (TritonGPUAttrDefs.td) and its toLinearLayout
    (LinearLayoutConversions.cpp); Gluon ``AMDWMMALayout``. Checked against Triton.
    """
    rank = len(shape)
    if rank not in (2, 3):
        raise fail(WMMA, f"shape {tuple(shape)}: the WMMA layouts are rank 2, or rank 3 with a "
                   f"batch dimension first")
    k = k if k is not None else WMMA_K[version][0] if version < 3 else 32
    reg_bases = reg_bases or ()
    if k not in WMMA_K[version]:
        raise fail(WMMA, f"WMMA v{version} takes K in {WMMA_K[version]} (Triton's verifier; "
                   f"docs/hardware.md), got {k}")
    _check_rank(WMMA, shape)
    warps = _scaled([_pair(b) for b in warp_bases], "warp", rank)
    regs_extra = _scaled([_pair(b) for b in reg_bases], "register", rank)
    if version == 1:
        regs = [(2, 0), (4, 0), (8, 0)]
        lanes = [(0, 1), (0, 2), (0, 4), (0, 8), (1, 0)]
    else:
        regs = [(1, 0), (2, 0), (4, 0)]
        lanes = [(0, 1), (0, 2), (0, 4), (0, 8), (8, 0)]
    batch = (0,) * (rank - 2)
    flip = (lambda v: (*batch, v[1], v[0])) if transposed else (lambda v: (*batch, *v))
    regs, lanes = [flip(v) for v in regs], [flip(v) for v in lanes]
    bases = {"register": regs + regs_extra, "lane": lanes, "warp": warps}
    cta = from_standard(bases, rep_order(rank, rank - 1, rank - 2))  # N, M, then batch (repOrder)
    cga = _cga(WMMA, rank, ctas_per_cga, cta_split_num, cta_order)
    linear = combine_cta_cga(cta, cga, shape, broadcast_registers=True)
    return _built(linear, shape)
