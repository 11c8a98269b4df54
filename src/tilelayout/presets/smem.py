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
from ..core.tile import TileLayout
from .registry import Built, Param, fail, register

DTYPE_CHOICES = ("float16", "bfloat16", "float8", "e4m3", "e5m2", "int8", "float32",
                 "tfloat32")
MODE_CHOICES = ("none", "32B", "64B", "128B")
#: bytes per swizzled row of the K-major atom (PTX 9.7.15.5.1.2: 8 rows of this width)
ATOM_ROW_BYTES = {"none": 16, "32B": 32, "64B": 64, "128B": 128}

_SOURCE = ("PTX ISA 5.5.7 (#tensor-swizzling-modes) and 9.7.15.5.1.2 (swizzle atoms); "
           "CuTe Swizzle<B,4,3> on byte addresses (include/cute/swizzle.hpp)")


def _compose(dtype: str, mode: str, tile: TileLayout) -> TileLayout | ComposeLayout:
    if mode == "none":
        return tile
    return ComposeLayout(Swizzle.for_dtype(dtype, mode), tile)


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
    bytes with the logical tensor transposed). Logical shape (8, row_bytes / dtype
    bytes), row-major at a base aligned to the pattern's repeat (256/512/1024 B);
    ``m`` is the swizzled element address.

    Formula (byte address a = element address * bytes, k = 2/4/8 for 32B/64B/128B):
      phys = a ^ (((a >> 7) & (k - 1)) << 4)                       (PTX 5.5.7)
      = CuTe Swizzle<log2 k, 4, 3> on bytes = Swizzle(log2(16/bytes), log2 k, 3) on
      elements (CuTe upcast; tilelayout.Swizzle.for_dtype).

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes) and 9.7.15.5.1.2; CuTe
    include/cute/swizzle.hpp and include/cute/swizzle_layout.hpp (tests evaluate both).
    """
    cols = ATOM_ROW_BYTES[mode] // dtype_bytes(dtype)
    tile = TileLayout([(8, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, tile), (8, cols), dtype=dtype, swizzle_mode=mode)


@register(
    "smem.tile",
    summary="row-major shared-memory tile with a 32B/64B/128B swizzle: (rows, cols) -> m",
    source=_SOURCE,
    params=[Param("dtype", "choice", "float16", DTYPE_CHOICES, doc="element type"),
            Param("mode", "choice", "128B", MODE_CHOICES, doc="swizzle mode"),
            Param("shape", "shape", (8, 64), doc="(rows, cols) of the tile")],
    example_at=(7, 0),
)
def tile(dtype: str = "float16", mode: str = "128B", shape: tuple[int, ...] = (8, 64)) -> Built:
    """A row-major (rows, cols) shared-memory tile written with a swizzle mode.

    Hardware object: a tile in shared memory as TMA writes it with
    CU_TENSOR_MAP_SWIZZLE_{32B,64B,128B} (and as wgmma/tcgen05 descriptors read it),
    starting at a base aligned to the pattern's repeat (256/512/1024 B), so the PTX
    base offset is 0. ``m`` is the swizzled element address; rows of 128 bytes make
    one bank line each (the reference document's (8, 64) float16 example is the default).

    Formula: element (r, c) has linear byte address a = (r * cols + c) * bytes and
    lives at phys = a ^ (((a >> 7) & (k - 1)) << 4), k = 2/4/8 (PTX 5.5.7).
    Requires rows of whole 16-byte chunks and whole 128-byte lines when swizzled.

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes); CuTe Swizzle<B,4,3> on bytes
    (include/cute/swizzle.hpp, include/cute/atom/mma_traits_sm90_gmma.hpp).
    """
    if len(shape) != 2:
        raise fail("smem.tile", f"shape must be (rows, cols), got {shape}")
    rows, cols = shape
    b = dtype_bytes(dtype)
    if mode != "none":
        if (cols * b) % 16:
            raise fail("smem.tile", f"a swizzled row must be whole 16-byte chunks; "
                       f"{cols} x {dtype} is {cols * b} bytes (use cols a multiple of {16 // b})")
        if (rows * cols * b) % 128:
            raise fail("smem.tile", f"a swizzled tile must be whole 128-byte lines; "
                       f"{rows} x {cols} x {dtype} is {rows * cols * b} bytes")
    layout = TileLayout([(rows, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, layout), (rows, cols), dtype=dtype, swizzle_mode=mode)
