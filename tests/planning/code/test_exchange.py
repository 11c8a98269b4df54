"""A register exchange as code sees it: read from a plan's route, executed on element
numbers it delivers what the plan's machine model delivers, and fetching a lane's own
value through an idle round changes nothing but the selects."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.exchange import (
    Exchange,
    fetch_own,
    from_route,
    per_word,
    run,
    units_of,
)
from tilelayout.planning.code.program import program_of, scheduled
from tilelayout.planning.code.program import run as run_program

from . import population

PLANS = [  # (src, dst, shape, dtype): registers, shuffles, byte permutes
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,-1)] + 3", None, "float32"),
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,-1)] + 3", None, "float16"),
    ("S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]", "S[(4,8,4,2):(2,4@laneid,1@laneid,1)]",
     (16, 16), "float16"),
    ("S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]", "S[(2,4,4,8):(4,1@laneid,1,4@laneid)]",
     (16, 16), "float32"),
    ("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]",
     "S[(4,2,8,4,4,4):(1@warpid,4,4@laneid,8,1@laneid,1)]", (64, 64), "e4m3"),
    ("S[(2,16):(1,1@laneid)]", "S[(2,16):(1,1@laneid)] + R[2:16@laneid]", None, "float64"),
]


@pytest.mark.parametrize("src, dst, shape, dtype", PLANS)
def test_the_exchange_delivers_every_element(src, dst, shape, dtype):
    p = tl.plan_conversion(src, dst, shape, dtype)
    prog = program_of(p)
    assert prog.exchange is not None or prog.transpose is not None  # (found on bits)
    got = run_program(prog, prog.src_units)
    want = prog.dst_units
    assert ((got[:, :want.shape[1]] == want) | (want < 0)).all()


def test_random_pairs_that_stay_in_registers_deliver_every_element():
    n = 0
    for _, a, b, shape, dtype in population.random_pairs(200):
        p = tl.plan_conversion(a, b, shape, dtype)
        if p.mechanism == "shared-memory":
            continue
        route = scheduled(p._route) if p._route.warp_exchange else p._route
        ex = from_route(route, p.threads)
        got = run(ex, program_of(p).src_units)
        want = program_of(p).dst_units
        assert ((got[:, :want.shape[1]] == want) | (want < 0)).all()
        n += 1
    assert n >= 20


def test_fetching_the_own_value_through_an_idle_round_keeps_the_result():
    p = tl.plan_conversion(*PLANS[3])
    route = scheduled(p._route) if p._route.warp_exchange else p._route
    ex = from_route(route, 32)
    again = fetch_own(ex)
    units = program_of(p).src_units
    assert (run(ex, units) == run(again, units)).all()
    # every destination register now comes from one round in every lane
    names = again.take[:, :, 0]
    assert (names >= again.words).all()


def test_units_and_words():
    assert per_word(16) == 2 and units_of(5, 64) == [10, 11]
    ex = Exchange(32, 1, np.zeros((0, 32, 1), np.int64), np.zeros((0, 32), np.int64),
                  np.zeros((32, 1, 2), np.int64))
    assert ex.rounds == 0 and ex.threads == 32
