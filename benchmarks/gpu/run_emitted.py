"""Run emitted conversion kernels on a real GPU: check, time, and read the bank counters.

Usage (from the project root, with the project's environment)::

    .venv/bin/python benchmarks/gpu/run_emitted.py DIR_OR_FILES... [--launches 200]
        [--arch sm_90a] [--compile-only] [--no-ncu]

Each ``.cu`` file is one translation unit as ``ConversionPlan.code(lang="cuda",
harness=True)`` writes it (SPEC section 8): ``__device__ void NAME(const SRC_T* src,
DST_T* dst, unsigned char* smem)`` and ``extern "C" __global__ void NAME_kernel(const
SRC_T* in, DST_T* out)``, with one line saying how it is launched::

    // harness: threads=128 smem_bytes=4096 src_slots=8 dst_slots=8

A unit whose source is a TMA load takes ``NAME_kernel(const SRC_T* in, DST_T* out, const
__grid_constant__ CUtensorMap tensor_map)``, ``in`` being the global tile, and one more
line with what the host encodes::

    // harness tensor map: type=CU_TENSOR_MAP_DATA_TYPE_UINT8 dims=16,16 strides=16
    //   box=16,16 swizzle=CU_TENSOR_MAP_SWIZZLE_NONE        (on one line)

Its host program encodes that map over ``in`` with ``cuTensorMapEncodeTiled`` (from the
driver, through ``cudaGetDriverEntryPointByVersion``: nothing to link), passes it to
both kernels, and its timed call includes the TMA load.

For every unit the script builds a host program with nvcc (the unit, a timing kernel
that calls ``NAME`` between two ``clock64()`` reads and writes each warp's cycles, and a
``main`` that launches them), runs it, and prints one line per unit: whether the GPU's
``out`` equals the PTX interpreter's (tests/ptx, the CPU proof), the median time of
``--launches`` launches of ``NAME_kernel`` (CUDA events), the median cycles per warp of
the timed call, and -- where Nsight Compute's ``ncu`` is on PATH -- its shared-memory
wavefronts and bank conflicts for loads and stores. It exits non-zero when an output
differs.

Without a GPU it prints one line saying so and exits 0 (``--compile-only`` still builds
the host programs, which needs no GPU: the test suite uses it to check them).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.ptx import toolchain  # noqa: E402
from tests.ptx.async_proxy import TensorMap  # noqa: E402
from tests.ptx.driver import run_convert  # noqa: E402

HARNESS = re.compile(r"//\s*harness:\s*(.*)")
SIGNATURE = re.compile(r'extern\s+"C"\s+__global__\s+void\s+(\w+)_kernel\s*\(\s*const\s+([\w:]+)\s*\*'
                       r"\s*\w+\s*,\s*([\w:]+)\s*\*\s*\w+\s*"
                       r"(,\s*const\s+__grid_constant__\s+CUtensorMap\s+\w+\s*)?\)")
TENSOR_MAP = re.compile(r"//\s*harness tensor map:\s*type=(CU_TENSOR_MAP_DATA_TYPE_\w+)\s+"
                        r"dims=([\d,]+)\s+strides=([\d,]+|-)\s+box=([\d,]+)\s+"
                        r"swizzle=(CU_TENSOR_MAP_SWIZZLE_\w+)")
#: CUDA type -> (numpy storage type, values that are exact in the type)
TYPES = {
    "float": (np.float32, lambda n: (np.arange(n) % 2048 - 1024).astype(np.float32) * 0.5),
    "__half": (np.uint16, lambda n: ((np.arange(n) % 2048 - 1024) * 0.5).astype(np.float16)
               .view(np.uint16)),
    "__nv_bfloat16": (np.uint16, lambda n: ((np.arange(n) % 256 - 128).astype(np.float32)
                                            .view(np.uint32) >> 16).astype(np.uint16)),
    "__nv_fp8_e4m3": (np.uint8, lambda n: (np.arange(n) % 0x7E).astype(np.uint8)),
    "__nv_fp8_e5m2": (np.uint8, lambda n: (np.arange(n) % 0x7B).astype(np.uint8)),
    "int8_t": (np.int8, lambda n: (np.arange(n) % 256 - 128).astype(np.int8)),
    "uint8_t": (np.uint8, lambda n: (np.arange(n) % 256).astype(np.uint8)),
    "int32_t": (np.int32, lambda n: np.arange(n, dtype=np.int32) * 7 - 3),
    "uint32_t": (np.uint32, lambda n: np.arange(n, dtype=np.uint32) * 0x01010101),
    "uint16_t": (np.uint16, lambda n: np.arange(n, dtype=np.uint16)),
}
NCU_METRICS = ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
               "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")


@dataclass(frozen=True)
class Unit:
    path: Path
    name: str
    src_t: str
    dst_t: str
    threads: int
    smem_bytes: int
    src_slots: int
    dst_slots: int
    #: a TMA source: what the host encodes (its ``harness tensor map`` line), else None
    tensor_map: TensorMapSpec | None = None


@dataclass(frozen=True)
class TensorMapSpec:
    """A ``cuTensorMapEncodeTiled`` call over the global tile ``in``: dims innermost
    first, the byte strides of dims 1.., the box, the data type and swizzle names."""

    data_type: str
    dims: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    swizzle: str

    @property
    def elements(self) -> int:
        return int(np.prod(self.dims))


def _numbers(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(x) for x in text.split(","))


def read_unit(path: Path) -> Unit:
    text = path.read_text()
    sig = SIGNATURE.search(text)
    har = HARNESS.search(text)
    if not sig or not har:
        raise SystemExit(f"{path}: expected an extern \"C\" NAME_kernel(const SRC_T* in, DST_T* "
                         f"out) and a '// harness: threads=... smem_bytes=... src_slots=... "
                         f"dst_slots=...' line")
    kv = dict(re.findall(r"(\w+)=(\d+)", har.group(1)))
    need = ("threads", "smem_bytes", "src_slots", "dst_slots")
    if any(k not in kv for k in need):
        raise SystemExit(f"{path}: the harness line needs {', '.join(need)}, got {har.group(1)!r}")
    for t in (sig.group(2), sig.group(3)):
        if t not in TYPES:
            raise SystemExit(f"{path}: element type {t} is not one of {sorted(TYPES)}")
    spec = None
    if sig.group(4):  # a TMA source: the map the host encodes
        m = TENSOR_MAP.search(text)
        if m is None:
            raise SystemExit(f"{path}: its NAME_kernel takes a CUtensorMap, but the unit has no "
                             f"'// harness tensor map: type=... dims=... strides=... box=... "
                             f"swizzle=...' line")
        spec = TensorMapSpec(m.group(1), _numbers(m.group(2)), _numbers(m.group(3)),
                             _numbers(m.group(4)), m.group(5))
    return Unit(path, sig.group(1), sig.group(2), sig.group(3),
                *(int(kv[k]) for k in need), tensor_map=spec)


def _timed_kernel(u: Unit) -> str:
    """``tl_timed``: the unit's ``NAME`` between two ``clock64()`` reads (a TMA source: its
    ``NAME_tma_load`` too, behind an mbarrier initialized as the test kernel does)."""
    extra = ", const __grid_constant__ CUtensorMap tensor_map" if u.tensor_map else ""
    head = f'''extern "C" __global__ void tl_timed(const {u.src_t}* in, {u.dst_t}* out,
                                    long long* cycles{extra}) {{
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  {u.dst_t} dst[{u.dst_slots}];
  const unsigned t = threadIdx.x;
  for (int j = 0; j < {u.dst_slots}; ++j) dst[j] = out[t * {u.dst_slots} + j];'''
    if u.tensor_map is None:
        return head + f'''
  {u.src_t} src[{u.src_slots}];
  for (int i = 0; i < {u.src_slots}; ++i) src[i] = in[t * {u.src_slots} + i];
  __syncthreads();
  const long long t0 = clock64();
  {u.name}(src, dst, tl_smem);'''
    origins = ", ".join("0" for _ in u.tensor_map.dims)
    return head + f'''
  __shared__ uint64_t tl_barrier;
  if (t == 0) {{
    const uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&tl_barrier));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }}
  __syncthreads();
  const long long t0 = clock64();
  {u.name}_tma_load(tl_smem, &tensor_map, &tl_barrier, 0, {origins});
  {u.name}(nullptr, dst, tl_smem);'''


def _encode(tm: TensorMapSpec | None) -> str:
    """``main``'s encoding of the tensor map over ``d_in`` (cuTensorMapEncodeTiled, taken
    from the driver at run time), or nothing."""
    if tm is None:
        return ""
    rank = len(tm.dims)

    def arr(xs) -> str:
        return ", ".join(str(x) for x in xs)

    return f'''  CUtensorMap tensor_map;
  {{
    typedef CUresult (*Encode)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                               const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                               const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                               CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                           cudaEnableDefault, &found));
    if (fn == nullptr || found != cudaDriverEntryPointSuccess) {{
      std::fprintf(stderr, "cuTensorMapEncodeTiled: not in this driver\\n"); return 2; }}
    const cuuint64_t dims[] = {{{arr(tm.dims)}}};
    const cuuint64_t strides[] = {{{arr(tm.strides + (0,))}}};  // dims 1.. (a 0 pads rank 1)
    const cuuint32_t box[] = {{{arr(tm.box)}}};
    const cuuint32_t element_strides[] = {{{arr(1 for _ in tm.dims)}}};
    const CUresult r = reinterpret_cast<Encode>(fn)(&tensor_map, {tm.data_type}, {rank}, d_in,
        dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, {tm.swizzle},
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {{
      std::fprintf(stderr, "cuTensorMapEncodeTiled: error %d\\n", static_cast<int>(r)); return 2; }}
  }}
'''


def host_program(u: Unit) -> str:
    """The unit plus a timing kernel and a main(): ``prog IN OUT LAUNCHES`` reads IN,
    writes OUT (NAME_kernel's output) and prints one JSON line of timings (a TMA source:
    the tensor map encoded over ``in``, passed to both kernels)."""
    tm = u.tensor_map
    timed, encode, arg = _timed_kernel(u), _encode(tm), ", tensor_map" if tm else ""
    in_elems = tm.elements if tm else u.threads * u.src_slots
    return f"""#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "{u.path.resolve()}"

