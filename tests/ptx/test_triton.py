"""Triton-compiled kernels of the scenario suite (``tests/planning/scenarios``), executed
by the interpreter: the tile arrives exactly where the destination layout puts it, and
the interpreter's wavefronts, shared-memory requests and data-movement counts equal the
address-only replay's (``ptx_replay``) on the same PTX."""

from __future__ import annotations

import numpy as np
import pytest

from .driver import execute, module

pytest.importorskip("triton")

from ..planning.scenarios.suite import SCENARIOS  # noqa: E402
from ..planning.scenarios.triton_kernels import compile_scenario  # noqa: E402

DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": np.uint16, "e4m3": np.uint8,
          "int8": np.int8}
CHOSEN = ("fp16 transpose, one warp (32x32)", "FA3 FP8 P: wgmma D (fp32) -> wgmma A registers "
          "(e4m3)", "CUTLASS sm90 epilogue subtile: wgmma D 64x32 -> bf16 smem, 64B swizzle")


@pytest.mark.parametrize("name", CHOSEN)
def test_triton_kernels_run_exactly_with_the_replays_counts(name):
    s = next(s for s in SCENARIOS if s.name == name)
    c = compile_scenario(s.triton, s.src, s.dst, s.shape, s.dtype, s.target, s.warps, s.smem_spec)
    kname = next(iter(module(c.ptx).kernels))
    params = module(c.ptx).kernels[kname].params
    M, N = s.shape
    x = (np.arange(2 * M * N) % 97).astype(DTYPES[s.dtype])
    args: list = [x]
    for p in params[1:]:
        args.append(b"\0" * p.size if p.size > 8 else np.zeros(16, np.uint8) if p.type in (
            "u64", "b64") else 0)
    r = execute(c.ptx, kname, s.warps * 32, args, smem_bytes=c.smem_bytes)
    rp = c.replay
    assert r.counts.uniform(movement=True) == rp.counts
    assert r.counts.wavefronts == rp.wavefronts and r.counts.ideal == rp.ideal
    assert [a.name for a in r.counts.accesses] == [a.name for a in rp.accesses]
    if s.triton == "convert":  # the kernel stores the converted tile after the input
        assert r.buffers[0][M * N:].tolist() == x[:M * N].tolist()
    else:  # a TMA store of the shared tile: recorded with its tensor map and operands
        (ev,) = r.events
        assert ev.op.startswith("cp.async.bulk.tensor.2d.global.shared::cta")
        assert set(ev.operands["tensor_map"]) == {params[1].name}
        assert ev.operands["coords"] == [[0, 0]] * len(ev.threads)
        tile = ev.operands["shared"][:M * N * 2].view(np.uint16)
        assert sorted(tile.tolist()) == sorted(x[:M * N].tolist())  # every element, swizzled
