"""The AMD WMMA instruction shapes Triton accepts, per WMMA version: one frozen table.

Every WMMA result tile is 16 x 16 (:data:`WMMA_MN`); the K of the instruction depends on
the version (1: RDNA3, 2: RDNA4, 3: gfx1250), :data:`WMMA_K`. Other shapes abort Triton's
verifier. The fact and its primary source (Triton's ``AMDWmmaEncodingAttr::verify``) are
in ``docs/hardware.md`` ("AMD WMMA shapes"); the AMD WMMA preset and the Gluon checks
read it here.

>>> WMMA_K[2], max(WMMA_K[3])
((16, 32), 128)
"""

from __future__ import annotations

from types import MappingProxyType

#: M and N of every WMMA instruction shape (instr_shape[:2])
WMMA_MN = (16, 16)

#: WMMA version -> the K values of the 16 x 16 x K shapes Triton accepts (ascending)
WMMA_K: MappingProxyType[int, tuple[int, ...]] = MappingProxyType(
    {1: (16,), 2: (16, 32), 3: (4, 32, 64, 128)})
