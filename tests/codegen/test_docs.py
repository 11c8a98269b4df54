"""docs/codegen.md shows real output: every generated function it prints is what
tl.codegen prints today (the reference tile in every language, both directions)."""

from __future__ import annotations

from pathlib import Path

import tilelayout as tl
from tilelayout import presets

DOC = (Path(__file__).resolve().parents[2] / "docs" / "codegen.md").read_text()


def test_every_language_and_direction_of_the_reference_tile_is_current():
    p = presets.get("case.tensor_core_tile")
    for inverse in (False, True):
        for lang in ("python", "c", "cpp", "cuda", "triton"):
            assert tl.codegen(p.layout, p.shape, lang=lang, inverse=inverse) in DOC, (lang, inverse)


def test_swizzle_and_search_examples_are_current():
    sw = presets.get("case.swizzle_8x64_float16")
    for inverse in (False, True):
        assert tl.codegen(sw.layout, sw.shape, lang="cuda", inverse=inverse) in DOC
    assert tl.codegen(tl.parse("S[(3,2,16):(2@TCol,3@TCol,1)]"), (6, 16), lang="c",
                      inverse=True) in DOC


def test_xor_swizzle_example_is_current():
    L = tl.ComposeLayout(tl.XorSwizzle(1, 2, 4, 9, 18), tl.parse("S[(4,8):(8,1)]"))
    for inverse in (False, True):
        assert tl.codegen(L, lang="c", inverse=inverse) in DOC
