"""jsonable: frozen values -> plain JSON data."""

import json
from types import MappingProxyType

from tilelayout.core.jsonable import jsonable


def test_mappings_and_tuples_become_dicts_and_lists_recursively():
    value = {"mesh": MappingProxyType({"dp": 2}), "spec": (("dp", "tp"), None), 3: [(1,)]}
    out = jsonable(value)
    assert out == {"mesh": {"dp": 2}, "spec": [["dp", "tp"], None], "3": [[1]]}
    assert json.loads(json.dumps(out)) == out


def test_scalars_pass_through():
    for v in (1, 2.5, "x", None, True):
        assert jsonable(v) is v
