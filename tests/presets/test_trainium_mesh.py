"""Trainium SBUF/PSUM and device-mesh sharding presets vs their formulas (facts §8, JAX)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import tilelayout as tl
from tilelayout import presets

from .tables import collect, of_preset, preset_arrays, same_arrays


@pytest.mark.parametrize("shape", [(128, 512), (64, 3, 7), (1, 1), (128, 2, 2, 2)])
def test_sbuf(shape):
    p = presets.get("trainium.sbuf", shape=shape)
    grid = np.indices(shape)
    free = np.ravel_multi_index(tuple(grid[1:]), shape[1:])
    assert same_arrays(preset_arrays(p), {"P": grid[0], "F": free})


@pytest.mark.parametrize("shape", [(128, 512), (128, 100), (32, 1024), (128, 4096)])
def test_psum(shape):
    p = presets.get("trainium.psum", shape=shape)
    q, f = np.indices(shape)
    assert same_arrays(preset_arrays(p), {"P": q, "Bank": f // 512, "F": f % 512})


@pytest.mark.parametrize(("name", "shape", "message"), [
    ("trainium.sbuf", (256, 4), "only 128 partitions"),
    ("trainium.sbuf", (8,), "partitions, free"),
    ("trainium.psum", (128, 5000), "exceeds"),
    ("trainium.psum", (128, 700), "whole banks"),
])
def test_trainium_bad_shapes(name, shape, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get(name, shape=shape)


def mesh_table(mesh, spec, shape):
    """Independent: enumerate devices, slice each one's local block like JAX does."""
    axes = list(mesh)
    per_dim = [() if e is None else (e,) if isinstance(e, str) else tuple(e) for e in spec]
    local = [s // math.prod(mesh[a] for a in names) for s, names in zip(shape, per_dim)]
    pairs = []
    for device in itertools.product(*(range(mesh[a]) for a in axes)):
        where = dict(zip(axes, device))
        starts = []
        for d, names in enumerate(per_dim):
            block = 0
            for a in names:  # first mesh axis is major
                block = block * mesh[a] + where[a]
            starts.append(block * local[d])
        for loc in np.ndindex(*local):
            glob = tuple(s + x for s, x in zip(starts, loc))
            m = int(np.ravel_multi_index(loc, local)) if local else 0
            coord = {a: where[a] for a in axes if mesh[a] > 1}
            coord["m"] = m
            pairs.append((glob, coord))
    return collect(pairs)


MESH_CASES = [
    ({"dp": 2, "tp": 2}, ("dp", None), (8, 4)),
    ({"dp": 2, "tp": 2}, (None, "tp"), (4, 6)),
    ({"mx": 2, "my": 4}, (("mx", "my"), None), (16, 3)),
    ({"mx": 2, "my": 4}, (("my", "mx"), None), (16, 3)),
    ({"mx": 2, "my": 2, "mz": 2}, ("mz", "mx"), (4, 4)),
    ({"mpod": 2, "mchip": 4}, (None, None, None), (2, 3, 4)),
]


@pytest.mark.parametrize(("mesh", "spec", "shape"), MESH_CASES)
def test_mesh_shard_matches_block_slicing(mesh, spec, shape):
    p = presets.get("mesh.shard", mesh=mesh, spec=spec, shape=shape)
    assert of_preset(p) == mesh_table(mesh, spec, shape)
    assert not any(tl.is_axis(a) for a in mesh)  # building a preset declares nothing
    assert eval(repr(p.layout), vars(tl)) == p.layout
    for a in mesh:
        assert tl.axis(a, list(mesh)).kind == "device"


@pytest.mark.parametrize(("params", "message"), [
    ({"mesh": {"mx": 2}, "spec": ("my",), "shape": (4,)}, "mesh has mx"),
    ({"mesh": {"mx": 3}, "spec": ("mx",), "shape": (4,)}, "does not split evenly"),
    ({"mesh": {"mx": 2}, "spec": ("mx", "mx"), "shape": (4, 4)}, "appear once"),
    ({"mesh": {"mx": 2}, "spec": ("mx",), "shape": (4, 4)}, "one entry"),
    ({"mesh": {"laneid": 2}, "spec": ("laneid",), "shape": (4,)}, "clashes"),
    ({"mesh": {"mx": 0}, "spec": ("mx",), "shape": (4,)}, "positive integer"),
])
def test_mesh_bad_params(params, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get("mesh.shard", **params)


# SBUF bytes per partition by generation (docs/hardware-facts.md#trainium)
CAPACITY = {"trn1": 192 * 1024, "trn2": 224 * 1024, "trn3": 256 * 1024}


@pytest.mark.parametrize("generation", list(CAPACITY))
@pytest.mark.parametrize("dtype,nbytes", [("bfloat16", 2), ("float32", 4), ("int8", 1)])
def test_sbuf_capacity_per_generation(generation, dtype, nbytes):
    cap = CAPACITY[generation] // nbytes  # elements that fit one partition
    p = presets.get("trainium.sbuf", shape=(2, cap), dtype=dtype, generation=generation)
    assert p.dtype == dtype and p.layout.base((1, cap - 1), shape=p.shape) == {"P": 1, "F": cap - 1}
    with pytest.raises(presets.PresetError, match=rf"{cap * nbytes + nbytes} bytes per partition "
                       rf".* a {generation} SBUF partition has {CAPACITY[generation] // 1024} KiB "
                       r"\(NKI docs"):
        presets.get("trainium.sbuf", shape=(128, cap + 1), dtype=dtype, generation=generation)
    # the legality report: the first and last free offsets of a partition, one past the end
    last = tl.parse(f"S[(2,2):(1@P,{cap - 1}@F)]")
    over = tl.parse(f"S[(2,2):(1@P,{cap}@F)]")
    kinds = [f.kind for f in tl.legality(last, dtype=dtype, generation=generation).findings]
    assert kinds == ["unused"]  # the holes between the two offsets, nothing else
    report = tl.legality(over, dtype=dtype, generation=generation)
    assert [f.kind for f in report.findings] == ["capacity", "unused"]


def test_psum_generation_and_bank_width():
    for generation in CAPACITY:  # 16 KiB = 8 x 2 KiB on every generation
        assert presets.get("trainium.psum", shape=(128, 4096), generation=generation).shape
        with pytest.raises(presets.PresetError, match="16 KiB"):
            presets.get("trainium.psum", shape=(128, 4608), generation=generation)
    report = tl.legality(tl.parse("S[(128,2,600):(1@P,1@Bank,1@F)]"))
    assert "capacity" in [f.kind for f in report.findings]
