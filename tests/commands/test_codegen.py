"""`tilelayout codegen`: presets, JSON, one-line refusals."""

from __future__ import annotations

import json

from tests.helpers import run as run_cli

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_preset_inverse_in_cuda_json_and_one_line_refusals():
    run = run_cli("codegen", "--preset", "case.tensor_core_tile", "--lang", "cuda", "--inverse")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("__host__ __device__ inline long long layout_fn(")
    run = run_cli("codegen", "S[(2,2):(0,1)]", "--inverse", "--json")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "share" in run.stderr
    run = run_cli("codegen", REF, "--shape", "8,16", "--lang", "triton", "--json")
    doc = json.loads(run.stdout)
    assert doc["shape"] == [8, 16] and "@triton.jit" in doc["code"]


def test_max_elements_bounds_the_invertibility_scan():
    run = run_cli("codegen", "S[(16,16):(16,1)]", "--inverse", "--max-elements", "100")
    assert run.returncode == 2 and "over the limit of 100" in run.stderr
    assert run_cli("codegen", "S[(16,16):(16,1)]", "--inverse").returncode == 0
