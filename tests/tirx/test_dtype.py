"""Element widths of TVM dtype strings."""

import pytest

from tilelayout.core.errors import DtypeError
from tilelayout.tirx.dtype import dtype_bits


@pytest.mark.parametrize(("name", "bits"), [
    ("float16", 16), ("bfloat16", 16), ("float8_e4m3fn", 8), ("float8_e5m2", 8),
    ("float4_e2m1fn", 4), ("int4", 4), ("uint8", 8), ("float16x2", 16), ("float32", 32),
    ("e4m3", 8), ("fp16", 16), ("tf32", 32),
])
def test_widths(name, bits):
    assert dtype_bits(name) == bits


@pytest.mark.parametrize("bad", ["floaty", "complex64", "int0", "", None])
def test_unknown_dtypes_name_tvm_examples(bad):
    with pytest.raises(DtypeError, match="float8_e4m3fn"):
        dtype_bits(bad)
