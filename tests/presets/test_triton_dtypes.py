"""The layouts Triton itself picks for a ``tt.dot``, per target and dtype, equal our presets.

Triton's accelerate-matmul pass (run on the CPU) turns a dot into the MMA of the target:
mma.sync (sm_80, sm_120, and small tiles elsewhere: ``#ttg.nvidia_mma`` v2 with
``#ttg.dot_op`` operands of a dtype-dependent kWidth), wgmma (sm_90: v3 accumulator,
operands in ``#ttg.nvmma_shared``) or tcgen05 (sm_100: ``#ttng.tensor_memory_encoding``
accumulator, ``#ttg.nvmma_shared`` operands). Every layout it writes is read back (with the
tensor or buffer shape it is used with) and our preset with those parameters must equal
Triton's lowering of it. Grid: 4 targets x 5 dtypes (f16, bf16, i8, f8e4m3, f32 as tf32)
x 4 warp counts (1, 2, 4, 8) x 5 dot shapes (square, non-square, smaller than an
instruction in N or M): 400 dots.
"""

from __future__ import annotations

import collections
import itertools
import re

import pytest

from tilelayout import presets
from tilelayout.interop.triton import TMEM_IN_DIMS, to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton.experimental.gluon import language as ttgl  # noqa: E402
from triton.experimental.gluon.language.nvidia import blackwell  # noqa: E402

from ..triton_lowering import accelerate_matmul, lowered  # noqa: E402

_OPERAND = "#ttg.dot_op<{{{{opIdx = {op}, parent = #blocked}}}}>"
_DOT = ("#blocked = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
        "warpsPerCTA = [1, {w}], order = [1, 0]}}>\n"
        'module attributes {{"ttg.target" = "cuda:{sm}", "ttg.num-ctas" = 1 : i32, '
        '"ttg.num-warps" = {w} : i32, "ttg.threads-per-warp" = 32 : i32}} {{\n'
        "  tt.func public @f(%a: tensor<{m}x{k}x{t}, A>, %b: tensor<{k}x{n}x{t}, B>)\n"
        "      -> tensor<{m}x{n}x{acc}, #blocked> {{\n"
        "    %c = arith.constant dense<0{zero}> : tensor<{m}x{n}x{acc}, #blocked>\n"
        "    %d = tt.dot %a, %b, %c{prec} : tensor<{m}x{k}x{t}, A> * tensor<{k}x{n}x{t}, B>\n"
        "      -> tensor<{m}x{n}x{acc}, #blocked>\n"
        "    tt.return %d : tensor<{m}x{n}x{acc}, #blocked>\n  }}\n}}\n"
        ).replace("A>", _OPERAND.format(op=0) + ">").replace("B>", _OPERAND.format(op=1) + ">")


def _accelerate(sm: int, dtype: str, m: int, n: int, k: int, warps: int) -> str:
    acc, zero = ("i32", "") if dtype == "i8" else ("f32", ".000000e+00")
    prec = ", inputPrecision = tf32" if dtype == "f32" else ""
    return accelerate_matmul(_DOT.format(sm=sm, t=dtype, m=m, n=n, k=k, w=warps, acc=acc, zero=zero,
                                         prec=prec))


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",")]


def _distributed(ll) -> dict:
    out = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases}
    return {k: v for k, v in out.items() if v}


