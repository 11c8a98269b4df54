"""The device helpers an emitted unit may need, written once each."""

from __future__ import annotations

from tilelayout.planning.code.cuda_helpers import HELPERS, helper_text


def test_helpers_only_when_used():
    text = "\n".join(helper_text({"xor_bits"}))
    assert "uint32_t xor_bits(uint32_t x, const uint32_t (&bit)[N])" in text
    assert helper_text(()) == []
    assert "#pragma unroll" in HELPERS["xor_bits"]


def test_halves_is_written_only_where_asked_and_packs_by_register_moves():
    assert set(HELPERS) == {"xor_bits", "halves"}
    text = "\n".join(helper_text({"halves"}))
    assert "xor_bits" not in text and "uint32_t halves(uint32_t a, uint32_t b)" in text
    assert "prmt" not in HELPERS["halves"].split("(no prmt)")[1]  # mov.b32 moves only
    assert HELPERS["halves"].count('asm("mov.b32') == 3
