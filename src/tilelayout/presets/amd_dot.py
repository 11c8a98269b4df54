"""AMD matrix-core operands as Triton lowers them: ``DotOperandLayout`` of an MFMA (CDNA) or
WMMA (RDNA) parent.

Axes as for the other Triton presets (``m`` = register, ``laneid``, ``warpid``). Built with
Triton's linear-layout arithmetic (:mod:`.linear`) following mfmaDotToLinearLayout and
wmmaDotOperandToLinearLayout (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp,
triton-lang/triton); checked against Triton's lowering (tests/presets/test_amd.py).

>>> from tilelayout import presets
>>> str(presets.get("amd.mfma_dot_operand", operand_index=0, k_width=4, instr_shape=(32, 32, 8),
...                 warps_per_cta=(1, 1), shape=(32, 8)).layout)
'S[(32,2,4):(1@laneid,32@laneid,1)]'
"""

from __future__ import annotations

from collections.abc import Sequence

from .amd import WAVE, WMMA_INSTR_K, WMMA_VERSION, _pair, _scaled
from .linear import Linear, combine_cta_cga, from_standard, identity_nd
from .registry import Param, PresetLayout, fail, register
from .triton import OPERAND_INDEX, SOURCE, _built, _check_rank, rep_order

#: an AMD dot operand's consecutive K elements per lane (MFMA and WMMA parents alike)
K_WIDTH = Param("k_width", "int", 8, doc="consecutive K elements per lane (kWidth)")

MFMA_DOT = "amd.mfma_dot_operand"


def _k_regs(k_width: int, tile: int, k_size: int) -> list[int]:
    """K offsets of the register bits: k_width consecutive, then repeats of the K tile."""
    out = [1 << b for b in range(k_width.bit_length() - 1)]
    step = tile
    while step < k_size:
        out.append(step)
        step *= 2
    return out


def _operand_dims(rank: int, operand_index: int) -> tuple[int, int]:
    """(K dimension, the other one) of operand A (0) or B (1); a batch dimension comes first."""
    return (rank - 1, rank - 2) if operand_index == 0 else (rank - 2, rank - 1)


def _tile(rank: int, operand_index: int, regs: Sequence[tuple[int, int]],
          lanes: Sequence[tuple[int, int]]) -> Linear:
    """One instruction's operand tile from (K, non-K) vectors, output dims in repetition
    order (K, the other, batch)."""
    k_dim, other = _operand_dims(rank, operand_index)

    def vec(kv: tuple[int, int]) -> tuple[int, ...]:
        out = [0] * rank
        out[k_dim], out[other] = kv
        return tuple(out)

    return from_standard({"register": [vec(v) for v in regs], "lane": [vec(v) for v in lanes]},
                         rep_order(rank, k_dim, other))  # repetitions: K, the other, batch


@register(
    MFMA_DOT,
    summary="Triton/Gluon DotOperandLayout of an AMDMFMALayout: operand A (0) or B (1) of a "
    "32x32 or 16x16 MFMA, k_width consecutive K elements per lane",
    source=SOURCE + " (mfmaDotToLinearLayout)",
    params=[
        OPERAND_INDEX,
        K_WIDTH,
        Param("instr_shape", "shape", (32, 32, 8), doc="the MFMA parent's (M, N, K): 32x32 or 16x16"),
        Param("warps_per_cta", "shape", (2, 2), doc="the MFMA parent's wavefronts"),
        Param("tiles_per_warp", "shape", None, doc="the MFMA parent's tiles per wavefront "
              "(default all 1)"),
        Param("shape", "shape", (64, 32), doc="the operand's (tile) shape"),
    ],
)
def mfma_dot_operand(operand_index=0, k_width=8, instr_shape=(32, 32, 8), warps_per_cta=(2, 2),
                     tiles_per_warp=None, shape=(64, 32)) -> PresetLayout:
    """Triton's ``#ttg.dot_op<{parent = #ttg.amd_mfma}>`` / Gluon's ``DotOperandLayout`` of an
    ``AMDMFMALayout`` over a rank-2 (or batched rank-3) tile.

    Each lane holds ``k_width`` consecutive K elements; lanes run along M (A) or N (B), 32
    of them for a 32x32 MFMA (the other 32 lanes take the next ``k_width`` of K), 16 for
    16x16 (the other three groups of 16 take the next K chunks); further K in registers,
    then the parent's extra tiles along M (A) or N (B).
    Wavefronts tile the operand as the parent's do (those along the other operand's
    dimension hold copies once K is covered); registers repeat to the shape.

    Source: DotOperandEncodingAttr and mfmaDotToLinearLayout (LinearLayoutConversions.cpp);
    Gluon ``DotOperandLayout``. Checked against Triton.
    """
    rank = len(shape)
    m_dim = instr_shape[0] if len(instr_shape) == 3 else 0
    if operand_index not in (0, 1) or rank not in (2, 3) or m_dim not in (16, 32) or (
            instr_shape[1] != m_dim):
        raise fail(MFMA_DOT, f"operand_index 0/1, rank 2 or 3, instr_shape 32x32xK or 16x16xK; got "
                   f"{operand_index}, shape {tuple(shape)}, {tuple(instr_shape)}")
    tiles_per_warp = tuple(tiles_per_warp or (1,) * rank)
    _check_rank(MFMA_DOT, shape, warps_per_cta=warps_per_cta, tiles_per_warp=tiles_per_warp)
    if k_width < 1 or k_width & (k_width - 1):
        raise fail(MFMA_DOT, f"k_width={k_width}: expected a power of two")
    k_dim = _operand_dims(rank, operand_index)[0]
    k_groups = WAVE // m_dim
    lanes = [(0, 1 << b) for b in range(m_dim.bit_length() - 1)]
    lanes += [(k_width << b, 0) for b in range(k_groups.bit_length() - 1)]
    regs = [(k, 0) for k in _k_regs(k_width, k_width * k_groups, shape[k_dim])]
    tiles = tiles_per_warp[rank - 2 if operand_index == 0 else rank - 1]
    regs += [(0, m_dim << b) for b in range(tiles.bit_length() - 1)]
    tile = _tile(rank, operand_index, regs, lanes)
    warps = identity_nd("warp", warps_per_cta, tuple(reversed(range(rank))))
    cta = tile * warps.transpose_outs([o for o, _ in tile.outs])
    linear = combine_cta_cga(cta, Linear((), ()), shape, broadcast_registers=True)
    return _built(linear, shape)


