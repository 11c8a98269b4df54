"""Trainium SBUF and PSUM tiles: partition = dim 0, free = row-major rest, capacity checks."""

import itertools

import pytest

from tilelayout import presets
from tilelayout.core.capacity import PSUM_BANK_BYTES, PSUM_BANKS, sbuf_bytes
from tilelayout.presets.registry import PresetError


@pytest.mark.parametrize("shape", [(128, 512), (64, 4, 8), (1, 1)])
def test_sbuf_partition_and_free_offsets(shape):
    p = presets.get("trainium.sbuf", shape=shape)
    for index in itertools.product(*(range(min(n, 5)) for n in shape)):
        free = 0
        for d in range(1, len(shape)):
            free = free * shape[d] + index[d]
        assert p.layout.base(index, shape) == {"P": index[0], "F": free}


def test_sbuf_capacity_by_generation():
    per_partition = sbuf_bytes("trn1") // 2  # bfloat16 elements that fit on trn1
    presets.get("trainium.sbuf", shape=(128, per_partition), generation="trn1")
    with pytest.raises(PresetError, match="KiB"):
        presets.get("trainium.sbuf", shape=(128, per_partition + 1), generation="trn1")
    presets.get("trainium.sbuf", shape=(128, per_partition + 1), generation="trn2")


def test_at_most_128_partitions():
    with pytest.raises(PresetError):
        presets.get("trainium.sbuf", shape=(129, 4))


def test_psum_holds_fp32_up_to_its_banks():
    limit = PSUM_BANKS * PSUM_BANK_BYTES // 4
    p = presets.get("trainium.psum", shape=(128, limit))
    per_bank = PSUM_BANK_BYTES // 4
    assert p.dtype == "float32"
    for f in (0, per_bank - 1, per_bank, limit - 1):
        assert p.layout.base((3, f), p.shape) == {"P": 3, "Bank": f // per_bank, "F": f % per_bank}
    with pytest.raises(PresetError, match="PSUM"):
        presets.get("trainium.psum", shape=(128, limit + 1))
