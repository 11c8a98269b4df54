"""A plan's stages (planning/plan_stages.py): read-only values, JSON-ready, and the
staging's steps named as the hardware does them."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tilelayout.planning.plan_stages import Stage, instruction


def test_stage_data_is_read_only_and_json_ready():
    s = Stage("shuffle", "round 1", {"round": 0, "src_lane": [1, 0]})
    with pytest.raises(TypeError):
        s.data["round"] = 3          # type: ignore[index]
    assert json.loads(json.dumps(s.to_dict())) == {"what": "shuffle", "text": "round 1",
                                                   "round": 0, "src_lane": [1, 0]}


def test_plan_costs_are_read_only_and_plans_serialize():
    p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                           "float16")
    with pytest.raises(TypeError):
        p.costs["wavefronts"] = 0    # type: ignore[index]
    d = json.loads(json.dumps(p.to_dict()))
    assert d["costs"]["wavefronts"] == p.costs["wavefronts"]


def test_steps_of_a_staging():
    lanes = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
                               (32, 32), "float32")
    assert [s.what for s in lanes.stages] == ["store", "barrier", "load"]
    assert lanes.stages[1].text.startswith("__syncwarp")
    assert instruction(lanes.smem.write, store=True) == lanes.costs["store_instruction"]
    warps = tl.plan_conversion("S[(2,32,32):(1@warpid,1@laneid,1)]",
                               "S[(32,2,32):(1,1@warpid,1@laneid)]", (64, 32), "float32")
    assert warps.stages[1].text.startswith("barrier")


def test_a_stage_holds_frozen_data_only():
    from types import MappingProxyType

    s = Stage("store", "a store", {"worst": {"banks": [1, 2]}, "pass": 0})
    assert isinstance(s.data["worst"], MappingProxyType) and s.data["worst"]["banks"] == (1, 2)
    assert s.to_dict() == {"what": "store", "text": "a store", "worst": {"banks": [1, 2]},
                           "pass": 0}
