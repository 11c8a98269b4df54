"""The one cost model a conversion plan chooses its mechanism by: units *per warp*.

* a ``shfl.sync`` is :data:`SHFL` (one pass through the shared-memory crossbar, which
  shuffles and shared-memory accesses share);
* a ``selp`` (picking a lane-dependent register), a ``prmt`` (byte permute) or a pack /
  unpack of sub-word values is :data:`ALU`: an SM issues 32-bit integer / logical
  operations for 64 threads per clock and warp shuffles for 32 (CUDA C++ Programming
  Guide, "Arithmetic Instructions" throughput table, compute capability 8.x-9.0);
* a shared-memory instruction costs its wavefronts (at least 1 each): a 16-byte vector
  store of a whole warp is 4 wavefronts, as 4 shuffles are;
* a barrier: ``bar.sync`` (every warp of the CTA waits) :data:`BAR_SYNC`; ``bar.warp.sync``
  (``__syncwarp``, enough when each warp exchanges only with itself) :data:`BAR_WARP_SYNC`;
* the store -> load round trip through shared memory, :data:`ROUND_TRIP` per pass.

The shared-memory footprint, the number of warps and the target do not enter the units:
a plan's costs report the footprint, and ties between stagings go to the smaller buffer
(:func:`~tilelayout.planning.staging.rank`). Every unit is per warp, so when every warp
does the same exchange the decision is the one a single warp gets. The model and its
sources are in docs/data-movement.md ("The cost model").

>>> staging_units(instructions=4, wavefronts=16, passes=1, warp_local=True)
18.25
>>> staging_units(instructions=4, wavefronts=16, passes=1, warp_local=False)
19.0
"""

from __future__ import annotations

SHFL = 1.0
ALU = 0.5
BAR_SYNC = 1.0
BAR_WARP_SYNC = 0.25
ROUND_TRIP = 2


def barrier(warp_local: bool) -> tuple[str, float]:
    """The barrier between a warp's stores and its loads and what it costs.

    >>> barrier(True)
    ('bar.warp.sync', 0.25)
    """
    return ("bar.warp.sync", BAR_WARP_SYNC) if warp_local else ("bar.sync", BAR_SYNC)


def staging_units(instructions: int, wavefronts: float, passes: int, warp_local: bool) -> float:
    """Units of a staging through shared memory: per warp, its instructions' wavefronts
    (at least one per instruction), ``2 * passes - 1`` barriers and a round trip per
    pass."""
    return (max(float(instructions), float(wavefronts)) + (2 * passes - 1) * barrier(warp_local)[1]
            + passes * ROUND_TRIP)


def shuffle_units(shuffles: int, alu: float) -> float:
    """Units of a register exchange: its shuffles and its selects / permutes / packs.

    >>> shuffle_units(8, 16)
    16.0
    """
    return shuffles * SHFL + alu * ALU
