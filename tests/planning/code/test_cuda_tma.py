"""The TMA side as CUDA: the store's fence, barrier and bulk tensor store, executed by
the interpreter (the event carries the tensor map, the coordinates and the tile the
threads wrote); the test kernel of a plan whose source is TMA loads its tile with the
emitted NAME_tma_load, executed through a model of the tensor map, and a wrong model
scrambles the tile."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_tma import emit_tma
from tilelayout.planning.code.tma_program import tma_program

from ...ptx import toolchain
from ...ptx.async_proxy import TensorMap
from ...ptx.driver import execute, run_convert
from ...ptx.errors import DeadlockError
from .emitted import inputs, prove, tma_source

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


@pytest.mark.parametrize("endpoint", ["tma", "tma:order=col", "tma:swizzle=64B",
                                      "tma:swizzle=32B"])
def test_the_harness_loads_the_tile_through_the_tma_load(endpoint):
    need_nvcc()
    p = tl.plan_conversion(endpoint, "preset:wgmma.m64nNk16.D:n=128", dtype="bfloat16",
                           target="sm_90a")
    text = p.code(name="prologue", harness=True)
    assert "const __grid_constant__ CUtensorMap tensor_map" in text
    assert "prologue_tma_load(smem, &tensor_map, &tma_barrier, 0, 0, 0);" in text
    proof = prove(p, "sm_90a", name="prologue")
    assert proof.wrong == 0 and proof.checked == 2 * p.threads * p.dst_slots
    assert proof.measured == proof.claimed
    assert proof.measured["tma boxes"] == p.tma.boxes == len(tma_program(p).boxes)


def test_a_wrong_tensor_map_scrambles_the_tile():
    need_nvcc()
    p = tl.plan_conversion("tma", "preset:wgmma.m64nNk16.D:n=128", dtype="bfloat16",
                           target="sm_90a")
    prog = p._program
    ptx = toolchain.compile_ptx(p.code(name="prologue", harness=True), "sm_90a")
    x, out, want = inputs(p, prog, 0)
    tensor, model = tma_source(prog, x)

    def wrong(m: TensorMap) -> int:
        r = run_convert("", "prologue", prog.threads, tensor, out, prog.smem_bytes,
                        ptx=ptx, tensor_map=m)
        return int((r.buffers[1] != want).sum())

    assert wrong(model) == 0
    assert wrong(dataclasses.replace(model, swizzle="none")) > 0
    # a box of half the bytes: the armed byte count is never reached
    with pytest.raises(DeadlockError, match="mbarrier whose phase can never complete"):
        wrong(dataclasses.replace(model, swizzle="64B", box=(32, 64)))
    # the tile one row further down the tensor: other coordinates' elements
    shifted = np.concatenate([tensor[model.dims[0]:], tensor[:model.dims[0]]])
    assert wrong(dataclasses.replace(model, data=shifted)) > 0
