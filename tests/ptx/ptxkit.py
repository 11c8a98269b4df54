"""Hand-written PTX for the interpreter's own tests: a kernel ``k(in, out)`` whose body
the test writes, with the usual registers declared and ``%r1`` = ``%tid.x``, ``%r2`` =
``%laneid``, ``%r10`` = ``in[tid]`` (a 32-bit word), ``%rd4`` / ``%rd5`` the addresses of
``in[tid]`` / ``out[tid]``; the body leaves its answer in ``%r20``, stored to ``out[tid]``.
"""

from __future__ import annotations

import numpy as np

from .driver import Result, execute


def kernel(body: str, threads: int = 32, target: str = "sm_90a", store: bool = True) -> str:
    tail = "\tst.global.u32 [%rd5], %r20;\n" if store else ""
    return (f".version 8.7\n.target {target}\n.address_size 64\n"
            f".extern .shared .align 1024 .b8 smem[];\n"
            f".visible .entry k(.param .u64 k_in, .param .u64 k_out)\n.reqntid {threads}\n{{\n"
            f"\t.reg .b32 %r<100>;\n\t.reg .b64 %rd<40>;\n\t.reg .pred %p<16>;\n"
            f"\t.reg .b16 %rs<20>;\n\t.reg .f32 %f<20>;\n"
            f"\tld.param.u64 %rd1, [k_in];\n\tld.param.u64 %rd2, [k_out];\n"
            f"\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %laneid;\n"
            f"\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
            f"\tadd.s64 %rd5, %rd2, %rd3;\n\tld.global.u32 %r10, [%rd4];\n"
            f"{body}\n{tail}\tret;\n}}\n")


def run(body: str, x: np.ndarray | None = None, threads: int = 32, smem: int = 0,
        out_words: int | None = None, target: str = "sm_90a", store: bool = True,
        max_steps: int = 20_000) -> Result:
    """Run ``body`` with ``in`` = ``x`` (uint32 words, default: 0, 1, 2, ...)."""
    if x is None:
        x = np.arange(threads, dtype=np.uint32)
    out = np.zeros(out_words or threads, np.uint32)
    return execute(kernel(body, threads, target, store), "k", threads,
                   [np.asarray(x, np.uint32), out], smem_bytes=smem, max_steps=max_steps)


def words(body: str, x: np.ndarray | None = None, threads: int = 32, smem: int = 0) -> np.ndarray:
    """``out`` after running ``body`` (see :func:`run`)."""
    return run(body, x, threads, smem).buffers[1]
