"""What an execution leaves behind besides memory: the shared-memory requests it made
(with their wavefronts under our bank model) and the instructions it records instead of
completing (TMA stores)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Access:
    """One executed shared-memory request: per thread its byte address (-1: the thread
    did not take part), wavefronts per warp under our bank model
    (``tilelayout.analysis.conflicts.wavefronts_batch``)."""

    line: int
    name: str  # e.g. "st.shared.v4.b32", "ldmatrix.x4.trans"
    access_bytes: int  # per lane (16 for a matrix row)
    addresses: np.ndarray
    wavefronts: np.ndarray  # (warps,)
    ideal: np.ndarray  # (warps,): one wavefront per phase with an active lane


@dataclass(frozen=True)
class Event:
    """An instruction the interpreter records rather than completes (a TMA store)."""

    line: int
    op: str
    threads: tuple[int, ...]
    operands: dict
