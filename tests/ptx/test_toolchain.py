"""The toolchain module and the driver's limits: SASS text to opcode counts, clear errors
for a missing tool, a bad target or a kernel that does not fit, and the compile cache."""

from __future__ import annotations

import numpy as np
import pytest

from . import toolchain
from .driver import execute
from .errors import PtxError
from .ptxkit import kernel

SASS = """
	.text.k_kernel:
        /*0000*/                   LDC R1, c[0x0][0x37c] ;
        /*0010*/              @!PT SHFL.IDX PT, RZ, RZ, RZ, RZ ;
        /*0020*/                   SHFL.BFLY PT, R5, R2, 0x1, 0x1f ;
        /*0030*/               @P0 PRMT R7, R4, 0x5410, R5 ;
        /*0040*/                   STSM.16.M88.4 [R9], R12 ;
        /*0050*/                   NOP ;
        /*0060*/                   EXIT ;
"""


def test_sass_counts_by_opcode():
    assert toolchain.sass_counts(SASS) == {"LDC": 1, "SHFL": 2, "PRMT": 1, "STSM": 1, "EXIT": 1}
    with pytest.raises(toolchain.ToolchainError, match="no function 'other'"):
        toolchain.sass_counts(SASS, "other")


def test_clear_errors():
    with pytest.raises(toolchain.ToolchainError, match="expected a target such as sm_90a"):
        toolchain.compile_ptx("", "hopper")
    with pytest.raises(toolchain.ToolchainError, match="expected unit names that are C"):
        toolchain.compile_many({"not a name": ""})
    missing = toolchain.Tools(None, None, None, None)
    with pytest.raises(toolchain.ToolchainError, match="nvcc is not installed .*ensure-cuda.sh"):
        missing.need("nvcc")


def test_compiled_ptx_is_cached_by_content():
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")
    src = 'extern "C" __global__ void cached_kernel(int* p) { p[threadIdx.x] = 3; }\n'
    first = toolchain.compile_ptx(src, "sm_89")
    assert ".entry cached_kernel" in first and ".target sm_89" in first
    assert toolchain.compile_ptx(src, "sm_89") == first
    assert any(toolchain.CACHE.glob("*.ptx"))


def test_the_driver_refuses_what_does_not_fit():
    ptx = kernel("mov.u32 %r20, 0;")
    args = [np.zeros(64, np.uint32), np.zeros(64, np.uint32)]
    with pytest.raises(PtxError, match="requires 32 threads"):
        execute(ptx, "k", 64, args)
    with pytest.raises(PtxError, match="whole warps, got 48"):
        execute(ptx.replace(".reqntid 32", ""), "k", 48, args)
    with pytest.raises(PtxError, match="bytes of dynamic shared memory, got 300000"):
        execute(ptx, "k", 32, args, smem_bytes=300_000)
    with pytest.raises(PtxError, match="takes 2 parameters, got 1"):
        execute(ptx, "k", 32, args[:1])
    with pytest.raises(PtxError, match="no kernel 'nope'"):
        execute(ptx, "nope", 32, args)
