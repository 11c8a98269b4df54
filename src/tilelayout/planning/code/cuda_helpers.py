"""The small device helpers an emitted unit may need, in its ``NAME_detail`` namespace:
each written once, used by name.

>>> print("\\n".join(helper_text({"xor_bits"}))[:60])
// x's bits select constants: the XOR of bit[i] over the set
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

HELPERS = MappingProxyType({
    "xor_bits": (
        "// x's bits select constants: the XOR of bit[i] over the set bits i of x (a swizzled\n"
        "// address or lane pattern; the loop unrolls and folds into a few integer ops)\n"
        "template <int N>\n"
        "__device__ __forceinline__ uint32_t xor_bits(uint32_t x, const uint32_t (&bit)[N]) {\n"
        "  uint32_t r = 0;\n"
        "#pragma unroll\n"
        "  for (int i = 0; i < N; ++i) r ^= (x >> i & 1u) ? bit[i] : 0u;\n"
        "  return r;\n"
        "}"),
    "halves": (
        "// a 32-bit word of two 16-bit halves: half LO of a (0: its low half, 1: its high)\n"
        "// below half HI of b -- PTX mov.b32 unpacks and packs, register moves (no prmt),\n"
        "// as Triton's own code packs 16-bit values\n"
        "template <int LO, int HI>\n"
        "__device__ __forceinline__ uint32_t halves(uint32_t a, uint32_t b) {\n"
        "  unsigned short a0, a1, b0, b1;\n"
        "  uint32_t r;\n"
        '  asm("mov.b32 {%0, %1}, %2;" : "=h"(a0), "=h"(a1) : "r"(a));\n'
        '  asm("mov.b32 {%0, %1}, %2;" : "=h"(b0), "=h"(b1) : "r"(b));\n'
        '  asm("mov.b32 %0, {%1, %2};" : "=r"(r) : "h"(LO ? a1 : a0), "h"(HI ? b1 : b0));\n'
        "  return r;\n"
        "}"),
})


def helper_text(names: Iterable[str]) -> list[str]:
    """The lines of the helpers ``names`` (in a fixed order)."""
    out: list[str] = []
    for name in HELPERS:
        if name in set(names):
            out += HELPERS[name].splitlines() + [""]
    return out


__all__ = ["HELPERS", "helper_text"]
