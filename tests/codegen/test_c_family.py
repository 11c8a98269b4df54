"""The C, C++ and CUDA forms, compiled with the system compiler into one test program
per language (every preset and random layout batched together), print exactly what
map_all and elements_at say."""

from __future__ import annotations

import pytest

from .cases import all_cases, invertible
from .cprogram import build, parse_output, run


@pytest.fixture(scope="module")
def batch():
    return [(layout, shape, invertible(layout, shape)) for _, layout, shape in all_cases()]


@pytest.mark.parametrize("lang", ["c", "cpp", "cuda"])
def test_compiled_program_prints_the_library_values(lang, batch, tmp_path):
    source, expected = build(batch, lang)
    assert source.count("inv") > 200 and source.count("fwd") > 300
    got = parse_output(run(source, lang, tmp_path))
    assert len(got) == len(expected)
    if got != expected:
        first = next(k for k, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
        marker = max(k for k in range(first) if expected[k] < 0 and expected[k] > -10**6)
        layout, shape, _ = batch[-expected[marker] - 1]
        pytest.fail(f"{lang}: {layout} over {shape}: printed {got[first]}, expected "
                    f"{expected[first]} (value {first - marker} of its block)")