WMMA_DOT = "amd.wmma_dot_operand"


@register(
    WMMA_DOT,
    summary="Triton/Gluon DotOperandLayout of an AMDWMMALayout: operand A (0) or B (1) of a "
    "16x16 WMMA, k_width consecutive K elements per lane, the parent's tiles along M (A) / N (B)",
    source=SOURCE + " (wmmaDotOperandToLinearLayout)",
    params=[
        OPERAND_INDEX,
        K_WIDTH,
        WMMA_VERSION,
        Param("warp_bases", "spec", (("0", "1"), ("1", "0")), doc="the WMMA parent's warp bases, "
              "16 x 16 tiles as (i,j) (rank 3: b,i,j)"),
        Param("reg_bases", "spec", None, doc="the WMMA parent's register bases, tiles as (i,j)"),
        WMMA_INSTR_K,
        Param("shape", "shape", (32, 32), doc="the operand's (tile) shape"),
    ],
)
def wmma_dot_operand(operand_index=0, k_width=8, version=2, warp_bases=(("0", "1"), ("1", "0")),
                     reg_bases=None, k=None, shape=(32, 32)) -> PresetLayout:
    """Triton's ``#ttg.dot_op<{parent = #ttg.amd_wmma}>`` / Gluon's ``DotOperandLayout`` of an
    ``AMDWMMALayout``.

    Each lane holds ``k_width`` consecutive K elements; lanes 0..15 run along M (A) or N
    (B); lanes 16..31 hold a copy (version 1) or the next ``k_width`` of K (versions 2, 3,
    whose registers then hold the rest of the instruction's K).
    The parent's register and warp bases keep their M (A) / N (B) part: registers along
    the other dimension disappear, warps along it hold copies. Registers repeat to the
    shape, K first.

    Source: DotOperandEncodingAttr and wmmaDotOperandToLinearLayout
    (LinearLayoutConversions.cpp); Gluon ``DotOperandLayout``. Checked against Triton.
    """
    rank = len(shape)
    if operand_index not in (0, 1) or rank not in (2, 3) or version not in (1, 2, 3):
        raise fail(WMMA_DOT, f"operand_index 0/1, version 1..3, rank 2 or 3; got {operand_index}, "
                   f"{version}, shape {tuple(shape)}")
    _check_rank(WMMA_DOT, shape)
    if k_width < 1 or k_width & (k_width - 1):
        raise fail(WMMA_DOT, f"k_width={k_width}: expected a power of two")
    k_dim, other = _operand_dims(rank, operand_index)

    def keep(vectors: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        return [tuple(0 if d == k_dim else x for d, x in enumerate(v)) for v in vectors]

    def vec(k: int, n: int) -> tuple[int, ...]:
        out = [0] * rank
        out[k_dim], out[other] = k, n
        return tuple(out)

    k = k if k is not None else 32 if version == 3 else 16
    tile_k = k_width if version == 1 else k  # version 1: lanes 16..31 add no K
    regs = [vec(x, 0) for x in _k_regs(k_width, k_width * (1 if version == 1 else 2), tile_k)]
    regs += [v for v in keep(_scaled([_pair(b) for b in reg_bases or ()], "register", rank)) if any(v)]
    lanes = [vec(0, 1 << b) for b in range(4)] + [vec(0 if version == 1 else k_width, 0)]
    warps = keep(_scaled([_pair(b) for b in warp_bases], "warp", rank))
    cta = from_standard({"register": regs, "lane": lanes, "warp": warps},
                        rep_order(rank, k_dim, other))
    linear = combine_cta_cga(cta, Linear((), ()), shape, broadcast_registers=True)
    return _built(linear, shape)


__all__ = ["mfma_dot_operand", "wmma_dot_operand"]
