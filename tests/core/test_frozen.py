"""frozen / freeze_fields: the data an immutable value may hold."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import numpy as np
import pytest

from tilelayout.core.frozen import freeze_fields, frozen


def test_nested_plain_data_becomes_read_only():
    a = np.arange(4)
    f = frozen({"rows": [a, [1, 2]], "name": "x", "more": {"k": (3, [4])}})
    assert isinstance(f, MappingProxyType) and isinstance(f["more"], MappingProxyType)
    assert f["rows"][1] == (1, 2) and f["more"]["k"] == (3, (4,)) and f["name"] == "x"
    with pytest.raises(ValueError):
        f["rows"][0][0] = 9
    a[0] = 9  # the caller's array is not changed by freezing
    assert a.flags.writeable and f["rows"][0][0] == 9
    with pytest.raises(TypeError):
        f["new"] = 1  # type: ignore[index]


def test_a_dataclass_s_arrays_are_frozen_as_it_is_made():
    @dataclasses.dataclass(frozen=True)
    class Schedule:
        rows: np.ndarray
        pair: tuple[np.ndarray, int]
        note: str = ""

        def __post_init__(self) -> None:
            freeze_fields(self)

    s = Schedule(np.zeros(3), (np.ones(2), 5))
    assert not s.rows.flags.writeable and not s.pair[0].flags.writeable and s.pair[1] == 5
    with pytest.raises(ValueError):
        s.rows[0] = 1.0
