"""TIRx's tensor-memory constructors: ``tmem_datapath_layout`` and ``tmem_mma_operand_layout``.

Same names, parameters, results and refusals as ``tvm_tirx.backend.cuda.layout``
(tests/tirx/test_constructors.py compares every accepted and refused parameter set),
built here on our layouts. The datapaths are PTX's (ISA 9.7.16.10.5, "Data path layout
organization"; docs/presets.md): which TMEM lanes a ``tcgen05.mma`` writes its (rows, N)
accumulator to.

>>> str(tmem_datapath_layout("F", 64, 32, sub_slab=1))
'S[(4,16,32):(32@TLane,1@TLane,1@TCol)] + 16@TLane'
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from ..core.errors import LayoutError, shown
from ..core.iter import Iter
from ..presets.digits import digits_layout
from ..presets.tmem import datapath_digits
from .dtype import dtype_bits
from .errors import TirxTypeError, check_int, check_ints
from .layouts import TileLayout
from .spec import Axis, R, S

#: per-CTA accumulator rows of each datapath (PTX ISA 9.7.16.10.5)
DATAPATH_ROWS = MappingProxyType({"A": 128, "B": 64, "C": 64, "D": 128, "E": 64, "F": 64, "G": 32})

_TLANE, _TCOL = Axis.get("TLane"), Axis.get("TCol")


class TmemLayoutError(LayoutError):
    """A datapath, shape or instruction parameter TIRx's constructors refuse."""


def tmem_datapath_layout(datapath: str, rows: int, cols: int, sub_slab: int = 0) -> TileLayout:
    """The (rows, cols) accumulator of a tcgen05 MMA datapath on ``TLane`` / ``TCol``.

    A/D: identity rows -> lanes (128 rows). B/E: 64 rows, column halves on lanes +64.
    C/F: 64 rows, 16 per warp quarter (``sub_slab=1`` the upper 16 lanes of each).
    G: 32 rows, column quarters on lanes +32. Refusals say what TIRx says
    (``"... expects rows=64, got 128"``, ``"sub_slab must be 0 or 1, got 2"``).

    >>> str(tmem_datapath_layout("B", 64, 16))
    'S[(64,2,8):(1@TLane,64@TLane,1@TCol)]'
    """
    if not isinstance(datapath, str) or datapath not in DATAPATH_ROWS:
        raise TmemLayoutError(f"tmem_datapath_layout: unknown datapath {shown(datapath)}; "
                              f"supported: {sorted(DATAPATH_ROWS)}")
    rows = check_int(rows, "tmem_datapath_layout: rows")
    cols = check_int(cols, "tmem_datapath_layout: cols", low=1)
    sub_slab = check_int(sub_slab, "tmem_datapath_layout: sub_slab")
    if rows != DATAPATH_ROWS[datapath]:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath={datapath!r} expects "
                              f"rows={DATAPATH_ROWS[datapath]}, got {rows}")
    if sub_slab not in (0, 1):
        raise TmemLayoutError(f"tmem_datapath_layout: sub_slab must be 0 or 1, got {sub_slab}")
    if datapath in "AD" and sub_slab:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath={datapath!r} (M=128) already "
                              f"spans both sub-slabs; sub_slab must be 0, got {sub_slab}")
    if datapath == "G" and sub_slab:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath='G' folds column quarters "
                              f"across full 32-lane slabs; sub_slab must be 0, got {sub_slab}")
    if datapath in "BE" and sub_slab:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath={datapath!r} folds column "
                              f"halves across full 64-lane halves; sub_slab must be 0, got "
                              f"{sub_slab}")
    if datapath == "G" and cols % 4:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath='G' requires cols % 4 == 0, "
                              f"got {cols}")
    if datapath in "BE" and cols % 2:
        raise TmemLayoutError(f"tmem_datapath_layout: datapath={datapath!r} expects even "
                              f"cols, got {cols}")
    row_digits, col_digits = datapath_digits(datapath, cols)  # one CTA's rows: as TIRx
    return TileLayout(digits_layout(row_digits, col_digits,
                                    offset={"TLane": 16} if sub_slab else None))


def mma_datapath(M: int, cta_group: int, ws: bool = False, sparse: bool = False) -> str:  # noqa: N803
    """The datapath letter of a ``tcgen05.mma`` (instruction M, cta_group, .ws), as
    apache/tvm main picks it (sparse A, M=32 and ``.ws`` other than M=64 refused there).

    >>> mma_datapath(64, 1, ws=True), mma_datapath(256, 2)
    ('E', 'A')
    """
    M = check_int(M, "M")
    cta_group = check_int(cta_group, "cta_group")
    for flag, what in ((ws, "ws"), (sparse, "sparse")):
        if not isinstance(flag, bool):
            raise TirxTypeError(f"{what} is True or False, got {shown(flag)}")
    if sparse:
        raise TmemLayoutError(f"alloc_tcgen05_mma_AB: sparse A (Layout C) not supported "
                              f"(M={M}, cta_group={cta_group})")
    if ws and not (cta_group == 1 and M == 64):
        raise TmemLayoutError(f"alloc_tcgen05_mma_AB: ws=True only valid for cta_group=1, "
                              f"M=64 (Layout E); got M={M}, cta_group={cta_group}")
    letter = {(1, 128): "D", (1, 64): "E" if ws else "F", (2, 256): "A", (2, 128): "B"}
    if (cta_group, M) not in letter:
        raise TmemLayoutError(f"alloc_tcgen05_mma_AB: no supported datapath for M={M}, "
                              f"cta_group={cta_group}, ws={ws} (supported: cta1 M in "
                              f"{{64,128}}, cta2 M in {{128,256}})")
    return letter[cta_group, M]


