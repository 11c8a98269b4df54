"""The TMA side as CUDA: the store's fence, barrier and bulk tensor store, executed by
the interpreter (the event carries the tensor map, the coordinates and the tile the
threads wrote); the load compiles for sm_90a."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_tma import emit_tma
from tilelayout.planning.code.tma_program import tma_program

from ...ptx import toolchain
from ...ptx.driver import execute
from .emitted import inputs

WRAPPER = '''
extern "C" __global__ void tma_kernel(const float* in, const __grid_constant__ CUtensorMap map) {{
  extern __shared__ __align__(1024) unsigned char smem[];
  float src[{n}];
#pragma unroll
  for (int i = 0; i < {n}; ++i) src[i] = in[threadIdx.x * {n} + i];
  epi(src, nullptr, smem);
  epi_tma_store(smem, &map, 3, 5);
}}
'''


def need_nvcc() -> None:
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")


@pytest.mark.parametrize("endpoint", ["tma", "tma:order=col", "tma:swizzle=64B"])
def test_the_tma_store_moves_the_tile_the_threads_wrote(endpoint):
    need_nvcc()
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", endpoint, dtype="bfloat16",
                           target="sm_90a")
    prog = p._program
    ptx = toolchain.compile_ptx(p.code(name="epi") + WRAPPER.format(n=prog.src_slots), "sm_90a")
    x, _, want = inputs(p, prog, 0)
    r = execute(ptx, "tma_kernel", prog.threads, [x.view(np.float32), b"\x01" * 128],
                prog.smem_bytes)
    t = tma_program(p)
    assert len(r.events) == len(t.boxes)
    for ev, box in zip(r.events, t.boxes, strict=True):
        assert ev.op == "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"
        assert ev.threads == (0,)
        # coordinates innermost first: the tile's origin (3, 5) plus the box's
        assert ev.operands["coords"] == [[(3, 5)[d] + box.coords[d] for d in t.dims]]
        assert ev.operands["smem"] == [box.offset]
        assert (ev.operands["shared"][:prog.smem_bytes].view(np.uint16) == want).all()


def test_the_host_side_encoding_is_written_beside_it():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    text = "\n".join(emit_tma(tma_program(p), "epi", 128))
    for part in ("cuTensorMapEncodeTiled", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
                 "boxDim {64, 64}", "CU_TENSOR_MAP_SWIZZLE_128B", "1024-byte aligned",
                 "fence.proxy.async.shared::cta", "cp.async.bulk.wait_group.read 0"):
        assert part in text


def test_the_tma_load_compiles():
    need_nvcc()
    p = tl.plan_conversion("tma", "preset:wgmma.m64nNk16.D:n=128", dtype="bfloat16",
                           target="sm_90a")
    text = p.code(name="prologue")
    assert "prologue_tma_load" in text and "mbarrier.try_wait.parity" in text
    ptx = toolchain.compile_ptx(text + '''
extern "C" __global__ void k(const __grid_constant__ CUtensorMap map, __nv_bfloat16* out) {
  extern __shared__ __align__(1024) unsigned char smem[];
  __shared__ uint64_t bar;
  prologue_tma_load(smem, &map, &bar, 0, 0, 0);
  __nv_bfloat16 dst[64];
  prologue(nullptr, dst, smem);
  for (int i = 0; i < 64; ++i) out[threadIdx.x * 64 + i] = dst[i];
}
''', "sm_90a")
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" \
        in ptx
