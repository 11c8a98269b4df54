"""Gluon kernels that perform a scenario's data movement, compiled by Triton for the
scenario's target on the CPU (``triton.compile`` yields PTX without a GPU), and replayed
(:mod:`.ptx_replay`) to measure what Triton's code costs.

Three kernel shapes, each loading the tile from global memory in the source layout and
ending in a global (or TMA) store, so that nothing is dead code:

* ``convert``: ``ttgl.convert_layout`` from the source to the destination layout
  (Triton's own choice: registers, shuffles or a staging through shared memory);
* ``store``: the tile stored into a shared-memory tile (``allocate_shared_memory``) of a
  given Gluon shared layout, then one TMA store (``tma.async_store``) on sm_90+;
* ``load``: the tile stored to shared memory by a coalesced blocked layout, then loaded
  into the destination layout (``.load(layout)``) -- only the load side is the scenario.

Importing this module needs Triton; the suite imports it only where Triton is installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import triton
import triton._C.libtriton.gluon_ir as gluon_ir
import triton._C.libtriton.ir as ir
from triton.backends.compiler import GPUTarget
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon._runtime import GluonASTSource
from triton.experimental.gluon.language._layouts import SharedLayout
from triton.experimental.gluon.language.nvidia import blackwell
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, tma

import tilelayout as tl
from tilelayout.core.dtypes import dtype_bits
from tilelayout.interop.triton import from_triton_bases, to_triton_bases
from tilelayout.interop.triton_shared import from_triton_shared, to_triton_shared

from .ptx_replay import Replay, replay

GLUON_DTYPE = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "e4m3": "fp8e4nv",
               "int8": "i8", "int64": "i64"}


@dataclass(frozen=True)
class Compiled:
    """Triton's code for a scenario: its PTX replayed, its shared-memory allocation."""

    replay: Replay
    smem_bytes: int
    ptx: str


def distributed(text: str, shape) -> Any:
    """Our register layout as a Gluon ``DistributedLinearLayout`` (exactly the same)."""
    b = to_triton_bases(tl.parse(text), shape)
    return ttgl.DistributedLinearLayout(b.get("register", []), b.get("lane", []),
                                        b.get("warp", []), [], list(shape))


def shared(spec: Any, text: str | None, shape) -> Any:
    """A Gluon shared layout: ``("nvmma", swizzle_bytes, element_bits)`` or our layout."""
    if isinstance(spec, tuple) and spec[0] == "nvmma":
        return ttgl.NVMMASharedLayout(swizzle_byte_width=spec[1], element_bitwidth=spec[2],
                                      rank=len(shape))
    return to_triton_shared(tl.parse(text), shape)


def lowered(layout: Any, shape) -> tl.Layout:
    """Triton's own lowering of a Gluon layout, as our layout (for checking the texts)."""
    if isinstance(layout, SharedLayout):
        return from_triton_shared(layout, shape)
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
    bases = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases}
    return from_triton_bases({k: v for k, v in bases.items() if v}, tuple(shape))


@gluon.jit
def _convert(x_ptr, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr,
             DST: ttgl.constexpr):
    rm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, SRC))
    rn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, SRC))
    x = ttgl.load(x_ptr + rm[:, None] * N + rn[None, :])
    y = ttgl.convert_layout(x, DST)
    sm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, DST))
    sn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, DST))
    ttgl.store(x_ptr + M * N + sm[:, None] * N + sn[None, :], y)


@gluon.jit
def _convert_1d(x_ptr, M: ttgl.constexpr, SRC: ttgl.constexpr, DST: ttgl.constexpr):
    x = ttgl.load(x_ptr + ttgl.arange(0, M, layout=SRC))
    y = ttgl.convert_layout(x, DST)
    ttgl.store(x_ptr + M + ttgl.arange(0, M, layout=DST), y)


@gluon.jit
def _store_tma(x_ptr, desc, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr,
               SH: ttgl.constexpr):
    rm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, SRC))
    rn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, SRC))
    x = ttgl.load(x_ptr + rm[:, None] * N + rn[None, :])
    smem = ttgl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SH, x)
    fence_async_shared()
    tma.async_store(desc, [0, 0], smem)
    tma.store_wait(0)


@gluon.jit
def _load(x_ptr, M: ttgl.constexpr, N: ttgl.constexpr, ROWS: ttgl.constexpr,
          SH: ttgl.constexpr, DST: ttgl.constexpr):
    rm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, ROWS))
    rn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, ROWS))
    x = ttgl.load(x_ptr + rm[:, None] * N + rn[None, :])
    smem = ttgl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SH, x)
    y = smem.load(DST)
    sm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, DST))
    sn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, DST))
    ttgl.store(x_ptr + M * N + sm[:, None] * N + sn[None, :], y)


