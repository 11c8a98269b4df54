"""A staging found on bits as code: its instructions are the bit staging's (kind and
count per warp), and every destination unit comes from where its element was stored."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.bit_staging_program import from_bits
from tilelayout.planning.code.program import program_of
from tilelayout.planning.code.staging import run

from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import plan as scenario_plan

BITS = [s.name for s in SCENARIOS if s.xla is None and scenario_plan(s)._bits is not None
        and scenario_plan(s)._bits.staging is not None]


def test_the_suite_has_bit_plans():
    assert len(BITS) >= 4


@pytest.mark.parametrize("name", BITS)
def test_a_bit_staging_is_the_plans(name):
    p = scenario_plan(next(s for s in SCENARIOS if s.name == name))
    st = from_bits(p._bits, p, p.threads)
    bs = p._bits.staging
    warps = p.threads // 32
    for side, acc in ((st.store, bs.store), (st.load, bs.load)):
        assert {a.op.split(".")[0] for a in side} == {acc.instruction.split(".")[0]}
        per_warp = max(sum(bool((a.address.reshape(warps, 32)[w] >= 0).any()) for a in side)
                       for w in range(warps))
        assert per_warp == acc.per_warp
    assert st.passes == bs.passes and st.bytes == bs.bytes
    prog = program_of(p)
    got, _ = run(st, prog.src_units)
    assert ((got == prog.dst_units) | (prog.dst_units < 0)).all()


def test_a_bit_program_of_another_mechanism_is_refused():
    p = scenario_plan(next(s for s in SCENARIOS if s.name == BITS[0]))

    class Other:
        mechanism = "shuffle"
        staging = None

    with pytest.raises(tl.LayoutError, match="no code for a bit program of mechanism"):
        from_bits(Other(), p, p.threads)
    assert np.all(np.asarray(p._program.dst_units).shape)
