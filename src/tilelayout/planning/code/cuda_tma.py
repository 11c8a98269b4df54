"""The TMA side of a plan (:mod:`.tma_program`) as CUDA: ``NAME_tma_store`` (every
writer's ``fence.proxy.async``, a barrier, one thread's bulk tensor stores, their commit
and wait) or ``NAME_tma_load`` (one thread arms an mbarrier with the bytes and issues the
bulk tensor loads; every thread waits on the barrier's phase), with the host-side
``cuTensorMapEncodeTiled`` parameters in a comment (PTX ISA "cp.async.bulk.tensor",
"fence.proxy.async", "mbarrier"; CUDA driver API ``cuTensorMapEncodeTiled``).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
...                        target="sm_90a")
>>> from .tma_program import tma_program
>>> text = "\\n".join(emit_tma(tma_program(p), "convert", 128))
>>> "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" in text
True
"""

from __future__ import annotations

from .tma_program import TmaProgram


def _encoding(t: TmaProgram) -> list[str]:
    inner = [t.shape[d] for d in t.dims]
    names = ", ".join(f"dim {d}" for d in t.dims)
    strides = []
    acc = t.elem_bytes
    for d in t.dims[:-1]:
        acc *= t.shape[d]
        strides.append(f"{acc} (the tile's extents; your tensor's row pitch)")
    return [
        "// Host side: the tensor map, encoded with cuTensorMapEncodeTiled(&map,",
        f"//   {t.data_type}, rank {len(t.dims)}, global address,",
        f"//   globalDim {{{', '.join(map(str, inner))}}} ({names}: innermost first; your "
        f"tensor's extents, at least the tile's),",
        f"//   globalStrides {{{', '.join(strides) or 'none'}}} in bytes,",
        f"//   boxDim {{{', '.join(str(t.box[d]) for d in t.dims)}}}, elementStrides "
        f"{{{', '.join('1' for _ in t.dims)}}},",
        f"//   CU_TENSOR_MAP_INTERLEAVE_NONE, {t.swizzle}, CU_TENSOR_MAP_L2_PROMOTION_NONE,",
        "//   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); pass it as a __grid_constant__ kernel "
        "parameter.",
        f"// smem must be {t.align}-byte aligned (the swizzle repeats every {t.align} bytes).",
    ]


def _coords(t: TmaProgram, box) -> tuple[str, list[str]]:
    """The instruction's coordinate operands (innermost first) for one box."""
    ops = []
    for d in t.dims:
        off = box.coords[d]
        ops.append(f"origin{d}" + (f" + {off}" if off else ""))
    return "{" + ", ".join(f"%{i + 1}" for i in range(len(ops))) + "}", ops


def emit_tma(t: TmaProgram, name: str, threads: int, barrier: int = 1) -> list[str]:
    """The lines of ``NAME_tma_store`` or ``NAME_tma_load`` (``barrier``: the named
    barrier the threads meet at before the store is issued)."""
    rank = len(t.dims)
    params = ", ".join(f"int origin{d}" for d in range(rank))
    lines = _encoding(t)
    if t.direction == "store":
        lines += [
            f"// The TMA store of the tile {name} wrote: {len(t.boxes)} box(es) of "
            f"{'x'.join(map(str, t.box))}; origin0.. is the tile's first element in the tensor.",
            f"__device__ __forceinline__ void {name}_tma_store(unsigned char* smem, "
            f"const CUtensorMap* tensor_map, {params}) {{",
            "  // the threads' shared-memory writes become visible to the async proxy",
            '  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");',
            f'  asm volatile("bar.sync {barrier}, {threads};" ::: "memory");',
            "  if (threadIdx.x == 0) {",
            "    const uint32_t buffer = static_cast<uint32_t>(__cvta_generic_to_shared(smem));"]
        for box in t.boxes:
            coords, ops = _coords(t, box)
            ins = ", ".join(f'"r"({o})' for o in ops)
            lines.append(f'    asm volatile("cp.async.bulk.tensor.{rank}d.global.shared::cta.'
                         f'bulk_group [%0, {coords}], [%{rank + 1}];" :: '
                         f'"l"(tensor_map), {ins}, "r"(buffer + {box.offset}) : "memory");')
        lines += ['    asm volatile("cp.async.bulk.commit_group;" ::: "memory");',
                  "    // the tile may be written again once TMA has read it",
                  '    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");',
                  "  }",
                  "}"]
        return lines
    total = t.box_bytes * len(t.boxes)
    lines += [
        f"// The TMA load of the tile {name} reads: {len(t.boxes)} box(es) of "
        f"{'x'.join(map(str, t.box))}. mbarrier: a shared",
        "// 8-byte barrier initialized (mbarrier.init) with one arrival; phase: its phase "
        "parity this time.",
        f"__device__ __forceinline__ void {name}_tma_load(unsigned char* smem, "
        f"const CUtensorMap* tensor_map, uint64_t* mbarrier, uint32_t phase, {params}) {{",
        "  const uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(mbarrier));",
        "  if (threadIdx.x == 0) {",
        "    const uint32_t buffer = static_cast<uint32_t>(__cvta_generic_to_shared(smem));",
        f'    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], {total};" :: '
        f'"r"(bar) : "memory");']
    for box in t.boxes:
        coords, ops = _coords(t, box)
        ins = ", ".join(f'"r"({o})' for o in ops)
        lines.append(f'    asm volatile("cp.async.bulk.tensor.{rank}d.shared::cluster.global.'
                     f'tile.mbarrier::complete_tx::bytes [%0], [%1, {coords}], [%{rank + 2}];" :: '
                     f'"r"(buffer + {box.offset}), "l"(tensor_map), {ins}, "r"(bar) : "memory");'
                     .replace(f"[%1, {coords}]", "[%1, {" + ", ".join(
                         f"%{i + 2}" for i in range(rank)) + "}]"))
    lines += ["  }",
              "  // every thread waits until the bytes have landed",
              '  asm volatile("{\\n.reg .pred done;\\nwait:\\n'
              'mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\\n'
              '@!done bra wait;\\n}" :: "r"(bar), "r"(phase) : "memory");',
              "}"]
    return lines


__all__ = ["emit_tma"]
