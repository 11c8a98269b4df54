"""benchmarks/gpu/run_emitted.py: without a GPU it prints one line and exits 0; its host
programs (the unit, a clock64 timing kernel, a main) build with nvcc here, no GPU needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from . import toolchain

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "gpu" / "run_emitted.py"
UNITS = Path(__file__).parent / "cuda"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


def test_without_a_gpu_one_line_and_exit_0():
    done = _run(str(UNITS))
    if "no GPU" not in done.stdout:  # a machine with a GPU runs and checks every unit
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.count(": ok,") == len(list(UNITS.glob("*.cu")))
        return
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["run_emitted: no GPU here (nvidia-smi lists none); "
                                        "5 unit(s) not run"]


def test_the_host_program_builds():
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")
    done = _run(str(UNITS / "stmatrix_ldmatrix.cu"), "--compile-only")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "run_emitted: built 1 host program(s) for sm_90a; none run"


def test_a_unit_without_its_harness_line_is_refused(tmp_path):
    bad = tmp_path / "x.cu"
    bad.write_text('extern "C" __global__ void x_kernel(const float* in, float* out) {}\n')
    done = _run(str(bad))
    assert done.returncode != 0 and "harness: threads=" in done.stderr


def _script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_emitted", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["run_emitted"] = mod  # (its dataclasses resolve their module)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("dst,shape,dtype", [
    ("S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]", (16, 16), "int8"),
    ("preset:wgmma.m64nNk16.D:n=128", None, "bfloat16")])
def test_a_tma_source_unit_encodes_its_map_and_the_interpreter_answers_for_it(
        tmp_path, dst, shape, dtype):
    import numpy as np

    import tilelayout as tl

    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")
    p = tl.plan_conversion("tma", dst, shape, dtype, target="sm_90a")
    path = tmp_path / "unit.cu"
    path.write_text(p.code(harness=True))
    run_emitted = _script()
    u = run_emitted.read_unit(path)
    t = p._program.tma
    assert u.tensor_map is not None and u.tensor_map.box == tuple(t.box[d] for d in t.dims)
    assert u.tensor_map.swizzle == t.swizzle and u.tensor_map.elements == int(np.prod(p.shape))
    # the host program (cuTensorMapEncodeTiled from the driver, the map passed to both
    # kernels) builds
    done = _run(str(path), "--compile-only")
    assert done.returncode == 0, done.stderr
    # what the GPU's output is compared with: in is the global tile, dims innermost first
    x, out0 = run_emitted.inputs(u)
    got = run_emitted.interpreted(u, x, out0, "sm_90a").buffers[1]
    units = p._program.dst_units[:, :u.dst_slots]
    coords = np.unravel_index(np.arange(int(np.prod(p.shape))), p.shape)
    pitch = {d: int(np.prod([p.shape[e] for e in t.dims[:k]])) for k, d in enumerate(t.dims)}
    where = sum(c * pitch[d] for d, c in enumerate(coords))
    want = np.where(units >= 0, x[where[np.maximum(units, 0)]], out0.reshape(units.shape))
    assert np.array_equal(got.reshape(units.shape).view(np.uint8), want.view(np.uint8))
