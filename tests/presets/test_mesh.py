"""mesh.shard: a global tensor over a device mesh, block by block like NamedSharding."""

import itertools

import pytest

from tests.helpers import spec_holders
from tilelayout import presets
from tilelayout.presets.registry import PresetError


@pytest.mark.parametrize(("mesh", "spec", "shape"), [
    ({"dp": 2, "tp": 2}, ("dp", None), (8, 4)),
    ({"dp": 2, "tp": 4}, (None, "tp"), (2, 8)),
    ({"dp": 2, "tp": 2}, (("dp", "tp"), None), (8, 2)),
    ({"dp": 4}, (None, None), (2, 2)),
])
def test_each_device_holds_its_block(mesh, spec, shape):
    p = presets.get("mesh.shard", mesh=mesh, spec=spec, shape=shape)
    assert p.shape == shape
    for index in itertools.product(*(range(n) for n in shape)):
        holders = {tuple(c.get(a, 0) for a in mesh) for c in p.layout.apply(index, shape)}
        assert holders == spec_holders(mesh, spec, shape, index), index


def test_mesh_text_parameters_read_by_the_one_grammar():
    params = presets.parse_params("mesh.shard", {"mesh": "dp=2,tp=2", "spec": "dp,None"})
    assert presets.get("mesh.shard", **params) == presets.get("mesh.shard")


@pytest.mark.parametrize("params", [
    {"mesh": {"dp": 3}, "spec": ("dp",), "shape": (8,)},     # uneven blocks
    {"mesh": {"dp": 2}, "spec": ("xx",), "shape": (8,)},     # an axis the mesh lacks
    {"mesh": {"laneid": 2}, "spec": ("laneid",), "shape": (8,)},  # not a device axis
])
def test_bad_shardings_are_refused(params):
    with pytest.raises(PresetError):
        presets.get("mesh.shard", **params)
