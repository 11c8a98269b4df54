"""TIRx's Python layout API on tilelayout's objects: change one import, keep the code.

``import tilelayout.tirx as T`` in place of ``from tvm_tirx.script import tirx as T``
(or ``tvm.tirx.layout``): ``T.TileLayout(T.S[...] + T.R[...] + offset)``, axes as
attributes (``T.laneid``, ``T.TLane``, ``T.m``, ``T.Axis.get(name)``), ``apply`` returning
the base coordinate dict, ``T.ComposeLayout(per_element, swizzle_len, atom_len,
tile_layout, swizzle_inner=True)`` and the CUDA constructors under TIRx's names. The
objects are ours: every ``tl`` function takes them. docs/interop/tvm.md lists the two
APIs side by side and the deliberate differences.

>>> import tilelayout.tirx as T
>>> L = T.TileLayout(T.S[(8, 2, 4, 2):(4 @ T.laneid, 1 @ T.warpid, 1 @ T.laneid, 1)]
...                  + T.R[2:4 @ T.warpid] + 5 @ T.warpid)
>>> L.apply(1, 3, shape=[8, 16]), L.apply(7, 1, 3, 1), L.span("laneid")
({'laneid': 5, 'warpid': 5, 'm': 1}, {'laneid': 31, 'warpid': 6, 'm': 1}, 32)
"""

from __future__ import annotations

from ..core.axes import is_axis
from .errors import TirxAssertionError, TirxInternalError, TirxTypeError
from .layouts import ComposeLayout, Iter, SwizzleLayout, TileLayout, wrap
from .registers import tcgen05_atom_layout, wg_local_layout
from .smem import SwizzleMode, mma_atom_layout, mma_atom_shape, mma_shared_layout
from .spec import AXIS_NAMES, Axis, R, S, ScopeName
from .spelling import fresh_var  # noqa: F401 (binds printing and evaluation)
from .symbolic import PrimExpr, Var
from .threads import target
from .tmem import TmemLayoutError, tmem_datapath_layout, tmem_mma_operand_layout

Layout = TileLayout | ComposeLayout


def __getattr__(name: str) -> Axis:
    """``T.laneid``, ``T.TLane``, ``T.m``, ...: every registered axis is an attribute."""
    if name in AXIS_NAMES or (not name.startswith("_") and is_axis(name)):
        return Axis(name)
    raise AttributeError(f"module 'tilelayout.tirx' has no attribute {name!r}")


__all__ = [
    "Axis", "ComposeLayout", "Iter", "Layout", "PrimExpr", "R", "S", "ScopeName",
    "SwizzleLayout", "SwizzleMode", "TileLayout", "TirxAssertionError", "TirxInternalError",
    "TirxTypeError", "TmemLayoutError", "Var", "mma_atom_layout", "mma_atom_shape",
    "mma_shared_layout", "target", "tcgen05_atom_layout", "tmem_datapath_layout",
    "tmem_mma_operand_layout", "wg_local_layout", "wrap",
]