{timed}
  __syncthreads();
  const long long t1 = clock64();
  for (int j = 0; j < {u.dst_slots}; ++j) out[t * {u.dst_slots} + j] = dst[j];
  if (t % 32 == 0) cycles[t / 32] = t1 - t0;
}}

#define CHECK(x) do {{ cudaError_t e = (x); if (e != cudaSuccess) {{ \\
  std::fprintf(stderr, "%s: %s\\n", #x, cudaGetErrorString(e)); return 2; }} }} while (0)

int main(int argc, char** argv) {{
  if (argc != 4) {{ std::fprintf(stderr, "usage: %s IN OUT LAUNCHES\\n", argv[0]); return 2; }}
  const size_t in_bytes = {in_elems} * sizeof({u.src_t});
  const size_t out_bytes = {u.threads * u.dst_slots} * sizeof({u.dst_t});
  const int launches = std::atoi(argv[3]);
  const int warps = {u.threads // 32};
  std::vector<unsigned char> in(in_bytes), out(out_bytes);
  FILE* f = std::fopen(argv[1], "rb");
  if (!f || std::fread(in.data(), 1, in_bytes, f) != in_bytes) return 3;
  if (std::fread(out.data(), 1, out_bytes, f) != out_bytes) return 3;
  std::fclose(f);
  void *d_in, *d_out, *d_init; long long* d_cycles;
  CHECK(cudaMalloc(&d_in, in_bytes)); CHECK(cudaMalloc(&d_out, out_bytes));
  CHECK(cudaMalloc(&d_init, out_bytes)); CHECK(cudaMalloc(&d_cycles, warps * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, in.data(), in_bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_init, out.data(), out_bytes, cudaMemcpyHostToDevice));
{encode}  CHECK(cudaFuncSetAttribute({u.name}_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             {u.smem_bytes}));
  CHECK(cudaFuncSetAttribute(tl_timed, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             {u.smem_bytes}));
  CHECK(cudaMemcpy(d_out, d_init, out_bytes, cudaMemcpyDeviceToDevice));
  {u.name}_kernel<<<1, {u.threads}, {u.smem_bytes}>>>(
      static_cast<const {u.src_t}*>(d_in), static_cast<{u.dst_t}*>(d_out){arg});
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
  f = std::fopen(argv[2], "wb");
  std::fwrite(out.data(), 1, out_bytes, f);
  std::fclose(f);
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a)); CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  std::vector<std::vector<long long>> cycles(warps);
  std::vector<long long> c(warps);
  for (int k = 0; k < launches; ++k) {{
    CHECK(cudaEventRecord(a));
    {u.name}_kernel<<<1, {u.threads}, {u.smem_bytes}>>>(
        static_cast<const {u.src_t}*>(d_in), static_cast<{u.dst_t}*>(d_out){arg});
    CHECK(cudaEventRecord(b)); CHECK(cudaEventSynchronize(b));
    float t; CHECK(cudaEventElapsedTime(&t, a, b)); ms.push_back(t);
    CHECK(cudaMemcpy(d_out, d_init, out_bytes, cudaMemcpyDeviceToDevice));
    tl_timed<<<1, {u.threads}, {u.smem_bytes}>>>(static_cast<const {u.src_t}*>(d_in),
        static_cast<{u.dst_t}*>(d_out), d_cycles{arg});
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), d_cycles, warps * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w) cycles[w].push_back(c[w]);
  }}
  std::sort(ms.begin(), ms.end());
  std::printf("{{\\"median_us\\": %.3f, \\"cycles\\": [", 1000.0 * ms[ms.size() / 2]);
  for (int w = 0; w < warps; ++w) {{
    std::sort(cycles[w].begin(), cycles[w].end());
    std::printf("%s%lld", w ? ", " : "", cycles[w][cycles[w].size() / 2]);
  }}
  std::printf("]}}\\n");
  return 0;
}}
"""


def build(u: Unit, arch: str, workdir: Path) -> Path:
    nvcc = toolchain.tools().need("nvcc")
    src = workdir / f"{u.name}_host.cu"
    src.write_text(host_program(u))
    exe = workdir / f"{u.name}_host"
    done = subprocess.run([str(nvcc), f"-arch={arch}", "-std=c++17", "-O3", str(src), "-o",
                           str(exe)], capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(f"{u.path}: nvcc could not build the host program:\n{done.stderr}")
    return exe


def gpu_present() -> str | None:
    """The first GPU's name, or None."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    gpus = [ln for ln in done.stdout.splitlines() if ln.startswith("GPU ")]
    return gpus[0] if done.returncode == 0 and gpus else None


