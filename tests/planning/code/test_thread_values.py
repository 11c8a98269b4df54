"""Closed forms of thread-dependent values: every fitted form reproduces every value a
thread needs, and picks the simplest kind."""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout.planning.code.thread_values import ANY, Condition, Form, fit, fit_condition

T = np.arange(256)


def _agrees(f: Form, values: np.ndarray) -> bool:
    got = f.values(len(values))
    known = values != ANY
    return bool((got[known] == values[known]).all())


@pytest.mark.parametrize("values, kind", [
    (np.full(256, 5), "const"),
    (T % 32 * 4 + T // 32 * 1024, "add"),                       # a strided tile
    ((T % 8) ^ (T // 8 % 8), "xor"),                            # a 3-bit swizzle
    (np.where(T % 4 == 0, 0x5410, 0x1054), "choice"),           # a selector per quad lane
    ((T * 2654435761) % 97, "table"),
])
def test_the_simplest_form_holds_for_every_thread(values, kind):
    f = fit(values)
    assert f.kind == kind and _agrees(f, values)


def test_threads_that_need_no_value_free_the_form():
    values = np.where(T % 2 == 0, T, ANY)   # odd threads: any value
    f = fit(values)
    assert f.kind in ("add", "xor") and _agrees(f, values)


def test_random_linear_maps_are_found():
    rng = np.random.default_rng(3)
    for _ in range(50):
        bits = rng.integers(0, 1 << 10, size=8)
        base = int(rng.integers(0, 1 << 10))
        values = np.array([Form("xor", base, tuple(int(b) for b in bits)).value(t)
                           for t in range(256)])
        values[rng.random(256) < 0.3] = ANY
        assert _agrees(fit(values), values)


@pytest.mark.parametrize("truth, kind", [
    (np.ones(64, bool), "true"), (np.zeros(64, bool), "false"),
    (T[:64] % 4 == 0, "cube"), (T[:64] >= 32, "cube"),
    ((T[:64] % 4 == 0) | (T[:64] % 4 == 3), "parity"),
    (np.isin(T[:64], [1, 2, 7, 40]), "table"),
])
def test_conditions_hold_exactly_where_asked(truth, kind):
    c = fit_condition(truth.astype(np.int64))
    assert c.kind == kind
    assert [c.holds(t) for t in range(64)] == truth.tolist()


def test_a_parity_condition_is_true_where_the_values_are_one():
    # the values are 1 where lane & 7 has an even number of bits: base 1 ^ parity
    truth = np.array([bin(t & 7).count("1") % 2 == 0 for t in range(32)])
    c = fit_condition(truth.astype(np.int64))
    assert c.kind == "parity" and [c.holds(t) for t in range(32)] == truth.tolist()
    assert Condition("parity", 7, 0).holds(3) and not Condition("parity", 7, 0).holds(1)