def _accumulator(datapath: str, ext: list[int], rows) -> TileLayout:
    folded = datapath in "BE"
    if len(ext) == 2:
        rows(ext[0])
        return tmem_datapath_layout(datapath, ext[0], ext[1])
    if len(ext) == 3 and ext[0] == 2 and folded:  # batched C[2, m, N/2]
        rows(ext[1])
        return TileLayout(S[tuple(ext):(64 @ _TLANE, 1 @ _TLANE, 1 @ _TCOL)])
    if len(ext) == 3 and ext[1] == 2 and folded:  # (m, 2, N/2)
        rows(ext[0])
        return TileLayout(S[tuple(ext):(1 @ _TLANE, 64 @ _TLANE, 1 @ _TCOL)])
    if len(ext) == 4 and ext[2] == 2 and folded:  # (m, s, 2, n)
        rows(ext[0])
        return TileLayout(S[tuple(ext):(1 @ _TLANE, ext[3] @ _TCOL, 64 @ _TLANE, 1 @ _TCOL)])
    raise TmemLayoutError(f"alloc_tcgen05_mma_D: unsupported D shape {ext} for datapath "
                          f"{datapath}: expected (m, N), or (2, m, N/2) / (m, 2, N/2) / "
                          f"(m, s, 2, n) for B and E")


def _operand_a(datapath: str, ext: list[int], rows) -> TileLayout:
    if datapath in "ADF" and len(ext) == 2:
        rows(ext[0])
        return TileLayout(S[tuple(ext):(1 @ _TLANE, 1 @ _TCOL)])
    if datapath in "BE" and len(ext) == 3 and ext[0] == 2:  # bank-batched (2, m, K)
        rows(ext[1])
        return TileLayout(S[tuple(ext):(64 @ _TLANE, 1 @ _TLANE, 1 @ _TCOL)])
    if datapath == "B" and len(ext) == 2:  # one (m, K) copy on both lane halves
        rows(ext[0])
        return TileLayout(S[tuple(ext):(1 @ _TLANE, 1 @ _TCOL)] + R[2:64 @ _TLANE])
    wanted = {"A": "identity needs 2D (m,K)", "D": "identity needs 2D (m,K)",
              "F": "needs 2D (m,K)", "B": "needs (64,K) replica or (2,64,K) bank-batched",
              "E": "(M=64 .ws) requires bank-batched (2,64,K); a flat A is rejected (hidden "
                   "second-half read)"}
    raise TmemLayoutError(f"alloc_tcgen05_mma_A: datapath {datapath} {wanted[datapath]}, "
                          f"got {ext}")


def tmem_mma_operand_layout(operand: str, shape: Sequence[int], dtype: str, *, M: int,  # noqa: N803
                            cta_group: int, ws: bool = False, sparse: bool = False,
                            group: Sequence[int] | None = None) -> TileLayout:
    """The TMEM layout of a tcgen05 MMA operand: ``"A"`` (A in tensor memory) or ``"D"``
    (the accumulator), for instruction ``M`` (per-CTA rows ``M // cta_group``). A 16-bit
    accumulator keeps one element per 32-bit cell (TCol strides doubled); ``group=(s, 2,
    n)`` splits a flat (m, N) B/E accumulator into ``s`` column segments. Refusals use
    apache/tvm main's wording (``"ws=True only valid for cta_group=1, M=64"``).

    >>> str(tmem_mma_operand_layout("D", (64, 32), "float16", M=64, cta_group=1))
    'S[(4,16,32):(32@TLane,1@TLane,2@TCol)]'
    """
    datapath = mma_datapath(M, cta_group, ws, sparse)
    per_cta = M // cta_group
    ext = list(check_ints(shape, "shape", low=1))
    bits = dtype_bits(dtype)

    def rows(m: int) -> None:
        if m != per_cta:
            raise TmemLayoutError(f"alloc_mma_{operand}: M={M}, cta_group={cta_group} expects "
                                  f"per-CTA rows {per_cta}, got {m} (shape {ext})")

    if operand == "D" and group is not None:
        if len(ext) != 2:
            raise TmemLayoutError(f"alloc_tcgen05_mma_D group= requires 2D (m,N), got {ext}")
        gs = list(check_ints(group, "group", low=1))
        if len(gs) != 3 or gs[1] != 2:
            raise TmemLayoutError(f"alloc_tcgen05_mma_D group must be (s,2,n), got {tuple(gs)}")
        if gs[0] * 2 * gs[2] != ext[1]:
            raise TmemLayoutError(f"alloc_tcgen05_mma_D group {tuple(gs)} product "
                                  f"{gs[0] * 2 * gs[2]} != N={ext[1]}")
        if datapath not in "BE":
            raise TmemLayoutError(f"alloc_tcgen05_mma_D group= only for Layout B/E, got "
                                  f"{datapath}")
        rows(ext[0])
        m, (s, _, n) = ext[0], gs
        return TileLayout(S[(m, s, 2, n):(1 @ _TLANE, n @ _TCOL, 64 @ _TLANE, 1 @ _TCOL)]
                          ).canonicalize()
    if operand == "D":
        layout = _accumulator(datapath, ext, rows)
    elif operand == "A":
        layout = _operand_a(datapath, ext, rows)
    else:
        raise TmemLayoutError(f"tmem_mma_operand_layout: operand must be 'A' or 'D', got "
                              f"{shown(operand)}")
    if operand == "D" and bits == 16:
        layout = TileLayout.from_iters(
            [Iter(i.extent, i.stride * (2 if i.axis == "TCol" else 1), i.axis)
             for i in layout.shard], layout.replica)
    return layout.canonicalize()


__all__ = ["DATAPATH_ROWS", "TmemLayoutError", "mma_datapath", "tmem_datapath_layout",
           "tmem_mma_operand_layout"]
