"""The machine model (planning/machine.py): a plan's Route run on register files, shuffle
rounds, shared memory and device buffers, fed with values of any kind."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.machine import execute, source_values
from tilelayout.planning.model.routing import Route

TRANSPOSE = ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")


def test_values_as_array_mapping_or_indices():
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32")
    r = p._route
    assert isinstance(r, Route)
    arr = np.arange(32 * 32).reshape(32, 32) * 10
    by_array = execute(r, source_values(r.src, arr))
    assert by_array[(5, 7)] == arr[5, 7]     # dst (m, laneid): register 5 of lane 7
    mapping = {tuple(c): f"v{i}" for i, c in enumerate(r.src.coords.tolist())}
    assert execute(r, source_values(r.src, mapping))[(0, 1)] == "v1"   # element (0, 1)
    assert execute(r, source_values(r.src, None)) == p.execute()


@pytest.mark.parametrize("pair", [TRANSPOSE,
                                  ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
                                   "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]")])
def test_a_route_without_its_schedule_leaves_destinations_empty(pair):
    # the machine checks every destination is written: drop the mechanism, it refuses
    p = tl.plan_conversion(*pair, None, "float16")
    bare = dataclasses.replace(p._route, staging=None, shuffle=None, shuffle_fill=None,
                               byte_permute=None, warp_exchange=False)
    with pytest.raises(tl.LayoutError, match="left destination coordinate"):
        execute(bare, source_values(bare.src, None))
