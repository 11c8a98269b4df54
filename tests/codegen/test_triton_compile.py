"""The generated Triton functions compile with the installed Triton for an sm90 target
on this CPU-only machine (through PTX to a cubin), called from one kernel over blocks of
indices: forward and inverse of the reference tile, a swizzled shared-memory tile, a
layout with several replicas and a negative stride, and an inverse that needs a search
loop (non-dominant strides)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

import tilelayout as tl
from tilelayout import presets

triton = pytest.importorskip("triton", reason="Triton is the optional 'triton' extra")

LAYOUTS = [
    (presets.get("case.tensor_core_tile").layout, (8, 16)),
    (presets.get("case.swizzle_8x64_float16").layout, (8, 64)),
    (tl.parse("S[(4,8):(-1@laneid,4@laneid)] + R[(2,3):(32@laneid,1@warpid)] + 7"), (4, 8)),
    (tl.parse("S[(3,2,16):(2@TCol,3@TCol,1)]"), (6, 16)),
]


def _module_source() -> str:
    parts = ["import triton", "import triton.language as tl", ""]
    calls = []
    for k, (layout, shape) in enumerate(LAYOUTS):
        fwd = tl.codegen(layout, shape, lang="triton", name=f"fwd{k}")
        inv = tl.codegen(layout, shape, lang="triton", name=f"inv{k}", inverse=True)
        parts += [fwd.split("\n", 2)[2], inv.split("\n", 2)[2]]
        n = layout.size()
        args = [f"(offs % {n}) // {shape[1]}", f"offs % {shape[1]}"]
        if layout.replica_count > 1:
            args.append(f"offs % {layout.replica_count}")
        naxes = len(layout.axes)
        calls += [
            f"    v{k} = fwd{k}({', '.join(args)})",
            f"    acc += inv{k}({', '.join(f'v{k}[{a}]' for a in range(naxes))})",
        ]
    parts += [
        "@triton.jit",
        "def kernel(out_ptr, BLOCK: tl.constexpr):",
        "    offs = tl.arange(0, BLOCK) + tl.program_id(0) * BLOCK",
        "    acc = offs * 0",
        *calls,
        "    tl.store(out_ptr + offs, acc)",
    ]
    return "\n".join(parts) + "\n"


def test_generated_triton_compiles_for_sm90(tmp_path):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    path = tmp_path / "generated_layouts.py"
    path.write_text(_module_source())
    spec = importlib.util.spec_from_file_location("generated_layouts", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["generated_layouts"] = module
    try:
        spec.loader.exec_module(module)
        src = ASTSource(fn=module.kernel, signature={"out_ptr": "*i64", "BLOCK": "constexpr"},
                        constexprs={"BLOCK": 128})
        compiled = triton.compile(src, target=GPUTarget("cuda", 90, 32))
    finally:
        sys.modules.pop("generated_layouts", None)
    assert ".target sm_90" in compiled.asm["ptx"]
    assert len(compiled.asm["cubin"]) > 1000
    assert "scf.for" in compiled.asm["ttir"]  # the search loop of the last inverse survived
