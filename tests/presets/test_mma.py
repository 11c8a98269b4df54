"""mma.sync fragments vs the PTX formulas and CuTe's (thread, value) layouts (facts §1-§2)."""

from __future__ import annotations

import pytest

from tilelayout import presets

from . import cute_layout
from .tables import collect, of_preset

# -- PTX formulas, transcribed from docs/hardware-facts.md#mma-fragments (g = lane >> 2, t = lane % 4) ------


def ptx_k16_f16_a(g, t, i):
    row = g if i in (0, 1, 4, 5) else g + 8
    return row, 2 * t + (i & 1) + (8 if i >= 4 else 0)


def ptx_k16_f16_b(g, t, i):
    return 2 * t + (i & 1) + (8 if i >= 2 else 0), g


def ptx_c(g, t, i):
    return (g if i < 2 else g + 8), 2 * t + (i & 1)


def ptx_k16_i8_a(g, t, i):
    return (g if i < 4 else g + 8), 4 * t + (i & 3)


def ptx_k16_i8_b(g, t, i):
    return 4 * t + i, g


def ptx_k8_f16_a(g, t, i):
    return (g if i in (0, 1) else g + 8), 2 * t + (i & 1)


def ptx_k8_f16_b(g, t, i):
    return 2 * t + i, g


def ptx_k8_tf32_a(g, t, i):
    return (g if i in (0, 2) else g + 8), (t if i in (0, 1) else t + 4)


def ptx_k8_tf32_b(g, t, i):
    return (t if i == 0 else t + 4), g


def ptx_k32_a(g, t, i):
    row = g if (0 <= i < 4 or 8 <= i < 12) else g + 8
    return row, 4 * t + (i & 3) + (16 if i >= 8 else 0)


def ptx_k32_b(g, t, i):
    return 4 * t + (i & 3) + (16 if i >= 4 else 0), g


# (preset, dtypes, PTX formula, elements per thread, CuTe layout, CuTe matrix rows)
# CuTe: A is M x K (idx = m + k M), B is N x K (idx = n + k N), C is M x N (idx = m + n M)
C16x8 = "((4,8),(2,2)):((32,1),(16,8))"
CASES = [
    ("mma.m16n8k16.A", ("float16", "bfloat16"), ptx_k16_f16_a, 8,
     "((4,8),(2,2,2)):((32,1),(16,8,128))"),
    ("mma.m16n8k16.B", ("float16", "bfloat16"), ptx_k16_f16_b, 4,
     "((4,8),(2,2)):((16,1),(8,64))"),
    ("mma.m16n8k16.A", ("int8", "uint8", "e4m3", "e5m2"), ptx_k16_i8_a, 8,
     "((4,8),(4,2)):((64,1),(16,8))"),
    ("mma.m16n8k16.B", ("int8", "uint8", "e4m3", "e5m2"), ptx_k16_i8_b, 4,
     "((4,8),4):((32,1),8)"),
    ("mma.m16n8k16.C", ("float32", "float16", "int32"), ptx_c, 4, C16x8),
    ("mma.m16n8k8.A", ("float16", "bfloat16"), ptx_k8_f16_a, 4, C16x8),
    ("mma.m16n8k8.B", ("float16", "bfloat16"), ptx_k8_f16_b, 2, "((4,8),2):((16,1),8)"),
    ("mma.m16n8k8.A", ("tfloat32",), ptx_k8_tf32_a, 4, "((4,8),(2,2)):((16,1),(8,64))"),
    ("mma.m16n8k8.B", ("tfloat32",), ptx_k8_tf32_b, 2, "((4,8),2):((8,1),32)"),
    ("mma.m16n8k8.C", ("float32", "float16"), ptx_c, 4, C16x8),
    ("mma.m16n8k32.A", ("int8", "uint8", "e4m3", "e5m2"), ptx_k32_a, 16,
     "((4,8),(4,2,2)):((64,1),(16,8,256))"),
    ("mma.m16n8k32.B", ("int8", "uint8", "e4m3", "e5m2"), ptx_k32_b, 8,
     "((4,8),(4,2)):((32,1),(8,128))"),
    ("mma.m16n8k32.C", ("float32", "float16", "int32"), ptx_c, 4, C16x8),
]
ALL = [(name, d, f, n, cute) for name, ds, f, n, cute in CASES for d in ds]


def ptx_table(formula, per_thread):
    return collect(
        ((formula(lane >> 2, lane % 4, i)), {"laneid": lane, "m": i})
        for lane in range(32) for i in range(per_thread)
    )


def cute_table(name, text, shape):
    """CuTe TV layout -> {(row, col) in tilelayout's orientation: {lane, value}}."""
    rows, cols = shape
    operand = name[-1]
    threads, values = cute_layout.mode_sizes(text)
    assert threads == 32
    pairs = []
    for t in range(threads):
        for v in range(values):
            idx = cute_layout.evaluate_modes(text, (t, v))
            if operand == "B":  # CuTe B is N x K column-major; ours is K x N
                n, k = idx % cols, idx // cols
                pairs.append(((k, n), {"laneid": t, "m": v}))
            else:  # M x K or M x N, column-major
                pairs.append(((idx % rows, idx // rows), {"laneid": t, "m": v}))
    return collect(pairs)


@pytest.mark.parametrize(("name", "dtype", "formula", "per_thread", "cute"), ALL,
                         ids=[f"{c[0]}-{c[1]}" for c in ALL])
def test_fragment_matches_ptx_and_cute(name, dtype, formula, per_thread, cute):
    p = presets.get(name, dtype=dtype)
    ptx = ptx_table(formula, per_thread)
    assert len(ptx) == p.shape[0] * p.shape[1]  # the formula covers every element once
    assert all(len(v) == 1 for v in ptx.values())
    assert cute_table(name, cute, p.shape) == ptx  # the two sources agree
    assert of_preset(p) == ptx
    assert p.dtype == dtype and set(p.layout.axes) == {"laneid", "m"}


def test_every_mma_dtype_choice_is_tested():
    tested = {(name, d) for name, d, *_ in ALL}
    for name in presets.names():
        if name.startswith("mma."):
            for d in presets.info(name).param("dtype").choices:
                assert (name, d) in tested


def test_cute_worked_example_of_the_facts_file():
    # facts §2: m16n8k16 A, thread 5 (t0=1, t1=1), value 6 (v0=0, v1=1, v2=1)
    idx = cute_layout.evaluate_modes("((4,8),(2,2,2)):((32,1),(16,8,128))", (5, 6))
    assert (idx % 16, idx // 16) == (1 + 8, 2 + 8)
    assert presets.get("mma.m16n8k16.A", dtype="float16").layout.base(
        (9, 10), shape=(16, 16)) == {"laneid": 5, "m": 6}


def test_operands_require_dtype_and_c_defaults_to_float32():
    with pytest.raises(presets.PresetError, match="needs dtype"):
        presets.get("mma.m16n8k16.A")
    assert presets.get("mma.m16n8k16.C").dtype == "float32"
    with pytest.raises(presets.PresetError, match="must be one of"):
        presets.get("mma.m16n8k32.A", dtype="float16")
