"""A TMA endpoint as code sees it: the tensor map the host encodes and the boxes the
device moves between the shared-memory tile and global memory.

The tile the plan chose (``plan.smem.layout``) is what TMA writes or reads box by box:
each box a contiguous run of the buffer, its innermost dimension the tile's contiguous
one (the global tensor's contiguous dimension). :func:`tma_program` reads, from the
plan's :class:`~tilelayout.planning.mechanisms.tma.TmaBoxes`, the ``cuTensorMapEncodeTiled``
parameters (data type, the dimensions innermost first, box, swizzle: the
``CUtensorMapSwizzle`` of docs/hardware.md) and every box's byte offset and coordinates.

>>> import tilelayout as tl
>>> p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
...                        target="sm_90a")
>>> t = tma_program(p)
>>> t.direction, t.dims, t.box, t.swizzle, [b.offset for b in t.boxes]
('store', (1, 0), (64, 64), 'CU_TENSOR_MAP_SWIZZLE_128B', [0, 8192])
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from types import MappingProxyType

from ...core.dtypes import dtype_bytes
from ...core.errors import LayoutError
from ...core.swizzle_modes import mode_info
from ..mechanisms.staging.access import smem_addresses

#: dtype -> CUtensorMapDataType (CUDA driver API, cuTensorMapEncodeTiled)
DATA_TYPES = MappingProxyType({
    "float32": "FLOAT32", "float": "FLOAT32", "fp32": "FLOAT32", "tfloat32": "TFLOAT32",
    "float16": "FLOAT16", "half": "FLOAT16", "fp16": "FLOAT16",
    "bfloat16": "BFLOAT16", "bf16": "BFLOAT16", "float64": "FLOAT64", "double": "FLOAT64",
    "int32": "INT32", "uint32": "UINT32", "int64": "INT64",
})


@dataclass(frozen=True)
class TmaBox:
    """One box: its byte offset in the buffer and its first element's coordinates (the
    tile's logical dimensions, relative to the tile's origin)."""

    offset: int
    coords: tuple[int, ...]


@dataclass(frozen=True)
class TmaProgram:
    """A TMA store (the threads write the tile, TMA stores it) or load. ``dims``: the
    tile's logical dimensions innermost first (the tensor map's dimension order);
    ``box`` per logical dimension; ``swizzle`` the ``CUtensorMapSwizzle`` name;
    ``data_type`` the ``CUtensorMapDataType`` name; ``align`` the buffer's alignment."""

    direction: str
    shape: tuple[int, ...]
    dims: tuple[int, ...]
    box: tuple[int, ...]
    boxes: tuple[TmaBox, ...]
    swizzle: str
    data_type: str
    elem_bytes: int
    align: int

    @property
    def box_bytes(self) -> int:
        return math.prod(self.box) * self.elem_bytes


def tma_program(plan) -> TmaProgram:
    """The TMA side of a plan with a ``"tma"`` endpoint (see the module doc)."""
    t, choice = plan.tma, plan.smem
    shape = tuple(plan.shape)
    addr = smem_addresses(choice.layout, shape).reshape(shape)
    unit = [int(addr[tuple(1 if d == k else 0 for d in range(len(shape)))]) if shape[k] > 1
            else 1 << 40 for k in range(len(shape))]
    dims = tuple(sorted(range(len(shape)), key=lambda k: unit[k]))
    box = tuple(t.box)
    boxes = []
    for start in itertools.product(*(range(0, n, b) for n, b in zip(shape, box, strict=True))):
        region = addr[tuple(slice(s, s + b) for s, b in zip(start, box, strict=True))]
        lo, n = int(region.min()), math.prod(box)
        if int(region.max()) - lo + 1 != n or lo % n:
            raise LayoutError(f"internal: TMA box at {start} is not one contiguous run of "
                              f"the tile; please report it")
        boxes.append(TmaBox(lo * dtype_bytes(plan.dtype), tuple(start)))
    mode = mode_info(t.swizzle)
    if mode.tma_enum is None:
        raise LayoutError(f"the {t.swizzle} swizzle has no CUtensorMapSwizzle value")
    dt = DATA_TYPES.get(plan.dtype.lower(), "UINT8" if dtype_bytes(plan.dtype) == 1 else None)
    if dt is None:
        raise LayoutError(f"no CUtensorMapDataType for {plan.dtype}")
    return TmaProgram(t.direction, shape, dims, box, tuple(boxes), mode.tma_enum,
                      f"CU_TENSOR_MAP_DATA_TYPE_{dt}", dtype_bytes(plan.dtype),
                      max(128, mode.repeat_bytes))


__all__ = ["DATA_TYPES", "TmaBox", "TmaProgram", "tma_program"]
