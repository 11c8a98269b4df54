"""Shared comparison of a tvm_tirx layout with ours, element by element, both evaluators."""

from __future__ import annotations

import random

import numpy as np

import tilelayout as tl
from tilelayout.interop.tvm import from_tvm


def outcome(f):
    """``("ok", value)`` or ``("refused", exception)``."""
    try:
        return "ok", f()
    except Exception as exc:  # noqa: BLE001 - TIRx raises ValueError/RuntimeError/AssertionError/KeyError
        return "refused", exc


def _flat_coords(layout, n: int) -> dict[str, np.ndarray]:
    return {a: v for a, v in layout.map_all((n,)).items() if v.any()}


def same_elements(theirs, ours, samples: int = 24, seed: int = 0) -> None:
    """Every element (replicas included) equal under our evaluator after ``from_tvm``,
    and TIRx's own ``apply`` equal to ours at ``samples`` flat indices (corners included)."""
    ref = from_tvm(theirs)
    n = ours.size()
    assert ref.size() == n, (ref, ours)
    a, b = _flat_coords(ref, n), _flat_coords(ours, n)
    assert a.keys() == b.keys(), (ref, ours)
    for axis in a:
        assert np.array_equal(np.sort(a[axis], axis=-1), np.sort(b[axis], axis=-1)), (axis, ref, ours)
    picks = {0, n - 1, *random.Random(seed).sample(range(n), min(n, samples))}
    for flat in sorted(picks):
        got = {str(k): int(v) for k, v in theirs.apply(flat).items()}
        mine = ours.apply(flat)
        axes = set(got) | set(mine)
        assert {x: got.get(x, 0) for x in axes} == {x: mine.get(x, 0) for x in axes}, (ours, flat)


def is_ours(layout) -> bool:
    return isinstance(layout, tl.TileLayout | tl.ComposeLayout)
