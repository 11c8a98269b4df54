"""Compile a plan's emitted Gluon module inside a test kernel with Triton on the CPU, in a
child process (Triton can abort the process): ``python -m tests.interop.gluon_compile
SPEC.json`` prints one JSON line ``{"ptx": ..., "shared": ...}``.

The spec names the emitted module's file, the function, the kernel kind and the
compile target:

* ``convert``: load the tile from global memory in ``NAME_SRC_LAYOUT``, call ``NAME``,
  store the result (``NAME_DST_LAYOUT``) after the input;
* ``tma``: load it, call ``NAME(x, desc, 0, 0)`` (the TMA store of the tile);
* ``load``: store the tile into a shared buffer of ``NAME_SMEM_LAYOUT`` with a plain
  blocked layout, call ``NAME(smem)``, store the result after the input.

Rank-1 and rank-2 tiles.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path

KERNELS = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
import emitted


@gluon.jit
def _offsets(M: ttgl.constexpr, N: ttgl.constexpr, L: ttgl.constexpr):
    if N == 0:
        return ttgl.arange(0, M, layout=L)
    rm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, L))
    rn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, L))
    return rm[:, None] * N + rn[None, :]


@gluon.jit
def convert_kernel(x_ptr, y_ptr, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr,
                   DST: ttgl.constexpr):
    x = ttgl.load(x_ptr + _offsets(M, N, SRC))
    y = emitted.{name}(x)
    ttgl.store(y_ptr + _offsets(M, N, DST), y)


@gluon.jit
def tma_kernel(x_ptr, desc, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr):
    x = ttgl.load(x_ptr + _offsets(M, N, SRC))
    emitted.{name}(x, desc, 0, 0)


@gluon.jit
def load_kernel(x_ptr, y_ptr, M: ttgl.constexpr, N: ttgl.constexpr, ROWS: ttgl.constexpr,
                SH: ttgl.constexpr, DST: ttgl.constexpr):
    x = ttgl.load(x_ptr + _offsets(M, N, ROWS))
    smem = ttgl.allocate_shared_memory(x_ptr.dtype.element_ty, [M, N], SH, x)
    y = emitted.{name}(smem)
    ttgl.store(y_ptr + _offsets(M, N, DST), y)
'''


def compile_spec(spec: dict) -> dict:
    import triton  # noqa: PLC0415 (the child process's own import)
    from triton.backends.compiler import GPUTarget  # noqa: PLC0415
    from triton.experimental.gluon import language as ttgl  # noqa: PLC0415
    from triton.experimental.gluon._runtime import GluonASTSource  # noqa: PLC0415

    d = Path(tempfile.mkdtemp())
    (d / "emitted.py").write_text(Path(spec["module"]).read_text())
    (d / "kernels.py").write_text(KERNELS.replace("{name}", spec["name"]))
    sys.path.insert(0, str(d))
    kernels = importlib.import_module("kernels")
    emitted = importlib.import_module("emitted")
    up = spec["name"].upper()
    shape = spec["shape"]
    m, n = (shape[0], 0) if len(shape) == 1 else shape
    ty = spec["dtype"]
    consts = {"M": m, "N": n}
    sig = {"x_ptr": f"*{ty}", "M": "constexpr", "N": "constexpr"}
    if spec["kind"] == "convert":
        fn = kernels.convert_kernel
        sig.update(y_ptr=f"*{spec['out_dtype']}", SRC="constexpr", DST="constexpr")
        consts.update(SRC=getattr(emitted, f"{up}_SRC_LAYOUT").value,
                      DST=getattr(emitted, f"{up}_DST_LAYOUT").value)
    elif spec["kind"] == "tma":
        fn = kernels.tma_kernel
        sh = getattr(emitted, f"{up}_SMEM_LAYOUT").value
        sig.update(desc=f"tensordesc<{spec['out_dtype']}[{m}, {n}],{sh!r}>", SRC="constexpr")
        consts.update(SRC=getattr(emitted, f"{up}_SRC_LAYOUT").value)
    else:
        fn = kernels.load_kernel
        vec = max(1, 128 // spec["bits"])
        across = min(32, n // vec)
        rows = ttgl.BlockedLayout([1, vec], [32 // across, across], [spec["warps"], 1], [1, 0])
        sig.update(y_ptr=f"*{ty}", ROWS="constexpr", SH="constexpr", DST="constexpr")
        consts.update(ROWS=rows, SH=getattr(emitted, f"{up}_SMEM_LAYOUT").value,
                      DST=getattr(emitted, f"{up}_DST_LAYOUT").value)
    cc = int(spec["target"].removeprefix("sm_").rstrip("a"))
    c = triton.compile(GluonASTSource(fn=fn, signature=sig, constexprs=consts),
                       target=GPUTarget("cuda", cc, 32), options={"num_warps": spec["warps"]})
    return {"ptx": c.asm["ptx"], "shared": int(c.metadata.shared)}


if __name__ == "__main__":
    print(json.dumps(compile_spec(json.loads(Path(sys.argv[1]).read_text()))))
