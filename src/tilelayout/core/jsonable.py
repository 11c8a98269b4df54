"""Plain JSON data from the model's immutable values, and frozen data from plain data.

Frozen values hold tuples and read-only mappings; JSON wants lists and dicts with
string keys. :func:`jsonable` is the one conversion every report and answer uses;
:func:`frozen` is the way back a value takes nested details in with.

>>> from types import MappingProxyType
>>> jsonable({"mesh": MappingProxyType({"dp": 2}), "spec": (("dp", "tp"), None), 3: 4})
{'mesh': {'dp': 2}, 'spec': [['dp', 'tp'], None], '3': 4}
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with every mapping a dict (keys as text) and every tuple/list a list."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [jsonable(v) for v in value]
    return value


def frozen(value: Any) -> Any:
    """``value`` with every mapping read-only (a ``MappingProxyType``) and every list or
    tuple a tuple, nested ones too: what a frozen value may hold.

    >>> d = frozen({"worst": {"banks": [1, 2]}, "pass": 0})
    >>> d["worst"]["banks"], type(d["worst"]).__name__
    ((1, 2), 'mappingproxy')
    """
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, tuple | list):
        return tuple(frozen(v) for v in value)
    return value
