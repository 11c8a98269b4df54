"""The AMD WMMA shape table (core/wmma_shapes.py) against docs/hardware.md and Triton."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from tilelayout.core.wmma_shapes import WMMA_K, WMMA_MN

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


def test_the_table_is_frozen():
    with pytest.raises(TypeError):
        WMMA_K[4] = (16,)  # type: ignore[index]
    assert all(isinstance(v, tuple) and list(v) == sorted(v) for v in WMMA_K.values())


def test_the_docs_page_lists_the_same_shapes():
    section = DOCS.read_text().split("## AMD WMMA shapes")[1].split("\n## ")[0]
    rows = dict(re.findall(r"^\| (\d) \| [^|]+\| ([\d, ]+) \|", section, re.M))
    assert {int(v): tuple(int(k) for k in ks.split(",")) for v, ks in rows.items()} == dict(WMMA_K)
    assert "AMDWmmaEncodingAttr::verify" in section


@pytest.mark.parametrize("version", sorted(WMMA_K))
def test_triton_lowers_every_listed_shape_and_the_guard_refuses_the_rest(version):
    # Triton's verifier takes every listed 16 x 16 x K (a shape it rejects aborts the
    # process, so the Gluon bridge refuses those before Triton sees them)
    pytest.importorskip("triton")
    gluon = importlib.import_module("tilelayout.interop.gluon")
    amd = importlib.import_module("triton.experimental.gluon.language.amd")
    from tilelayout.interop import InteropError

    for k in WMMA_K[version]:
        obj = amd.AMDWMMALayout(version, False, [[0, 1]], [], [*WMMA_MN, k])
        assert gluon.lower(obj, (32, 32)).warp_bases
    for k in sorted({8, 256} | {k for ks in WMMA_K.values() for k in ks} - set(WMMA_K[version])):
        with pytest.raises(InteropError, match=r"16 x 16 x K \(what Triton accepts\)"):
            gluon.lower(amd.AMDWMMALayout(version, False, [[0, 1]], [], [*WMMA_MN, k]), (32, 32))
