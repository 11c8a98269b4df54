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
MODE_CHOICES = ("none", "32B", "64B", "128B", "128B_atom32B", "128B_atom64B", "96B")
#: bytes per swizzled row of the K-major atom (PTX 9.7.15.5.1.2: 8 rows of this width);
#: the 128B sub-modes keep the 128B mode's 8 x 128-byte atom, 96B has the 32B pattern
ATOM_ROW_BYTES = {"none": 16, "32B": 32, "64B": 64, "128B": 128, "128B_atom32B": 128,
                  "128B_atom64B": 128, "96B": 32}
#: the unit a mode keeps whole (its atomicity), in bytes: rows must be whole units
ATOMICITY_BYTES = {"none": 16, "32B": 16, "64B": 16, "128B": 16, "128B_atom32B": 32,
                   "128B_atom64B": 64, "96B": 16}
#: the widest TMA box row the 96B mode takes (PTX 9.7.9.27.1.1: inner box <= 96 B)
BOX_96B = 96

#: which encodings accept each mode (docs/hardware-facts.md#swizzle-modes, #wgmma): the TMA tensor map
#: (CUtensorMapSwizzle / tensormap.replace swizzle_mode + swizzle_atomicity), the sm_90
#: wgmma shared-memory descriptor (bits 63-62), the sm_100 tcgen05 descriptor (bits 61-63,
#: PTX Table 40), CuTe's atoms and Triton's NVMMASharedLayout. None = not encodable.
SWIZZLE_ENCODINGS: dict[str, dict[str, str | None]] = {
    "none": {"tma": "CU_TENSOR_MAP_SWIZZLE_NONE (swizzle_mode 0)", "wgmma": "0",
             "tcgen05": "0", "cute": "no swizzle (Swizzle<0,4,3>)",
             "triton": "NVMMASharedLayout swizzle_byte_width=0"},
    "32B": {"tma": "CU_TENSOR_MAP_SWIZZLE_32B (swizzle_mode 1, atomicity 0 = 16B)",
            "wgmma": "3", "tcgen05": "6", "cute": "SW32 atoms, Swizzle<1,4,3> on bytes",
            "triton": "NVMMASharedLayout swizzle_byte_width=32"},
    "64B": {"tma": "CU_TENSOR_MAP_SWIZZLE_64B (swizzle_mode 2, atomicity 0 = 16B)",
            "wgmma": "2", "tcgen05": "4", "cute": "SW64 atoms, Swizzle<2,4,3> on bytes",
            "triton": "NVMMASharedLayout swizzle_byte_width=64"},
    "128B": {"tma": "CU_TENSOR_MAP_SWIZZLE_128B (swizzle_mode 3, atomicity 0 = 16B)",
             "wgmma": "1", "tcgen05": "2", "cute": "SW128 atoms, Swizzle<3,4,3> on bytes",
             "triton": "NVMMASharedLayout swizzle_byte_width=128"},
    "128B_atom32B": {"tma": "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (swizzle_mode 3, "
                            "atomicity 1 = 32B; sm_100a/sm_110a/sm_120a families)",
                     "wgmma": None,
                     "tcgen05": "1 (MN-major operands only, PTX Table 55)",
                     "cute": "Layout_MN_SW128_32B_Atom, Swizzle<2,5,2> on bytes",
                     "triton": None},
    "128B_atom64B": {"tma": "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B (swizzle_mode 3, "
                            "atomicity 3 = 64B; sm_100a/sm_110a/sm_120a families)",
                     "wgmma": None, "tcgen05": None,
                     "cute": None, "triton": None},
    "96B": {"tma": "tensormap swizzle_mode 4 (sm_103a; 16-B atomicity, inner box <= 96 B, "
                   "not with the padded 4-/6-bit types or .im2col::w::128)",
            "wgmma": None, "tcgen05": None, "cute": None, "triton": None},
}

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
    names = {"tma": "TMA tensor map", "wgmma": "wgmma descriptor", "tcgen05": "tcgen05 descriptor",
             "cute": "CuTe", "triton": "Triton NVMMASharedLayout"}
    return "\n".join(f"{names[k]}: {v if v is not None else 'not encodable'}"
                     for k, v in SWIZZLE_ENCODINGS[mode].items())


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
    Encodings that accept each mode: see docs/presets.md (TMA, wgmma and tcgen05
    descriptors, CuTe, Triton); e.g. 128B_atom32B is tcgen05 descriptor value 1 for
    MN-major operands only, 128B_atom64B has no descriptor value (TMA only).

    Source: PTX ISA 5.5.7 (#tensor-swizzling-modes), Table 14, 9.7.15.5.1.2 and
    9.7.16.4.1 (Table 40); CuTe include/cute/swizzle.hpp, include/cute/swizzle_layout.hpp
    and Layout_MN_SW128_32B_Atom (include/cute/atom/mma_traits_sm100.hpp) (tests
    evaluate both).
    """
    cols = ATOM_ROW_BYTES[mode] // dtype_bytes(dtype)
    tile = TileLayout([(8, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, tile), (8, cols), dtype=dtype, swizzle_mode=mode)


@register(
    "smem.tile",
    summary="row-major shared-memory tile with a swizzle mode (32B/64B/128B, 128B with "
    "32-/64-byte atomicity, 96B): (rows, cols) -> m",
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
        unit = ATOMICITY_BYTES[mode]
        if (cols * b) % unit:
            raise fail("smem.tile", f"a {mode}-swizzled row must be whole {unit}-byte units "
                       f"(the mode's atomicity, PTX 5.5.7); {cols} x {dtype} is {cols * b} "
                       f"bytes (use cols a multiple of {max(1, unit // b)})")
        if mode == "96B" and cols * b > BOX_96B:
            raise fail("smem.tile", f"the 96B swizzle takes TMA boxes at most {BOX_96B} bytes "
                       f"wide (PTX ISA 9.7.9.27.1.1); a row of {cols} x {dtype} is "
                       f"{cols * b} bytes")
        if (rows * cols * b) % 128:
            raise fail("smem.tile", f"a swizzled tile must be whole 128-byte lines; "
                       f"{rows} x {cols} x {dtype} is {rows * cols * b} bytes")
    layout = TileLayout([(rows, cols, "m"), (cols, 1, "m")])
    return Built(_compose(dtype, mode, layout), (rows, cols), dtype=dtype, swizzle_mode=mode)
