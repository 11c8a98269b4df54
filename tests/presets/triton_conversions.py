"""Expectations of Triton's own unit test, transcribed as data.

Source: triton-lang/triton, unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp
(revision db1ed003402dba242f67073bd5c2365a875db310): each ``TEST_F`` below names the test,
the layout it builds (as our preset and its parameters), the shape, and the bases the test
expects (``register`` / ``lane`` / ``warp`` / ``block``; empty ones left out). Transcribed:
every expectation of a layout we have a preset for -- blocked (ranks 1, 2, 4), FMA, MMA,
MFMA and WMMA dot operands (ranks 2 and 3), MMA v2 / v3 (with CTA splits), MFMA and WMMA
(ranks 2 and 3), slices of blocked (with CTA splits, rank 4), MMA and dot-operand parents,
swizzled and NVMMA shared (fp4 padded too). Not transcribed: the ``EXPECT_EQ(a, b)`` ones
that compare two Triton layouts with each other (transposed MFMA parents), the WMMA v2
dot-operand ones (WMMA_v2_2x4Warps_lhs / _rhs, WMMA_v2_2x4x1Warps_lhs / _rhs: the same
preset, ``amd.wmma_dot_operand``, is checked against the installed Triton on 688 parameter
sets instead) and ChooseShmemLayout* (a register-to-register conversion scratch layout,
not a layout attribute). AMD dot operands are ``amd.mfma_dot_operand`` /
``amd.wmma_dot_operand``.
"""

from __future__ import annotations


def _blocked(spt, tpw, wpb, cpg, split, order, cta_order):
    return {"size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpb, "order": order,
            "ctas_per_cga": cpg, "cta_split_num": split, "cta_order": cta_order}


def _mma(version, instr, warps):
    return {"version": version, "instr_shape": instr, "warps_per_cta": warps}


def _dot(op, k_width, parent, instr, warps):
    return {"operand_index": op, "k_width": k_width, "parent": parent, "instr_shape": instr,
            "warps_per_cta": warps}


def _fma(op, spt, tpw, wpb, order):
    return {"operand_index": op, "k_width": 0, "parent": "blocked", "size_per_thread": spt,
            "threads_per_warp": tpw, "warps_per_cta": wpb, "order": order}


def _mfma(m, transposed):
    """The test's mfma(warps={2, 4}, mDim=nDim=m, isTransposed) helper: version 2 (gfx90a)."""
    return {"version": 2, "instr_shape": (m, m, 8 if m == 32 else 16), "transposed": transposed,
            "warps_per_cta": (2, 4), "element_bitwidth": 32, "tiles_per_warp": (1, 1)}


def _wmma(version, transposed):
    """The test's wmma(warps={2, 4}, version, transposed): Gluon spells warpsPerCTA {2, 4}
    (warp order N first) as warp bases over 16 x 16 tiles: (0,1), (0,2), (1,0)."""
    return {"version": version, "transposed": transposed,
            "warp_bases": (("0", "1"), ("0", "2"), ("1", "0"))}


def _mma3(instr, warps):
    """mma(2, 0, instrShape, warps) of rank 3 (batch first)."""
    return {"version": 2, "instr_shape": instr, "warps_per_cta": warps}


def _dot3(op, k_width, warps):
    return {"operand_index": op, "k_width": k_width, "parent": "mma_v2", "instr_shape": (1, 16, 8),
            "warps_per_cta": warps}


def _mfma3(transposed):
    """mfma(warps={2, 4, 1}, 32, 32, isTransposed): batch 2, M 4, N 1 wavefronts."""
    return {"version": 2, "instr_shape": (32, 32, 8), "transposed": transposed,
            "warps_per_cta": (2, 4, 1), "element_bitwidth": 32, "tiles_per_warp": (1, 1, 1)}


def _wmma3(version, transposed, warps):
    """wmma(warps={b, m, n}, version, transposed) of rank 3 as Gluon's (b, i, j) warp bases
    over 16 x 16 tiles, warp order N, M, batch."""
    b, m, n = warps
    bases = ([f"0,0,{1 << k}" for k in range(n.bit_length() - 1)]
             + [f"0,{1 << k},0" for k in range(m.bit_length() - 1)]
             + [f"{1 << k},0,0" for k in range(b.bit_length() - 1)])
    return {"version": version, "transposed": transposed, "warp_bases": tuple(bases)}


def _slice_dot(dim, parent, op, k_width, instr, warps):
    return {"dim": dim, "parent": parent, "operand_index": op, "k_width": k_width,
            "instr_shape": instr, "warps_per_cta": warps}


def _mdot(op, k_width, m, warps):
    """mfmaDotOp(mfma(warps, m, m, false), op, kWidth)."""
    return {"operand_index": op, "k_width": k_width, "instr_shape": (m, m, 8 if m == 32 else 16),
            "warps_per_cta": warps}


def _wdot(op, warp_bases):
    """wmmaDotOp(wmma(warps, version 1, false), op, 16), warps as Gluon's tile bases."""
    return {"operand_index": op, "k_width": 16, "version": 1, "warp_bases": warp_bases}


W24 = ("0,1", "0,2", "1,0")             # wmma warps {2, 4}: N first (4), then M (2)
W241 = ("0,1,0", "0,2,0", "1,0,0")      # wmma warps {2, 4, 1}: M (4), then batch (2)


def _nvmma(width, bits, fp4=False):
    """nvmmaShared(width, transposed=false, bits, ..., fp4Padded)."""
    return {"swizzle_byte_width": width, "element_bitwidth": bits, "transposed": False,
            "fp4_padded": fp4}


def _slice_mma(dim):
    """slice(mma(2, 0, {16, 8}, warps {2, 2}), dim)."""
    return {"dim": dim, "parent": "mma_v2", "warps_per_cta": (2, 2), "instr_shape": (16, 8)}


def _shared(vec, per_phase, max_phase, order):
    return {"vec": vec, "per_phase": per_phase, "max_phase": max_phase, "order": order}


