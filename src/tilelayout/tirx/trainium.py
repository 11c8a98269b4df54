"""TIRx's Trainium layouts: ``TileLayout.trainium(annotation, shape)`` and ``to_psum``.

``annotation`` marks each dimension of ``shape`` ``P`` (SBUF partitions, 128 of them) or
``F`` (the free offset inside a partition); the ``P`` dimensions and the ``F`` ones are
each row-major among themselves. A single ``P`` dimension larger than 128 keeps 128 on
``P`` and moves its high part to ``F`` with the largest stride. ``to_psum`` splits the
free axis into PSUM banks of 512 elements (8 banks per partition). The sizes are
docs/hardware.md's Trainium facts; the rules are apache/tvm main's
``python/tvm/tirx/layout.py``.

>>> trainium("FPF", (32, 512, 512))
parse('S[(32,4,128,512):(512@F,16384@F,1@P,1@F)]')
>>> to_psum(trainium("FP", (1024, 8)))
parse('S[(2,512,8):(1@Bank,1@F,1@P)]')
"""

from __future__ import annotations

import math
import re

from ..core.capacity import PSUM_BANKS
from ..core.errors import shown
from ..core.iter import Iter
from ..core.tile import TileLayout
from ..presets.trainium import PARTITIONS as SBUF_PARTITIONS
from ..presets.trainium import PSUM_BANK_FP32 as PSUM_BANK_ELEMENTS
from .errors import TirxAssertionError, check_ints


def _row_major(extents: list[int], axis: str) -> list[Iter]:
    strides = [math.prod(extents[k + 1:]) for k in range(len(extents))]
    return [Iter(e, s, axis) for e, s in zip(extents, strides, strict=True)]


def trainium(annotation: str, shape: object, is_psum: bool = False) -> TileLayout:
    """The SBUF layout of ``shape`` with each dimension on ``P`` or ``F`` (``annotation``),
    or its PSUM form (``is_psum``).

    >>> trainium("PF", (128, 128))
    parse('S[(128,128):(1@P,1@F)]')
    """
    if not isinstance(annotation, str) or not re.fullmatch(r"[PF]*", annotation):
        raise TirxAssertionError(f"annotation {shown(annotation)} must be a string of 'P' and "
                                 f"'F'")
    dims = list(check_ints(shape, "shape", low=1))
    if len(annotation) != len(dims):
        raise TirxAssertionError(f"annotation {annotation} and shape {tuple(dims)} must have "
                                 f"the same length")
    p_dims = [d for d, c in zip(dims, annotation, strict=True) if c == "P"]
    split = None
    if len(p_dims) == 1:
        p = annotation.index("P")
        if p_dims[0] > SBUF_PARTITIONS and p_dims[0] % SBUF_PARTITIONS:
            raise TirxAssertionError(f"There is only 1 P in the annotation. Partition size "
                                     f"{p_dims[0]} must be less than or equal to "
                                     f"{SBUF_PARTITIONS} or a multiple of {SBUF_PARTITIONS}")
        if p_dims[0] > SBUF_PARTITIONS:  # the high part of P goes to F, outermost
            split = p
            annotation = "F" + annotation
            dims = [p_dims[0] // SBUF_PARTITIONS, *dims[:p], SBUF_PARTITIONS, *dims[p + 1:]]
    elif len(p_dims) > 1 and math.prod(p_dims) > SBUF_PARTITIONS:
        raise TirxAssertionError(f"There are {len(p_dims)} Ps in the annotation. Partition "
                                 f"size {math.prod(p_dims)} must be less than or equal to "
                                 f"{SBUF_PARTITIONS}")
    f_iters = iter(_row_major([d for d, c in zip(dims, annotation, strict=True) if c == "F"], "F"))
    p_iters = iter(_row_major([d for d, c in zip(dims, annotation, strict=True) if c == "P"], "P"))
    shard = [next(f_iters) if c == "F" else next(p_iters) for c in annotation]
    if split is not None:  # put the high part of P back where P was
        high, shard = shard[0], shard[1:]
        shard = [*shard[:split], high, *shard[split:]]
    out = TileLayout(shard)
    return to_psum(out) if is_psum else out


def to_psum(layout: TileLayout) -> TileLayout:
    """The layout with its free axis ``F`` split into PSUM banks (``Bank``) of 512.

    >>> from tilelayout import parse
    >>> to_psum(parse("S[(8,1024):(1@P,1@F)]"))
    parse('S[(8,2,512):(1@P,1@Bank,1@F)]')
    """
    bank = PSUM_BANK_ELEMENTS
    shard = []
    for it in layout.shard:
        if it.axis != "F":
            shard.append(it)
        elif it.stride and it.stride % bank == 0:
            shard.append(Iter(it.extent, it.stride // bank, "Bank"))
        elif it.stride and bank % it.stride == 0:
            c = bank // it.stride
            if it.extent < c:
                shard.append(it)
            elif it.extent % c == 0:
                shard += [Iter(it.extent // c, 1, "Bank"), Iter(c, it.stride, "F")]
            else:
                raise TirxAssertionError(f"layout {layout} can not be converted to psum layout: "
                                         f"{it} is not whole {bank}-element banks")
        else:
            raise TirxAssertionError(f"layout {layout} can not be converted to psum layout: "
                                     f"stride {it.stride} on F neither divides nor is a "
                                     f"multiple of the {bank}-element bank")
    return TileLayout(shard)


__all__ = ["PSUM_BANKS", "PSUM_BANK_ELEMENTS", "SBUF_PARTITIONS", "to_psum", "trainium"]
