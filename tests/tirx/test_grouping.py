"""TIRx's ``group_many`` on random layouts and shapes: the refinement keeps the mapping,
splits only, and every shape's separators group exactly that shape."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError


def _factorizations(rng, n):
    out, rest = [], n
    for p in (2, 3, 5):
        while rest % p == 0 and rng.random() < 0.7:
            out.append(p)
            rest //= p
    out.append(rest)
    if rng.random() < 0.3:
        out.insert(rng.randrange(len(out) + 1), 1)
    return out


def test_group_many_keeps_the_mapping_and_groups_every_shape():
    rng, checked = random.Random(3), 0
    for _ in range(200):
        ext = [rng.choice([2, 3, 4, 6]) for _ in range(rng.randint(1, 3))]
        L = T.TileLayout.from_iters([T.Iter(e, rng.choice([1, 2, 5, 30]), "m") for e in ext])
        n = math.prod(ext)
        shapes = [_factorizations(rng, n) for _ in range(rng.randint(1, 3))]
        try:
            G, seps = L.group_many(shapes)
        except LayoutError as exc:
            assert "incompatible cumulative boundaries" in str(exc) or "preserve" in str(exc)
            continue
        checked += 1
        assert np.array_equal(G.map_all((n,))["m"], L.map_all((n,))["m"])
        for shape, sep in zip(shapes, seps):
            assert [math.prod(it.extent for it in G.shard[a:b]) for a, b in zip(sep, sep[1:])] \
                == shape
    assert checked >= 100, checked


@pytest.mark.parametrize("shapes,message", [
    ([[3, 4], [2, 6]], "incompatible cumulative boundaries"), ([], "at least one shape"),
    ([[5]], "equal total products"), ([[]], "must not be empty"), (None, "a list of shapes"),
    ([[12.0]], "int"),
])
def test_refusals_are_tirx_internal_errors(shapes, message):
    with pytest.raises(LayoutError, match=message):
        T.TileLayout(T.S[12:1]).group_many(shapes)
    if shapes == [[3, 4], [2, 6]]:
        with pytest.raises(RuntimeError):  # TVM's InternalError kind
            T.TileLayout(T.S[12:1]).group_many(shapes)
