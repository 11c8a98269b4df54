"""Warp shuffle schedules: Kőnig's bound reached, each round a matching, every word moved."""

import numpy as np
import pytest

from tilelayout.planning.mechanisms.shuffle.shuffle import degree, schedule

RNG = np.random.default_rng(7)


def _check(warp, sender, word, receiver):
    s = schedule(warp, sender, word, receiver)
    assert s.rounds == s.lower_bound == degree(warp, sender, receiver)
    assert s.src_lane.shape == s.send_word.shape == (s.rounds, int(warp.max()) + 1, 32)
    for i, (w, snd, wd, rcv) in enumerate(zip(warp, sender, word, receiver, strict=True)):
        r = s.edge_round[i]
        assert 0 <= r < s.rounds
        assert s.src_lane[r, w, rcv] == snd          # the receiver names its sender
        assert s.send_word[r, w, snd] == wd          # the sender offers that word
    return s


def test_a_rotation_takes_one_round():
    lanes = np.arange(32)
    s = _check(np.zeros(32, int), lanes, np.zeros(32, int), (lanes + 1) % 32)
    assert s.rounds == 1 and s.src_lane[0, 0, :4].tolist() == [31, 0, 1, 2]


def test_a_transpose_of_words_takes_as_many_rounds_as_its_degree():
    # lane l sends word k to lane (l + k) % 32 for k < 4: each lane sends and receives 4
    lane = np.repeat(np.arange(32), 4)
    word = np.tile(np.arange(4), 32)
    _check(np.zeros(128, int), lane, word, (lane + word) % 32)


@pytest.mark.parametrize("seed", range(5))
def test_random_transfers_over_two_warps(seed):
    rng = np.random.default_rng(seed)
    n = 200
    warp = rng.integers(0, 2, n)
    sender, receiver = rng.integers(0, 32, n), rng.integers(0, 32, n)
    word = rng.integers(0, 8, n)
    # one word per (warp, sender, word) may go to many receivers but a receiver reads it once
    key = np.unique(np.stack([warp, sender, word, receiver]), axis=1)
    _check(*key)


def test_no_transfers_no_rounds():
    empty = np.array([], dtype=np.int64)
    assert degree(empty, empty, empty) == 0
