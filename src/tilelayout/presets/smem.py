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


@register(
    "smem.tile",
    summary="row-major shared-memory tile with any swizzle mode of the table "
    "(docs/hardware.md): (rows, cols) -> m",
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
    lives at phys = a ^ (((a >> 7) & (k - 1)) << 4), k = 2/4/8 (PTX 5.5.7); the
    128B_atom32B / 128B_atom64B / 96B modes as in smem.swizzle_atom.
    Requires rows of whole units of the mode's atomicity (16 B; 32 B / 64 B for the 128B
    sub-modes) and whole 128-byte lines when swizzled; 96B rows of at most 96 bytes.

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes); CuTe Swizzle<B,4,3> on bytes
    (include/cute/swizzle.hpp, include/cute/atom/mma_traits_sm90_gmma.hpp).
    """
    if len(shape) != 2:
        raise fail("smem.tile", f"shape must be (rows, cols), got {shape}")
    rows, cols = shape
    b = dtype_bytes(dtype)
    if mode != "none":
        info = mode_info(mode)
        unit = info.atomicity_bytes
        if (cols * b) % unit:
            raise fail("smem.tile", f"a {mode}-swizzled row must be whole {unit}-byte units "
                       f"(the mode's atomicity, PTX 5.5.7); {cols} x {dtype} is {cols * b} "
                       f"bytes (use cols a multiple of {max(1, unit // b)})")
        if info.max_row_bytes is not None and cols * b > info.max_row_bytes:
            raise fail("smem.tile", f"the {mode} swizzle takes TMA boxes at most "
                       f"{info.max_row_bytes} bytes wide (PTX ISA 9.7.9.27.1.1); a row of "
                       f"{cols} x {dtype} is {cols * b} bytes")
        if (rows * cols * b) % 128:
            raise fail("smem.tile", f"a swizzled tile must be whole 128-byte lines; "
                       f"{rows} x {cols} x {dtype} is {rows * cols * b} bytes")
    layout = TileLayout([(rows, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, layout), (rows, cols), dtype=dtype, swizzle_mode=mode)
