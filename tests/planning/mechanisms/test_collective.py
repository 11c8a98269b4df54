"""classify: which collective takes one device distribution of a tile to another."""

import numpy as np
import pytest

from tilelayout.planning.mechanisms.collective import classify


def _pairs(holdings):
    """{device: elements} -> (device, element) arrays."""
    dev = [d for d, els in holdings.items() for _ in els]
    el = [e for els in holdings.values() for e in els]
    return np.array(dev), np.array(el)


@pytest.mark.parametrize(("before", "after", "name"), [
    ({0: [0, 1], 1: [0, 1]}, {0: [0], 1: [1]}, "local slice"),
    ({0: [0], 1: [1]}, {0: [1], 1: [0]}, "collective-permute"),
    ({0: [0], 1: [1]}, {0: [0, 1], 1: [0, 1]}, "all-gather"),
    ({0: [0, 1], 1: [2, 3]}, {0: [0, 2], 1: [1, 3]}, "all-to-all"),
])
def test_names_follow_xla(before, after, name):
    c = classify(*_pairs(before), *_pairs(after), 2)
    assert c.name == name


def test_every_missing_element_is_received_once_from_a_holder():
    before, after = {0: [0, 1], 1: [2, 3]}, {0: [0, 2], 1: [1, 3]}
    c = classify(*_pairs(before), *_pairs(after), 2)
    for d, e, s in zip(c.need_device, c.need_element, c.sender, strict=True):
        assert e in before[int(s)] and e not in before[int(d)]
    assert c.sent.tolist() == c.received.tolist() == [1, 1]


def test_nothing_moves_when_nothing_changes():
    same = {0: [0, 1], 1: [2, 3]}
    c = classify(*_pairs(same), *_pairs(same), 2)
    assert c.sent.sum() == c.received.sum() == 0 and len(c.need_device) == 0
