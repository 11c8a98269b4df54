"""The staging a plan picks is optimal for its cost model within the layouts searched:
held against an exhaustive search of every bijective XOR-linear layout on small tiles.

A 32-element float64 tile fills two 128-byte lines. For an XOR-linear layout (``columns[k]``
the index vector at address bit ``k``) every cost of the model is a function of two
columns only: a 16-byte vector needs ``columns[0]`` (the pair in one access); two lanes
of one phase share a bank pair iff their index difference lies in ``span(columns[4])``
(8-byte accesses) or ``span(columns[0], columns[4])`` (16-byte accesses); the request
count does not depend on the layout. So every ordered pair ``(columns[0], columns[4])``
completed to any basis covers all of GL(5, 2) -- the test checks that invariance on
random full matrices first, then compares the plan with the best pair."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core.f2 import Subspace
from tilelayout.planning.mechanisms.staging.instructions import best_access
from tilelayout.planning.mechanisms.staging.staging import stage_through
from tilelayout.planning.mechanisms.staging.xor_family import inverse_columns
from tilelayout.planning.model.placement import place
from tilelayout.planning.model.threads import register_file

N = 5
HARDWARE = ["1", "2", "1@laneid", "2@laneid", "4@laneid", "8@laneid", "16@laneid", "1@warpid"]


def _layout(rng: random.Random) -> str:
    """A random F2-linear layout of 32 elements: each index bit on one hardware bit."""
    bits = rng.sample(HARDWARE, N)
    slots = sorted(b for b in bits if "@" not in b)
    bits = [b if "@" in b else str(1 << slots.index(b)) for b in bits]  # dense slots
    return f"S[({','.join(['2'] * N)}):({','.join(bits)})]"


def _addresses(columns: list[int]) -> np.ndarray:
    images = inverse_columns(columns, N)
    flat = np.arange(1 << N)
    addr = np.zeros(1 << N, dtype=np.int64)
    for k, v in enumerate(images):
        addr ^= np.where((flat >> k) & 1 == 1, v, 0)
    return addr


def _complete(first: int, last: int, fill: list[int]) -> list[int] | None:
    span = Subspace([first, last])
    if span.dim != 2:
        return None
    middle = [v for v in fill if span.add(v)]
    return [first, *middle[:N - 2], last]


def _cost(sides, addr: np.ndarray) -> tuple[int, int]:
    w = best_access(sides[0], addr, "float64", True, worst=False, kinds=("vector", "packed"))
    r = best_access(sides[1], addr, "float64", False, worst=False, kinds=("vector", "packed"))
    return w.wavefronts + r.wavefronts, w.requests + r.requests


def _sides(writer: str, reader: str):
    return (register_file(tl.parse(writer), (32,)), register_file(tl.parse(reader), (32,)))


CASES = []
_rng = random.Random(18)
while len(CASES) < 12:
    w, r = _layout(_rng), _layout(_rng)
    if w != r:
        CASES.append((w, r))


@pytest.mark.parametrize(("writer", "reader"), CASES[:2])
def test_the_cost_depends_on_the_two_columns_only(writer, reader):
    sides = _sides(writer, reader)
    rng = random.Random(writer + reader)
    for _ in range(12):
        cols: list[int] = []
        while len(cols) < N:
            v = rng.randrange(1, 1 << N)
            if Subspace(cols).add(v) and Subspace(cols + [v]).dim == len(cols) + 1:
                cols.append(v)
        rep = _complete(cols[0], cols[-1], [1 << k for k in range(N)])
        assert rep is not None
        assert _cost(sides, _addresses(cols)) == _cost(sides, _addresses(rep))


@pytest.mark.parametrize(("writer", "reader"), CASES)
def test_the_plan_is_the_exhaustive_optimum(writer, reader):
    sides = _sides(writer, reader)
    unit = [1 << k for k in range(N)]
    best = min(_cost(sides, _addresses(cols))
               for a, b in itertools.permutations(range(1, 1 << N), 2)
               if (cols := _complete(a, b, unit)) is not None)
    ps, pd = place(tl.parse(writer), tl.parse(reader), (32,))
    s = stage_through(ps, pd, "float64")
    assert (s.wavefronts, s.choice.write.requests + s.choice.read.requests) == best
