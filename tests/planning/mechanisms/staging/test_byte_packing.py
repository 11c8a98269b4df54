"""The byte permutes of an 8-bit staging: the closed form on bits equals what the
emitted code writes (its ``prmt`` count), broadcast registers on either side included."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_unit import code_counts
from tilelayout.planning.mechanisms.staging.byte_packing import byte_permutes

from ...code.emitted import on_bits_only
from ...scenarios.suite import COLS_F16, ROWS_F16

# (src, dst, shape, dtype, target): harness pairs of seed 26 whose stagings repack bytes
PAIRS = [
    # a destination broadcast slot bit inside a word: the loaded bytes are repeated
    ("S[(4,2,2,4):(8@laneid,4,1@laneid,1)] + R[4:2@laneid]",
     "S[(4,2,8):(8@laneid,1,1@laneid)] + R[2:2]", (16, 4), "int8", "sm_90a"),
    # a destination word held twice (a broadcast bit above the word): built once
    ("S[(4,2,8,2,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)] + R[2:4@warpid]",
     "S[(2,2,2,2,2,2,2,2,2,2):(1@laneid,2@laneid,16@laneid,4@laneid,1@warpid,1,2@warpid,"
     "4@warpid,2,8@laneid)] + R[2:4]", (64, 16), "e4m3", "sm_100a"),
    # the 8-bit ldmatrix form into a destination with a broadcast slot bit
    ("S[(16,8,2,2,2):(1,32,1@warpid,16@laneid,16)] + R[16:1@laneid]",
     "S[(4,2,2,2,2,2,2,2,2):(8,1@warpid,1@laneid,16@laneid,4@laneid,8@laneid,2@laneid,4,1)]"
     " + R[2:2]", (32, 32), "e4m3", "sm_100a"),
    # the scenario suite's int8 warpgroup transpose (rows -> columns of 64x64)
    (ROWS_F16, COLS_F16, (64, 64), "int8", "sm_100a"),
]


@pytest.mark.parametrize("src,dst,shape,dtype,target", PAIRS)
def test_the_claimed_permutes_are_the_codes(src, dst, shape, dtype, target):
    with on_bits_only():  # the stagings on bits (the element search may shuffle instead)
        p = tl.plan_conversion(src, dst, shape, dtype, target=target)
    assert p.mechanism == "shared-memory"
    assert p.costs.get("byte_permutes", 0) == code_counts(p).get("prmt", 0)


def test_the_scenario_transpose_counts_its_permutes_among_its_instructions():
    p = tl.plan_conversion(*PAIRS[3][:3], "int8", target="sm_100a")
    assert p.costs["byte_permutes"] == 8
    assert p.costs["store_instruction"] == "st.shared.v2.b32+packed"


def test_words_in_order_cost_nothing_and_scattered_bytes_cost_per_register():
    assert byte_permutes([1, 2, 4], 4, 2, store=True) == 0
    assert byte_permutes([2, 1, 4, 8], 4, 4, store=True) == 4         # a register's bytes reordered
    assert byte_permutes([4, 8, 1, 2], 4, 4, store=True) == 4 * 3     # a word from four registers
    assert byte_permutes([1, 2, 4], 1, 8, store=True) == 0            # single bytes: shifts
    assert byte_permutes([1, 2, 4], 1, 8, store=False) == 2 * 3       # four loads a word
    assert byte_permutes([1, 0, 2], 2, 4, store=False) == 0           # a repeated pair: halves
    assert byte_permutes([0, 1, 2], 4, 4, store=False) == 2 * 1       # a repeated byte
    assert byte_permutes([1, 4, 2], 4, 1, store=True) == 0            # two halves: mov.b32
