"""The C++ spelling of thread-dependent values: every form and condition the writer
renders is compiled by nvcc and evaluated by the PTX interpreter for every thread of a
CTA, and must equal the form's own value."""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout.planning.code.cuda_helpers import helper_text
from tilelayout.planning.code.cuda_text import Writer
from tilelayout.planning.code.thread_values import fit, fit_condition

from ...ptx import toolchain
from ...ptx.driver import execute

T = np.arange(256)
FORMS = [
    T % 32 % 4 * 2 + T % 32 // 4 * 36 + T // 32 * 1152,          # add
    ((T % 8) ^ (T // 8 % 8)) * 16 + T // 64 * 128,                # xor (a swizzle)
    ((T & 1) << 1 | (T >> 1 & 1) | (T & 0x1C)) ^ 1,               # a bit permutation
    np.where(T % 4 == 0, 0x5410, 0x1054),                         # a choice
    (T * 2654435761) % 97,                                        # a table
]
CONDITIONS = [T % 4 == 0, T >= 64, (T % 4 == 0) | (T % 4 == 3),
              np.array([bin(t & 7).count("1") % 2 == 0 for t in T]), np.isin(T, [1, 2, 77])]


def test_rendered_values_equal_the_forms():
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")
    w = Writer("probe")
    exprs = [w.value(fit(v), f"value {i}") for i, v in enumerate(FORMS)]
    exprs += [f"({w.condition(fit_condition(c.astype(np.int64)))} ? 1u : 0u)"
              for c in CONDITIONS]
    lines = ["#include <cstdint>", f"namespace {w.name}_detail {{", *helper_text(w.helpers),
             *w.tables, "}",
             'extern "C" __global__ void probe_kernel(uint32_t* out) {',
             "  const unsigned tid = threadIdx.x;", "  const unsigned lane = tid % 32;",
             "  const unsigned warp = tid / 32;", *("  " + c for c in w.constants)]
    lines += [f"  out[{i} * 256 + tid] = {e};" for i, e in enumerate(exprs)]
    lines.append("}")
    ptx = toolchain.compile_ptx("\n".join(lines) + "\n", "sm_80")
    n = len(exprs)
    r = execute(ptx, "probe_kernel", 256, [np.zeros(n * 256, np.uint32)])
    got = r.buffers[0].reshape(n, 256)
    for i, v in enumerate(FORMS):
        assert got[i].tolist() == v.tolist(), exprs[i]
    for j, c in enumerate(CONDITIONS):
        assert got[len(FORMS) + j].tolist() == c.astype(int).tolist(), exprs[len(FORMS) + j]


def test_named_values_and_constants_are_declared_once():
    w = Writer("convert")
    f = fit(FORMS[1])
    assert w.value(f, "a") == w.value(f, "b").replace("kBXor", "kAXor")
    assert len([c for c in w.constants if c.startswith("constexpr")]) == 1
    a = w.named("lane ^ 3", "from_lane", "what")
    assert w.named("lane ^ 3", "other", "what") == a and w.named("7u", "x", "y") == "7u"
