"""Element widths of TVM dtype strings (``"float16"``, ``"float8_e4m3fn"``, ``"int4"``, ...).

TIRx names types as TVM does: a base name and its width in bits (``float8_e4m3fn`` is 8
bits, ``float4_e2m1fn`` 4), optionally with lanes (``float16x2`` is still a 16-bit
element). Our own aliases (``e4m3``, ``fp16``, ...) are accepted too.

>>> dtype_bits("float8_e4m3fn"), dtype_bits("bfloat16"), dtype_bits("e5m2")
(8, 16, 8)
"""

from __future__ import annotations

import re

from ..core import dtypes
from ..core.errors import DtypeError, shown

_TVM_DTYPE = re.compile(r"(?:u?int|float|bfloat)([1-9]\d*)(?:_[a-z0-9]+)?(?:x\d+)?")


def dtype_bits(dtype: str) -> int:
    """Width in bits of a TVM dtype string or one of our dtype names.

    >>> dtype_bits("float4_e2m1fn"), dtype_bits("uint8")
    (4, 8)
    """
    if isinstance(dtype, str) and len(dtype) <= 64:
        found = _TVM_DTYPE.fullmatch(dtype)
        if found and int(found.group(1)) <= 64:
            return int(found.group(1))
    try:
        return dtypes.dtype_bits(dtype)
    except DtypeError:
        raise DtypeError(f"unknown dtype {shown(dtype)}; expected a TVM dtype such as "
                         f"float16, bfloat16, float8_e4m3fn, float32, int8") from None


__all__ = ["dtype_bits"]
