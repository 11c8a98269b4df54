"""tilelayout: named-axis tensor layouts.

Write a layout in the text form, evaluate it exactly, and see where every element
lives: memory addresses, GPU lanes and warps, tensor memory, Trainium partitions,
devices of a mesh.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> L.apply((0, 8), shape=(8, 16))
({laneid: 0, warpid: 6, m: 0}, {laneid: 0, warpid: 10, m: 0})
"""

import difflib
import importlib

from .algebra.canonical import canonicalize
from .algebra.common_vector import max_common_vector
from .algebra.complement import complement
from .algebra.composition import compose
from .algebra.equivalence import equivalent
from .algebra.group import group
from .algebra.inversion import inverse, inverse_shape
from .algebra.packing import pack, storage, unpack
from .algebra.slicing import permute_dims, slice_layout
from .algebra.span import span, value_range
from .algebra.tiling import direct_sum, inner_of, outer_of, tile, tile_span, tile_to
from .analysis.banks import BankAccess, bank_access, bank_map, bank_of
from .analysis.conflicts import (
    ConflictReport,
    TileConflicts,
    bank_conflicts,
    smem_wavefronts,
    tile_conflicts,
)
from .analysis.explain import Explanation, explain
from .analysis.legality import Finding, LegalityReport, legality
from .analysis.reads import TileRead, TileReads, tile_reads
from .codegen.generate import CodegenError, codegen
from .codegen.inverse import NotInvertibleError
from .core import operations as _operations
from .core.axes import (
    Axis,
    AxisTable,
    axes,
    axis,
    declare_axis,
    is_axis,
)
from .core.budget import Limits, limits
from .core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from .core.compose import ComposeLayout, Layout
from .core.coord import Coord
from .core.dtypes import DTYPES, dtype_bits, dtype_bytes
from .core.errors import (
    AlgebraError,
    BudgetError,
    DtypeError,
    IndexOutOfRangeError,
    LayoutError,
    LayoutOverflowError,
    LayoutParseError,
    LayoutTypeError,
    ShapeError,
    SwizzleError,
    TooManyElementsError,
    UnknownAxisError,
    UnknownTargetError,
)
from .core.iter import Iter
from .core.swizzle import SWIZZLE_MODES, Swizzle
from .core.targets import TARGETS, Target, target
from .core.tile import TileLayout
from .core.version import __version__ as __version__
from .core.xor_swizzle import XorSwizzle
from .eval.inverse import count_at, elements_at
from .planning.mechanisms.staging.access import AccessReport, smem_access
from .planning.mechanisms.staging.smem_choice import SmemChoice, choose_smem_layout
from .planning.model.placement import PlanError
from .planning.plan import ConversionPlan, plan_conversion
from .syntax import format_layout, parse, parse_tile
from .syntax.builder import R, S, axis_ref

__all__ = [
    "BankAccess",
    "TileConflicts",
    "TileRead",
    "TileReads",
    "bank_access",
    "tile_reads",
    "DTYPES",
    "R",
    "S",
    "SMEM_BANKS",
    "SMEM_BANK_BYTES",
    "SWIZZLE_MODES",
    "AccessReport",
    "AlgebraError",
    "Axis",
    "AxisTable",
    "BudgetError",
    "CodegenError",
    "ComposeLayout",
    "ConflictReport",
    "ConversionPlan",
    "Coord",
    "DtypeError",
    "Explanation",
    "Finding",
    "IndexOutOfRangeError",
    "Iter",
    "Layout",
    "LayoutError",
    "LayoutOverflowError",
    "LayoutTypeError",
    "LayoutParseError",
    "LegalityReport",
    "Limits",
    "NotInvertibleError",
    "PlanError",
    "ShapeError",
    "SmemChoice",
    "Swizzle",
    "SwizzleError",
    "TooManyElementsError",
    "TileLayout",
    "UnknownAxisError",
    "UnknownTargetError",
    "TARGETS",
    "Target",
    "target",
    "XorSwizzle",
    "axes",
    "axis",
    "axis_ref",
    "bank_conflicts",
    "bank_map",
    "bank_of",
    "canonicalize",
    "choose_smem_layout",
    "codegen",
    "complement",
    "compose",
    "count_at",
    "declare_axis",
    "direct_sum",
    "dtype_bits",
    "dtype_bytes",
    "elements_at",
    "equivalent",
    "explain",
    "format_layout",
    "group",
    "inner_of",
    "inverse",
    "inverse_shape",
    "legality",
    "limits",
    "max_common_vector",
    "outer_of",
    "pack",
    "parse",
    "parse_tile",
    "permute_dims",
    "plan_conversion",
    "slice_layout",
    "smem_access",
    "smem_wavefronts",
    "span",
    "storage",
    "tile_conflicts",
    "tile",
    "tile_span",
    "tile_to",
    "unpack",
    "value_range",
    "widget",
]

# every layer is imported: the layout methods become plain functions on their classes, once
_operations.bind_methods()


def widget(layout_or_preset: Layout | str, shape: tuple[int, ...] | None = None,
           **params: object) -> object:
    """The explorer's view of a layout or preset as a notebook widget, run by the kernel
    (:func:`tilelayout.explorer.widget.widget`; needs the ``widget`` extra). Outside a
    notebook a warning says where it can be shown and the static SVG view is returned.

    >>> import tilelayout as tl, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     tl.widget("mma.m16n8k16.C", color="laneid").query
    'preset=mma.m16n8k16.C&p.dtype=float32&color=laneid'
    """
    return importlib.import_module(".explorer.widget", __name__).widget(layout_or_preset, shape,
                                                                         **params)


def __getattr__(name: str):
    """``tl.presets`` / ``tl.interop`` (imported on first use), and ``tl.laneid``,
    ``tl.TCol``, ``tl.<axis in force>``: axis references for the builder."""
    if name in ("presets", "interop", "render"):
        return importlib.import_module(f".{name}", __name__)

    if is_axis(name):
        return axis_ref(name)
    close = difflib.get_close_matches(name, [a.name for a in axes()], n=1, cutoff=0.6)
    hint = f"; did you mean the axis '{close[0]}' (tl.{close[0]})?" if close else ""
    raise AttributeError(f"module 'tilelayout' has no attribute {name!r}{hint}")
