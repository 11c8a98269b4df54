"""The step-by-step evaluators answer as the compiled plans do (a plan's first call is
answered step by step, its later calls by the compiled function)."""

from __future__ import annotations

import random

import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutError
from tilelayout.eval.compiled import _compile, plan_for
from tilelayout.eval.stepwise import evaluators, replica_deltas

LAYOUTS = [
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid", (8, 16)),
    ("S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]", (128, 128)),
    ("S[(8,16,16,8):(4@laneid,2@warpid,8,1@laneid)] + R[2:1@warpid]", None),
    ("S[4:1] + R[(9,4,2):(1@pid,0@pid,16@pid)] + 3@pid", None),  # 18 deltas: the loop form
    ("S[(8,64):(-64,1)] + R[3:-512] + -100", (8, 64)),
    ("S[(2,3,5):(15,5,1)] + 7", (2, 15)),
    ("S[1:0] + 4@pid", ()),
    ("S[(4,4):(1,4)] + R[(2,2):(0,0)]", (16,)),
]
SWIZZLES = [None, tl.Swizzle(3, 3, 3), tl.Swizzle(0, 1, 1), tl.XorSwizzle((1, 2, 4 | 1, 8 | 2, 16 | 4))]


def _cases():
    for text, shape in LAYOUTS:
        for sw in SWIZZLES:
            L = tl.parse(text)
            if sw is not None:
                if "m" not in L.axes:
                    continue
                L = tl.ComposeLayout(sw, L)
            yield L, shape


@pytest.mark.parametrize(("layout", "shape"), list(_cases()), ids=str)
def test_stepwise_answers_as_the_compiled_functions(layout, shape):
    plan = plan_for(layout, shape)
    base, apply = evaluators(layout, plan.shape)
    compiled_base, compiled_apply = plan.base.function(), plan.apply.function()
    rng = random.Random(0)
    size = 1
    for s in plan.shape:
        size *= s
    flats = sorted({0, size - 1, *(rng.randrange(size) for _ in range(40))})
    for f in flats:
        digits, rest = [], f
        for s in reversed(plan.shape):
            rest, d = divmod(rest, s)
            digits.append(d)
        for index in (f, tuple(reversed(digits))):
            got, want = base(index), compiled_base(index)
            assert got == want and list(got) == list(want)  # same values, same axis order
            got_all, want_all = apply(index), compiled_apply(index)
            assert got_all == want_all and [list(c) for c in got_all] == [list(c) for c in want_all]


@pytest.mark.parametrize("index", [-1, 128, (8, 0), (0,), "3", 2.5, (1, 2, 3)])
def test_stepwise_refuses_what_the_compiled_function_refuses(index):
    L = tl.parse("S[(8,16):(16,1)] + R[2:1@pid]")
    base, apply = evaluators(L, (8, 16))
    compiled_base = plan_for(L, (8, 16)).base.function()
    with pytest.raises(LayoutError) as want:
        compiled_base(index)
    for fn in (base, apply):
        with pytest.raises(LayoutError) as got:
            fn(index)
        assert str(got.value) == str(want.value)


def test_many_replicas_are_listed_step_by_step_under_the_limit():
    L = tl.parse("S[2:1] + R[(128,256):(1@pid,128@pid)]")  # over the default limit
    _, apply = evaluators(L, (2,))
    with pytest.raises(tl.BudgetError):
        apply(1)
    with tl.limits(replicas=1 << 15):
        got = apply(1)
        assert sorted(c["pid"] for c in got) == list(range(1 << 15))
        assert got == L.apply(1) == L.apply(1)  # the plan answers the same, step by step
        assert len(replica_deltas(L)) == 1 << 15


@pytest.mark.parametrize(("layout", "shape"), list(_cases())[::3], ids=str)
def test_a_plans_first_call_is_answered_step_by_step_as_the_next_ones(layout, shape):
    checked = layout.check_shape(shape)
    size = 1
    for s in checked:
        size *= s
    for index in (0, size - 1, tuple(s - 1 for s in checked)):
        plan = _compile(layout, checked)  # a new plan: nothing compiled
        first = plan.base(index), plan.apply(index)
        assert not plan.base.compiled and not plan.apply.compiled
        second = plan.base(index), plan.apply(index)
        assert plan.base.compiled and plan.apply.compiled
        assert first == second and [list(c) for c in first[1]] == [list(c) for c in second[1]]
