"""Generated Python and Triton code against the library: forward == map_all on every
element and replica, inverse == elements_at, for every preset and >= 300 random layouts.
(The Triton text runs here on numpy arrays; tests/codegen/test_triton_compile.py
compiles it with Triton for sm90.)"""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.codegen.generate import codegen
from tilelayout.codegen.inverse import NotInvertibleError

from .cases import all_cases, invertible, random_cases
from .helpers import (
    forward_values,
    image_samples,
    load_python,
    load_triton_as_numpy,
    near_misses,
    probe_expected,
)

CASES = all_cases()
IDS = [name for name, _, _ in CASES]


def test_the_corpus_is_what_the_issue_asks_for():
    rand = random_cases()
    assert len(rand) >= 300
    layouts = [lay for lay, _ in rand]
    tiles = [lay.tile_layout if isinstance(lay, tl.ComposeLayout) else lay for lay in layouts]
    assert sum(isinstance(lay, tl.ComposeLayout) for lay in layouts) >= 30
    assert sum(isinstance(getattr(lay, "swizzle", None), tl.XorSwizzle) for lay in layouts) >= 10
    assert sum(t.replica_count > 1 for t in tiles) >= 50
    assert sum(bool(dict(t.offset)) for t in tiles) >= 50
    strides = [it.stride for t in tiles for it in t.shard]
    assert min(strides) < 0 and 0 in strides
    assert any(it.extent in (3, 5, 6, 7) for t in tiles for it in t.shard)
    assert sum(invertible(lay, s) for lay, s in rand) >= 150
    assert sum(not invertible(lay, s) for lay, s in rand) >= 10
    assert any("case." in name for name, _, _ in CASES)


@pytest.mark.parametrize(("name", "layout", "shape"), CASES, ids=IDS)
def test_forward_equals_map_all(name, layout, shape):
    want = layout.map_all(shape)
    for lang in ("python", "triton"):
        src = codegen(layout, shape, lang=lang)
        fn = load_python(src) if lang == "python" else load_triton_as_numpy(src)
        got = forward_values(fn, layout, shape)
        for a in layout.axes:
            np.testing.assert_array_equal(got[a], want[a], err_msg=f"{lang} {a}")


@pytest.mark.parametrize(("name", "layout", "shape"), CASES, ids=IDS)
def test_inverse_equals_elements_at(name, layout, shape):
    if not invertible(layout, shape):
        with pytest.raises(NotInvertibleError, match="share a coordinate"):
            codegen(layout, shape, inverse=True)
        return
    inv = load_python(codegen(layout, shape, inverse=True))
    tinv = load_triton_as_numpy(codegen(layout, shape, lang="triton", inverse=True))
    rows, flat = image_samples(layout, shape, 2048)
    assert [inv(*map(int, r)) for r in rows] == flat.tolist()
    probes = near_misses(rows, 24)
    want = probe_expected(layout, shape, probes)
    assert [inv(*map(int, r)) for r in probes] == want
    if layout.axes:
        both = np.concatenate([rows, probes])
        got = np.broadcast_to(tinv(*both.T), (len(both),))
        assert got.tolist() == flat.tolist() + want
