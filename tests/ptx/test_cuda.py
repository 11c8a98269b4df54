"""CUDA written by hand the way the emitter will write conversions (SPEC section 8:
``NAME_kernel(const SRC_T* in, DST_T* out)``, ``in[t * slots + i]``), compiled by nvcc for
sm_80 / sm_89 / sm_90a / sm_100a, executed by the interpreter: every output element is
checked, and the per-warp counts (PTX and SASS) are the ones the code is written to have.

* ``permute_regs``: registers only; ``shfl_exchange``: one ``__shfl_xor_sync`` and
  selects; ``byte_perm``: a 4x4 byte transpose by eight ``__byte_perm``;
  ``smem_transpose``: two ``st.shared.v4`` + ``__syncthreads`` + eight ``ld.shared``;
  ``stmatrix_ldmatrix``: a 128B-swizzled ``stmatrix.x4`` / ``ldmatrix.x4.trans`` staging.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest

import tilelayout as tl

from . import toolchain
from .driver import run_convert

HERE = Path(__file__).parent / "cuda"
UNITS = {f.stem: f.read_text() for f in sorted(HERE.glob("*.cu"))}
NEEDS_SM90 = {"stmatrix_ldmatrix"}


def need_nvcc() -> None:
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")


@cache
def ptx_for(arch: str) -> str:
    units = {k: v for k, v in UNITS.items() if arch in ("sm_90a", "sm_100a") or k not in NEEDS_SM90}
    return next(iter(toolchain.compile_many(units, arch).values()))


ARCHS = toolchain.TARGETS


def run_unit(name: str, arch: str, threads: int, x: np.ndarray, out_len: int, smem: int = 0):
    need_nvcc()
    out = np.full(out_len, 0xFFFFFFFF, np.uint32).view(x.dtype)
    return run_convert(UNITS[name], name, threads, x, out, smem, arch, ptx=ptx_for(arch))


@pytest.mark.parametrize("arch", ARCHS)
def test_permute_regs(arch):
    x = np.arange(32 * 8, dtype=np.float32) * 0.5 - 7
    r = run_unit("permute_regs", arch, 32, x, 32 * 8)
    j = np.arange(8)
    want = x.reshape(32, 8)[:, 7 - (j ^ 1)].reshape(-1)
    assert r.buffers[1].tolist() == want.tolist()
    assert r.counts.uniform(movement=True) == {}
    assert r.counts.shared_by_kind() == {}


@pytest.mark.parametrize("arch", ARCHS)
def test_shfl_exchange(arch):
    x = np.arange(128, dtype=np.float32) + 0.25
    r = run_unit("shfl_exchange", arch, 64, x, 128)
    s = x.reshape(64, 2)
    t = np.arange(64)
    odd = t % 2 == 1
    # a 2x2 transpose over the pair: even lanes get both slot-0 values, odd lanes slot 1's
    want = np.where(odd[:, None], np.stack([s[t ^ 1, 1], s[:, 1]], 1),
                    np.stack([s[:, 0], s[t ^ 1, 0]], 1))
    assert r.buffers[1].reshape(64, 2).tolist() == want.tolist()
    assert {k: v for k, v in r.counts.uniform().items() if k.startswith(("shfl", "selp"))} \
        == {"shfl.sync.bfly.b32": 1, "selp.f32": 3}
    # the replay's rules count the selects after the shuffle; the one before it counts
    # only when nvcc feeds it to the shuffle directly (no mov.b32 in between, sm_100a)
    moves = r.counts.uniform(movement=True)
    assert moves["shfl.sync.bfly"] == 1 and moves["selp.f32"] in (2, 3)
    if arch == "sm_90a" and (sass := r.sass()) is not None:
        assert sass["SHFL"] == 1 and sass.get("FSEL", 0) + sass.get("SEL", 0) == 3


@pytest.mark.parametrize("arch", ARCHS)
def test_byte_perm(arch):
    x = (np.arange(32 * 16) % 256).astype(np.uint8).view(np.uint32)
    r = run_unit("byte_perm", arch, 32, x, 32 * 4)
    got = r.buffers[1].view(np.uint8).reshape(32, 4, 4)
    want = x.view(np.uint8).reshape(32, 4, 4).transpose(0, 2, 1)
    assert got.tolist() == want.tolist()
    assert r.counts.uniform()["prmt.b32"] == 8
    if arch == "sm_90a" and (sass := r.sass()) is not None:
        assert sass["PRMT"] == 8


@pytest.mark.parametrize("arch", ARCHS)
def test_smem_transpose(arch):
    x = np.arange(32 * 32, dtype=np.float32) * 3 + 1  # row-major: thread t has row t/4
    r = run_unit("smem_transpose", arch, 128, x, 1024, smem=32 * 36 * 4)
    got = r.buffers[1].reshape(32, 4, 8)  # thread t: column t/4, rows 8(t%4) ..
    tile = x.reshape(32, 32)
    assert got.reshape(32, 32).tolist() == tile.T.reshape(32, 32).tolist()
    kinds = r.counts.shared_by_kind()
    assert sum(v for k, v in kinds.items() if k.startswith("st.shared.v4")) == 2
    assert sum(v for k, v in kinds.items() if k.startswith("ld.shared")) == 8
    assert r.counts.uniform()["bar.sync"] == 1
    # wavefronts: the bank model on the addresses the code is written to use
    lanes = np.arange(32)
    want = 0
    for w in range(4):
        row, col = 8 * w + lanes // 4, 8 * (lanes % 4)
        for half in (0, 4):
            want += tl.smem_wavefronts([int(4 * (36 * r_ + c + half)) for r_, c in zip(row, col)], 16)
        for j in range(8):
            want += tl.smem_wavefronts([int(4 * ((c + j) * 36 + r_)) for r_, c in zip(row, col)], 4)
    assert r.counts.wavefronts == want
    if arch == "sm_90a" and (sass := r.sass()) is not None:
        assert (sass["STS"], sass["LDS"], sass["BAR"]) == (2, 8, 1)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
def test_stmatrix_ldmatrix_swizzled(arch):
    # element (row, col) of the 8x64 bf16 tile holds row * 64 + col
    t = np.arange(32)
    src = np.zeros((32, 8, 2), np.uint16)
    for j in range(8):
        for h in range(2):
            src[:, j, h] = (t // 4) * 64 + 8 * j + 2 * (t % 4) + h
    r = run_unit("stmatrix_ldmatrix", arch, 32, src.reshape(-1).view(np.uint32), 32 * 8,
                 smem=1024)
    got = r.buffers[1].view(np.uint16).reshape(32, 8, 2)
    want = np.zeros((32, 8, 2), np.uint16)
    for j in range(8):
        for h in range(2):
            want[:, j, h] = (2 * (t % 4) + h) * 64 + 8 * j + t // 4
    assert got.tolist() == want.tolist()
    assert r.counts.shared_by_kind() == {"ldmatrix.x4.trans": 2, "stmatrix.x4": 2}
    assert r.counts.wavefronts == r.counts.ideal == 16  # the swizzle is conflict-free
    assert r.counts.uniform(movement=True)["bar.warp.sync"] == 1
    if arch == "sm_90a" and (sass := r.sass()) is not None:
        assert (sass["STSM"], sass["LDSM"]) == (2, 2)


def test_every_unit_compiles_for_every_target():
    need_nvcc()
    for arch in ARCHS:
        ptx = ptx_for(arch)
        for name in UNITS:
            if name in NEEDS_SM90 and arch not in ("sm_90a", "sm_100a"):
                continue
            assert f".entry {name}_kernel(" in ptx, (arch, name)
        assert f".target {arch}" in ptx


def test_compiler_errors_name_the_unit():
    need_nvcc()
    with pytest.raises(toolchain.ToolchainError, match=r"unit broken, line 1: error: identifier "
                                                       r"\"undeclared\" is undefined"):
        toolchain.compile_many({"fine": UNITS["permute_regs"].replace("permute_regs", "fine"),
                                "broken": "__global__ void k() { undeclared(); }"}, "sm_90a")
