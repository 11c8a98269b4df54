"""AWS Trainium / Inferentia2 on-chip memories: SBUF and PSUM (NeuronCore-v2/v3).

Both are two-dimensional: 128 partitions (axis ``P``) x a free dimension (axis ``F``);
PSUM partitions are further split into 8 banks (axis ``Bank``) of 512 32-bit values.

>>> from tilelayout import presets
>>> str(presets.get("trainium.psum", shape=(128, 1024)).layout)
'S[(128,2,512):(1@P,1@Bank,1@F)]'
"""

from __future__ import annotations

import math

from ..core.capacity import GENERATIONS, PSUM_BANK_BYTES, PSUM_BANKS, SBUF_SOURCE, sbuf_bytes
from ..core.dtypes import dtype_bits
from .digits import Digit, digits_layout
from .registry import Param, PresetLayout, fail, register

PARTITIONS = 128
PSUM_BANK_FP32 = PSUM_BANK_BYTES // 4
SBUF_DTYPES = ("bfloat16", "float16", "float32", "float8", "e4m3", "e5m2", "int8", "int32")

_ARCH = ("AWS Neuron SDK, NKI docs: general/nki/arch/trainium_inferentia2_arch.rst, "
         "general/nki/programming_model.rst")


def _check_partitions(name: str, shape: tuple[int, ...]) -> None:
    if len(shape) < 2:
        raise fail(name, f"shape must be (partitions, free, ...), got {shape}")
    if shape[0] > PARTITIONS:
        raise fail(name, f"the partition dimension is {shape[0]} but there are only "
                   f"{PARTITIONS} partitions; tile the tensor into pieces of <= 128 rows")


@register(
    "trainium.sbuf",
    summary="Trainium SBUF tile: (partitions <= 128, free...) -> P, F",
    source=_ARCH,
    params=[Param("shape", "shape", (128, 512), doc="(partitions, free dims...)"),
            Param("dtype", "choice", "bfloat16", SBUF_DTYPES, doc="element type"),
            Param("generation", "choice", "trn2", GENERATIONS,
                  doc="Trainium generation: SBUF partition of 192 KiB (trn1), 224 KiB "
                  "(trn2), 256 KiB (trn3)")],
)
def sbuf(shape: tuple[int, ...] = (128, 512), dtype: str = "bfloat16",
         generation: str = "trn2") -> PresetLayout:
    """A tile in the NeuronCore state buffer (SBUF).

    Hardware object: an SBUF tile as NKI allocates it: dimension 0 is the partition
    dimension (at most 128, one row per partition), the remaining dimensions are the
    free dimension, row-major within the partition (the SBUF address map increments
    along the free dimension, then the next partition). ``F`` is in elements from the
    tile's start. Capacity per partition: 192 KiB (trn1/inf2, NeuronCore-v2), 224 KiB
    (trn2, v3), 256 KiB (trn3, v4: 32 MiB / 128, a division, not a quoted figure); a
    tile whose free part needs more bytes than the generation's partition is refused
    (the usable size is somewhat smaller: NKI reserves bytes it does not publish).

    Formula: element (p, f_1, .., f_k) -> P = p, F = row-major index of (f_1, .., f_k).

    Source: NKI docs trainium_inferentia2_arch.rst ("two-dimensional memories with 128
    partitions"), programming_model.rst (pmax = 128; the partition dimension is the
    first dimension of a tile), trainium2_arch.html.
    """
    _check_partitions("trainium.sbuf", shape)
    free = shape[1:]
    need = math.prod(free) * dtype_bits(dtype) // 8
    if need > sbuf_bytes(generation):
        raise fail("trainium.sbuf", f"the tile needs {need} bytes per partition "
                   f"({math.prod(free)} x {dtype}) but a {generation} SBUF partition has "
                   f"{sbuf_bytes(generation) // 1024} KiB ({SBUF_SOURCE[generation]})")
    free_digits: list[Digit] = [
        (s, math.prod(free[i + 1:]), "F") for i, s in enumerate(free)
    ]
    return PresetLayout(digits_layout([(shape[0], 1, "P")], free_digits), shape, dtype=dtype)


@register(
    "trainium.psum",
    summary="Trainium PSUM accumulator tile: (partitions <= 128, fp32 <= 4096) -> P, Bank, F",
    source=_ARCH,
    params=[Param("shape", "shape", (128, 512),
                  doc="(partitions, fp32 free size): <= 512 (one bank) or a multiple of 512"),
            Param("generation", "choice", "trn2", GENERATIONS,
                  doc="Trainium generation (PSUM is 16 KiB = 8 x 2 KiB per partition on each)")],
)
def psum(shape: tuple[int, ...] = (128, 512), generation: str = "trn2") -> PresetLayout:
    """A tile in the NeuronCore partial-sum buffer (PSUM), in fp32 elements.

    Hardware object: a PSUM tile (matmul output): 128 partitions x 16 KiB, each
    partition split into 8 banks holding up to 512 32-bit values. A tile of at most
    512 fp32 per partition sits in one bank (bank 0 here: place it with an offset on
    ``Bank``); a wider tile spans whole consecutive banks (nc_matmul's moving free size
    is at most 512, one bank).

    Formula: element (p, f) -> P = p, Bank = f // 512, F = f % 512.

    Source: NKI docs trainium_inferentia2_arch.rst ("each partition is further divided
    into 8 PSUM banks, with each bank holding up to 512 32-bit values"),
    programming_model.rst (psum_fmax = 512). Newer NKI reserves bank 7 for PE
    transposes in some modes (psum_num_banks may be 7).
    """
    name = "trainium.psum"
    _check_partitions(name, shape)
    if len(shape) != 2:
        raise fail(name, f"shape must be (partitions, fp32 free size), got {shape}")
    p, f = shape
    limit = PSUM_BANKS * PSUM_BANK_FP32
    if f > limit:
        raise fail(name, f"free size {f} exceeds a {generation} PSUM partition: {PSUM_BANKS} "
                   f"banks x {PSUM_BANK_FP32} fp32 = {limit} (16 KiB; NKI docs, "
                   f"trainium_inferentia2_arch.rst)")
    if f > PSUM_BANK_FP32 and f % PSUM_BANK_FP32:
        raise fail(name, f"a tile wider than one bank must use whole banks: free size "
                   f"{f} is not a multiple of {PSUM_BANK_FP32}")
    banks = max(1, f // PSUM_BANK_FP32)
    width = min(f, PSUM_BANK_FP32)
    layout = digits_layout([(p, 1, "P")], [(banks, 1, "Bank"), (width, 1, "F")])
    return PresetLayout(layout, shape, dtype="float32")
