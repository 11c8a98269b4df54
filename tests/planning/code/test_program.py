"""The adapter between plans and code: which mechanism, threads and slots a plan's
code has, the refusals, and the self-check that executes the program before any code
is written."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.program import NoCodeError, check, program_of

from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import layouts as scenario_layouts
from ..scenarios.suite import plan as scenario_plan


def test_each_mechanism_has_its_program():
    seen = {}
    for s in SCENARIOS:
        if s.xla is None:
            prog = program_of(scenario_plan(s))
            seen[prog.mechanism] = prog
    assert set(seen) == {"none", "warp-shuffle", "shared-memory"}
    shuffled = seen["warp-shuffle"]
    assert (shuffled.exchange is not None or shuffled.transpose is not None) and \
        seen["shared-memory"].staging
    p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1", None,
                           "float32")
    assert program_of(p).mechanism == "registers"


def test_threads_slots_and_shared_memory():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    prog = program_of(p)
    assert (prog.threads, prog.src_slots, prog.dst_slots) == (128, 64, 64 * 128)
    assert (prog.held, prog.dtype, prog.dst_shared) == ("float32", "bfloat16", True)
    assert (prog.smem_bytes, prog.smem_align) == (16384, 1024)
    assert (p.threads, p.src_slots, p.dst_slots, p.smem_bytes, p.smem_align) == \
        (128, 64, 8192, 16384, 1024)
    r = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]", None, "float32")
    assert (r.threads, r.smem_bytes, r.smem_align) == (32, 0, 0)


def test_plans_between_devices_have_no_code():
    s = next(s for s in SCENARIOS if s.xla is not None)
    a, b = scenario_layouts(s)
    p = tl.plan_conversion(a, b, s.shape, s.dtype)
    with pytest.raises(NoCodeError, match="between devices"):
        program_of(p)
    ctas = tl.plan_conversion("S[(2,32):(1@bx,1@laneid)]", "S[(2,32):(1@bx,1@laneid)] + 0",
                              None, "float32")
    with pytest.raises(NoCodeError, match="between CTAs or devices"):
        program_of(ctas)


def test_the_self_check_catches_a_wrong_program():
    p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1", None,
                           "float32")
    prog = program_of(p)
    take = np.asarray(prog.exchange.take).copy()
    take[3, 0], take[3, 1] = take[3, 1].copy(), take[3, 0].copy()  # thread 3 swaps back
    bad = type(prog)(**{**{f: getattr(prog, f) for f in prog.__dataclass_fields__},
                        "exchange": type(prog.exchange)(prog.exchange.bits, prog.exchange.words,
                                                        prog.exchange.payload,
                                                        prog.exchange.src_lane, take)})
    with pytest.raises(tl.LayoutError, match="internal: the code of this plan would put"):
        check(bad)
