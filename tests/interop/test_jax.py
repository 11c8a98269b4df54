"""JAX shardings without JAX: meshes, PartitionSpec entries to layouts and back."""

import itertools

import pytest

import tilelayout as tl
from tests.helpers import spec_holders
from tilelayout.interop import InteropError
from tilelayout.interop.jax import from_partition_spec, mesh_axes, mesh_table, partition_spec_entries

MESH = {"x": 2, "y": 4}


def test_mesh_axes_from_mappings_and_pairs():
    assert mesh_axes(MESH) == mesh_axes([("x", 2), ("y", 4)]) == {"x": 2, "y": 4}
    table = mesh_table(MESH)
    assert table["y"].kind == table["x"].kind == "device"
    assert not tl.is_axis("x")  # a value: nothing in force changed


@pytest.mark.parametrize(("spec", "shape"), [
    (("x", None), (8, 6)), ((None, "y"), (3, 8)), ((("x", "y"),), (16,)),
    (("y", "x"), (8, 4)), ((), (4, 4)), (("x",), (2, 3)),
])
def test_from_partition_spec_places_blocks_as_jax_does(spec, shape):
    L = from_partition_spec(spec, MESH, shape)
    for index in itertools.product(*(range(n) for n in shape)):
        devices = {tuple(c.get(a, 0) for a in MESH) for c in L.apply(index, shape)}
        assert devices == spec_holders(MESH, spec, shape, index), index
    back = partition_spec_entries(L, MESH, shape)
    assert from_partition_spec(back, MESH, shape) == L


def test_uneven_splits_and_unknown_axes_are_refused():
    with pytest.raises(InteropError, match="does not split evenly"):
        from_partition_spec(("y",), MESH, (6,))
    with pytest.raises(tl.LayoutError, match="z"):
        from_partition_spec(("z",), MESH, (8,))


def test_layouts_a_sharding_cannot_express_say_why():
    with pytest.raises(InteropError, match="swizzles"):
        partition_spec_entries(tl.parse("ComposeLayout(Swizzle(1,1,1), S[(2,4):(1@pid,1)])"),
                               {"pid": 2}, (8,))
    with pytest.raises(InteropError):
        partition_spec_entries(tl.parse("S[(4,2):(1,1@pid)]"), {"pid": 2}, (8,))  # cyclic
