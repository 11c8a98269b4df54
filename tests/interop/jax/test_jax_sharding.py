"""JAX shardings against real JAX on 8 host CPU devices: for every device, the elements
our layout assigns to it (and their positions in its block) are exactly JAX's shard."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.interop import InteropError
from tilelayout.interop.jax import (
    from_named_sharding,
    from_partition_spec,
    mesh_table,
    partition_spec_entries,
    to_named_sharding,
    to_partition_spec,
)

jax = pytest.importorskip("jax", reason="JAX is the optional 'jax' extra")
Mesh = jax.sharding.Mesh
NamedSharding = jax.sharding.NamedSharding
P = jax.sharding.PartitionSpec


def parse(text: str) -> tl.Layout:
    """Layout text over the tests' mesh axes x and y (declared by the mesh's table)."""
    return tl.parse(text, axes=mesh_table({"x": 2, "y": 4}))


@pytest.fixture(scope="module")
def devices():
    devs = jax.devices()
    if len(devs) != 8:
        pytest.fail(
            f"expected 8 host CPU devices from XLA_FLAGS (tests/interop/jax/conftest.py), got "
            f"{len(devs)}: jax was imported before the flag was set"
        )
    return devs


def _mesh(devices, mesh_shape: dict[str, int]) -> Mesh:
    return Mesh(np.array(devices).reshape(tuple(mesh_shape.values())), tuple(mesh_shape))


CASES = [
    # 1-D mesh
    ({"x": 8}, P("x"), (16,)),
    ({"x": 8}, P(None, "x"), (3, 16)),
    ({"x": 8}, P(), (4, 6)),  # fully replicated
    # 2-D mesh
    ({"x": 2, "y": 4}, P("x", "y"), (6, 8)),
    ({"x": 2, "y": 4}, P("y", "x"), (8, 6)),
    ({"x": 2, "y": 4}, P(("x", "y")), (16, 3)),
    ({"x": 2, "y": 4}, P(("y", "x"), None), (8, 5)),
    ({"x": 2, "y": 4}, P("x"), (4, 4)),  # replicated over y
    ({"x": 2, "y": 4}, P(None, "y"), (3, 12)),  # replicated over x
    # 3-D mesh
    ({"a": 2, "b": 2, "c": 2}, P("a", ("b", "c")), (4, 8)),
    ({"a": 2, "b": 2, "c": 2}, P(("c", "a"), None, "b"), (4, 3, 2)),
    ({"a": 2, "b": 2, "c": 2}, P("b"), (6, 2, 2)),  # replicated over a and c
    ({"a": 2, "b": 2, "c": 2}, P(None, ("a", "b", "c")), (2, 16)),
]


@pytest.mark.parametrize(("mesh_shape", "spec", "shape"), CASES,
                         ids=[f"{'x'.join(map(str, m.values()))}-{s}-{a}" for m, s, a in CASES])
def test_every_device_holds_exactly_our_elements(devices, mesh_shape, spec, shape):
    mesh = _mesh(devices, mesh_shape)
    layout = from_partition_spec(spec, mesh_shape, shape)
    values = np.arange(math.prod(shape)).reshape(shape)
    arr = jax.device_put(values, NamedSharding(mesh, spec))
    coords = layout.map_all(shape)
    n, r = math.prod(shape), layout.replica_count
    axes = list(mesh_shape)
    per_axis = {a: coords[a].reshape(n, r) if a in coords else np.zeros((n, r), int) for a in axes}
    local = coords["m"].reshape(n, r)
    assert len(arr.addressable_shards) == 8
    for shard in arr.addressable_shards:
        where = np.argwhere(mesh.devices == shard.device)[0]
        hit = np.ones((n, r), dtype=bool)
        for a, c in zip(axes, where, strict=True):
            hit &= per_axis[a] == c
        data = np.asarray(shard.data).reshape(-1)
        elements, replica = np.nonzero(hit)
        assert sorted(elements.tolist()) == sorted(data.tolist()), (shard.device, spec)
        # the position inside the device's dense row-major block is our 'm'
        assert np.array_equal(data[local[elements, replica]], elements)
    # back to JAX: the same spec, and the same sharding object
    assert partition_spec_entries(layout, mesh_shape, shape) == tuple(spec) + (None,) * (
        len(shape) - len(spec)
    )
    assert to_partition_spec(layout, mesh, shape) == P(*partition_spec_entries(layout, mesh, shape))
    assert to_named_sharding(layout, mesh, shape).is_equivalent_to(arr.sharding, len(shape))
    assert from_named_sharding(arr.sharding, shape) == layout


def test_refusals_say_why(devices):
    mesh = {"x": 2, "y": 4}
    with pytest.raises(InteropError, match="does not split evenly"):
        from_partition_spec(P("y"), mesh, (6,))
    with pytest.raises(InteropError, match="offset"):
        partition_spec_entries(parse("S[(2,4):(1@x,1)] + R[4:1@y] + 1@x"), mesh)
    with pytest.raises(InteropError, match="interleaved"):  # cyclic: element i on device i % 2
        partition_spec_entries(parse("S[(4,2):(1,1@x)] + R[4:1@y]"), mesh, (8,))
    with pytest.raises(InteropError, match="skips devices"):
        partition_spec_entries(parse("S[(2,4):(2@y,1)] + R[2:1@x]"), mesh, (8,))
    with pytest.raises(InteropError, match="uses 2 of the 4"):
        partition_spec_entries(parse("S[(2,4):(1@y,1)] + R[2:1@x]"), mesh, (8,))
    with pytest.raises(InteropError, match="neither split nor replicated"):
        partition_spec_entries(parse("S[(2,4):(1@x,1)]"), mesh, (8,))
    with pytest.raises(InteropError, match="row-major"):  # blocks stored column-major
        partition_spec_entries(parse("S[(2,2,3):(1@x,1,2)] + R[4:1@y]"), mesh, (4, 3))
    with pytest.raises(InteropError, match="neither mesh axes"):
        partition_spec_entries(parse("S[(2,4):(1@x,1@laneid)] + R[4:1@y]"), mesh)
    with pytest.raises(InteropError, match="clashes"):
        from_partition_spec(P("laneid"), {"laneid": 2}, (4,))
    with pytest.raises(InteropError, match="used twice"):
        from_partition_spec(P("x", "x"), mesh, (4, 4))


def test_mesh_shard_preset_is_the_same_layout():
    from tilelayout import presets

    for mesh, spec, shape in [({"x": 2, "y": 4}, ("x", None), (8, 6)),
                              ({"a": 2, "b": 2, "c": 2}, (("c", "a"), None, "b"), (4, 3, 2)),
                              # one element per device: m = 0 is still in every coordinate
                              ({"x": 2, "y": 4}, ("x", "y"), (2, 4)),
                              ({"x": 2, "y": 4}, (("x", "y"),), (8,))]:
        preset = presets.get("mesh.shard", mesh=mesh, spec=spec, shape=shape)
        assert from_partition_spec(spec, mesh, shape) == preset.layout
        assert "m" in from_partition_spec(spec, mesh, shape).axes


def test_replica_order_does_not_matter(devices):
    # a replica is a set of offsets: R[(2,2):(1@y,2@y)] is R[4:1@y] (offsets 0..3 of y),
    # so both spellings are the same JAX sharding, replicated over every device of y
    mesh = {"x": 2, "y": 4}
    for text in ("S[(2,4,6):(1@x,6,1)] + R[(2,2):(2@y,1@y)]",
                 "S[(2,4,6):(1@x,6,1)] + R[(2,2):(1@y,2@y)]"):
        assert partition_spec_entries(parse(text), mesh, (8, 6)) == ("x", None)
    with pytest.raises(InteropError, match="does not copy"):  # offsets {0, 2}: half of y
        partition_spec_entries(parse("S[(2,4,6):(1@x,6,1)] + R[(2,2):(2@y,0@y)]"),
                               mesh, (8, 6))