LANES_MMA = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
LANES_WMMA1 = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]]
LANES_WMMA2 = [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]]
LANES_TWMMA2 = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]]
LANES_MFMA32 = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]]
LANES_MFMA32_T = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]]
L32A = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]           # 32 lanes along M of A
L32B = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]           # along N of B
L16A = [[1, 0], [2, 0], [4, 0], [8, 0]]
L16B = [[0, 1], [0, 2], [0, 4], [0, 8]]
LANES_WDOT_3D_A = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 0]]
LANES_WDOT_3D_B = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 0]]
LANES_MFMA32_3D = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 4, 0]]
LANES_MFMA32_3D_T = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 0, 4]]
LANES_WMMA1_3D = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0]]
LANES_WMMA2_3D = [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]]
LANES_TWMMA2_3D = [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]]

#: mma(2, 0, {1, 16, 8}, warps {16, 1, 1}, CTAsPerCGA {4, 2, 2}, CTASplitNum {4, 2, 1},
#: CTAOrder {2, 1, 0})
MMA_CGA = {"version": 2, "instr_shape": (1, 16, 8), "warps_per_cta": (16, 1, 1),
           "ctas_per_cga": (4, 2, 2), "cta_split_num": (4, 2, 1), "cta_order": (2, 1, 0)}
REGS_MMA_CGA = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 16, 0],
                [0, 32, 0]]
#: blocked({2, 4}, {4, 2}, {2, 2}, CTAsPerCGA {2, 2}, CTASplitNum {2, 2}, {1, 0}, {1, 0})
SLICE_CGA_PARENT = {"parent": "blocked", "size_per_thread": (2, 4), "threads_per_warp": (4, 2),
                    "warps_per_cta": (2, 2), "order": (1, 0), "ctas_per_cga": (2, 2),
                    "cta_split_num": (2, 2), "cta_order": (1, 0)}

