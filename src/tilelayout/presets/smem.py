"""Shared-memory swizzle atoms and swizzled tiles (TMA / wgmma / tcgen05 operands).

The hardware XORs 16-byte-chunk bits of the *byte* address: for 32B/64B/128B mode,
``phys = a ^ (((a >> 7) & (k - 1)) << 4)`` with k = 2/4/8 (PTX 5.5.7). In element
units of a ``b``-byte type this is ``Swizzle(M=log2(16/b), B=log2 k, S=3)``, which is
exactly :meth:`tilelayout.Swizzle.for_dtype`; the presets compose it with a row-major
tile, so element (r, c) lands at swizzled element address ``m``.

>>> from tilelayout import presets
>>> str(presets.get("smem.swizzle_atom", dtype="float16", mode="64B").layout)
'ComposeLayout(Swizzle(3,2,3), S[(8,32):(32,1)])'
"""

from __future__ import annotations

from ..core.compose import ComposeLayout
from ..core.dtypes import dtype_bytes
from ..core.swizzle import Swizzle
from ..core.swizzle_modes import ENCODINGS, MODE_NAMES, mode_info
from ..core.tile import TileLayout
from .registry import Built, Param, fail, register

DTYPE_CHOICES = ("float16", "bfloat16", "float8", "e4m3", "e5m2", "int8", "float32",
                 "tfloat32")
#: the swizzle modes, their row widths, atomicity and encodings: the one table in
#: core/swizzle_modes.py (docs/hardware.md)
MODE_CHOICES = MODE_NAMES

_SOURCE = ("PTX ISA 5.5.7 (#tensor-swizzling-modes) and 9.7.15.5.1.2 (swizzle atoms); "
           "CuTe Swizzle<B,4,3> on byte addresses (include/cute/swizzle.hpp)")


def _compose(dtype: str, mode: str, tile: TileLayout) -> TileLayout | ComposeLayout:
    if mode == "none":
        return tile
    return ComposeLayout(Swizzle.for_dtype(dtype, mode), tile)


def encodings(mode: str) -> str:
    """One line per encoding that accepts ``mode`` (and the ones that do not).

    >>> print(encodings("128B_atom64B").splitlines()[1])
    wgmma descriptor: not encodable
    """
    return "\n".join(f"{ENCODINGS[k]}: {v if v is not None else 'not encodable'}"
                     for k, v in mode_info(mode).encodings().items())


