"""The interpreter's refusals: one :class:`tilelayout.LayoutError` subclass per kind, each
message naming the PTX line it is about."""

from __future__ import annotations

import tilelayout as tl


class PtxError(tl.LayoutError):
    """The PTX holds something the interpreter does not execute, or its execution is
    undefined (a misaligned or out-of-bounds access, a read of a register never written)."""


class UnknownInstruction(PtxError):
    """An instruction (or a form of one) the interpreter does not implement: never guessed."""


class RaceError(PtxError):
    """Two threads access the same shared-memory byte, one of them writing a different
    value, with no barrier ordering them (a missing ``bar.sync`` / ``bar.warp.sync``)."""


class DeadlockError(PtxError):
    """Threads wait at a barrier or a warp-synchronous instruction that can never complete."""


def at(line: int, text: str) -> str:
    """``line 12 (st.shared.b32 [%r3], %r9)``: where an error is."""
    return f"line {line} ({text})"
