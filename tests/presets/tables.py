"""Helpers: turn a preset or a formula into {logical index: set of coordinates}."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

import numpy as np

Coord = tuple[tuple[str, int], ...]


def coord(**axes: int) -> Coord:
    return tuple(sorted((a, int(v)) for a, v in axes.items()))


def of_preset(preset) -> dict[tuple[int, ...], frozenset[Coord]]:
    """Every element of a preset's layout over its logical shape (via map_all)."""
    arrays = preset.layout.map_all(preset.shape)
    axes = list(arrays)
    r = next(iter(arrays.values())).shape[-1]
    out = {}
    for index in np.ndindex(*preset.shape):
        out[index] = frozenset(
            coord(**{a: arrays[a][index + (k,)] for a in axes}) for k in range(r)
        )
    return out


def collect(pairs: Iterable[tuple[tuple[int, ...], Mapping[str, int]]]):
    """{index: frozenset of coords} from (index, coordinate dict) pairs."""
    table: dict[tuple[int, ...], set[Coord]] = defaultdict(set)
    for index, c in pairs:
        table[tuple(int(x) for x in index)].add(coord(**c))
    return {k: frozenset(v) for k, v in table.items()}


def scatter(shape, index, coords):
    """Vectorized table for a replica-free mapping: ``index`` is a tuple of integer arrays
    (one per logical dim, one entry per (thread, value) pair), ``coords`` maps axis ->
    array of the same length. Returns axis -> array of ``shape``, asserting that every
    logical element is written exactly once."""
    count = np.zeros(shape, dtype=np.int64)
    np.add.at(count, index, 1)
    assert (count == 1).all(), "the formula does not cover every element exactly once"
    out = {}
    for a, values in coords.items():
        arr = np.full(shape, -1, dtype=np.int64)
        arr[index] = values
        out[a] = arr
    return out


def preset_arrays(preset):
    """axis -> array of the logical shape, for a preset without replicas."""
    arrays = preset.layout.map_all(preset.shape)
    assert all(v.shape[-1] == 1 for v in arrays.values())
    return {a: v[..., 0] for a, v in arrays.items()}


def same_arrays(a, b) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
