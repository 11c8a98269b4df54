"""Element types known to the library, by width in bits.

>>> dtype_bits("bfloat16"), dtype_bytes("float8")
(16, 1)
"""

from __future__ import annotations

from types import MappingProxyType

from .errors import DtypeError, shown

#: canonical names first; aliases map to the same width
DTYPE_BITS: MappingProxyType[str, int] = MappingProxyType({
    "float8": 8,
    "float16": 16,
    "bfloat16": 16,
    "float32": 32,
    "tfloat32": 32,
    "float64": 64,
    # aliases and integer types of the same widths
    "e4m3": 8,
    "e5m2": 8,
    "float8_e4m3": 8,
    "float8_e5m2": 8,
    "e8m0": 8,
    "int8": 8,
    "uint8": 8,
    "half": 16,
    "fp16": 16,
    "bf16": 16,
    "int16": 16,
    "float": 32,
    "fp32": 32,
    "tf32": 32,
    "int32": 32,
    "uint32": 32,
    "double": 64,
    "int64": 64,
})

#: the names shown to users in menus (the explorer, the CLI help)
DTYPES: tuple[str, ...] = ("float8", "float16", "bfloat16", "float32", "tfloat32", "float64")


def dtype_bits(dtype: str) -> int:
    """Width of ``dtype`` in bits; unknown names list the known ones.

    >>> dtype_bits("e4m3"), dtype_bits("FP32")
    (8, 32)
    """
    try:
        if not isinstance(dtype, str):
            raise KeyError(dtype)
        return DTYPE_BITS[dtype.lower()]
    except KeyError:
        raise DtypeError(
            f"unknown dtype {shown(dtype)}; expected one of {', '.join(DTYPES)} "
            f"(or an alias such as e4m3, fp16, bf16, int8, int32)"
        ) from None


def dtype_bytes(dtype: str) -> int:
    """Width of ``dtype`` in bytes (every known dtype is a whole number of bytes).

    >>> dtype_bytes("float16")
    2
    """
    return dtype_bits(dtype) // 8
