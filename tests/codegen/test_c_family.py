"""The C, C++ and CUDA forms, compiled with the system compiler into one test program
per language, print exactly what map_all and elements_at say. The C program holds
every preset and every random layout; the C++ and CUDA ones (the same function bodies
under other qualifiers) every preset and every fourth random layout."""

from __future__ import annotations

import pytest

from .cases import all_cases, invertible
from .cprogram import build, parse_output, run


def _batch(lang: str):
    cases = all_cases()
    if lang != "c":
        cases = [c for k, c in enumerate(cases) if not c[0].startswith("random") or k % 4 == 0]
    return [(layout, shape, invertible(layout, shape)) for _, layout, shape in cases]


@pytest.mark.parametrize(("lang", "least"), [("c", 350), ("cpp", 110), ("cuda", 110)])
def test_compiled_program_prints_the_library_values(lang, least, tmp_path):
    batch = _batch(lang)
    assert len(batch) >= least
    source, expected = build(batch, lang)
    got = parse_output(run(source, lang, tmp_path))
    assert len(got) == len(expected)
    if got != expected:
        first = next(k for k, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
        marker = max(k for k in range(first) if expected[k] < 0 and expected[k] > -10**6)
        layout, shape, _ = batch[-expected[marker] - 1]
        pytest.fail(f"{lang}: {layout} over {shape}: printed {got[first]}, expected "
                    f"{expected[first]} (value {first - marker} of its block)")
