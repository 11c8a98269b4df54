"""TIRx's CUDA layout constructors against apache-tvm-tirx, over grids of their parameters.

Every parameter set is given to both; both refuse it, or both build a layout and the two
agree at every element (our evaluator on both, replicas included) and TIRx's own
``apply`` agrees with ours at sampled elements (tests/tirx/compare.py). The grids count
what they compared, so a grid that quietly shrank fails.
"""

from __future__ import annotations

import itertools
import math
from functools import partial

import pytest

import tilelayout.tirx as T
from tests.tirx.compare import is_ours, outcome, same_elements
from tilelayout import LayoutError
from tilelayout.interop.tvm import from_tvm

TX = pytest.importorskip(
    "tvm_tirx.backend.cuda.layout",
    reason="apache-tvm-tirx is not installed (pip install -e '.[tvm]'; scripts/test.sh does)",
)

pytestmark = pytest.mark.interop


def _both(theirs_f, ours_f, *, seed: int = 0) -> str:
    (t_kind, theirs), (o_kind, ours) = outcome(theirs_f), outcome(ours_f)
    assert t_kind == o_kind, (t_kind, theirs, o_kind, ours)
    if o_kind == "refused":
        assert isinstance(ours, T.TmemLayoutError | ValueError), ours  # LayoutError is one
        return "refused"
    if isinstance(ours, list):
        assert ours == [int(x) for x in theirs]
        return "ok"
    assert is_ours(ours)
    same_elements(theirs, ours, seed=seed)
    return "ok"


def test_tmem_datapath_layout_grid():
    counts = {"ok": 0, "refused": 0}
    grid = itertools.product("ABCDEFGH", (32, 64, 96, 128), (1, 2, 3, 4, 6, 8, 16, 64, 256, 512),
                             (0, 1, 2))
    for datapath, rows, cols, sub_slab in grid:
        args = (datapath, rows, cols, sub_slab)
        counts[_both(partial(TX.tmem_datapath_layout, *args),
                     partial(T.tmem_datapath_layout, *args))] += 1
    assert counts == {"ok": 82, "refused": 878}, counts  # A/D 20, C/F 40, B/E 16, G 6


SHAPES = [(128, 64), (64, 64), (32, 32), (64, 3), (2, 64, 32), (2, 128, 32), (64, 2, 32),
          (128, 2, 32), (64, 2, 2, 16), (64, 4, 2, 8), (64, 2, 3, 8), (2, 2, 32), (64,)]


def _main_refuses(M, cta_group, ws, sparse) -> bool:
    """apache/tvm main takes ``ws=True`` only for M=64 (its ``_mma_datapath_letter``); the
    0.1.0a4 wheel also builds M=128 ``.ws`` (datapath D). We follow main."""
    return ws and not sparse and cta_group == 1 and M == 128


def test_tmem_mma_operand_layout_grid():
    counts = {"ok": 0, "refused": 0, "main refuses": 0}
    grid = itertools.product("ADX", SHAPES, ("float32", "float16", "bfloat16"),
                             (32, 64, 128, 256), (1, 2), (False, True), (False, True))
    for operand, shape, dtype, M, cta_group, ws, sparse in grid:
        kw = {"M": M, "cta_group": cta_group, "ws": ws, "sparse": sparse}
        if _main_refuses(M, cta_group, ws, sparse):
            with pytest.raises(T.TmemLayoutError, match="ws=True only valid"):
                T.tmem_mma_operand_layout(operand, shape, dtype, **kw)
            counts["main refuses"] += 1
            continue
        counts[_both(partial(TX.tmem_mma_operand_layout, operand, shape, dtype, **kw),
                     partial(T.tmem_mma_operand_layout, operand, shape, dtype, **kw))] += 1
    assert counts == {"ok": 66, "refused": 3561, "main refuses": 117}, counts


def test_tmem_mma_operand_layout_groups():
    counts = {"ok": 0, "refused": 0}
    grid = itertools.product(((64, 32), (128, 32), (64, 30), (2, 64, 16)),
                             ((2, 2, 8), (4, 2, 4), (1, 2, 16), (2, 3, 8), (2, 2)),
                             ((128, 2), (64, 1, True), (128, 1), (64, 1)), ("float32", "float16"))
    for shape, group, inst, dtype in grid:
        M, cta_group, *ws = inst
        kw = {"M": M, "cta_group": cta_group, "ws": bool(ws), "group": group}
        counts[_both(partial(TX.tmem_mma_operand_layout, "D", shape, dtype, **kw),
                     partial(T.tmem_mma_operand_layout, "D", shape, dtype, **kw))] += 1
    assert counts == {"ok": 12, "refused": 148}, counts


