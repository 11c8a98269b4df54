"""The device helpers an emitted unit may need, written once each."""

from __future__ import annotations

from tilelayout.planning.code.cuda_helpers import HELPERS, helper_text


def test_helpers_only_when_used():
    text = "\n".join(helper_text({"xor_bits"}))
    assert "uint32_t xor_bits(uint32_t x, const uint32_t (&bit)[N])" in text
    assert helper_text(()) == [] and set(HELPERS) == {"xor_bits"}
    assert "#pragma unroll" in HELPERS["xor_bits"]
