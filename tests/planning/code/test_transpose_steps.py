"""The single steps of a lane exchange by transpositions, on byte labels: prmt's byte
selection as the PTX ISA defines it, a select stage trading register pairs in the lanes
that trade, the ship form's selectors, and an indexed shuffle round."""

from __future__ import annotations

import numpy as np

from tilelayout.planning.code.transpose_steps import (
    OPERANDS,
    Select,
    byte_perm,
    partner,
    select_stage,
    ship_selectors,
    shuffled,
)
from tilelayout.planning.mechanisms.shuffle.warp_transpose import BOT, TOP


def test_byte_perm_takes_byte_s_of_the_pair_b_a_for_every_selector_nibble():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (5, 4))
    b = rng.integers(0, 256, (5, 4))
    for sel in (0x3210, 0x7654, 0x5410, 0x1032, 0x0000, 0x7777, 0x4567):
        pair = np.concatenate([a, b], axis=1)       # bytes 0-3 of a, then of b
        want = np.stack([pair[:, sel >> 4 * i & 7] for i in range(4)], axis=1)
        assert (byte_perm(a, b, sel) == want).all(), hex(sel)


def test_a_plain_select_trades_a_register_pair_where_the_lane_trades():
    vals = np.arange(2 * 4 * 4).reshape(2, 4, 4)     # 2 threads, 4 registers of 4 bytes
    trade = np.array([0, 1])
    out = select_stage(vals, Select(0, TOP, BOT, TOP, BOT, trade))
    assert (out[0] == vals[0]).all()
    assert (out[1, [0, 1, 2, 3]] == vals[1, [1, 0, 3, 2]]).all()


def test_the_ship_selectors_swap_the_operands_of_the_low_one():
    lo, hi = ship_selectors(TOP)
    assert hi == lo ^ OPERANDS


def test_a_shuffle_round_reads_the_named_lane_of_the_same_warp():
    vals = np.arange(64 * 2).reshape(64, 2, 1)        # 2 warps, 2 registers
    lanes = np.stack([np.arange(64) % 32 ^ 1, np.full(64, -1)])  # register 1 stays
    out = shuffled(vals, lanes)
    t = np.arange(64)
    assert (out[:, 0, 0] == vals[t - t % 32 + (t % 32 ^ 1), 0, 0]).all()
    assert (out[:, 1] == vals[:, 1]).all()
    assert (partner(np.arange(64) % 32, 4) == t - t % 32 + (t % 32 ^ 4)).all()
