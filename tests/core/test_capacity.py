"""Hardware capacities: Trainium SBUF/PSUM, CUDA registers and shared-memory banks."""

import pytest

import tilelayout as tl
from tilelayout.core import capacity
from tilelayout.core.errors import LayoutError


def test_sbuf_per_partition_by_generation():
    assert [capacity.sbuf_bytes(g) // 1024 for g in capacity.GENERATIONS] == [192, 224, 256]
    assert set(capacity.SBUF_SOURCE) == set(capacity.GENERATIONS)


def test_psum_is_8_banks_of_512_words():
    assert capacity.PSUM_BANKS * capacity.PSUM_BANK_BYTES == 16 * 1024
    assert capacity.PSUM_BANK_BYTES // 4 == 512


def test_shared_memory_banks_are_the_public_constants():
    assert (tl.SMEM_BANKS, tl.SMEM_BANK_BYTES) == (capacity.SMEM_BANKS, capacity.SMEM_BANK_BYTES)
    assert capacity.SMEM_BANKS * capacity.SMEM_BANK_BYTES == 128  # one wavefront


def test_tables_are_read_only():
    with pytest.raises(TypeError):
        capacity.SBUF_PARTITION_BYTES["trn9"] = 1  # type: ignore[index]


def test_unknown_generation_names_the_known_ones():
    with pytest.raises(LayoutError, match="trn1, trn2, trn3"):
        capacity.sbuf_bytes("trn9")
