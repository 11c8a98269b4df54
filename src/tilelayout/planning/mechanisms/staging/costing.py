"""Costing candidate shared-memory layouts for a writer and a reader (shared by the
layout families and :func:`~tilelayout.planning.mechanisms.staging.smem_choice.choose_smem_layout`).

>>> import tilelayout as tl
>>> rows = tl.parse("S[(32,8):(1@laneid,1)]")
>>> sides = prepare(rows, rows, (32, 8), "float16")
>>> c = cost(sides, "row-major", tl.parse("S[(32,8):(8,1)]"))
>>> c.wavefronts, lower_bound(sides.writer, 2)
(8, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ....core.compose import Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.shape import Shape
from ...model.threads import RegisterFile, register_file
from .access import (
    AccessReport,
    access_report,
    check_tile,
    footprint,
    ideal_batch,
    request_addresses,
    smem_addresses,
    vector_ok,
    widths,
)


@dataclass(frozen=True)
class Costed:
    """One candidate layout with its costs: ``name``, ``layout``, ``write`` / ``read``
    reports, ``bytes`` (footprint) and ``accepted_by`` (hardware modes)."""

    name: str
    layout: Layout
    write: AccessReport
    read: AccessReport
    bytes: int
    accepted_by: tuple[str, ...]

    @property
    def wavefronts(self) -> int:
        """Write + read wavefronts."""
        return self.write.wavefronts + self.read.wavefronts

    def key(self) -> tuple[int, int, int, int, int]:
        """The order of preference (smaller is better): wavefronts, instructions, wider
        vectors, bytes, then the hardware paths that accept the layout."""
        return (self.wavefronts, self.write.requests + self.read.requests,
                -(self.write.vector_bytes + self.read.vector_bytes), self.bytes,
                -len(self.accepted_by))

    def row(self) -> dict[str, Any]:
        """One line of the candidates table, JSON-ready."""
        return {"name": self.name, "layout": str(self.layout),
                "write_wavefronts": self.write.wavefronts, "write_ideal": self.write.ideal,
                "write_vector_bytes": self.write.vector_bytes,
                "read_wavefronts": self.read.wavefronts, "read_ideal": self.read.ideal,
                "read_vector_bytes": self.read.vector_bytes,
                "wavefronts": self.wavefronts, "bytes": self.bytes,
                "accepted_by": list(self.accepted_by)}


def lower_bound(rf: RegisterFile, nbytes: int) -> int:
    """The fewest wavefronts any shared-memory layout can give ``rf``'s access: its
    requests at the widest vector its register slots allow, one wavefront per active
    phase (addresses do not matter for this bound)."""
    best = None
    for k in widths(nbytes):
        if not vector_ok(rf, None, k):
            continue
        dummy = np.arange(int(rf.table.max()) + 1 if rf.table.size else 1, dtype=np.int64)
        byte, _, _, access = request_addresses(rf, dummy, k, nbytes)
        n = int(ideal_batch(byte, access).sum()) if len(byte) else 0
        best = n if best is None else min(best, n)
    return best or 0


@dataclass(frozen=True)
class Sides:
    """Both distributed sides of a tile, validated and evaluated once."""

    writer: RegisterFile
    reader: RegisterFile
    shape: Shape
    dtype: str


def prepare(writer: Layout, reader: Layout, shape: Sequence[int] | None, dtype: str) -> Sides:
    """Validate the two sides (one-line errors) and build their register files."""
    nbytes = dtype_bytes(dtype)
    if nbytes > 16:
        raise LayoutError(f"a {dtype} element is wider than one 16-byte access")
    if writer.size() != reader.size():
        raise LayoutError(f"the writer holds {writer.size()} elements and the reader "
                          f"{reader.size()}: the layouts have different shapes")
    s = check_tile(writer, shape, "writer")
    check_tile(reader, s, "reader")
    if not s:
        raise LayoutError("the tile has no dimensions (shape ()); give it a shape such as (1,)")
    w = register_file(writer, s, "writer")
    if w.replicated:
        raise LayoutError("the writer has replicas (several threads hold one element); "
                          "a tile is written once: drop the replicas from the writer")
    return Sides(w, register_file(reader, s, "reader"), s, dtype)


def cost(sides: Sides, name: str, layout: Layout, accepted_by: tuple[str, ...] = (),
         addresses: np.ndarray | None = None, *, worst: bool = False) -> Costed:
    """Cost one candidate layout for both sides (``worst=True``: with each side's worst
    request, which only the chosen layout needs)."""
    addr = smem_addresses(layout, sides.shape) if addresses is None else addresses
    nbytes = dtype_bytes(sides.dtype)
    return Costed(name, layout, access_report(sides.writer, addr, sides.dtype, worst=worst),
                  access_report(sides.reader, addr, sides.dtype, worst=worst),
                  footprint(addr, nbytes), accepted_by)


def best(costed: Sequence[Costed]) -> list[Costed]:
    """``costed`` in the order of preference (stable: earlier candidates win ties)."""
    return [c for _, _, c in sorted((c.key(), i, c) for i, c in enumerate(costed))]
