"""Hardware capacities the presets refuse beyond and the legality report flags.

Sources (docs/hardware-facts.md#trainium, #tensor-memory, #shared-memory-banks and the CUDA
C++ Programming Guide):

* Trainium SBUF per partition: trn1/inf2 (NeuronCore-v2) 192 KiB, trn2 (v3) 224 KiB,
  trn3 (v4) 256 KiB (32 MiB / 128 partitions: a division, not a quoted figure); the
  usable size is smaller (NKI reserves some bytes; no number is published).
* Trainium PSUM per partition: 16 KiB = 8 banks x 2 KiB (512 32-bit values per bank).
* CUDA: at most 255 32-bit registers per thread (compute capability 5.0 and later).
* CUDA shared memory: 32 banks of 4 bytes (compute capability 5.0 and later).

>>> SBUF_PARTITION_BYTES["trn2"] // 1024, PSUM_BANKS * PSUM_BANK_BYTES // 1024
(224, 16)
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import LayoutError

KIB = 1024
#: bytes of one SBUF partition, by Trainium generation
SBUF_PARTITION_BYTES = MappingProxyType({"trn1": 192 * KIB, "trn2": 224 * KIB,
                                         "trn3": 256 * KIB})
GENERATIONS = tuple(SBUF_PARTITION_BYTES)
#: PSUM: 8 banks of 2 KiB (512 32-bit values) per partition, every generation
PSUM_BANKS = 8
PSUM_BANK_BYTES = 2 * KIB
SBUF_SOURCE = MappingProxyType({
    "trn1": "NKI docs, trainium_inferentia2_arch.rst: 192 KiB per partition",
    "trn2": "NKI docs, trainium2_arch: 224 KiB per partition",
    "trn3": "NKI docs: 32 MiB SBUF / 128 partitions = 256 KiB per partition",
})
#: 32-bit registers one thread can address (CUDA C++ Programming Guide, compute capabilities)
MAX_REGISTERS_PER_THREAD = 255
#: shared memory: 32 banks of 4-byte words (CUDA C++ Programming Guide, compute
#: capability 5.x and later, "Shared Memory")
SMEM_BANKS = 32
SMEM_BANK_BYTES = 4


def sbuf_bytes(generation: str) -> int:
    """Bytes of one SBUF partition of ``generation`` (trn1, trn2, trn3).

    >>> sbuf_bytes("trn3")
    262144
    """
    try:
        return SBUF_PARTITION_BYTES[generation]
    except KeyError:
        raise LayoutError(f"unknown Trainium generation {generation!r}; expected one of "
                          f"{', '.join(GENERATIONS)}") from None
