"""CUDA's names for the element types, and the conversions a plan's code performs.

>>> cuda_type("bfloat16"), cuda_type("e4m3"), header("float16")
('__nv_bfloat16', '__nv_fp8_e4m3', '<cuda_fp16.h>')
>>> conversion("float32", "bfloat16").per_instruction
2
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from ...core.errors import DtypeError

#: dtype (lower case) -> (CUDA type, header that declares it)
TYPES = MappingProxyType({
    "float32": ("float", None), "float": ("float", None), "fp32": ("float", None),
    "tfloat32": ("float", None), "tf32": ("float", None),
    "float16": ("__half", "<cuda_fp16.h>"), "half": ("__half", "<cuda_fp16.h>"),
    "fp16": ("__half", "<cuda_fp16.h>"),
    "bfloat16": ("__nv_bfloat16", "<cuda_bf16.h>"), "bf16": ("__nv_bfloat16", "<cuda_bf16.h>"),
    "float8": ("__nv_fp8_e4m3", "<cuda_fp8.h>"), "e4m3": ("__nv_fp8_e4m3", "<cuda_fp8.h>"),
    "float8_e4m3": ("__nv_fp8_e4m3", "<cuda_fp8.h>"),
    "e5m2": ("__nv_fp8_e5m2", "<cuda_fp8.h>"), "float8_e5m2": ("__nv_fp8_e5m2", "<cuda_fp8.h>"),
    "e8m0": ("__nv_fp8_e8m0", "<cuda_fp8.h>"),
    "int8": ("int8_t", None), "uint8": ("uint8_t", None), "int16": ("int16_t", None),
    "int32": ("int32_t", None), "uint32": ("uint32_t", None),
    "float64": ("double", None), "double": ("double", None), "int64": ("int64_t", None),
})


def cuda_type(dtype: str) -> str:
    """CUDA's type for ``dtype`` (SPEC section 8)."""
    try:
        return TYPES[dtype.lower()][0]
    except KeyError:
        raise DtypeError(f"no CUDA type for dtype {dtype!r}; expected one of "
                         f"{', '.join(sorted(TYPES))}") from None


def header(dtype: str) -> str | None:
    """The header that declares ``dtype``'s CUDA type (None: a built-in type)."""
    cuda_type(dtype)
    return TYPES[dtype.lower()][1]


#: the PTX names of the float formats a conversion reads or writes
_PTX = MappingProxyType({"float": "f32", "__half": "f16", "__nv_bfloat16": "bf16",
                         "__nv_fp8_e4m3": "e4m3", "__nv_fp8_e5m2": "e5m2"})


@dataclass(frozen=True)
class Conversion:
    """A conversion of the source's element type to the planned one, in registers:
    ``instruction`` (PTX ``cvt``) converting ``per_instruction`` values at once into
    ``out_bits``-bit results."""

    held: str
    planned: str
    instruction: str
    per_instruction: int
    out_bits: int


def conversion(held: str, planned: str) -> Conversion:
    """The ``cvt`` that turns ``held`` values (a float32 accumulator) into ``planned``
    ones: the packed pairs of PTX (``cvt.rn.bf16x2.f32``, ``cvt.rn.satfinite.e4m3x2.f32``,
    PTX ISA "cvt") where they exist. Other pairs are refused with a one-line error."""
    a, b = _PTX.get(cuda_type(held)), _PTX.get(cuda_type(planned))
    if a == "f32" and b in ("f16", "bf16"):
        return Conversion(held, planned, f"cvt.rn.{b}x2.f32", 2, 16)
    if a == "f32" and b in ("e4m3", "e5m2"):
        return Conversion(held, planned, f"cvt.rn.satfinite.{b}x2.f32", 2, 8)
    raise DtypeError(f"the code converts float32 to 16- or 8-bit floats in registers; "
                     f"{held} -> {planned} is not one of them")


__all__ = ["Conversion", "TYPES", "conversion", "cuda_type", "header"]
