"""Run a kernel on the interpreter: PTX (or CUDA C++, compiled by nvcc) in, global memory
and per-warp counts out.

:func:`execute` runs any entry function with its arguments in parameter order (a numpy
array is a global buffer the parameter points to, an int a scalar, bytes an array
parameter such as a ``CUtensorMap``, a :class:`~tests.ptx.async_proxy.TensorMap` the model
of the tensor map a TMA load reads through). :func:`run_convert` runs the test kernel of a
conversion plan (SPEC section 8: ``extern "C" __global__ void NAME_kernel(const SRC_T*
in, DST_T* out)``, ``in[t * src_slots + i]`` = source slot ``i`` of CTA thread ``t``).

>>> import numpy as np
>>> ptx = '''.version 8.0
... .target sm_90
... .address_size 64
... .visible .entry rev(.param .u64 rev_param_0, .param .u64 rev_param_1) {
...   .reg .b32 %r<4>;  .reg .b64 %rd<6>;
...   ld.param.u64 %rd1, [rev_param_0];  ld.param.u64 %rd2, [rev_param_1];
...   mov.u32 %r1, %tid.x;  mul.wide.u32 %rd3, %r1, 4;  add.s64 %rd4, %rd1, %rd3;
...   ld.global.u32 %r2, [%rd4];
...   shfl.sync.bfly.b32 %r3, %r2, 31, 31, -1;
...   add.s64 %rd5, %rd2, %rd3;  st.global.u32 [%rd5], %r3;  ret;
... }'''
>>> r = execute(ptx, "rev", 32, [np.arange(32, dtype=np.uint32), np.zeros(32, np.uint32)])
>>> r.buffers[1][:4].tolist(), r.counts.uniform()["shfl.sync.bfly.b32"]
([31, 30, 29, 28], 1)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import toolchain
from .async_proxy import TensorMap
from .counting import Counts, Movement
from .errors import PtxError
from .machine import MAX_STEPS, Machine
from .memory import GlobalMemory
from .parser import Module, parse
from .records import Event

#: bytes of shared memory a CTA may use (sm_90 / sm_100: 227 KiB)
MAX_SMEM = 227 * 1024
MAX_BUFFER = 64 << 20


@dataclass
class Result:
    """One execution: the global buffers after it (one per array argument, as numpy
    arrays of the arguments' dtypes), the per-warp counts, and the recorded events."""

    buffers: list[np.ndarray]
    counts: Counts
    events: list[Event]
    steps: int
    unwritten_reads: int  # shared bytes read that no thread had written
    ptx: str
    kernel: str
    target: str

    def sass(self) -> dict[str, int] | None:
        """SASS instruction counts of the kernel (ptxas + nvdisasm), or None without them."""
        c = toolchain.sass_of(self.ptx, self.target, self.kernel)
        return None if c is None else dict(c)


@lru_cache(maxsize=64)
def _parsed(digest: str, ptx: str) -> Module:
    return parse(ptx)


def module(ptx: str) -> Module:
    """The parsed module (parsed once per distinct text in this process)."""
    return _parsed(hashlib.sha256(ptx.encode()).hexdigest(), ptx)


def execute(ptx: str, kernel: str, threads: int, args: list, smem_bytes: int = 0,
            max_steps: int = MAX_STEPS) -> Result:
    """Run ``kernel`` of ``ptx`` for one CTA of ``threads`` threads with ``smem_bytes`` of
    dynamic shared memory; ``args`` in parameter order (see the module doc)."""
    if not 0 <= smem_bytes <= MAX_SMEM:
        raise PtxError(f"expected 0 .. {MAX_SMEM} bytes of dynamic shared memory, got {smem_bytes}")
    mod = module(ptx)
    if kernel not in mod.kernels:
        raise PtxError(f"no kernel {kernel!r} in the PTX (it has {sorted(mod.kernels)[:8]})")
    k = mod.kernels[kernel]
    if len(args) != len(k.params):
        raise PtxError(f"kernel {kernel} takes {len(k.params)} parameters, got {len(args)} "
                       f"arguments")
    memory = GlobalMemory()
    params: dict[str, object] = {}
    maps: dict[str, TensorMap] = {}
    arrays: list[tuple[int, np.ndarray]] = []
    for p, a in zip(k.params, args):
        if isinstance(a, TensorMap):
            maps[p.name] = a
            params[p.name] = bytes(p.size)  # opaque: the model stands for its bytes
        elif isinstance(a, np.ndarray):
            if a.nbytes > MAX_BUFFER:
                raise PtxError(f"argument {p.name}: {a.nbytes} bytes is over the "
                               f"{MAX_BUFFER}-byte limit of one buffer")
            b = memory.add(p.name, np.ascontiguousarray(a))
            params[p.name] = b.base
            arrays.append((len(memory.buffers) - 1, a))
        elif isinstance(a, (bytes, bytearray, int, np.integer)):
            params[p.name] = a if not isinstance(a, np.integer) else int(a)
        elif a is None:
            params[p.name] = 0
        else:
            raise PtxError(f"argument {p.name}: expected a numpy array, an int, bytes or a "
                           f"TensorMap, got {type(a).__name__}")
    m = Machine(k, threads, params, memory, smem_bytes, mod.variables, max_steps,
                target=mod.target, tensor_maps=maps)
    mv = Movement(m.warps, {n for n, (sp, _) in m.symbols.items() if sp == "shared"})
    m.observers.append(mv)
    m.run()
    out = [memory.buffers[i].data.view(a.dtype).reshape(a.shape).copy() for i, a in arrays]
    counts = Counts(dict(m.counts), dict(mv.counts), list(m.accesses))
    return Result(out, counts, list(m.events), m.steps, m.shared.unwritten_reads, ptx, kernel,
                  mod.target)


def run_convert(source: str, name: str, threads: int, inputs: np.ndarray, out: np.ndarray,
                smem_bytes: int = 0, arch: str = "sm_90a", ptx: str | None = None,
                max_steps: int = MAX_STEPS, tensor_map: TensorMap | None = None) -> Result:
    """Run ``NAME_kernel(in, out)`` of a conversion's CUDA unit: ``inputs`` is ``in`` (its
    dtype the source type's storage, e.g. ``np.float16`` or ``np.uint16`` for bf16),
    ``out`` the initial ``out`` (slots the kernel must leave alone keep their values).
    ``ptx``: already compiled PTX holding the kernel (from :func:`toolchain.compile_many`);
    else ``source`` is compiled for ``arch``. The output is ``result.buffers[1]``. A plan
    whose source is a TMA load takes ``NAME_kernel(in, out, tensor_map)``: ``inputs`` is
    then the global tensor and ``tensor_map`` its model."""
    if ptx is None:
        ptx = toolchain.compile_ptx(source, arch)
    args = [inputs, out] + ([tensor_map] if tensor_map is not None else [])
    return execute(ptx, f"{name}_kernel", threads, args, smem_bytes, max_steps)
