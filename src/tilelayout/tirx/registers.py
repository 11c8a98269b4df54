"""TIRx kernels' register-side helpers: ``tcgen05_atom_layout`` and ``wg_local_layout``.

``tcgen05_atom_layout(instr_shape, tensor_shape, dtype)`` is the warpgroup's register
tile after ``tcgen05.ld`` / ``tcgen05.st`` ``.<instr_shape>.x<rep>`` (``rep`` from the
column count): each warp of the warpgroup (``wid_in_wg``) reads its own 32-lane quarter
of tensor memory, and inside a warp lanes and registers follow PTX ISA 9.7.16.2.3 (the
per-warp fragments are our ``tcgen05.ld.*`` presets; tests/tirx compare the two). A
16-bit element keeps two per 32-bit register. ``rows`` 128 for a ``.16x*b`` shape issues
the atom twice (both 16-lane halves of each quarter); ``("32x32b", (64, N))`` is the
fp32 image of a datapath-B accumulator (all 128 lanes, N/2 columns).

These two helpers live in the TIRx kernels' layout module (``tvm.tirx.layout``) rather
than in the ``apache-tvm-tirx`` wheel; we follow that source.

>>> str(wg_local_layout(4))
'S[(128,4):(1@tid_in_wg,1)]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import MappingProxyType

from ..core.errors import LayoutError, shown
from ..core.iter import Iter
from ..presets.tcgen05 import NUM_CAP, NUM_CHOICES, TABLE_49, fragment_digits
from .dtype import dtype_bits
from .errors import check_int, check_ints
from .layouts import TileLayout
from .spec import Axis, S

#: 32-bit columns per repetition of each shape (per warp)
COLUMNS_PER_REP = MappingProxyType({"32x32b": 1, "16x64b": 2, "16x128b": 4, "16x256b": 8})
#: warpgroup fragment rows each shape takes
FRAGMENT_ROWS = (64, 128)


def wg_local_layout(cols: int, rows: int = 128) -> TileLayout:
    """A (rows, cols) tile with one row per warpgroup thread and the row in its registers.

    >>> wg_local_layout(8, rows=64).apply(3, 5)
    {'tid_in_wg': 3, 'm': 5}
    """
    cols, rows = check_int(cols, "cols", low=1), check_int(rows, "rows", low=1)
    return TileLayout(S[(rows, cols):(1 @ Axis.tid_in_wg, 1)])


def _reps(shape: str) -> tuple[int, ...]:
    return tuple(n for n in NUM_CHOICES if n <= NUM_CAP[shape])


def _warp_iters(shape: str, n: int) -> tuple[list, list, int]:
    """Row and column iters (32-bit register units) of the warpgroup's 16-lane fragment:
    each warp (``wid_in_wg``) its own lane quarter, inside it the ``tcgen05.ld`` preset's
    fragment (PTX ISA 9.7.16.2.3); and the registers one 16-row slab uses."""
    rows, cols, _ = fragment_digits(shape, n)
    slab = math.prod(e for e, _, a in rows + cols if a == "m")
    return [(4, 1, "wid_in_wg"), *rows], list(cols), slab


def tcgen05_atom_layout(instr_shape: str, tensor_shape: Sequence[int], dtype: str) -> TileLayout:
    """The warpgroup's register tile of a ``tcgen05.ld``/``st`` atom (TIRx's helper).

    >>> str(tcgen05_atom_layout("16x64b", (64, 4), "float32"))
    'S[(4,2,8,2,2):(1@wid_in_wg,1@laneid,4@laneid,1,2@laneid)]'
    """
    if not isinstance(instr_shape, str) or instr_shape not in COLUMNS_PER_REP:
        raise LayoutError(f"tcgen05_atom_layout instr_shape must be one of "
                          f"{list(COLUMNS_PER_REP)}, got {shown(instr_shape)}")
    bits = dtype_bits(dtype)
    if bits not in (16, 32):
        raise LayoutError(f"tcgen05_atom_layout dtype must be a 32-bit or 16-bit type, got "
                          f"{dtype} ({bits} bits)")
    if not isinstance(tensor_shape, list | tuple) or len(tensor_shape) != 2:
        raise LayoutError(f"tcgen05_atom_layout tensor_shape must be 2-D (rows, cols), got "
                          f"{shown(tensor_shape)}")
    rows, cols = check_ints(tensor_shape, "tcgen05_atom_layout tensor_shape", low=1)
    if rows not in FRAGMENT_ROWS:
        raise LayoutError(f"tcgen05_atom_layout {instr_shape!r} expects rows in "
                          f"{FRAGMENT_ROWS}, got {rows}")
    tid = "tid_in_wg"
    if instr_shape == "32x32b" and rows == 64:  # datapath B image: (128, N/2) relabelled
        if bits != 32:
            raise LayoutError(f"tcgen05_atom_layout: 32x32b with 64 rows is the datapath B "
                              f"readback image and is fp32-only, got {dtype} ({bits} bits)")
        if cols % 2:
            raise LayoutError(f"tcgen05_atom_layout: 32x32b (64, N) datapath B image expects "
                              f"even N, got {cols}")
        if cols // 2 not in _reps(instr_shape):
            raise LayoutError(f"tcgen05_atom_layout: 32x32b (64, N) datapath B image needs "
                              f"N/2={cols // 2} (from N={cols}) in the PTX Table 49 set "
                              f"{_reps(instr_shape)} ({TABLE_49})")
        return TileLayout.from_iters([Iter(64, 1, tid), Iter(2, 64, tid), Iter(cols // 2, 1)])
    per_reg = 32 // bits
    unit = COLUMNS_PER_REP[instr_shape] * per_reg
    if cols % unit:
        raise LayoutError(f"tcgen05_atom_layout cols={cols} not divisible by the per-rep "
                          f"column factor {unit} for instr_shape={instr_shape!r} dtype={dtype}; "
                          f"valid cols are k * {unit} for k in {_reps(instr_shape)}")
    if cols // unit not in _reps(instr_shape):
        raise LayoutError(f"tcgen05_atom_layout inferred rep={cols // unit} (from cols={cols}) "
                          f"is not in the PTX Table 49 supported set for {instr_shape}: "
                          f"{_reps(instr_shape)} ({TABLE_49})")
    if instr_shape == "32x32b":
        return TileLayout.from_iters([Iter(rows, 1, tid), Iter(cols, 1)])
    row_iters, col_iters, slab = _warp_iters(instr_shape, cols // unit)
    if rows == 128:  # the second issue (lanes 16..31 of each quarter) is the next row bit
        row_iters.insert(1, (2, slab, "m"))
    scaled = [(e, s * per_reg if a == "m" else s, a) for e, s, a in row_iters + col_iters]
    if per_reg > 1:
        scaled.append((per_reg, 1, "m"))
    return TileLayout.from_iters([Iter(*it) for it in scaled])


__all__ = ["COLUMNS_PER_REP", "FRAGMENT_ROWS", "tcgen05_atom_layout", "wg_local_layout"]
