"""Triton's and Gluon's memory layouts as presets: shared memory (NVMMA, swizzled) and
Blackwell tensor memory, built the way Triton lowers them.

Shared layouts come out as our ``ComposeLayout(swizzle, tile)`` on ``m`` (element offsets):
Triton's offset bases (offset bit -> logical coordinate) read by
:func:`tilelayout.algebra.offsets.offsets_layout`, so an NVMMA layout is the ``Swizzle`` of
its mode over the row-major (column-major when transposed) tile. Tensor-memory layouts
come out on ``TLane`` / ``TCol`` (Triton's ``row`` / ``col``; ``TCol`` counts elements,
so an unpacked 16-bit layout, ``col_stride=2``, leaves every other column empty).

Sources: nvmmaSharedToLinearLayout / getCoreMatrixLinearLayout,
swizzledSharedToLinearLayout, tensorMemoryToLinearLayout and
tensorMemoryScalesToLinearLayout in lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp
(triton-lang/triton); checked against Triton's lowering (tests/presets/test_triton_memory.py).

>>> from tilelayout import presets
>>> presets.get("triton.nvmma_shared", swizzle_byte_width=128, element_bitwidth=16,
...             shape=(8, 64)).layout
parse('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])')
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from ..algebra.bits import bases_layout
from ..algebra.offsets import offsets_layout
from ..core.swizzle_modes import SWIZZLE_MODE_TABLE, TRITON_WIDTHS, mode_info
from .linear import Linear, identity, product, zeros
from .registry import Param, PresetLayout, fail, register
from .triton import SOURCE, _check_rank

#: TMA boxes take at most 256 elements per dimension (cuTensorMapEncodeTiled boxDim)
TMA_BOX = 256
#: (perPhase, maxPhase) of each NVMMA swizzle width, from its swizzle mode ``Swizzle<B, M, S>``
#: on bytes: the rows of one 2**(M+S)-byte line share an XOR value, and 2**B values repeat
PHASES = MappingProxyType({m.triton: ((1 << (m.byte_swizzle[0] + m.byte_swizzle[2])) // m.span_bytes,
                                      1 << m.swizzle_len)
                           for m in SWIZZLE_MODE_TABLE.values() if m.triton})


def _offsets(linear: Linear, shape: Sequence[int]) -> list[list[int]]:
    return linear.standard(len(shape))["offset"]


NVMMA = "triton.nvmma_shared"


def core_matrix(swizzle: int, bits: int, fp4_padded: bool) -> Linear:
    """``getCoreMatrixLinearLayout``: 8 rows of ``max(16, swizzle)`` bytes; row ``r`` XORs
    its 16-byte chunks with ``(r / perPhase) % maxPhase``. FP4-padded: each 16 offsets hold
    8 real elements, the other 8 are padding (zero bases)."""
    cols = 8 * max(16, swizzle) // bits
    vec = 128 // bits
    per, top = PHASES.get(swizzle, (1, 1))

    def packed(c: int) -> int:
        return c // 16 * 8 + c % 8 if fp4_padded else c

    bases = [(0, packed(1 << k)) for k in range(cols.bit_length() - 1)]
    for k in range(3):
        row = 1 << k
        bases.append((row, packed(vec * ((row // per) % top)) if swizzle else 0))
    width = max(c for _, c in bases) * 2 if any(c for _, c in bases) else 1
    return Linear((("offset", tuple(bases)),), ((0, 8), (1, width)))


@register(
    NVMMA,
    summary="Triton/Gluon NVMMASharedLayout: the TMA / wgmma / tcgen05 shared-memory layout "
    f"(swizzle {'/'.join(map(str, TRITON_WIDTHS))} B, element bits, transposed, fp4 padded) "
    "over the tile",
    source=SOURCE + " (nvmmaSharedToLinearLayout, getCoreMatrixLinearLayout)",
    params=[
        Param("swizzle_byte_width", "choice", 128, TRITON_WIDTHS, doc="swizzle bytes"),
        Param("element_bitwidth", "choice", 16, (8, 16, 32, 64), doc="bits per element"),
        Param("transposed", "bool", False, doc="dim 0 contiguous (K-major B / MN-major)"),
        Param("fp4_padded", "bool", False, doc="fp4 values stored one per byte, padded "
              "(128 B swizzle, 8-bit elements only)"),
        Param("shape", "shape", (64, 128), doc="the tensor (tile) shape"),
    ],
)
def nvmma_shared(swizzle_byte_width=128, element_bitwidth=16, transposed=False, fp4_padded=False,
                 shape=(64, 128)) -> PresetLayout:
    """Triton's ``#ttg.nvmma_shared`` / Gluon's ``NVMMASharedLayout`` over a rank-2 tile.

    The core matrix is 8 rows of ``swizzle_byte_width`` bytes (16 B unswizzled) swizzled by
    the mode's XOR (``Swizzle.for_dtype`` of the mode: 128B = ``Swizzle(3,3,3)`` for 16-bit);
    it fills the TMA box (contiguous dimension capped to the swizzle width, others to 256),
    rows first, then the box repeats over the tile. ``transposed`` makes dimension 0 the
    contiguous one. Unswizzled (0) is row-major by TMA boxes of 256 elements.
    ``fp4_padded``: every 16-byte chunk holds 8 real bytes; the other 8 are padding.

    Source: NVMMASharedEncodingAttr (TritonGPUAttrDefs.td), nvmmaSharedToLinearLayout
    (LinearLayoutConversions.cpp); the modes are PTX ISA 5.5.7 (tensor swizzling modes).
    Checked against Triton.
    """
    if len(shape) != 2:
        raise fail(NVMMA, f"shape {tuple(shape)}: the NVMMA shared presets are rank 2")
    _check_rank(NVMMA, shape)
    widest = mode_info("128B").triton  # fp4 padding exists only with the 128B swizzle
    if fp4_padded and (swizzle_byte_width != widest or element_bitwidth != 8):
        raise fail(NVMMA, f"fp4_padded takes the 128B swizzle (swizzle_byte_width {widest}) "
                   "and element_bitwidth=8")
    inner = 0 if transposed else 1
    if swizzle_byte_width == 0:
        box = [min(s, TMA_BOX) for s in shape]
        linear = (identity(box[inner], "offset", inner) *
                  identity(box[1 - inner], "offset", 1 - inner)).grow(shape)
        return PresetLayout(offsets_layout(_offsets(linear, shape), shape), tuple(shape),
                     dtype=_dtype(element_bitwidth))
    pack = 2 if fp4_padded else 1
    contig = swizzle_byte_width * 8 // element_bitwidth // pack
    box = [min(s, TMA_BOX) for s in shape]
    box[inner] = min(shape[inner], contig)
    rows, cols = box[1 - inner], box[inner]
    tile = core_matrix(swizzle_byte_width, element_bitwidth, fp4_padded)
    need_cols = tile.size(1)  # in elements: a padded layout's offsets are twice as many
    if cols < need_cols or rows < 8:
        raise fail(NVMMA, f"the {swizzle_byte_width}B mode needs at least 8 rows of {need_cols} "
                   f"contiguous elements; shape {tuple(shape)} gives {rows} x {cols}")
    linear = tile.grow((rows, cols))
    if transposed:
        linear = Linear(tuple((n, tuple((c, r) for r, c in vecs)) for n, vecs in linear.bases),
                        ((0, linear.size(1)), (1, linear.size(0))))
    offsets = _offsets(linear.grow(shape), shape)
    return PresetLayout(offsets_layout(offsets, shape), tuple(shape), dtype=_dtype(element_bitwidth))


def _dtype(bits: int) -> str | None:
    return {8: "int8", 16: "float16", 32: "float32", 64: "float64"}.get(bits)


SWIZZLED = "triton.swizzled_shared"


@register(
    SWIZZLED,
    summary="Triton/Gluon SwizzledSharedLayout: rows XOR their vec-element groups with "
    "(row / per_phase) % max_phase, dimensions in order",
    source=SOURCE + " (swizzledSharedToLinearLayout)",
    params=[
        Param("vec", "int", 8, doc="elements per swizzled group (vec)"),
        Param("per_phase", "int", 1, doc="rows sharing one phase (perPhase)"),
        Param("max_phase", "int", 8, doc="number of phases (maxPhase)"),
        Param("order", "order", (1, 0), doc="dimension order, contiguous first (order)"),
        Param("shape", "shape", (32, 64), doc="the tensor (tile) shape"),
    ],
)
def swizzled_shared(vec=8, per_phase=1, max_phase=8, order=(1, 0), shape=(32, 64)) -> PresetLayout:
    """Triton's ``#ttg.swizzled_shared`` / Gluon's ``SwizzledSharedLayout`` over a tile.

    Dimension ``order[0]`` is contiguous; row ``r`` of dimension ``order[1]`` stores its
    ``vec``-element groups XORed with ``(r // per_phase) % max_phase`` (modulo the row
    length); further dimensions are stacked in ``order``. (2, 2, 4) on (32, 32) is
    ``Swizzle(1, 2, 5)``: import returns the plain Swizzle when one is equal.

    Source: SwizzledSharedEncodingAttr (TritonGPUAttrDefs.td), swizzledSharedToLinearLayout
    (LinearLayoutConversions.cpp). Checked against Triton.
    """
    rank = len(shape)
    _check_rank(SWIZZLED, shape)
    if sorted(order) != list(range(rank)):
        raise fail(SWIZZLED, f"order {tuple(order)} is not a permutation of 0..{rank - 1}")
    for what, v in (("vec", vec), ("per_phase", per_phase), ("max_phase", max_phase)):
        if v < 1 or v & (v - 1):
            raise fail(SWIZZLED, f"{what}={v}: expected a power of two")
    if rank == 1:
        linear = identity(shape[0], "offset", 0)
    else:
        col, row = order[0], order[1]
        n_cols, n_rows = shape[col], shape[row]
        bases = [(0, 1 << k) for k in range(n_cols.bit_length() - 1)]
        bases += [(1 << k, (vec * (((1 << k) // per_phase) % max_phase)) % n_cols)
                  for k in range(n_rows.bit_length() - 1)]
        linear = Linear((("offset", tuple(bases)),), ((row, n_rows), (col, n_cols)))
        linear = product(linear, *(identity(shape[d], "offset", d) for d in order[2:]))
    return PresetLayout(offsets_layout(_offsets(linear, shape), shape), tuple(shape))


TMEM = "triton.tmem"


@register(
    TMEM,
    summary="Triton/Gluon TensorMemoryLayout: block (M, N) in TMEM lanes x columns, "
    "col_stride 32-bit columns per element, repeated over the tile",
    source=SOURCE + " (tensorMemoryToLinearLayout)",
    params=[
        Param("block", "shape", (128, 128), doc="(M, N) of one MMA block: M = 64 or 128"),
        Param("col_stride", "choice", 1, (1, 2, 4), doc="columns per element: 1 packed, "
              "32 / bits unpacked"),
        Param("shape", "shape", (128, 128), doc="the tensor (tile) shape"),
    ],
)
def tmem(block=(128, 128), col_stride=1, shape=(128, 128)) -> PresetLayout:
    """Triton's ``#ttng.tensor_memory_encoding`` / Gluon's ``TensorMemoryLayout``.

    M = 128: row r is TMEM lane r. M = 64: rows 0..15 of each 16-row group use lanes 0..15
    of the four 32-lane quarters (lanes 16..31 hold the next 64 rows when the tile has them,
    else the next block of columns, else nothing: padding). ``col_stride`` columns per
    element (an unpacked 16-bit layout takes 2: every other column empty). Blocks repeat
    over the tile along M, then N, in further columns.

    Source: TensorMemoryEncodingAttr (TritonNvidiaGPUAttrDefs.td), tensorMemoryToLinearLayout
    (LinearLayoutConversions.cpp); the data-path layouts are PTX ISA 9.7.16.10.5.
    Checked against Triton.
    """
    m, n = block if len(block) == 2 else (0, 0)
    if len(shape) != 2 or m not in (64, 128) or n < 1 or n & (n - 1):
        raise fail(TMEM, f"block (M, N) takes M = 64 or 128 and a power-of-two N on a rank-2 "
                   f"tile; got block {tuple(block)}, shape {tuple(shape)}")
    _check_rank(TMEM, shape)
    if shape[0] < m:
        raise fail(TMEM, f"block M = {m} needs at least {m} rows; shape {tuple(shape)} has "
                   f"{shape[0]} (Triton asserts the same)")
    n = min(n, shape[1])
    log = (col_stride.bit_length() - 1, n.bit_length() - 1)
    cols = [(0, 0)] * log[0] + [(0, 1 << k) for k in range(log[1])]
    if m == 64:  # lanes 0..15 of each quarter; lanes 16..31: more rows, more columns or nothing
        extra = (64, 0) if shape[0] > 64 else (0, n) if shape[1] > n else (0, 0)
        rows = [(1 << k, 0) for k in range(4)] + [extra, (16, 0), (32, 0)]
        size = (128 if extra[0] else 64, 2 * n if extra[1] else n)
    else:
        rows = [(1 << k, 0) for k in range(7)]
        size = (128, n)
    cols += [(size[0] << k, 0) for k in range((max(1, shape[0] // size[0])).bit_length() - 1)]
    cols += [(0, size[1] << k) for k in range((max(1, shape[1] // size[1])).bit_length() - 1)]
    layout = bases_layout({"TLane": [list(v) for v in rows], "TCol": [list(v) for v in cols]},
                          tuple(shape), padding=("TLane", "TCol"), broadcast={"TLane": (5, 6)})
    return PresetLayout(layout, tuple(shape))


TMEM_SCALES = "triton.tmem_scales"


@register(
    TMEM_SCALES,
    summary="Triton/Gluon TensorMemoryScalesLayout: block-scale factors in TMEM (32 lanes "
    "x 4 columns per 128 rows, copied to the four lane quarters), repeated over the tile",
    source=SOURCE + " (tensorMemoryScalesToLinearLayout); PTX ISA 9.7.16.10.7 "
    "(#tcgen05-mma-scale-factor-a-layout-1x)",
    params=[Param("shape", "shape", (128, 4), doc="(rows, scale factors per row)")],
)
def tmem_scales(shape=(128, 4)) -> PresetLayout:
    """Triton's ``#ttng.tensor_memory_scales_encoding`` / Gluon's ``TensorMemoryScalesLayout``.

    Rows 0..31 of the scale matrix sit in TMEM lanes 0..31, copied to the other three lane
    quarters (a broadcast over TMEM rows 32 and 64: each warp reads its own quarter); 4
    scale factors per row in 4 columns; rows 32..63, 64..127 in the next columns; more
    rows, then more scale factors in further columns. A tile smaller than 64 x 4 leaves
    columns unused (padding). This is our ``tmem.scale_factors`` with ``rows=128,
    sf_per_row=4``.

    Source: TensorMemoryScalesEncodingAttr and tensorMemoryScalesToLinearLayout
    (LinearLayoutConversions.cpp), after PTX ISA 9.7.16.10.7 (scale factor A layout 1x).
    Checked against Triton.
    """
    if len(shape) != 2:
        raise fail(TMEM_SCALES, f"shape {tuple(shape)}: scale factors are (rows, per row)")
    _check_rank(TMEM_SCALES, shape)
    tile = product(identity(32, "row", 0), zeros(4, "row", 0), identity(4, "col", 1),
                   identity(2, "col", 0))
    reps = product(identity(-(-shape[0] // tile.size(0)), "col", 0),
                   identity(-(-shape[1] // tile.size(1)), "col", 1))
    bases = (tile * reps).shrink(shape).standard(2)
    layout = bases_layout({"TLane": bases["row"], "TCol": bases["col"]}, tuple(shape),
                          padding=("TLane", "TCol"), broadcast={"TLane": (5, 6)})
    return PresetLayout(layout, tuple(shape))
