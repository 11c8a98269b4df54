"""TIRx's shared-memory constructors: ``SwizzleMode``, ``mma_atom_layout``,
``mma_atom_shape`` and ``mma_shared_layout``.

Same names, parameters and results as ``tvm_tirx.backend.cuda.layout`` (checked element
by element in tests/tirx/test_constructors.py), on our layouts. The atom is 8 rows of the
swizzle mode's width (PTX ISA 9.7.15.5.1.2; docs/presets.md); a tile repeats it down the
rows first, then along K -- the order TMA boxes and the wgmma / tcgen05 descriptors use
(``smem.tile`` places atoms the same way).

>>> str(mma_atom_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM))
'ComposeLayout(Swizzle(3,3,3), S[512:1])'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from types import MappingProxyType

from ..core.errors import LayoutError, shown
from .dtype import dtype_bits
from .errors import check_ints
from .layouts import ComposeLayout, TileLayout
from .spec import S


class SwizzleMode(Enum):
    """The TMA swizzle mode; the value is TIRx's (and CuTe's) ``B``: log2 of 16-byte
    chunks XORed per row."""

    SWIZZLE_NONE = 0
    SWIZZLE_32B_ATOM = 1
    SWIZZLE_64B_ATOM = 2
    SWIZZLE_128B_ATOM = 3


#: bits in one row of the swizzle atom: 2**B chunks of 16 bytes (PTX ISA 9.7.15.5.1.2;
#: docs/hardware.md#swizzle-modes)
ROW_BITS = MappingProxyType({m: 8 * 16 << m.value for m in SwizzleMode if m.value})


def _mode(swizzle_mode: SwizzleMode | int) -> SwizzleMode:
    if isinstance(swizzle_mode, SwizzleMode):
        return swizzle_mode
    if isinstance(swizzle_mode, int) and not isinstance(swizzle_mode, bool) \
            and 0 <= swizzle_mode <= 3:
        return SwizzleMode(swizzle_mode)
    raise LayoutError(f"swizzle_mode is a SwizzleMode or 0..3, got {shown(swizzle_mode)}")


def _element_bits(dtype: str) -> int:
    """The element width, which must divide a 16-byte chunk (the atoms are built of them)."""
    bits = dtype_bits(dtype)
    if 128 % bits:
        raise LayoutError(f"a {dtype} element is {bits} bits, which does not divide the "
                          f"16-byte chunks a swizzle atom is made of (PTX ISA 9.7.15.5.1.2)")
    return bits


def mma_atom_layout(dtype: str, swizzle_mode: SwizzleMode | int) -> ComposeLayout:
    """One swizzle atom as a 1-D swizzled run of ``8 * row bytes / element`` elements.

    >>> mma_atom_layout("float32", 1).apply(33)
    {'m': 37}
    """
    mode = _mode(swizzle_mode)
    per_element = (128 // _element_bits(dtype)).bit_length() - 1
    period = 1 << (per_element + mode.value + 3)
    return ComposeLayout(per_element, mode.value, 3, TileLayout(S[(period,)]))


def mma_atom_shape(dtype: str, swizzle_mode: SwizzleMode | int,
                   shape: Sequence[int] | None = None) -> list[int]:
    """The atom's logical shape ``[8, row bytes / element]``, padded with leading 1s to
    the rank of ``shape`` when given.

    >>> mma_atom_shape("float16", SwizzleMode.SWIZZLE_64B_ATOM, [2, 64, 64])
    [1, 8, 32]
    """
    mode = _mode(swizzle_mode)
    if mode is SwizzleMode.SWIZZLE_NONE:
        raise LayoutError(f"{mode.name} has no swizzle atom (TIRx refuses it too)")
    atom = [8, ROW_BITS[mode] // _element_bits(dtype)]
    if shape is None:
        return atom
    dims = check_ints(shape, "shape", low=1)
    if len(dims) < 2:
        raise LayoutError(f"shape is (..., rows, K) with at least 2 dims, got {dims}")
    return [1] * (len(dims) - 2) + atom


def mma_shared_layout(dtype: str, swizzle_mode: SwizzleMode | int,
                      shape: Sequence[int], *, floor: bool = False) -> TileLayout | ComposeLayout:
    """The MMA operand tile ``shape`` in shared memory: atoms down the rows, then along
    K (the last dim), then the leading dims. Without a swizzle: 16-byte core-matrix
    columns (8 rows x 16 bytes each) when K splits into them, else row-major. A tile that
    is not whole atoms is refused; ``floor=True`` floors the atom counts as TIRx's
    ``tile_to`` does (the layout is then smaller than the tile).

    >>> L = mma_shared_layout("float16", SwizzleMode.SWIZZLE_128B_ATOM, [128, 128])
    >>> L.apply(0, 64, shape=[128, 128])
    {'m': 8192}
    """
    mode = _mode(swizzle_mode)
    dims = list(check_ints(shape, "shape", low=1))
    if len(dims) < 2:
        raise LayoutError(f"mma_shared_layout: shape is (..., rows, K) with at least 2 dims, "
                          f"got {tuple(dims)}")
    if mode is SwizzleMode.SWIZZLE_NONE:
        e16 = 128 // _element_bits(dtype)
        m, k = dims[-2], dims[-1]
        if k % e16:
            return TileLayout(S[tuple(dims)]).canonicalize()
        lead = dims[:-2]
        strides, step = [], m * k
        for e in reversed(lead):
            strides.insert(0, step)
            step *= e
        return TileLayout(S[(*lead, m, k // e16, e16):(*strides, e16, m * e16, 1)]).canonicalize()
    atom_shape = mma_atom_shape(dtype, mode, dims)
    if not floor and (dims[-2] % 8 or dims[-1] % atom_shape[-1]):
        raise LayoutError(
            f"a {dims[-2]} x {dims[-1]} tile is not whole {mode.name} atoms of 8 x "
            f"{atom_shape[-1]} {dtype} (rows a multiple of 8, K of {atom_shape[-1]}); TIRx "
            f"floors it to a smaller tile (floor=True)")
    column = [*atom_shape[:-2], dims[-2], atom_shape[-1]]
    return (mma_atom_layout(dtype, mode).tile_to(column, atom_shape, floor=floor)
            .tile_to(dims, column, floor=floor).canonicalize())


__all__ = ["ROW_BITS", "SwizzleMode", "mma_atom_layout", "mma_atom_shape",
           "mma_shared_layout"]
