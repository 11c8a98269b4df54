"""Plain JSON data from the model's immutable values.

Frozen values hold tuples and read-only mappings; JSON wants lists and dicts with
string keys. :func:`jsonable` is the one conversion every report and answer uses (the
way back is :func:`tilelayout.core.frozen.frozen`).

>>> from types import MappingProxyType
>>> jsonable({"mesh": MappingProxyType({"dp": 2}), "spec": (("dp", "tp"), None), 3: 4})
{'mesh': {'dp': 2}, 'spec': [['dp', 'tp'], None], '3': 4}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with every mapping a dict (keys as text) and every tuple/list a list."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    return value

