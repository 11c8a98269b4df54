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

from ..core.errors import LayoutError
from ..core.iter import Iter
from ..presets.digits import digits_layout
from ..presets.tmem import datapath_digits
from .dtype import dtype_bits
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
    G: 32 rows, column quarters on lanes +32.

    >>> str(tmem_datapath_layout("B", 64, 16))
    'S[(64,2,8):(1@TLane,64@TLane,1@TCol)]'
    """
    if datapath not in DATAPATH_ROWS:
        raise TmemLayoutError(f"unknown datapath {datapath!r}; expected one of "
                              f"{', '.join(sorted(DATAPATH_ROWS))}")
    if rows != DATAPATH_ROWS[datapath]:
        raise TmemLayoutError(f"datapath {datapath} has {DATAPATH_ROWS[datapath]} rows, "
                              f"got rows={rows}")
    if sub_slab not in (0, 1):
        raise TmemLayoutError(f"sub_slab is 0 or 1, got {sub_slab}")
    if datapath not in "CF" and sub_slab:
        raise TmemLayoutError(f"datapath {datapath} already spans both 16-lane halves of "
                              f"each warp quarter; sub_slab must be 0")
    if datapath == "G" and cols % 4:
        raise TmemLayoutError(f"datapath G folds column quarters; cols must be a "
                              f"multiple of 4, got {cols}")
    if datapath in "BE" and cols % 2:
        raise TmemLayoutError(f"datapath {datapath} folds column halves; cols must be "
                              f"even, got {cols}")
    row_digits, col_digits = datapath_digits(datapath, cols)  # one CTA's rows: as TIRx
    return TileLayout(digits_layout(row_digits, col_digits,
                                    offset={"TLane": 16} if sub_slab else None))


def mma_datapath(M: int, cta_group: int, ws: bool = False, sparse: bool = False) -> str:  # noqa: N803
    """The datapath letter of a ``tcgen05.mma`` (instruction M, cta_group, .ws), as TIRx
    picks it (sparse A and M=32 are refused there).

    >>> mma_datapath(64, 1, ws=True), mma_datapath(256, 2)
    ('E', 'A')
    """
    if sparse:
        raise TmemLayoutError(f"sparse A (datapath C) is not supported (M={M}, "
                              f"cta_group={cta_group})")
    if ws and not (cta_group == 1 and M in (64, 128)):
        raise TmemLayoutError(f"ws=True takes cta_group=1 and M 64 or 128; got M={M}, "
                              f"cta_group={cta_group}")
    letter = {(1, 128): "D", (1, 64): "E" if ws else "F", (2, 256): "A", (2, 128): "B"}
    if (cta_group, M) not in letter:
        raise TmemLayoutError(f"no datapath for M={M}, cta_group={cta_group} (cta_group 1 "
                              f"takes M 64 or 128, cta_group 2 takes M 128 or 256)")
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
    raise TmemLayoutError(f"accumulator shape {tuple(ext)} is not one datapath {datapath} "
                          f"takes: (m, N), or (2, m, N/2) / (m, 2, N/2) / (m, s, 2, n) "
                          f"for B and E")


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
    wanted = {"A": "(m, K)", "D": "(m, K)", "F": "(m, K)", "B": "(64, K) or (2, 64, K)",
              "E": "(2, 64, K) (bank-batched; a flat A would hide the second half)"}
    raise TmemLayoutError(f"operand A in datapath {datapath} takes {wanted[datapath]}, "
                          f"got {tuple(ext)}")


def tmem_mma_operand_layout(operand: str, shape: Sequence[int], dtype: str, *, M: int,  # noqa: N803
                            cta_group: int, ws: bool = False, sparse: bool = False,
                            group: Sequence[int] | None = None) -> TileLayout:
    """The TMEM layout of a tcgen05 MMA operand: ``"A"`` (A in tensor memory) or ``"D"``
    (the accumulator), for instruction ``M`` (per-CTA rows ``M // cta_group``). A 16-bit
    accumulator keeps one element per 32-bit cell (TCol strides doubled); ``group=(s, 2,
    n)`` splits a flat (m, N) B/E accumulator into ``s`` column segments.

    >>> str(tmem_mma_operand_layout("D", (64, 32), "float16", M=64, cta_group=1))
    'S[(4,16,32):(32@TLane,1@TLane,2@TCol)]'
    """
    datapath = mma_datapath(M, cta_group, ws, sparse)
    per_cta = M // cta_group
    ext = [int(s) for s in shape]

    def rows(m: int) -> None:
        if m != per_cta:
            raise TmemLayoutError(f"M={M}, cta_group={cta_group} has {per_cta} rows per CTA, "
                                  f"got {m} (shape {tuple(ext)})")

    if operand == "D" and group is not None:
        gs = [int(g) for g in group]
        if len(ext) != 2:
            raise TmemLayoutError(f"group= needs a 2-D (m, N) accumulator, got {tuple(ext)}")
        if len(gs) != 3 or gs[1] != 2:
            raise TmemLayoutError(f"group is (s, 2, n), got {tuple(gs)}")
        if gs[0] * 2 * gs[2] != ext[1]:
            raise TmemLayoutError(f"group {tuple(gs)} has {gs[0] * 2 * gs[2]} columns, N is "
                                  f"{ext[1]}")
        if datapath not in "BE":
            raise TmemLayoutError(f"group= is for datapaths B and E, not {datapath}")
        rows(ext[0])
        m, (s, _, n) = ext[0], gs
        return TileLayout(S[(m, s, 2, n):(1 @ _TLANE, n @ _TCOL, 64 @ _TLANE, 1 @ _TCOL)]
                          ).canonicalize()
    if operand == "D":
        layout = _accumulator(datapath, ext, rows)
    elif operand == "A":
        layout = _operand_a(datapath, ext, rows)
    else:
        raise TmemLayoutError(f"operand is 'A' or 'D', got {operand!r}")
    if operand == "D" and dtype_bits(dtype) == 16:
        layout = TileLayout.from_iters(
            [Iter(i.extent, i.stride * (2 if i.axis == "TCol" else 1), i.axis)
             for i in layout.shard], layout.replica)
    return layout.canonicalize()


__all__ = ["DATAPATH_ROWS", "TmemLayoutError", "mma_datapath", "tmem_datapath_layout",
           "tmem_mma_operand_layout"]
