"""Triton's side of a conversion, measured: the one place the harness calls the PTX
replay engine (:func:`triton_cost`), so that another engine (a full PTX interpreter)
can take its place by changing this function alone. The costs are the scenario suite's
(:func:`tests.planning.scenarios.suite.replay_cost`: shared-memory bytes, wavefronts,
data-movement instructions per warp)."""

from __future__ import annotations

from ..scenarios.ptx_replay import replay
from ..scenarios.suite import Cost, replay_cost

#: the files whose code decides a measurement (their hash is part of the cache key)
MEASUREMENT_FILES = ("scenarios/ptx_replay.py", "scenarios/ptx_integer.py",
                     "scenarios/ptx_text.py", "scenarios/triton_kernels.py",
                     "triton/measure.py", "triton/gluon_specs.py", "triton/worker.py")


def triton_cost(ptx: str, smem_bytes: int) -> Cost:
    """The costs of a ``convert`` kernel's PTX (one ``.entry``) with ``smem_bytes`` of
    shared memory allocated.

    >>> ptx = '''.target sm_90
    ... .visible .entry k() .reqntid 32 {
    ...   mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 2;
    ...   st.shared.b32 [%r2], %r9; bar.sync 0; ld.shared.b32 %r3, [%r2];
    ... }'''
    >>> c = triton_cost(ptx, 128)
    >>> c.smem_bytes, c.wavefronts, c.instructions
    (128, 2, 3)
    """
    return replay_cost(replay(ptx), smem_bytes)
