"""Block-scale-factor presets against Triton's own lowering, on the CPU:

* sm_100 shared memory: Gluon infers the layout of the block-scaled tutorial's 5-D scale
  buffer permuted and reshaped to (rows, groups) (``make_ir`` of a Gluon kernel: tracing
  only, no GPU);
* sm_120 registers: Triton's accelerate-matmul pass on a ``tt.dot_scaled`` module for
  ``cuda:120`` (the layout it converts the scales to);
* AMD: ``gluon_ir.get_amd_mfma_scale_layout`` / ``get_amd_wmma_scale_layout``.
"""

from __future__ import annotations

import itertools
import re

import pytest

from tilelayout import presets
from tilelayout.interop.triton import to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
import triton  # noqa: E402
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler.compiler import ASTSource  # noqa: E402
from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402

from ..triton_lowering import accelerate_matmul  # noqa: E402


def _bases(ll):
    out = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases}
    return {k: [list(v) for v in vs] for k, vs in out.items() if vs}


# --------------------------------------------------------------------------- sm_100 shared


@gluon.jit
def _scales_view(out, RM: gl.constexpr, RK: gl.constexpr):
    raw: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=0, element_bitwidth=8, rank=5)
    chunks = gl.allocate_shared_memory(gl.int8, [RM, RK, 32, 4, 4], raw)
    view = chunks.permute((0, 3, 2, 1, 4)).reshape((RM * 128, RK * 4))
    gl.static_print(view.type.layout)


def _gluon_scales_layout(rep_m: int, rep_k: int, capsys) -> list[list[int]]:
    target = GPUTarget("cuda", 100, 32)
    backend = triton.compiler.make_backend(target)
    options = backend.parse_options({})
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    src = ASTSource(_scales_view, signature={"out": "*i8", "RM": "constexpr", "RK": "constexpr"},
                    constexprs={"RM": rep_m, "RK": rep_k})
    src.make_ir(target, options, backend.get_codegen_implementation(options),
                backend.get_module_map(), ctx)
    printed = capsys.readouterr().out
    found = re.search(r"offset_bases=(\[\[.*?\]\])", printed)
    assert found, printed
    return eval(found.group(1))  # a list literal Gluon printed


def test_tcgen05_scales_shared_equals_gluons_view_of_the_tutorial_chunks(capsys):
    """rows 128..512 x groups 4..16: 9 shapes, offset by offset."""
    count = 0
    for rep_m, rep_k in itertools.product((1, 2, 4), (1, 2, 4)):
        shape = (128 * rep_m, 4 * rep_k)
        p = presets.get("triton.tcgen05_scales_shared", shape=shape)
        assert to_triton_shared_bases(p.layout, shape) == _gluon_scales_layout(rep_m, rep_k, capsys), shape
        count += 1
    assert count == 9


def test_tcgen05_scales_shared_lines_hold_four_row_groups():
    p = presets.get("triton.tcgen05_scales_shared", shape=(256, 8))
    assert dict(p.layout.base((0, 0), shape=(256, 8))) == {"m": 0}
    assert dict(p.layout.base((32, 1), shape=(256, 8))) == {"m": 5}   # line 0, row group 1
    assert dict(p.layout.base((1, 0), shape=(256, 8))) == {"m": 16}   # next 16-byte line
    assert dict(p.layout.base((0, 4), shape=(256, 8))) == {"m": 512}  # next chunk along K
    assert dict(p.layout.base((128, 0), shape=(256, 8))) == {"m": 1024}
    with pytest.raises(presets.PresetError, match="multiple of 128"):
        presets.get("triton.tcgen05_scales_shared", shape=(64, 4))


# --------------------------------------------------------------------------- sm_120 registers

_BLOCKED = ("#ttg.blocked<{{{{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
            "warpsPerCTA = [{wm}, {wn}], order = [{o}]}}}}>")  # formatted twice
_SM120 = ("#blocked = " + _BLOCKED.format(wm=1, wn="{w}", o="1, 0") + "\n"
          "#blocked_k = " + _BLOCKED.format(wm="{w}", wn=1, o="0, 1") + "\n" + """
module attributes {{"ttg.target" = "cuda:120", "ttg.num-ctas" = 1 : i32,
                    "ttg.num-warps" = {w} : i32, "ttg.threads-per-warp" = 32 : i32}} {{
  tt.func public @f(%a: tensor<{m}x{k}xi8, #blocked_k>, %sa: tensor<{m}x{g}xi8, #blocked>,
                    %b: tensor<{k}x{n}xi8, #blocked>, %sb: tensor<{n}x{g}xi8, #blocked>)
      -> tensor<{m}x{n}xf32, #blocked> {{
    %c = arith.constant dense<0.000000e+00> : tensor<{m}x{n}xf32, #blocked>
    %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {{fastMath = false}}
      : tensor<{m}x{k}xi8, #blocked_k>, tensor<{m}x{g}xi8, #blocked>
        * tensor<{k}x{n}xi8, #blocked>, tensor<{n}x{g}xi8, #blocked> -> tensor<{m}x{n}xf32, #blocked>
    tt.return %d : tensor<{m}x{n}xf32, #blocked>
  }}
}}
""")


