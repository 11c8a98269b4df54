"""Choosing a staging on bits (docs/data-movement.md, *Choosing a staging*).

The candidates of :func:`.bit_staging.candidates` start with the compiler's own choice
as we reproduce it, exact in bytes and wavefronts on both of Triton's paths (an
instruction pair, or its plain ``ld`` / ``st.shared`` synthesis: every staged pair of
the differential harness), so the plan is held to it in every count: no more bytes,
wavefronts or instructions per warp. The order among the allowed is wavefronts,
instructions, bytes, barriers: a smaller buffer (passes, two barriers each) is taken
where it costs no instruction, or when ``smem_budget=`` asks for it.

>>> from tilelayout.planning.mechanisms.staging.bit_staging import BitAccess, BitBuffer
>>> a = BitAccess("st.shared.v4.b32", "vector", 16, 4, 4, 4, 1)
>>> wide = BitStaging(BitBuffer((1, 2), (), TRITON_PAIR), a, a, 2)
>>> narrow = BitStaging(BitBuffer((1,), (2,)), a, a, 2)      # the same in two passes
>>> best([wide, narrow], reference=wide) is wide              # passes cost 2 barriers
True
>>> best([wide, narrow], budget=4) is narrow
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .bit_staging import TRITON_PAIR, TRITON_PLAIN, BitStaging


def _order(o: BitStaging) -> tuple[int, int, int, int]:
    return (o.wavefronts, o.instructions, o.bytes, o.barriers)


def trusted(reference: BitStaging) -> bool:
    """Whether ``reference`` is a reproduction of the compiler's choice (synthesized for
    an instruction pair or on the plain path), which the plan is held to in every count.

    >>> from tilelayout.planning.mechanisms.staging.bit_staging import BitAccess, BitBuffer
    >>> a = BitAccess("st.shared.b32", "vector", 4, 1, 1, 1, 1)
    >>> trusted(BitStaging(BitBuffer((1,), (), TRITON_PAIR), a, a, 4))
    True
    """
    return reference.buffer.name in (TRITON_PAIR, TRITON_PLAIN)


def best(options: Sequence[BitStaging], reference: BitStaging | None = None,
         budget: int | None = None) -> BitStaging:
    """The staging to use among ``options`` (module doc): with a ``budget``, the fewest
    wavefronts within that many bytes; else held to ``reference``, the compiler's own
    choice as we reproduce it."""
    pool = list(options)
    if budget is not None:  # any staging within the budget: fewest wavefronts first
        within = [o for o in pool if o.bytes <= budget]
        if within:
            return min(within, key=lambda o: (o.wavefronts, o.instructions, o.bytes))
        return min(pool, key=lambda o: o.bytes)
    if reference is None:
        return min(pool, key=BitStaging.key)
    allowed = [o for o in pool if o.bytes <= reference.bytes]
    if trusted(reference):
        allowed = [o for o in allowed if o.wavefronts <= reference.wavefronts
                   and o.instructions <= reference.instructions]
    return min(allowed or pool, key=_order)


__all__ = ["best", "trusted"]
