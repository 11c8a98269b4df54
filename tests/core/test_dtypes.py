"""Element widths by dtype name (canonical names and aliases)."""

import pytest

from tilelayout.core.dtypes import DTYPE_BITS, DTYPES, dtype_bits, dtype_bytes
from tilelayout.core.errors import DtypeError, LayoutError


@pytest.mark.parametrize(("name", "bits"), [("float8", 8), ("e4m3", 8), ("e8m0", 8),
                                            ("float16", 16), ("BF16", 16), ("tf32", 32),
                                            ("float64", 64), ("int64", 64)])
def test_widths(name, bits):
    assert dtype_bits(name) == bits and dtype_bytes(name) == bits // 8


def test_the_menu_names_are_known_and_whole_bytes():
    assert set(DTYPES) <= set(DTYPE_BITS)
    assert all(bits % 8 == 0 for bits in DTYPE_BITS.values())


@pytest.mark.parametrize("bad", ["float7", "", None, 16])
def test_unknown_dtypes_list_the_known_ones(bad):
    with pytest.raises(DtypeError, match="expected one of float8") as err:
        dtype_bits(bad)
    assert isinstance(err.value, LayoutError)
