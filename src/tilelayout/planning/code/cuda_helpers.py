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
})


def helper_text(names: Iterable[str]) -> list[str]:
    """The lines of the helpers ``names`` (in a fixed order)."""
    out: list[str] = []
    for name in HELPERS:
        if name in set(names):
            out += HELPERS[name].splitlines() + [""]
    return out


__all__ = ["HELPERS", "helper_text"]
