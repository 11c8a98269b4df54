"""Frozen data: what an immutable value may hold.

A frozen value (a frozen dataclass) holds tuples, read-only mappings (``MappingProxyType``)
and read-only numpy arrays, so nothing it carries can be changed through it. (Arrays are
recognised by numpy's ``setflags``: the model itself imports no numpy.)
:func:`frozen` turns plain data (dicts, lists, writable arrays, nested) into that form;
:func:`freeze_fields` does it to a dataclass's array fields as it is made (its
``__post_init__``). The way back to JSON is :func:`tilelayout.core.jsonable.jsonable`.

>>> d = frozen({"worst": {"banks": [1, 2]}, "pass": 0})
>>> d["worst"]["banks"], type(d["worst"]).__name__
((1, 2), 'mappingproxy')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def frozen(value: Any) -> Any:
    """``value`` with every mapping read-only, every list or tuple a tuple and every numpy
    array a read-only view (the caller's array stays writable), nested ones too.

    >>> import numpy as np
    >>> a = np.arange(3)
    >>> f = frozen([a, {"k": [1]}])
    >>> f[0].flags.writeable, a.flags.writeable, f[1]["k"]
    (False, True, (1,))
    """
    if type(value) in _SCALARS:  # the common case, without the checks below
        return value
    if _is_array(value):
        return _read_only(value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, tuple | list):
        return tuple(frozen(v) for v in value)
    return value


#: plain immutable values (exact types: a subclass may hold more)
_SCALARS = frozenset({int, float, str, bool, bytes, type(None)})


def freeze_fields(value: Any) -> None:
    """Make the numpy arrays a frozen dataclass instance holds (directly or in tuples)
    read-only views: call it from ``__post_init__``.

    >>> import numpy as np
    >>> @dataclasses.dataclass(frozen=True)
    ... class Rows:
    ...     index: object
    ...     def __post_init__(self) -> None:
    ...         freeze_fields(self)
    >>> Rows(np.arange(4)).index.flags.writeable
    False
    """
    for field in dataclasses.fields(value):
        v = getattr(value, field.name)
        if _is_array(v):
            object.__setattr__(value, field.name, _read_only(v))
        elif isinstance(v, tuple) and any(_is_array(x) for x in v):
            object.__setattr__(value, field.name, tuple(
                _read_only(x) if _is_array(x) else x for x in v))


def _is_array(value: Any) -> bool:
    return hasattr(value, "setflags") and hasattr(value, "flags")


def _read_only(array: Any) -> Any:
    if not array.flags.writeable:
        return array
    view = array.view()
    view.setflags(write=False)
    return view
