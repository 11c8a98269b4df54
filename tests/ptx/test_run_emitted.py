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
