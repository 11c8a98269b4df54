"""The emitted CUDA of a fixed, seeded sample of the population (``population.py``: the
whole scenario suite, preset pairs, converted accumulators, random pairs on 1, 4 and 8
warps; int8 to float64), compiled by nvcc for sm_80 / sm_89 / sm_90a / sm_100a (one
nvcc run per target) and executed by the PTX interpreter: 0 wrong elements, and every
count the plan claims is measured, or differs for one of the reasons of
``emitted.REASONS``. The whole population runs from ``benchmarks/bench_emit.py``."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_transpose import PACKING
from tilelayout.planning.code.cuda_unit import code_counts, cuda_unit

from ...ptx import toolchain
from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import plan as scenario_plan
from . import population
from .emitted import REASONS, compile_batch, explain, prove


def need_nvcc() -> None:
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")


def _arch(target: str) -> str:
    return target + "a" if target in ("sm_90", "sm_100") else target


@cache
def sample() -> dict[str, list[tuple[str, tl.ConversionPlan]]]:
    """The fixed sample, by compile target."""
    out: dict[str, list] = {a: [] for a in toolchain.TARGETS}
    for s in SCENARIOS:
        if s.xla is None:
            out[_arch(s.target)].append((f"scenario: {s.name}", scenario_plan(s)))
    targets = toolchain.TARGETS
    for i, (name, a, b, shape) in enumerate(population.preset_pairs()[::23]):
        arch, dtype = targets[i % 4], population.DTYPES[i % 4]
        try:
            out[arch].append((f"{name} ({dtype})", tl.plan_conversion(a, b, shape, dtype,
                                                                      target=arch)))
        except tl.LayoutError:
            continue
    for name, a, b, dtype in population.converted_pairs()[::5]:
        arch = "sm_100a" if "tcgen05" in name else "sm_90a"
        try:
            out[arch].append((name, tl.plan_conversion(a, b, dtype=dtype, target=arch)))
        except tl.LayoutError:
            continue
    # registers only: a swap of two slots, and packed halves / bytes that move inside
    # their thread (byte permutes)
    for i, dtype in enumerate(("float32", "float16", "int8")):
        out[targets[i]].append((f"registers ({dtype})", tl.plan_conversion(
            "S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,-1)] + 3", None, dtype,
            target=targets[i])))
    for i, (name, a, b, shape, dtype) in enumerate(population.random_pairs(24)):
        arch = targets[i % 4]
        out[arch].append((f"{name}: {a} -> {b} ({dtype})",
                          tl.plan_conversion(a, b, shape, dtype, target=arch)))
    return out


@cache
def batch(arch: str) -> str:
    return compile_batch({f"u{i}": p for i, (_, p) in enumerate(sample()[arch])}, arch)


@pytest.mark.parametrize("arch", toolchain.TARGETS)
def test_the_sample_moves_every_element_at_its_claimed_cost(arch):
    need_nvcc()
    ptx = batch(arch)
    assert f".target {arch}" in ptx
    checked = 0
    seen: set[str] = set()
    for i, (label, p) in enumerate(sample()[arch]):
        proof = prove(p, arch, name=f"u{i}", ptx=ptx)
        assert proof.wrong == 0, label
        assert proof.checked > 0, label
        checked += proof.checked
        why = explain(p, proof)
        assert "unexplained" not in why.values(), (label, proof.differences())
        seen |= {r for v in why.values() for r in v.split("+")}
        # what the compiler executed is what the code says: shuffles, and the code's own
        # selects and permutes unless nvcc folded some (never more, but for "keep")
        own = code_counts(p)
        assert proof.measured.get("shfl", 0) == own.get("shfl", 0), label
        if "keep" not in why.get("selp+prmt", ""):
            assert proof.measured.get("selp+prmt", 0) <= own.get("select", 0) + \
                own.get("prmt", 0) + own.get(PACKING, 0), label
    assert checked > 10_000
    assert seen <= set(REASONS)


def test_the_sample_covers_warps_widths_and_mechanisms():
    plans = [p for ps in sample().values() for _, p in ps]
    assert {p.threads // 32 for p in plans} >= {1, 4, 8}
    assert {tl.core.dtypes.dtype_bits(p.dtype) for p in plans} >= {8, 16, 32, 64}
    assert {p.mechanism for p in plans} >= {"none", "registers", "warp-shuffle",
                                            "shared-memory"}
    assert {p.held for p in plans} >= {"float32"}
    assert any(p.tma is not None for p in plans)
    assert any(p._bits is not None for p in plans)


def test_the_unit_is_spec_section_8():
    p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                           "float16")
    text = p.code(name="transpose", harness=True)
    assert "__device__ __forceinline__ void transpose(const __half* src, __half* dst, " \
           "unsigned char* smem)" in text
    assert 'extern "C" __global__ void transpose_kernel(const __half* in, __half* out)' in text
    har = re.search(r"// harness: threads=(\d+) smem_bytes=(\d+) src_slots=(\d+) "
                    r"dst_slots=(\d+)", text)
    assert har and tuple(map(int, har.groups())) == (p.threads, p.smem_bytes, p.src_slots,
                                                     p.dst_slots) == (32, 2048, 32, 32)
    assert "#include <cuda_fp16.h>" in text and "_kernel" not in p.code(name="transpose")
    assert cuda_unit(p, "transpose", True) == text


def test_names_and_languages_are_checked():
    p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1", None,
                           "float32")
    with pytest.raises(ValueError, match="C\\+\\+ identifier"):
        p.code(name="not a name")
    with pytest.raises(tl.LayoutError, match="lang='cuda' or lang='gluon'"):
        p.code(lang="rust")
    with pytest.raises(tl.LayoutError, match="harness=True is for lang='cuda'"):
        p.code(lang="gluon", harness=True)


def test_a_plan_between_devices_has_no_code():
    from tilelayout.interop.jax import from_partition_spec

    mesh = {"x": 2, "y": 4}
    p = tl.plan_conversion(from_partition_spec(("x", None), mesh, (16, 8)),
                           from_partition_spec((None, "x"), mesh, (16, 8)), (16, 8), "float32")
    with pytest.raises(tl.LayoutError) as e:
        p.code()
    assert "between devices" in str(e.value) and "\n" not in str(e.value)


def test_fa3_fp8_permute_is_24_instructions_per_warp_as_in_flashattention3():
    need_nvcc()
    s = next(s for s in SCENARIOS if s.name.startswith("FA3 FP8 P"))
    p = scenario_plan(s)
    proof = prove(p, "sm_90a", sass=True)
    assert proof.wrong == 0
    assert proof.measured == {"shfl": 8, "selp+prmt": 16} == proof.claimed
    assert code_counts(p) == {"shfl": 8, "select": 8, "prmt": 8}
    if proof.sass is not None:  # the machine code: 8 SHFL, 8 PRMT, 8 selects
        assert proof.sass.get("SHFL", 0) == 8 and proof.sass.get("PRMT", 0) == 8


def test_fa3_fp8_permute_with_k_permuted_is_a_renaming_the_code_packs():
    """With ``permute_k`` the D -> A plan keeps every byte in its thread: the code
    delivers the K-permuted destination, charged nothing, and writes the words the
    plan's ``register_repacks`` names as byte permutes."""
    need_nvcc()
    d = "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]"
    a = "S[(4,2,8,4,4,4):(1@warpid,4,4@laneid,8,1@laneid,1)]"
    p = tl.plan_conversion(d, a, (64, 64), "e4m3", target="sm_90a", permute_k=1)
    assert p.kind == "registers" and p.k_order is not None
    assert p.costs["register_repacks"] == 8 and "byte_permutes" not in p.costs
    proof = prove(p, "sm_90a")
    assert proof.wrong == 0 and proof.checked == 2 * 64 * 64
    assert proof.measured == proof.claimed == {}
    assert code_counts(p) == {"prmt": 8}


