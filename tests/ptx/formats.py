"""Bit-exact number formats over numpy arrays of raw bits: integer widths, IEEE f16 / f32,
bf16, and the 8-bit floats e4m3 / e5m2 (PTX ISA "Alternate Floating Point Data
Formats"; conversions as ``cvt`` defines them, PTX ISA "cvt": round to nearest even,
``.satfinite`` clamps to the largest finite value and keeps NaN, ``.relu`` clamps
negatives to +0).

>>> import numpy as np
>>> to_bf16(np.array([0x3F800000, 0x3F808000, 0x3F818000], np.uint64)).tolist()  # 1, ties
[16256, 16256, 16258]
>>> [hex(v) for v in to_f8(np.array([1.0, 448.0, 1000.0, -0.0]), "e4m3", satfinite=True)]
['0x38', '0x7e', '0x7e', '0x80']
>>> float(f8_values("e5m2")[0x3C]), float(f8_values("e4m3")[0x01])  # 1.0; smallest subnormal
(1.0, 0.001953125)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .errors import PtxError

U64 = np.uint64


def mask(bits: int) -> int:
    return (1 << bits) - 1 if bits < 64 else 0xFFFFFFFFFFFFFFFF


def signed(v: np.ndarray, bits: int) -> np.ndarray:
    """Raw bits (uint64) as a signed ``bits``-wide integer (int64)."""
    x = (v & U64(mask(bits))).astype(np.int64)
    if bits >= 64:
        return x
    return np.where(x >= (1 << (bits - 1)), x - (1 << bits), x)


def raw(v: np.ndarray, bits: int) -> np.ndarray:
    """Any integer array as ``bits`` raw bits (uint64, two's complement)."""
    a = np.asarray(v)
    if a.dtype != U64:
        a = a.astype(np.int64).astype(U64)
    return a & U64(mask(bits))


# -- IEEE and bf16 -------------------------------------------------------------------------

def f32(v: np.ndarray) -> np.ndarray:
    return (v & U64(0xFFFFFFFF)).astype(np.uint32).view(np.float32)


def from_f32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float32).view(np.uint32).astype(U64)


def f64(v: np.ndarray) -> np.ndarray:
    return v.astype(U64).view(np.float64)


def from_f64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float64).view(U64)


def f16(v: np.ndarray) -> np.ndarray:
    return (v & U64(0xFFFF)).astype(np.uint16).view(np.float16)


def from_f16(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float16).view(np.uint16).astype(U64)


def bf16(v: np.ndarray) -> np.ndarray:
    """bf16 bits -> float32 values (exact)."""
    return ((v & U64(0xFFFF)) << U64(16)).astype(np.uint32).view(np.float32)


def _clamp(x: np.ndarray, big: float, satfinite: bool, relu: bool) -> np.ndarray:
    x = np.asarray(x, np.float64)
    if relu:
        x = np.where(np.isnan(x), x, np.maximum(x, 0.0))
    if satfinite:
        x = np.where(np.isnan(x), x, np.clip(x, -big, big))
    return x


def to_f16(x32: np.ndarray, satfinite: bool = False, relu: bool = False) -> np.ndarray:
    """f32 bits -> f16 bits, round to nearest even (numpy's cast of an f32 is exact RNE)."""
    x = f32(x32)
    if satfinite or relu:
        x = _clamp(x, 65504.0, satfinite, relu).astype(np.float32)
    with np.errstate(over="ignore"):  # past 65520: infinity, as round-to-nearest gives
        out = from_f16(x.astype(np.float16))
    return np.where(np.isnan(x), U64(0x7FFF), out)


def to_bf16(x32: np.ndarray, satfinite: bool = False, relu: bool = False) -> np.ndarray:
    """f32 bits -> bf16 bits, round to nearest even; NaN -> the canonical 0x7FFF."""
    if satfinite or relu:
        x32 = from_f32(_clamp(f32(x32), float(bf16(np.array([0x7F7F], U64))[0]), satfinite,
                              relu).astype(np.float32))
    b = x32 & U64(0xFFFFFFFF)
    rounded = (b + U64(0x7FFF) + ((b >> U64(16)) & U64(1))) >> U64(16)
    nan = ((b & U64(0x7F800000)) == U64(0x7F800000)) & ((b & U64(0x7FFFFF)) != U64(0))
    return np.where(nan, U64(0x7FFF), rounded & U64(0xFFFF))


# -- 8-bit floats ---------------------------------------------------------------------------

_F8 = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}


@cache
def f8_values(fmt: str) -> np.ndarray:
    """The value of each of the 256 codes (NaN for NaN codes; e5m2 has infinities)."""
    if fmt not in _F8:
        raise PtxError(f"expected an 8-bit float format e4m3 or e5m2, got {fmt}")
    e_bits, m_bits, bias = _F8[fmt]
    out = np.empty(256, np.float64)
    for code in range(256):
        s, e, m = code >> 7, (code >> m_bits) & ((1 << e_bits) - 1), code & ((1 << m_bits) - 1)
        if fmt == "e4m3" and e == 15 and m == 7:
            v = np.nan
        elif fmt == "e5m2" and e == 31:
            v = np.inf if m == 0 else np.nan
        elif e == 0:
            v = m / (1 << m_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)
        out[code] = -v if s else v
    out.flags.writeable = False
    return out


def to_f8(x: np.ndarray, fmt: str, satfinite: bool = True, relu: bool = False) -> np.ndarray:
    """Float values -> 8-bit codes, round to nearest even (ties to the even code)."""
    vals = f8_values(fmt)
    pos = vals[:128]
    finite = np.isfinite(pos)
    big = float(pos[finite].max())
    x = _clamp(x, big, satfinite, relu)
    mag = np.abs(x)
    codes = np.arange(128)[finite]
    grid = pos[finite]  # ascending with the code
    hi = np.clip(np.searchsorted(grid, mag), 0, len(grid) - 1)
    lo = np.clip(hi - 1, 0, len(grid) - 1)
    dlo, dhi = mag - grid[lo], grid[hi] - mag
    pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(codes[lo] % 2 == 0, lo, hi)))
    code = codes[pick]
    if fmt == "e5m2":  # past the largest finite value by half an ulp or more: infinity
        code = np.where(mag >= big + (big - grid[-2]) / 2, 0x7C, code)
    else:
        code = np.where(mag > big + (big - grid[-2]) / 2, 0x7F, code)
    code = np.where(np.isnan(mag), 0x7F, code)
    neg = np.signbit(x) & ~np.isnan(x)
    return (code | np.where(neg, 0x80, 0)).astype(U64)


def from_f8(codes: np.ndarray, fmt: str) -> np.ndarray:
    """8-bit codes -> float64 values (exact)."""
    return f8_values(fmt)[(codes & U64(0xFF)).astype(np.int64)]
