"""Property: for random pairs of register layouts of one tile (any extents, lanes, warps,
register slots, replicas), the plan's machine model delivers every element to every
destination coordinate, and the kind is the coarsest level at which some element must
move."""

from __future__ import annotations

import math

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tilelayout as tl

from .conftest import expected

EXTENTS = (2, 3, 4, 2, 2, 5, 2)
AXES = ("laneid", "warpid", "m")


@st.composite
def register_layout(draw, extents, axes=AXES):
    """A bijective layout: each iter on laneid / warpid / m (``axes``), compact per axis
    in a random order; laneid stays under 32 (maybe with a replica over the spare lanes)."""
    order = draw(st.permutations(range(len(extents))))
    used = {a: 1 for a in AXES}
    axis_of = {}
    for i in order:
        choices = [a for a in axes if a != "laneid" or used[a] * extents[i] <= 32]
        a = draw(st.sampled_from(choices))
        axis_of[i] = (a, used[a])
        used[a] *= extents[i]
    assume(used["laneid"] * used["warpid"] > 1)  # a register layout (threads hold it)
    iters = ",".join(str(e) for e in extents)
    strides = ",".join(f"{s}@{a}" if a != "m" else str(s)
                       for a, s in (axis_of[i] for i in range(len(extents))))
    text = f"S[({iters}):({strides})]"
    if used["laneid"] <= 16 and draw(st.booleans()):
        text += f" + R[2:{used['laneid']}@laneid]"
    return text


@st.composite
def pair(draw, axes=AXES):
    k = draw(st.integers(2, 5))
    extents = tuple(draw(st.permutations(EXTENTS))[:k])
    return draw(register_layout(extents, axes)), draw(register_layout(extents, axes)), extents


@settings(max_examples=60, deadline=None)
@given(pair(), st.sampled_from(["float16", "float32", "int8", "float64"]))
def test_random_pairs_deliver_every_element(p, dtype):
    src, dst, extents = p
    plan = tl.plan_conversion(src, dst, (math.prod(extents),), dtype)
    assert plan.execute() == expected(plan.dst, plan.shape)
    level = {"none": 0, "registers": 1, "warp-shuffle": 2, "shared-memory": 3}[plan.kind]
    # the kind is exactly the coarsest level some destination coordinate needs
    s_map, d_map = plan.src.map_all(plan.shape), plan.dst.map_all(plan.shape)
    need = 0
    for e in range(plan.shape[0]):
        def holders(m, e=e):
            return [tuple(int(m.get(a, [[0]])[e][r]) if a in m else 0
                          for a in ("warpid", "laneid", "m"))
                    for r in range(m[next(iter(m))].shape[-1])]
        have = holders(s_map)
        for w, lane, slot in holders(d_map):
            if (w, lane, slot) in have:
                continue
            if any(h[:2] == (w, lane) for h in have):
                need = max(need, 1)
            elif any(h[0] == w for h in have):
                need = max(need, 2)
            else:
                need = 3
    assert level == need