def _linear(text: str) -> dict[str, list[list[int]]]:
    out = {}
    for name in ("register", "lane", "warp"):
        vecs = re.search(name + r" = (\[[^=]*?\]\])?(\[\])?", text)
        out[name] = eval(vecs.group(1)) if vecs.group(1) else []
    return {k: v for k, v in out.items() if v}


def _sm120_scales(m, n, k, warps):
    """Triton's accelerate-matmul pass for sm_120 on a dot_scaled: the MMA's warps and the
    layouts it gives A's and B's scales."""
    out = accelerate_matmul(_SM120.format(m=m, n=n, k=k, g=k // 32, w=warps))
    mma = re.search(r"#mma = #ttg.nvidia_mma<\{[^}]*warpsPerCTA = \[(\d+), (\d+)\]", out)
    layouts = dict(re.findall(r"^(#linear\d*) = #ttg.linear<\{(.*?)\}>", out, re.M))
    dot = next(line for line in out.splitlines() if "tt.dot_scaled" in line)
    a, b = re.findall(r"<\d+x\d+xi8, (#linear\d*)>", dot.split(" : ", 1)[1])
    return (int(mma.group(1)), int(mma.group(2))), _linear(layouts[a]), _linear(layouts[b])


def test_sm120_scale_equals_tritons_accelerate_matmul():
    """M, N in 16..256 (non-square, smaller than the MMA's warp tile), K 32..256 (1..8
    groups), 1..8 warps: 96 dots, A's and B's scales each."""
    count = 0
    for m, n, k, warps in itertools.product((16, 64, 256), (32, 128), (32, 64, 256, 128),
                                            (1, 2, 4, 8)):
        mma_warps, want_a, want_b = _sm120_scales(m, n, k, warps)
        for op, rows, want in ((0, m, want_a), (1, n, want_b)):
            shape = (rows, k // 32)
            p = presets.get("triton.sm120_scale", operand_index=op, warps_per_cta=mma_warps,
                            shape=shape)
            assert to_triton_bases(p.layout, shape) == want, (m, n, k, warps, op, str(p.layout))
            count += 1
    assert count == 2 * 96


# --------------------------------------------------------------------------- AMD


def test_mfma_scale_equals_triton():
    count = 0
    for op, mdim, tiles, warps, shape in itertools.product(
            (0, 1), (32, 16), [(1, 1), (2, 1), (1, 2), (2, 2)], [(1, 1), (2, 2), (4, 1), (1, 4), (2, 4)],
            [(32, 4), (64, 8), (128, 2), (16, 1), (256, 16)]):
        want = _bases(gluon_ir.get_amd_mfma_scale_layout(op, list(shape), mdim, list(tiles), list(warps)))
        p = presets.get("amd.mfma_scale", operand_index=op, instr_m=mdim, tiles_per_warp=tiles,
                        warps_per_cta=warps, shape=shape)
        assert to_triton_bases(p.layout, shape) == want, (op, mdim, tiles, warps, shape, str(p.layout))
        count += 1
    assert count == 2 * 2 * 4 * 5 * 5


WMMA_PARENTS = [([], [[0, 1], [1, 0]]), ([[1, 0]], [[0, 1], [2, 0]]), ([[0, 1]], [[1, 0]]),
                ([[1, 0], [0, 1]], [[2, 0]]), ([[2, 0]], [[0, 1], [1, 0]]), ([], []),
                ([[0, 2], [1, 0]], [[0, 1], [2, 0], [4, 0]])]


def test_wmma_scale_equals_triton():
    count = 0
    for op, (regs, warps), shape, factor in itertools.product(
            (0, 1), WMMA_PARENTS, [(16, 4), (32, 2), (64, 8), (128, 16), (32, 1), (256, 4)], (16, 32)):
        want = _bases(gluon_ir.get_amd_wmma_scale_layout(op, list(shape), 16, 16, False, factor,
                                                         regs, warps, []))
        p = presets.get("amd.wmma_scale", operand_index=op,
                        reg_bases=tuple(f"{a},{b}" for a, b in regs),
                        warp_bases=tuple(f"{a},{b}" for a, b in warps), scale_factor=factor,
                        shape=shape)
        assert to_triton_bases(p.layout, shape) == want, (op, regs, warps, shape, factor,
                                                          str(p.layout))
        count += 1
    assert count == 2 * 7 * 6 * 2


def test_the_wmma_scale_span_is_the_scaled_instruction_s_k():
    # one lane holds the scales of one gfx1250 scaled WMMA's K (docs/hardware.md): a
    # version-3 K of the WMMA shape table
    from tilelayout.core.wmma_shapes import WMMA_K
    from tilelayout.presets.triton_scales import WMMA_K_ELEMENTS

    assert WMMA_K_ELEMENTS == max(WMMA_K[3])
