"""Every ordered pair of register-fragment / shared-memory presets that hold the same
number of elements: the plan executes and each destination coordinate receives its
element (flat logical index over the source's logical shape)."""

from __future__ import annotations

import itertools

import pytest

import tilelayout as tl
from tilelayout import presets

from .conftest import expected

FRAGMENTS = [
    ("mma.m16n8k16.A", {"dtype": "float16"}), ("mma.m16n8k16.B", {"dtype": "float16"}),
    ("mma.m16n8k16.C", {}), ("mma.m16n8k8.A", {"dtype": "float16"}),
    ("mma.m16n8k8.B", {"dtype": "float16"}), ("mma.m16n8k8.C", {}),
    ("mma.m16n8k32.A", {"dtype": "int8"}), ("mma.m16n8k32.B", {"dtype": "int8"}),
    ("ldmatrix.x1", {}), ("ldmatrix.x2", {}), ("ldmatrix.x4", {}),
    ("ldmatrix.x2", {"trans": True}), ("ldmatrix.x4", {"trans": True}),
    ("wgmma.m64nNk16.D", {"n": 8}), ("wgmma.m64nNk16.D", {"n": 16}),
    ("tcgen05.ld.32x32b", {"num": 4}), ("tcgen05.ld.32x32b", {"num": 8}),
    ("tcgen05.ld.16x64b", {"num": 4}), ("tcgen05.ld.16x128b", {"num": 2}),
    ("tcgen05.ld.16x256b", {"num": 1}), ("tcgen05.ld.16x256b", {"num": 2}),
    ("smem.tile", {"dtype": "float16", "mode": "none", "shape": (16, 16)}),
    ("smem.tile", {"dtype": "float16", "mode": "32B", "shape": (16, 16)}),
    ("smem.tile", {"dtype": "float16", "mode": "128B", "shape": (8, 64)}),
    ("smem.tile", {"dtype": "float16", "mode": "64B", "shape": (16, 32)}),
    ("case.tensor_core_tile", {}),
]


def _built():
    out = []
    for name, params in FRAGMENTS:
        p = presets.get(name, **params)
        out.append((f"{name}{params or ''}", p.layout, p.shape))
    return out


BUILT = _built()
# both sides in shared memory is a copy, not a conversion (refused; tested elsewhere)
PAIRS = [(a, b) for a, b in itertools.permutations(BUILT, 2)
         if a[1].size() == b[1].size() and ("@" in str(a[1]) or "@" in str(b[1]))]


def test_there_are_many_pairs():
    assert len(PAIRS) > 100
    kinds = {tl.plan_conversion(a[1], b[1], a[2], "float16").kind for a, b in PAIRS[::7]}
    assert {"none", "warp-shuffle", "shared-memory"} <= kinds


@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a[0]}->{b[0]}" for a, b in PAIRS])
def test_pair_moves_every_element(a, b):
    p = tl.plan_conversion(a[1], b[1], a[2], "float16")
    assert p.execute() == expected(b[1], a[2])
    assert p.kind in ("none", "registers", "warp-shuffle", "shared-memory")