@register(
    "smem.swizzle_atom",
    summary="shared-memory swizzle atom (K-major): (8, row bytes / dtype) -> swizzled m",
    source=_SOURCE,
    params=[Param("dtype", "choice", "float16", DTYPE_CHOICES, doc="element type"),
            Param("mode", "choice", "128B", MODE_CHOICES, doc="swizzle mode")],
    example_at=(1, 0),
)
def swizzle_atom(dtype: str = "float16", mode: str = "128B") -> Built:
    """One shared-memory swizzle atom: 8 rows of the mode's width (K-major).

    Hardware object: the unit the TMA unit and wgmma/tcgen05 descriptors swizzle in:
    8 rows x 16/32/64/128 bytes for none/32B/64B/128B (PTX 9.7.15.5.1.2 lists the
    K-major atoms as 8x1, 8x2, 8x4, 8x8 16-byte units; the MN-major atom is the same
    bytes with the logical tensor transposed); the 128B mode with 32-/64-byte
    atomicity keeps the 8 x 128-byte atom; 96B (sm_103a) has the 32B pattern, so its
    atom is the 32B one (a TMA box row may be up to 96 bytes wide). Logical shape
    (8, row_bytes / dtype bytes), row-major at a base aligned to the pattern's repeat;
    ``m`` is the swizzled element address.

    Formula (byte address a = element address * bytes, k = 2/4/8 for 32B/64B/128B):
      phys = a ^ (((a >> 7) & (k - 1)) << 4)                       (PTX 5.5.7)
      = CuTe Swizzle<log2 k, 4, 3> on bytes = Swizzle(log2(16/bytes), log2 k, 3) on
      elements (CuTe upcast; tilelayout.Swizzle.for_dtype). 96B: as 32B.
      128B_atom32B: phys = a ^ (((a >> 7) & 3) << 5)  = Swizzle<2,5,2> on bytes
      128B_atom64B: phys = a ^ (((a >> 7) & 1) << 6)  = Swizzle<1,6,1> on bytes
    Encodings that accept each mode: see docs/hardware.md (TMA, wgmma and tcgen05
    descriptors, CuTe, Triton); e.g. 128B_atom32B is tcgen05 descriptor value 1 for
    MN-major operands only, 128B_atom64B has no descriptor value (TMA only).

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes), Table 14, 9.7.15.5.1.2 and
    9.7.16.4.1 (Table 40); CuTe include/cute/swizzle.hpp, include/cute/swizzle_layout.hpp
    and Layout_MN_SW128_32B_Atom (include/cute/atom/mma_traits_sm100.hpp) (tests
    evaluate both).
    """
    cols = mode_info(mode).span_bytes // dtype_bytes(dtype)
    tile = TileLayout([(8, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, tile), (8, cols), dtype=dtype, swizzle_mode=mode)


#: how ``smem.tile`` places the boxes of a tile wider than one swizzle span
ATOM_ORDERS = ("mn_first", "k_first", "single_box")


def box_bytes(mode: str) -> int:
    """The widest TMA box row a swizzle mode takes, in bytes: the swizzle span (32 / 64 /
    128 B; the 128B sub-modes 128 B), 96 B for 96B; unbounded (0) without a swizzle.

    >>> box_bytes("128B"), box_bytes("96B"), box_bytes("none")
    (128, 96, 0)
    """
    if mode == "none":
        return 0
    info = mode_info(mode)
    return info.span_bytes if info.max_row_bytes is None else info.max_row_bytes


def tma_boxes(dtype: str, mode: str, shape: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    """``(count, (rows, box cols))``: the TMA boxes that write a (rows, cols) tile, each
    one swizzle span wide (the whole row when it fits in one).

    >>> tma_boxes("float16", "128B", (128, 128))
    (2, (128, 64))
    """
    rows, cols = shape
    span = box_bytes(mode) // dtype_bytes(dtype)
    if not span or cols <= span:
        return 1, (rows, cols)
    return cols // span, (rows, span)


@register(
    "smem.tile",
    summary="shared-memory tile as TMA writes it: one box per swizzle span of K, rows "
    "first, then K, any swizzle mode of the table (docs/hardware.md): (rows, cols) -> m",
    source=_SOURCE + "; box placement: CUTLASS tile_to_shape of the GMMA atoms "
    "(include/cute/atom/mma_traits_sm90_gmma.hpp), PTX 9.7.9.27.1.1 (box inner dim <= "
    "swizzle span)",
    params=[Param("dtype", "choice", "float16", DTYPE_CHOICES, doc="element type"),
            Param("mode", "choice", "128B", MODE_CHOICES, doc="swizzle mode"),
            Param("shape", "shape", (8, 64), doc="(rows, cols) of the tile"),
            Param("atom_order", "choice", "mn_first", ATOM_ORDERS,
                  doc="boxes of one swizzle span: all rows of a box, then the next box "
                  "along K (mn_first, as TMA, the wgmma/tcgen05 descriptors, TIRx and "
                  "CUTLASS place them); k_first: 8-row bands of atoms along K; "
                  "single_box: the whole row as one box (refused wider than the span)")],
    example_at=(7, 0),
)
def tile(dtype: str = "float16", mode: str = "128B", shape: tuple[int, ...] = (8, 64),
         atom_order: str = "mn_first") -> Built:
    """A (rows, cols) shared-memory tile as TMA writes it with a swizzle mode.

    Hardware object: a tile in shared memory written by TMA with
    CU_TENSOR_MAP_SWIZZLE_{32B,64B,128B} (and read by wgmma/tcgen05 descriptors), at a
    base aligned to the pattern's repeat (256/512/1024 B), so the PTX base offset is 0.
    A TMA box row is at most the swizzle span (32/64/128 B; 96 B for 96B), so a wider
    tile is ``cols / span`` boxes (:func:`tma_boxes` names the count): each box holds
    all the rows of one span of K, row-major, and the boxes follow each other along K
    -- the order TIRx's ``mma_shared_layout`` and CUTLASS's ``tile_to_shape`` of the
    GMMA atom use, and the one the descriptors' leading-byte offset steps over. ``m``
    is the swizzled element address. The reference document's (8, 64) float16 example
    (one 128-byte box) is the default.

    Formula: W = span / bytes elements per box row; element (r, c) has linear byte
    address a = ((c // W) * rows * W + r * W + c % W) * bytes and lives at
    phys = a ^ (((a >> 7) & (k - 1)) << 4), k = 2/4/8 (PTX 5.5.7); the 128B_atom32B /
    128B_atom64B / 96B modes as in smem.swizzle_atom. ``atom_order="k_first"`` puts
    8-row bands one after the other instead (a = (r // 8) * 8 * cols + (c // W) * 8 * W
    + (r % 8) * W + c % W); ``atom_order="single_box"`` is one row-major box (a =
    r * cols + c), refused when a row is wider than the span.
    Requires rows of whole units of the mode's atomicity (16 B; 32 B / 64 B for the 128B
    sub-modes), whole 128-byte lines when swizzled, and cols a multiple of W when wider.

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes) and 9.7.9.27.1.1 (box limits); CuTe
    Swizzle<B,4,3> on bytes (include/cute/swizzle.hpp); CUTLASS tile_to_shape of the
    GMMA atoms (include/cute/atom/mma_traits_sm90_gmma.hpp).
    """
    if len(shape) != 2:
        raise fail("smem.tile", f"shape must be (rows, cols), got {shape}")
    rows, cols = shape
    b = dtype_bytes(dtype)
    count, (_, width) = tma_boxes(dtype, mode, (rows, cols))
    if mode != "none":
        info = mode_info(mode)
        unit = info.atomicity_bytes
        if (cols * b) % unit:
            raise fail("smem.tile", f"a {mode}-swizzled row must be whole {unit}-byte units "
                       f"(the mode's atomicity, PTX 5.5.7); {cols} x {dtype} is {cols * b} "
                       f"bytes (use cols a multiple of {max(1, unit // b)})")
        span = box_bytes(mode)
        own_limit = info.max_row_bytes is not None  # a mode whose tiles are one box wide
        if cols * b > span and (atom_order == "single_box" or own_limit):
            raise fail("smem.tile", f"one TMA box row is at most the {mode} swizzle span, "
                       f"{span} bytes (PTX ISA 9.7.9.27.1.1); a row of {cols} x {dtype} is "
                       f"{cols * b} bytes" + ("" if own_limit else
                       f" (use atom_order='mn_first': {cols * b // span} boxes of {span} bytes)"))
        if cols % width:
            raise fail("smem.tile", f"a row wider than the {mode} span must be whole boxes "
                       f"of {width} x {dtype} ({span} bytes); {cols} is not a multiple")
        if (rows * cols * b) % 128:
            raise fail("smem.tile", f"a swizzled tile must be whole 128-byte lines; "
                       f"{rows} x {cols} x {dtype} is {rows * cols * b} bytes")
        if atom_order == "k_first" and count > 1 and rows % 8:
            raise fail("smem.tile", f"k_first places 8-row bands of atoms; {rows} rows is "
                       f"not a multiple of 8")
    if count == 1 or atom_order == "single_box":
        layout = TileLayout([(rows, cols, "m"), (cols, 1, "m")])
    elif atom_order == "k_first":
        layout = TileLayout([(rows // 8, 8 * cols, "m"), (8, width, "m"),
                             (count, 8 * width, "m"), (width, 1, "m")])
    else:
        layout = TileLayout([(rows, width, "m"), (count, rows * width, "m"), (width, 1, "m")])
    return Built(_compose(dtype, mode, layout), (rows, cols), dtype=dtype, swizzle_mode=mode)