def test_wgmma_m64n128_bf16_tma_store_is_8_stmatrix_x4_per_warp():
    need_nvcc()
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    proof = prove(p, "sm_90a")
    assert proof.wrong == 0 and proof.checked == 2 * 64 * 128  # two fillings
    assert proof.measured["store:stmatrix.x4"] == 32 == 8 * p.threads // 32
    assert proof.measured == proof.claimed  # 128 wavefronts, 32 cvt.rn.bf16x2.f32 per warp
    assert p.smem_align == 1024 and p.smem_bytes == 16384


def test_unassigned_slots_keep_their_values():
    need_nvcc()
    # the destination holds elements in slots 0 and 2 only: slots 1 and 3 keep the sentinel
    p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,2)]", (32, 2),
                           "float32")
    proof = prove(p, "sm_80")
    assert proof.wrong == 0 and proof.checked == 2 * 64
    assert p.dst_slots == 3 and np.sum(p._program.dst_units >= 0) == 64


def test_emitted_harness_units_build_for_the_gpu_runner(tmp_path):
    """benchmarks/gpu/run_emitted.py builds its host programs from emitted units (the
    GPU path: it runs them where a GPU exists)."""
    need_nvcc()
    import subprocess
    import sys
    from pathlib import Path

    fa3 = scenario_plan(next(s for s in SCENARIOS if s.name.startswith("FA3 FP8 P")))
    tma = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                             target="sm_90a")
    for name, p in (("permute", fa3), ("epilogue", tma)):
        (tmp_path / f"{name}.cu").write_text(p.code(name=name, harness=True))
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "gpu" / "run_emitted.py"),
                           str(tmp_path), "--compile-only"], capture_output=True, text=True,
                          timeout=900, cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "run_emitted: built 2 host program(s) for sm_90a; none run"


def test_the_named_barrier_is_the_callers_choice():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    assert 'bar.sync 1, 128;' in p.code() and "named barrier 1 over the 128" in p.code()
    unit = p.code(barrier=5)
    assert 'bar.sync 5, 128;' in unit and 'bar.sync 1,' not in unit
    assert "named barrier 5 over the 128 threads" in unit
    for bad in (0, 16, "1", True):
        with pytest.raises(tl.LayoutError, match="expected a named barrier id 1..15"):
            p.code(barrier=bad)