DTYPES = ("float16", "bfloat16", "float32", "float8_e4m3fn", "float8_e5m2", "int8", "uint8",
          "float64")
MODES = (0, 1, 2, 3, TX.SwizzleMode.SWIZZLE_128B_ATOM)


def _mode(m):
    return T.SwizzleMode(m.value) if isinstance(m, TX.SwizzleMode) else m


def test_swizzle_mode_enum():
    assert [(m.name, m.value) for m in T.SwizzleMode] == [(m.name, m.value) for m in TX.SwizzleMode]


def test_mma_atom_layout_and_shape_grid():
    counts = {"ok": 0, "refused": 0}
    for dtype, mode in itertools.product(DTYPES, MODES):
        counts[_both(partial(TX.mma_atom_layout, dtype, mode),
                     partial(T.mma_atom_layout, dtype, _mode(mode)))] += 1
        for shape in (None, [64, 64], [2, 64, 64], [3, 2, 8, 8]):
            counts[_both(partial(TX.mma_atom_shape, dtype, mode, shape),
                         partial(T.mma_atom_shape, dtype, _mode(mode), shape))] += 1
    assert counts == {"ok": 8 * 5 + 8 * 4 * 4, "refused": 8 * 4}, counts


def test_mma_shared_layout_grid():
    """Every dtype x swizzle mode x (rows, cols) up to 256 x 256, and batched tiles.

    Where K is not whole atoms TIRx's ``tile_to`` floors the repeat count and returns a
    layout smaller than the tile (8 x 24 float16 128B has 128 elements, not 192); we
    refuse those, naming the atom, and ``floor=True`` gives TIRx's layout
    (docs/interop/tvm.md)."""
    counts = {"ok": 0, "refused": 0, "floored": 0}
    sides = (4, 8, 16, 24, 32, 64, 128, 256)
    shapes = [[r, c] for r in sides for c in sides] + [[2, 64, 128], [3, 16, 64], [2, 2, 8, 64]]
    for k, (dtype, mode, shape) in enumerate(itertools.product(
            ("float16", "bfloat16", "float32", "float8_e4m3fn", "int8"), (0, 1, 2, 3), shapes)):
        kind, theirs = outcome(partial(TX.mma_shared_layout, dtype, mode, shape))
        if kind == "ok" and int(theirs.size()) != math.prod(shape):
            with pytest.raises(LayoutError, match="whole .* atoms"):
                T.mma_shared_layout(dtype, mode, shape)
            floored = T.mma_shared_layout(dtype, mode, shape, floor=True)  # TIRx's answer
            same_elements(theirs, floored, seed=k)
            counts["floored"] += 1
            continue
        counts[_both(partial(TX.mma_shared_layout, dtype, mode, shape),
                     partial(T.mma_shared_layout, dtype, mode, shape), seed=k)] += 1
    assert sum(counts.values()) == 5 * 4 * 67, counts
    assert counts == {"ok": 782, "refused": 537, "floored": 21}, counts


def test_the_issue_example():
    """128x128 float16 128B: (0, 64) is the second atom column, after all 128 rows."""
    L = T.mma_shared_layout("float16", T.SwizzleMode.SWIZZLE_128B_ATOM, [128, 128])
    assert L.apply(0, 64, shape=[128, 128]) == {"m": 8192}
    theirs = TX.mma_shared_layout("float16", TX.SwizzleMode.SWIZZLE_128B_ATOM, [128, 128])
    assert int(theirs.apply(0, 64, shape=[128, 128])["m"]) == 8192


def test_tmem_datapath_layout_every_column_count():
    """Every datapath at its row count, every cols 1..512 and sub_slab 0/1: the same
    refusals, and structurally the same layout (same iters, so the same at every element)."""
    counts = {"ok": 0, "refused": 0}
    for datapath, rows in T.tmem.DATAPATH_ROWS.items():
        for cols, sub_slab in itertools.product(range(1, 513), (0, 1)):
            (tk, theirs), (ok, ours) = (outcome(partial(TX.tmem_datapath_layout, datapath, rows, cols,
                                                        sub_slab)),
                                        outcome(partial(T.tmem_datapath_layout, datapath, rows, cols,
                                                        sub_slab)))
            assert tk == ok, (datapath, cols, sub_slab, theirs, ours)
            if ok == "ok":
                assert from_tvm(theirs) == ours, (datapath, cols, sub_slab)
            counts[ok] += 1
    # A/D: 512 each; C/F: 1024 each (both sub_slabs); B/E: 256 even cols each; G: 128
    assert counts == {"ok": 2 * 512 + 2 * 1024 + 2 * 256 + 128, "refused": 7 * 1024 - 3712}, counts
