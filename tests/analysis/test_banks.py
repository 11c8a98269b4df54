"""Shared-memory bank maps: byte addresses to bank words, banks and lines."""

import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutOverflowError


def test_bank_map_refuses_byte_addresses_beyond_int64_instead_of_wrapping():
    L = tl.parse(f"S[2:{1 << 61}]")  # addresses fit int64, bytes (x8) do not
    with pytest.raises(LayoutOverflowError):
        tl.bank_map(L, "float64")
    low = tl.parse(f"S[2:-{1 << 60}]")  # -2**63 bytes still fits
    assert tl.bank_map(low, "float64")["byte"].ravel().tolist() == [0, -(1 << 63)]