def inputs(u: Unit) -> tuple[np.ndarray, np.ndarray]:
    src_np, make = TYPES[u.src_t]
    dst_np, _ = TYPES[u.dst_t]
    n = u.tensor_map.elements if u.tensor_map else u.threads * u.src_slots
    x = np.asarray(make(n)).astype(src_np)
    out = np.full(u.threads * u.dst_slots * np.dtype(dst_np).itemsize, 0xA5, np.uint8).view(dst_np)
    return x, out


def ncu_counters(exe: Path, files: list[str]) -> dict[str, float] | None:
    ncu = shutil.which("ncu")
    if ncu is None:
        return None
    done = subprocess.run([ncu, "--csv", "--metrics", ",".join(NCU_METRICS), "-k",
                           "regex:_kernel$", "-c", "1", str(exe), *files, "1"],
                          capture_output=True, text=True, timeout=600)
    out: dict[str, float] = {}
    for line in done.stdout.splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        for m in NCU_METRICS:
            value = cells[-1].strip('"').replace(",", "")
            if m in cells and re.fullmatch(r"[\d.]+", value):
                out[m] = float(value)
    return out or None


def interpreted(u: Unit, x: np.ndarray, out0: np.ndarray, arch: str):
    """The PTX interpreter's run of ``NAME_kernel`` on the same input (the CPU proof's
    answer the GPU's output must equal; a TMA source through a model of its map)."""
    tm = u.tensor_map
    model = None if tm is None else TensorMap(x, tm.dims, tm.strides, tm.box, x.dtype.itemsize,
                                              tm.swizzle)
    return run_convert(u.path.read_text(), u.name, u.threads, x, out0, u.smem_bytes, arch,
                       tensor_map=model)