def _cc(target: str) -> int:
    return int(target.removeprefix("sm_").rstrip("a"))


def compile_scenario(kind: str, src: str, dst: str, shape, dtype: str, target: str,
                     warps: int, smem_spec: Any = None) -> Compiled:
    """Compile the ``kind`` kernel (see the module doc) for ``target`` and replay it."""
    if kind == "convert":
        return compile_convert(distributed(src, shape), distributed(dst, shape), shape, dtype,
                               target, warps)
    shape = list(shape)
    ty = GLUON_DTYPE[dtype]
    sig = {"x_ptr": f"*{ty}", "M": "constexpr", "N": "constexpr"}
    consts: dict[str, Any] = {"M": shape[0], "N": shape[1]}
    if kind == "store":
        fn = _store_tma
        sh = shared(smem_spec, dst, shape)
        sig.update(desc=f"tensordesc<{ty}[{shape[0]}, {shape[1]}],{sh!r}>", SRC="constexpr",
                   SH="constexpr")
        consts.update(SRC=distributed(src, shape), SH=sh)
    elif kind == "load":
        fn = _load
        vec = max(1, 128 // dtype_bits(dtype))  # 16-byte rows: a coalesced store
        across = min(32, shape[1] // vec)
        rows = ttgl.BlockedLayout([1, vec], [32 // across, across], [warps, 1], [1, 0])
        sig.update(ROWS="constexpr", SH="constexpr", DST="constexpr")
        consts.update(ROWS=rows, SH=shared(smem_spec, src, shape), DST=distributed(dst, shape))
    else:
        raise ValueError(f"unknown kernel kind {kind!r}")
    ptx, smem = _ptx(fn, sig, consts, target, warps)
    return Compiled(replay(ptx), smem, ptx)


def compile_convert(src: Any, dst: Any, shape, dtype: str, target: str, warps: int) -> Compiled:
    """The ``convert`` kernel between two Gluon distributed layouts of a rank-1 or rank-2
    tensor of ``shape``, compiled for ``target`` with ``warps`` warps and replayed."""
    ptx, smem = convert_ptx(src, dst, shape, dtype, target, warps)
    return Compiled(replay(ptx), smem, ptx)


def convert_ptx(src: Any, dst: Any, shape, dtype: str, target: str, warps: int
                ) -> tuple[str, int]:
    """The ``convert`` kernel's PTX and shared-memory allocation (bytes), not replayed."""
    shape = list(shape)
    sig = {"x_ptr": f"*{GLUON_DTYPE[dtype]}", "M": "constexpr", "SRC": "constexpr",
           "DST": "constexpr"}
    consts: dict[str, Any] = {"M": shape[0], "SRC": src, "DST": dst}
    if len(shape) == 2:
        sig["N"], consts["N"] = "constexpr", shape[1]
    elif len(shape) != 1:
        raise ValueError(f"the convert kernel is rank 1 or 2; shape {shape}")
    return _ptx(_convert if len(shape) == 2 else _convert_1d, sig, consts, target, warps)


def _ptx(fn: Any, sig: dict, consts: dict, target: str, warps: int) -> tuple[str, int]:
    source = GluonASTSource(fn=fn, signature=sig, constexprs=consts)
    c = triton.compile(source, target=GPUTarget("cuda", _cc(target), 32),
                       options={"num_warps": warps})
    return c.asm["ptx"], int(c.metadata.shared)


def gluon_layout(spec: tuple, shape) -> Any:
    """A Gluon layout from a scenario's spec (see ``suite.Scenario.gluon_src``)."""
    kind = spec[0]
    if kind == "tmem":  # the registers of a tcgen05.ld of a 4-warp accumulator tile
        layout = blackwell.TensorMemoryLayout(block=tuple(shape), col_stride=1)
        ty = blackwell.tensor_memory_descriptor_type(ttgl.float32, list(shape), layout,
                                                     list(shape))
        return ty.get_reg_layout(num_warps=4, instr_variant=spec[1])
    if kind == "blocked":
        return ttgl.BlockedLayout(list(spec[1]), list(spec[2]), list(spec[3]), list(spec[4]))
    if kind == "mma":
        return ttgl.NVMMADistributedLayout(version=[spec[1], 0], warps_per_cta=[4, 1],
                                           instr_shape=list(spec[2]))
    if kind == "dot":
        return ttgl.DotOperandLayout(spec[1], gluon_layout(spec[2], shape), spec[3])
    if kind == "nvmma":
        return ttgl.NVMMASharedLayout(swizzle_byte_width=spec[1], element_bitwidth=spec[2],
                                      rank=len(shape))
    raise ValueError(f"unknown Gluon layout spec {spec!r}")