#: (test name, preset, parameters, shape, expected bases)
CASES = [
    ("SimpleBlocked", "triton.blocked", _blocked((1,), (4,), (4,), (1,), (1,), (0,), (0,)), (16,),
     {"lane": [[1], [2]], "warp": [[4], [8]]}),
    ("CTADuplication", "triton.blocked", _blocked((1,), (4,), (4,), (4,), (2,), (0,), (0,)), (32,),
     {"lane": [[1], [2]], "warp": [[4], [8]], "block": [[16], [0]]}),
    ("CTABroadcast", "triton.blocked",
     _blocked((8, 1), (8, 4), (1, 4), (1, 2), (1, 2), (0, 1), (1, 0)), (64, 128),
     {"register": [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]],
      "lane": [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], "warp": [[0, 4], [0, 8]],
      "block": [[0, 64]]}),
    ("ShapeLargerThanLayout", "triton.blocked", _blocked((1,), (4,), (4,), (1,), (1,), (0,), (0,)),
     (128,), {"register": [[16], [32], [64]], "lane": [[1], [2]], "warp": [[4], [8]]}),
    ("ShapeLargerThanLayout2DDegenerate", "triton.blocked",
     _blocked((1, 1), (4, 1), (4, 1), (1, 1), (1, 1), (0, 1), (1, 0)), (128, 1),
     {"register": [[16, 0], [32, 0], [64, 0]], "lane": [[1, 0], [2, 0]],
      "warp": [[4, 0], [8, 0]]}),
    ("ShapeSmallerThanLayout", "triton.blocked", _blocked((4,), (4,), (4,), (1,), (1,), (0,), (0,)),
     (8,), {"register": [[1], [2]], "lane": [[4], [0]], "warp": [[0], [0]]}),
    ("ReversedOrder", "triton.blocked",
     _blocked((1, 1), (32, 1), (1, 8), (1, 1), (1, 1), (0, 1), (1, 0)), (1, 64),
     {"register": [[0, 8], [0, 16], [0, 32]], "lane": [[0, 0]] * 5,
      "warp": [[0, 1], [0, 2], [0, 4]]}),
    ("ReplicateInRegisterDim", "triton.blocked", _blocked((2,), (4,), (1,), (1,), (1,), (0,), (0,)),
     (32,), {"register": [[1], [8], [16]], "lane": [[2], [4]]}),
    ("OneDimTooLargeAnotherTooSmall", "triton.blocked",
     _blocked((1, 4), (8, 4), (4, 1), (2, 2), (2, 1), (1, 0), (1, 0)), (128, 16),
     {"register": [[0, 1], [0, 2], [32, 0]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
      "warp": [[8, 0], [16, 0]], "block": [[0, 0], [64, 0]]}),
    ("RepeatInCTGDimFirst", "triton.blocked", _blocked((1,), (1,), (4,), (2,), (2,), (0,), (0,)),
     (4,), {"warp": [[1], [0]], "block": [[2]]}),
    ("SmallerThanCTALayout", "triton.blocked", _blocked((1,), (1,), (1,), (4,), (4,), (0,), (0,)),
     (2,), {"block": [[1], [0]]}),
    ("Skinny", "triton.blocked", _blocked((8, 1), (8, 4), (1, 4), (1, 2), (1, 2), (0, 1), (0, 1)),
     (64, 1), {"register": [[1, 0], [2, 0], [4, 0]],
               "lane": [[8, 0], [16, 0], [32, 0], [0, 0], [0, 0]], "warp": [[0, 0], [0, 0]],
               "block": [[0, 0]]}),
    ("BlockedOrder", "triton.blocked",
     _blocked((2, 2), (4, 8), (2, 2), (2, 2), (2, 2), (1, 0), (1, 0)), (1024, 128),
     {"register": [[0, 1], [1, 0], [0, 32], [16, 0], [32, 0], [64, 0], [128, 0], [256, 0]],
      "lane": [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], "warp": [[0, 16], [8, 0]],
      "block": [[0, 64], [512, 0]]}),
    ("Blocked4D", "triton.blocked",
     _blocked((1, 1, 1, 4), (2, 1, 1, 16), (1, 2, 4, 1), (1, 1, 1, 1), (1, 1, 1, 1), (3, 0, 1, 2),
              (3, 2, 1, 0)), (2, 1, 1, 1),
     {"register": [[0, 0, 0, 0]] * 2, "lane": [[0, 0, 0, 0]] * 4 + [[1, 0, 0, 0]],
      "warp": [[0, 0, 0, 0]] * 3}),
    ("BlockedDotOperandLhs", "triton.dot_operand", _fma(0, (2, 4), (8, 4), (2, 4), (1, 0)),
     (32, 16), {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]],
                "lane": [[0, 0], [0, 0], [2, 0], [4, 0], [8, 0]],
                "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("BlockedDotOperandRhs", "triton.dot_operand", _fma(1, (2, 4), (8, 4), (2, 4), (1, 0)),
     (16, 64), {"register": [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0], [8, 0]],
                "lane": [[0, 4], [0, 8], [0, 0], [0, 0], [0, 0]],
                "warp": [[0, 16], [0, 32], [0, 0]]}),
    ("BlockedDot3dOperandLhs", "triton.dot_operand",
     _fma(0, (2, 2, 4), (2, 4, 4), (2, 2, 2), (2, 1, 0)), (16, 32, 4),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 1, 0], [1, 0, 0], [0, 16, 0], [8, 0, 0]],
      "lane": [[0, 0, 0], [0, 0, 0], [0, 2, 0], [0, 4, 0], [2, 0, 0]],
      "warp": [[0, 0, 0], [0, 8, 0], [4, 0, 0]]}),
    ("BlockedDot3dOperandRhs", "triton.dot_operand",
     _fma(1, (2, 2, 4), (2, 4, 4), (2, 2, 2), (2, 1, 0)), (16, 4, 64),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 2, 0], [1, 0, 0], [0, 0, 32], [8, 0, 0]],
      "lane": [[0, 0, 4], [0, 0, 8], [0, 0, 0], [0, 0, 0], [2, 0, 0]],
      "warp": [[0, 0, 16], [0, 0, 0], [4, 0, 0]]}),
    ("MMAv2_16x16", "triton.nvmma_distributed", _mma(2, (16, 8), (1, 1)), (16, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA}),
    ("MMAv2_32x32", "triton.nvmma_distributed", _mma(2, (16, 8), (1, 1)), (32, 32),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]], "lane": LANES_MMA}),
    ("MMAv2_ExtendDim2", "triton.nvmma_distributed", _mma(2, (16, 8), (1, 1)), (16, 128),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], "lane": LANES_MMA}),
    ("MMAv2_Cga", "triton.nvmma_distributed", MMA_CGA, (64, 128, 128),
     {"register": REGS_MMA_CGA, "lane": [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]],
      "warp": [[1, 0, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0]],
      "block": [[0, 0, 0], [0, 64, 0], [16, 0, 0], [32, 0, 0]]}),
    ("MMAv2_Small3D", "triton.nvmma_distributed", MMA_CGA, (1, 128, 128),
     {"register": REGS_MMA_CGA, "lane": [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]],
      "warp": [[0, 0, 0]] * 4, "block": [[0, 0, 0], [0, 64, 0], [0, 0, 0], [0, 0, 0]]}),
    ("MMAv3_64x16 (16,16,8)", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 1)), (64, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA, "warp": [[16, 0], [32, 0]]}),
    ("MMAv3_64x16 (16,8,8)", "triton.nvmma_distributed", _mma(3, (16, 8, 8), (4, 1)), (64, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA, "warp": [[16, 0], [32, 0]]}),
    ("MMAv3_128x16", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 1)), (128, 16),
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0]]}),
    ("MMAv3_1024x1024", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 1)), (1024, 1024),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128], [0, 256],
                   [0, 512], [64, 0], [128, 0], [256, 0], [512, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0]]}),
    ("MMAv3_4x2Warps 64x32", "triton.nvmma_distributed", _mma(3, (16, 32, 16), (4, 2)), (64, 32),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 0]]}),
    ("MMAv3_4x2Warps 64x64", "triton.nvmma_distributed", _mma(3, (16, 32, 16), (4, 2)), (64, 64),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 32]]}),
    ("MMAv3_4x2Warps 128x64", "triton.nvmma_distributed", _mma(3, (16, 32, 16), (4, 2)), (128, 64),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 32]]}),
    ("MMAv3_4x2Warps 256x64", "triton.nvmma_distributed", _mma(3, (16, 32, 16), (4, 2)), (256, 64),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0], [128, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 32]]}),
    ("MMAv3_4x4Warps 16x16", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (16, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA, "warp": [[0, 0]] * 4}),
    ("MMAv3_4x4Warps 32x16", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (32, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA,
      "warp": [[16, 0], [0, 0], [0, 0], [0, 0]]}),
    ("MMAv3_4x4Warps 64x16", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (64, 16),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 0], [0, 0]]}),
    ("MMAv3_4x4Warps 128x16", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (128, 16),
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 0], [0, 0]]}),
    ("MMAv3_4x4Warps 32x32", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (32, 32),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA,
      "warp": [[16, 0], [0, 0], [0, 16], [0, 0]]}),
    ("MMAv3_4x4Warps 64x32", "triton.nvmma_distributed", _mma(3, (16, 16, 8), (4, 4)), (64, 32),
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0], [0, 16], [0, 0]]}),
    ("DotMMAv2_tile_kwidth8 A", "triton.dot_operand", _dot(0, 8, "mma_v2", (16, 8), (1, 1)),
     (16, 64), {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]],
                "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]]}),
    ("DotMMAv2_tile_kwidth8 B", "triton.dot_operand", _dot(1, 8, "mma_v2", (16, 8), (1, 1)),
     (64, 8), {"register": [[1, 0], [2, 0], [4, 0], [32, 0]],
               "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]]}),
    ("DotMMAv2_large_warp4_kwidth8 A", "triton.dot_operand", _dot(0, 8, "mma_v2", (16, 8), (4, 1)),
     (128, 128), {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32], [0, 64], [64, 0]],
                  "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]]}),
    ("DotMMAv2_large_warp4_kwidth8 B 128x64", "triton.dot_operand",
     _dot(1, 8, "mma_v2", (16, 8), (4, 1)), (128, 64),
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 8], [0, 16], [0, 32]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 0], [0, 0]]}),
    ("DotMMAv2_large_warp4_kwidth8 B 64x128", "triton.dot_operand",
     _dot(1, 8, "mma_v2", (16, 8), (4, 1)), (64, 128),
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [0, 8], [0, 16], [0, 32], [0, 64]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 0], [0, 0]]}),
    ("DotMMAv2_3D A", "triton.dot_operand", _dot3(0, 8, (2, 4, 2)), (16, 128, 128),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 8, 0], [0, 0, 32], [0, 0, 64], [0, 64, 0],
                   [2, 0, 0], [4, 0, 0], [8, 0, 0]],
      "lane": [[0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0], [0, 4, 0]],
      "warp": [[0, 0, 0], [0, 16, 0], [0, 32, 0], [1, 0, 0]]}),
    ("DotMMAv2_3D B", "triton.dot_operand", _dot3(1, 8, (2, 4, 2)), (8, 128, 64),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 32, 0], [0, 64, 0], [0, 0, 16], [0, 0, 32],
                   [2, 0, 0], [4, 0, 0]],
      "lane": [[0, 8, 0], [0, 16, 0], [0, 0, 1], [0, 0, 2], [0, 0, 4]],
      "warp": [[0, 0, 8], [0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("DotMMAv3_mixed_warp_kwidth4", "triton.dot_operand",
     _dot(0, 4, "mma_v3", (16, 16, 8), (4, 2)), (128, 64),
     {"register": [[0, 1], [0, 2], [8, 0], [0, 16], [0, 32], [64, 0]],
      "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0], [0, 0]]}),
    ("SliceDot v2", "triton.slice", _slice_dot(1, "dot_mma_v2", 0, 8, (16, 8), (1, 1)), (16,),
     {"register": [[8]], "lane": [[0], [0], [1], [2], [4]]}),
    ("SliceDot v3", "triton.slice", _slice_dot(0, "dot_mma_v3", 0, 2, (16, 16, 8), (4, 1)), (16,),
     {"register": [[1], [8]], "lane": [[2], [4], [0], [0], [0]], "warp": [[0], [0]]}),
    ("DotMMAv3_warp4_kwidth2 64x16", "triton.dot_operand", _dot(0, 2, "mma_v3", (16, 16, 8), (4, 1)),
     (64, 16), {"register": [[0, 1], [8, 0], [0, 8]], "lane": LANES_MMA,
                "warp": [[16, 0], [32, 0]]}),
    ("DotMMAv3_warp4_kwidth2 128x16", "triton.dot_operand",
     _dot(0, 2, "mma_v3", (16, 16, 8), (4, 1)), (128, 16),
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0]]}),
    ("DotMMAv3_warp4_kwidth2 128x32", "triton.dot_operand",
     _dot(0, 2, "mma_v3", (16, 16, 8), (4, 1)), (128, 32),
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], "lane": LANES_MMA,
      "warp": [[16, 0], [32, 0]]}),
    ("DotMMAv2_split_warp_kwidth8 A 32x64", "triton.dot_operand",
     _dot(0, 8, "mma_v2", (16, 8), (2, 2)), (32, 64),
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]],
      "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], "warp": [[0, 0], [16, 0]]}),
    ("DotMMAv2_split_warp_kwidth8 B 64x16", "triton.dot_operand",
     _dot(1, 8, "mma_v2", (16, 8), (2, 2)), (64, 16),
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 8], [0, 0]]}),
    ("DotMMAv2_split_warp_kwidth8 A 64x128", "triton.dot_operand",
     _dot(0, 8, "mma_v2", (16, 8), (2, 2)), (64, 128),
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32], [0, 64], [32, 0]],
      "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], "warp": [[0, 0], [16, 0]]}),
    ("DotMMAv2_split_warp_kwidth8 B 128x32", "triton.dot_operand",
     _dot(1, 8, "mma_v2", (16, 8), (2, 2)), (128, 32),
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 16]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 8], [0, 0]]}),
    ("MFMA32_2x4Warps 32x32", "amd.mfma", _mfma(32, False), (32, 32),
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": LANES_MFMA32,
      "warp": [[0, 0], [0, 0], [0, 0]]}),
    ("MFMA32_2x4Warps 64x32", "amd.mfma", _mfma(32, False), (64, 32),
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": LANES_MFMA32,
      "warp": [[0, 0], [0, 0], [32, 0]]}),
    ("MFMA32_2x4Warps 128x128", "amd.mfma", _mfma(32, False), (128, 128),
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [64, 0]], "lane": LANES_MFMA32,
      "warp": [[0, 32], [0, 64], [32, 0]]}),
    ("MFMA32_2x4Warps transposed 32x32", "amd.mfma", _mfma(32, True), (32, 32),
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": LANES_MFMA32_T,
      "warp": [[0, 0], [0, 0], [0, 0]]}),
    ("MFMA32_2x4Warps transposed 64x32", "amd.mfma", _mfma(32, True), (64, 32),
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": LANES_MFMA32_T,
      "warp": [[0, 0], [0, 0], [32, 0]]}),
    ("MFMA32_2x4Warps transposed 128x128", "amd.mfma", _mfma(32, True), (128, 128),
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [64, 0]], "lane": LANES_MFMA32_T,
      "warp": [[0, 32], [0, 64], [32, 0]]}),
    ("MFMA16_2x4Warps", "amd.mfma", _mfma(16, False), (16, 16),
     {"register": [[1, 0], [2, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]]}),
    ("MFMA32_2x4x1Warps 1x128x128", "amd.mfma", _mfma3(False), (1, 128, 128),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0], [0, 0, 32], [0, 0, 64]],
      "lane": LANES_MFMA32_3D, "warp": [[0, 32, 0], [0, 64, 0], [0, 0, 0]]}),
    ("MFMA32_2x4x1Warps 2x32x32", "amd.mfma", _mfma3(False), (2, 32, 32),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0]], "lane": LANES_MFMA32_3D,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("MFMA32_2x4x1Warps 2x64x32", "amd.mfma", _mfma3(False), (2, 64, 32),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0]], "lane": LANES_MFMA32_3D,
      "warp": [[0, 32, 0], [0, 0, 0], [1, 0, 0]]}),
    ("MFMA32_2x4x1Warps transposed 1x128x128", "amd.mfma", _mfma3(True), (1, 128, 128),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64]],
      "lane": LANES_MFMA32_3D_T, "warp": [[0, 32, 0], [0, 64, 0], [0, 0, 0]]}),
    ("MFMA32_2x4x1Warps transposed 2x32x32", "amd.mfma", _mfma3(True), (2, 32, 32),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16]], "lane": LANES_MFMA32_3D_T,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("MFMA32_2x4x1Warps transposed 2x64x32", "amd.mfma", _mfma3(True), (2, 64, 32),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16]], "lane": LANES_MFMA32_3D_T,
      "warp": [[0, 32, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps 1x16x16", "amd.wmma", _wmma3(1, False, (2, 4, 1)), (1, 16, 16),
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": LANES_WMMA1_3D,
      "warp": [[0, 0, 0]] * 3}),
    ("WMMA_v1_2x4x1Warps 2x16x16", "amd.wmma", _wmma3(1, False, (2, 4, 1)), (2, 16, 16),
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": LANES_WMMA1_3D,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps 8x16x16", "amd.wmma", _wmma3(1, False, (2, 4, 1)), (8, 16, 16),
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0], [2, 0, 0], [4, 0, 0]], "lane": LANES_WMMA1_3D,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v2_2x2x2Warps 1x16x16", "amd.wmma", _wmma3(2, False, (2, 2, 2)), (1, 16, 16),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "lane": LANES_WMMA2_3D,
      "warp": [[0, 0, 0]] * 3}),
    ("WMMA_v2_2x2x2Warps 2x16x16", "amd.wmma", _wmma3(2, False, (2, 2, 2)), (2, 16, 16),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "lane": LANES_WMMA2_3D,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v2_2x2x2Warps 4x64x64", "amd.wmma", _wmma3(2, False, (2, 2, 2)), (4, 64, 64),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 0, 32], [0, 32, 0], [2, 0, 0]],
      "lane": LANES_WMMA2_3D, "warp": [[0, 0, 16], [0, 16, 0], [1, 0, 0]]}),
    ("TWMMA_v2_2x2x2Warps 1x16x16", "amd.wmma", _wmma3(2, True, (2, 2, 2)), (1, 16, 16),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": LANES_TWMMA2_3D,
      "warp": [[0, 0, 0]] * 3}),
    ("TWMMA_v2_2x2x2Warps 2x16x16", "amd.wmma", _wmma3(2, True, (2, 2, 2)), (2, 16, 16),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": LANES_TWMMA2_3D,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("warp1onK_mfma32_lhs_kwidth8 128x128", "amd.mfma_dot_operand", _mdot(0, 8, 32, (1, 8)),
     (128, 128), {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [32, 0], [64, 0]],
                  "lane": L32A + [[0, 8]], "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_lhs_kwidth8 128x256", "amd.mfma_dot_operand", _mdot(0, 8, 32, (1, 8)),
     (128, 256), {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [0, 128], [32, 0],
                               [64, 0]], "lane": L32A + [[0, 8]], "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_lhs_kwidth8 32x64", "amd.mfma_dot_operand", _mdot(0, 8, 32, (1, 8)),
     (32, 64), {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32]], "lane": L32A + [[0, 8]],
                "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_lhs_kwidth8 256x256", "amd.mfma_dot_operand", _mdot(0, 8, 32, (1, 8)),
     (256, 256), {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [0, 128], [32, 0],
                               [64, 0], [128, 0]], "lane": L32A + [[0, 8]], "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_lhs_kwidth8 16x16", "amd.mfma_dot_operand", _mdot(0, 8, 32, (1, 8)),
     (16, 16), {"register": [[0, 1], [0, 2], [0, 4]], "lane": L16A + [[0, 0], [0, 8]],
                "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_rhs_kwidth8 128x128", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 8)),
     (128, 128), {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0]],
                  "lane": L32B + [[8, 0]], "warp": [[0, 32], [0, 64], [0, 0]]}),
    ("warp1onK_mfma32_rhs_kwidth8 128x256", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 8)),
     (128, 256), {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0]],
                  "lane": L32B + [[8, 0]], "warp": [[0, 32], [0, 64], [0, 128]]}),
    ("warp1onK_mfma32_rhs_kwidth8 32x64", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 8)),
     (32, 64), {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": L32B + [[8, 0]],
                "warp": [[0, 32], [0, 0], [0, 0]]}),
    ("warp1onK_mfma32_rhs_kwidth8 256x256", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 8)),
     (256, 256), {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0], [128, 0]],
                  "lane": L32B + [[8, 0]], "warp": [[0, 32], [0, 64], [0, 128]]}),
    ("warp1onK_mfma32_rhs_kwidth8 16x16", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 8)),
     (16, 16), {"register": [[1, 0], [2, 0], [4, 0]], "lane": L16B + [[0, 0], [8, 0]],
                "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma32_rhs_kwidth8 1x4 256x256", "amd.mfma_dot_operand", _mdot(1, 8, 32, (1, 4)),
     (256, 256), {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0], [128, 0], [0, 128]],
                  "lane": L32B + [[8, 0]], "warp": [[0, 32], [0, 64]]}),
    ("warp1onK_mfma16_lhs_kwidth8 128x128", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 4)),
     (128, 128), {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [16, 0], [32, 0], [64, 0]],
                  "lane": L16A + [[0, 8], [0, 16]], "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_lhs_kwidth8 1x128", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 4)),
     (1, 128), {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64]],
                "lane": [[0, 0]] * 4 + [[0, 8], [0, 16]], "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_lhs_kwidth8 128x1", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 4)),
     (128, 1), {"register": [[0, 0], [0, 0], [0, 0], [16, 0], [32, 0], [64, 0]],
                "lane": L16A + [[0, 0], [0, 0]], "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_lhs_kwidth8 256x256", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 4)),
     (256, 256), {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [0, 128], [16, 0], [32, 0],
                               [64, 0], [128, 0]], "lane": L16A + [[0, 8], [0, 16]],
                  "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_lhs_kwidth8 16x16", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 4)),
     (16, 16), {"register": [[0, 1], [0, 2], [0, 4]], "lane": L16A + [[0, 8], [0, 0]],
                "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_lhs_kwidth8 1x8 256x256", "amd.mfma_dot_operand", _mdot(0, 8, 16, (1, 8)),
     (256, 256), {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [0, 128], [16, 0], [32, 0],
                               [64, 0], [128, 0]], "lane": L16A + [[0, 8], [0, 16]],
                  "warp": [[0, 0]] * 3}),
    ("warp1onK_mfma16_lhs_kwidth8 1x1x8 1x256x256", "amd.mfma_dot_operand",
     _mdot(0, 8, 16, (1, 1, 8)), (1, 256, 256),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 32], [0, 0, 64], [0, 0, 128], [0, 16, 0],
                   [0, 32, 0], [0, 64, 0], [0, 128, 0]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8], [0, 0, 16]],
      "warp": [[0, 0, 0]] * 3}),
    ("warp1onK_mfma16_rhs_kwidth8 128x128", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 4)),
     (128, 128), {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 64]],
                  "lane": L16B + [[8, 0], [16, 0]], "warp": [[0, 16], [0, 32]]}),
    ("warp1onK_mfma16_rhs_kwidth8 1x128", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 4)),
     (1, 128), {"register": [[0, 0], [0, 0], [0, 0], [0, 64]], "lane": L16B + [[0, 0], [0, 0]],
                "warp": [[0, 16], [0, 32]]}),
    ("warp1onK_mfma16_rhs_kwidth8 128x1", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 4)),
     (128, 1), {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0]],
                "lane": [[0, 0]] * 4 + [[8, 0], [16, 0]], "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_rhs_kwidth8 256x256", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 4)),
     (256, 256), {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [128, 0], [0, 64], [0, 128]],
                  "lane": L16B + [[8, 0], [16, 0]], "warp": [[0, 16], [0, 32]]}),
    ("warp1onK_mfma16_rhs_kwidth8 16x16", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 4)),
     (16, 16), {"register": [[1, 0], [2, 0], [4, 0]], "lane": L16B + [[8, 0], [0, 0]],
                "warp": [[0, 0], [0, 0]]}),
    ("warp1onK_mfma16_rhs_kwidth8 1x8 256x256", "amd.mfma_dot_operand", _mdot(1, 8, 16, (1, 8)),
     (256, 256), {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [128, 0], [0, 128]],
                  "lane": L16B + [[8, 0], [16, 0]], "warp": [[0, 16], [0, 32], [0, 64]]}),
    ("warp1onK_mfma16_rhs_kwidth8 1x1x8 1x256x256", "amd.mfma_dot_operand",
     _mdot(1, 8, 16, (1, 1, 8)), (1, 256, 256),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 32, 0], [0, 64, 0], [0, 128, 0], [0, 0, 128]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0], [0, 16, 0]],
      "warp": [[0, 0, 16], [0, 0, 32], [0, 0, 64]]}),
    ("mfma32_dot_op_lhs_kwidth4 128x128", "amd.mfma_dot_operand", _mdot(0, 4, 32, (2, 4)),
     (128, 128), {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]],
                  "lane": L32A + [[0, 4]], "warp": [[0, 0], [0, 0], [32, 0]]}),
    ("mfma32_dot_op_lhs_kwidth4 64x32", "amd.mfma_dot_operand", _mdot(0, 4, 32, (2, 4)), (64, 32),
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": L32A + [[0, 4]],
      "warp": [[0, 0], [0, 0], [32, 0]]}),
    ("mfma32_dot_op_lhs_kwidth4 16x16", "amd.mfma_dot_operand", _mdot(0, 4, 32, (2, 4)), (16, 16),
     {"register": [[0, 1], [0, 2], [0, 8]], "lane": L16A + [[0, 0], [0, 4]],
      "warp": [[0, 0]] * 3}),
    ("mfma16_dot_op_lhs_kwidth4 128x128", "amd.mfma_dot_operand", _mdot(0, 4, 16, (2, 4)),
     (128, 128), {"register": [[0, 1], [0, 2], [0, 16], [0, 32], [0, 64], [32, 0], [64, 0]],
                  "lane": L16A + [[0, 4], [0, 8]], "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("mfma16_dot_op_lhs_kwidth4 64x32", "amd.mfma_dot_operand", _mdot(0, 4, 16, (2, 4)), (64, 32),
     {"register": [[0, 1], [0, 2], [0, 16], [32, 0]], "lane": L16A + [[0, 4], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("mfma16_dot_op_lhs_kwidth4 16x16", "amd.mfma_dot_operand", _mdot(0, 4, 16, (2, 4)), (16, 16),
     {"register": [[0, 1], [0, 2]], "lane": L16A + [[0, 4], [0, 8]], "warp": [[0, 0]] * 3}),
    ("mfma32_dot_op_rhs_kwidth4 128x128", "amd.mfma_dot_operand", _mdot(1, 4, 32, (2, 4)),
     (128, 128), {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
                  "lane": L32B + [[4, 0]], "warp": [[0, 32], [0, 64], [0, 0]]}),
    ("mfma32_dot_op_rhs_kwidth4 32x64", "amd.mfma_dot_operand", _mdot(1, 4, 32, (2, 4)), (32, 64),
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": L32B + [[4, 0]],
      "warp": [[0, 32], [0, 0], [0, 0]]}),
    ("mfma32_dot_op_rhs_kwidth4 16x16", "amd.mfma_dot_operand", _mdot(1, 4, 32, (2, 4)), (16, 16),
     {"register": [[1, 0], [2, 0], [8, 0]], "lane": L16B + [[0, 0], [4, 0]], "warp": [[0, 0]] * 3}),
    ("mfma16_dot_op_rhs_kwidth4 128x128", "amd.mfma_dot_operand", _mdot(1, 4, 16, (2, 4)),
     (128, 128), {"register": [[1, 0], [2, 0], [16, 0], [32, 0], [64, 0], [0, 64]],
                  "lane": L16B + [[4, 0], [8, 0]], "warp": [[0, 16], [0, 32], [0, 0]]}),
    ("mfma16_dot_op_rhs_kwidth4 32x64", "amd.mfma_dot_operand", _mdot(1, 4, 16, (2, 4)), (32, 64),
     {"register": [[1, 0], [2, 0], [16, 0]], "lane": L16B + [[4, 0], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]]}),
    ("mfma16_dot_op_rhs_kwidth4 16x16", "amd.mfma_dot_operand", _mdot(1, 4, 16, (2, 4)), (16, 16),
     {"register": [[1, 0], [2, 0]], "lane": L16B + [[4, 0], [8, 0]], "warp": [[0, 0]] * 3}),
    ("WMMA_v1_2x4Warps_lhs 16x16", "amd.wmma_dot_operand", _wdot(0, W24), (16, 16),
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": L16A + [[0, 0]], "warp": [[0, 0]] * 3}),
    ("WMMA_v1_2x4Warps_lhs 32x16", "amd.wmma_dot_operand", _wdot(0, W24), (32, 16),
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": L16A + [[0, 0]],
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("WMMA_v1_2x4Warps_lhs 32x64", "amd.wmma_dot_operand", _wdot(0, W24), (32, 64),
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], "lane": L16A + [[0, 0]],
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("WMMA_v1_2x4Warps_lhs 64x128", "amd.wmma_dot_operand", _wdot(0, W24), (64, 128),
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [32, 0]],
      "lane": L16A + [[0, 0]], "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("WMMA_v1_2x4Warps_rhs 16x16", "amd.wmma_dot_operand", _wdot(1, W24), (16, 16),
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0]], "lane": L16B + [[0, 0]], "warp": [[0, 0]] * 3}),
    ("WMMA_v1_2x4Warps_rhs 32x16", "amd.wmma_dot_operand", _wdot(1, W24), (32, 16),
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "lane": L16B + [[0, 0]],
      "warp": [[0, 0]] * 3}),
    ("WMMA_v1_2x4Warps_rhs 32x64", "amd.wmma_dot_operand", _wdot(1, W24), (32, 64),
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "lane": L16B + [[0, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]]}),
    ("WMMA_v1_2x4Warps_rhs 64x128", "amd.wmma_dot_operand", _wdot(1, W24), (64, 128),
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 64]],
      "lane": L16B + [[0, 0]], "warp": [[0, 16], [0, 32], [0, 0]]}),
    ("WMMA_v1_2x4x1Warps_lhs 1x16x16", "amd.wmma_dot_operand", _wdot(0, W241), (1, 16, 16),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": LANES_WDOT_3D_A,
      "warp": [[0, 0, 0]] * 3}),
    ("WMMA_v1_2x4x1Warps_lhs 2x32x16", "amd.wmma_dot_operand", _wdot(0, W241), (2, 32, 16),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": LANES_WDOT_3D_A,
      "warp": [[0, 16, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps_lhs 2x64x16", "amd.wmma_dot_operand", _wdot(0, W241), (2, 64, 16),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": LANES_WDOT_3D_A,
      "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps_lhs 4x128x32", "amd.wmma_dot_operand", _wdot(0, W241), (4, 128, 32),
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 64, 0], [2, 0, 0]],
      "lane": LANES_WDOT_3D_A, "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps_rhs 1x16x16", "amd.wmma_dot_operand", _wdot(1, W241), (1, 16, 16),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": LANES_WDOT_3D_B,
      "warp": [[0, 0, 0]] * 3}),
    ("WMMA_v1_2x4x1Warps_rhs 2x32x16", "amd.wmma_dot_operand", _wdot(1, W241), (2, 32, 16),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0]], "lane": LANES_WDOT_3D_B,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps_rhs 2x64x16", "amd.wmma_dot_operand", _wdot(1, W241), (2, 64, 16),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0]],
      "lane": LANES_WDOT_3D_B, "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4x1Warps_rhs 4x128x32", "amd.wmma_dot_operand", _wdot(1, W241), (4, 128, 32),
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0],
                   [0, 0, 16], [2, 0, 0]], "lane": LANES_WDOT_3D_B,
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]]}),
    ("WMMA_v1_2x4Warps 32x16", "amd.wmma", _wmma(1, False), (32, 16),
     {"register": [[2, 0], [4, 0], [8, 0]], "lane": LANES_WMMA1,
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("WMMA_v1_2x4Warps 16x32", "amd.wmma", _wmma(1, False), (16, 32),
     {"register": [[2, 0], [4, 0], [8, 0]], "lane": LANES_WMMA1,
      "warp": [[0, 16], [0, 0], [0, 0]]}),
    ("WMMA_v1_2x4Warps 128x128", "amd.wmma", _wmma(1, False), (128, 128),
     {"register": [[2, 0], [4, 0], [8, 0], [0, 64], [32, 0], [64, 0]], "lane": LANES_WMMA1,
      "warp": [[0, 16], [0, 32], [16, 0]]}),
    ("WMMA_v2_2x4Warps 16x16", "amd.wmma", _wmma(2, False), (16, 16),
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": LANES_WMMA2, "warp": [[0, 0]] * 3}),
    ("WMMA_v2_2x4Warps 32x16", "amd.wmma", _wmma(2, False), (32, 16),
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": LANES_WMMA2,
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("WMMA_v2_2x4Warps 16x32", "amd.wmma", _wmma(2, False), (16, 32),
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": LANES_WMMA2,
      "warp": [[0, 16], [0, 0], [0, 0]]}),
    ("WMMA_v2_2x4Warps 64x128", "amd.wmma", _wmma(2, False), (64, 128),
     {"register": [[1, 0], [2, 0], [4, 0], [0, 64], [32, 0]], "lane": LANES_WMMA2,
      "warp": [[0, 16], [0, 32], [16, 0]]}),
    ("TWMMA_v2_2x4Warps 16x16", "amd.wmma", _wmma(2, True), (16, 16),
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": LANES_TWMMA2, "warp": [[0, 0]] * 3}),
    ("TWMMA_v2_2x4Warps 32x16", "amd.wmma", _wmma(2, True), (32, 16),
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": LANES_TWMMA2,
      "warp": [[0, 0], [0, 0], [16, 0]]}),
    ("TWMMA_v2_2x4Warps 16x32", "amd.wmma", _wmma(2, True), (16, 32),
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": LANES_TWMMA2,
      "warp": [[0, 16], [0, 0], [0, 0]]}),
    ("TWMMA_v2_2x4Warps 64x128", "amd.wmma", _wmma(2, True), (64, 128),
     {"register": [[0, 1], [0, 2], [0, 4], [0, 64], [32, 0]], "lane": LANES_TWMMA2,
      "warp": [[0, 16], [0, 32], [16, 0]]}),
    ("SliceOfMmaV2 16 dim0", "triton.slice", _slice_mma(0), (16,),
     {"register": [[1]], "lane": [[2], [4], [0], [0], [0]], "warp": [[8], [0]]}),
    ("SliceOfMmaV2 128 dim0", "triton.slice", _slice_mma(0), (128,),
     {"register": [[1], [16], [32], [64]], "lane": [[2], [4], [0], [0], [0]],
      "warp": [[8], [0]]}),
    ("SliceOfMmaV2 8 dim1", "triton.slice", _slice_mma(1), (8,),
     {"register": [[0]], "lane": [[0], [0], [1], [2], [4]], "warp": [[0], [0]]}),
    ("SliceOfMmaV2 128 dim1", "triton.slice", _slice_mma(1), (128,),
     {"register": [[8], [32], [64]], "lane": [[0], [0], [1], [2], [4]], "warp": [[0], [16]]}),
    ("SliceOfBlocked dim0", "triton.slice", SLICE_CGA_PARENT | {"dim": 0}, (128,),
     {"register": [[1], [2], [16], [32]], "lane": [[4], [0], [0]], "warp": [[8], [0]],
      "block": [[64], [0]]}),
    ("SliceOfBlocked dim1", "triton.slice", SLICE_CGA_PARENT | {"dim": 1}, (128,),
     {"register": [[1], [16], [32]], "lane": [[0], [2], [4]], "warp": [[0], [8]],
      "block": [[0], [64]]}),
    ("Slice4D", "triton.slice",
     {"dim": 3, "parent": "blocked", "size_per_thread": (1, 1, 1, 4),
      "threads_per_warp": (2, 1, 1, 16), "warps_per_cta": (1, 2, 4, 1), "order": (3, 0, 1, 2),
      "ctas_per_cga": (1, 1, 1, 1), "cta_split_num": (1, 1, 1, 1), "cta_order": (3, 2, 1, 0)},
     (2, 1, 1), {"lane": [[0, 0, 0]] * 4 + [[1, 0, 0]], "warp": [[0, 0, 0]] * 3}),
    ("SliceWithShape1", "triton.slice",
     {"dim": 0, "parent": "blocked", "size_per_thread": (1, 4), "threads_per_warp": (8, 4),
      "warps_per_cta": (2, 2), "order": (0, 1)}, (1,),
     {"register": [[0], [0]], "lane": [[0]] * 5, "warp": [[0], [0]]}),
    ("SharedSimple1D", "triton.swizzled_shared", _shared(1, 1, 1, (0,)), (1024,),
     {"offset": [[1 << k] for k in range(10)]}),
    ("SharedSimple2D", "triton.swizzled_shared", _shared(1, 1, 1, (1, 0)), (128, 128),
     {"offset": [[0, 1 << k] for k in range(7)] + [[1 << k, 0] for k in range(7)]}),
    ("SharedSimple2D_Order01", "triton.swizzled_shared", _shared(1, 1, 1, (0, 1)), (128, 128),
     {"offset": [[1 << k, 0] for k in range(7)] + [[0, 1 << k] for k in range(7)]}),
    ("SharedSwizzled2D_MaxPhaseOnly", "triton.swizzled_shared", _shared(1, 1, 4, (1, 0)), (32, 32),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 0], [8, 0],
                 [16, 0]]}),
    ("SharedSwizzled2D_PerPhaseMaxPhase", "triton.swizzled_shared", _shared(1, 2, 4, (1, 0)),
     (32, 32), {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 1], [4, 2],
                           [8, 0], [16, 0]]}),
    ("SharedSwizzled2D_Vec", "triton.swizzled_shared", _shared(2, 1, 4, (1, 0)), (4, 8),
     {"offset": [[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]]}),
    ("SharedSwizzled2D_PerPhaseMaxPhaseVec", "triton.swizzled_shared", _shared(2, 2, 4, (1, 0)),
     (32, 32), {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 2], [4, 4],
                           [8, 0], [16, 0]]}),
    ("SharedSwizzled2D_Order01", "triton.swizzled_shared", _shared(1, 1, 4, (0, 1)), (4, 8),
     {"offset": [[1, 0], [2, 0], [1, 1], [2, 2], [0, 4]]}),
    ("Shared1DSwizzle", "triton.swizzled_shared", _shared(2, 2, 4, (1, 0)), (64, 1),
     {"offset": [[1 << k, 0] for k in range(6)]}),
    ("LeadingOffset_8x16_4_2", "triton.nvmma_shared", _nvmma(32, 16), (8, 16),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]]}),
    ("LeadingOffset_128x16_4_2", "triton.nvmma_shared", _nvmma(32, 16), (128, 16),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8], [8, 0], [16, 0], [32, 0],
                 [64, 0]]}),
    ("LeadingOffset_8x32_2_4", "triton.nvmma_shared", _nvmma(64, 16), (8, 32),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 8], [4, 16]]}),
    ("LeadingOffset_8x64_1_8", "triton.nvmma_shared", _nvmma(128, 16), (8, 64),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]}),
    ("LeadingOffset_8x64_1_8_32b", "triton.nvmma_shared", _nvmma(128, 32), (8, 64),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], [4, 16], [0, 32]]}),
    ("MMAv5Fp4Padded", "triton.nvmma_shared", _nvmma(128, 8, fp4=True), (32, 64),
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 0], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32],
                 [8, 0], [16, 0]]}),
    ("SharedSwizzled4D", "triton.swizzled_shared", _shared(2, 2, 4, (3, 2, 1, 0)), (2, 4, 32, 32),
     {"offset": [[0, 0, 0, 1], [0, 0, 0, 2], [0, 0, 0, 4], [0, 0, 0, 8], [0, 0, 0, 16],
                 [0, 0, 1, 0], [0, 0, 2, 2], [0, 0, 4, 4], [0, 0, 8, 0], [0, 0, 16, 0],
                 [0, 1, 0, 0], [0, 2, 0, 0], [1, 0, 0, 0]]}),
]

#: expectations Triton has changed since that revision: why, and the Gluon object (built from
#: Gluon's module ``ttgl``) whose lowering by the installed Triton our preset must equal instead
CHANGED = {
    "Blocked4D": ("registers past the shape are now dropped, not kept as zero bases",
                  lambda ttgl: ttgl.BlockedLayout([1, 1, 1, 4], [2, 1, 1, 16], [1, 2, 4, 1],
                                                  [3, 0, 1, 2])),
    "SliceOfMmaV2 8 dim1": ("the slice no longer pads registers back to the legacy count",
                            lambda ttgl: ttgl.SliceLayout(1, ttgl.NVMMADistributedLayout(
                                [2, 0], [2, 2], [16, 8]))),
    "SliceWithShape1": ("the slice no longer pads registers back to the legacy count",
                        lambda ttgl: ttgl.SliceLayout(0, ttgl.BlockedLayout(
                            [1, 4], [8, 4], [2, 2], [0, 1]))),
}
