"""How a shared-memory tile is read: bank conflicts of vector reads down its columns and
along its rows, with every request's elements (what the explorer's analysis panel shows).

The tile is folded to 2-D (rows = all dims but the last, cols = the last) and read in the
widest vector (16, 8 or 4 bytes) the last dim splits into, 32 lanes per request
(:func:`~tilelayout.analysis.conflicts.tile_conflicts`); the worst request of each order
is detailed by :func:`~tilelayout.analysis.conflicts.bank_conflicts`.

>>> import tilelayout as tl
>>> r = tile_reads(tl.parse("S[(8,64):(64,1)]"), (8, 64), "float16")
>>> [(read.order, read.conflicts.wavefronts, read.worst.ways) for read in r.reads]
[('column', 64, 8), ('row', 8, 1)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError
from .conflicts import ACCESS_BYTES, WARP, ConflictReport, TileConflicts, bank_conflicts, tile_conflicts


@dataclass(frozen=True)
class TileRead:
    """One read order (``"column"`` or ``"row"``): every request's cost and elements, and
    the worst request in detail; or ``error``, why this order could not be analysed."""

    order: str
    conflicts: TileConflicts | None = None
    worst_request: int | None = None
    worst: ConflictReport | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``POST /api/analysis`` sends)."""
        if self.conflicts is None or self.worst is None:
            return {"order": self.order, "error": self.error}
        tc, rep = self.conflicts, self.worst
        per = tc.per_vector
        requests = [{"wavefronts": w, "lanes": len(elems) // per, "elements": list(elems)}
                    for w, elems in zip(tc.per_access, tc.requests, strict=True)]
        return {
            "order": self.order, "wavefronts": tc.wavefronts, "ideal": tc.ideal,
            "requests": requests, "ideal_per_request": tc.ideal_per_access,
            "conflict_free": tc.conflict_free,
            "worst": {"request": self.worst_request, "wavefronts": rep.wavefronts,
                      "ideal": rep.ideal, "ways": rep.ways,
                      "banks": {str(b): c for b, c in rep.conflicting_banks.items()}},
        }


@dataclass(frozen=True)
class TileReads:
    """The column and row reads of a tile (:func:`tile_reads`); ``note`` says why there
    are none (replicas, or a last dim no vector width divides)."""

    dtype: str
    rows: int
    cols: int
    access_bytes: int | None = None
    per_vector: int | None = None
    reads: tuple[TileRead, ...] = ()
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``POST /api/analysis`` sends)."""
        out: dict[str, Any] = {"dtype": self.dtype, "rows": self.rows, "cols": self.cols,
                               "reads": [r.to_dict() for r in self.reads]}
        if self.note is not None:
            out["note"] = self.note
        if self.access_bytes is not None:
            out.update(access_bytes=self.access_bytes, per_vector=self.per_vector)
        return out


def tile_reads(layout: Layout, shape: Sequence[int], dtype: str) -> TileReads:
    """Bank conflicts of reading the tile (folded to 2-D) in its widest vectors, down the
    columns (when there is more than one row) and along the rows."""
    rows, cols = math.prod(shape[:-1]), shape[-1]
    nbytes = dtype_bytes(dtype)
    if layout.replica_count != 1:
        return TileReads(dtype, rows, cols, note="bank analysis needs one address per "
                         "element; this layout has replicas")
    choices = [b for b in sorted(ACCESS_BYTES, reverse=True)
               if b >= nbytes and b % nbytes == 0 and cols % (b // nbytes) == 0]
    if not choices:
        return TileReads(dtype, rows, cols, note=f"the last dim ({cols}) does not split "
                         f"into 4/8/16-byte vectors of {dtype}")
    access = choices[0]
    per = access // nbytes
    reads = []
    for order in ("column", "row"):
        if order == "column" and rows == 1:
            continue
        try:
            tc = tile_conflicts(layout, dtype, (rows, cols), access, order)
        except LayoutError as exc:
            reads.append(TileRead(order, error=str(exc)))
            continue
        worst = tc.worst()
        lanes = [[divmod(e, cols) for e in tc.requests[worst][lane * per:(lane + 1) * per]]
                 for lane in range(min(WARP, len(tc.requests[worst]) // per))]
        reads.append(TileRead(order, tc, worst, bank_conflicts(layout, dtype, lanes, (rows, cols))))
    return TileReads(dtype, rows, cols, access, per, tuple(reads))