def _check(out: str, counts: collections.Counter) -> None:
    """Every MMA / dot-operand / NVMMA-shared / tensor-memory layout in ``out``, with the
    shapes it is used at, against our preset."""
    aliases = dict(re.findall(r"^(#\w+) = (#.*)$", out, re.M))
    for name, attr in aliases.items():
        mma = re.match(r"#ttg.nvidia_mma<\{versionMajor = (\d), versionMinor = 0, warpsPerCTA = "
                       r"\[([\d, ]+)\], instrShape = \[([\d, ]+)\]\}>", attr)
        if mma:
            version, warps, instr = int(mma.group(1)), _ints(mma.group(2)), _ints(mma.group(3))
            parent = ttgl.NVMMADistributedLayout([version, 0], warps, instr)
            for m, n in set(re.findall(rf"tensor<(\d+)x(\d+)x\w+, {name}>", out)):
                shape = (int(m), int(n))
                p = presets.get("triton.nvmma_distributed", version=version, warps_per_cta=tuple(warps),
                                instr_shape=tuple(instr), shape=shape)
                assert to_triton_bases(p.layout, shape) == _distributed(lowered(parent, shape))
                counts["nvmma_distributed"] += 1
            for r, c, op, kw in set(re.findall(
                    rf"tensor<(\d+)x(\d+)x\w+, #ttg.dot_op<{{opIdx = (\d), parent = {name}, "
                    rf"kWidth = (\d+)}}>>", out)):
                shape, op, kw = (int(r), int(c)), int(op), int(kw)
                p = presets.get("triton.dot_operand", operand_index=op, k_width=kw,
                                parent=f"mma_v{version}", warps_per_cta=tuple(warps),
                                instr_shape=tuple(instr), shape=shape)
                obj = ttgl.DotOperandLayout(op, parent, kw)
                assert to_triton_bases(p.layout, shape) == _distributed(lowered(obj, shape))
                counts[f"dot_operand k_width={kw}"] += 1
        shared = re.match(r"#ttg.nvmma_shared<\{swizzlingByteWidth = (\d+), transposed = (\w+), "
                          r"elementBitWidth = (\d+)\}>", attr)
        if shared:
            width, trans, bits = int(shared.group(1)), shared.group(2) == "true", int(shared.group(3))
            obj = ttgl.NVMMASharedLayout(width, bits, transposed=trans)
            for r, c in set(re.findall(rf"memdesc<(\d+)x(\d+)x\w+, {name},", out)):
                shape = (int(r), int(c))
                p = presets.get("triton.nvmma_shared", swizzle_byte_width=width, element_bitwidth=bits,
                                transposed=trans, shape=shape)
                assert to_triton_shared_bases(p.layout, shape) == lowered(obj, shape).offset_bases
                counts[f"nvmma_shared {bits}-bit"] += 1
        tmem = re.match(r"#ttng.tensor_memory_encoding<blockM = (\d+), blockN = (\d+), "
                        r"colStride = (\d+)", attr)
        if tmem:
            block, stride = (int(tmem.group(1)), int(tmem.group(2))), int(tmem.group(3))
            obj = blackwell.TensorMemoryLayout(block, stride)
            for r, c in set(re.findall(rf"memdesc<(\d+)x(\d+)x\w+, {name},", out)):
                shape = (int(r), int(c))
                p = presets.get("triton.tmem", block=block, col_stride=stride, shape=shape)
                ll = lowered(obj, shape)
                want = {"row": ll.rows, "col": ll.cols}
                got = to_triton_bases(p.layout, shape, TMEM_IN_DIMS)
                assert got == {k: v for k, v in want.items() if v}
                counts["tmem"] += 1


DTYPES = ("f16", "bf16", "i8", "f8E4M3FN", "f32")
DOTS = [(16, 16, 16), (64, 128, 32), (128, 64, 64), (256, 32, 16), (16, 64, 32)]


@pytest.mark.parametrize("sm", [80, 90, 100, 120])
def test_the_layouts_triton_picks_per_dtype_equal_our_presets(sm):
    counts: collections.Counter = collections.Counter()
    dots = 0
    for dtype, warps, (m, n, k) in itertools.product(DTYPES, (1, 2, 4, 8), DOTS):
        _check(_accelerate(sm, dtype, m, n, k, warps), counts)
        dots += 1
    assert dots == 100
    assert counts["nvmma_distributed"] >= 60, counts  # every dot has an MMA (or tcgen05) layout
    if sm == 80:  # mma.sync: kWidth = 32 bits / element bits (tf32: 1, 16-bit: 2, 8-bit: 4)
        assert {"dot_operand k_width=1", "dot_operand k_width=2", "dot_operand k_width=4"} <= set(counts)
    if sm == 90:
        assert counts["nvmma_shared 16-bit"] and counts["nvmma_shared 8-bit"], counts
    if sm == 100:
        assert counts["tmem"] >= 20 and counts["nvmma_shared 32-bit"], counts