def run_unit(u: Unit, arch: str, launches: int, workdir: Path, use_ncu: bool) -> bool:
    exe = build(u, arch, workdir)
    x, out0 = inputs(u)
    fin, fout = workdir / f"{u.name}.in", workdir / f"{u.name}.out"
    fin.write_bytes(x.tobytes() + out0.tobytes())
    done = subprocess.run([str(exe), str(fin), str(fout), str(launches)], capture_output=True,
                          text=True, timeout=600)
    if done.returncode:
        print(f"{u.name}: the GPU run failed: {done.stderr.strip()}")
        return False
    timing = json.loads(done.stdout.strip().splitlines()[-1])
    got = np.frombuffer(fout.read_bytes(), out0.dtype)
    cpu = interpreted(u, x, out0, arch)
    ok = bool(np.array_equal(got.view(np.uint8), cpu.buffers[1].view(np.uint8)))
    line = (f"{u.name}: {'ok' if ok else 'OUTPUT DIFFERS from the interpreter'}, "
            f"{timing['median_us']:.2f} us median of {launches} launches, "
            f"{statistics.median(timing['cycles']):.0f} cycles per warp (median; per warp "
            f"{timing['cycles']}), interpreter: {cpu.counts.wavefronts} wavefronts")
    if use_ncu and (c := ncu_counters(exe, [str(fin), str(workdir / 'ncu.out')])):
        line += ", ncu: " + ", ".join(f"{k.split('__')[1]}={v:.0f}" for k, v in c.items())
    print(line)
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", type=Path, help=".cu files or directories of them")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--launches", type=int, default=200)
    ap.add_argument("--compile-only", action="store_true",
                    help="build the host programs, run nothing (no GPU needed)")
    ap.add_argument("--no-ncu", action="store_true")
    args = ap.parse_args(argv)
    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise SystemExit(f"run_emitted: no such file or directory: {', '.join(missing)}")
    files = [f for p in args.paths for f in (sorted(p.glob("*.cu")) if p.is_dir() else [p])]
    units = [read_unit(f) for f in files]
    gpu = gpu_present()
    if gpu is None and not args.compile_only:
        print(f"run_emitted: no GPU here (nvidia-smi lists none); {len(units)} unit(s) not run")
        return 0
    with tempfile.TemporaryDirectory() as d:
        if args.compile_only:
            for u in units:
                build(u, args.arch, Path(d))
            print(f"run_emitted: built {len(units)} host program(s) for {args.arch}; none run")
            return 0
        print(f"run_emitted: {gpu}, {len(units)} unit(s), {args.arch}")
        results = [run_unit(u, args.arch, args.launches, Path(d), not args.no_ncu) for u in units]
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
