"""The device helpers an emitted unit may need, written once each."""

from __future__ import annotations

from tilelayout.planning.code.cuda_helpers import HELPERS, helper_text


def test_helpers_come_in_a_fixed_order_and_only_when_used():
    both = "\n".join(helper_text({"halves", "xor_bits"}))
    assert both.index("xor_bits") < both.index("half_of")
    assert helper_text(()) == []
    assert "mov.b32 %0, {%1, %2};" in HELPERS["halves"]  # packing by mov, never prmt
    assert "#pragma unroll" in HELPERS["xor_bits"]
