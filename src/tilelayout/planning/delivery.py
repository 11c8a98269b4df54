"""How the destination holds its values: ``dst_packing`` of ``plan_conversion``.

A 32-bit register holds four 8-bit or two 16-bit values. ``"packed"`` (the default)
delivers a destination's sub-word values that way, slot ``s`` in register ``s // 4``
(8-bit) at byte ``s % 4``: what an ``mma`` operand, a ``stmatrix`` or a 4-byte store
takes as it is. ``"unpacked"`` delivers each value in the low bits of a register of its
own, as a compiler's values are before it packs them (Triton's LLVM values: an ``i8``
is a register of its own), so the byte permutes (``prmt``) that only *pack* values into
destination registers are not written: each value is shifted out of the register it
arrived in (a shift, counted on neither side of the comparison with Triton, as the
stores of single bytes are: docs/hardware.md, *Byte stores from 32-bit registers*). The
source is read as it sits in memory either way (packed words, shifted apart for free).

Each mechanism states the permutes an unpacked destination does without
(:data:`~.cost_model.DESTINATION_PERMUTES`: a staging's load side, a transposition's
destination words); for a register exchange they are those :func:`.code.cuda_exchange.word_units`
does not write. :func:`unpacked` takes them off the plan's claim, and the plan's code
(``plan.code()``) writes the values one by one.

>>> import tilelayout as tl
>>> a, b = "S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]"
>>> tl.plan_conversion(a, b, (64,), "int8").costs["byte_permutes"]
1
>>> p = tl.plan_conversion(a, b, (64,), "int8", dst_packing="unpacked")
>>> p.dst_packing, p.costs.get("byte_permutes", 0)
('unpacked', 0)
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError, shown
from .code.cuda_exchange import destination
from .code.cuda_staging import staging_permutes
from .code.cuda_text import Writer
from .code.cuda_transpose import packing_permutes
from .code.program import program_of
from .cost_model import DESTINATION_PERMUTES
from .plan_stages import Stage

#: the ways a destination may hold sub-word values
DST_PACKINGS = ("packed", "unpacked")


def dst_packing_of(value: Any) -> str:
    """``dst_packing`` checked: ``"packed"`` (None too) or ``"unpacked"``.

    >>> dst_packing_of(None), dst_packing_of("unpacked")
    ('packed', 'unpacked')
    """
    if value is None:
        return "packed"
    if not isinstance(value, str) or value not in DST_PACKINGS:
        raise LayoutError(f"dst_packing is 'packed' (sub-word values four or two to a "
                          f"register) or 'unpacked' (one to a register), got {shown(value)}")
    return value


def delivered(plan: Any, packing: str) -> Any:
    """``plan`` delivering its destination as ``packing`` says: :func:`unpacked`, or the
    packed plan without the mechanisms' note of the permutes it could do without.

    >>> import tilelayout as tl
    >>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,), "int8")
    >>> delivered(p, "packed") is p, delivered(p, "unpacked").costs["byte_permutes"]
    (True, 0)
    """
    if packing == "unpacked":
        return unpacked(plan)
    if DESTINATION_PERMUTES not in plan.costs:
        return plan
    return replace(plan, costs=MappingProxyType({k: v for k, v in plan.costs.items()
                                                 if k != DESTINATION_PERMUTES}))


def unpacked(plan: Any) -> Any:
    """``plan`` delivering its destination values one to a register: its claimed byte
    permutes without those that only pack destination registers (module doc), and the
    reason saying so. Plans whose destination is not sub-word registers are unchanged
    but for ``dst_packing``.

    >>> import tilelayout as tl
    >>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,), "int8")
    >>> q = unpacked(p)
    >>> q.dst_packing, p.costs["byte_permutes"], q.costs["byte_permutes"]
    ('unpacked', 1, 0)
    """
    out = replace(delivered(plan, "packed"), dst_packing="unpacked")
    n = int(plan.costs.get("byte_permutes", 0) or 0)
    if not n or dtype_bits(plan.dtype) >= 32 or plan.mechanism == "collective" or \
            tuple(plan.dst.axes) == ("m",):
        return out
    saved = plan.costs.get(DESTINATION_PERMUTES)
    saved = min(int(destination_permutes(plan) if saved is None else saved), n)
    if not saved:
        return out
    costs = {**out.costs, "byte_permutes": n - saved}
    why = (f"; with each destination value in a register of its own (dst_packing="
           f"'unpacked') the code writes {saved} of those byte permutes per warp fewer: "
           f"{n - saved} in all")
    stages = tuple(_restated(s, n - saved) if s.what == "permute" else s
                   for s in plan.stages)
    return replace(out, costs=MappingProxyType(costs), reason=plan.reason + why,
                   stages=stages)


def _restated(stage: Stage, permutes: int) -> Stage:
    """A byte exchange's assembly step as an unpacked destination does it."""
    data = MappingProxyType({**stage.data, "permutes": permutes})
    return Stage(stage.what, f"take each destination value from the register it arrived in "
                 f"(a shift), with {permutes} prmt.b32 and {data.get('selects', 0)} selp "
                 f"in all per warp", data)


def destination_permutes(plan: Any) -> int:
    """The byte permutes per warp (one per ``prmt`` of a thread's code) ``plan``'s code
    writes only to pack destination registers, which an unpacked destination does
    without (read from the code's own program, :func:`.code.program.program_of`).

    >>> import tilelayout as tl
    >>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,), "int8")
    >>> destination_permutes(p)
    1
    """
    prog = program_of(plan)
    if prog.dst_shared or prog.bits >= 32:
        return 0
    if prog.staging is not None:
        return staging_permutes(prog.staging)[1]
    if prog.transpose is not None:
        return packing_permutes(prog.transpose.gather, prog.transpose.scatter, prog.bits)[1]
    ex = prog.exchange
    assert ex is not None
    names = [f"r{i}" for i in range(ex.words + ex.rounds)]
    counts = []
    for flag in (False, True):
        w = Writer("count")
        destination(w, ex, names, flag)
        counts.append((w.counts.get("prmt", 0), w.counts.get("select", 0)))
    (packed, sel_p), (loose, sel_u) = counts
    if sel_u != sel_p:
        raise LayoutError(f"internal: an unpacked destination takes {sel_u} selects where "
                          f"the packed one takes {sel_p}; please report it")
    return packed - loose


__all__ = ["DST_PACKINGS", "delivered", "destination_permutes", "dst_packing_of", "unpacked"]
