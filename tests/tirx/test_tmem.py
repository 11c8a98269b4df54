"""TIRx's tensor-memory constructors on our layouts: datapaths, MMA operands, refusals."""

import itertools

import pytest

from tilelayout.tirx.tmem import (
    DATAPATH_ROWS,
    TmemLayoutError,
    mma_datapath,
    tmem_datapath_layout,
    tmem_mma_operand_layout,
)


def _cells(layout, shape):
    return [(c["TLane"], c["TCol"]) for i in itertools.product(*(range(n) for n in shape))
            for c in [layout.base(i, shape)]]


@pytest.mark.parametrize("datapath", sorted(DATAPATH_ROWS))
def test_each_datapath_puts_every_element_in_its_own_cell(datapath):
    rows, cols = DATAPATH_ROWS[datapath], 32
    L = tmem_datapath_layout(datapath, rows, cols)
    cells = _cells(L, (rows, cols))
    assert len(set(cells)) == rows * cols
    assert all(0 <= lane < 128 and 0 <= col < cols for lane, col in cells)


def test_row_zero_and_the_folds():
    assert tmem_datapath_layout("D", 128, 8).base((5, 3), (128, 8)) == {"TLane": 5, "TCol": 3}
    assert tmem_datapath_layout("B", 64, 16).base((5, 9), (64, 16)) == {"TLane": 69, "TCol": 1}
    assert tmem_datapath_layout("G", 32, 16).base((5, 9), (32, 16)) == {"TLane": 69, "TCol": 1}
    low, high = (tmem_datapath_layout("F", 64, 8, sub_slab=s) for s in (0, 1))
    assert low.base((17, 0), (64, 8)) == {"TLane": 33, "TCol": 0}
    assert high.base((17, 0), (64, 8)) == {"TLane": 49, "TCol": 0}


@pytest.mark.parametrize(("M", "cta_group", "ws", "letter"), [
    (128, 1, False, "D"), (64, 1, False, "F"), (64, 1, True, "E"),
    (256, 2, False, "A"), (128, 2, False, "B"),
])
def test_mma_datapath(M, cta_group, ws, letter):  # noqa: N803
    assert mma_datapath(M, cta_group, ws) == letter


@pytest.mark.parametrize("call", [
    lambda: tmem_datapath_layout("Z", 128, 8), lambda: tmem_datapath_layout("D", 64, 8),
    lambda: tmem_datapath_layout("D", 128, 8, sub_slab=1),
    lambda: tmem_datapath_layout("G", 32, 6), lambda: tmem_datapath_layout("B", 64, 7),
    lambda: mma_datapath(64, 1, sparse=True), lambda: mma_datapath(32, 1),
    lambda: mma_datapath(256, 2, ws=True), lambda: mma_datapath(128, 1, ws=True),
    lambda: tmem_mma_operand_layout("X", (128, 8), "float32", M=128, cta_group=1),
    lambda: tmem_mma_operand_layout("D", (64, 8), "float32", M=128, cta_group=1),
])
def test_refusals(call):
    with pytest.raises(TmemLayoutError):
        call()


def test_a_16_bit_accumulator_doubles_the_column_strides():
    f32 = tmem_mma_operand_layout("D", (128, 16), "float32", M=128, cta_group=1)
    f16 = tmem_mma_operand_layout("D", (128, 16), "float16", M=128, cta_group=1)
    for i in [(0, 1), (7, 15)]:
        assert f16.base(i, (128, 16))["TCol"] == 2 * f32.base(i, (128, 16))["TCol"]


def test_grouped_b_accumulator_segments_the_columns():
    L = tmem_mma_operand_layout("D", (64, 32), "float32", M=128, cta_group=2, group=(2, 2, 8))
    assert len(set(_cells(L, (64, 32)))) == 64 * 32
