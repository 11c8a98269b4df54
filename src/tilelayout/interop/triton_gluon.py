"""Gluon kernels evaluated at compile time on the CPU (imported only when Triton is asked
for: :mod:`tilelayout.interop.triton_banks` loads this module through ``require``).

``bank_conflicts_kernel`` ``static_print``s ``ttgl.bank_conflicts(DTY, STY)``: Triton's own
count of the excess wavefronts per wavefront when a distributed tensor of type ``DTY``
is stored to / loaded from a shared-memory descriptor of type ``STY``.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

from triton._filecheck import run_parser
from triton.backends.compiler import GPUTarget
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl


@gluon.jit
def bank_conflicts_kernel(DTY: ttgl.constexpr, STY: ttgl.constexpr):  # noqa: N803 (constexpr)
    ttgl.static_print(ttgl.bank_conflicts(DTY, STY))


def bank_conflicts(dist: Any, shared: Any, shape: list[int], dtype: Any,
                   arch: int = 90) -> int:
    """Compile ``bank_conflicts_kernel`` for ``sm_<arch>`` (no GPU) and return the number it
    prints for a ``ttgl`` distributed layout ``dist`` and shared layout ``shared``."""
    dty = ttgl.distributed_type(dtype, shape, dist)
    sty = ttgl.shared_memory_descriptor_type(dtype, shape, shared, shape)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run_parser(bank_conflicts_kernel, args=(dty, sty), target=GPUTarget("cuda", arch, 32))
    return int(out.getvalue().split()[-1])
