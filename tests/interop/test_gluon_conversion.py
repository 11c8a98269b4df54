"""``ConversionPlan.code(lang="gluon")``: the helper's text for every kind of plan, and
the helper compiled by Triton on the CPU (in a child process: Triton can abort) inside a
test kernel whose PTX the interpreter of ``tests/ptx`` executes: the tile arrives where
the destination layout puts it, and the shared-memory wavefronts and bytes are the
plan's (or the difference is listed with its reason)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import tilelayout as tl

pytest.importorskip("triton")

from tilelayout.interop.gluon_conversion import gluon_conversion, gluon_dtype  # noqa: E402

from ..planning.scenarios.suite import SCENARIOS  # noqa: E402
from ..planning.scenarios.suite import plan as scenario_plan  # noqa: E402
from ..ptx.driver import execute, module  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TRITON_TYPES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "e4m3": "fp8e4nv",
                "int8": "i8"}
STORAGE = {"float32": np.float32, "float16": np.float16, "bfloat16": np.uint16,
           "e4m3": np.uint8, "int8": np.int8}
#: scenarios whose Gluon helper differs from the plan in wavefronts or bytes, and why
KNOWN = {
    "Triton V: blocked -> dot operand B, kWidth 2 (fp16)":
        "the plan stages in 4 passes through a quarter of the tile; Gluon allocates the "
        "whole tile (4x the bytes, the same wavefronts)",
}

#: scenarios whose Gluon helper takes fewer wavefronts than the plan claims (never more)
FEWER = {
    "int8 transpose, warpgroup (64x64 blocked)":
        "Triton loads the plan's tile with fewer wavefronts than the bit staging's claim "
        "for the 8-bit matrix forms (96 against 128)",
}


def _compile(p: tl.ConversionPlan, kind: str, name: str = "convert") -> dict:
    with tempfile.TemporaryDirectory() as d:
        mod = Path(d) / "emitted.py"
        mod.write_text(p.code(lang="gluon", name=name))
        spec = {"module": str(mod), "name": name, "kind": kind, "shape": list(p.shape),
                "dtype": TRITON_TYPES[p.held or p.dtype], "out_dtype": TRITON_TYPES[p.dtype],
                "target": p.target if p.target.endswith("a") or p.target == "sm_80" or
                p.target == "sm_89" else p.target + "a",
                "warps": p.threads // 32, "bits": tl.core.dtypes.dtype_bits(p.dtype)}
        (Path(d) / "spec.json").write_text(json.dumps(spec))
        done = subprocess.run([sys.executable, "-m", "tests.interop.gluon_compile",
                               str(Path(d) / "spec.json")], capture_output=True, text=True,
                              cwd=ROOT, timeout=600)
        if done.returncode:
            raise AssertionError(f"Triton failed on the Gluon helper:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])


def _run(p: tl.ConversionPlan, kind: str):
    c = _compile(p, kind)
    kname = next(iter(module(c["ptx"]).kernels))
    params = module(c["ptx"]).kernels[kname].params
    n = int(np.prod(p.shape))
    x = (np.arange(n) % 97 + 1).astype(STORAGE[p.held or p.dtype])
    y = np.zeros(n, STORAGE[p.dtype])
    args: list = [x, y] if kind != "tma" else [x]
    for q in params[len(args):]:
        args.append(b"\0" * q.size if q.size > 8 else 0)
    r = execute(c["ptx"], kname, p.threads, args, smem_bytes=c["shared"])
    return r, c, x


@pytest.mark.parametrize("name", [s.name for s in SCENARIOS if s.triton == "convert"
                                  and scenario_plan(s).mechanism == "shared-memory"])
def test_staged_scenarios_through_gluon_cost_what_the_plan_says(name):
    s = next(s for s in SCENARIOS if s.name == name)
    p = scenario_plan(s)
    r, c, x = _run(p, "convert")
    assert r.buffers[1].tolist() == x.tolist()  # every element where DST puts it
    measured = (r.counts.wavefronts, c["shared"])
    claimed = (p.costs["wavefronts"], p.smem_bytes)
    if name in KNOWN:
        assert measured[0] == claimed[0] and measured[1] == p.costs["passes"] * claimed[1]
    elif name in FEWER:  # Triton's instructions on the plan's layout do better: allowed
        assert measured[0] < claimed[0] and measured[1] == claimed[1], name
    else:
        assert measured == claimed, name


def test_a_tma_store_through_gluon_is_the_plans():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=64", "tma", dtype="bfloat16",
                           target="sm_90a")
    r, c, x = _run(p, "tma")
    (ev,) = r.events
    assert ev.op.startswith("cp.async.bulk.tensor.2d.global.shared::cta")
    assert c["shared"] == p.smem_bytes
    assert sum(int(a.wavefronts.sum()) for a in r.counts.accesses) == p.costs["wavefronts"]
    tile = ev.operands["shared"][:p.smem_bytes].view(np.uint16)
    want = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)  # exact in bf16
    assert sorted(tile.tolist()) == sorted(want.tolist())


def test_a_shared_memory_source_through_gluon_loads_the_plans_way():
    s = next(s for s in SCENARIOS if s.name.startswith("V through ldmatrix.trans"))
    p = scenario_plan(s)
    r, c, x = _run(p, "load")
    assert r.buffers[1].tolist() == x.tolist()
    loads = sum(int(a.wavefronts.sum()) for a in r.counts.accesses
                if a.name.startswith("ld"))
    assert loads == p.costs["load_wavefronts"]


def test_register_plans_say_what_triton_does_instead():
    s = next(s for s in SCENARIOS if s.name.startswith("FA3 FP8 P"))
    text = gluon_conversion(scenario_plan(s), "permute")
    assert "ttgl.convert_layout(x, PERMUTE_DST_LAYOUT)" in text
    assert "8 shfl.sync, 8 selects and 8 byte permutes per warp" in text
    assert "Gluon has no shuffle primitive" in text
    none = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]", None,
                              "float32")
    assert "moves nothing" in none.code(lang="gluon")


def test_the_helper_uses_the_plans_shared_layout():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    text = p.code(lang="gluon", name="epilogue")
    assert "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16" in text
    assert "x = x.to(ttgl.bfloat16)" in text and "tma.async_store(desc" in text
    assert gluon_dtype("e4m3") == "float8e4nv"
    with pytest.raises(tl.LayoutError):
        gluon_dtype("complex64")
    with pytest.raises(ValueError, match="identifier"):
        gluon_conversion(p, "no such")
